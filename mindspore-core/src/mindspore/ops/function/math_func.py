"""Functional math ops: ``ops.add``, ``ops.matmul``, ``ops.cumsum``, ... (compositions of the math primitives).

Binary ops take a Tensor or a Python scalar on either side and follow MindSpore's type promotion
(``int32 + 1.5 -> Float32``, ``int32 / int32 -> Float32``, ``bool + bool`` is logical OR).
Comparisons return Bool tensors.
"""
import math as _pymath
import string as _string

from mindspore._core.primitive import float32_number
from mindspore._errors import MSTypeError, MSValueError, MSValueRuntimeError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs import math as math_defs
from mindspore.ops._defs import math_ext as ext_defs
from mindspore.ops._defs._lazy import functional as _functional


__all__ = [
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide", "floor_div",
    "floordiv", "floor_mod", "floormod", "remainder", "fmod", "truncate_div", "truncate_mod", "pow", "float_power",
    "sqrt", "rsqrt", "exp", "exp2", "log", "log1p", "expm1", "log2", "log10", "abs", "absolute", "neg", "negative",
    "positive", "square", "reciprocal", "maximum", "minimum", "clip_by_value", "clamp", "clip", "floor", "ceil",
    "round", "trunc", "frac", "sign", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "arcsin", "arccos",
    "arctan", "arctan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh", "erf",
    "erfc", "xlogy", "hypot", "equal", "eq", "not_equal", "ne", "greater", "gt", "greater_equal", "ge", "less", "lt",
    "less_equal", "le", "logical_and", "logical_or", "logical_not", "logical_xor", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_not", "invert", "isnan", "isinf", "isfinite", "matmul", "mm", "bmm", "dot", "inner",
    "outer", "tensor_dot", "addn", "addcmul", "addcdiv", "lerp", "cumsum", "cumprod", "clip_by_global_norm",
    "einsum", "fmax", "fmin", "gcd", "lcm", "heaviside", "isclose", "nan_to_num", "sinc", "erfinv", "deg2rad",
    "rad2deg", "kron", "logaddexp", "logaddexp2", "copysign", "signbit",
]

_add = math_defs.Add()
_sub = math_defs.Sub()
_mul = math_defs.Mul()
_div = math_defs.Div()
_floor_div = math_defs.FloorDiv()
_floor_mod = math_defs.FloorMod()
_mod = math_defs.Mod()
_truncate_div = math_defs.TruncateDiv()
_truncate_mod = math_defs.TruncateMod()
_pow = math_defs.Pow()
_maximum = math_defs.Maximum()
_minimum = math_defs.Minimum()

_atan2 = math_defs.Atan2()
_xlogy = math_defs.Xlogy()
_hypot = math_defs.Hypot()
_neg = math_defs.Neg()
_abs = math_defs.Abs()
_square = math_defs.Square()
_reciprocal = math_defs.Reciprocal()
_sqrt = math_defs.Sqrt()
_rsqrt = math_defs.Rsqrt()
_exp = math_defs.Exp()
_log = math_defs.Log()
_log1p = math_defs.Log1p()
_expm1 = math_defs.Expm1()
_sign = math_defs.Sign()
_floor = math_defs.Floor()
_ceil = math_defs.Ceil()
_trunc = math_defs.Trunc()
_round = math_defs.Round()
_sin = math_defs.Sin()
_cos = math_defs.Cos()
_tan = math_defs.Tan()
_asin = math_defs.Asin()
_acos = math_defs.ACos()
_atan = math_defs.Atan()
_sinh = math_defs.Sinh()
_cosh = math_defs.Cosh()
_tanh = math_defs.Tanh()
_asinh = math_defs.Asinh()
_acosh = math_defs.Acosh()
_atanh = math_defs.Atanh()
_erf = math_defs.Erf()
_erfc = math_defs.Erfc()
_equal = math_defs.Equal()
_not_equal = math_defs.NotEqual()
_greater = math_defs.Greater()
_greater_equal = math_defs.GreaterEqual()
_less = math_defs.Less()
_less_equal = math_defs.LessEqual()
_logical_and = math_defs.LogicalAnd()
_logical_or = math_defs.LogicalOr()
_logical_xor = math_defs.LogicalXor()
_logical_not = math_defs.LogicalNot()
_bitwise_and = math_defs.BitwiseAnd()
_bitwise_or = math_defs.BitwiseOr()
_bitwise_xor = math_defs.BitwiseXor()
_invert = math_defs.Invert()
_isnan = math_defs.IsNan()
_isinf = math_defs.IsInf()
_isfinite = math_defs.IsFinite()
_matmul = ext_defs.MatMul()
_batch_matmul = ext_defs.BatchMatMul()
_addn = ext_defs.AddN()
_addcmul = ext_defs.Addcmul()
_addcdiv = ext_defs.Addcdiv()
_lerp = ext_defs.Lerp()
_cumsum = ext_defs.CumSum()
_cumprod = ext_defs.CumProd()

_fmax = math_defs.Fmax()
_fmin = math_defs.Fmin()
_gcd = math_defs.Gcd()
_lcm = math_defs.Lcm()
_heaviside = math_defs.Heaviside()
_sinc = math_defs.Sinc()
_erfinv = math_defs.Erfinv()

_CONFIGURED = {}


def _configured(cls, *attrs):
    """One primitive instance per attribute set, so repeated calls reuse its dispatch cache."""
    key = (cls, attrs, tuple(type(a) for a in attrs))
    prim = _CONFIGURED.get(key)
    if prim is None:
        prim = _CONFIGURED[key] = cls(*attrs)
    return prim


_LN2 = _pymath.log(2.0)
_LN10 = _pymath.log(10.0)


# --- arithmetic -----------------------------------------------------------------------------
def add(input, other):
    """``input + other`` with broadcasting and MindSpore's type promotion.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.add(ms.Tensor([1.0, 2.0]), 1))
        [2. 3.]
    """
    return _add(input, other)


def sub(input, other):
    """``input - other``."""
    return _sub(input, other)


def subtract(input, other, *, alpha=1):
    """``input - alpha * other``."""
    return _sub(input, other if alpha == 1 else _mul(other, alpha))


def mul(input, other):
    """``input * other``."""
    return _mul(input, other)


def multiply(input, other):
    """``input * other``."""
    return _mul(input, other)


def div(input, other, *, rounding_mode=None):
    """``input / other``; ``rounding_mode`` 'floor' or 'trunc' rounds the quotient.

    Without ``rounding_mode`` this is true division (integer inputs give Float32).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.div(ms.Tensor([7, -7]), 2, rounding_mode='trunc'))
        [ 3 -3]
    """
    if rounding_mode is None:
        return _div(input, other)
    if rounding_mode == "floor":
        return _floor_div(input, other)
    if rounding_mode == "trunc":
        return _div_trunc(input, other)
    raise MSValueError(f"For 'div', 'rounding_mode' must be None, 'floor' or 'trunc', but got {rounding_mode!r}.")


def _div_trunc(input, other):
    """``div(..., rounding_mode='trunc')``. MindSpore computes it as a float quotient truncated and cast back, so
    where an integer divisor is 0 the cast of +-inf or NaN gives the type's minimum (Int32, Int64) or 0 (narrower
    integers), and two bools give ``x or not y``; elsewhere the integer quotient is exact here (MindSpore's float32
    quotient rounds integers above 2**24)."""
    x_bool = isinstance(input, Tensor) and input.dtype is mstype.bool_
    if x_bool and ((isinstance(other, Tensor) and other.dtype is mstype.bool_) or isinstance(other, bool)):
        return _logical_or(input, _logical_not(other))
    q = _truncate_div(input, other)
    if q.dtype not in mstype.int_type + mstype.uint_type:
        return q
    wide = q.dtype in (mstype.int32, mstype.int64)
    fill = -(2 ** (8 * q.dtype.itemsize - 1)) if wide else 0
    if rules.is_scalar(other):   # (Equal refuses a number as its first input)
        return q if other != 0 else _functional.masked_fill(q, _equal(q, q), fill)
    return _functional.masked_fill(q, _equal(other, 0), fill)


def divide(input, other, *, rounding_mode=None):
    """Alias of :func:`div`."""
    return div(input, other, rounding_mode=rounding_mode)


def true_divide(dividend, divisor):
    """``dividend / divisor`` (true division)."""
    return _div(dividend, divisor)


def floor_divide(input, other):
    """``floor(input / other)`` (Python's ``//``; integers stay integers)."""
    return _floor_div(input, other)


def floor_div(x, y):
    """Alias of :func:`floor_divide`."""
    return _floor_div(x, y)


def floordiv(x, y):
    """Alias of :func:`floor_divide`."""
    return _floor_div(x, y)


def floor_mod(x, y):
    """``x - floor(x / y) * y``: Python's ``%`` (the result has the sign of ``y``)."""
    return _floor_mod(x, y)


def floormod(x, y):
    """Alias of :func:`floor_mod`."""
    return _floor_mod(x, y)


def _integral(v):
    if isinstance(v, Tensor):
        return mstype.is_int(v.dtype)
    return isinstance(v, int) and not isinstance(v, bool)


def remainder(input, other):
    """Python's ``%``: the remainder has the sign of ``other``.

    On integers it is ``input - floor_divide(input, other) * other``, as MindSpore computes it, so a zero
    divisor leaves the dividend (``floor_mod`` gives the dtype's minimum there).
    """
    if _integral(input) and _integral(other):
        return _sub(input, _mul(_floor_div(input, other), other))
    return _floor_mod(input, other)


def fmod(input, other):
    """C's ``fmod``: the remainder has the sign of ``input`` (on integers ``input - truncate_div(input, other) *
    other``, so a zero divisor leaves the dividend, as in MindSpore)."""
    if _integral(input) and _integral(other):
        return _sub(input, _mul(_truncate_div(input, other), other))
    return _mod(input, other)


def truncate_div(x, y):
    """``x / y`` rounded towards zero."""
    return _truncate_div(x, y)


def truncate_mod(x, y):
    """The remainder of :func:`truncate_div` (sign of ``x``)."""
    return _truncate_mod(x, y)


def pow(input, exponent):
    """``input ** exponent``."""
    return _pow(input, exponent)


def float_power(input, exponent):
    """``input ** exponent`` computed in Float64."""
    if isinstance(input, Tensor) and input.dtype != mstype.float64:
        input = _functional.cast(input, mstype.float64)
    if isinstance(exponent, Tensor) and exponent.dtype != mstype.float64:
        exponent = _functional.cast(exponent, mstype.float64)
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise MSTypeError("For 'float_power', at least one of 'input' and 'exponent' must be a Tensor.")
    return _pow(input, exponent)


def sqrt(x):
    """The square root (integer input gives Float32)."""
    return _sqrt(x)


def rsqrt(input):
    """``1 / sqrt(input)``."""
    return _rsqrt(input)


def exp(input):
    """``e ** input``."""
    return _exp(input)


def exp2(input):
    """``2 ** input``."""
    return _pow(2.0, input)


def log(input):
    """The natural logarithm."""
    return _log(input)


def log1p(input):
    """``log(1 + input)``."""
    return _log1p(input)


def expm1(input):
    """``exp(input) - 1``."""
    return _expm1(input)


def _log_base(input, base):
    """``log(input) / log(base)`` as MindSpore composes it: the base's Log taken of a tensor of the input's dtype."""
    if isinstance(input, Tensor) and mstype.is_float(input.dtype):
        return _div(_log(input), _log(Tensor(base, input.dtype)))
    return _mul(_log(input), 1.0 / _pymath.log(base))


def log2(input):
    """The base-2 logarithm."""
    return _log_base(input, 2)


def log10(input):
    """The base-10 logarithm."""
    return _log_base(input, 10)


def abs(input):
    """``|input|``."""
    return _abs(input)


def absolute(input):
    """Alias of :func:`abs`."""
    return _abs(input)


def neg(input):
    """``-input``."""
    return _neg(input)


def negative(input):
    """Alias of :func:`neg`."""
    return _neg(input)


def positive(input):
    """``input`` itself (a bool tensor too, as MindSpore 2.10's ``ops.positive``)."""
    if not isinstance(input, Tensor):
        raise MSTypeError(f"For 'positive', the input must be a Tensor, but got {type(input).__name__}.")
    return input


def square(input):
    """``input * input``."""
    return _square(input)


def reciprocal(input):
    """``1 / input``."""
    return _reciprocal(input)


def maximum(input, other):
    """Elementwise maximum (NaN propagates)."""
    return _maximum(input, other)


def minimum(input, other):
    """Elementwise minimum (NaN propagates)."""
    return _minimum(input, other)


def _clamp_bound(op, x, bound, below):
    """``maximum(x, bound)`` (``below``) or ``minimum(x, bound)`` as clamp computes it: a value at the bound keeps
    the whole gradient and the bound gets none (MindSpore 2.10's clamp; maximum splits a tie, as clip_by_value
    does); NaN stays NaN."""
    dtype = rules.binary_dtype(op, x.dtype, bound.dtype if isinstance(bound, Tensor) else bound)
    if x.dtype != dtype:
        x = _functional.cast(x, dtype)
    if isinstance(bound, Tensor) and bound.dtype != dtype:
        bound = _functional.cast(bound, dtype)
    outside = _functional.less(x, bound) if below else _functional.greater(x, bound)
    return _functional.where(outside, bound, x)


def _clamp(op, x, low, high, keep_dtype=False):
    """Clamp ``x``; ``clamp``/``clip`` promote with the bounds as MindSpore does (int32 with a float bound gives
    Float32, with an Int64 Tensor bound Int64), ``clip_by_value`` keeps ``x``'s dtype (``keep_dtype``)."""
    if low is None and high is None:
        raise MSValueError(f"For '{op}', at least one of 'min' and 'max' must not be None.")
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the input must be a Tensor, but got {type(x).__name__}.")
    # a Python float bound is a float32 number, as in 2.10 (clamp(x64, 0.1) bounds at 0.10000000149011612)
    low = float32_number(low) if type(low) is float else low
    high = float32_number(high) if type(high) is float else high
    out = x
    if low is not None:
        out = _maximum(out, low) if keep_dtype else _clamp_bound(op, out, low, below=True)
    if high is not None:
        out = _minimum(out, high) if keep_dtype else _clamp_bound(op, out, high, below=False)
    if keep_dtype and out.dtype != x.dtype:
        out = _functional.cast(out, x.dtype)
    return out


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """Clamp ``x`` (a Tensor, or a list/tuple of them) to ``[clip_value_min, clip_value_max]``.

    The result keeps ``x``'s dtype; where ``clip_value_min > clip_value_max`` it is ``clip_value_max``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.clip_by_value(ms.Tensor([-2.0, 0.5, 3.0]), -1.0, 1.0))
        [-1.   0.5  1. ]
    """
    if isinstance(x, (tuple, list)):
        return type(x)(_clamp("clip_by_value", t, clip_value_min, clip_value_max, True) for t in x)
    return _clamp("clip_by_value", x, clip_value_min, clip_value_max, True)


def clamp(input, min=None, max=None):
    """Clamp ``input`` to ``[min, max]`` (either bound may be None, a scalar or a Tensor)."""
    return _clamp("clamp", input, min, max)


def clip(input, min=None, max=None):
    """Alias of :func:`clamp`."""
    return _clamp("clip", input, min, max)


def floor(input):
    """Round towards minus infinity."""
    return _floor(input)


def ceil(input):
    """Round towards plus infinity."""
    return _ceil(input)


def round(input, *, decimals=0):
    """Round half to even, to ``decimals`` decimal places."""
    return _round(input, decimals)


def trunc(input):
    """Round towards zero (a bool tensor is its own truncation)."""
    if isinstance(input, Tensor) and input.dtype == mstype.bool_:
        return _functional.cast(input, mstype.bool_)
    return _trunc(input)


def frac(x):
    """The fractional part ``x - trunc(x)`` (with the sign of ``x``; Int64 zeros for a bool tensor, as MindSpore)."""
    if isinstance(x, Tensor) and x.dtype == mstype.bool_:
        return _functional.zeros_like(_functional.cast(x, mstype.int64))
    return _sub(x, _trunc(x))


def sign(input):
    """-1, 0 or 1 by the sign of each element."""
    return _sign(input)


# --- trigonometric, hyperbolic, special -----------------------------------------------------
def sin(input):
    """The sine."""
    return _sin(input)


def cos(input):
    """The cosine."""
    return _cos(input)


def tan(input):
    """The tangent."""
    return _tan(input)


def asin(input):
    """The inverse sine."""
    return _asin(input)


def acos(input):
    """The inverse cosine."""
    return _acos(input)


def atan(input):
    """The inverse tangent."""
    return _atan(input)


def atan2(input, other):
    """The angle of the point ``(other, input)``, in ``[-pi, pi]``."""
    return _atan2(input, other)


def sinh(input):
    """The hyperbolic sine."""
    return _sinh(input)


def cosh(input):
    """The hyperbolic cosine."""
    return _cosh(input)


def tanh(input):
    """The hyperbolic tangent."""
    return _tanh(input)


def asinh(input):
    """The inverse hyperbolic sine."""
    return _asinh(input)


def acosh(input):
    """The inverse hyperbolic cosine."""
    return _acosh(input)


def atanh(input):
    """The inverse hyperbolic tangent."""
    return _atanh(input)


arcsin, arccos, arctan, arctan2 = asin, acos, atan, atan2
arcsinh, arccosh, arctanh = asinh, acosh, atanh


def erf(input):
    """The Gauss error function."""
    return _erf(input)


def erfc(input):
    """The complementary error function ``1 - erf(input)``."""
    return _erfc(input)


def erfinv(input):
    """The inverse error function (``inf`` at 1, NaN outside ``[-1, 1]``)."""
    return _erfinv(input)


def sinc(input):
    """The normalised sinc ``sin(pi x) / (pi x)``, 1 at 0."""
    return _sinc(input)


def deg2rad(x):
    """Degrees to radians."""
    return _mul(x, _pymath.pi / 180.0)


def rad2deg(x):
    """Radians to degrees."""
    return _mul(x, 180.0 / _pymath.pi)


def logaddexp(input, other):
    """``log(exp(input) + exp(other))`` without overflow."""
    return _add(_maximum(input, other), _log1p(_exp(_neg(_abs(_sub(input, other))))))


def logaddexp2(input, other):
    """``log2(2**input + 2**other)`` without overflow."""
    spread = _mul(_abs(_sub(input, other)), -_LN2)
    return _add(_maximum(input, other), _mul(_log1p(_exp(spread)), 1.0 / _LN2))


def signbit(input):
    """Whether the sign bit is set (True for ``-0.0``)."""
    negative = _less(input, 0)
    if isinstance(input, Tensor) and (mstype.is_float(input.dtype)):
        return _logical_or(negative, _logical_and(_equal(input, 0), _less(_reciprocal(input), 0)))
    return negative


def copysign(x, other):
    """``|x|`` with the sign of ``other``: a Tensor (whose ``-0.0`` counts as negative) or a number (whose does
    not, as in 2.10)."""
    if isinstance(other, (int, float)) and not isinstance(other, bool):
        return _mul(_abs(x), -1.0 if other < 0 else 1.0)
    flip = _functional.cast(signbit(other), mstype.float32)
    return _mul(_abs(x), _sub(1, _mul(flip, 2)))


def fmax(input, other):
    """Elementwise maximum ignoring NaN."""
    return _fmax(input, other)


def fmin(input, other):
    """Elementwise minimum ignoring NaN."""
    return _fmin(input, other)


def gcd(input, other):
    """The greatest common divisor of integer tensors."""
    return _gcd(input, other)


def lcm(input, other):
    """The least common multiple of integer tensors."""
    return _lcm(input, other)


def heaviside(input, values):
    """The step function: 0 below 0, ``values`` at 0, 1 above."""
    return _heaviside(input, values)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether ``|input - other| <= atol + rtol * |other|`` elementwise (Bool)."""
    return _configured(math_defs.IsClose, rtol, atol, equal_nan)(input, other)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced by ``nan``, ``posinf`` and ``neginf`` (None: the dtype's extremes)."""
    return _configured(math_defs.NanToNum, nan, posinf, neginf)(input)


def xlogy(input, other):
    """``input * log(other)``, and 0 where ``input`` is 0. A Python number becomes a float32 Tensor, as in 2.10 (the
    Xlogy primitive takes Tensors only)."""
    if rules.is_scalar(input):
        input = Tensor(float(input), mstype.float32)
    if rules.is_scalar(other):
        other = Tensor(float(other), mstype.float32)
    return _xlogy(input, other)


def hypot(input, other):
    """``sqrt(input**2 + other**2)``."""
    return _hypot(input, other)


# --- comparisons, logic, bits ---------------------------------------------------------------
def equal(input, other):
    """``input == other`` (Bool)."""
    return _equal(input, other)


def not_equal(input, other):
    """``input != other`` (Bool)."""
    return _not_equal(input, other)


def greater(input, other):
    """``input > other`` (Bool)."""
    return _greater(input, other)


def greater_equal(input, other):
    """``input >= other`` (Bool)."""
    return _greater_equal(input, other)


def less(input, other):
    """``input < other`` (Bool); ``input`` must be a Tensor (2.10 refuses ``ops.less(2, t)``; ``2 < t`` works)."""
    if rules.is_scalar(input):
        _refuse_overloads("less", (input, other), ((("Number",), "Number", "number"),
                                                   (("Number", "Tensor", "bool"), "Number, Tensor, bool",
                                                    "number,bool,Tensor")))
    return _less(input, other)


def _refuse_overloads(name, args, overloads):
    """2.10's overload-resolution error of a functional op whose ``input`` must be a Tensor. ``overloads``: per
    overload, the kinds its ``other`` takes and their PYNATIVE and GRAPH_MODE spellings; GRAPH_MODE marks every
    argument of a failed match."""
    staging = math_defs._staging()
    names = ["Tensor" if isinstance(a, Tensor) or not rules.is_scalar(a) else type(a).__name__ for a in args]
    kinds = {"bool": "bool", "int": "Number", "float": "Number", "Tensor": "Tensor"}
    lines = [f'Failed calling {name} with "{name}({", ".join(names)})".', "The valid calling should be:"]
    for takes, pynative_text, graph_text in overloads:
        lines.append(f'"{name}(input=<Tensor>, other=<{graph_text if staging else pynative_text}>)"')
        lines.append(f"    match failed because invalid types: ({', '.join(names)})")
        bad = [names[0] != "Tensor", kinds.get(names[1]) not in takes]
        lines.append(" " * 41 + "".join(("~" if b or staging else " ") * (len(n) + 2) for n, b in zip(names, bad)))
    raise MSTypeError("\n".join(lines))


def less_equal(input, other):
    """``input <= other`` (Bool)."""
    return _less_equal(input, other)


eq, ne, gt, ge, lt, le = equal, not_equal, greater, greater_equal, less, less_equal


def logical_and(input, other):
    """Elementwise logical AND (non-zero is true)."""
    return _logical_and(input, other)


def logical_or(input, other):
    """Elementwise logical OR."""
    return _logical_or(input, other)


def logical_xor(input, other):
    """Elementwise logical XOR."""
    return _logical_xor(input, other)


def logical_not(input):
    """Elementwise logical NOT."""
    return _logical_not(input)


def bitwise_and(input, other):
    """``input & other`` on integer or bool tensors."""
    return _bitwise_and(input, other)


def bitwise_or(input, other):
    """``input | other`` on integer or bool tensors."""
    return _bitwise_or(input, other)


def bitwise_xor(input, other):
    """``input ^ other`` on integer or bool tensors."""
    return _bitwise_xor(input, other)


def bitwise_not(input):
    """``~input`` on integer or bool tensors (used by ``Tensor.__invert__``)."""
    return _invert(input)


def invert(x):
    """``~x`` bitwise on integer tensors."""
    return _invert(x)


def isnan(input):
    """Whether each element is NaN."""
    return _isnan(input)


def isinf(input):
    """Whether each element is infinite."""
    return _isinf(input)


def isfinite(input):
    """Whether each element is finite."""
    return _isfinite(input)


# --- products -------------------------------------------------------------------------------
def _tensor_arg(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the input '{name}' must be a Tensor, but got {type(x).__name__}.")
    return x


def matmul(input, other):
    """The matrix product with NumPy's rules: 1-D operands are vectors, leading dims broadcast.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> a = ms.Tensor(np.ones((2, 3, 4), np.float32))
        >>> b = ms.Tensor(np.ones((4, 5), np.float32))
        >>> ops.matmul(a, b).shape
        (2, 3, 5)
    """
    xs, ys = _tensor_arg("matmul", "input", input).shape, _tensor_arg("matmul", "other", other).shape
    if not xs or not ys:
        raise MSValueError(f"For 'matmul', the inputs must be at least 1-D, but got shapes {xs} and {ys}.")
    x = _functional.reshape(input, (1,) + xs) if len(xs) == 1 else input
    y = _functional.reshape(other, ys + (1,)) if len(ys) == 1 else other
    try:
        out = _matmul(x, y) if len(xs) <= 2 and len(ys) <= 2 else _batch_matmul(x, y)
    except MSValueError as exc:
        inner_x, inner_y = xs[-1], (ys[-2] if len(ys) > 1 else ys[0])
        if isinstance(exc, RuntimeError) or inner_x == inner_y:
            raise
        # MindSpore 2.10's ops.matmul reports the mismatch from its kernel: a RuntimeError (and still our ValueError)
        raise MSValueRuntimeError(str(exc)) from None
    if len(xs) == 1 or len(ys) == 1:
        shape = out.shape
        shape = shape[:-2] + shape[-1:] if len(xs) == 1 else shape
        shape = shape[:-1] if len(ys) == 1 else shape
        out = _functional.reshape(out, shape)
    return out


def mm(input, mat2):
    """The product of two 2-D tensors."""
    for name, t in (("input", input), ("mat2", mat2)):
        if len(_tensor_arg("mm", name, t).shape) != 2:
            raise MSValueError(f"For 'mm', the '{name}' must be a 2-D tensor, but got shape {t.shape}.")
    return _matmul(input, mat2)


def bmm(input_x, mat2):
    """Batched matrix product ``input_x @ mat2`` (batch dims broadcast)."""
    return _batch_matmul(input_x, mat2)


def _letters(n, skip=""):
    return "".join(c for c in _string.ascii_letters if c not in skip)[:n]


def dot(input, other):
    """NumPy-style dot: the last axis of ``input`` against the second-to-last of ``other``."""
    xs, ys = _tensor_arg("dot", "input", input).shape, _tensor_arg("dot", "other", other).shape
    if not xs or not ys:
        return _mul(input, other)
    k = "K"
    xsub = _letters(len(xs) - 1, k) + k
    ysub = list(_letters(len(ys), k + xsub))
    ysub[-2 if len(ys) >= 2 else 0] = k
    ysub = "".join(ysub)
    return einsum(f"{xsub},{ysub}->{xsub[:-1]}{ysub.replace(k, '')}", input, other)


def inner(input, other):
    """The sum over the last axes: shape ``input.shape[:-1] + other.shape[:-1]``."""
    xs, ys = _tensor_arg("inner", "input", input).shape, _tensor_arg("inner", "other", other).shape
    if not xs or not ys:
        return _mul(input, other)
    if xs[-1] != ys[-1]:
        raise MSValueError(f"For 'inner', the last dimensions of 'input' and 'other' must be equal, but got "
                           f"shapes {xs} and {ys}.")
    xsub = _letters(len(xs) - 1, "K") + "K"
    ysub = _letters(len(ys) - 1, "K" + xsub) + "K"
    return einsum(f"{xsub},{ysub}->{xsub[:-1]}{ysub[:-1]}", input, other)


def outer(input, vec2):
    """The outer product of two vectors: ``input`` flattened as the rows, ``vec2`` (1-D) as the columns.

    As MindSpore 2.10, an ``input`` of more dimensions is flattened first (``(3, 4)`` and ``(4,)`` give
    ``(12, 4)``).
    """
    _tensor_arg("outer", "input", input)
    if len(_tensor_arg("outer", "vec2", vec2).shape) != 1:
        raise MSValueError(f"For 'outer', the 'vec2' must be a 1-D tensor, but got shape {vec2.shape}.")
    return _mul(_functional.reshape(input, (-1, 1)), vec2)


def _axes_pair(axes, nx, ny):
    if isinstance(axes, int) and not isinstance(axes, bool):
        if not 0 <= axes <= min(nx, ny):
            raise MSValueError(f"For 'tensor_dot', the 'axes' must be in [0, {min(nx, ny)}], but got {axes}.")
        return list(range(nx - axes, nx)), list(range(axes))
    if isinstance(axes, (tuple, list)) and len(axes) == 2:
        a, b = ([v] if isinstance(v, int) else list(v) for v in axes)
        if len(a) != len(b):
            raise MSValueError(f"For 'tensor_dot', the two lists of 'axes' must have the same length, but got {axes}.")
        return [v % nx for v in a], [v % ny for v in b]
    raise MSTypeError(f"For 'tensor_dot', the 'axes' must be an int or a pair of ints/tuples, but got {axes!r}.")


def tensor_dot(x1, x2, axes):
    """Sum of products over ``axes`` (an int ``n``: the last ``n`` of ``x1`` with the first ``n`` of ``x2``)."""
    nx, ny = len(_tensor_arg("tensor_dot", "x1", x1).shape), len(_tensor_arg("tensor_dot", "x2", x2).shape)
    ax, ay = _axes_pair(axes, nx, ny)
    letters = _letters(nx + ny)
    xsub = letters[:nx]
    ysub = list(letters[nx:])
    for i, j in zip(ax, ay):
        ysub[j] = xsub[i]
    ysub = "".join(ysub)
    out = "".join(c for i, c in enumerate(xsub) if i not in ax) + "".join(c for j, c in enumerate(ysub) if j not in ay)
    return einsum(f"{xsub},{ysub}->{out}", x1, x2)


def kron(input, other):
    """The Kronecker product (ranks are aligned by prepending 1s)."""
    xs, ys = _tensor_arg("kron", "input", input).shape, _tensor_arg("kron", "other", other).shape
    n = max(len(xs), len(ys))
    xs, ys = (1,) * (n - len(xs)) + tuple(xs), (1,) * (n - len(ys)) + tuple(ys)
    x = _functional.reshape(input, tuple(v for d in xs for v in (d, 1)))
    y = _functional.reshape(other, tuple(v for d in ys for v in (1, d)))
    return _functional.reshape(_mul(x, y), tuple(a * b for a, b in zip(xs, ys)))


def einsum(equation, *operands):
    """Einstein summation over ``operands`` (``'...'`` broadcasts; no ``'->'``: NumPy's implicit output).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        >>> print(ops.einsum('ij->j', x))
        [3. 5. 7.]
    """
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = operands[0]
    return ext_defs._einsum(equation.replace(" ", ""))(tuple(operands))


# --- n-ary and cumulative -------------------------------------------------------------------
def addn(x):
    """The elementwise sum of a list/tuple of tensors of one shape and dtype (a single Tensor is the sequence of
    its slices along axis 0, as MindSpore 2.10 iterates it: ``addn(x)`` is ``x.sum(0)``)."""
    if isinstance(x, Tensor) and x.ndim:
        x = tuple(_functional.unstack(x, 0))
    return _addn(tuple(x) if isinstance(x, list) else x)


def addcmul(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 * tensor2``."""
    return _addcmul(input, tensor1, tensor2, value)


def addcdiv(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 / tensor2``."""
    return _addcdiv(input, tensor1, tensor2, value)


def lerp(input, end, weight):
    """``input + weight * (end - input)``."""
    return _lerp(input, end, weight)


def cumsum(x, axis, dtype=None):
    """Cumulative sum along ``axis`` (computed in ``dtype`` when given)."""
    if dtype is not None:
        x = _functional.cast(x, mstype.to_ms_dtype(dtype))
    return _cumsum(x, axis)


def cumprod(input, dim, dtype=None):
    """Cumulative product along ``dim`` (computed in ``dtype`` when given)."""
    if dtype is not None:
        input = _functional.cast(input, mstype.to_ms_dtype(dtype))
    return _cumprod(input, dim)


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Scale the tensors ``x`` so that their global L2 norm is at most ``clip_norm``.

    ``global_norm = sqrt(sum(||t||^2 for t in x))`` (or ``use_norm``); every ``t`` becomes
    ``t * clip_norm / max(global_norm, clip_norm)``, computed as MindSpore 2.10 does. Returns a tuple.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> grads = (ms.Tensor(np.full((2,), 3.0, np.float32)), ms.Tensor(np.full((1,), 4.0, np.float32)))
        >>> out = ops.clip_by_global_norm(grads, 1.0)
    """
    if isinstance(x, Tensor):  # one Tensor (MindSpore 2.10 accepts it) gives one Tensor back
        return clip_by_global_norm((x,), clip_norm, use_norm)[0]
    if not isinstance(x, (tuple, list)) or not x:
        raise MSTypeError(f"For 'clip_by_global_norm', the 'x' must be a non-empty tuple or list of Tensors, "
                          f"but got {type(x).__name__}.")
    # MindSpore 2.10's steps, whose roundings decide the last bits: each tensor's sum of squares in its own dtype,
    # as float32, added in order (AddN) and square-rooted; the norm below clip_norm (or NaN) taken as clip_norm; then
    # each tensor times clip_norm (a float32 (1,) tensor), divided by the norm and cast back to its dtype (so an
    # integer tensor is scaled in float32 and truncated, and a 0-d one comes back with shape (1,)). With a float64
    # tensor among them the norm stays float64 (2.10 rounds it to float32: a float64 gradient would lose its precision)
    wide = mstype.float64 if any(t.dtype == mstype.float64 for t in x) else mstype.float32
    clip = Tensor([clip_norm], wide)
    if use_norm is None:
        squares = tuple(_functional.cast(_functional.reduce_sum(_square(t)), wide) for t in x)
        use_norm = _sqrt(_addn(squares))
    norm = _functional.select(_functional.greater_equal(use_norm, clip), use_norm, clip)
    return tuple(_functional.cast(_div(_mul(t, clip), norm), t.dtype) for t in x)


# MindSpore cuts mindspore.ops into its own families: a function imported from its `math_func` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.ops")
