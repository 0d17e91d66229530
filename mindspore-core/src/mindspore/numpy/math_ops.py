"""Element-wise math, and the re-export of the other math families: reductions (:mod:`._reductions`),
linear algebra (:mod:`._linalg`), differences, polynomials, statistics and histograms (:mod:`._math_extra`).

Every function is a composition of ``mindspore.ops`` (so differentiable where the math is, and
usable in GRAPH_MODE); only ``bincount`` without ``length`` and ``histogram`` with data-derived
ranges read values back to size their outputs, as MindSpore's do. Results follow MindSpore's
dtypes: an int input to a float-valued function gives Float32, integer ``sum`` accumulates in
Int64, a ``dtype`` argument casts the result.
"""
import math as _math

import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
import mindspore.ops as ops
from mindspore.numpy._linalg import cross, dot, inner, kron, matmul, multi_dot, norm, outer, tensordot  # noqa: F401
from mindspore.numpy._reductions import (amax, amin, argmax, argmin, average, count_nonzero, cumprod,  # noqa: F401
                                         cumsum, max, mean, min, nancumsum, nanmax, nanmean, nanmin, nanstd,
                                         nansum, nanvar, ptp, std, sum, var)
from mindspore.numpy._math_extra import (bincount, convolve, corrcoef, correlate, cov, diff, digitize,  # noqa: F401
                                         ediff1d, gradient, histogram, histogram2d, histogramdd, interp, polyadd,
                                         polyder, polyint, polymul, polysub, polyval, ravel_multi_index,
                                         searchsorted, trapz, unwrap)
from mindspore.numpy.dtypes import promote_types, result_type  # noqa: F401 - MindSpore exports them here too
from mindspore.numpy.utils import cast_to, is_float_dtype, promote, to_float, to_tensor

__all__ = [
    # element-wise
    "absolute", "abs", "fabs", "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power",
    "float_power", "mod", "remainder", "fmod", "divmod", "negative", "positive", "reciprocal", "sign", "sqrt",
    "cbrt", "square", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2", "sin",
    "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
    "arctanh", "hypot", "deg2rad", "rad2deg", "radians", "floor", "ceil", "trunc", "fix", "rint", "clip",
    "maximum", "minimum", "heaviside", "copysign", "gcd", "lcm", "bitwise_and", "bitwise_or", "bitwise_xor",
    "bitwise_not", "invert",
    # reductions and scans
    "sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "ptp", "average", "var", "std", "nansum",
    "nanmean", "nanmax", "nanmin", "nanvar", "nanstd", "count_nonzero", "cumsum", "cumprod", "nancumsum",
    # linear algebra
    "dot", "inner", "outer", "matmul", "tensordot", "kron", "multi_dot", "norm", "cross",
    # differences, polynomials, signal
    "diff", "ediff1d", "gradient", "trapz", "interp", "convolve", "correlate", "unwrap", "polyadd", "polysub",
    "polymul", "polyder", "polyint", "polyval",
    # statistics and binning
    "cov", "corrcoef", "histogram", "histogram2d", "histogramdd", "bincount", "digitize", "searchsorted",
    "ravel_multi_index", "promote_types", "result_type",
]


# --- element-wise ----------------------------------------------------------------------------------------
def _unary(op, fn, x, dtype, floating=False):
    x = to_tensor(x, op)
    if floating:
        x = to_float(x)
    return cast_to(fn(x), dtype)


def _binary(op, fn, x1, x2, dtype, floating=False):
    x1, x2 = to_tensor(x1, op), to_tensor(x2, op)
    if floating:
        x1, x2 = to_float(x1), to_float(x2)
    return cast_to(fn(x1, x2), dtype)


def absolute(x, dtype=None):
    """The element-wise absolute value.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.absolute(np.array([-1., 2.])))
        [1. 2.]
    """
    return _unary("absolute", ops.abs, x, dtype)


abs = absolute  # pylint: disable=redefined-builtin


def fabs(x, dtype=None):
    """The element-wise absolute value (integers stay integers, as in MindSpore).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.fabs(np.array([-1.2, 1.2])))
        [1.2 1.2]
    """
    return _unary("fabs", ops.abs, x, dtype)


def add(x1, x2, dtype=None):
    """``x1 + x2`` element-wise, with broadcasting.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.add(np.array([1, 2]), 1.5))
        [2.5 3.5]
    """
    return _binary("add", ops.add, x1, x2, dtype)


def subtract(x1, x2, dtype=None):
    """``x1 - x2`` element-wise.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.subtract(np.array([3, 4]), 1))
        [2 3]
    """
    return _binary("subtract", ops.sub, x1, x2, dtype)


def multiply(x1, x2, dtype=None):
    """``x1 * x2`` element-wise.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.multiply(np.array([1., 2.]), np.array([3., 4.])))
        [3. 8.]
    """
    return _binary("multiply", ops.mul, x1, x2, dtype)


def divide(x1, x2, dtype=None):
    """True division (integers give Float32).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.divide(np.array([1, 2]), 4))
        [0.25 0.5 ]
    """
    return _binary("divide", ops.div, x1, x2, dtype, floating=True)


def true_divide(x1, x2, dtype=None):
    """True division (integers give Float32).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.true_divide(np.array([1., 3.]), 2))
        [0.5 1.5]
    """
    return _binary("true_divide", ops.div, x1, x2, dtype, floating=True)


def floor_divide(x1, x2, dtype=None):
    """The largest integer not greater than ``x1 / x2``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.floor_divide(np.array([-3, 7]), 2))
        [-2  3]
    """
    return _binary("floor_divide", ops.floor_divide, x1, x2, dtype)


def power(x1, x2, dtype=None):
    """``x1 ** x2`` element-wise.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.power(np.array([1, 2, 3]), 2))
        [1 4 9]
    """
    return _binary("power", ops.pow, x1, x2, dtype)


def float_power(x1, x2, dtype=None):
    """``x1 ** x2`` computed in floating point.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.float_power(np.array([1, 2, 3]), 2))
        [1. 4. 9.]
    """
    return _binary("float_power", ops.pow, x1, x2, dtype, floating=True)


def remainder(x1, x2, dtype=None):
    """The remainder with the sign of the divisor (Python's ``%``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.remainder(np.array([-3, 7]), 4))
        [1 3]
    """
    return _binary("remainder", ops.floor_mod, x1, x2, dtype)


mod = remainder


def fmod(x1, x2, dtype=None):
    """The remainder with the sign of the dividend (C's ``fmod``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.fmod(np.array([-3, 7]), 4))
        [-3  3]
    """
    return _binary("fmod", ops.fmod, x1, x2, dtype)


def divmod(x1, x2, dtype=None):  # pylint: disable=redefined-builtin
    """``(floor_divide(x1, x2), remainder(x1, x2))``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.divmod(np.array([7, -7]), 3))
        (Tensor(shape=[2], dtype=Int32, value= [ 2, -3]), Tensor(shape=[2], dtype=Int32, value= [1, 2]))
    """
    return floor_divide(x1, x2, dtype), remainder(x1, x2, dtype)


def negative(a, dtype=None):
    """``-a`` element-wise.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.negative(np.array([1., -1.])))
        [-1.  1.]
    """
    return _unary("negative", ops.neg, a, dtype)


def positive(a, dtype=None):
    """A copy of ``a``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.positive(np.array([1., -1.])))
        [ 1. -1.]
    """
    return _unary("positive", ops.identity, a, dtype)


def reciprocal(x, dtype=None):
    """``1 / x`` element-wise (as a float).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.reciprocal(np.array([1., 4.])))
        [1.   0.25]
    """
    return _unary("reciprocal", ops.reciprocal, x, dtype, floating=True)


def sign(x, dtype=None):
    """-1, 0 or 1 by the sign of each element.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.sign(np.array([-5., 0., 4.])))
        [-1.  0.  1.]
    """
    return _unary("sign", ops.sign, x, dtype)


def sqrt(x, dtype=None):
    """The non-negative square root.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.sqrt(np.array([1., 4., 9.])))
        [1. 2. 3.]
    """
    return _unary("sqrt", ops.sqrt, x, dtype, floating=True)


def cbrt(x, dtype=None):
    """The real cube root.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.cbrt(np.array([-8., 27.])))
        [-2.  3.]
    """
    def fn(v):
        return ops.sign(v) * ops.pow(ops.abs(v), 1.0 / 3)
    return _unary("cbrt", fn, x, dtype, floating=True)


def square(x, dtype=None):
    """``x * x`` element-wise.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.square(np.array([-2, 3])))
        [4 9]
    """
    return _unary("square", ops.square, x, dtype)


def exp(x, dtype=None):
    """``e ** x``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.exp(np.array([0., 1.])))
        [1.        2.7182798]
    """
    return _unary("exp", ops.exp, x, dtype, floating=True)


def exp2(x, dtype=None):
    """``2 ** x``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.exp2(np.array([2., 3.])))
        [4. 8.]
    """
    return _unary("exp2", lambda v: ops.pow(2.0, v), x, dtype, floating=True)


def expm1(x, dtype=None):
    """``exp(x) - 1``, accurate near 0.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.expm1(np.array([0., 1e-10])))
        [0. 0.]
    """
    return _unary("expm1", ops.expm1, x, dtype, floating=True)


def log(x, dtype=None):
    """The natural logarithm.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.log(np.array([1., 2.])))
        [0.        0.6931472]
    """
    return _unary("log", ops.log, x, dtype, floating=True)


def log2(x, dtype=None):
    """The base-2 logarithm.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.log2(np.array([1., 8.])))
        [0. 3.]
    """
    return _unary("log2", lambda v: ops.log(v) / _math.log(2.0), x, dtype, floating=True)


def log10(x, dtype=None):
    """The base-10 logarithm.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.log10(np.array([1., 100.])))
        [0. 2.]
    """
    return _unary("log10", lambda v: ops.log(v) / _math.log(10.0), x, dtype, floating=True)


def log1p(x, dtype=None):
    """``log(1 + x)``, accurate near 0.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.log1p(np.array([0., 1.])))
        [0.        0.6931472]
    """
    return _unary("log1p", ops.log1p, x, dtype, floating=True)


def _as_written_where_finite(a, b, limit, as_written, shifted):
    """``as_written(a, b)`` (MindSpore's composition, its bits) where both ``|a|`` and ``|b|`` are at most ``limit``,
    else ``shifted(a, b)``: past the limit MindSpore's overflows to inf (or underflows to -inf), the max-shifted form
    gives the value. Each branch only sees inputs it handles, so the gradients stay finite."""
    inside = ops.logical_and(ops.abs(a) <= limit, ops.abs(b) <= limit)
    safe_a, safe_b = ops.where(inside, a, ops.zeros_like(a)), ops.where(inside, b, ops.zeros_like(b))
    return ops.where(inside, as_written(safe_a, safe_b), shifted(a, b))


def _exp_limit(x):
    return 10.0 if x.dtype == mstype.float16 else 80.0


def logaddexp(x1, x2, dtype=None):
    """``log(exp(x1) + exp(x2))``: as MindSpore computes it (its bits) while ``exp`` stays finite, the max-shifted
    form past that (where MindSpore's overflows to inf).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.logaddexp(np.array([0., 1.]), 0.))
        [0.6931472 1.3132612]
    """
    def fn(a, b):
        return _as_written_where_finite(
            a, b, _exp_limit(a), lambda p, q: ops.log(ops.exp(p) + ops.exp(q)),
            lambda p, q: ops.maximum(p, q) + ops.log1p(ops.exp(-ops.abs(p - q))))
    return _binary("logaddexp", fn, x1, x2, dtype, floating=True)


def logaddexp2(x1, x2, dtype=None):
    """``log2(2 ** x1 + 2 ** x2)``: as MindSpore computes it (its bits) while ``2 ** x`` stays finite, the
    max-shifted form past that (where MindSpore's overflows to inf).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.logaddexp2(np.array([1., 2.]), 1.))
        [2.        2.5849626]
    """
    def fn(a, b):
        limit = 14.0 if a.dtype == mstype.float16 else 120.0
        return _as_written_where_finite(
            a, b, limit, lambda p, q: ops.log2(ops.pow(2, p) + ops.pow(2, q)),   # log(.) / log(2), as MindSpore's log2
            lambda p, q: ops.maximum(p, q) + ops.log1p(ops.pow(2, -ops.abs(p - q))) / _math.log(2.0))
    return _binary("logaddexp2", fn, x1, x2, dtype, floating=True)


def sin(x, dtype=None):
    """Trigonometric sine.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.sin(np.array([0., np.pi / 2])))
        [0. 1.]
    """
    return _unary("sin", ops.sin, x, dtype, floating=True)


def cos(x, dtype=None):
    """Trigonometric cosine.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.cos(np.array([0., np.pi])))
        [ 1. -1.]
    """
    return _unary("cos", ops.cos, x, dtype, floating=True)


def tan(x, dtype=None):
    """Trigonometric tangent.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.tan(np.array([0., np.pi / 4])))
        [0. 1.]
    """
    return _unary("tan", ops.tan, x, dtype, floating=True)


def arcsin(x, dtype=None):
    """Inverse sine.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.arcsin(np.array([0., 1.])))
        [0.        1.5707964]
    """
    return _unary("arcsin", ops.asin, x, dtype, floating=True)


def arccos(input, dtype=None):  # pylint: disable=redefined-builtin
    """Inverse cosine.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.arccos(np.array([1., 0.])))
        [0.        1.5707964]
    """
    return _unary("arccos", ops.acos, input, dtype, floating=True)


def arctan(x, dtype=None):
    """Inverse tangent.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.arctan(np.array([0., 1.])))
        [0.        0.7853982]
    """
    return _unary("arctan", ops.atan, x, dtype, floating=True)


def arctan2(x1, x2, dtype=None):
    """The angle of the point ``(x2, x1)``, quadrant-aware.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.arctan2(np.array([1., -1.]), np.array([-1., -1.])))
        [ 2.3561945 -2.3561945]
    """
    return _binary("arctan2", lambda a, b: ops.atan2(*promote(a, b)), x1, x2, dtype, floating=True)


def sinh(x, dtype=None):
    """Hyperbolic sine.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.sinh(np.array([0., 1.])))
        [0.        1.1752012]
    """
    return _unary("sinh", ops.sinh, x, dtype, floating=True)


def cosh(x, dtype=None):
    """Hyperbolic cosine.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.cosh(np.array([0., 1.])))
        [1.        1.5430807]
    """
    return _unary("cosh", ops.cosh, x, dtype, floating=True)


def tanh(x, dtype=None):
    """Hyperbolic tangent.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.tanh(np.array([0., 1.])))
        [0.        0.7615942]
    """
    return _unary("tanh", ops.tanh, x, dtype, floating=True)


def arcsinh(x, dtype=None):
    """Inverse hyperbolic sine.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.arcsinh(np.array([0., 1.])))
        [0.        0.8813736]
    """
    return _unary("arcsinh", ops.asinh, x, dtype, floating=True)


def arccosh(x, dtype=None):
    """Inverse hyperbolic cosine.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.arccosh(np.array([1., 2.])))
        [0.       1.316958]
    """
    return _unary("arccosh", ops.acosh, x, dtype, floating=True)


def arctanh(x, dtype=None):
    """Inverse hyperbolic tangent.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.arctanh(np.array([0., 0.5])))
        [0.         0.54930615]
    """
    return _unary("arctanh", ops.atanh, x, dtype, floating=True)


def hypot(x1, x2, dtype=None):
    """``sqrt(x1 ** 2 + x2 ** 2)``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.hypot(np.array([3., 5.]), np.array([4., 12.])))
        [ 5. 13.]
    """
    return _binary("hypot", lambda a, b: ops.hypot(*promote(a, b)), x1, x2, dtype, floating=True)


def deg2rad(x, dtype=None):
    """Degrees to radians.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.deg2rad(np.array([180., 90.])))
        [3.1415927 1.5707964]
    """
    return _unary("deg2rad", lambda v: v * (_math.pi / 180), x, dtype, floating=True)


radians = deg2rad


def rad2deg(x, dtype=None):
    """Radians to degrees.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.rad2deg(np.array([np.pi, np.pi / 2])))
        [180.  90.]
    """
    return _unary("rad2deg", lambda v: v * (180 / _math.pi), x, dtype, floating=True)


def floor(x, dtype=None):
    """The largest integer not greater than each element (as a float).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.floor(np.array([-1.7, 1.7])))
        [-2.  1.]
    """
    return _unary("floor", ops.floor, x, dtype, floating=True)


def ceil(x, dtype=None):
    """The smallest integer not less than each element (as a float).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.ceil(np.array([-1.7, 1.7])))
        [-1.  2.]
    """
    return _unary("ceil", ops.ceil, x, dtype, floating=True)


def trunc(x, dtype=None):
    """Rounds towards zero (as a float).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.trunc(np.array([-1.7, 1.7])))
        [-1.  1.]
    """
    return _unary("trunc", ops.trunc, x, dtype, floating=True)


def fix(x):
    """Rounds towards zero (as a float).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.fix(np.array([-1.7, 1.7])))
        [-1.  1.]
    """
    return _unary("fix", ops.trunc, x, None, floating=True)


def rint(x, dtype=None):
    """Rounds to the nearest integer, halves to even (as a float).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.rint(np.array([0.5, 1.5, -1.7])))
        [ 0.  2. -2.]
    """
    return _unary("rint", ops.round, x, dtype, floating=True)


def clip(x, xmin, xmax, dtype=None):
    """Limits the values to ``[xmin, xmax]`` (either bound may be ``None``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.clip(np.arange(5), 1, 3))
        [1 1 2 3 3]
    """
    x = to_tensor(x, "clip")
    if xmin is None and xmax is None:
        raise MSValueError("For 'clip', the 'xmin' and 'xmax' can not both be None.")
    out = x
    if xmin is not None:
        out = ops.maximum(out, to_tensor(xmin, "clip"))
    if xmax is not None:
        out = ops.minimum(out, to_tensor(xmax, "clip"))
    return cast_to(out, dtype)


def maximum(x1, x2, dtype=None):
    """The element-wise maximum (NaN propagates).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.maximum(np.array([1., 5.]), np.array([3., 2.])))
        [3. 5.]
    """
    def fn(a, b):
        out = ops.maximum(a, b)
        if is_float_dtype(out.dtype):
            out = ops.where(ops.isnan(a), ops.broadcast_to(cast_to(a, out.dtype), out.shape), out)
        return out
    return _binary("maximum", fn, x1, x2, dtype)


def minimum(x1, x2, dtype=None):
    """The element-wise minimum (NaN propagates).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.minimum(np.array([1., 5.]), np.array([3., 2.])))
        [1. 2.]
    """
    def fn(a, b):
        out = ops.minimum(a, b)
        if is_float_dtype(out.dtype):
            out = ops.where(ops.isnan(a), ops.broadcast_to(cast_to(a, out.dtype), out.shape), out)
        return out
    return _binary("minimum", fn, x1, x2, dtype)


def heaviside(x1, x2, dtype=None):
    """The Heaviside step: 0 for ``x1 < 0``, ``x2`` at 0, 1 for ``x1 > 0``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.heaviside(np.array([-1.5, 0., 2.]), 0.5))
        [0.  0.5 1. ]
    """
    def fn(a, b):
        a, b = promote(a, b)
        shape = _np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
        a, b = ops.broadcast_to(a, shape), ops.broadcast_to(b, shape)
        step = cast_to(ops.greater(a, 0), a.dtype)
        return ops.where(ops.equal(a, 0), b, step)
    return _binary("heaviside", fn, x1, x2, dtype, floating=True)


def copysign(x1, x2, dtype=None):
    """``x1`` with the sign of ``x2``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.copysign(np.array([1., -2.]), -1.))
        [-1. -2.]
    """
    def fn(a, b):
        a, b = promote(a, b)
        neg = ops.logical_or(ops.less(b, 0), ops.logical_and(ops.equal(b, 0), ops.less(1.0 / b, 0)))
        mag = ops.abs(a)
        return ops.where(neg, -mag, mag)
    return _binary("copysign", fn, x1, x2, dtype, floating=True)


def _check_int_inputs(op, *xs):
    for x in xs:
        if not (mstype.is_int(x.dtype) or x.dtype in (mstype.uint8, mstype.uint16, mstype.uint32, mstype.uint64,
                                                       mstype.bool_)):
            raise MSTypeError(f"For '{op}', the input must be an integer or bool Tensor, but got {x.dtype}.")


def gcd(x1, x2, dtype=None):
    """The greatest common divisor of ``|x1|`` and ``|x2|``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.gcd(np.array([12, 20]), 8))
        [4 4]
    """
    def fn(a, b):
        _check_int_inputs("gcd", a, b)
        return ops.gcd(*promote(a, b))
    return _binary("gcd", fn, x1, x2, dtype)


def lcm(x1, x2, dtype=None):
    """The lowest common multiple of ``|x1|`` and ``|x2|``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.lcm(np.array([12, 20]), 8))
        [24 40]
    """
    def fn(a, b):
        _check_int_inputs("lcm", a, b)
        return ops.lcm(*promote(a, b))
    return _binary("lcm", fn, x1, x2, dtype)


def bitwise_and(x1, x2, dtype=None):
    """Bit-wise AND of integers (logical AND of bools).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.bitwise_and(np.array([13, 17]), 7))
        [5 1]
    """
    return _binary("bitwise_and", lambda a, b: ops.bitwise_and(*promote(a, b)), x1, x2, dtype)


def bitwise_or(x1, x2, dtype=None):
    """Bit-wise OR.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.bitwise_or(np.array([13, 16]), 1))
        [13 17]
    """
    return _binary("bitwise_or", lambda a, b: ops.bitwise_or(*promote(a, b)), x1, x2, dtype)


def bitwise_xor(x1, x2, dtype=None):
    """Bit-wise XOR.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.bitwise_xor(np.array([13, 17]), 5))
        [ 8 20]
    """
    return _binary("bitwise_xor", lambda a, b: ops.bitwise_xor(*promote(a, b)), x1, x2, dtype)


def invert(x, dtype=None):
    """Bit-wise NOT (logical NOT of bools).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.invert(np.array([13, 0])))
        [-14  -1]
    """
    def fn(v):
        if v.dtype == mstype.bool_:
            return ops.logical_not(v)
        return ops.bitwise_not(v)
    return _unary("invert", fn, x, dtype)


bitwise_not = invert
