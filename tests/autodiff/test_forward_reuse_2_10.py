"""A hand-written train cell runs ``loss = net(x)`` and then ``GradOperation(...)(net, weights)(x, sens)``: in
MindSpore 2.10 the gradient reuses that forward when the inputs are the same, so BatchNorm's moving statistics (and
any other effect of the forward: Dropout masks, Assign) happen once per step, in both modes. Found with the model
zoo's Pix2Pix (research/cv): its generator's moving variance drifts from 2.10's from the first step on.

The numbers are 2.10's (tests/fixtures/zoo_research/record_forward_reuse_2_10.py): momentum 0.5, channel means 5.5
and 9.5, so one update gives [2.75, 4.75], two [4.125, 7.125], three [4.8125, 8.3125].
PYNATIVE reuses the recorded forward (mindspore/_autodiff/forward_reuse.py); GRAPH_MODE merges the gradient's
forward clone into the one call of the Cell on the same graph values (mindspore/_pipeline/forward_reuse.py): two
calls or two gradients of the Cell in the graph, or other values, and 2.10 runs the forward again."""
import sys
from pathlib import Path

import numpy as np
import pytest

import mindspore as ms

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "zoo_research"
sys.path.insert(0, str(FIX))
from record_forward_reuse_2_10 import Cases, Dropped, Net, Scaled, Step  # noqa: E402
from record_pix2pix_step_2_10 import Dis, Gen, TrainStep  # noqa: E402

sys.path.remove(str(FIX))

ONCE, TWICE, THRICE = [2.75, 4.75], [4.125, 7.125], [4.8125, 8.3125]
OTHER = [4.375, 7.375]   # x + 1 (means 6.5, 10.5), then x
CASES = [
    ("GRAPH_MODE", "same_inputs", ONCE, None),
    ("GRAPH_MODE", "other_inputs", OTHER, None),
    ("GRAPH_MODE", "through_wrapper", ONCE, None),
    ("GRAPH_MODE", "forward_twice", THRICE, None),
    ("GRAPH_MODE", "grad_twice", TWICE, None),
    ("PYNATIVE_MODE", "same_inputs", ONCE, None),
    ("PYNATIVE_MODE", "other_inputs", OTHER, None),
    ("PYNATIVE_MODE", "through_wrapper", ONCE, None),
    ("PYNATIVE_MODE", "forward_twice", TWICE, None),
    ("PYNATIVE_MODE", "grad_twice", TWICE, None),
]


@pytest.mark.parametrize("mode,variant,want", [
    pytest.param(m, v, w, marks=pytest.mark.xfail(strict=True, reason=r) if r else ()) for m, v, w, r in CASES])
def test_moving_statistics_updates_as_in_2_10(mode, variant, want):
    ms.set_context(mode=getattr(ms, mode))
    try:
        net = Net()
        step = Step(net, variant)
        step.set_train()
        step(ms.Tensor(np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2)))
        np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), want, rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_reused_forward_gives_the_gradients_of_a_fresh_forward():
    """PYNATIVE: the gradients taken through the recorded forward are those of running the forward again."""
    from mindspore import nn, ops
    x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2) / 7)

    class Sq(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 3, 1, weight_init="ones")

        def construct(self, x):
            return (self.conv(x) ** 2).sum()

    grad = ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)
    sens = ms.Tensor(2.0, ms.float32)
    fresh = Sq()
    want = grad(fresh, ms.ParameterTuple(fresh.trainable_params()))(x, sens)
    net = Sq()
    net.set_grad()
    loss = net(x)
    got = grad(net, ms.ParameterTuple(net.trainable_params()))(x, sens)
    np.testing.assert_allclose(loss.asnumpy(), fresh(x).asnumpy(), rtol=1e-6)
    for w, g in zip(want[0] + want[1], got[0] + got[1]):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6)


def test_a_dropped_cell_with_a_backward_hook_leaves_reuse_on():
    """A backward hook turns forward reuse off while it is registered; a cell dropped with its hook still
    registered must not keep it off for the rest of the process (found in CI: a hooked cell of an earlier test
    in the same worker made these cases update the statistics twice)."""
    import gc
    from mindspore import nn
    hooked = nn.ReLU()
    hooked.register_backward_hook(lambda cell, grad_in, grad_out: None)
    del hooked
    gc.collect()
    net = Net()
    step = Step(net, "same_inputs")
    step.set_train()
    step(ms.Tensor(np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2)))
    np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), ONCE, rtol=1e-6)


def test_a_removed_backward_hook_leaves_reuse_on():
    from mindspore import nn
    hooked = nn.ReLU()
    hooked.register_backward_hook(lambda cell, grad_in, grad_out: None).remove()
    x = ms.Tensor(np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2))
    net = Net()
    step = Step(net, "same_inputs")
    step.set_train()
    step(x)
    np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), ONCE, rtol=1e-6)


X = np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2)


@pytest.mark.parametrize("variant,want", [
    ("equal_tensor", TWICE),        # another tensor of the same values: another graph input
    ("depend_on_loss", TWICE),      # ops.depend(x, loss) is another value
    ("loss_unused", ONCE),
    ("grad_of_wrapper", TWICE),     # the gradient is of another Cell
    ("no_sens", ONCE),
    ("value_and_grad", ONCE),
    ("grad_twice_after", [5.0625, 8.5625]),   # two gradients of the Cell: x, x + 1, x
    # the gradient's argument x rewritten: 2.10 simplifies some rewrites to x before it merges the two
    ("mul_one", ONCE),
    ("mul_one_float", TWICE),
    ("mul_ones_like", ONCE),
    ("add_zero", ONCE),
    ("sub_zero", TWICE),
    ("div_one", TWICE),
    ("reshape_same", ONCE),
    ("cast_same", ONCE),
    ("depend_other", ONCE),         # ops.depend(x, sens): unlike ops.depend(x, loss)
    ("identity", TWICE),
    ("stop_gradient", TWICE),
    ("expand_squeeze", TWICE),
    ("loss_mul_one", ONCE),         # the call's argument rewritten
])
def test_graph_mode_reuses_as_2_10(variant, want):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Net()
        step = Cases(net, variant)
        step.set_train()
        step(ms.Tensor(X), ms.Tensor(X))
        np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), want, rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_graph_mode_reuses_the_forward_of_a_cell_run_in_float16():
    """``to_float(float16)``: the Cell casts its inputs on the way in; 2.10 still reuses its forward."""
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Net()
        net.to_float(ms.float16)
        step = Cases(net, "sens_of_loss")
        step.set_train()
        step(ms.Tensor(X), ms.Tensor(X))
        np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), ONCE, rtol=1e-3)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("variant,want", [("write_between", [1.0, 1.0]), ("write_no_call", [10.0, 10.0])])
def test_graph_mode_reused_gradient_reads_the_weights_the_forward_read(variant, want):
    """2.10: with the forward reused, an ``assign`` of the weight between the call and the gradient does not reach
    the gradient (the backward uses the weight the forward loaded); without a call it does."""
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        v = ms.Tensor(np.array([1.0, 2.0], np.float32))
        net = Scaled()
        loss, grad = Cases(net, variant)(v, v)
        np.testing.assert_allclose(grad.asnumpy(), want, rtol=1e-6)
        np.testing.assert_allclose(net.w.asnumpy(), [10.0, 10.0], rtol=1e-6)
        assert loss.asnumpy().item() == 3.0
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_graph_mode_reused_dropout_mask_is_the_losses():
    """2.10: the gradient goes through the forward's Dropout mask (the loss equals the gradient's sum)."""
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        ms.set_seed(1)
        ones = ms.Tensor(np.ones((4, 8), np.float32))
        step = Cases(Dropped(), "dropout")
        step.set_train()
        loss, grad = step(ones, ones)
        g = grad.asnumpy()
        assert set(np.unique(g).tolist()) <= {0.0, 2.0}
        assert loss.asnumpy().item() == g.sum()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_graph_mode_reused_forward_gives_the_gradients_of_a_fresh_forward():
    """GRAPH_MODE: the gradients and loss of a step whose gradient reuses the call are those of a gradient alone."""
    from mindspore import nn, ops

    class Sq(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 3, 1, weight_init="ones")
            self.bn = nn.BatchNorm2d(3, momentum=0.5)

        def construct(self, x):
            return (self.bn(self.conv(x)) ** 2).sum()

    class Step2(nn.Cell):
        def __init__(self, net, call):
            super().__init__()
            self.net, self.call = net, call
            self.grad = ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)
            self.weights = ms.ParameterTuple(net.trainable_params())

        def construct(self, x, sens):
            loss = self.net(x) if self.call else x.sum()
            return loss, self.grad(self.net, self.weights)(x, sens)

    x = ms.Tensor(X / 7)
    sens = ms.Tensor(2.0, ms.float32)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        fresh, net, alone = Sq(), Sq(), Sq()
        for cell in (fresh, net, alone):
            cell.set_train()
        _, want = Step2(fresh, False)(x, sens)
        loss, got = Step2(net, True)(x, sens)
        np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), fresh.bn.moving_mean.asnumpy(), rtol=1e-6)
        assert np.abs(net.bn.moving_mean.asnumpy()).min() > 0.1     # training: the statistics moved
        ms.set_context(mode=ms.PYNATIVE_MODE)
        np.testing.assert_allclose(loss.asnumpy(), alone(x).asnumpy(), rtol=1e-5)
        for w, g in zip(want[0] + want[1], got[0] + got[1]):
            np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_graph_mode_pix2pix_like_step_as_2_10():
    """Both loss Cells reuse their forward; the generator's BatchNorm, on the same input in both losses, moves
    once (2.10 merges the second loss's first effects into the first's); the generator's gradient reads the
    discriminator's weights as its forward did, before the discriminator's optimizer step."""
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        a = ms.Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 5)
        b = ms.Tensor(np.ones((4, 3), np.float32))
        g, d = Gen(), Dis()
        step = TrainStep(g, d)
        step.set_train()
        d_loss, g_loss = step(a, b)
        np.testing.assert_allclose([d_loss.asnumpy().item(), g_loss.asnumpy().item()],
                                   [1.1583631038665771, 3.457374095916748], rtol=1e-5)
        np.testing.assert_allclose(g.bn.moving_mean.asnumpy(), [-1.1875, 0.05, 1.2875], rtol=1e-5)
        np.testing.assert_allclose(g.dense.weight.asnumpy()[1], [29.39635, 29.64636, 29.89636], rtol=1e-5)
        np.testing.assert_allclose(d.dense.weight.asnumpy(), [[0.5, -1.0, 1.5, 1.72361, -1.0, 0.72361]], rtol=1e-5)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
