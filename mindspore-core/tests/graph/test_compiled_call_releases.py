"""A compiled call lets go of its tensors when it returns: nothing it keeps refers to its inputs or outputs, and it
makes no reference cycle through them, which only the cyclic garbage collector would free. (A recursive closure in the
argument flattening did: every GRAPH_MODE step's batch, and an ``@jit`` optimizer's gradients, stayed alive until a
collection, so their memory could not be reused: a PYNATIVE MLP step ran 15% slower on the CPU, from page faults.)"""
import gc
import weakref

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn


@pytest.fixture
def no_cyclic_gc():
    enabled = gc.isenabled()
    gc.disable()
    yield
    if enabled:
        gc.enable()


@ms.jit
def _scale(x, pair):
    return x * 2.0, (pair[0] + pair[1], x)


def test_a_jit_call_keeps_neither_inputs_nor_outputs(no_cyclic_gc):
    for _ in range(3):    # the first call compiles, the later ones run the compiled graph
        x = ms.Tensor(np.ones((4, 3), np.float32))
        a, b = ms.Tensor(np.ones(3, np.float32)), ms.Tensor(np.full(3, 2.0, np.float32))
        out = _scale(x, (a, b))
        refs = [weakref.ref(t) for t in (x, a, b, out[0], out[1][0])]
        np.testing.assert_allclose(out[1][0].asnumpy(), np.full(3, 3.0))
        del x, a, b, out
        assert [r() is None for r in refs] == [True] * 5


def test_an_optimizer_step_keeps_no_gradient(no_cyclic_gc):
    net = nn.Dense(4, 3)
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    for _ in range(3):
        grads = tuple(ms.Tensor(np.ones(p.shape, np.float32)) for p in net.trainable_params())
        refs = [weakref.ref(g) for g in grads]
        opt(grads)
        del grads
        assert all(r() is None for r in refs)


class _Scaled(nn.Cell):
    def __init__(self, value):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.full(3, value, np.float32)), name="w")

    @ms.jit
    def construct(self, x):
        return x * self.w


def test_a_jit_method_compiles_per_object_and_lets_it_go():
    """The graphs of a ``@jit`` method live with the object they were compiled for (an optimizer's construct): a
    function-wide cache kept every dead instance's graphs and Parameters, and could hand a new instance that reuses a
    dead one's id the graph bound to the dead one's Parameters."""
    x = ms.Tensor(np.ones(3, np.float32))
    refs = []
    for value in (2.0, 3.0, 4.0):
        net = _Scaled(value)
        np.testing.assert_allclose(net(x).asnumpy(), np.full(3, value))
        np.testing.assert_allclose(net(x).asnumpy(), np.full(3, value))
        refs.append((weakref.ref(net), weakref.ref(net.w)))
        del net
    gc.collect()
    assert all(a() is None and b() is None for a, b in refs), "every instance and its Parameter are freed"
    w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
    for _ in range(3):
        opt = nn.SGD([w], learning_rate=0.5)
        opt((ms.Tensor(np.ones(2, np.float32)),))
        ref = weakref.ref(opt)
        del opt
        gc.collect()
        assert ref() is None
    np.testing.assert_allclose(w.asnumpy(), np.full(2, -0.5))


class _Loss(nn.Cell):
    def __init__(self, value):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.full(3, value, np.float32)), name="w")

    def loss(self, x):
        return (x * self.w * self.w).sum()


def test_a_graph_mode_gradient_of_a_method_lets_its_object_go():
    prev = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        refs = []
        for value in (1.0, 2.0, 3.0):
            m = _Loss(value)
            (g,) = ms.grad(m.loss, None, m.trainable_params())(ms.Tensor(np.full(3, 2.0, np.float32)))
            np.testing.assert_allclose(g.asnumpy(), np.full(3, 4.0 * value))
            refs.append(weakref.ref(m.w))
            del m, g
        gc.collect()
        assert all(r() is None for r in refs)
    finally:
        ms.set_context(mode=prev)
