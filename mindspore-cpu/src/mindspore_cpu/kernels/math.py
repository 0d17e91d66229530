"""CPU kernels of the math family (``mindspore/ops/_defs/math.py`` and ``math_ext.py``).

Inputs are first cast to the dtype MindSpore computes in (its promotion, see ``common.dtype``), so
NumPy never widens: ``int32 + float16`` runs in float16, ``int32 / int32`` in float32. Python scalar
operands stay Python scalars, which NumPy 2 treats as weakly typed, as MindSpore does. Half
precision products and accumulations run in float32 and are rounded once at the end. ``erf``,
``erfc`` and ``erfinv`` come from SciPy's special functions (NumPy has none of them), imported on
first use: importing ``scipy.special`` takes about 0.2 s and starts a second OpenBLAS thread pool.
"""

import functools

import ml_dtypes
import numpy as np

from mindspore.common import dtype as mstype
from mindspore_array_kernels import complex_math
from mindspore_cpu.kernels._half import MIN_SIZE, astype
from mindspore_cpu.kernels._native import _kernels

_SCALARS = (bool, int, float, complex)
_HALF = (np.dtype(np.float16), np.dtype(mstype.bfloat16.to_numpy()))
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_PROMOTED = {}


def _promote_key(kx, ky):
    xa, ya = isinstance(kx, np.dtype), isinstance(ky, np.dtype)
    if xa and ya:
        t = mstype.promote_types(mstype.to_ms_dtype(kx), mstype.to_ms_dtype(ky))
    elif xa:
        t = mstype.promote_with_scalar(mstype.to_ms_dtype(kx), ky(0))
    elif ya:
        t = mstype.promote_with_scalar(mstype.to_ms_dtype(ky), kx(0))
    else:
        t = mstype.promote_types(mstype.default_scalar_dtype(kx(0)), mstype.default_scalar_dtype(ky(0)))
    return t.to_numpy()


def _key(v):
    return v.dtype if isinstance(v, np.ndarray) else type(v)


def _promoted_keys(kx, ky):
    """The NumPy dtype MindSpore computes in for operands of these dtypes / scalar types (cached)."""
    t = _PROMOTED.get((kx, ky))
    if t is None:
        t = _PROMOTED[(kx, ky)] = _promote_key(kx, ky)
    return t


def _inexact(t):
    return t.kind in "fc" or t in _HALF


def _float_of(t):
    return t if _inexact(t) else _F32


def _to(v, t):
    if isinstance(v, np.ndarray):
        return v if v.dtype == t else v.astype(t)
    if isinstance(v, _SCALARS) and t.kind in "biufc":
        return v      # a weak Python scalar: NumPy computes in the array's dtype
    return np.asarray(v, dtype=t)   # (ml_dtypes' bfloat16 promotes a Python float to float32: give it a bfloat16)


def _operands(x, y, floating=False):
    """(x, y, dtype): both operands ready for NumPy in the dtype MindSpore computes ``x op y`` in."""
    t = _promoted_keys(_key(x), _key(y))
    if floating:
        t = _float_of(t)
    if not isinstance(x, np.ndarray) and not isinstance(y, np.ndarray):
        return np.asarray(x, dtype=t), np.asarray(y, dtype=t), t
    return _to(x, t), _to(y, t), t


def _common(*args, floating=False):
    """All operands in their common (promoted) dtype."""
    k = _key(args[0])
    for a in args[1:]:
        k = _promoted_keys(k, _key(a))
    t = k if isinstance(k, np.dtype) else np.asarray(args[0]).dtype
    if floating:
        t = _float_of(t)
    return [_to(a, t) for a in args]


def _as_float(x):
    return x if _inexact(x.dtype) else x.astype(np.float32)


#: Binary ufuncs whose float16 loops compute in float32 and round once: converting in C++, computing in float32 and
#: converting back gives the same values many times faster for large arrays (a NaN stays a NaN, though which
#: operand's payload it carries may differ; maximum/minimum are left out: NumPy's float16 and float32 loops differ in
#: which signed zero they keep).
_HALF_VIA_FLOAT32 = frozenset({np.add, np.subtract, np.multiply, np.true_divide})


def _half_via_float32(ufunc, x, y, t):
    """``ufunc(x, y)`` in the 16-bit float ``t`` (operands as :func:`_operands` gives them), computed in float32."""
    def wide(v):
        return astype(v if isinstance(v, np.ndarray) and v.dtype == t else np.asarray(v, dtype=t), np.float32)
    with np.errstate(all="ignore"):
        return astype(ufunc(wide(x), wide(y)), t)


def _binary(ufunc, floating=False):
    via_float32 = ufunc in _HALF_VIA_FLOAT32

    def kernel(prim, x, y, out=None):
        # fast path (the eager hot loop): two arrays of one inexact dtype need no promotion; NumPy's
        # floating-point warnings from this module are silenced once in kernels/__init__.py
        if type(x) is np.ndarray and type(y) is np.ndarray and x.dtype == y.dtype and x.dtype.kind == "f":
            if via_float32 and x.dtype in _HALF and x.size + y.size >= 2 * MIN_SIZE:
                return _half_via_float32(ufunc, x, y, x.dtype)
            res = ufunc(x, y)
            return res if type(res) is np.ndarray else np.asarray(res)  # 0-d inputs give a NumPy scalar
        x, y, t = _operands(x, y, floating)
        if via_float32 and t in _HALF and np.size(x) + np.size(y) >= 2 * MIN_SIZE:
            res = _half_via_float32(ufunc, x, y, t)
        else:
            with np.errstate(all="ignore"):
                res = np.asarray(ufunc(x, y))
        # the rule's dtype can be narrower than the operands' promotion: 2.10's Mul and Div keep a float16 tensor
        # times a 0-d float32 one in float16, computed in float32 and rounded once (as here)
        if out is not None and res.dtype != (want := out.dtype.to_numpy()):
            res = res.astype(want)
        return res
    return kernel


def _unary(ufunc):
    def kernel(prim, x, out=None):
        return np.asarray(ufunc(x))
    return kernel


def _unary_float(ufunc):
    def kernel(prim, x, out=None):
        with np.errstate(all="ignore"):
            return np.asarray(ufunc(_as_float(x)))
    return kernel


def _fma32(a, b, c):
    """float32 ``a * b + c`` rounded once (a fused multiply-add: the float32 product is exact in float64)."""
    return (a.astype(np.float64) * b + c).astype(np.float32)


def _tanh(prim, x, out=None):
    """float32 (and float16, computed in float32) as 2.10's CPU kernel computes it, bit for bit: the [7/6] Pade
    approximant of tanh in fused multiply-adds, saturating to +-1 beyond |x| > 5 (within 1.5e-5 of tanh: tanh(4)
    is 0.99934423, tanh(5) 1.0000098); other dtypes exactly."""
    if x.dtype == np.float16:
        return _tanh(prim, x.astype(np.float32)).astype(np.float16)
    if x.dtype != np.float32:
        return _unary_float(np.tanh)(prim, x)
    with np.errstate(all="ignore"):
        sq = x * x
        num = _fma32(_fma32(sq + np.float32(378), sq, 17325.0), sq, 135135.0) * x
        den = _fma32(_fma32(_fma32(np.full_like(sq, 28), sq, 3150.0), sq, 62370.0), sq, 135135.0)
        return np.asarray(np.where(x > 5, np.float32(1), np.where(x < -5, np.float32(-1), num / den)), np.float32)


def _exp(prim, x, out=None):
    """float32 as 2.10's CPU kernel computes it, bit for bit: nnacl's polynomial exp (C++, ``_csrc/softmax.cpp``; it
    differs from NumPy's correctly rounded ``exp`` by an ulp in most values, and flushes results below about 2**-126
    to 0); other dtypes NumPy's."""
    if x.dtype == np.float32:
        return _kernels.exp_f32(x if x.flags.c_contiguous else np.ascontiguousarray(x))   # (0-d stays 0-d)
    return _unary_float(np.exp)(prim, x)


def _log(prim, x, out=None):
    """float32 as 2.10's CPU kernel computes it, bit for bit: nnacl's SIMD log (C++, ``_csrc/log_f32.cpp``; it differs
    from NumPy's ``log`` by an ulp in most values) with glibc's ``logf`` for the last ``size % 4`` values; other dtypes
    NumPy's."""
    if x.dtype == np.float32:
        return _kernels.log_f32(x if x.flags.c_contiguous else np.ascontiguousarray(x))   # (0-d stays 0-d)
    return _unary_float(np.log)(prim, x)


def _integral_identity(ufunc):
    """Rounding functions: the identity on integers (no round trip through float64)."""
    def kernel(prim, x, out=None):
        if not _inexact(x.dtype):
            return x.copy()
        return np.asarray(ufunc(x))
    return kernel


def _float_test(ufunc, default):
    """IsNan/IsInf/IsFinite: integers are never NaN or infinite."""
    def kernel(prim, x, out=None):
        if not _inexact(x.dtype):
            return np.full(x.shape, default, np.bool_)
        return np.asarray(ufunc(x))
    return kernel


# --- arithmetic -----------------------------------------------------------------------------
def _div_no_nan(prim, x, y, out=None):
    x, y, t = _operands(x, y, floating=True)
    with np.errstate(all="ignore"):
        return np.asarray(np.where(np.equal(y, 0), np.zeros((), t), np.true_divide(x, y)))


# Integer division by zero, as MindSpore's CPU kernels give it: a quotient saturates to the dtype's
# extreme of the dividend's sign (0 // 0 is 0); FloorMod gives the dtype's minimum, Mod the minimum for a
# non-zero dividend, TruncateMod 0 (unsigned: every "minimum" is 0).
def _saturated_quotient(q, x, y, t):
    zero = np.equal(y, 0)
    if not np.any(zero):
        return q
    info = np.iinfo(t)
    sat = np.where(np.greater(x, 0), info.max, np.where(np.less(x, 0), info.min, 0)).astype(t)
    return np.asarray(np.where(zero, sat, q), dtype=t)


def _remainder_at_zero(r, x, y, t, nonzero_dividend_only):
    zero = np.equal(y, 0)
    if not np.any(zero):
        return r
    low = np.iinfo(t).min
    value = np.where(np.not_equal(x, 0), low, 0) if nonzero_dividend_only else low
    return np.asarray(np.where(zero, value, r), dtype=t)


def _floor_div(prim, x, y, out=None):
    if type(x) is np.ndarray and type(y) is np.ndarray and x.dtype == y.dtype and x.dtype.kind == "f":
        return np.asarray(np.floor_divide(x, y))
    x, y, t = _operands(x, y)
    if t.kind == "b":   # 1 // 1 = 1, 0 // 1 = 0, 1 // 0 saturates (true), 0 // 0 = 0: x
        return np.array(np.broadcast_arrays(x, y)[0])
    with np.errstate(all="ignore"):
        q = np.asarray(np.floor_divide(x, y))
        return _saturated_quotient(q, x, y, t) if t.kind in "iu" else q


def _floor_mod(prim, x, y, out=None):
    x, y, t = _operands(x, y)
    with np.errstate(all="ignore"):
        r = np.asarray(np.mod(x, y))
        return _remainder_at_zero(r, x, y, t, False) if t.kind in "iu" else r


def _mod(prim, x, y, out=None):
    x, y, t = _operands(x, y)
    with np.errstate(all="ignore"):
        r = np.asarray(np.fmod(x, y))
        return _remainder_at_zero(r, x, y, t, True) if t.kind in "iu" else r


def _truncate_div(prim, x, y, out=None):
    x, y, t = _operands(x, y)
    with np.errstate(all="ignore"):
        if t.kind in "iu":
            q = np.floor_divide(x, y)
            inexact = np.not_equal(np.subtract(x, np.multiply(q, y)), 0) & (np.less(x, 0) != np.less(y, 0))
            return _saturated_quotient(np.asarray(q + inexact.astype(q.dtype)), x, y, t)
        return np.asarray(np.trunc(np.true_divide(x, y)))


def _pow_f32(x, y):
    """float32 ``x ** y`` as 2.10's CPU kernel computes it, bit for bit (``_csrc/libm_unary.cpp``): an exponent of one
    value, or of x's shape, by Eigen's vectorised pow (exact squaring for integer exponents in [-3, 7]), other
    broadcasts in double; NumPy's correctly rounded float32 power differed in a quarter of the values."""
    xa, ya = np.asarray(x, np.float32), np.asarray(y, np.float32)
    shape = np.broadcast_shapes(xa.shape, ya.shape)
    if xa.shape == shape and (ya.size == 1 or ya.shape == shape):
        res = _kernels.pow_f32(np.ascontiguousarray(xa), np.ascontiguousarray(ya))
    else:
        xa, ya = np.broadcast_arrays(xa, ya)
        res = _kernels.pow_f32_double(np.ascontiguousarray(xa), np.ascontiguousarray(ya))
    return res.reshape(shape)   # (NumPy's ascontiguousarray makes a 0-d operand 1-d)


def _pow_f64(x, y):
    """float64 ``x ** y`` as 2.10's CPU kernel computes it, bit for bit: Eigen's pow (two-value packets) for an exponent
    of one value or of x's shape, a Python float exponent first rounded to float32 (2.10 holds it as a float32
    scalar: ``t ** 0.3`` raises to 0.30000001192092896); other broadcasts the C library's pow (NumPy's)."""
    if isinstance(y, float) and isinstance(x, np.ndarray):
        y = float(np.float32(y))
    xa, ya = np.asarray(x, np.float64), np.asarray(y, np.float64)
    shape = np.broadcast_shapes(xa.shape, ya.shape)
    if xa.shape == shape and (ya.size == 1 or ya.shape == shape):
        return _kernels.pow_f64(np.ascontiguousarray(xa), np.ascontiguousarray(ya)).reshape(shape)
    with np.errstate(all="ignore"):
        return np.asarray(np.power(xa, ya))


def _pow(prim, x, y, out=None):
    x, y, t = _operands(x, y)
    if t == _F32:
        return _pow_f32(x, y)
    if t == _F64:
        return _pow_f64(x, y)
    with np.errstate(all="ignore"):
        if t.kind in "iu" and np.any(np.less(y, 0)):
            # integer powers with negative exponents truncate towards zero instead of raising
            res = np.power(np.asarray(x, np.float64), np.asarray(y, np.float64))
            return np.asarray(np.trunc(np.nan_to_num(res)).astype(t))
        return np.asarray(np.power(x, y))


def _squared_difference(prim, x, y, out=None):
    x, y, _ = _operands(x, y)
    return np.asarray(np.square(np.subtract(x, y)))


def _xlogy(prim, x, y, out=None):
    x, y, t = _operands(x, y, floating=True)
    with np.errstate(all="ignore"):
        res = np.multiply(x, np.log(np.asarray(y, dtype=t)))   # a Python scalar y: its log in t, not float64
        return np.asarray(np.where(np.equal(x, 0), np.zeros((), t), res), dtype=t)


def _round(prim, x, decimals=0, out=None):
    if not _inexact(x.dtype) and decimals >= 0:
        return x.copy()
    return np.asarray(np.round(x, decimals))


def _sign(prim, x, out=None):
    return np.asarray(np.sign(x))


def _with_complex(real_kernel, complex_fn):
    return complex_math.with_complex(np, np.asarray, real_kernel, complex_fn)


def _reciprocal(prim, x, out=None):
    x = _as_float(x)
    with np.errstate(all="ignore"):
        return np.asarray(np.true_divide(np.ones((), x.dtype), x))


def _rsqrt(prim, x, out=None):
    x = _as_float(x)
    with np.errstate(all="ignore"):
        return np.asarray(np.true_divide(np.ones((), x.dtype), np.sqrt(x)))


# --- the C library's functions, called as MindSpore 2.10's CPU kernels call them ------------------
_LIBM_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
_F16 = np.dtype(np.float16)


def _libm(name, ufunc):
    """2.10's CPU kernel ``name`` bit for bit (``_csrc/libm_unary.cpp``): float32 the C library's double function
    rounded once (erf: erff; log1p: logf(x + 1); expm1: expf(x) - 1), float64 the double one; NumPy's float32
    functions are SIMD approximations that differed in 10-40% of the values. float16 runs the float32 kernel and
    rounds (2.10's float16 kernels do: equal on every finite float16); integers compute in float32; bfloat16 and
    complex NumPy's."""
    def kernel(prim, x, out=None):
        x = _as_float(x)
        if x.dtype in _LIBM_DTYPES:
            return _kernels.libm_unary(x if x.flags.c_contiguous else np.ascontiguousarray(x), name)
        if x.dtype == _F16:
            wide = x.astype(np.float32, order="C")   # (0-d stays 0-d)
            with np.errstate(all="ignore"):
                return np.asarray(_kernels.libm_unary(wide, name).astype(np.float16))
        with np.errstate(all="ignore"):
            return np.asarray(ufunc(x))
    return kernel


_LIBM_LOG1P, _LIBM_EXPM1 = _libm("log1p", np.log1p), _libm("expm1", np.expm1)
_LIBM_ERF, _LIBM_ERFC = _libm("erf", None), _libm("erfc", None)


def _log1p(prim, x, out=None):
    """float16 as 2.10's Log1p: the float16 sum x + 1 (rounded), then logf (so log1p(1e-4) is 0 in float16)."""
    if x.dtype == _F16:
        with np.errstate(all="ignore"):
            return np.asarray(_kernels.libm_logf(np.asarray(x + np.float16(1), np.float32, order="C")).astype(_F16))
    return _LIBM_LOG1P(prim, x)


def _expm1(prim, x, out=None):
    """float16 as 2.10's Expm1: expf rounded to float16, minus 1 in float16."""
    if x.dtype == _F16:
        with np.errstate(all="ignore"):
            return np.asarray(_kernels.libm_expf(np.asarray(x, np.float32, order="C")).astype(_F16) - np.float16(1))
    return _LIBM_EXPM1(prim, x)


def _atan2(prim, x, y, out=None):
    """float32/float64 as 2.10's Atan2: the C library's double atan2 (rounded once for float32); others NumPy's."""
    x, y, t = _operands(x, y, floating=True)
    if t in _LIBM_DTYPES:
        a, b = np.broadcast_arrays(np.asarray(x, t), np.asarray(y, t))
        res = _kernels.atan2_libm(np.ascontiguousarray(a), np.ascontiguousarray(b))
        return res.reshape(a.shape)   # (NumPy's ascontiguousarray makes a 0-d operand 1-d)
    with np.errstate(all="ignore"):
        return np.asarray(np.arctan2(x, y))


# --- erf / erfc (SciPy's special functions: vectorised C, accurate to a few ulps) ---------------
@functools.cache
def _scipy_special():
    from scipy import special

    return special


def _erf_erfc(x):
    """(erf(|x|), erfc(|x|)) in float64, each accurate where it is small."""
    a = np.abs(np.asarray(x, np.float64))
    return _scipy_special().erf(a), _scipy_special().erfc(a)


def _erf(prim, x, out=None):
    x = _as_float(x)
    if x.dtype in _LIBM_DTYPES or x.dtype == _F16:
        return _LIBM_ERF(prim, x)
    with np.errstate(all="ignore"):
        erf, _ = _erf_erfc(x)
        return np.asarray(np.copysign(erf, x.astype(np.float64)).astype(x.dtype))


def _erfc(prim, x, out=None):
    x = _as_float(x)
    if x.dtype in _LIBM_DTYPES or x.dtype == _F16:
        return _LIBM_ERFC(prim, x)
    with np.errstate(all="ignore"):
        erf, erfc = _erf_erfc(x)
        return np.asarray(np.where(x < 0, 1.0 + erf, erfc).astype(x.dtype))


def _erfinv(prim, x, out=None):
    x = _as_float(x)
    with np.errstate(all="ignore"):
        return np.asarray(_scipy_special().erfinv(np.asarray(x, np.float64)).astype(x.dtype))


def _sinc(prim, x, out=None):
    x = _as_float(x)
    if x.dtype in _HALF:
        return np.sinc(x.astype(np.float32)).astype(x.dtype)
    return np.asarray(np.sinc(x))


def _nan_to_num(prim, x, out=None):
    if not _inexact(x.dtype):
        return x.copy()
    limit = ml_dtypes.finfo(x.dtype)
    posinf = limit.max if prim.posinf is None else prim.posinf
    neginf = limit.min if prim.neginf is None else prim.neginf
    res = np.where(np.isnan(x), prim.nan, x)
    res = np.where(np.isposinf(x), posinf, res)
    res = np.where(np.isneginf(x), neginf, res)
    return np.asarray(res.astype(x.dtype))


def _is_close(prim, x, y, out=None):
    x, y, _ = _operands(x, y)
    return np.asarray(np.isclose(x, y, rtol=prim.rtol, atol=prim.atol, equal_nan=prim.equal_nan))


# --- products, sums, accumulations ----------------------------------------------------------
_GEMM_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _gemm_operand(a, transposed):
    """``a`` as a C-contiguous array and its transpose flag: a transposed view flips the flag instead of
    being copied."""
    if a.flags.c_contiguous:
        return a, transposed
    t = np.swapaxes(a, -1, -2)
    if t.flags.c_contiguous:
        return t, not transposed
    return np.asarray(a, order="C"), transposed


def _native_matmul(x, y, ta, tb):
    """float32/float64 products on the C++ GEMM (one thread team for every kernel, see _csrc/team.h)."""
    x, ta = _gemm_operand(x, ta)
    y, tb = _gemm_operand(y, tb)
    if y.ndim == 2 and not ta and x.ndim > 2:
        # (..., M, K) @ (K, N): the batch folds into M, one product
        out = _kernels.matmul(x.reshape(-1, x.shape[-1]), y, False, tb)
        return out.reshape(x.shape[:-1] + out.shape[-1:])
    if x.ndim == 2 and y.ndim == 2:
        return _kernels.matmul(x, y, ta, tb)
    batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    x = np.asarray(np.broadcast_to(x, batch + x.shape[-2:]), order="C")
    y = np.asarray(np.broadcast_to(y, batch + y.shape[-2:]), order="C")
    return _kernels.matmul(x, y, ta, tb)


def dense_with_epilogue(x, w, bias, transpose_b, relu):
    """``ReLU(BiasAdd(MatMul(x, w)))`` of 2-D float32/float64 operands of one dtype in one C++ kernel (the CPU
    backend's Dense fusion, passes.py): the product bitwise equal to ``_matmul``'s, the epilogue to BiasAdd's and
    ReLU's kernels."""
    w, tb = _gemm_operand(w, transpose_b)
    return _kernels.dense(np.ascontiguousarray(x), w, None if bias is None else np.ascontiguousarray(bias), tb,
                          relu)


def _matmul(prim, x, y, out=None):
    if (x.dtype is y.dtype or x.dtype == y.dtype) and x.ndim >= 2 and y.ndim >= 2:
        if x.dtype in _GEMM_DTYPES:
            return _native_matmul(x, y, bool(prim.transpose_a), bool(prim.transpose_b))
        if x.dtype in _HALF:   # float32 products rounded once, as on a GPU
            wide = _native_matmul(astype(x, np.float32), astype(y, np.float32), bool(prim.transpose_a),
                                  bool(prim.transpose_b))
            return astype(wide, x.dtype)
    if prim.transpose_a:
        x = np.swapaxes(x, -1, -2)
    if prim.transpose_b:
        y = np.swapaxes(y, -1, -2)
    with np.errstate(invalid="ignore", over="ignore"):  # inf/NaN propagate as MindSpore's do, silently
        if x.dtype in _HALF:
            return astype(np.matmul(astype(x, np.float32), astype(y, np.float32)), x.dtype)
        return np.asarray(np.matmul(x, y))


def _add_n(prim, x, out=None):
    res = np.array(x[0], copy=True)
    for t in x[1:]:
        np.add(res, t, out=res)
    return res


def _addc_operands(input_data, x1, x2, value, floating=False):
    """The operands of Addcmul/Addcdiv in their dtype: the tensors' common one, which a float result keeps (the
    ``value`` is cast to it, as in MindSpore 2.10); an integer one promotes with a float ``value``."""
    tensors = _common(input_data, x1, x2, floating=floating)
    if _inexact(tensors[0].dtype):
        return tensors + [_to(value, tensors[0].dtype)]
    return _common(input_data, x1, x2, value, floating=floating)


def _addcmul(prim, input_data, x1, x2, value, out=None):
    input_data, x1, x2, value = _addc_operands(input_data, x1, x2, value)
    return np.asarray(input_data + value * (x1 * x2))   # (2.10's order: the product first)


def _addcdiv(prim, input_data, x1, x2, value, out=None):
    input_data, x1, x2, value = _addc_operands(input_data, x1, x2, value, floating=True)
    with np.errstate(all="ignore"):
        return np.asarray(input_data + value * x1 / x2)


def _lerp(prim, start, end, weight, out=None):
    start, end, weight = _common(start, end, weight, floating=True)
    return np.asarray(start + weight * (end - start))


def _cumulative(ufunc, identity):
    def kernel(prim, x, axis, out=None):
        if x.ndim == 0:
            return np.full((), identity, x.dtype) if prim.exclusive else x.copy()
        axis = axis % x.ndim
        # float16 accumulates in float16, each partial result rounded, as MindSpore 2.10's CPU kernel (checked bit for
        # bit, both directions, exclusive or not); bfloat16 in float32
        acc = np.float32 if x.dtype == _HALF[1] else x.dtype
        if prim.reverse:
            x = np.flip(x, axis)
        res = ufunc.accumulate(x, axis=axis, dtype=acc)
        if prim.exclusive and res.shape[axis]:  # an empty axis stays empty
            lead = np.full(res.shape[:axis] + (1,) + res.shape[axis + 1:], identity, res.dtype)
            res = np.concatenate([lead, np.delete(res, -1, axis=axis)], axis=axis)
        if prim.reverse:
            res = np.flip(res, axis)
        return np.asarray(res, dtype=x.dtype, order="C")
    return kernel


def _einsum(prim, x, out=None):
    dtype = x[0].dtype
    if dtype in _HALF:
        x = [t.astype(np.float32) for t in x]
    res = np.einsum(prim.equation, *x, optimize=len(x) > 2)
    return np.asarray(res, dtype=dtype)


KERNELS = {
    # arithmetic
    "Add": _binary(np.add),
    "AddV2": _binary(np.add),
    "Sub": _binary(np.subtract),
    "Mul": _binary(np.multiply),
    "RealDiv": _binary(np.true_divide, floating=True),
    "Div": _binary(np.true_divide, floating=True),
    "DivNoNan": _div_no_nan,
    "FloorDiv": _floor_div,
    "FloorMod": _floor_mod,
    "Mod": _mod,
    "TruncateDiv": _truncate_div,
    "TruncateMod": _binary(np.fmod),
    "Pow": _pow,
    "Maximum": _binary(np.maximum),
    "Minimum": _binary(np.minimum),
    "SquaredDifference": _squared_difference,
    "Atan2": _atan2,
    "Xlogy": _xlogy,
    "Hypot": _binary(np.hypot, floating=True),
    "Fmax": _binary(np.fmax),
    "Fmin": _binary(np.fmin),
    "Gcd": _binary(np.gcd),
    "Lcm": _binary(np.lcm),
    "Heaviside": _binary(np.heaviside),
    "IsClose": _is_close,
    # one input
    "Neg": _unary(np.negative),
    "Abs": _with_complex(_unary(np.abs), complex_math.absolute),
    "Square": _unary(np.square),
    "Reciprocal": _reciprocal,
    "Sqrt": _unary_float(np.sqrt),
    "Rsqrt": _rsqrt,
    "Exp": _exp,
    "Log": _log,
    "Log1p": _with_complex(_log1p, complex_math.log1p),
    "Expm1": _with_complex(_expm1, complex_math.expm1),
    "Sign": _with_complex(_sign, complex_math.sign),
    "Floor": _integral_identity(np.floor),
    "Ceil": _integral_identity(np.ceil),
    "Trunc": _integral_identity(np.trunc),
    "Round": _round,
    "Sin": _libm("sin", np.sin),
    "Cos": _libm("cos", np.cos),
    "Tan": _libm("tan", np.tan),
    "Asin": _libm("asin", np.arcsin),
    "ACos": _libm("acos", np.arccos),
    "Atan": _libm("atan", np.arctan),
    "Sinh": _libm("sinh", np.sinh),
    "Cosh": _libm("cosh", np.cosh),
    "Tanh": _tanh,
    "Asinh": _libm("asinh", np.arcsinh),
    "Acosh": _libm("acosh", np.arccosh),
    "Atanh": _libm("atanh", np.arctanh),
    "Erf": _erf,
    "Erfc": _erfc,
    "Erfinv": _erfinv,
    "Sinc": _with_complex(_sinc, complex_math.sinc),
    "NanToNum": _nan_to_num,
    # comparisons, logic, bits
    "Equal": _binary(np.equal),
    "NotEqual": _binary(np.not_equal),
    "Greater": _binary(np.greater),
    "GreaterEqual": _binary(np.greater_equal),
    "Less": _binary(np.less),
    "LessEqual": _binary(np.less_equal),
    "LogicalAnd": lambda prim, x, y, out=None: np.asarray(np.logical_and(x, y)),
    "LogicalOr": lambda prim, x, y, out=None: np.asarray(np.logical_or(x, y)),
    "LogicalXor": lambda prim, x, y, out=None: np.asarray(np.logical_xor(x, y)),
    "LogicalNot": _unary(np.logical_not),
    "BitwiseAnd": _binary(np.bitwise_and),
    "BitwiseOr": _binary(np.bitwise_or),
    "BitwiseXor": _binary(np.bitwise_xor),
    "Invert": _unary(np.invert),
    "IsNan": _float_test(np.isnan, False),
    "IsInf": _float_test(np.isinf, False),
    "IsFinite": _float_test(np.isfinite, True),
    # products, sums, accumulations (math_ext)
    "MatMul": _matmul,
    "BatchMatMul": _matmul,
    "AddN": _add_n,
    "Addcmul": _addcmul,
    "Addcdiv": _addcdiv,
    "Lerp": _lerp,
    "CumSum": _cumulative(np.add, 0),
    "CumProd": _cumulative(np.multiply, 1),
    "Einsum": _einsum,
}
