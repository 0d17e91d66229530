"""GRAPH_MODE on a real GPU (skipped without one; ``test_gpu_graph_sim.py`` runs the same checks on the stand-in):
the generated ``cupy.ElementwiseKernel`` sources compile with NVRTC and give the plain kernels' numbers, and a
captured CUDA graph replays a step that updates a Parameter in place with the numbers of the plain run."""
import warnings

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation, nn, ops
from mindspore_gpu import plugin

needs_gpu = pytest.mark.skipif(not plugin.probe().available,
                               reason=f"GPU target unavailable: {plugin.probe().reason}")
pytestmark = [needs_gpu, pytest.mark.filterwarnings("ignore::RuntimeWarning")]

_X = np.array([[-2.5, -1.0, -0.0, 0.0, 0.3], [0.7, 1.5, 3.0, 20.0, -30.0]])
_Y = np.array([[0.5, 2.0, -1.5, 4.0, 0.25], [1.0, -0.5, 3.0, 2.0, 1.5]])
_CHAINS = {
    "Add": lambda a, b: ops.add(a, b), "Sub": lambda a, b: ops.sub(b, a), "Mul": lambda a, b: ops.mul(a, b),
    "RealDiv": lambda a, b: ops.div(a, b), "Maximum": lambda a, b: ops.maximum(a, b),
    "Minimum": lambda a, b: ops.minimum(a, b), "Neg": lambda a, b: ops.neg(a), "Square": lambda a, b: ops.square(a),
    "Exp": lambda a, b: ops.exp(a), "Log": lambda a, b: ops.log(a), "Sqrt": lambda a, b: ops.sqrt(a),
    "Rsqrt": lambda a, b: ops.rsqrt(a), "Tanh": lambda a, b: ops.tanh(a), "ReLU": lambda a, b: ops.relu(a),
    "Sigmoid": lambda a, b: ops.sigmoid(a), "GeLU": lambda a, b: ops.gelu(a), "Pow": lambda a, b: ops.pow(a, 3.0),
    "ScalarAdd": lambda a, b: a + 0.1, "ReluGrad": lambda a, b: ops.ReluGrad()(b, a),
    "Cast": lambda a, b: ops.cast(a, ms.float64) * 3.0,
}


@pytest.fixture
def on_gpu(monkeypatch):
    before = ms.get_context("device_target_requested")
    mode = ms.get_context("mode")
    ms.set_context(device_target="GPU", mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=mode)
    ms.context.store("device_target", before)
    _generation.bump(plugins=False)


def _switches(monkeypatch, fuse, capture):
    monkeypatch.setenv("MS_GPU_FUSED_KERNELS", "1" if fuse else "0")
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "1" if capture else "0")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", sorted(_CHAINS))
def test_a_fused_chain_gives_the_unfused_numbers_on_the_gpu(on_gpu, monkeypatch, op, dtype):
    from mindspore_gpu import passes

    def f(a, b):
        return _CHAINS[op](a * 2.0 - b, b)
    x, y = ms.Tensor(_X.astype(dtype)), ms.Tensor(_Y.astype(dtype))
    _switches(monkeypatch, fuse=False, capture=False)
    plain = ms.jit(lambda a, b: f(a, b))(x, y).asnumpy()
    _switches(monkeypatch, fuse=True, capture=False)
    before, fell = passes.STATS["chains"], passes.STATS["fallbacks"]
    fused = ms.jit(lambda a, b: f(a, b))(x, y).asnumpy()
    assert passes.STATS["chains"] > before and passes.STATS["fallbacks"] == fell, "not fused, or fell back"
    np.testing.assert_allclose(fused, plain, rtol=1e-6 if dtype == np.float32 else 1e-13, equal_nan=True)


class _Accumulate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.zeros((64, 32), np.float32)), name="w")

    def construct(self, x):
        ops.assign(self.w, self.w * 0.5 + x)
        return ops.relu(self.w * 2.0 - 1.0)


def test_a_captured_step_replays_with_new_inputs_and_updated_parameters(on_gpu, monkeypatch):
    from mindspore_gpu import capture
    _switches(monkeypatch, fuse=True, capture=True)
    net = _Accumulate()
    st = dict(capture.STATS)
    w = np.zeros((64, 32), np.float32)
    rng = np.random.default_rng(1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for step in range(6):
            x = rng.standard_normal((64, 32)).astype(np.float32)
            out = net(ms.Tensor(x)).asnumpy()
            w = w * 0.5 + x
            np.testing.assert_allclose(out, np.maximum(w * 2 - 1, 0), rtol=1e-6, atol=1e-6, err_msg=f"step {step}")
    assert capture.STATS["captured"] == st["captured"] + 1, [str(c.message) for c in caught]
    assert capture.STATS["replays"] == st["replays"] + 4


def test_an_mlp_step_gives_the_same_losses_with_capture_on_and_off(on_gpu, monkeypatch):
    """CuPy 14 refuses cuBLAS while capturing: the capture falls back (one warning) or, with a CuPy that allows
    it, replays; either way the losses are the plain run's."""
    def losses():
        ms.set_seed(7)
        net = nn.SequentialCell([nn.Dense(20, 32), nn.ReLU(), nn.Dense(32, 10)])
        rng = np.random.default_rng(3)
        for p in net.trainable_params():
            p.set_data(ms.Tensor((rng.standard_normal(p.shape) * 0.1).astype(np.float32)))
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                         reduction="mean")),
                                   nn.Momentum(net.trainable_params(), 0.05, 0.9))
        step.set_train()
        out = []
        for _ in range(5):
            x = ms.Tensor(rng.standard_normal((16, 20)).astype(np.float32))
            y = ms.Tensor(rng.integers(0, 10, 16).astype(np.int32))
            out.append(float(step(x, y).asnumpy()))
        return np.array(out)
    _switches(monkeypatch, fuse=True, capture=False)
    plain = losses()
    _switches(monkeypatch, fuse=True, capture=True)
    np.testing.assert_allclose(losses(), plain, rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("sa,sb", [((3, 4), (4, 5)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)),
                                   ((2, 1, 3, 4), (1, 3, 4, 2)), ((64, 800), (800, 120))])
def test_the_capture_gemm_gives_cupy_matmul_on_the_gpu(sa, sb, dtype):
    """The ctypes cuBLAS GEMM of ``MS_GPU_CAPTURE_GEMM=1``, outside a capture, against ``cupy.matmul``."""
    import cupy
    from mindspore_gpu import capture
    stream = cupy.cuda.Stream(non_blocking=True)
    gemm = capture.CublasGemm(stream)
    rng = np.random.default_rng(5)
    a, b = cupy.asarray(rng.standard_normal(sa).astype(dtype)), cupy.asarray(rng.standard_normal(sb).astype(dtype))
    # the uploads are queued on the current stream, which the non-blocking stream does not wait for by itself (on the
    # H200 this product was once computed from operands not yet copied)
    stream.wait_event(cupy.cuda.get_current_stream().record())
    with stream:
        got = capture._capture_matmul(gemm, cupy.matmul)(a, b)
        stream.synchronize()
    np.testing.assert_allclose(cupy.asnumpy(got), cupy.asnumpy(cupy.matmul(a, b)),
                               rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-5)
    gemm.close()


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_the_capture_gemm_takes_half_precision_on_the_gpu(half):
    """float16/bfloat16 products through the capture GEMM: float32 products rounded once, as CuPy's float32 matmul of
    the same operands gives them (to a unit in the last place of the half type: the GEMMs may sum in other orders)."""
    import cupy
    import ml_dtypes
    from mindspore_gpu import capture
    dt = np.dtype(np.float16) if half == "float16" else np.dtype(ml_dtypes.bfloat16)
    stream = cupy.cuda.Stream(non_blocking=True)
    gemm = capture.CublasGemm(stream)
    rng = np.random.default_rng(6)
    a = cupy.asarray(rng.standard_normal((4, 16, 32)).astype(dt))
    b = cupy.asarray(rng.standard_normal((32, 8)).astype(dt))
    stream.wait_event(cupy.cuda.get_current_stream().record())
    with stream:
        got = capture._capture_matmul(gemm, cupy.matmul)(a, b)
        stream.synchronize()
    want = cupy.matmul(a.astype(np.float32), b.astype(np.float32)).astype(dt)
    assert got.dtype == dt
    np.testing.assert_allclose(cupy.asnumpy(got).astype(np.float32), cupy.asnumpy(want).astype(np.float32),
                               rtol=1e-2 if half == "bfloat16" else 2e-3, atol=1e-2)
    gemm.close()


def test_an_mlp_step_is_captured_with_the_capture_gemm(on_gpu, monkeypatch):
    from mindspore_gpu import capture
    _switches(monkeypatch, fuse=True, capture=True)
    monkeypatch.setenv("MS_GPU_CAPTURE_GEMM", "1")
    st = dict(capture.STATS)
    net = nn.SequentialCell([nn.Dense(20, 32), nn.ReLU(), nn.Dense(32, 10)])
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
                               nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    x = ms.Tensor(np.random.default_rng(0).standard_normal((16, 20)).astype(np.float32))
    y = ms.Tensor(np.arange(16).astype(np.int32) % 10)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        losses = [float(step(x, y).asnumpy()) for _ in range(6)]
    assert capture.STATS["captured"] == st["captured"] + 1, [str(c.message) for c in caught]
    assert capture.STATS["replays"] == st["replays"] + 4
    assert losses[-1] < losses[0], losses
