"""Complex-number primitives of MindSpore 2.10: ``Complex``, ``Real``, ``Imag``, ``Conj``, ``Angle``,
``ComplexAbs``.

Each primitive is one block: class, ``infer_shape``, ``infer_dtype``, ``bprop``. ``Complex`` pairs float32
(float64) tensors into complex64 (complex128); the others take complex tensors, and ``Real``/``Imag``/
``Angle``/``ComplexAbs`` give the float of the same precision. Gradients of a real loss with respect to a
complex ``z = x + iy`` follow MindSpore's (and PyTorch's) convention ``dL/dx + i dL/dy``: ``Real`` sends
``dout`` back as ``dout + 0i``, ``Imag`` as ``0 + dout i``, ``Angle`` as ``dout * i z / |z|^2``, ``ComplexAbs``
as ``dout * z / |z|`` (0 at ``z = 0``), ``Conj`` as ``conj(dout)``, and ``Complex`` splits ``dout`` into its
real and imaginary parts. Kernels live in the backends' ``kernels/complex_ops.py``.
"""
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import Primitive, prim_attr_register

_COMPLEX = (mstype.complex64, mstype.complex128)
_REAL_OF = {mstype.complex64: mstype.float32, mstype.complex128: mstype.float64}
_COMPLEX_OF = {mstype.float32: mstype.complex64, mstype.float64: mstype.complex128}


class _ComplexUnary(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return tuple(x)

    def infer_dtype(self, x):
        return _REAL_OF[rules.check_dtype_in(self.name, "input", x, _COMPLEX)]


def _complex(re, im):
    return Complex()(re, im)


class Complex(Primitive):
    """``Complex()(real, imag)``: ``real + i * imag`` (broadcast; float32 -> complex64, float64 -> complex128)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, real, imag):
        return rules.broadcast_shapes(self.name, real, imag)

    def infer_dtype(self, real, imag):
        rules.check_dtype_in(self.name, "real", real, tuple(_COMPLEX_OF))
        return _COMPLEX_OF[rules.check_same_dtype(self.name, ("real", "imag"), (real, imag))]

    def bprop(self, real, imag, out, dout):
        return self._grad_prim(Real)(dout), self._grad_prim(Imag)(dout)


class Real(_ComplexUnary):
    """``Real()(x)``: the real part of a complex tensor."""

    def bprop(self, x, out, dout):
        return (_complex(dout, fops.zeros_like(dout)),)


class Imag(_ComplexUnary):
    """``Imag()(x)``: the imaginary part of a complex tensor."""

    def bprop(self, x, out, dout):
        return (_complex(fops.zeros_like(dout), dout),)


class Conj(Primitive):
    """``Conj()(x)``: the complex conjugate."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return tuple(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input", x, _COMPLEX)

    def bprop(self, x, out, dout):
        return (self._grad_prim(Conj)(dout),)


class Angle(_ComplexUnary):
    """``Angle()(x)``: the argument ``atan2(imag, real)`` of each element."""

    def bprop(self, x, out, dout):
        re, im = self._grad_prim(Real)(x), self._grad_prim(Imag)(x)
        r2 = fops.add(fops.square(re), fops.square(im))
        safe = fops.select(fops.equal(r2, 0), fops.ones_like(r2), r2)
        scale = fops.div(dout, safe)
        return (_complex(fops.neg(fops.mul(scale, im)), fops.mul(scale, re)),)


class ComplexAbs(_ComplexUnary):
    """``ComplexAbs()(x)``: the modulus ``|x|`` of each element."""

    def bprop(self, x, out, dout):
        safe = fops.select(fops.equal(out, 0), fops.ones_like(out), out)
        scale = fops.select(fops.equal(out, 0), fops.zeros_like(out), fops.div(dout, safe))
        return (_complex(fops.mul(scale, self._grad_prim(Real)(x)), fops.mul(scale, self._grad_prim(Imag)(x))),)


PRIMITIVES = [Complex, Real, Imag, Conj, Angle, ComplexAbs]
