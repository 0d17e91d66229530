"""What outside libraries' Cell subclasses rely on, as in MindSpore 2.10 (found running MindPet and MindArmour):
a subclass may define its own ``_check_init``; a Cell without ``construct`` raises AttributeError; ``nn.Dense`` has
the ``reshape``/``shape_op`` operators its subclasses' ``construct`` use; ``_extends.cell_attr_register``,
``nn.wrap.cell_wrapper._VirtualDatasetCell`` and ``nn.wrap.loss_scale._grad_overflow`` exist with 2.10's behaviour."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn, ops


def test_subclass_may_define_its_own_check_init():
    """MindPet's LoRADense defines ``_check_init(self, a_init, b_init, rank)``; Cell's bookkeeping must not call it."""
    class Owned(nn.Dense):
        def __init__(self):
            super().__init__(3, 2)
            self._check_init("a", "b", 4)
            self.extra = ms.Parameter(Tensor(np.zeros(2, np.float32)), name="extra")

        def _check_init(self, a_init, b_init, rank):
            self.checked = (a_init, b_init, rank)

    cell = Owned()
    assert cell.checked == ("a", "b", 4) and "extra" in [p.name for p in cell.get_parameters()]


def test_setting_a_parameter_before_cell_init_raises_attribute_error():
    """2.10: ``AttributeError: For 'insert_param_to_cell', please call Cell.__init__() firstly.``"""
    class Early(nn.Cell):
        def __init__(self):  # pylint: disable=super-init-not-called
            self.w = ms.Parameter(Tensor(np.zeros(2, np.float32)), name="w")

    class EarlyChild(nn.Cell):
        def __init__(self):  # pylint: disable=super-init-not-called
            self.relu = nn.ReLU()

    with pytest.raises(AttributeError, match=r"For 'insert_param_to_cell', please call Cell.__init__\(\) firstly"):
        Early()
    with pytest.raises(AttributeError, match="please call Cell.__init__"):
        EarlyChild()


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_cell_without_construct_raises_attribute_error(mode):
    """2.10: ``AttributeError: For 'Cell', the method 'construct' is not defined.`` (MindPet's PrefixLayer)."""
    old = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        with pytest.raises(AttributeError, match="the method 'construct' is not defined"):
            type("NoConstruct", (nn.Cell,), {})()()
    finally:
        ms.set_context(mode=old)


def test_dense_subclass_uses_shape_op_and_reshape():
    class Flat(nn.Dense):
        def construct(self, x):
            shape = self.shape_op(x)
            out = self.matmul(self.reshape(x, (-1, shape[-1])), self.weight)
            return self.reshape(self.bias_add(out, self.bias), shape[:-1] + (-1,))

    ms.set_seed(0)
    cell = Flat(4, 3)
    x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    want = x.asnumpy() @ cell.weight.asnumpy().T + cell.bias.asnumpy()
    np.testing.assert_allclose(cell(x).asnumpy(), want, rtol=1e-6)
    assert isinstance(cell.shape_op, ops.Shape) and isinstance(cell.reshape, ops.Reshape)


def test_cell_attr_register_records_init_args():
    """2.10's string: the class name and the arguments' values (or the named attributes')."""
    from mindspore._extends import cell_attr_register

    class Scale(nn.Cell):
        @cell_attr_register
        def __init__(self, factor=2.0, bias=1):
            super().__init__()
            self.factor = factor

    class Named(nn.Cell):
        @cell_attr_register(attrs=["factor"])
        def __init__(self, factor=2.0):
            super().__init__()
            self.factor = factor

    class Empty(nn.Cell):
        @cell_attr_register(attrs="")
        def __init__(self):
            super().__init__()

    assert Scale(3.0).cell_init_args == "Scaledict_values([3.0])"
    assert Scale(3.0, bias=2).cell_init_args == "Scaledict_values([3.0, 2])"
    assert Named(5.0).cell_init_args == "Named[5.0]"
    assert Empty().cell_init_args == "Empty[]"


def test_virtual_dataset_cell_passes_inputs_through():
    from mindspore.nn.wrap.cell_wrapper import _VirtualDatasetCell

    class Add(nn.Cell):
        def construct(self, x, y):
            return x + y

    wrapped = _VirtualDatasetCell(Add())
    out = wrapped(Tensor(np.ones(2, np.float32)), Tensor(np.full(2, 2.0, np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [3.0, 3.0])


def test_grad_overflow_maps_float_status_over_gradients():
    from mindspore.nn.wrap.loss_scale import _grad_overflow

    grads = (Tensor(np.ones(3, np.float32)), Tensor(np.array([1.0, np.inf], np.float32)),
             Tensor(np.array([np.nan], np.float32)))
    status = ops.HyperMap()(_grad_overflow, grads)
    assert [s.asnumpy().tolist() for s in status] == [[0.0], [1.0], [1.0]]
