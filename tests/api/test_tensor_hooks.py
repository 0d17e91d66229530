"""``Tensor.register_hook`` in PYNATIVE autodiff, with the values real MindSpore 2.10 gives for the same code."""
import numpy as np
import pytest

import mindspore as ms


def test_a_hook_on_an_intermediate_sees_its_gradient_and_may_replace_it():
    seen = []

    def f(x):
        y = x * 2
        y.register_hook(lambda g: (seen.append(g.asnumpy().tolist()), g * 10)[1])
        return (y * y).sum()
    g = ms.grad(f)(ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    assert seen == [[4.0, 8.0, 12.0]]                     # d(y*y)/dy = 2y, complete before it flows on
    np.testing.assert_allclose(g.asnumpy(), [80.0, 160.0, 240.0])


def test_hooks_on_leaves_run_in_order_and_can_be_removed():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    h1 = x.register_hook(lambda g: g + 100)
    h2 = x.register_hook(lambda g: g * 2)
    square = ms.grad(lambda a: (a * a).sum())
    np.testing.assert_allclose(square(x).asnumpy(), [204.0, 208.0])
    h1.remove()
    np.testing.assert_allclose(square(x).asnumpy(), [4.0, 8.0])
    h2.remove()
    h2.remove()                                           # removing twice is harmless
    np.testing.assert_allclose(square(x).asnumpy(), [2.0, 4.0])
    y = ms.Tensor(np.array([1.0, 2.0], np.float32))
    y.register_hook(lambda g: None)                       # returning None keeps the gradient
    np.testing.assert_allclose(square(y).asnumpy(), [2.0, 4.0])


def test_a_hook_on_a_parameter_applies_to_its_weight_gradient():
    p = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    p.register_hook(lambda g: g * 0)
    (gw,) = ms.grad(lambda: (p * p).sum(), None, [p])()
    np.testing.assert_allclose(gw.asnumpy(), [0.0, 0.0])


def test_hook_errors():
    x = ms.Tensor(np.ones(2, np.float32))
    with pytest.raises(TypeError, match="Expected a callable hook function, but got int."):
        x.register_hook(3)

    @ms.jit
    def f(a):
        a.register_hook(lambda g: g)
        return a * 2
    with pytest.raises(RuntimeError, match="PYNATIVE mode only"):
        f(x)
