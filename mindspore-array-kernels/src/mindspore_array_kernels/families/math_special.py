"""The kernels of ``mindspore/ops/_defs/math_special.py`` (the Bessel functions, ``Lgamma``, ``Digamma``,
``Polygamma``, ``Mvlgamma``, ``Igamma``, ``Igammac``, ``IgammaGradA``, ``Zeta``, ``NextAfter``, ``Betainc``), bound
(:func:`mindspore_array_kernels.bind`) with ``xp``, the array library, ``dev`` (an operand as an ``xp`` array, cast
to a dtype when one is given) and ``special()``, the special functions' module of that library (SciPy's
``scipy.special``, imported on first use; ``cupyx.scipy.special``): ufuncs of the same names and accuracy.

Half precision is computed in float32 and rounded once; every kernel returns ``x``'s dtype (the inferred one).
``IgammaGradA`` (``d P(a, x) / d a``, which has no closed form) is a fourth-order central difference of
``gammainc`` in float64 with a step relative to ``a``: truncation and rounding errors stay below 1e-9 relative for
the ``a`` of ordinary use.
"""
import math

import numpy as np

BOUND = ("xp", "dev", "special")

_LOG_PI = math.log(math.pi)


def _work(x):
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _unary(name):
    def kernel(prim, x, out=None):
        x = dev(x)
        with np.errstate(all="ignore"):
            return xp.asarray(getattr(special(), name)(_work(x))).astype(x.dtype, copy=False)
    kernel.__name__ = kernel.__qualname__ = f"special_{name}"
    return kernel


def _binary(name):
    def kernel(prim, x, y, out=None):
        dt = out.dtype.to_numpy()
        with np.errstate(all="ignore"):
            res = getattr(special(), name)(dev(x, dt), dev(y, dt))
        return xp.asarray(res).astype(dt, copy=False)
    kernel.__name__ = kernel.__qualname__ = f"special_{name}"
    return kernel


def _polygamma(prim, a, x, out=None):
    x = dev(x)
    a, xw = xp.broadcast_arrays(dev(a), _work(x))
    fns = special()
    with np.errstate(all="ignore"):
        res = xp.where(a == 0, fns.digamma(xw), fns.polygamma(xp.maximum(a, 1), xw))
    return xp.asarray(res).astype(x.dtype, copy=False)


def _mvlgamma(prim, x, out=None):
    x = dev(x)
    if x.size and not bool(xp.all(x > (prim.p - 1) / 2.0)):
        raise ValueError(f"For 'Mvlgamma', all elements of 'x' must be greater than (p-1)/2 = "
                         f"{(prim.p - 1) / 2.0}.")
    wide = x.astype(np.float64)
    total = xp.zeros(x.shape, np.float64)
    for j in range(prim.p):
        total = total + special().gammaln(wide - j / 2.0)
    total = total + prim.p * (prim.p - 1) / 4.0 * _LOG_PI
    return xp.asarray(total).astype(x.dtype)


def _igamma_grad_a(prim, a, x, out=None):
    dt = out.dtype.to_numpy()
    a, x = xp.broadcast_arrays(dev(a, np.float64), dev(x, np.float64))
    h = 1e-3 * xp.maximum(xp.abs(a), 1e-2)
    f = special().gammainc
    with np.errstate(all="ignore"):
        d = (8.0 * (f(a + h, x) - f(a - h, x)) - (f(a + 2 * h, x) - f(a - 2 * h, x))) / (12.0 * h)
    return xp.asarray(d).astype(dt)


def _nextafter(prim, x1, x2, out=None):
    dt = out.dtype.to_numpy()
    return xp.asarray(xp.nextafter(dev(x1, dt), dev(x2, dt)))


def _betainc(prim, a, b, x, out=None):
    dt = out.dtype.to_numpy()
    with np.errstate(all="ignore"):
        return xp.asarray(special().betainc(dev(a, dt), dev(b, dt), dev(x, dt))).astype(dt)


KERNELS = {
    "BesselI0": _unary("i0"), "BesselI0e": _unary("i0e"), "BesselI1": _unary("i1"), "BesselI1e": _unary("i1e"),
    "BesselJ0": _unary("j0"), "BesselJ1": _unary("j1"), "BesselY0": _unary("y0"), "BesselY1": _unary("y1"),
    "BesselK0": _unary("k0"), "BesselK0e": _unary("k0e"), "BesselK1": _unary("k1"), "BesselK1e": _unary("k1e"),
    "Lgamma": _unary("gammaln"), "Digamma": _unary("digamma"), "Polygamma": _polygamma, "Mvlgamma": _mvlgamma,
    "Igamma": _binary("gammainc"), "Igammac": _binary("gammaincc"), "IgammaGradA": _igamma_grad_a,
    "Zeta": _binary("zeta"), "NextAfter": _nextafter, "Betainc": _betainc,
}
