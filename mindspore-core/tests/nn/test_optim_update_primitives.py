"""The nn optimizers update each parameter with one primitive, as MindSpore's do: nn.Adam / LazyAdam (``Adam``,
``ApplyAdamWithAmsgrad``), nn.AdamWeightDecay (``AdamWeightDecay``), nn.SGD (``SGD``), nn.RMSProp (``ApplyRMSProp``,
``ApplyCenteredRMSProp``), nn.Adagrad (``ApplyAdagrad``); and they give the numbers of the formulas they used to
compose from small primitives (MindSpore's CPU order of operations, in the parameter's dtype).

The oracles below are those composite formulas written in NumPy, operation by operation in the parameter's dtype
(a float16 parameter rounds after every operation); they are compared over three steps to float32 rounding
(float16: to its own rounding; float64 to 1e-12), for float32, float16 and float64 parameters, nesterov, amsgrad,
weight decay, loss scale, grouped and dynamic learning rates (a list, a LearningRateSchedule).
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops

F32 = np.float32
STEPS = 3


def _grads(dtype, shapes, seed=3):
    rng = np.random.default_rng(seed)
    return [[rng.normal(size=s).astype(dtype) for s in shapes] for _ in range(STEPS)]


def _params(dtype):
    rng = np.random.default_rng(1)
    w = ms.Parameter(ms.Tensor(rng.normal(size=(3, 4)).astype(dtype)), name="w")
    b = ms.Parameter(ms.Tensor(rng.normal(size=(4,)).astype(dtype)), name="beta_b")   # no decay when ungrouped
    return [w, b]


def _lr_values(kind):
    """(optimizer learning_rate argument, per-step float32 values or a schedule)."""
    if kind == "fixed":
        return 0.1, None
    if kind == "list":
        values = [0.1, 0.05, 0.02]
        return values, [F32(x) for x in values]
    schedule = nn.ExponentialDecayLR(0.1, 0.5, 1)
    return schedule, schedule


def _lr_at(spec, fixed, step):
    if spec is None:
        return F32(fixed)
    if isinstance(spec, list):
        return spec[step]
    return F32(spec(ms.Tensor(np.array([step], np.int32))).asnumpy().reshape(()))


def _run(opt, params, grads):
    for step_grads in grads:
        opt(tuple(ms.Tensor(g) for g in step_grads))
    return [p.asnumpy().copy() for p in params]


def _run_float64(make_optimizer, oracle):
    """(parameters after the steps, the oracle's) for float64 parameters: ``make_optimizer(params)`` run on the
    usual gradients, ``oracle(initial values, gradients)``."""
    params = _params(np.float64)
    init = [p.asnumpy().copy() for p in params]
    grads = _grads(np.float64, [x.shape for x in init])
    return _run(make_optimizer(params), params, grads), oracle(init, grads)


def _adam_oracle(init, grads, lrs, decays, loss_scale, beta1, beta2, eps, nesterov, amsgrad):
    """The composite Adam formula; ``lrs[i](step)`` is parameter i's float32 rate, ``decays[i]`` its decay or None."""
    dt = init[0].dtype.type
    p = [x.copy() for x in init]
    m = [np.zeros_like(x) for x in init]
    v = [np.zeros_like(x) for x in init]
    vh = [np.zeros_like(x) for x in init]
    b1p, b2p = F32(1), F32(1)
    omb1, omb2 = dt(F32(1) - F32(beta1)), dt(F32(1) - F32(beta2))
    for step, step_grads in enumerate(grads):
        b1p, b2p = F32(b1p * F32(beta1)), F32(b2p * F32(beta2))
        for i, g in enumerate(step_grads):
            if decays[i] is not None:
                g = p[i] * dt(F32(decays[i] * loss_scale)) + g
            if loss_scale != 1.0:
                g = g * dt(F32(1.0 / loss_scale))
            lr_t = dt(F32(F32(lrs[i](step) * np.sqrt(F32(F32(1) - b2p))) / F32(F32(1) - b1p)))
            m[i] = m[i] + (g - m[i]) * omb1
            v[i] = v[i] + (g * g - v[i]) * omb2
            if amsgrad:
                vh[i] = np.maximum(vh[i], v[i])
            denom = np.sqrt(vh[i] if amsgrad else v[i]) + dt(F32(eps))
            numer = m[i] * dt(F32(beta1)) + omb1 * g if nesterov else m[i]
            p[i] = p[i] - lr_t * numer / denom
    return p


def _adam_weight_decay_oracle(init, grads, lrs, decays, beta1, beta2, eps, cpu=True):
    dt = init[0].dtype.type
    p = [x.copy() for x in init]
    m = [np.zeros_like(x) for x in init]
    v = [np.zeros_like(x) for x in init]
    omb1, omb2 = dt(F32(1) - F32(beta1)), dt(F32(1) - F32(beta2))
    if dt is np.float16 and cpu:
        # 2.10's float16 AdamWeightDecay CPU kernel takes 1 - beta in float16 (a GPU's computes it in float32)
        omb1, omb2 = dt(1) - dt(F32(beta1)), dt(1) - dt(F32(beta2))
    for step, step_grads in enumerate(grads):
        for i, g in enumerate(step_grads):
            m[i] = m[i] + (g - m[i]) * omb1
            v[i] = v[i] + (g * g - v[i]) * omb2
            update = m[i] / (np.sqrt(v[i]) + dt(F32(eps)))
            if decays[i] is not None:
                update = update + dt(F32(decays[i])) * p[i]
            p[i] = p[i] - dt(lrs[i](step)) * update
    return p


def _close_to_either(got, oracle):
    """``got`` close to ``oracle(cpu=True)`` (2.10's CPU roundings, the CPU backend's and the STRICT stand-in's) or to
    ``oracle(cpu=False)`` (the plain formula, the GPU kernels'): the bits themselves are tests/api/test_optimizer_bits'."""
    try:
        _close(got, oracle(cpu=True))
    except AssertionError:
        _close(got, oracle(cpu=False))


def _close(got, want):
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        if w.dtype == np.float16:
            np.testing.assert_allclose(g.astype(F32), w.astype(F32), rtol=1e-3, atol=1e-3)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-7)


@pytest.fixture(autouse=True)
def eager_updates(monkeypatch):
    """The optimizers' ``construct`` run op by op: they are ``@jit`` (as in MindSpore 2.10), which would run each
    primitive's ``__call__`` once, while compiling, instead of once per step as these tests count."""
    for cls in (nn.Adam, nn.AdamWeightDecay, nn.SGD, nn.RMSProp, nn.Adagrad):
        monkeypatch.setattr(cls, "construct", cls.construct.__ms_jit_fn__)


@pytest.fixture
def calls(monkeypatch):
    """How many times each update primitive ran."""
    counts = {}
    for cls in (ops.Adam, ops.ApplyAdamWithAmsgrad, ops.AdamWeightDecay, ops.Sqrt):
        original = cls.__call__

        def spy(self, *args, _original=original, _name=cls.__name__, **kwargs):
            counts[_name] = counts.get(_name, 0) + 1
            return _original(self, *args, **kwargs)
        monkeypatch.setattr(cls, "__call__", spy)
    return counts


ADAM_CASES = [
    # dtype, nesterov, amsgrad, weight_decay, loss_scale, lr kind, grouped
    (np.float32, False, False, 0.0, 1.0, "fixed", False),
    (np.float32, True, False, 0.01, 1.0, "fixed", False),
    (np.float32, False, True, 0.0, 1.0, "list", False),
    (np.float32, True, True, 0.0, 1.0, "fixed", False),
    (np.float32, False, False, 0.01, 128.0, "schedule", False),
    (np.float32, True, False, 0.02, 8.0, "fixed", True),
    (np.float16, False, False, 0.0, 1.0, "fixed", False),
    (np.float16, True, False, 0.01, 4.0, "list", False),
    (np.float16, False, True, 0.0, 1.0, "fixed", True),
]


@pytest.mark.parametrize("dtype,nesterov,amsgrad,wd,loss_scale,lr_kind,grouped", ADAM_CASES)
def test_adam_runs_one_primitive_per_parameter_and_gives_the_composite_numbers(calls, dtype, nesterov, amsgrad, wd,
                                                                                loss_scale, lr_kind, grouped):
    params = _params(dtype)
    init = [p.asnumpy().copy() for p in params]
    grads = _grads(dtype, [x.shape for x in init])
    lr, spec = _lr_values(lr_kind)
    if grouped:
        group = [{"params": [params[0]], "lr": 0.05, "weight_decay": wd}, {"params": [params[1]]}]
        opt = nn.Adam(group, learning_rate=lr, use_nesterov=nesterov, use_amsgrad=amsgrad, loss_scale=loss_scale)
        lrs = [lambda s: F32(0.05), lambda s: _lr_at(spec, lr, s)]
        decays = [wd if wd > 0 else None, None]
    else:
        opt = nn.Adam(params, learning_rate=lr, use_nesterov=nesterov, use_amsgrad=amsgrad, weight_decay=wd,
                      loss_scale=loss_scale)
        lrs = [lambda s: _lr_at(spec, lr, s)] * 2
        decays = [wd if wd > 0 else None, None]
    got = _run(opt, params, grads)
    want = _adam_oracle(init, grads, lrs, decays, loss_scale, 0.9, 0.999, 1e-8, nesterov, amsgrad)
    _close(got, want)
    if amsgrad and nesterov:        # no primitive computes AMSGrad with Nesterov: the composite formula runs
        assert "ApplyAdamWithAmsgrad" not in calls and "Adam" not in calls
    else:
        name = "ApplyAdamWithAmsgrad" if amsgrad else "Adam"
        assert calls.get(name) == STEPS * len(params), calls
        assert "Sqrt" not in calls, "the update is one primitive per parameter, not a chain"


def test_lazy_adam_is_adam(calls):
    params = _params(np.float32)
    init = [p.asnumpy().copy() for p in params]
    grads = _grads(np.float32, [x.shape for x in init])
    got = _run(nn.LazyAdam(params, learning_rate=0.1, use_nesterov=True), params, grads)
    want = _adam_oracle(init, grads, [lambda s: F32(0.1)] * 2, [None, None], 1.0, 0.9, 0.999, 1e-8, True, False)
    _close(got, want)
    assert calls.get("Adam") == STEPS * len(params)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("wd,lr_kind,grouped", [(0.0, "fixed", False), (0.1, "fixed", False),
                                                (0.1, "schedule", False), (0.05, "list", True)])
def test_adam_weight_decay_runs_one_primitive_per_parameter(calls, dtype, wd, lr_kind, grouped):
    params = _params(dtype)
    init = [p.asnumpy().copy() for p in params]
    grads = _grads(dtype, [x.shape for x in init])
    lr, spec = _lr_values(lr_kind)
    if grouped:
        group = [{"params": [params[0]], "weight_decay": wd}, {"params": [params[1]], "lr": 0.2}]
        opt = nn.AdamWeightDecay(group, learning_rate=lr, beta1=0.8, beta2=0.95, eps=1e-6)
        lrs = [lambda s: _lr_at(spec, lr, s), lambda s: F32(0.2)]
        decays = [wd, None]
    else:
        opt = nn.AdamWeightDecay(params, learning_rate=lr, beta1=0.8, beta2=0.95, eps=1e-6, weight_decay=wd)
        lrs = [lambda s: _lr_at(spec, lr, s)] * 2
        decays = [wd, None]     # "beta_b" never decays when ungrouped
    got = _run(opt, params, grads)
    _close_to_either(got, lambda cpu: _adam_weight_decay_oracle(init, grads, lrs, decays, 0.8, 0.95, 1e-6, cpu))
    assert calls.get("AdamWeightDecay") == STEPS * len(params), calls
    assert "Sqrt" not in calls


def test_adam_state_is_written_by_the_primitive():
    """The moments and the beta powers are the optimizer's Parameters, updated in place."""
    w = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="w")
    opt = nn.Adam([w], learning_rate=0.1, beta1=0.5, beta2=0.75)
    opt((ms.Tensor(np.full(3, 2.0, np.float32)),))
    np.testing.assert_allclose(opt.moment1[0].asnumpy(), np.full(3, 1.0, np.float32))     # (2 - 0) * 0.5
    np.testing.assert_allclose(opt.moment2[0].asnumpy(), np.full(3, 1.0, np.float32))     # (4 - 0) * 0.25
    assert float(opt.beta1_power.asnumpy()) == 0.5 and float(opt.beta2_power.asnumpy()) == 0.75
    # lr_t = 0.1 * sqrt(0.25) / 0.5 = 0.1; w = 1 - 0.1 * 1 / (1 + 1e-8)
    np.testing.assert_allclose(w.asnumpy(), np.full(3, 0.9, np.float32), rtol=1e-6)


@pytest.mark.parametrize("amsgrad", [False, True])
def test_adam_graph_mode_equals_pynative(amsgrad):
    def train(mode):
        ms.set_context(mode=mode)
        try:
            net = nn.Dense(4, 3)
            for p, v in zip(net.trainable_params(), (np.full((3, 4), 0.3, np.float32), np.zeros(3, np.float32))):
                p.set_data(ms.Tensor(v))
            step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                       nn.Adam(net.trainable_params(), learning_rate=0.05, use_nesterov=True,
                                               use_amsgrad=amsgrad))
            x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(2, 4) / 8)
            y = ms.Tensor(np.ones((2, 3), np.float32))
            for _ in range(3):
                step(x, y)
            return [p.asnumpy() for p in net.trainable_params()]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    for g, p in zip(train(ms.GRAPH_MODE), train(ms.PYNATIVE_MODE)):
        np.testing.assert_allclose(g, p, rtol=1e-6, atol=1e-7)


def test_adam_float64_parameters():
    """float64: the Adam primitive; AMSGrad (whose primitive takes float16/float32) the composite formula."""
    for amsgrad in (False, True):
        got, want = _run_float64(
            lambda params: nn.Adam(params, learning_rate=0.1, use_amsgrad=amsgrad),
            lambda init, grads: _adam_oracle(init, grads, [lambda s: F32(0.1)] * 2, [None, None], 1.0, 0.9, 0.999,
                                             1e-8, False, amsgrad))
        for g, w in zip(got, want):
            assert g.dtype == np.float64
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)


# --- SGD: the SGD primitive per parameter ------------------------------------------------------------------------
def _sgd_oracle(init, grads, lrs, decays, loss_scale, momentum, dampening, nesterov):
    dt = init[0].dtype.type
    p = [x.copy() for x in init]
    accum = [np.zeros_like(x) for x in init]
    stat = [np.ones_like(x) for x in init]
    for step, step_grads in enumerate(grads):
        for i, g in enumerate(step_grads):
            if loss_scale != 1.0:
                g = g * dt(F32(1.0 / loss_scale))
            if decays[i] > 0:
                g = g + p[i] * dt(decays[i])
            if momentum > 0:
                mu = dt(F32(momentum))
                later = accum[i] * mu + (dt(1) - dt(dampening)) * g
                accum[i] = np.where(stat[i] > 0, g, later)
                stat[i] = np.zeros_like(stat[i])
                g = g + accum[i] * mu if nesterov else accum[i]
            p[i] = p[i] - dt(lrs[i](step)) * g
    return p


SGD_CASES = [
    # dtype, momentum, dampening, nesterov, weight_decay, loss_scale, lr kind, grouped
    (np.float32, 0.0, 0.0, False, 0.0, 1.0, "fixed", False),
    (np.float32, 0.9, 0.0, False, 0.0, 1.0, "list", False),
    (np.float32, 0.9, 0.1, False, 0.01, 4.0, "fixed", False),
    (np.float32, 0.9, 0.0, True, 0.01, 1.0, "schedule", False),
    (np.float32, 0.8, 0.0, True, 0.02, 2.0, "fixed", True),
    (np.float16, 0.9, 0.0, False, 0.0, 1.0, "fixed", False),
    (np.float16, 0.9, 0.0, True, 0.01, 8.0, "list", True),
]


@pytest.mark.parametrize("dtype,momentum,dampening,nesterov,wd,loss_scale,lr_kind,grouped", SGD_CASES)
def test_sgd_runs_one_primitive_per_parameter_and_gives_the_composite_numbers(monkeypatch, dtype, momentum, dampening,
                                                                               nesterov, wd, loss_scale, lr_kind,
                                                                               grouped):
    counts = []
    original = ops.SGD.__call__
    monkeypatch.setattr(ops.SGD, "__call__", lambda self, *a, **k: counts.append(1) or original(self, *a, **k))
    params = _params(dtype)
    init = [p.asnumpy().copy() for p in params]
    grads = _grads(dtype, [x.shape for x in init])
    lr, spec = _lr_values(lr_kind)
    kwargs = dict(momentum=momentum, dampening=dampening, nesterov=nesterov, loss_scale=loss_scale)
    if grouped:
        group = [{"params": [params[0]], "lr": 0.05, "weight_decay": wd}, {"params": [params[1]]}]
        opt = nn.SGD(group, learning_rate=lr, **kwargs)
        lrs = [lambda s: F32(0.05), lambda s: _lr_at(spec, lr, s)]
        decays = [wd * loss_scale, 0.0]          # group decays are multiplied by the loss scale, as MindSpore's
    else:
        opt = nn.SGD(params, learning_rate=lr, weight_decay=wd, **kwargs)
        lrs = [lambda s: _lr_at(spec, lr, s)] * 2
        decays = [wd, wd]                        # SGD decays every parameter with the raw weight_decay
    got = _run(opt, params, grads)
    _close(got, _sgd_oracle(init, grads, lrs, decays, loss_scale, momentum, dampening, nesterov))
    assert len(counts) == STEPS * len(params)


def test_sgd_float64_parameters_run_the_composite_formula():
    got, want = _run_float64(
        lambda params: nn.SGD(params, learning_rate=0.1, momentum=0.9, nesterov=True),
        lambda init, grads: _sgd_oracle(init, grads, [lambda s: F32(0.1)] * 2, [0.0, 0.0], 1.0, 0.9, 0.0, True))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)


# --- RMSProp (ApplyRMSProp / ApplyCenteredRMSProp) and Adagrad (ApplyAdagrad) ------------------------------------
def _rmsprop_oracle(init, grads, lrs, loss_scale, decay, momentum, epsilon, centered, cpu=True):
    dt = init[0].dtype.type
    p = [x.copy() for x in init]
    ms_ = [np.ones_like(x) for x in init]
    mom = [np.zeros_like(x) for x in init]
    mg = [np.zeros_like(x) for x in init]
    omd, mu, eps = dt(1) - dt(decay), dt(momentum), dt(epsilon)
    for step, step_grads in enumerate(grads):
        for i, g in enumerate(step_grads):
            if loss_scale != 1.0:
                g = g * dt(F32(1.0 / loss_scale))
            lr = dt(lrs[i](step))
            ms_[i] = ms_[i] + (g * g - ms_[i]) * omd
            if not centered:
                root = np.sqrt(ms_[i] + eps)
                if dt is np.float32 and cpu:
                    # 2.10's CPU (nnacl) loop: sqrt(ms) + eps in its 8-lane part, sqrt(ms + eps) after
                    flat, n8 = root.reshape(-1), root.size // 8 * 8
                    flat[:n8] = (np.sqrt(ms_[i]) + eps).reshape(-1)[:n8]
                mom[i] = mom[i] * mu + g * lr / root
                p[i] = p[i] - mom[i]
                continue
            mg[i] = mg[i] + (g - mg[i]) * omd
            denom = ms_[i] - mg[i] * mg[i] + eps
            ok = denom > 0
            new = mom[i] * mu + g * lr / np.sqrt(np.where(ok, denom, dt(1)))
            mom[i] = np.where(ok, new, mom[i])
            p[i] = p[i] - np.where(ok, mom[i], dt(0))
    return p


def _adagrad_oracle(init, grads, lrs, accum0, update_slots):
    dt = init[0].dtype.type
    p = [x.copy() for x in init]
    acc = [np.full_like(x, accum0) for x in init]
    for step, step_grads in enumerate(grads):
        for i, g in enumerate(step_grads):
            if update_slots:
                acc[i] = acc[i] + g * g
            inv = dt(1) / np.sqrt(acc[i] + dt(1e-8))     # 2.10's CPU ApplyAdagrad: 1e-8
            p[i] = p[i] - dt(lrs[i](step)) * g * inv
    return p


def _counting(monkeypatch, cls):
    counts = []
    original = cls.__call__
    monkeypatch.setattr(cls, "__call__", lambda self, *a, **k: counts.append(1) or original(self, *a, **k))
    return counts


RMSPROP_CASES = [(np.float32, False, 0.0, 1.0, "fixed"), (np.float32, True, 0.9, 4.0, "list"),
                 (np.float32, False, 0.5, 1.0, "schedule"), (np.float16, False, 0.9, 1.0, "fixed"),
                 (np.float16, True, 0.0, 2.0, "fixed"), (np.float64, True, 0.9, 1.0, "fixed")]


@pytest.mark.parametrize("dtype,centered,momentum,loss_scale,lr_kind", RMSPROP_CASES)
def test_rmsprop_runs_one_primitive_per_parameter_and_gives_the_composite_numbers(monkeypatch, dtype, centered,
                                                                                   momentum, loss_scale, lr_kind):
    counts = _counting(monkeypatch, ops.ApplyCenteredRMSProp if centered else ops.ApplyRMSProp)
    params = _params(dtype)
    init = [p.asnumpy().copy() for p in params]
    grads = _grads(dtype, [x.shape for x in init])
    lr, spec = _lr_values(lr_kind)
    opt = nn.RMSProp(params, learning_rate=lr, decay=0.8, momentum=momentum, epsilon=1e-6, centered=centered,
                     loss_scale=loss_scale)
    got = _run(opt, params, grads)
    # the optimizer hands decay, momentum and epsilon to the primitive as Python floats, which an operator takes as
    # float32 numbers (MindSpore 2.10): the float64 oracle uses those
    f32 = (lambda v: float(np.float32(v))) if dtype == np.float64 else float
    def want(cpu):
        return _rmsprop_oracle(init, grads, [lambda s: _lr_at(spec, lr, s)] * 2, loss_scale, f32(0.8), f32(momentum),
                               f32(1e-6), centered, cpu)
    if dtype == np.float64:
        for g, w in zip(got, want(True)):
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)
    else:
        _close_to_either(got, want)
    assert len(counts) == STEPS * len(params)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
@pytest.mark.parametrize("update_slots,lr_kind", [(True, "fixed"), (False, "list"), (True, "schedule")])
def test_adagrad_runs_one_primitive_per_parameter_and_gives_the_composite_numbers(monkeypatch, dtype, update_slots,
                                                                                   lr_kind):
    counts = _counting(monkeypatch, ops.ApplyAdagrad)
    params = _params(dtype)
    init = [p.asnumpy().copy() for p in params]
    grads = _grads(dtype, [x.shape for x in init])
    lr, spec = _lr_values(lr_kind)
    got = _run(nn.Adagrad(params, accum=0.1, learning_rate=lr, update_slots=update_slots), params, grads)
    want = _adagrad_oracle(init, grads, [lambda s: _lr_at(spec, lr, s)] * 2, 0.1, update_slots)
    if dtype == np.float64:
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)
    else:
        _close(got, want)
    assert len(counts) == STEPS * len(params)


@pytest.mark.parametrize("make", [
    lambda ps: nn.Adam(ps, 0.1),
    lambda ps: nn.Adam(ps, 0.1, use_amsgrad=True),
    lambda ps: nn.AdamWeightDecay(ps, 0.1, weight_decay=0.01),
    lambda ps: nn.SGD(ps, 0.1, momentum=0.9),
    lambda ps: nn.RMSProp(ps, 0.1, momentum=0.9),
    lambda ps: nn.RMSProp(ps, 0.1, centered=True),
    lambda ps: nn.Adagrad(ps, learning_rate=0.1),
], ids=["adam", "amsgrad", "adam_weight_decay", "sgd", "rmsprop", "rmsprop_centered", "adagrad"])
def test_zero_dimensional_parameters_update_as_one_element_ones(make):
    """A 0-d parameter (a learnable scalar, e.g. a temperature) takes the same update as a one-element vector
    (the in-place kernels work on 0-d arrays, where NumPy's ufuncs return scalars)."""
    scalar = ms.Parameter(ms.Tensor(np.float32(0.7)), name="t")
    vector = ms.Parameter(ms.Tensor(np.array([0.7], np.float32)), name="u")
    opt_s, opt_v = make([scalar]), make([vector])
    for g in (0.3, -1.2, 0.5):
        opt_s((ms.Tensor(np.float32(g)),))
        opt_v((ms.Tensor(np.array([g], np.float32)),))
    assert scalar.shape == ()
    np.testing.assert_array_equal(scalar.asnumpy().reshape(1), vector.asnumpy())
    assert scalar.asnumpy() != np.float32(0.7)
