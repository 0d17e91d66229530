"""GPU kernels of the nn family (``mindspore/ops/_defs/nn.py``: activations, softmax, bias add, normalisation, dropout,
momentum): mindspore-array-kernels' ``nn`` family bound to CuPy (the CPU backend binds the same source to NumPy), with
``_common.dev`` (no copy for a CuPy array already on the device), ``_common.wide`` (float16 and bfloat16 compute in
float32; results are cast to the inferred ``out`` dtype) and ``_common.store`` for the moving statistics; and this
backend's own kernels, each falling back to the family's (or its parts) where it does not take the case:

* fused CUDA kernels (:class:`._common.Fused`, float32 and float64; the selects ReLU and ReluGrad float16 too) for
  ReLU, GeLU, its gradient, ReluGrad, float32 Softmax over the last axis, SoftmaxGrad and LayerNorm with its gradient,
  and hand-written ones (:class:`._common.RawKernels`) for the softmaxes, LayerNorm and its gradient over the last
  axes and batch norm with its training gradient (two launches each, one in inference): a PYNATIVE step is bound by
  the host's cost per CuPy launch, so each kernel launches as few times as its reductions allow;
* ApplyMomentum (in place: one fused kernel, else the result stored) and Dropout (drawn from the primitive's
  counter-based stream, or its cuRAND stream).

Losses and resizing are in :mod:`.nn_ext`.
"""
import math

import cupy
import numpy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import (DATA_BINDINGS, RAW_BLOCK, RAW_COMPUTE, RAW_HELPERS, SLOTS, Fused,
                                           FusedReduction, FusedUnavailable, RawKernels, BF16, F16, F32, F64,
                                           counter_uniform, device_rng, fit, fits_out, is_array, retrying, slot_args,
                                           slot_names, slot_params, store, wide, dev)

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)


def _elementwise(fn):
    def kernel(prim, x, *, out):
        return fit(fn(prim, wide(_dev(x))), out)
    kernel.__name__ = f"gpu_{getattr(fn, '__name__', 'activation')}"
    return kernel


_FAMILY = bind("nn", globals(), xp=cupy, dev=dev, wide=wide, store=store, elementwise=_elementwise)
KERNELS = _FAMILY["KERNELS"]
#: The family's kernels, which this backend's own fall back to where they do not take the case.
_PLAIN = dict(KERNELS)
# (the family's parts this module's kernels run)
_axes, _last_axis = _FAMILY["_axes"], _FAMILY["_last_axis"]
_softmax_last_f32, _softmax_plain = _FAMILY["_softmax_last_f32"], _FAMILY["_softmax_plain"]


# --- ReLU, GeLU (tanh form) and its gradient, ReluGrad ----------------------------------------------
_GELU = Fused("ms_gelu", "T x", "T y",
              "T u = (T)0.7978845608028654 * (x + (T)0.044715 * x * x * x);"
              "y = (T)0.5 * x * ((T)1 + tanh(u));")
_GELU_GRAD = Fused("ms_gelu_grad", "T dy, T x", "T dx",
                   "T x2 = x * x;"
                   "T t = tanh((T)0.7978845608028654 * x * ((T)1 + (T)0.044715 * x2));"
                   "dx = dy * ((T)0.5 * ((T)1 + t)"
                   " + (T)0.5 * x * ((T)1 - t * t) * (T)0.7978845608028654 * ((T)1 + (T)3 * (T)0.044715 * x2));")
# ReLU and its gradient select, so they are exact in any float dtype: float16 (amp's) runs them as it is, not widened to
# float32 and back (three launches where one does)
_SELECTS = frozenset({F16, F32, F64})
_RELU_GRAD = Fused("ms_relu_grad", "T dy, T y", "T dx", "dx = y > (T)0 ? dy : (T)0;", dtypes=_SELECTS)
_RELU = Fused("ms_relu", "T x", "T y", "y = x > (T)0 ? x : (T)0;", dtypes=_SELECTS)


# bfloat16 (amp's other type; CuPy's generated kernels are not given it): the same selects, hand-written, reading and
# writing its bits (RAW_STORAGE), one launch where the widened path took three
_RELU_BF16 = RawKernels("ms_relu_bf16", """
extern "C" __global__ void ms_relu_raw(const X* __restrict__ x, X* __restrict__ y, long long n) {
    for (long long i = (long long)blockIdx.x * RAW_BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * RAW_BLOCK) {
        const T v = ms_get(x[i]);
        ms_put(y[i], v > (T)0 ? v : (T)0);
    }
}

extern "C" __global__ void ms_relu_grad_raw(const X* __restrict__ dy, const X* __restrict__ y, X* __restrict__ dx,
                                            long long n) {
    for (long long i = (long long)blockIdx.x * RAW_BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * RAW_BLOCK) {
        ms_put(dx[i], ms_get(y[i]) > (T)0 ? ms_get(dy[i]) : (T)0);
    }
}
""", ("ms_relu_raw", "ms_relu_grad_raw"), bindings=[dict(T=F32, X=BF16)])


def _relu_bf16(name, *arrays):
    """The bfloat16 select ``name`` of :data:`_RELU_BF16` on C-contiguous ``arrays`` of one shape, or None (not
    bfloat16, strided, empty, or the kernels did not compile)."""
    x = arrays[0]
    if not (_RELU_BF16.enabled() and x.dtype == BF16 and x.size
            and all(isinstance(a, cupy.ndarray) and a.dtype == BF16 and a.shape == x.shape and a.flags.c_contiguous
                    for a in arrays)):
        return None
    y = cupy.empty(x.shape, BF16)
    try:
        _RELU_BF16.launch(name, (min(1024, -(-x.size // RAW_BLOCK)), 1), arrays + (y, numpy.int64(x.size)),
                          T=F32, X=BF16)
    except FusedUnavailable:       # did not compile: the widened path
        return None
    return y


def _relu_fused(prim, x, *, out):
    """max(x, 0), ReLU(NaN) = 0: float16/float32/float64 by :data:`_RELU` (a select: -0 gives +0, as NumPy's ``fmax``
    with 0 does; an ElementwiseKernel takes two thirds of the host time of ``fmax`` with a scalar operand), bfloat16 by
    :data:`_RELU_BF16`, else the family's ``fmax``."""
    x = _dev(x)
    if _RELU.usable(x):
        return _RELU(x)
    y = _relu_bf16("ms_relu_raw", x)
    return y if y is not None else _PLAIN["ReLU"](prim, x, out=out)


def _gelu_fused(prim, x, *, out):
    x = _dev(x)
    if _GELU.usable(x):
        return _GELU(x)
    return _PLAIN["GeLU"](prim, x, out=out)


def _gelu_grad_fused(prim, dy, x, y, *, out):
    dy, x = _dev(dy), _dev(x)
    if _GELU_GRAD.usable(dy, x):
        return _GELU_GRAD(dy, x)
    return _PLAIN["GeLUGrad"](prim, dy, x, y, out=out)


def _relu_grad_fused(prim, dy, y, *, out):
    """y > 0 ? dy : 0 (a select: a NaN or infinite dy where y <= 0 gives 0); bfloat16 by :data:`_RELU_BF16`."""
    dy, y = _dev(dy), _dev(y)
    if _RELU_GRAD.usable(dy, y):
        return _RELU_GRAD(dy, y)
    dx = _relu_bf16("ms_relu_grad_raw", dy, y) if isinstance(dy, cupy.ndarray) else None
    return dx if dx is not None else _PLAIN["ReluGrad"](prim, dy, y, out=out)


# --- softmax ----------------------------------------------------------------------------------------------------
# The family's float32 last-axis softmax (``_softmax_last_f32``) in four launches (fusion on): the maximum, the shift,
# exp and NaN -> +inf in one kernel, the sum, and the division (rows summing to 0 kept) in one; the same results. The
# maximum is taken without masking NaN out: a row holding a NaN gets a NaN maximum, and there the kernel writes what
# the plain path's exponentials come to after the division by their sum, +inf (a NaN difference) at NaN and +inf and 0
# elsewhere (the sum is +inf, so any finite exponential divides to 0): NaN at NaN and +inf, 0 elsewhere, as the plain
# path gives.
_SOFTMAX_EXP = Fused("ms_softmax_exp", "T x, T m, T low, T pinf", "T e",
                     "T mm = m < low ? low : m; T d = x - mm;"
                     "e = m != m ? ((x != x || x == pinf) ? pinf : (T)0) : (d != d ? pinf : exp(d));")
_SOFTMAX_DIV = Fused("ms_softmax_div", "T e, T s", "T y", "y = s == (T)0 ? e : e / s;")


# ... and in one launch (fusion on): a block per row takes the maximum, sums the exponentials and writes them divided;
# the same formulas (``ms_softmax_e`` is ``_SOFTMAX_EXP``'s body). Other float dtypes over the last axis: the plain
# formula, in one launch too; so is LogSoftmax over the last axis.
_SOFTMAX_RAW = RawKernels("ms_softmax_rows", RAW_HELPERS + r"""
__device__ __forceinline__ T ms_softmax_e(T x, T m, T low, T pinf) {
    const T mm = m < low ? low : m;
    const T d = x - mm;
    return m != m ? ((x != x || x == pinf) ? pinf : (T)0) : (d != d ? pinf : exp(d));
}

extern "C" __global__ void ms_softmax_rows(const T* __restrict__ x, T* __restrict__ y, long long d, T low, T pinf) {
    __shared__ T buf[RAW_BLOCK];
    const T* row = x + (long long)blockIdx.x * d;
    T* out = y + (long long)blockIdx.x * d;
    T m = -pinf;
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK) m = ms_nanmax(m, row[j]);
    m = ms_block_max(m, buf);
    T s = 0;
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK) s += ms_softmax_e(row[j], m, low, pinf);
    s = ms_block_sum(s, buf);
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK) {
        const T e = ms_softmax_e(row[j], m, low, pinf);
        out[j] = s == (T)0 ? e : e / s;
    }
}

// The plain formula, exp(x - max) / sum (the other dtypes' softmax: float64, and float16 and bfloat16 data, X,
// computed in float32, T).
extern "C" __global__ void ms_softmax_rows_plain(const X* __restrict__ x, X* __restrict__ y, long long d) {
    __shared__ T buf[RAW_BLOCK];
    const X* row = x + (long long)blockIdx.x * d;
    X* out = y + (long long)blockIdx.x * d;
    const T m = ms_row_max(row, d, buf);
    const T s = ms_row_expsum(row, d, m, buf);
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK) ms_put(out[j], exp((T)ms_get(row[j]) - m) / s);
}

// LogSoftmax's plain formula, (x - max) - log(sum(exp(x - max))).
extern "C" __global__ void ms_log_softmax_rows(const X* __restrict__ x, X* __restrict__ y, long long d) {
    __shared__ T buf[RAW_BLOCK];
    const X* row = x + (long long)blockIdx.x * d;
    X* out = y + (long long)blockIdx.x * d;
    const T m = ms_row_max(row, d, buf);
    const T ls = log(ms_row_expsum(row, d, m, buf));
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK) ms_put(out[j], ((T)ms_get(row[j]) - m) - ls);
}
""", ("ms_softmax_rows", "ms_softmax_rows_plain", "ms_log_softmax_rows"), bindings=DATA_BINDINGS)


def _softmax_rows_plain(x, kernel="ms_softmax_rows_plain"):
    """The plain formula (of Softmax, or ``kernel`` ms_log_softmax_rows: LogSoftmax's) over the last axis in one
    launch (float16/bfloat16 read and written as they are, computed in float32), or None (fusion off, a dtype it
    does not take)."""
    if not _SOFTMAX_RAW.takes_data(x):
        return None
    x = cupy.ascontiguousarray(x)
    y = cupy.empty(x.shape, x.dtype)
    try:
        _SOFTMAX_RAW.launch(kernel, (x.size // x.shape[-1],), (x, y, numpy.int64(x.shape[-1])),
                            T=RAW_COMPUTE[x.dtype], X=x.dtype)
    except FusedUnavailable:     # did not compile: the fused kernels are off; the plain path
        return None
    return y


def _softmax_last_f32_fused(x):
    f = numpy.float32
    low, pinf = f(-3.4028234663852886e38), f(numpy.inf)
    if _SOFTMAX_RAW.usable(x):
        x = cupy.ascontiguousarray(x)
        y = cupy.empty_like(x)
        try:
            _SOFTMAX_RAW.launch("ms_softmax_rows", (x.size // x.shape[-1],),
                                (x, y, numpy.int64(x.shape[-1]), low, pinf), T=x.dtype, X=x.dtype)
            return y
        except FusedUnavailable:     # did not compile: the fused kernels are off; the plain path
            return _softmax_last_f32(x)
    e = _SOFTMAX_EXP(x, cupy.max(x, axis=-1, keepdims=True), low, pinf)
    return _SOFTMAX_DIV(e, cupy.sum(e, axis=-1, keepdims=True))


@fits_out
def _softmax_fused(prim, x, *, out=None):
    x = _dev(x)
    if x.size == 0:  # nothing to normalise (and max has no identity)
        return x.copy()
    axis = _axes(prim.axis)
    if x.dtype == F32 and _last_axis(axis, x.ndim):
        if _SOFTMAX_EXP.usable(x):
            return _softmax_last_f32_fused(x)
        return _softmax_last_f32(x)
    if _last_axis(axis, x.ndim):
        y = _softmax_rows_plain(x)
        if y is not None:
            return y
    return _softmax_plain(wide(x), axis)


# SoftmaxGrad, y (dy - sum(dy y)), in two launches (fusion on): the sum of the products in one reduction, the rest
# in one kernel (three without ReductionKernel: the product apart); the family's operations in its order (the
# sum's association is the reduction's).
_SOFTMAX_GRAD = Fused("ms_softmax_grad", "T y, T dy, T s", "T dx", "dx = y * (dy - s);")
_SOFTMAX_GRAD_SUM = {}   # the reduction, made on first use (FusedReduction)


def _softmax_grad_sum():
    kernel = _SOFTMAX_GRAD_SUM.get("kernel")
    if kernel is None:
        kernel = _SOFTMAX_GRAD_SUM["kernel"] = FusedReduction("ms_softmax_grad_sum", "T dy, T y", "T s", "dy * y",
                                                               "a + b", "s = a", "0")
    return kernel


# ... and over the last axis in one launch (fusion on): a block per row sums dy * y and writes y (dy - s) (float16
# and bfloat16 data, X, read and written as they are, computed in float32, T).
_SOFTMAX_GRAD_RAW = RawKernels("ms_softmax_grad_rows", RAW_HELPERS + r"""
extern "C" __global__ void ms_softmax_grad_rows(const X* __restrict__ y, const X* __restrict__ dy,
                                                X* __restrict__ dx, long long d) {
    __shared__ T buf[RAW_BLOCK];
    const long long base = (long long)blockIdx.x * d;
    T s = 0;
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK) s += (T)ms_get(dy[base + j]) * (T)ms_get(y[base + j]);
    s = ms_block_sum(s, buf);
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK) {
        ms_put(dx[base + j], (T)ms_get(y[base + j]) * ((T)ms_get(dy[base + j]) - s));
    }
}
""", ("ms_softmax_grad_rows",), bindings=DATA_BINDINGS)


@fits_out
def _softmax_grad_fused(prim, y, dy, *, out=None):
    y, dy = _dev(y), _dev(dy)
    axis = _axes(prim.axis)
    if y.size and y.shape == dy.shape and _last_axis(axis, y.ndim) and _SOFTMAX_GRAD_RAW.takes_data(y, dy):
        y, dy = cupy.ascontiguousarray(y), cupy.ascontiguousarray(dy)
        dx = cupy.empty(y.shape, y.dtype)
        try:
            _SOFTMAX_GRAD_RAW.launch("ms_softmax_grad_rows", (y.size // y.shape[-1],),
                                     (y, dy, dx, numpy.int64(y.shape[-1])), T=RAW_COMPUTE[y.dtype], X=y.dtype)
            return dx
        except FusedUnavailable:     # did not compile: the fused kernels are off; the plain path below
            pass
    y, dy = wide(y), wide(dy)
    reduction = _softmax_grad_sum()
    if y.size and reduction.usable(dy, y) and _SOFTMAX_GRAD.usable(y, dy):
        return _SOFTMAX_GRAD(y, dy, reduction(dy, y, axis=axis, keepdims=True))
    if _SOFTMAX_GRAD.usable(y, dy):
        return _SOFTMAX_GRAD(y, dy, cupy.sum(dy * y, axis=axis, keepdims=True))
    return _PLAIN["SoftmaxGrad"](prim, y, dy, out=out)


@fits_out
def _log_softmax_fused(prim, x, *, out=None):
    x = _dev(x)
    if x.size and _last_axis(_axes(prim.axis), x.ndim):
        y = _softmax_rows_plain(x, "ms_log_softmax_rows")
        if y is not None:
            return y
    return _PLAIN["LogSoftmax"](prim, wide(x), out=out)


# --- layer normalisation ----------------------------------------------------------------------------------------
# LayerNorm in three launches (fusion on): the mean, one reduction summing the squared deviations from it (two
# passes over x, never the one-pass sum of squares) whose post-map makes their mean, the variance, and the
# normalised output with its scale and shift in one kernel (rstd = 1 / sqrt(variance + eps) in it, as the plain
# path computes it); the plain path's operations in its order (the sum's association is the reduction's, as
# cupy.mean's is). Without ReductionKernel: four (the squared deviations and their mean apart).
_LN_Y = Fused("ms_ln_y", "T x, T mean, T var, T eps, T g, T b", "T y",
              "y = (x - mean) * ((T)1 / sqrt(var + eps)) * g + b;")
_LN_SQDEV_VAR = {}     # the reduction, made on first use (FusedReduction)


def _ln_sqdev_var():
    kernel = _LN_SQDEV_VAR.get("kernel")
    if kernel is None:
        kernel = _LN_SQDEV_VAR["kernel"] = FusedReduction(
            "ms_ln_sqdev_var", "T x, T mean, T n", "T var", "(x - mean) * (x - mean)", "a + b", "var = a / n", "0")
    return kernel


# ... and in one launch (fusion on): a block per row (the values from begin_norm_axis on) takes the mean, then the mean
# of the squared deviations from it (two passes over the row, as the plain path), and writes the normalised row,
# gamma and beta at the flat index modulo their size (they span the last axes; MsCycle carries the index). Every
# data operand of type X: float16/bfloat16 ones (amp O3, a network cast whole) read and written as they are, computed
# in float32 (T), the statistics float32 (LayerNorm's for half inputs), the bits of the float32 kernel between casts.
_LN_RAW = RawKernels("ms_ln_rows", RAW_HELPERS + r"""
extern "C" __global__ void ms_ln_rows(const X* __restrict__ x, const X* __restrict__ g, const X* __restrict__ b,
                                      X* __restrict__ y, T* __restrict__ mean, T* __restrict__ var, long long d,
                                      long long gsize, T eps) {
    __shared__ T buf[RAW_BLOCK];
    const long long base = (long long)blockIdx.x * d;
    T s = 0;
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK) s += ms_get(x[base + j]);
    const T mu = ms_block_sum(s, buf) / (T)d;
    T q = 0;
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK) {
        const T c = (T)ms_get(x[base + j]) - mu;
        q += c * c;
    }
    const T v = ms_block_sum(q, buf) / (T)d;
    if (threadIdx.x == 0) {
        mean[blockIdx.x] = mu;
        var[blockIdx.x] = v;
    }
    const T r = (T)1 / sqrt(v + eps);
    MsCycle k(base, gsize);
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK, k.next()) {
        const long long i = base + j;
        ms_put(y[i], ((T)ms_get(x[i]) - mu) * r * (T)ms_get(g[k.k]) + (T)ms_get(b[k.k]));
    }
}
""", ("ms_ln_rows",), bindings=DATA_BINDINGS)


def _layer_norm_raw(prim, x, g, b, bna):
    x = cupy.ascontiguousarray(x)
    rows = 1
    for s in x.shape[:bna]:
        rows *= s
    d = x.size // rows
    y = cupy.empty_like(x)
    ct = RAW_COMPUTE[x.dtype]
    stats = cupy.empty((2,) + x.shape[:bna] + (1,) * (x.ndim - bna), ct)
    _LN_RAW.launch("ms_ln_rows", (rows,), (x, cupy.ascontiguousarray(g), cupy.ascontiguousarray(b), y, stats[0],
                                           stats[1], numpy.int64(d), numpy.int64(g.size), ct.type(prim.epsilon)),
                   T=ct, X=x.dtype)
    return y, stats[0], stats[1]


@fits_out
def _layer_norm_fused(prim, x, gamma, beta, *, out=None):
    """``(y, mean, variance)``, the variance the mean of the squared deviations (two passes)."""
    x, g, b = _dev(x), _dev(gamma), _dev(beta)
    bna = prim.begin_norm_axis % x.ndim
    axes = tuple(range(bna, x.ndim))
    if not _LN_RAW.takes_data(x, g, b):     # (float16/bfloat16 operands of one dtype are taken as they are)
        x, g, b = wide(x), wide(g), wide(b)
    if x.size and _LN_RAW.takes_data(x, g, b) and g.shape == b.shape == x.shape[x.ndim - g.ndim:]:
        try:
            return _layer_norm_raw(prim, x, g, b, bna)
        except FusedUnavailable:     # did not compile: the fused kernels are off; the plain path below
            pass
    x, g, b = wide(x), wide(g), wide(b)
    if x.size and _LN_Y.usable(x, g, b):
        dt = x.dtype.type
        mean = cupy.mean(x, axis=axes, keepdims=True)
        reduction = _ln_sqdev_var()
        if reduction.usable(x, mean):
            var = reduction(x, mean, dt(x.size // mean.size), axis=axes, keepdims=True)
        else:
            var = cupy.mean(_BN_SQDEV(x, mean), axis=axes, keepdims=True)
        return _LN_Y(x, mean, var, dt(prim.epsilon), g, b), mean, var
    return _PLAIN["LayerNorm"](prim, x, g, b, out=out)


# LayerNormGrad in three launches (fusion on): one reduction sums dy gamma and dy gamma xhat over the normalised
# axes, one dy xhat and dy over the axes before begin_params_axis (dgamma, dbeta), each pair as one reduction over a
# stacked axis of two (batch norm's (0, 1) selector picks the term), and one kernel makes dx. Without ReductionKernel
# (or with no axis before begin_params_axis), four: one kernel writes the four terms into one buffer and two sums
# reduce it. Each kernel makes rstd = 1 / sqrt(variance + eps) itself, as the plain path makes it once; the plain
# path's operations in its order (the sums' association is the reduction's).
_LN_RSTD_EXPR = "((T)1 / sqrt(var + eps))"
_LN_GRAD_ROWS = {}     # the two reductions, made on first use (FusedReduction)


def _ln_grad_reductions():
    if not _LN_GRAD_ROWS:
        params = "T sel, T x, T dy, T mean, T var, T gamma, T eps"
        _LN_GRAD_ROWS["rows"] = FusedReduction(
            "ms_ln_grad_row_sums", params, "T s",
            f"sel == (T)0 ? dy * gamma : (dy * gamma) * ((x - mean) * {_LN_RSTD_EXPR})", "a + b", "s = a", "0")
        _LN_GRAD_ROWS["params"] = FusedReduction(
            "ms_ln_grad_param_sums", params, "T s", f"sel == (T)0 ? dy * ((x - mean) * {_LN_RSTD_EXPR}) : dy", "a + b",
            "s = a", "0")
    return _LN_GRAD_ROWS["rows"], _LN_GRAD_ROWS["params"]


_LN_GRAD_TERMS = Fused("ms_ln_grad_terms", "T x, T dy, T mean, T var, T eps, T gamma", "T g, T gx, T dyx, T dyc",
                       f"T xhat = (x - mean) * {_LN_RSTD_EXPR}; T gi = dy * gamma; g = gi; gx = gi * xhat; "
                       "dyx = dy * xhat; dyc = dy;")
_LN_GRAD_DX = Fused("ms_ln_grad_dx", "T x, T dy, T mean, T var, T eps, T gamma, T sg, T sgx, T inv_n", "T dx",
                    f"T rstd = {_LN_RSTD_EXPR}; T xhat = (x - mean) * rstd; T g = dy * gamma;"
                    "dx = rstd * ((g - sg * inv_n) - xhat * (sgx * inv_n));")


# ... and in two launches with a hand-written kernel (fusion on): a block per row sums dy gamma and dy gamma xhat and
# writes the row's dx, the same formulas; dgamma and dbeta are the reduction over the batch axes as above.
_LN_GRAD_RAW = RawKernels("ms_ln_grad_rows", RAW_HELPERS + r"""
extern "C" __global__ void ms_ln_grad_rows(const T* __restrict__ x, const T* __restrict__ dy,
                                           const T* __restrict__ mean, const T* __restrict__ var,
                                           const T* __restrict__ gamma, T* __restrict__ dx, long long d,
                                           long long gsize, T eps, T inv_n) {
    __shared__ T buf[RAW_BLOCK];
    const long long base = (long long)blockIdx.x * d;
    const T mu = mean[blockIdx.x], rstd = (T)1 / sqrt(var[blockIdx.x] + eps);
    T a0 = 0, a1 = 0;
    MsCycle k(base, gsize);
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK, k.next()) {
        const long long i = base + j;
        const T g = dy[i] * gamma[k.k];
        a0 += g;
        a1 += g * ((x[i] - mu) * rstd);
    }
    const T sg = ms_block_sum(a0, buf), sgx = ms_block_sum(a1, buf);
    MsCycle k2(base, gsize);
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK, k2.next()) {
        const long long i = base + j;
        const T xhat = (x[i] - mu) * rstd;
        const T g = dy[i] * gamma[k2.k];
        dx[i] = rstd * ((g - sg * inv_n) - xhat * (sgx * inv_n));
    }
}
""", ("ms_ln_grad_rows",))


@fits_out
def _layer_norm_grad_fused(prim, x, dy, variance, mean, gamma, *, out=None):
    x, dy, var, mean, gamma = (wide(_dev(a)) for a in (x, dy, variance, mean, gamma))
    bna = prim.begin_norm_axis % x.ndim
    axes = tuple(range(bna, x.ndim))
    batch = tuple(range(prim.begin_params_axis % x.ndim))
    count = 1
    for s in x.shape[bna:]:
        count *= s
    inv_n = 1.0 / max(count, 1)
    if x.size and _LN_GRAD_DX.usable(x, dy, var, mean, gamma):
        dt = x.dtype.type
        eps = dt(prim.epsilon)
        rows, params = _ln_grad_reductions()
        sel = _selector(x.dtype) if batch and rows.usable(x, dy, var, mean, gamma) else None
        if sel is not None:
            stacked = (sel.reshape((2,) + (1,) * x.ndim), x[None], dy[None], mean[None], var[None], gamma, eps)
        if (sel is not None and _LN_GRAD_RAW.usable(x, dy, var, mean, gamma) and x.shape == dy.shape
                and mean.size == var.size == x.size // count and gamma.shape == x.shape[x.ndim - gamma.ndim:]):
            try:
                dx = _layer_norm_grad_raw(x, dy, mean, var, gamma, count, eps, dt(inv_n))
                sums_p = params(*stacked, axis=tuple(a + 1 for a in batch))
                return dx, sums_p[0], sums_p[1]
            except FusedUnavailable:     # did not compile: the fused kernels are off; the plain path below
                pass
        if sel is not None and rows.usable(x, dy, var, mean, gamma):
            sums = rows(*stacked, axis=tuple(a + 1 for a in axes), keepdims=True)
            sums_p = params(*stacked, axis=tuple(a + 1 for a in batch))
            dx = _LN_GRAD_DX(x, dy, mean, var, eps, gamma, sums[0], sums[1], dt(inv_n))
            return dx, sums_p[0], sums_p[1]
        terms = cupy.empty((4,) + x.shape, x.dtype)
        _LN_GRAD_TERMS(x, dy, mean, var, eps, gamma, terms[0], terms[1], terms[2], terms[3])
        sums = cupy.sum(terms[:2], axis=tuple(a + 1 for a in axes), keepdims=True)
        params = cupy.sum(terms[2:], axis=tuple(a + 1 for a in batch))
        dx = _LN_GRAD_DX(x, dy, mean, var, eps, gamma, sums[0], sums[1], dt(inv_n))
        return dx, params[0], params[1]
    return _PLAIN["LayerNormGrad"](prim, x, dy, var, mean, gamma, out=out)


def _layer_norm_grad_raw(x, dy, mean, var, gamma, d, eps, inv_n):
    x, dy, mean, var, gamma = (cupy.ascontiguousarray(a) for a in (x, dy, mean, var, gamma))
    dx = cupy.empty_like(x)
    _LN_GRAD_RAW.launch("ms_ln_grad_rows", (x.size // d,), (x, dy, mean, var, gamma, dx, numpy.int64(d),
                                                           numpy.int64(gamma.size), eps, inv_n), T=x.dtype)
    return dx


# --- batch normalisation ----------------------------------------------------------------------
# (the squared deviations from a mean: LayerNorm's variance where its one-reduction kernel does not apply)
_BN_SQDEV = Fused("ms_bn_sqdev", "T x, T m", "T d", "T c = x - m; d = c * c;")
_SELECTORS = {}


def _selector(dt):
    """A (0, 1) selector in ``dt`` (two sums as one reduction over a stacked axis of two: the selector, broadcast
    against the operands, picks the term: LayerNormGrad's), made once per device and dtype (read-only), or None
    while a stream captures and it is not made yet (made there, its values would exist only in the graph)."""
    key = (cupy.cuda.runtime.getDevice(), numpy.dtype(dt))
    sel = _SELECTORS.get(key)
    if sel is None and not cupy.cuda.get_current_stream().is_capturing():
        sel = _SELECTORS[key] = cupy.arange(2, dtype=dt)
    return sel


# Training-mode batch norm and its gradient in two launches each (float32/float64, fusion on): hand-written CUDA
# kernels (:class:`RawKernels`) computing in T, their data (x, y, dy, dx) of type X: T itself, or float16/bfloat16
# with T float32 (amp's: float32 parameters and statistics), read and rounded back by ``ms_get``/``ms_put``
# (``_common.RAW_STORAGE``): the bits of widening x and dy, the float32 kernels and a cast of y and dx back, without
# those launches over the data. The kernels see x as (outer, C, inner), channel c's values at
# (o * C + c) * inner + s (NCHW: (N, C, H*W); NHWC and (N, C): inner 1). Block (p, c) of a grid (parts, C) takes chunk
# p of channel c's values.
# Forward: ms_bn_stats gives each block's (count, mean, sum of squared deviations) by Welford's update per thread and
# Chan's merge across the block, and its plain sum (the mean of a channel holding an infinity); ms_bn_forward merges
# a channel's chunks in every block, block 0 of the channel writes the saved statistics and updates the moving ones in
# place, and every block normalises its chunk. Gradient:
# ms_bn_grad_sums gives each chunk's sums of dy and dy * xhat; ms_bn_grad_dx adds a channel's chunks, block 0 writes
# dscale and dbias, and every block writes dx for its chunk. The formulas (scale factor, moving statistics, dx) are
# the fused path's; the variance is the same biased one, merged instead of summed in two passes.
_BN_SOURCE = RAW_HELPERS + r"""
// Walks a thread's values of channel c, e = first, first + RAW_BLOCK, ..., as (o, s) with e = o * inner + s, their
// index (o * C + c) * inner + s: one division per thread, not per value (a 64-bit division is tens of instructions).
struct MsWalk {
    long long o, s, q, r, inner;
    __device__ __forceinline__ MsWalk(long long e, long long inner_) : inner(inner_) {
        o = e / inner;
        s = e - o * inner;
        q = RAW_BLOCK / inner;
        r = RAW_BLOCK - q * inner;
    }
    __device__ __forceinline__ long long at(int channels, int c) const { return (o * channels + c) * inner + s; }
    __device__ __forceinline__ void next() {
        o += q;
        s += r;
        if (s >= inner) {
            s -= inner;
            ++o;
        }
    }
};

// y = (x - m) * a + b over this block's chunk of channel c's values.
__device__ __forceinline__ void ms_bn_normalise(const X* __restrict__ x, X* __restrict__ y, T m, T a, T b, int c,
                                                int channels, int inner, long long count, long long per, int relu) {
    const long long start = (long long)blockIdx.x * per;
    const long long stop = min(start + per, count);
    MsWalk w(start + threadIdx.x, inner);
    for (long long e = start + threadIdx.x; e < stop; e += RAW_BLOCK, w.next()) {
        const long long i = w.at(channels, c);
        const T v = (ms_get(x[i]) - m) * a + b;
        // a ReLU after it (the GRAPH pass gpu_fuse_batchnorm_relu): ReLU's select, NaN and -0 to 0; on half data the
        // same bits as the select after rounding (rounding keeps the sign, and 0 stays 0)
        ms_put(y[i], relu ? (v > (T)0 ? v : (T)0) : v);
    }
}

// Sum the block's RAW_BLOCK slots of s0 and s1 into slot 0 (every thread calls it; each slot set before).
__device__ __forceinline__ void ms_block_sum2(T* s0, T* s1) {
    for (int half = RAW_BLOCK / 2; half > 0; half >>= 1) {
        if ((int)threadIdx.x < half) {
            s0[threadIdx.x] += s0[threadIdx.x + half];
            s1[threadIdx.x] += s1[threadIdx.x + half];
        }
        __syncthreads();
    }
}

extern "C" __global__ void ms_bn_stats(const X* __restrict__ x, T* __restrict__ part, int channels, int inner,
                                       long long count, long long per) {
    __shared__ T sn[RAW_BLOCK];
    __shared__ T sm[RAW_BLOCK];
    __shared__ T sq[RAW_BLOCK];
    __shared__ T buf[RAW_BLOCK];
    const int c = blockIdx.y;
    const long long start = (long long)blockIdx.x * per;
    const long long stop = min(start + per, count);
    T n = 0, m = 0, q = 0, s = 0;
    MsWalk w(start + threadIdx.x, inner);
    for (long long e = start + threadIdx.x; e < stop; e += RAW_BLOCK, w.next()) {
        const T v = ms_get(x[w.at(channels, c)]);
        n += (T)1;
        const T d = v - m;
        m += d / n;
        q += d * (v - m);
        s += v;
    }
    ms_block_merge(n, m, q, sn, sm, sq);
    s = ms_block_sum(s, buf);
    if (threadIdx.x == 0) {
        T* out = part + ((long long)c * gridDim.x + blockIdx.x) * 4;
        out[0] = n;
        out[1] = m;
        out[2] = q;
        out[3] = s;
    }
}

// stats: (4, C) rows batch mean, batch variance, saved mean, saved variance.
extern "C" __global__ void ms_bn_forward(const X* __restrict__ x, const T* __restrict__ part,
                                         const T* __restrict__ scale, const T* __restrict__ bias, T* moving_mean,
                                         T* moving_var, X* __restrict__ y, T* __restrict__ stats, int channels,
                                         int inner, long long count, long long per, T eps, T keep, T momentum,
                                         T unbias, int relu) {
    __shared__ T sn[RAW_BLOCK];
    __shared__ T sm[RAW_BLOCK];
    __shared__ T sq[RAW_BLOCK];
    __shared__ T buf[RAW_BLOCK];
    __shared__ T coef[2];
    const int c = blockIdx.y;
    const int parts = gridDim.x;
    T n = 0, m = 0, q = 0, s = 0;
    for (int p = threadIdx.x; p < parts; p += RAW_BLOCK) {
        const T* in = part + ((long long)c * parts + p) * 4;
        ms_merge(n, m, q, in[0], in[1], in[2]);
        s += in[3];
    }
    ms_block_merge(n, m, q, sn, sm, sq);
    s = ms_block_sum(s, buf);
    if (threadIdx.x == 0) {
        // Welford's mean, but the plain sum's where that is not finite: a channel holding an infinity has mean inf
        // (as the plain path's sum gives), not the NaN that the update's inf - inf makes
        const T mean = (s - s == (T)0) ? m : s / (T)count;
        const T var = q / (T)count;
        coef[0] = mean;
        coef[1] = ((T)1 / sqrt(var + eps)) * scale[c];
        if (blockIdx.x == 0) {
            stats[c] = mean;
            stats[channels + c] = var;
            stats[2 * channels + c] = mean;
            stats[3 * channels + c] = var;
            moving_mean[c] = keep * moving_mean[c] + momentum * mean;
            moving_var[c] = keep * moving_var[c] + momentum * (var * unbias);
        }
    }
    __syncthreads();
    ms_bn_normalise(x, y, coef[0], coef[1], bias[c], c, channels, inner, count, per, relu);
}

// Inference: the moving statistics normalise x; stats (4, C) repeats them (copies: training updates them in place).
extern "C" __global__ void ms_bn_infer(const X* __restrict__ x, const T* __restrict__ scale,
                                       const T* __restrict__ bias, const T* __restrict__ mean,
                                       const T* __restrict__ var, X* __restrict__ y, T* __restrict__ stats,
                                       int channels, int inner, long long count, long long per, T eps,
                                       int relu) {
    const int c = blockIdx.y;
    const T m = mean[c], v = var[c], a = ((T)1 / sqrt(v + eps)) * scale[c], b = bias[c];
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        stats[c] = m;
        stats[channels + c] = v;
        stats[2 * channels + c] = m;
        stats[3 * channels + c] = v;
    }
    ms_bn_normalise(x, y, m, a, b, c, channels, inner, count, per, relu);
}

// The gradient's dy, read through the ReluGrad before it when relu (the GRAPH pass gpu_fuse_relu_grad_batchnorm_grad:
// its select, dy where the ReLU's output y is above 0, else 0; y is dy itself, unread, otherwise).
__device__ __forceinline__ T ms_bn_dy(const X* __restrict__ dy, const X* __restrict__ y, long long i, int relu) {
    return (relu && !(ms_get(y[i]) > (T)0)) ? (T)0 : ms_get(dy[i]);
}

extern "C" __global__ void ms_bn_grad_sums(const X* __restrict__ dy, const X* __restrict__ x,
                                           const T* __restrict__ mean, const T* __restrict__ var,
                                           T* __restrict__ part, int channels, int inner, long long count,
                                           long long per, T eps, const X* __restrict__ y, int relu) {
    __shared__ T s0[RAW_BLOCK];
    __shared__ T s1[RAW_BLOCK];
    const int c = blockIdx.y;
    const T m = mean[c], rstd = (T)1 / sqrt(var[c] + eps);
    const long long start = (long long)blockIdx.x * per;
    const long long stop = min(start + per, count);
    T a0 = 0, a1 = 0;
    MsWalk w(start + threadIdx.x, inner);
    for (long long e = start + threadIdx.x; e < stop; e += RAW_BLOCK, w.next()) {
        const long long i = w.at(channels, c);
        const T g = ms_bn_dy(dy, y, i, relu);
        a0 += g;
        a1 += g * ((ms_get(x[i]) - m) * rstd);
    }
    s0[threadIdx.x] = a0;
    s1[threadIdx.x] = a1;
    __syncthreads();
    ms_block_sum2(s0, s1);
    if (threadIdx.x == 0) {
        T* out = part + ((long long)c * gridDim.x + blockIdx.x) * 2;
        out[0] = s0[0];
        out[1] = s1[0];
    }
}

// sums: (2, C) rows dscale, dbias.
extern "C" __global__ void ms_bn_grad_dx(const X* __restrict__ dy, const X* __restrict__ x,
                                         const T* __restrict__ mean, const T* __restrict__ var,
                                         const T* __restrict__ scale, const T* __restrict__ part,
                                         X* __restrict__ dx, T* __restrict__ sums, int channels, int inner,
                                         long long count, long long per, T eps, const X* __restrict__ y, int relu) {
    __shared__ T s0[RAW_BLOCK];
    __shared__ T s1[RAW_BLOCK];
    const int c = blockIdx.y;
    const int parts = gridDim.x;
    T a0 = 0, a1 = 0;
    for (int p = threadIdx.x; p < parts; p += RAW_BLOCK) {
        a0 += part[((long long)c * parts + p) * 2];
        a1 += part[((long long)c * parts + p) * 2 + 1];
    }
    s0[threadIdx.x] = a0;
    s1[threadIdx.x] = a1;
    __syncthreads();
    ms_block_sum2(s0, s1);
    const T dbias = s0[0], dscale = s1[0];
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        sums[c] = dscale;
        sums[channels + c] = dbias;
    }
    const T m = mean[c], rstd = (T)1 / sqrt(var[c] + eps), a = scale[c] * rstd, n = (T)count;
    const long long start = (long long)blockIdx.x * per;
    const long long stop = min(start + per, count);
    MsWalk w(start + threadIdx.x, inner);
    for (long long e = start + threadIdx.x; e < stop; e += RAW_BLOCK, w.next()) {
        const long long i = w.at(channels, c);
        const T xhat = (ms_get(x[i]) - m) * rstd;
        ms_put(dx[i], a * (ms_bn_dy(dy, y, i, relu) - dbias / n - xhat * (dscale / n)));
    }
}
"""
_BN_RAW = RawKernels("ms_batch_norm", _BN_SOURCE,
                     ("ms_bn_stats", "ms_bn_forward", "ms_bn_infer", "ms_bn_grad_sums", "ms_bn_grad_dx"),
                     bindings=DATA_BINDINGS)
#: Blocks a raw batch-norm kernel aims at over all channels (a few per SM of an H100/H200's 132), each chunk at
#: least four values per thread.
_BN_BLOCKS = 512
_BN_MAX_CHANNELS = 65535      # CUDA's largest grid y


def _bn_raw_shape(prim, x):
    """``(outer, C, inner, parts, per)``: ``x`` as (outer, C, inner) and each channel's ``outer * inner`` values in
    ``parts`` chunks of ``per``."""
    c = x.ndim - 1 if prim.data_format == "NHWC" else 1
    outer = inner = 1
    for d in x.shape[:c]:
        outer *= d
    for d in x.shape[c + 1:]:
        inner *= d
    count = outer * inner
    parts = max(1, min(-(-_BN_BLOCKS // x.shape[c]), count // (4 * RAW_BLOCK)))
    per = -(-count // parts)
    return outer, x.shape[c], inner, -(-count // per), per


def _bn_raw_usable(prim, x, *vectors, dy=None):
    """Whether the raw kernels take this call: fusion on, ``x`` (and ``dy``, of its dtype) CuPy arrays of a dtype of
    :data:`RAW_COMPUTE`, the per-channel vectors CuPy arrays of the dtype it computes in and contiguous (the moving
    statistics are written in place), a channel count CUDA's grid takes and planes the kernels' ``int`` sizes hold."""
    if not (_BN_RAW.enabled() and isinstance(x, cupy.ndarray) and x.size > 0):
        return False
    ct = RAW_COMPUTE.get(x.dtype)
    c = x.ndim - 1 if prim.data_format == "NHWC" else 1
    return (ct is not None and (dy is None or (isinstance(dy, cupy.ndarray) and dy.dtype == x.dtype))
            and all(isinstance(v, cupy.ndarray) and v.dtype == ct and v.flags.c_contiguous for v in vectors)
            and x.shape[c] <= _BN_MAX_CHANNELS and math.prod(x.shape[c + 1:]) < 2 ** 31)


def _batch_norm_raw(prim, x, scale, bias, mean, variance, relu=False):
    """Batch norm in two launches in training, one in inference (see ``_BN_SOURCE``): ``(y, batch mean, batch
    variance, saved mean, saved variance)``, ``y`` through a ReLU with ``relu``; in training the moving statistics
    ``mean``/``variance`` are updated in place, in inference outputs 1-4 repeat them. The per-channel vectors are
    contiguous (``_bn_raw_usable``).
    (A PYNATIVE step calls this per layer: the host work around the launches is kept to plain allocations, no
    ``empty_like``, which works out an order and strides, nor copies of what is contiguous already.)"""
    x = cupy.ascontiguousarray(x)
    xt = x.dtype
    dt = RAW_COMPUTE[xt]
    t = dt.type
    outer, channels, inner, parts, per = _bn_raw_shape(prim, x)
    count = outer * inner
    sizes = (numpy.int32(channels), numpy.int32(inner), numpy.int64(count), numpy.int64(per))
    y = cupy.empty(x.shape, xt)
    stats = cupy.empty((4, channels), dt)
    grid = (parts, channels)
    if not prim.is_training:
        _BN_RAW.launch("ms_bn_infer", grid, (x, scale, bias, mean, variance, y, stats) + sizes
                       + (t(prim.epsilon), numpy.int32(relu)), T=dt, X=xt)
        return (y, *stats)
    part = cupy.empty((channels, parts, 4), dt)
    _BN_RAW.launch("ms_bn_stats", grid, (x, part) + sizes, T=dt, X=xt)
    mom = prim.momentum
    _BN_RAW.launch("ms_bn_forward", grid,
                   (x, part, scale, bias, mean, variance, y, stats)
                   + sizes + (t(prim.epsilon), t(1 - mom), t(mom), t(max(count, 1) / max(count - 1, 1)),
                              numpy.int32(relu)), T=dt, X=xt)
    return (y, *stats)


def _batch_norm_grad_raw(prim, dy, x, scale, saved_mean, saved_variance, relu_y=None):
    """Training BatchNormGrad in two launches (see ``_BN_SOURCE``): ``(dx, dscale, dbias)``, ``dy`` read through
    ``ReluGrad(dy, relu_y)`` when ``relu_y`` is given (an array of dy's dtype and shape). The per-channel vectors are
    contiguous (``_bn_raw_usable``)."""
    x, dy = cupy.ascontiguousarray(x), cupy.ascontiguousarray(dy)
    y = dy if relu_y is None else cupy.ascontiguousarray(relu_y)
    relu = numpy.int32(relu_y is not None)
    xt = x.dtype
    dt = RAW_COMPUTE[xt]
    outer, channels, inner, parts, per = _bn_raw_shape(prim, x)
    sizes = (numpy.int32(channels), numpy.int32(inner), numpy.int64(outer * inner), numpy.int64(per))
    eps = dt.type(prim.epsilon)
    grid = (parts, channels)
    part = cupy.empty((channels, parts, 2), dt)
    _BN_RAW.launch("ms_bn_grad_sums", grid, (dy, x, saved_mean, saved_variance, part) + sizes + (eps, y, relu),
                   T=dt, X=xt)
    dx = cupy.empty(x.shape, xt)
    sums = cupy.empty((2, channels), dt)
    _BN_RAW.launch("ms_bn_grad_dx", grid,
                   (dy, x, saved_mean, saved_variance, scale, part, dx, sums) + sizes + (eps, y, relu), T=dt, X=xt)
    return (dx, *sums)


def _batch_norm_any(prim, x, scale, bias, mean, variance, out, relu):
    x = _dev(x)
    scale, bias = _dev(scale), _dev(bias)
    if not _bn_raw_usable(prim, x, scale, bias, mean, variance):   # (float16/bfloat16 x is, with float32 parameters)
        x = wide(x)
    if _bn_raw_usable(prim, x, scale, bias, mean, variance):
        try:
            return _batch_norm_raw(prim, x, scale, bias, mean, variance, relu)
        except FusedUnavailable:     # did not compile (before any write): the fused kernels are off, plain path below
            pass
    y, *stats = _PLAIN["BatchNorm"](prim, wide(x), scale, bias, mean, variance, out=out)
    if relu:
        y = KERNELS["ReLU"](None, fit(y, out[0]), out=out[0])      # (ReLU's kernels read no attribute)
    return (y, *stats)


@fits_out
def _batch_norm_fused(prim, x, scale, bias, mean, variance, *, out=None):
    return _batch_norm_any(prim, x, scale, bias, mean, variance, out, False)


def batch_norm_relu(prim, x, scale, bias, mean, variance, *, out=None):
    """``BatchNorm`` (``prim``) whose output 0 goes through a ReLU (the GRAPH pass ``gpu_fuse_batchnorm_relu``: the
    ReLU in the normalising launch, the same bits as BatchNorm's kernel then ReLU's)."""
    return fit(_batch_norm_any(prim, x, scale, bias, mean, variance, out, True), out)


def _batch_norm_grad_any(prim, dy, x, scale, saved_mean, saved_variance, reserve, out, relu_y):
    x, dy = _dev(x), _dev(dy)
    sv = wide(_dev(saved_variance))
    sm = wide(_dev(saved_mean))
    sc = wide(_dev(scale))
    if relu_y is not None:
        relu_y = _dev(relu_y)
        if not (prim.is_training and isinstance(relu_y, cupy.ndarray) and relu_y.dtype == dy.dtype
                and relu_y.shape == dy.shape and _bn_raw_usable(prim, x, sv, sm, sc, dy=dy)):
            dy, relu_y = KERNELS["ReluGrad"](None, dy, relu_y, out=out[0]), None    # (its kernels read no attribute)
    if not _bn_raw_usable(prim, x, sv, sm, sc, dy=dy):     # (float16/bfloat16 x and dy are, as in the forward)
        x, dy = wide(x), wide(dy)
    if prim.is_training and _bn_raw_usable(prim, x, sv, sm, sc, dy=dy):
        try:
            return _batch_norm_grad_raw(prim, dy, x, sc, sm, sv, relu_y)
        except FusedUnavailable:     # did not compile: the fused kernels are off, plain path below
            pass
    if relu_y is not None:
        dy = KERNELS["ReluGrad"](None, dy, relu_y, out=out[0])
    return _PLAIN["BatchNormGrad"](prim, wide(dy), wide(x), sc, sm, sv, reserve, out=out)


@fits_out
def _batch_norm_grad_fused(prim, dy, x, scale, saved_mean, saved_variance, reserve, *, out=None):
    return _batch_norm_grad_any(prim, dy, x, scale, saved_mean, saved_variance, reserve, out, None)


def relu_grad_batch_norm_grad(prim, dy, relu_y, x, scale, saved_mean, saved_variance, reserve, *, out=None):
    """``BatchNormGrad`` (``prim``) of ``ReluGrad(dy, relu_y)`` (the GRAPH pass ``gpu_fuse_relu_grad_batchnorm_grad``:
    the select read in batch norm's gradient launches, the same bits as ReluGrad's kernel then BatchNormGrad's)."""
    return fit(_batch_norm_grad_any(prim, dy, x, scale, saved_mean, saved_variance, reserve, out, relu_y), out)


# --- ApplyMomentum ------------------------------------------------------------------------------
# In variable's dtype and in MindSpore's order of operations (see ApplyMomentum); CUDA may contract
# a * mu + g into one fused multiply-add, which rounds once instead of twice.
_MOMENTUM = Fused("ms_apply_momentum", "T g, T lr, T mu, T scale", "T v, T a",
                  "T gi = g * scale; T ai = a * mu + gi; a = ai; v = v - ai * lr;")
_MOMENTUM_NESTEROV = Fused("ms_apply_momentum_nesterov", "T g, T lr, T mu, T scale", "T v, T a",
                           "T gi = g * scale; T ai = a * mu + gi; a = ai; v = v - (gi * lr + ai * mu * lr);")


def _scalar_in(v, dt):
    """A number or one-element tensor as a 0-d value of ``dt`` (a device tensor stays on the device)."""
    if is_array(v):
        return _dev(v).astype(dt, copy=False).reshape(())
    return numpy.asarray(v, dt).reshape(())[()]


def _apply_momentum(prim, variable, accumulation, learning_rate, gradient, momentum, *, out):
    """In place; returns ``variable``."""
    dt = variable.dtype
    lr, mu = _scalar_in(learning_rate, dt), _scalar_in(momentum, dt)
    g = _dev(gradient)
    scale = numpy.asarray(prim.gradient_scale, dt)[()]
    fused = _MOMENTUM_NESTEROV if prim.use_nesterov else _MOMENTUM
    if fused.usable(variable, accumulation, g):
        fused(g, lr, mu, scale, variable, accumulation)
        return variable
    if prim.gradient_scale != 1.0:
        g = g * scale
    a = _dev(accumulation) * mu + g
    store(accumulation, a)
    v = _dev(variable)
    store(variable, v - (g * lr + a * mu * lr) if prim.use_nesterov else v - a * lr)
    return variable


# Up to SLOTS parameters' momentum updates in one launch (blockIdx.y picks the parameter), each element computed as
# _MOMENTUM/_MOMENTUM_NESTEROV compute it; the learning rate and momentum read from the device (no read back).
_MOMENTUM_MANY = RawKernels("ms_momentum_many", f"""
extern "C" __global__ void ms_momentum_many({slot_params("T*", "v")}, {slot_params("T*", "a")},
                                            {slot_params("const T*", "g")}, {slot_params("long long", "n")},
                                            const T* __restrict__ learning_rate, const T* __restrict__ momentum,
                                            const T scale, const int nesterov) {{
    T* vs[{SLOTS}] = {{{slot_names("v")}}};
    T* as[{SLOTS}] = {{{slot_names("a")}}};
    const T* gs[{SLOTS}] = {{{slot_names("g")}}};
    const long long ns[{SLOTS}] = {{{slot_names("n")}}};
    T* v = vs[blockIdx.y];
    T* a = as[blockIdx.y];
    const T* g = gs[blockIdx.y];
    const long long n = ns[blockIdx.y];
    const T lr = *learning_rate;
    const T mu = *momentum;
    for (long long i = (long long)blockIdx.x * RAW_BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * RAW_BLOCK) {{
        T gi = g[i] * scale;
        T ai = a[i] * mu + gi;
        a[i] = ai;
        v[i] = nesterov ? v[i] - (gi * lr + ai * mu * lr) : v[i] - ai * lr;
    }}
}}
""", ("ms_momentum_many",))


def apply_momentum_many(prim, variables, accumulations, learning_rate, gradients, momentum):
    """``ApplyMomentum`` (``prim``'s attributes) of every (variable, accumulation, gradient), all with one learning rate
    and momentum: in place, as ``prim`` applied to each would, the numbers of its fused kernel; returns the variables.
    The C-contiguous float32/float64 parameters whose three arrays share a dtype, with a learning rate and momentum
    on the device, go :data:`SLOTS` to a launch of ``ms_momentum_many`` (the graphs' ``gpu_group_updates`` pass groups
    an optimizer's updates so); the others are updated one by one."""
    rest = []
    groups = {}
    for i, (v, a, g) in enumerate(zip(variables, accumulations, gradients)):
        g = _dev(g)
        if isinstance(v, cupy.ndarray) and v.size and is_array(learning_rate) and is_array(momentum) and \
                _MOMENTUM_MANY.usable(v, a, g) and v.flags.c_contiguous and a.flags.c_contiguous and \
                g.flags.c_contiguous and g.shape == v.shape == a.shape:
            groups.setdefault(v.dtype, []).append(i)
        else:
            rest.append(i)
    for dt, indices in groups.items():
        lr = _scalar_in(learning_rate, dt)
        mu = _scalar_in(momentum, dt)
        scale = dt.type(prim.gradient_scale)
        for start in range(0, len(indices), SLOTS):
            chunk = indices[start:start + SLOTS]
            vs = [variables[i] for i in chunk]
            blocks = max(1, min(1024, -(-max(v.size for v in vs) // RAW_BLOCK)))
            args = slot_args([vs, [accumulations[i] for i in chunk], [_dev(gradients[i]) for i in chunk]],
                             [v.size for v in vs])
            try:
                _MOMENTUM_MANY.launch("ms_momentum_many", (blocks, len(chunk)),
                                      tuple(args + [lr, mu, scale, numpy.int32(bool(prim.use_nesterov))]), T=dt)
            except FusedUnavailable:       # did not compile (before any write): these one by one
                rest.extend(indices[start:])
                break
    for i in sorted(rest):
        _apply_momentum(prim, variables[i], accumulations[i], learning_rate, gradients[i], momentum, out=None)
    return tuple(variables)


# --- Dropout ---------------------------------------------------------------------------------------
_DROPOUT = Fused("ms_dropout", "T x, float32 u, float32 keep, T scale", "T y, T mask",
                 "mask = u < keep ? (T)1 : (T)0; y = x * mask * scale;", dtypes=_SELECTS)


@retrying
def _dropout(prim, x, *, out):
    """(x * mask / keep_prob, mask), the mask 1 where a uniform draw is below ``keep_prob``: drawn from the
    primitive's counter-based stream (``_common.counter_uniform``: a CUDA graph holding it can be replayed) and
    applied by :data:`_DROPOUT` in one launch (float16/32/64), else from its cuRAND stream."""
    x = _dev(x)
    keep = prim.keep_prob
    u = counter_uniform(prim, x.shape)
    if u is None:
        u = device_rng(prim, prim.generator()).random_sample(x.shape, dtype=numpy.float32)
    elif _DROPOUT.usable(x):
        return _DROPOUT(x, u, numpy.float32(keep), x.dtype.type(1.0 / keep))
    mask = (u < keep).astype(x.dtype)
    return fit(x * mask * x.dtype.type(1.0 / keep), out[0]), mask


KERNELS.update({
    "ReLU": _relu_fused,
    "GeLU": _gelu_fused,
    "GeLUGrad": _gelu_grad_fused,
    "ReluGrad": _relu_grad_fused,
    "Softmax": _softmax_fused,
    "SoftmaxGrad": _softmax_grad_fused,
    "LogSoftmax": _log_softmax_fused,
    "LayerNorm": _layer_norm_fused,
    "LayerNormGrad": _layer_norm_grad_fused,
    "BatchNorm": _batch_norm_fused,
    "ApplyMomentum": _apply_momentum,
    "BatchNormGrad": _batch_norm_grad_fused,
    "Dropout": _dropout,
})
