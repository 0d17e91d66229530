"""CPU kernels of the nn family (``mindspore/ops/_defs/nn.py``: activations, softmax, bias add, normalisation,
dropout, momentum): mindspore-array-kernels' ``nn`` family bound to NumPy (the GPU backend binds the same source to
CuPy), float16 computing in float32 (results cast to the inferred ``out`` dtype), the activations without NumPy's
overflow and underflow warnings and the moving statistics written by ``np.copyto``; and this backend's own kernels:

* C++ (``_csrc``, pybind11) for GeLU and its gradient (float16 in float32), ReluGrad (float32/float64),
  BatchNorm and BatchNormGrad on channel-first layouts (NC, NCHW, NCDHW: two passes over the data instead of
  NumPy's six or more; NHWC and empty inputs run the family's) and ApplyMomentum (in place, float32/float64
  buffers; NumPy otherwise); ReluGrad's other dtypes run the family's;
* :func:`batch_norm_with_relu`, BatchNorm with a ReLU written in the same pass (the GRAPH_MODE fusion of
  :mod:`mindspore_cpu.passes`);
* Dropout, which draws MindSpore 2.10's masks when seeded, else from ``prim.generator()`` (the instance's stream);
* float16 Softmax, Sigmoid, HSwish and L2Normalize with the intermediate roundings of MindSpore 2.10's float16 CPU
  kernels (see each kernel);
* float16/float32 LayerNorm, LayerNormGrad, SoftmaxGrad and FastGeLU(Grad), and float32 Softmax over the last axis,
  in the order of operations and precision of 2.10's CPU kernels, bit for bit (float32 Softmax, SoftmaxGrad,
  LayerNorm and LayerNormGrad, and float16 LayerNorm's sums, in C++: ``_csrc/softmax.cpp``, ``_csrc/layer_norm.cpp``);
* float32 LogSoftmax over any axis and its gradient as 2.10's oneDNN kernels compute them, bit for bit
  (``_csrc/log_softmax.cpp``).

Losses and resizing are in :mod:`mindspore_cpu.kernels.nn_ext`, merged into :data:`KERNELS`.
"""
import math
import os

import numpy as np

from mindspore_array_kernels import bind
from mindspore_cpu.kernels._half import KINDS, MIN_SIZE, as_c, astype, wide
from mindspore_cpu.kernels._out import fit, fits_out
from mindspore_cpu.kernels import nn_ext, reduce
from mindspore_cpu.kernels import random as random_kernels


def _store(dst, value):
    np.copyto(dst, value, casting="unsafe")
    return dst


def _elementwise(fn):
    def kernel(prim, x, out=None):
        with np.errstate(over="ignore", under="ignore"):
            return fit(np.asarray(fn(prim, wide(x))), out)
    return kernel


_FAMILY = bind("nn", globals(), xp=np, dev=np.asarray, wide=wide, store=_store, elementwise=_elementwise)
KERNELS = _FAMILY["KERNELS"]
#: The family's kernels, which this backend's own fall back to where they do not take the case.
_PLAIN = dict(KERNELS)
# (the family's parts this module's batch norm runs)
_batch_norm_plain, _update_moving = _FAMILY["_batch_norm_plain"], _FAMILY["_update_moving"]


# --- the C++ kernels ------------------------------------------------------------------------------------------
_NATIVE_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _native():
    from mindspore_cpu.kernels._native import _kernels
    return _kernels


def _gelu_native(prim, x, out=None):
    """GELU (tanh form) in one C++ pass; float16 computes in float32, like the other activations."""
    src = astype(x, np.float32) if x.dtype == np.float16 else np.asarray(x, order="C")
    y = _native().gelu(src)
    return astype(y, x.dtype) if y.dtype != x.dtype else y


def _gelu_grad_native(prim, dy, x, y, out=None):
    wide_x = astype(x, np.float32) if x.dtype == np.float16 else np.asarray(x, order="C")
    wide_dy = astype(dy, np.float32) if dy.dtype == np.float16 else np.asarray(dy, dtype=wide_x.dtype, order="C")
    res = _native().gelu_grad(np.ascontiguousarray(wide_dy, dtype=wide_x.dtype), wide_x)
    return astype(res, x.dtype) if res.dtype != x.dtype else res


def _bias_add_half(prim, x, bias, out=None):
    """float16 BiasAdd as NumPy's float16 add computes it (in float32, rounded once), converting in C++; the other
    dtypes the family's."""
    if x.dtype == np.float16 and bias.dtype == x.dtype and x.size >= MIN_SIZE:
        return astype(_PLAIN["BiasAdd"](prim, astype(x, np.float32), bias.astype(np.float32)), x.dtype)
    return _PLAIN["BiasAdd"](prim, x, bias, out=out)


def _relu_grad_native(prim, dy, y, out=None):
    """y > 0 ? dy : 0; float32/float64 and float16/bfloat16 (on their bits) in one C++ pass, the other dtypes the
    family's."""
    if dy.dtype == y.dtype:
        if dy.dtype in _NATIVE_FLOATS:
            return _native().relu_grad(np.asarray(dy, order="C"), np.asarray(y, order="C"))
        kind = KINDS.get(dy.dtype)
        if kind is not None:
            return _native().relu_grad16(np.asarray(dy, order="C"), np.asarray(y, order="C"), kind)
    return _PLAIN["ReluGrad"](prim, dy, y, out=out)


def _bn_native(prim, x):
    """Whether the C++ kernels take this input: channel-first layouts with data (NHWC stays in NumPy)."""
    return prim.data_format != "NHWC" and x.size > 0


def _bn_dtype(x):
    """The C++ kernels' compute dtype: float32/float64 as given, other floats (float16) in float32."""
    return x.dtype if x.dtype in (np.float32, np.float64) else np.dtype(np.float32)


def _as_ncs(a, dtype):
    """``a`` (N, C, *spatial) as a C-contiguous (N, C, S) array (a free reshape when it already is one)."""
    a = as_c(a, dtype)
    return a.reshape(a.shape[:2] + (math.prod(a.shape[2:]),))


@fits_out
def _batch_norm_native(prim, x, scale, bias, mean, variance, out=None):
    return batch_norm_with_relu(prim, x, scale, bias, mean, variance, False)


def batch_norm_with_relu(prim, x, scale, bias, mean, variance, relu):
    """BatchNorm's kernel; with ``relu`` output 0 is max(y, 0), written in the same pass (the CPU backend's
    GRAPH_MODE pass fuses BatchNorm -> ReLU into this when nothing else reads y)."""
    if not _bn_native(prim, x):
        y, m, v = _batch_norm_plain(prim, x, scale, bias, mean, variance)
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
        _update_moving(prim, x, mean, variance, m, v)
    return y, m, v, m.copy(), v.copy()


@fits_out
def _batch_norm_grad_native(prim, dy, x, scale, saved_mean, saved_variance, reserve, out=None):
    if not _bn_native(prim, x):
        return _PLAIN["BatchNormGrad"](prim, dy, x, scale, saved_mean, saved_variance, reserve, out=out)
    dt = _bn_dtype(x)
    dx, dscale, dbias = _native().batch_norm_grad(
        _as_ncs(dy, dt), _as_ncs(x, dt), np.asarray(scale, dt, order="C"), np.asarray(saved_mean, dt, order="C"),
        np.asarray(saved_variance, dt, order="C"), prim.epsilon, prim.is_training)
    return dx.reshape(x.shape), dscale, dbias


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


# --- Dropout ----------------------------------------------------------------------------------------------------
def _softmax_half(prim, x, out=None):
    """float16 Softmax as MindSpore 2.10's CPU kernel rounds it: ``e = exp(x - max)`` rounded to float16, their sum
    accumulated in float32 and rounded to float16, then ``e / sum`` in float16 (checked bit for bit on rows of 7 to
    4096 and on inner and outer axes); the other dtypes the family's (float32 over the last axis:
    :func:`_softmax_cpu`)."""
    axis = prim.axis[0] if isinstance(prim.axis, (tuple, list)) and len(prim.axis) == 1 else prim.axis
    if x.dtype != np.float16 or x.size == 0 or not isinstance(axis, int):
        return _PLAIN["Softmax"](prim, x, out=out)
    x = np.asarray(x)
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        total = np.sum(e, axis=axis, keepdims=True, dtype=np.float32).astype(np.float16)
        return fit(e / total, out)


def _softmax_cpu(prim, x, out=None):
    """float32 Softmax over the last axis as MindSpore 2.10's CPU kernel (nnacl's SoftmaxLastAxis) computes it, in
    C++: nnacl's polynomial exp with FMA, the sum in eight AVX lanes, an SSE block of four, then one by one, and
    ``e * (1 / sum)`` (``_csrc/softmax.cpp``). Rows holding NaN or +inf get the family's treatment, as 2.10's
    (recorded); float16 :func:`_softmax_half`."""
    axis = prim.axis[0] if isinstance(prim.axis, (tuple, list)) and len(prim.axis) == 1 else prim.axis
    if x.dtype != _F32 or x.ndim == 0 or x.size == 0 or not isinstance(axis, int):
        return _softmax_half(prim, x, out=out)
    if axis % x.ndim != x.ndim - 1:
        return _softmax_inner_axis(prim, x, axis, out)
    x = as_c(x)
    y, bad = _native().softmax_last_f32(x)
    if bad.size:
        rows = x.reshape(-1, x.shape[-1])[bad]
        fixed = _PLAIN["Softmax"](prim, rows.reshape((bad.size,) + (1,) * (x.ndim - 2) + x.shape[-1:]))
        y.reshape(-1, x.shape[-1])[bad] = np.asarray(fixed).reshape(bad.size, -1)
    return y


def _softmax_inner_axis(prim, x, axis, out):
    """float32 Softmax over an axis other than the last, as 2.10's CPU (nnacl's ``Softmax``): per fiber along the
    axis, the C library's ``expf(x - max)``, their sum added in axis order, then ``e / sum`` (the last axis takes
    nnacl's vectorised SoftmaxLastAxis instead). Fibers holding NaN or +-inf get the family's treatment."""
    with np.errstate(invalid="ignore", over="ignore"):
        shifted = np.ascontiguousarray(x - x.max(axis=axis, keepdims=True))
        if not np.isfinite(shifted).all():
            return _softmax_half(prim, x, out=out)
        e = _native().libm_expf(shifted)
        return e / np.cumsum(e, axis=axis, dtype=np.float32).take([-1], axis=axis)


_LOG_SOFTMAX_LANES = []


def _log_softmax_lanes():
    """The vector width of the kernel 2.10's CPU LogSoftmax runs (oneDNN 3.10's JIT softmax, which it compiles for
    the CPU): 16 lanes on a CPU with AVX-512 (avx512_core), else 8; 8 as well when ``ONEDNN_MAX_CPU_ISA`` (or
    ``DNNL_MAX_CPU_ISA``) caps oneDNN below AVX-512, as it caps 2.10's. Read once, as oneDNN reads it."""
    if not _LOG_SOFTMAX_LANES:
        lanes = _native().onednn_lanes()
        cap = (os.environ.get("ONEDNN_MAX_CPU_ISA") or os.environ.get("DNNL_MAX_CPU_ISA") or "").strip().upper()
        if cap and cap != "ALL" and not cap.startswith(("AVX512", "AVX10")):
            lanes = 8
        _LOG_SOFTMAX_LANES.append(lanes)
    return _LOG_SOFTMAX_LANES[0]


def _log_softmax_cpu(prim, x, out=None):
    """float32 LogSoftmax over any axis as MindSpore 2.10's CPU computes it, in C++ (``_csrc/log_softmax.cpp``):
    oneDNN 3.10's softmax_log kernel (its polynomial exp and table log, the sums in 16 or 8 lanes as on this CPU:
    :func:`_log_softmax_lanes`), then positive outputs set to 0, as 2.10 does; NaN, +inf and rows of -inf included
    (recorded). The other dtypes the family's."""
    axis = prim.axis
    if x.dtype != _F32 or x.ndim == 0 or x.size == 0 or not isinstance(axis, int):
        return _PLAIN["LogSoftmax"](prim, x, out=out)
    return _native().log_softmax_f32(as_c(x), axis, _log_softmax_lanes())


def _log_softmax_grad_cpu(prim, y, dy, out=None):
    """float32 LogSoftmaxGrad, ``dy - exp(y) sum(dy)``, as MindSpore 2.10's CPU computes it, in C++: with 16 lanes
    (:func:`_log_softmax_lanes`) over the last axis oneDNN's JIT kernel (the sum of dy in 16 lanes, its polynomial
    exp and one fused multiply-subtract), otherwise oneDNN's reference kernel (the sum in order, libm's ``expf``).
    The other dtypes the family's."""
    axis = prim.axis
    if y.dtype != _F32 or dy.dtype != _F32 or y.ndim == 0 or y.size == 0 or not isinstance(axis, int):
        return _PLAIN["LogSoftmaxGrad"](prim, y, dy, out=out)
    return _native().log_softmax_grad_f32(as_c(y), as_c(dy), axis, _log_softmax_lanes())


def _sigmoid_half(prim, x, out=None):
    """float16 Sigmoid as MindSpore 2.10's CPU kernel (a float16 one) rounds it: ``e = exp(-x)`` rounded to float16,
    ``1 + e`` rounded, then ``1 / (1 + e)`` rounded (bit for bit on every finite float16); float32 as 2.10's nnacl
    kernel computes it, bit for bit (``_csrc/activation_nnacl.cpp``); the other dtypes the family's."""
    if x.dtype == _F32 and x.size:
        return fit(_native().sigmoid_f32(as_c(x)), out)
    if x.dtype != np.float16:
        return _PLAIN["Sigmoid"](prim, x, out=out)
    with np.errstate(over="ignore"):
        e = astype(np.exp(-astype(np.asarray(x), np.float32)), np.float16)
    return fit(np.float16(1) / (np.float16(1) + e), out)    # NumPy's float16 ops round each result


def _softplus_cpu(prim, x, out=None):
    """float32 Softplus as MindSpore 2.10's nnacl kernel computes it, bit for bit (nnacl's polynomial exp and SIMD log,
    ``x`` itself above 88; ``_csrc/activation_nnacl.cpp``), float16 through it; the other dtypes the family's."""
    if x.dtype in (_F16, _F32) and x.size:    # float16: 2.10 runs its float32 kernel and rounds (bit for bit)
        y = _native().softplus_f32(as_c(x, _F32))
        y[np.isnan(x)] = np.nan      # (nnacl's clamp turns NaN into 88.7 and softplus(NaN) into inf: kept NaN)
        return fit(y if x.dtype == _F32 else astype(y, _F16), out)
    return _PLAIN["Softplus"](prim, x, out=out)


def _softplus_grad_cpu(prim, dy, x, out=None):
    """float32 SoftplusGrad as MindSpore 2.10's nnacl kernel computes it, bit for bit: ``dy / (1 + exp(-x))`` with
    nnacl's polynomial exp (``_csrc/activation_nnacl.cpp``); the other dtypes the family's."""
    if x.dtype == _F32 and dy.dtype == _F32 and x.size:
        return fit(_native().softplus_grad_f32(as_c(dy), as_c(x)), out)
    return fit(_PLAIN["SoftplusGrad"](prim, dy, x), out)


def _mish_cpu(prim, x, out=None):
    """float32 Mish as MindSpore 2.10's nnacl kernel (ElementMish) computes it, bit for bit: ``a = 1 + exp(x)`` with
    nnacl's polynomial exp, then ``(a a - 1) / (a a + 1) x`` (``_csrc/activation_nnacl.cpp``); the other dtypes the
    family's."""
    if x.dtype in (_F16, _F32) and x.size:    # float16: 2.10's float32 kernel, rounded (bit for bit)
        y = _native().mish_f32(as_c(x, _F32))
        # nnacl's (a a - 1) / (a a + 1) overflows to inf / inf from x = 44.4 on: 2.10's Mish is NaN there (mish(50)
        # is NaN); ours is x, the value (tanh(softplus(x)) rounds to 1 long before)
        overflowed = np.isnan(y) & (x > 0)
        y[overflowed] = x[overflowed]
        return fit(y if x.dtype == _F32 else astype(y, _F16), out)
    return _PLAIN["Mish"](prim, x, out=out)


def _selu_cpu(prim, x, out=None):
    """float32 SeLU as MindSpore 2.10's CPU kernel computes it, bit for bit: ``scale * x`` above 0, else
    ``(scale * alpha) * expm1f(x)`` with the constants rounded to float (``_csrc/activation_nnacl.cpp``); float16 the
    same with every step rounded to float16 (bit for bit); the other dtypes the family's."""
    if x.dtype == _F32 and x.size:
        return fit(_native().selu_f32(as_c(x)), out)
    if x.dtype == _F16 and x.size:    # 2.10's float16 kernel: the same formula, each step rounded to float16
        x = np.asarray(x)
        scale = np.float16(1.05070098735548049341933498)
        scale_alpha = scale * np.float16(1.67326324235437728481704299)
        with np.errstate(over="ignore", invalid="ignore"):
            neg = scale_alpha * astype(_native().expm1f_f32(as_c(x, _F32)), _F16)
            return fit(np.where(x > 0, scale * x, neg), out)
    return _PLAIN["SeLU"](prim, x, out=out)


def _elu_cpu(prim, x, out=None):
    """float32 Elu as MindSpore 2.10's nnacl kernel computes it, bit for bit (``(exp(x) - 1) alpha`` with nnacl's
    polynomial exp where ``x <= 0``; ``_csrc/activation_nnacl.cpp``); the other dtypes the family's."""
    if x.dtype in (_F16, _F32) and x.size:    # float16: 2.10's float32 kernel, rounded (bit for bit)
        y = _native().elu_f32(as_c(x, _F32), float(np.float32(prim.alpha)))
        return fit(y if x.dtype == _F32 else astype(y, _F16), out)
    return _PLAIN["Elu"](prim, x, out=out)


def _hswish_half(prim, x, out=None):
    """float16 and float32 HSwish as MindSpore 2.10's CPU kernels round it: 0 up to -3, ``x`` from 3 on, and between
    them ``x * (x + 3)`` rounded to the input's type (``x + 3`` rounded first), then divided by 6 and rounded again
    (bit for bit on every finite float16, and on float32); the other dtypes the family's."""
    if x.dtype == _F32 and x.size:
        return fit(_native().hswish_f32(as_c(x)), out)    # the same operations in C++
    if x.dtype != np.float16:
        return _PLAIN["HSwish"](prim, x, out=out)
    x = np.asarray(x)
    three = x.dtype.type(3)
    with np.errstate(over="ignore", invalid="ignore"):
        inner = x * (x + three) / x.dtype.type(6)    # NumPy's float16 / float32 ops round each result
    return fit(np.where(x <= -three, x.dtype.type(0), np.where(x >= three, x, inner)), out)


def _l2_normalize_half(prim, x, out=None):
    """float16 and float32 L2Normalize as MindSpore 2.10's CPU kernel (one per dtype) rounds it: the squares rounded
    to the dtype and summed in order along the axis, each partial sum rounded, ``sqrt(sum if sum > epsilon else
    epsilon)`` rounded, then the quotient (bit for bit on 5 float16 shapes, inner and outer axes, and on float32 rows
    of 100); the other dtypes the family's."""
    axis = prim.axis[0] if isinstance(prim.axis, (tuple, list)) and len(prim.axis) == 1 else prim.axis
    if x.dtype not in (np.float16, np.float32) or x.ndim == 0 or x.size == 0 or not isinstance(axis, int):
        return _PLAIN["L2Normalize"](prim, x, out=out)
    x = np.asarray(x)
    axis %= x.ndim
    eps = x.dtype.type(prim.epsilon)
    with np.errstate(over="ignore", invalid="ignore"):
        if x.dtype == np.float16:
            total = np.take(np.add.accumulate(x * x, axis=axis), [-1], axis=axis)    # in order, float16 throughout
        else:   # in order along the axis, in float (C++)
            squares = np.ascontiguousarray(np.moveaxis(x * x, axis, -1)).reshape(-1, x.shape[axis])
            total = np.moveaxis(_native().row_sums_in_order_f32(squares).reshape(np.moveaxis(x, axis, -1).shape[:-1]
                                                                                 + (1,)), -1, axis)
        norm = np.sqrt(np.where(total > eps, total, eps))    # (a NaN sum gives way to epsilon, as 2.10's test does)
        return fit(x / norm, out)


# --- LayerNorm and its gradient as MindSpore 2.10's CPU kernels compute them --------------------------------------
_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


def _half_step(a):
    """float32 values rounded to float16 and widened again: the result of one operation of MindSpore's float16 type
    (which computes each ``+ - * /`` in float32 and rounds)."""
    return astype(astype(a, _F16), _F32)


def _row_sums_in_order(a):
    """The row sums of a 2-D float32 array, each added from left to right as a C loop adds them (NumPy's ``sum``
    along a row is pairwise, which rounds differently)."""
    if a.shape[0] < 2:     # a (n, 1) column would be summed pairwise as one contiguous run
        return np.add.accumulate(a, axis=1)[:, -1]
    return np.ascontiguousarray(a.T).sum(axis=0)     # an axis-0 reduction adds row after row


def _layer_norm_cpu(prim, x, gamma, beta, out=None):
    """float16/float32 LayerNorm as MindSpore 2.10's CPU kernel computes it: per row the sum and the sum of squares
    in float64, ``mean = sum / n``, ``variance = sum_sq / n - mean**2`` rounded to float32 (0 if negative), then
    ``(x - mean) / sqrt(variance + epsilon) * gamma + beta`` in the input's type: float16 rounds the mean (through
    float32), the float32 square root and each of the four results to float16. Bit for bit on inner and outer
    normalised axes; the other dtypes the family's. The sums (added in order) and float32 in C++
    (``_csrc/layer_norm.cpp``); float16's four roundings here."""
    dt = x.dtype
    if dt not in (_F16, _F32) or x.size == 0 or gamma.dtype != dt or beta.dtype != dt:
        return _PLAIN["LayerNorm"](prim, x, gamma, beta, out=out)
    bna = prim.begin_norm_axis % x.ndim
    stat_shape = x.shape[:bna] + (1,) * (x.ndim - bna)
    x32 = as_c(x, _F32)
    y32, mean, var = _native().layer_norm_f32(
        x32.reshape(-1, math.prod(x.shape[bna:])), as_c(gamma, _F32).reshape(-1), as_c(beta, _F32).reshape(-1),
        float(np.float32(prim.epsilon)))
    mean, var = mean.reshape(stat_shape), var.reshape(stat_shape)
    if dt == _F32:
        return y32.reshape(x.shape), mean, var
    std = np.sqrt(var + np.float32(prim.epsilon))
    g, b = wide(np.asarray(gamma)), wide(np.asarray(beta))
    y = _half_step(_half_step(_half_step(x32 - _half_step(mean)) / _half_step(std)) * g) + b
    return astype(y, dt), mean, var


def _layer_norm_grad_cpu(prim, x, dy, variance, mean, gamma, out=None):
    """float16/float32 LayerNormGrad as MindSpore 2.10's CPU kernel computes it, all in float32 (only
    ``dy * gamma`` is rounded to float16 first), with ``r = (variance + epsilon)**-0.5`` per row and sums added in
    order::

        dgamma = sum over rows of (dy * r) * (x - mean),     dbeta = sum over rows of dy
        s1 = sum(dy gamma (x - mean)) * (-0.5 (variance + epsilon)**-1.5),  s2 = sum(dy gamma),
        s3 = -2 sum(x - mean)
        dx = dy gamma r + (x - mean) (2 s1 / n) + (-r s2 + s1 s3 / n) / n

    each result rounded once to the input's type (bit for bit on inner and outer normalised axes; float32 in C++,
    ``_csrc/layer_norm.cpp``); the other dtypes the family's."""
    dt = x.dtype
    if dt not in (_F16, _F32) or x.size == 0 or dy.dtype != dt or gamma.dtype != dt:
        return _PLAIN["LayerNormGrad"](prim, x, dy, variance, mean, gamma, out=out)
    bna = prim.begin_norm_axis % x.ndim
    n = math.prod(x.shape[bna:])
    if dt == _F32:
        dx, dgamma, dbeta = _native().layer_norm_grad_f32(
            as_c(x).reshape(-1, n), as_c(dy).reshape(-1, n), as_c(variance, _F32).reshape(-1),
            as_c(mean, _F32).reshape(-1), as_c(gamma).reshape(-1), float(np.float32(prim.epsilon)))
        return dx.reshape(x.shape), dgamma.reshape(gamma.shape), dbeta.reshape(gamma.shape)
    x32, dy32 = as_c(x, _F32).reshape(-1, n), as_c(dy, _F32).reshape(-1, n)
    g = np.broadcast_to(wide(np.asarray(gamma)), x.shape).reshape(-1, n)
    shifted = (np.asarray(variance, _F32).reshape(-1, 1) + np.float32(prim.epsilon)).astype(_F64)
    r = (shifted ** -0.5).astype(_F32)                  # powf, correctly rounded here
    r3 = (shifted ** -1.5).astype(_F32)
    xm = x32 - np.asarray(mean, _F32).reshape(-1, 1)
    dyg = dy32 * g
    if dt == _F16:
        dyg = _half_step(dyg)
    inv_n = np.float32(1) / np.float32(n)
    s1 = _row_sums_in_order(dyg * xm)[:, None] * (np.float32(-0.5) * r3)
    s2 = _row_sums_in_order(dyg)[:, None]
    s3 = _row_sums_in_order(xm)[:, None] * np.float32(-2)
    dx = dyg * r + xm * (np.float32(2) * s1 * inv_n) + (-r * s2 + inv_n * s1 * s3) * inv_n
    pn = gamma.size
    dgamma = (dy32 * r * xm).reshape(-1, pn).sum(axis=0)     # an axis-0 reduction adds row after row
    dbeta = dy32.reshape(-1, pn).sum(axis=0)
    return (astype(dx.reshape(x.shape), dt), astype(dgamma.reshape(gamma.shape), dt),
            astype(dbeta.reshape(gamma.shape), dt))


def _fast_gelu_cpu(prim, x, out=None):
    """float16/float32 FastGeLU as MindSpore 2.10's CPU kernel computes it: ``exp(-1.702 |x|)`` and
    ``exp(0.851 (x - |x|))`` in float64, each rounded to the input's type (float16 through float32), then
    ``x * e2 / (1 + e1)`` in that type (float16 rounds the sum, the product and the quotient). Bit for bit on every
    finite float16; the other dtypes the family's."""
    dt = x.dtype
    if dt not in (_F16, _F32):
        return _PLAIN["FastGeLU"](prim, x, out=out)
    x32 = as_c(x, _F32)
    xd = x32.astype(_F64)
    mag = np.abs(xd)
    with np.errstate(over="ignore", invalid="ignore"):
        e1, e2 = np.exp(-1.702 * mag).astype(_F32), np.exp(0.851 * (xd - mag)).astype(_F32)
        if dt == _F16:
            return astype(_half_step(x32 * _half_step(e2)) / _half_step(np.float32(1) + _half_step(e1)), dt)
        return x32 * e2 / (np.float32(1) + e1)


def _fast_gelu_grad_cpu(prim, dy, x, out=None):
    """float16/float32 FastGeLUGrad as MindSpore 2.10's CPU kernel computes it: with ``e = exp(-1.702 x)``,
    ``dy * (e + 1.702 x e + 1) / (1 + e)**2`` all in float64, rounded to the input's type (float16 through float32;
    bit for bit on every finite float16, NaN where ``e`` overflows); the other dtypes the family's."""
    if x.dtype not in (_F16, _F32) or dy.dtype != x.dtype:
        return _PLAIN["FastGeLUGrad"](prim, dy, x, out=out)
    xd = np.asarray(x, _F64)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(-1.702 * xd)
        res = np.asarray(dy, _F64) * ((e + 1.702 * xd * e + 1) / ((1 + e) * (1 + e)))
    return astype(res.astype(_F32), x.dtype)    # float16 through float32, as MindSpore's float16(double)


def _reduce_sum_last(a):
    """float32 sums over the last axis (kept) as MindSpore 2.10's float32 CPU ReduceSum adds them
    (:func:`mindspore_cpu.kernels.reduce.sum_f32`)."""
    return reduce.sum_f32(a, (a.ndim - 1,), False)[..., None]


def _softmax_grad_cpu(prim, y, dy, out=None):
    """float16/float32 SoftmaxGrad over the last axis as MindSpore 2.10's CPU graph computes Softmax's gradient
    (``Mul``, ``ReduceSum`` in float32, ``Sub``, ``Mul``, each a kernel of its own): ``p = y * dy``, its sum as
    :func:`_reduce_sum_last` adds it, then ``y * (dy - sum)``; float16 rounds ``p``, the sum, the difference and the
    result to float16 (bit for bit; float32 in C++, ``_csrc/softmax.cpp``). float32 over another axis: the same steps
    with the sum added in double (2.10's bits); the other dtypes and axes the family's."""
    dt = y.dtype
    axis = prim.axis[0] if isinstance(prim.axis, (tuple, list)) and len(prim.axis) == 1 else prim.axis
    if dt not in (_F16, _F32) or dy.dtype != dt or y.ndim == 0 or y.size == 0 or not isinstance(axis, int):
        return _PLAIN["SoftmaxGrad"](prim, y, dy, out=out)
    if axis % y.ndim != y.ndim - 1:
        if dt != _F32:
            return _PLAIN["SoftmaxGrad"](prim, y, dy, out=out)
        # another axis: the same steps, the sum over that axis added in order in double and rounded once (recorded
        # on 2.10 for inner and first axes; a plain ReduceSum down axis 0 adds in float instead)
        p = np.moveaxis(y * dy, axis, -1)
        total = _native().sum_rows_f64(np.ascontiguousarray(p).reshape(-1, p.shape[-1]), False)
        return y * (dy - np.expand_dims(total.reshape(p.shape[:-1]), axis))
    y32, dy32 = as_c(y, _F32), as_c(dy, _F32)
    if dt == _F32:
        return _native().softmax_grad_last_f32(y32, dy32)
    total = _half_step(_reduce_sum_last(_half_step(y32 * dy32)))
    return astype(y32 * _half_step(dy32 - total), dt)


def _dropout(prim, x, out=None):
    """A seeded instance (``Seed0`` or ``Seed1`` not 0: ``nn.Dropout`` and ``ops.dropout`` after ``set_seed``)
    draws MindSpore 2.10's masks: its kernel's ``minstd_rand0`` engine (one per input shape and dtype, seeded once,
    advanced by each launch: :func:`mindspore_cpu.kernels.random.kernel_engine`) gives
    float32 uniforms kept where ``u < keep_prob``; the output is ``mask * x * scale`` with ``scale = 1.f /
    keep_prob`` in float32 (float16: ``mask * float16(float(x) * scale)``). Unseeded, the instance's own stream."""
    keep = np.float32(prim.keep_prob)
    x = np.asarray(x)
    engine = random_kernels.kernel_engine(prim, random_kernels.MinstdRand0,
                                          (prim.attrs.get("Seed0", 0), prim.attrs.get("Seed1", 0)),
                                          (x.shape, x.dtype.str))
    scale = np.float32(1) / keep
    if engine is None:
        mask = (prim.generator().random(x.shape) < prim.keep_prob).astype(x.dtype)
    else:
        mask = (random_kernels.canonical_float32(engine.words(x.size)) < keep).reshape(x.shape).astype(x.dtype)
    if x.dtype == np.float16:
        return (x.astype(np.float32) * scale).astype(np.float16) * mask, mask
    return mask * x * scale.astype(x.dtype), mask


KERNELS.update({
    "GeLU": _gelu_native,
    "GeLUGrad": _gelu_grad_native,
    "ReluGrad": _relu_grad_native,
    "BiasAdd": _bias_add_half,
    "Softmax": _softmax_cpu,
    "LogSoftmax": _log_softmax_cpu,
    "LogSoftmaxGrad": _log_softmax_grad_cpu,
    "Sigmoid": _sigmoid_half,
    "Softplus": _softplus_cpu,
    "SoftplusGrad": _softplus_grad_cpu,
    "Elu": _elu_cpu,
    "SeLU": _selu_cpu,
    "Mish": _mish_cpu,
    "HSwish": _hswish_half,
    "L2Normalize": _l2_normalize_half,
    "LayerNorm": _layer_norm_cpu,
    "LayerNormGrad": _layer_norm_grad_cpu,
    "SoftmaxGrad": _softmax_grad_cpu,
    "FastGeLU": _fast_gelu_cpu,
    "FastGeLUGrad": _fast_gelu_grad_cpu,
    "BatchNorm": _batch_norm_native,
    "BatchNormGrad": _batch_norm_grad_native,
    "ApplyMomentum": _apply_momentum,
    "Dropout": _dropout,
    **nn_ext.KERNELS,
})
