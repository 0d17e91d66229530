"""The kernels of the optim family: the optimizer updates (``Apply*``, ``SparseApply*``, ``FusedSparse*``, ``Adam``,
``SGD``, ``FusedAdaFactor``, ...), bound (:func:`mindspore_array_kernels.bind`) with ``xp``, the array library, and
the backend's way with the state buffers: ``dev`` (an operand as an ``xp`` array), ``scalar(v, dt)`` (a number or
one-element tensor as a 0-d ``xp`` value of ``dt``), ``store(dst, value)`` (``value`` written into the buffer
``dst`` in place, cast to its dtype, returning ``dst``), ``scatter_rows(dst, rows, value)`` (``dst[rows] = value``
in place) and ``result(buf)`` (a state buffer as an output).

Every kernel is one update formula (``_f_<name>``: named inputs in, new values of the written states out) run
by :func:`_kernel`, which

* binds the inputs to the primitive's ``io_spec`` names, computes in the states' dtype (float16 in float32),
  numbers and one-element tensors as 0-d values of that dtype;
* for a sparse gradient (``rows`` + ``indices``): drops out-of-range indices and sums the rows of repeated ones
  (as MindSpore's CPU kernels do), then runs the formula on the addressed rows of the states only, or, for
  ``FusedSparseAdam``, on whole states with the gradient scattered into zeros;
* writes the new values into the state buffers in place (the Parameters' own buffers) and returns the buffers
  the primitive's ``returns`` names, or the computed result of the two that write nothing back as output
  (``AdamNoUpdateParam``, ``LARSUpdate``).

These are the generic kernels; each backend replaces the hot ones (``Adam``, ``SGD``, ``ApplyRMSProp``, ...) with
its own after binding (the CPU: in place in MindSpore's CPU order; the GPU: one fused kernel per parameter), which
fall back to these for what they do not take.
"""
import numpy as np

BOUND = ("xp", "dev", "scalar", "store", "scatter_rows", "result")

_F16 = np.dtype(np.float16)
_DENSIFY = frozenset({"FusedSparseAdam"})
_TINY = 1e-30


def _compute_dtype(arrays):
    dt = np.result_type(*[a.dtype for a in arrays])
    return np.dtype(np.float32) if dt == _F16 or dt.kind not in "fc" else dt


def _wide(a, dt):
    return dev(a).astype(dt, copy=False)


def _zeros(shape, dt):
    return xp.zeros(shape, dt)


def _coalesce(rows, indices, n):
    """Valid indices, deduplicated, and their rows summed."""
    idx = dev(indices).astype(np.int64).reshape(-1)
    keep = (idx >= 0) & (idx < n)
    idx, rows = idx[keep], rows[keep]
    uniq, inv = xp.unique(idx, return_inverse=True)
    summed = _zeros((uniq.shape[0],) + rows.shape[1:], rows.dtype)
    xp.add.at(summed, inv.reshape(-1), rows)
    return uniq, summed


def _kernel(formula):
    def kernel(prim, *inputs, out=None):
        spec = prim.io_spec
        bufs = dict(zip((n for n, _ in spec), inputs))
        tensors = [bufs[n] for n, k in spec if k in ("ref", "grad", "rows")]
        dt = _compute_dtype(tensors)
        a = {}
        for name, kind in spec:
            v = bufs[name]
            if kind in ("scalar", "pair"):
                a[name] = scalar(v, dt) if kind == "scalar" else _wide(v, dt)
            elif kind == "step":
                a[name] = scalar(v, dt)
            elif kind == "indices":
                a[name] = v
            else:
                a[name] = _wide(v, dt)
        refs = [n for n, k in spec if k in ("ref", "free")]
        rows_name = next((n for n, k in spec if k == "rows"), None)
        if rows_name is None:
            new = formula(prim, a)
            if "_out" in new:      # AdamNoUpdateParam, LARSUpdate: the result is computed, not a state
                for name in refs:
                    if name in new:
                        store(bufs[name], new[name])
                return new["_out"].astype(out.dtype.to_numpy() if out is not None else dt)
            for name, value in new.items():
                store(bufs[name], value)
        else:
            idx_name = next(n for n, k in spec if k == "indices")
            primary = next(n for n, k in spec if k == "ref")
            uniq, summed = _coalesce(a[rows_name], a[idx_name], bufs[primary].shape[0])
            if prim.name in _DENSIFY:
                dense = _zeros(bufs[primary].shape, dt)
                dense[uniq] = summed
                a[rows_name] = dense
                for name, value in formula(prim, a).items():
                    store(bufs[name], value)
            else:
                for name in refs:
                    a[name] = a[name][uniq]
                a[rows_name] = summed
                for name, value in formula(prim, a).items():
                    scatter_rows(bufs[name], uniq, value)
        results = tuple(result(bufs[n]) for n in prim.returns)
        return results[0] if len(results) == 1 else results
    return kernel


# --- formulas (``a``: the inputs by name, in the compute dtype) -----------------------------------------
def _f_adamax(prim, a):
    g = a["grad"]
    m = a["beta1"] * a["m"] + (1 - a["beta1"]) * g
    v = xp.maximum(a["beta2"] * a["v"], xp.abs(g))
    var = a["var"] - a["lr"] / (1 - a["beta1_power"]) * (m / (v + a["epsilon"]))
    return {"var": var, "m": m, "v": v}


def _f_adadelta(prim, a):
    g, rho = a["grad"], a["rho"]
    eps = a["epsilon"] if "epsilon" in a else xp.asarray(prim.epsilon, g.dtype)
    accum = rho * a["accum"] + (1 - rho) * g * g
    update = xp.sqrt(a["accum_update"] + eps) * g / xp.sqrt(accum + eps)
    accum_update = rho * a["accum_update"] + (1 - rho) * update * update
    return {"var": a["var"] - a["lr"] * update, "accum": accum, "accum_update": accum_update}


def _f_adagrad(prim, a, lr=None, eps=None):
    """``eps=None``: ApplyAdagrad, whose CPU kernel divides by ``sqrt(accum + 1e-8)`` (MindSpore 2.10)."""
    g = a["grad"]
    lr = a["lr"] if lr is None else lr
    accum = a["accum"] + g * g if prim.update_slots else a["accum"]
    denom = xp.sqrt(accum + xp.asarray(1e-8, g.dtype)) if eps is None else xp.sqrt(accum) + eps
    return {"var": a["var"] - lr * g / denom, "accum": accum}


def _f_adagrad_v2(prim, a):
    return _f_adagrad(prim, a, eps=xp.asarray(prim.epsilon, a["grad"].dtype))


def _f_sparse_adagrad(prim, a):
    dt = a["grad"].dtype
    eps = xp.asarray(prim.epsilon, dt) if hasattr(prim, "epsilon") else None
    return _f_adagrad(prim, a, lr=xp.asarray(prim.lr, dt), eps=xp.asarray(0, dt) if eps is None else eps)


def _f_adagrad_da(prim, a):
    g, step = a["grad"], a["global_step"]
    ga = a["gradient_accumulator"] + g
    gsa = a["gradient_squared_accumulator"] + g * g
    l1, l2, lr = a["l1"], a["l2"], a["lr"]
    tmp = xp.sign(ga) * xp.maximum(xp.abs(ga) - l1 * step, 0) if float(l1) > 0 else ga
    var = -lr * tmp / (l2 * step * lr + xp.sqrt(gsa))
    return {"var": var, "gradient_accumulator": ga, "gradient_squared_accumulator": gsa}


def _amsgrad(a, beta1, beta2, eps):
    g = a["grad"]
    lr = a["lr"] * xp.sqrt(1 - a["beta2_power"]) / (1 - a["beta1_power"])
    m = beta1 * a["m"] + (1 - beta1) * g
    v = beta2 * a["v"] + (1 - beta2) * g * g
    vhat = xp.maximum(a["vhat"], v)
    return {"var": a["var"] - lr * m / (xp.sqrt(vhat) + eps), "m": m, "v": v, "vhat": vhat}


def _f_amsgrad(prim, a):
    dt = a["grad"].dtype
    return _amsgrad(a, *(xp.asarray(x, dt) for x in (prim.beta1, prim.beta2, prim.epsilon)))


def _f_amsgrad_v2(prim, a):
    return _amsgrad(a, a["beta1"], a["beta2"], a["epsilon"])


def _sign_update(a, scale_of):
    g = a["grad"]
    m = a["beta"] * a["m"] + (1 - a["beta"]) * g
    return {"var": a["var"] - a["lr"] * scale_of(xp.sign(g) * xp.sign(m)) * g, "m": m}


def _f_add_sign(prim, a):
    return _sign_update(a, lambda s: a["alpha"] + a["sign_decay"] * s)


def _f_power_sign(prim, a):
    return _sign_update(a, lambda s: xp.exp(a["logbase"] * a["sign_decay"] * s))


def _f_centered_rmsprop(prim, a):
    """Where ``ms - mg^2 + eps <= 0`` the moment and the variable keep their values (MindSpore's kernels)."""
    g, rho = a["grad"], a["decay"]
    mg = rho * a["mean_gradient"] + (1 - rho) * g
    ms = rho * a["mean_square"] + (1 - rho) * g * g
    denom = ms - mg * mg + a["epsilon"]
    ok = denom > 0
    step = a["learning_rate"] * g / xp.sqrt(xp.where(ok, denom, xp.ones_like(denom)))
    mom = xp.where(ok, a["momentum"] * a["moment"] + step, a["moment"])
    var = xp.where(ok, a["var"] - mom, a["var"])
    return {"var": var, "mean_gradient": mg, "mean_square": ms, "moment": mom}


def _rmsprop(var, ms, mom, g, lr, rho, momentum, eps):
    ms = rho * ms + (1 - rho) * g * g
    mom = momentum * mom + lr * g / xp.sqrt(ms + eps)
    return var - mom, ms, mom


def _f_rmsprop(prim, a):
    var, ms, mom = _rmsprop(a["var"], a["mean_square"], a["moment"], a["grad"], a["learning_rate"], a["decay"],
                            a["momentum"], a["epsilon"])
    return {"var": var, "mean_square": ms, "moment": mom}


def _f_sparse_rmsprop(prim, a):
    dt = a["grad"].dtype
    rho, momentum, eps = (xp.asarray(x, dt) for x in (prim.rho, prim.momentum, prim.epsilon))
    var, ms, mom = _rmsprop(a["var"], a["ms"], a["mom"], a["grad"], a["lr"], rho, momentum, eps)
    return {"var": var, "ms": ms, "mom": mom}


def _ftrl(a, lr, l1, l2, lr_power, shrinkage=None):
    var, accum, g = a["var"], a["accum"], a["grad"]
    accum_new = accum + g * g
    g_lin = g if shrinkage is None else g + 2 * shrinkage * var
    p_new, p_old = xp.power(accum_new, -lr_power), xp.power(accum, -lr_power)
    linear = a["linear"] + g_lin - (p_new - p_old) / lr * var
    quadratic = p_new / lr + 2 * l2
    var = xp.where(xp.abs(linear) > l1, (xp.sign(linear) * l1 - linear) / quadratic, xp.zeros_like(linear))
    return {"var": var, "accum": accum_new, "linear": linear}


def _f_ftrl(prim, a):
    return _ftrl(a, a["lr"], a["l1"], a["l2"], a["lr_power"])


def _f_sparse_ftrl(prim, a):
    dt = a["grad"].dtype
    lr, l1, l2, lr_power = (xp.asarray(x, dt) for x in (prim.lr, prim.l1, prim.l2, prim.lr_power))
    shrinkage = xp.asarray(prim.l2_shrinkage, dt) if hasattr(prim, "l2_shrinkage") else None
    return _ftrl(a, lr, l1, l2, lr_power, shrinkage)


def _f_gradient_descent(prim, a):
    return {"var": a["var"] - a["alpha"] * a["delta"]}


def _prox(p, lr, l1, l2):
    return xp.sign(p) / (1 + lr * l2) * xp.maximum(xp.abs(p) - lr * l1, 0)


def _f_proximal_gd(prim, a):
    alpha = a["alpha"]
    return {"var": _prox(a["var"] - alpha * a["delta"], alpha, a["l1"], a["l2"])}


def _f_proximal_adagrad(prim, a):
    """The proximal step uses the per-element rate ``lr / sqrt(accum)`` (MindSpore's and TensorFlow's kernels)."""
    g = a["grad"]
    accum = a["accum"] + g * g
    rate = a["lr"] / xp.sqrt(accum)
    return {"var": _prox(a["var"] - rate * g, rate, a["l1"], a["l2"]), "accum": accum}


def _f_keras_momentum(prim, a):
    g, lr, mu = a["grad"], a["lr"], a["momentum"]
    accum = a["accum"] * mu - g * lr
    var = a["var"] + accum * mu - g * lr if prim.use_nesterov else a["var"] + accum
    return {"var": var, "accum": accum}


def _f_weight_scale_momentum(prim, a):
    var = a["variable"]
    g = (var * a["weight_decay"] + a["gradient"]) * a["loss_scale"]
    accum = a["momentum"] * a["accumulation"] + g
    return {"variable": var - a["learning_rate"] * accum, "accumulation": accum}


def _f_adam(prim, a):
    g = a["gradient"] if "gradient" in a else a["grad"]
    b1, b2 = a["beta1"], a["beta2"]
    m = b1 * a["m"] + (1 - b1) * g
    v = b2 * a["v"] + (1 - b2) * g * g
    lr = a["lr"] * xp.sqrt(1 - a["beta2_power"]) / (1 - a["beta1_power"])
    num = b1 * m + (1 - b1) * g if prim.use_nesterov else m
    step = lr * num / (xp.sqrt(v) + a["epsilon"])
    if "var" not in a:
        return {"m": m, "v": v, "_out": -step}
    return {"var": a["var"] - step, "m": m, "v": v}


def _f_adam_weight_decay(prim, a, g=None):
    g = a["gradient"] if g is None else g
    b1, b2 = a["beta1"], a["beta2"]
    m = b1 * a["m"] + (1 - b1) * g
    v = b2 * a["v"] + (1 - b2) * g * g
    update = m / (xp.sqrt(v) + a["epsilon"]) + a["decay"] * a["var"]
    return {"var": a["var"] - a["lr"] * update, "m": m, "v": v}


def _f_fused_cast_adam_weight_decay(prim, a):
    return _f_adam_weight_decay(prim, a, g=a["gradient"] / a["global_norm"])


def _f_sgd(prim, a):
    p, g, mu = a["parameters"], a["gradient"], a["momentum"]
    if prim.weight_decay > 0:
        g = g + p * xp.asarray(prim.weight_decay, g.dtype)
    new = {}
    if float(mu) > 0:
        stat = a["stat"]
        accum = xp.where(stat > 0, g, a["accum"] * mu + (1 - xp.asarray(prim.dampening, g.dtype)) * g)
        new["accum"], new["stat"] = accum, xp.where(stat > 0, xp.zeros_like(stat), stat)
        g = g + accum * mu if prim.nesterov else accum
    new["parameters"] = p - a["learning_rate"] * g
    return new


def _f_lars_update(prim, a):
    w, g, dt = a["weight"], a["gradient"], a["gradient"].dtype
    wd = a["weight_decay"]
    w_norm, g_norm = xp.sqrt(a["norm_weight"]), xp.sqrt(a["norm_gradient"])
    ratio = xp.asarray(prim.hyperpara, dt) * w_norm / (g_norm + wd * w_norm + xp.asarray(prim.epsilon, dt))
    if prim.use_clip:
        ratio = xp.minimum(ratio / a["learning_rate"], xp.asarray(1, dt))
    ratio = xp.where((w_norm > 0) & (g_norm > 0), ratio, xp.asarray(1, dt))
    return {"_out": ratio * (g + wd * w)}


def _rms(x):
    return xp.sqrt(xp.mean(x * x))


def _f_ada_factor(prim, a):
    """MindSpore's CPU steps, in float32: factored second moments for rank >= 2 (row means over the last axis,
    column means over the one before), the update clipped to RMS ``clip_threshold``, then the optional first
    moment and decoupled weight decay."""
    f32 = xp.float32
    eps, param = a["epsilon"].astype(f32), a["param"].astype(f32)
    beta2t, lr = a["beta2t"].astype(f32), a["learning_rate"].astype(f32)
    g = a["grad"].astype(f32)
    if "global_norm" in a:
        norm = a["global_norm"].astype(f32)
        g = g / norm if float(norm) >= _TINY else g
    sq = g * g + eps[0]
    new = {}
    if param.ndim >= 2:
        row = a["exp_avg_sq_row"].astype(f32) * beta2t + xp.mean(sq, axis=-1) * (1 - beta2t)
        col = xp.maximum(a["exp_avg_sq_col"].astype(f32) * beta2t + xp.mean(sq, axis=-2) * (1 - beta2t), _TINY)
        r = xp.sqrt(row / xp.maximum(xp.mean(row, axis=-1, keepdims=True), _TINY))
        update = g / xp.maximum(r[..., :, None] * xp.sqrt(col)[..., None, :], _TINY)
        new["exp_avg_sq_row"], new["exp_avg_sq_col"] = row, col
    else:
        avg = xp.maximum(a["exp_avg_sq"].astype(f32) * beta2t + sq * (1 - beta2t), _TINY)
        update = g / xp.sqrt(avg)
        new["exp_avg_sq"] = avg
    if prim.enable_scale_parameter:
        lr = lr * xp.maximum(eps[1], _rms(param))
    update = update * (lr / xp.maximum(_rms(update) / a["clip_threshold"].astype(f32), 1))
    if prim.enable_first_moment:
        b1 = a["beta1"].astype(f32)
        update = a["exp_avg"].astype(f32) * b1 + update * (1 - b1)
        new["exp_avg"] = update
    decay = param * a["weight_decay"].astype(f32) * lr if prim.enable_weight_decay else 0
    new["param"] = param - update - decay
    return new


KERNELS = {name: _kernel(fn) for name, fn in {
    "ApplyAdaMax": _f_adamax,
    "ApplyAdadelta": _f_adadelta,
    "ApplyAdagrad": _f_adagrad,
    "ApplyAdagradDA": _f_adagrad_da,
    "ApplyAdagradV2": _f_adagrad_v2,
    "ApplyAdamWithAmsgrad": _f_amsgrad,
    "ApplyAdamWithAmsgradV2": _f_amsgrad_v2,
    "ApplyAddSign": _f_add_sign,
    "ApplyCenteredRMSProp": _f_centered_rmsprop,
    "ApplyFtrl": _f_ftrl,
    "ApplyGradientDescent": _f_gradient_descent,
    "ApplyKerasMomentum": _f_keras_momentum,
    "ApplyPowerSign": _f_power_sign,
    "ApplyProximalAdagrad": _f_proximal_adagrad,
    "ApplyProximalGradientDescent": _f_proximal_gd,
    "ApplyRMSProp": _f_rmsprop,
    "Adam": _f_adam,
    "AdamNoUpdateParam": _f_adam,
    "AdamWeightDecay": _f_adam_weight_decay,
    "SGD": _f_sgd,
    "LARSUpdate": _f_lars_update,
    "FusedAdaFactor": _f_ada_factor,
    "FusedAdaFactorWithGlobalNorm": _f_ada_factor,
    "FusedCastAdamWeightDecay": _f_fused_cast_adam_weight_decay,
    "FusedSparseAdam": _f_adam,
    "FusedSparseFtrl": _f_sparse_ftrl,
    "FusedSparseLazyAdam": _f_adam,
    "FusedSparseProximalAdagrad": _f_proximal_adagrad,
    "FusedWeightScaleApplyMomentum": _f_weight_scale_momentum,
    "SparseApplyAdadelta": _f_adadelta,
    "SparseApplyAdagrad": _f_sparse_adagrad,
    "SparseApplyAdagradV2": _f_sparse_adagrad,
    "SparseApplyFtrl": _f_sparse_ftrl,
    "SparseApplyFtrlV2": _f_sparse_ftrl,
    "SparseApplyProximalAdagrad": _f_proximal_adagrad,
    "SparseApplyRMSProp": _f_sparse_rmsprop,
}.items()}
