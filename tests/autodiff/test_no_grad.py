"""``ms._no_grad`` and ``mindspore.common.api._pynative_executor``'s grad switch (private in MindSpore 2.10 too, but
libraries use them: MindOne decorates its rotary embeddings with ``@ms._no_grad()``): what runs under them is a
constant to the differentiation around it; 2.10 gives the gradients asserted here."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
from mindspore.common.api import _pynative_executor


def test_no_grad_context_cuts_the_gradient():
    def f(x):
        with ms._no_grad():
            y = x * x
        return x * y

    assert float(ms.grad(f)(ms.Tensor(3.0)).asnumpy()) == 9.0     # d(x * c)/dx with c = 9; 27 without _no_grad


def test_no_grad_decorator_on_a_cell_method_and_restores_state():
    class Net(nn.Cell):
        @ms._no_grad()
        def scale(self, x):
            return x * x

        def construct(self, x):
            return self.scale(x) + 2 * x

    assert _pynative_executor.enable_grad()
    assert float(ms.grad(Net())(ms.Tensor(3.0)).asnumpy()) == 2.0
    assert _pynative_executor.enable_grad()


def test_subclass_and_executor_switch():
    class no_grad(ms._no_grad):  # noqa: N801 - as MindOne subclasses it
        def __init__(self):
            super().__init__()

    def f(x):
        with no_grad():
            y = ms.ops.exp(x)
        return y * x

    x = ms.Tensor(np.array([0.0, 1.0], np.float32))
    np.testing.assert_allclose(ms.grad(f)(x).asnumpy(), np.exp([0.0, 1.0]), rtol=1e-6)
    _pynative_executor.set_enable_grad(False)
    try:
        assert not _pynative_executor.enable_grad()
        with pytest.raises(RuntimeError, match="In no_grad context, you can not calculate gradient"):
            ms.grad(lambda t: t * t + t)(ms.Tensor(2.0))
    finally:
        _pynative_executor.set_enable_grad(True)
    assert float(ms.grad(lambda t: t * t + t)(ms.Tensor(2.0)).asnumpy()) == 5.0
