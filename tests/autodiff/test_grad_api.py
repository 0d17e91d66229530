"""Gradient transforms: the exact result layouts of MindSpore 2.10 (API.md 5.10) and the tape's semantics."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops

pytestmark = pytest.mark.both_modes


class Net(nn.Cell):
    """f(x, y) = sum(x * w * y) with w = 2, as in API.md 5.10."""

    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([2.0]), name="w")

    def construct(self, x, y):
        return ops.reduce_sum(x * self.w * y)


@pytest.fixture
def xy():
    return ms.Tensor([3.0]), ms.Tensor([5.0])


def val(t):
    return t.asnumpy().tolist()


def test_grad_operation_default_is_first_input_tensor(xy):
    g = ops.GradOperation()(Net())(*xy)
    assert isinstance(g, ms.Tensor) and val(g) == [10.0]


def test_grad_operation_get_all(xy):
    g = ops.GradOperation(get_all=True)(Net())(*xy)
    assert isinstance(g, tuple) and [val(t) for t in g] == [[10.0], [6.0]]


def test_grad_operation_get_by_list(xy):
    net = Net()
    g = ops.GradOperation(get_by_list=True)(net, ms.ParameterTuple(net.trainable_params()))(*xy)
    assert len(g) == 1 and val(g[0]) == [15.0]


def test_grad_operation_all_and_list(xy):
    net = Net()
    (gx, gy), (gw,) = ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())(*xy)
    assert (val(gx), val(gy), val(gw)) == ([10.0], [6.0], [15.0])


def test_grad_operation_sens_param(xy):
    g = ops.GradOperation(sens_param=True)(Net())(*xy, ms.Tensor(2.0))
    assert val(g) == [20.0]


def test_grad_positions_and_weights(xy):
    net = Net()
    params = net.trainable_params()
    assert val(ms.grad(net)(*xy)) == [10.0]
    gx, gy = ms.grad(net, grad_position=(0, 1))(*xy)
    assert (val(gx), val(gy)) == ([10.0], [6.0])
    (gw,) = ms.grad(net, grad_position=None, weights=params)(*xy)
    assert val(gw) == [15.0]
    gx, (gw,) = ms.grad(net, grad_position=0, weights=params)(*xy)
    assert (val(gx), val(gw)) == ([10.0], [15.0])


def test_value_and_grad_tutorial_pattern(xy):
    net = Net()
    loss, (gw,) = ms.value_and_grad(net, None, net.trainable_params())(*xy)
    assert float(loss.asnumpy()) == 30.0 and val(gw) == [15.0]


def test_has_aux_differentiates_first_output_only(xy):
    fn = lambda x, y: (ops.reduce_sum(x * y), x + y)  # noqa: E731
    (loss, aux), g = ms.value_and_grad(fn, has_aux=True)(*xy)
    assert float(loss.asnumpy()) == 15.0 and val(aux) == [8.0] and val(g) == [5.0]
    g2, (aux2,) = ms.grad(fn, has_aux=True)(*xy)   # MindSpore 2.10: the auxiliary outputs come back as a tuple
    assert val(g2) == [5.0] and val(aux2) == [8.0]


def test_multi_output_without_aux_sums_outputs(xy):
    g = ms.grad(lambda x, y: (x * y, x + y))(*xy)
    assert val(g) == [6.0]


def test_return_ids(xy):
    net = Net()
    out = ms.grad(net, grad_position=(0, 1), weights=net.trainable_params(), return_ids=True)(*xy)
    assert ms.get_grad(out, 1).asnumpy().tolist() == [6.0]
    assert ms.get_grad(out, "w").asnumpy().tolist() == [15.0]


def test_stop_gradient_blocks():
    g = ms.grad(lambda x: ops.reduce_sum(x * ops.stop_gradient(x)))(ms.Tensor([3.0]))
    assert val(g) == [3.0]


def test_int_input_gets_int_gradient():
    g = ms.grad(lambda x, y: x * y, grad_position=1)(ms.Tensor([2.0]), ms.Tensor([3], ms.int32))
    assert g.dtype == ms.int32


def test_unreached_input_gets_zeros():
    gx, gy = ms.grad(lambda x, y: x * 2.0, grad_position=(0, 1))(ms.Tensor([1.0]), ms.Tensor([[1.0, 2.0]]))
    assert val(gy) == [[0.0, 0.0]] and val(gx) == [2.0]


def test_broadcast_gradients_are_summed_back():
    gx, gb = ms.grad(lambda x, b: ops.reduce_sum(x + b), grad_position=(0, 1))(
        ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.ones((3,), np.float32)))
    assert gx.shape == (4, 3) and val(gb) == [4.0, 4.0, 4.0]


@pytest.mark.parametrize("order,expected", [(1, [3.0, 12.0, 27.0]), (2, [6.0, 12.0, 18.0]), (3, [6.0, 6.0, 6.0])])
def test_higher_order(order, expected):
    f = lambda x: ops.reduce_sum(x * x * x)  # noqa: E731
    for _ in range(order - 1):
        f = (lambda g: (lambda x: ops.reduce_sum(ms.grad(g)(x))))(f)
    assert val(ms.grad(f)(ms.Tensor([1.0, 2.0, 3.0]))) == expected


def test_cell_custom_bprop_is_used():
    class Clip(nn.Cell):
        def construct(self, x):
            return x * 3.0

        def bprop(self, x, out, dout):
            return (dout * 100.0,)

    g = ms.grad(lambda x: ops.reduce_sum(Clip()(x)))(ms.Tensor([1.0, 2.0]))
    assert val(g) == [100.0, 100.0]


def test_vjp_matches_docs():
    x = ms.Tensor(np.array([[1, 2], [3, 4]], np.float32))
    y = ms.Tensor(np.array([[1, 2], [3, 4]], np.float32))
    out, vjp_fn = ms.vjp(lambda a, b: a * a * a + b, x, y)
    gx, gy = vjp_fn(ms.Tensor(np.ones((2, 2), np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [[2, 10], [30, 68]])
    np.testing.assert_array_equal(gx.asnumpy(), [[3, 12], [27, 48]])
    np.testing.assert_array_equal(gy.asnumpy(), np.ones((2, 2)))


def test_jvp_is_forward_derivative():
    out, jv = ms.jvp(lambda x: x * x * x, ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 0.5]))
    assert val(out) == [1.0, 8.0] and val(jv) == [3.0, 6.0]


def test_jvp_two_inputs():
    out, jv = ms.jvp(lambda x, y: x * y, (ms.Tensor([2.0]), ms.Tensor([3.0])), (ms.Tensor([1.0]), ms.Tensor([1.0])))
    assert val(jv) == [5.0]


def test_bad_grad_arguments():
    with pytest.raises(RuntimeError, match="grad_position"):   # RuntimeError in MindSpore 2.10
        ms.grad(lambda x: x, grad_position=3)(ms.Tensor([1.0]))
    with pytest.raises(RuntimeError, match="exceed input size"):
        ms.value_and_grad(lambda x: x * 2, grad_position=(0, 1))(ms.Tensor([1.0]))
    with pytest.raises(TypeError, match="grad_position"):
        ms.grad(lambda x: x, grad_position="0")
    with pytest.raises(ValueError, match="can not both be None"):
        ms.grad(lambda x: x, grad_position=None)


def test_tape_does_not_leak_tracking():
    x = ms.Tensor([1.0])
    ms.grad(lambda a: a * 2.0)(x)
    assert not x._ad


def test_result_layout_drops_python_scalars_and_unwraps_a_single_gradient():
    """MindSpore 2.10 (checked against it): inputs that are Python scalars get no gradient entry; exactly one
    gradient left is returned bare (also for ``grad_position=(0,)``), none gives ``()``."""
    t2, t3 = ms.Tensor(2.0), ms.Tensor(3.0)
    assert ms.grad(lambda x: x * x)(3.0) == ()
    assert ms.grad(lambda x: x * x, grad_position=(0,))(3.0) == ()
    g = ms.grad(lambda x: x * x, grad_position=(0,))(t2)
    assert isinstance(g, ms.Tensor) and float(g.asnumpy()) == 4.0
    g = ms.grad(lambda x, y: x * y, grad_position=(0, 1))(3.0, t2)
    assert isinstance(g, ms.Tensor) and float(g.asnumpy()) == 3.0
    gx, gz = ms.grad(lambda x, y, z: x * y * z, grad_position=(0, 1, 2))(t2, 3.0, ms.Tensor(4.0))
    assert (float(gx.asnumpy()), float(gz.asnumpy())) == (12.0, 6.0)
    value, g = ms.value_and_grad(lambda x: x * x)(3.0)
    assert float(value) == 9.0 and g == ()
    assert ops.GradOperation()(lambda x, y: x * y)(3.0, t3) == ()
    (g,) = ops.GradOperation(get_all=True)(lambda x, y: x * y)(t3, 5.0)
    assert float(g.asnumpy()) == 5.0


def test_single_position_with_weights_is_unwrapped():
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    x = ms.Tensor(np.ones((1, 2), np.float32))
    ig, wg = ms.grad(lambda a: net(a).sum(), grad_position=(0,), weights=net.trainable_params())(x)
    assert isinstance(ig, ms.Tensor) and ig.shape == (1, 2)
    assert isinstance(wg, tuple) and len(wg) == 2
    ig, wg = ms.grad(lambda a, s: net(a).sum() * s, grad_position=(1,), weights=net.trainable_params())(x, 2.0)
    assert ig == () and len(wg) == 2


def test_item_assignment_is_differentiated():
    """``y[i] = v`` under a gradient: later uses of y go through the update, earlier ones keep the value they saw
    (checked against MindSpore 2.10 for the first two)."""
    x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))

    def f(a):
        y = a * 1
        y[0] = y[1] * 5
        return y.sum()

    def g(a):
        y = a * a
        z = y * 2          # reads y before the update
        y[1] = 10.0
        return (z + y * y).sum()

    def h(a):
        a[2] = a[0] * 3    # the differentiated input itself: its gradient is the original value's
        return (a * a).sum()

    np.testing.assert_allclose(ms.grad(f)(x).asnumpy(), [0.0, 6.0, 1.0])
    np.testing.assert_allclose(ms.grad(g)(x).asnumpy(), [8.0, 8.0, 120.0])
    np.testing.assert_allclose(ms.grad(h)(ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))).asnumpy(),
                               [20.0, 4.0, 0.0])
