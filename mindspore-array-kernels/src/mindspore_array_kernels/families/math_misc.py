"""The kernels of ``mindspore/ops/_defs/math_misc.py`` (``Dense``, ``Cross``, ``Ger``, ``Logit``, ``GLU``, ``Cdist``,
``Renorm``, ``SquareSumAll``, ``CumulativeLogsumexp``, ``Eps``, ``Bincount``, ``Histogram``, ``HistogramFixedWidth``,
``SearchSorted``, ``LowerBound``, ``UpperBound``, ``Bucketize``, ``ApproximateEqual``, ``LogSpace``), bound
(:func:`mindspore_array_kernels.bind`) with:

* ``xp``, the array library, and two movers: ``dev`` (an operand as an ``xp`` array) and ``host`` (an array as
  NumPy: the two bounds ``HistogramFixedWidth`` reads, the value an error message names);
* ``scalar(v)``, a scalar argument (a Python number, or a one-element array) as ``int()``/``float()`` take it (a
  device array is read back);
* ``wide(x)``, ``x`` in the precision reductions and transcendental functions compute in (float16, and on a GPU
  bfloat16, as float32), and ``finfo(dtype)``, ``numpy.finfo`` (bfloat16's too where the backend has it);
* ``sortable(x)``, ``x`` in a dtype the library's sorted searches take (itself; on a GPU bfloat16 as float32);
* ``scan(op, a)``, the inclusive prefix of the binary ufunc ``op`` along axis 0 (``op.accumulate``; a library whose
  ufuncs accumulate only add and multiply scans in ``log2(n)`` steps).

Half precision computes in float32 where a reduction or a transcendental function is involved, and is rounded
once. ``Cross`` is written out (the three products of each component, as ``numpy.cross`` computes them), and the
searches of a batch run row by row.
"""
import numpy as np

BOUND = ("xp", "dev", "host", "scalar", "wide", "finfo", "sortable", "scan")


def _dense(prim, x, w, b=None, out=None):
    x, w = dev(x), dev(w)
    res = xp.matmul(x, w.T) if w.ndim == 2 else xp.matmul(x, w)
    if b is not None:
        res = res + dev(b)
    return xp.asarray(res).astype(x.dtype)


def _cross(prim, x1, x2, out=None):
    x1, x2 = dev(x1), dev(x2)
    axis = list(x1.shape).index(3) if prim.dim == -65530 else prim.dim % x1.ndim
    a = xp.moveaxis(x1, axis, -1)
    b = xp.moveaxis(x2, axis, -1)
    c = xp.stack([a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
                  a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
                  a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], axis=-1)
    return xp.ascontiguousarray(xp.moveaxis(c, -1, axis)).astype(x1.dtype, copy=False)


def _ger(prim, x1, x2, out=None):
    x1 = dev(x1)
    return xp.outer(x1, dev(x2)).astype(x1.dtype, copy=False)


def _logit(prim, x, out=None):
    x = dev(x)
    z = wide(x)
    if prim.eps >= 0:
        z = xp.clip(z, prim.eps, 1.0 - prim.eps)
    with np.errstate(all="ignore"):
        return xp.asarray(xp.log(z / (1.0 - z))).astype(x.dtype)


def _glu(prim, x, out=None):
    x = dev(x)
    a, b = xp.split(wide(x), 2, axis=prim.axis)
    with np.errstate(over="ignore"):
        return (a / (1.0 + xp.exp(-b))).astype(x.dtype)


def _cdist(prim, x1, x2, out=None):
    x1, x2 = dev(x1), dev(x2)
    diff = xp.abs(x1[..., :, None, :] - x2[..., None, :, :])
    p = prim.p
    if p == 0:
        res = xp.count_nonzero(diff, axis=-1)
    elif p == float("inf"):    # the maximum of no difference (no feature) is 0
        res = diff.max(axis=-1) if diff.shape[-1] else xp.zeros(diff.shape[:-1], x1.dtype)
    elif p == 2 and x1.dtype == np.float32:
        res = xp.sqrt(_squares_f32(diff))
    else:
        res = xp.sum(diff ** p, axis=-1) ** (1.0 / p)
    return xp.asarray(res).astype(x1.dtype)


def _fma_f32(a, b, c):
    """float32 ``a * b + c`` rounded once (the product is exact in float64; so is the sum but for rare cancellations)."""
    return (a.astype(np.float64) * b + c).astype(np.float32)


def _squares_f32(d):
    """The sums of squares over the last axis of float32 ``d`` as 2.10's CPU Cdist adds them: eight lanes
    accumulating with fused multiply-adds over the whole blocks of 8, the lanes added in order; then, if 4 or more
    values remain, their four squares added ((s0 + s1) + s2) + s3 onto the total; then the rest fused one by one."""
    m = d.shape[-1]
    full = m - m % 8
    total = xp.zeros(d.shape[:-1], np.float32)
    if full:
        lanes = xp.zeros(d.shape[:-1] + (8,), np.float32)
        for k in range(0, full, 8):
            lanes = _fma_f32(d[..., k:k + 8], d[..., k:k + 8], lanes)
        for i in range(8):
            total = total + lanes[..., i]
    k = full
    if m - k >= 4:
        sq = d[..., k:k + 4] * d[..., k:k + 4]
        total = total + (((sq[..., 0] + sq[..., 1]) + sq[..., 2]) + sq[..., 3])
        k += 4
    for i in range(k, m):
        total = _fma_f32(d[..., i], d[..., i], total)
    return total


def _renorm(prim, x, out=None):
    x = dev(x)
    w = wide(x)
    dim = prim.dim % x.ndim
    others = tuple(i for i in range(x.ndim) if i != dim)
    norm = xp.sum(xp.abs(w) ** prim.p, axis=others, keepdims=True) ** (1.0 / prim.p)
    scale = xp.where(norm > prim.maxnorm, prim.maxnorm / (norm + 1e-7), xp.ones((), norm.dtype))
    return (w * scale).astype(x.dtype)


def _square_sum_all(prim, x, y, out=None):
    x, y = dev(x), dev(y)
    return (xp.asarray(xp.sum(xp.square(wide(x)))).astype(x.dtype).reshape(()),
            xp.asarray(xp.sum(xp.square(wide(y)))).astype(y.dtype).reshape(()))


def _cumulative_logsumexp(prim, x, axis, out=None):
    x = dev(x)
    axis = int(scalar(axis)) % x.ndim
    w = xp.moveaxis(wide(x), axis, 0)
    if prim.reverse:
        w = w[::-1]
    res = scan(xp.logaddexp, w)
    if prim.exclusive and res.shape[0]:     # shifted by one, the lowest float first (an empty axis stays empty)
        head = xp.full((1,) + res.shape[1:], finfo(x.dtype).min, res.dtype)
        res = xp.concatenate([head, res[:-1]], axis=0)
    if prim.reverse:
        res = res[::-1]
    return xp.ascontiguousarray(xp.moveaxis(res, 0, axis)).astype(x.dtype)


def _eps(prim, x, out=None):
    x = dev(x)
    return xp.full(x.shape, finfo(x.dtype).eps, x.dtype)


def _bincount(prim, array, size, weights, out=None):
    array = dev(array).reshape(-1)
    size = int(scalar(size))
    weights = dev(weights)
    if array.size and bool(xp.any(array < 0)):
        raise ValueError(f"For 'Bincount', the elements of 'array' must be non-negative, but got "
                         f"{host(array.min())}.")
    keep = array < size
    if weights.size:
        counts = xp.bincount(array[keep], weights.astype(np.float64).reshape(-1)[keep], minlength=size)
    else:
        counts = xp.bincount(array[keep], minlength=size)
    return counts[:size].astype(weights.dtype)


def _histogram(prim, x, out=None):
    x = dev(x)
    data = x.astype(np.float64).reshape(-1)
    lo, hi = float(prim.min), float(prim.max)
    if lo == hi == 0.0 and data.size:
        lo, hi = float(scalar(data.min())), float(scalar(data.max()))
    if lo == hi:
        lo, hi = lo - 1.0, hi + 1.0
    counts, _ = xp.histogram(data, bins=prim.bins, range=(lo, hi))
    return counts.astype(x.dtype)


def _histogram_fixed_width(prim, x, value_range, out=None):
    data = dev(x).astype(np.float64).reshape(-1)
    bounds = host(dev(value_range)).astype(np.float64).reshape(-1)
    lo, hi = float(bounds[0]), float(bounds[1])
    if not hi > lo:
        raise ValueError(f"For 'HistogramFixedWidth', 'range[0]' must be less than 'range[1]', but got {lo} and {hi}.")
    bins = xp.clip(xp.floor((data - lo) / (hi - lo) * prim.nbins), 0, prim.nbins - 1).astype(np.int64)
    return xp.bincount(bins, minlength=prim.nbins).astype(np.int32)


def _search_rows(seq, values, right):
    """``searchsorted`` of each row of ``values`` in the same row of ``seq`` (one search for a 1-D ``seq``)."""
    side = "right" if right else "left"
    seq, values = sortable(dev(seq)), sortable(dev(values))
    if seq.ndim == 1:
        return xp.searchsorted(seq, values, side=side)
    flat_seq = seq.reshape(-1, seq.shape[-1])
    flat_val = values.reshape(-1, values.shape[-1])
    if not flat_seq.shape[0]:
        return xp.zeros(values.shape, np.int64)
    rows = [xp.searchsorted(flat_seq[i], flat_val[i], side=side) for i in range(flat_seq.shape[0])]
    return xp.stack(rows).reshape(values.shape)


def _search_sorted(prim, sorted_sequence, values, out=None):
    return xp.asarray(_search_rows(sorted_sequence, values, prim.right)).astype(out.dtype.to_numpy())


def _bound(right):
    def kernel(prim, sorted_x, values, out=None):
        return xp.asarray(_search_rows(sorted_x, values, right)).astype(out.dtype.to_numpy())
    return kernel


def _bucketize(prim, x, out=None):
    x = dev(x)
    bounds = xp.asarray(np.asarray(prim.boundaries, np.float64))
    return xp.asarray(xp.searchsorted(bounds, x.astype(np.float64), side="right")).astype(np.int32).reshape(x.shape)


def _approximate_equal(prim, x, y, out=None):
    with np.errstate(invalid="ignore"):
        return xp.asarray(xp.abs(wide(dev(x)) - wide(dev(y))) < prim.tolerance)


def _log_space(prim, start, end, out=None):
    exps = xp.linspace(float(scalar(start)), float(scalar(end)), prim.steps)
    with np.errstate(over="ignore"):
        return xp.power(float(prim.base), exps).astype(out.dtype.to_numpy())


KERNELS = {
    "Dense": _dense, "Cross": _cross, "Ger": _ger, "Logit": _logit, "GLU": _glu, "Cdist": _cdist, "Renorm": _renorm,
    "SquareSumAll": _square_sum_all, "CumulativeLogsumexp": _cumulative_logsumexp, "Eps": _eps,
    "Bincount": _bincount, "Histogram": _histogram, "HistogramFixedWidth": _histogram_fixed_width,
    "SearchSorted": _search_sorted, "LowerBound": _bound(False), "UpperBound": _bound(True), "Bucketize": _bucketize,
    "ApproximateEqual": _approximate_equal, "LogSpace": _log_space,
}
