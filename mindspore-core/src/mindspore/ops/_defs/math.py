"""Elementwise math: arithmetic, unary functions, comparisons, logic and bit operations.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop`` (or
``NON_DIFFERENTIABLE``). Most blocks only add a bprop to one of the small rule bases below, which
hold the dtype policy of a group of ops:

* arithmetic (``Add``, ``Mul``, ``Maximum``, ...): MindSpore promotion (``common.dtype``); a Python
  scalar never widens a tensor within its category; ``bool + bool`` is logical OR;
* true division and float functions of two inputs (``RealDiv``, ``Div``, ``Atan2``, ...): an integer
  or bool result becomes Float32 (``int32 / int32 -> Float32``);
* float functions of one input (``Exp``, ``Sin``, ...): integer or bool input gives Float32;
* comparisons, logic and predicates return Bool; bit operations need integer or bool inputs.

Either operand of a binary op may be a Python scalar (``Tensor.__radd__`` calls ``add(2, x)``); the
bprops therefore only call ops that accept scalars on that side. As in MindSpore 2.10, ``Less`` and ``Equal``
refuse a number as their first input, ``Xlogy`` refuses one on either side and the logical ops take only a bool.
Matrix products, accumulations and ``Einsum`` live in :mod:`mindspore.ops._defs.math_ext`. Kernels live in the
backends' ``kernels/math.py``.
"""
import numpy as np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.evaluate import dtype_view
from mindspore._core import interpreters as _interpreters
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, TensorSpec, prim_attr_register

_INT_OR_BOOL = (mstype.bool_,) + rules.INT_TYPES
_REAL_TYPES = (mstype.bool_,) + rules.INT_TYPES + rules.FLOAT_TYPES
_REAL_NUMBERS = rules.INT_TYPES + rules.FLOAT_TYPES
_TWO_OVER_SQRT_PI = 1.1283791670955126
_PI = 3.141592653589793


def to_float(dtype):
    """Float32 for an integer or bool dtype (true division, float functions); other dtypes unchanged."""
    if mstype.is_float(dtype) or mstype.is_complex(dtype):
        return dtype
    return mstype.float32


def _check_result(op, out, allowed):
    if out not in allowed:
        raise MSTypeError(f"For '{op}', the type of the inputs must be in {[str(t) for t in allowed]} after "
                          f"type promotion, but got {out}.")
    return out


def _mask(cond, like):
    """A 0/1 tensor of ``like``'s dtype from a Bool tensor (keeps bprops free of ``select``)."""
    return fops.cast(cond, like.dtype)


# --- rule bases -----------------------------------------------------------------------------
class _Binary(Primitive):
    """Broadcasting binary op: result shape by broadcasting, dtype by MindSpore promotion."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, y):
        return rules.broadcast_shapes(self.name, x, y)

    def infer_dtype(self, x, y):
        return rules.binary_dtype(self.name, x, y)


class _NumberBinary(_Binary):
    """Arithmetic that is not defined on two bools (the result must be a number type)."""

    def infer_dtype(self, x, y):
        return _check_result(self.name, rules.binary_dtype(self.name, x, y), rules.NUMBER_TYPES)


class _RealBinary(_Binary):
    """Arithmetic on real numbers (no bool result, no complex)."""

    def infer_dtype(self, x, y):
        return _check_result(self.name, rules.binary_dtype(self.name, x, y), _REAL_NUMBERS)


class _FloatBinary(_Binary):
    """True division and float functions of two inputs: integer or bool results become Float32."""

    allowed = _REAL_TYPES + mstype.complex_type

    def infer_dtype(self, x, y):
        return to_float(_check_result(self.name, rules.binary_dtype(self.name, x, y), self.allowed))


class _Compare(_Binary):
    """Elementwise comparison: inputs promote as for arithmetic, the result is Bool."""

    allowed = rules.ALL_TYPES

    def infer_dtype(self, x, y):
        _check_result(self.name, rules.binary_dtype(self.name, x, y), self.allowed)
        return mstype.bool_

    bprop = NON_DIFFERENTIABLE


class _Ordered(_Compare):
    """Ordering comparison: complex numbers are not ordered."""

    allowed = _REAL_TYPES


def _staging():
    return any(interp.kind == "staging" for interp in _interpreters.STACK)


def refuse_number_input(prim_name, x, y, other_kinds):
    """2.10's signature check of ``Less`` and ``Equal``: ``input`` must be a Tensor (only ``other`` converts a
    Python number), in ``infer_dtype`` terms a dtype, not a number. GRAPH_MODE names the number by its dtype."""
    if isinstance(x, mstype.Type) or not rules.is_scalar(x):
        return
    if _staging():
        raise MSTypeError(f'Failed calling {prim_name} with "input={mstype.default_scalar_dtype(x)}".\n'
                          f'The valid calling should be: "input=<Tensor>, other=<{other_kinds}>".')
    other = "Tensor" if isinstance(y, mstype.Type) else type(y).__name__
    raise MSTypeError(f'Failed calling {prim_name} with "{prim_name}()(input={type(x).__name__}, other={other})".\n'
                      f'The valid calling should be: \n"{prim_name}()(input=<Tensor>, other=<{other_kinds}>)".')


def refuse_numbers(prim_name, x, y, names, valid, allow_bool=False):
    """2.10's signature check of ``Xlogy`` and the logical ops: neither input may be a Python number (a bool may,
    with ``allow_bool``); ``valid`` names what each input takes. GRAPH_MODE names a number by its dtype."""
    args = (x, y)
    bad = [i for i, a in enumerate(args) if not isinstance(a, mstype.Type) and rules.is_scalar(a)
           and not (allow_bool and isinstance(a, (bool, np.bool_)))]
    if not bad:
        return
    if _staging():
        got = ", ".join(f"{names[i]}={mstype.default_scalar_dtype(args[i])}" for i in bad)
        raise MSTypeError(f'Failed calling {prim_name} with "{got}".\nThe valid calling should be: '
                          f'"{names[0]}=<{valid}>, {names[1]}=<{valid}>".')
    got = ", ".join(f"{n}={'Tensor' if isinstance(a, mstype.Type) else type(a).__name__}" for n, a in zip(names, args))
    raise MSTypeError(f'Failed calling {prim_name} with "{prim_name}()({got})".\nThe valid calling should be: \n'
                      f'"{prim_name}()({names[0]}=<{valid}>, {names[1]}=<{valid}>)".')


class _Bitwise(_Binary):
    """Bit operation: integer or bool inputs, promoted."""

    def infer_dtype(self, x, y):
        return _check_result(self.name, rules.binary_dtype(self.name, x, y), _INT_OR_BOOL)

    bprop = NON_DIFFERENTIABLE


class _Unary(Primitive):
    """Elementwise op of one tensor keeping its dtype."""

    allowed = rules.ALL_TYPES

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return rules.check_rank(self.name, "x", x, range(0, 9))

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, self.allowed)


class _FloatUnary(_Unary):
    """Float function of one tensor: an integer or bool input gives Float32."""

    allowed = rules.ALL_TYPES

    def infer_dtype(self, x):
        return to_float(rules.check_dtype_in(self.name, "x", x, self.allowed))


class _Predicate(_Unary):
    """Elementwise test returning Bool."""

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "x", x, self.allowed)
        return mstype.bool_

    bprop = NON_DIFFERENTIABLE


def _zero_grads(dout):
    """Gradients of a piecewise-constant op of two inputs (the engine reduces them to each shape)."""
    z = fops.zeros_like(dout)
    return z, z


# --- Add ------------------------------------------------------------------------------------
class Add(_Binary):
    """``x + y`` with broadcasting; ``bool + bool`` is logical OR."""

    def bprop(self, x, y, out, dout):
        return dout, dout


class AddV2(Add):
    """``AddV2()(x, y)``: ``x + y`` of two number tensors of one shape (2.10's ``math_ops.AddV2``: it neither
    broadcasts nor takes bools)."""

    def infer_shape(self, x, y):
        x, y = (tuple(s) if isinstance(s, (tuple, list)) else () for s in (x, y))    # a number: shape []
        if x != y:
            raise MSValueError(f"For primitive[{self.name}], the input_shape: {list(x)} must be equal to {list(y)}.")
        return x

    def infer_dtype(self, x, y):
        return _check_result(self.name, rules.binary_dtype(self.name, x, y), rules.NUMBER_TYPES)


# --- Sub ------------------------------------------------------------------------------------
class Sub(_NumberBinary):
    """``x - y`` with broadcasting (not defined on two bools)."""

    def bprop(self, x, y, out, dout):
        need_y = self._grads_needed(2)[1]
        return dout, fops.neg(dout) if need_y else None


def _conj(t):
    """``conj(t)`` for a complex tensor, ``t`` itself otherwise. Complex gradients follow the conjugate
    convention (PyTorch's): the gradient of ``x * y`` with respect to ``x`` is ``dout * conj(y)``, so that
    ``Real``/``Imag``/``Complex`` and the products agree."""
    dtype = getattr(t, "dtype", None)
    if isinstance(dtype, mstype.Type) and mstype.is_complex(dtype):
        return fops.conj(t)
    return t


# --- Mul ------------------------------------------------------------------------------------
def _is_number(v):
    """Whether an operand is a Python number: a constant, whose gradient nobody reads (not computed)."""
    return isinstance(v, (bool, int, float, complex))


def _zero_dim_as_number(x, y):
    """The dtypes ``infer_dtype`` sees for MindSpore 2.10's ``Mul`` and ``Div``: a 0-d tensor beside a tensor of
    rank >= 1 of the same category (float and float, integer and integer) does not widen it, as a Python number
    would not (``float16[2, 2] * float32[]`` is Float16, ``int16[3] * int64[]`` Int16); across categories the usual
    promotion holds (``int32[2, 2] * float64[]`` is Float64). Other binary ops (``Add``, ``RealDiv``, ...)
    promote 0-d tensors like any other."""
    if type(x) is not TensorSpec or type(y) is not TensorSpec or x.shape is None or y.shape is None:
        return dtype_view((x, y))
    if (x.shape == ()) != (y.shape == ()) and mstype.category(x.dtype) == mstype.category(y.dtype):
        wide = y.dtype if x.shape == () else x.dtype
        return wide, wide
    return x.dtype, y.dtype


class Mul(_Binary):
    """``x * y`` with broadcasting; ``bool * bool`` is logical AND. A 0-d tensor operand promotes as a Python
    number would (:func:`_zero_dim_as_number`)."""

    def infer_dtype_of_specs(self, x, y):
        return self.infer_dtype(*_zero_dim_as_number(x, y))

    def bprop(self, x, y, out, dout):
        need_x, need_y = self._grads_needed(2)
        dx = None if _is_number(x) or not need_x else fops.mul(dout, _conj(y))
        dy = None if _is_number(y) or not need_y else fops.mul(dout, _conj(x))
        return dx, dy


# --- RealDiv --------------------------------------------------------------------------------
class RealDiv(_FloatBinary):
    """``x / y`` (true division; integer inputs give Float32)."""

    def bprop(self, x, y, out, dout):
        need_y = self._grads_needed(2)[1]
        dx = fops.div(dout, _conj(y))
        return dx, fops.neg(fops.mul(dx, _conj(out))) if need_y else None


# --- Div ------------------------------------------------------------------------------------
class Div(_FloatBinary):
    """``x / y`` (true division; integer inputs give Float32). A 0-d tensor operand promotes as a Python number
    would (:func:`_zero_dim_as_number`)."""

    def infer_dtype_of_specs(self, x, y):
        return self.infer_dtype(*_zero_dim_as_number(x, y))

    def bprop(self, x, y, out, dout):
        need_y = self._grads_needed(2)[1]
        dx = fops.div(dout, _conj(y))
        return dx, fops.neg(fops.mul(dx, _conj(out))) if need_y else None


# --- DivNoNan -------------------------------------------------------------------------------
class DivNoNan(_FloatBinary):
    """``x / y``, and 0 wherever ``y`` is 0."""

    def bprop(self, x, y, out, dout):
        dx = _div_no_nan(dout, y)
        return dx, fops.neg(fops.mul(dx, out))


_div_no_nan = DivNoNan()


# --- FloorDiv -------------------------------------------------------------------------------
class FloorDiv(_RealBinary):
    """``floor(x / y)``; integer inputs stay integer (``int32 // int32 -> Int32``). Two bools give a bool, as in
    MindSpore: the integer quotient (a division by zero saturating) cast back, which is ``x`` itself."""

    def infer_dtype(self, x, y):
        if x is mstype.bool_ and y is mstype.bool_:
            return mstype.bool_
        return super().infer_dtype(x, y)

    def bprop(self, x, y, out, dout):
        return _zero_grads(dout)


# --- FloorMod -------------------------------------------------------------------------------
class FloorMod(_RealBinary):
    """``x - floor(x / y) * y``: the remainder has the sign of ``y`` (Python's ``%``)."""

    def bprop(self, x, y, out, dout):
        return dout, fops.neg(fops.mul(dout, fops.floor_divide(x, y)))


# --- Mod ------------------------------------------------------------------------------------
class Mod(_RealBinary):
    """``x - trunc(x / y) * y``: the remainder has the sign of ``x`` (C's ``fmod``)."""

    def bprop(self, x, y, out, dout):
        return dout, fops.neg(fops.mul(dout, fops.truncate_div(x, y)))


# --- TruncateDiv ----------------------------------------------------------------------------
class TruncateDiv(_RealBinary):
    """``x / y`` rounded towards zero."""

    def bprop(self, x, y, out, dout):
        return _zero_grads(dout)


# --- TruncateMod ----------------------------------------------------------------------------
class TruncateMod(_RealBinary):
    """``x - trunc(x / y) * y`` (the remainder has the sign of ``x``)."""

    def bprop(self, x, y, out, dout):
        return dout, fops.neg(fops.mul(dout, fops.truncate_div(x, y)))


# --- Pow ------------------------------------------------------------------------------------
class Pow(_NumberBinary):
    """``x ** y`` with broadcasting."""

    def bprop(self, x, y, out, dout):
        dx = fops.mul(fops.mul(dout, y), fops.pow(x, fops.sub(y, 1)))
        # d/dy x**y = x**y log(x), taken as 0 where x <= 0 (where the real power has no derivative in y)
        positive = _mask(fops.greater(x, 0), dout)
        safe_x = fops.add(fops.mul(x, positive), fops.sub(1, positive))
        dy = fops.mul(fops.mul(dout, out), fops.mul(fops.log(safe_x), positive))
        return dx, dy


# --- Maximum --------------------------------------------------------------------------------
class Maximum(_Binary):
    """Elementwise maximum (NaN propagates); on ties each input gets half the gradient (MindSpore 2.10's
    MaximumGrad; integer gradients go to ``x``)."""

    def infer_dtype(self, x, y):
        return _check_result(self.name, rules.binary_dtype(self.name, x, y), _REAL_TYPES)

    def bprop(self, x, y, out, dout):
        take_x = _share_of_x(fops.greater(x, y), x, y, dout)
        return fops.mul(dout, take_x), fops.sub(dout, fops.mul(dout, take_x))


def _share_of_x(wins, x, y, dout):
    """The share of ``dout`` that goes to ``x`` of a maximum/minimum: 1 where ``x`` wins, 1/2 on a tie (for float
    gradients; an integer one goes to ``x``)."""
    tie = fops.equal(y, x) if rules.is_scalar(x) else fops.equal(x, y)   # (Equal refuses a number first)
    if not mstype.is_float(dout.dtype):
        return _mask(fops.logical_or(wins, tie), dout)
    return fops.add(_mask(wins, dout), fops.mul(_mask(tie, dout), 0.5))


# --- Minimum --------------------------------------------------------------------------------
class Minimum(_Binary):
    """Elementwise minimum (NaN propagates); on ties each input gets half the gradient (as Maximum)."""

    def infer_dtype(self, x, y):
        return _check_result(self.name, rules.binary_dtype(self.name, x, y), _REAL_TYPES)

    def bprop(self, x, y, out, dout):
        take_x = _share_of_x(fops.greater(y, x), x, y, dout)   # x < y (Less refuses a number first)
        return fops.mul(dout, take_x), fops.sub(dout, fops.mul(dout, take_x))


# --- SquaredDifference ----------------------------------------------------------------------
class SquaredDifference(_NumberBinary):
    """``(x - y) ** 2``."""

    def bprop(self, x, y, out, dout):
        dx = fops.mul(fops.mul(dout, 2), fops.sub(x, y))
        return dx, fops.neg(dx)


# --- Atan2 ----------------------------------------------------------------------------------
class Atan2(_FloatBinary):
    """``atan2(x, y)``: the angle of the point ``(y, x)``."""

    allowed = _REAL_TYPES

    def bprop(self, x, y, out, dout):
        scale = fops.div(dout, fops.add(fops.square(x), fops.square(y)))
        return fops.mul(scale, y), fops.neg(fops.mul(scale, x))


# --- Xlogy ----------------------------------------------------------------------------------
class Xlogy(_FloatBinary):
    """``x * log(y)``, and 0 wherever ``x`` is 0; both inputs Tensors (``ops.xlogy`` converts a number first)."""

    allowed = _REAL_TYPES

    def infer_dtype(self, x, y):
        refuse_numbers(self.name, x, y, ("input", "other"), "Tensor")
        return super().infer_dtype(x, y)

    def bprop(self, x, y, out, dout):
        nonzero = _mask(fops.not_equal(x, 0), dout)
        dx = fops.mul(dout, fops.xlogy(nonzero, y))
        dy = fops.mul(dout, _div_no_nan(x, y))
        return dx, dy


# --- Hypot ----------------------------------------------------------------------------------
class Hypot(_FloatBinary):
    """``sqrt(x**2 + y**2)``."""

    allowed = _REAL_TYPES

    def bprop(self, x, y, out, dout):
        scale = _div_no_nan(dout, out)
        return fops.mul(scale, x), fops.mul(scale, y)


# --- Fmax -----------------------------------------------------------------------------------
class Fmax(_Binary):
    """Elementwise maximum ignoring NaN (NaN only where both are NaN)."""

    def infer_dtype(self, x, y):
        return _check_result(self.name, rules.binary_dtype(self.name, x, y), _REAL_NUMBERS)

    def bprop(self, x, y, out, dout):
        take_x = _mask(fops.logical_or(fops.greater_equal(x, y), fops.isnan(y)), dout)
        return fops.mul(dout, take_x), fops.sub(dout, fops.mul(dout, take_x))


# --- Fmin -----------------------------------------------------------------------------------
class Fmin(_Binary):
    """Elementwise minimum ignoring NaN (NaN only where both are NaN)."""

    def infer_dtype(self, x, y):
        return _check_result(self.name, rules.binary_dtype(self.name, x, y), _REAL_NUMBERS)

    def bprop(self, x, y, out, dout):
        take_x = _mask(fops.logical_or(fops.less_equal(x, y), fops.isnan(y)), dout)
        return fops.mul(dout, take_x), fops.sub(dout, fops.mul(dout, take_x))


# --- Gcd ------------------------------------------------------------------------------------
class Gcd(_Binary):
    """The greatest common divisor of integer tensors (non-negative)."""

    def infer_dtype(self, x, y):
        return _check_result(self.name, rules.binary_dtype(self.name, x, y), rules.INT_TYPES)

    bprop = NON_DIFFERENTIABLE


# --- Lcm ------------------------------------------------------------------------------------
class Lcm(_Binary):
    """The least common multiple of integer tensors (non-negative)."""

    def infer_dtype(self, x, y):
        return _check_result(self.name, rules.binary_dtype(self.name, x, y), rules.INT_TYPES)

    bprop = NON_DIFFERENTIABLE


# --- Heaviside ------------------------------------------------------------------------------
class Heaviside(_Binary):
    """``Heaviside()(x, values)``: 0 where ``x < 0``, ``values`` where ``x == 0``, 1 where ``x > 0``."""

    def infer_dtype(self, x, values):
        return _check_result(self.name, rules.binary_dtype(self.name, x, values), _REAL_NUMBERS)

    bprop = NON_DIFFERENTIABLE


# --- IsClose --------------------------------------------------------------------------------
class IsClose(_Binary):
    """``IsClose(rtol=1e-05, atol=1e-08, equal_nan=True)(x, y)``: ``|x - y| <= atol + rtol * |y|``."""

    @prim_attr_register
    def __init__(self, rtol=1e-05, atol=1e-08, equal_nan=True):
        for name, v in (("rtol", rtol), ("atol", atol)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise MSTypeError(f"For '{self.name}', the '{name}' must be a float, but got {type(v).__name__}.")
        rules.check_bool(self.name, "equal_nan", equal_nan)

    def infer_dtype(self, x, y):
        _check_result(self.name, rules.binary_dtype(self.name, x, y), _REAL_TYPES)
        return mstype.bool_

    bprop = NON_DIFFERENTIABLE


# --- Neg ------------------------------------------------------------------------------------
class Neg(_Unary):
    """``-x``."""

    allowed = rules.NUMBER_TYPES

    def bprop(self, x, out, dout):
        return (fops.neg(dout),)


# --- Abs ------------------------------------------------------------------------------------
class Abs(_Unary):
    """``|x|`` (the gradient at 0 is 0); complex input keeps its dtype (``|z| + 0j``, as MindSpore 2.10), its
    gradient ``dout * z / |z|``."""

    allowed = _REAL_TYPES + rules.COMPLEX_TYPES

    def bprop(self, x, out, dout):
        return (fops.mul(dout, fops.sign(x)),)


# --- Square ---------------------------------------------------------------------------------
class Square(_Unary):
    """``x * x``."""

    allowed = rules.NUMBER_TYPES

    def bprop(self, x, out, dout):
        return (fops.mul(fops.mul(dout, 2), _conj(x)),)


# --- Reciprocal -----------------------------------------------------------------------------
class Reciprocal(_FloatUnary):
    """``1 / x``."""

    def bprop(self, x, out, dout):
        return (fops.neg(fops.mul(dout, _conj(fops.square(out)))),)


# --- Sqrt -----------------------------------------------------------------------------------
class Sqrt(_FloatUnary):
    """``sqrt(x)``."""

    def bprop(self, x, out, dout):
        return (fops.div(fops.mul(dout, 0.5), _conj(out)),)


# --- Rsqrt ----------------------------------------------------------------------------------
class Rsqrt(_FloatUnary):
    """``1 / sqrt(x)``."""

    def bprop(self, x, out, dout):
        return (fops.mul(fops.mul(dout, -0.5), _conj(fops.mul(out, fops.square(out)))),)


# --- Exp ------------------------------------------------------------------------------------
class Exp(_FloatUnary):
    """``e ** x``."""

    def bprop(self, x, out, dout):
        return (fops.mul(dout, _conj(out)),)


# --- Log ------------------------------------------------------------------------------------
class Log(_FloatUnary):
    """The natural logarithm."""

    def bprop(self, x, out, dout):
        return (fops.div(dout, _conj(x)),)


# --- Log1p ----------------------------------------------------------------------------------
class Log1p(_FloatUnary):
    """``log(1 + x)``, accurate for small ``x``."""

    allowed = _REAL_TYPES + rules.COMPLEX_TYPES

    def bprop(self, x, out, dout):
        return (fops.div(dout, _conj(fops.add(x, 1))),)


# --- Expm1 ----------------------------------------------------------------------------------
class Expm1(_FloatUnary):
    """``exp(x) - 1``, accurate for small ``x``."""

    allowed = _REAL_TYPES + rules.COMPLEX_TYPES

    def bprop(self, x, out, dout):
        return (fops.mul(dout, _conj(fops.add(out, 1))),)


# --- Sign -----------------------------------------------------------------------------------
class Sign(_Unary):
    """-1, 0 or 1 by the sign of ``x`` (NaN stays NaN); ``z / |z|`` (0 at 0) for complex ``z``."""

    allowed = _REAL_NUMBERS + rules.COMPLEX_TYPES

    def bprop(self, x, out, dout):
        return (fops.zeros_like(x),)


# --- Floor ----------------------------------------------------------------------------------
class Floor(_Unary):
    """Round towards minus infinity."""

    allowed = _REAL_NUMBERS

    def bprop(self, x, out, dout):
        return (fops.zeros_like(x),)


# --- Ceil -----------------------------------------------------------------------------------
class Ceil(_Unary):
    """Round towards plus infinity."""

    allowed = _REAL_NUMBERS

    def bprop(self, x, out, dout):
        return (fops.zeros_like(x),)


# --- Trunc ----------------------------------------------------------------------------------
class Trunc(_Unary):
    """Round towards zero."""

    allowed = _REAL_NUMBERS

    def bprop(self, x, out, dout):
        return (fops.zeros_like(x),)


# --- Round ----------------------------------------------------------------------------------
class Round(_Unary):
    """``Round()(x, decimals=0)``: round half to even, to ``decimals`` decimal places."""

    allowed = _REAL_NUMBERS

    def __call__(self, x, decimals=0):
        return super().__call__(x, decimals)

    def infer_shape(self, x, decimals=0):
        rules.check_int(self.name, "decimals", decimals)
        return rules.check_rank(self.name, "x", x, range(0, 9))

    def infer_dtype(self, x, decimals=0):
        return rules.check_dtype_in(self.name, "x", x, self.allowed)

    def bprop(self, x, decimals, out, dout):
        return fops.zeros_like(x), None


# --- Sin ------------------------------------------------------------------------------------
class Sin(_FloatUnary):
    """The sine."""

    def bprop(self, x, out, dout):
        return (fops.mul(dout, _conj(fops.cos(x))),)


# --- Cos ------------------------------------------------------------------------------------
class Cos(_FloatUnary):
    """The cosine."""

    def bprop(self, x, out, dout):
        return (fops.neg(fops.mul(dout, _conj(fops.sin(x)))),)


# --- Tan ------------------------------------------------------------------------------------
class Tan(_FloatUnary):
    """The tangent."""

    def bprop(self, x, out, dout):
        return (fops.mul(dout, _conj(fops.add(fops.square(out), 1))),)


# --- Asin -----------------------------------------------------------------------------------
class Asin(_FloatUnary):
    """The inverse sine."""

    def bprop(self, x, out, dout):
        return (fops.mul(dout, _conj(fops.rsqrt(fops.sub(1, fops.square(x))))),)


# --- ACos -----------------------------------------------------------------------------------
class ACos(_FloatUnary):
    """The inverse cosine."""

    def bprop(self, x, out, dout):
        return (fops.neg(fops.mul(dout, _conj(fops.rsqrt(fops.sub(1, fops.square(x)))))),)


# --- Atan -----------------------------------------------------------------------------------
class Atan(_FloatUnary):
    """The inverse tangent."""

    def bprop(self, x, out, dout):
        return (fops.div(dout, _conj(fops.add(fops.square(x), 1))),)


# --- Sinh -----------------------------------------------------------------------------------
class Sinh(_FloatUnary):
    """The hyperbolic sine."""

    def bprop(self, x, out, dout):
        return (fops.mul(dout, _conj(fops.cosh(x))),)


# --- Cosh -----------------------------------------------------------------------------------
class Cosh(_FloatUnary):
    """The hyperbolic cosine."""

    def bprop(self, x, out, dout):
        return (fops.mul(dout, _conj(fops.sinh(x))),)


# --- Tanh -----------------------------------------------------------------------------------
class Tanh(_FloatUnary):
    """The hyperbolic tangent."""

    def bprop(self, x, out, dout):
        if out.dtype is mstype.float16:
            # MindSpore's TanhGrad kernel computes ``dout * (1 - out**2)`` in float32 and rounds once
            out32, dout32 = fops.cast(out, mstype.float32), fops.cast(dout, mstype.float32)
            return (fops.cast(fops.mul(dout32, fops.sub(1, fops.square(out32))), mstype.float16),)
        if out.dtype is mstype.float32:
            # the kernel's ``1 - out**2`` is one fused multiply-add (rounded once): exact in float64, then rounded
            out64 = fops.cast(out, mstype.float64)
            return (fops.mul(dout, fops.cast(fops.sub(1, fops.square(out64)), mstype.float32)),)
        return (fops.mul(dout, _conj(fops.sub(1, fops.square(out)))),)


# --- Asinh ----------------------------------------------------------------------------------
class Asinh(_FloatUnary):
    """The inverse hyperbolic sine."""

    def bprop(self, x, out, dout):
        return (fops.div(dout, _conj(fops.cosh(out))),)


# --- Acosh ----------------------------------------------------------------------------------
class Acosh(_FloatUnary):
    """The inverse hyperbolic cosine."""

    def bprop(self, x, out, dout):
        return (fops.div(dout, _conj(fops.sinh(out))),)


# --- Atanh ----------------------------------------------------------------------------------
class Atanh(_FloatUnary):
    """The inverse hyperbolic tangent."""

    def bprop(self, x, out, dout):
        return (fops.div(dout, _conj(fops.sub(1, fops.square(x)))),)


# --- Erf ------------------------------------------------------------------------------------
class Erf(_FloatUnary):
    """The Gauss error function."""

    allowed = _REAL_TYPES

    def bprop(self, x, out, dout):
        # dout * (2/sqrt(pi) * exp(-x^2)), the constant in x's dtype: 2.10's rounding order (float16 shows it)
        return (fops.mul(dout, fops.mul(fops.exp(fops.neg(fops.square(x))), _TWO_OVER_SQRT_PI)),)


# --- Erfc -----------------------------------------------------------------------------------
class Erfc(_FloatUnary):
    """The complementary error function ``1 - erf(x)``."""

    allowed = _REAL_TYPES

    def bprop(self, x, out, dout):
        return (fops.mul(fops.mul(dout, -_TWO_OVER_SQRT_PI), fops.exp(fops.neg(fops.square(x)))),)


# --- Erfinv ---------------------------------------------------------------------------------
class Erfinv(_FloatUnary):
    """The inverse error function on ``[-1, 1]``."""

    allowed = _REAL_TYPES

    def bprop(self, x, out, dout):
        return (fops.mul(fops.mul(dout, 1.0 / _TWO_OVER_SQRT_PI), fops.exp(fops.square(out))),)


# --- Sinc -----------------------------------------------------------------------------------
class Sinc(_FloatUnary):
    """The normalised sinc ``sin(pi x) / (pi x)`` (1 at 0)."""

    allowed = _REAL_TYPES + rules.COMPLEX_TYPES

    def bprop(self, x, out, dout):
        # d/dx sinc(x) = (cos(pi x) - sinc(x)) / x, which tends to 0 at 0
        slope = _div_no_nan(fops.sub(fops.cos(fops.mul(x, _PI)), out), x)
        return (fops.mul(dout, _conj(slope)),)


# --- NanToNum -------------------------------------------------------------------------------
class NanToNum(_Unary):
    """``NanToNum(nan=0.0, posinf=None, neginf=None)(x)``: NaN and infinities replaced (None: the dtype's extremes)."""

    allowed = _REAL_TYPES

    @prim_attr_register
    def __init__(self, nan=0.0, posinf=None, neginf=None):
        for name, v in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                raise MSTypeError(f"For '{self.name}', the '{name}' must be a float or None, but got "
                                  f"{type(v).__name__}.")

    def bprop(self, x, out, dout):
        return (fops.mul(dout, _mask(fops.isfinite(x), dout)),)


# --- Equal ----------------------------------------------------------------------------------
class Equal(_Compare):
    """``x == y``; ``x`` must be a Tensor (2.10 refuses ``Equal()(2, t)``)."""

    def infer_dtype(self, x, y):
        refuse_number_input(self.name, x, y, "Number, Tensor")
        return super().infer_dtype(x, y)


# --- NotEqual -------------------------------------------------------------------------------
class NotEqual(_Compare):
    """``x != y``."""


# --- Greater --------------------------------------------------------------------------------
class Greater(_Ordered):
    """``x > y``."""


# --- GreaterEqual ---------------------------------------------------------------------------
class GreaterEqual(_Ordered):
    """``x >= y``."""


# --- Less -----------------------------------------------------------------------------------
class Less(_Ordered):
    """``x < y``; ``x`` must be a Tensor (2.10 refuses ``Less()(2, t)``, not ``LessEqual()(2, t)``)."""

    def infer_dtype(self, x, y):
        refuse_number_input(self.name, x, y, "bool, Number, Tensor")
        return super().infer_dtype(x, y)


# --- LessEqual ------------------------------------------------------------------------------
class LessEqual(_Ordered):
    """``x <= y``."""


# --- LogicalAnd -----------------------------------------------------------------------------
class LogicalAnd(_Compare):
    """``x and y`` elementwise (any dtype, non-zero is true)."""

    def infer_dtype(self, x, y):
        refuse_numbers(self.name, x, y, ("x", "y"), "bool, Tensor", allow_bool=True)   # (2.10: no int or float)
        return super().infer_dtype(x, y)


# --- LogicalOr ------------------------------------------------------------------------------
class LogicalOr(_Compare):
    """``x or y`` elementwise."""

    def infer_dtype(self, x, y):
        refuse_numbers(self.name, x, y, ("x", "y"), "bool, Tensor", allow_bool=True)   # (2.10: no int or float)
        return super().infer_dtype(x, y)


# --- LogicalXor -----------------------------------------------------------------------------
class LogicalXor(_Compare):
    """``x xor y`` elementwise."""

    def infer_dtype(self, x, y):
        refuse_numbers(self.name, x, y, ("input", "other"), "bool, Tensor", allow_bool=True)   # (2.10: no int or float)
        return super().infer_dtype(x, y)


# --- LogicalNot -----------------------------------------------------------------------------
class LogicalNot(_Predicate):
    """``not x`` elementwise."""


# --- BitwiseAnd -----------------------------------------------------------------------------
class BitwiseAnd(_Bitwise):
    """``x & y`` on integer or bool tensors."""


# --- BitwiseOr ------------------------------------------------------------------------------
class BitwiseOr(_Bitwise):
    """``x | y`` on integer or bool tensors."""


# --- BitwiseXor -----------------------------------------------------------------------------
class BitwiseXor(_Bitwise):
    """``x ^ y`` on integer or bool tensors."""


# --- Invert ---------------------------------------------------------------------------------
class Invert(_Unary):
    """``~x`` bitwise on integer tensors (logical NOT on bool)."""

    allowed = _INT_OR_BOOL
    bprop = NON_DIFFERENTIABLE


# --- IsNan ----------------------------------------------------------------------------------
class IsNan(_Predicate):
    """Whether each element is NaN."""


# --- IsInf ----------------------------------------------------------------------------------
class IsInf(_Predicate):
    """Whether each element is plus or minus infinity."""


# --- IsFinite -------------------------------------------------------------------------------
class IsFinite(_Predicate):
    """Whether each element is neither infinite nor NaN."""


PRIMITIVES = [
    Add, AddV2, Sub, Mul, RealDiv, Div, DivNoNan, FloorDiv, FloorMod, Mod, TruncateDiv, TruncateMod, Pow,
    Maximum, Minimum, SquaredDifference, Atan2, Xlogy, Hypot, Fmax, Fmin, Gcd, Lcm, Heaviside, IsClose,
    Neg, Abs, Square, Reciprocal, Sqrt, Rsqrt, Exp, Log, Log1p, Expm1, Sign, Floor, Ceil, Trunc, Round,
    Sin, Cos, Tan, Asin, ACos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh, Erf, Erfc, Erfinv, Sinc, NanToNum,
    Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual, LogicalAnd, LogicalOr, LogicalXor, LogicalNot,
    BitwiseAnd, BitwiseOr, BitwiseXor, Invert, IsNan, IsInf, IsFinite,
]
