"""The GPU plugin: probe reasons without a GPU, kernel registration, and (with CuPy and a GPU) real runs,
``mindspore.runtime``'s memory counts, streams and events included."""
import gc
import pathlib
import sys
import types

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops
from mindspore import _generation
from mindspore._plugin import manager
from mindspore.ops import _registry as op_registry
from mindspore.plugin import KernelRegistry, TensorSpec

from mindspore_gpu import plugin

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cupy_sim  # noqa: E402

GPU_USABLE = plugin.probe().available
needs_gpu = pytest.mark.skipif(not GPU_USABLE, reason=f"GPU target unavailable: {plugin.probe().reason}")


def _fake_cupy(get_count):
    runtime = types.SimpleNamespace(getDeviceCount=get_count)
    return types.SimpleNamespace(__version__="0.0-fake", cuda=types.SimpleNamespace(runtime=runtime))


def test_probe_without_cupy(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    p = plugin.probe()
    assert (p.target, p.available) == ("GPU", False)
    assert p.reason == "cupy is not installed (pip install mindspore-gpu[cuda13] for CUDA 13.x, mindspore-gpu[cuda12] for 12.x)"


def test_probe_without_device(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(lambda: 0))
    p = plugin.probe()
    assert not p.available and p.reason == "no CUDA device"


def test_probe_when_the_driver_fails(monkeypatch):
    def no_driver():
        raise RuntimeError("cudaErrorInsufficientDriver: CUDA driver version is insufficient")
    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(no_driver))
    p = plugin.probe()
    assert not p.available
    assert p.reason.startswith("no CUDA device (") and "cudaErrorInsufficientDriver" in p.reason


def test_probe_with_devices_outranks_cpu(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(lambda: 2))
    p = plugin.probe()
    assert p.available and p.device_count == 2 and p.reason == ""
    assert p.priority > 0  # the CPU backend's priority


def test_plugin_info_matches_core_api():
    info = plugin.ms_plugin_info()
    assert info["name"] == "gpu" and tuple(info["api_version"]) == ms.PLUGIN_API_VERSION


def test_discovered_through_its_entry_point():
    rec = {r.name: r for r in manager.plugins()}["gpu"]
    assert rec.distribution == "mindspore-gpu"
    assert rec.status == "loaded", rec.error
    (probe,) = rec.probes
    assert probe.target == "GPU"
    if not probe.available:
        assert probe.reason.startswith(("cupy is not installed", "no CUDA device", "cupy failed to import"))


@pytest.mark.skipif(GPU_USABLE, reason="a usable GPU is present")
def test_selecting_gpu_without_one_names_reason_and_install():
    before = ms.get_context("device_target_requested")
    with pytest.raises(RuntimeError) as info:
        ms.set_context(device_target="GPU")
    msg = str(info.value)
    assert "pip install mindspore-gpu" in msg
    assert plugin.probe().reason in msg
    assert ms.get_context("device_target_requested") == before
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(ops.Add()(x, x).asnumpy(), [2.0, 4.0])


def test_create_refuses_when_unavailable(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    assert plugin.ms_backend_create(target="CPU") is None
    with pytest.raises(RuntimeError, match=r"cupy is not installed \(pip install mindspore-gpu\[cuda13\] for CUDA 13"):
        plugin.ms_backend_create(target="GPU")


def test_no_kernels_without_cupy(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    registry = KernelRegistry(known_primitives=op_registry.primitive_names())
    plugin.ms_register_kernels(registry=registry.for_plugin("gpu"))
    assert registry.entries() == []


def test_kernel_table_with_numpy_standing_in_for_cupy():
    """The kernels are written against CuPy's NumPy-compatible API: check them with the NumPy stand-in for
    CuPy (``cupy_sim.py``; the whole table runs the conformance suite in ``test_gpu_kernels_sim.py``)."""
    registry = KernelRegistry(known_primitives=op_registry.primitive_names())
    with cupy_sim.standing_in() as stand_ins:
        plugin.ms_register_kernels(registry=registry.for_plugin("gpu"))
    # the stand-in-backed kernel modules do not outlive the block
    assert not getattr(getattr(sys.modules.get("mindspore_gpu.kernels.math"), "cupy", None), "__sim__", False)
    assert registry.rejected == []
    names = set(registry.primitives("GPU"))
    assert {"Add", "Sub", "Mul", "RealDiv", "Neg", "Conv2D", "MaxPool", "SoftmaxCrossEntropyWithLogits"} <= names
    dev = stand_ins["cupy"].asarray
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    y = rng.uniform(0.5, 2.0, (4,)).astype(np.float32)
    expected = {"Add": x + y, "Sub": x - y, "Mul": x * y, "RealDiv": x / y}
    spec = TensorSpec(x.shape, ms.float32)
    for name, want in expected.items():
        got = registry.lookup(name, "GPU").fn(None, dev(x), dev(y), out=spec)
        assert isinstance(got, cupy_sim.DeviceArray) and got.dtype == np.float32
        np.testing.assert_allclose(cupy_sim.asnumpy(got), want, rtol=1e-6, err_msg=name)
    np.testing.assert_array_equal(cupy_sim.asnumpy(registry.lookup("Neg", "GPU").fn(None, dev(x), out=spec)), -x)
    # a host array is moved to the device first
    got = registry.lookup("Add", "GPU").fn(None, x, dev(y), out=spec)
    assert isinstance(got, cupy_sim.DeviceArray)
    # the arithmetic computes in the inferred dtype: int32 + float16 is float16, not float64
    xi = np.arange(4, dtype=np.int32)
    got = registry.lookup("Add", "GPU").fn(None, dev(xi), 0.5, out=TensorSpec((4,), ms.float16))
    assert got.dtype == np.float16
    np.testing.assert_array_equal(cupy_sim.asnumpy(got), xi + np.float16(0.5))


@pytest.fixture
def on_gpu():
    before = ms.get_context("device_target_requested")
    ms.set_context(device_target="GPU")
    yield
    ms.context.store("device_target", before)
    _generation.bump(plugins=False)


@needs_gpu
def test_gpu_elementwise_forward_and_grad(on_gpu):
    import cupy
    rng = np.random.default_rng(1)
    xn = rng.standard_normal((5, 3)).astype(np.float32)
    yn = rng.uniform(0.5, 2.0, (5, 3)).astype(np.float32)
    x, y = ms.Tensor(xn), ms.Tensor(yn)
    out = ops.RealDiv()(ops.Sub()(ops.Mul()(x, y), x), y)
    assert isinstance(out._data, cupy.ndarray)
    np.testing.assert_allclose(out.asnumpy(), (xn * yn - xn) / yn, rtol=1e-5)
    g = ms.grad(lambda a: ops.Mul()(a, a))(x)
    np.testing.assert_allclose(g.asnumpy(), 2 * xn, rtol=1e-6)


@needs_gpu
def test_gpu_runtime_roundtrip():
    from mindspore_gpu.runtime import GPURuntime
    rt = GPURuntime(device_id=0)
    for dtype in (np.float16, np.float32, np.float64, np.int32, np.int64, np.bool_):
        a = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
        np.testing.assert_array_equal(rt.to_host(rt.from_host(a)), a)
    rt.synchronize()
    with pytest.raises(ValueError, match="device_id"):
        GPURuntime(device_id=10_000)


def test_environment_info_never_raises():
    info = plugin.ms_environment_info()
    assert "cupy" in info


def test_environment_info_reports_versions_and_a_driver_too_old(monkeypatch):
    import types

    def props(i):
        return {"name": b"NVIDIA H100 80GB HBM3", "totalGlobalMem": 80 * 2**30, "major": 9, "minor": 0}
    runtime = types.SimpleNamespace(runtimeGetVersion=lambda: 13020, driverGetVersion=lambda: 12080,
                                    getDeviceCount=lambda: 1, getDeviceProperties=props)
    fake = types.SimpleNamespace(__version__="14.2.0", cuda=types.SimpleNamespace(runtime=runtime))
    monkeypatch.setattr(plugin, "import_cupy", lambda: (fake, None))
    info = plugin.ms_environment_info()
    assert info["cupy"] == "14.2.0" and info["cuda_runtime"] == "13.2" and info["cuda_devices"] == "1"
    assert info["cuda_driver"].startswith("supports CUDA 12.8: too old for CuPy's CUDA 13.2 runtime")
    assert "mindspore-gpu[cuda12]" in info["cuda_driver"]
    assert info["cuda_device_0"] == "NVIDIA H100 80GB HBM3, 80.0 GiB, compute capability 9.0"
    assert "nccl" in info and "cudnn" in info and "cublaslt" in info
    runtime.driverGetVersion = lambda: 13000
    assert plugin.ms_environment_info()["cuda_driver"] == "supports CUDA 13.0"
    assert plugin._split_version(22805) == (2, 28, 5) and plugin._split_version(2708) == (2, 7, 8)


@needs_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fused_kernels_match_their_plain_paths(monkeypatch, dtype):
    """The fused ElementwiseKernels (ReluGrad, GeLU, GeLUGrad, the dense softmax cross-entropy, ApplyMomentum)
    against their plain-CuPy twins, which the conformance suite also runs on the CPU's stand-in."""
    import cupy
    from mindspore_gpu.kernels import _common, families
    fams = {f.__name__.rsplit(".", 1)[-1]: f for f in families()}
    rng = np.random.default_rng(3)
    shape = (64, 33)
    x, dy = (cupy.asarray(rng.standard_normal(shape).astype(dtype)) for _ in range(2))
    labels = cupy.asarray(rng.dirichlet(np.ones(shape[1]), shape[0]).astype(dtype))
    labels[:, 0] = 0
    spec = TensorSpec(shape, ms.dtype.float32 if dtype == np.float32 else ms.dtype.float64)
    loss_spec = (TensorSpec((shape[0],), spec.dtype), spec)
    cases = [("nn", "ReluGrad", (dy, x), spec), ("nn", "GeLU", (x,), spec), ("nn", "GeLUGrad", (dy, x, x), spec),
             ("loss", "SoftmaxCrossEntropyWithLogits", (x, labels), loss_spec)]
    assert fams["nn"]._RELU_GRAD.usable(dy, x)
    for family, name, args, out in cases:
        fn = fams[family].KERNELS[name]
        fused = fn(None, *args, out=out)
        monkeypatch.setattr(_common, "FUSED", False)
        plain = fn(None, *args, out=out)
        monkeypatch.setattr(_common, "FUSED", True)
        as_tuple = (lambda r: r if isinstance(r, tuple) else (r,))
        for a, b in zip(as_tuple(fused), as_tuple(plain)):
            assert a.dtype == b.dtype == dtype
            np.testing.assert_allclose(cupy.asnumpy(a), cupy.asnumpy(b), rtol=2e-6, atol=2e-6, err_msg=name)
    for nesterov in (False, True):
        prim = ops.ApplyMomentum(use_nesterov=nesterov, gradient_scale=0.5)
        results = []
        for fused in (True, False):
            monkeypatch.setattr(_common, "FUSED", fused)
            var, acc = x.copy(), dy.copy()
            ret = fams["nn"].KERNELS["ApplyMomentum"](prim, var, acc, 0.1, labels, 0.9, out=spec)
            assert ret is var
            results.append((cupy.asnumpy(var), cupy.asnumpy(acc)))
        monkeypatch.setattr(_common, "FUSED", True)
        for a, b in zip(*results):
            np.testing.assert_allclose(a, b, rtol=2e-6, atol=2e-6, err_msg=f"ApplyMomentum nesterov={nesterov}")


@needs_gpu
@pytest.mark.filterwarnings(cupy_sim.COMPILE_FAILURES_FAIL)    # a kernel NVRTC refuses fails here, not falls back
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_raw_kernels_match_their_plain_paths(monkeypatch, dtype):
    """The hand-written CUDA kernels (batch norm in training and inference with its gradient, NCHW with several chunks
    per channel and NHWC; LayerNorm; Softmax and LogSoftmax; the sparse cross-entropy and its gradient; ReduceSum over
    leading axes) against the
    plain CuPy paths on the device, as the stand-in runs them on the host."""
    import cupy
    from mindspore_gpu.kernels import _common, families
    fams = {f.__name__.rsplit(".", 1)[-1]: f for f in families()}
    rng = np.random.default_rng(5)
    dev = (lambda a: cupy.asarray(np.asarray(a).astype(dtype)))
    ms_dt = ms.dtype.float32 if dtype == np.float32 else ms.dtype.float64

    def both(fn, *args, state=()):
        """(raw results, plain results), each run from fresh copies of ``state`` (updated in place) after ``args``."""
        runs = []
        for fused in (True, False):
            monkeypatch.setattr(_common, "FUSED", fused)
            kept = [a.copy() for a in state]
            out = fn(*args, *kept)
            assert _common.FUSED is fused, "a raw kernel failed to compile and turned the fused kernels off"
            runs.append([cupy.asnumpy(o) for o in (out if isinstance(out, tuple) else (out,))] +
                        [cupy.asnumpy(a) for a in kept])
        monkeypatch.setattr(_common, "FUSED", True)
        return runs

    def same(runs, what, tol=2e-5):
        for i, (a, b) in enumerate(zip(*runs)):
            scale = max(1.0, float(np.abs(b).max(initial=0)))
            np.testing.assert_allclose(a, b, rtol=tol, atol=tol * scale, err_msg=f"{what} output {i}")

    nn, loss = fams["nn"], fams["loss"]
    for shape, fmt in (((32, 16, 32, 32), "NCHW"), ((8, 3, 5, 7), "NCHW"), ((64, 10), "NCHW"), ((4, 6, 6, 8), "NHWC")):
        c = shape[-1] if fmt == "NHWC" else shape[1]
        x, dy = dev(rng.normal(1, 2, shape)), dev(rng.normal(size=shape))
        scale, bias, mean, var = dev(rng.normal(size=c)), dev(rng.normal(size=c)), dev(rng.normal(size=c)), \
            dev(rng.uniform(0.5, 2, c))
        vec = TensorSpec((c,), ms_dt)
        for training in (True, False):
            prim = ops.BatchNorm(is_training=training, epsilon=1e-3, momentum=0.2, data_format=fmt)
            out = (TensorSpec(shape, ms_dt),) + (vec,) * 4
            same(both(lambda *a: nn.KERNELS["BatchNorm"](prim, *a, out=out), x, scale, bias, state=(mean, var)),
                 f"BatchNorm {shape} {fmt} training={training}")
        grad = ops.BatchNormGrad(is_training=True, epsilon=1e-3, data_format=fmt)
        saved_mean, saved_var = dev(rng.normal(size=c)), dev(rng.uniform(0.5, 2, c))
        same(both(lambda *a: nn.KERNELS["BatchNormGrad"](grad, *a, out=(TensorSpec(shape, ms_dt), vec, vec)),
                  dy, x, scale, saved_mean, saved_var, saved_var), f"BatchNormGrad {shape} {fmt}", tol=1e-4)
    for shape, axis in (((64, 33), 1), ((4, 5, 700), 2), ((6, 4, 9), 1)):
        x = dev(rng.normal(1, 2, shape))
        gamma, beta = dev(rng.normal(size=shape[axis:])), dev(rng.normal(size=shape[axis:]))
        prim = ops.LayerNorm(begin_norm_axis=axis, begin_params_axis=axis, epsilon=1e-5)
        stat = TensorSpec(shape[:axis] + (1,) * (len(shape) - axis), ms_dt)
        same(both(lambda *a: nn.KERNELS["LayerNorm"](prim, *a, out=(TensorSpec(shape, ms_dt), stat, stat)),
                  x, gamma, beta), f"LayerNorm {shape} {axis}")
    x = dev(rng.normal(0, 3, (96, 700)))
    x[0, 3], x[1, 5], x[2] = np.nan, np.inf, -np.inf
    for name, prim in (("Softmax", ops.Softmax(axis=-1)), ("LogSoftmax", ops.LogSoftmax(axis=-1))):
        same(both(lambda a: nn.KERNELS[name](prim, a, out=TensorSpec(x.shape, ms_dt)), x), name)
    logits = dev(rng.normal(0, 4, (256, 1000)))
    for label_dtype in (np.int32, np.int64):
        labels = cupy.asarray(rng.integers(0, 1000, 256).astype(label_dtype))
        for is_grad in (False, True):
            prim = ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=is_grad)
            out = TensorSpec(logits.shape if is_grad else (), ms_dt)
            same(both(lambda a, b: loss.KERNELS["SparseSoftmaxCrossEntropyWithLogits"](prim, a, b, out=out),
                      logits, labels), f"SparseSoftmaxCrossEntropyWithLogits grad={is_grad} {label_dtype.__name__}",
                 tol=1e-5)
    reduce = fams["reduce"]
    for shape, axis, keep in (((32, 120), 0, False), ((3, 5, 7, 40), (0, 1), True), ((5000, 3), -2, False)):
        prim = ops.ReduceSum(keep_dims=keep)
        x = dev(rng.normal(0, 3, shape))
        want = np.sum(cupy.asnumpy(x), axis=axis, keepdims=keep)
        same(both(lambda a: reduce.KERNELS["ReduceSum"](prim, a, axis, out=TensorSpec(want.shape, ms_dt)), x),
             f"ReduceSum {shape} axis={axis}", tol=1e-5)
    # the raw kernels did run (compiled for this dtype), not a fallback
    for raw in (nn._BN_RAW, nn._LN_RAW, nn._SOFTMAX_RAW, loss._SPARSE_RAW, reduce._LEADING):
        assert raw.compiled(), f"{raw.name} never compiled"


@needs_gpu
@pytest.mark.filterwarnings(cupy_sim.COMPILE_FAILURES_FAIL)    # a kernel NVRTC refuses fails here, not falls back
@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_raw_kernels_take_half_data_as_the_casts_around_them_would(half):
    """The hand-written kernels with a storage type (``_common.RAW_STORAGE``: batch norm and its gradient, LayerNorm,
    Softmax, LogSoftmax, SoftmaxGrad, MaxPoolGrad, CastMany, bfloat16 ReLU and ReluGrad) on float16/bfloat16 data
    compiled by NVRTC, and their results the bits of widening the data, the float32 kernels and CuPy's casts back
    (finite data: CuPy's NaN payloads differ)."""
    import cupy
    import ml_dtypes
    from mindspore_gpu.kernels import families
    fams = {f.__name__.rsplit(".", 1)[-1]: f for f in families()}
    nn, pooling, array = fams["nn"], fams["pooling"], fams["array"]
    hdt = np.dtype(ml_dtypes.bfloat16) if half == "bfloat16" else np.dtype(np.float16)
    mhalf = ms.dtype.bfloat16 if half == "bfloat16" else ms.dtype.float16
    rng = np.random.default_rng(3)

    def check(name, fn, *data, keep=()):
        """fn(*data) with the data as they are against fn on their float32 copies, its data results cast back."""
        got = fn(*[cupy.asarray(d) for d in data])
        want = fn(*[cupy.asarray(d).astype(np.float32) for d in data])
        for i, (g, w) in enumerate(zip(got, want)):
            w = w.astype(hdt) if i not in keep else w
            assert g.dtype == w.dtype, (name, i, g.dtype, w.dtype)
            np.testing.assert_array_equal(cupy.asnumpy(g).view(np.uint8), cupy.asnumpy(w).view(np.uint8),
                                          err_msg=f"{name} output {i}")
    shape = (16, 8, 12, 12)
    x, dy = rng.normal(1, 2, shape).astype(hdt), rng.normal(0, 1, shape).astype(hdt)
    vec = [cupy.asarray(v.astype(np.float32)) for v in (rng.normal(size=8), rng.normal(size=8))]
    for training in (True, False):
        prim = ops.BatchNorm(is_training=training, epsilon=1e-3, momentum=0.2)

        def bn(a):
            m, v = cupy.zeros(8, np.float32), cupy.ones(8, np.float32)
            return tuple(nn.KERNELS["BatchNorm"](prim, a, *vec, m, v, out=(TensorSpec(shape, mhalf),)
                                                 + (TensorSpec((8,), ms.dtype.float32),) * 4)) + (m, v)
        check(f"BatchNorm training={training}", bn, x, keep=range(1, 7))
    saved = (cupy.asarray(rng.normal(size=8).astype(np.float32)), cupy.asarray(rng.uniform(1, 2, 8).astype(np.float32)))
    grad = ops.BatchNormGrad(is_training=True, epsilon=1e-3)
    grad_out = (TensorSpec(shape, mhalf),) + (TensorSpec((8,), ms.dtype.float32),) * 2
    check("BatchNormGrad", lambda d, a: nn.KERNELS["BatchNormGrad"](grad, d, a, vec[0], *saved, saved[1], out=grad_out),
          dy, x, keep=(1, 2))
    rows = rng.normal(0, 3, (64, 300)).astype(hdt)
    for name, prim in (("Softmax", ops.Softmax(axis=-1)), ("LogSoftmax", ops.LogSoftmax(axis=-1))):
        # (float32 data take Softmax's own float32 formula: the widened reference is the plain formula's kernel)
        check(name, lambda a: (nn._softmax_rows_plain(a, "ms_softmax_rows_plain" if name == "Softmax" else
                                                      "ms_log_softmax_rows"),), rows)
        y = nn.KERNELS[name](prim, cupy.asarray(rows), out=TensorSpec(rows.shape, mhalf))
        assert y.dtype == hdt
    check("ReLU", lambda a: (nn.KERNELS["ReLU"](None, a, out=TensorSpec(a.shape, mhalf)),), rows)
    check("ReluGrad", lambda a, b: (nn.KERNELS["ReluGrad"](None, a, b, out=TensorSpec(a.shape, mhalf)),), rows[::-1],
          rows)
    ln = ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-5)
    ln_out = (TensorSpec(rows.shape, mhalf),) + (TensorSpec((64, 1), ms.dtype.float32),) * 2
    check("LayerNorm", lambda a, g, b: nn.KERNELS["LayerNorm"](ln, a, g, b, out=ln_out), rows,
          rng.normal(size=300).astype(hdt), rng.normal(size=300).astype(hdt), keep=(1, 2))
    y = rng.uniform(0, 1, (64, 300)).astype(hdt)
    check("SoftmaxGrad", lambda a, b: (nn.KERNELS["SoftmaxGrad"](ops.SoftmaxGrad(axis=-1), a, b,
                                                                  out=TensorSpec(a.shape, mhalf)),), y, rows)
    pool = ops.MaxPool(kernel_size=2, strides=2)
    pooled = tuple(s // 2 for s in shape[2:])
    dout = rng.normal(size=shape[:2] + pooled).astype(hdt)
    check("MaxPoolGrad", lambda a, d: (pooling.KERNELS["MaxPoolGrad"](
        ops.MaxPoolGrad(kernel_size=2, strides=2), a, pooling.KERNELS["MaxPool"](pool, a), d,
        out=TensorSpec(shape, mhalf)),), x, dout)
    if hdt == np.float16:
        check("MaxPool", lambda a: (pooling.KERNELS["MaxPool"](pool, a, out=TensorSpec(shape[:2] + pooled, mhalf)),), x)
    wide = [rng.normal(0, 300, (i + 1, 33)).astype(np.float32) for i in range(20)]
    narrow = array.KERNELS["CastMany"](ops.CastMany(), tuple(cupy.asarray(w) for w in wide), (mhalf,) * 20,
                                       out=tuple(TensorSpec(w.shape, mhalf) for w in wide))
    back = array.KERNELS["CastMany"](ops.CastMany(), narrow, (ms.dtype.float32,) * 20,
                                     out=tuple(TensorSpec(w.shape, ms.dtype.float32) for w in wide))
    for w, n, b in zip(wide, narrow, back):
        np.testing.assert_array_equal(cupy.asnumpy(n).view(np.uint16), w.astype(hdt).view(np.uint16))
        np.testing.assert_array_equal(cupy.asnumpy(b), w.astype(hdt).astype(np.float32))
    for raw in (nn._BN_RAW, nn._LN_RAW, nn._SOFTMAX_RAW, nn._SOFTMAX_GRAD_RAW, array._CAST_MANY):
        assert any(("X", hdt) in key or ("S", hdt) in key or ("D", hdt) in key for key in raw._compiled), raw.name


@needs_gpu
@pytest.mark.filterwarnings(cupy_sim.COMPILE_FAILURES_FAIL)
@pytest.mark.parametrize("nesterov", [False, True])
def test_momentum_many_updates_as_each_parameters_apply_momentum(nesterov):
    """``apply_momentum_many`` (the GRAPH_MODE pass ``gpu_group_updates``'s kernel: 16 parameters per launch) compiled
    by NVRTC gives every variable and accumulation ``ApplyMomentum`` of each parameter gives."""
    import cupy
    from mindspore_gpu.kernels import families
    nn = {f.__name__.rsplit(".", 1)[-1]: f for f in families()}["nn"]
    prim = ops.ApplyMomentum(use_nesterov=nesterov, gradient_scale=0.5)
    rng = np.random.default_rng(4)
    shapes = [(int(rng.integers(1, 3000)),) for _ in range(37)] + [(64, 3, 3, 3)]

    def arrays():
        r = np.random.default_rng(9)
        return [[cupy.asarray(r.standard_normal(s).astype(np.float32)) for _ in range(3)] for s in shapes]
    lr, mu = cupy.asarray(np.float32(0.05)), cupy.asarray(np.float32(0.9))
    many, one = arrays(), arrays()
    nn.apply_momentum_many(prim, [v for v, _, _ in many], [a for _, a, _ in many], lr, [g for _, _, g in many], mu)
    for v, a, g in one:
        nn.KERNELS["ApplyMomentum"](prim, v, a, lr, g, mu, out=None)
    for (v, a, _), (v1, a1, _) in zip(many, one):     # (CUDA may contract the two kernels' products differently)
        np.testing.assert_allclose(cupy.asnumpy(v), cupy.asnumpy(v1), rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(cupy.asnumpy(a), cupy.asnumpy(a1), rtol=1e-6, atol=1e-7)


@needs_gpu
@pytest.mark.filterwarnings(cupy_sim.COMPILE_FAILURES_FAIL)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_matrix_inverse_kernel_is_the_cpu_kernels(dtype):
    """``ms_matrix_inverse_real``/``_complex`` compiled by NVRTC give the CPU backend's C++ kernel's ranks and, to
    rounding (CUDA contracts products into FMAs), its inverses: singular, NaN/inf, adjoint, a size past a block."""
    import cupy
    from mindspore_gpu.kernels import linalg
    cpu = pytest.importorskip("mindspore_cpu.kernels.linalg")
    rng = np.random.default_rng(5)
    tol = 1e-4 if dtype in (np.float32, np.complex64) else 1e-10
    cases = [np.array([[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[1, 2, 3], [2, 4, 6], [3, 6, 9]], np.zeros((3, 3)),
                       [[np.nan, 1, 0], [1, 0, 0], [0, 0, 1]], [[np.inf, 1, 0], [1, 0, 0], [0, 0, 1]]], dtype)]
    for n in (2, 9, 300):
        a = rng.standard_normal((2, n, n)) + (1j * rng.standard_normal((2, n, n)) if np.dtype(dtype).kind == "c" else 0)
        a[1, :, -1] = a[1, :, 0]
        cases.append(a.astype(dtype))
    for a in cases:
        for adjoint in (False, True):
            got, rank = linalg.inverse_with_rank(cupy.asarray(a), adjoint)
            want, want_rank = cpu.inverse_with_rank(a, adjoint)
            np.testing.assert_array_equal(cupy.asnumpy(rank), want_rank)
            got = cupy.asnumpy(got)
            scale = np.maximum(np.abs(want).max(axis=(-1, -2), keepdims=True), 1)
            assert got.dtype == dtype and np.abs(got - want).max() / scale.max() < tol


@needs_gpu
@pytest.mark.filterwarnings(cupy_sim.COMPILE_FAILURES_FAIL)
@pytest.mark.parametrize("name", ["Adam", "AdamNesterov", "AdamWeightDecay"])
def test_adam_many_updates_as_each_parameters_update(name):
    """``update_many`` (``gpu_group_updates``' kernel for Adam and AdamWeightDecay: 16 parameters per launch) compiled
    by NVRTC gives every state the primitive's fused kernel gives each parameter."""
    import cupy
    from mindspore_gpu.kernels import families
    optim = {f.__name__.rsplit(".", 1)[-1]: f for f in families()}["optim"]
    prim = ops.AdamWeightDecay() if name == "AdamWeightDecay" else ops.Adam(use_nesterov=name == "AdamNesterov")
    values = (0.01, 0.9, 0.999, 1e-8, 0.05) if name == "AdamWeightDecay" else (0.9 ** 2, 0.999 ** 2, 0.01, 0.9,
                                                                                0.999, 1e-8)
    scalars = [cupy.asarray(np.float32(v)) for v in values]
    shapes = [(int(n),) for n in np.random.default_rng(4).integers(1, 3000, 37)] + [(64, 3, 3, 3)]

    def members():
        r = np.random.default_rng(9)
        return [[cupy.asarray(r.standard_normal(s).astype(np.float32)) for _ in range(2)]
                + [cupy.asarray(r.uniform(0, 1, s).astype(np.float32))] + scalars
                + [cupy.asarray(r.standard_normal(s).astype(np.float32))] for s in shapes]
    many, one = members(), members()
    optim.update_many(prim, many)
    for inputs in one:
        optim.KERNELS[type(prim).__name__](prim, *inputs)
    for a, b in zip(many, one):     # (CUDA may contract the two kernels' products differently)
        for k in range(3):
            np.testing.assert_allclose(cupy.asnumpy(a[k]), cupy.asnumpy(b[k]), rtol=1e-6, atol=1e-7)


@needs_gpu
@pytest.mark.filterwarnings(cupy_sim.COMPILE_FAILURES_FAIL)
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_relu_is_batch_norm_then_relu_on_the_gpu(dtype, training):
    """``batch_norm_relu`` (the GRAPH pass ``gpu_fuse_batchnorm_relu``'s kernel: the ReLU in batch norm's normalising
    launch) compiled by NVRTC gives BatchNorm's kernel then ReLU's, and ``relu_grad_batch_norm_grad`` ReluGrad's then
    BatchNormGrad's, bit for bit."""
    import cupy
    import ml_dtypes
    from mindspore_gpu.kernels import families
    nn = {f.__name__.rsplit(".", 1)[-1]: f for f in families()}["nn"]
    dt = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    shape = (16, 8, 12, 12)
    rng = np.random.default_rng(5)
    x = cupy.asarray(rng.normal(0.2, 2, shape).astype(dt))
    prim = ops.BatchNorm(is_training=training, epsilon=1e-3, momentum=0.2)
    out = (TensorSpec(shape, getattr(ms.dtype, dtype)),) + (TensorSpec((8,), ms.dtype.float32),) * 4
    vec = [cupy.asarray(rng.normal(size=8).astype(np.float32)) for _ in range(2)]

    def run(fn):
        m, v = cupy.zeros(8, np.float32), cupy.ones(8, np.float32)
        return [cupy.asnumpy(a) for a in fn(x, *vec, m, v)] + [cupy.asnumpy(m), cupy.asnumpy(v)]
    got = run(lambda *a: nn.batch_norm_relu(prim, *a, out=out))
    bn = run(lambda *a: nn.KERNELS["BatchNorm"](prim, *a, out=out))
    want = [cupy.asnumpy(nn.KERNELS["ReLU"](None, cupy.asarray(bn[0]), out=out[0]))] + bn[1:]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.view(np.uint8), w.view(np.uint8))
    # its gradient's ReluGrad read in BatchNormGrad's launches
    grad = ops.BatchNormGrad(is_training=training, epsilon=1e-3)
    grad_out = out[:3]
    dy, y = (cupy.asarray(rng.normal(0, 1, shape).astype(dt)) for _ in range(2))
    saved = (cupy.asarray(rng.normal(size=8).astype(np.float32)), cupy.asarray(rng.uniform(1, 2, 8).astype(np.float32)))
    args = (x, vec[0]) + saved + (saved[1],)
    got = nn.relu_grad_batch_norm_grad(grad, dy, y, *args, out=grad_out)
    want = nn.KERNELS["BatchNormGrad"](grad, nn.KERNELS["ReluGrad"](None, dy, y, out=out[0]), *args, out=grad_out)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(cupy.asnumpy(g).view(np.uint8), cupy.asnumpy(w).view(np.uint8))


@needs_gpu
def test_counter_streams_and_captured_dropout_on_the_gpu():
    """The counter-based stream's uniforms (NVRTC-compiled Philox) are the reference cipher's words from the device
    state, StandardNormal's draws are standard normal, and a GRAPH_MODE step with dropout is captured, its replays
    drawing the plain runs' numbers."""
    import cupy
    from mindspore_gpu import capture
    from mindspore_gpu.kernels import _common
    from test_gpu_counter_rng_sim import reference_uniforms
    ms.set_seed(5)
    prim = ops.Dropout(keep_prob=0.5)
    first = cupy.asnumpy(_common.counter_uniform(prim, (1000,)))
    second = cupy.asnumpy(_common.counter_uniform(prim, (37,)))
    key = int(cupy.asnumpy(_common._COUNTERS[prim][1])[0])
    np.testing.assert_array_equal(first, reference_uniforms(key, 0, 1000))
    np.testing.assert_array_equal(second, reference_uniforms(key, 250, 37))
    ms.set_context(device_target="GPU", mode=ms.PYNATIVE_MODE)
    z = ops.StandardNormal(seed=3)((200, 250)).asnumpy()          # Box-Muller on the counter stream
    assert np.isfinite(z).all() and abs(z.mean()) < 0.02 and abs(z.std() - 1) < 0.02

    def run(capture_on):
        import os
        before = os.environ.get("MS_GPU_GRAPH_CAPTURE")
        os.environ["MS_GPU_GRAPH_CAPTURE"] = "1" if capture_on else "0"
        try:
            ms.set_context(device_target="GPU", mode=ms.GRAPH_MODE)
            ms.set_seed(9)
            net = ms.nn.SequentialCell([ms.nn.Dense(16, 32), ms.nn.ReLU(), ms.nn.Dropout(p=0.3)])
            net.set_train(True)
            x = ms.Tensor(np.random.default_rng(0).standard_normal((8, 16)).astype(np.float32))
            return [net(x).asnumpy() for _ in range(6)]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
            if before is None:
                os.environ.pop("MS_GPU_GRAPH_CAPTURE")
            else:
                os.environ["MS_GPU_GRAPH_CAPTURE"] = before
            _generation.bump()
    plain = run(False)
    st = dict(capture.STATS)
    captured = run(True)
    assert capture.STATS["captured"] > st["captured"] and capture.STATS["replays"] > st["replays"], capture.STATS
    for a, b in zip(plain, captured):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)     # (the capture GEMM may round otherwise)
        np.testing.assert_array_equal(a == 0, b == 0)
    assert len({(o == 0).tobytes() for o in captured}) == len(captured)


@needs_gpu
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_cublaslt_products_match_cupy(dtype):
    """The MatMul kernels' cuBLASLt path (mindspore_gpu/gemm.py) against cupy.matmul of the same operands on the
    device: row-major, transposed views, sliced rows, offset views (less aligned pointers), batches, a matrix beside a
    batch; planned once per layout, then reused."""
    import cupy
    import ml_dtypes
    from mindspore_gpu import gemm
    from mindspore_gpu.kernels import math as gpu_math
    products = gpu_math._LT
    assert products is gemm.for_cupy(cupy) and products.status() is True, products.status()
    dt = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    rng = np.random.default_rng(11)
    d = (lambda *shape: cupy.asarray(rng.standard_normal(shape).astype(dt)))
    cases = [("row-major", d(64, 40), d(40, 24)), ("y transposed", d(32, 400), d(120, 400).T),
             ("x transposed", d(40, 64).T, d(40, 24)), ("sliced rows", d(33, 50)[:, 3:43], d(40, 30)[:, 1:25]),
             ("offset views", d(65, 40)[1:], d(41, 24)[1:]), ("batched", d(6, 32, 40), d(6, 40, 24)),
             ("batched, swapaxes", d(6, 32, 40), d(6, 24, 40).swapaxes(-1, -2)),
             ("batch beside a matrix", d(2, 3, 32, 40), d(40, 24)), ("matrix beside a batch", d(32, 40), d(5, 40, 24))]
    tol = {"float32": 1e-5, "float16": 2e-3, "bfloat16": 1.6e-2}[dtype]
    for name, x, y in cases:
        runs = products.stats["cublaslt"]
        got = products.matmul(x, y)
        assert got is not None and products.stats["cublaslt"] == runs + 1, name
        want = cupy.matmul(x.astype(np.float32), y.astype(np.float32))
        assert got.dtype == dt and got.shape == want.shape, name
        scale = float(cupy.abs(want).max())
        np.testing.assert_allclose(cupy.asnumpy(got.astype(np.float32)), cupy.asnumpy(want), rtol=tol,
                                   atol=tol * scale, err_msg=f"{name} {dtype}")
        plans = len(products._plans)
        products.matmul(x, y)
        assert len(products._plans) == plans, f"{name}: planned again"


@needs_gpu
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("causal", [False, True])
def test_cudnn_attention_matches_cupy(dtype, causal):
    """ScaledDotProductAttention and its gradient on cuDNN's fused attention (mindspore_gpu/cudnn_attention.py)
    against the CuPy computation of the same operands: the heads of BSH tensors read as strided views, 64-wide heads;
    the graphs built once."""
    import cupy
    import ml_dtypes
    from mindspore.ops._defs import nn_prims_ext
    from mindspore_gpu.kernels import nn_prims as gpu_nn_prims
    attention = gpu_nn_prims._ATTENTION
    if attention.convolutions.status() is not True:
        pytest.skip(f"cuDNN unusable: {attention.convolutions.status()}")
    dt = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    rng = np.random.default_rng(12)
    b, n, s, d = 2, 4, 96, 64
    bsh = (lambda: cupy.asarray(rng.standard_normal((b, s, n * d)).astype(dt)).reshape(b, s, n, d)
           .transpose(0, 2, 1, 3))
    q, k, v = bsh(), bsh(), bsh()
    prim = nn_prims_ext.ScaledDotProductAttention(0.125, nn_prims_ext.NO_BAND, 0 if causal else nn_prims_ext.NO_BAND)
    ms_dt = ms.float16 if dtype == "float16" else ms.bfloat16
    before = attention.stats.copy()
    o, lse = gpu_nn_prims.KERNELS["ScaledDotProductAttention"](
        prim, q, k, v, out=(TensorSpec((b, n, s, d), ms_dt), TensorSpec((b, n, s, 1), ms.float32)))
    assert attention.stats[("forward", "cudnn")] == before[("forward", "cudnn")] + 1, attention.wrong
    want_o, want_lse = gpu_nn_prims._sdpa_plain(prim, q, k, v)
    tol = 2e-3 if dtype == "float16" else 1.6e-2
    np.testing.assert_allclose(cupy.asnumpy(o.astype(np.float32)), cupy.asnumpy(want_o.astype(np.float32)),
                               rtol=tol, atol=tol)
    np.testing.assert_allclose(cupy.asnumpy(lse), cupy.asnumpy(want_lse), rtol=1e-4, atol=1e-4)
    dout = cupy.asarray(rng.standard_normal((b, n, s, d)).astype(dt))
    grad = nn_prims_ext.ScaledDotProductAttentionGrad(prim.scale, prim.pre_tokens, prim.next_tokens, False)
    got = gpu_nn_prims.KERNELS["ScaledDotProductAttentionGrad"](
        grad, q, k, v, o, dout, lse, cupy.zeros_like(lse), out=tuple(TensorSpec((b, n, s, d), ms_dt) for _ in "qkv"))
    assert attention.stats[("backward", "cudnn")] == before[("backward", "cudnn")] + 1, attention.wrong
    for name, g, w in zip("qkv", got, gpu_nn_prims._sdpa_grad_plain(grad, q, k, v, o, dout, lse)):
        scale = float(cupy.abs(w.astype(np.float32)).max())
        np.testing.assert_allclose(cupy.asnumpy(g.astype(np.float32)), cupy.asnumpy(w.astype(np.float32)),
                                   rtol=4 * tol, atol=4 * tol * scale, err_msg=f"d{name}")


@needs_gpu
def test_cudnn_plans_kept_and_loaded():
    """cuDNN's plans kept on disk (mindspore_gpu/plans.py), in fresh processes sharing a new cache folder
    (``tests/gpu/plan_cache.py``): the fused attention's two runtime-compiled graphs are kept by the first process and
    loaded, not built, by the second, with the same results; the convolutions' plans are kept where cuDNN can
    serialize them (counted either way), loaded likewise, and nothing is thrown away."""
    from mindspore_gpu import cudnn
    if cudnn.for_cupy(__import__("cupy")).status() is not True:
        pytest.skip(f"cuDNN unusable: {cudnn.for_cupy(__import__('cupy')).status()}")
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests" / "gpu"))
    import plan_cache
    for case in ("attention", "conv"):
        first, second = plan_cache.measure(case, runs=2)
        kept = first["plans"].get("stored", 0)
        assert kept + first["plans"].get("not serializable", 0) >= (2 if case == "attention" else 6), first
        if case == "attention":
            assert kept == 2, first
        assert second["plans"].get("loaded", 0) == kept and not second["plans"].get("discarded"), second
        assert second["plans"].get("stored", 0) == 0 and second["close"], second


@needs_gpu
def test_gpu_random_streams_are_reproducible(on_gpu):
    def draws():
        ms.set_seed(7)
        op = ops.UniformReal(seed=2)
        return op((16,)).asnumpy(), op((16,)).asnumpy()
    a1, a2 = draws()
    b1, b2 = draws()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(a1, a2)


@needs_gpu
def test_gpu_conv_pool_train_step_runs_on_device(on_gpu):
    import cupy
    rng = np.random.default_rng(5)
    x = ms.Tensor(rng.standard_normal((2, 3, 9, 9)).astype(np.float32))
    w = ms.Tensor(rng.standard_normal((4, 3, 3, 3)).astype(np.float32))

    def f(x, w):
        y = ops.Conv2D(4, 3, pad_mode="pad", pad=1)(x, w)
        return ops.ReduceSum()(ops.MaxPool(2, 2)(ops.ReLU()(y)), ())
    loss, (gx, gw) = ms.value_and_grad(f, grad_position=(0, 1))(x, w)
    assert isinstance(gw._data, cupy.ndarray) and gw.shape == w.shape and gx.shape == x.shape
    assert np.isfinite(loss.asnumpy()) and np.isfinite(gw.asnumpy()).all()


# -- mindspore.runtime on the device (the same on the CuPy stand-in: test_gpu_runtime.py) ---------------------
MiB = 1 << 20


@pytest.fixture
def memory_limit_restored():
    before = ms.get_context("max_device_memory")
    yield
    ms.set_context(max_device_memory=before)


@needs_gpu
def test_gpu_memory_allocated_grows_and_empty_cache_returns_memory(on_gpu, memory_limit_restored):
    import cupy
    r = ms.runtime
    gc.collect()
    r.empty_cache()
    base = r.memory_allocated()
    x = ms.Tensor(np.ones((1024, 1024), np.float32))               # 4 MiB
    y = ops.add(x, x)                                              # 4 MiB more, made by a kernel
    r.synchronize()
    assert r.memory_allocated() >= base + 8 * MiB
    assert r.memory_allocated() == cupy.get_default_memory_pool().used_bytes()
    assert r.max_memory_allocated() >= base + 8 * MiB
    assert r.memory_stats()["total_reserved_memory"] == cupy.get_default_memory_pool().total_bytes()
    del x, y
    gc.collect()
    assert r.memory_allocated() <= base + MiB
    cached = r.memory_reserved()
    assert cached >= 8 * MiB
    r.empty_cache()
    assert r.memory_reserved() <= cached - 8 * MiB
    assert r.max_memory_reserved() >= cached
    r.reset_peak_memory_stats()
    assert r.max_memory_allocated() == r.memory_allocated()
    assert "Memory summary (GPU)" in r.memory_summary()


@needs_gpu
def test_gpu_memory_limit_applies(on_gpu, memory_limit_restored):
    import cupy
    ms.runtime.set_memory(max_size="0.25GB")
    assert cupy.get_default_memory_pool().get_limit() == 256 * MiB
    with pytest.raises(MemoryError):
        ms.Tensor(np.zeros(512 * MiB, np.uint8))
    ms.runtime.set_memory(max_size="1024GB")


@needs_gpu
def test_gpu_streams_and_events(on_gpu, memory_limit_restored):
    import cupy
    r = ms.runtime
    rng = np.random.default_rng(0)
    an = rng.standard_normal((512, 512)).astype(np.float32)
    a = ms.Tensor(an)
    assert r.current_stream() == r.default_stream()
    s1, s2 = r.Stream(), r.Stream()
    start, end = r.Event(enable_timing=True), r.Event(enable_timing=True)
    s1.wait_stream(r.current_stream())                             # a's copy to the device ran on the default stream
    scale = float(np.sqrt(512))
    with r.StreamCtx(s1):
        assert cupy.cuda.get_current_stream() == s1._handle
        start.record()
        b = ops.matmul(a, a) / scale
        for _ in range(5):
            b = ops.matmul(b, a) / scale
        end.record()
    assert r.current_stream() == r.default_stream()
    s2.wait_stream(s1)
    with r.StreamCtx(s2):
        c = b + 1
    s2.synchronize()
    assert s2.query() and end.query()
    want = an @ an / scale
    for _ in range(5):
        want = want @ an / scale
    np.testing.assert_allclose(c.asnumpy(), want + 1, rtol=1e-3, atol=1e-3)
    elapsed = start.elapsed_time(end)
    assert elapsed > 0.0
    ev = s1.record_event()
    ev.synchronize()
    assert ev.query() and s1.query()
    r.synchronize()
