"""The CPU backend's GRAPH_MODE passes: elementwise chains fused, bias-add + activation in one kernel,
Parameter updates computed in place - with the same numbers as the separate kernels."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore._pipeline import compiler, passes
from mindspore._pipeline.fusion import FusedOp


@pytest.fixture(autouse=True)
def _verify(monkeypatch):
    monkeypatch.setattr(passes, "VERIFY", True)


def _fused(fn):
    (entry,) = compiler.cache_for(fn).values()
    return [n.fn_value() for n in entry.graph.nodes if isinstance(n.fn_value(), FusedOp)]


def _data(*shape, seed=0):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def test_elementwise_chain_is_one_kernel_with_identical_results():
    def f(x, y):
        return ops.relu(x * y + 1.0) - y / 2.0
    x, y = _data(16, 8), _data(16, 8, seed=1)
    jf = ms.jit(f)
    np.testing.assert_array_equal(jf(x, y).asnumpy(), f(x, y).asnumpy())
    (fused,) = _fused(jf)
    assert fused.attrs["ops"] == ("Mul", "Add", "ReLU", "Sub")


def test_relu_gradient_after_a_sum_of_gradients_is_one_kernel():
    """A residual block's backward: (the two branches' gradients summed) -> ReluGrad, one pass; a NaN
    where the ReLU was off gives 0, as the unfused kernel and MindSpore's ReluGrad do."""
    from mindspore.ops._defs.nn import ReluGrad

    def f(a, b, y):
        return ReluGrad()(a + b, y) * 2.0
    a, b, y = _data(6, 32), _data(6, 32, seed=1), _data(6, 32, seed=2)
    a[0, 0] = float("nan")
    y[0, 0] = -1.0
    jf = ms.jit(f)
    got = jf(a, b, y).asnumpy()
    np.testing.assert_array_equal(got, f(a, b, y).asnumpy())
    expect = np.where(y.asnumpy() > 0, a.asnumpy() + b.asnumpy(), 0) * 2.0
    np.testing.assert_array_equal(got, expect.astype(np.float32))
    (fused,) = _fused(jf)
    assert fused.attrs["ops"] == ("Add", "ReluGrad", "Mul")


@pytest.mark.parametrize("act", [ops.relu, ops.gelu, ops.tanh], ids=["relu", "gelu", "tanh"])
def test_bias_add_and_activation_fuse_into_the_matmul(act):
    """nn.Dense's MatMul + BiasAdd (+ ReLU) is one C++ kernel (FusedDense), equal to the separate kernels bit for
    bit; another activation stays a kernel of its own after it."""
    w, b = _data(8, 4), _data(8, seed=2)

    def f(x):
        return act(ops.bias_add(ops.matmul(x, w.T), b)) if act is not ops.gelu else \
            ops.gelu(ops.bias_add(ops.matmul(x, w.T), b), approximate="tanh")
    x = _data(5, 4, seed=3)
    jf = ms.jit(f)
    if act is ops.relu:
        np.testing.assert_array_equal(jf(x).asnumpy(), f(x).asnumpy())
    else:
        np.testing.assert_allclose(jf(x).asnumpy(), f(x).asnumpy(), rtol=1e-6, atol=1e-7)
    fused = _fused(jf)
    assert fused[0].name == "FusedDense"
    assert fused[0].attrs["ops"] == (("MatMul", "BiasAdd", "ReLU") if act is ops.relu else ("MatMul", "BiasAdd"))
    assert len(fused) == 1


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("relu", [False, True])
@pytest.mark.parametrize("shape", [(32, 400, 120), (5, 7, 3), (300, 64, 600), (2, 84, 10)])
def test_dense_kernel_equals_matmul_bias_add_and_relu_bitwise(shape, relu, dtype):
    """The C++ Dense kernel against the separate MatMul, BiasAdd and ReLU kernels, on one and two threads (the
    product splits over the threads at the larger sizes); NaN and -0 through the ReLU as MindSpore's."""
    k = pytest.importorskip("mindspore_cpu._kernels")
    m, kk, n = shape
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal((m, kk)).astype(dtype)
    w = rng.standard_normal((n, kk)).astype(dtype)
    bias = rng.standard_normal(n).astype(dtype)
    x[0, 0] = np.nan                      # row 0 is NaN everywhere: ReLU makes it 0
    bias[-1] = -np.inf
    before = k.num_threads()
    try:
        for threads in (1, 2):
            k.set_num_threads(threads)
            for weight, transposed in ((w, True), (np.ascontiguousarray(w.T), False)):
                y = k.matmul(x, weight, False, transposed) + bias
                want = np.fmax(y, np.zeros((), dtype)) if relu else y
                got = k.dense(x, weight, bias, transposed, relu)
                assert got.dtype == want.dtype and got.shape == want.shape
                assert np.array_equal(got.view(np.uint8), want.view(np.uint8))
    finally:
        k.set_num_threads(before)
    with pytest.raises(ValueError, match="'bias' must have"):
        k.dense(x, w, bias[:-1], True, relu)
    with pytest.raises(ValueError, match="inner dimensions"):
        k.dense(x, w, bias, False, relu)


def test_dense_read_elsewhere_keeps_its_own_product():
    w, b = _data(6, 4), _data(6, seed=2)

    def f(x):
        y = ops.matmul(x, w.T)
        return ops.relu(ops.bias_add(y, b)) + y     # the raw product is needed too: no Dense fusion
    x = _data(3, 4, seed=3)
    jf = ms.jit(f)
    np.testing.assert_array_equal(jf(x).asnumpy(), f(x).asnumpy())
    assert not [p for p in _fused(jf) if p.name == "FusedDense"]


class _MeanSquareSGD(nn.Optimizer):
    """An optimizer written as elementwise chains assigned to Parameters (the built-in ones call one update
    primitive per parameter): ms = 0.9 ms + 0.1 g^2, then p -= 0.01 g / sqrt(ms + 1e-6)."""

    def __init__(self, params):
        super().__init__(0.01, params)
        self.mean_squares = self._parameters.clone(prefix="ms", init="zeros")

    def construct(self, gradients):
        for p, m, g in zip(self._parameters, self.mean_squares, gradients):
            ops.assign(m, m * 0.9 + g * g * 0.1)
            ops.assign_sub(p, g * 0.01 / ops.sqrt(m + 1e-6))
        return True


def test_training_step_updates_moments_and_weights_in_place_exactly():
    def make():
        ms.set_seed(5)
        net = nn.SequentialCell([nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3)])
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                         reduction="mean")),
                                   _MeanSquareSGD(net.trainable_params()))
        return net, step.set_train()
    x = _data(4, 6)
    y = ms.Tensor(np.array([0, 2, 1, 2], np.int32))
    eager_net, eager = make()
    graph_net, graph = make()
    for _ in range(3):
        eager(x, y)
        ms.jit(graph)(x, y)
    for a, b in zip(eager_net.get_parameters(), graph_net.get_parameters()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    ops_in_place = [f for f in _fused(graph) if f.attrs.get("into") is not None]
    assert len(ops_in_place) == 4      # the mean squares of the four parameters, updated in their own buffers


def test_a_chain_reading_its_input_twice_never_overwrites_it():
    def f(x):
        y = ops.exp(x)         # y dies in the chain, but the chain reads it twice
        return y * 2.0 + y
    x = _data(3, 3)
    np.testing.assert_allclose(ms.jit(f)(x).asnumpy(), f(x).asnumpy(), rtol=1e-6)


@pytest.mark.parametrize("bias,relu", [(True, True), (False, True), (True, False)])
def test_convolution_bias_and_relu_are_one_kernel_with_identical_results(bias, relu):
    ms.set_seed(1)
    conv = nn.Conv2d(3, 5, 3, has_bias=bias, pad_mode="pad", padding=1)
    strided = nn.Conv2d(5, 4, 3, stride=2, has_bias=bias)   # the strided kernel's epilogue
    conv.update_parameters_name("conv.")       # one graph's Parameters need distinct names, as in MindSpore
    strided.update_parameters_name("strided.")

    def f(x):
        y = conv(x)
        y = ops.relu(y) if relu else y
        z = strided(y)
        return ops.relu(z) if relu else z
    x = _data(2, 3, 9, 9)
    jf = ms.jit(f)
    np.testing.assert_array_equal(jf(x).asnumpy(), f(x).asnumpy())
    fused = [p for p in _fused(jf) if p.name == "FusedConv2D"]
    want = ("Conv2D",) + (("BiasAdd",) if bias else ()) + (("ReLU",) if relu else ())
    assert [p.attrs["ops"] for p in fused] == [want, want]


def test_a_convolution_read_elsewhere_keeps_its_own_output():
    w = _data(4, 3, 3, 3)

    def f(x):
        y = ops.conv2d(x, w)
        return ops.relu(y) + y          # the raw output is needed too: no fusion
    x = _data(1, 3, 6, 6)
    jf = ms.jit(f)
    np.testing.assert_array_equal(jf(x).asnumpy(), f(x).asnumpy())
    assert not [p for p in _fused(jf) if p.name == "FusedConv2D"]


def test_fused_convolution_trains_like_pynative():
    def run(mode):
        ms.set_context(mode=mode)
        try:
            ms.set_seed(3)
            net = nn.SequentialCell([nn.Conv2d(1, 4, 3, has_bias=True), nn.ReLU(), nn.Flatten(), nn.Dense(4 * 36, 3)])
            step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                             reduction="mean")),
                                       nn.Momentum(net.trainable_params(), 0.1, 0.9)).set_train()
            x, y = _data(2, 1, 6, 6), ms.Tensor(np.array([0, 2], np.int32))
            losses = [float(step(x, y).asnumpy()) for _ in range(3)]
            return losses, [p.asnumpy() for p in net.get_parameters()]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    eager_losses, eager_params = run(ms.PYNATIVE_MODE)
    graph_losses, graph_params = run(ms.GRAPH_MODE)
    np.testing.assert_allclose(graph_losses, eager_losses, rtol=1e-6)
    for a, b in zip(eager_params, graph_params):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
def test_batchnorm_then_relu_is_one_kernel_with_identical_results(training):
    def run(mode):
        ms.set_context(mode=mode)
        try:
            ms.set_seed(4)
            net = nn.SequentialCell([nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(), nn.Dense(3 * 25, 2)])
            step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                             reduction="mean")),
                                       nn.Momentum(net.trainable_params(), 0.1, 0.9))
            step.set_train(training)
            x, y = _data(4, 2, 5, 5), ms.Tensor(np.array([0, 1, 1, 0], np.int32))
            losses = [float(step(x, y).asnumpy()) for _ in range(3)]
            return losses, [p.asnumpy() for p in net.get_parameters()], step
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    eager_losses, eager_params, _ = run(ms.PYNATIVE_MODE)
    graph_losses, graph_params, step = run(ms.GRAPH_MODE)
    np.testing.assert_array_equal(graph_losses, eager_losses)
    for a, b in zip(eager_params, graph_params):      # moving statistics included
        np.testing.assert_array_equal(b, a)
    assert [f.attrs["ops"] for f in _fused(step) if f.name == "FusedBatchNormReLU"] == [("BatchNorm", "ReLU")]


def test_batchnorm_output_read_elsewhere_keeps_its_own_relu():
    bn = nn.BatchNorm2d(3)
    bn.set_train(False)

    def f(x):
        y = bn(x)
        return ops.relu(y) * y
    x = _data(2, 3, 4, 4)
    jf = ms.jit(f)
    np.testing.assert_array_equal(jf(x).asnumpy(), f(x).asnumpy())
    assert not [p for p in _fused(jf) if p.name == "FusedBatchNormReLU"]


def test_fused_relu_epilogues_make_nan_zero_like_the_relu_kernel():
    """MindSpore's ReLU gives 0 for NaN: the ReLU fused into the convolution's and BatchNorm's C++ epilogues
    too, while a convolution or BatchNorm without a ReLU lets NaN through."""
    conv = nn.Conv2d(1, 2, 1, has_bias=True, weight_init="ones", bias_init="zeros")
    bn = nn.BatchNorm2d(2)
    bn.set_train(False)
    x = ms.Tensor(np.array([[[[np.nan, -1.0], [2.0, 3.0]]]], np.float32))
    expected = np.array([0.0, 0.0, 2.0, 3.0] * 2, np.float32)
    with_relu = ms.jit(lambda a: ops.relu(conv(a)))
    np.testing.assert_array_equal(with_relu(x).asnumpy().ravel(), expected)
    assert [f.name for f in _fused(with_relu)] == ["FusedConv2D"]
    np.testing.assert_array_equal(ops.relu(conv(x)).asnumpy().ravel(), expected)
    without = ms.jit(lambda a: conv(a) * 1.0)
    assert np.isnan(without(x).asnumpy().ravel()[[0, 4]]).all()
    bn_relu = ms.jit(lambda a: ops.relu(bn(a * 1.0)))
    out = bn_relu(ms.Tensor(np.array([[[[np.nan]], [[-1.0]]]], np.float32))).asnumpy().ravel()
    np.testing.assert_array_equal(out, [0.0, 0.0])
    assert "FusedBatchNormReLU" in [f.name for f in _fused(bn_relu)]
