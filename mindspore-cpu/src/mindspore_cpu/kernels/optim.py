"""CPU kernels of the optim family: mindspore-array-kernels' ``optim`` family (one update formula per primitive, run
by its ``_kernel``) bound to NumPy (the GPU backend binds the same source to CuPy), and this backend's own dense
kernels for the hot updates (``Adam``, ``ApplyAdamWithAmsgrad``, ``AdamWeightDecay``, ``SGD``, ``ApplyRMSProp``,
``ApplyCenteredRMSProp``, ``ApplyAdagrad``): in place, in MindSpore's CPU order, falling back to the generic kernels
for buffers they do not take.
"""
import numpy as np

from mindspore_array_kernels import bind


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


def _adam_dense(prim, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient, out=None):
    if not _dense_ok(var, m, v):
        return _GENERIC["Adam"](prim, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient)
    lr_t, omb1, omb2, b1, eps = adam_scalars(var.dtype, lr, beta1, beta2, epsilon, beta1_power, beta2_power)
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
    wd = np.asarray(decay).astype(_scalar_dtype(var.dtype, [decay])).reshape(())[()]
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
    """``accum += g * g``; ``var -= lr * g * (1 / sqrt(accum + 1e-6))`` (MindSpore's CPU ApplyAdagrad)."""
    if not _dense_ok(var, accum):
        return _GENERIC["ApplyAdagrad"](prim, var, accum, lr, grad)
    dt = var.dtype
    g = np.asarray(grad).astype(dt, copy=False)
    if prim.update_slots:
        accum += g * g
    inv = np.asarray(np.sqrt(accum + dt.type(1e-6)))   # an array even for 0-d parameters
    np.divide(dt.type(1), inv, out=inv)
    step = _in_dtype(lr, dt) * g
    step *= inv
    var -= step
    return var, accum


_GENERIC = {name: KERNELS[name] for name in ("Adam", "ApplyAdamWithAmsgrad", "AdamWeightDecay", "SGD", "ApplyRMSProp",
                                              "ApplyCenteredRMSProp", "ApplyAdagrad")}
KERNELS.update({"Adam": _adam_dense, "ApplyAdamWithAmsgrad": _amsgrad_dense,
                "AdamWeightDecay": _adam_weight_decay_dense,
                "SGD": _sgd_dense, "ApplyRMSProp": _rmsprop_dense, "ApplyCenteredRMSProp": _centered_rmsprop_dense,
                "ApplyAdagrad": _adagrad_dense})
