"""MindSpore 2.10's special functions as ``mindspore.ops`` functions: the Bessel family (``ops.bessel_j0``,
``ops.i0``, ...), ``ops.lgamma``, ``ops.digamma``, ``ops.polygamma``, ``ops.mvlgamma``, ``ops.igamma``,
``ops.igammac``, ``ops.zeta``, ``ops.nextafter``.

Each calls its primitive of ``ops/_defs/math_special.py`` (one shared instance per primitive, so the dispatch
cache is reused); the primitives hold the dtype rules, the kernels and the derivatives.
"""
from mindspore._errors import MSTypeError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import math_special as _defs
from mindspore.ops._defs.array import cached_prim

__all__ = [
    "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0", "bessel_k0e",
    "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1", "i0", "lgamma", "digamma", "polygamma", "mvlgamma",
    "igamma", "igammac", "zeta", "nextafter",
]


def _tensor_arg(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")


def bessel_i0(x):
    """Modified Bessel function of the first kind of order 0, elementwise.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.bessel_i0(ms.Tensor([0.0, 1.0], ms.float32)))
        [1.        1.2660658]
    """
    return cached_prim(_defs.BesselI0)(x)


def bessel_i0e(x):
    """Exponentially scaled modified Bessel function of order 0, ``exp(-|x|) * I0(x)``.

    Examples:
        >>> print(ops.bessel_i0e(ms.Tensor([0.0, 1.0], ms.float32)))
        [1.         0.46575961]
    """
    return cached_prim(_defs.BesselI0e)(x)


def bessel_i1(x):
    """Modified Bessel function of the first kind of order 1, elementwise.

    Examples:
        >>> print(ops.bessel_i1(ms.Tensor([0.0, 1.0], ms.float32)))
        [0.        0.5651591]
    """
    return cached_prim(_defs.BesselI1)(x)


def bessel_i1e(x):
    """Exponentially scaled modified Bessel function of order 1, ``exp(-|x|) * I1(x)``.

    Examples:
        >>> print(ops.bessel_i1e(ms.Tensor([1.0], ms.float32)))
        [0.2079104]
    """
    return cached_prim(_defs.BesselI1e)(x)


def bessel_j0(x):
    """Bessel function of the first kind of order 0, elementwise.

    Examples:
        >>> print(ops.bessel_j0(ms.Tensor([0.0, 1.0], ms.float32)))
        [1.        0.7651977]
    """
    return cached_prim(_defs.BesselJ0)(x)


def bessel_j1(x):
    """Bessel function of the first kind of order 1, elementwise.

    Examples:
        >>> print(ops.bessel_j1(ms.Tensor([1.0], ms.float32)))
        [0.44005057]
    """
    return cached_prim(_defs.BesselJ1)(x)


def bessel_k0(x):
    """Modified Bessel function of the second kind of order 0 (NaN for negative ``x``).

    Examples:
        >>> print(ops.bessel_k0(ms.Tensor([1.0], ms.float32)))
        [0.42102444]
    """
    return cached_prim(_defs.BesselK0)(x)


def bessel_k0e(x):
    """Exponentially scaled modified Bessel function of the second kind of order 0, ``exp(x) * K0(x)``.

    Examples:
        >>> print(ops.bessel_k0e(ms.Tensor([1.0], ms.float32)))
        [1.1444631]
    """
    return cached_prim(_defs.BesselK0e)(x)


def bessel_k1(x):
    """Modified Bessel function of the second kind of order 1 (NaN for negative ``x``).

    Examples:
        >>> print(ops.bessel_k1(ms.Tensor([1.0], ms.float32)))
        [0.6019072]
    """
    return cached_prim(_defs.BesselK1)(x)


def bessel_k1e(x):
    """Exponentially scaled modified Bessel function of the second kind of order 1, ``exp(x) * K1(x)``.

    Examples:
        >>> print(ops.bessel_k1e(ms.Tensor([1.0], ms.float32)))
        [1.636153]
    """
    return cached_prim(_defs.BesselK1e)(x)


def bessel_y0(x):
    """Bessel function of the second kind of order 0 (NaN for negative ``x``).

    Examples:
        >>> print(ops.bessel_y0(ms.Tensor([1.0], ms.float32)))
        [0.08825696]
    """
    return cached_prim(_defs.BesselY0)(x)


def bessel_y1(x):
    """Bessel function of the second kind of order 1 (NaN for negative ``x``).

    Examples:
        >>> print(ops.bessel_y1(ms.Tensor([1.0], ms.float32)))
        [-0.7812128]
    """
    return cached_prim(_defs.BesselY1)(x)


def i0(input):
    """``ops.bessel_i0`` under PyTorch's name.

    Examples:
        >>> print(ops.i0(ms.Tensor([0.0, 1.0], ms.float32)))
        [1.        1.2660658]
    """
    return bessel_i0(input)


def lgamma(input):
    """``log|Gamma(input)|``, elementwise.

    Examples:
        >>> print(ops.lgamma(ms.Tensor([0.5, 3.0], ms.float32)))
        [0.5723649 0.6931472]
    """
    return cached_prim(_defs.Lgamma)(input)


def digamma(input):
    """The digamma function ``psi(input)``, the derivative of ``lgamma``.

    Examples:
        >>> print(ops.digamma(ms.Tensor([1.0], ms.float32)))
        [-0.5772157]
    """
    return cached_prim(_defs.Digamma)(input)


def polygamma(n, input):
    """The ``n``-th derivative of the digamma function at ``input`` (``n`` an int32/int64 tensor or an int).

    Examples:
        >>> print(ops.polygamma(ms.Tensor(1, ms.int64), ms.Tensor([1.0], ms.float32)))
        [1.644934]
    """
    if isinstance(n, int) and not isinstance(n, bool):
        n = Tensor(n, mstype.int64)
    return cached_prim(_defs.Polygamma)(n, input)


def mvlgamma(input, p):
    """The multivariate log-gamma function of dimension ``p``; every element must exceed ``(p - 1) / 2``.

    Examples:
        >>> print(ops.mvlgamma(ms.Tensor([[3.0, 4.0]], ms.float32), 2))
        [[1.4763395 2.7667813]]
    """
    return cached_prim(_defs.Mvlgamma, p)(input)


def igamma(input, other):
    """The regularized lower incomplete gamma function ``P(input, other)``.

    Examples:
        >>> print(ops.igamma(ms.Tensor([2.0], ms.float32), ms.Tensor([1.0], ms.float32)))
        [0.26424113]
    """
    return cached_prim(_defs.Igamma)(input, other)


def igammac(input, other):
    """The regularized upper incomplete gamma function ``Q(input, other) = 1 - P(input, other)``.

    Examples:
        >>> print(ops.igammac(ms.Tensor([2.0], ms.float32), ms.Tensor([1.0], ms.float32)))
        [0.73575884]
    """
    return cached_prim(_defs.Igammac)(input, other)


def zeta(input, other):
    """Hurwitz's zeta function ``sum_k (k + other)^-input``; a Python number is taken in the other's dtype.

    Examples:
        >>> print(ops.zeta(ms.Tensor([2.0], ms.float32), ms.Tensor([1.0], ms.float32)))
        [1.644934]
    """
    if not isinstance(input, Tensor) and isinstance(other, Tensor):
        input = Tensor(input, other.dtype)
    elif isinstance(input, Tensor) and not isinstance(other, Tensor):
        other = Tensor(other, input.dtype)
    _tensor_arg("zeta", "input", input)
    return cached_prim(_defs.Zeta)(input, other)


def nextafter(input, other):
    """The next representable float after ``input`` towards ``other``, elementwise.

    Examples:
        >>> import numpy as np
        >>> out = ops.nextafter(ms.Tensor([0.0], ms.float64), ms.Tensor([1.0], ms.float64))
        >>> print(out.asnumpy()[0] == np.nextafter(0.0, 1.0))
        True
    """
    return cached_prim(_defs.NextAfter)(input, other)
