"""GPU kernels of ``mindspore/ops/_defs/math_special.py`` on ``cupyx.scipy.special`` (the same functions as
the CPU backend's SciPy kernels) and ``cupy.nextafter``.

Half precision is computed in float32 and rounded once; every kernel returns the inferred dtype.
``IgammaGradA`` is the CPU kernel's fourth-order central difference of ``gammainc`` in float64.
"""
import cupy

from mindspore_gpu.kernels._common import special


def _work(x):
    x = cupy.asarray(x)
    return x.astype(cupy.float32) if x.dtype == cupy.float16 else x


def _unary(name):
    def kernel(prim, x, *, out):
        x = cupy.asarray(x)
        return getattr(special, name)(_work(x)).astype(x.dtype, copy=False)
    kernel.__name__ = f"gpu_{name}"
    return kernel


def _binary(name):
    def kernel(prim, x, y, *, out):
        dt = out.dtype.to_numpy()
        return getattr(special, name)(cupy.asarray(x, dtype=dt), cupy.asarray(y, dtype=dt)).astype(dt, copy=False)
    kernel.__name__ = f"gpu_{name}"
    return kernel


def _polygamma(prim, a, x, *, out):
    x = cupy.asarray(x)
    a, xw = cupy.broadcast_arrays(cupy.asarray(a), _work(x))
    res = cupy.where(a == 0, special.digamma(xw), special.polygamma(cupy.maximum(a, 1), xw))
    return res.astype(x.dtype, copy=False)


def _mvlgamma(prim, x, *, out):
    x = cupy.asarray(x)
    if x.size and not bool(cupy.all(x > (prim.p - 1) / 2.0)):
        raise ValueError(f"For 'Mvlgamma', all elements of 'x' must be greater than (p-1)/2 = "
                         f"{(prim.p - 1) / 2.0}.")
    wide = x.astype(cupy.float64)
    total = cupy.zeros(x.shape, cupy.float64)
    for j in range(prim.p):
        total = total + special.gammaln(wide - j / 2.0)
    total = total + prim.p * (prim.p - 1) / 4.0 * 1.1447298858494002   # log(pi)
    return total.astype(x.dtype)


def _igamma_grad_a(prim, a, x, *, out):
    dt = out.dtype.to_numpy()
    a, x = cupy.broadcast_arrays(cupy.asarray(a, dtype=cupy.float64), cupy.asarray(x, dtype=cupy.float64))
    h = 1e-3 * cupy.maximum(cupy.abs(a), 1e-2)
    f = special.gammainc
    d = (8.0 * (f(a + h, x) - f(a - h, x)) - (f(a + 2 * h, x) - f(a - 2 * h, x))) / (12.0 * h)
    return d.astype(dt)


def _nextafter(prim, x1, x2, *, out):
    dt = out.dtype.to_numpy()
    return cupy.nextafter(cupy.asarray(x1, dtype=dt), cupy.asarray(x2, dtype=dt))


def _betainc(prim, a, b, x, *, out):
    dt = out.dtype.to_numpy()
    return special.betainc(cupy.asarray(a, dtype=dt), cupy.asarray(b, dtype=dt), cupy.asarray(x, dtype=dt)).astype(dt)


KERNELS = {
    "BesselI0": _unary("i0"), "BesselI0e": _unary("i0e"), "BesselI1": _unary("i1"), "BesselI1e": _unary("i1e"),
    "BesselJ0": _unary("j0"), "BesselJ1": _unary("j1"), "BesselY0": _unary("y0"), "BesselY1": _unary("y1"),
    "BesselK0": _unary("k0"), "BesselK0e": _unary("k0e"), "BesselK1": _unary("k1"), "BesselK1e": _unary("k1e"),
    "Lgamma": _unary("gammaln"), "Digamma": _unary("digamma"), "Polygamma": _polygamma, "Mvlgamma": _mvlgamma,
    "Igamma": _binary("gammainc"), "Igammac": _binary("gammaincc"), "IgammaGradA": _igamma_grad_a,
    "Zeta": _binary("zeta"), "NextAfter": _nextafter, "Betainc": _betainc,
}
