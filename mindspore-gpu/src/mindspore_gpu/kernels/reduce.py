"""GPU kernels of the reduce family (CuPy reductions; half-precision sums accumulate in float32).

``Cummax``/``Cummin`` are prefix scans in ``log2(n)`` vectorised steps (CuPy's ufuncs accumulate only
add and multiply).
"""
import cupy
import numpy

from mindspore_gpu.kernels._common import F16, F32, RawKernels, fit, fits_out, scan, sortable, dev

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)


def _axes(x, axis):
    """CuPy's ``axis`` for MindSpore's: ``()``/``None`` (or a 0-d input) reduce everything."""
    if x.ndim == 0 or axis is None or axis == () or axis == []:
        return None
    return tuple(axis) if isinstance(axis, (tuple, list)) else axis


def _reducer(fn):
    def kernel(prim, x, axis=(), *, out):
        x = _dev(x)
        return fit(fn(x, axis=_axes(x, axis), keepdims=prim.keep_dims), out)
    kernel.__name__ = f"gpu_{getattr(fn, '__name__', 'reduce')}"
    return kernel


def _reduce_prod(prim, x, axis=(), *, out):
    x = _dev(x)
    acc = F32 if x.dtype == F16 else None
    return fit(cupy.prod(x, axis=_axes(x, axis), keepdims=prim.keep_dims, dtype=acc), out)


@fits_out
def _reduce_mean(prim, x, axis=(), *, out=None):
    x = _dev(x)
    if x.dtype.kind in "iub":
        return cupy.trunc(cupy.mean(x, axis=_axes(x, axis), keepdims=prim.keep_dims, dtype=numpy.float64))
    return cupy.mean(x, axis=_axes(x, axis), keepdims=prim.keep_dims, dtype=F32 if x.dtype == F16 else None)


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


def _leading_count(x, axes):
    """How many leading axes ``axes`` (CuPy's ``axis``) names, when they are exactly the first ones; else 0."""
    if axes is None or x.ndim < 2:
        return 0
    named = sorted(a % x.ndim for a in ((axes,) if isinstance(axes, int) else axes))
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


@fits_out
def _reduce_sum(prim, x, axis=(), *, out=None):
    x = _dev(x)
    if prim.skip_mode and (axis is None or axis == () or axis == []):
        return x.copy()
    if x.dtype == numpy.bool_:
        x = x.astype(numpy.int64)
    axes = _axes(x, axis)
    lead = _leading_count(x, axes)
    if lead:
        y = _sum_leading(x, lead, prim.keep_dims)
        if y is not None:
            return y
    return cupy.sum(x, axis=axes, keepdims=prim.keep_dims, dtype=F32 if x.dtype == F16 else None)


# NaN, as MindSpore's kernels treat it in max/min reductions and arg-reductions (the CPU backend's kernels
# state the same): an in-order scan replacing the best so far only by a strictly greater (smaller) value, so
# a leading NaN is the result (index 0), a later NaN is skipped. Computed without reading anything back.
def _scan_arg(x, axis, largest):
    find = cupy.argmax if largest else cupy.argmin
    if x.dtype.kind != "f":
        return find(x, axis=axis)
    nan = cupy.isnan(x)
    idx = find(cupy.where(nan, x.dtype.type(-numpy.inf if largest else numpy.inf), x), axis=axis)
    lead = cupy.take(nan, 0, axis=axis) if axis is not None else nan.reshape(-1)[0]
    return cupy.where(lead, 0, idx)


def _scan_extreme(largest):
    plain = cupy.max if largest else cupy.min

    def reduce(x, axis=None, keepdims=False):
        if x.dtype.kind != "f" or x.size == 0:
            return plain(x, axis=axis, keepdims=keepdims)
        axes = tuple(range(x.ndim)) if axis is None else (axis,) if numpy.isscalar(axis) else tuple(axis)
        axes = tuple(a % x.ndim for a in axes)
        nan = cupy.isnan(x)
        best = plain(cupy.where(nan, x.dtype.type(-numpy.inf if largest else numpy.inf), x), axis=axes,
                     keepdims=True)
        lead = nan[tuple(slice(0, 1) if i in axes else slice(None) for i in range(x.ndim))]
        res = cupy.where(lead, x.dtype.type(numpy.nan), best)
        return res if keepdims else cupy.squeeze(res, axis=axes)
    reduce.__name__ = "max" if largest else "min"
    return reduce


def _arg(largest):
    def kernel(prim, x, *, out):
        x = _dev(x)
        if x.ndim == 0:
            return fit(cupy.zeros((), numpy.int64), out)
        return fit(_scan_arg(x, prim.axis, largest), out)
    kernel.__name__ = f"gpu_arg{'max' if largest else 'min'}"
    return kernel


def _arg_with_value(largest):
    def kernel(prim, x, *, out):
        x = _dev(x)
        if x.ndim == 0:
            return fit((cupy.zeros((), numpy.int32), x.copy()), out)
        axis = prim.axis % x.ndim
        idx = cupy.expand_dims(_scan_arg(x, axis, largest), axis)
        values = cupy.take_along_axis(x, idx, axis=axis)
        if not prim.keep_dims:
            idx, values = cupy.squeeze(idx, axis), cupy.squeeze(values, axis)
        return fit((idx, values), out)
    kernel.__name__ = f"gpu_arg{'max' if largest else 'min'}_with_value"
    return kernel


def _median(prim, x, *, out):
    x = _dev(x)
    if prim.global_median or x.ndim == 0:
        flat = x.reshape(-1)
        order = cupy.argsort(sortable(flat))
        k = (flat.size - 1) // 2
        return fit((flat[order[k]], cupy.zeros((), numpy.int64)), out)
    axis = prim.axis % x.ndim
    k = (x.shape[axis] - 1) // 2
    order = cupy.argsort(sortable(x), axis=axis)
    idx = order[(slice(None),) * axis + (slice(k, k + 1),)]
    values = cupy.take_along_axis(x, idx, axis=axis)
    if not prim.keep_dims:
        idx, values = cupy.squeeze(idx, axis), cupy.squeeze(values, axis)
    return fit((values, idx), out)


def _cumulative(better):
    """Running extremum and its index along ``prim.axis``; ties move the index to the latest position."""
    def kernel(prim, x, *, out):
        x = _dev(x)
        if x.ndim == 0:
            return fit((x.copy(), cupy.zeros((), numpy.int64)), out)
        axis = prim.axis % x.ndim
        moved = cupy.moveaxis(x, axis, 0)
        n = moved.shape[0]
        values = scan(better, moved)
        # The index is the last position at or before j whose value equals the running extremum.
        positions = cupy.arange(n, dtype=numpy.int64).reshape((n,) + (1,) * (moved.ndim - 1))
        hit = moved == values
        if moved.dtype.kind == "f":
            hit |= cupy.isnan(moved) & cupy.isnan(values)
        idx = scan(cupy.maximum, cupy.where(hit, positions, 0))
        return fit((cupy.asarray(cupy.moveaxis(values, 0, axis), order="C"),
                    cupy.asarray(cupy.moveaxis(idx, 0, axis), order="C")), out)
    kernel.__name__ = f"gpu_cum_{getattr(better, '__name__', 'extremum')}"
    return kernel


def _lp_norm(prim, x, *, out):
    x = _dev(x)
    axis = _axes(x, prim.axis)
    a = cupy.abs(x)
    if prim.p == 0:
        r = cupy.sum(a != 0, axis=axis, keepdims=prim.keep_dims).astype(x.dtype)
    elif prim.p == 1:
        r = cupy.sum(a, axis=axis, keepdims=prim.keep_dims)
    elif prim.p == 2:
        r = cupy.sqrt(cupy.sum(a * a, axis=axis, keepdims=prim.keep_dims))
    else:
        r = cupy.power(cupy.sum(cupy.power(a, prim.p), axis=axis, keepdims=prim.keep_dims), 1.0 / prim.p)
    return fit(r, out)


def _l2_loss(prim, x, *, out):
    x = _dev(x)
    return fit(cupy.sum(x * x) / 2, out)


def _reduce_std(prim, x, *, out):
    x = _dev(x)
    axis = _axes(x, prim.axis)
    std = cupy.std(x, axis=axis, ddof=1 if prim.unbiased else 0, keepdims=prim.keep_dims)
    mean = cupy.mean(x, axis=axis, keepdims=prim.keep_dims)
    return fit((std, mean), out)


KERNELS = {
    "ReduceSum": _reduce_sum,
    "ReduceMean": _reduce_mean,
    "ReduceMax": _reducer(_scan_extreme(True)),
    "ReduceMin": _reducer(_scan_extreme(False)),
    "ReduceProd": _reduce_prod,
    "ReduceAll": _reducer(cupy.all),
    "ReduceAny": _reducer(cupy.any),
    "Argmax": _arg(True),
    "Argmin": _arg(False),
    "ArgMaxWithValue": _arg_with_value(True),
    "ArgMinWithValue": _arg_with_value(False),
    "Median": _median,
    "Cummax": _cumulative(cupy.maximum),
    "Cummin": _cumulative(cupy.minimum),
    "LpNorm": _lp_norm,
    "L2Loss": _l2_loss,
    "ReduceStd": _reduce_std,
}
