"""Every optimizer's update over 3 steps against an independent NumPy (float64) re-implementation.

The gradients are fed to the optimizer directly, so each test checks the update formula, the state it keeps and
the hyper-parameter handling (weight decay, loss scale, Nesterov, AMSGrad, centered, ...).
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, Tensor, nn

pytestmark = pytest.mark.both_modes

RTOL = 2e-5
ATOL = 1e-7
STEPS = 3


def f32(*values):
    """Hyper-parameters enter MindSpore's kernels as float32: the oracles use the same rounded values."""
    out = tuple(float(np.float32(v)) for v in values)
    return out if len(out) > 1 else out[0]


def make_params(seed=0, shapes=((3, 4), (4,))):
    rng = np.random.default_rng(seed)
    values = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    names = ["dense.weight", "dense.bias"][:len(shapes)]
    params = [Parameter(Tensor(v), name=n) for v, n in zip(values, names)]
    return params, [v.astype(np.float64) for v in values]


def make_grads(seed=1, shapes=((3, 4), (4,)), steps=STEPS):
    rng = np.random.default_rng(seed)
    return [[rng.standard_normal(s).astype(np.float32) for s in shapes] for _ in range(steps)]


def run(opt, grads):
    for step in grads:
        opt(tuple(Tensor(g) for g in step))


def check(params, expected):
    for p, e in zip(params, expected):
        np.testing.assert_allclose(p.asnumpy(), e, rtol=RTOL, atol=ATOL, err_msg=p.name)


# -- SGD --------------------------------------------------------------------------------------------------
def sgd_oracle(ps, grads, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False, loss_scale=1.0):
    ps = [p.copy() for p in ps]
    lr, momentum, dampening, weight_decay = f32(lr, momentum, dampening, weight_decay)
    accum = [np.zeros_like(p) for p in ps]
    first = True
    for step in grads:
        for i, g in enumerate(step):
            g = g / loss_scale + weight_decay * ps[i]
            if momentum > 0:
                accum[i] = g if first else momentum * accum[i] + (1 - dampening) * g
                g = g + momentum * accum[i] if nesterov else accum[i]
            ps[i] = ps[i] - lr * g
        first = False
    return ps, accum


@pytest.mark.parametrize("kwargs", [
    dict(),
    dict(momentum=0.9),
    dict(momentum=0.9, dampening=0.3),
    dict(momentum=0.8, nesterov=True),
    dict(momentum=0.9, weight_decay=0.05),
    dict(momentum=0.9, loss_scale=128.0, weight_decay=0.01),
])
def test_sgd(kwargs):
    params, init = make_params()
    grads = make_grads()
    opt = nn.SGD(params, learning_rate=0.1, **kwargs)
    run(opt, grads)
    expected, accum = sgd_oracle(init, grads, 0.1, **kwargs)
    check(params, expected)
    if kwargs.get("momentum", 0) > 0:
        check(opt.accum, accum)
        assert all((s.asnumpy() == 0).all() for s in opt.stat)


def test_sgd_state_names():
    params, _ = make_params()
    opt = nn.SGD(params, momentum=0.9)
    assert [p.name for p in opt.get_parameters()] == [
        "global_step", "learning_rate", "dense.weight", "dense.bias", "momentum",
        "accum.dense.weight", "accum.dense.bias", "stat.dense.weight", "stat.dense.bias"]
    np.testing.assert_array_equal(opt.stat[0].asnumpy(), np.ones((3, 4)))


# -- Momentum ---------------------------------------------------------------------------------------------
def momentum_oracle(ps, grads, lr, mu, weight_decay=0.0, loss_scale=1.0, nesterov=False, decay_mask=None):
    ps = [p.copy() for p in ps]
    mu = f32(mu)
    vs = [np.zeros_like(p) for p in ps]
    lrs = lr if isinstance(lr, (list, tuple)) else [lr] * len(grads)
    for step, lr_t in zip(grads, lrs):
        for i, g in enumerate(step):
            wd = weight_decay if decay_mask is None or decay_mask[i] else 0.0
            g = (g + wd * loss_scale * ps[i]) / loss_scale
            vs[i] = mu * vs[i] + g
            ps[i] = ps[i] - (lr_t * (g + mu * vs[i]) if nesterov else lr_t * vs[i])
    return ps, vs


@pytest.mark.parametrize("kwargs", [
    dict(), dict(use_nesterov=True), dict(weight_decay=0.01), dict(loss_scale=1024.0),
    dict(weight_decay=0.1, loss_scale=8.0, use_nesterov=True),
])
def test_momentum(kwargs):
    params, init = make_params()
    grads = make_grads()
    opt = nn.Momentum(params, learning_rate=0.05, momentum=0.9, **kwargs)
    run(opt, grads)
    expected, vs = momentum_oracle(init, grads, 0.05, 0.9, kwargs.get("weight_decay", 0.0),
                                   kwargs.get("loss_scale", 1.0), kwargs.get("use_nesterov", False))
    check(params, expected)
    check(opt.moments, vs)


def test_momentum_weight_decay_skips_beta_and_gamma():
    params = [Parameter(Tensor(np.ones(3, np.float32)), name=n) for n in ("fc.weight", "bn.gamma", "bn.beta")]
    grads = [[np.zeros(3, np.float32)] * 3 for _ in range(STEPS)]
    opt = nn.Momentum(params, learning_rate=0.1, momentum=0.9, weight_decay=0.5)
    assert opt.decay_flags == (True, False, False)
    run(opt, grads)
    expected, _ = momentum_oracle([np.ones(3)] * 3, grads, 0.1, 0.9, 0.5, decay_mask=[True, False, False])
    check(params, expected)
    np.testing.assert_array_equal(params[1].asnumpy(), np.ones(3))


# -- Adam -------------------------------------------------------------------------------------------------
def adam_oracle(ps, grads, lr, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0, loss_scale=1.0,
                nesterov=False, amsgrad=False):
    ps = [p.copy() for p in ps]
    beta1, beta2, eps = f32(beta1, beta2, eps)
    ms_ = [np.zeros_like(p) for p in ps]
    vs = [np.zeros_like(p) for p in ps]
    vhats = [np.zeros_like(p) for p in ps]
    lrs = lr if isinstance(lr, (list, tuple)) else [lr] * len(grads)
    for t, (step, lr_s) in enumerate(zip(grads, lrs), start=1):
        lr_t = lr_s * np.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
        for i, g in enumerate(step):
            g = (g + weight_decay * loss_scale * ps[i]) / loss_scale
            ms_[i] = beta1 * ms_[i] + (1 - beta1) * g
            vs[i] = beta2 * vs[i] + (1 - beta2) * g * g
            denom_v = vs[i]
            if amsgrad:
                vhats[i] = np.maximum(vhats[i], vs[i])
                denom_v = vhats[i]
            numer = beta1 * ms_[i] + (1 - beta1) * g if nesterov else ms_[i]
            ps[i] = ps[i] - lr_t * numer / (np.sqrt(denom_v) + eps)
    return ps, ms_, vs, vhats


@pytest.mark.parametrize("kwargs", [
    dict(), dict(use_nesterov=True), dict(use_amsgrad=True), dict(weight_decay=0.01),
    dict(loss_scale=64.0, weight_decay=0.02), dict(beta1=0.8, beta2=0.99, eps=1e-6),
])
def test_adam(kwargs):
    params, init = make_params()
    grads = make_grads()
    opt = nn.Adam(params, learning_rate=0.01, **kwargs)
    run(opt, grads)
    oracle_kwargs = {k: v for k, v in kwargs.items() if k in ("beta1", "beta2", "eps", "weight_decay", "loss_scale")}
    expected, m, v, vhat = adam_oracle(init, grads, 0.01, nesterov=kwargs.get("use_nesterov", False),
                                       amsgrad=kwargs.get("use_amsgrad", False), **oracle_kwargs)
    check(params, expected)
    check(opt.moment1, m)
    check(opt.moment2, v)
    beta1, beta2 = kwargs.get("beta1", 0.9), kwargs.get("beta2", 0.999)
    np.testing.assert_allclose(opt.beta1_power.asnumpy(), beta1 ** STEPS, rtol=1e-6)
    np.testing.assert_allclose(opt.beta2_power.asnumpy(), beta2 ** STEPS, rtol=1e-6)
    if kwargs.get("use_amsgrad"):
        check(opt.vhat, vhat)


def test_adam_state_names_and_defaults():
    params, _ = make_params()
    opt = nn.Adam(params)
    assert [p.name for p in opt.get_parameters()] == [
        "global_step", "learning_rate", "dense.weight", "dense.bias", "beta1_power", "beta2_power",
        "moment1.dense.weight", "moment1.dense.bias", "moment2.dense.weight", "moment2.dense.bias"]
    np.testing.assert_allclose(opt.learning_rate.asnumpy(), 1e-3)
    np.testing.assert_allclose(opt.eps.asnumpy(), 1e-8)
    assert opt.beta1_power.shape == () and opt.beta1_power.dtype == ms.float32
    amsgrad = nn.Adam(make_params()[0], use_amsgrad=True)
    assert [p.name for p in amsgrad.vhat] == ["vhat.dense.weight", "vhat.dense.bias"]


def test_lazy_adam_matches_adam_on_dense_gradients():
    params, init = make_params()
    grads = make_grads()
    run(nn.LazyAdam(params, learning_rate=0.01), grads)
    check(params, adam_oracle(init, grads, 0.01)[0])


# -- AdamWeightDecay --------------------------------------------------------------------------------------
def adamw_oracle(ps, grads, lr, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0, decay_mask=None):
    ps = [p.copy() for p in ps]
    lr, beta1, beta2, eps, weight_decay = f32(lr, beta1, beta2, eps, weight_decay)
    ms_ = [np.zeros_like(p) for p in ps]
    vs = [np.zeros_like(p) for p in ps]
    for step in grads:
        for i, g in enumerate(step):
            ms_[i] = beta1 * ms_[i] + (1 - beta1) * g
            vs[i] = beta2 * vs[i] + (1 - beta2) * g * g
            update = ms_[i] / (np.sqrt(vs[i]) + eps)
            if decay_mask is None or decay_mask[i]:
                update = update + weight_decay * ps[i]
            ps[i] = ps[i] - lr * update
    return ps, ms_, vs


@pytest.mark.parametrize("weight_decay", [0.0, 0.1])
def test_adam_weight_decay(weight_decay):
    params, init = make_params()
    grads = make_grads()
    opt = nn.AdamWeightDecay(params, learning_rate=0.01, weight_decay=weight_decay)
    run(opt, grads)
    expected, m, v = adamw_oracle(init, grads, 0.01, weight_decay=weight_decay)
    check(params, expected)
    check(opt.moments1, m)
    check(opt.moments2, v)
    assert [p.name for p in opt.moments1] == ["adam_m.dense.weight", "adam_m.dense.bias"]
    assert [p.name for p in opt.moments2] == ["adam_v.dense.weight", "adam_v.dense.bias"]


def test_adam_weight_decay_group_decay_and_filter():
    params = [Parameter(Tensor(np.ones(3, np.float32)), name=n) for n in ("fc.weight", "ln.gamma")]
    grads = [[np.full(3, 0.5, np.float32)] * 2 for _ in range(STEPS)]
    opt = nn.AdamWeightDecay(params, learning_rate=0.1, weight_decay=0.2)
    run(opt, grads)
    expected, _, _ = adamw_oracle([np.ones(3)] * 2, grads, 0.1, weight_decay=0.2, decay_mask=[True, False])
    check(params, expected)
    # grouped: the decay follows the group, not the name
    params = [Parameter(Tensor(np.ones(3, np.float32)), name=n) for n in ("fc.weight", "ln.gamma")]
    opt = nn.AdamWeightDecay([{"params": [params[0]], "weight_decay": 0.0}, {"params": [params[1]]}],
                             learning_rate=0.1, weight_decay=0.2)
    run(opt, grads)
    expected, _, _ = adamw_oracle([np.ones(3)] * 2, grads, 0.1, weight_decay=0.2, decay_mask=[False, True])
    check(params, expected)


# -- RMSProp ----------------------------------------------------------------------------------------------
def rmsprop_oracle(ps, grads, lr, decay=0.9, momentum=0.0, epsilon=1e-10, centered=False, weight_decay=0.0,
                   loss_scale=1.0):
    ps = [p.copy() for p in ps]
    lr, decay, momentum, epsilon = f32(lr, decay, momentum, epsilon)
    mean_sq = [np.ones_like(p) for p in ps]
    mean_g = [np.zeros_like(p) for p in ps]
    mom = [np.zeros_like(p) for p in ps]
    for step in grads:
        for i, g in enumerate(step):
            g = (g + weight_decay * loss_scale * ps[i]) / loss_scale
            mean_sq[i] = decay * mean_sq[i] + (1 - decay) * g * g
            if centered:
                mean_g[i] = decay * mean_g[i] + (1 - decay) * g
                denom = mean_sq[i] - mean_g[i] ** 2 + epsilon
            else:
                denom = mean_sq[i] + epsilon
            mom[i] = momentum * mom[i] + lr * g / np.sqrt(denom)
            ps[i] = ps[i] - mom[i]
    return ps, mean_sq, mom, mean_g


@pytest.mark.parametrize("kwargs", [
    dict(), dict(momentum=0.9), dict(centered=True), dict(centered=True, momentum=0.5, decay=0.8),
    dict(weight_decay=0.01, loss_scale=4.0),
])
def test_rmsprop(kwargs):
    params, init = make_params()
    grads = make_grads()
    opt = nn.RMSProp(params, learning_rate=0.01, **kwargs)
    run(opt, grads)
    expected, mean_sq, mom, mean_g = rmsprop_oracle(init, grads, 0.01, **kwargs)
    check(params, expected)
    check(opt.ms, mean_sq)
    check(opt.moment, mom)
    names = [p.name for p in opt.get_parameters()][4:]
    if kwargs.get("centered"):
        check(opt.mg, mean_g)
        assert names[:2] == ["mean_grad.dense.weight", "mean_grad.dense.bias"]
    assert names[-4:] == ["mean_square.dense.weight", "mean_square.dense.bias", "moment.dense.weight",
                          "moment.dense.bias"]
    assert int(opt.global_step.asnumpy()[0]) == STEPS


# -- Lamb -------------------------------------------------------------------------------------------------
def lamb_oracle(ps, grads, lr, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0, decay_mask=None):
    ps = [p.copy() for p in ps]
    lr, beta1, beta2, eps, weight_decay = f32(lr, beta1, beta2, eps, weight_decay)
    ms_ = [np.zeros_like(p) for p in ps]
    vs = [np.zeros_like(p) for p in ps]
    for t, step in enumerate(grads, start=1):
        for i, g in enumerate(step):
            wd = weight_decay if decay_mask is None or decay_mask[i] else 0.0
            ms_[i] = beta1 * ms_[i] + (1 - beta1) * g
            vs[i] = beta2 * vs[i] + (1 - beta2) * g * g
            m_hat = ms_[i] / (1 - beta1 ** t)
            v_hat = vs[i] / (1 - beta2 ** t)
            update = m_hat / (np.sqrt(v_hat) + eps) + wd * ps[i]
            g_hat = m_hat / np.sqrt(v_hat + eps) + wd * ps[i]
            w_norm, g_norm = np.linalg.norm(ps[i]), np.linalg.norm(g)
            trust = np.clip(w_norm / np.linalg.norm(g_hat), 0, 10) if w_norm > 0 and g_norm > 0 else 1.0
            ps[i] = ps[i] - trust * lr * update
    return ps, ms_, vs


@pytest.mark.parametrize("weight_decay", [0.0, 0.01])
def test_lamb(weight_decay):
    params, init = make_params()
    grads = make_grads()
    opt = nn.Lamb(params, learning_rate=0.02, weight_decay=weight_decay)
    run(opt, grads)
    expected, m, v = lamb_oracle(init, grads, 0.02, weight_decay=weight_decay)
    check(params, expected)
    check(opt.moments1, m)
    check(opt.moments2, v)
    assert [p.name for p in opt.moments1] == ["lamb_m.dense.weight", "lamb_m.dense.bias"]
    assert int(opt.global_step.asnumpy()[0]) == STEPS


def test_lamb_zero_weight_uses_trust_ratio_one():
    w = Parameter(Tensor(np.zeros(4, np.float32)), name="w")
    grads = make_grads(shapes=((4,),))
    run(nn.Lamb([w], learning_rate=0.1), grads)
    check([w], lamb_oracle([np.zeros(4)], grads, 0.1)[0])


# -- Adagrad ----------------------------------------------------------------------------------------------
def adagrad_oracle(ps, grads, lr, accum=0.1, update_slots=True, weight_decay=0.0, loss_scale=1.0):
    ps = [p.copy() for p in ps]
    acc = [np.full_like(p, accum) for p in ps]
    for step in grads:
        for i, g in enumerate(step):
            g = (g + weight_decay * loss_scale * ps[i]) / loss_scale
            if update_slots:
                acc[i] = acc[i] + g * g
            ps[i] = ps[i] - lr * g / np.sqrt(acc[i] + 1e-6)
    return ps, acc


@pytest.mark.parametrize("kwargs", [dict(), dict(accum=0.5), dict(update_slots=False),
                                    dict(weight_decay=0.1, loss_scale=2.0)])
def test_adagrad(kwargs):
    params, init = make_params()
    grads = make_grads()
    opt = nn.Adagrad(params, learning_rate=0.05, **kwargs)
    run(opt, grads)
    expected, acc = adagrad_oracle(init, grads, 0.05, **kwargs)
    check(params, expected)
    check(opt.accum, acc)
    assert [p.name for p in opt.accum] == ["accum.dense.weight", "accum.dense.bias"]


# -- float16 parameters ------------------------------------------------------------------------------------
@pytest.mark.parametrize("make_opt", [
    lambda ps: nn.Momentum(ps, 0.1, 0.9), lambda ps: nn.Adam(ps, 0.01), lambda ps: nn.SGD(ps, 0.1, 0.9),
    lambda ps: nn.RMSProp(ps, 0.01), lambda ps: nn.Adagrad(ps, learning_rate=0.1),
    lambda ps: nn.AdamWeightDecay(ps, 0.01, weight_decay=0.1), lambda ps: nn.Lamb(ps, 0.01),
    lambda ps: nn.Adadelta(ps), lambda ps: nn.FTRL(ps, learning_rate=0.1),
])
def test_float16_parameters_stay_float16(make_opt):
    w = Parameter(Tensor(np.ones(4, np.float16)), name="w")
    opt = make_opt([w])
    opt((Tensor(np.full(4, 0.5, np.float16)),))
    assert w.dtype == ms.float16
    assert np.all(w.asnumpy() < 1) and np.all(np.isfinite(w.asnumpy()))


# -- Adadelta ---------------------------------------------------------------------------------------------
def adadelta_oracle(ps, grads, lr, rho=0.9, epsilon=1e-6, weight_decay=0.0):
    ps = [p.copy() for p in ps]
    lr, rho, epsilon = f32(lr, rho, epsilon)
    acc = [np.zeros_like(p) for p in ps]
    acc_up = [np.zeros_like(p) for p in ps]
    for step in grads:
        for i, g in enumerate(step):
            g = g + weight_decay * ps[i]
            acc[i] = rho * acc[i] + (1 - rho) * g * g
            update = np.sqrt(acc_up[i] + epsilon) * g / np.sqrt(acc[i] + epsilon)
            acc_up[i] = rho * acc_up[i] + (1 - rho) * update * update
            ps[i] = ps[i] - lr * update
    return ps, acc, acc_up


@pytest.mark.parametrize("kwargs", [dict(), dict(rho=0.5, epsilon=1e-3), dict(weight_decay=0.1)])
def test_adadelta(kwargs):
    params, init = make_params()
    grads = make_grads()
    opt = nn.Adadelta(params, learning_rate=0.5, **kwargs)
    run(opt, grads)
    expected, acc, acc_up = adadelta_oracle(init, grads, 0.5, **kwargs)
    check(params, expected)
    check(opt.accum, acc)
    check(opt.accum_update, acc_up)
    assert [p.name for p in opt.accum_update] == ["accum_update.dense.weight", "accum_update.dense.bias"]


# -- FTRL -------------------------------------------------------------------------------------------------
def ftrl_oracle(ps, grads, lr, initial_accum=0.1, lr_power=-0.5, l1=0.0, l2=0.0):
    ps = [p.copy() for p in ps]
    lr, lr_power, l1, l2 = f32(lr, lr_power, l1, l2)
    acc = [np.full_like(p, f32(initial_accum)) for p in ps]
    lin = [np.zeros_like(p) for p in ps]
    for step in grads:
        for i, g in enumerate(step):
            new_acc = acc[i] + g * g
            lin[i] = lin[i] + g - (new_acc ** -lr_power - acc[i] ** -lr_power) / lr * ps[i]
            quad = new_acc ** -lr_power / lr + 2 * l2
            ps[i] = np.where(np.abs(lin[i]) > l1, (np.sign(lin[i]) * l1 - lin[i]) / quad, 0.0)
            acc[i] = new_acc
    return ps, acc, lin


@pytest.mark.parametrize("kwargs", [dict(), dict(l1=0.05, l2=0.1), dict(lr_power=0.0, initial_accum=0.5)])
def test_ftrl(kwargs):
    params, init = make_params()
    grads = make_grads()
    opt = nn.FTRL(params, learning_rate=0.1, **kwargs)
    run(opt, grads)
    expected, acc, lin = ftrl_oracle(init, grads, 0.1, **kwargs)
    check(params, expected)
    check(opt.moments, acc)
    check(opt.linear, lin)
    assert [p.name for p in opt.linear] == ["linear.dense.weight", "linear.dense.bias"]


def test_ftrl_rejects_dynamic_learning_rate():
    with pytest.raises(ValueError):
        nn.FTRL(make_params()[0], learning_rate=[0.1, 0.2])
    with pytest.raises(ValueError):
        nn.FTRL(make_params()[0], lr_power=0.5)
