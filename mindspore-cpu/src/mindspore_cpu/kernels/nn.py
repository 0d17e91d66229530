"""CPU kernels of the nn family: activations, softmax, bias add, normalisation, dropout.

Float16 inputs are computed in float32 (results are cast to the inferred ``out`` dtype). BatchNorm and
BatchNormGrad on channel-first layouts (NC, NCHW, NCDHW) run in C++ (``_csrc/batchnorm.cpp``: two passes
over the data instead of NumPy's six or more); NHWC and empty inputs stay in NumPy.
Losses and resizing are in :mod:`mindspore_cpu.kernels.nn_ext`, merged into :data:`KERNELS`.
"""
import math

import numpy as np

from mindspore_cpu.kernels._out import fit, fits_out
from mindspore_cpu.kernels import nn_ext

SELU_ALPHA = 1.67326324235437728481704299
SELU_SCALE = 1.05070098735548049341933498
GELU_K = np.sqrt(2.0 / np.pi)


def wide(x):
    """``x`` in a precision fit for reductions and transcendental functions (float16 -> float32)."""
    return x.astype(np.float32) if x.dtype == np.float16 else x


def sigmoid(x):
    # exp(-softplus(-x)) is accurate in both tails, unlike 0.5 + 0.5 tanh(x / 2)
    return np.exp(-np.logaddexp(0, -x))


def softplus(x):
    return np.logaddexp(0, x)


def _elementwise(fn):
    def kernel(prim, x, out=None):
        with np.errstate(over="ignore", under="ignore"):
            return fit(np.asarray(fn(prim, wide(x))), out)
    return kernel


def _relu(prim, x):
    return np.fmax(x, np.zeros((), x.dtype))   # fmax: ReLU(NaN) = 0, as MindSpore's ReLU gives


_NATIVE_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _native():
    from mindspore_cpu.kernels._native import _kernels
    return _kernels


def _gelu(prim, x, out=None):
    """GELU (tanh form) in one C++ pass; float16 computes in float32, like the other activations."""
    src = x.astype(np.float32) if x.dtype == np.float16 else np.asarray(x, order="C")
    y = _native().gelu(src)
    return y.astype(x.dtype) if y.dtype != x.dtype else y


def _gelu_grad(prim, dy, x, y, out=None):
    wide_x = x.astype(np.float32) if x.dtype == np.float16 else np.asarray(x, order="C")
    wide_dy = np.asarray(dy, dtype=wide_x.dtype, order="C")
    res = _native().gelu_grad(wide_dy, wide_x)
    return res.astype(x.dtype) if res.dtype != x.dtype else res


def _relu_grad(prim, dy, y, out=None):
    """y > 0 ? dy : 0; float32/float64 in one C++ pass."""
    if dy.dtype in _NATIVE_FLOATS and dy.dtype == y.dtype:
        return _native().relu_grad(np.asarray(dy, order="C"), np.asarray(y, order="C"))
    return np.where(y > 0, dy, np.zeros((), dy.dtype))


def _elu(prim, x):
    return np.where(x > 0, x, prim.alpha * np.expm1(np.minimum(x, 0)))


def _celu(prim, x):
    a = prim.alpha
    return np.maximum(x, 0) + np.minimum(0, a * np.expm1(np.minimum(x, 0) / a))


def _selu(prim, x):
    return SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(np.minimum(x, 0)))


def _mish(prim, x):
    return x * np.tanh(softplus(x))


def _hshrink(prim, x):
    return np.where(np.abs(x) > prim.lambd, x, 0).astype(x.dtype)


def _softshrink(prim, x):
    lam = prim.lambd
    return np.where(x > lam, x - lam, np.where(x < -lam, x + lam, 0)).astype(x.dtype)


def _prelu(prim, x, weight, out=None):
    x, w = wide(x), wide(weight)
    if x.ndim >= 2 and w.size > 1:
        w = w.reshape((1, w.size) + (1,) * (x.ndim - 2))
    return np.asarray(np.where(x > 0, x, x * w))


def _axes(axis):
    return tuple(axis) if isinstance(axis, (tuple, list)) else axis


def _last_axis(axis, ndim):
    if isinstance(axis, tuple):
        if len(axis) != 1:
            return False
        axis = axis[0]
    return int(axis) in (-1, ndim - 1)


def _softmax_last_f32(x, xp):
    """float32 softmax over the last axis with MindSpore 2.10's (CPU) treatment of NaN and infinities: the row's
    maximum skips NaN and starts from float32's lowest value, exp of a NaN difference (a NaN, or +inf - +inf) counts
    as +inf, and a row whose exponentials sum to 0 (all -inf) is left as those exponentials (zeros). So a NaN or
    +inf in a row gives NaN there and 0 elsewhere, a row of -inf gives 0. Checked on rows of 1 to 100 elements.
    (2.10 also stops at such a row and leaves the rows after it zero in some batch shapes: not copied.)"""
    low = xp.float32(-3.4028234663852886e38)
    m = xp.maximum(xp.max(xp.where(x != x, -xp.inf, x), axis=-1, keepdims=True), low)
    with np.errstate(all='ignore'):
        d = x - m
        e = xp.where(d != d, xp.float32(xp.inf), xp.exp(d))
        s = xp.sum(e, axis=-1, keepdims=True)
        return xp.where(s == 0, e, e / xp.where(s == 0, xp.float32(1), s)).astype(xp.float32)


@fits_out
def _softmax(prim, x, out=None):
    f32 = x.dtype == np.float32  # before widening float16
    x = wide(x)
    if x.size == 0:  # nothing to normalise (and max has no identity)
        return x.copy()
    axis = _axes(prim.axis)
    if f32 and _last_axis(axis, x.ndim):
        return _softmax_last_f32(x, np)
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, as in 2.10 for these dtypes and axes
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)


@fits_out
def _softmax_grad(prim, y, dy, out=None):
    """``y (dy - sum(dy y))``, in the order of operations of the composite it replaced."""
    y, dy = wide(y), wide(dy)
    return y * (dy - np.sum(dy * y, axis=_axes(prim.axis), keepdims=True))


@fits_out
def _log_softmax(prim, x, out=None):
    x = wide(x)
    if x.size == 0:  # nothing to normalise (and max has no identity)
        return x.copy()
    shifted = x - np.max(x, axis=prim.axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=prim.axis, keepdims=True))


def _bias_add(prim, x, bias, out=None):
    if prim.data_format == "NHWC":
        return np.asarray(x + bias)
    return np.asarray(x + bias.reshape((1, bias.size) + (1,) * (x.ndim - 2)))


@fits_out
def _layer_norm(prim, x, gamma, beta, out=None):
    """``(y, mean, variance)``, the variance in two passes (the mean of the squared deviations)."""
    x = wide(x)
    bna = prim.begin_norm_axis % x.ndim
    axes = tuple(range(bna, x.ndim))
    mean = np.mean(x, axis=axes, keepdims=True)
    centred = x - mean
    var = np.mean(centred * centred, axis=axes, keepdims=True)
    rstd = 1.0 / np.sqrt(var + prim.epsilon)
    return centred * rstd * wide(gamma) + wide(beta), mean, var


@fits_out
def _layer_norm_grad(prim, x, dy, variance, mean, gamma, out=None):
    """``(dx, dgamma, dbeta)`` in one pass, in the order of operations of the composite it replaced (each step
    rounded to the compute dtype as those primitives rounded it), ``rstd = 1 / sqrt(variance + epsilon)``."""
    x, dy, mean, gamma = wide(x), wide(dy), wide(mean), wide(gamma)
    rstd = 1.0 / np.sqrt(wide(variance) + prim.epsilon)
    bna = prim.begin_norm_axis % x.ndim
    axes = tuple(range(bna, x.ndim))
    batch = tuple(range(prim.begin_params_axis % x.ndim))
    inv_n = 1.0 / max(math.prod(x.shape[bna:]), 1)
    xhat = (x - mean) * rstd
    g = dy * gamma
    g_mean = np.sum(g, axis=axes, keepdims=True) * inv_n
    gx_mean = np.sum(g * xhat, axis=axes, keepdims=True) * inv_n
    dx = rstd * ((g - g_mean) - xhat * gx_mean)
    return dx, np.sum(dy * xhat, axis=batch), np.sum(dy, axis=batch)


def _bn_layout(prim, x):
    """``(axes, stat_shape, count)``: the axes but the channel's, the broadcast shape of a per-channel
    vector, and the number of values per channel."""
    c = x.ndim - 1 if prim.data_format == "NHWC" else 1
    axes = tuple(i for i in range(x.ndim) if i != c)
    stat_shape = tuple(x.shape[i] if i == c else 1 for i in range(x.ndim))
    return axes, stat_shape, x.size // max(x.shape[c], 1)


def _bn_native(prim, x):
    """Whether the C++ kernels take this input: channel-first layouts with data (NHWC stays in NumPy)."""
    return prim.data_format != "NHWC" and x.size > 0


def _bn_dtype(x):
    """The C++ kernels' compute dtype: float32/float64 as given, other floats (float16) in float32."""
    return x.dtype if x.dtype in (np.float32, np.float64) else np.dtype(np.float32)


def _as_ncs(a, dtype):
    """``a`` (N, C, *spatial) as a C-contiguous (N, C, S) array (a free reshape when it already is one)."""
    a = np.asarray(a, dtype=dtype, order="C")
    return a.reshape(a.shape[:2] + (math.prod(a.shape[2:]),))


def _batch_norm_numpy(prim, x, scale, bias, mean, variance):
    x32 = wide(x)
    axes, stat_shape, count = _bn_layout(prim, x)
    if prim.is_training:
        m = np.mean(x32, axis=axes)
        centred = x32 - m.reshape(stat_shape)
        v = np.sum(centred * centred, axis=axes) / max(count, 1)
    else:
        m, v = wide(mean).copy(), wide(variance).copy()
        centred = x32 - m.reshape(stat_shape)
    rstd = 1.0 / np.sqrt(v + prim.epsilon)
    y = centred * (rstd * wide(scale)).reshape(stat_shape) + wide(bias).reshape(stat_shape)
    return y, m, v


@fits_out
def _batch_norm(prim, x, scale, bias, mean, variance, out=None):
    return batch_norm_with_relu(prim, x, scale, bias, mean, variance, False)


def batch_norm_with_relu(prim, x, scale, bias, mean, variance, relu):
    """BatchNorm's kernel; with ``relu`` output 0 is max(y, 0), written in the same pass (the CPU backend's
    GRAPH_MODE pass fuses BatchNorm -> ReLU into this when nothing else reads y)."""
    if not _bn_native(prim, x):
        y, m, v = _batch_norm_numpy(prim, x, scale, bias, mean, variance)
        if relu:
            y = np.fmax(y, np.zeros((), y.dtype))
    else:
        dt = _bn_dtype(x)
        x3, s, b = _as_ncs(x, dt), np.asarray(scale, dt, order="C"), np.asarray(bias, dt, order="C")
        if prim.is_training:
            y, m, v = _native().batch_norm_training(x3, s, b, prim.epsilon, relu)
        else:
            # copies: outputs 1-4 must not alias the moving statistics, which training updates in place
            m, v = np.array(mean, dt), np.array(variance, dt)
            y = _native().batch_norm_inference(x3, s, b, m, v, prim.epsilon, relu)
        y = y.reshape(x.shape)
    if prim.is_training:
        count = _bn_layout(prim, x)[2]
        unbiased = v * (max(count, 1) / max(count - 1, 1))
        mom = prim.momentum
        # the moving statistics are Parameters: updated in their own buffers
        np.copyto(mean, (1 - mom) * mean + mom * m, casting="unsafe")
        np.copyto(variance, (1 - mom) * variance + mom * unbiased, casting="unsafe")
    return y, m, v, m.copy(), v.copy()


@fits_out
def _batch_norm_grad(prim, dy, x, scale, saved_mean, saved_variance, reserve, out=None):
    if _bn_native(prim, x):
        dt = _bn_dtype(x)
        dx, dscale, dbias = _native().batch_norm_grad(
            _as_ncs(dy, dt), _as_ncs(x, dt), np.asarray(scale, dt, order="C"), np.asarray(saved_mean, dt, order="C"),
            np.asarray(saved_variance, dt, order="C"), prim.epsilon, prim.is_training)
        return dx.reshape(x.shape), dscale, dbias
    x, dy = wide(x), wide(dy)
    axes, stat_shape, count = _bn_layout(prim, x)
    rstd = 1.0 / np.sqrt(wide(saved_variance) + prim.epsilon)
    xhat = (x - wide(saved_mean).reshape(stat_shape)) * rstd.reshape(stat_shape)
    dbias = np.sum(dy, axis=axes)
    dscale = np.sum(dy * xhat, axis=axes)
    a = (wide(scale) * rstd).reshape(stat_shape)
    if not prim.is_training:
        return dy * a, dscale, dbias
    count = max(count, 1)
    dx = a * (dy - dbias.reshape(stat_shape) / count - xhat * (dscale.reshape(stat_shape) / count))
    return dx, dscale, dbias


def _apply_momentum(prim, variable, accumulation, learning_rate, gradient, momentum, out=None):
    """In place, in variable's dtype, in MindSpore's order of operations (see ApplyMomentum): one C++
    pass for float32/float64 buffers, NumPy otherwise."""
    dt = variable.dtype
    lr = np.asarray(learning_rate, dt).reshape(())
    mu = np.asarray(momentum, dt).reshape(())
    if dt in _NATIVE_FLOATS and all(a.dtype == dt and a.flags.c_contiguous for a in (accumulation, gradient)) \
            and variable.flags.c_contiguous and variable.flags.writeable and accumulation.flags.writeable:
        _native().apply_momentum(variable, accumulation, float(lr), gradient, float(mu), bool(prim.use_nesterov),
                                 float(np.asarray(prim.gradient_scale, dt)))
        return variable
    g = gradient if prim.gradient_scale == 1.0 else gradient * np.asarray(prim.gradient_scale, dt)
    np.multiply(accumulation, mu, out=accumulation)
    np.add(accumulation, g, out=accumulation)
    if prim.use_nesterov:
        np.subtract(variable, g * lr + accumulation * mu * lr, out=variable)
    else:
        np.subtract(variable, accumulation * lr, out=variable)
    return variable


def _dropout(prim, x, out=None):
    rng = prim.generator()
    keep = prim.keep_prob
    mask = (rng.random(x.shape) < keep).astype(x.dtype)
    return np.asarray(x * mask * np.asarray(1.0 / keep, x.dtype)), mask


def _l2_normalize(prim, x, out=None):
    x = wide(x)
    sq = np.sum(x * x, axis=_axes(prim.axis), keepdims=True)
    return x / np.sqrt(np.maximum(sq, prim.epsilon))


KERNELS = {
    "ReLU": _elementwise(_relu),
    "ReLU6": _elementwise(lambda prim, x: np.clip(x, 0, 6).astype(x.dtype)),
    "Sigmoid": _elementwise(lambda prim, x: sigmoid(x)),
    "GeLU": _gelu,
    "GeLUGrad": _gelu_grad,
    "ReluGrad": _relu_grad,
    "FastGeLU": _elementwise(lambda prim, x: x * sigmoid(1.702 * x)),
    "HSigmoid": _elementwise(lambda prim, x: np.clip(x + 3, 0, 6) / 6),
    "HSwish": _elementwise(lambda prim, x: x * np.clip(x + 3, 0, 6) / 6),
    "Elu": _elementwise(_elu),
    "CeLU": _elementwise(_celu),
    "SeLU": _elementwise(_selu),
    "Softplus": _elementwise(lambda prim, x: softplus(x)),
    "Softsign": _elementwise(lambda prim, x: x / (1 + np.abs(x))),
    "Mish": _elementwise(_mish),
    "HShrink": _elementwise(_hshrink),
    "SoftShrink": _elementwise(_softshrink),
    "PReLU": _prelu,
    "Softmax": _softmax,
    "SoftmaxGrad": _softmax_grad,
    "LogSoftmax": _log_softmax,
    "BiasAdd": _bias_add,
    "LayerNorm": _layer_norm,
    "LayerNormGrad": _layer_norm_grad,
    "BatchNorm": _batch_norm,
    "ApplyMomentum": _apply_momentum,
    "BatchNormGrad": _batch_norm_grad,
    "Dropout": _dropout,
    "L2Normalize": _l2_normalize,
    **nn_ext.KERNELS,
}
