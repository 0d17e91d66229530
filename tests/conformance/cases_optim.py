"""Cases for the optim family: the optimizer updates (``Apply*``, ``SparseApply*``, ``FusedSparse*``, ``Adam``,
``AdamWeightDecay``, ``SGD``, ``FusedAdaFactor``, ``LARSUpdate``, ...).

Each case makes Parameters of its state inputs (so it runs eagerly only: graph-mode writes to Parameters are
tested in ``tests/ops/test_optim_primitives.py``), calls the primitive once, and returns its outputs followed by
every state after the call. The oracles are plain NumPy (float64) written from MindSpore's formulas; where
MindSpore's CPU kernels refine a formula (ApplyAdagrad's ``sqrt(accum + 1e-6)``, the proximal step of
ApplyProximalAdagrad at rate ``lr / sqrt(accum)``, ApplyCenteredRMSProp skipping elements whose denominator is
not positive, repeated sparse indices summed), the oracle does the same.
"""
import numpy as np

import mindspore as ms
from mindspore import ops

from case import Case, rand, randpos

TOL = {"rtol": 2e-5, "atol": 2e-6}


def _run(make_prim, spec):
    """``spec``: per primitive argument, ``"p"`` (a Parameter made from the next input), ``"t"`` (the next input
    as a tensor) or a constant. Returns ``op(*inputs)`` -> (outputs..., each Parameter after the call)."""
    def op(*inputs):
        it = iter(inputs)
        args, params = [], []
        for i, s in enumerate(spec):
            if isinstance(s, str) and s == "p":
                params.append(ms.Parameter(next(it), name=f"state{i}"))
                args.append(params[-1])
            elif isinstance(s, str) and s == "t":
                args.append(next(it))
            else:
                args.append(s)
        res = make_prim()(*args)
        res = res if isinstance(res, tuple) else (res,)
        return tuple(res) + tuple(ops.identity(p) for p in params)
    return op


def _oracle(fn, spec, returns):
    """``fn(*args)`` (args in the primitive's order, constants filled in) -> {position: new value};
    outputs are the values at ``returns`` (positions, or an array for a computed output), then every state."""
    def oracle(*inputs):
        it = iter(inputs)
        args = [np.asarray(next(it), np.float64) if isinstance(s, str) else s for s in spec]
        new = fn(*args)
        states = [new.get(i, args[i]) for i, s in enumerate(spec) if isinstance(s, str) and s == "p"]
        outs = [new[r] if r in new else args[r] for r in returns]
        return tuple(outs) + tuple(states)
    return oracle


def _case(name, make_prim, spec, inputs, fn, returns, prim_name, **kw):
    return Case(name, _run(make_prim, spec), inputs, oracle=_oracle(fn, spec, returns), prims=[prim_name],
                modes=("pynative",), **{**TOL, **kw})


def _coalesce(rows, idx, n):
    idx = np.asarray(idx).astype(np.int64)
    keep = (idx >= 0) & (idx < n)
    uniq = np.unique(idx[keep])
    summed = np.stack([rows[keep][idx[keep] == u].sum(axis=0) for u in uniq]) if len(uniq) else rows[:0]
    return uniq, summed


def _sparse(dense_fn, states):
    """A dense update applied to the rows named by the indices (last argument; rows of the gradient before it)."""
    def fn(*args):
        args = list(args)
        idx, rows = args[-1], args[-2]
        uniq, summed = _coalesce(rows, idx, args[states[0]].shape[0])
        sub = list(args)
        for s in states:
            sub[s] = args[s][uniq]
        sub[-2] = summed
        new = dense_fn(*sub)
        out = {}
        for s in states:
            full = args[s].copy()
            full[uniq] = new.get(s, sub[s])
            out[s] = full
        return out
    return fn


# --- oracles (positions follow each primitive's inputs) ----------------------------------------------
def _adamax(var, m, v, b1p, lr, b1, b2, eps, g):
    m = b1 * m + (1 - b1) * g
    v = np.maximum(b2 * v, np.abs(g))
    return {0: var - lr / (1 - b1p) * m / (v + eps), 1: m, 2: v}


def _adadelta(var, acc, upd, lr, rho, eps, g):
    acc = rho * acc + (1 - rho) * g * g
    step = np.sqrt(upd + eps) * g / np.sqrt(acc + eps)
    return {0: var - lr * step, 1: acc, 2: rho * upd + (1 - rho) * step * step}


def _adagrad(update_slots=True, eps=None, extra=1e-6):
    def fn(var, acc, lr, g):
        acc = acc + g * g if update_slots else acc
        denom = np.sqrt(acc + extra) if eps is None else np.sqrt(acc) + eps
        return {0: var - lr * g / denom, 1: acc}
    return fn


def _adagrad_da(var, ga, gsa, g, lr, l1, l2, step):
    ga, gsa = ga + g, gsa + g * g
    tmp = np.sign(ga) * np.maximum(np.abs(ga) - l1 * step, 0) if l1 > 0 else ga
    return {0: -lr * tmp / (l2 * step * lr + np.sqrt(gsa)), 1: ga, 2: gsa}


def _amsgrad(b1, b2, eps):
    def fn(var, m, v, vhat, b1p, b2p, lr, g):
        return _amsgrad_v2(var, m, v, vhat, b1p, b2p, lr, b1, b2, eps, g)
    return fn


def _amsgrad_v2(var, m, v, vhat, b1p, b2p, lr, b1, b2, eps, g):
    lr_t = lr * np.sqrt(1 - b2p) / (1 - b1p)
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    vhat = np.maximum(vhat, v)
    return {0: var - lr_t * m / (np.sqrt(vhat) + eps), 1: m, 2: v, 3: vhat}


def _add_sign(var, m, lr, alpha, decay, beta, g):
    m = beta * m + (1 - beta) * g
    return {0: var - lr * (alpha + decay * np.sign(g) * np.sign(m)) * g, 1: m}


def _power_sign(var, m, lr, logbase, decay, beta, g):
    m = beta * m + (1 - beta) * g
    return {0: var - lr * np.exp(logbase * decay * np.sign(g) * np.sign(m)) * g, 1: m}


def _centered_rmsprop(var, mg, ms_, mom, g, lr, rho, mu, eps):
    mg = rho * mg + (1 - rho) * g
    ms_ = rho * ms_ + (1 - rho) * g * g
    denom = ms_ - mg * mg + eps
    ok = denom > 0
    new_mom = np.where(ok, mu * mom + lr * g / np.sqrt(np.where(ok, denom, 1)), mom)
    return {0: np.where(ok, var - new_mom, var), 1: mg, 2: ms_, 3: new_mom}


def _rmsprop(var, ms_, mom, lr, g, rho, mu, eps):
    ms_ = rho * ms_ + (1 - rho) * g * g
    mom = mu * mom + lr * g / np.sqrt(ms_ + eps)
    return {0: var - mom, 1: ms_, 2: mom}


def _ftrl_math(var, acc, lin, g, lr, l1, l2, lr_power, shrink=0.0):
    new_acc = acc + g * g
    lin = lin + g + 2 * shrink * var - (new_acc ** -lr_power - acc ** -lr_power) / lr * var
    quad = new_acc ** -lr_power / lr + 2 * l2
    var = np.where(np.abs(lin) > l1, (np.sign(lin) * l1 - lin) / quad, 0.0)
    return {0: var, 1: new_acc, 2: lin}


def _prox(p, rate, l1, l2):
    return np.sign(p) * np.maximum(np.abs(p) - rate * l1, 0) / (1 + rate * l2)


def _proximal_adagrad(var, acc, lr, l1, l2, g):
    acc = acc + g * g
    rate = lr / np.sqrt(acc)
    return {0: _prox(var - rate * g, rate, l1, l2), 1: acc}


def _keras_momentum(nesterov):
    def fn(var, acc, lr, g, mu):
        acc = acc * mu - g * lr
        return {0: var + acc * mu - g * lr if nesterov else var + acc, 1: acc}
    return fn


def _adam(nesterov, has_var=True):
    def fn(*args):
        if not has_var:
            args = (None,) + args
        var, m, v, b1p, b2p, lr, b1, b2, eps, g = args[:10]
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        lr_t = lr * np.sqrt(1 - b2p) / (1 - b1p)
        step = lr_t * (b1 * m + (1 - b1) * g if nesterov else m) / (np.sqrt(v) + eps)
        if not has_var:
            return {0: m, 1: v, "out": -step}
        return {0: var - step, 1: m, 2: v}
    return fn


def _adam_wd(var, m, v, lr, b1, b2, eps, decay, g, norm=1.0):
    g = g / norm
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    return {0: var - lr * (m / (np.sqrt(v) + eps) + decay * var), 1: m, 2: v}


def _sgd(dampening, wd, nesterov):
    def fn(p, g, lr, acc, mu, stat):
        g = g + wd * p if wd > 0 else g
        out = {}
        if mu > 0:
            acc = np.where(stat > 0, g, acc * mu + (1 - dampening) * g)
            out[3], out[5] = acc, np.where(stat > 0, 0.0, stat)
            g = g + mu * acc if nesterov else acc
        out[0] = p - lr * g
        return out
    return fn


def _lars(eps, hyper, clip):
    def fn(w, g, nw, ng, wd, lr):
        wn, gn = np.sqrt(nw), np.sqrt(ng)
        ratio = hyper * wn / (gn + wd * wn + eps)
        if clip:
            ratio = min(ratio / lr, 1.0)
        ratio = ratio if wn > 0 and gn > 0 else 1.0
        return {"out": ratio * (g + wd * w)}
    return fn


def _rms(x):
    return np.sqrt(np.mean(x * x))


def _ada_factor(scale_param, first_moment, weight_decay, with_norm=False):
    def fn(eps, clip, b1, b2t, wd, lr, g, param, exp_avg, row, col, sq, *norm):
        if with_norm and norm[0] >= 1e-30:
            g = g / norm[0]
        upd = g * g + eps[0]
        out = {}
        if param.ndim >= 2:
            row = row * b2t + upd.mean(-1) * (1 - b2t)
            col = np.maximum(col * b2t + upd.mean(-2) * (1 - b2t), 1e-30)
            r = np.sqrt(row / np.maximum(row.mean(-1, keepdims=True), 1e-30))
            upd = g / np.maximum(r[..., :, None] * np.sqrt(col)[..., None, :], 1e-30)
            out[9], out[10] = row, col
        else:
            sq = np.maximum(sq * b2t + upd * (1 - b2t), 1e-30)
            upd = g / np.sqrt(sq)
            out[11] = sq
        if scale_param:
            lr = lr * max(eps[1], _rms(param))
        upd = upd * lr / max(_rms(upd) / clip, 1.0)
        if first_moment:
            upd = exp_avg * b1 + upd * (1 - b1)
            out[8] = upd
        out[7] = param - upd - (param * wd * lr if weight_decay else 0)
        return out
    return fn


def _weight_scale_momentum(wd, scale, var, acc, lr, g, mu):
    g = (var * wd + g) * scale
    acc = mu * acc + g
    return {2: var - lr * acc, 3: acc}


S = (3, 4)
V, A, G, M = rand(*S, seed=1), randpos(*S, seed=2), rand(*S, seed=3), rand(*S, seed=4)
P2, P3, L = randpos(*S, seed=5), randpos(*S, seed=6), rand(*S, seed=7)
ROWS, IDX = rand(4, 4, seed=8), np.array([2, 0, 2, 7], np.int32)      # a repeated and an out-of-range index
ROWS_U, IDX_U = rand(2, 4, seed=9), np.array([2, 0], np.int64)


def _dense_cases():
    return [
        _case("apply_ada_max", ops.ApplyAdaMax, ["p", "p", "p", 0.9, 0.01, 0.9, 0.99, 1e-6, "t"], [V, M, P2, G],
              _adamax, [0, 1, 2], "ApplyAdaMax"),
        _case("apply_adadelta", ops.ApplyAdadelta, ["p", "p", "p", 0.01, 0.9, 1e-6, "t"], [V, P2, P3, G],
              _adadelta, [0, 1, 2], "ApplyAdadelta"),
        _case("apply_adagrad", ops.ApplyAdagrad, ["p", "p", 0.01, "t"], [V, P2, G], _adagrad(), [0, 1],
              "ApplyAdagrad", dtypes=(np.float32, np.float64)),
        _case("apply_adagrad_no_slots", lambda: ops.ApplyAdagrad(update_slots=False), ["p", "p", 0.01, "t"],
              [V, P2, G], _adagrad(update_slots=False), [0, 1], "ApplyAdagrad"),
        _case("apply_adagrad_v2", lambda: ops.ApplyAdagradV2(epsilon=1e-6), ["p", "p", 0.01, "t"], [V, P2, G],
              _adagrad(eps=1e-6), [0, 1], "ApplyAdagradV2"),
        _case("apply_adagrad_da", ops.ApplyAdagradDA, ["p", "p", "p", "t", 0.01, 0.05, 0.02, 3], [V, M, P2, G],
              _adagrad_da, [0], "ApplyAdagradDA"),
        _case("apply_adam_with_amsgrad", lambda: ops.ApplyAdamWithAmsgrad(0.8, 0.95, 1e-7),
              ["p", "p", "p", "p", 0.8, 0.95, 0.01, "t"], [V, M, P2, P3, G], _amsgrad(0.8, 0.95, 1e-7),
              [0, 1, 2, 3], "ApplyAdamWithAmsgrad"),
        _case("apply_adam_with_amsgrad_v2", ops.ApplyAdamWithAmsgradV2,
              ["p", "p", "p", "p", 0.8, 0.95, 0.01, 0.8, 0.95, 1e-7, "t"], [V, M, P2, P3, G], _amsgrad_v2,
              [0, 1, 2, 3], "ApplyAdamWithAmsgradV2", dtypes=(np.float32, np.float64)),
        _case("apply_add_sign", ops.ApplyAddSign, ["p", "p", 0.01, 1.0, 0.5, 0.9, "t"], [V, M, G], _add_sign,
              [0, 1], "ApplyAddSign"),
        _case("apply_power_sign", ops.ApplyPowerSign, ["p", "p", 0.01, float(np.e), 0.5, 0.9, "t"], [V, M, G],
              _power_sign, [0, 1], "ApplyPowerSign"),
        _case("apply_centered_rms_prop", ops.ApplyCenteredRMSProp, ["p", "p", "p", "p", "t", 0.01, 0.9, 0.8, 1e-6],
              [V, M, P2, L, G], _centered_rmsprop, [0], "ApplyCenteredRMSProp"),
        _case("apply_rms_prop", ops.ApplyRMSProp, ["p", "p", "p", 0.01, "t", 0.9, 0.8, 1e-6], [V, P2, M, G],
              _rmsprop, [0], "ApplyRMSProp"),
        _case("apply_ftrl", ops.ApplyFtrl, ["p", "p", "p", "t", 0.01, 0.01, 0.02, -0.5], [V, P2, L, G],
              _ftrl_math, [0], "ApplyFtrl", rtol=1e-4, atol=1e-5),
        _case("apply_gradient_descent", ops.ApplyGradientDescent, ["p", 0.01, "t"], [V, G],
              lambda var, a, d: {0: var - a * d}, [0], "ApplyGradientDescent"),
        _case("apply_proximal_gradient_descent", ops.ApplyProximalGradientDescent, ["p", 0.1, 0.5, 0.2, "t"],
              [V, G], lambda var, a, l1, l2, d: {0: _prox(var - a * d, a, l1, l2)}, [0],
              "ApplyProximalGradientDescent"),
        _case("apply_proximal_adagrad", ops.ApplyProximalAdagrad, ["p", "p", 0.01, 0.05, 0.02, "t"], [V, P2, G],
              _proximal_adagrad, [0, 1], "ApplyProximalAdagrad"),
        _case("apply_keras_momentum", ops.ApplyKerasMomentum, ["p", "p", 0.01, "t", 0.9], [V, M, G],
              _keras_momentum(False), [0, 1], "ApplyKerasMomentum"),
        _case("apply_keras_momentum_nesterov", lambda: ops.ApplyKerasMomentum(use_nesterov=True),
              ["p", "p", 0.01, "t", 0.9], [V, M, G], _keras_momentum(True), [0, 1], "ApplyKerasMomentum"),
        _case("fused_weight_scale_apply_momentum", ops.FusedWeightScaleApplyMomentum,
              [0.01, 0.5, "p", "p", 0.1, "t", 0.9], [V, M, G], _weight_scale_momentum, [2],
              "FusedWeightScaleApplyMomentum"),
    ]


def _adam_cases():
    adam_args = [0.8, 0.95, 0.01, 0.9, 0.999, 1e-8]
    return [
        _case("adam", ops.Adam, ["p", "p", "p", *adam_args, "t"], [V, M, P2, G], _adam(False), [0, 1, 2], "Adam",
              dtypes=(np.float32, np.float64)),
        _case("adam_nesterov", lambda: ops.Adam(use_nesterov=True), ["p", "p", "p", *adam_args, "t"], [V, M, P2, G],
              _adam(True), [0, 1, 2], "Adam"),
        _case("adam_no_update_param", ops.AdamNoUpdateParam, ["p", "p", *adam_args, "t"], [M, P2, G],
              _adam(False, has_var=False), ["out"], "AdamNoUpdateParam"),
        _case("adam_weight_decay", ops.AdamWeightDecay, ["p", "p", "p", 0.01, 0.9, 0.999, 1e-8, 0.01, "t"],
              [V, M, P2, G], _adam_wd, [0, 1, 2], "AdamWeightDecay"),
        _case("fused_cast_adam_weight_decay", ops.FusedCastAdamWeightDecay,
              ["p", "p", "p", 0.01, 0.9, 0.999, 1e-8, 0.01, "t", 2.0], [V, M, P2, G], _adam_wd, [0, 1, 2],
              "FusedCastAdamWeightDecay"),
        _case("sgd", ops.SGD, ["p", "t", 0.01, "p", 0.9, "p"], [V, G, M, np.eye(3, 4)], _sgd(0.0, 0.0, False),
              [0], "SGD"),
        _case("sgd_dampening_decay", lambda: ops.SGD(0.1, 0.01), ["p", "t", 0.01, "p", 0.9, "p"],
              [V, G, M, np.zeros(S)], _sgd(0.1, 0.01, False), [0], "SGD"),
        _case("sgd_nesterov", lambda: ops.SGD(nesterov=True), ["p", "t", 0.01, "p", 0.9, "p"],
              [V, G, M, np.zeros(S)], _sgd(0.0, 0.0, True), [0], "SGD"),
        _case("lars_update", ops.LARSUpdate, ["t", "t", float(np.sum(V * V)), float(np.sum(G * G)), 0.01, 0.1],
              [V, G], _lars(1e-5, 0.001, False), ["out"], "LARSUpdate"),
        _case("lars_update_clip", lambda: ops.LARSUpdate(1e-5, 0.001, True),
              ["t", "t", float(np.sum(V * V)), float(np.sum(G * G)), 0.01, 0.1], [V, G], _lars(1e-5, 0.001, True),
              ["out"], "LARSUpdate"),
    ]


def _ada_factor_cases():
    eps = np.array([1e-30, 1e-3])
    spec = ["t", 1.0, 0.9, 0.8, 0.01, 0.01, "t", "p", "p", "p", "p", "p"]
    inputs = [eps, G, V, M, P2[:, 0], P3[0], P2]
    return [
        _case("fused_ada_factor", ops.FusedAdaFactor, spec, inputs, _ada_factor(False, False, False), [7],
              "FusedAdaFactor", rtol=1e-4, atol=1e-5),
        _case("fused_ada_factor_all", lambda: ops.FusedAdaFactor(True, True, True), spec, inputs,
              _ada_factor(True, True, True), [7], "FusedAdaFactor", rtol=1e-4, atol=1e-5),
        _case("fused_ada_factor_vector", ops.FusedAdaFactor, spec, [eps, G[0], V[0], M[0], P2[0], P3[0], P2[0]],
              _ada_factor(False, False, False), [7], "FusedAdaFactor", rtol=1e-4, atol=1e-5),
        _case("fused_ada_factor_global_norm", ops.FusedAdaFactorWithGlobalNorm, spec + [2.0], inputs,
              _ada_factor(False, False, False, with_norm=True), [7], "FusedAdaFactorWithGlobalNorm",
              rtol=1e-4, atol=1e-5),
    ]


def _sparse_cases():
    adam_args = [0.8, 0.95, 0.01, 0.9, 0.999, 1e-8]

    def dense_adam_rows(*args):        # FusedSparseAdam: every row moves, the gradient is zero where not given
        args = list(args)
        uniq, summed = _coalesce(args[-2], args[-1], args[0].shape[0])
        dense = np.zeros_like(args[0])
        dense[uniq] = summed
        return _adam(False)(*args[:9], dense)

    return [
        _case("fused_sparse_adam", ops.FusedSparseAdam, ["p", "p", "p", *adam_args, "t", "t"],
              [V, M, P2, ROWS, IDX], dense_adam_rows, [0, 1, 2], "FusedSparseAdam"),
        _case("fused_sparse_lazy_adam", ops.FusedSparseLazyAdam, ["p", "p", "p", *adam_args, "t", "t"],
              [V, M, P2, ROWS, IDX], _sparse(lambda *a: _adam(False)(*a[:10]), [0, 1, 2]), [0, 1, 2],
              "FusedSparseLazyAdam"),
        _case("fused_sparse_ftrl", lambda: ops.FusedSparseFtrl(0.01, 0.01, 0.02, -0.5), ["p", "p", "p", "t", "t"],
              [V, P2, L, ROWS, IDX], _sparse(lambda v, a, l, g, i: _ftrl_math(v, a, l, g, 0.01, 0.01, 0.02, -0.5),
                                             [0, 1, 2]), [0, 1, 2], "FusedSparseFtrl", rtol=1e-4, atol=1e-5),
        _case("sparse_apply_ftrl", lambda: ops.SparseApplyFtrl(0.01, 0.01, 0.02, -0.5), ["p", "p", "p", "t", "t"],
              [V, P2, L, ROWS_U, IDX_U], _sparse(lambda v, a, l, g, i: _ftrl_math(v, a, l, g, 0.01, 0.01, 0.02, -0.5),
                                                 [0, 1, 2]), [0, 1, 2], "SparseApplyFtrl", rtol=1e-4, atol=1e-5),
        _case("sparse_apply_ftrl_v2", lambda: ops.SparseApplyFtrlV2(0.01, 0.01, 0.02, 0.1, -0.5),
              ["p", "p", "p", "t", "t"], [V, P2, L, ROWS, IDX],
              _sparse(lambda v, a, l, g, i: _ftrl_math(v, a, l, g, 0.01, 0.01, 0.02, -0.5, shrink=0.1), [0, 1, 2]),
              [0, 1, 2], "SparseApplyFtrlV2", rtol=1e-4, atol=1e-5),
        _case("fused_sparse_proximal_adagrad", ops.FusedSparseProximalAdagrad, ["p", "p", 0.01, 0.05, 0.02, "t", "t"],
              [V, P2, ROWS, IDX], _sparse(lambda v, a, lr, l1, l2, g, i: _proximal_adagrad(v, a, lr, l1, l2, g),
                                          [0, 1]), [0, 1], "FusedSparseProximalAdagrad"),
        _case("sparse_apply_proximal_adagrad", ops.SparseApplyProximalAdagrad,
              ["p", "p", 0.01, 0.05, 0.02, "t", "t"], [V, P2, ROWS_U, IDX_U],
              _sparse(lambda v, a, lr, l1, l2, g, i: _proximal_adagrad(v, a, lr, l1, l2, g), [0, 1]), [0, 1],
              "SparseApplyProximalAdagrad"),
        _case("sparse_apply_adagrad", lambda: ops.SparseApplyAdagrad(0.01), ["p", "p", "t", "t"], [V, P2, ROWS, IDX],
              _sparse(lambda v, a, g, i: _adagrad(extra=0.0)(v, a, 0.01, g), [0, 1]), [0, 1], "SparseApplyAdagrad"),
        _case("sparse_apply_adagrad_v2", lambda: ops.SparseApplyAdagradV2(0.01, 1e-6, update_slots=False),
              ["p", "p", "t", "t"], [V, P2, ROWS, IDX],
              _sparse(lambda v, a, g, i: _adagrad(update_slots=False, eps=1e-6)(v, a, 0.01, g), [0, 1]), [0, 1],
              "SparseApplyAdagradV2"),
        _case("sparse_apply_adadelta", lambda: ops.SparseApplyAdadelta(1e-6), ["p", "p", "p", 0.01, 0.9, "t", "t"],
              [V, P2, P3, ROWS, IDX], _sparse(lambda v, a, u, lr, rho, g, i: _adadelta(v, a, u, lr, rho, 1e-6, g),
                                              [0, 1, 2]), [0, 1, 2], "SparseApplyAdadelta"),
        _case("sparse_apply_rms_prop", lambda: ops.SparseApplyRMSProp(0.9, 0.8, 1e-6), ["p", "p", "p", 0.01, "t", "t"],
              [V, P2, M, ROWS, IDX], _sparse(lambda v, s, m, lr, g, i: _rmsprop(v, s, m, lr, g, 0.9, 0.8, 1e-6),
                                             [0, 1, 2]), [0, 1, 2], "SparseApplyRMSProp"),
    ]


CASES = _dense_cases() + _adam_cases() + _ada_factor_cases() + _sparse_cases()
