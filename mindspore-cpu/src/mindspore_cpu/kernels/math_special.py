"""CPU kernels of ``mindspore/ops/_defs/math_special.py``: SciPy's ``scipy.special`` ufuncs (vectorised C,
accurate to a few ulps), imported on first use as ``kernels/math.py`` does.

Half precision is computed in float32 and rounded once; every kernel returns ``x``'s dtype.
``IgammaGradA`` (``d P(a, x) / d a``, which has no closed form) is a fourth-order central difference of
``gammainc`` in float64 with a step relative to ``a``: truncation and rounding errors stay below 1e-9
relative for the ``a`` of ordinary use.
"""
import functools

import numpy as np


@functools.cache
def _special():
    from scipy import special

    return special


def _work(x):
    x = np.asarray(x)
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _unary(name):
    def kernel(prim, x, out=None):
        x = np.asarray(x)
        with np.errstate(all="ignore"):
            return np.asarray(getattr(_special(), name)(_work(x))).astype(x.dtype, copy=False)
    kernel.__name__ = f"cpu_{name}"
    return kernel


def _binary(name):
    def kernel(prim, x, y, out=None):
        dt = out.dtype.to_numpy()
        with np.errstate(all="ignore"):
            res = getattr(_special(), name)(np.asarray(x, dt), np.asarray(y, dt))
        return np.asarray(res).astype(dt, copy=False)
    kernel.__name__ = f"cpu_{name}"
    return kernel


def _polygamma(prim, a, x, out=None):
    x = np.asarray(x)
    a, xw = np.broadcast_arrays(np.asarray(a), _work(x))
    with np.errstate(all="ignore"):
        res = np.where(a == 0, _special().digamma(xw), _special().polygamma(np.maximum(a, 1), xw))
    return np.asarray(res).astype(x.dtype, copy=False)


def _mvlgamma(prim, x, out=None):
    x = np.asarray(x)
    if x.size and not np.all(x > (prim.p - 1) / 2.0):
        raise ValueError(f"For 'Mvlgamma', all elements of 'x' must be greater than (p-1)/2 = "
                         f"{(prim.p - 1) / 2.0}.")
    wide = x.astype(np.float64)
    total = sum(_special().gammaln(wide - j / 2.0) for j in range(prim.p))
    total = total + prim.p * (prim.p - 1) / 4.0 * np.log(np.pi)
    return np.asarray(total).astype(x.dtype)


def _igamma_grad_a(prim, a, x, out=None):
    dt = out.dtype.to_numpy()
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    h = 1e-3 * np.maximum(np.abs(a), 1e-2)
    f = _special().gammainc
    with np.errstate(all="ignore"):
        d = (8.0 * (f(a + h, x) - f(a - h, x)) - (f(a + 2 * h, x) - f(a - 2 * h, x))) / (12.0 * h)
    return np.asarray(d).astype(dt)


def _nextafter(prim, x1, x2, out=None):
    dt = out.dtype.to_numpy()
    return np.asarray(np.nextafter(np.asarray(x1, dt), np.asarray(x2, dt)))


def _betainc(prim, a, b, x, out=None):
    dt = out.dtype.to_numpy()
    with np.errstate(all="ignore"):
        return np.asarray(_special().betainc(np.asarray(a, dt), np.asarray(b, dt), np.asarray(x, dt))).astype(dt)


KERNELS = {
    "BesselI0": _unary("i0"), "BesselI0e": _unary("i0e"), "BesselI1": _unary("i1"), "BesselI1e": _unary("i1e"),
    "BesselJ0": _unary("j0"), "BesselJ1": _unary("j1"), "BesselY0": _unary("y0"), "BesselY1": _unary("y1"),
    "BesselK0": _unary("k0"), "BesselK0e": _unary("k0e"), "BesselK1": _unary("k1"), "BesselK1e": _unary("k1e"),
    "Lgamma": _unary("gammaln"), "Digamma": _unary("digamma"), "Polygamma": _polygamma, "Mvlgamma": _mvlgamma,
    "Igamma": _binary("gammainc"), "Igammac": _binary("gammaincc"), "IgammaGradA": _igamma_grad_a,
    "Zeta": _binary("zeta"), "NextAfter": _nextafter, "Betainc": _betainc,
}
