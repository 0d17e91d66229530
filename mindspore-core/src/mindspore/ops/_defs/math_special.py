"""Special functions of MindSpore 2.10: the Bessel family (``BesselI0`` ... ``BesselY1``), ``Lgamma``,
``Digamma``, ``Polygamma``, ``Mvlgamma``, the regularized incomplete gamma functions ``Igamma``/``Igammac``
(with the private ``IgammaGradA``), Hurwitz's ``Zeta``, ``NextAfter`` and the regularized incomplete beta
function ``Betainc``.

Each primitive is one block: class, ``infer_shape``, ``infer_dtype``, ``bprop`` (or ``NON_DIFFERENTIABLE``).
The elementwise ones share :class:`_SpecialUnary` (float16/32/64, shape kept) and :class:`_SpecialBinary`
(broadcasting, both operands of one float32/float64 dtype), as MindSpore 2.10's CPU kernels accept them.
Kernels live in the backends' ``kernels/math_special.py`` (SciPy's ``scipy.special`` / CuPy's
``cupyx.scipy.special``; half precision is computed in float32).

Derivatives are the textbook identities (Abramowitz & Stegun 9.1.27, 9.6.26, 6.3, 6.5, 23.2; DLMF 8.8.13).
``d/dx I1(x) = I0(x) - I1(x)/x`` and its relatives take their limit 1/2 at ``x = 0``. As in MindSpore,
``Zeta`` has no gradient for its exponent ``x``, ``NextAfter`` passes ``dout`` to its first input only and
``Betainc`` differentiates in ``x`` only; ``Igamma``'s derivative in ``a`` has no closed form and is
``IgammaGradA``'s (a central difference of the float64 function in the kernels).
"""
import math

from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

_HALF_TO_DOUBLE = (mstype.float16, mstype.float32, mstype.float64)
_SINGLE_DOUBLE = (mstype.float32, mstype.float64)
_INDEX = (mstype.int32, mstype.int64)


def _where_zero(x, at_zero, elsewhere):
    """``elsewhere`` (computed with ``x`` replaced by 1 where it is 0) and ``at_zero`` at ``x == 0``."""
    return fops.select(fops.equal(x, 0), fops.add(fops.zeros_like(x), at_zero), elsewhere)


def _safe(x):
    return fops.select(fops.equal(x, 0), fops.ones_like(x), x)


class _SpecialUnary(Primitive):
    allowed = _HALF_TO_DOUBLE

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x"], outputs=["y"])

    def infer_shape(self, x):
        return rules.check_rank(self.name, "x", x, range(0, 9))

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, self.allowed)


class _SpecialBinary(Primitive):
    allowed = _SINGLE_DOUBLE
    names = ("x1", "x2")

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, y):
        return rules.broadcast_shapes(self.name, x, y)

    def infer_dtype(self, x, y):
        for name, d in zip(self.names, (x, y)):
            rules.check_dtype_in(self.name, name, d, self.allowed)
        return rules.check_same_dtype(self.name, self.names, (x, y))


# --- Bessel functions of the first kind, modified (I) -----------------------------------------
class BesselI0(_SpecialUnary):
    """Modified Bessel function of the first kind of order 0, elementwise."""

    def bprop(self, x, out, dout):
        return (fops.mul(dout, self._grad_prim(BesselI1)(x)),)


class BesselI0e(_SpecialUnary):
    """Exponentially scaled ``I0``: ``exp(-|x|) I0(x)``."""

    def bprop(self, x, out, dout):
        return (fops.mul(dout, fops.sub(self._grad_prim(BesselI1e)(x), fops.mul(fops.sign(x), out))),)


class BesselI1(_SpecialUnary):
    """Modified Bessel function of the first kind of order 1, elementwise."""

    def bprop(self, x, out, dout):
        grad = fops.sub(self._grad_prim(BesselI0)(x), fops.div(out, _safe(x)))
        return (fops.mul(dout, _where_zero(x, 0.5, grad)),)


class BesselI1e(_SpecialUnary):
    """Exponentially scaled ``I1``: ``exp(-|x|) I1(x)``."""

    def bprop(self, x, out, dout):
        grad = fops.sub(self._grad_prim(BesselI0e)(x), fops.mul(out, fops.add(fops.sign(x), fops.reciprocal(_safe(x)))))
        return (fops.mul(dout, _where_zero(x, 0.5, grad)),)


# --- Bessel functions of the first (J) and second (Y) kind -----------------------------------
class BesselJ0(_SpecialUnary):
    """Bessel function of the first kind of order 0, elementwise."""

    def bprop(self, x, out, dout):
        return (fops.neg(fops.mul(dout, self._grad_prim(BesselJ1)(x))),)


class BesselJ1(_SpecialUnary):
    """Bessel function of the first kind of order 1, elementwise."""

    def bprop(self, x, out, dout):
        grad = fops.sub(self._grad_prim(BesselJ0)(x), fops.div(out, _safe(x)))
        return (fops.mul(dout, _where_zero(x, 0.5, grad)),)


class BesselY0(_SpecialUnary):
    """Bessel function of the second kind of order 0 (NaN for ``x < 0``, ``-inf`` at 0)."""

    def bprop(self, x, out, dout):
        return (fops.neg(fops.mul(dout, self._grad_prim(BesselY1)(x))),)


class BesselY1(_SpecialUnary):
    """Bessel function of the second kind of order 1 (NaN for ``x < 0``, ``-inf`` at 0)."""

    def bprop(self, x, out, dout):
        return (fops.mul(dout, fops.sub(self._grad_prim(BesselY0)(x), fops.div(out, x))),)


# --- modified Bessel functions of the second kind (K) -----------------------------------------
class BesselK0(_SpecialUnary):
    """Modified Bessel function of the second kind of order 0 (NaN for ``x < 0``, ``inf`` at 0)."""

    def bprop(self, x, out, dout):
        return (fops.neg(fops.mul(dout, self._grad_prim(BesselK1)(x))),)


class BesselK0e(_SpecialUnary):
    """Exponentially scaled ``K0``: ``exp(x) K0(x)``."""

    def bprop(self, x, out, dout):
        return (fops.mul(dout, fops.sub(out, self._grad_prim(BesselK1e)(x))),)


class BesselK1(_SpecialUnary):
    """Modified Bessel function of the second kind of order 1 (NaN for ``x < 0``, ``inf`` at 0)."""

    def bprop(self, x, out, dout):
        return (fops.neg(fops.mul(dout, fops.add(self._grad_prim(BesselK0)(x), fops.div(out, x)))),)


class BesselK1e(_SpecialUnary):
    """Exponentially scaled ``K1``: ``exp(x) K1(x)``."""

    def bprop(self, x, out, dout):
        grad = fops.sub(fops.sub(out, self._grad_prim(BesselK0e)(x)), fops.div(out, x))
        return (fops.mul(dout, grad),)


# --- gamma family ---------------------------------------------------------------------------
class Lgamma(_SpecialUnary):
    """``log|Gamma(x)|``, elementwise (``inf`` at the poles 0, -1, -2, ...)."""

    def bprop(self, x, out, dout):
        return (fops.mul(dout, self._grad_prim(Digamma)(x)),)


class Digamma(_SpecialUnary):
    """``psi(x) = d/dx log Gamma(x)``, elementwise."""

    def bprop(self, x, out, dout):
        one = fops.ones_like(x)
        return (fops.mul(dout, self._grad_prim(Polygamma)(fops.cast(one, mstype.int64), x)),)


class Polygamma(Primitive):
    """``Polygamma()(a, x)``: the ``a``-th derivative of the digamma function at ``x`` (``a`` an integer
    tensor, broadcast against ``x``; the output has ``x``'s dtype)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["a", "x"], outputs=["y"])

    def infer_shape(self, a, x):
        return rules.broadcast_shapes(self.name, a, x)

    def infer_dtype(self, a, x):
        rules.check_dtype_in(self.name, "a", a, _INDEX)
        return rules.check_dtype_in(self.name, "x", x, _HALF_TO_DOUBLE)

    def bprop(self, a, x, out, dout):
        return fops.zeros_like(a), fops.mul(dout, self._grad_prim(Polygamma)(fops.add(a, 1), x))


class Mvlgamma(Primitive):
    """``Mvlgamma(p)(x)``: the multivariate log-gamma function of dimension ``p``,
    ``sum_{j<p} lgamma(x - j/2) + p(p-1)/4 log(pi)``; every element must exceed ``(p - 1) / 2``."""

    @prim_attr_register
    def __init__(self, p):
        rules.check_int(self.name, "p", p)
        if p < 1:
            raise MSValueError(f"For '{self.name}', the attr 'p' must be greater than or equal to 1, but got {p}.")

    def infer_shape(self, x):
        return rules.check_rank(self.name, "x", x, range(0, 9))

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _SINGLE_DOUBLE)

    def bprop(self, x, out, dout):
        total = fops.zeros_like(x)
        for j in range(self.p):
            total = fops.add(total, self._grad_prim(Digamma)(fops.sub(x, j / 2.0)))
        return (fops.mul(dout, total),)


# --- incomplete gamma functions ---------------------------------------------------------------
def _igamma_density(a, x):
    """``x^(a-1) exp(-x) / Gamma(a)``: the derivative of ``P(a, x)`` in ``x``."""
    log_density = fops.sub(fops.sub(fops.mul(fops.sub(a, 1.0), fops.log(x)), x), Lgamma()(a))
    return fops.exp(log_density)


class Igamma(_SpecialBinary):
    """``Igamma()(a, x)``: the regularized lower incomplete gamma function ``P(a, x)``."""

    names = ("a", "x")

    def bprop(self, a, x, out, dout):
        return fops.mul(dout, self._grad_prim(IgammaGradA)(a, x)), fops.mul(dout, _igamma_density(a, x))


class Igammac(_SpecialBinary):
    """``Igammac()(a, x)``: the regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``."""

    names = ("a", "x")

    def bprop(self, a, x, out, dout):
        return (fops.neg(fops.mul(dout, self._grad_prim(IgammaGradA)(a, x))),
                fops.neg(fops.mul(dout, _igamma_density(a, x))))


class IgammaGradA(_SpecialBinary):
    """``d P(a, x) / d a`` (MindSpore's internal gradient primitive of ``Igamma``)."""

    names = ("a", "x")
    bprop = NON_DIFFERENTIABLE


# --- Zeta / NextAfter / Betainc --------------------------------------------------------------
class Zeta(_SpecialBinary):
    """``Zeta()(x, q)``: Hurwitz's zeta function ``sum_k (k + q)^-x``."""

    names = ("x", "q")

    def bprop(self, x, q, out, dout):
        dq = fops.neg(fops.mul(fops.mul(dout, x), self._grad_prim(Zeta)(fops.add(x, 1.0), q)))
        return fops.zeros_like(x), dq


class NextAfter(_SpecialBinary):
    """``NextAfter()(x1, x2)``: the next representable float after ``x1`` towards ``x2``."""

    def bprop(self, x1, x2, out, dout):
        return dout, fops.zeros_like(x2)


class Betainc(Primitive):
    """``Betainc()(a, b, x)``: the regularized incomplete beta function ``I_x(a, b)`` (same shapes and
    float32/float64 dtype for the three inputs)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, a, b, x):
        return rules.check_same_shape(self.name, ("a", "b", "x"), (a, b, x))

    def infer_dtype(self, a, b, x):
        for name, d in (("a", a), ("b", b), ("x", x)):
            rules.check_dtype_in(self.name, name, d, _SINGLE_DOUBLE)
        return rules.check_same_dtype(self.name, ("a", "b", "x"), (a, b, x))

    def bprop(self, a, b, x, out, dout):
        lgamma = self._grad_prim(Lgamma)
        log_beta = fops.sub(fops.add(lgamma(a), lgamma(b)), lgamma(fops.add(a, b)))
        log_density = fops.add(fops.mul(fops.sub(a, 1.0), fops.log(x)),
                               fops.mul(fops.sub(b, 1.0), fops.log1p(fops.neg(x))))
        dx = fops.mul(dout, fops.exp(fops.sub(log_density, log_beta)))
        return fops.zeros_like(a), fops.zeros_like(b), dx


#: ``log(pi) / 4``, the constant term's factor of ``Mvlgamma`` (shared with the kernels' docs).
LOG_PI_OVER_4 = math.log(math.pi) / 4.0

PRIMITIVES = [BesselI0, BesselI0e, BesselI1, BesselI1e, BesselJ0, BesselJ1, BesselY0, BesselY1, BesselK0,
              BesselK0e, BesselK1, BesselK1e, Lgamma, Digamma, Polygamma, Mvlgamma, Igamma, Igammac, IgammaGradA,
              Zeta, NextAfter, Betainc]
