"""``mindspore.common._Function``: custom autograd functions (PyTorch's ``autograd.Function``), which MindOne's
diffusers subclass for its ring attention; gradients as MindSpore 2.10 gives them for the same functions."""
import numpy as np
import pytest

import mindspore as ms


class Square(ms.common._Function):
    @staticmethod
    def forward(ctx, x, k=2.0):
        ctx.save_for_backward(x)
        return x * x * k, x + 1

    @staticmethod
    def backward(ctx, dout, dout2):
        x, = ctx.saved_tensors
        return 2 * x * dout * 5, None      # deliberately not forward's derivative: the rule is the user's


class Scale(ms.common._Function):
    @staticmethod
    def forward(x, w):
        return x * w

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)
        ctx.flags = ctx.needs_input_grad

    @staticmethod
    def backward(ctx, dout):
        x, w = ctx.saved_tensors
        return dout * w, (dout * x).sum()


def test_backward_is_the_gradient_rule():
    def f(x):
        a, b = Square.apply(x)
        return a.sum() + b.sum()

    x = ms.Tensor(np.array([1.0, 3.0], np.float32))
    np.testing.assert_allclose(ms.grad(f)(x).asnumpy(), [10.0, 30.0])       # 2.10: [10. 30.]
    out = Square.apply(ms.Tensor(3.0))
    assert [float(o.asnumpy()) for o in out] == [18.0, 4.0]


def test_setup_context_and_two_inputs():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    w = ms.Tensor(3.0)
    gx, gw = ms.grad(lambda a, b: Scale.apply(a, b).sum(), grad_position=(0, 1))(x, w)
    np.testing.assert_allclose(gx.asnumpy(), [3.0, 3.0])
    assert float(gw.asnumpy()) == 3.0


def test_without_a_backward_rule_it_is_an_error():
    class NoBackward(ms.common._Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    with pytest.raises(NotImplementedError, match="backward function should be customized"):   # as 2.10
        ms.grad(lambda t: NoBackward.apply(t))(ms.Tensor(1.0))
    assert float(NoBackward.apply(ms.Tensor(1.0)).asnumpy()) == 2.0    # forward alone needs no rule
