"""CPU kernels of ``mindspore/ops/_defs/math_more.py`` (``Xdivy``, ``MulNoNan``, ``Rint``, ``Inv``, shifts).

The binary kernels compute in the inferred output dtype (``out.dtype``): the operands are cast to it first.
"""
import numpy as np


def _pair(x, y, out):
    dt = out.dtype.to_numpy()
    return np.asarray(x, dtype=dt), np.asarray(y, dtype=dt)


def _xdivy(prim, x, y, out=None):
    x, y = _pair(x, y, out)
    with np.errstate(all="ignore"):
        return np.asarray(np.where(x == 0, x.dtype.type(0), x / y), dtype=x.dtype)


def _mul_no_nan(prim, x, y, out=None):
    x, y = _pair(x, y, out)
    with np.errstate(all="ignore"):
        return np.asarray(np.where(y == 0, x.dtype.type(0), x * y), dtype=x.dtype)


def _shift(ufunc):
    def kernel(prim, x, y, out=None):
        x, y = _pair(x, y, out)
        return np.asarray(ufunc(x, y), dtype=x.dtype)
    return kernel


def _rint(prim, x, out=None):
    return np.asarray(np.rint(x))


def _inv(prim, x, out=None):
    x = np.asarray(x)
    if x.dtype.kind in "iu":
        safe = np.where(x == 0, 1, x)
        q = np.trunc(1.0 / safe).astype(x.dtype)  # 1 for 1, -1 for -1, else 0 (truncated)
        return np.asarray(np.where(x == 0, np.iinfo(x.dtype).min, q), dtype=x.dtype)  # 1 / 0: the minimum
    with np.errstate(all="ignore"):
        return np.asarray(np.true_divide(x.dtype.type(1), x), dtype=x.dtype)


KERNELS = {
    "Xdivy": _xdivy,
    "MulNoNan": _mul_no_nan,
    "LeftShift": _shift(np.left_shift),
    "RightShift": _shift(np.right_shift),
    "Rint": _rint,
    "Inv": _inv,
}
