"""The second half of :mod:`mindspore.numpy.math_ops` (which re-exports it): differences, signal
processing, polynomials, statistics and binning, written directly on ``mindspore.ops``.
"""
import builtins
import math as _math

import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
import mindspore.ops as ops
from mindspore.numpy.array_creations import histogram_bin_edges
from mindspore.numpy.utils import cast_to, check_int, const, is_scalar, normalize_axis, promote, to_float, to_tensor

__all__ = ["diff", "ediff1d", "gradient", "trapz", "interp", "convolve", "correlate", "unwrap", "polyadd",
           "polysub", "polymul", "polyder", "polyint", "polyval", "cov", "corrcoef", "histogram", "histogram2d",
           "histogramdd", "bincount", "digitize", "searchsorted", "ravel_multi_index"]


def _slice_axis(x, axis, start, stop):
    key = [slice(None)] * x.ndim
    key[axis] = slice(start, stop)
    return x[tuple(key)]


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th discrete difference along ``axis``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.diff(np.array([1, 2, 4, 7])))
        [1 2 3]
    """
    a = to_tensor(a, "diff")
    n = check_int("diff", "n", n)
    if n < 0:
        raise MSValueError(f"For 'diff', the order 'n' must be non-negative, but got {n}.")
    if a.ndim == 0:
        raise MSValueError("For 'diff', the input must be at least 1-D.")
    axis = normalize_axis("diff", axis, a.ndim)
    def edge(extra):
        e = cast_to(to_tensor(extra, "diff"), a.dtype)
        if e.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            e = ops.broadcast_to(e, tuple(shape))
        return e

    parts = ([edge(prepend)] if prepend is not None else []) + [a] + ([edge(append)] if append is not None else [])
    out = ops.concat(parts, axis) if len(parts) > 1 else a
    for _ in range(n):
        hi, lo = _slice_axis(out, axis, 1, None), _slice_axis(out, axis, 0, -1)
        out = ops.not_equal(hi, lo) if out.dtype == mstype.bool_ else hi - lo
    return out


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences between consecutive elements of the flattened input, with optional ends.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.ediff1d(np.array([1, 2, 4, 7])))
        [1 2 3]
    """
    a = ops.reshape(to_tensor(ary, "ediff1d"), (-1,))
    out = a[1:] - a[:-1]
    parts = []
    if to_begin is not None:
        parts.append(ops.reshape(cast_to(to_tensor(to_begin, "ediff1d"), out.dtype), (-1,)))
    parts.append(out)
    if to_end is not None:
        parts.append(ops.reshape(cast_to(to_tensor(to_end, "ediff1d"), out.dtype), (-1,)))
    return ops.concat(parts, 0) if len(parts) > 1 else out


def _spacings(op, varargs, axes, f):
    if not varargs:
        return [1.0] * len(axes)
    if len(varargs) == 1 and len(axes) > 1 and (is_scalar(varargs[0]) or
                                                   (isinstance(varargs[0], Tensor) and varargs[0].ndim == 0)):
        return [varargs[0]] * len(axes)
    if len(varargs) != len(axes):
        raise MSTypeError(f"For '{op}', invalid number of spacing arguments: {len(varargs)} for {len(axes)} axes.")
    out = []
    for h, ax in zip(varargs, axes):
        if is_scalar(h):
            out.append(float(h))
            continue
        h = to_float(to_tensor(h, op))
        if h.ndim == 0:
            out.append(h)
        elif h.ndim == 1 and h.shape[0] == f.shape[ax]:
            out.append(h)
        else:
            raise MSValueError(f"For '{op}', the spacing must be a scalar or 1-D with the length of the axis.")
    return out


def _gradient_axis(f, axis, h, edge_order):
    n = f.shape[axis]
    if n < edge_order + 1:
        raise MSValueError("For 'gradient', shape of array too small to calculate a numerical gradient, at least "
                           f"(edge_order + 1) elements are required, but got {n}.")
    s = lambda a, b: _slice_axis(f, axis, a, b)  # noqa: E731
    shape = [1] * f.ndim
    shape[axis] = -1
    if isinstance(h, Tensor) and h.ndim == 1:
        dx = h[1:] - h[:-1]
        dx1, dx2 = ops.reshape(dx[:-1], tuple(shape)), ops.reshape(dx[1:], tuple(shape))
        a = -dx2 / (dx1 * (dx1 + dx2))
        b = (dx2 - dx1) / (dx1 * dx2)
        c = dx1 / (dx2 * (dx1 + dx2))
        interior = a * s(0, -2) + b * s(1, -1) + c * s(2, None) if n > 2 else None
        d0, dl = dx[0], dx[-1]
        if edge_order == 1:
            first = (s(1, 2) - s(0, 1)) / d0
            last = (s(-1, None) - s(-2, -1)) / dl
        else:
            d1, dl1 = dx[1], dx[-2]
            first = (-(2 * d0 + d1) / (d0 * (d0 + d1)) * s(0, 1) + (d0 + d1) / (d0 * d1) * s(1, 2)
                     - d0 / (d1 * (d0 + d1)) * s(2, 3))
            last = (dl / (dl1 * (dl1 + dl)) * s(-3, -2) - (dl1 + dl) / (dl1 * dl) * s(-2, -1)
                    + (2 * dl + dl1) / (dl * (dl1 + dl)) * s(-1, None))
    else:
        interior = (s(2, None) - s(0, -2)) / (2.0 * h) if n > 2 else None
        if edge_order == 1:
            first = (s(1, 2) - s(0, 1)) / h
            last = (s(-1, None) - s(-2, -1)) / h
        else:
            first = (-1.5 * s(0, 1) + 2.0 * s(1, 2) - 0.5 * s(2, 3)) / h
            last = (0.5 * s(-3, -2) - 2.0 * s(-2, -1) + 1.5 * s(-1, None)) / h
    parts = [first] + ([interior] if interior is not None else []) + [last]
    return ops.concat(parts, axis)


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient by second-order central differences inside and first- or second-order one-sided
    differences at the boundaries (spacing: scalars or 1-D coordinates per axis).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.gradient(np.array([1., 2., 4., 7., 11.])))
        [1.  1.5 2.5 3.5 4. ]
    """
    f = to_float(to_tensor(f, "gradient"))
    if edge_order not in (1, 2):
        raise MSValueError(f"For 'gradient', the 'edge_order' must be 1 or 2, but got {edge_order}.")
    if axis is None:
        axes = list(range(f.ndim))
    else:
        axes = [normalize_axis("gradient", ax, f.ndim) for ax in (axis if isinstance(axis, (tuple, list))
                                                                   else (axis,))]
    hs = _spacings("gradient", varargs, axes, f)
    out = [_gradient_axis(f, ax, h, edge_order) for ax, h in zip(axes, hs)]
    return out[0] if len(out) == 1 else out


def trapz(y, x=None, dx=1.0, axis=-1):
    """Integrates along ``axis`` by the trapezoidal rule (sample points ``x`` or spacing ``dx``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.trapz(np.array([1., 2., 3.])))
        4.0
    """
    y = to_float(to_tensor(y, "trapz"))
    axis = normalize_axis("trapz", axis, y.ndim)
    if x is None:
        d = dx
    else:
        x = to_float(to_tensor(x, "trapz"))
        if x.ndim == 1:
            d = x[1:] - x[:-1]
            shape = [1] * y.ndim
            shape[axis] = -1
            d = ops.reshape(d, tuple(shape))
        else:
            d = _slice_axis(x, axis, 1, None) - _slice_axis(x, axis, 0, -1)
    return ops.reduce_sum(d * (_slice_axis(y, axis, 1, None) + _slice_axis(y, axis, 0, -1)) / 2.0, (axis,))


def searchsorted(a, v, side="left", sorter=None):
    """Indices where ``v`` would be inserted into the sorted 1-D ``a`` to keep it sorted (Int32).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.searchsorted(np.array([1, 2, 3, 4, 5]), 3))
        2
    """
    a = to_tensor(a, "searchsorted")
    if a.ndim != 1:
        raise MSValueError(f"For 'searchsorted', the 'a' must be 1-D, but got {a.ndim}-D.")
    if side not in ("left", "right"):
        raise MSValueError(f"For 'searchsorted', the 'side' must be 'left' or 'right', but got '{side}'.")
    if sorter is not None:
        a = ops.gather(a, cast_to(to_tensor(sorter, "searchsorted"), mstype.int32), 0)
    v = to_tensor(v, "searchsorted")
    a, v = promote(a, v)
    return _binary_search(a, v, side == "left")


def _binary_search(a, v, left):
    """Insertion points of ``v`` in the sorted 1-D ``a``: a fixed number (log2 n) of bisection steps, each a
    gather and a compare, so it compiles to a static graph and costs O(len(v) log len(a))."""
    shape = v.shape
    v = ops.reshape(v, (-1,))  # 1-D queries: gathers with 0-d indices are avoided
    n = a.shape[0]
    lo = ops.zeros(v.shape, mstype.int32)
    hi = ops.fill(mstype.int32, v.shape, n)
    for _ in range(_math.ceil(_math.log2(n + 1))):
        active = ops.less(lo, hi)
        mid = ops.floor_div(lo + hi, 2)
        probe = ops.gather(a, ops.clip_by_value(mid, 0, builtins.max(n - 1, 0)), 0)
        right = ops.less(probe, v) if left else ops.less_equal(probe, v)
        go_right = ops.logical_and(active, right)
        go_left = ops.logical_and(active, ops.logical_not(right))
        lo = ops.where(go_right, mid + 1, lo)
        hi = ops.where(go_left, mid, hi)
    return ops.reshape(lo, shape)


def digitize(x, bins, right=False):
    """The index of the bin each value belongs to (``bins`` increasing or decreasing, 1-D).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.digitize(np.array([0.2, 6.4, 3.0]), np.array([0., 1., 2.5, 4.])))
        [1 4 3]
    """
    x = to_tensor(x, "digitize")
    bins = to_tensor(bins, "digitize")
    if bins.ndim != 1:
        raise MSValueError(f"For 'digitize', the 'bins' must be 1-D, but got {bins.ndim}-D.")
    side = "left" if right else "right"
    up = searchsorted(bins, x, side)
    if bins.shape[0] < 2:
        return up
    # decreasing bins: search the reversed edges and count from the other end
    down = bins.shape[0] - searchsorted(ops.flip(bins, (0,)), x, side)
    return ops.where(ops.broadcast_to(bins[-1] >= bins[0], up.shape), up, down)


def interp(x, xp, fp, left=None, right=None):
    """One-dimensional linear interpolation of ``(xp, fp)`` at ``x`` (``xp`` increasing).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.interp(np.array([2.5]), np.array([1., 2., 3.]), np.array([3., 2., 0.])))
        [1.]
    """
    x = to_float(to_tensor(x, "interp"))
    xp, fp = to_float(to_tensor(xp, "interp")), to_float(to_tensor(fp, "interp"))
    if xp.ndim != 1 or fp.ndim != 1 or xp.shape[0] != fp.shape[0]:
        raise MSValueError(f"For 'interp', the 'xp' and 'fp' must be 1-D of one length, but got {xp.shape} and "
                           f"{fp.shape}.")
    x, xp, fp = promote(x, xp, fp)
    shape = x.shape
    x = ops.reshape(x, (-1,))
    n = xp.shape[0]
    if n == 1:
        out = ops.broadcast_to(fp, x.shape)
    else:
        idx = ops.clip_by_value(searchsorted(xp, x, "right") - 1, 0, n - 2)
        x0, x1 = ops.gather(xp, idx, 0), ops.gather(xp, idx + 1, 0)
        y0, y1 = ops.gather(fp, idx, 0), ops.gather(fp, idx + 1, 0)
        out = y0 + (x - x0) * (y1 - y0) / (x1 - x0)
        out = ops.where(ops.equal(x, x1), y1, out)
    lo = fp[0] if left is None else const(left, x.dtype)
    hi = fp[-1] if right is None else const(right, x.dtype)
    out = ops.where(ops.less(x, xp[0]), ops.broadcast_to(lo, x.shape), out)
    return ops.reshape(ops.where(ops.greater(x, xp[-1]), ops.broadcast_to(hi, x.shape), out), shape)


def _full_conv(a, v):
    # out[k] = sum_j a[k - j] v[j]: gather a padded copy of `a` by a shape-only index matrix, then matmul
    n, m = a.shape[0], v.shape[0]
    padded = ops.concat((ops.zeros((m - 1,), a.dtype), a, ops.zeros((m - 1,), a.dtype)), 0) if m > 1 else a
    k = _np.arange(n + m - 1)[:, None]
    j = _np.arange(m)[None, :]
    windows = ops.gather(padded, Tensor((k - j + m - 1).astype(_np.int32)), 0)
    if a.dtype == mstype.bool_:
        windows, v = ops.cast(windows, mstype.int32), ops.cast(v, mstype.int32)
    return ops.reduce_sum(windows * ops.reshape(v, (1, m)), (1,))


def _conv_mode(op, full, n, m, mode):
    if mode == "full":
        return full
    if mode == "same":
        length = builtins.max(n, m)
        start = (n + m - 1 - length) // 2
        return full[start:start + length]
    if mode == "valid":
        length = builtins.max(n, m) - builtins.min(n, m) + 1
        start = builtins.min(n, m) - 1
        return full[start:start + length]
    raise MSValueError(f"For '{op}', the 'mode' must be 'full', 'same' or 'valid', but got '{mode}'.")


def _check_1d(op, *xs):
    for x in xs:
        if x.ndim != 1 or x.shape[0] == 0:
            raise MSValueError(f"For '{op}', the inputs must be non-empty 1-D, but got shape {x.shape}.")


def convolve(a, v, mode="full"):
    """The discrete linear convolution of two 1-D sequences.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.convolve(np.array([1., 2., 3.]), np.array([0., 1., 0.5])))
        [0.  1.  2.5 4.  1.5]
    """
    a, v = promote(to_tensor(a, "convolve"), to_tensor(v, "convolve"))
    _check_1d("convolve", a, v)
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    return _conv_mode("convolve", _full_conv(a, v), a.shape[0], v.shape[0], mode)


def correlate(a, v, mode="valid"):
    """The cross-correlation ``c[k] = sum_n a[n + k] * v[n]`` of two 1-D sequences.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.correlate(np.array([1., 2., 3.]), np.array([0., 1., 0.5])))
        [3.5]
    """
    a, v = promote(to_tensor(a, "correlate"), to_tensor(v, "correlate"))
    _check_1d("correlate", a, v)
    n, m = a.shape[0], v.shape[0]
    if m > n:
        full = ops.flip(_full_conv(v, ops.flip(a, (0,))), (0,))
    else:
        full = _full_conv(a, ops.flip(v, (0,)))
    return _conv_mode("correlate", full, n, m, mode)


def unwrap(p, discont=_math.pi, axis=-1):
    """Unwraps phase angles: jumps larger than ``discont`` become their ``2*pi`` complement.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.unwrap(np.array([0., 3., 6.])))
        [0. 3. 6.]
    """
    p = to_float(to_tensor(p, "unwrap"))
    axis = normalize_axis("unwrap", axis, p.ndim)
    dd = _slice_axis(p, axis, 1, None) - _slice_axis(p, axis, 0, -1)
    ddmod = ops.floor_mod(dd + _math.pi, 2 * _math.pi) - _math.pi
    ddmod = ops.where(ops.logical_and(ops.equal(ddmod, -_math.pi), ops.greater(dd, 0)),
                      ops.full_like(ddmod, _math.pi), ddmod)
    correct = ddmod - dd
    correct = ops.where(ops.less(ops.abs(dd), discont), ops.zeros_like(correct), correct)
    cum = ops.cumsum(correct, axis)
    shape = list(p.shape)
    shape[axis] = 1
    return p + ops.concat((ops.zeros(tuple(shape), p.dtype), cum), axis)


# --- polynomials (highest degree first, as in NumPy) -----------------------------------------------------
def _poly(op, p):
    p = to_tensor(p, op)
    if p.ndim != 1:
        raise MSValueError(f"For '{op}', the input must be a 1-D polynomial, but got {p.ndim}-D.")
    return p


def polyadd(a1, a2):
    """The sum of two polynomials.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.polyadd(np.array([1, 2]), np.array([9, 5, 4])))
        [9 6 6]
    """
    a, b = promote(_poly("polyadd", a1), _poly("polyadd", a2))
    n = builtins.max(a.shape[0], b.shape[0])
    pad = lambda t: ops.concat((ops.zeros((n - t.shape[0],), t.dtype), t), 0) if t.shape[0] < n else t  # noqa
    return pad(a) + pad(b)


def polysub(a1, a2):
    """The difference of two polynomials.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.polysub(np.array([2, 10, -2]), np.array([3, 10, -4])))
        [-1  0  2]
    """
    b = _poly("polysub", a2)
    return polyadd(a1, -b if b.dtype != mstype.bool_ else b)


def polymul(a1, a2):
    """The product of two polynomials.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.polymul(np.array([3., 1., 2.]), np.array([2., 5.])))
        [ 6. 17.  9. 10.]
    """
    return convolve(_poly("polymul", a1), _poly("polymul", a2))


def polyder(p, m=1):
    """The ``m``-th derivative of a polynomial.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.polyder(np.array([1, 1, 1, 1])))
        [3 2 1]
    """
    p = _poly("polyder", p)
    m = check_int("polyder", "m", m)
    if m < 0:
        raise MSValueError(f"For 'polyder', the order of derivative 'm' must be non-negative, but got {m}.")
    for _ in range(m):
        n = p.shape[0] - 1
        if n <= 0:
            return ops.zeros((1,), p.dtype)
        p = p[:-1] * cast_to(const(_np.arange(n, 0, -1), mstype.int32), p.dtype)
    return p


def polyint(p, m=1, k=None):
    """The ``m``-th antiderivative of a polynomial (integration constants ``k``, default zero).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.polyint(np.array([1., 1., 1.])))
        [0.33333334 0.5        1.         0.        ]
    """
    p = to_float(_poly("polyint", p))
    m = check_int("polyint", "m", m)
    if m < 0:
        raise MSValueError(f"For 'polyint', the order of integral 'm' must be non-negative, but got {m}.")
    if k is None:
        ks = [0.0] * m
    else:
        ks = list(_np.atleast_1d(_np.asarray(k.asnumpy() if isinstance(k, Tensor) else k, dtype=_np.float64)))
        if len(ks) == 1:
            ks = ks * m
        if len(ks) != m:
            raise MSValueError("For 'polyint', the 'k' must be a scalar or have length 'm'.")
    for i in range(m):
        n = p.shape[0]
        div = const(_np.arange(n, 0, -1), p.dtype)
        p = ops.concat((p / div, ops.reshape(const(ks[i], p.dtype), (1,))), 0)
    return p


def polyval(p, x):
    """The polynomial ``p`` evaluated at ``x`` (Horner's scheme).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.polyval(np.array([3., 0., 1.]), 5.))
        76.0
    """
    p = _poly("polyval", p)
    x = to_tensor(x, "polyval")
    p, x = promote(to_float(p), to_float(x))
    out = ops.zeros_like(x)
    for i in range(p.shape[0]):
        out = out * x + p[i]
    return out


# --- statistics and binning ------------------------------------------------------------------------------
def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    """The covariance matrix of the variables (rows when ``rowvar``) of ``m`` (and ``y``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.cov(np.array([[0., 1., 2.], [2., 1., 0.]])))
        [[ 1. -1.]
         [-1.  1.]]
    """
    m = to_float(to_tensor(m, "cov"))
    if m.ndim > 2:
        raise MSValueError(f"For 'cov', the 'm' must have at most 2 dimensions, but got {m.ndim}.")
    x = ops.reshape(m, (1, -1)) if m.ndim < 2 else m
    if not rowvar and x.shape[0] != 1:
        x = ops.transpose(x, (1, 0))
    if y is not None:
        y = to_float(to_tensor(y, "cov"))
        y = ops.reshape(y, (1, -1)) if y.ndim < 2 else y
        if not rowvar and y.shape[0] != 1:
            y = ops.transpose(y, (1, 0))
        x, y = promote(x, y)
        x = ops.concat((x, y), 0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        w = to_float(to_tensor(fweights, "cov"))
    if aweights is not None:
        aw = to_float(to_tensor(aweights, "cov"))
        w = aw if w is None else w * aw
    if w is None:
        avg = ops.mean(x, (1,), True)
        fact = x.shape[1] - ddof
        xc = x - avg
        c = ops.matmul(xc, ops.transpose(xc, (1, 0))) / builtins.max(fact, 0)
    else:
        w = cast_to(w, x.dtype)
        w_sum = ops.reduce_sum(w)
        avg = ops.reduce_sum(x * w, (1,), True) / w_sum
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * ops.reduce_sum(w * cast_to(to_float(to_tensor(aweights, "cov")), x.dtype)) / w_sum
        xc = x - avg
        c = ops.matmul(xc * w, ops.transpose(xc, (1, 0))) / fact
    c = cast_to(c, dtype)
    return ops.reshape(c, ()) if c.shape == (1, 1) else c


def corrcoef(x, y=None, rowvar=True, dtype=None):
    """Pearson correlation coefficients (the covariance normalised by the standard deviations).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.corrcoef(np.array([[0., 1., 2.], [2., 1., 0.]])))
        [[ 1. -1.]
         [-1.  1.]]
    """
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return cast_to(c / c, dtype)
    d = ops.sqrt(_diag_of(c))
    c = c / ops.reshape(d, (-1, 1)) / ops.reshape(d, (1, -1))
    return cast_to(ops.clip_by_value(c, -1.0, 1.0), dtype)


def _diag_of(c):
    idx = Tensor(_np.arange(c.shape[0], dtype=_np.int32))
    return c[idx, idx]


def bincount(x, weights=None, minlength=0, length=None):
    """Counts of each non-negative integer in the 1-D ``x`` (weighted sums with ``weights``).

    ``length`` fixes the output size (needed in GRAPH_MODE); without it the size is
    ``max(x) + 1`` (at least ``minlength``), read from the data.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.bincount(np.array([0, 1, 1, 3])))
        [1. 2. 0. 1.]
    """
    x = to_tensor(x, "bincount")
    if x.ndim != 1:
        raise MSValueError(f"For 'bincount', the 'x' must be 1-D, but got {x.ndim}-D.")
    if not (mstype.is_int(x.dtype) or x.dtype in (mstype.uint8, mstype.uint16, mstype.uint32, mstype.uint64)):
        raise MSTypeError(f"For 'bincount', the 'x' must be an integer Tensor, but got {x.dtype}.")
    minlength = check_int("bincount", "minlength", minlength)
    if length is None:
        if type(x) is not Tensor:  # a tensor being compiled: its values are not known yet
            raise MSValueError("For 'bincount', the 'length' must be given in GRAPH_MODE.")
        host = x.asnumpy()
        if host.size and host.min() < 0:
            raise MSValueError("For 'bincount', the 'x' must be non-negative.")
        length = builtins.max(int(host.max()) + 1 if host.size else 0, minlength)
    length = check_int("bincount", "length", length)
    w = None if weights is None else to_float(to_tensor(weights, "bincount"))
    return _weighted_counts(cast_to(x, mstype.int32), length, w, mstype.float32 if w is None else w.dtype)


def _bin_index(x, edges):
    """The bin of each value (edges increasing; the last bin closed; -1 outside)."""
    n = edges.shape[0] - 1
    idx = searchsorted(edges, x, "right") - 1
    idx = ops.where(ops.equal(x, edges[-1]), ops.full_like(idx, n - 1), idx)
    outside = ops.logical_or(ops.less(x, edges[0]), ops.greater(x, edges[-1]))
    return ops.where(outside, ops.full_like(idx, -1), idx)


def _weighted_counts(index, size, weights, dtype):
    """Sums of ``weights`` (ones) per index in ``[0, size)``; other indices are dropped. A scatter-add, O(n)."""
    valid = ops.logical_and(ops.greater_equal(index, 0), ops.less(index, size))
    index = ops.where(valid, index, ops.zeros_like(index))
    updates = ops.cast(valid, dtype)
    if weights is not None:
        updates = updates * cast_to(weights, dtype)
    return ops.scatter_nd(ops.expand_dims(index, -1), updates, (size,))


def histogram(a, bins=10, range=None, weights=None, density=False):  # pylint: disable=redefined-builtin
    """The histogram of the flattened data: ``(counts, bin_edges)`` (Float32 counts, as MindSpore).

    Examples:
        >>> import mindspore.numpy as np
        >>> hist, edges = np.histogram(np.array([1., 2., 1.]), bins=2)
        >>> print(hist)
        [2. 1.]
    """
    a = to_float(to_tensor(a, "histogram"))
    w = None if weights is None else ops.reshape(to_float(to_tensor(weights, "histogram")), (-1,))
    edges = histogram_bin_edges(a, bins, range, weights)
    flat = ops.reshape(a, (-1,))
    flat, common = promote(flat, edges)     # binned in the common dtype; the edges return as given
    idx = _bin_index(flat, common)
    counts = _weighted_counts(idx, edges.shape[0] - 1, w, mstype.float32 if w is None else w.dtype)
    if density:
        widths = common[1:] - common[:-1]
        counts = counts / ops.reduce_sum(counts) / cast_to(widths, counts.dtype)
    return counts, edges


def histogramdd(sample, bins=10, range=None, weights=None, density=False):  # pylint: disable=redefined-builtin
    """The multidimensional histogram of ``sample`` (N points x D dimensions): ``(counts, [edges...])``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.histogramdd(np.array([[0., 0.], [1., 1.], [1., 0.]]), bins=2)[0])
        [[1. 0.]
         [1. 1.]]
    """
    if isinstance(sample, (tuple, list)):
        sample = ops.stack([to_float(to_tensor(s, "histogramdd")) for s in sample], -1)
    sample = to_float(to_tensor(sample, "histogramdd"))
    if sample.ndim == 1:
        sample = ops.reshape(sample, (-1, 1))
    if sample.ndim != 2:
        raise MSValueError(f"For 'histogramdd', the 'sample' must be (N, D), but got shape {sample.shape}.")
    d = sample.shape[1]
    bins_list = list(bins) if isinstance(bins, (tuple, list)) else [bins] * d
    if len(bins_list) != d:
        raise MSValueError(f"For 'histogramdd', the 'bins' must have one entry per dimension ({d}).")
    ranges = list(range) if range is not None else [None] * d
    edges, flat = [], None
    for i in builtins.range(d):
        col = sample[:, i]
        given = histogram_bin_edges(col, bins_list[i], ranges[i])
        col, e = promote(col, given)
        idx = _bin_index(col, e)
        nb = e.shape[0] - 1
        flat = idx if flat is None else ops.where(ops.logical_or(ops.less(flat, 0), ops.less(idx, 0)),
                                                  ops.full_like(idx, -1), flat * nb + idx)
        edges.append(given)
    shape = tuple(e.shape[0] - 1 for e in edges)
    w = None if weights is None else to_float(to_tensor(weights, "histogramdd"))
    counts = _weighted_counts(flat, int(_np.prod(shape)), w, mstype.float32 if w is None else w.dtype)
    counts = ops.reshape(counts, shape)
    if density:
        total = ops.reduce_sum(counts)
        for i, e in enumerate(edges):
            widths = cast_to(e[1:] - e[:-1], counts.dtype)   # (given int edges: int widths, then cast)
            counts = counts / ops.reshape(widths, tuple(-1 if j == i else 1 for j in builtins.range(d)))
        counts = counts / total
    return counts, edges


def histogram2d(x, y, bins=10, range=None, weights=None, density=False):  # pylint: disable=redefined-builtin
    """The 2-D histogram of ``(x, y)``: ``(counts, x_edges, y_edges)``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.histogram2d(np.array([0., 1., 1.]), np.array([0., 1., 0.]), bins=2)[0])
        [[1. 0.]
         [1. 1.]]
    """
    x, y = to_float(to_tensor(x, "histogram2d")), to_float(to_tensor(y, "histogram2d"))
    if isinstance(bins, (tuple, list)) and len(bins) != 2:
        bins = [bins, bins]
    elif isinstance(bins, Tensor):
        bins = [bins, bins]
    counts, edges = histogramdd(ops.stack(promote(x, y), -1), bins, range, weights, density)
    return counts, edges[0], edges[1]


def ravel_multi_index(multi_index, dims, mode="clip", order="C"):
    """Coordinate arrays as flat indices into an array of shape ``dims`` (indices clipped or wrapped).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.ravel_multi_index((np.array([1, 2]), np.array([0, 3])), (3, 4)))
        [ 4 11]
    """
    dims = tuple(check_int("ravel_multi_index", "dims", d) for d in dims)
    if len(multi_index) != len(dims):
        raise MSValueError(f"For 'ravel_multi_index', the 'multi_index' must have {len(dims)} entries, but got "
                           f"{len(multi_index)}.")
    if order not in ("C", "F"):
        raise MSValueError(f"For 'ravel_multi_index', the 'order' must be 'C' or 'F', but got '{order}'.")
    idx = [cast_to(to_tensor(i, "ravel_multi_index"), mstype.int32) for i in multi_index]
    fixed = []
    for i, d in zip(idx, dims):
        if mode == "clip":
            fixed.append(ops.clip_by_value(i, 0, d - 1))
        elif mode == "wrap":
            fixed.append(ops.floor_mod(i, d))
        else:
            raise MSValueError(f"For 'ravel_multi_index', the 'mode' must be 'clip' or 'wrap', but got '{mode}'.")
    strides = _np.cumprod((1,) + dims[::-1][:-1])[::-1] if order == "C" else _np.cumprod((1,) + dims[:-1])
    out = None
    for i, s in zip(fixed, strides):
        term = i * int(s)
        out = term if out is None else out + term
    return out
