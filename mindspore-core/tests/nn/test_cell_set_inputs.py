"""``Cell.set_inputs`` / ``get_inputs``: GRAPH_MODE calls are checked against the declared dynamic-shape inputs with
MindSpore 2.10's errors (recorded from 2.10); PYNATIVE calls are not checked, as in 2.10."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x, y):
        return x * 2 + y.sum()


@pytest.fixture(autouse=True)
def _pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _declared():
    net = Net()
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32), Tensor(shape=[2], dtype=ms.float32))
    return net


X = Tensor(np.ones((2, 3), np.float32))


def test_placeholders():
    assert Tensor(shape=[None, 3], dtype=ms.float32).shape == (-1, 3)
    assert Tensor(dtype=ms.float32).shape == (-2,)            # a dtype alone: any rank
    assert Tensor(shape=[-2], dtype=ms.int32).shape == (-2,)
    with pytest.raises(ValueError, match="holds no data"):
        Tensor(dtype=ms.float32).asnumpy()


def test_get_inputs_returns_what_was_declared():
    net = Net()
    assert net.get_inputs() is None
    x = Tensor(shape=[None, 3], dtype=ms.float32)
    net.set_inputs(x)
    assert net.get_inputs() == (x,)
    net.set_inputs(y=x)
    assert net.get_inputs() == {"arg_specified_infos": [[1, x]], "total_arg_length": 2}
    with pytest.raises(ValueError, match="should only set inputs or kwargs"):
        net.set_inputs(x, y=x)


def test_graph_mode_calls_are_checked_as_2_10_checks_them():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _declared()
    np.testing.assert_array_equal(net(X, Tensor(np.ones(2, np.float32))).asnumpy(), np.full((2, 3), 4.0))
    np.testing.assert_array_equal(net(Tensor(np.ones((5, 3), np.float32)), Tensor(np.ones(2, np.float32))).shape,
                                  (5, 3))
    cases = [
        (Tensor(np.ones(3, np.float32)), ValueError, "the shape of 2th input must be the same as expected, but got "
                                                     "expected: 2, and input: 3!"),
        (Tensor(np.ones(2, np.int32)), TypeError, "the 2th type should be Tensor[Float32], but got Tensor[Int32]!"),
        (Tensor(np.ones((1, 2), np.float32)), ValueError, "the dims of 2th input must be the same as expected, but "
                                                          "got expected: 1, and input: 2!"),
        (3, TypeError, "the 2th should be mutable one, but got static!"),
    ]
    for y, error, message in cases:
        with pytest.raises(error) as info:
            net(X, y)
        assert message in str(info.value)


def test_dynamic_rank_and_keyword_declarations():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Net()
    net.set_inputs(Tensor(dtype=ms.float32), Tensor(dtype=ms.float32))
    assert net(Tensor(np.ones((2, 3, 1), np.float32)), Tensor(np.ones(4, np.float32))).shape == (2, 3, 1)
    net = Net()
    net.set_inputs(y=Tensor(shape=[None], dtype=ms.float32))
    assert net(X, Tensor(np.ones(5, np.float32))).shape == (2, 3)
    with pytest.raises(ValueError, match="the dims of 2th input"):
        net(X, Tensor(np.ones((5, 1), np.float32)))


def test_pynative_calls_are_not_checked():
    net = _declared()
    assert net(X, Tensor(np.ones(3, np.float64))).shape == (2, 3)
