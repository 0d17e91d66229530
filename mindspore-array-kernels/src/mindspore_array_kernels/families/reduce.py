"""The kernels of ``mindspore/ops/_defs/reduce.py`` (``ReduceSum``/``Mean``/``Max``/``Min``/``Prod``/``All``/``Any``,
``Argmax``/``Argmin`` and their ``WithValue`` forms, ``Median``, ``Cummax``/``Cummin``, ``LpNorm``, ``L2Loss``,
``ReduceStd``), bound (:func:`mindspore_array_kernels.bind`) with:

* ``xp``, the array library, and ``dev``, an operand (or a reduction's result: NumPy's are scalars) as an ``xp``
  array;
* ``errstate(**kw)``, NumPy's ``errstate`` where the arithmetic is NumPy's (inf and NaN come silently), a no-op
  context elsewhere;
* ``acc_dtype(x)``, the dtype ``ReduceSum``/``ReduceProd``/``ReduceMean`` of ``x`` accumulate in (``None``: the
  library's own);
* ``sortable(x)``, ``x`` in a dtype the library sorts and compares exactly (itself; on a GPU bfloat16 as float32);
* ``known_clear(mask)``, whether the boolean ``mask`` is known to hold no ``True`` without reading a device array
  back (NumPy: ``not mask.any()``; on a GPU always ``False``): the NaN rule's short cut;
* ``scan(ufunc, a)``, the inclusive prefix ``ufunc`` (``maximum``/``minimum``) of ``a`` along axis 0.

NaN in the max/min reductions and the arg-reductions follows MindSpore's kernels: they scan in order and replace
the best so far only by a strictly greater (smaller) value, so NaN never replaces: a leading NaN is the result (index
0), any later NaN is skipped, and an all-NaN slice gives NaN at index 0. bfloat16 is a float here.
"""
import numpy as np

from mindspore_array_kernels.common import fit, fits_out

BOUND = ("xp", "dev", "errstate", "acc_dtype", "sortable", "known_clear", "scan")


def _axes(x, axis):
    """The library's ``axis`` for MindSpore's: ``()``/``None`` (or a 0-d input) reduce everything."""
    if x.ndim == 0 or axis is None or axis == () or axis == []:
        return None
    return tuple(axis) if isinstance(axis, (tuple, list)) else axis


def _reducer(fn):
    def kernel(prim, x, axis=(), out=None):
        x = dev(x)
        with errstate(invalid="ignore", over="ignore"):
            return fit(dev(fn(x, axis=_axes(x, axis), keepdims=prim.keep_dims)), out)
    kernel.__name__ = getattr(fn, "__name__", "reduce")
    return kernel


def _reduce_prod(prim, x, axis=(), out=None):
    x = dev(x)
    with errstate(invalid="ignore", over="ignore"):
        return fit(dev(xp.prod(x, axis=_axes(x, axis), keepdims=prim.keep_dims, dtype=acc_dtype(x))), out)


@fits_out
def _reduce_mean(prim, x, axis=(), out=None):
    x = dev(x)
    if x.dtype.kind in "iub":
        return dev(xp.trunc(xp.mean(x, axis=_axes(x, axis), keepdims=prim.keep_dims, dtype=np.float64)))
    with errstate(invalid="ignore"):
        return dev(xp.mean(x, axis=_axes(x, axis), keepdims=prim.keep_dims, dtype=acc_dtype(x)))


@fits_out
def _reduce_sum(prim, x, axis=(), out=None):
    x = dev(x)
    if prim.skip_mode and (axis is None or axis == () or axis == []):
        return x.copy()
    if x.dtype == np.bool_:
        x = x.astype(np.int64)
    return dev(xp.sum(x, axis=_axes(x, axis), keepdims=prim.keep_dims, dtype=acc_dtype(x)))


def _nan_ruled(dtype):
    """Whether the NaN rule applies: floats, bfloat16 (NumPy kind 'V') included. (``dtype.name`` is computed in
    Python, microseconds a call: only asked of a 'V' dtype.)"""
    return dtype.kind == "f" or (dtype.kind == "V" and dtype.name == "bfloat16")


def _scan_arg(x, axis, largest):
    """The index of the first extreme along ``axis`` (all axes when ``None``), with the NaN rule."""
    find = xp.argmax if largest else xp.argmin
    if not _nan_ruled(x.dtype):
        return find(x, axis=axis)
    w = sortable(x)
    nan = xp.isnan(w)
    if known_clear(nan):
        return find(w, axis=axis)
    idx = find(xp.where(nan, w.dtype.type(-np.inf if largest else np.inf), w), axis=axis)
    lead = xp.take(nan, 0, axis=axis) if axis is not None else nan.reshape(-1)[0]
    return xp.where(lead, 0, idx)


def _scan_extreme(largest):
    """ReduceMax/ReduceMin over ``axis`` with the NaN rule: the extreme of the non-NaN values, or NaN where the
    slice starts with NaN (which covers an all-NaN slice)."""
    plain = xp.max if largest else xp.min

    def reduce(x, axis=None, keepdims=False):
        if not _nan_ruled(x.dtype) or x.size == 0:
            return plain(x, axis=axis, keepdims=keepdims)
        w = sortable(x)
        nan = xp.isnan(w)
        if known_clear(nan):
            return plain(x, axis=axis, keepdims=keepdims)
        axes = tuple(range(x.ndim)) if axis is None else (axis,) if np.isscalar(axis) else tuple(axis)
        axes = tuple(a % x.ndim for a in axes)
        best = plain(xp.where(nan, w.dtype.type(-np.inf if largest else np.inf), w), axis=axes, keepdims=True)
        lead = nan[tuple(slice(0, 1) if i in axes else slice(None) for i in range(x.ndim))]
        res = xp.where(lead, w.dtype.type(np.nan), best).astype(x.dtype, copy=False)
        return res if keepdims else xp.squeeze(res, axis=axes)
    reduce.__name__ = "max" if largest else "min"
    return reduce


def _arg(largest):
    def kernel(prim, x, out=None):
        x = dev(x)
        if x.ndim == 0:
            return fit(xp.zeros((), np.int64), out)
        return fit(dev(_scan_arg(x, prim.axis, largest)), out)
    kernel.__name__ = f"arg{'max' if largest else 'min'}"
    return kernel


def _arg_with_value(largest):
    def kernel(prim, x, out=None):
        x = dev(x)
        if x.ndim == 0:
            return fit((xp.zeros((), np.int32), x.copy()), out)
        axis = prim.axis % x.ndim
        idx = xp.expand_dims(_scan_arg(x, axis, largest), axis)
        values = xp.take_along_axis(x, idx, axis=axis)
        if not prim.keep_dims:
            idx, values = xp.squeeze(idx, axis), xp.squeeze(values, axis)
        return fit((dev(idx), dev(values)), out)
    kernel.__name__ = f"arg{'max' if largest else 'min'}_with_value"
    return kernel


def _median(prim, x, out=None):
    """The lower middle value (a stable sort: the first of equal values) and its index."""
    x = dev(x)
    if prim.global_median or x.ndim == 0:
        flat = x.reshape(-1)
        order = xp.argsort(sortable(flat), kind="stable")
        k = (flat.size - 1) // 2
        return fit((dev(flat[order[k]]), xp.zeros((), np.int64)), out)
    axis = prim.axis % x.ndim
    k = (x.shape[axis] - 1) // 2
    order = xp.argsort(sortable(x), axis=axis, kind="stable")
    idx = order[(slice(None),) * axis + (slice(k, k + 1),)]
    values = xp.take_along_axis(x, idx, axis=axis)
    if not prim.keep_dims:
        idx, values = xp.squeeze(idx, axis), xp.squeeze(values, axis)
    return fit((values, idx), out)


def _cumulative(better):
    """Running extremum and its index along ``prim.axis``; ties move the index to the latest position."""
    def kernel(prim, x, out=None):
        x = dev(x)
        index_dtype = prim.index_dtype.to_numpy()
        if x.ndim == 0:
            return fit((x.copy(), xp.zeros((), index_dtype)), out)
        axis = prim.axis % x.ndim
        moved = xp.moveaxis(x, axis, 0)
        n = moved.shape[0]
        values = scan(better, moved)
        # The index is the last position at or before j whose value equals the running extremum.
        positions = xp.arange(n, dtype=np.int64).reshape((n,) + (1,) * (moved.ndim - 1))
        hit = moved == values
        if moved.dtype.kind == "f":
            hit |= xp.isnan(moved) & xp.isnan(values)
        idx = scan(xp.maximum, xp.where(hit, positions, 0))
        return fit((xp.asarray(xp.moveaxis(values, 0, axis), order="C"),
                    xp.asarray(xp.moveaxis(idx, 0, axis), dtype=index_dtype, order="C")), out)
    kernel.__name__ = f"cum_{getattr(better, '__name__', 'extremum')}"
    return kernel


def _lp_norm(prim, x, out=None):
    x = dev(x)
    axis = _axes(x, prim.axis)
    a = xp.abs(x)
    if prim.p == 0:
        res = xp.sum(a != 0, axis=axis, keepdims=prim.keep_dims).astype(x.dtype)
    elif prim.p == 1:
        res = xp.sum(a, axis=axis, keepdims=prim.keep_dims)
    elif prim.p == 2:
        res = xp.sqrt(xp.sum(a * a, axis=axis, keepdims=prim.keep_dims))
    else:
        with errstate(over="ignore"):
            res = xp.power(xp.sum(xp.power(a, prim.p), axis=axis, keepdims=prim.keep_dims), 1.0 / prim.p)
    return fit(dev(res), out)


def _l2_loss(prim, x, out=None):
    x = dev(x)
    return fit(dev(xp.sum(x * x) / 2), out)


def _reduce_std(prim, x, out=None):
    x = dev(x)
    axis = _axes(x, prim.axis)
    with errstate(invalid="ignore", divide="ignore"):
        std = xp.std(x, axis=axis, ddof=1 if prim.unbiased else 0, keepdims=prim.keep_dims)
    mean = xp.mean(x, axis=axis, keepdims=prim.keep_dims)
    return fit((dev(std), dev(mean)), out)


KERNELS = {
    "ReduceSum": _reduce_sum,
    "ReduceMean": _reduce_mean,
    "ReduceMax": _reducer(_scan_extreme(True)),
    "ReduceMin": _reducer(_scan_extreme(False)),
    "ReduceProd": _reduce_prod,
    "ReduceAll": _reducer(xp.all),
    "ReduceAny": _reducer(xp.any),
    "Argmax": _arg(True),
    "Argmin": _arg(False),
    "ArgMaxWithValue": _arg_with_value(True),
    "ArgMinWithValue": _arg_with_value(False),
    "Median": _median,
    "Cummax": _cumulative(xp.maximum),
    "Cummin": _cumulative(xp.minimum),
    "LpNorm": _lp_norm,
    "L2Loss": _l2_loss,
    "ReduceStd": _reduce_std,
}
