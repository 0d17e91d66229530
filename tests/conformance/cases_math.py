"""Conformance cases of the math family (``ops/_defs/math.py`` and ``math_ext.py``).

Oracles are written here with plain NumPy (or ``math`` for erf), independently of the kernels:
products are sums of broadcast products, cumulative ops are built from ``np.cumsum`` and flips.
Gradient cases use broadcasting operands where the op broadcasts, so the engine's reduction of
gradients to each input's shape is exercised too.
"""
import math

import numpy as np

import mindspore as ms
from mindspore import ops

from case import Case, rand, randint, randpos

F16_32_64 = (np.float16, np.float32, np.float64)
_erf = np.vectorize(math.erf, otypes=[np.float64])
_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _away_from_ints(*shape, seed=0):
    """Values whose fractional part stays in [0.1, 0.4] (piecewise-constant ops are smooth there)."""
    base = randint(*shape, low=-3, high=3, seed=seed).astype(np.float64)
    return base + rand(*shape, low=0.1, high=0.4, seed=seed)


_I32 = np.iinfo(np.int32)
_I64 = np.iinfo(np.int64)


def _mm(a, b):
    """Matrix product as a sum of broadcast products (an oracle independent of BLAS/np.matmul)."""
    return (np.expand_dims(a, -1) * np.expand_dims(b, -3)).sum(-2)


def _exclusive(c, x, axis, identity):
    lead = np.full(np.take(x, [0], axis=axis).shape, identity, x.dtype)
    return np.concatenate([lead, np.delete(c, -1, axis=axis)], axis=axis)


def _cum(x, axis, exclusive, reverse, prod=False):
    fn, ident = (np.cumprod, 1) if prod else (np.cumsum, 0)
    y = np.flip(x, axis) if reverse else x
    c = fn(y, axis=axis)
    if exclusive:
        c = _exclusive(c, y, axis, ident)
    return np.flip(c, axis) if reverse else c


NAN_INF = np.array([1.0, np.nan, np.inf, -np.inf, 0.0, -2.5])

ARITH = [
    Case("add_broadcast", ops.add, [rand(2, 3), rand(3, seed=1)], oracle=np.add, prims=["Add"],
         dtypes=F16_32_64, grad=True),
    Case("add_prim_col_row", ops.Add(), [rand(3, 1), rand(1, 4, seed=1)], oracle=np.add, prims=["Add"], grad=True),
    Case("add_v2_same_shape", ops.operations.math_ops.AddV2(), [rand(2, 3), rand(2, 3, seed=1)], oracle=np.add,
         prims=["AddV2"], grad=True),
    Case("add_scalar_right", lambda x: x + 2, [rand(2, 3)], oracle=lambda x: x + 2, prims=["Add"], grad=True),
    Case("add_scalar_left", lambda x: 2.5 + x, [rand(4)], oracle=lambda x: 2.5 + x, prims=["Add"], grad=True),
    Case("add_bool_is_or", ops.add, [np.array([True, True, False, False]), np.array([True, False, True, False])],
         oracle=np.logical_or, prims=["Add"], out_dtype=ms.bool_),
    Case("add_int32_int64", ops.add, [randint(2, 3), randint(3, seed=1, dtype=np.int64)],
         oracle=lambda x, y: x.astype(np.int64) + y, prims=["Add"], out_dtype=ms.int64),
    Case("sub_broadcast", ops.sub, [rand(2, 3), rand(3, seed=1)], oracle=np.subtract, prims=["Sub"],
         dtypes=F16_32_64, grad=True),
    Case("sub_scalar_left", lambda x: 1 - x, [rand(2, 2)], oracle=lambda x: 1 - x, prims=["Sub"], grad=True),
    Case("subtract_alpha", lambda x, y: ops.subtract(x, y, alpha=2), [rand(3), rand(3, seed=1)],
         oracle=lambda x, y: x - 2 * y, prims=["Sub", "Mul"], grad=True),
    Case("mul_broadcast", ops.mul, [rand(2, 1, 3), rand(4, 1, seed=1)], oracle=np.multiply, prims=["Mul"],
         dtypes=F16_32_64, grad=True),
    Case("mul_int_by_float_scalar", lambda x: x * 2.5, [randint(2, 3, dtype=np.int64)],
         oracle=lambda x: (x * 2.5).astype(np.float32), prims=["Mul"], out_dtype=ms.float32),
    Case("realdiv_broadcast", ops.RealDiv(), [rand(2, 3), randpos(3, seed=1)], oracle=np.true_divide,
         prims=["RealDiv"], grad=True),
    Case("div_prim", ops.Div(), [rand(2, 3), randpos(2, 1, seed=1)], oracle=np.true_divide, prims=["Div"],
         grad=True),
    Case("div_int_gives_float32", ops.div, [randint(2, 3, low=-9), randint(2, 3, low=1, seed=1)],
         oracle=lambda x, y: (x / y).astype(np.float32), prims=["Div"], out_dtype=ms.float32),
    Case("truediv_operator_scalar_left", lambda x: 3 / x, [randpos(2, 2)], oracle=lambda x: 3 / x, prims=["Div"],
         grad=True),
    Case("div_no_nan_zeros", ops.DivNoNan(), [rand(4), np.array([0.0, 2.0, 0.0, -0.5])],
         oracle=lambda x, y: np.where(y == 0, 0.0, x / np.where(y == 0, 1.0, y)), prims=["DivNoNan"]),
    Case("div_no_nan_grad", ops.DivNoNan(), [rand(2, 3), randpos(3, seed=1)], oracle=np.true_divide,
         prims=["DivNoNan"], grad=True),
    Case("floor_divide_float", ops.floor_divide, [_away_from_ints(2, 3) * 3, np.array([2.0, -2.0, 3.0])],
         oracle=lambda x, y: np.floor(x / y), prims=["FloorDiv"], grad=True),
    Case("floor_divide_int", lambda x, y: x // y, [np.array([7, -7, 7, -7], np.int32), np.array([2, 2, -2, -2])],
         oracle=lambda x, y: np.array([3, -4, -4, 3], np.int64), prims=["FloorDiv"], out_dtype=ms.int64),
    Case("floor_mod_float", ops.floor_mod, [_away_from_ints(2, 3) * 3, np.array([2.0, -2.0, 3.0])],
         oracle=lambda x, y: x - np.floor(x / y) * y, prims=["FloorMod"], grad=True, rtol=1e-4, atol=1e-5),
    Case("remainder_int_operator", lambda x: x % 3, [np.array([7, -7, 5, -5], np.int32)],
         oracle=lambda x: np.array([1, 2, 2, 1], np.int32), prims=["FloorMod"], out_dtype=ms.int32),
    Case("fmod_float", ops.fmod, [_away_from_ints(2, 3) * 3, np.array([2.0, -2.0, 3.0])],
         oracle=lambda x, y: x - np.trunc(x / y) * y, prims=["Mod"], grad=True, rtol=1e-4, atol=1e-5),
    Case("fmod_int", ops.fmod, [np.array([7, -7, 7, -7], np.int32), np.array([3, 3, -3, -3], np.int32)],
         oracle=lambda x, y: np.array([1, -1, 1, -1], np.int32), prims=["Mod"]),
    Case("truncate_div_int", ops.truncate_div, [np.array([7, -7, 7, -7, 6], np.int32),
                                                np.array([2, 2, -2, -2, 3], np.int32)],
         oracle=lambda x, y: np.array([3, -3, -3, 3, 2], np.int32), prims=["TruncateDiv"], out_dtype=ms.int32),
    Case("div_trunc_float", lambda x, y: ops.div(x, y, rounding_mode="trunc"),
         [_away_from_ints(2, 3) * 3, np.array([2.0, -2.0, 3.0])], oracle=lambda x, y: np.trunc(x / y),
         prims=["TruncateDiv"], grad=True),
    Case("div_floor_int", lambda x, y: ops.div(x, y, rounding_mode="floor"),
         [np.array([7, -7], np.int32), np.array([2, 2], np.int32)], oracle=lambda x, y: np.array([3, -4], np.int32),
         prims=["FloorDiv"]),
    Case("truncate_mod", ops.truncate_mod, [_away_from_ints(2, 3) * 3, np.array([2.0, -2.0, 3.0])],
         oracle=lambda x, y: x - np.trunc(x / y) * y, prims=["TruncateMod"], grad=True, rtol=1e-4, atol=1e-5),
    # Integer division by zero, as MindSpore 2.10 computes it: quotients saturate towards the dividend's sign
    # (0 // 0 is 0), floor_mod gives the dtype's minimum, Mod the minimum for a non-zero dividend, truncate_mod 0;
    # ops.remainder and ops.fmod (x - q * y) leave the dividend. Unsigned: no minimum below 0.
    Case("int_division_by_zero",
         lambda x, y: (ops.floor_divide(x, y), ops.truncate_div(x, y), ops.floor_mod(x, y), ops.Mod()(x, y),
                       ops.truncate_mod(x, y), ops.remainder(x, y), ops.fmod(x, y), x // 0, x % 0),
         [np.array([7, -7, 0, 7, -7], np.int32), np.array([0, 0, 0, 2, 2], np.int32)],
         oracle=lambda x, y: ([_I32.max, _I32.min, 0, 3, -4], [_I32.max, _I32.min, 0, 3, -3], [_I32.min] * 3 + [1, 1],
                              [_I32.min, _I32.min, 0, 1, -1], [0, 0, 0, 1, -1], [7, -7, 0, 1, 1], [7, -7, 0, 1, -1],
                              [_I32.max, _I32.min, 0, _I32.max, _I32.min], [_I32.min] * 5),
         prims=["FloorDiv", "TruncateDiv", "FloorMod", "Mod", "TruncateMod", "Sub", "Mul"]),
    Case("int_division_by_zero_graph", lambda x, y: (ops.floor_divide(x, y), ops.floor_mod(x, y), ops.remainder(x, y)),
         [np.array([7, -7, 0], np.int64), np.array([0, 0, 0], np.int64)],
         oracle=lambda x, y: ([_I64.max, _I64.min, 0], [_I64.min] * 3, [7, -7, 0]), prims=["FloorDiv", "FloorMod"]),
    Case("uint_division_by_zero", lambda x, y: (ops.floor_divide(x, y), ops.floor_mod(x, y), ops.Mod()(x, y)),
         [np.array([7, 0], np.uint8), np.array([0, 0], np.uint8)],
         oracle=lambda x, y: ([255, 0], [0, 0], [0, 0]), prims=["FloorDiv", "FloorMod", "Mod"]),
    # div(rounding_mode='trunc') is a truncated float quotient cast back in MindSpore 2.10: an integer divisor of 0
    # gives the minimum of Int32/Int64 and 0 in narrower integers (unlike ops.truncate_div, which saturates).
    Case("div_trunc_int_by_zero",
         lambda x, y: (ops.div(x, y, rounding_mode="trunc"), ops.div(x.astype(ms.int8), y.astype(ms.int8),
                                                                    rounding_mode="trunc"),
                       ops.div(x, 0, rounding_mode="trunc")),
         [np.array([7, -7, 0, 7, -7], np.int32), np.array([0, 0, 0, 2, 2], np.int32)],
         oracle=lambda x, y: ([_I32.min] * 3 + [3, -3], [0, 0, 0, 3, -3], [_I32.min] * 5),
         prims=["TruncateDiv"]),
    # Two bools: FloorDiv gives a bool (the saturated integer quotient cast back: x), div 'trunc' gives x or not y.
    Case("bool_floor_div",
         lambda x, y: (x // y, ops.floor_divide(x, y), ops.div(x, y, rounding_mode="floor"),
                       ops.div(x, y, rounding_mode="trunc")),
         [np.array([True, False, True, False]), np.array([True, True, False, False])],
         oracle=lambda x, y: (x, x, x, x | ~y), prims=["FloorDiv"]),
    Case("pow_tensor_tensor", ops.pow, [randpos(2, 3), rand(3, seed=1, low=-2, high=2)], oracle=np.power,
         prims=["Pow"], grad=True),
    Case("pow_operator_scalar", lambda x: x ** 3, [rand(2, 3)], oracle=lambda x: x ** 3, prims=["Pow"],
         dtypes=F16_32_64, grad=True),
    Case("pow_scalar_base", lambda x: 2 ** x, [rand(4)], oracle=lambda x: 2 ** x, prims=["Pow"], grad=True),
    Case("pow_int", ops.pow, [np.array([2, 3, -2], np.int32), np.array([3, 2, 3], np.int32)],
         oracle=lambda x, y: np.array([8, 9, -8], np.int32), prims=["Pow"], out_dtype=ms.int32),
    Case("pow_int_negative_exponent", lambda x: ops.pow(x, -1), [np.array([1, 2, -1], np.int32)],
         oracle=lambda x: np.array([1, 0, -1], np.int32), prims=["Pow"], out_dtype=ms.int32),
    Case("maximum_broadcast", ops.maximum, [rand(2, 3), rand(3, seed=5)], oracle=np.maximum, prims=["Maximum"],
         grad=True),
    Case("maximum_nan", ops.maximum, [np.array([1.0, np.nan, 3.0]), np.array([2.0, 0.0, np.nan])],
         oracle=np.maximum, prims=["Maximum"]),
    Case("minimum_broadcast", ops.minimum, [rand(2, 3), rand(2, 1, seed=5)], oracle=np.minimum, prims=["Minimum"],
         grad=True),
    Case("minimum_int_scalar", lambda x: ops.minimum(x, 4), [randint(5)], oracle=lambda x: np.minimum(x, 4),
         prims=["Minimum"], out_dtype=ms.int32),
    Case("squared_difference", ops.SquaredDifference(), [rand(2, 3), rand(3, seed=1)],
         oracle=lambda x, y: (x - y) ** 2, prims=["SquaredDifference"], grad=True),
    Case("atan2", ops.atan2, [rand(2, 3), rand(3, seed=1)], oracle=np.arctan2, prims=["Atan2"], grad=True),
    Case("xlogy_zero_x", ops.xlogy, [np.array([0.0, 1.5, -2.0, 0.0]), np.array([0.0, 2.0, 0.5, np.inf])],
         oracle=lambda x, y: np.array([0.0, 1.5 * np.log(2.0), -2.0 * np.log(0.5), 0.0], x.dtype), prims=["Xlogy"]),
    # MindSpore's (and TensorFlow's) bprop gives 0 for d/dx at x == 0, so the gradient case keeps x != 0
    Case("xlogy", ops.xlogy, [rand(2, 3), randpos(3, seed=1)], oracle=lambda x, y: x * np.log(y), prims=["Xlogy"],
         grad=True),
    Case("hypot", ops.hypot, [rand(2, 3), rand(3, seed=1)], oracle=np.hypot, prims=["Hypot"], grad=True),
]

UNARY = [
    Case("neg", ops.neg, [rand(2, 3)], oracle=np.negative, prims=["Neg"], dtypes=F16_32_64, grad=True),
    Case("neg_int", lambda x: -x, [randint(4, low=-5)], oracle=np.negative, prims=["Neg"], out_dtype=ms.int32),
    Case("abs", ops.abs, [rand(2, 3)], oracle=np.abs, prims=["Abs"], grad=True),
    Case("abs_int", abs, [randint(5, low=-5)], oracle=np.abs, prims=["Abs"], out_dtype=ms.int32),
    Case("square", ops.square, [rand(2, 3)], oracle=np.square, prims=["Square"], grad=True),
    Case("reciprocal", ops.reciprocal, [randpos(2, 3)], oracle=lambda x: 1 / x, prims=["Reciprocal"], grad=True),
    Case("sqrt", ops.sqrt, [randpos(2, 3)], oracle=np.sqrt, prims=["Sqrt"], dtypes=F16_32_64, grad=True),
    Case("sqrt_int_gives_float32", ops.sqrt, [np.array([1, 4, 9], np.int32)],
         oracle=lambda x: np.array([1.0, 2.0, 3.0], np.float32), prims=["Sqrt"], out_dtype=ms.float32),
    Case("rsqrt", ops.rsqrt, [randpos(2, 3)], oracle=lambda x: 1 / np.sqrt(x), prims=["Rsqrt"], grad=True),
    Case("exp", ops.exp, [rand(2, 3)], oracle=np.exp, prims=["Exp"], dtypes=F16_32_64, grad=True),
    Case("log", ops.log, [randpos(2, 3)], oracle=np.log, prims=["Log"], grad=True),
    Case("log1p", ops.log1p, [rand(2, 3, low=-0.5, high=1)], oracle=np.log1p, prims=["Log1p"], grad=True),
    Case("expm1", ops.expm1, [rand(2, 3)], oracle=np.expm1, prims=["Expm1"], grad=True),
    Case("log2_log10", lambda x: (ops.log2(x), ops.log10(x)), [randpos(5)], oracle=lambda x: (np.log2(x),
                                                                                               np.log10(x)),
         prims=["Log", "Mul"], grad=True),
    Case("exp2", ops.exp2, [rand(5)], oracle=np.exp2, prims=["Pow"], grad=True),
    Case("sign", ops.sign, [np.array([-2.0, 0.0, 3.5, -0.1])], oracle=np.sign, prims=["Sign"]),
    Case("sign_grad", ops.sign, [rand(2, 3) + 2.0], oracle=np.sign, prims=["Sign"], grad=True),
    Case("floor", ops.floor, [_away_from_ints(2, 3)], oracle=np.floor, prims=["Floor"], grad=True),
    Case("ceil", ops.ceil, [_away_from_ints(2, 3)], oracle=np.ceil, prims=["Ceil"], grad=True),
    Case("trunc", ops.trunc, [_away_from_ints(2, 3)], oracle=np.trunc, prims=["Trunc"], grad=True),
    Case("frac", ops.frac, [_away_from_ints(2, 3)], oracle=lambda x: x - np.trunc(x), prims=["Sub", "Trunc"],
         grad=True),
    Case("round_half_even", ops.round, [np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6])],
         oracle=lambda x: np.array([0.0, 2.0, 2.0, -0.0, -2.0, 2.0, -3.0], x.dtype), prims=["Round"]),
    Case("round_decimals", lambda x: ops.round(x, decimals=2), [np.array([1.2345, -0.6789, 10.0])],
         oracle=lambda x: np.array([1.23, -0.68, 10.0], x.dtype), prims=["Round"]),
    Case("round_grad", ops.Round(), [_away_from_ints(2, 3)], oracle=np.round, prims=["Round"], grad=True),
    Case("sin", ops.sin, [rand(2, 3, low=-3, high=3)], oracle=np.sin, prims=["Sin"], dtypes=F16_32_64, grad=True),
    Case("cos", ops.cos, [rand(2, 3, low=-3, high=3)], oracle=np.cos, prims=["Cos"], grad=True),
    Case("tan", ops.tan, [rand(2, 3)], oracle=np.tan, prims=["Tan"], grad=True),
    Case("asin", ops.asin, [rand(2, 3, low=-0.9, high=0.9)], oracle=np.arcsin, prims=["Asin"], grad=True),
    Case("acos", ops.acos, [rand(2, 3, low=-0.9, high=0.9)], oracle=np.arccos, prims=["ACos"], grad=True),
    Case("atan", ops.atan, [rand(2, 3, low=-3, high=3)], oracle=np.arctan, prims=["Atan"], grad=True),
    Case("sinh", ops.sinh, [rand(2, 3)], oracle=np.sinh, prims=["Sinh"], grad=True),
    Case("cosh", ops.cosh, [rand(2, 3)], oracle=np.cosh, prims=["Cosh"], grad=True),
    Case("tanh", ops.tanh, [rand(2, 3, low=-3, high=3)], oracle=np.tanh, prims=["Tanh"], dtypes=F16_32_64,
         grad=True),
    Case("tanh_prim", ops.Tanh(), [rand(4)], oracle=np.tanh, prims=["Tanh"]),
    Case("asinh", ops.asinh, [rand(2, 3, low=-3, high=3)], oracle=np.arcsinh, prims=["Asinh"], grad=True),
    Case("acosh", ops.acosh, [rand(2, 3, low=1.2, high=4)], oracle=np.arccosh, prims=["Acosh"], grad=True),
    Case("atanh", ops.atanh, [rand(2, 3, low=-0.9, high=0.9)], oracle=np.arctanh, prims=["Atanh"], grad=True),
    Case("erf", ops.erf, [rand(3, 4, low=-4, high=4)], oracle=_erf, prims=["Erf"], dtypes=F16_32_64, grad=True),
    Case("erf_tails", ops.erf, [np.array([0.0, 1e-3, 1.49, 1.51, 3.0, 6.0, 30.0, -5.0, np.inf, np.nan])],
         oracle=lambda x: _erf(x.astype(np.float64)), prims=["Erf"], dtypes=(np.float64,), rtol=1e-13, atol=0),
    Case("erfc", ops.erfc, [rand(3, 4, low=-4, high=4)], oracle=_erfc, prims=["Erfc"], grad=True),
    Case("erfc_tails", ops.erfc, [np.array([0.0, 0.5, 1.49, 1.51, 4.0, 10.0, 26.0, -3.0, -np.inf])],
         oracle=lambda x: _erfc(x.astype(np.float64)), prims=["Erfc"], dtypes=(np.float64,), rtol=1e-13, atol=0),
]

_A, _B = randint(2, 3, low=0, high=3), randint(3, low=0, high=3, seed=2)
LOGIC = [
    Case("equal", ops.equal, [_A, _B], oracle=np.equal, prims=["Equal"], out_dtype=ms.bool_),
    Case("equal_float_scalar", lambda x: x == 0.5, [np.array([0.5, 1.0, 0.5])], oracle=lambda x: x == 0.5,
         prims=["Equal"], out_dtype=ms.bool_),
    Case("not_equal", lambda x, y: x != y, [_A, _B], oracle=np.not_equal, prims=["NotEqual"], out_dtype=ms.bool_),
    Case("greater", ops.gt, [rand(2, 3), rand(3, seed=1)], oracle=np.greater, prims=["Greater"],
         out_dtype=ms.bool_),
    Case("greater_equal", ops.greater_equal, [_A, _B], oracle=np.greater_equal, prims=["GreaterEqual"]),
    Case("less_scalar_left", lambda x: 1 < x, [_A], oracle=lambda x: 1 < x, prims=["Less", "Greater"]),
    Case("less", ops.less, [_A, _B], oracle=np.less, prims=["Less"], out_dtype=ms.bool_),
    Case("less_equal", lambda x, y: x <= y, [_A, _B], oracle=np.less_equal, prims=["LessEqual"]),
    Case("logical_and", ops.logical_and, [_A > 0, _B > 1], oracle=np.logical_and, prims=["LogicalAnd"],
         out_dtype=ms.bool_),
    Case("logical_or", lambda x, y: x | y, [_A > 0, _B > 1], oracle=np.logical_or, prims=["LogicalOr"]),
    Case("logical_xor", ops.logical_xor, [_A > 0, _B > 1], oracle=np.logical_xor, prims=["LogicalXor"]),
    Case("logical_not", lambda x: ~x, [_A > 0], oracle=np.logical_not, prims=["LogicalNot"], out_dtype=ms.bool_),
    Case("bitwise_and", lambda x, y: x & y, [randint(2, 3, high=64), randint(3, high=64, seed=3)],
         oracle=np.bitwise_and, prims=["BitwiseAnd"], out_dtype=ms.int32),
    Case("bitwise_or", ops.bitwise_or, [randint(2, 3, high=64), randint(3, high=64, seed=3)], oracle=np.bitwise_or,
         prims=["BitwiseOr"]),
    Case("bitwise_xor", ops.bitwise_xor, [randint(4, high=64), randint(4, high=64, seed=3, dtype=np.int64)],
         oracle=lambda x, y: np.bitwise_xor(x.astype(np.int64), y), prims=["BitwiseXor"], out_dtype=ms.int64),
    Case("invert", lambda x: ~x, [randint(4, low=-9, dtype=np.int8)], oracle=np.invert, prims=["Invert"],
         out_dtype=ms.int8),
    Case("isnan", ops.isnan, [NAN_INF], oracle=np.isnan, prims=["IsNan"], out_dtype=ms.bool_),
    Case("isinf", ops.isinf, [NAN_INF], oracle=np.isinf, prims=["IsInf"], out_dtype=ms.bool_),
    Case("isfinite", ops.isfinite, [NAN_INF], oracle=np.isfinite, prims=["IsFinite"], out_dtype=ms.bool_),
    Case("isfinite_int", ops.isfinite, [randint(3)], oracle=np.isfinite, prims=["IsFinite"]),
]

PRODUCTS = [
    Case("matmul_prim", ops.MatMul(), [rand(2, 3), rand(3, 4, seed=1)], oracle=_mm, prims=["MatMul"],
         dtypes=F16_32_64, grad=True),
    Case("matmul_transpose_a", ops.MatMul(transpose_a=True), [rand(3, 2), rand(3, 4, seed=1)],
         oracle=lambda a, b: _mm(a.T, b), prims=["MatMul"], grad=True),
    Case("matmul_transpose_b", ops.MatMul(transpose_b=True), [rand(2, 3), rand(4, 3, seed=1)],
         oracle=lambda a, b: _mm(a, b.T), prims=["MatMul"], grad=True),
    Case("matmul_transpose_ab", ops.MatMul(True, True), [rand(3, 2), rand(4, 3, seed=1)],
         oracle=lambda a, b: _mm(a.T, b.T), prims=["MatMul"], grad=True),
    Case("matmul_int", ops.MatMul(), [randint(2, 3), randint(3, 2, seed=4)], oracle=_mm, prims=["MatMul"],
         out_dtype=ms.int32),
    Case("batch_matmul", ops.BatchMatMul(), [rand(2, 3, 4), rand(2, 4, 5, seed=1)], oracle=_mm,
         prims=["BatchMatMul"], grad=True),
    Case("batch_matmul_broadcast", ops.BatchMatMul(), [rand(2, 1, 3, 4), rand(5, 4, 2, seed=1)], oracle=_mm,
         prims=["BatchMatMul"], grad=True),
    Case("batch_matmul_transposes", ops.BatchMatMul(True, True), [rand(2, 4, 3), rand(5, 4, seed=1)],
         oracle=lambda a, b: _mm(np.swapaxes(a, -1, -2), b.T), prims=["BatchMatMul"], grad=True),
    Case("batch_matmul_transpose_a", ops.BatchMatMul(transpose_a=True), [rand(2, 4, 3), rand(4, 2, seed=1)],
         oracle=lambda a, b: _mm(np.swapaxes(a, -1, -2), b), prims=["BatchMatMul"], grad=True),
    Case("matmul_nd_broadcast", ops.matmul, [rand(2, 3, 4), rand(4, 5, seed=1)], oracle=_mm,
         prims=["BatchMatMul"], grad=True),
    Case("matmul_operator", lambda a, b: a @ b, [rand(3, 4), rand(4, 2, seed=1)], oracle=_mm, prims=["MatMul"],
         grad=True),
    Case("matmul_vec_vec", ops.matmul, [rand(4), rand(4, seed=1)], oracle=lambda a, b: (a * b).sum(),
         prims=["MatMul"], grad=True),
    Case("matmul_mat_vec", ops.matmul, [rand(2, 3, 4), rand(4, seed=1)], oracle=lambda a, b: (a * b).sum(-1),
         prims=["BatchMatMul"], grad=True),
    Case("matmul_vec_mat", ops.matmul, [rand(3), rand(3, 2, seed=1)], oracle=lambda a, b: (a[:, None] * b).sum(0),
         prims=["MatMul"], grad=True),
    Case("mm_bmm", lambda a, b, c: (ops.mm(a, b), ops.bmm(c, c)), [rand(2, 3), rand(3, 2, seed=1), rand(2, 3, 3)],
         oracle=lambda a, b, c: (_mm(a, b), _mm(c, c)), prims=["MatMul", "BatchMatMul"], grad=True),
    Case("dot", ops.dot, [rand(2, 3), rand(4, 3, 5, seed=1)],
         oracle=lambda a, b: (a[:, None, :, None] * b[None]).sum(2), prims=["Einsum"], grad=True),
    Case("inner", ops.inner, [rand(2, 3), rand(4, 3, seed=1)], oracle=lambda a, b: (a[:, None] * b[None]).sum(-1),
         prims=["Einsum"], grad=True),
    Case("outer", ops.outer, [rand(3), rand(4, seed=1)], oracle=lambda a, b: a[:, None] * b[None, :],
         prims=["Mul"], grad=True),
    Case("tensor_dot", lambda a, b: ops.tensor_dot(a, b, ((0, 2), (1, 0))), [rand(2, 3, 4), rand(4, 2, 5, seed=1)],
         oracle=lambda a, b: (a[:, :, :, None] * np.transpose(b, (1, 0, 2))[:, None]).sum((0, 2)),
         prims=["Einsum"], grad=True),
]

EINSUM = [
    Case("einsum_matmul", lambda a, b: ops.einsum("ij,jk->ik", a, b), [rand(2, 3), rand(3, 4, seed=1)],
         oracle=_mm, prims=["Einsum"], grad=True),
    Case("einsum_prim_transpose", lambda a: ops.Einsum("ij->ji")((a,)), [rand(2, 3)], oracle=lambda a: a.T,
         prims=["Einsum"], grad=True),
    Case("einsum_ellipsis_broadcast", lambda a, b: ops.einsum("...ij,...jk->...ik", a, b),
         [rand(1, 2, 3), rand(4, 3, 2, seed=1)], oracle=_mm, prims=["Einsum"], grad=True),
    Case("einsum_diagonal", lambda a: ops.einsum("ii->i", a), [rand(3, 3)], oracle=np.diag, prims=["Einsum"],
         grad=True),
    Case("einsum_trace_implicit", lambda a: ops.einsum("ii", a), [rand(3, 3)], oracle=np.trace, prims=["Einsum"],
         grad=True),
    Case("einsum_sum_out_and_dot", lambda a, b: ops.einsum("bij,j->b", a, b), [rand(2, 3, 4), rand(4, seed=1)],
         oracle=lambda a, b: (a * b).sum((1, 2)), prims=["Einsum"], grad=True),
    Case("einsum_three_operands", lambda a, b, c: ops.einsum("ij,jk,k->i", a, b, c),
         [rand(2, 3), rand(3, 4, seed=1), rand(4, seed=2)], oracle=lambda a, b, c: _mm(_mm(a, b), c[:, None])[:, 0],
         prims=["Einsum"], grad=True),
    Case("einsum_size1_label_broadcast", lambda a, b: ops.einsum("ij,j->i", a, b), [rand(2, 3), rand(1, seed=1)],
         oracle=lambda a, b: (a * b).sum(1), prims=["Einsum"], grad=True),
    Case("einsum_triple_diagonal", lambda a: ops.einsum("iii->i", a), [rand(2, 2, 2)],
         oracle=lambda a: a[np.arange(2), np.arange(2), np.arange(2)], prims=["Einsum"], grad=True),
    Case("einsum_outer_implicit", lambda a, b: ops.einsum("i,j", a, b), [rand(3), rand(2, seed=1)],
         oracle=lambda a, b: a[:, None] * b[None, :], prims=["Einsum"], grad=True),
    Case("einsum_diag_times_matrix", lambda a, b: ops.einsum("ii,ij->j", a, b), [rand(3, 3), rand(3, 2, seed=1)],
         oracle=lambda a, b: (np.diag(a)[:, None] * b).sum(0), prims=["Einsum"], grad=True),
]

_C = rand(3, 4)
ACCUMULATE = [
    Case("addn", lambda a, b, c: ops.addn([a, b, c]), [rand(2, 3), rand(2, 3, seed=1), rand(2, 3, seed=2)],
         oracle=lambda a, b, c: a + b + c, prims=["AddN"], grad=True),
    Case("addn_prim_tuple", lambda a, b: ops.AddN()((a, b)), [randint(4), randint(4, seed=1)],
         oracle=lambda a, b: a + b, prims=["AddN"], out_dtype=ms.int32),
    Case("addcmul", lambda x, a, b, v: ops.addcmul(x, a, b, v), [rand(2, 3), rand(3, seed=1), rand(2, 1, seed=2),
                                                                  rand(1, seed=3)],
         oracle=lambda x, a, b, v: x + v * a * b, prims=["Addcmul"], grad=True),
    Case("addcmul_prim_scalar_value", lambda x, a, b: ops.Addcmul()(x, a, b, 0.5),
         [rand(3), rand(3, seed=1), rand(3, seed=2)], oracle=lambda x, a, b: x + 0.5 * a * b, prims=["Addcmul"],
         grad=True),
    Case("addcdiv", lambda x, a, b, v: ops.addcdiv(x, a, b, v), [rand(2, 3), rand(3, seed=1), randpos(2, 1, seed=2),
                                                                  rand(1, seed=3)],
         oracle=lambda x, a, b, v: x + v * a / b, prims=["Addcdiv"], grad=True),
    Case("lerp_tensor_weight", ops.lerp, [rand(2, 3), rand(3, seed=1), rand(2, 3, low=0, high=1, seed=2)],
         oracle=lambda s, e, w: s + w * (e - s), prims=["Lerp"], grad=True),
    Case("lerp_scalar_weight", lambda s, e: ops.Lerp()(s, e, 0.25), [rand(2, 3), rand(2, 3, seed=1)],
         oracle=lambda s, e: s + 0.25 * (e - s), prims=["Lerp"], dtypes=F16_32_64, grad=True),
    Case("cumsum_axis1", lambda x: ops.cumsum(x, 1), [_C], oracle=lambda x: np.cumsum(x, 1), prims=["CumSum"],
         dtypes=F16_32_64, grad=True),
    Case("cumsum_exclusive_reverse", lambda x: ops.CumSum(exclusive=True, reverse=True)(x, 0), [_C],
         oracle=lambda x: _cum(x, 0, True, True), prims=["CumSum"], grad=True),
    Case("cumsum_exclusive", lambda x: ops.CumSum(exclusive=True)(x, -1), [_C],
         oracle=lambda x: _cum(x, 1, True, False), prims=["CumSum"], grad=True),
    Case("cumsum_reverse", lambda x: ops.CumSum(reverse=True)(x, 1), [_C], oracle=lambda x: _cum(x, 1, False, True),
         prims=["CumSum"], grad=True),
    Case("cumsum_int32_stays_int32", lambda x: ops.cumsum(x, 0), [randint(5)], oracle=lambda x: np.cumsum(x, 0),
         prims=["CumSum"], out_dtype=ms.int32),
    Case("cumsum_dtype_arg", lambda x: ops.cumsum(x, 0, dtype=ms.float64), [randint(5)],
         oracle=lambda x: np.cumsum(x.astype(np.float64)), prims=["CumSum", "Cast"], out_dtype=ms.float64),
    Case("cumprod", lambda x: ops.cumprod(x, 1), [randpos(3, 4)], oracle=lambda x: np.cumprod(x, 1),
         prims=["CumProd"], grad=True),
    Case("cumprod_exclusive_reverse", lambda x: ops.CumProd(True, True)(x, 0), [randpos(3, 4)],
         oracle=lambda x: _cum(x, 0, True, True, prod=True), prims=["CumProd"], grad=True),
    Case("cumprod_reverse", lambda x: ops.CumProd(reverse=True)(x, -1), [randpos(2, 3)],
         oracle=lambda x: _cum(x, 1, False, True, prod=True), prims=["CumProd"], grad=True),
    # an empty scanned axis stays empty (the exclusive shift once indexed past its end)
    Case("cumsum_cumprod_exclusive_empty", lambda x, y: (ops.CumSum(exclusive=True)(x, 1),
                                                         ops.CumProd(True, True)(y, 0)),
         [np.zeros((3, 0)), np.zeros((0, 2))], oracle=lambda x, y: (x.copy(), y.copy()), prims=["CumSum", "CumProd"]),
]

CLIP = [
    Case("clip_by_value", lambda x: ops.clip_by_value(x, -0.5, 0.5), [rand(3, 4)],
         oracle=lambda x: np.minimum(np.maximum(x, -0.5), 0.5), prims=["Maximum", "Minimum"], grad=True),
    Case("clip_by_value_tensor_bounds", ops.clip_by_value, [rand(2, 3), rand(3, low=-1, high=0, seed=1),
                                                            rand(2, 1, low=0, high=1, seed=2)],
         oracle=lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi), prims=["Maximum", "Minimum"], grad=True),
    Case("clip_by_value_min_above_max", lambda x: ops.clip_by_value(x, 1.0, 0.0), [rand(4)],
         oracle=lambda x: np.zeros_like(x), prims=["Maximum", "Minimum"]),
    Case("clamp_int_keeps_dtype", lambda x: ops.clamp(x, 2, 6), [randint(6)], oracle=lambda x: np.clip(x, 2, 6),
         prims=["Maximum", "Minimum"], out_dtype=ms.int32),
    Case("clip_max_only", lambda x: ops.clip(x, max=0.0), [rand(5)], oracle=lambda x: np.minimum(x, 0.0),
         prims=["Minimum"], grad=True),
    Case("clip_by_global_norm", lambda a, b: ops.clip_by_global_norm((a, b), 1.0),
         [rand(2, 3, low=1, high=2), rand(4, low=1, high=2, seed=1)],
         oracle=lambda a, b: tuple(t / max(1.0, np.sqrt((a ** 2).sum() + (b ** 2).sum())) for t in (a, b)),
         prims=["Sqrt", "AddN", "Maximum", "Div", "Mul"], grad=True, grad_rtol=1e-4),
    Case("clip_by_global_norm_small", lambda a: ops.clip_by_global_norm([a], 10.0)[0], [rand(3)],
         oracle=lambda a: a, prims=["Sqrt", "AddN"]),
    Case("float_power", ops.float_power, [randpos(3), rand(3, seed=1)], oracle=np.power, prims=["Pow", "Cast"],
         out_dtype=ms.float64),
]

CASES = ARITH + UNARY + LOGIC + PRODUCTS + EINSUM + ACCUMULATE + CLIP

_NAN_PAIR = [np.array([np.nan, 1.0, np.nan, -2.0, 3.0]), np.array([2.0, np.nan, np.nan, -1.0, 0.5])]
EXTRA = [
    Case("fmax_nan", ops.fmax, _NAN_PAIR, oracle=np.fmax, prims=["Fmax"]),
    Case("fmax", ops.fmax, [rand(2, 3), rand(3, seed=5)], oracle=np.fmax, prims=["Fmax"], grad=True),
    Case("fmin_nan", ops.fmin, _NAN_PAIR, oracle=np.fmin, prims=["Fmin"]),
    Case("fmin", ops.fmin, [rand(2, 3), rand(2, 1, seed=5)], oracle=np.fmin, prims=["Fmin"], grad=True),
    Case("gcd_lcm", lambda a, b: (ops.gcd(a, b), ops.lcm(a, b)),
         [np.array([12, -18, 0, 7], np.int32), np.array([8, 12, 5, 0], np.int32)],
         oracle=lambda a, b: (np.array([4, 6, 5, 7], np.int32), np.array([24, 36, 0, 0], np.int32)),
         prims=["Gcd", "Lcm"]),
    Case("heaviside", ops.heaviside, [np.array([-1.5, 0.0, 2.0, 0.0]), np.array([0.5, 0.5, 0.5, 0.25])],
         oracle=lambda x, v: np.where(x < 0, 0.0, np.where(x == 0, v, 1.0)), prims=["Heaviside"]),
    Case("isclose", lambda x, y: ops.isclose(x, y, rtol=1e-3), [np.array([1.0, np.nan, 1.0, 100.0]),
                                                               np.array([1.0005, np.nan, 1.1, 100.05])],
         oracle=lambda x, y: np.array([True, False, False, True]), prims=["IsClose"], out_dtype=ms.bool_),
    Case("isclose_equal_nan", lambda x, y: ops.IsClose(equal_nan=True)(x, y), [np.array([np.nan, 1.0]),
                                                                              np.array([np.nan, 2.0])],
         oracle=lambda x, y: np.array([True, False]), prims=["IsClose"]),
    Case("nan_to_num", lambda x: ops.nan_to_num(x, nan=1.0, posinf=9.0), [NAN_INF],
         oracle=lambda x: np.nan_to_num(x, nan=1.0, posinf=9.0), prims=["NanToNum"], dtypes=F16_32_64),
    Case("nan_to_num_grad", ops.nan_to_num, [rand(2, 3)], oracle=lambda x: x, prims=["NanToNum"], grad=True),
    Case("erfinv", ops.erfinv, [rand(3, 4, low=-0.99, high=0.99)],
         oracle=lambda y: _bisect_inverse(_erf, y.astype(np.float64)), prims=["Erfinv"], dtypes=F16_32_64,
         grad=True),
    Case("erfinv_edges", ops.erfinv, [np.array([0.0, 1.0, -1.0, 1.5, 1 - 1e-12, -(1 - 1e-15)])],
         oracle=lambda y: np.concatenate([[0.0, np.inf, -np.inf, np.nan], _bisect_inverse(_erfc_from_one, 1 - np.abs(
             y[4:])) * np.sign(y[4:])]), prims=["Erfinv"], dtypes=(np.float64,), rtol=1e-12, atol=0),
    Case("sinc", ops.sinc, [np.array([0.0, 0.5, -1.5, 2.25, 1e-9])], oracle=lambda x: np.sin(np.pi * x) / np.where(
        x == 0, 1.0, np.pi * x) + (x == 0), prims=["Sinc"]),
    Case("sinc_grad", ops.sinc, [rand(2, 3, low=-2, high=2)], oracle=lambda x: np.sin(np.pi * x) / (np.pi * x),
         prims=["Sinc"], grad=True),
    Case("deg2rad_rad2deg", lambda x: (ops.deg2rad(x), ops.rad2deg(x)), [rand(4, low=-360, high=360)],
         oracle=lambda x: (x * np.pi / 180, x * 180 / np.pi), prims=["Mul"], grad=True),
    Case("logaddexp", ops.logaddexp, [rand(2, 3, low=-50, high=50), rand(3, low=-50, high=50, seed=1)],
         oracle=lambda x, y: np.log(np.exp(x - 50) + np.exp(y - 50)) + 50, prims=["Maximum", "Log1p", "Exp"],
         grad=True),
    Case("logaddexp2", ops.logaddexp2, [rand(2, 3), rand(3, seed=1)], oracle=lambda x, y: np.log2(2 ** x + 2 ** y),
         prims=["Maximum", "Log1p"], grad=True),
    Case("kron", ops.kron, [rand(2, 3), rand(2, 1, 2, seed=1)],
         oracle=lambda a, b: (a[None, :, None, :, None] * b[:, None, :, None, :]).reshape(2, 2, 6),
         prims=["Mul", "Reshape"], grad=True),
    Case("copysign_signbit", lambda x, y: (ops.copysign(x, y), ops.signbit(y)),
         [rand(5), np.array([1.0, -0.0, 0.0, -2.0, np.inf])],
         oracle=lambda x, y: (np.copysign(x, y), np.signbit(y)), prims=["Abs", "Less", "Equal"]),
]


def _erfc_from_one(r):
    return np.vectorize(math.erfc, otypes=[np.float64])(r)


def _bisect_inverse(fn, y, lo=-30.0, hi=30.0):
    """Solve fn(r) = y by bisection (fn increasing, or decreasing like erfc) as an oracle for inverses."""
    y = np.asarray(y, np.float64)
    lo, hi = np.full(y.shape, lo), np.full(y.shape, hi)
    increasing = fn(np.array([1.0]))[0] > fn(np.array([0.0]))[0]
    for _ in range(200):
        mid = (lo + hi) / 2
        above = (fn(mid) > y) == increasing
        hi = np.where(above, mid, hi)
        lo = np.where(above, lo, mid)
    return (lo + hi) / 2


CASES += EXTRA

# MindSpore 2.10's answers where ours once differed (issue 16)
CASES += [
    Case("outer_flattens_input", ops.outer, [rand(2, 3), rand(4, seed=1)],
         oracle=lambda a, b: a.reshape(-1)[:, None] * b[None, :], prims=["Mul"], grad=True),
    Case("addn_of_one_tensor", ops.addn, [rand(3, 4)], oracle=lambda x: x.sum(0), prims=["AddN"], grad=True),
    Case("trunc_bool", ops.trunc, [rand(3, 4) > 0], oracle=lambda x: x, prims=[], out_dtype=ms.bool_),
]
