"""The kernels of ``mindspore/ops/_defs/math_more.py`` (``Xdivy``, ``MulNoNan``, ``LeftShift``, ``RightShift``,
``Rint``, ``Inv``), bound (:func:`mindspore_array_kernels.bind`) with ``xp``, the array library, and ``dev`` (an
operand as an ``xp`` array, cast to a dtype when one is given).

The binary kernels compute in the inferred output dtype (``out.dtype``): the operands are cast to it first (a
Python scalar becomes a 0-d array of it), so the library never promotes again.
"""
import numpy as np

BOUND = ("xp", "dev")


def _pair(x, y, out):
    dt = out.dtype.to_numpy()
    return dev(x, dt), dev(y, dt)


def _xdivy(prim, x, y, out=None):
    x, y = _pair(x, y, out)
    with np.errstate(all="ignore"):
        return xp.where(x == 0, xp.zeros((), x.dtype), x / y).astype(x.dtype, copy=False)


def _mul_no_nan(prim, x, y, out=None):
    x, y = _pair(x, y, out)
    with np.errstate(all="ignore"):
        return xp.where(y == 0, xp.zeros((), x.dtype), x * y).astype(x.dtype, copy=False)


def _shift(ufunc):
    def kernel(prim, x, y, out=None):
        x, y = _pair(x, y, out)
        return xp.asarray(ufunc(x, y)).astype(x.dtype, copy=False)
    kernel.__name__ = kernel.__qualname__ = f"shift_{ufunc.__name__}"
    return kernel


def _rint(prim, x, out=None):
    return xp.asarray(xp.rint(dev(x)))


def _inv(prim, x, out=None):
    x = dev(x)
    if x.dtype.kind in "iu":
        safe = xp.where(x == 0, xp.ones((), x.dtype), x)
        q = xp.trunc(1.0 / safe).astype(x.dtype)  # 1 for 1, -1 for -1, else 0 (truncated)
        return xp.where(x == 0, xp.full((), np.iinfo(x.dtype).min, x.dtype), q)  # 1 / 0: the minimum
    with np.errstate(all="ignore"):
        return xp.asarray(xp.true_divide(x.dtype.type(1), x)).astype(x.dtype, copy=False)


KERNELS = {
    "Xdivy": _xdivy,
    "MulNoNan": _mul_no_nan,
    "LeftShift": _shift(xp.left_shift),
    "RightShift": _shift(xp.right_shift),
    "Rint": _rint,
    "Inv": _inv,
}
