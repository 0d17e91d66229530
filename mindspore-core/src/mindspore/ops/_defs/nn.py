"""Neural-network primitives: activations, softmax, bias add, normalisation, dropout.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop``.
Kernels live in the backends' ``kernels/nn.py``. Losses and resizing are the second half of the
family, in :mod:`mindspore.ops._defs.nn_ext`; :data:`PRIMITIVES` lists both halves.

Bprops are compositions of functional ops and of the primitives here, so every gradient is itself
differentiable (grad of grad). Where an activation's derivative is cheaper from its output than from
its input (Sigmoid, Elu, SeLU), the bprop uses ``out``.
"""
import math as _pymath
import numbers

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.seed import OpRandomState
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs import nn_ext
from mindspore.ops._defs.math import _conj
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, is_known_zero, prim_attr_register

ANY_RANK = range(0, 9)
RELU_TYPES = rules.FLOAT_TYPES + mstype.int_type + (mstype.uint8,)


def check_number(op, name, value, lo=None, hi=None, lo_open=False, hi_open=False):
    """A real-number attribute (bool refused), optionally inside a range, MindSpore-style errors."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise MSTypeError(f"For '{op}', the '{name}' must be a float, but got {type(value).__name__}.")
    value = float(value)
    bad = (lo is not None and (value < lo or (lo_open and value == lo))) or \
          (hi is not None and (value > hi or (hi_open and value == hi)))
    if bad:
        if hi is None:
            want = f"{'greater than' if lo_open else 'greater than or equal to'} {lo}"
        else:
            want = f"in range {'(' if lo_open else '['}{lo}, {hi}{')' if hi_open else ']'}"
        raise MSValueError(f"For '{op}', the '{name}' must be {want}, but got {value}.")
    return value


def check_str(op, name, value, allowed):
    if not isinstance(value, str):
        raise MSTypeError(f"For '{op}', the '{name}' must be a str, but got {type(value).__name__}.")
    if value not in allowed:
        raise MSValueError(f"For '{op}', the '{name}' must be one of {list(allowed)}, but got '{value}'.")
    return value


def mask_of(cond, like):
    """A 0/1 float tensor of ``like``'s dtype from the bool tensor ``cond`` (no gradient flows)."""
    return fops.cast(cond, like.dtype)


class _FloatUnary(Primitive):
    """Element-wise activation on a float tensor: same shape, same dtype."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return rules.check_rank(self.name, "x", x, ANY_RANK)

    def infer_dtype(self, x):
        return rules.check_float(self.name, "x", x)


# --- ReLU -----------------------------------------------------------------------------------
class ReLU(_FloatUnary):
    """``max(x, 0)`` element-wise (float and integer inputs)."""

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input_x", x, RELU_TYPES)

    def bprop(self, x, out, dout):
        # out > 0 exactly where x > 0; reading the output (as MindSpore's ReluGrad does) leaves x used once,
        # so a graph can fuse the op producing x (a bias-add) with this ReLU
        return (self._grad_prim(ReluGrad)(dout, out),)


class ReluGrad(Primitive):
    """``ReluGrad()(y_backprop, x)``: ``y_backprop`` where ``x > 0``, else 0 (``x`` is the ReLU's output
    or input: same sign). A select, as MindSpore's kernel computes it: a NaN or infinite ``y_backprop``
    where ``x <= 0`` gives 0.

    Its own primitive (as in MindSpore) so that backends compute it in one pass instead of a compare, a
    cast and a multiply.
    """

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, y_backprop, x):
        if tuple(y_backprop) != tuple(x):
            raise MSValueError(f"For '{self.name}', the shape of 'y_backprop' {tuple(y_backprop)} must equal the "
                               f"shape of 'x' {tuple(x)}.")
        return tuple(x)

    def infer_dtype(self, y_backprop, x):
        rules.check_dtype_in(self.name, "x", x, RELU_TYPES)
        if y_backprop != x:
            raise MSTypeError(f"For '{self.name}', the dtype of 'y_backprop' {y_backprop} must equal the dtype of "
                              f"'x' {x}.")
        return x

    def bprop(self, y_backprop, x, out, dout):
        # linear in y_backprop with the same mask; piecewise constant in x
        return self._grad_prim(ReluGrad)(dout, x), None


# --- ReLU6 ----------------------------------------------------------------------------------
class ReLU6(_FloatUnary):
    """``min(max(x, 0), 6)`` element-wise."""

    def bprop(self, x, out, dout):
        # (0, 6]: MindSpore 2.10's ReLU6Grad passes the gradient at 6, not at 0
        inside = fops.mul(mask_of(fops.greater(x, 0), x), mask_of(fops.less_equal(x, 6), x))
        return (fops.mul(dout, inside),)


# --- Sigmoid --------------------------------------------------------------------------------
class Sigmoid(_FloatUnary):
    """``1 / (1 + exp(-x))`` element-wise (computed without overflow); complex input too, as MindSpore 2.10, its
    gradient conjugated as the other complex functions' (``ops/_defs/math.py``)."""

    def infer_dtype(self, x):
        if x in rules.COMPLEX_TYPES:
            return x
        return super().infer_dtype(x)

    def bprop(self, x, out, dout):
        return (fops.mul(dout, _conj(fops.mul(out, fops.sub(1, out)))),)


# --- GeLU -----------------------------------------------------------------------------------
_GELU_K = _pymath.sqrt(2.0 / _pymath.pi)
_GELU_C = 0.044715


class GeLU(_FloatUnary):
    """GELU with the tanh approximation, ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``.

    (MindSpore's primitive uses this form; ``ops.gelu(approximate='none')`` is the exact erf form.)
    """

    def bprop(self, x, out, dout):
        return (self._grad_prim(GeLUGrad)(dout, x, out),)


class GeLUGrad(Primitive):
    """``GeLUGrad()(dy, x, y)``: ``dy * gelu'(x)`` for the tanh-approximated GELU (``y = gelu(x)`` is unused).

    Its own primitive (as in MindSpore) so that backends can compute the derivative in one pass.
    """

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, dy, x, y):
        if tuple(dy) != tuple(x):
            raise MSValueError(f"For '{self.name}', the shape of 'dy' {tuple(dy)} must equal the shape of 'x' "
                               f"{tuple(x)}.")
        return tuple(x)

    def infer_dtype(self, dy, x, y):
        rules.check_float(self.name, "x", x)
        if dy != x:
            raise MSTypeError(f"For '{self.name}', the dtype of 'dy' {dy} must equal the dtype of 'x' {x}.")
        return x

    def bprop(self, dy, x, y, out, dout):
        # d/d dy = gelu'(x);  d/dx = dy * gelu''(x) with, for u = k (x + c x^3), t = tanh(u):
        # gelu''(x) = (1 - t^2) (u' + x (u''/2 - t u'^2)),  u' = k (1 + 3 c x^2),  u'' = 6 k c x
        x2 = fops.mul(x, x)
        t = fops.tanh(fops.mul(fops.mul(x, fops.add(fops.mul(x2, _GELU_C), 1)), _GELU_K))
        du = fops.mul(fops.add(fops.mul(x2, 3 * _GELU_C), 1), _GELU_K)
        slope = fops.add(fops.mul(fops.add(t, 1), 0.5), fops.mul(fops.mul(fops.sub(1, fops.mul(t, t)), du),
                                                                  fops.mul(x, 0.5)))
        ddu = fops.mul(x, 3 * _GELU_C * _GELU_K)
        curvature = fops.mul(fops.sub(1, fops.mul(t, t)),
                             fops.add(du, fops.mul(x, fops.sub(ddu, fops.mul(t, fops.mul(du, du))))))
        return fops.mul(dout, slope), fops.mul(fops.mul(dout, dy), curvature), fops.zeros_like(y)


# --- FastGeLU -------------------------------------------------------------------------------
class FastGeLU(_FloatUnary):
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``, i.e. ``x * sigmoid(1.702 x)``."""

    def bprop(self, x, out, dout):
        return (self._grad_prim(FastGeLUGrad)(dout, x),)


class FastGeLUGrad(Primitive):
    """``FastGeLUGrad()(dy, x)``: ``dy * fast_gelu'(x)``, ``fast_gelu'(x) = s + 1.702 x s (1 - s)`` with
    ``s = sigmoid(1.702 x)`` (MindSpore's CPU kernel: ``(e + 1.702 x e + 1) / (1 + e)**2``, ``e = exp(-1.702 x)``).

    Its own primitive (as in MindSpore) so that backends compute the derivative in one pass and round it once.
    """

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, dy, x):
        if tuple(dy) != tuple(x):
            raise MSValueError(f"For '{self.name}', the shape of 'dy' {tuple(dy)} must equal the shape of 'x' "
                               f"{tuple(x)}.")
        return tuple(x)

    def infer_dtype(self, dy, x):
        rules.check_float(self.name, "x", x)
        if dy != x:
            raise MSTypeError(f"For '{self.name}', the dtype of 'dy' {dy} must equal the dtype of 'x' {x}.")
        return x

    def bprop(self, dy, x, out, dout):
        # d/d dy = fast_gelu'(x);  d/dx = dy fast_gelu''(x), fast_gelu''(x) = 1.702 s (1 - s) (2 + 1.702 x (1 - 2 s))
        s = fops.sigmoid(fops.mul(x, 1.702))
        spread = fops.mul(fops.mul(s, fops.sub(1, s)), 1.702)
        curvature = fops.mul(spread, fops.add(fops.mul(fops.mul(x, 1.702), fops.sub(1, fops.mul(s, 2))), 2))
        return self._grad_prim(FastGeLUGrad)(dout, x), fops.mul(fops.mul(dout, dy), curvature)


# --- HSigmoid -------------------------------------------------------------------------------
def _inside(x, lo, hi):
    return fops.mul(mask_of(fops.greater(x, lo), x), mask_of(fops.less(x, hi), x))


class HSigmoid(_FloatUnary):
    """Hard sigmoid, ``relu6(x + 3) / 6``."""

    def bprop(self, x, out, dout):
        return (fops.mul(dout, fops.mul(_inside(x, -3, 3), 1.0 / 6)),)


# --- HSwish ---------------------------------------------------------------------------------
class HSwish(_FloatUnary):
    """Hard swish, ``x * relu6(x + 3) / 6``."""

    def bprop(self, x, out, dout):
        if x.dtype is mstype.float32:
            # MindSpore 2.10's HSwishGrad (bit for bit on its CPU): 0 up to -3, dout from 3 on, (dout (2x + 3)) / 6
            # between, each operation rounded
            inner = fops.div(fops.mul(dout, fops.add(fops.add(x, x), 3)), 6.0)
            return (fops.select(fops.less_equal(x, -3), fops.zeros_like(x),
                                fops.select(fops.greater_equal(x, 3), dout, inner)),)
        grad = fops.add(fops.hardsigmoid(x), fops.mul(fops.mul(x, _inside(x, -3, 3)), 1.0 / 6))
        return (fops.mul(dout, grad),)


# --- Elu ------------------------------------------------------------------------------------
class Elu(_FloatUnary):
    """``x`` for ``x > 0``, ``alpha (exp(x) - 1)`` otherwise."""

    @prim_attr_register
    def __init__(self, alpha=1.0):
        check_number(self.name, "alpha", alpha)

    def bprop(self, x, out, dout):
        pos = mask_of(fops.greater(x, 0), x)
        grad = fops.add(pos, fops.mul(fops.sub(1, pos), fops.add(out, self.alpha)))
        return (fops.mul(dout, grad),)


# --- CeLU -----------------------------------------------------------------------------------
class CeLU(_FloatUnary):
    """``max(0, x) + min(0, alpha (exp(x / alpha) - 1))``."""

    @prim_attr_register
    def __init__(self, alpha=1.0):
        alpha = check_number(self.name, "alpha", alpha)
        if alpha == 0:
            raise MSValueError(f"For '{self.name}', the 'alpha' can not be 0.")

    def bprop(self, x, out, dout):
        pos = mask_of(fops.greater(x, 0), x)
        neg_grad = fops.add(fops.mul(out, 1.0 / self.alpha), 1)
        return (fops.mul(dout, fops.add(pos, fops.mul(fops.sub(1, pos), neg_grad))),)


# --- SeLU -----------------------------------------------------------------------------------
SELU_ALPHA = 1.67326324235437728481704299
SELU_SCALE = 1.05070098735548049341933498


class SeLU(_FloatUnary):
    """``scale * (x if x > 0 else alpha (exp(x) - 1))`` with the self-normalising constants."""

    def bprop(self, x, out, dout):
        pos = mask_of(fops.greater(x, 0), x)
        neg_grad = fops.add(out, SELU_SCALE * SELU_ALPHA)
        return (fops.mul(dout, fops.add(fops.mul(pos, SELU_SCALE), fops.mul(fops.sub(1, pos), neg_grad))),)


# --- Softplus -------------------------------------------------------------------------------
class Softplus(_FloatUnary):
    """``log(1 + exp(x))`` element-wise (computed without overflow)."""

    def bprop(self, x, out, dout):
        return (self._grad_prim(SoftplusGrad)(dout, x),)


class SoftplusGrad(Primitive):
    """``SoftplusGrad()(gradients, features)``: ``gradients * sigmoid(features)``, Softplus's derivative times the
    incoming gradient (MindSpore 2.10's CPU kernel divides: ``gradients / (1 + exp(-features))``).

    Its own primitive (as in MindSpore) so that backends compute the derivative in one pass and round it once.
    """

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, gradients, features):
        if tuple(gradients) != tuple(features):
            raise MSValueError(f"For '{self.name}', the shape of 'gradients' {tuple(gradients)} must equal the shape "
                               f"of 'features' {tuple(features)}.")
        return tuple(features)

    def infer_dtype(self, gradients, features):
        rules.check_float(self.name, "features", features)
        if gradients != features:
            raise MSTypeError(f"For '{self.name}', the dtype of 'gradients' {gradients} must equal the dtype of "
                              f"'features' {features}.")
        return features

    def bprop(self, gradients, features, out, dout):
        # d/d gradients = sigmoid(features);  d/d features = gradients * s (1 - s)
        s = fops.sigmoid(features)
        return fops.mul(dout, s), fops.mul(fops.mul(dout, gradients), fops.mul(s, fops.sub(1, s)))


# --- Softsign -------------------------------------------------------------------------------
class Softsign(_FloatUnary):
    """``x / (1 + |x|)``."""

    def bprop(self, x, out, dout):
        d = fops.add(fops.abs(x), 1)
        return (fops.div(dout, fops.mul(d, d)),)


# --- Mish -----------------------------------------------------------------------------------
_NO_THRESHOLD = float("inf")   # softplus(x, 1, inf): the Softplus kernel alone


class Mish(_FloatUnary):
    """``x * tanh(softplus(x))``."""

    def bprop(self, x, out, dout):
        if x.dtype is mstype.float32:
            # MindSpore 2.10's order (bit for bit on its CPU): t = tanh(softplus(x)) (the bare Softplus kernel),
            # dx = t dout + SoftplusGrad(TanhGrad(t, x dout), x), TanhGrad's 1 - t^2 one fused multiply-add (exact in
            # float64, then rounded)
            t = fops.tanh(fops.softplus(x, 1, _NO_THRESHOLD))
            t64 = fops.cast(t, mstype.float64)
            one_minus = fops.cast(fops.sub(1, fops.mul(t64, t64)), mstype.float32)
            tanh_grad = fops.mul(fops.mul(x, dout), one_minus)
            return (fops.add(fops.mul(t, dout), self._grad_prim(SoftplusGrad)(tanh_grad, x)),)
        t = fops.tanh(fops.softplus(x))
        grad = fops.add(t, fops.mul(fops.mul(x, fops.sigmoid(x)), fops.sub(1, fops.mul(t, t))))
        return (fops.mul(dout, grad),)


# --- HShrink --------------------------------------------------------------------------------
class _Shrink(_FloatUnary):
    @prim_attr_register
    def __init__(self, lambd=0.5):
        check_number(self.name, "lambd", lambd, lo=0)

    def bprop(self, x, out, dout):
        outside = fops.add(mask_of(fops.greater(x, self.lambd), x), mask_of(fops.less(x, -self.lambd), x))
        return (fops.mul(dout, outside),)


class HShrink(_Shrink):
    """Hard shrink: ``x`` where ``|x| > lambd``, else 0."""


# --- SoftShrink -----------------------------------------------------------------------------
class SoftShrink(_Shrink):
    """Soft shrink: ``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""


# --- PReLU ----------------------------------------------------------------------------------
class PReLU(Primitive):
    """``PReLU()(x, weight)``: ``x`` where positive, ``weight * x`` otherwise; ``weight`` is per channel (axis 1)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, weight):
        rules.check_rank(self.name, "x", x, ANY_RANK)
        rules.check_rank(self.name, "weight", weight, (0, 1))
        channels = x[1] if len(x) >= 2 else 1
        size = weight[0] if weight else 1
        if size not in (1, channels):
            raise MSValueError(f"For '{self.name}', the 'weight' must have shape (1,) or ({channels},) "
                               f"(the channel dimension of 'x'), but got {tuple(weight)}.")
        return x

    def infer_dtype(self, x, weight):
        rules.check_float(self.name, "x", x)
        rules.check_float(self.name, "weight", weight)
        return x

    def bprop(self, x, weight, out, dout):
        w = weight
        if x.ndim >= 2 and w.size > 1:
            w = fops.reshape(w, (1, w.size) + (1,) * (x.ndim - 2))
        pos = mask_of(fops.greater(x, 0), x)
        neg = fops.sub(1, pos)
        dx = fops.mul(dout, fops.add(pos, fops.mul(neg, w)))
        dw_full = fops.mul(fops.mul(dout, neg), x)
        if x.ndim >= 2 and weight.size > 1:
            axes = (0,) + tuple(range(2, x.ndim))
            dw = fops.reduce_sum(dw_full, axes)
        else:
            dw = fops.reduce_sum(dw_full)
        return dx, fops.reshape(dw, weight.shape)


# --- Softmax --------------------------------------------------------------------------------
def _softmax_axes(op, axis, ndim):
    if isinstance(axis, (tuple, list)) and not axis:
        raise MSValueError(f"For '{op}', the 'axis' must not be empty.")
    return rules.normalize_axes(op, axis, ndim)


def _set_axis(prim, axis):
    """Check an ``axis`` attribute that is an int or a tuple of ints (Softmax, SoftmaxGrad, L2Normalize), and store a
    list as a tuple."""
    if isinstance(axis, (tuple, list)):
        for a in axis:
            rules.check_int(prim.name, "axis", a)
        prim.add_prim_attr("axis", tuple(axis))
    else:
        rules.check_int(prim.name, "axis", axis)


class Softmax(Primitive):
    """``Softmax(axis=-1)(x)``: ``exp(x) / sum(exp(x), axis)``, computed stably (max subtracted)."""

    @prim_attr_register
    def __init__(self, axis=-1):
        _set_axis(self, axis)

    def infer_shape(self, x):
        rules.check_rank(self.name, "logits", x, range(1, 9))
        _softmax_axes(self.name, self.axis, len(x))
        return x

    def infer_dtype(self, x):
        return rules.check_float(self.name, "logits", x)

    def bprop(self, x, out, dout):
        return (self._grad_prim(SoftmaxGrad, self.axis)(out, dout),)


class SoftmaxGrad(Primitive):
    """``SoftmaxGrad(axis=-1)(y, dy)``: the gradient of :class:`Softmax` from its output ``y``,
    ``y (dy - sum(dy y, axis))``.

    MindSpore's ``SoftmaxGrad()`` (last axis); ``axis`` (an int or a tuple, as Softmax takes) is ours, so that
    every Softmax has it. Its own primitive so that backends compute it in one pass (with one reduction) instead of
    four primitives.
    """

    @prim_attr_register
    def __init__(self, axis=-1):
        _set_axis(self, axis)
        self.init_prim_io_names(inputs=["y", "dy"], outputs=["z"])

    def infer_shape(self, y, dy):
        rules.check_rank(self.name, "y", y, range(1, 9))
        _softmax_axes(self.name, self.axis, len(y))
        if tuple(dy) != tuple(y):
            raise MSValueError(f"For '{self.name}', the shape of 'dy' {tuple(dy)} must equal the shape of 'y' "
                               f"{tuple(y)}.")
        return y

    def infer_dtype(self, y, dy):
        rules.check_float(self.name, "y", y)
        return rules.check_same_dtype(self.name, ("y", "dy"), (y, dy))

    def bprop(self, y, dy, out, dout):
        # L = sum(a dx) = sum(a y dy) - sum(s t) per slice, s = sum(dy y), t = sum(a y): dL/ddy = y (a - t), the
        # same map applied to a; dL/dy = a (dy - s) - dy t
        t = fops.reduce_sum(fops.mul(dout, y), self.axis, keep_dims=True)
        s = fops.reduce_sum(fops.mul(dy, y), self.axis, keep_dims=True)
        d_y = fops.sub(fops.mul(dout, fops.sub(dy, s)), fops.mul(dy, t))
        return d_y, self._grad_prim(SoftmaxGrad, self.axis)(y, dout)


# --- LogSoftmax -----------------------------------------------------------------------------
class LogSoftmax(Primitive):
    """``LogSoftmax(axis=-1)(x)``: ``x - logsumexp(x, axis)``, computed stably."""

    @prim_attr_register
    def __init__(self, axis=-1):
        rules.check_int(self.name, "axis", axis)

    def infer_shape(self, x):
        rules.check_rank(self.name, "logits", x, range(1, 9))
        rules.check_axis(self.name, self.axis, len(x))
        return x

    def infer_dtype(self, x):
        return rules.check_float(self.name, "logits", x)

    def bprop(self, x, out, dout):
        # MindSpore 2.10's: LogSoftmaxGrad from the output, dout - exp(out) sum(dout)
        return (self._grad_prim(LogSoftmaxGrad, self.axis)(out, dout),)


class LogSoftmaxGrad(Primitive):
    """``LogSoftmaxGrad(axis=-1)(logits, grad)``: the gradient of :class:`LogSoftmax` from its output ``logits``,
    ``grad - exp(logits) * sum(grad, axis)`` (MindSpore's ``_grad_ops.LogSoftmaxGrad``), one primitive so that
    backends compute it as 2.10's kernel does."""

    @prim_attr_register
    def __init__(self, axis=-1):
        rules.check_int(self.name, "axis", axis)
        self.init_prim_io_names(inputs=["logits", "grad"], outputs=["y"])

    def infer_shape(self, logits, grad):
        rules.check_rank(self.name, "logits", logits, range(1, 9))
        rules.check_axis(self.name, self.axis, len(logits))
        if tuple(grad) != tuple(logits):
            raise MSValueError(f"For '{self.name}', the shape of 'grad' {tuple(grad)} must equal the shape of "
                               f"'logits' {tuple(logits)}.")
        return logits

    def infer_dtype(self, logits, grad):
        rules.check_float(self.name, "logits", logits)
        return rules.check_same_dtype(self.name, ("logits", "grad"), (logits, grad))

    def bprop(self, y, dy, out, dout):
        # L = sum(a dx) = sum(a dy) - sum(a e) s per slice, e = exp(y), s = sum(dy): dL/ddy = a - sum(a e),
        # dL/dy = -a e s
        e = fops.exp(y)
        t = fops.reduce_sum(fops.mul(dout, e), self.axis, keep_dims=True)
        s = fops.reduce_sum(dy, self.axis, keep_dims=True)
        return fops.neg(fops.mul(fops.mul(dout, e), s)), fops.sub(dout, t)


# --- BiasAdd --------------------------------------------------------------------------------
def channel_axis(data_format, ndim):
    return ndim - 1 if data_format == "NHWC" else 1


class BiasAdd(Primitive):
    """``BiasAdd(data_format='NCHW')(x, bias)``: ``bias`` (C,) added along the channel axis."""

    @prim_attr_register
    def __init__(self, data_format="NCHW"):
        check_str(self.name, "data_format", data_format, ("NCHW", "NHWC", "NCDHW"))

    def infer_shape(self, x, bias):
        rules.check_rank(self.name, "input_x", x, range(2, 6))
        rules.check_rank(self.name, "bias", bias, 1)
        if self.data_format == "NCDHW" and len(x) != 5:
            raise MSValueError(f"For '{self.name}', the 'input_x' must be a 5-D tensor when data_format is "
                               f"'NCDHW', but got shape {tuple(x)}.")
        c = x[channel_axis(self.data_format, len(x))]
        if bias[0] != c:
            raise MSValueError(f"For '{self.name}', the 'bias' shape must be ({c},) (the channel dimension of "
                               f"'input_x'), but got {tuple(bias)}.")
        return x

    def infer_dtype(self, x, bias):
        rules.check_dtype_in(self.name, "input_x", x, rules.NUMBER_TYPES)
        return rules.check_same_dtype(self.name, ("input_x", "bias"), (x, bias))

    def bprop(self, x, bias, out, dout):
        need_bias = self._grads_needed(2)[1]
        c = channel_axis(self.data_format, x.ndim)
        axes = tuple(i for i in range(x.ndim) if i != c)
        return dout, fops.reduce_sum(dout, axes) if need_bias else None


# --- LayerNorm ------------------------------------------------------------------------------
def _stat_dtype(x):
    """The dtype of LayerNorm's ``mean``/``variance``: float32, float64 for float64 ``x``. MindSpore's kernels
    return float32 for half inputs too; for float64 they return float32 statistics computed at float32 precision,
    where ours stay float64 so that float64 gradients stay exact (as RmsNorm's ``rstd``)."""
    return mstype.float64 if x == mstype.float64 else mstype.float32


class LayerNorm(Primitive):
    """``LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(x, gamma, beta)``.

    Normalises over the axes from ``begin_norm_axis`` on and returns ``(y, mean, variance)``, as MindSpore's
    kernels do (its docstring names the third output ``rstd``; its CPU kernel returns the variance)::

        mean = mean(x),  variance = mean((x - mean)**2),  y = (x - mean) / sqrt(variance + epsilon) * gamma + beta

    the means over the normalised axes, ``mean``/``variance`` keeping them as size 1, in float32 (float64 for
    float64 ``x``; half inputs are computed in float32). ``gamma``/``beta`` have shape
    ``x.shape[begin_params_axis:]``.
    """

    @prim_attr_register
    def __init__(self, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
        rules.check_int(self.name, "begin_norm_axis", begin_norm_axis)
        rules.check_int(self.name, "begin_params_axis", begin_params_axis)
        check_number(self.name, "epsilon", epsilon, lo=0)

    def _axes(self, ndim):
        bna = rules.check_axis(self.name, self.begin_norm_axis, ndim, "begin_norm_axis")
        bpa = rules.check_axis(self.name, self.begin_params_axis, ndim, "begin_params_axis")
        return bna, bpa

    def infer_shape(self, x, gamma, beta):
        rules.check_rank(self.name, "input_x", x, range(1, 9))
        bna, bpa = self._axes(len(x))
        want = tuple(x[bpa:])
        for name, s in (("gamma", gamma), ("beta", beta)):
            if not rules.is_shape(s):
                raise MSTypeError(f"For '{self.name}', the '{name}' must be a Tensor, but got {type(s).__name__}.")
            if tuple(s) != want:
                raise MSValueError(f"For '{self.name}', the shape of '{name}' must be {want} "
                                   f"(input_x.shape[begin_params_axis:]), but got {tuple(s)}.")
        stat = tuple(x[:bna]) + (1,) * (len(x) - bna)
        return tuple(x), stat, stat

    def infer_dtype(self, x, gamma, beta):
        rules.check_float(self.name, "input_x", x)
        rules.check_float(self.name, "gamma", gamma)
        rules.check_float(self.name, "beta", beta)
        return x, _stat_dtype(x), _stat_dtype(x)

    bprop_none_douts = True     # the tape passes None for the cotangent of an output that got no gradient

    def bprop(self, x, gamma, beta, out, dout):
        dy, dmean, dvar = dout
        if dy is None:
            dy = fops.zeros_like(out[0])
        mean, variance = out[1], out[2]
        grad = self._grad_prim(LayerNormGrad, self.begin_norm_axis, self.begin_params_axis, self.epsilon)
        dx, dgamma, dbeta = grad(x, dy, variance, mean, gamma)
        inv_n = 1.0 / _row_count(x.shape, self.begin_norm_axis % x.ndim)
        # the statistics outputs are functions of x too: d mean/dx = 1/n, d variance/dx = 2 (x - mean) / n (the
        # mean's own dependence on x drops out, the deviations summing to zero); in the statistics' dtype
        if not _zero_dout(dmean):
            dx = fops.add(dx, fops.cast(fops.mul(dmean, inv_n), dx.dtype))
        if not _zero_dout(dvar):
            centred = fops.sub(fops.cast(x, mean.dtype), mean)
            dx = fops.add(dx, fops.cast(fops.mul(fops.mul(dvar, centred), 2.0 * inv_n), dx.dtype))
        return dx, dgamma, dbeta


# --- LayerNormGrad --------------------------------------------------------------------------
def _row_count(shape, begin):
    """The number of values a LayerNorm row holds: the product of ``shape[begin:]`` (at least 1)."""
    count = 1
    for s in shape[begin:]:
        count *= s
    return count if count > 0 else 1


class LayerNormGrad(Primitive):
    """``LayerNormGrad(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(x, dy, variance, mean, gamma)``: the
    gradient of :class:`LayerNorm`, ``(dx, dgamma, dbeta)``.

    MindSpore's inputs in MindSpore's order: ``variance`` and ``mean`` as :class:`LayerNorm` returns them (its
    statistics shape, the normalised axes kept as size 1), ``gamma`` of shape ``x.shape[begin_params_axis:]``.
    ``epsilon`` is the forward's: MindSpore's ``LayerNormGrad.__init__`` takes the two axes only, its kernel reads
    an ``epsilon`` attribute when there is one (LayerNorm's bprop sets it) and uses 1e-7 when not; here it is a
    keyword with that default. With ``rstd = 1 / sqrt(variance + epsilon)``, ``xhat = (x - mean) rstd``,
    ``g = dy gamma`` and means over the normalised axes (``n`` values a row)::

        dx = rstd (g - mean(g) - xhat mean(g xhat))
        dgamma = sum(dy xhat),   dbeta = sum(dy)       (sums over the axes before begin_params_axis)

    ``dx`` has ``x``'s dtype, ``dgamma``/``dbeta`` ``gamma``'s (half inputs computed in float32). Its own
    primitive (as in MindSpore) so that backends compute the three in a few passes over the data instead of a
    dozen primitives; its bprop is the derivative of that composite, so grad of grad works.
    """

    @prim_attr_register
    def __init__(self, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
        rules.check_int(self.name, "begin_norm_axis", begin_norm_axis)
        rules.check_int(self.name, "begin_params_axis", begin_params_axis)
        check_number(self.name, "epsilon", epsilon, lo=0)

    def infer_shape(self, x, dy, variance, mean, gamma):
        rules.check_rank(self.name, "x", x, range(1, 9))
        bna = rules.check_axis(self.name, self.begin_norm_axis, len(x), "begin_norm_axis")
        bpa = rules.check_axis(self.name, self.begin_params_axis, len(x), "begin_params_axis")
        if tuple(dy) != tuple(x):
            raise MSValueError(f"For '{self.name}', the shape of 'dy' {tuple(dy)} must equal the shape of 'x' "
                               f"{tuple(x)}.")
        stat = tuple(x[:bna]) + (1,) * (len(x) - bna)
        want = tuple(x[bpa:])
        for name, s, shape, what in (("variance", variance, stat, "the statistics shape of 'x'"),
                                     ("mean", mean, stat, "the statistics shape of 'x'"),
                                     ("gamma", gamma, want, "x.shape[begin_params_axis:]")):
            if tuple(s) != shape:
                raise MSValueError(f"For '{self.name}', the shape of '{name}' must be {shape} ({what}), "
                                   f"but got {tuple(s)}.")
        return tuple(x), want, want

    def infer_dtype(self, x, dy, variance, mean, gamma):
        rules.check_float(self.name, "x", x)
        if dy != x:
            raise MSTypeError(f"For '{self.name}', the dtype of 'dy' {dy} must equal the dtype of 'x' {x}.")
        for name, d in (("variance", variance), ("mean", mean), ("gamma", gamma)):
            rules.check_float(self.name, name, d)
        return x, gamma, gamma

    bprop_none_douts = True     # the tape passes None for the cotangent of an output that got no gradient

    def bprop(self, x, dy, variance, mean, gamma, out, dout):
        # L = sum(a dx) + sum(b dgamma) + sum(c dbeta), (a, b, c) = dout. With ar = a rstd, per row
        # sa = sum(ar), sx = sum(ar xhat) and A = mean(g), B = mean(g xhat): dL/dg = ar - sa/n - xhat sx/n (the
        # projection that made dx from g, self-adjoint), e = dL/dxhat = b dy - ar B - g sx/n, and rstd also enters
        # directly, dL/drstd at fixed xhat = sum(a dx) / rstd. Then xhat = (x - mean) rstd gives dL/dx = e rstd,
        # dL/dmean = -rstd sum(e), dL/drstd = sum(a dx) / rstd + sum(e (x - mean)), and with
        # rstd = (variance + epsilon)^(-1/2), dL/dvariance = -rstd^3 / 2 dL/drstd.
        a, b, c = dout
        bna = self.begin_norm_axis % x.ndim
        axes = tuple(range(bna, x.ndim))
        inv_n = 1.0 / _row_count(x.shape, bna)
        rstd = fops.div(1, fops.sqrt(fops.add(variance, self.epsilon)))
        centred = fops.sub(x, mean)
        xhat = fops.mul(centred, rstd)
        d_dy, d_gamma, e, d_rstd = None, None, None, None
        if not _zero_dout(a):
            g = fops.mul(dy, gamma)
            ar = fops.mul(a, rstd)
            sx_n = fops.mul(fops.reduce_sum(fops.mul(ar, xhat), axes, keep_dims=True), inv_n)
            sa_n = fops.mul(fops.reduce_sum(ar, axes, keep_dims=True), inv_n)
            gx_n = fops.mul(fops.reduce_sum(fops.mul(g, xhat), axes, keep_dims=True), inv_n)
            d_g = fops.sub(fops.sub(ar, sa_n), fops.mul(xhat, sx_n))
            d_dy = fops.mul(d_g, gamma)
            d_gamma = fops.mul(d_g, dy)
            e = fops.neg(fops.add(fops.mul(ar, gx_n), fops.mul(g, sx_n)))
            d_rstd = fops.div(fops.reduce_sum(fops.mul(a, out[0]), axes, keep_dims=True), rstd)
        if not _zero_dout(b):
            d_dy = _add_douts(d_dy, fops.mul(b, xhat))
            e = _add_douts(e, fops.mul(b, dy))
        if not _zero_dout(c):
            d_dy = fops.broadcast_to(c, dy.shape) if d_dy is None else fops.add(d_dy, c)
        if e is None:
            return None, d_dy, None, None, None
        d_mean = fops.neg(fops.mul(fops.reduce_sum(e, axes, keep_dims=True), rstd))
        d_rstd = _add_douts(d_rstd, fops.reduce_sum(fops.mul(e, centred), axes, keep_dims=True))
        d_var = fops.mul(d_rstd, fops.mul(fops.mul(rstd, fops.mul(rstd, rstd)), -0.5))
        return fops.mul(e, rstd), d_dy, d_var, d_mean, d_gamma


def _add_douts(a, b):
    """The sum of two cotangents, either of which may be None (no gradient): None when both are."""
    if a is None:
        return b
    return a if b is None else fops.add(a, b)


def _zero_dout(d):
    """Whether a cotangent is zero without reading it: None (the tape made none) or zeros autodiff made."""
    return d is None or is_known_zero(d)


# --- BatchNorm ------------------------------------------------------------------------------
def _bn_layout(data_format, x):
    """``(axes, stat_shape, count)`` of a BatchNorm input: the reduced axes (all but the channel's), the
    shape that broadcasts a per-channel vector against ``x``, and the number of values per channel."""
    c = channel_axis(data_format, x.ndim)
    axes = tuple(i for i in range(x.ndim) if i != c)
    stat_shape = tuple(x.shape[i] if i == c else 1 for i in range(x.ndim))
    count = 1
    for i in axes:
        count *= x.shape[i]
    return axes, stat_shape, count


def _check_channel_vectors(op, x_name, x, data_format, named_shapes):
    """Every shape in ``named_shapes`` must be ``(C,)``, C the channel size of ``x``; returns C."""
    c = x[channel_axis(data_format, len(x))]
    for name, s in named_shapes:
        rules.check_rank(op, name, s, 1)
        if s[0] != c:
            raise MSValueError(f"For '{op}', the shape of '{name}' must be ({c},) (the channel dimension of "
                               f"'{x_name}'), but got {tuple(s)}.")
    return c


class BatchNorm(Primitive):
    """``BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1, data_format='NCHW')``.

    Called as ``(x, scale, bias, mean, variance)``; returns ``(y, batch_mean, batch_variance,
    reserve_space_1, reserve_space_2)``. In training the batch statistics (over every axis but the
    channel's) normalise ``x``, the outputs 1-4 are the batch mean and (biased) variance, and the
    ``mean``/``variance`` inputs, the moving statistics, are updated in place:
    ``moving = (1 - momentum) * moving + momentum * batch`` with the unbiased batch variance. In
    inference the moving statistics normalise ``x`` and outputs 1-4 repeat them.
    """

    @prim_attr_register
    def __init__(self, is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW"):
        rules.check_bool(self.name, "is_training", is_training)
        check_number(self.name, "epsilon", epsilon, lo=0, hi=1, lo_open=True)
        check_number(self.name, "momentum", momentum, lo=0, hi=1)
        check_str(self.name, "data_format", data_format, ("NCHW", "NHWC"))

    written_inputs = (3, 4)   # MindSpore's RW_WRITE mean/variance, in inference too (never cast by amp)
    # a PYNATIVE to_float cell gives it its Parameters as they are: 2.10's signature is RW_WRITE for scale and bias too
    # in training, and empty (no Parameter cast) in inference
    uncast_parameters = (1, 2, 3, 4)

    @property
    def side_effect(self):
        """In training, the moving statistics are updated in place."""
        return self.is_training

    def infer_shape(self, x, scale, bias, mean, variance):
        rules.check_rank(self.name, "input_x", x, range(2, 6))
        c = _check_channel_vectors(self.name, "input_x", x, self.data_format,
                                   (("scale", scale), ("bias", bias), ("mean", mean), ("variance", variance)))
        return (tuple(x),) + ((c,),) * 4

    def infer_dtype(self, x, scale, bias, mean, variance):
        rules.check_float(self.name, "input_x", x)
        for name, d in (("scale", scale), ("bias", bias), ("mean", mean), ("variance", variance)):
            rules.check_float(self.name, name, d)
        return (x,) + (scale,) * 4

    bprop_none_douts = True     # the tape passes None for the cotangent of an output that got no gradient

    def bprop(self, x, scale, bias, mean, variance, out, dout):
        # the main terms in one BatchNormGrad, called as MindSpore does: the saved statistics out[3]/out[4]
        # in training, the moving ones in inference, out[2] as the reserve input
        if self.is_training:
            saved_mean, saved_variance = out[3], out[4]
        else:
            saved_mean, saved_variance = mean, variance
        dy = dout[0] if dout[0] is not None else fops.zeros_like(out[0])
        dx, dscale, dbias = self._grad_prim(BatchNormGrad, self.is_training, self.epsilon, self.data_format)(
            dy, x, scale, saved_mean, saved_variance, out[2])
        if self.is_training and all(_zero_dout(d) for d in dout[1:]):
            # nothing used the statistics (no cotangents, or zeros autodiff made): skip two full-size passes
            return dx, dscale, dbias, None, None
        # the statistics outputs' own cotangents (outputs 3/4 repeat 1/2; None: no gradient reached either)
        dstat_mean = _add_douts(dout[1], dout[3])
        dstat_var = _add_douts(dout[2], dout[4])
        if not self.is_training:
            dstat_mean = dstat_mean if dstat_mean is not None else fops.zeros_like(out[1])
            dstat_var = dstat_var if dstat_var is not None else fops.zeros_like(out[2])
            # outputs 1-4 repeat the inputs mean/variance, and y depends on them through xhat:
            # dL/dmean = -scale rstd sum(dout[0]) = -scale rstd dbias, and with d rstd/dvar = -rstd^3 / 2,
            # dL/dvar = -rstd^3 / 2 scale sum(dout[0] (x - mean)) = -rstd^2 / 2 scale dscale
            rstd = fops.div(1, fops.sqrt(fops.add(variance, self.epsilon)))
            dmean = fops.sub(dstat_mean, fops.mul(dbias, fops.mul(scale, rstd)))
            dvar = fops.sub(dstat_var, fops.mul(fops.mul(dscale, scale), fops.mul(fops.mul(rstd, rstd), 0.5)))
            return dx, dscale, dbias, dmean, dvar
        _, stat_shape, count = _bn_layout(self.data_format, x)
        # the batch statistics are functions of x: d mean/dx = 1/n, d var/dx = 2 (x - mean) / n
        if dstat_mean is not None:
            dx = fops.add(dx, fops.mul(fops.reshape(dstat_mean, stat_shape), 1.0 / count))
        if dstat_var is not None:
            centred = fops.sub(x, fops.reshape(out[1], stat_shape))
            dx = fops.add(dx, fops.mul(fops.mul(fops.reshape(dstat_var, stat_shape), centred), 2.0 / count))
        return dx, dscale, dbias, None, None


class BatchNormGrad(Primitive):
    """``BatchNormGrad(is_training=False, epsilon=1e-5, data_format='NCHW')``: the gradient of :class:`BatchNorm`.

    Called as ``(dy, x, scale, saved_mean, saved_variance, reserve)`` (MindSpore's order); returns
    ``(dx, dscale, dbias)``. ``saved_mean``/``saved_variance`` are the statistics the forward normalised
    with (the batch ones in training, the moving ones in inference); ``reserve`` is MindSpore's workspace
    input and is not read. With ``rstd = 1 / sqrt(saved_variance + epsilon)``, ``xhat = (x - saved_mean)
    rstd`` and sums over every axis but the channel's (``n`` values per channel)::

        dscale = sum(dy xhat),   dbias = sum(dy)
        dx = scale rstd (dy - dbias / n - xhat dscale / n)     (training)
        dx = scale rstd dy                                      (inference)

    Its own primitive (as in MindSpore) so that backends compute all three in two passes over the data.
    """

    @prim_attr_register
    def __init__(self, is_training=False, epsilon=1e-5, data_format="NCHW"):
        rules.check_bool(self.name, "is_training", is_training)
        check_number(self.name, "epsilon", epsilon, lo=0, hi=1, lo_open=True)
        check_str(self.name, "data_format", data_format, ("NCHW", "NHWC"))

    def infer_shape(self, dy, x, scale, saved_mean, saved_variance, reserve):
        rules.check_rank(self.name, "x", x, range(2, 6))
        rules.check_rank(self.name, "dy", dy, len(x))
        if tuple(dy) != tuple(x):
            raise MSValueError(f"For '{self.name}', the shape of 'dy' {tuple(dy)} must equal the shape of 'x' "
                               f"{tuple(x)}.")
        c = _check_channel_vectors(self.name, "x", x, self.data_format,
                                   (("scale", scale), ("saved_mean", saved_mean),
                                    ("saved_variance", saved_variance), ("reserve", reserve)))
        return tuple(x), (c,), (c,)

    def infer_dtype(self, dy, x, scale, saved_mean, saved_variance, reserve):
        rules.check_float(self.name, "x", x)
        if dy != x:
            raise MSTypeError(f"For '{self.name}', the dtype of 'dy' {dy} must equal the dtype of 'x' {x}.")
        for name, d in (("scale", scale), ("saved_mean", saved_mean), ("saved_variance", saved_variance),
                        ("reserve", reserve)):
            rules.check_float(self.name, name, d)
        return x, scale, scale

    def bprop(self, dy, x, scale, saved_mean, saved_variance, reserve, out, dout):
        # L = sum(g dx) + sum(g_s dscale) + sum(g_b dbias) per channel, with (g, g_s, g_b) = dout, is a
        # function of xhat (through dscale and dx) and of rstd directly; e = dL/dxhat gives dL/dx = e rstd,
        # dL/dmean = -rstd sum(e), and dL/dvar = -rstd^3 / 2 (dL/drstd at fixed xhat + sum(e xhat) / rstd).
        axes, stat_shape, count = _bn_layout(self.data_format, x)
        g, g_scale, g_bias = dout[0], fops.reshape(dout[1], stat_shape), fops.reshape(dout[2], stat_shape)
        s = fops.reshape(scale, stat_shape)
        rstd = fops.div(1, fops.sqrt(fops.add(fops.reshape(saved_variance, stat_shape), self.epsilon)))
        xhat = fops.mul(fops.sub(x, fops.reshape(saved_mean, stat_shape)), rstd)
        s_rstd = fops.mul(s, rstd)
        # q = sum(g (dx / (scale rstd))): dL/dscale = rstd q, and dL/drstd at fixed xhat = scale q
        q = fops.reduce_sum(fops.mul(g, dy), axes, keep_dims=True)
        d_dy = fops.add(fops.mul(g_scale, xhat), g_bias)
        # e = dL/dxhat: dscale = sum(dy xhat) gives g_s dy; in training, dx's term -scale rstd xhat dscale / n
        # gives -(scale rstd / n) (dy sum(g xhat) + g dscale)
        e = fops.mul(dy, g_scale)
        if self.is_training:
            dscale, dbias = fops.reshape(out[1], stat_shape), fops.reshape(out[2], stat_shape)
            g_sum = fops.reduce_sum(g, axes, keep_dims=True)
            g_xhat = fops.reduce_sum(fops.mul(g, xhat), axes, keep_dims=True)
            # the projection that made dx from dy is self-adjoint: the same one acts on g
            g_proj = fops.sub(fops.sub(g, fops.mul(g_sum, 1.0 / count)),
                              fops.mul(xhat, fops.mul(g_xhat, 1.0 / count)))
            d_dy = fops.add(d_dy, fops.mul(g_proj, s_rstd))
            q = fops.sub(q, fops.mul(fops.add(fops.mul(dbias, g_sum), fops.mul(dscale, g_xhat)), 1.0 / count))
            e = fops.sub(e, fops.mul(fops.add(fops.mul(dy, g_xhat), fops.mul(g, dscale)),
                                     fops.mul(s_rstd, 1.0 / count)))
        else:
            d_dy = fops.add(d_dy, fops.mul(g, s_rstd))
        d_x = fops.mul(e, rstd)
        d_mean = fops.neg(fops.mul(fops.reduce_sum(e, axes, keep_dims=True), rstd))
        d_rstd = fops.add(fops.mul(s, q), fops.div(fops.reduce_sum(fops.mul(e, xhat), axes, keep_dims=True), rstd))
        d_var = fops.mul(d_rstd, fops.mul(fops.mul(rstd, fops.mul(rstd, rstd)), -0.5))
        flat = saved_mean.shape
        return (d_dy, d_x, fops.reshape(fops.mul(q, rstd), flat), fops.reshape(d_mean, flat),
                fops.reshape(d_var, flat), None)


# --- Dropout --------------------------------------------------------------------------------
class Dropout(Primitive):
    """``Dropout(keep_prob=0.5, Seed0=0, Seed1=0)(x)`` -> ``(output, mask)``.

    Each element is kept with probability ``keep_prob`` and scaled by ``1 / keep_prob``; ``mask`` (the
    same shape and dtype as ``x``) holds 1 where kept, 0 where dropped.
    """

    @prim_attr_register
    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):
        check_number(self.name, "keep_prob", keep_prob, lo=0, hi=1, lo_open=True)
        for name, seed in (("Seed0", Seed0), ("Seed1", Seed1)):
            if rules.check_int(self.name, name, seed) < 0:
                raise MSValueError(f"For '{self.name}', the '{name}' must be non-negative, but got {seed}.")
        # both seeds 0: the stream follows the global seed (see mindspore.common.seed)
        self._random_state = OpRandomState((Seed1 << 32) | Seed0)

    def generator(self):
        """The NumPy ``Generator`` of this instance's stream (advanced by every draw; kernels seed from it)."""
        return self._random_state.generator()

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, ANY_RANK)
        return tuple(x), tuple(x)

    def infer_dtype(self, x):
        rules.check_float(self.name, "x", x)
        return x, x

    def bprop(self, x, out, dout):
        return (fops.mul(fops.mul(dout[0], out[1]), 1.0 / self.keep_prob),)


# --- L2Normalize ----------------------------------------------------------------------------
class L2Normalize(Primitive):
    """``L2Normalize(axis=0, epsilon=1e-4)(x)``: ``x / sqrt(max(sum(x^2, axis), epsilon))``."""

    @prim_attr_register
    def __init__(self, axis=0, epsilon=1e-4):
        _set_axis(self, axis)
        check_number(self.name, "epsilon", epsilon, lo=0)

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, range(1, 9))
        _softmax_axes(self.name, self.axis, len(x))
        return tuple(x)

    def infer_dtype(self, x):
        return rules.check_float(self.name, "input_x", x)

    def bprop(self, x, out, dout):
        sq = fops.reduce_sum(fops.mul(x, x), self.axis, keep_dims=True)
        over = mask_of(fops.greater(sq, self.epsilon), sq)
        inv = fops.div(1, fops.sqrt(fops.maximum(sq, self.epsilon)))
        proj = fops.reduce_sum(fops.mul(dout, out), self.axis, keep_dims=True)
        # below epsilon the denominator is the constant sqrt(epsilon): no projection term
        return (fops.mul(inv, fops.sub(dout, fops.mul(fops.mul(out, proj), over))),)


# --- ApplyMomentum ---------------------------------------------------------------------------
class ApplyMomentum(Primitive):
    """``ApplyMomentum(use_locking=False, use_nesterov=False, gradient_scale=1.0)``.

    Called as ``(variable, accumulation, learning_rate, gradient, momentum)``; updates the two
    Parameters in place and returns ``variable``::

        accumulation = accumulation * momentum + gradient * gradient_scale
        variable -= learning_rate * accumulation                       (use_nesterov=False)
        variable -= g * learning_rate + accumulation * momentum * learning_rate   (use_nesterov=True)

    ``learning_rate`` and ``momentum`` are numbers or scalar tensors, used in ``variable``'s dtype.
    ``nn.Momentum`` applies one per parameter. 2.10's CPU kernel ignores ``use_nesterov`` (it always takes
    the first update); ours follows the documented formula (the rule of ``_defs/optim.py``).
    """

    side_effect = True   # writes variable and accumulation: graphs keep it, in program order

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False, gradient_scale=1.0):
        rules.check_bool(self.name, "use_locking", use_locking)
        rules.check_bool(self.name, "use_nesterov", use_nesterov)
        if isinstance(gradient_scale, bool) or not isinstance(gradient_scale, (int, float)):
            raise MSTypeError(f"For '{self.name}', the 'gradient_scale' must be a float, but got "
                              f"{type(gradient_scale).__name__}.")

    def infer_shape(self, variable, accumulation, learning_rate, gradient, momentum):
        rules.check_same_shape(self.name, ("variable", "accumulation", "gradient"), (variable, accumulation, gradient))
        for name, v in (("learning_rate", learning_rate), ("momentum", momentum)):
            shape = rules.scalar_shape(v)
            if int(_pymath.prod(shape)) != 1:
                raise MSValueError(f"For '{self.name}', the '{name}' must be a number or a tensor with one element, "
                                   f"but got shape {tuple(shape)}.")
        return tuple(variable)

    def infer_dtype(self, variable, accumulation, learning_rate, gradient, momentum):
        rules.check_float(self.name, "variable", variable)
        rules.check_same_dtype(self.name, ("variable", "accumulation", "gradient"), (variable, accumulation, gradient))
        for name, v in (("learning_rate", learning_rate), ("momentum", momentum)):
            if not rules.is_scalar(v):
                rules.check_dtype_in(self.name, name, v, rules.NUMBER_TYPES)
        return variable

    bprop = NON_DIFFERENTIABLE


PRIMITIVES = [ReLU, ReluGrad, ReLU6, Sigmoid, GeLU, GeLUGrad, FastGeLU, HSigmoid, HSwish, Elu, CeLU, SeLU, Softplus, Softsign, Mish,
              HShrink, SoftShrink, PReLU, Softmax, SoftmaxGrad, LogSoftmax, LogSoftmaxGrad, BiasAdd, LayerNorm,
              LayerNormGrad, BatchNorm, BatchNormGrad, Dropout, L2Normalize, ApplyMomentum, FastGeLUGrad,
              SoftplusGrad] + nn_ext.PRIMITIVES
