"""Fuzzing the operators: the conformance cases (``tests/conformance/cases_*.py``) on Hypothesis-made inputs.

Which cases. *Elementwise* cases (every primitive they name is an elementwise one: the math family's arithmetic,
unary, comparison, logic and bitwise ops, the clip/lerp/addcmul compositions, the activations of the nn family,
Cast and the *_like ops of the core family) and *axis* cases (the whole reduce family, cumulative sums and
products, softmax and log-softmax), each in both modes.

Inputs. A variant keeps every input's rank and dtype (float inputs take one of the case's ``dtypes``). Elementwise
cases get new shapes that stay broadcast-compatible: each dim of the broadcast result is redrawn in [0, 5] (0: an
empty tensor) and every input follows it, or keeps 1 where it broadcast, or takes 1 to broadcast anew. Axis cases
redraw each dim in [0, 5]. Values are unrestricted: NaN, infinities, subnormals, the largest finite values, every
integer of the dtype, or small integers (zeros for the divisions).

Checks, on every variant:

* no crash and no internal exception type; an error is allowed only on an empty input of an axis case, only if
  it is a MindSpore error (``ValueError``/``RuntimeError`` raised by MindSpore) and only if both modes raise it;
* eager and GRAPH (``ms.jit``) outputs have the same dtype and shape, the case's ``out_dtype`` when it has one and,
  for elementwise cases, the broadcast shape; their values are equal (same NaN positions, same infinities,
  floats within the case's tolerance);
* against the case's NumPy oracle, where the oracle is valid for any input: a NumPy ufunc of the op's own
  semantics (elementwise), or a case listed in ``ORACLE_DOMAIN`` with the values it is valid for.

``UFUNC_ORACLE_DOMAIN`` lists the cases whose oracle is a ufunc that agrees with the op on part of the domain only;
``KNOWN_ISSUES`` the real discrepancies this suite found whose fix lies elsewhere (each with a strict xfail test).
"""
from __future__ import annotations

import collections
import importlib.util
import pathlib
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mindspore as ms

from fuzz_harness import COUNTS, fuzz_settings

CONFORMANCE = pathlib.Path(__file__).resolve().parents[1] / "conformance"
if str(CONFORMANCE) not in sys.path:
    sys.path.insert(0, str(CONFORMANCE))  # the case files import ``case``

ELEMENTWISE_PRIMS = frozenset({
    # math
    "Add", "Sub", "Mul", "RealDiv", "Div", "DivNoNan", "FloorDiv", "FloorMod", "Mod", "TruncateDiv", "TruncateMod",
    "Pow", "Maximum", "Minimum", "SquaredDifference", "Atan2", "Xlogy", "Hypot", "Neg", "Abs", "Square", "Reciprocal",
    "Sqrt", "Rsqrt", "Exp", "Log", "Log1p", "Expm1", "Sign", "Floor", "Ceil", "Trunc", "Round", "Sin", "Cos", "Tan",
    "Asin", "ACos", "Atan", "Sinh", "Cosh", "Tanh", "Asinh", "Acosh", "Atanh", "Erf", "Erfc", "Erfinv", "Equal",
    "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual", "LogicalAnd", "LogicalOr", "LogicalXor",
    "LogicalNot", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "IsNan", "IsInf", "IsFinite", "Fmax", "Fmin",
    "Gcd", "Lcm", "Heaviside", "IsClose", "NanToNum", "Sinc", "Addcmul", "Addcdiv", "Lerp", "Cast",
    # nn activations
    "ReLU", "ReLU6", "Sigmoid", "GeLU", "FastGeLU", "HSwish", "HSigmoid", "Elu", "CeLU", "SeLU", "Softplus",
    "Softsign", "Mish", "HShrink", "SoftShrink",
    # core
    "ZerosLike", "OnesLike", "StopGradient", "Identity",
})
AXIS_PRIMS = frozenset({"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceAll", "ReduceAny",
                        "Argmax", "Argmin", "ArgMaxWithValue", "ArgMinWithValue", "Median", "Cummax", "Cummin",
                        "LpNorm", "L2Loss", "ReduceStd", "CumSum", "CumProd", "Softmax", "LogSoftmax"})
FAMILIES = ("math", "nn", "core", "reduce")

# Cases whose primitives are elementwise and whose outputs have the broadcast shape, but whose op is not a map.
NOT_ELEMENTWISE = {"glu": "takes halves of an axis", "copysign_signbit": "its second output is signbit(y) alone"}

# Non-ufunc oracles valid on a whole domain: "any" (every value), "no_nan" (no NaN), "finite" (no NaN or inf),
# "moderate" (|x| <= 100: oracles that overflow or lose precision where the kernel is right).
ORACLE_DOMAIN = {
    "add_scalar_right": "any", "add_scalar_left": "any", "sub_scalar_left": "any", "subtract_alpha": "any",
    "truediv_operator_scalar_left": "any", "pow_operator_scalar": "any", "pow_scalar_base": "any",
    "squared_difference": "any", "reciprocal": "any", "rsqrt": "any", "addcmul": "finite", "addcdiv": "finite",
    "lerp_tensor_weight": "finite", "clip_by_value": "no_nan", "clip_max_only": "no_nan",
    "relu": "no_nan", "relu_nan": "any", "relu_prim_int": "any", "relu6": "no_nan", "sigmoid": "any",
    "sigmoid_extreme": "any", "gelu_tanh_prim": "any", "gelu_tanh_functional": "any", "gelu_exact": "finite",
    "fast_gelu": "finite", "silu": "moderate", "hswish": "moderate", "hsigmoid": "no_nan",
    "hardswish_functional": "moderate", "elu": "no_nan", "elu_alpha": "no_nan", "celu": "no_nan", "selu": "no_nan",
    "leaky_relu": "no_nan", "softplus": "any", "softplus_beta": "finite", "softsign": "finite", "mish": "finite",
    "hshrink": "no_nan", "softshrink": "no_nan", "tanhshrink": "moderate", "hardtanh": "no_nan",
    "logsigmoid": "any", "threshold": "no_nan",
    # ddof > N: NaN, as MindSpore 2.10 gives (NumPy: inf)
    "std_ddof": "ddof_below_count",
    "reduce_sum_axis1": "any", "reduce_sum_keep_multi": "any", "reduce_sum_neg_axis": "any", "reduce_sum_all": "any",
    "reduce_sum_tensor_axis": "any", "reduce_sum_functional": "any", "sum_dim_dtype": "any",
    "reduce_mean_keep": "finite", "reduce_mean_neg_axis": "finite", "mean_all": "finite",
    "reduce_mean_functional": "finite", "reduce_max_axis": "no_nan", "reduce_max_keep_multi": "no_nan",
    "reduce_max_int": "any", "reduce_min_all": "no_nan", "reduce_min_neg_axis_keep": "no_nan", "amax": "no_nan",
    "amin_keep": "no_nan", "reduce_max_min_functional": "no_nan", "aminmax": "no_nan",
    "reduce_prod_axis": "any", "reduce_prod_keep_neg": "any", "reduce_prod_zeros": "any", "prod_all_zeros": "any",
    "reduce_all": "any", "reduce_any_keep": "any", "all_any_numbers": "any", "argmax_prim": "no_nan",
    "argmax_prim_axis0_int64": "any", "argmin_prim": "no_nan", "argmax_flat": "no_nan", "argmax_dim_keep": "no_nan",
    "argmin_axis": "no_nan", "argmax_with_value": "no_nan", "argmax_with_value_keep_neg": "no_nan",
    "argmin_with_value": "no_nan", "max_axis": "no_nan", "min_axis_keep": "no_nan", "max_initial": "no_nan",
    "lp_norm_p2": "moderate", "lp_norm_p1_keep": "moderate", "lp_norm_p3_neg": "moderate", "norm_default": "moderate",
    "norm_vector_inf": "no_nan", "l2_loss": "moderate", "reduce_std": "moderate", "reduce_std_biased_keep_all":
        "moderate", "std_ddof": "moderate", "std_mean_keep": "moderate", "var": "moderate", "var_mean_all": "moderate",
    "logsumexp": "moderate", "logsumexp_keep_multi": "moderate", "count_nonzero": "any",
    "count_nonzero_all_keep": "any", "cumsum_axis1": "any", "cumsum_exclusive_reverse": "finite",
    "cumsum_exclusive": "finite", "cumsum_reverse": "finite", "cumprod": "finite", "cumsum_dtype_arg": "any",
    "cumsum_int32_stays_int32": "moderate", "softmax": "moderate", "softmax_axis_tuple": "moderate",
    "softmin": "moderate", "log_softmax": "moderate",
}

# Cases whose oracle is a ufunc that agrees with the op on part of the domain only: that domain, and why.
UFUNC_ORACLE_DOMAIN = {
    "div_no_nan_grad": ("no_zero_divisor", "DivNoNan gives 0 where the divisor is 0; the oracle is true_divide"),
    "float_power": ("power_fits_float32", "float_power computes in float64; the oracle np.power in the inputs' "
                                          "float32, which overflows or underflows first"),
}
# Real discrepancies whose fix lies outside this suite's reach: compared only where the op is right, each with a
# strict xfail test. None is open (the four found were fixed: see test_fixed_* below).
KNOWN_ISSUES = {}


def _outputs(fn, arrays):
    out = fn(*[ms.Tensor(a) for a in arrays])
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _flatten(outs):
    flat = []
    for o in outs:
        if isinstance(o, (tuple, list)):
            flat.extend(_flatten(o))
        else:
            flat.append(o)
    return flat


def _maps(case):
    """Whether ``case.op`` maps its inputs elementwise: its outputs have the broadcast shape of its inputs."""
    try:
        full = np.broadcast_shapes(*[a.shape for a in case.inputs])
    except ValueError:
        return False  # e.g. outer(a, b)
    outs = _outputs(case.op, [np.asarray(a) for a in case.inputs])
    return all(isinstance(o, ms.Tensor) and o.shape == full for o in _flatten(outs))


def _load_cases():
    out = []
    for family in FAMILIES:
        path = CONFORMANCE / f"cases_{family}.py"
        spec = importlib.util.spec_from_file_location(f"fuzz_cases_{family}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for case in module.CASES:
            arrays = all(isinstance(a, np.ndarray) for a in case.inputs)
            if not case.inputs or not arrays or "graph" not in case.modes or not case.prims:
                continue
            if set(case.prims) <= ELEMENTWISE_PRIMS and case.name not in NOT_ELEMENTWISE and _maps(case):
                out.append((family, "elementwise", case))
            elif set(case.prims) <= AXIS_PRIMS and len(case.inputs) == 1:
                out.append((family, "axis", case))
    return out


CASES = _load_cases()
IDS = [f"{family}-{case.name}" for family, _, case in CASES]


# ---------------------------------------------------------------------------------------------------------------
# input variants
# ---------------------------------------------------------------------------------------------------------------
def _dims():
    return st.integers(0, 5) | st.integers(1, 3)  # small, with empty dims reasonably often


@st.composite
def _shapes(draw, kind, shapes):
    if kind == "axis":
        return [tuple(draw(_dims()) for _ in s) for s in shapes]
    full = np.broadcast_shapes(*shapes)
    target = [draw(_dims()) for _ in full]
    out = []
    for s in shapes:
        new = []
        for j, d in enumerate(s):
            k = len(full) - len(s) + j
            if d == 1 and full[k] != 1:
                new.append(1)  # a broadcast dim stays one
            else:
                new.append(1 if draw(st.integers(0, 5)) == 0 else target[k])
        out.append(tuple(new))
    return out


def _elements(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return st.integers(-3, 3).filter(lambda v: v >= info.min) | st.integers(info.min, info.max)
    width = 8 * dtype.itemsize
    big = float(np.finfo(dtype).max)
    special = st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, np.inf, -np.inf, np.nan, big, -big,
                               float(np.finfo(dtype).tiny), float(np.finfo(dtype).smallest_subnormal)])
    return special | st.floats(width=width) | st.floats(-4, 4, width=width)


@st.composite
def _variant(draw, kind, case):
    dtype = draw(st.sampled_from(list(case.dtypes)))
    originals = [np.asarray(a) for a in case.inputs]
    dtypes = [np.dtype(dtype) if a.dtype.kind == "f" else a.dtype for a in originals]
    shapes = draw(_shapes(kind, [a.shape for a in originals]))
    arrays = [draw(hnp.arrays(dt, shape, elements=_elements(dt))) for dt, shape in zip(dtypes, shapes)]
    return dtype, arrays


# ---------------------------------------------------------------------------------------------------------------
# running and comparing
# ---------------------------------------------------------------------------------------------------------------
def _run(fn, arrays):
    """("ok", [np arrays + dtypes]) or ("error", exception)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            outs = _flatten(_outputs(fn, arrays))
    except Exception as exc:  # noqa: BLE001 - classified by the caller
        return "error", exc
    return "ok", [(o.asnumpy(), o.dtype) if isinstance(o, ms.Tensor) else (np.asarray(o), None) for o in outs]


def _mindspore_error(exc):
    return type(exc).__module__.startswith("mindspore") and isinstance(exc, (ValueError, RuntimeError))


def _same_values(a, b, rtol, atol, what):
    assert a.shape == b.shape, f"{what}: shape {a.shape} != {b.shape}"
    if a.dtype.kind in "biu" or b.dtype.kind in "biu":
        np.testing.assert_array_equal(a, b, err_msg=what)
        return
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    np.testing.assert_array_equal(np.isnan(a64), np.isnan(b64), err_msg=f"{what}: NaN positions differ")
    np.testing.assert_allclose(a64, b64, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def _tolerance(case, dtype):
    if np.dtype(dtype) == np.float16:
        return max(case.rtol, 2e-3), max(case.atol, 2e-3)
    return max(case.rtol, 1e-6), case.atol


def _in_domain(arrays, domain):
    floats = [a for a in arrays if a.dtype.kind == "f"]
    if domain == "any":
        return True
    if domain == "no_nan":
        return not any(np.isnan(a).any() for a in floats)
    if domain == "finite":
        return all(np.isfinite(a).all() for a in floats)
    if domain == "moderate":  # integers too: NumPy widens int32 sums to int64 where the op wraps
        magnitudes = [np.abs(a.astype(np.float64)) for a in arrays if a.dtype.kind != "b"]
        return all(((m <= 100) & ((m == 0) | (m >= 1e-3))).all() for m in magnitudes)
    if domain == "no_zero_divisor":
        return not (arrays[-1] == 0).any()
    if domain == "power_fits_float32":
        with np.errstate(all="ignore"):
            r = np.abs(np.power(arrays[0].astype(np.float64), arrays[1].astype(np.float64)))
        return bool(np.all(np.isnan(r) | (r == 0) | ((r > 1e-30) & (r < 1e30))))
    if domain == "ddof_below_count":  # std_ddof: ddof=2 over axes (0, 2)
        return arrays[0].shape[0] * arrays[0].shape[2] > 2
    raise AssertionError(domain)


def _oracle_domain(case):
    for table in (UFUNC_ORACLE_DOMAIN, KNOWN_ISSUES):
        if case.name in table:
            return table[case.name][0]
    if isinstance(case.oracle, np.ufunc):
        return "any"
    return ORACLE_DOMAIN.get(case.name)


def _check_oracle(case, arrays, got, dtype):
    domain = _oracle_domain(case)
    if case.oracle is None or domain is None or not _in_domain(arrays, domain):
        return False
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            expected = case.oracle(*[a.copy() for a in arrays])
        except (IndexError, ValueError):
            if any(a.size == 0 for a in arrays):
                return False  # an oracle written for non-empty inputs (np.delete(c, -1), ...)
            raise
    expected = [np.asarray(e) for e in (expected if isinstance(expected, (tuple, list)) else [expected])]
    expected = _flatten(expected)
    assert len(expected) == len(got), f"{case.name}: {len(got)} outputs, the oracle gives {len(expected)}"
    rtol, atol = _tolerance(case, dtype)
    for i, ((g, _), e) in enumerate(zip(got, expected)):
        _same_values(g, np.asarray(e), rtol, atol, f"{case.name} output {i} vs the NumPy oracle on {_show(arrays)}")
    return True


def _broadcast_shapes(shapes):
    """The broadcast shapes of every non-empty subset of ``shapes`` (an output may use only some inputs)."""
    out = set()
    for mask in range(1, 1 << len(shapes)):
        try:
            out.add(np.broadcast_shapes(*[s for k, s in enumerate(shapes) if mask >> k & 1]))
        except ValueError:
            pass
    return out


def _show(arrays):
    return "; ".join(f"{a.dtype}{list(a.shape)} {np.array2string(a.reshape(-1)[:8], precision=9)}" for a in arrays)


@pytest.mark.parametrize("family,kind,case", CASES, ids=IDS)
def test_op_variants(family, kind, case):
    @fuzz_settings(share=0.25)
    @given(variant=_variant(kind, case))
    def check(variant):
        dtype, arrays = variant
        eager = _run(case.op, arrays)
        graph = _run(ms.jit(case.op), arrays)
        target = f"ops:{family}:{kind}"
        for mode, (status, value) in (("eager", eager), ("graph", graph)):
            if status == "error":
                COUNTS[(target, f"rejected: {type(value).__name__}")] += 1
                empty = any(a.size == 0 for a in arrays)
                assert kind == "axis" and empty and _mindspore_error(value), (
                    f"{case.name} ({mode}) raised {type(value).__module__}.{type(value).__name__} on {_show(arrays)}: "
                    f"{value}")
        if eager[0] == "error" or graph[0] == "error":
            assert type(eager[1]) is type(graph[1]), (
                f"{case.name}: eager {eager[0]} but graph {graph[0]} on {_show(arrays)}: {eager[1]} / {graph[1]}")
            return
        eager_out, graph_out = eager[1], graph[1]
        assert len(eager_out) == len(graph_out), f"{case.name}: eager/graph output counts differ"
        rtol, atol = _tolerance(case, dtype)
        for i, ((e, e_dt), (g, g_dt)) in enumerate(zip(eager_out, graph_out)):
            assert e_dt == g_dt, f"{case.name} output {i}: eager dtype {e_dt}, graph dtype {g_dt}"
            _same_values(e, g, rtol, atol, f"{case.name} output {i}: eager vs graph on {_show(arrays)}")
        if case.out_dtype is not None:
            assert eager_out[0][1] == case.out_dtype, f"{case.name}: dtype {eager_out[0][1]} != {case.out_dtype}"
        if kind == "elementwise":
            shapes = _broadcast_shapes([a.shape for a in arrays])
            for i, (e, _) in enumerate(eager_out):
                assert e.shape in shapes, f"{case.name} output {i}: shape {e.shape}, not a broadcast shape {shapes}"
        compared = _check_oracle(case, arrays, eager_out, dtype)
        COUNTS[(target, "checked against the oracle" if compared else "eager == graph only")] += 1

    check()


def test_the_fuzzed_families_are_covered():
    kinds = collections.Counter((family, kind) for family, kind, _ in CASES)
    assert kinds[("math", "elementwise")] >= 100 and kinds[("reduce", "axis")] >= 60, kinds
    assert kinds[("nn", "elementwise")] >= 15, kinds


# --- discrepancies this suite found (fixed in ops/function/: selects and clamps instead of 0/1-mask blends, which
# made NaN of 0 * inf), kept as regression tests ------------------------------------------------------------------
pytest_known_issue = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy warns on infinities inside


@pytest_known_issue
def test_fixed_std_with_ddof_at_least_the_count():
    x = ms.Tensor(np.array([0.0, 1.0], np.float32))
    # NumPy and MindSpore 2.10: sum of squared deviations / max(N - ddof, 0) -> inf (NaN only for 0 / 0)
    assert np.isinf(ms.ops.std(x, ddof=2).asnumpy())


_INF = np.array([np.inf, -np.inf, 3.4e38, 1.0], np.float32)


@pytest_known_issue
def test_fixed_hardtanh_of_huge_values():
    # MindSpore 2.10: [2, -1.5, 2, 1]
    np.testing.assert_array_equal(ms.ops.hardtanh(ms.Tensor(_INF), -1.5, 2.0).asnumpy(), [2.0, -1.5, 2.0, 1.0])


@pytest_known_issue
def test_fixed_threshold_of_infinities():
    # MindSpore 2.10: [inf, -2, 3.4e38, 1]
    got = ms.ops.threshold(ms.Tensor(_INF), 0.5, -2.0).asnumpy()
    np.testing.assert_array_equal(got, np.array([np.inf, -2.0, 3.4e38, 1.0], np.float32))


@pytest_known_issue
def test_fixed_softplus_with_beta_where_beta_x_overflows():
    # MindSpore 2.10: x itself where beta * x > threshold, 0 for -inf
    got = ms.ops.softplus(ms.Tensor(_INF), beta=2, threshold=4).asnumpy()
    np.testing.assert_array_equal(got, np.array([np.inf, 0.0, 3.4e38, np.log1p(np.exp(2.0)) / 2], np.float32))
