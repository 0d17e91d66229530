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
