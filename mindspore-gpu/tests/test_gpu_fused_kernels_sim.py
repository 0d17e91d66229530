"""The GPU kernels' fused paths (``ElementwiseKernel``s) on the stand-in, whose ``ElementwiseKernel`` evaluates
their CUDA C with NumPy, against the CPU kernels:

* max pooling's steps (one kernel per kernel offset, ``kernels/pooling.py`` ``_STEPS``, and MaxPool's whole-window
  kernels ``_WINDOW_KERNELS``): every pooling edge case
  of ``test_gpu_kernels_sim.py`` (NaN under each of MindSpore 2.10's rules, ties, signed zeros, +-inf, windows in
  the padding, 2-D and 3-D, gradients) gives the CPU kernels' values and indices bit for bit;
* training-mode batch norm and its gradient (``kernels/nn.py`` ``_BN_*``): outputs, saved statistics, the moving
  statistics updated in place, and the three gradients, NCHW and NHWC, float32 and float64.
"""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402
import test_gpu_kernels_sim as base  # noqa: E402

TARGET = "GPUSIMF"
GRAPH = cupy_sim.load_graph_modules()
FAMILIES = {f.__name__.rsplit(".", 1)[-1]: f for f in GRAPH.families}
POOLING, NN = FAMILIES["pooling"], FAMILIES["nn"]
CASES = sorted(name for name in base.EDGE_CASES if "maxpool" in name and "adaptive" not in name)

pytestmark = cupy_sim.warning_marks()


@pytest.fixture(scope="module")
def fused_plugin():
    with cupy_sim.registered(TARGET, GRAPH.families) as plugin:
        yield plugin


def _calls():
    """Calls of the fused pooling kernels: the per-offset steps and the generated whole-window kernels."""
    return sum(step.kernel.calls for step in list(POOLING._STEPS.values()) + list(POOLING._WINDOW_KERNELS.values()))


def test_the_steps_are_elementwise_kernels_on_this_stand_in():
    assert CASES and all(step.kernel is not None for step in POOLING._STEPS.values())


@pytest.mark.parametrize("name", CASES)
def test_fused_max_pooling_gives_the_cpu_kernels_bits(fused_plugin, name):
    fn, arrays = base.EDGE_CASES[name]
    want = base._on("CPU", fn, arrays)
    before = _calls()
    got = base._on(TARGET, fn, arrays)
    assert _calls() > before, "the fused steps ran"
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, f"{name} output {i}"
        if w.dtype.kind == "f" and "grad" not in name:
            # values picked from the input: the same numbers, NaN where NaN, the same zero's sign
            np.testing.assert_array_equal(g, w, err_msg=f"{name} output {i}")
            assert np.array_equal(np.signbit(g), np.signbit(w)), f"{name} output {i}: the sign of a zero"
        elif w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6, equal_nan=True, err_msg=f"{name} output {i}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{name} output {i}")


def _bn_calls():
    return sum(k.calls for functions in NN._BN_RAW.compiled() for k in functions.values())


def _batch_norm_run(target, data_format, dtype):
    """(outputs, moving mean, moving variance, gradients of x, scale, bias) of a training batch norm on ``target``."""
    rng = np.random.default_rng(3)
    shape = (4, 3, 5, 6) if data_format == "NCHW" else (4, 5, 6, 3)
    x = rng.normal(1.0, 2.0, shape).astype(dtype)
    c = 3
    scale, bias = rng.normal(size=c).astype(dtype), rng.normal(size=c).astype(dtype)
    mean, var = rng.normal(size=c).astype(dtype), rng.uniform(0.5, 2, c).astype(dtype)
    w = rng.normal(size=shape).astype(dtype)
    before = ms.get_context("device_target_requested")
    ms.set_context(device_target=target)
    try:
        bn = ms.ops.BatchNorm(is_training=True, epsilon=1e-3, momentum=0.3, data_format=data_format)
        m, v = ms.Tensor(mean), ms.Tensor(var)
        outs = [o.asnumpy() for o in bn(ms.Tensor(x), ms.Tensor(scale), ms.Tensor(bias), m, v)[:5]]
        moving = [m.asnumpy(), v.asnumpy()]
        bn2 = ms.ops.BatchNorm(is_training=True, epsilon=1e-3, momentum=0.3, data_format=data_format)
        grads = ms.grad(lambda a, s, b: (bn2(a, s, b, ms.Tensor(mean), ms.Tensor(var))[0] * ms.Tensor(w)).sum(),
                        grad_position=(0, 1, 2))(ms.Tensor(x), ms.Tensor(scale), ms.Tensor(bias))
        return outs + moving + [g.asnumpy() for g in grads]
    finally:
        ms.context.store("device_target", before)
        base._generation.bump(plugins=False)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_fused_batch_norm_gives_the_cpu_kernels_numbers(fused_plugin, data_format, dtype):
    want = _batch_norm_run("CPU", data_format, dtype)
    before = _bn_calls()
    got = _batch_norm_run(TARGET, data_format, dtype)
    assert _bn_calls() >= before + 4, "the raw forward and gradient kernels ran"
    names = ["y", "batch mean", "batch variance", "saved mean", "saved variance", "moving mean", "moving variance",
             "dx", "dscale", "dbias"]
    tol = 2e-5 if dtype == np.float32 else 1e-12
    for name, g, w in zip(names, got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, name
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg=name)


def _sparse_ce_run(target, logits, labels):
    before = ms.get_context("device_target_requested")
    ms.set_context(device_target=target)
    try:
        x, y = ms.Tensor(logits), ms.Tensor(labels)
        loss = ms.ops.SparseSoftmaxCrossEntropyWithLogits()(x, y).asnumpy()
        grad = ms.ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=True)(x, y).asnumpy()
        return loss, grad
    finally:
        ms.context.store("device_target", before)
        base._generation.bump(plugins=False)


def _sparse_calls():
    loss = FAMILIES["loss"]
    return sum(k.calls for functions in loss._SPARSE_RAW.compiled() for k in functions.values())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fused_sparse_softmax_cross_entropy_gives_the_cpu_kernels_numbers(fused_plugin, dtype):
    rng = np.random.default_rng(9)
    logits = (rng.standard_normal((6, 5)) * 4).astype(dtype)
    logits[1, 2] = np.inf            # a row whose maximum is not finite: shifted by 0, as the CPU kernels do
    logits[2] = -np.inf
    logits[3, :2] = 80.0             # large values: the shift keeps exp finite
    labels = np.array([0, 2, 1, 4, 3, 1], np.int32)
    want = _sparse_ce_run("CPU", logits, labels)
    before = _sparse_calls()
    got = _sparse_ce_run(TARGET, logits, labels)
    assert _sparse_calls() == before + 3, "the raw loss (2 kernels) and its gradient (1) ran"
    tol = 1e-6 if dtype == np.float32 else 1e-13
    for name, g, w in zip(("loss", "grad"), got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, name
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol, equal_nan=True, err_msg=name)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_relu_and_its_gradient_are_one_launch_in_every_float_dtype(dtype):
    """ReLU and ReluGrad select, exact in any dtype: float16 (amp's) is one launch too, not widened and cast back,
    with the CPU kernels' bits (NaN to 0, -0 to +0, infinities, the gradient's NaN where y <= 0 dropped)."""
    from mindspore.plugin import TensorSpec
    cp = GRAPH.cupy
    x = np.array([[-2.5, -0.0, 0.0, 1.5], [np.nan, np.inf, -np.inf, 3e-5]], dtype)
    dy = np.array([[1.0, np.nan, 2.0, -3.0], [4.0, 5.0, np.inf, -0.5]], dtype)
    from mindspore_cpu.kernels import nn as cpu_nn
    spec = TensorSpec(x.shape, {np.float16: ms.float16, np.float32: ms.float32, np.float64: ms.float64}[dtype])
    y_want = cpu_nn.KERNELS["ReLU"](ms.ops.ReLU(), x, out=spec)
    dx_want = cpu_nn.KERNELS["ReluGrad"](None, dy, y_want, out=spec)
    x_dev, dy_dev = cp.asarray(x), cp.asarray(dy)
    kinds = []
    prev, cupy_sim.LAUNCHES.listener = cupy_sim.LAUNCHES.listener, kinds.append
    try:
        y = NN.KERNELS["ReLU"](ms.ops.ReLU(), x_dev, out=spec)
        dx = NN.KERNELS["ReluGrad"](None, dy_dev, y, out=spec)
    finally:
        cupy_sim.LAUNCHES.listener = prev
    assert kinds == ["ElementwiseKernel ms_relu", "ElementwiseKernel ms_relu_grad"], kinds
    for got, want in ((cp.asnumpy(y), np.asarray(y_want)), (cp.asnumpy(dx), np.asarray(dx_want))):
        assert got.dtype == want.dtype == dtype
        np.testing.assert_array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))
