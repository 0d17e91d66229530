"""``mindspore.experimental.optim`` and its ``lr_scheduler`` against real MindSpore 2.10: the parameters after
each step, and the rates each schedule sets (recorded by ``make_experimental_optim_fixture.py``)."""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore.experimental import optim
from mindspore.experimental.optim import lr_scheduler

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from make_experimental_optim_fixture import (OPTIMIZERS, SCHEDULERS, groups, run_optimizer,  # noqa: E402
                                             run_scheduler)

FIXTURE = np.load(pathlib.Path(__file__).parents[1] / "fixtures" / "api" / "experimental_optim_msref.npz")


@pytest.mark.parametrize("case_id,cls_name,kwargs,second_lr", OPTIMIZERS, ids=[c[0] for c in OPTIMIZERS])
def test_optimizer_steps_match_mindspore(case_id, cls_name, kwargs, second_lr):
    got = run_optimizer(ms, optim, cls_name, kwargs, second_lr)
    np.testing.assert_allclose(got, FIXTURE["opt_" + case_id], rtol=1e-5, atol=3e-6)


@pytest.mark.parametrize("case_id,cls_name,kwargs,steps", SCHEDULERS, ids=[c[0] for c in SCHEDULERS])
def test_scheduler_rates_match_mindspore(case_id, cls_name, kwargs, steps):
    got = run_scheduler(ms, optim, cls_name, kwargs, steps)
    np.testing.assert_allclose(got, FIXTURE["sched_" + case_id], rtol=1e-6, atol=1e-8)


def test_every_optimizer_is_covered():
    assert {c[1] for c in OPTIMIZERS} == set(optim.__all__) - {"Optimizer"}
    assert {c[1] for c in SCHEDULERS} | {"LRScheduler", "SequentialLR", "ReduceLROnPlateau"} == \
        set(lr_scheduler.__all__)


def test_param_groups_layout():
    params, param_groups = groups(ms, True)
    opt = optim.Adam(param_groups, lr=0.01, weight_decay=0.1)
    assert len(opt.param_groups) == 2 and opt.group_start_id == [0, 2, 3]
    assert [float(g["lr"].asnumpy()) for g in opt.param_groups] == pytest.approx([0.01, 0.05])
    assert opt.param_groups[1]["weight_decay"] == 0.1 and opt.param_groups[0]["betas"] == (0.9, 0.999)
    assert list(opt.parameters) == params
    assert "Parameter Group 1" in repr(opt) and "lr: 0.05" in repr(opt)
    extra = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="extra")
    sgd = optim.SGD(params[:1], lr=0.1)
    sgd.add_param_group({"params": extra, "lr": 0.2})
    assert len(sgd.param_groups) == 2 and sgd.group_start_id == [0, 1, 2] and sgd.parameters[-1] is extra
    assert float(sgd.lrs[1].asnumpy()) == pytest.approx(0.2)


def test_errors():
    params, _ = groups(ms, False)
    with pytest.raises(ValueError, match="Invalid learning rate: -1"):
        optim.Adam(params, lr=-1.0)
    with pytest.raises(ValueError, match="Invalid beta parameter at index 1"):
        optim.AdamW(params, betas=(0.9, 1.0))
    with pytest.raises(ValueError, match="can not be None"):
        optim.SGD(None, lr=0.1)
    with pytest.raises(ValueError, match="must not be empty"):
        optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match="only optimize Parameters"):
        optim.SGD([ms.Tensor([1.0])], lr=0.1)
    with pytest.raises(TypeError, match="ordered collections"):
        optim.SGD([{"params": set(params)}], lr=0.1)
    with pytest.raises(ValueError, match="more than one parameter group"):
        optim.SGD([{"params": params[:2]}, {"params": params[1:]}], lr=0.1)
    with pytest.raises(ValueError, match="if 'nesterov' is true"):
        optim.SGD(params, lr=0.1, nesterov=True)
    with pytest.raises(TypeError, match="type of lambd must be float"):
        optim.ASGD(params, lambd=1)
    with pytest.raises(ValueError, match="the lr must be greater than 0"):
        optim.Rprop(params, lr=0.0)
    with pytest.raises(TypeError, match="is not an Optimizer"):
        lr_scheduler.StepLR(nn.SGD(params, 0.1), 2)
    with pytest.raises(TypeError, match="the 'gamma' must be float"):
        lr_scheduler.StepLR(optim.SGD(params, lr=0.1), 2, gamma=1)
    with pytest.raises(KeyError, match="initial_lr"):
        lr_scheduler.ExponentialLR(optim.SGD(params, lr=0.1), 0.9, last_epoch=3)


def test_scheduler_drives_the_optimizer_rate_and_closed_form_jumps():
    params, param_groups = groups(ms, True)
    opt = optim.SGD(param_groups, lr=0.1)
    sched = lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    for _ in range(4):
        sched.step()
    assert float(opt.param_groups[0]["lr"].asnumpy()) == pytest.approx(0.025)
    sched.step(7)   # closed form: 0.1 * 0.5 ** 3
    assert [float(x.asnumpy()) for x in sched.get_last_lr()] == pytest.approx([0.0125, 0.00625])
    before = params[0].asnumpy().copy()
    opt(tuple(ops.ones_like(p) for p in params))
    np.testing.assert_allclose(params[0].asnumpy(), before - 0.0125, rtol=1e-6)


def test_sequential_and_plateau():
    _, param_groups = groups(ms, False)
    opt = optim.SGD(param_groups, lr=0.1)
    warm = lr_scheduler.LinearLR(opt, start_factor=0.5, total_iters=2)
    decay = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    seq = lr_scheduler.SequentialLR(opt, [warm, decay], milestones=[2])
    rates = [float(seq.get_last_lr()[0].asnumpy())]
    for _ in range(4):
        seq.step()
        rates.append(float(seq.get_last_lr()[0].asnumpy()))
    np.testing.assert_allclose(rates, [0.05, 0.075, 0.1, 0.05, 0.025], rtol=1e-6)

    opt = optim.SGD(groups(ms, False)[1], lr=1.0)
    plateau = lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1, min_lr=0.3)
    for loss in [1.0, 0.9, 0.95, 0.95, 0.95, 0.95, 0.95]:
        plateau.step(ms.Tensor(loss))
    assert [float(x.asnumpy()) for x in plateau.get_last_lr()] == pytest.approx([0.3, 0.3])


def test_trains_a_network_in_graph_mode_like_pynative():
    def train(mode):
        ms.set_seed(1)
        ms.set_context(mode=mode)
        try:
            net = nn.Dense(4, 1)
            opt = optim.AdamW(net.trainable_params(), lr=0.05)
            x = ms.Tensor(np.random.default_rng(0).standard_normal((8, 4)).astype(np.float32))
            y = ms.Tensor(np.arange(8, dtype=np.float32).reshape(8, 1))
            grad_fn = ms.value_and_grad(lambda a, b: ((net(a) - b) ** 2).mean(), None, opt.parameters)

            def step(a, b):
                loss, grads = grad_fn(a, b)
                opt(grads)
                return loss
            step = ms.jit(step) if mode == ms.GRAPH_MODE else step
            return [float(step(x, y).asnumpy()) for _ in range(5)]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    eager = train(ms.PYNATIVE_MODE)
    assert eager[-1] < eager[0]
    np.testing.assert_allclose(train(ms.GRAPH_MODE), eager, rtol=1e-5)
