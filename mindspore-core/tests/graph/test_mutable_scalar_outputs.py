"""Values computed from ``mutable`` numbers alone leave a graph as Python numbers (as in MindSpore 2.10, whose graphs
hold them as scalars); anything that meets a tensor, or goes through a non-arithmetic operation, stays a Tensor."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, mutable, nn


class Net(nn.Cell):
    def construct(self, x, y, t):
        return x + y, x / y, x * 2 - 1, x < y, t * x, (x, y)


def test_graph_outputs_from_mutable_numbers_are_python_numbers():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        s, q, lin, less, scaled, same = Net()(mutable(1), mutable(2), Tensor(np.ones(2, np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert (type(s), s) == (int, 3)
    assert (type(q), q) == (float, 0.5)
    assert (type(lin), lin) == (int, 1)
    assert (type(less), less) == (bool, True)
    assert isinstance(scaled, Tensor) and scaled.asnumpy().tolist() == [1.0, 1.0]
    assert same == (1, 2)


def test_jit_function_of_mutable_numbers():
    @ms.jit
    def f(a, b):
        return a + b, ms.ops.ones((), ms.float32) + a

    total, tensor = f(mutable(2.5), mutable(5))
    assert (type(total), total) == (float, 7.5)
    assert isinstance(tensor, Tensor)     # an op that makes a tensor makes the value a Tensor
