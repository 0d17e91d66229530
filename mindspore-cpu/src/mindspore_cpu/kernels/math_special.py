"""CPU kernels of ``mindspore/ops/_defs/math_special.py`` (the Bessel functions, ``Lgamma``, ``Digamma``,
``Polygamma``, ``Mvlgamma``, ``Igamma``, ``Igammac``, ``IgammaGradA``, ``Zeta``, ``NextAfter``, ``Betainc``):
mindspore-array-kernels' ``math_special`` family bound to NumPy and SciPy's ``scipy.special`` ufuncs (vectorised C,
accurate to a few ulps), imported on first use as ``kernels/math.py`` does (the GPU backend binds the same source to
CuPy and ``cupyx.scipy.special``).
"""
import functools

import numpy as np

from mindspore_array_kernels import bind


@functools.cache
def _special():
    from scipy import special

    return special


KERNELS = bind("math_special", globals(), xp=np, dev=np.asarray, special=_special)["KERNELS"]

# --- float32 Lgamma and Digamma as MindSpore 2.10's CPU kernels compute them, bit for bit ------------------------
_F16, _F32 = np.dtype(np.float16), np.dtype(np.float32)
_SHARED = dict(KERNELS)


def _native():
    from mindspore_cpu.kernels._native import _kernels

    return _kernels


def _lgamma(prim, x, out=None):
    """float32: the C library's lgammaf (C++, ``_csrc/log_f32.cpp``), as 2.10's kernel; SciPy's ``gammaln`` differed
    in about a quarter of the values. Other dtypes the family's."""
    if x.dtype != _F32:
        return _SHARED["Lgamma"](prim, x, out=out)
    return _native().glibc_lgammaf_f32(x if x.flags.c_contiguous else np.ascontiguousarray(x))


def _digamma(prim, x, out=None):
    """float32 (and float16, computed in float32 and rounded) as 2.10's kernel computes it (C++,
    ``_csrc/log_f32.cpp``): Cephes' psi in float, the recurrence up to 10, the asymptotic series with glibc's logf,
    the reflection for negative non-integers in double; SciPy's ``digamma`` differed in about a quarter of the
    values. Other dtypes the family's."""
    if x.dtype not in (_F32, _F16):
        return _SHARED["Digamma"](prim, x, out=out)
    res = _native().digamma_f32(np.ascontiguousarray(x, _F32))
    return res.reshape(x.shape).astype(x.dtype, copy=False)


KERNELS["Lgamma"] = _lgamma
KERNELS["Digamma"] = _digamma
