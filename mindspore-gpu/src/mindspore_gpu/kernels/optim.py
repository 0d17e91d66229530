"""GPU kernels of the optim family on CuPy: the optimizer updates (``Apply*``, ``SparseApply*``, ``FusedSparse*``,
``Adam``, ``SGD``, ``FusedAdaFactor``, ...).

The CPU backend's kernels (``mindspore_cpu.kernels.optim``: one update formula per primitive, run by
:func:`_kernel`, which binds the inputs by the primitive's ``io_spec``, coalesces sparse rows and writes the new
states into the Parameters' buffers in place) with ``cupy`` as ``xp``. The buffers are device arrays, or host
arrays for tensors made before the GPU target was chosen (written through ``_common.store``); numbers and
one-element tensors become 0-d device values in the compute dtype (float16 states compute in float32). Repeated
indices are summed with ``cupy.add.at`` (CUDA's atomic add).
"""
import cupy
import numpy

from mindspore_gpu.kernels import _common
from mindspore_gpu.kernels._common import dev, store

xp = cupy
_F16 = numpy.dtype(numpy.float16)
_DENSIFY = frozenset({"FusedSparseAdam"})
_TINY = 1e-30


def _compute_dtype(arrays):
    dt = numpy.result_type(*[a.dtype for a in arrays])
    return numpy.dtype(numpy.float32) if dt == _F16 or dt.kind not in "fc" else dt


def _scalar(v, dt):
    return dev(v).astype(dt).reshape(()) if isinstance(v, (cupy.ndarray, numpy.ndarray)) \
        else cupy.asarray(numpy.asarray(v, dt))


def _wide(a, dt):
    return dev(a).astype(dt, copy=False)


def _store(dst, value):
    return store(dst, value)


def _zeros(shape, dt):
    return cupy.zeros(shape, dt)


def _scatter_rows(dst, rows, value):
    if isinstance(dst, cupy.ndarray):
        dst[rows] = value.astype(dst.dtype)
        return
    full = dev(dst).copy()      # a host buffer: update a device copy, then write it back whole
    full[rows] = value.astype(full.dtype)
    store(dst, full)


def _result(buf):
    """A state buffer as an output: itself on the device, a device copy of a host buffer."""
    return buf if isinstance(buf, cupy.ndarray) else dev(buf)


def _coalesce(rows, indices, n):
    """Valid indices, deduplicated, and their rows summed."""
    idx = dev(indices).astype(numpy.int64).reshape(-1)
    keep = (idx >= 0) & (idx < n)
    idx, rows = idx[keep], rows[keep]
    uniq, inv = cupy.unique(idx, return_inverse=True)
    summed = _zeros((uniq.shape[0],) + rows.shape[1:], rows.dtype)
    cupy.add.at(summed, inv.reshape(-1), rows)
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
                a[name] = _scalar(v, dt) if kind == "scalar" else _wide(v, dt)
            elif kind == "step":
                a[name] = _scalar(v, dt)
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
                        _store(bufs[name], new[name])
                return new["_out"].astype(out.dtype.to_numpy() if out is not None else dt)
            for name, value in new.items():
                _store(bufs[name], value)
        else:
            idx_name = next(n for n, k in spec if k == "indices")
            primary = next(n for n, k in spec if k == "ref")
            uniq, summed = _coalesce(a[rows_name], a[idx_name], bufs[primary].shape[0])
            if prim.name in _DENSIFY:
                dense = _zeros(bufs[primary].shape, dt)
                dense[uniq] = summed
                a[rows_name] = dense
                for name, value in formula(prim, a).items():
                    _store(bufs[name], value)
            else:
                for name in refs:
                    a[name] = a[name][uniq]
                a[rows_name] = summed
                for name, value in formula(prim, a).items():
                    _scatter_rows(bufs[name], uniq, value)
        results = tuple(_result(bufs[n]) for n in prim.returns)
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
    """``eps=None``: ApplyAdagrad, whose CPU kernel divides by ``sqrt(accum + 1e-6)``."""
    g = a["grad"]
    lr = a["lr"] if lr is None else lr
    accum = a["accum"] + g * g if prim.update_slots else a["accum"]
    denom = xp.sqrt(accum + xp.asarray(1e-6, g.dtype)) if eps is None else xp.sqrt(accum) + eps
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


# --- Adam, ApplyAdamWithAmsgrad, AdamWeightDecay: dense, one fused kernel per parameter --------------------------
# The CPU kernels' formulas (``mindspore_cpu.kernels.optim``: MindSpore's CPU order ``m += (g - m) * (1 - beta1)``,
# in var's dtype; the scalars in S = float32, or float64 for a float64 var given Python numbers or float64
# tensors) as one ElementwiseKernel per call: T is var's dtype (float16, float32 or float64), S the scalars'.
# The scalars stay where they are (0-d device tensors, or host numbers): nothing is read back to the host.
_ADAM_HEAD = ("T omb1 = (T)(1 - b1); T omb2 = (T)(1 - b2);"
              "T mi = m + (g - m) * omb1; T vi = v + (g * g - v) * omb2;")
_ADAM_LR = "T lt = (T)(lr * sqrt(1 - b2p) / (1 - b1p));"
_ADAM_IN = "T g, S lr, S b1p, S b2p, S b1, S b2, S eps"


_ADAM_TYPES = frozenset(numpy.dtype(t) for t in (numpy.float16, numpy.float32, numpy.float64))


def _elementwise(in_params, out_params, body, name):
    """The update's fused kernel (``_common.Fused``, for float16 too)."""
    return _common.Fused(name, in_params, out_params, body, dtypes=_ADAM_TYPES)


_ADAM_K = _elementwise(_ADAM_IN, "T var, T m, T v",
                       _ADAM_HEAD + _ADAM_LR + "var = var - lt * mi / (sqrt(vi) + (T)eps); m = mi; v = vi;",
                       "ms_adam")
_ADAM_NESTEROV_K = _elementwise(_ADAM_IN, "T var, T m, T v",
                                _ADAM_HEAD + _ADAM_LR + "T num = mi * (T)b1 + omb1 * g;"
                                "var = var - lt * num / (sqrt(vi) + (T)eps); m = mi; v = vi;", "ms_adam_nesterov")
_AMSGRAD_K = _elementwise(_ADAM_IN, "T var, T m, T v, T vhat",
                          _ADAM_HEAD + _ADAM_LR + "T vh = (vhat != vhat || vhat > vi) ? vhat : vi;"
                          "var = var - lt * mi / (sqrt(vh) + (T)eps); m = mi; v = vi; vhat = vh;",
                          "ms_adam_amsgrad")
_ADAM_WD_IN = "T g, S lr, S b1, S b2, S eps, S wd"
_ADAM_WD_K = _elementwise(_ADAM_WD_IN, "T var, T m, T v",
                          _ADAM_HEAD + "T u = mi / (sqrt(vi) + (T)eps) + (T)wd * var;"
                          "var = var - (T)lr * u; m = mi; v = vi;", "ms_adam_weight_decay")
_ADAM_NO_DECAY_K = _elementwise(_ADAM_WD_IN, "T var, T m, T v",
                                _ADAM_HEAD + "T u = mi / (sqrt(vi) + (T)eps);"
                                "var = var - (T)lr * u; m = mi; v = vi;", "ms_adam_no_decay")
_F64 = numpy.dtype(numpy.float64)


def _scalar_dtype(var_dt, scalars):
    if any(isinstance(s, (cupy.ndarray, numpy.ndarray)) and s.dtype == _F64 for s in scalars):
        return _F64
    if var_dt == _F64 and any(not isinstance(s, (cupy.ndarray, numpy.ndarray)) for s in scalars):
        return _F64
    return numpy.dtype(numpy.float32)


def _s(v, sdt):
    """A scalar input as the kernel takes it: a 0-d device tensor of ``sdt``, or a host number of ``sdt``."""
    if isinstance(v, cupy.ndarray):
        return v.astype(sdt, copy=False).reshape(())
    return numpy.asarray(v).astype(sdt).reshape(())[()]


def _plain_scalars(var_dt, sdt, lr, b1, b2, eps, b1p=None, b2p=None):
    """The plain-CuPy twin of the kernels' scalar part: ``(lr_t, 1 - b1, 1 - b2, b1, eps)`` in var's dtype."""
    values = (lr, b1, b2, eps, b1p, b2p)
    on_device = any(isinstance(x, cupy.ndarray) for x in values)
    xp_ = cupy if on_device else numpy
    lr, b1, b2, eps, b1p, b2p = (None if x is None else xp_.asarray(x, sdt) for x in values)
    one = sdt.type(1)
    if b1p is not None:
        lr = lr * xp_.sqrt(one - b2p) / (one - b1p)

    def conv(x):
        return x.astype(var_dt) if on_device else var_dt.type(x)
    return conv(lr), conv(one - b1), conv(one - b2), conv(b1), conv(eps)


def _plain_moments(m, v, g, omb1, omb2):
    mi = m + (g - m) * omb1
    return mi, v + (g * g - v) * omb2


def _adam_dense(prim, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient, out=None):
    dt = var.dtype
    g = dev(gradient).astype(dt, copy=False)
    sdt = _scalar_dtype(dt, (lr, beta1, beta2, epsilon, beta1_power, beta2_power))
    lr, b1, b2, eps, b1p, b2p = (_s(x, sdt) for x in (lr, beta1, beta2, epsilon, beta1_power, beta2_power))
    kernel = _ADAM_NESTEROV_K if prim.use_nesterov else _ADAM_K
    if kernel.usable(var, m, v, g):
        kernel.typed_by("S", sdt, lr, b1p, b2p, b1, b2, eps)(g, lr, b1p, b2p, b1, b2, eps, var, m, v)
        return var, m, v
    lr_t, omb1, omb2, b1, eps = _plain_scalars(dt, sdt, lr, b1, b2, eps, b1p, b2p)
    mi, vi = _plain_moments(dev(m), dev(v), g, omb1, omb2)
    num = mi * b1 + omb1 * g if prim.use_nesterov else mi
    store(var, dev(var) - lr_t * num / (cupy.sqrt(vi) + eps))
    store(m, mi)
    store(v, vi)
    return _result(var), _result(m), _result(v)


def _amsgrad_dense(prim, var, m, v, vhat, beta1_power, beta2_power, lr, grad, out=None):
    dt = var.dtype
    g = dev(grad).astype(dt, copy=False)
    sdt = _scalar_dtype(dt, (lr, beta1_power, beta2_power, prim.beta1, prim.beta2, prim.epsilon))
    lr, b1, b2, eps, b1p, b2p = (_s(x, sdt) for x in (lr, prim.beta1, prim.beta2, prim.epsilon, beta1_power,
                                                      beta2_power))
    if _AMSGRAD_K.usable(var, m, v, vhat, g):
        _AMSGRAD_K.typed_by("S", sdt, lr, b1p, b2p, b1, b2, eps)(g, lr, b1p, b2p, b1, b2, eps, var, m, v, vhat)
        return var, m, v, vhat
    lr_t, omb1, omb2, _, eps = _plain_scalars(dt, sdt, lr, b1, b2, eps, b1p, b2p)
    mi, vi = _plain_moments(dev(m), dev(v), g, omb1, omb2)
    vh = cupy.maximum(dev(vhat), vi)
    store(var, dev(var) - lr_t * mi / (cupy.sqrt(vh) + eps))
    store(m, mi)
    store(v, vi)
    store(vhat, vh)
    return _result(var), _result(m), _result(v), _result(vhat)


def _adam_weight_decay_dense(prim, var, m, v, lr, beta1, beta2, epsilon, decay, gradient, out=None):
    dt = var.dtype
    g = dev(gradient).astype(dt, copy=False)
    sdt = _scalar_dtype(dt, (lr, beta1, beta2, epsilon, decay))
    lr, b1, b2, eps, wd = (_s(x, sdt) for x in (lr, beta1, beta2, epsilon, decay))
    no_decay = not isinstance(wd, cupy.ndarray) and wd == 0     # a host zero: skipped, as on the CPU
    kernel = _ADAM_NO_DECAY_K if no_decay else _ADAM_WD_K
    if kernel.usable(var, m, v, g):
        kernel.typed_by("S", sdt, lr, b1, b2, eps, wd)(g, lr, b1, b2, eps, wd, var, m, v)
        return var, m, v
    lr_c, omb1, omb2, _, eps = _plain_scalars(dt, sdt, lr, b1, b2, eps)
    mi, vi = _plain_moments(dev(m), dev(v), g, omb1, omb2)
    update = mi / (cupy.sqrt(vi) + eps)
    p = dev(var)
    if not no_decay:
        update = update + (wd.astype(dt) if isinstance(wd, cupy.ndarray) else dt.type(wd)) * p
    store(var, p - lr_c * update)
    store(m, mi)
    store(v, vi)
    return _result(var), _result(m), _result(v)


# SGD (nn.SGD calls it per parameter): the CPU kernel's formula in the parameters' dtype, the momentum read on the
# device (``mu > 0`` per element: no read back), one kernel per (nesterov, weight decay) form.
_SGD_KERNELS = {}


def _sgd_kernel(nesterov, decay):
    key = (nesterov, decay)
    if key not in _SGD_KERNELS:
        body = ("T gn = g + p * wd;" if decay else "T gn = g;") + (
            "T mut = (T)mu; bool on = mu > 0;"
            "T na = stat > (T)0 ? gn : (T)(accum * mut + omd * gn);"
            + ("T upd = on ? (T)(gn + na * mut) : gn;" if nesterov else "T upd = on ? na : gn;") +
            "accum = on ? na : accum; stat = on && stat > (T)0 ? (T)0 : stat;"
            "p = p - (T)lr * upd;")
        _SGD_KERNELS[key] = _elementwise("T g, S lr, S mu, T wd, T omd", "T p, T accum, T stat", body,
                                         f"ms_sgd{'_nesterov' if nesterov else ''}{'_decay' if decay else ''}")
    return _SGD_KERNELS[key]


def _sgd_dense(prim, parameters, gradient, learning_rate, accum, momentum, stat, out=None):
    p = parameters
    dt = p.dtype
    t = dt.type
    g = dev(gradient).astype(dt, copy=False)
    decay = prim.weight_decay > 0
    kernel = _sgd_kernel(bool(prim.nesterov), decay)
    sdt = _scalar_dtype(dt, (learning_rate, momentum))
    lr, mu = _s(learning_rate, sdt), _s(momentum, sdt)
    wd, omd = t(prim.weight_decay), t(t(1) - t(prim.dampening))
    if kernel.usable(p, accum, stat, g):
        kernel.typed_by("S", sdt, lr, mu)(g, lr, mu, wd, omd, p, accum, stat)
        return p
    # plain CuPy: the momentum read back once (a device synchronisation)
    lr_t = lr.astype(dt) if isinstance(lr, cupy.ndarray) else t(lr)
    gn = g + dev(p) * wd if decay else g
    mu_host = float(mu)
    if mu_host > 0:
        mu_t = t(mu_host)
        st = dev(stat)
        first = st > 0
        na = cupy.where(first, gn, dev(accum) * mu_t + omd * gn)
        store(accum, na)
        store(stat, cupy.where(first, cupy.zeros_like(st), st))
        gn = gn + na * mu_t if prim.nesterov else na
    store(p, dev(p) - lr_t * gn)
    return _result(p)


# RMSProp, centered RMSProp, Adagrad: the CPU kernels' formulas (in var's dtype, ``1 - decay``, ``momentum``,
# ``epsilon`` and ``lr`` cast to it), one kernel per call; decay, momentum and epsilon are passed in var's dtype
# (numbers converted on the host, once), lr in its own (S) and cast in the kernel.
_RMS_HEAD = "T omd = (T)1 - (T)rho; T msi = ms + (g * g - ms) * omd;"
_RMSPROP_K = _elementwise("T g, S lr, T rho, T mu, T eps", "T var, T ms, T mom",
                          _RMS_HEAD + "T momi = mom * (T)mu + g * (T)lr / sqrt(msi + (T)eps);"
                          "ms = msi; mom = momi; var = var - momi;", "ms_rmsprop")
_CENTERED_RMSPROP_K = _elementwise("T g, S lr, T rho, T mu, T eps", "T var, T mg, T ms, T mom",
                                   _RMS_HEAD + "T mgi = mg + (g - mg) * omd; T den = msi - mgi * mgi + (T)eps;"
                                   "bool ok = den > (T)0;"
                                   "T momc = mom * (T)mu + g * (T)lr / sqrt(ok ? den : (T)1);"
                                   "ms = msi; mg = mgi; mom = ok ? momc : mom; var = ok ? (T)(var - momc) : var;",
                                   "ms_centered_rmsprop")
_ADAGRAD_K = {update: _elementwise("T g, S lr", "T var, T accum",
                                   ("T a = accum + g * g;" if update else "T a = accum;") +
                                   "var = var - (T)lr * g * ((T)1 / sqrt(a + (T)0.000001)); accum = a;",
                                   "ms_adagrad" if update else "ms_adagrad_no_update")
              for update in (True, False)}


def _in_dtype(x, dt):
    """A scalar input cast to ``dt`` (a 0-d device tensor stays on the device)."""
    return x.astype(dt).reshape(()) if isinstance(x, cupy.ndarray) else numpy.asarray(x).astype(dt).reshape(())[()]


def _rmsprop_dense(prim, var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon, out=None):
    dt = var.dtype
    g = dev(grad).astype(dt, copy=False)
    lr = _s(learning_rate, _scalar_dtype(dt, (learning_rate,)))
    rho, mu, eps = (_in_dtype(x, dt) for x in (decay, momentum, epsilon))
    if _RMSPROP_K.usable(var, mean_square, moment, g):
        _RMSPROP_K.typed_by("S", lr.dtype, lr)(g, lr, rho, mu, eps, var, mean_square, moment)
        return var
    lr = _in_dtype(lr, dt)
    omd = dt.type(1) - rho
    ms = dev(mean_square)
    ms = ms + (g * g - ms) * omd
    mom = dev(moment) * mu + g * lr / cupy.sqrt(ms + eps)
    store(mean_square, ms)
    store(moment, mom)
    store(var, dev(var) - mom)
    return _result(var)


def _centered_rmsprop_dense(prim, var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum,
                            epsilon, out=None):
    dt = var.dtype
    g = dev(grad).astype(dt, copy=False)
    lr = _s(learning_rate, _scalar_dtype(dt, (learning_rate,)))
    rho, mu, eps = (_in_dtype(x, dt) for x in (decay, momentum, epsilon))
    if _CENTERED_RMSPROP_K.usable(var, mean_gradient, mean_square, moment, g):
        _CENTERED_RMSPROP_K.typed_by("S", lr.dtype, lr)(g, lr, rho, mu, eps, var, mean_gradient, mean_square,
                                                        moment)
        return var
    lr = _in_dtype(lr, dt)
    omd = dt.type(1) - rho
    ms, mg = dev(mean_square), dev(mean_gradient)
    ms = ms + (g * g - ms) * omd
    mg = mg + (g - mg) * omd
    den = ms - mg * mg + eps
    ok = den > 0
    mom = dev(moment)
    momc = mom * mu + g * lr / cupy.sqrt(cupy.where(ok, den, cupy.ones_like(den)))
    store(mean_square, ms)
    store(mean_gradient, mg)
    store(moment, cupy.where(ok, momc, mom))
    v = dev(var)
    store(var, cupy.where(ok, v - momc, v))
    return _result(var)


def _adagrad_dense(prim, var, accum, lr, grad, out=None):
    dt = var.dtype
    if dt not in _ADAM_TYPES:       # complex: the generic formula
        return _GENERIC_ADAGRAD(prim, var, accum, lr, grad)
    g = dev(grad).astype(dt, copy=False)
    lr = _s(lr, _scalar_dtype(dt, (lr,)))
    kernel = _ADAGRAD_K[bool(prim.update_slots)]
    if kernel.usable(var, accum, g):
        kernel.typed_by("S", lr.dtype, lr)(g, lr, var, accum)
        return var, accum
    a = dev(accum)
    if prim.update_slots:
        a = a + g * g
    inv = dt.type(1) / cupy.sqrt(a + dt.type(1e-6))
    store(accum, a)
    store(var, dev(var) - _in_dtype(lr, dt) * g * inv)
    return _result(var), _result(accum)


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
_GENERIC_ADAGRAD = KERNELS["ApplyAdagrad"]
KERNELS.update({"Adam": _adam_dense, "ApplyAdamWithAmsgrad": _amsgrad_dense,
                "AdamWeightDecay": _adam_weight_decay_dense,
                "SGD": _sgd_dense, "ApplyRMSProp": _rmsprop_dense, "ApplyCenteredRMSProp": _centered_rmsprop_dense,
                "ApplyAdagrad": _adagrad_dense})
