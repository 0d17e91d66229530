"""The GPU kernel tables, run without a GPU: CuPy is replaced by the strict NumPy stand-in of
``cupy_sim.py``, and the kernels are offered by a test-only plugin as the device target ``GPUSIM``.

* coverage: the GPU tables have a kernel for every primitive the CPU backend has one for, family by
  family, and the GPU plugin registers all of them;
* conformance: every case of the op conformance suite (``tests/conformance/cases_*.py``, with its own
  checks from ``tests/conformance/test_ops.py``) runs on ``GPUSIM`` in PYNATIVE and GRAPH mode (``ms.jit``),
  forward against the NumPy oracles and gradients against finite differences; no case may fall back
  to the CPU kernels;
* edge cases against the CPU kernels themselves (pooling with NaN, ties, -inf and windows in the padding,
  convolutions with groups/dilation/padding and their gradients, scans, sorts, scatters with repeated
  indices, every binary op with Python-scalar operands, every unary op on float16/float32/int32);
* core's training suites (LeNet, nn layers, optimizers, Model, amp) with ``GPUSIM`` as the session's
  device (``gpusim_session.py``);
* the helpers with CuPy-only parts (scatter-add for every dtype, the random streams) and the
  stand-in's own strictness.

What the stand-in cannot show (the fused ``ElementwiseKernel`` paths, cuRAND, atomics, real CuPy's
numerics) is checked on a GPU by ``test_gpu_plugin.py`` and by the conformance suite itself, which
runs on every available target.
"""
import importlib.util
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation, ops
from mindspore._runtime import backend
from mindspore.ops import _registry

CPU_FAMILIES = pytest.importorskip("mindspore_cpu.kernels", reason="the CPU backend is the reference").FAMILIES

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402

TARGET = "GPUSIM"
LOADED = cupy_sim.load_kernel_families()
FAMILIES = LOADED.families
common = LOADED.modules["_common"]   # the helpers, on the stand-in too
CONFORMANCE = HERE.parents[1] / "tests" / "conformance"

# NumPy warns where CuPy computes inf/NaN silently; the fallback check below does not rely on warnings.
pytestmark = cupy_sim.warning_marks()


def _names(families):
    return {name for f in families for name in f.KERNELS}


def _family(families, name):
    return {f.__name__.rsplit(".", 1)[-1]: f for f in families}[name]


# --- coverage ---------------------------------------------------------------------------------
def test_gpu_table_covers_every_cpu_kernel():
    cpu, gpu = _names(CPU_FAMILIES), _names(FAMILIES)
    assert not cpu - gpu, f"primitives with a CPU kernel but no GPU kernel: {sorted(cpu - gpu)}"
    assert not gpu - cpu, f"GPU kernels for primitives the CPU backend lacks: {sorted(gpu - cpu)}"
    assert len(gpu) == sum(len(f.KERNELS) for f in FAMILIES), "a primitive is in two GPU families"


def test_gpu_families_mirror_cpu_families():
    merged = {"nn": ("nn", "nn_ext"), "conv": ("conv", "pooling")}
    for cpu in CPU_FAMILIES:
        name = cpu.__name__.rsplit(".", 1)[-1]
        gpu = set().union(*(_family(FAMILIES, n).KERNELS for n in merged.get(name, (name,))))
        assert set(cpu.KERNELS) == gpu, f"family {name}: {sorted(set(cpu.KERNELS) ^ gpu)}"


def test_plugin_registers_every_kernel_with_cupy_present():
    from mindspore.plugin import KernelRegistry
    from mindspore_gpu import plugin
    registry = KernelRegistry(known_primitives=_registry.primitive_names())
    with cupy_sim.standing_in():
        plugin.ms_register_kernels(registry=registry.for_plugin("gpu"))
    assert registry.rejected == []
    assert set(registry.primitives("GPU")) == _names(CPU_FAMILIES)


def test_importing_the_plugin_never_imports_cupy():
    code = ("import sys, mindspore_gpu.plugin as p; p.ms_plugin_info(); "
            "assert 'cupy' not in sys.modules and 'cupyx' not in sys.modules, sorted(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


# --- the conformance suite on GPUSIM ---------------------------------------------------------------
def _load_conformance():
    if not (CONFORMANCE / "test_ops.py").exists():
        return None
    if str(CONFORMANCE) not in sys.path:
        sys.path.insert(0, str(CONFORMANCE))   # the case files import ``case``
    spec = importlib.util.spec_from_file_location("gpusim_conformance_ops", CONFORMANCE / "test_ops.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SUITE = _load_conformance()
needs_suite = pytest.mark.skipif(SUITE is None, reason=f"the conformance suite is not here ({CONFORMANCE})")
CASES = SUITE.CASES if SUITE else []
GRAD_CASES = SUITE.GRAD_CASES if SUITE else []
MODES = ("pynative", "graph")


@pytest.fixture(scope="module")
def sim_plugin():
    with cupy_sim.registered(TARGET, FAMILIES) as plugin:
        yield plugin


@pytest.fixture
def on_sim(sim_plugin):
    before = ms.get_context("device_target_requested")
    ms.set_context(device_target=TARGET)
    yield TARGET
    ms.context.store("device_target", before)
    _generation.bump(plugins=False)


def _check_kernels(case):
    """Every primitive of the case runs a GPU kernel (a missing one would fall back to the CPU's)."""
    reg = backend.kernel_registry()
    classes = _registry.primitive_classes()
    missing = [p for p in case.prims if not SUITE._declares(classes[p], "infer_value") and not reg.has(p, TARGET)]
    assert not missing, f"no GPU kernel for {missing}"


def _no_fallback():
    fell_back = [p for t, p, _ in backend.fallbacks() if t == TARGET]
    assert not fell_back, f"ran on the CPU instead: {fell_back}"


@needs_suite
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("family,case", CASES, ids=[f"{f}-{c.name}" for f, c in CASES])
def test_conformance_forward(on_sim, family, case, mode):
    _check_kernels(case)
    SUITE.test_forward(target=TARGET, family=family, case=case, mode=mode)
    _no_fallback()


@needs_suite
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("family,case", GRAD_CASES, ids=[f"{f}-{c.name}" for f, c in GRAD_CASES])
def test_conformance_gradient(on_sim, family, case, mode):
    _check_kernels(case)
    SUITE.test_gradient(target=TARGET, family=family, case=case, mode=mode, numeric_target="CPU")
    _no_fallback()


# --- in-place kernels and random streams on GPUSIM ------------------------------------------------
def test_in_place_kernels_write_the_parameter(on_sim):
    p = ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), name="w")
    ms.ops.assign_add(p, ms.Tensor(np.full((2, 3), 2.0, np.float32)))
    assert isinstance(p._data, cupy_sim.DeviceArray)
    np.testing.assert_array_equal(p.asnumpy(), np.full((2, 3), 3.0, np.float32))
    acc = ms.Parameter(ms.Tensor(np.zeros((2, 3), np.float32)), name="acc")
    g = ms.Tensor(np.full((2, 3), 0.5, np.float32))
    ms.ops.ApplyMomentum()(p, acc, 0.1, g, 0.9)
    np.testing.assert_allclose(acc.asnumpy(), 0.5)
    np.testing.assert_allclose(p.asnumpy(), 3.0 - 0.05, rtol=1e-6)


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_half_matmul_goes_to_cublas_unwidened(on_sim, monkeypatch, half):
    """float16/bfloat16 MatMul and BatchMatMul hand their operands to ``cupy.matmul`` as they are (cuBLAS's tensor
    cores, float32 accumulation), with no float32 copies around the product; the result is the float32 product of
    the widened operands rounded once."""
    import ml_dtypes
    dt = np.dtype(np.float16) if half == "float16" else np.dtype(ml_dtypes.bfloat16)
    seen = []
    cp = LOADED.modules["math"].cupy        # the stand-in module the kernels call
    real = cp.matmul
    monkeypatch.setattr(cp, "matmul", lambda a, b, **kw: seen.append((a.dtype, b.dtype)) or real(a, b, **kw))
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((2, 4, 16)).astype(dt), rng.standard_normal((2, 16, 8)).astype(dt)
    got = ops.matmul(ms.Tensor(a), ms.Tensor(b))
    want = np.matmul(a.astype(np.float32), b.astype(np.float32)).astype(dt)
    assert seen == [(dt, dt)] and got.dtype == getattr(ms, half)
    np.testing.assert_array_equal(got.asnumpy().astype(np.float32), want.astype(np.float32))
    seen.clear()
    got = ops.MatMul(transpose_b=True)(ms.Tensor(a[0]), ms.Tensor(b[0].T.copy()))
    assert seen == [(dt, dt)]
    np.testing.assert_array_equal(got.asnumpy().astype(np.float32), want[0].astype(np.float32))


def test_random_draws_are_reproducible_and_advance(on_sim):
    def draws():
        ms.set_seed(123)
        op = ms.ops.StandardNormal(seed=5)
        drop = ms.ops.Dropout(keep_prob=0.5)
        x = ms.Tensor(np.ones((64,), np.float32))
        return op((8,)).asnumpy(), op((8,)).asnumpy(), drop(x)[1].asnumpy()
    a1, a2, m1 = draws()
    b1, b2, m2 = draws()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    np.testing.assert_array_equal(m1, m2)
    assert not np.array_equal(a1, a2)


# --- helpers with CuPy-only parts --------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8,
                                   np.uint64, np.bool_])
def test_scatter_add_every_dtype(dtype):
    rng = np.random.default_rng(0)
    index = np.array([0, 2, 2, 5, 0, 0])
    values = (rng.integers(0, 3, index.size) if dtype != np.bool_ else rng.integers(0, 2, index.size)).astype(dtype)
    if dtype == np.int64:
        values[1] = np.int64(-(2 ** 40))
    want = np.zeros(6, dtype)
    np.add.at(want, index, values)
    got = cupy_sim.asarray(np.zeros(6, dtype))
    common.scatter_add(got, cupy_sim.asarray(index), cupy_sim.asarray(values))
    assert got.dtype == dtype
    np.testing.assert_array_equal(cupy_sim.asnumpy(got), want)


def test_device_streams_follow_the_host_stream():
    class Prim:
        pass
    p = Prim()
    g1 = np.random.default_rng(1)
    rs = common.device_rng(p, g1)
    assert common.device_rng(p, g1) is rs                       # one stream per primitive
    assert common.device_rng(p, np.random.default_rng(1)) is not rs   # re-seeded: a new stream
    a = common.fixed_rng(7, 1).random_sample((4,))
    b = common.fixed_rng(7, 1).random_sample((4,))
    np.testing.assert_array_equal(cupy_sim.asnumpy(a), cupy_sim.asnumpy(b))


def test_scan_matches_numpy_accumulate():
    x = np.array([[3.0, 1.0], [np.nan, 5.0], [2.0, 7.0], [4.0, 6.0], [9.0, 0.0]])
    got = common.scan(LOADED.cupy.maximum, cupy_sim.asarray(x))
    np.testing.assert_array_equal(cupy_sim.asnumpy(got), np.maximum.accumulate(x, axis=0))


# --- the stand-in is as strict as CuPy ------------------------------------------------------------
def test_the_stand_in_refuses_what_cupy_refuses():
    cp = cupy_sim.make_modules()["cupy"]
    d = cp.asarray(np.arange(4.0))
    host = np.arange(4.0)
    with pytest.raises(cupy_sim.HostArrayError):
        d + host
    with pytest.raises(cupy_sim.HostArrayError):
        cp.concatenate([d, host])
    with pytest.raises(TypeError, match="device array"):
        np.sum(d)
    with pytest.raises(AttributeError):
        cp.errstate   # noqa: B018 - CuPy has none
    with pytest.raises(NotImplementedError):
        cp.maximum.accumulate(d)
    with pytest.raises(TypeError):
        cupy_sim.scatter_add(cp.zeros(3, np.int64), cp.asarray(np.array([0])), 1)
    assert isinstance(d.sum(), cupy_sim.DeviceArray) and d.sum().shape == ()
    assert isinstance(d[0], cupy_sim.DeviceArray)
    kernel = cupy_sim.checked("Bad", lambda prim, x, out=None: np.asarray(x).view(np.ndarray) + 1)
    with pytest.raises(TypeError, match="not a device array"):
        kernel(None, np.ones(2))


# --- edge cases, against the CPU kernels themselves --------------------------------------------------
def _on(target, fn, arrays):
    before = ms.get_context("device_target_requested")
    ms.set_context(device_target=target)
    try:
        outs = fn(*[ms.Tensor(a) for a in arrays])
        return [o.asnumpy() for o in (outs if isinstance(outs, (tuple, list)) else (outs,))]
    finally:
        ms.context.store("device_target", before)
        _generation.bump(plugins=False)


def _tricky(shape, seed=0):
    """Values with ties, NaN, +-inf and signed zeros."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-3, 4, shape).astype(np.float32)
    flat = x.reshape(-1)
    flat[rng.choice(flat.size, max(1, flat.size // 9), replace=False)] = np.nan
    flat[rng.choice(flat.size, max(1, flat.size // 9), replace=False)] = -np.inf
    flat[rng.choice(flat.size, max(1, flat.size // 13), replace=False)] = np.inf
    flat[rng.choice(flat.size, max(1, flat.size // 7), replace=False)] = -0.0
    return x


def _grad(fn, argnum=0):
    return lambda *xs: ms.grad(fn, grad_position=argnum)(*xs)


_R = np.random.default_rng(11)


def _ints(*shape, dtype=np.float64):
    """Small integers (many ties) as floats."""
    return _R.integers(0, 3, shape).astype(dtype)


def _normal(*shape, dtype=np.float64):
    return _R.standard_normal(shape).astype(dtype)


def _conv2d_grads(x, w):
    conv = ops.Conv2D(6, (2, 3), pad_mode="same", stride=2, group=3)
    return ms.grad(lambda a, b: conv(a, b), grad_position=(0, 1))(x, w)


def _conv3d_grads(x, w):
    conv = ops.Conv3D(2, 2, pad_mode="pad", pad=1, stride=(1, 2, 1), dilation=(2, 1, 1))
    return ms.grad(lambda a, b: conv(a, b), grad_position=(0, 1))(x, w)


def _int_division(x, y):
    return (ops.FloorDiv()(x, y), ops.TruncateDiv()(x, y), ops.FloorMod()(x, y), ops.TruncateMod()(x, y),
            ops.Pow()(x, ops.Neg()(ops.Abs()(y))))


_SOFTMAX_CE_INPUTS = [
    np.array([[0.0, -np.inf, 1.0], [-np.inf, -np.inf, -np.inf], [2.0, 1.0, 0.5]], np.float32),
    np.array([[0.5, 0.0, 0.5], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]], np.float32)]
_BATCHNORM_INPUTS = [_normal(2, 3, 3, 4, dtype=np.float32), np.ones(4, np.float32), np.zeros(4, np.float32),
                     np.zeros(4, np.float32), np.ones(4, np.float32)]

EDGE_CASES = {
    # max pooling: values and argmax with NaN, ties, +-inf, signed zeros, padding, dilation, ceil mode
    "maxpool_argmax_v2_nan_ties": (lambda x: ops.MaxPoolWithArgmaxV2(3, 2, pads=1)(x), [_tricky((2, 2, 7, 6))]),
    "maxpool_argmax_v2_dilated_ceil": (lambda x: ops.MaxPoolWithArgmaxV2(3, 2, pads=1, dilation=2, ceil_mode=True)(x),
                                       [_tricky((1, 3, 9, 8), 1)]),
    "maxpool_argmax_same": (lambda x: ops.MaxPoolWithArgmax(3, 2, "same")(x), [_tricky((1, 2, 6, 7), 2)]),
    "maxpool3d_argmax_padded": (lambda x: ops.MaxPool3DWithArgmax(2, 2, 1, ceil_mode=True)(x),
                                [_tricky((1, 2, 3, 4, 5), 3)]),
    "maxpool3d_argmax_windows_in_padding": (lambda x: ops.MaxPool3DWithArgmax((2, 3, 2), 2, (2, 1, 2))(x),
                                            [_tricky((1, 2, 2, 4, 3), 9)]),
    "maxpool3d_argmax_grad": (_grad(lambda x: ops.MaxPool3DWithArgmax(2, 2, 1)(x)[0]), [_ints(1, 2, 3, 4, 4)]),
    "maxpool_grad_grad_with_argmax": (lambda x, g: ops.MaxPoolGradGradWithArgmax()(
                                          x, g, ops.MaxPoolWithArgmax(2, 1, "same")(x)[1]),
                                      [_tricky((1, 2, 4, 5), 10), _normal(1, 2, 4, 5, dtype=np.float32)]),
    "maxpool_same": (lambda x: ops.MaxPool(3, 2, "same")(x), [_tricky((2, 1, 7, 7), 4)]),
    "maxpool_grad": (_grad(lambda x: ops.MaxPool(3, 1, "same")(x)), [_ints(1, 2, 5, 6)]),
    "maxpool3d_grad": (_grad(lambda x: ops.MaxPool3D(2, 1, "same")(x)), [_ints(1, 1, 3, 4, 4)]),
    # MindSpore 2.10's NaN rules (MaxPool's maxps fold and its gradient, AdaptiveMaxPool2D, float32 softmax)
    "maxpool_fold_nan_grad": (_grad(lambda x: ops.MaxPool(3, 1, "same")(x)), [_tricky((1, 2, 5, 6), 11)]),
    "maxpool3d_fold_nan": (lambda x: ops.MaxPool3D(2, 1, "pad", 1)(x), [_tricky((1, 2, 3, 4, 5), 12)]),
    "adaptive_maxpool_nan": (lambda x: ops.AdaptiveMaxPool2D((3, 2))(x), [_tricky((1, 2, 7, 5), 13)]),
    "softmax_nan_inf_rows": (lambda x: (ops.softmax(x), ops.softmax(x, 0)), [_tricky((6, 9), 14)]),
    # average and adaptive pooling: divisors with and without padding, overrides, ceil mode
    "avgpool3d_exclude_pad_ceil": (lambda x: ops.AvgPool3D(2, 2, "pad", 1, ceil_mode=True, count_include_pad=False)(x),
                                   [_normal(1, 2, 3, 5, 4, dtype=np.float32)]),
    "avgpool3d_include_pad_divisor": (lambda x: (ops.AvgPool3D(3, 2, "pad", 1, count_include_pad=True)(x),
                                                 ops.AvgPool3D(3, 2, "same", divisor_override=5)(x)),
                                      [_normal(1, 1, 4, 5, 6, dtype=np.float32)]),
    "avgpool3d_grad": (_grad(lambda x: ops.AvgPool3D(2, 2, "pad", 1, ceil_mode=True, count_include_pad=False)(x)),
                       [_normal(1, 2, 3, 5, 4)]),
    "avgpool_same_grad": (_grad(lambda x: ops.AvgPool(3, 2, "same")(x)), [_normal(2, 1, 6, 5)]),
    "adaptive_max_nan": (lambda x: ops.AdaptiveMaxPool2D((2, 3))(x), [_tricky((2, 5, 7), 5)]),
    "adaptive_avg_grad": (_grad(lambda x: ops.AdaptiveAvgPool2D((3, 2))(x)), [_normal(1, 2, 7, 5)]),
    # convolutions
    "conv2d_groups_dilation": (lambda x, w: ops.Conv2D(4, 3, pad_mode="pad", pad=(1, 2, 0, 1), stride=(2, 1),
                                                       dilation=(1, 2), group=2)(x, w),
                               [_normal(2, 4, 7, 8), _normal(4, 2, 3, 3)]),
    "conv2d_same_grads": (_conv2d_grads, [_normal(2, 3, 7, 6), _normal(6, 1, 2, 3)]),
    "conv3d_grads": (_conv3d_grads, [_normal(1, 2, 5, 4, 4), _normal(2, 2, 2, 2, 2)]),
    # scans, sorts and selections with ties and NaN
    "cummax_nan_ties": (lambda x: ops.Cummax(axis=1)(x), [_tricky((3, 9), 6)]),
    "cummin_nan_ties": (lambda x: ops.Cummin(axis=0)(x), [_tricky((8, 3), 7)]),
    "sort_descending_ties": (lambda x: ops.Sort(axis=0, descending=True)(x), [_tricky((9, 4), 8)]),
    "topk_ties": (lambda x: ops.TopK()(x, 3), [_ints(4, 7, dtype=np.float32)]),
    "median_ties": (lambda x: ops.Median(axis=1, keep_dims=True)(x), [_ints(3, 6, dtype=np.float32)]),
    "unique_inverse": (lambda x: ops.Unique()(x), [np.array([[3, 1, 3], [2, 1, 5]], np.int32)]),
    # scatters with repeated indices, in dtypes CUDA atomics do not take
    "scatter_add_repeats_int64": (lambda x, i, u: ops.TensorScatterAdd()(x, i, u),
                                  [np.arange(6, dtype=np.int64).reshape(3, 2), np.array([[0], [2], [0]], np.int32),
                                   np.array([[2 ** 40, -1], [3, 4], [-(2 ** 41), 7]], np.int64)]),
    "scatter_nd_repeats_int8": (lambda i, u: ops.ScatterNd()(i, u, (4,)),
                                [np.array([[1], [1], [3], [1]], np.int32), np.array([100, 100, 5, 7], np.int8)]),
    "scatter_elements_add": (lambda x, i, u: ops.TensorScatterElements(axis=1, reduction="add")(x, i, u),
                             [np.zeros((2, 4), np.float16), np.array([[0, 0, 3], [1, 1, 1]], np.int32),
                              np.array([[1, 2, 3], [4, 5, 6]], np.float16)]),
    # arithmetic corners
    "int_division": (_int_division, [np.array([-7, 7, -8, 9, 1], np.int32), np.array([2, -2, 3, -4, 1], np.int32)]),
    "nan_to_num_half": (lambda x: ops.NanToNum()(x), [np.array([np.nan, np.inf, -np.inf, 1.5], np.float16)]),
    # losses, resizing, normalisation
    "softmax_ce_inf_logits": (lambda x, y: ops.SoftmaxCrossEntropyWithLogits()(x, y), _SOFTMAX_CE_INPUTS),
    "nll_loss_ignore": (lambda x, t, w: ops.NLLLoss(reduction="mean", ignore_index=1)(x, t, w),
                        [_normal(4, 3, dtype=np.float32), np.array([0, 1, 2, 1], np.int32),
                         np.array([0.5, 2.0, 1.0], np.float32)]),
    "resize_bilinear_grad": (_grad(lambda x: ops.ResizeBilinearV2(half_pixel_centers=True)(x, (5, 7))),
                             [_normal(1, 2, 3, 4)]),
    "resize_nearest_grad": (_grad(lambda x: ops.ResizeNearestNeighbor((5, 3), align_corners=True)(x)),
                            [_normal(1, 1, 4, 6)]),
    "batchnorm_nhwc_train": (lambda *a: ops.BatchNorm(is_training=True, data_format="NHWC")(*a)[:3], _BATCHNORM_INPUTS),
}


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_edge_cases_match_the_cpu_kernels(sim_plugin, name):
    fn, arrays = EDGE_CASES[name]
    want = _on("CPU", fn, arrays)
    got = _on(TARGET, fn, arrays)
    _no_fallback()
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, f"{name} output {i}: {g.dtype}{g.shape} != {w.dtype}{w.shape}"
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=f"{name} output {i}")
        else:
            tol = 1e-3 if w.dtype == np.float16 else 1e-5
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol, equal_nan=True, err_msg=f"{name} output {i}")


_BINARY = ("Add", "Sub", "Mul", "RealDiv", "Div", "DivNoNan", "FloorDiv", "FloorMod", "Mod", "TruncateDiv",
           "TruncateMod", "Pow", "Maximum", "Minimum", "SquaredDifference", "Atan2", "Xlogy", "Hypot", "Fmax", "Fmin",
           "Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual", "IsClose")
_OPERANDS = {
    "f32_int": (np.array([-2.5, 0.0, 3.0, 4.5], np.float32), 2),
    "float_f32": (1.5, np.array([-2.5, 0.0, 3.0, 4.5], np.float32)),
    "i32_int": (np.array([-7, 0, 3, 9], np.int32), -2),
    "i32_float": (np.array([-7, 0, 3, 9], np.int32), 2.5),
    "int_i32": (5, np.array([-7, 1, 3, 9], np.int32)),
    "f16_i32": (np.array([-2.5, 0.0, 3.0, 4.5], np.float16), np.array([2, -1, 0, 3], np.int32)),
    "i8_f64": (np.array([-7, 0, 3, 9], np.int8), np.array([0.5, -1.0, 2.0, 0.0])),
}


@pytest.mark.parametrize("operands", sorted(_OPERANDS))
@pytest.mark.parametrize("name", _BINARY)
def test_binary_math_with_scalars_matches_the_cpu_kernels(sim_plugin, name, operands):
    a, b = _OPERANDS[operands]
    op = getattr(ops, name)()
    tensors = [i for i, v in enumerate((a, b)) if isinstance(v, np.ndarray)]

    def fn(*ts):
        args = [a, b]
        for i, t in zip(tensors, ts):
            args[i] = t
        return op(*args)
    arrays = [v for v in (a, b) if isinstance(v, np.ndarray)]
    try:
        want = _on("CPU", fn, arrays)
    except Exception as exc:  # noqa: BLE001 - the GPU table must refuse the same operands
        with pytest.raises(type(exc)):
            _on(TARGET, fn, arrays)
        return
    got = _on(TARGET, fn, arrays)
    _no_fallback()
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=1e-6, atol=1e-6, equal_nan=True,
                                   err_msg=f"{name}{operands}")


_UNARY = ("Neg", "Abs", "Square", "Reciprocal", "Sqrt", "Rsqrt", "Exp", "Log", "Log1p", "Expm1", "Sign", "Floor",
          "Ceil", "Trunc", "Round", "Sin", "Cos", "Tan", "Asin", "ACos", "Atan", "Sinh", "Cosh", "Tanh", "Asinh",
          "Acosh", "Atanh", "Erf", "Erfc", "Erfinv", "Sinc", "NanToNum", "IsNan", "IsInf", "IsFinite", "ReLU",
          "Sigmoid", "GeLU", "FastGeLU", "Softplus", "Mish", "SeLU", "Elu", "HSwish")
_UNARY_INPUTS = {
    "f32": np.array([-3.5, -0.5, -0.0, 0.0, 0.25, 0.99, 2.0, np.nan, np.inf, -np.inf], np.float32),
    "f16": np.array([-3.5, -0.5, 0.0, 0.25, 0.99, 2.0, 7.0], np.float16),
    "f64": np.linspace(-0.999, 3.0, 9),
    "i32": np.array([-4, -1, 0, 1, 3, 100], np.int32),
    "c64": np.array([3 + 4j, -1j, 0.5 - 0.25j, 0, -2 + 0.5j, 1e-8 + 1e-8j], np.complex64),
}


@pytest.mark.parametrize("inputs", sorted(_UNARY_INPUTS))
@pytest.mark.parametrize("name", _UNARY)
def test_unary_math_matches_the_cpu_kernels(sim_plugin, name, inputs):
    x = _UNARY_INPUTS[inputs]
    op = getattr(ops, name)()
    try:
        want = _on("CPU", op, [x])
    except Exception as exc:  # noqa: BLE001 - e.g. float-only activations on integers
        with pytest.raises(type(exc)):
            _on(TARGET, op, [x])
        return
    got = _on(TARGET, op, [x])
    _no_fallback()
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        tol = 1e-3 if w.dtype == np.float16 else 2e-6
        if name == "Tanh" and w.dtype == np.float32:
            tol = 2e-5  # 2.10's CPU float32 tanh is a Pade approximant (within 1.5e-5); its GPU's is tanhf
        wide = np.complex128 if w.dtype.kind == "c" else np.float64
        np.testing.assert_allclose(g.astype(wide), w.astype(wide), rtol=tol, atol=tol, equal_nan=True,
                                   err_msg=f"{name}({inputs})")


# --- core's training suites with the GPU tables as the session's device ------------------------------
REPO = HERE.parents[1]
TRAINING_SUITES = ["tests/e2e/test_lenet_fixture.py", "mindspore-core/tests/nn", "mindspore-core/tests/train"]


@pytest.mark.skipif(not all((REPO / s).exists() for s in TRAINING_SUITES), reason="core's suites are not here")
def test_core_training_suites_on_gpusim():
    """LeNet training, the nn layers, optimizers, Model and amp (bfloat16 included), all on the GPU kernels
    (``gpusim_session.py``)."""
    run = subprocess.run([sys.executable, str(HERE / "gpusim_session.py"), *TRAINING_SUITES, "-q", "-x",
                          "-p", "no:cacheprovider"],
                         cwd=REPO, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert " passed" in run.stdout
