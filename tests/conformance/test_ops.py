"""Table-driven op conformance: every case of every ``cases_*.py`` on every installed backend.

Forward values are compared with the case's independent NumPy oracle; bprops with central finite
differences in float64. Coverage tests tie the table to the operator registry: every primitive has
its rules, a bprop or an explicit non-differentiable marker, a CPU kernel, and at least one case.
"""
from __future__ import annotations

import importlib.util
import os
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation
from mindspore._plugin import manager
from mindspore._runtime import backend
from mindspore.ops import _registry
from mindspore.ops.primitive import NON_DIFFERENTIABLE, Primitive

HERE = pathlib.Path(__file__).parent


def _load_cases():
    cases = []
    for path in sorted(HERE.glob("cases_*.py")):
        spec = importlib.util.spec_from_file_location(f"conformance_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        family = path.stem[len("cases_"):]
        for case in module.CASES:
            cases.append((family, case))
    return cases


CASES = _load_cases()
IDS = [f"{fam}-{c.name}" for fam, c in CASES]


def _targets():
    pinned = os.environ.get("MS_TEST_DEVICE_TARGET")
    if pinned:
        return [pinned.upper() if pinned.upper() == "STRICT" else pinned]
    found = []
    for rec in manager.plugins():
        if rec.status != "loaded":
            continue
        for p in rec.probes:
            if p.available and p.target not in found:
                found.append(p.target)
    return found or ["CPU"]


@pytest.fixture(params=_targets())
def target(request):
    before = ms.get_context("device_target_requested")
    ms.set_context(device_target=request.param)
    yield request.param
    ms.context.store("device_target", before)
    _generation.bump(plugins=False)


def _is_float(a):
    return np.asarray(a).dtype.kind == "f"


def _tensors(arrays, dtype=None):
    out = []
    for a in arrays:
        a = np.asarray(a)
        if dtype is not None and a.dtype.kind == "f":
            a = a.astype(dtype)
        out.append(ms.Tensor(a))
    return out


def _as_list(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


def _tolerance(case, dtype):
    if np.dtype(dtype) == np.float16:
        return max(case.rtol, 2e-3), max(case.atol, 2e-3)
    return case.rtol, case.atol


def _first_party(target):
    """Whether a MindSpore distribution (mindspore-cpu, -gpu, -ascend) offers ``target``."""
    return any(p.target == target and rec.distribution.lower() in manager.FIRST_PARTY
               for rec in manager.plugins() for p in rec.probes)


def _missing_kernels(case, target):
    """The primitives of ``case`` that ``target`` has no kernel for (those computed while compiling need none)."""
    reg = backend.kernel_registry()
    classes = _registry.primitive_classes()
    return [p for p in case.prims if not _declares(classes[p], "infer_value") and not reg.has(p, target)]


def _skip_without_kernels(case, target):
    """A first-party backend must have a kernel for every primitive: a missing one fails the case (so the
    GPU backend's coverage shows). A third-party or test-only target may cover a subset: the case is skipped,
    and says so."""
    missing = _missing_kernels(case, target)
    if missing:
        if _first_party(target):
            pytest.fail(f"the first-party {target} backend has no kernel for {missing}")
        pytest.skip(f"no {target} kernel for {missing}")


MODES = ("pynative", "graph")


def _in_mode(fn, mode):
    """``fn`` as run in ``mode``: directly, or compiled by the GRAPH_MODE compiler (``ms.jit``), which checks
    every kernel's output against the primitive's shape and dtype rules on its first run."""
    return fn if mode == "pynative" else ms.jit(fn)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("family,case", CASES, ids=IDS)
def test_forward(target, family, case, mode):
    _skip_without_kernels(case, target)
    if mode not in case.modes:
        pytest.skip(f"{case.name} runs in {', '.join(case.modes)} mode only")
    op = _in_mode(case.op, mode)
    for dtype in case.dtypes:
        arrays = [np.asarray(a).astype(dtype) if _is_float(a) else np.asarray(a) for a in case.inputs]
        outs = _as_list(op(*_tensors(arrays)))
        if case.out_dtype is not None:
            assert outs[0].dtype == case.out_dtype, f"{case.name}: dtype {outs[0].dtype} != {case.out_dtype}"
        for o in outs:
            if isinstance(o, ms.Tensor):
                assert type(o._data) is np.ndarray or target != "CPU", f"{case.name}: kernel returned {type(o._data)}"
        if case.oracle is None:
            continue
        _check_against_oracle(case, outs, arrays, dtype, np.dtype(dtype).name)


def _check_against_oracle(case, outs, arrays, dtype, label):
    """``outs`` against ``case.oracle(*arrays)``: shapes, exact integers, floats within the case's tolerance."""
    expected = _as_list(case.oracle(*arrays))
    assert len(outs) == len(expected), f"{case.name}: {len(outs)} outputs, oracle gives {len(expected)}"
    rtol, atol = _tolerance(case, dtype)
    got_all = [o.asnumpy() if isinstance(o, ms.Tensor) else np.asarray(o) for o in outs]
    expected = [np.asarray(e) for e in expected]
    if case.align is not None:     # a result unique only up to a symmetry: ours mapped onto the oracle's choice
        got_all = list(case.align(got_all, expected))
    for i, (got, e) in enumerate(zip(got_all, expected)):
        assert got.shape == e.shape, f"{case.name} output {i}: shape {got.shape} != {e.shape}"
        if e.dtype.kind in "biu" and got.dtype.kind in "biu":
            np.testing.assert_array_equal(got, e, err_msg=f"{case.name} output {i} ({label})")
        else:
            np.testing.assert_allclose(got.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol,
                                       err_msg=f"{case.name} output {i} ({label})")


def _strided(a):
    """A PYNATIVE tensor with ``a``'s values whose memory is not contiguous: a view of every other element
    of a larger tensor (what ``x[..., ::2]`` gives user code)."""
    if a.ndim == 0 or a.size == 0:
        return ms.Tensor(a)
    return ms.Tensor(np.stack([a, np.zeros_like(a)], axis=-1))[..., 0]


@pytest.mark.parametrize("family,case", CASES, ids=IDS)
def test_forward_on_strided_views(target, family, case):
    """Every kernel takes views (``x[:, ::2]``, ``x[1:]``) as inputs: it reads their values, not their memory."""
    _skip_without_kernels(case, target)
    if "pynative" not in case.modes or case.oracle is None:
        pytest.skip(f"{case.name}: no eager oracle")
    dtype = case.dtypes[0]
    arrays = [np.asarray(a).astype(dtype) if _is_float(a) else np.asarray(a) for a in case.inputs]
    views = [_strided(a) for a in arrays]
    assert any(v.ndim and not v.is_contiguous() for v in views) or not any(a.ndim and a.size for a in arrays)
    _check_against_oracle(case, _as_list(case.op(*views)), arrays, dtype, "on views")



FAMILIES = sorted({family for family, _ in CASES})


def _dynamic_cell(op, count):
    """A Cell whose ``construct`` takes ``count`` named inputs and returns ``op`` of them (``set_inputs`` needs
    a fixed arity)."""
    args = ", ".join(f"x{i}" for i in range(count))
    namespace = {"nn": ms.nn, "op": op}
    exec(f"class Dynamic(nn.Cell):\n    def construct(self, {args}):\n        return op({args})\n", namespace)
    return namespace["Dynamic"]()


@pytest.mark.parametrize("family", FAMILIES)
def test_forward_with_every_dimension_dynamic(target, family):
    """Every case of ``family`` compiled by GRAPH_MODE with each input's dimensions declared unknown
    (``Cell.set_inputs(Tensor(shape=[None, ...]))``, as MindSpore's dynamic-shape networks declare them) gives the
    oracle's result: the compiler specialises nothing on the shapes it was not told. One test per family (the cases
    are the forward test's, first dtype); the failures are listed together."""
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    failures, ran = [], 0
    try:
        for fam, case in CASES:
            if fam != family or "graph" not in case.modes or case.oracle is None or not case.inputs:
                continue
            if _missing_kernels(case, target):
                continue                # the forward test reports a missing kernel
            dtype = case.dtypes[0]
            arrays = [np.asarray(a).astype(dtype) if _is_float(a) else np.asarray(a) for a in case.inputs]
            tensors = _tensors(arrays)
            cell = _dynamic_cell(case.op, len(tensors))
            cell.set_inputs(*[ms.Tensor(shape=[None] * t.ndim, dtype=t.dtype) if t.ndim else t for t in tensors])
            try:
                _check_against_oracle(case, _as_list(cell(*tensors)), arrays, dtype, "with dynamic dimensions")
            except Exception as exc:  # noqa: BLE001 - collected, reported together below
                failures.append(f"{case.name}: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
            ran += 1
    finally:
        ms.set_context(mode=mode)
    if not ran:
        pytest.skip(f"{family} has no graph-mode case with an oracle")
    assert not failures, "\n".join(failures)

def _weighted_sum(case, weights):
    def f(*xs):
        outs = _as_list(case.op(*xs))
        total = None
        for o, w in zip(outs, weights):
            if w is None:
                continue
            term = ms.ops.reduce_sum(o * ms.Tensor(w))
            total = term if total is None else total + term
        return total
    return f


GRAD_CASES = [(f, c) for f, c in CASES if c.grad]
GRAD_IDS = [f"{f}-{c.name}" for f, c in GRAD_CASES]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("family,case", GRAD_CASES, ids=GRAD_IDS)
def test_gradient(target, family, case, mode, numeric_target=None):
    """The gradient against central differences of the weighted output sum. ``numeric_target`` (the GPU suites give
    CPU): the device the differences are taken on when the function gives the same value there, its kernels held
    by the forward conformance to the same oracles; the gradient itself is ``target``'s."""
    _skip_without_kernels(case, target)
    if mode not in case.modes:
        pytest.skip(f"{case.name} runs in {', '.join(case.modes)} mode only")
    arrays = [np.asarray(a).astype(np.float64) if _is_float(a) else np.asarray(a) for a in case.inputs]
    positions = case.grad_inputs if case.grad_inputs is not None else [i for i, a in enumerate(arrays) if _is_float(a)]
    assert positions, f"{case.name}: no float input to differentiate"
    outs = _as_list(case.op(*_tensors(arrays)))
    rng = np.random.default_rng(1234)
    weights = [rng.uniform(0.5, 1.5, o.shape) if isinstance(o, ms.Tensor) and o.dtype in ms.dtype.float_type
               else None for o in outs]
    f = _weighted_sum(case, weights)
    analytic = _in_mode(ms.grad(f, grad_position=tuple(positions)), mode)(*_tensors(arrays))
    analytic = _as_list(analytic)

    def value(arrs):
        return float(f(*_tensors(arrs)).asnumpy())

    if numeric_target is not None:
        here = value(arrays)
        ms.set_context(device_target=numeric_target)
        if not np.isclose(value(arrays), here, rtol=1e-10, atol=1e-12):
            # the function is not the same there (a random draw, the signs an SVD picks): differences on target
            ms.set_context(device_target=target)
            numeric_target = None
    try:
        numerics = _central_differences(case, arrays, positions, value)
    finally:
        if numeric_target is not None:
            ms.set_context(device_target=target)
    for k, (pos, numeric) in enumerate(zip(positions, numerics)):
        base = arrays[pos]
        got = analytic[k].asnumpy()
        assert got.shape == base.shape, f"{case.name}: grad shape {got.shape} != input shape {base.shape}"
        np.testing.assert_allclose(got, numeric, rtol=case.grad_rtol, atol=case.grad_atol,
                                   err_msg=f"{case.name}: gradient of input {pos}")


def _central_differences(case, arrays, positions, value):
    out = []
    for pos in positions:
        base = arrays[pos]
        numeric = np.zeros_like(base)
        for idx in np.ndindex(base.shape):
            plus = [a.copy() for a in arrays]
            minus = [a.copy() for a in arrays]
            plus[pos][idx] += case.eps
            minus[pos][idx] -= case.eps
            numeric[idx] = (value(plus) - value(minus)) / (2 * case.eps)
        out.append(numeric)
    return out


# --- registry coverage ----------------------------------------------------------------------
def _declares(cls, attr):
    for klass in cls.__mro__:
        if klass is Primitive:
            return False
        if attr in vars(klass):
            return True
    return False


def test_every_primitive_is_complete():
    problems = []
    for name, cls in _registry.primitive_classes().items():
        if not _declares(cls, "infer_value"):
            if not _declares(cls, "infer_shape") or not _declares(cls, "infer_dtype"):
                problems.append(f"{name}: missing infer_shape/infer_dtype")
        if not _declares(cls, "bprop"):
            problems.append(f"{name}: no bprop and no explicit NON_DIFFERENTIABLE marker")
    assert not problems, "\n".join(problems)


def _runs_on(cls, target):
    targets = getattr(cls, "device_targets", None)
    return targets is None or target in targets


def test_every_primitive_has_a_cpu_kernel():
    reg = backend.kernel_registry()
    missing = [name for name, cls in _registry.primitive_classes().items()
               if not _declares(cls, "infer_value") and _runs_on(cls, "CPU") and not reg.has(name, "CPU")]
    assert not missing, f"primitives without a CPU kernel: {missing}"


def test_no_first_party_kernel_rejected():
    reg = backend.kernel_registry()
    first_party = [r for r in reg.rejected if r["plugin"] in ("cpu", "gpu", "ascend")]
    assert not first_party, first_party


def test_every_primitive_has_a_case():
    covered = {p for _, c in CASES for p in c.prims}
    # device-only primitives (Ascend's float-status ops) are covered by tests/errors on other targets
    core = {n for n, cls in _registry._core_classes().items() if _runs_on(cls, "CPU")}
    missing = sorted(core - covered)
    assert not missing, f"primitives without a conformance case: {missing}"


def test_cases_name_known_primitives():
    known = set(_registry.primitive_classes())
    unknown = sorted({p for _, c in CASES for p in c.prims} - known)
    assert not unknown, f"cases name unknown primitives: {unknown}"


def test_differentiable_primitives_have_gradient_cases():
    graded = {p for _, c in CASES if c.grad for p in c.prims}
    missing = sorted(name for name, cls in _registry._core_classes().items()
                     if getattr(cls, "bprop", NON_DIFFERENTIABLE) is not NON_DIFFERENTIABLE and name not in graded)
    assert not missing, f"differentiable primitives without a gradient case: {missing}"
