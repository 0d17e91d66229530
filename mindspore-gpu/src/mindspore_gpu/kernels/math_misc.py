"""GPU kernels of ``mindspore/ops/_defs/math_misc.py`` on CuPy (the CPU backend's ``kernels/math_misc.py`` with
``cupy`` for ``numpy``). ``CumulativeLogsumexp`` runs ``_common.scan`` with ``logaddexp`` (CuPy's ufuncs
accumulate only add and multiply); the searches run ``cupy.searchsorted`` row by row. Half precision computes
in float32 where a reduction or a transcendental function is involved, rounded once.
"""
import cupy
import numpy

from mindspore_gpu.kernels._common import F32, dev, finfo, is_bf16, scalar_of, scan


def _wide(x):
    x = dev(x)
    return x.astype(cupy.float32) if x.dtype == cupy.float16 or is_bf16(x.dtype) else x


def _cross(prim, x1, x2, *, out):
    x1, x2 = dev(x1), dev(x2)
    axis = list(x1.shape).index(3) if prim.dim == -65530 else prim.dim % x1.ndim
    a = cupy.moveaxis(x1, axis, -1)
    b = cupy.moveaxis(x2, axis, -1)
    c = cupy.stack([a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
                    a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
                    a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], axis=-1)
    return cupy.ascontiguousarray(cupy.moveaxis(c, -1, axis)).astype(x1.dtype, copy=False)


def _ger(prim, x1, x2, *, out):
    x1 = dev(x1)
    return cupy.outer(x1, dev(x2)).astype(x1.dtype, copy=False)


def _logit(prim, x, *, out):
    x = dev(x)
    z = _wide(x)
    if prim.eps >= 0:
        z = cupy.clip(z, prim.eps, 1.0 - prim.eps)
    return cupy.log(z / (1.0 - z)).astype(x.dtype)


def _glu(prim, x, *, out):
    x = dev(x)
    a, b = cupy.split(_wide(x), 2, axis=prim.axis)
    return (a / (1.0 + cupy.exp(-b))).astype(x.dtype)


def _cdist(prim, x1, x2, *, out):
    x1, x2 = dev(x1), dev(x2)
    diff = cupy.abs(x1[..., :, None, :] - x2[..., None, :, :])
    p = prim.p
    if p == 0:
        res = cupy.count_nonzero(diff, axis=-1)
    elif p == float("inf"):
        res = diff.max(axis=-1) if diff.shape[-1] else cupy.zeros(diff.shape[:-1], x1.dtype)
    else:
        res = cupy.sum(diff ** p, axis=-1) ** (1.0 / p)
    return res.astype(x1.dtype)


def _renorm(prim, x, *, out):
    x = dev(x)
    w = _wide(x)
    dim = prim.dim % x.ndim
    others = tuple(i for i in range(x.ndim) if i != dim)
    norm = cupy.sum(cupy.abs(w) ** prim.p, axis=others, keepdims=True) ** (1.0 / prim.p)
    scale = cupy.where(norm > prim.maxnorm, prim.maxnorm / (norm + 1e-7), cupy.ones((), norm.dtype))
    return (w * scale).astype(x.dtype)


def _square_sum_all(prim, x, y, *, out):
    x, y = dev(x), dev(y)
    return (cupy.sum(cupy.square(_wide(x))).astype(x.dtype).reshape(()),
            cupy.sum(cupy.square(_wide(y))).astype(y.dtype).reshape(()))


def _cumulative_logsumexp(prim, x, axis, *, out):
    x = dev(x)
    axis = int(scalar_of(axis)) % x.ndim
    w = cupy.moveaxis(_wide(x), axis, 0)
    if prim.reverse:
        w = w[::-1]
    res = scan(cupy.logaddexp, w)
    if prim.exclusive:
        head = cupy.full((1,) + res.shape[1:], finfo(x.dtype).min, res.dtype)
        res = cupy.concatenate([head, res[:-1]], axis=0)
    if prim.reverse:
        res = res[::-1]
    return cupy.ascontiguousarray(cupy.moveaxis(res, 0, axis)).astype(x.dtype)


def _eps(prim, x, *, out):
    x = dev(x)
    return cupy.full(x.shape, finfo(x.dtype).eps, x.dtype)


def _bincount(prim, array, size, weights, *, out):
    array = dev(array).reshape(-1)
    size = int(scalar_of(size))
    weights = dev(weights)
    if array.size and bool(cupy.any(array < 0)):
        raise ValueError("For 'Bincount', the elements of 'array' must be non-negative.")
    keep = array < size
    if weights.size:
        counts = cupy.bincount(array[keep], weights.astype(cupy.float64).reshape(-1)[keep], minlength=size)
    else:
        counts = cupy.bincount(array[keep], minlength=size)
    return counts[:size].astype(weights.dtype)


def _histogram(prim, x, *, out):
    x = dev(x)
    data = x.astype(cupy.float64).reshape(-1)
    lo, hi = float(prim.min), float(prim.max)
    if lo == hi == 0.0 and data.size:
        lo, hi = float(scalar_of(data.min())), float(scalar_of(data.max()))
    if lo == hi:
        lo, hi = lo - 1.0, hi + 1.0
    counts, _ = cupy.histogram(data, bins=prim.bins, range=(lo, hi))
    return counts.astype(x.dtype)


def _histogram_fixed_width(prim, x, value_range, *, out):
    data = dev(x).astype(cupy.float64).reshape(-1)
    bounds = cupy.asnumpy(dev(value_range)).astype(numpy.float64).reshape(-1)
    lo, hi = float(bounds[0]), float(bounds[1])
    if not hi > lo:
        raise ValueError(f"For 'HistogramFixedWidth', 'range[0]' must be less than 'range[1]', but got {lo} and {hi}.")
    bins = cupy.clip(cupy.floor((data - lo) / (hi - lo) * prim.nbins), 0, prim.nbins - 1).astype(cupy.int64)
    return cupy.bincount(bins, minlength=prim.nbins).astype(cupy.int32)


def _search_rows(seq, values, right):
    side = "right" if right else "left"
    seq, values = dev(seq), dev(values)
    if is_bf16(seq.dtype) or is_bf16(values.dtype):   # CuPy's sorted searches do not take bfloat16: exact in float32
        seq, values = seq.astype(F32), values.astype(F32)
    if seq.ndim == 1:
        return cupy.searchsorted(seq, values, side=side)
    flat_seq = seq.reshape(-1, seq.shape[-1])
    flat_val = values.reshape(-1, values.shape[-1])
    if not flat_seq.shape[0]:
        return cupy.zeros(values.shape, cupy.int64)
    rows = [cupy.searchsorted(flat_seq[i], flat_val[i], side=side) for i in range(flat_seq.shape[0])]
    return cupy.stack(rows).reshape(values.shape)


def _search_sorted(prim, sorted_sequence, values, *, out):
    return _search_rows(sorted_sequence, values, prim.right).astype(out.dtype.to_numpy())


def _bound(right):
    def kernel(prim, sorted_x, values, *, out):
        return _search_rows(sorted_x, values, right).astype(out.dtype.to_numpy())
    return kernel


def _bucketize(prim, x, *, out):
    x = dev(x)
    bounds = cupy.asarray(numpy.asarray(prim.boundaries, numpy.float64))
    return cupy.searchsorted(bounds, x.astype(cupy.float64), side="right").astype(cupy.int32).reshape(x.shape)


def _approximate_equal(prim, x, y, *, out):
    return cupy.abs(_wide(x) - _wide(y)) < prim.tolerance


def _log_space(prim, start, end, *, out):
    exps = cupy.linspace(float(scalar_of(start)), float(scalar_of(end)), prim.steps)
    return cupy.power(float(prim.base), exps).astype(out.dtype.to_numpy())


def _dense(prim, x, w, b=None, *, out):
    x, w = dev(x), dev(w)
    res = cupy.matmul(x, w.T) if w.ndim == 2 else cupy.matmul(x, w)
    if b is not None:
        res = res + dev(b)
    return res.astype(x.dtype)


KERNELS = {
    "Dense": _dense, "Cross": _cross, "Ger": _ger, "Logit": _logit, "GLU": _glu, "Cdist": _cdist, "Renorm": _renorm,
    "SquareSumAll": _square_sum_all, "CumulativeLogsumexp": _cumulative_logsumexp, "Eps": _eps,
    "Bincount": _bincount, "Histogram": _histogram, "HistogramFixedWidth": _histogram_fixed_width,
    "SearchSorted": _search_sorted, "LowerBound": _bound(False), "UpperBound": _bound(True), "Bucketize": _bucketize,
    "ApproximateEqual": _approximate_equal, "LogSpace": _log_space,
}
