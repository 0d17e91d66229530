"""GPU kernels of the math family (``mindspore/ops/_defs/math.py`` and ``math_ext.py``).

Arithmetic computes in the inferred output dtype (``out.dtype``): the operands are cast to it first,
so CuPy never promotes a second time (``int32 + float16`` runs in float16, as MindSpore's rules say).
A Python scalar operand becomes a NumPy scalar of that dtype. Comparisons, whose output is Bool,
compute in the dtype MindSpore promotes the operands to. Half-precision products and accumulations
run in float32 and are rounded once at the end; ``erf``/``erfc``/``erfinv`` compute in float64 (as the
CPU kernels do) with ``cupyx.scipy.special``. Matrix products run on cuBLASLt (``mindspore_gpu/gemm.py``: a plan per
layout, made once) where it takes them, else on cuBLAS through ``cupy.matmul``; float16 and bfloat16 ones on tensor
cores either way (float32 compute: float32 accumulation, rounded once).
"""
import cupy
import numpy

from mindspore_array_kernels import complex_math
from mindspore_gpu import gemm as _gemm
from mindspore_gpu.kernels._common import (F16, F32, F64, dev, finfo, fit, is_array, is_bf16, is_inexact, promoted,
                                           special)

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)
_LT = _gemm.for_cupy(cupy)   # cuBLASLt with plans made once (mindspore_gpu/gemm.py); None from it: cupy.matmul
_SCALARS = (bool, int, float, complex)


def _operand(v, dt):
    if isinstance(v, cupy.ndarray):
        return v if v.dtype == dt else v.astype(dt)
    if isinstance(v, _SCALARS):
        return dt.type(v)
    return cupy.asarray(v, dtype=dt)


def _pair(x, y, dt):
    """Both operands in ``dt``; at least one of them a device array (CuPy computes on arrays)."""
    if not is_array(x) and not is_array(y):
        return cupy.asarray(x, dtype=dt), _operand(y, dt)
    return _operand(x, dt), _operand(y, dt)


def _arrays(x, y, dt):
    """Both operands as device arrays in ``dt`` (a scalar as a 0-d array): for kernels that select on them."""
    x, y = _pair(x, y, dt)
    return (x if isinstance(x, cupy.ndarray) else cupy.asarray(x, dtype=dt),
            y if isinstance(y, cupy.ndarray) else cupy.asarray(y, dtype=dt))


def _arith(ufunc):
    """Arithmetic whose output dtype is the dtype it computes in."""
    def kernel(prim, x, y, *, out):
        return ufunc(*_pair(x, y, out.dtype.to_numpy()))
    kernel.__name__ = f"gpu_{getattr(ufunc, '__name__', 'ufunc')}"
    return kernel


def _compare(ufunc):
    """Comparisons: the operands in their promoted dtype, a Bool result."""
    def kernel(prim, x, y, *, out):
        return ufunc(*_pair(x, y, promoted(x, y)))
    kernel.__name__ = f"gpu_{getattr(ufunc, '__name__', 'ufunc')}"
    return kernel


def _logical(ufunc):
    def kernel(prim, x, y, *, out):
        x = _dev(x) if is_array(x) else x
        y = _dev(y) if is_array(y) else y
        if not is_array(x) and not is_array(y):
            x = cupy.asarray(x)
        return ufunc(x, y)
    kernel.__name__ = f"gpu_{getattr(ufunc, '__name__', 'ufunc')}"
    return kernel


def _unary(ufunc):
    """One input, computed in the output dtype (integers become float32 for the float functions)."""
    def kernel(prim, x, *, out):
        return ufunc(_operand(_dev(x), out.dtype.to_numpy()))
    kernel.__name__ = f"gpu_{getattr(ufunc, '__name__', 'ufunc')}"
    return kernel


def _with_complex(real_kernel, complex_fn):
    """``real_kernel``, and ``complex_fn(cupy, x)`` for complex ``x`` (``mindspore_array_kernels.complex_math``: the
    CPU backend's formulas; CuPy's ``sign`` of a complex number is not MindSpore's)."""
    return complex_math.with_complex(cupy, _dev, real_kernel, complex_fn)


def _integral_identity(ufunc):
    """Rounding functions: the identity on integers."""
    def kernel(prim, x, *, out):
        x = _dev(x)
        if not is_inexact(x.dtype):
            return x.copy()
        return ufunc(x)
    kernel.__name__ = f"gpu_{getattr(ufunc, '__name__', 'ufunc')}"
    return kernel


def _float_test(ufunc, default):
    """IsNan/IsInf/IsFinite: integers are never NaN or infinite."""
    def kernel(prim, x, *, out):
        x = _dev(x)
        if not is_inexact(x.dtype):
            return cupy.full(x.shape, default, numpy.bool_)
        return ufunc(x)
    kernel.__name__ = f"gpu_{getattr(ufunc, '__name__', 'ufunc')}"
    return kernel


def _any(cond):
    """Whether any element of a comparison result holds (a device reduction, read back)."""
    return bool(cond.any()) if is_array(cond) else bool(cond)


# --- arithmetic -----------------------------------------------------------------------------
def _div_no_nan(prim, x, y, *, out):
    dt = out.dtype.to_numpy()
    x, y = _arrays(x, y, dt)
    return cupy.where(y == 0, dt.type(0), cupy.true_divide(x, y))


# Integer division by zero as MindSpore gives it (the CPU backend's kernels state the same): a quotient
# saturates to the dtype's extreme of the dividend's sign (0 // 0 is 0); FloorMod gives the dtype's minimum,
# Mod the minimum for a non-zero dividend, TruncateMod 0 (unsigned: every "minimum" is 0).
def _saturated_quotient(q, x, y, dt):
    info = numpy.iinfo(dt)
    sat = cupy.where(x > 0, dt.type(info.max), cupy.where(x < 0, dt.type(info.min), dt.type(0)))
    return cupy.where(y == 0, sat, q).astype(dt, copy=False)


def _remainder_at_zero(r, x, y, dt, nonzero_dividend_only):
    low = dt.type(numpy.iinfo(dt).min)
    value = cupy.where(x != 0, low, dt.type(0)) if nonzero_dividend_only else low
    return cupy.where(y == 0, value, r).astype(dt, copy=False)


def _floor_div(prim, x, y, *, out):
    dt = out.dtype.to_numpy()
    if dt.kind == "b":   # 1 // 1 = 1, 0 // 1 = 0, 1 // 0 saturates (true), 0 // 0 = 0: x
        x, y = _arrays(x, y, dt)
        return cupy.array(cupy.broadcast_arrays(x, y)[0])
    if dt.kind not in "iu":
        return cupy.floor_divide(*_pair(x, y, dt))
    x, y = _arrays(x, y, dt)
    return _saturated_quotient(cupy.floor_divide(x, y), x, y, dt)


def _floor_mod(prim, x, y, *, out):
    dt = out.dtype.to_numpy()
    if dt.kind not in "iu":
        return cupy.mod(*_pair(x, y, dt))
    x, y = _arrays(x, y, dt)
    return _remainder_at_zero(cupy.mod(x, y), x, y, dt, False)


def _mod(prim, x, y, *, out):
    dt = out.dtype.to_numpy()
    if dt.kind not in "iu":
        return cupy.fmod(*_pair(x, y, dt))
    x, y = _arrays(x, y, dt)
    return _remainder_at_zero(cupy.fmod(x, y), x, y, dt, True)


def _truncate_div(prim, x, y, *, out):
    dt = out.dtype.to_numpy()
    if dt.kind in "iu":
        x, y = _arrays(x, y, dt)
        q = cupy.floor_divide(x, y)
        inexact = ((x - q * y) != 0) & ((x < 0) != (y < 0))
        return _saturated_quotient(q + inexact.astype(q.dtype), x, y, dt)
    x, y = _pair(x, y, dt)
    return cupy.trunc(cupy.true_divide(x, y))


def _pow(prim, x, y, *, out):
    dt = out.dtype.to_numpy()
    x, y = _pair(x, y, dt)
    if dt.kind in "iu" and _any(y < 0):
        # integer powers with negative exponents truncate towards zero instead of raising
        r = cupy.power(_operand(x, F64), _operand(y, F64))
        return cupy.trunc(cupy.nan_to_num(r)).astype(dt)
    return cupy.power(x, y)


def _squared_difference(prim, x, y, *, out):
    return cupy.square(cupy.subtract(*_pair(x, y, out.dtype.to_numpy())))


def _xlogy(prim, x, y, *, out):
    dt = out.dtype.to_numpy()
    x, y = _arrays(x, y, dt)
    return cupy.where(x == 0, dt.type(0), x * cupy.log(y))


def _round(prim, x, decimals=0, *, out):
    x = _dev(x)
    if not is_inexact(x.dtype) and decimals >= 0:
        return x.copy()
    return cupy.round(x, decimals)


def _reciprocal(prim, x, *, out):
    x = _operand(_dev(x), out.dtype.to_numpy())
    return cupy.true_divide(x.dtype.type(1), x)


def _rsqrt(prim, x, *, out):
    x = _operand(_dev(x), out.dtype.to_numpy())
    return cupy.true_divide(x.dtype.type(1), cupy.sqrt(x))


def _special64(fn):
    """An error function in float64 (the CPU kernels' precision), rounded to the output dtype."""
    def kernel(prim, x, *, out):
        return fn(_operand(_dev(x), F64)).astype(out.dtype.to_numpy())
    kernel.__name__ = f"gpu_{getattr(fn, '__name__', 'special')}"
    return kernel


def _sinc(prim, x, *, out):
    dt = out.dtype.to_numpy()
    x = _operand(_dev(x), dt)
    return cupy.sinc(x.astype(F32)).astype(dt) if dt == F16 or is_bf16(dt) else cupy.sinc(x)


def _nan_to_num(prim, x, *, out):
    x = _dev(x)
    if not is_inexact(x.dtype):
        return x.copy()
    limit = finfo(x.dtype)
    posinf = limit.max if prim.posinf is None else prim.posinf
    neginf = limit.min if prim.neginf is None else prim.neginf
    r = cupy.where(cupy.isnan(x), x.dtype.type(prim.nan), x)
    r = cupy.where(cupy.isposinf(x), x.dtype.type(posinf), r)
    r = cupy.where(cupy.isneginf(x), x.dtype.type(neginf), r)
    return r.astype(x.dtype)


def _is_close(prim, x, y, *, out):
    x, y = _pair(x, y, promoted(x, y))
    return cupy.isclose(x, y, rtol=prim.rtol, atol=prim.atol, equal_nan=prim.equal_nan)


# --- products, sums, accumulations ----------------------------------------------------------
def _matmul(prim, x, y, *, out):
    dt = out.dtype.to_numpy()
    x, y = _dev(x), _dev(y)
    if prim.transpose_a:
        x = cupy.swapaxes(x, -1, -2)
    if prim.transpose_b:
        y = cupy.swapaxes(y, -1, -2)
    if x.dtype == y.dtype == dt:
        r = _LT.matmul(x, y)      # float16/bfloat16/float32 layouts it takes; transposed views read as they are
        if r is not None:
            return r
        if dt == F16 or is_bf16(dt):
            # half operands go to cuBLAS as they are (cublasGemmEx, float32 compute): tensor cores, products
            # accumulated in float32 and rounded once, the numbers of the float32 product of their widened copies up
            # to the order of the sum
            return fit(cupy.matmul(x, y), out)
    if x.dtype == F16 or y.dtype == F16:   # a half operand beside another dtype: float32 products, rounded once
        return cupy.matmul(x.astype(F32), y.astype(F32)).astype(dt)
    return fit(cupy.matmul(_operand(x, dt), _operand(y, dt)), out)


def _add_n(prim, xs, *, out):
    dt = out.dtype.to_numpy()
    r = _operand(_dev(xs[0]), dt).copy()
    for t in xs[1:]:
        cupy.add(r, _operand(_dev(t), dt), out=r)
    return r


def _operands(args, dt):
    arrays = [a for a in args if is_array(a)]
    return [_operand(_dev(a) if is_array(a) else a, dt) for a in args] if arrays else \
        [cupy.asarray(args[0], dtype=dt)] + [_operand(a, dt) for a in args[1:]]


def _addcmul(prim, input_data, x1, x2, value, *, out):
    a, b, c, v = _operands((input_data, x1, x2, value), out.dtype.to_numpy())
    return fit(a + v * b * c, out)


def _addcdiv(prim, input_data, x1, x2, value, *, out):
    a, b, c, v = _operands((input_data, x1, x2, value), out.dtype.to_numpy())
    return fit(a + v * b / c, out)


def _lerp(prim, start, end, weight, *, out):
    s, e, w = _operands((start, end, weight), out.dtype.to_numpy())
    return fit(s + w * (e - s), out)


def _cumulative(name, identity):
    accumulate = getattr(cupy, name)

    def kernel(prim, x, axis, *, out):
        x = _dev(x)
        if x.ndim == 0:
            return cupy.full((), identity, x.dtype) if prim.exclusive else x.copy()
        axis = axis % x.ndim
        # half precision accumulates in float32; bfloat16 must (CuPy's scans do not compile for it): the input is
        # widened before the scan, not through ``dtype=``
        acc = F32 if x.dtype == F16 or is_bf16(x.dtype) else x.dtype
        if prim.reverse:
            x = cupy.flip(x, axis)
        r = accumulate(x.astype(acc, copy=False), axis=axis, dtype=acc)
        if prim.exclusive and r.shape[axis]:  # an empty axis stays empty
            lead = cupy.full(r.shape[:axis] + (1,) + r.shape[axis + 1:], identity, r.dtype)
            body = r[(slice(None),) * axis + (slice(0, r.shape[axis] - 1),)]
            r = cupy.concatenate([lead, body], axis=axis)
        if prim.reverse:
            r = cupy.flip(r, axis)
        return cupy.asarray(r.astype(x.dtype, copy=False), order="C")
    kernel.__name__ = f"gpu_{name}"
    return kernel


def _einsum(prim, xs, *, out):
    dt = out.dtype.to_numpy()
    xs = [_dev(t) for t in xs]
    if any(t.dtype == F16 for t in xs):
        xs = [t.astype(F32) for t in xs]
    return cupy.einsum(prim.equation, *xs).astype(dt, copy=False)


KERNELS = {
    # arithmetic
    "Add": _arith(cupy.add),
    "AddV2": _arith(cupy.add),
    "Sub": _arith(cupy.subtract),
    "Mul": _arith(cupy.multiply),
    "RealDiv": _arith(cupy.true_divide),
    "Div": _arith(cupy.true_divide),
    "DivNoNan": _div_no_nan,
    "FloorDiv": _floor_div,
    "FloorMod": _floor_mod,
    "Mod": _mod,
    "TruncateDiv": _truncate_div,
    "TruncateMod": _arith(cupy.fmod),
    "Pow": _pow,
    "Maximum": _arith(cupy.maximum),
    "Minimum": _arith(cupy.minimum),
    "SquaredDifference": _squared_difference,
    "Atan2": _arith(cupy.arctan2),
    "Xlogy": _xlogy,
    "Hypot": _arith(cupy.hypot),
    "Fmax": _arith(cupy.fmax),
    "Fmin": _arith(cupy.fmin),
    "Gcd": _arith(cupy.gcd),
    "Lcm": _arith(cupy.lcm),
    "Heaviside": _arith(cupy.heaviside),
    "IsClose": _is_close,
    # one input
    "Neg": _unary(cupy.negative),
    "Abs": _with_complex(_unary(cupy.absolute), complex_math.absolute),
    "Square": _unary(cupy.square),
    "Reciprocal": _reciprocal,
    "Sqrt": _unary(cupy.sqrt),
    "Rsqrt": _rsqrt,
    "Exp": _unary(cupy.exp),
    "Log": _unary(cupy.log),
    "Log1p": _with_complex(_unary(cupy.log1p), complex_math.log1p),
    "Expm1": _with_complex(_unary(cupy.expm1), complex_math.expm1),
    "Sign": _with_complex(_unary(cupy.sign), complex_math.sign),
    "Floor": _integral_identity(cupy.floor),
    "Ceil": _integral_identity(cupy.ceil),
    "Trunc": _integral_identity(cupy.trunc),
    "Round": _round,
    "Sin": _unary(cupy.sin),
    "Cos": _unary(cupy.cos),
    "Tan": _unary(cupy.tan),
    "Asin": _unary(cupy.arcsin),
    "ACos": _unary(cupy.arccos),
    "Atan": _unary(cupy.arctan),
    "Sinh": _unary(cupy.sinh),
    "Cosh": _unary(cupy.cosh),
    "Tanh": _unary(cupy.tanh),
    "Asinh": _unary(cupy.arcsinh),
    "Acosh": _unary(cupy.arccosh),
    "Atanh": _unary(cupy.arctanh),
    "Erf": _special64(special.erf),
    "Erfc": _special64(special.erfc),
    "Erfinv": _special64(special.erfinv),
    "Sinc": _with_complex(_sinc, complex_math.sinc),
    "NanToNum": _nan_to_num,
    # comparisons, logic, bits
    "Equal": _compare(cupy.equal),
    "NotEqual": _compare(cupy.not_equal),
    "Greater": _compare(cupy.greater),
    "GreaterEqual": _compare(cupy.greater_equal),
    "Less": _compare(cupy.less),
    "LessEqual": _compare(cupy.less_equal),
    "LogicalAnd": _logical(cupy.logical_and),
    "LogicalOr": _logical(cupy.logical_or),
    "LogicalXor": _logical(cupy.logical_xor),
    "LogicalNot": lambda prim, x, *, out: cupy.logical_not(_dev(x)),
    "BitwiseAnd": _arith(cupy.bitwise_and),
    "BitwiseOr": _arith(cupy.bitwise_or),
    "BitwiseXor": _arith(cupy.bitwise_xor),
    "Invert": _unary(cupy.invert),
    "IsNan": _float_test(cupy.isnan, False),
    "IsInf": _float_test(cupy.isinf, False),
    "IsFinite": _float_test(cupy.isfinite, True),
    # products, sums, accumulations (math_ext)
    "MatMul": _matmul,
    "BatchMatMul": _matmul,
    "AddN": _add_n,
    "Addcmul": _addcmul,
    "Addcdiv": _addcdiv,
    "Lerp": _lerp,
    "CumSum": _cumulative("cumsum", 0),
    "CumProd": _cumulative("cumprod", 1),
    "Einsum": _einsum,
}
