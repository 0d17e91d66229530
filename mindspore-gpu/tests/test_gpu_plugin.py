"""The GPU plugin: probe reasons without a GPU, kernel registration, and (with CuPy and a GPU) real runs."""
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

GPU_USABLE = plugin.probe().available
needs_gpu = pytest.mark.skipif(not GPU_USABLE, reason=f"GPU target unavailable: {plugin.probe().reason}")


def _fake_cupy(get_count):
    runtime = types.SimpleNamespace(getDeviceCount=get_count)
    return types.SimpleNamespace(__version__="0.0-fake", cuda=types.SimpleNamespace(runtime=runtime))


def test_probe_without_cupy(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    p = plugin.probe()
    assert (p.target, p.available) == ("GPU", False)
    assert p.reason == "cupy is not installed (pip install mindspore-gpu[cuda12])"


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
    with pytest.raises(RuntimeError, match=r"cupy is not installed \(pip install mindspore-gpu\[cuda12\]\)"):
        plugin.ms_backend_create(target="GPU")


def test_no_kernels_without_cupy(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)
    registry = KernelRegistry(known_primitives=op_registry.primitive_names())
    plugin.ms_register_kernels(registry=registry.for_plugin("gpu"))
    assert registry.entries() == []


def test_kernel_table_with_numpy_standing_in_for_cupy(monkeypatch):
    """The kernels are written against CuPy's NumPy-compatible API: check them with NumPy in its place."""
    monkeypatch.setitem(sys.modules, "cupy", np)
    monkeypatch.delitem(sys.modules, "mindspore_gpu.kernels.math", raising=False)
    registry = KernelRegistry(known_primitives=op_registry.primitive_names())
    plugin.ms_register_kernels(registry=registry.for_plugin("gpu"))
    monkeypatch.delitem(sys.modules, "mindspore_gpu.kernels.math", raising=False)
    assert registry.rejected == []
    names = set(registry.primitives("GPU"))
    assert {"Add", "Sub", "Mul", "RealDiv", "Neg"} <= names
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    y = rng.uniform(0.5, 2.0, (4,)).astype(np.float32)
    expected = {"Add": x + y, "Sub": x - y, "Mul": x * y, "RealDiv": x / y}
    spec = TensorSpec(x.shape, ms.float32)
    for name, want in expected.items():
        got = registry.lookup(name, "GPU").fn(None, x, y, out=spec)
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=name)
    np.testing.assert_array_equal(registry.lookup("Neg", "GPU").fn(None, x, out=spec), -x)
    # the arithmetic computes in the inferred dtype: int32 + float16 is float16, not float64
    xi = np.arange(4, dtype=np.int32)
    got = registry.lookup("Add", "GPU").fn(None, xi, 0.5, out=TensorSpec((4,), ms.float16))
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, xi + np.float16(0.5))


@pytest.fixture
def on_gpu():
    before = ms.get_context("device_target_requested")
    ms.set_context(device_target="GPU")
    yield
    ms.context.store("device_target", before)
    _generation.bump()


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
