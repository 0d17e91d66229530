"""Three behaviours of CuPy met on a real GPU (an H100, CuPy 14.2), reproduced by the stand-in, checked on ``GPUSIM``:

* ``cupy.quantile`` does not propagate NaN (it sorts NaN last and interpolates): the ``Quantile`` kernel must give
  NaN for a slice holding one, as NumPy and MindSpore do, and ``nanquantile`` must leave them out;
* ``cupy.linalg.svd`` (cuSOLVER) returns singular vector pairs with other signs than LAPACK: the conformance
  comparison of ``Svd`` aligns each pair's sign to the oracle's, and still fails a wrong vector;
* bfloat16 (``ml_dtypes.bfloat16``) computes on CuPy, except its sorts (``NotImplementedError``) and scans
  (``cumsum`` does not compile): the kernels that sort or scan widen it to float32, so ``amp`` level O3 with
  ``dtype=bfloat16`` trains and sort/topk/cumsum/... of bfloat16 tensors run on the GPU.
"""
import importlib.util
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation, amp, nn, ops
from mindspore._runtime import backend

pytest.importorskip("mindspore_cpu.kernels", reason="the CPU backend is the reference")
ml_dtypes = pytest.importorskip("ml_dtypes")

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402

TARGET = "GPUSIM"
BF16 = np.dtype(ml_dtypes.bfloat16)
CASES_OPS_MORE = HERE.parents[1] / "tests" / "conformance" / "cases_ops_more.py"

pytestmark = cupy_sim.warning_marks()


@pytest.fixture(scope="module")
def sim():
    loaded = cupy_sim.load_kernel_families()
    with cupy_sim.registered(TARGET, loaded.families):
        yield loaded


def _on(target, fn):
    """``fn()`` with ``target`` as the device; its Tensor outputs as NumPy arrays."""
    before = ms.get_context("device_target_requested")
    ms.set_context(device_target=target)
    try:
        out = fn()
        outs = out if isinstance(out, (tuple, list)) else (out,)
        return [o.asnumpy() for o in outs]
    finally:
        ms.context.store("device_target", before)
        _generation.bump(plugins=False)


def _no_fallback():
    fell_back = [p for t, p, _ in backend.fallbacks() if t == TARGET]
    assert not fell_back, f"ran on the CPU instead: {fell_back}"


# --- the stand-in is as strict as CuPy 14.2 -------------------------------------------------------------
def test_stand_in_quantile_does_not_propagate_nan_as_cupy():
    cp = cupy_sim.make_modules()["cupy"]
    x = np.array([[1, np.nan], [3, 2], [np.nan, 5]])
    np.testing.assert_array_equal(cupy_sim.asnumpy(cp.quantile(cp.asarray(x), 0.25, axis=0)), [2.0, 3.5])
    assert np.isnan(np.quantile(x, 0.25, axis=0)).all()                       # NumPy's (the oracle's) answer
    y = np.random.default_rng(0).normal(size=(3, 5, 4))
    for q, axis, keep in ((0.3, 1, False), (np.array([0.1, 0.5, 1.0]), 0, True), (0.7, None, False)):
        got = cp.quantile(cp.asarray(y), q if np.ndim(q) == 0 else cp.asarray(q), axis=axis, keepdims=keep)
        np.testing.assert_allclose(cupy_sim.asnumpy(got), np.quantile(y, q, axis=axis, keepdims=keep), rtol=1e-12)
    np.testing.assert_allclose(cupy_sim.asnumpy(cp.percentile(cp.asarray(y), 30, axis=2)),
                               np.percentile(y, 30, axis=2), rtol=1e-12)


def test_stand_in_svd_negates_the_first_pair():
    cp = cupy_sim.make_modules()["cupy"]
    a = np.random.default_rng(1).normal(size=(2, 3, 4))
    u, s, vh = (cupy_sim.asnumpy(r) for r in cp.linalg.svd(cp.asarray(a), full_matrices=False))
    lu, ls, lvh = np.linalg.svd(a, full_matrices=False)
    np.testing.assert_allclose(s, ls, rtol=1e-12)
    np.testing.assert_allclose(u[..., 0], -lu[..., 0], atol=1e-12)
    np.testing.assert_allclose(vh[..., 0, :], -lvh[..., 0, :], atol=1e-12)
    np.testing.assert_allclose(u[..., 1:], lu[..., 1:], atol=1e-12)
    np.testing.assert_allclose(u @ (s[..., None] * vh), a, atol=1e-12)      # still a decomposition of ``a``


@pytest.mark.parametrize("call", ["sort", "argsort", "lexsort", "unique", "median", "quantile", "method_sort",
                                  "method_argsort", "partition"])
def test_stand_in_refuses_bfloat16_sorts(call):
    cp = cupy_sim.make_modules()["cupy"]
    b = cp.asarray(np.array([3, 1, 2], np.float32).astype(BF16))
    run = {"sort": lambda: cp.sort(b), "argsort": lambda: cp.argsort(b), "lexsort": lambda: cp.lexsort(b[None]),
           "unique": lambda: cp.unique(b), "median": lambda: cp.median(b), "quantile": lambda: cp.quantile(b, 0.5),
           "method_sort": lambda: b.sort(), "method_argsort": lambda: b.argsort(),
           "partition": lambda: cp.partition(b, 1)}[call]
    with pytest.raises(NotImplementedError, match="Sorting arrays with dtype 'bfloat16' is not supported"):
        run()


@pytest.mark.parametrize("call", ["cumsum", "cumprod", "method_cumsum", "accumulate"])
def test_stand_in_refuses_bfloat16_scans(call):
    modules = cupy_sim.make_modules()
    cp = modules["cupy"]
    b = cp.asarray(np.array([3, 1, 2], np.float32).astype(BF16))
    run = {"cumsum": lambda: cp.cumsum(b), "cumprod": lambda: cp.cumprod(b), "method_cumsum": lambda: b.cumsum(),
           "accumulate": lambda: cp.add.accumulate(b)}[call]
    with pytest.raises(modules["cupy.cuda"].compiler.CompileException, match="bfloat16"):
        run()


def test_stand_in_computes_bfloat16_as_cupy():
    cp = cupy_sim.make_modules()["cupy"]
    h = np.arange(6, dtype=np.float32).reshape(2, 3).astype(BF16)
    b = cp.asarray(h)
    assert b.dtype == BF16
    for r in (b + b, b * 2, cp.exp(b), b.sum(), b.max(axis=1), b @ b.T, cp.where(b > 1, b, b),
              cp.ascontiguousarray(b.T), b.astype(np.float32).astype(BF16)):
        assert isinstance(r, cupy_sim.DeviceArray)
    np.testing.assert_array_equal(cupy_sim.asnumpy(cp.sort(b.astype(np.float32))), h.astype(np.float32))


# --- quantile / nanquantile on GPUSIM ----------------------------------------------------------------
def test_quantile_propagates_nan_and_nanquantile_skips_it(sim):
    x = np.array([[1, np.nan], [3, 2], [np.nan, 5], [4, 0.5]], np.float32)
    q = np.array([0.0, 0.25, 0.9, 1.0], np.float32)

    def run():
        t, tq = ms.Tensor(x), ms.Tensor(q)
        return (ops.quantile(t, tq, 0), ops.nanquantile(t, tq, 0), ops.quantile(t, 0.5, 1, True),
                ops.nanquantile(t, 0.5, 1), ops.nanquantile(ms.Tensor(np.full((2, 3), np.nan, np.float32)), 0.5, 1),
                ops.quantile(t[:, 1:], tq))
    got = _on(TARGET, run)
    _no_fallback()
    want = (np.quantile(x, q, 0), np.nanquantile(x, q, 0), np.quantile(x, 0.5, 1, keepdims=True),
            np.nanquantile(x, 0.5, 1), np.full(2, np.nan), np.quantile(x[:, 1:], q))
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == np.float32
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)        # NaN where the oracle has NaN, and only there
    assert np.isnan(got[0]).all() and not np.isnan(got[1]).any()
    for g, c in zip(got, _on("CPU", run)):
        np.testing.assert_allclose(g, c, rtol=1e-6, atol=1e-6)


def test_quantile_gradient_with_nan_on_gpusim_matches_cpu(sim):
    x = np.array([[1, np.nan, 3, 0.5], [3, 2, 1, 7]], np.float64)

    def run():
        t = ms.Tensor(x)
        grad = ops.grad(lambda v: (ops.nanquantile(v, ms.Tensor(np.array([0.3, 0.8])), 1) * 2).sum()
                        + ops.quantile(v, 0.4, 1).sum())
        return grad(t)
    got, want = _on(TARGET, run), _on("CPU", run)
    _no_fallback()
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-12)


# --- Svd: the conformance comparison is sign-invariant, and still strict ---------------------------------
def _svd_align():
    if not CASES_OPS_MORE.exists():
        pytest.skip("the conformance suite is not here")
    sys.path.insert(0, str(CASES_OPS_MORE.parent))
    spec = importlib.util.spec_from_file_location("gpusim_cases_ops_more", CASES_OPS_MORE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    svd_cases = [c for c in module.CASES if "Svd" in c.prims]
    assert svd_cases and all(c.align is module._svd_align for c in svd_cases)
    return module._svd_oracle, module._svd_align


def test_svd_comparison_accepts_flipped_pairs_and_rejects_wrong_vectors(sim):
    oracle, align = _svd_align()
    a = np.random.default_rng(5).uniform(-1, 1, (2, 2, 3))
    got = _on(TARGET, lambda: ops.Svd()(ms.Tensor(a)))              # the stand-in negated the first pair
    _no_fallback()
    want = oracle(a)
    assert not np.allclose(got[1], want[1], atol=1e-3)               # a plain comparison fails, as on the H100
    for g, w in zip(align(got, list(want)), want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10)
    s, u, v = want
    u_alone = u.copy()
    u_alone[..., 0] *= -1                                             # u_0 negated without v_0: not an SVD
    wrong_v = v.copy()
    wrong_v[..., [0, 1]] = wrong_v[..., [1, 0]]                       # two vectors swapped
    for bad in ([s, u_alone, v], [s, u, wrong_v]):
        aligned = align(bad, list(want))
        assert not all(np.allclose(g, w, atol=1e-3) for g, w in zip(aligned, want))


# --- bfloat16 on GPUSIM ----------------------------------------------------------------------------------
class _MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 16)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(16, 2)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def _amp_o3_bf16():
    ms.set_seed(1)
    net = _MLP()
    x = ms.Tensor(np.random.default_rng(0).normal(size=(8, 4)).astype(np.float32))
    converted = amp.auto_mixed_precision(net, "O3", dtype=ms.bfloat16)
    hidden = net.fc1(x)
    out = converted(x)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    labels = ms.Tensor(np.array([0, 1] * 4, np.int32))
    params = converted.trainable_params()
    loss, grads = ms.value_and_grad(lambda v: loss_fn(converted(v), labels), None, params)(x)
    assert hidden.dtype == ms.bfloat16 and out.dtype == ms.float32
    assert all(g.dtype == p.dtype for g, p in zip(grads, params))
    return [out, loss, *grads]


def test_amp_o3_bfloat16_forward_and_backward_on_gpusim(sim):
    got = _on(TARGET, _amp_o3_bf16)
    _no_fallback()
    want = _on("CPU", _amp_o3_bf16)
    out = got[0]
    assert np.array_equal(out, out.astype(BF16).astype(np.float32))   # computed in bfloat16
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g.astype(np.float32), w.astype(np.float32), rtol=2e-2, atol=2e-2)
    assert any(np.abs(g.astype(np.float32)).sum() > 0 for g in got[2:])


_X = np.array([[3, 1, 2, 2.5, -7], [0.5, -1, 4, 4, 1e-3], [9, 9, -2, 0.25, 3]], np.float32)

_BF16_OPS = {
    "sort": lambda t: ops.sort(t),
    "sort_descending": lambda t: ops.sort(t, 0, True),
    "argsort": lambda t: ops.argsort(t),
    "topk": lambda t: ops.topk(t, 3),
    "cumsum": lambda t: ops.cumsum(t, 1),
    "cumsum_axis0": lambda t: ops.cumsum(t, 0),
    "cumprod": lambda t: ops.cumprod(t, 1),
    "cummax": lambda t: ops.cummax(t, 1),
    "cummin": lambda t: ops.cummin(t, 0),
    "unique": lambda t: ops.unique(t.reshape(-1)),
    "median": lambda t: ops.median(t, 1),
    "msort": lambda t: ops.msort(t),
    "searchsorted": lambda t: ops.searchsorted(ops.sort(t)[0], t),
}


@pytest.mark.parametrize("name", sorted(_BF16_OPS))
def test_sorts_and_scans_of_bfloat16_on_gpusim_match_cpu(sim, name):
    def run():
        return _BF16_OPS[name](ms.Tensor(_X).astype(ms.bfloat16))
    got = _on(TARGET, run)
    _no_fallback()
    want = _on("CPU", run)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        if w.dtype == BF16:
            assert g.dtype == BF16
            np.testing.assert_allclose(g.astype(np.float32), w.astype(np.float32), rtol=1e-2, atol=1e-2)
        else:
            np.testing.assert_array_equal(g, w)


# bfloat16 is NumPy kind 'V' (not 'f'): a kernel testing ``dtype.kind`` for floats would pass it through untouched
_UNARY = ("Neg", "Abs", "Square", "Reciprocal", "Sqrt", "Rsqrt", "Exp", "Log", "Log1p", "Expm1", "Sign", "Floor",
          "Ceil", "Trunc", "Round", "Sin", "Cos", "Tan", "Asin", "ACos", "Atan", "Sinh", "Cosh", "Tanh", "Asinh",
          "Acosh", "Atanh", "Erf", "Erfc", "Erfinv", "Sinc", "NanToNum", "IsNan", "IsInf", "IsFinite", "ReLU",
          "Sigmoid", "GeLU", "FastGeLU", "Softplus", "Mish", "SeLU", "Elu", "HSwish")
_UNARY_INPUTS = {"finite": np.array([-3.5, -0.5, 0.0, 0.25, 0.99, 1.5, 2.0, 7.25], np.float32),
                 "special": np.array([-2.5, np.nan, np.inf, -np.inf, 0.75], np.float32)}
_SPECIAL = ("NanToNum", "IsNan", "IsInf", "IsFinite", "Floor", "Ceil", "Trunc", "Round", "Neg", "Abs", "Sign", "Exp",
            "ReLU")   # NaN/inf inputs on the ops defined for them


@pytest.mark.parametrize("name,inputs", [(n, "finite") for n in _UNARY] + [(n, "special") for n in _SPECIAL])
def test_unary_math_of_bfloat16_on_gpusim_matches_cpu(sim, name, inputs):
    def run(dtype=ms.bfloat16):
        return getattr(ops, name)()(ms.Tensor(_UNARY_INPUTS[inputs]).astype(dtype))
    try:
        want = _on("CPU", run)
    except RuntimeError:      # the CPU backend's C++ GeLU takes float32/float64 only: its float32 result, rounded
        want = [w.astype(BF16) if w.dtype == np.float32 else w for w in _on("CPU", lambda: run(ms.float32))]
    got = _on(TARGET, run)
    _no_fallback()
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=1e-2, atol=1e-2, equal_nan=True,
                                   err_msg=f"{name}({inputs})")


def test_logcumsumexp_of_bfloat16_on_gpusim_matches_cpu(sim):
    def run():
        return ops.logcumsumexp(ms.Tensor(_X).astype(ms.bfloat16), 1)
    got, want = _on(TARGET, run), _on("CPU", run)
    _no_fallback()
    assert got[0].dtype == want[0].dtype == BF16
    np.testing.assert_allclose(got[0].astype(np.float32), want[0].astype(np.float32), rtol=1e-2, atol=1e-2)


# --- reductions with NaN, and segment means, as the CPU's (the families the two backends share) ------------------
def test_bfloat16_reductions_follow_the_nan_rule_as_the_cpu(sim):
    """bfloat16 max/min/argmax/argmin (and the WithValue pairs) with NaN after the first element: MindSpore's NaN
    rule, computed as float32, equal to the CPU's (the GPU's reduce skipped the rule for bfloat16: NaN anywhere but
    first made the maximum NaN by CuPy's own rule, and the indices pointed at it)."""
    x = np.array([[1.0, np.nan, 3.0, -2.0], [4.0, 0.5, np.nan, 7.0], [2.0, 5.0, 1.0, -1.0]], np.float32).astype(BF16)

    def run():
        t = ms.Tensor(x)
        return (ops.ReduceMax()(t, 1), ops.ReduceMin()(t, 0), ops.Argmax(axis=1)(t), ops.Argmin(axis=0)(t),
                *ops.ArgMaxWithValue(axis=1)(t), *ops.ArgMinWithValue(axis=0)(t))
    got = _on(TARGET, run)
    _no_fallback()
    for g, c in zip(got, _on("CPU", run)):
        assert g.dtype == c.dtype and g.shape == c.shape
        np.testing.assert_array_equal(g.astype(np.float32), c.astype(np.float32))


def test_sparse_segment_mean_accumulates_as_the_cpu(sim):
    """SparseSegmentMean of float32 values sums in float64 on both backends (the GPU's float32 sums were up to
    thousands of ulp off the CPU's over 4000 rows): the same bits."""
    rng = np.random.default_rng(7)
    x = rng.normal(0, 100, (4000, 3)).astype(np.float32)
    indices = rng.integers(0, 4000, 4000).astype(np.int32)
    segments = np.sort(rng.integers(0, 5, 4000)).astype(np.int32)

    def run():
        return ops.SparseSegmentMean()(ms.Tensor(x), ms.Tensor(indices), ms.Tensor(segments))
    got = _on(TARGET, run)
    _no_fallback()
    np.testing.assert_array_equal(got[0], _on("CPU", run)[0])
