"""MultitypeFuncGraph / HyperMap / Map / partial as optimizer code in the model zoo uses them."""
import pytest

import mindspore as ms
from mindspore import ops
from mindspore.ops import composite

pytestmark = pytest.mark.both_modes


def test_multitype_dispatch_on_type_names():
    f = ops.MultitypeFuncGraph("f")

    @f.register("Number", "Tensor")
    def _scale(a, t):
        return t * a

    @f.register("Tensor", "Tensor")
    def _add(a, b):
        return a + b

    assert f(2.0, ms.Tensor([3.0])).asnumpy().tolist() == [6.0]
    assert f(ms.Tensor([1.0]), ms.Tensor([3.0])).asnumpy().tolist() == [4.0]
    with pytest.raises(TypeError, match="no registered function"):
        f("a", ms.Tensor([1.0]))


def test_hypermap_with_partial_like_an_optimizer():
    update = ops.MultitypeFuncGraph("update")

    @update.register("Number", "Tensor", "Tensor")
    def _sgd(lr, grad, weight):
        return weight - grad * lr

    grads = (ms.Tensor([1.0]), ms.Tensor([2.0, 4.0]))
    weights = (ms.Tensor([10.0]), ms.Tensor([10.0, 10.0]))
    out = ops.HyperMap()(ops.partial(update, 0.5), grads, weights)
    assert isinstance(out, tuple)
    assert [o.asnumpy().tolist() for o in out] == [[9.5], [9.0, 8.0]]


def test_hypermap_recurses_and_map_does_not():
    double = lambda x: x * 2 if not isinstance(x, tuple) else ("tuple", x)  # noqa: E731
    assert composite.HyperMap(double)((1, (2, 3))) == (2, (4, 6))
    assert composite.Map(double)((1, (2, 3))) == (2, ("tuple", (2, 3)))


def test_hypermap_length_mismatch():
    with pytest.raises(ValueError, match="same length"):
        ops.HyperMap()(lambda a, b: a, (1, 2), (1,))
