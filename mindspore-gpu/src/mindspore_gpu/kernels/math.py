"""GPU kernels of the math family: elementwise arithmetic, comparisons and unary functions.

Arithmetic computes in the inferred output dtype (``out.dtype``): the operands are cast to it first,
so CuPy never promotes a second time (``int32 + float16`` runs in float16, as MindSpore's rules say).
A Python scalar operand becomes a NumPy scalar of that dtype.
"""
import cupy

_dev = cupy.asarray  # no copy for a CuPy array already on the current device


def _operand(v, dt):
    if isinstance(v, cupy.ndarray):
        return v if v.dtype == dt else v.astype(dt)
    if isinstance(v, (bool, int, float, complex)):
        return dt.type(v)
    return cupy.asarray(v, dtype=dt)


def _arith(ufunc):
    def kernel(prim, x, y, *, out):
        dt = out.dtype.to_numpy()
        return ufunc(_operand(x, dt), _operand(y, dt))
    kernel.__name__ = f"gpu_{getattr(ufunc, '__name__', 'ufunc')}"
    return kernel


def _compare(ufunc):
    def kernel(prim, x, y, *, out):
        x = _dev(x) if not isinstance(x, (bool, int, float)) else x
        y = _dev(y) if not isinstance(y, (bool, int, float)) else y
        return ufunc(x, y)
    kernel.__name__ = f"gpu_{getattr(ufunc, '__name__', 'ufunc')}"
    return kernel


def _unary(ufunc):
    def kernel(prim, x, *, out):
        return ufunc(_operand(_dev(x), out.dtype.to_numpy()))
    kernel.__name__ = f"gpu_{getattr(ufunc, '__name__', 'ufunc')}"
    return kernel


KERNELS = {
    "Add": _arith(cupy.add),
    "Sub": _arith(cupy.subtract),
    "Mul": _arith(cupy.multiply),
    "RealDiv": _arith(cupy.true_divide),
    "Maximum": _arith(cupy.maximum),
    "Minimum": _arith(cupy.minimum),
    "Equal": _compare(cupy.equal),
    "NotEqual": _compare(cupy.not_equal),
    "Less": _compare(cupy.less),
    "LessEqual": _compare(cupy.less_equal),
    "Greater": _compare(cupy.greater),
    "GreaterEqual": _compare(cupy.greater_equal),
    "Neg": _unary(cupy.negative),
    "Abs": _unary(cupy.absolute),
    "Square": _unary(cupy.square),
    "Sqrt": _unary(cupy.sqrt),
    "Exp": _unary(cupy.exp),
    "Log": _unary(cupy.log),
    "Sin": _unary(cupy.sin),
    "Cos": _unary(cupy.cos),
    "Tanh": _unary(cupy.tanh),
}
