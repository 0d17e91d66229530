"""More elementwise primitives of MindSpore 2.10: ``Xdivy``, ``MulNoNan``, ``Rint``, ``Inv``, ``LeftShift``,
``RightShift``.

Each primitive is one block: class, ``infer_shape``, ``infer_dtype``, ``bprop`` (or ``NON_DIFFERENTIABLE``).
Their dtype rules follow MindSpore 2.10 (CPU): ``Xdivy`` takes float or complex tensors, ``Rint`` float ones,
``MulNoNan`` and ``Inv`` any number type, the shifts integer tensors of one dtype. Kernels live in the backends'
``kernels/math_more.py``.
"""
from mindspore._errors import MSTypeError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

_FLOATS = rules.FLOAT_TYPES
_INTS = rules.INT_TYPES


def _dtype_of(v):
    """The dtype of a tensor argument, or None for a Python scalar (it takes the tensor's dtype)."""
    return v if isinstance(v, mstype.Type) else None


class _Binary(Primitive):
    allowed = rules.NUMBER_TYPES

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, y):
        return rules.broadcast_shapes(self.name, x, y)

    def infer_dtype(self, x, y):
        for name, d in (("x", x), ("y", y)):
            if _dtype_of(d) is not None and d not in self.allowed:
                allowed = ", ".join(f"Tensor[{t}]" for t in self.allowed)
                raise MSTypeError(f"For primitive[{self.name}], the input argument[{name}] must be a type of "
                                  f"{{{allowed}}}, but got Tensor[{d}].")
        return rules.binary_dtype(self.name, x, y)


# --- Xdivy ----------------------------------------------------------------------------------
class Xdivy(_Binary):
    """``x / y``, and 0 wherever ``x`` is 0 (also where ``y`` is 0)."""

    allowed = _FLOATS + mstype.complex_type

    def bprop(self, x, y, out, dout):
        nonzero = fops.cast(fops.not_equal(x, 0), fops.dtype(dout))
        dx = fops.mul(dout, fops.xdivy(nonzero, y))
        dy = fops.mul(dout, fops.xdivy(fops.neg(x), fops.square(y)))
        return dx, dy


# --- MulNoNan -------------------------------------------------------------------------------
class MulNoNan(_Binary):
    """``x * y``, and 0 wherever ``y`` is 0 (even where ``x`` is inf or NaN)."""

    def bprop(self, x, y, out, dout):
        return self._grad_prim(MulNoNan)(dout, y), self._grad_prim(MulNoNan)(x, dout)


# --- shifts ---------------------------------------------------------------------------------
class _Shift(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, y):
        return rules.broadcast_shapes(self.name, x, y)

    def infer_dtype(self, x, y):
        for d in (x, y):
            if d not in _INTS:
                raise MSTypeError(f"For '{self.name}', the dtype of input should be one of "
                                  f"[Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64], but got {d}.")
        if x != y:
            raise MSTypeError(f"For '{self.name}', the dtype of two args should be same, but the first arg dtype "
                              f"{x} are not consistent with second arg dtype {y}")
        return x

    bprop = NON_DIFFERENTIABLE


class LeftShift(_Shift):
    """``x << y`` elementwise on integer tensors of one dtype."""


class RightShift(_Shift):
    """``x >> y`` (arithmetic for signed types) elementwise on integer tensors of one dtype."""


# --- unary ----------------------------------------------------------------------------------
class _Unary(Primitive):
    allowed = rules.NUMBER_TYPES

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return rules.check_rank(self.name, "x", x, range(0, 9))

    def infer_dtype(self, x):
        if x not in self.allowed:
            allowed = ", ".join(f"Tensor[{t}]" for t in self.allowed)
            raise MSTypeError(f"For primitive[{self.name}], the input argument[x] must be a type of {{{allowed}}}, "
                              f"but got Tensor[{x}].")
        return x


class Rint(_Unary):
    """Round to the nearest integer, halves to even, keeping the float dtype."""

    allowed = _FLOATS

    def bprop(self, x, out, dout):
        return (fops.zeros_like(x),)


class Inv(_Unary):
    """``1 / x`` keeping ``x``'s dtype (Int32/Int64 truncate towards zero; ``1 / 0`` is the dtype's minimum)."""

    allowed = (mstype.int32, mstype.int64) + _FLOATS + mstype.complex_type

    def bprop(self, x, out, dout):
        return (fops.neg(fops.mul(dout, fops.square(out))),)


PRIMITIVES = [Xdivy, MulNoNan, LeftShift, RightShift, Rint, Inv]
