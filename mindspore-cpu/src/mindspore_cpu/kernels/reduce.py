"""CPU kernels of the reduce family (NumPy, vectorised)."""
import numpy as np

from mindspore_cpu.kernels._out import fit, fits_out


def _axes(x, axis):
    """NumPy's ``axis`` for MindSpore's: ``()``/``None`` (or a 0-d input) reduce everything."""
    if x.ndim == 0 or axis is None or axis == () or axis == []:
        return None
    return tuple(axis) if isinstance(axis, (tuple, list)) else axis


def _reducer(fn):
    def kernel(prim, x, axis=(), out=None):
        with np.errstate(invalid="ignore", over="ignore"):
            return fit(np.asarray(fn(x, axis=_axes(x, axis), keepdims=prim.keep_dims)), out)
    return kernel


@fits_out
def _reduce_mean(prim, x, axis=(), out=None):
    if x.dtype.kind in "iub":
        return np.asarray(np.trunc(np.mean(x, axis=_axes(x, axis), keepdims=prim.keep_dims, dtype=np.float64)))
    with np.errstate(invalid="ignore"):
        return np.asarray(np.mean(x, axis=_axes(x, axis), keepdims=prim.keep_dims))


@fits_out
def _reduce_sum(prim, x, axis=(), out=None):
    if prim.skip_mode and (axis is None or axis == () or axis == []):
        return x.copy()
    if x.dtype == np.bool_:
        x = x.astype(np.int64)
    return np.asarray(np.sum(x, axis=_axes(x, axis), keepdims=prim.keep_dims))


# NaN, as MindSpore's CPU kernels treat it in max/min reductions and arg-reductions: they scan in order and
# replace the best so far only by a strictly greater (smaller) value, so NaN never replaces: a leading NaN
# is the result (index 0), any later NaN is skipped, and an all-NaN slice gives NaN at index 0.
def _scan_arg(x, axis, largest):
    find = np.argmax if largest else np.argmin
    if x.dtype.kind != "f" and x.dtype.name != "bfloat16":
        return find(x, axis=axis)
    nan = np.isnan(x)
    if not nan.any():
        return find(x, axis=axis)
    idx = find(np.where(nan, -np.inf if largest else np.inf, x), axis=axis)
    lead = np.take(nan, 0, axis=axis) if axis is not None else nan.reshape(-1)[0]
    return np.where(lead, 0, idx)


def _scan_extreme(largest):
    """ReduceMax/ReduceMin over ``axis`` with MindSpore's NaN rule (see above): the extreme of the non-NaN
    values, or NaN where the slice starts with NaN (which covers an all-NaN slice)."""
    plain = np.max if largest else np.min

    def reduce(x, axis=None, keepdims=False):
        if (x.dtype.kind != "f" and x.dtype.name != "bfloat16") or x.size == 0:
            return plain(x, axis=axis, keepdims=keepdims)
        nan = np.isnan(x)
        if not nan.any():
            return plain(x, axis=axis, keepdims=keepdims)
        axes = tuple(range(x.ndim)) if axis is None else (axis,) if np.isscalar(axis) else tuple(axis)
        axes = tuple(a % x.ndim for a in axes)
        best = plain(np.where(nan, -np.inf if largest else np.inf, x), axis=axes, keepdims=True)
        lead = nan[tuple(slice(0, 1) if i in axes else slice(None) for i in range(x.ndim))]
        res = np.where(lead, np.asarray(np.nan, x.dtype), best).astype(x.dtype, copy=False)
        return res if keepdims else np.squeeze(res, axis=axes)
    return reduce


def _arg(largest):
    def kernel(prim, x, out=None):
        if x.ndim == 0:
            return fit(np.zeros((), np.int64), out)
        return fit(np.asarray(_scan_arg(x, prim.axis, largest)), out)
    return kernel


def _arg_with_value(largest):
    def kernel(prim, x, out=None):
        if x.ndim == 0:
            return fit((np.zeros((), np.int32), x.copy()), out)
        axis = prim.axis % x.ndim
        idx = np.expand_dims(_scan_arg(x, axis, largest), axis)
        values = np.take_along_axis(x, idx, axis=axis)
        if not prim.keep_dims:
            idx, values = np.squeeze(idx, axis), np.squeeze(values, axis)
        return fit((np.asarray(idx), np.asarray(values)), out)
    return kernel


def _median(prim, x, out=None):
    if prim.global_median or x.ndim == 0:
        flat = x.reshape(-1)
        order = np.argsort(flat, kind="stable")
        k = (flat.size - 1) // 2
        return np.asarray(flat[order[k]]), np.zeros((), np.int64)
    axis = prim.axis % x.ndim
    k = (x.shape[axis] - 1) // 2
    order = np.argsort(x, axis=axis, kind="stable")
    idx = np.take(order, [k], axis=axis)
    values = np.take_along_axis(x, idx, axis=axis)
    if not prim.keep_dims:
        idx, values = np.squeeze(idx, axis), np.squeeze(values, axis)
    return np.asarray(values), np.asarray(idx)


def _cumulative(better):
    """Running extremum and its index along ``prim.axis``; ties move the index to the latest position."""
    def kernel(prim, x, out=None):
        index_dtype = prim.index_dtype.to_numpy()
        if x.ndim == 0:
            return x.copy(), np.zeros((), index_dtype)
        axis = prim.axis % x.ndim
        moved = np.moveaxis(x, axis, 0)
        n = moved.shape[0]
        values = better.accumulate(moved, axis=0)
        # The index is the last position at or before j whose value equals the running extremum.
        positions = np.arange(n).reshape((n,) + (1,) * (moved.ndim - 1))
        hit = moved == values
        if moved.dtype.kind == "f":
            hit |= np.isnan(moved) & np.isnan(values)
        idx = np.maximum.accumulate(np.where(hit, positions, 0), axis=0)
        return (np.asarray(np.moveaxis(values, 0, axis), order="C"),
                np.asarray(np.moveaxis(idx, 0, axis), dtype=index_dtype, order="C"))
    return kernel


def _lp_norm(prim, x, out=None):
    axis = _axes(x, prim.axis)
    a = np.abs(x)
    if prim.p == 0:
        res = np.sum(a != 0, axis=axis, keepdims=prim.keep_dims).astype(x.dtype)
    elif prim.p == 1:
        res = np.sum(a, axis=axis, keepdims=prim.keep_dims)
    elif prim.p == 2:
        res = np.sqrt(np.sum(a * a, axis=axis, keepdims=prim.keep_dims))
    else:
        with np.errstate(over="ignore"):
            res = np.power(np.sum(np.power(a, prim.p), axis=axis, keepdims=prim.keep_dims), 1.0 / prim.p)
    return np.asarray(res)


def _l2_loss(prim, x, out=None):
    return np.asarray(np.sum(x * x) / 2)


def _reduce_std(prim, x, out=None):
    axis = _axes(x, prim.axis)
    mean = np.mean(x, axis=axis, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        std = np.std(x, axis=axis, ddof=1 if prim.unbiased else 0, keepdims=prim.keep_dims)
    if not prim.keep_dims:
        mean = np.mean(x, axis=axis)
    return np.asarray(std), np.asarray(mean)


KERNELS = {
    "ReduceSum": _reduce_sum,
    "ReduceMean": _reduce_mean,
    "ReduceMax": _reducer(_scan_extreme(True)),
    "ReduceMin": _reducer(_scan_extreme(False)),
    "ReduceProd": _reducer(np.prod),
    "ReduceAll": _reducer(np.all),
    "ReduceAny": _reducer(np.any),
    "Argmax": _arg(True),
    "Argmin": _arg(False),
    "ArgMaxWithValue": _arg_with_value(True),
    "ArgMinWithValue": _arg_with_value(False),
    "Median": _median,
    "Cummax": _cumulative(np.maximum),
    "Cummin": _cumulative(np.minimum),
    "LpNorm": _lp_norm,
    "L2Loss": _l2_loss,
    "ReduceStd": _reduce_std,
}
