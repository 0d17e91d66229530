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


def _arg(fn):
    def kernel(prim, x, out=None):
        if x.ndim == 0:
            return fit(np.zeros((), np.int64), out)
        return fit(np.asarray(fn(x, axis=prim.axis)), out)
    return kernel


def _arg_with_value(fn):
    def kernel(prim, x, out=None):
        if x.ndim == 0:
            return fit((np.zeros((), np.int32), x.copy()), out)
        axis = prim.axis % x.ndim
        idx = np.expand_dims(fn(x, axis=axis), axis)
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
        if x.ndim == 0:
            return x.copy(), np.zeros((), np.int64)
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
        return np.ascontiguousarray(np.moveaxis(values, 0, axis)), np.ascontiguousarray(np.moveaxis(idx, 0, axis))
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
    "ReduceMax": _reducer(np.max),
    "ReduceMin": _reducer(np.min),
    "ReduceProd": _reducer(np.prod),
    "ReduceAll": _reducer(np.all),
    "ReduceAny": _reducer(np.any),
    "Argmax": _arg(np.argmax),
    "Argmin": _arg(np.argmin),
    "ArgMaxWithValue": _arg_with_value(np.argmax),
    "ArgMinWithValue": _arg_with_value(np.argmin),
    "Median": _median,
    "Cummax": _cumulative(np.maximum),
    "Cummin": _cumulative(np.minimum),
    "LpNorm": _lp_norm,
    "L2Loss": _l2_loss,
    "ReduceStd": _reduce_std,
}
