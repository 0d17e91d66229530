"""Reductions and scans of :mod:`mindspore.numpy.math_ops` (which re-exports them): ``sum``, ``mean``,
``amax``, ``var``, the ``nan*`` family, ``cumsum``... Integer and bool sums accumulate in Int64 and means
are taken in floating point; a ``dtype`` argument casts the result.
"""
import builtins
import math as _math

import numpy as _np

from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
import mindspore.ops as ops
from mindspore.numpy.utils import cast_to, is_float_dtype, normalize_axes, normalize_axis, promote, to_float, to_tensor

__all__ = ["sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "ptp", "average", "var", "std", "nansum",
           "nanmean", "nanmax", "nanmin", "nanvar", "nanstd", "count_nonzero", "cumsum", "cumprod", "nancumsum"]

_SMALL_INTS = (mstype.bool_, mstype.int8, mstype.int16, mstype.int32, mstype.uint8, mstype.uint16, mstype.uint32)


def _reduce_axes(op, a, axis):
    return normalize_axes(op, axis, a.ndim)


def _keep(out, a, axes, keepdims):
    if keepdims:
        return ops.reshape(out, tuple(1 if i in axes else s for i, s in enumerate(a.shape)))
    return out


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):  # pylint: disable=redefined-builtin
    """The sum over ``axis`` (bool and small integers accumulate as Int64).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.sum(np.ones((2, 3)), axis=1))
        [3. 3.]
    """
    a = to_tensor(a, "sum")
    axes = _reduce_axes("sum", a, axis)
    if dtype is None and a.dtype in _SMALL_INTS:
        dtype = mstype.int64
    a = cast_to(a, dtype)
    out = ops.reduce_sum(a, axes, keepdims) if axes else a
    if initial is not None:
        out = out + cast_to(to_tensor(initial, "sum"), out.dtype)
    return out


def mean(a, axis=None, keepdims=False, dtype=None):
    """The arithmetic mean over ``axis`` (integers are averaged as Float32).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.mean(np.array([[1., 2.], [3., 4.]]), axis=0))
        [2. 3.]
    """
    a = to_float(to_tensor(a, "mean"))
    axes = _reduce_axes("mean", a, axis)
    out = ops.mean(a, axes, keepdims) if axes else a
    return cast_to(out, dtype)


def _extreme(op, a, axis, keepdims, initial, where, largest):
    a = to_tensor(a, op)
    axes = _reduce_axes(op, a, axis)
    if where is not True and where is not None:
        if initial is None:
            raise MSValueError(f"For '{op}', reduction operation {op} does not have an identity, so to use a "
                               f"where mask one has to specify 'initial'.")
        mask = cast_to(to_tensor(where, op), mstype.bool_)
        a = ops.where(ops.broadcast_to(mask, a.shape), a, ops.full_like(a, initial))
    if not axes:
        out = a
    elif builtins.any(a.shape[ax] == 0 for ax in axes):
        if initial is None:
            raise MSValueError(f"For '{op}', zero-size array to reduction operation {op} which has no identity.")
        shape = tuple(1 if i in axes else n for i, n in enumerate(a.shape) if keepdims or i not in axes)
        return ops.fill(a.dtype, shape, initial)
    else:
        out = ops.amax(a, axes, keepdims) if largest else ops.amin(a, axes, keepdims)
    if initial is not None:
        init = cast_to(to_tensor(initial, op), out.dtype)
        out = ops.maximum(out, init) if largest else ops.minimum(out, init)
    return out


def amax(a, axis=None, keepdims=False, initial=None, where=True):
    """The maximum over ``axis`` (``initial`` is a floor; ``where`` masks elements out).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.amax(np.array([[1, 5], [3, 2]]), axis=1))
        [5 3]
    """
    return _extreme("amax", a, axis, keepdims, initial, where, True)


def amin(a, axis=None, keepdims=False, initial=None, where=True):
    """The minimum over ``axis``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.amin(np.array([[1, 5], [3, 2]]), axis=1))
        [1 2]
    """
    return _extreme("amin", a, axis, keepdims, initial, where, False)


def max(a, axis=None, keepdims=False, initial=None, where=True):  # pylint: disable=redefined-builtin
    """The maximum over ``axis``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.max(np.array([[1., 5.], [3., 2.]])))
        5.0
    """
    return _extreme("max", a, axis, keepdims, initial, where, True)


def min(a, axis=None, keepdims=False, initial=None, where=True):  # pylint: disable=redefined-builtin
    """The minimum over ``axis``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.min(np.array([[1., 5.], [3., 2.]]), initial=0.))
        0.0
    """
    return _extreme("min", a, axis, keepdims, initial, where, False)


def argmax(a, axis=None):
    """The index of the first maximum (in the flattened tensor when ``axis`` is ``None``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.argmax(np.array([[1, 5], [3, 2]]), axis=0))
        [1 0]
    """
    a = to_tensor(a, "argmax")
    if axis is None:
        return ops.argmax(ops.reshape(a, (-1,)), 0)
    return ops.argmax(a, normalize_axis("argmax", axis, a.ndim))


def argmin(a, axis=None):
    """The index of the first minimum.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.argmin(np.array([[1, 5], [3, 2]])))
        0
    """
    a = to_tensor(a, "argmin")
    if axis is None:
        return ops.argmin(ops.reshape(a, (-1,)), 0)
    return ops.argmin(a, normalize_axis("argmin", axis, a.ndim))


def ptp(x, axis=None, keepdims=False):
    """Range of values (maximum - minimum) over ``axis``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.ptp(np.array([[4, 9, 2], [1, 6, 7]]), axis=1))
        [7 6]
    """
    return amax(x, axis, keepdims) - amin(x, axis, keepdims)


def average(x, axis=None, weights=None, returned=False):
    """The weighted average over ``axis`` (``weights`` of ``x``'s shape, or 1-D along one axis).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.average(np.array([1., 2., 3., 4.]), weights=np.array([4., 3., 2., 1.])))
        2.0
    """
    x = to_float(to_tensor(x, "average"))
    axes = _reduce_axes("average", x, axis)
    if weights is None:
        avg = mean(x, axes)
        count = _np.prod([x.shape[i] for i in axes]) if axes else 1
        scl = ops.fill(avg.dtype, avg.shape, float(count))
    else:
        w = to_float(to_tensor(weights, "average"))
        if tuple(w.shape) != tuple(x.shape):
            if axis is None or not isinstance(axis, (int, _np.integer)) or w.ndim != 1 or \
                    w.shape[0] != x.shape[axes[0]]:
                raise MSValueError("For 'average', the 'weights' must have the shape of 'x', or be 1-D with the "
                                   f"length of the averaged axis, but got {w.shape} and {x.shape}.")
            w = ops.reshape(w, tuple(x.shape[i] if i == axes[0] else 1 for i in range(x.ndim)))
            w = ops.broadcast_to(w, x.shape)
        x, w = promote(x, w)
        scl = ops.reduce_sum(w, axes) if axes else w
        avg = (ops.reduce_sum(x * w, axes) if axes else x * w) / scl
    return (avg, scl) if returned else avg


def var(x, axis=None, ddof=0, keepdims=False):
    """The variance over ``axis`` (divisor ``N - ddof``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.var(np.array([1., 2., 3., 4.])))
        1.25
    """
    x = to_float(to_tensor(x, "var"))
    axes = _reduce_axes("var", x, axis)
    count = int(_np.prod([x.shape[i] for i in axes])) if axes else 1
    centered = x - ops.mean(x, axes, True) if axes else x - x
    total = ops.reduce_sum(ops.square(centered), axes, keepdims) if axes else ops.square(centered)
    return total / builtins.max(count - ddof, 0)


def std(x, axis=None, ddof=0, keepdims=False):
    """The standard deviation over ``axis``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.std(np.array([1., 2., 3., 4.])))
        1.118034
    """
    return ops.sqrt(var(x, axis, ddof, keepdims))


def _nan_zeroed(op, a, fill):
    a = to_tensor(a, op)
    if not is_float_dtype(a.dtype):
        return a, None
    nans = ops.isnan(a)
    return ops.where(nans, ops.full_like(a, fill), a), nans


def nansum(a, axis=None, dtype=None, keepdims=False):
    """The sum treating NaN as zero.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.nansum(np.array([1., np.nan, 2.])))
        3.0
    """
    a, _ = _nan_zeroed("nansum", a, 0)
    return sum(a, axis, dtype, keepdims)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    """The mean ignoring NaNs.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.nanmean(np.array([1., np.nan, 2.])))
        1.5
    """
    a = to_float(to_tensor(a, "nanmean"))
    z, nans = _nan_zeroed("nanmean", a, 0)
    count = sum(ops.logical_not(nans), axis, mstype.float32 if a.dtype != mstype.float64 else a.dtype, keepdims)
    return cast_to(sum(z, axis, None, keepdims) / cast_to(count, a.dtype), dtype)


def nanmax(a, axis=None, dtype=None, keepdims=False):
    """The maximum ignoring NaNs (NaN where a slice is all NaN).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.nanmax(np.array([1., np.nan, 2.])))
        2.0
    """
    return _nan_extreme("nanmax", a, axis, dtype, keepdims, True)


def nanmin(a, axis=None, dtype=None, keepdims=False):
    """The minimum ignoring NaNs.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.nanmin(np.array([1., np.nan, 2.])))
        1.0
    """
    return _nan_extreme("nanmin", a, axis, dtype, keepdims, False)


def _nan_extreme(op, a, axis, dtype, keepdims, largest):
    a = to_tensor(a, op)
    if not is_float_dtype(a.dtype):
        return cast_to(_extreme(op, a, axis, keepdims, None, True, largest), dtype)
    z, nans = _nan_zeroed(op, a, -_math.inf if largest else _math.inf)
    out = _extreme(op, z, axis, keepdims, None, True, largest)
    all_nan = ops.logical_not(_extreme(op, ops.logical_not(nans), axis, keepdims, None, True, True))
    out = ops.where(all_nan, ops.full_like(out, _math.nan), out)
    return cast_to(out, dtype)


def nanvar(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """The variance ignoring NaNs.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.nanvar(np.array([1., np.nan, 3.])))
        1.0
    """
    a = to_float(to_tensor(a, "nanvar"))
    z, nans = _nan_zeroed("nanvar", a, 0)
    valid = cast_to(ops.logical_not(nans), a.dtype)
    count = sum(valid, axis, a.dtype, True)
    centered = (z - sum(z, axis, None, True) / count) * valid
    out = sum(ops.square(centered), axis, None, keepdims) / (sum(valid, axis, a.dtype, keepdims) - ddof)
    return cast_to(out, dtype)


def nanstd(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """The standard deviation ignoring NaNs.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.nanstd(np.array([1., np.nan, 3.])))
        1.0
    """
    return cast_to(ops.sqrt(nanvar(a, axis, None, ddof, keepdims)), dtype)


def count_nonzero(x, axis=None, keepdims=False):
    """The number of non-zero values over ``axis`` (Int32).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.count_nonzero(np.array([[0, 1, 7], [3, 0, 0]]), axis=1))
        [2 1]
    """
    x = to_tensor(x, "count_nonzero")
    axes = _reduce_axes("count_nonzero", x, axis)
    nz = ops.cast(ops.not_equal(x, ops.zeros_like(x)), mstype.int32)
    return ops.reduce_sum(nz, axes, keepdims) if axes else nz


def _scan(op, fn, a, axis, dtype):
    a = to_tensor(a, op)
    if axis is None:
        a, axis = ops.reshape(a, (-1,)), 0
    axis = normalize_axis(op, axis, a.ndim)
    if dtype is None and a.dtype == mstype.bool_:
        dtype = mstype.int32
    a = cast_to(a, dtype)
    return fn(a, axis)


def cumsum(a, axis=None, dtype=None):
    """The cumulative sum along ``axis`` (of the flattened tensor when ``None``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.cumsum(np.array([[1, 2], [3, 4]]), axis=1))
        [[1 3]
         [3 7]]
    """
    return _scan("cumsum", ops.cumsum, a, axis, dtype)


def cumprod(a, axis=None, dtype=None):
    """The cumulative product along ``axis``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.cumprod(np.array([1., 2., 3.])))
        [1. 2. 6.]
    """
    return _scan("cumprod", ops.cumprod, a, axis, dtype)


def nancumsum(a, axis=None, dtype=None):
    """The cumulative sum treating NaN as zero.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.nancumsum(np.array([1., np.nan, 2.])))
        [1. 1. 3.]
    """
    a, _ = _nan_zeroed("nancumsum", a, 0)
    return cumsum(a, axis, dtype)
