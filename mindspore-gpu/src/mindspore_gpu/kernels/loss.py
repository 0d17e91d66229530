"""GPU kernels of the loss family: the softmax cross-entropies, row-wise over (N, C) logits.

With ``m`` the row maximum (0 for a row without a finite one, as the CPU kernels do) and
``lse = m + log(sum exp(x - m))``::

    dense:  loss_i = sum_j labels_ij * (lse_i - x_ij)   (terms with a zero label skipped),
            backprop_ij = softmax_ij - labels_ij
    sparse: loss = mean_i (lse_i - x_i,label_i)          (summed in float64),
            grad_ij = (softmax_ij - [j == label_i]) / N

float16 computes in float32. The dense loss's elementwise tail (softmax, backprop and the loss terms
in one pass) is a fused CUDA kernel for float32/float64, with a plain-CuPy path; the sparse loss takes two launches
of hand-written kernels (each row's loss in float64, their mean) and its gradient one, with a plain-CuPy path.

The sparse labels are not range-checked here, as MindSpore's GPU kernel does not check them: a check reads a flag
back to the host, which stalls every step (and a stream capturing a CUDA graph refuses it). A label outside
``[0, C)`` matches no column: its row adds 0 to the loss's sum and gets no ``- 1/N`` in the gradient (never a read
out of bounds). The CPU kernels raise for such a label.
"""
import cupy
import numpy

from mindspore_gpu.kernels._common import (RAW_HELPERS, Fused, FusedUnavailable, RawKernels, compute_dtype,
                                           fits_out, dev)

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)

_DENSE_TAIL = Fused("ms_softmax_ce_tail", "T x, T lab, T m, T inv, T lse", "T bp, T term",
                    "bp = exp(x - m) * inv - lab; term = lab != (T)0 ? lab * (lse - x) : (T)0;")


def _row_parts(x):
    """(shift m, 1 / sum exp(x - m), lse), each (N, 1)."""
    m = cupy.max(x, axis=1, keepdims=True) if x.shape[1] else cupy.zeros((x.shape[0], 1), x.dtype)
    m = cupy.where(cupy.isfinite(m), m, x.dtype.type(0))
    total = cupy.sum(cupy.exp(x - m), axis=1, keepdims=True)
    return m, 1 / total, m + cupy.log(total)


@fits_out
def _softmax_cross_entropy(prim, logits, labels, *, out=None):
    logits, labels = _dev(logits), _dev(labels)
    dt = compute_dtype(logits, labels)
    x, lab = logits.astype(dt, copy=False), labels.astype(dt, copy=False)
    m, inv, lse = _row_parts(x)
    if _DENSE_TAIL.usable(x, lab):
        bp, term = _DENSE_TAIL(x, lab, m, inv, lse)
    else:
        bp = cupy.exp(x - m) * inv - lab
        term = cupy.where(lab != 0, lab * (lse - x), dt.type(0))
    return cupy.sum(term, axis=1), bp


# The sparse loss in two launches and its gradient in one (float32/float64, fusion on): hand-written kernels with a
# block per row that takes the row's maximum (NaN if it holds one, as cupy.max), the shift (that maximum where
# finite, else 0: ``m - m == 0`` is false for inf and NaN) and the sum of exp(x - shift); then the gradient's row (the
# label's ``- scale`` at its column), or the row's loss in float64 at its label (0 for a label outside [0, C)), which
# one block sums and divides by N, cast to the logits' dtype. The plain path's formulas.
_SPARSE_RAW = RawKernels("ms_sparse_softmax_ce", RAW_HELPERS + r"""
// The row's shift (its maximum where finite, else 0) and the sum of exp(x - shift), every thread given both.
__device__ __forceinline__ void ms_row_shift_total(const T* row, long long c, T* buf, T& shift, T& total) {
    const T m = ms_row_max(row, c, buf);
    shift = (m - m == (T)0) ? m : (T)0;
    total = ms_row_expsum(row, c, shift, buf);
}

extern "C" __global__ void ms_sparse_ce_grad(const T* __restrict__ x, const I* __restrict__ labels,
                                             T* __restrict__ g, long long c, T scale) {
    __shared__ T buf[RAW_BLOCK];
    const T* row = x + (long long)blockIdx.x * c;
    T shift, total;
    ms_row_shift_total(row, c, buf, shift, total);
    const long long label = (long long)labels[blockIdx.x];
    const T inv = (T)1 / total;
    for (long long j = threadIdx.x; j < c; j += RAW_BLOCK) {
        const T gi = exp(row[j] - shift) * inv * scale;
        g[(long long)blockIdx.x * c + j] = j == label ? gi - scale : gi;
    }
}

extern "C" __global__ void ms_sparse_ce_rows(const T* __restrict__ x, const I* __restrict__ labels,
                                             double* __restrict__ losses, long long c) {
    __shared__ T buf[RAW_BLOCK];
    const T* row = x + (long long)blockIdx.x * c;
    T shift, total;
    ms_row_shift_total(row, c, buf, shift, total);
    if (threadIdx.x == 0) {
        const long long label = (long long)labels[blockIdx.x];
        losses[blockIdx.x] = (label >= 0 && label < c) ? (double)((shift + log(total)) - row[label]) : 0.0;
    }
}

extern "C" __global__ void ms_sparse_ce_mean(const double* __restrict__ losses, T* __restrict__ y, long long n) {
    __shared__ double buf[RAW_BLOCK];
    double s = 0.0;
    for (long long i = threadIdx.x; i < n; i += RAW_BLOCK) s += losses[i];
    s = ms_block_sum(s, buf);
    if (threadIdx.x == 0) y[0] = (T)(s / (double)n);
}
""", ("ms_sparse_ce_grad", "ms_sparse_ce_rows", "ms_sparse_ce_mean"))
_LABELS = (numpy.dtype(numpy.int32), numpy.dtype(numpy.int64))


def _sparse_raw(prim, x, labels, n):
    x, labels = cupy.ascontiguousarray(x), cupy.ascontiguousarray(labels).reshape(n)
    c = numpy.int64(x.shape[1])
    types = dict(T=x.dtype, I=labels.dtype)
    if prim.is_grad:
        g = cupy.empty_like(x)
        _SPARSE_RAW.launch("ms_sparse_ce_grad", (n,), (x, labels, g, c, x.dtype.type(1.0 / n)), **types)
        return g
    losses = cupy.empty(n, numpy.float64)
    _SPARSE_RAW.launch("ms_sparse_ce_rows", (n,), (x, labels, losses, c), **types)
    y = cupy.empty((), x.dtype)
    _SPARSE_RAW.launch("ms_sparse_ce_mean", (1,), (losses, y, numpy.int64(n)), **types)
    return y


@fits_out
def _sparse_softmax_cross_entropy(prim, logits, labels, *, out=None):
    logits, labels = _dev(logits), _dev(labels)
    dt = compute_dtype(logits)
    x = logits.astype(dt, copy=False)
    n, c = x.shape
    if n > 0 and c > 0 and _SPARSE_RAW.usable(x) and labels.dtype in _LABELS:
        try:
            return _sparse_raw(prim, x, labels, n)
        except FusedUnavailable:     # did not compile: the fused kernels are off; the plain path below
            pass
    m, inv, lse = _row_parts(x)
    hit = cupy.arange(c, dtype=labels.dtype) == labels.reshape(n, 1)   # (a label out of range hits no column)
    if prim.is_grad:
        scale = dt.type(1.0 / n) if n > 0 else dt.type(0)
        grad = cupy.exp(x - m) * inv * scale
        return cupy.where(hit, grad - scale, grad)
    if n == 0:
        return cupy.full((), numpy.nan, dt)
    row_loss = cupy.where(hit, (lse - x).astype(numpy.float64), 0.0)
    return (cupy.sum(row_loss) / n).astype(dt)


KERNELS = {
    "SoftmaxCrossEntropyWithLogits": _softmax_cross_entropy,
    "SparseSoftmaxCrossEntropyWithLogits": _sparse_softmax_cross_entropy,
}
