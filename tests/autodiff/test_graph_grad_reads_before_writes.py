"""GRAPH_MODE gradients of a network that reads a Parameter and then writes it (``ops.assign`` in a loop): each read's
bprop sees the value it read, not the final one (MindSpore's Load). Expected values are MindSpore 2.10's (GRAPH_MODE);
in PYNATIVE both frameworks use the Parameter's value at backward time, so there 2.10 and ours give 6 and [20, 56]."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops


@pytest.fixture(autouse=True)
def _graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


class LoopNet(nn.Cell):
    """The expert-programming page's example: out = x*0 + x*1 + x*2, the weight assigned before each read."""

    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.array(0), ms.int32), name="param")

    def construct(self, x):
        out = 0
        i = 0
        while i < 3:
            ops.assign(self.weight, i)
            out = x * self.weight + out
            i = i + 1
        return out


class ReadWriteNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")

    def construct(self, x):
        a = x * self.w                        # reads w0 = [1, 2]
        ops.assign(self.w, self.w * 3)        # w1 = [3, 6]
        b = x * self.w                        # reads w1
        ops.assign_add(self.w, Tensor(np.array([1.0, 1.0], np.float32)))   # w2 = [4, 7]
        return (a + b * self.w).sum()


def test_loop_of_assigns_differentiates_each_read():
    grads = ops.GradOperation(get_all=True)(LoopNet())(Tensor(np.array(1), ms.int32))
    assert int(grads[0].asnumpy()) == 3


def test_reads_before_writes_keep_their_values_for_input_and_weight_gradients():
    net = ReadWriteNet()
    dx, (dw,) = ms.grad(net, grad_position=0, weights=net.trainable_params())(Tensor(np.array([2.0, 5.0],
                                                                                             np.float32)))
    np.testing.assert_allclose(dx.asnumpy(), [13.0, 44.0])     # w0 + w1 * w2
    np.testing.assert_allclose(dw.asnumpy(), [16.0, 70.0])     # x + x*w2 + x*w1 (through each read)
    np.testing.assert_allclose(net.w.asnumpy(), [4.0, 7.0])
