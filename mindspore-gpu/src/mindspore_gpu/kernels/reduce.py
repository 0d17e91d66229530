"""GPU kernels of ``mindspore/ops/_defs/reduce.py``: mindspore-array-kernels' ``reduce`` family bound to CuPy (the CPU
backend binds the same source to NumPy), with ``_common.dev`` (no copy for a CuPy array already on the device), no
error state (CuPy's kernels never warn), float16 ``ReduceSum``/``ReduceProd``/``ReduceMean`` accumulating in float32,
bfloat16 sorted and NaN-checked as float32 (``_common.sortable``: CuPy cannot sort it), no host read-back in the NaN
rule and ``_common.scan`` for the running extrema (prefix scans in ``log2(n)`` vectorised steps: CuPy's ufuncs
accumulate only add and multiply).

``ReduceSum`` is this backend's own: a sum over the leading axes of a float32/float64 array (a bias's gradient) is
one hand-written launch (:data:`_LEADING`); every other sum is the family's.
"""
import contextlib

import cupy
import numpy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import F16, F32, RawKernels, dev, fit, scan, sortable

_QUIET = contextlib.nullcontext()


def _no_errstate(**_):
    return _QUIET


def _acc_dtype(x):
    return F32 if x.dtype == F16 else None


def _never_clear(mask):
    return False


KERNELS = bind("reduce", globals(), xp=cupy, dev=dev, errstate=_no_errstate, acc_dtype=_acc_dtype,
               sortable=sortable, known_clear=_never_clear, scan=scan)["KERNELS"]

# Sums over the leading axes of a C-contiguous float32/float64 array, seen as (rows, cols) -> (cols,): a bias's
# gradient (the batch summed out), the most common ReduceSum of a training step. One hand-written launch (CuPy's
# reduction costs twice the host time: 22 us against 12 on an H200): a block takes 32 adjacent columns, its 8 warps
# each sum every 8th row of them (reads coalesced along the row), then the 8 partial sums are added in order.
_LEADING = RawKernels("ms_sum_leading", r"""
extern "C" __global__ void ms_sum_leading(const T* __restrict__ x, T* __restrict__ y, long long rows,
                                          long long cols) {
    __shared__ T part[RAW_BLOCK / 32][33];
    const int lane = threadIdx.x & 31, stripe = threadIdx.x >> 5;
    const long long j = (long long)blockIdx.x * 32 + lane;
    T s = (T)0;
    if (j < cols) {
        for (long long i = stripe; i < rows; i += RAW_BLOCK / 32) s += x[i * cols + j];
    }
    part[stripe][lane] = s;
    __syncthreads();
    if (stripe == 0 && j < cols) {
        T total = part[0][lane];
        for (int r = 1; r < RAW_BLOCK / 32; ++r) total += part[r][lane];
        y[j] = total;
    }
}
""", ("ms_sum_leading",))
#: The most rows a leading sum takes by hand (8 threads per column each add rows / 8 values in turn; past this CuPy's
#: reduction, parallel over the rows, is the faster).
LEADING_ROWS = 1 << 16


def _leading_count(x, axis):
    """How many leading axes ``axis`` (MindSpore's: ``()``/``None`` reduce everything) names, when they are exactly
    the first ones and not all; else 0."""
    if x.ndim < 2 or axis is None or axis == () or axis == []:
        return 0
    named = sorted(a % x.ndim for a in ((axis,) if isinstance(axis, int) else axis))
    if named != list(range(len(named))) or len(named) >= x.ndim:
        return 0
    return len(named)


def _sum_leading(x, lead, keepdims):
    """``x`` summed over its first ``lead`` axes by :data:`_LEADING`, or ``None`` when the case is not for it."""
    rows = 1
    for d in x.shape[:lead]:
        rows *= d
    if not (0 < rows <= LEADING_ROWS and x.size and x.flags.c_contiguous and _LEADING.usable(x)):
        return None
    cols = x.size // rows
    y = cupy.empty(x.shape[lead:], x.dtype)
    _LEADING.launch("ms_sum_leading", ((cols + 31) // 32,), (x, y, numpy.int64(rows), numpy.int64(cols)), T=x.dtype)
    return y.reshape((1,) * lead + x.shape[lead:]) if keepdims else y


_FAMILY_SUM = KERNELS["ReduceSum"]


def _reduce_sum(prim, x, axis=(), *, out=None):
    """The family's ``ReduceSum``, but a sum over exactly the leading axes by :data:`_LEADING` where it takes it (a
    named axis: ``skip_mode`` does not apply; bool, summed as int64, is not for it)."""
    x = dev(x)
    lead = _leading_count(x, axis)
    if lead:
        y = _sum_leading(x, lead, prim.keep_dims)
        if y is not None:
            return fit(y, out)
    return _FAMILY_SUM(prim, x, axis, out=out)


KERNELS.update({"ReduceSum": _reduce_sum})
