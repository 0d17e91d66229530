"""GPU kernels of the loss family: the softmax cross-entropies, row-wise over (N, C) logits.

With ``m`` the row maximum (0 for a row without a finite one, as the CPU kernels do) and
``lse = m + log(sum exp(x - m))``::

    dense:  loss_i = sum_j labels_ij * (lse_i - x_ij)   (terms with a zero label skipped),
            backprop_ij = softmax_ij - labels_ij
    sparse: loss = mean_i (lse_i - x_i,label_i)          (summed in float64),
            grad_ij = (softmax_ij - [j == label_i]) / N

float16 computes in float32. The dense loss's elementwise tail (softmax, backprop and the loss terms
in one pass) is a fused CUDA kernel for float32/float64, with a plain-CuPy path; the sparse loss and its gradient
take three launches each (the row maximum, the exponentials' sum as a ``ReductionKernel``, and the loss as one
float64 reduction or the gradient with the label's ``- 1/N`` as one kernel), six and four without ReductionKernel,
with a plain-CuPy path.

The sparse labels are not range-checked here, as MindSpore's GPU kernel does not check them: a check reads a flag
back to the host, which stalls every step (and a stream capturing a CUDA graph refuses it). A label outside
``[0, C)`` matches no column: its row adds 0 to the loss's sum and gets no ``- 1/N`` in the gradient (never a read
out of bounds). The CPU kernels raise for such a label.
"""
import cupy
import numpy

from mindspore_gpu.kernels._common import Fused, FusedReduction, compute_dtype, fits_out

_dev = cupy.asarray  # no copy for a CuPy array already on the current device

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


# The sparse loss without ReductionKernel (float32/float64, fusion on), with the plain path's operations in its order:
# the shift (m where finite, else 0: ``m - m == 0`` is false for inf and NaN) and exp in one kernel; each row's
# loss in float64 in one, at its label's column (``col`` against ``lab``) and 0 elsewhere, so that one sum over
# every element adds the rows' losses (adding zeros is exact) without gathering the labels' logits first.
_SPARSE_EXP = Fused("ms_sparse_ce_exp", "T x, T m", "T e", "T s = (m - m == (T)0) ? m : (T)0; e = exp(x - s);")
_SPARSE_ROW = Fused("ms_sparse_ce_row", "T x, T m, T total, I lab, I col", "float64 r",
                    "T s = (m - m == (T)0) ? m : (T)0; T lse = s + log(total);"
                    "r = col == lab ? (double)(lse - x) : (double)0;")
# the gradient's ``- scale`` at each row's label in the same kernel: ``col`` (the column indices) against ``lab``
# (the labels as a column)
_SPARSE_GRAD = Fused("ms_sparse_ce_grad", "T e, T total, T scale, I lab, I col", "T g",
                     "T inv = (T)1 / total; T gi = e * inv * scale; g = col == lab ? gi - scale : gi;")
# the mean of the rows' float64 losses, cast to the logits' dtype
_SPARSE_MEAN = {numpy.dtype(t): Fused(f"ms_sparse_ce_mean_{t}", "float64 s, float64 n", f"{t} y",
                                      f"y = ({c})(s / n);")
                for t, c in (("float32", "float"), ("float64", "double"))}




# With ReductionKernel, three launches each way: the row maximum; the sum of exp(x - shift) as one reduction (the
# exponentials are not stored); then the loss as one float64 reduction over every element (each row's loss at its
# label's column, 0 elsewhere), divided by N and cast in its post-map, or the gradient in one kernel that takes
# exp(x - shift) again. The same operations as the kernels above (the sums' association is the reductions').
_SHIFT = "((m - m == (T)0) ? m : (T)0)"
_SPARSE_TOTAL = FusedReduction("ms_sparse_ce_total", "T x, T m", "T total", f"exp(x - {_SHIFT})", "a + b",
                               "total = a", "0")
_SPARSE_LOSS = FusedReduction("ms_sparse_ce_loss", "T x, T m, T total, I lab, I col, float64 n", "T y",
                              f"col == lab ? (double)(({_SHIFT} + log(total)) - x) : 0.0", "a + b", "y = (T)(a / n)",
                              "0", reduce_type="double")
_SPARSE_GRAD_EXP = Fused("ms_sparse_ce_grad_exp", "T x, T m, T total, T scale, I lab, I col", "T g",
                         f"T e = exp(x - {_SHIFT}); T inv = (T)1 / total; T gi = e * inv * scale;"
                         "g = col == lab ? gi - scale : gi;")

_COLUMNS = {}


def _columns(c, dtype):
    """``arange(c)`` of ``dtype`` on the current device, made once per (device, c, dtype) and only read (not kept
    when made while a stream captures: a captured kernel runs only when its graph does)."""
    if cupy.cuda.get_current_stream().is_capturing():
        return cupy.arange(c, dtype=dtype)
    key = (cupy.cuda.runtime.getDevice(), c, numpy.dtype(dtype))
    col = _COLUMNS.get(key)
    if col is None:
        col = _COLUMNS[key] = cupy.arange(c, dtype=dtype)
    return col


def _sparse_fused(prim, x, labels, n):
    m = cupy.max(x, axis=1, keepdims=True)
    lab, col = labels.reshape(n, 1), _columns(x.shape[1], labels.dtype)
    if _SPARSE_TOTAL.usable(x, m):
        total = _SPARSE_TOTAL(x, m, axis=1, keepdims=True)
        if prim.is_grad:
            return _SPARSE_GRAD_EXP(x, m, total, x.dtype.type(1.0 / n), lab, col)
        return _SPARSE_LOSS(x, m, total, lab, col, numpy.float64(n))
    e = _SPARSE_EXP(x, m)
    total = cupy.sum(e, axis=1, keepdims=True)
    dt = x.dtype.type
    if prim.is_grad:
        return _SPARSE_GRAD(e, total, dt(1.0 / n), lab, col)
    return _SPARSE_MEAN[x.dtype](cupy.sum(_SPARSE_ROW(x, m, total, lab, col)), numpy.float64(n))


@fits_out
def _sparse_softmax_cross_entropy(prim, logits, labels, *, out=None):
    logits, labels = _dev(logits), _dev(labels)
    dt = compute_dtype(logits)
    x = logits.astype(dt, copy=False)
    n, c = x.shape
    if n > 0 and c > 0 and _SPARSE_EXP.usable(x):
        return _sparse_fused(prim, x, labels, n)
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
