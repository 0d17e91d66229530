"""Comparisons, logical functions, value tests and set membership (``equal``, ``isclose``, ``isin``,
``array_equal``, ``setdiff1d``...). Results are Bool tensors unless ``dtype`` says otherwise.
"""
import numbers

import numpy as _np

from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
import mindspore.ops as ops
from mindspore.numpy.array_ops import unique
from mindspore.numpy.utils import (cast_to, is_float_dtype, normalize_axes, promote, to_tensor)

__all__ = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
           "logical_xor", "logical_not", "isfinite", "isinf", "isnan", "isneginf", "isposinf", "isclose",
           "array_equal", "array_equiv", "signbit", "sometrue", "isscalar", "in1d", "isin", "setdiff1d"]


def _compare(op, fn, x1, x2, dtype):
    a, b = promote(to_tensor(x1, op), to_tensor(x2, op))
    return cast_to(fn(a, b), dtype)


def equal(x1, x2, dtype=None):
    """``x1 == x2`` element-wise.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.equal(np.array([1, 2]), 2))
        [False  True]
    """
    return _compare("equal", ops.equal, x1, x2, dtype)


def not_equal(x1, x2, dtype=None):
    """``x1 != x2`` element-wise.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.not_equal(np.array([1, 2]), 2))
        [ True False]
    """
    return _compare("not_equal", ops.not_equal, x1, x2, dtype)


def less(x1, x2, dtype=None):
    """``x1 < x2`` element-wise.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.less(np.array([1, 2]), 2))
        [ True False]
    """
    return _compare("less", ops.less, x1, x2, dtype)


def less_equal(x1, x2, dtype=None):
    """``x1 <= x2`` element-wise.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.less_equal(np.array([1, 2]), 1))
        [ True False]
    """
    return _compare("less_equal", ops.less_equal, x1, x2, dtype)


def greater(x1, x2, dtype=None):
    """``x1 > x2`` element-wise.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.greater(np.array([1, 2]), 1))
        [False  True]
    """
    return _compare("greater", ops.greater, x1, x2, dtype)


def greater_equal(x1, x2, dtype=None):
    """``x1 >= x2`` element-wise.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.greater_equal(np.array([1, 2]), 2))
        [False  True]
    """
    return _compare("greater_equal", ops.greater_equal, x1, x2, dtype)


def _truth(x):
    return x if x.dtype == mstype.bool_ else ops.not_equal(x, 0)


def logical_and(x1, x2, dtype=None):
    """The truth value of ``x1 AND x2``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.logical_and(np.array([True, False]), True))
        [ True False]
    """
    return _compare("logical_and", lambda a, b: ops.logical_and(_truth(a), _truth(b)), x1, x2, dtype)


def logical_or(x1, x2, dtype=None):
    """The truth value of ``x1 OR x2``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.logical_or(np.array([True, False]), False))
        [ True False]
    """
    return _compare("logical_or", lambda a, b: ops.logical_or(_truth(a), _truth(b)), x1, x2, dtype)


def logical_xor(x1, x2, dtype=None):
    """The truth value of ``x1 XOR x2``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.logical_xor(np.array([True, False]), True))
        [False  True]
    """
    return _compare("logical_xor", lambda a, b: ops.not_equal(_truth(a), _truth(b)), x1, x2, dtype)


def logical_not(a, dtype=None):
    """The truth value of ``NOT a``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.logical_not(np.array([True, False])))
        [False  True]
    """
    return cast_to(ops.logical_not(_truth(to_tensor(a, "logical_not"))), dtype)


def _float_test(op, fn, x, dtype, default):
    x = to_tensor(x, op)
    if not is_float_dtype(x.dtype):
        return cast_to(ops.fill(mstype.bool_, x.shape, default), dtype)
    return cast_to(fn(x), dtype)


def isfinite(x, dtype=None):
    """Whether each element is finite (not inf, not NaN).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.isfinite(np.array([1., np.inf, np.nan])))
        [ True False False]
    """
    return _float_test("isfinite", ops.isfinite, x, dtype, True)


def isinf(x, dtype=None):
    """Whether each element is positive or negative infinity.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.isinf(np.array([1., np.inf, np.nan])))
        [False  True False]
    """
    return _float_test("isinf", ops.isinf, x, dtype, False)


def isnan(x, dtype=None):
    """Whether each element is NaN.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.isnan(np.array([1., np.inf, np.nan])))
        [False False  True]
    """
    return _float_test("isnan", ops.isnan, x, dtype, False)


def isposinf(x):
    """Whether each element is positive infinity.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.isposinf(np.array([-np.inf, 0., np.inf])))
        [False False  True]
    """
    return _float_test("isposinf", lambda v: ops.logical_and(ops.isinf(v), ops.greater(v, 0)), x, None, False)


def isneginf(x):
    """Whether each element is negative infinity.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.isneginf(np.array([-np.inf, 0., np.inf])))
        [ True False False]
    """
    return _float_test("isneginf", lambda v: ops.logical_and(ops.isinf(v), ops.less(v, 0)), x, None, False)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether ``|a - b| <= atol + rtol * |b|`` element-wise (infinities equal only to themselves).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.isclose(np.array([1e-8, 1.0]), np.array([0.0, 1.0 + 1e-6])))
        [ True  True]
    """
    a, b = promote(to_tensor(a, "isclose"), to_tensor(b, "isclose"))
    if not is_float_dtype(a.dtype):
        a, b = cast_to(a, mstype.float32), cast_to(b, mstype.float32)
    close = ops.less_equal(ops.abs(a - b), atol + rtol * ops.abs(b))
    both_inf = ops.logical_and(ops.logical_or(ops.isinf(a), ops.isinf(b)), ops.equal(a, b))
    finite = ops.logical_and(ops.isfinite(a), ops.isfinite(b))
    out = ops.logical_or(ops.logical_and(close, finite), both_inf)
    if equal_nan:
        out = ops.logical_or(out, ops.logical_and(ops.isnan(a), ops.isnan(b)))
    return out


def array_equal(a1, a2, equal_nan=False):
    """Whether both have the same shape and elements (a Bool scalar tensor).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.array_equal(np.array([1, 2]), np.array([1, 2])))
        True
    """
    a, b = promote(to_tensor(a1, "array_equal"), to_tensor(a2, "array_equal"))
    if tuple(a.shape) != tuple(b.shape):
        return Tensor(False, mstype.bool_)
    eq = ops.equal(a, b)
    if equal_nan and is_float_dtype(a.dtype):
        eq = ops.logical_or(eq, ops.logical_and(ops.isnan(a), ops.isnan(b)))
    return ops.all(eq) if eq.ndim else eq


def array_equiv(a1, a2):
    """Whether the inputs are broadcastable to one shape and equal there (a Bool scalar tensor).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.array_equiv(np.array([1, 2]), np.array([[1, 2], [1, 2]])))
        True
    """
    a, b = promote(to_tensor(a1, "array_equiv"), to_tensor(a2, "array_equiv"))
    try:
        _np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    except ValueError:
        return Tensor(False, mstype.bool_)
    eq = ops.equal(a, b)
    return ops.all(eq) if eq.ndim else eq


def signbit(x, dtype=None):
    """Whether the sign bit is set (negative numbers and -0.0).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.signbit(np.array([-1., 0., 2.])))
        [ True False False]
    """
    x = to_tensor(x, "signbit")
    if x.dtype == mstype.bool_ or not (is_float_dtype(x.dtype) or mstype.is_int(x.dtype)):
        return cast_to(ops.fill(mstype.bool_, x.shape, False), dtype)
    out = ops.less(x, 0)
    if is_float_dtype(x.dtype):
        out = ops.logical_or(out, ops.logical_and(ops.equal(x, 0), ops.less(1.0 / x, 0)))
    return cast_to(out, dtype)


def sometrue(a, axis=None, keepdims=False):
    """Whether any element over ``axis`` is true.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.sometrue(np.array([[True, False], [False, False]]), axis=0))
        [ True False]
    """
    a = _truth(to_tensor(a, "sometrue"))
    axes = normalize_axes("sometrue", axis, a.ndim)
    return ops.any(a, axes, keepdims) if axes else a


def isscalar(element):
    """Whether ``element`` is a Python or NumPy scalar (a Tensor is not).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.isscalar(3.1))
        True
    """
    return isinstance(element, (numbers.Number, str, bytes, _np.generic)) and not isinstance(element, Tensor)


def in1d(ar1, ar2, invert=False):
    """Whether each element of the flattened ``ar1`` is in ``ar2``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.in1d(np.array([0, 1, 2, 5]), np.array([0, 2])))
        [ True False  True False]
    """
    a = ops.reshape(to_tensor(ar1, "in1d"), (-1,))
    return isin(a, ar2, invert)


def isin(element, test_elements, invert=False):
    """Whether each element of ``element`` is in ``test_elements`` (keeps ``element``'s shape).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.isin(np.array([1, 5]), np.array([1, 2])))
        [ True False]
    """
    e = to_tensor(element, "isin")
    t = ops.reshape(to_tensor(test_elements, "isin"), (-1,))
    e, t = promote(e, t)
    if t.shape[0] == 0:
        found = ops.fill(mstype.bool_, e.shape, False)
    else:
        found = ops.any(ops.equal(ops.expand_dims(e, -1), t), (e.ndim,))
    return ops.logical_not(found) if invert else found


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted unique values of ``ar1`` not in ``ar2`` (PYNATIVE: the size depends on the data).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.setdiff1d(np.array([1, 2, 3, 2, 4, 1]), np.array([3, 4, 5, 6])))
        [1 2]
    """
    a = ops.reshape(to_tensor(ar1, "setdiff1d"), (-1,))
    if not assume_unique:
        a = unique(a)
    keep = isin(a, ar2, invert=True)
    return ops.masked_select(a, keep)
