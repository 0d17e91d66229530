"""The PYNATIVE tape and the gradients nobody reads.

While the tape runs a bprop it tells the primitive which of its inputs it differentiates (``Primitive._grads_needed``,
as PyTorch's ``needs_input_grad``); the bprops of the convolutions, the matrix products, ``Mul``, ``Sub``, the
divisions and ``Select`` then leave the others out: a network's first convolution computes no input gradient, a
product with a constant tensor no gradient for it, ``ms.grad`` of the inputs alone no weight gradient. The gradients
asked for are the ones computing everything gave, and GRAPH_MODE (which never sets the flags: its dead-code
elimination drops what is unused) gives them too. Higher-order gradients see, at each level, that level's own tape.
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore._core import primitive as _primitive
from mindspore._runtime import dispatch


def _x(shape, seed=0):
    return ms.Tensor(np.random.default_rng(seed).normal(size=shape).astype(np.float32))


@pytest.fixture
def calls(monkeypatch):
    """Counts of the primitives run (by name), from the moment the test resets it. (The tape walks every backward
    pass: a repeated one would otherwise run compiled, mindspore._autodiff.compiled_backward, its primitives not
    dispatched one by one.)"""
    monkeypatch.setenv("MS_PYNATIVE_COMPILED_BACKWARD", "0")
    counts = {}
    plain = dispatch.Eager.apply

    def counting(self, prim, args):
        counts[prim.name] = counts.get(prim.name, 0) + 1
        return plain(self, prim, args)
    monkeypatch.setattr(dispatch.Eager, "apply", counting)
    return counts


def _net():
    ms.set_seed(3)
    return nn.SequentialCell(nn.Conv2d(2, 3, 3, has_bias=True), nn.ReLU(), nn.Conv2d(3, 2, 3), nn.Flatten(),
                             nn.Dense(2 * 8 * 8, 5), nn.ReLU(), nn.Dense(5, 3))


def _full(net, x):
    """(loss, (gradient of x, gradients of the weights)): every gradient computed."""
    return ms.value_and_grad(lambda x: net(x).sum(), 0, net.trainable_params())(x)


@pytest.fixture
def pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_weights_only_skips_the_first_layers_input_gradients(pynative, calls):
    net, x = _net(), _x((2, 2, 8, 8))
    step = ms.value_and_grad(lambda x: net(x).sum(), None, net.trainable_params())
    step(x)
    calls.clear()
    loss, grads = step(x)
    # the second convolution's input gradient is needed (it reaches the first's weights), the first's is not (x is
    # no weight); the Dense layers' inputs all come from weights, so each makes its three products
    assert calls["Conv2DBackpropInput"] == 1 and calls["Conv2DBackpropFilter"] == 2
    assert calls["MatMul"] == 2 + 2 + 2
    want_loss, (_, want_grads) = _full(net, x)
    assert float(loss) == float(want_loss)
    for g, w in zip(grads, want_grads):
        np.testing.assert_array_equal(g.asnumpy(), w.asnumpy())


def test_inputs_only_skips_every_weight_gradient(pynative, calls):
    net, x = _net(), _x((2, 2, 8, 8))
    grad = ms.grad(lambda x: net(x).sum())
    grad(x)
    calls.clear()
    dx = grad(x)
    assert "Conv2DBackpropFilter" not in calls and calls["Conv2DBackpropInput"] == 2
    assert calls["MatMul"] == 2 + 2          # two forward, two input gradients, no weight gradient
    np.testing.assert_array_equal(dx.asnumpy(), _full(net, x)[1][0].asnumpy())


def test_frozen_layers_compute_no_weight_gradients(pynative, calls):
    """Fine-tuning with the first layers frozen (``requires_grad=False``): their convolution, product and bias
    gradients are not computed; those of the layers trained are the ones computing everything gives."""
    net, x = _net(), _x((2, 2, 8, 8))
    for p in net.trainable_params():
        if not p.name.startswith(("4.", "6.")):          # all but the two Dense layers
            p.requires_grad = False
    step = ms.value_and_grad(lambda x: net(x).sum(), None, net.trainable_params())
    assert len(net.trainable_params()) == 4
    step(x)
    calls.clear()
    _, grads = step(x)
    assert "Conv2DBackpropFilter" not in calls and "Conv2DBackpropInput" not in calls
    assert calls["MatMul"] == 2 + 2 + 1 and calls["ReduceSum"] == 2 + 1     # (+1: the loss's sum)
    want = _full(net, x)[1][1]
    for g, w in zip(grads, want):
        np.testing.assert_array_equal(g.asnumpy(), w.asnumpy())


def test_graph_mode_gives_the_same_gradients(pynative):
    net, x = _net(), _x((2, 2, 8, 8))
    step = ms.value_and_grad(lambda x: net(x).sum(), None, net.trainable_params())
    loss, grads = step(x)
    ms.set_context(mode=ms.GRAPH_MODE)
    graph_loss, graph_grads = ms.jit(step)(x)
    np.testing.assert_allclose(float(graph_loss), float(loss), rtol=1e-6)
    for g, w in zip(graph_grads, grads):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op, skipped", [
    (lambda x, c: x * c, {"Mul": 1}),
    (lambda x, c: x - c, {"Neg": 1}),
    (lambda x, c: x / c, {"Neg": 1, "Mul": 1}),
    (lambda x, c: ops.div(x, c), {"Neg": 1, "Mul": 1}),
    (lambda x, c: ops.select(x > 0, x, c), {"Select": 1}),
    (lambda x, c: ops.matmul(x, c.T), {"MatMul": 1}),
    (lambda x, c: ops.BatchMatMul()(x.reshape(1, 3, 4), c.reshape(1, 3, 4).transpose(0, 2, 1)),
     {"BatchMatMul": 1}),
])
def test_a_constant_operands_gradient_is_not_computed(pynative, calls, op, skipped):
    x, c = _x((3, 4)), _x((3, 4), 1) + 2
    f = lambda x: ops.square(op(x, c)).sum()                    # noqa: E731
    both = ms.grad(lambda x, c: ops.square(op(x, c)).sum(), (0, 1))
    both(x, c)
    calls.clear()
    want = both(x, c)[0]
    full = dict(calls)
    ms.grad(f)(x)
    calls.clear()
    got = ms.grad(f)(x)
    for name, fewer in skipped.items():
        assert calls.get(name, 0) == full[name] - fewer, (name, calls, full)
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6)


def test_higher_order_gradients_see_their_own_tape(pynative):
    x0, y0 = _x((3, 4)), _x((3, 4), 1)
    # d/dy of sum(d/dx sum(x * y * y)) = d/dy sum(y * y) = 2y: the inner tape does not differentiate y, the outer does
    outer = ms.grad(lambda y: ms.grad(lambda x: (x * y * y).sum())(x0).sum())(y0)
    np.testing.assert_allclose(outer.asnumpy(), 2 * y0.asnumpy(), rtol=1e-6)
    # and through a product and a convolution
    w0 = _x((2, 2, 3, 3), 2)
    conv = ops.Conv2D(2, 3)

    def inner_sum(w):
        return ms.grad(lambda x: (conv(x, w) * conv(x, w)).sum())(_x((1, 2, 5, 5), 3)).sum()
    got = ms.grad(inner_sum)(w0)
    eps, base = 1e-2, w0.asnumpy().astype(np.float64)
    i = (1, 0, 2, 1)
    plus, minus = base.copy(), base.copy()
    plus[i] += eps
    minus[i] -= eps
    numeric = (float(inner_sum(ms.Tensor(plus.astype(np.float32)))) -
               float(inner_sum(ms.Tensor(minus.astype(np.float32))))) / (2 * eps)
    np.testing.assert_allclose(got.asnumpy()[i], numeric, rtol=2e-2)


def test_the_flags_reach_only_their_own_primitive_once():
    conv, other = ops.Conv2D(2, 3), ops.Conv2D(2, 3)
    assert conv._grads_needed(2) == (True, True)
    _primitive.GRADS_NEEDED[0] = (conv, [False, True])
    try:
        assert other._grads_needed(2) == (True, True)          # another primitive's flags
        assert conv._grads_needed(2) == (False, True)
        assert conv._grads_needed(2) == (True, True)           # read once
    finally:
        _primitive.GRADS_NEEDED[0] = None
