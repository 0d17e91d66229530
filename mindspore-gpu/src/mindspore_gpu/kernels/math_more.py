"""GPU kernels of ``mindspore/ops/_defs/math_more.py`` (``Xdivy``, ``MulNoNan``, ``Rint``, ``Inv``, shifts).

As in ``kernels/math.py``, binary kernels compute in the inferred output dtype (``out.dtype``): the operands
are cast to it first (a Python scalar becomes a 0-d device array of it), so CuPy never promotes again.
"""
import cupy
import numpy


def _pair(x, y, out):
    dt = out.dtype.to_numpy()
    return cupy.asarray(x, dtype=dt), cupy.asarray(y, dtype=dt)


def _xdivy(prim, x, y, *, out):
    x, y = _pair(x, y, out)
    return cupy.where(x == 0, cupy.zeros((), x.dtype), x / y).astype(x.dtype, copy=False)


def _mul_no_nan(prim, x, y, *, out):
    x, y = _pair(x, y, out)
    return cupy.where(y == 0, cupy.zeros((), x.dtype), x * y).astype(x.dtype, copy=False)


def _shift(ufunc):
    def kernel(prim, x, y, *, out):
        x, y = _pair(x, y, out)
        return ufunc(x, y).astype(x.dtype, copy=False)
    kernel.__name__ = f"gpu_{ufunc.__name__}"
    return kernel


def _rint(prim, x, *, out):
    return cupy.rint(cupy.asarray(x))


def _inv(prim, x, *, out):
    x = cupy.asarray(x)
    if x.dtype.kind in "iu":
        safe = cupy.where(x == 0, cupy.ones((), x.dtype), x)
        q = cupy.trunc(1.0 / safe).astype(x.dtype)
        return cupy.where(x == 0, cupy.full((), numpy.iinfo(x.dtype).min, x.dtype), q)
    return cupy.true_divide(x.dtype.type(1), x)


KERNELS = {
    "Xdivy": _xdivy,
    "MulNoNan": _mul_no_nan,
    "LeftShift": _shift(cupy.left_shift),
    "RightShift": _shift(cupy.right_shift),
    "Rint": _rint,
    "Inv": _inv,
}
