"""CPU kernels of the optim family: mindspore-array-kernels' ``optim`` family (one update formula per primitive, run
by its ``_kernel``) bound to NumPy (the GPU backend binds the same source to CuPy), and this backend's own dense
kernels for the hot updates (``Adam``, ``ApplyAdamWithAmsgrad``, ``AdamWeightDecay``, ``SGD``, ``ApplyRMSProp``,
``ApplyCenteredRMSProp``, ``ApplyAdagrad``, ``ApplyProximalAdagrad``): in place, in MindSpore's CPU order, falling back
to the generic kernels for buffers they do not take. float32 ``Adam``, ``AdamWeightDecay``, ``ApplyRMSProp`` and
``ApplyProximalAdagrad`` run _csrc/optim.cpp's copies of 2.10's nnacl loops (FMA-contracted, double tails): the same
bits as 2.10's CPU kernels.
"""
import numpy as np

from mindspore_array_kernels import bind
from mindspore_cpu.kernels._native import _kernels


def _scalar(v, dt):
    return np.asarray(v).astype(dt).reshape(())


def _store(dst, value):
    np.copyto(dst, value, casting="unsafe")
    return dst


def _scatter_rows(dst, rows, value):
    dst[rows] = value.astype(dst.dtype)


def _result(buf):
    return buf


KERNELS = bind("optim", globals(), xp=np, dev=np.asarray, scalar=_scalar, store=_store,
               scatter_rows=_scatter_rows, result=_result)["KERNELS"]


# --- Adam, ApplyAdamWithAmsgrad, AdamWeightDecay: dense, in place, in MindSpore's CPU order ------------------------
# ``m += (g - m) * (1 - beta1)`` ... in var's dtype (float16 rounds after each operation, as MindSpore's CPU kernels
# and the nn optimizers' former composite formulas did); the scalars (``1 - beta``, the bias-corrected rate) in
# float32, or float64 for a float64 var given Python numbers or float64 tensors, then cast to var's dtype.
def _scalar_dtype(var_dt, scalars):
    f64 = np.dtype(np.float64)
    if any(isinstance(s, np.ndarray) and s.dtype == f64 for s in scalars):
        return f64
    if var_dt == f64 and any(not isinstance(s, np.ndarray) for s in scalars):
        return f64
    return np.dtype(np.float32)


def adam_scalars(var_dt, lr, beta1, beta2, epsilon, beta1_power=None, beta2_power=None):
    """``(lr_t, 1 - beta1, 1 - beta2, beta1, epsilon)`` as var-dtype numbers; ``lr_t`` is
    ``lr * sqrt(1 - beta2_power) / (1 - beta1_power)`` when the powers are given, else ``lr``."""
    given = [x for x in (lr, beta1, beta2, epsilon, beta1_power, beta2_power) if x is not None]
    sdt = _scalar_dtype(var_dt, given)
    one = sdt.type(1)
    s = [None if x is None else np.asarray(x).astype(sdt).reshape(())[()] for x in
         (lr, beta1, beta2, epsilon, beta1_power, beta2_power)]
    lr, beta1, beta2, epsilon, b1p, b2p = s
    if b1p is not None:
        lr = lr * np.sqrt(one - b2p) / (one - b1p)
    t = var_dt.type
    return t(lr), t(one - beta1), t(one - beta2), t(beta1), t(epsilon)


def _moments(m, v, g, omb1, omb2):
    """``m += (g - m) * omb1``, ``v += (g * g - v) * omb2`` in place."""
    tmp = np.asarray(np.subtract(g, m))      # an array even for 0-d parameters (a ufunc gives them a scalar)
    tmp *= omb1
    m += tmp
    np.multiply(g, g, out=tmp)
    tmp -= v
    tmp *= omb2
    v += tmp


def _dense_ok(*arrays):
    dt = arrays[0].dtype
    return dt.kind == "f" and all(isinstance(a, np.ndarray) and a.dtype == dt and a.flags.writeable
                                  for a in arrays)


def _f32_native_ok(*arrays):
    return arrays[0].dtype == np.float32 and all(a.flags.c_contiguous for a in arrays)


def _f32(x):
    return float(np.asarray(x).astype(np.float32).reshape(-1)[0])


def _adam_dense(prim, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient, out=None):
    if not _dense_ok(var, m, v):
        return _GENERIC["Adam"](prim, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient)
    lr_t, omb1, omb2, b1, eps = adam_scalars(var.dtype, lr, beta1, beta2, epsilon, beta1_power, beta2_power)
    if _f32_native_ok(var, m, v) or var.dtype == np.float16:
        # 2.10's nnacl AdamFp32 order (FMA, double tails), _csrc/optim.cpp; 2.10 has no float16 Adam kernel on
        # the CPU and runs float16 state through the float32 one (cast in, cast back)
        lr32 = adam_scalars(np.dtype(np.float32), lr, beta1, beta2, epsilon, beta1_power, beta2_power)[0]
        g = np.ascontiguousarray(np.asarray(gradient).astype(np.float32, copy=False))
        half = var.dtype == np.float16
        w32, m32, v32 = ((np.ascontiguousarray(a, np.float32) for a in (var, m, v)) if half else (var, m, v))
        _kernels.adam_f32(w32, m32, v32, g.reshape(w32.shape), float(lr32), _f32(beta1), _f32(beta2),
                          _f32(epsilon), bool(prim.use_nesterov))
        if half:
            for dst, src in ((var, w32), (m, m32), (v, v32)):
                np.copyto(dst, src, casting="unsafe")
        return var, m, v
    g = np.asarray(gradient).astype(var.dtype, copy=False)
    _moments(m, v, g, omb1, omb2)
    denom = np.sqrt(v)
    denom += eps
    if prim.use_nesterov:
        num = m * b1
        num += omb1 * g
        num *= lr_t
    else:
        num = lr_t * m
    num /= denom
    var -= num
    return var, m, v


def _amsgrad_dense(prim, var, m, v, vhat, beta1_power, beta2_power, lr, grad, out=None):
    if not _dense_ok(var, m, v, vhat):
        return _GENERIC["ApplyAdamWithAmsgrad"](prim, var, m, v, vhat, beta1_power, beta2_power, lr, grad)
    lr_t, omb1, omb2, _, eps = adam_scalars(var.dtype, lr, prim.beta1, prim.beta2, prim.epsilon,
                                            beta1_power, beta2_power)
    g = np.asarray(grad).astype(var.dtype, copy=False)
    _moments(m, v, g, omb1, omb2)
    np.maximum(vhat, v, out=vhat)
    denom = np.sqrt(vhat)
    denom += eps
    num = lr_t * m
    num /= denom
    var -= num
    return var, m, v, vhat


def _adam_weight_decay_dense(prim, var, m, v, lr, beta1, beta2, epsilon, decay, gradient, out=None):
    if not _dense_ok(var, m, v):
        return _GENERIC["AdamWeightDecay"](prim, var, m, v, lr, beta1, beta2, epsilon, decay, gradient)
    lr_c, omb1, omb2, _, eps = adam_scalars(var.dtype, lr, beta1, beta2, epsilon)
    if var.dtype == np.float16:     # 2.10's float16 kernel: 1 - beta in float16
        t = var.dtype.type
        omb1, omb2 = t(1) - t(_f32(beta1)), t(1) - t(_f32(beta2))
    wd = np.asarray(decay).astype(_scalar_dtype(var.dtype, [decay])).reshape(())[()]
    if _f32_native_ok(var, m, v):      # 2.10's nnacl AdamWeightDecayFp32 order (AVX-512 or scalar), _csrc/optim.cpp
        g = np.ascontiguousarray(np.asarray(gradient).astype(np.float32, copy=False))
        _kernels.adam_weight_decay_f32(var, m, v, g, _f32(lr), _f32(beta1), _f32(beta2), _f32(epsilon), _f32(decay))
        return var, m, v
    g = np.asarray(gradient).astype(var.dtype, copy=False)
    _moments(m, v, g, omb1, omb2)
    denom = np.sqrt(v)
    denom += eps
    update = np.divide(m, denom)
    if wd != 0:
        update += var.dtype.type(wd) * var
    update *= lr_c
    var -= update
    return var, m, v


def _sgd_dense(prim, parameters, gradient, learning_rate, accum, momentum, stat, out=None):
    """SGD in the parameters' dtype (``lr``, ``momentum``, ``weight_decay`` cast to it, ``1 - dampening``
    computed in it), written in place; the first step (``stat > 0``) takes the gradient as ``accum``."""
    p = parameters
    if not _dense_ok(p, accum, stat):
        return _GENERIC["SGD"](prim, parameters, gradient, learning_rate, accum, momentum, stat)
    t = p.dtype.type
    lr = t(np.asarray(learning_rate).reshape(())[()])
    mu = np.asarray(momentum).reshape(())[()]
    g = np.asarray(gradient).astype(p.dtype, copy=False)
    if prim.weight_decay > 0:
        g = g + p * t(prim.weight_decay)
    if mu > 0:
        mu = t(mu)
        later = accum * mu
        later += (t(1) - t(prim.dampening)) * g
        first = stat > 0
        np.copyto(accum, np.where(first, g, later))
        stat[first] = 0
        g = g + accum * mu if prim.nesterov else accum
    p -= lr * g
    return p


# RMSProp, centered RMSProp and Adagrad as nn.RMSProp / nn.Adagrad compute them: in var's dtype, ``1 - decay``,
# ``momentum``, ``epsilon`` and ``lr`` cast to it, ``ms += (g * g - ms) * (1 - decay)``.
def _in_dtype(x, dt):
    return dt.type(np.asarray(x).reshape(())[()])


def _mean_square_update(mean_square, grad, decay, dt):
    """``ms += (g * g - ms) * (1 - decay)`` in place; returns (g in dt, 1 - decay, a scratch array of g's shape)."""
    g = np.asarray(grad).astype(dt, copy=False)
    omd = dt.type(1) - _in_dtype(decay, dt)
    tmp = np.asarray(g * g)                  # an array even for 0-d parameters
    tmp -= mean_square
    tmp *= omd
    mean_square += tmp
    return g, omd, tmp


def _rmsprop_dense(prim, var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon, out=None):
    if not _dense_ok(var, mean_square, moment):
        return _GENERIC["ApplyRMSProp"](prim, var, mean_square, moment, learning_rate, grad, decay, momentum,
                                        epsilon)
    dt = var.dtype
    if _f32_native_ok(var, mean_square, moment):   # 2.10's nnacl RMSPropUnuseCenterFp32 order, _csrc/optim.cpp
        g = np.ascontiguousarray(np.asarray(grad).astype(np.float32, copy=False))
        _kernels.rmsprop_f32(var, mean_square, moment, g, _f32(learning_rate), _f32(decay), _f32(momentum),
                             _f32(epsilon))
        return var
    g, omd, _ = _mean_square_update(mean_square, grad, decay, dt)
    step = g * _in_dtype(learning_rate, dt)
    step /= np.sqrt(mean_square + _in_dtype(epsilon, dt))
    moment *= _in_dtype(momentum, dt)
    moment += step
    var -= moment
    return var


def _centered_rmsprop_dense(prim, var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum,
                            epsilon, out=None):
    """Where ``ms - mg^2 + eps <= 0`` the moment and the variable keep their values."""
    if not _dense_ok(var, mean_gradient, mean_square, moment):
        return _GENERIC["ApplyCenteredRMSProp"](prim, var, mean_gradient, mean_square, moment, grad, learning_rate,
                                                decay, momentum, epsilon)
    dt = var.dtype
    g, omd, tmp = _mean_square_update(mean_square, grad, decay, dt)
    np.subtract(g, mean_gradient, out=tmp)
    tmp *= omd
    mean_gradient += tmp
    denom = mean_square - mean_gradient * mean_gradient
    denom += _in_dtype(epsilon, dt)
    ok = denom > 0
    step = g * _in_dtype(learning_rate, dt)
    step /= np.sqrt(np.where(ok, denom, dt.type(1)))
    new_moment = moment * _in_dtype(momentum, dt)
    new_moment += step
    np.copyto(moment, new_moment, where=ok)
    np.subtract(var, new_moment, out=var, where=ok)
    return var


def _adagrad_dense(prim, var, accum, lr, grad, out=None):
    """``accum += g * g``; ``var -= lr * g * (1 / sqrt(accum + 1e-8))`` (MindSpore 2.10's CPU ApplyAdagrad)."""
    if not _dense_ok(var, accum):
        return _GENERIC["ApplyAdagrad"](prim, var, accum, lr, grad)
    dt = var.dtype
    g = np.asarray(grad).astype(dt, copy=False)
    if prim.update_slots:
        accum += g * g
    inv = np.asarray(np.sqrt(accum + dt.type(1e-8)))   # an array even for 0-d parameters
    np.divide(dt.type(1), inv, out=inv)
    step = _in_dtype(lr, dt) * g
    step *= inv
    var -= step
    return var, accum


def _proximal_adagrad_dense(prim, var, accum, lr, l1, l2, grad, out=None):
    """float32: 2.10's nnacl ApplyProximalAdagradOpt order (_csrc/optim.cpp); other dtypes the generic formula."""
    if not (_dense_ok(var, accum) and _f32_native_ok(var, accum)):
        return _GENERIC["ApplyProximalAdagrad"](prim, var, accum, lr, l1, l2, grad)
    g = np.ascontiguousarray(np.asarray(grad).astype(np.float32, copy=False))
    _kernels.proximal_adagrad_f32(var, accum, g, _f32(lr), _f32(l1), _f32(l2))
    return var, accum


def _ftrl_dense(prim, var, accum, linear, grad, lr, l1, l2, lr_power, out=None):
    """float32 as 2.10's CPU ApplyFtrl: ``p = pow(x, -lr_power)`` (libm powf); ``linear += g - (p(accum + g^2) -
    p(accum)) / lr * var``; ``var = |linear| > l1 ? (sign(linear) * l1 - linear) / (p(accum + g^2) / lr + 2 * l2) : 0``.
    (2.10 takes ``+l1`` for any non-zero ``linear``, a sign slip that only shows with ``l1 > 0``; the sign is kept.)"""
    if not (_dense_ok(var, accum, linear) and var.dtype == np.float32):
        return _GENERIC["ApplyFtrl"](prim, var, accum, linear, grad, lr, l1, l2, lr_power)
    t = np.float32
    g = np.asarray(grad).astype(t, copy=False)
    lr, l1, l2, neg = t(_f32(lr)), t(_f32(l1)), t(_f32(l2)), -t(_f32(lr_power))
    cur = accum + g * g
    p_new = np.power(cur, neg)
    step = np.asarray(np.power(accum, neg))      # an array even for 0-d parameters
    np.subtract(p_new, step, out=step)
    step /= lr
    step *= var
    np.subtract(g, step, out=step)
    linear += step
    den = p_new / lr
    den += t(2) * l2
    new = np.sign(linear) * l1
    new -= linear
    new /= den
    np.copyto(var, np.where(np.abs(linear) > l1, new, t(0)))
    np.copyto(accum, cur)
    return var


# FusedAdaFactor as 2.10's CPU kernel, float32: every mean a sequential float32 sum (left to right) divided by the
# count; the second moments ``x * beta2t + mean * (1 - beta2t)``, floored at 1e-30 (the row moments are not);
# r = sqrt(row / max(mean(row), 1e-30)), c = sqrt(col), update = g / max(r * c, 1e-30) (factored, rank >= 2) or
# g / sqrt(sq); lr *= max(eps[1], rms(param)); update *= lr / max(rms(update) / clip, 1); the first moment
# ``exp_avg * beta1 + update * (1 - beta1)``; param - (update + param * weight_decay * lr) or param - update.
_TINY32 = np.float32(1e-30)


def _seq_sum(x, axis):
    """Left-to-right float32 sums along ``axis`` (np.add.accumulate is sequential; np.sum is pairwise)."""
    return np.take(np.add.accumulate(x, axis=axis, dtype=np.float32), -1, axis=axis)


def _seq_rms(x):
    flat = x.reshape(-1)
    return np.sqrt(np.float32(_seq_sum(flat * flat, 0) / np.float32(flat.size)))


def _ada_factor_dense(prim, epsilon, clip_threshold, beta1, beta2t, weight_decay, learning_rate, grad, param, exp_avg,
                      exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq, out=None):
    t = np.float32
    states = [param] + ([exp_avg] if prim.enable_first_moment else []) + \
        ([exp_avg_sq_row, exp_avg_sq_col] if np.ndim(param) >= 2 else [exp_avg_sq])
    if not (all(isinstance(a, np.ndarray) and a.dtype == t and a.flags.writeable for a in states)
            and np.ndim(param) >= 1 and param.size > 0):
        return _GENERIC["FusedAdaFactor"](prim, epsilon, clip_threshold, beta1, beta2t, weight_decay, learning_rate,
                                          grad, param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq)
    eps = np.asarray(epsilon).astype(t).reshape(-1)
    clip, b1, b2t, wd, lr = (t(_f32(x)) for x in (clip_threshold, beta1, beta2t, weight_decay, learning_rate))
    omb2t = t(1) - b2t
    g = np.asarray(grad).astype(t, copy=False).reshape(param.shape)
    update = g * g
    update += eps[0]
    if param.ndim >= 2:
        shape = param.shape
        rdim, cdim = shape[-1], shape[-2]
        row = exp_avg_sq_row.reshape(-1)
        row_mean = _seq_sum(update.reshape(-1, rdim), 1) / t(rdim)
        new_row = row * b2t + row_mean * omb2t
        np.copyto(row, new_row)
        rows = new_row.reshape(-1, cdim)
        col_mean = np.maximum(_seq_sum(rows, 1) / t(cdim), _TINY32)
        r_factor = np.sqrt(rows / col_mean[:, None])                       # (slices, cdim)
        col = exp_avg_sq_col.reshape(-1)
        col_red = _seq_sum(update.reshape(-1, cdim, rdim), 1) / t(cdim)    # (slices, rdim)
        new_col = np.maximum(col * b2t + col_red.reshape(-1) * omb2t, _TINY32)
        np.copyto(col, new_col)
        c_factor = np.sqrt(new_col).reshape(-1, rdim)
        norm = r_factor[:, :, None] * c_factor[:, None, :]                 # (slices, cdim, rdim)
        update = (g.reshape(norm.shape) / np.maximum(norm, _TINY32)).reshape(shape)
    else:
        sq = exp_avg_sq.reshape(-1)
        new_sq = np.maximum(sq * b2t + update.reshape(-1) * omb2t, _TINY32)
        np.copyto(sq, new_sq)
        update = g / np.sqrt(new_sq).reshape(g.shape)
    if prim.enable_scale_parameter:
        lr = t(lr * max(eps[1], _seq_rms(param)))
    update *= t(lr / max(t(_seq_rms(update) / clip), t(1)))
    if prim.enable_first_moment:
        update = exp_avg * b1 + update * (t(1) - b1)
        np.copyto(exp_avg, update)
    if prim.enable_weight_decay:
        update = update + param * wd * lr
    param -= update
    return param


_GENERIC = {name: KERNELS[name] for name in ("Adam", "ApplyAdamWithAmsgrad", "AdamWeightDecay", "SGD", "ApplyRMSProp",
                                              "ApplyCenteredRMSProp", "ApplyAdagrad", "ApplyProximalAdagrad",
                                              "ApplyFtrl", "FusedAdaFactor")}
KERNELS.update({"Adam": _adam_dense, "ApplyAdamWithAmsgrad": _amsgrad_dense,
                "AdamWeightDecay": _adam_weight_decay_dense,
                "SGD": _sgd_dense, "ApplyRMSProp": _rmsprop_dense, "ApplyCenteredRMSProp": _centered_rmsprop_dense,
                "ApplyAdagrad": _adagrad_dense, "ApplyProximalAdagrad": _proximal_adagrad_dense,
                "ApplyFtrl": _ftrl_dense, "FusedAdaFactor": _ada_factor_dense})
