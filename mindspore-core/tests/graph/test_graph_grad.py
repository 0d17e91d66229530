"""Gradients of compiled code against float64 finite differences: through an ``if`` on a tensor, a
``while`` with a tensor condition, a ``for`` over a CellList, closures, and gradients of gradients."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore._pipeline import passes


@pytest.fixture(autouse=True)
def _graph_mode(monkeypatch):
    previous = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    monkeypatch.setattr(passes, "VERIFY", True)
    yield
    ms.set_context(mode=previous)


def numeric_grad(f, x, eps=1e-3):
    """Central differences of the scalar function ``f`` (NumPy float64 in, float out)."""
    x = np.asarray(x, np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        hi, lo = x.copy(), x.copy()
        hi[i] += eps
        lo[i] -= eps
        g[i] = (f(hi) - f(lo)) / (2 * eps)
    return g


def as_scalar_fn(fn):
    """``fn`` on float64 NumPy input, evaluated eagerly in float64 (the reference for the compiled fp32 grad)."""
    def f(x):
        previous = ms.get_context("mode")
        ms.set_context(mode=ms.PYNATIVE_MODE)
        try:
            return float(fn(ms.Tensor(x)).asnumpy())
        finally:
            ms.set_context(mode=previous)
    return f


X = np.array([[0.3, -1.2, 0.8], [1.5, 0.1, -0.4]], np.float32)


def check(fn, x=X, rtol=2e-3, atol=2e-3):
    compiled = ms.jit(fn)
    g = ms.grad(compiled)(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(g, numeric_grad(as_scalar_fn(fn), x), rtol=rtol, atol=atol)
    return g


@pytest.mark.parametrize("shift", [0.0, 5.0], ids=["true-branch", "false-branch"])
def test_grad_through_if_on_a_tensor(shift):
    def f(x):
        x = x - shift
        if x.sum() < 0:
            y = ops.sin(x) * x
        else:
            y = ops.exp(x * 0.3)
        return (y * y).sum()
    check(f)


def test_grad_through_while_with_a_tensor_condition():
    def f(x):
        y = x * x + 1.0
        while y.sum() < 40.0:
            y = y * 1.3 + ops.tanh(x)
        return (y * x).sum()
    check(f)


def test_grad_through_a_while_that_never_runs():
    def f(x):
        y = x
        while y.sum() > 1000.0:
            y = y * 2.0
        return (y * y).sum()
    np.testing.assert_allclose(check(f), 2 * X, rtol=1e-6)


def test_grad_through_for_over_a_cell_list():
    class Stack(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([nn.Dense(3, 3, activation="tanh") for _ in range(3)])

        def construct(self, x):
            for layer in self.layers:
                x = layer(x)
            return (x * x).sum()
    ms.set_seed(7)
    net = Stack()
    for p in net.get_parameters():
        p.set_dtype(ms.float64)
    x = X.astype(np.float64)
    g = ms.grad(net)(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(g, numeric_grad(lambda v: float(net(ms.Tensor(v)).asnumpy()), x), rtol=1e-5,
                               atol=1e-7)
    weights = net.trainable_params()
    gw = ms.grad(net, grad_position=None, weights=weights)(ms.Tensor(x))
    w0 = weights[0]
    base = w0.asnumpy().copy()

    def loss_of_w0(v):
        w0.set_data(ms.Tensor(v))
        return float(net(ms.Tensor(x)).asnumpy())
    expected = numeric_grad(loss_of_w0, base)
    w0.set_data(ms.Tensor(base))
    np.testing.assert_allclose(gw[0].asnumpy(), expected, rtol=1e-5, atol=1e-7)


def test_grad_of_grad():
    def f(x):
        return (ops.sin(x) * x * x).sum()

    def first(x):
        return ms.grad(f)(x).sum()
    compiled = ms.jit(lambda x: ms.grad(first)(x))
    g2 = compiled(ms.Tensor(X)).asnumpy()
    np.testing.assert_allclose(g2, numeric_grad(as_scalar_fn(first), X), rtol=2e-3, atol=2e-3)


def test_third_order_and_closures():
    scale = ms.Tensor(np.float32(0.5))

    def f(x):
        g = lambda v: v * v * v * scale  # noqa: E731 - a closure over a tensor of the enclosing scope
        return g(x).sum()
    d1 = lambda x: ms.grad(f)(x).sum()  # noqa: E731
    d2 = lambda x: ms.grad(d1)(x).sum()  # noqa: E731
    d3 = ms.jit(lambda x: ms.grad(d2)(x))
    np.testing.assert_allclose(d3(ms.Tensor(X)).asnumpy(), np.full(X.shape, 3.0), rtol=1e-6)


def test_grad_of_a_cell_with_user_bprop_in_graph_mode():
    class Clip(nn.Cell):
        def construct(self, x):
            return x * 3.0

        def bprop(self, x, out, dout):
            return (dout * 100.0,)
    g = ms.jit(lambda x: ms.grad(lambda v: Clip()(v).sum())(x))(ms.Tensor(X))
    np.testing.assert_array_equal(g.asnumpy(), np.full(X.shape, 100.0, np.float32))


def test_stop_gradient_blocks_in_graph_mode():
    g = ms.jit(lambda x: ms.grad(lambda v: (v * ops.stop_gradient(v)).sum())(x))(ms.Tensor(X))
    np.testing.assert_allclose(g.asnumpy(), X, rtol=1e-6)


def test_pynative_grad_through_a_jit_function_and_its_second_order():
    ms.set_context(mode=ms.PYNATIVE_MODE)

    @ms.jit
    def f(x):
        if x.sum() > 0:
            x = x * 2.0
        return (x * x * x).sum()
    x = ms.Tensor(X)
    np.testing.assert_allclose(ms.grad(f)(x).asnumpy(), 24 * X * X, rtol=1e-5)
    np.testing.assert_allclose(ms.grad(lambda v: ms.grad(f)(v).sum())(x).asnumpy(), 48 * X, rtol=1e-5)


def test_second_order_through_a_tensor_while_says_it_is_unsupported():
    def f(x):
        while x.sum() < 10.0:
            x = x * 2.0
        return (x * x).sum()
    with pytest.raises(RuntimeError, match="Higher-order gradients through a while loop"):
        ms.jit(lambda x: ms.grad(lambda v: ms.grad(f)(v).sum())(x))(ms.Tensor(X))


def test_training_step_compiles_forward_backward_and_update_into_one_graph():
    from mindspore._pipeline import compiler
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    x, y = ms.Tensor(X), ms.Tensor(np.zeros((2, 2), np.float32))
    step(x, y)
    (entry,) = compiler.cache_for(step).values()
    names = [n.fn_value().name for n in entry.graph.nodes if hasattr(n.fn_value(), "name")]
    assert "MatMul" in names and "ApplyMomentum" in names   # forward, backward and the optimizer's update
    assert len(compiler.cache_for(step)) == 1
    before = net.weight.asnumpy().copy()
    step(x, y)
    assert len(compiler.cache_for(step)) == 1               # the second step reuses the compiled graph
    assert not np.array_equal(before, net.weight.asnumpy())
