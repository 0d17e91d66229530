"""``mindspore.recompute``: the same values and gradients as calling the block, for the memory of its output.

The gradients of the Dense case are those real MindSpore 2.10 gives for the same weights.
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore._autodiff import tape as _tape


class Counting(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)
        self.dense.weight.set_data(ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
        self.dense.bias.set_data(ms.Tensor([0.5, -0.5]))
        self.runs = 0

    def construct(self, a, scale=1.0):
        self.runs += 1
        h = ops.tanh(self.dense(a)) * scale
        return h, h * h


class Outer(nn.Cell):
    def __init__(self, recompute):
        super().__init__()
        self.block = Counting()
        self.recompute = recompute

    def construct(self, x):
        h, h2 = ms.recompute(self.block, x[None], scale=2.0) if self.recompute else self.block(x[None], scale=2.0)
        return ops.sin(h).sum() + h2.sum()


X = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))


def test_values_and_gradients_equal_a_plain_call_and_the_block_runs_again_in_backward():
    plain, recomputed = Outer(False), Outer(True)
    recomputed.block.dense.weight.set_data(plain.block.dense.weight)
    grads = {}
    for name, net in (("plain", plain), ("recomputed", recomputed)):
        fn = ms.value_and_grad(net, 0, net.trainable_params())
        value, (gx, gw) = fn(X)
        grads[name] = (value.asnumpy(), gx.asnumpy(), [g.asnumpy() for g in gw])
    assert plain.block.runs == 1 and recomputed.block.runs == 2     # forward once, again in the backward pass
    for a, b in zip(grads["plain"][:2], grads["recomputed"][:2]):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    for a, b in zip(grads["plain"][2], grads["recomputed"][2]):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    recomputed.block.runs = 0
    recomputed(X)                                                    # no tape: one plain call
    assert recomputed.block.runs == 1


def test_nothing_inside_the_block_is_kept_on_the_tape():
    block = Counting()
    x = ms.Tensor(np.ones((1, 3), np.float32))
    with _tape.Tape() as tp:
        tp.watch(x)
        ms.recompute(block, x)
        assert len(tp.nodes) == 1 and tp.nodes[0].prim.name.startswith("recompute")


def test_dense_gradients_as_mindspore():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.d = nn.Dense(3, 2)
            self.d.weight.set_data(ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
            self.d.bias.set_data(ms.Tensor([0.5, -0.5]))

        def construct(self, a):
            return ops.sin(ms.recompute(self.d, a[None])).sum()
    net = Net()
    gw, gb = ms.grad(net, None, net.trainable_params())(X)
    np.testing.assert_allclose(gw.asnumpy(), [[-0.602011919, -1.20402384, -1.80603576],
                                              [0.933315098, 1.86663020, 2.79994535]], rtol=1e-5)
    np.testing.assert_allclose(gb.asnumpy(), [-0.602011919, 0.933315098], rtol=1e-5)
    fn_grad = ms.grad(lambda a: ms.recompute(lambda b: ops.sin(b) * b, a, use_reentrant=False).sum())(X)
    np.testing.assert_allclose(fn_grad.asnumpy(), [1.3817732, 0.07700372, -2.8288574], rtol=1e-5)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        gw2, _ = ms.grad(net, None, net.trainable_params())(X)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(gw2.asnumpy(), gw.asnumpy(), rtol=1e-6)


def test_a_function_needs_use_reentrant_false():
    with pytest.raises(TypeError, match="only support block which inherited from Cell when use_reentrant=True"):
        ms.recompute(lambda a: a, X)
