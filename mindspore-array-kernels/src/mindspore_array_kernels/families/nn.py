"""The kernels of ``mindspore/ops/_defs/nn.py`` (activations, softmax, bias add, normalisation) but ``Dropout``
and ``ApplyMomentum``, which each backend keeps (its own random stream; its own in-place update), bound
(:func:`mindspore_array_kernels.bind`) with:

* ``xp``, the array library, and ``dev``, an operand (or a result) as an ``xp`` array (no copy of one already);
* ``wide(x)``, ``x`` in a precision fit for reductions and transcendental functions (float16 as float32; on a GPU
  bfloat16 too);
* ``store(dst, value)``, ``value`` written into the buffer ``dst`` in place, cast to its dtype (the moving
  statistics of ``BatchNorm``, which are Parameters);
* ``elementwise(formula)``, the kernel ``(prim, x, out)`` running ``formula(prim, x)`` on the operand widened, its
  result cast to ``out``'s dtype (the activations: on the CPU without NumPy's overflow and underflow warnings).

These are the plain definitions, the NumPy API on ``xp``, of each kernel's semantics: a backend replaces the hot
ones after binding by its own (the CPU's C++ GeLU, ReluGrad and batch norm; the GPU's fused CUDA kernels), each
falling back to these, or to their parts (:func:`_softmax_last_f32`, :func:`_softmax_plain`,
:func:`_batch_norm_plain`, :func:`_update_moving`), where its own does not take the case. Half precision computes in
float32 and is cast back to the inferred ``out`` dtype (:func:`~mindspore_array_kernels.common.fit`).
"""
import math

import numpy as np

from mindspore_array_kernels import complex_math
from mindspore_array_kernels.common import fit, fits_out

BOUND = ("xp", "dev", "wide", "store", "elementwise")

SELU_ALPHA = 1.67326324235437728481704299
SELU_SCALE = 1.05070098735548049341933498
GELU_K = 0.7978845608028654   # sqrt(2 / pi)
GELU_C = 0.044715


def sigmoid(x):
    if complex_math.is_complex(x):
        return complex_math.sigmoid(xp, x)
    # exp(-softplus(-x)) is accurate in both tails, unlike 0.5 + 0.5 tanh(x / 2)
    return xp.exp(-xp.logaddexp(0, -x))


def softplus(x):
    return xp.logaddexp(0, x)


# --- activations (formulas run by the bound ``elementwise``) -----------------------------------------------------
def _relu(prim, x):
    return xp.fmax(x, x.dtype.type(0))   # fmax: ReLU(NaN) = 0, as MindSpore's ReLU gives


def _elu(prim, x):
    return xp.where(x > 0, x, prim.alpha * xp.expm1(xp.minimum(x, 0)))


def _celu(prim, x):
    a = prim.alpha
    return xp.maximum(x, 0) + xp.minimum(0, a * xp.expm1(xp.minimum(x, 0) / a))


def _selu(prim, x):
    return SELU_SCALE * xp.where(x > 0, x, SELU_ALPHA * xp.expm1(xp.minimum(x, 0)))


def _mish(prim, x):
    return x * xp.tanh(softplus(x))


def _hshrink(prim, x):
    return xp.where(xp.abs(x) > prim.lambd, x, x.dtype.type(0))


def _softshrink(prim, x):
    lam = prim.lambd
    return xp.where(x > lam, x - lam, xp.where(x < -lam, x + lam, x.dtype.type(0))).astype(x.dtype)


# --- GeLU (tanh form) and its gradient; ReluGrad; PReLU ---------------------------------------------------------
def _gelu(prim, x, out=None):
    w = wide(dev(x))
    return fit(0.5 * w * (1 + xp.tanh(GELU_K * (w + GELU_C * w * w * w))), out)


def _gelu_grad(prim, dy, x, y, out=None):
    w = wide(dev(x))
    x2 = w * w
    t = xp.tanh(GELU_K * w * (1 + GELU_C * x2))
    slope = 0.5 * (1 + t) + 0.5 * w * (1 - t * t) * GELU_K * (1 + 3 * GELU_C * x2)
    return fit(dev(dy).astype(w.dtype, copy=False) * slope, out)


@fits_out
def _fast_gelu_grad(prim, dy, x, out=None):
    """``dy * (s + 1.702 x s (1 - s))``, ``s = sigmoid(1.702 x)``: FastGeLU's derivative."""
    x, dy = wide(dev(x)), wide(dev(dy))
    s = sigmoid(1.702 * x)
    return dy * (s + 1.702 * x * s * (1 - s))


def _softplus_grad(prim, dy, x, out=None):
    """``dy * sigmoid(x)``: Softplus's derivative times the incoming gradient."""
    x, dy = wide(dev(x)), wide(dev(dy))
    return dy * sigmoid(x)


def _relu_grad(prim, dy, y, out=None):
    """y > 0 ? dy : 0 (a select: a NaN or infinite dy where y <= 0 gives 0)."""
    dy, y = dev(dy), dev(y)
    # fit: CuPy 14 makes a bfloat16 select with a NumPy bfloat16 scalar float32 (seen on an H200)
    return fit(xp.where(y > 0, dy, dy.dtype.type(0)), out)


def _prelu(prim, x, weight, out=None):
    x, w = wide(dev(x)), wide(dev(weight))
    if x.ndim >= 2 and w.size > 1:
        w = w.reshape((1, w.size) + (1,) * (x.ndim - 2))
    return fit(xp.where(x > 0, x, x * w), out)


# --- softmax ----------------------------------------------------------------------------------------------------
def _axes(axis):
    return tuple(axis) if isinstance(axis, (tuple, list)) else axis


def _last_axis(axis, ndim):
    if isinstance(axis, tuple):
        if len(axis) != 1:
            return False
        axis = axis[0]
    return int(axis) in (-1, ndim - 1)


def _softmax_last_f32(x):
    """float32 softmax over the last axis with MindSpore 2.10's (CPU) treatment of NaN and infinities: the row's
    maximum skips NaN and starts from float32's lowest value, exp of a NaN difference (a NaN, or +inf - +inf) counts
    as +inf, and a row whose exponentials sum to 0 (all -inf) is left as those exponentials (zeros). So a NaN or
    +inf in a row gives NaN there and 0 elsewhere, a row of -inf gives 0. Checked on rows of 1 to 100 elements.
    (2.10 also stops at such a row and leaves the rows after it zero in some batch shapes: not copied.)"""
    low = xp.float32(-3.4028234663852886e38)
    m = xp.maximum(xp.max(xp.where(x != x, -xp.inf, x), axis=-1, keepdims=True), low)
    with np.errstate(all="ignore"):
        d = x - m
        e = xp.where(d != d, xp.float32(xp.inf), xp.exp(d))
        s = xp.sum(e, axis=-1, keepdims=True)
        return xp.where(s == 0, e, e / xp.where(s == 0, xp.float32(1), s)).astype(xp.float32)


def _softmax_plain(x, axis):
    """``exp(x - max) / sum`` over ``axis``: the other dtypes and axes."""
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, as in 2.10 for these dtypes and axes
        e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
        return e / xp.sum(e, axis=axis, keepdims=True)


@fits_out
def _softmax(prim, x, out=None):
    f32 = x.dtype == np.float32  # before widening float16
    x = wide(dev(x))
    if x.size == 0:  # nothing to normalise (and max has no identity)
        return x.copy()
    axis = _axes(prim.axis)
    if f32 and _last_axis(axis, x.ndim):
        return _softmax_last_f32(x)
    return _softmax_plain(x, axis)


@fits_out
def _softmax_grad(prim, y, dy, out=None):
    """``y (dy - sum(dy y))``, in the order of operations of the composite it replaced."""
    y, dy = wide(dev(y)), wide(dev(dy))
    return y * (dy - xp.sum(dy * y, axis=_axes(prim.axis), keepdims=True))


@fits_out
def _log_softmax(prim, x, out=None):
    x = wide(dev(x))
    if x.size == 0:  # nothing to normalise (and max has no identity)
        return x.copy()
    shifted = x - xp.max(x, axis=prim.axis, keepdims=True)
    return shifted - xp.log(xp.sum(xp.exp(shifted), axis=prim.axis, keepdims=True))


@fits_out
def _log_softmax_grad(prim, y, dy, out=None):
    """``dy - exp(y) sum(dy)`` along the axis, from LogSoftmax's output ``y``."""
    y, dy = wide(dev(y)), wide(dev(dy))
    return dy - xp.exp(y) * xp.sum(dy, axis=prim.axis, keepdims=True)


def _bias_add(prim, x, bias, out=None):
    x, bias = dev(x), dev(bias)
    if prim.data_format == "NHWC":
        return fit(x + bias, out)
    return fit(x + bias.reshape((1, bias.size) + (1,) * (x.ndim - 2)), out)


# --- layer normalisation ----------------------------------------------------------------------------------------
@fits_out
def _layer_norm(prim, x, gamma, beta, out=None):
    """``(y, mean, variance)``, the variance in two passes (the mean of the squared deviations)."""
    x = wide(dev(x))
    bna = prim.begin_norm_axis % x.ndim
    axes = tuple(range(bna, x.ndim))
    mean = xp.mean(x, axis=axes, keepdims=True)
    centred = x - mean
    var = xp.mean(centred * centred, axis=axes, keepdims=True)
    rstd = 1.0 / xp.sqrt(var + prim.epsilon)
    return centred * rstd * wide(dev(gamma)) + wide(dev(beta)), mean, var


@fits_out
def _layer_norm_grad(prim, x, dy, variance, mean, gamma, out=None):
    """``(dx, dgamma, dbeta)`` in one pass, in the order of operations of the composite it replaced (each step
    rounded to the compute dtype as those primitives rounded it), ``rstd = 1 / sqrt(variance + epsilon)``."""
    x, dy, mean, gamma = wide(dev(x)), wide(dev(dy)), wide(dev(mean)), wide(dev(gamma))
    rstd = 1.0 / xp.sqrt(wide(dev(variance)) + prim.epsilon)
    bna = prim.begin_norm_axis % x.ndim
    axes = tuple(range(bna, x.ndim))
    batch = tuple(range(prim.begin_params_axis % x.ndim))
    inv_n = 1.0 / max(math.prod(x.shape[bna:]), 1)
    xhat = (x - mean) * rstd
    g = dy * gamma
    g_mean = xp.sum(g, axis=axes, keepdims=True) * inv_n
    gx_mean = xp.sum(g * xhat, axis=axes, keepdims=True) * inv_n
    dx = rstd * ((g - g_mean) - xhat * gx_mean)
    return dx, xp.sum(dy * xhat, axis=batch), xp.sum(dy, axis=batch)


# --- batch normalisation ----------------------------------------------------------------------------------------
def _bn_layout(prim, x):
    """``(axes, stat_shape, count)``: the axes but the channel's, the broadcast shape of a per-channel
    vector, and the number of values per channel."""
    c = x.ndim - 1 if prim.data_format == "NHWC" else 1
    axes = tuple(i for i in range(x.ndim) if i != c)
    stat_shape = tuple(x.shape[i] if i == c else 1 for i in range(x.ndim))
    return axes, stat_shape, x.size // max(x.shape[c], 1)


def _batch_norm_plain(prim, x, scale, bias, mean, variance):
    """``(y, mean, variance)``: the batch's statistics (the biased variance, in two passes) in training, copies of
    the moving ones in inference (outputs 1-4 must not alias them: training updates them in place)."""
    x32 = wide(dev(x))
    axes, stat_shape, count = _bn_layout(prim, x)
    if prim.is_training:
        m = xp.mean(x32, axis=axes)
        centred = x32 - m.reshape(stat_shape)
        v = xp.sum(centred * centred, axis=axes) / max(count, 1)
    else:
        m, v = wide(dev(mean)).copy(), wide(dev(variance)).copy()
        centred = x32 - m.reshape(stat_shape)
    rstd = 1.0 / xp.sqrt(v + prim.epsilon)
    y = centred * (rstd * wide(dev(scale))).reshape(stat_shape) + wide(dev(bias)).reshape(stat_shape)
    return y, m, v


def _update_moving(prim, x, mean, variance, m, v):
    """Training: the moving statistics (Parameters, updated in their own buffers) moved towards the batch's ``m``
    and ``v`` (the variance unbiased) by ``prim.momentum``."""
    count = _bn_layout(prim, x)[2]
    unbiased = v * (max(count, 1) / max(count - 1, 1))
    mom = prim.momentum
    store(mean, (1 - mom) * dev(mean) + mom * m)
    store(variance, (1 - mom) * dev(variance) + mom * unbiased)


@fits_out
def _batch_norm(prim, x, scale, bias, mean, variance, out=None):
    y, m, v = _batch_norm_plain(prim, x, scale, bias, mean, variance)
    if prim.is_training:
        _update_moving(prim, x, mean, variance, m, v)
    return y, m, v, m.copy(), v.copy()


@fits_out
def _batch_norm_grad(prim, dy, x, scale, saved_mean, saved_variance, reserve, out=None):
    x, dy = wide(dev(x)), wide(dev(dy))
    axes, stat_shape, count = _bn_layout(prim, x)
    rstd = 1.0 / xp.sqrt(wide(dev(saved_variance)) + prim.epsilon)
    xhat = (x - wide(dev(saved_mean)).reshape(stat_shape)) * rstd.reshape(stat_shape)
    dbias = xp.sum(dy, axis=axes)
    dscale = xp.sum(dy * xhat, axis=axes)
    a = (wide(dev(scale)) * rstd).reshape(stat_shape)
    if not prim.is_training:
        return dy * a, dscale, dbias
    count = max(count, 1)
    dx = a * (dy - dbias.reshape(stat_shape) / count - xhat * (dscale.reshape(stat_shape) / count))
    return dx, dscale, dbias


def _l2_normalize(prim, x, out=None):
    x = wide(dev(x))
    sq = xp.sum(x * x, axis=_axes(prim.axis), keepdims=True)
    return fit(x / xp.sqrt(xp.maximum(sq, prim.epsilon)), out)


KERNELS = {
    "ReLU": elementwise(_relu),
    "ReLU6": elementwise(lambda prim, x: xp.clip(x, 0, 6).astype(x.dtype)),
    "Sigmoid": elementwise(lambda prim, x: sigmoid(x)),
    "GeLU": _gelu,
    "GeLUGrad": _gelu_grad,
    "ReluGrad": _relu_grad,
    # MindSpore's form, x exp(0.851 (x - |x|)) / (1 + exp(-1.702 |x|)): x sigmoid(1.702 x) without overflow, and NaN
    # at infinity as MindSpore 2.10 gives it
    "FastGeLU": elementwise(lambda prim, x: x * xp.exp(0.851 * (x - xp.abs(x))) / (1 + xp.exp(-1.702 * xp.abs(x)))),
    "FastGeLUGrad": _fast_gelu_grad,
    "HSigmoid": elementwise(lambda prim, x: xp.clip(x + 3, 0, 6) / 6),
    "HSwish": elementwise(lambda prim, x: xp.where(x <= -3, 0, xp.where(x >= 3, x, x * (x + 3) / 6))),
    "Elu": elementwise(_elu),
    "CeLU": elementwise(_celu),
    "SeLU": elementwise(_selu),
    "Softplus": elementwise(lambda prim, x: softplus(x)),
    "SoftplusGrad": _softplus_grad,
    "Softsign": elementwise(lambda prim, x: x / (1 + xp.abs(x))),
    "Mish": elementwise(_mish),
    "HShrink": elementwise(_hshrink),
    "SoftShrink": elementwise(_softshrink),
    "PReLU": _prelu,
    "Softmax": _softmax,
    "SoftmaxGrad": _softmax_grad,
    "LogSoftmax": _log_softmax,
    "LogSoftmaxGrad": _log_softmax_grad,
    "BiasAdd": _bias_add,
    "LayerNorm": _layer_norm,
    "LayerNormGrad": _layer_norm_grad,
    "BatchNorm": _batch_norm,
    "BatchNormGrad": _batch_norm_grad,
    "L2Normalize": _l2_normalize,
}
