"""GRAPH_MODE: a number attribute a compiled function assigns (``self.calls += 1``) is assigned at every call.

MindSpore 2.10 runs such assignments at each call (its JIT fallback); the expected values below are what it
gives for the same programs. Compiled once, the graph carries the attribute as an input and an output;
where the program uses it as a Python value (``range(self.n)``), the graph is compiled again whenever the
value it was compiled with changed.
"""
import warnings

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
from mindspore._pipeline import compiler


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def ones():
    return ms.Tensor(np.ones(2, np.float32))


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def construct(self, x):
        self.calls += 1
        return x * self.calls


def test_the_counter_counts_every_call_and_the_graph_sees_its_value():
    net = Counter()
    outs = [net(ones()).asnumpy().tolist() for _ in range(3)]
    assert outs == [[1, 1], [2, 2], [3, 3]]
    assert net.calls == 3 and type(net.calls) is int
    before = compiler.STATS["compiles"]
    net(ones())
    assert compiler.STATS["compiles"] == before      # one graph for every value
    net.calls = 10                                   # set from Python between calls
    assert net(ones()).asnumpy().tolist() == [11, 11] and net.calls == 11


def test_a_condition_on_the_counter_follows_it():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def construct(self, x):
            self.calls += 1
            if self.calls > 2:
                return -x
            return x
    net = Net()
    assert [net(ones()).asnumpy().tolist() for _ in range(4)] == [[1, 1], [1, 1], [-1, -1], [-1, -1]]
    assert net.calls == 4


def test_floats_resets_and_kinds_are_kept():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.total = 0.0
            self.steps = 5

        def construct(self, x):
            self.total += 0.5
            self.steps = 0
            self.steps += 2
            return x
    net = Net()
    for _ in range(3):
        net(ones())
    assert (net.total, net.steps) == (1.5, 2)
    assert type(net.total) is float and type(net.steps) is int


class Sub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.n = 0
        self.dense = nn.Dense(2, 1)

    def construct(self, x):
        self.n += 1
        return self.dense(x)


class Top(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sub = Sub()

    def construct(self, x):
        return self.sub(x[None]).sum()


def test_a_sub_cell_training_step_and_a_gradient_count_once_per_call():
    top = Top()
    for _ in range(3):
        top(ones())
    assert top.sub.n == 3
    net = Top()
    step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), 0.1))
    losses = [float(step(ones()).asnumpy()) for _ in range(4)]
    assert net.sub.n == 4
    assert losses[0] != losses[-1]                   # the weights were still trained
    net2 = Top()
    grad_fn = ms.value_and_grad(net2, None, net2.trainable_params())
    for _ in range(3):
        _, grads = grad_fn(ones())
    assert net2.sub.n == 3
    np.testing.assert_allclose(grads[0].asnumpy(), [[1.0, 1.0]])   # d sum(W x + b) / dW = x


def test_an_attribute_of_an_outer_object_in_a_jit_function():
    class Box:
        count = 0
    box = Box()

    @ms.jit
    def f(x):
        box.count += 1
        return x + box.count
    assert [f(ones()).asnumpy().tolist() for _ in range(2)] == [[2, 2], [3, 3]]
    assert box.count == 2


def test_a_counter_used_as_a_python_int_recompiles_with_a_warning():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.n = 1

        def construct(self, x):
            self.n += 1
            for _ in range(self.n):
                x = x + 1
            return x
    net = Net()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outs = [net(ones()).asnumpy().tolist() for _ in range(2)]
    assert outs == [[3, 3], [4, 4]] and net.n == 3
    assert any("Net.n" in str(w.message) and "compiled again" in str(w.message) for w in caught)


def test_pynative_is_unchanged():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net = Counter()
    assert [net(ones()).asnumpy().tolist() for _ in range(2)] == [[1, 1], [2, 2]]
