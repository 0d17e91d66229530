"""CPU kernels of ``mindspore/ops/_defs/math_misc.py`` (``Cross``, ``Ger``, ``Logit``, ``GLU``, ``Cdist``,
``Renorm``, ``SquareSumAll``, ``CumulativeLogsumexp``, ``Eps``, ``Bincount``, ``Histogram``,
``HistogramFixedWidth``, ``SearchSorted``, ``LowerBound``, ``UpperBound``, ``Bucketize``, ``ApproximateEqual``,
``LogSpace``), in NumPy. Half precision computes in float32 where a reduction or a transcendental function
is involved, and is rounded once.
"""
import numpy as np


def _wide(x):
    x = np.asarray(x)
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _cross_axis(prim, shape):
    if prim.dim == -65530:
        return list(shape).index(3)
    return prim.dim % len(shape)


def _cross(prim, x1, x2, out=None):
    x1 = np.asarray(x1)
    return np.asarray(np.cross(x1, np.asarray(x2), axis=_cross_axis(prim, x1.shape))).astype(x1.dtype, copy=False)


def _ger(prim, x1, x2, out=None):
    x1 = np.asarray(x1)
    return np.outer(x1, np.asarray(x2)).astype(x1.dtype, copy=False)


def _logit(prim, x, out=None):
    x = np.asarray(x)
    z = _wide(x)
    if prim.eps >= 0:
        z = np.clip(z, prim.eps, 1.0 - prim.eps)
    with np.errstate(all="ignore"):
        return np.asarray(np.log(z / (1.0 - z))).astype(x.dtype)


def _glu(prim, x, out=None):
    x = np.asarray(x)
    a, b = np.split(_wide(x), 2, axis=prim.axis)
    with np.errstate(over="ignore"):
        return (a / (1.0 + np.exp(-b))).astype(x.dtype)


def _cdist(prim, x1, x2, out=None):
    x1, x2 = np.asarray(x1), np.asarray(x2)
    diff = np.abs(x1[..., :, None, :] - x2[..., None, :, :])
    p = prim.p
    if p == 0:
        res = np.count_nonzero(diff, axis=-1).astype(x1.dtype)
    elif p == float("inf"):
        res = diff.max(axis=-1, initial=0)
    else:
        res = np.sum(diff ** p, axis=-1) ** (1.0 / p)
    return np.asarray(res).astype(x1.dtype)


def _renorm(prim, x, out=None):
    x = np.asarray(x)
    w = _wide(x)
    dim = prim.dim % x.ndim
    others = tuple(i for i in range(x.ndim) if i != dim)
    norm = np.sum(np.abs(w) ** prim.p, axis=others, keepdims=True) ** (1.0 / prim.p)
    scale = np.where(norm > prim.maxnorm, prim.maxnorm / (norm + 1e-7), 1.0)
    return (w * scale).astype(x.dtype)


def _square_sum_all(prim, x, y, out=None):
    x, y = np.asarray(x), np.asarray(y)
    return (np.asarray(np.sum(np.square(_wide(x)))).astype(x.dtype),
            np.asarray(np.sum(np.square(_wide(y)))).astype(y.dtype))


def _cumulative_logsumexp(prim, x, axis, out=None):
    x = np.asarray(x)
    w = _wide(x)
    axis = int(axis) % x.ndim
    if prim.reverse:
        w = np.flip(w, axis)
    res = np.logaddexp.accumulate(w, axis=axis)
    if prim.exclusive:
        lowest = np.finfo(x.dtype).min
        head = np.full_like(np.take(res, [0], axis=axis), lowest)
        res = np.concatenate([head, np.delete(res, -1, axis=axis)], axis=axis)
    if prim.reverse:
        res = np.flip(res, axis)
    return np.ascontiguousarray(res).astype(x.dtype)


def _eps(prim, x, out=None):
    x = np.asarray(x)
    return np.full(x.shape, np.finfo(x.dtype).eps, x.dtype)


def _bincount(prim, array, size, weights, out=None):
    array = np.asarray(array).reshape(-1)
    size = int(size)
    weights = np.asarray(weights)
    if array.size and array.min() < 0:
        raise ValueError(f"For 'Bincount', the elements of 'array' must be non-negative, but got {array.min()}.")
    keep = array < size
    if weights.size:
        counts = np.bincount(array[keep], np.asarray(weights, np.float64).reshape(-1)[keep], minlength=size)
    else:
        counts = np.bincount(array[keep], minlength=size)
    return counts[:size].astype(weights.dtype)


def _histogram(prim, x, out=None):
    x = np.asarray(x)
    data = np.asarray(x, np.float64).reshape(-1)
    lo, hi = float(prim.min), float(prim.max)
    if lo == hi == 0.0 and data.size:
        lo, hi = float(data.min()), float(data.max())
    if lo == hi:
        lo, hi = lo - 1.0, hi + 1.0
    counts, _ = np.histogram(data, bins=prim.bins, range=(lo, hi))
    return counts.astype(x.dtype)


def _histogram_fixed_width(prim, x, value_range, out=None):
    data = np.asarray(x, np.float64).reshape(-1)
    lo, hi = np.asarray(value_range, np.float64).reshape(-1)[:2]
    if not hi > lo:
        raise ValueError(f"For 'HistogramFixedWidth', 'range[0]' must be less than 'range[1]', but got {lo} and {hi}.")
    bins = np.clip(np.floor((data - lo) / (hi - lo) * prim.nbins), 0, prim.nbins - 1).astype(np.int64)
    return np.bincount(bins, minlength=prim.nbins).astype(np.int32)


def _search_rows(seq, values, right):
    side = "right" if right else "left"
    seq, values = np.asarray(seq), np.asarray(values)
    if seq.ndim == 1:
        return np.searchsorted(seq, values, side=side)
    flat_seq = seq.reshape(-1, seq.shape[-1])
    flat_val = values.reshape(-1, values.shape[-1])
    res = np.stack([np.searchsorted(s, v, side=side) for s, v in zip(flat_seq, flat_val)]) if flat_seq.shape[0] \
        else np.zeros(flat_val.shape, np.int64)
    return res.reshape(values.shape)


def _search_sorted(prim, sorted_sequence, values, out=None):
    return np.asarray(_search_rows(sorted_sequence, values, prim.right)).astype(out.dtype.to_numpy())


def _bound(right):
    def kernel(prim, sorted_x, values, out=None):
        return np.asarray(_search_rows(sorted_x, values, right)).astype(out.dtype.to_numpy())
    return kernel


def _bucketize(prim, x, out=None):
    bounds = np.asarray(prim.boundaries, np.float64)
    return np.searchsorted(bounds, np.asarray(x, np.float64), side="right").astype(np.int32).reshape(np.shape(x))


def _approximate_equal(prim, x, y, out=None):
    with np.errstate(invalid="ignore"):
        return np.asarray(np.abs(_wide(x) - _wide(y)) < prim.tolerance)


def _log_space(prim, start, end, out=None):
    exps = np.linspace(float(start), float(end), prim.steps)
    with np.errstate(over="ignore"):
        return np.power(float(prim.base), exps).astype(out.dtype.to_numpy())


def _dense(prim, x, w, b=None, out=None):
    x, w = np.asarray(x), np.asarray(w)
    res = np.matmul(x, w.T) if w.ndim == 2 else np.matmul(x, w)
    if b is not None:
        res = res + np.asarray(b)
    return np.asarray(res).astype(x.dtype)


KERNELS = {
    "Dense": _dense, "Cross": _cross, "Ger": _ger, "Logit": _logit, "GLU": _glu, "Cdist": _cdist, "Renorm": _renorm,
    "SquareSumAll": _square_sum_all, "CumulativeLogsumexp": _cumulative_logsumexp, "Eps": _eps,
    "Bincount": _bincount, "Histogram": _histogram, "HistogramFixedWidth": _histogram_fixed_width,
    "SearchSorted": _search_sorted, "LowerBound": _bound(False), "UpperBound": _bound(True), "Bucketize": _bucketize,
    "ApproximateEqual": _approximate_equal, "LogSpace": _log_space,
}
