"""More math primitives of MindSpore 2.10: ``Dense``, ``Cross``, ``Ger``, ``Logit``, ``GLU``, ``Cdist``, ``Renorm``,
``SquareSumAll``, ``CumulativeLogsumexp``, ``Eps``, the counting and searching primitives ``Bincount``,
``Histogram``, ``HistogramFixedWidth``, ``SearchSorted``, ``Bucketize``, ``LowerBound``, ``UpperBound``,
``ApproximateEqual``, and ``LogSpace``.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop`` (or
``NON_DIFFERENTIABLE``). Semantics follow MindSpore 2.10 (CPU): ``Cross``'s default ``dim`` (-65530) means the
first dimension of size 3; ``Logit(eps)`` clamps to ``[eps, 1 - eps]`` when ``eps >= 0``; ``Bucketize`` counts
the boundaries ``<= x``; ``Histogram`` drops values outside ``[min, max]`` (both 0: the data's range) and
counts in the input's float dtype; ``HistogramFixedWidth`` puts values below/above its range into the first/last
bin; ``Renorm`` scales each slice along ``dim`` whose p-norm exceeds ``maxnorm`` by ``maxnorm / (norm + 1e-7)``.
Kernels live in the backends' ``kernels/math_misc.py``.
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops._defs.math_ext import CumSum
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, constexpr, prim_attr_register

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)
_INDEX = (mstype.int32, mstype.int64)
_REAL = rules.INT_TYPES + _FLOATS
_CROSS_DEFAULT = -65530


def cross_dim(op, shape, dim):
    """The axis ``Cross`` works along: ``dim``, or the first axis of size 3 for the default."""
    if dim == _CROSS_DEFAULT:
        for i, s in enumerate(shape):
            if s == 3:
                return i
        raise MSValueError(f"For '{op}', no dimension of size 3 in 'x1' of shape {tuple(shape)}.")
    axis = rules.check_axis(op, dim, len(shape), "dim")
    if shape[axis] != 3:
        raise MSValueError(f"For '{op}', the size of 'x1' at 'dim' must be 3, but got {shape[axis]}.")
    return axis


# --- Cross / Ger ------------------------------------------------------------------------------
class Cross(Primitive):
    """``Cross(dim=-65530)(x1, x2)``: the 3-vector cross product along ``dim``."""

    @prim_attr_register
    def __init__(self, dim=_CROSS_DEFAULT):
        rules.check_int(self.name, "dim", dim)

    def infer_shape(self, x1, x2):
        if tuple(x1) != tuple(x2):
            raise MSValueError(f"For '{self.name}', 'x1' and 'x2' must have the same shape, but got {tuple(x1)} and "
                               f"{tuple(x2)}.")
        cross_dim(self.name, x1, self.dim)
        return tuple(x1)

    def infer_dtype(self, x1, x2):
        rules.check_dtype_in(self.name, "x1", x1, rules.NUMBER_TYPES)
        return rules.check_same_dtype(self.name, ("x1", "x2"), (x1, x2))

    def bprop(self, x1, x2, out, dout):
        return self._grad_prim(Cross, self.dim)(x2, dout), self._grad_prim(Cross, self.dim)(dout, x1)


class Ger(Primitive):
    """``Ger()(x1, x2)``: the outer product of two 1-D tensors, ``(len(x1), len(x2))``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x1, x2):
        rules.check_rank(self.name, "x1", x1, 1)
        rules.check_rank(self.name, "x2", x2, 1)
        return (x1[0], x2[0])

    def infer_dtype(self, x1, x2):
        rules.check_dtype_in(self.name, "x1", x1, _FLOATS + _INDEX)
        return rules.check_same_dtype(self.name, ("x1", "x2"), (x1, x2))

    def bprop(self, x1, x2, out, dout):
        dx1 = fops.reduce_sum(fops.mul(dout, fops.expand_dims(x2, 0)), 1)
        dx2 = fops.reduce_sum(fops.mul(dout, fops.expand_dims(x1, 1)), 0)
        return dx1, dx2


# --- Logit / GLU ---------------------------------------------------------------------------
class Logit(Primitive):
    """``Logit(eps=-1.0)(x)``: ``log(z / (1 - z))``, ``z`` = ``x`` clamped to ``[eps, 1 - eps]`` when ``eps >= 0``."""

    @prim_attr_register
    def __init__(self, eps=-1.0):
        if isinstance(eps, bool) or not isinstance(eps, (int, float)):
            raise MSTypeError(f"For '{self.name}', the 'eps' must be a float, but got {type(eps).__name__}.")

    def infer_shape(self, x):
        return tuple(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _FLOATS)

    def bprop(self, x, out, dout):
        grad = fops.div(dout, fops.mul(x, fops.sub(1.0, x)))
        if self.eps < 0:
            return (grad,)
        inside = fops.logical_and(fops.greater_equal(x, self.eps), fops.less_equal(x, 1.0 - self.eps))
        return (fops.select(inside, grad, fops.zeros_like(grad)),)


class GLU(Primitive):
    """``GLU(axis=-1)(x)``: ``a * sigmoid(b)`` where ``a, b`` are ``x``'s halves along ``axis``."""

    @prim_attr_register
    def __init__(self, axis=-1):
        rules.check_int(self.name, "axis", axis)

    def infer_shape(self, x):
        axis = rules.check_axis(self.name, self.axis, len(x))
        if x[axis] % 2:
            raise MSValueError(f"For '{self.name}', x.shape[{self.axis}] must be even, but got {x[axis]}.")
        return tuple(x[:axis]) + (x[axis] // 2,) + tuple(x[axis + 1:])

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _FLOATS)

    def bprop(self, x, out, dout):
        a, b = fops.split(x, fops.shape(x)[self.axis] // 2, self.axis)
        sig = fops.sigmoid(b)
        da = fops.mul(dout, sig)
        db = fops.mul(fops.mul(dout, a), fops.mul(sig, fops.sub(1.0, sig)))
        return (fops.concat((da, db), self.axis),)


# --- Cdist ---------------------------------------------------------------------------------
class Cdist(Primitive):
    """``Cdist(p=2.0)(x1, x2)``: the p-norm distances between the rows of ``x1`` ``(B, P, M)`` and of ``x2``
    ``(B, R, M)`` (or 2-D without the batch), ``(B, P, R)``."""

    @prim_attr_register
    def __init__(self, p=2.0):
        if isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0:
            raise MSValueError(f"For '{self.name}', the 'p' must be a non-negative float, but got {p}.")
        self.p_is_inf = p == float("inf")

    def infer_shape(self, x1, x2):
        rules.check_rank(self.name, "x1", x1, (2, 3))
        if len(x2) != len(x1) or x1[-1] != x2[-1] or tuple(x1[:-2]) != tuple(x2[:-2]):
            raise MSValueError(f"For '{self.name}', the shapes of 'x1' {tuple(x1)} and 'x2' {tuple(x2)} must agree "
                               f"in batch and feature size.")
        return tuple(x1[:-1]) + (x2[-2],)

    def infer_dtype(self, x1, x2):
        rules.check_dtype_in(self.name, "x1", x1, (mstype.float32, mstype.float64))
        return rules.check_same_dtype(self.name, ("x1", "x2"), (x1, x2))

    def bprop(self, x1, x2, out, dout):
        if self.p == 2.0:     # 2.10's CdistGrad, for x1 and (transposed) for x2
            return (_euclid_grad(x1, x2, dout, out),
                    _euclid_grad(x2, x1, fops.swapaxes(dout, -1, -2), fops.swapaxes(out, -1, -2)))
        diff = fops.sub(fops.expand_dims(x1, -2), fops.expand_dims(x2, -3))
        dist = fops.expand_dims(out, -1)
        nonzero = fops.not_equal(dist, 0)
        safe = fops.select(nonzero, dist, fops.ones_like(dist))
        if self.p_is_inf:
            mag = fops.abs(diff)
            part = fops.mul(fops.sign(diff), fops.cast(fops.equal(mag, dist), fops.dtype(diff)))
        elif self.p == 0:
            part = fops.zeros_like(diff)
        else:
            scaled = fops.div(fops.abs(diff), safe)
            part = fops.mul(fops.sign(diff), fops.pow(scaled, self.p - 1.0))
        grad = fops.mul(fops.expand_dims(dout, -1), fops.select(fops.broadcast_to(nonzero, fops.shape(part)), part,
                                                                 fops.zeros_like(part)))
        return fops.reduce_sum(grad, -2), fops.neg(fops.reduce_sum(grad, -3))


def _euclid_grad(a, b, dout, dist):
    """The gradient of the p=2 distances ``dist`` (..., P, R) with respect to ``a`` (..., P, M), as MindSpore 2.10's
    CdistGrad kernel computes it: ``(dout * (a_i - b_j)) / dist`` (0 where the distance is 0), added over ``j`` in
    order in the dtype (a cumulative sum's last entry: the order decides the last bits)."""
    d = fops.expand_dims(dist, -1)
    terms = fops.div(fops.mul(fops.expand_dims(dout, -1), fops.sub(fops.expand_dims(a, -2), fops.expand_dims(b, -3))),
                     d)
    terms = fops.select(fops.broadcast_to(fops.not_equal(d, 0), fops.shape(terms)), terms, fops.zeros_like(terms))
    return fops.squeeze(fops.narrow(fops.cumsum(terms, -2), -2, fops.shape(terms)[-2] - 1, 1), -2)


@constexpr
def _other_axes(rank, dim):
    dim = dim % rank
    return tuple(i for i in range(rank) if i != dim)


# --- Renorm --------------------------------------------------------------------------------
class Renorm(Primitive):
    """``Renorm(p, dim, maxnorm)(x)``: each slice of ``x`` along ``dim`` whose p-norm exceeds ``maxnorm``
    scaled by ``maxnorm / (norm + 1e-7)``."""

    @prim_attr_register
    def __init__(self, p, dim, maxnorm):
        rules.check_int(self.name, "p", p)
        if p <= 0:
            raise MSValueError(f"For '{self.name}', the 'p' must be greater than 0, but got {p}.")
        rules.check_int(self.name, "dim", dim)
        if isinstance(maxnorm, bool) or not isinstance(maxnorm, (int, float)) or maxnorm < 0:
            raise MSValueError(f"For '{self.name}', the 'maxnorm' must be a non-negative float, but got {maxnorm}.")

    def infer_shape(self, x):
        rules.check_axis(self.name, self.dim, len(x), "dim")
        return tuple(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _FLOATS)

    def bprop(self, x, out, dout):
        others = _other_axes(len(x.shape), self.dim)
        norm = fops.pow(fops.reduce_sum(fops.pow(fops.abs(x), self.p), others, True), 1.0 / self.p)
        over = fops.greater(norm, self.maxnorm)
        denom = fops.add(norm, 1e-7)
        scale = fops.select(over, fops.div(fops.zeros_like(norm) + self.maxnorm, denom), fops.ones_like(norm))
        dscale = fops.select(over, fops.neg(fops.div(fops.zeros_like(norm) + self.maxnorm, fops.square(denom))),
                             fops.zeros_like(norm))
        safe = fops.select(fops.equal(norm, 0), fops.ones_like(norm), norm)
        dnorm = fops.mul(fops.sign(x), fops.pow(fops.div(fops.abs(x), safe), self.p - 1.0))
        inner = fops.reduce_sum(fops.mul(dout, x), others, True)
        return (fops.add(fops.mul(dout, scale), fops.mul(fops.mul(inner, dscale), dnorm)),)


# --- SquareSumAll / CumulativeLogsumexp / Eps ---------------------------------------------------
class SquareSumAll(Primitive):
    """``SquareSumAll()(x, y)``: ``(sum(x**2), sum(y**2))``, two 0-d tensors."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, y):
        rules.check_same_shape(self.name, ("x", "y"), (x, y))
        return (), ()

    def infer_dtype(self, x, y):
        rules.check_dtype_in(self.name, "x", x, _FLOATS)
        d = rules.check_same_dtype(self.name, ("x", "y"), (x, y))
        return d, d

    def bprop(self, x, y, out, dout):
        return fops.mul(fops.mul(x, 2.0), dout[0]), fops.mul(fops.mul(y, 2.0), dout[1])


class CumulativeLogsumexp(Primitive):
    """``CumulativeLogsumexp(exclusive=False, reverse=False)(x, axis)``: ``log(cumsum(exp(x)))`` along
    ``axis`` without overflow (an exclusive sum starts at the dtype's lowest value)."""

    @prim_attr_register
    def __init__(self, exclusive=False, reverse=False):
        rules.check_bool(self.name, "exclusive", exclusive)
        rules.check_bool(self.name, "reverse", reverse)

    def infer_shape(self, x, axis):
        if isinstance(axis, int):
            rules.check_axis(self.name, axis, len(x))
        else:
            rules.check_rank(self.name, "axis", axis, 0)
        return tuple(x)

    def infer_dtype(self, x, axis):
        if isinstance(axis, mstype.Type):
            rules.check_dtype_in(self.name, "axis", axis, (mstype.int16, mstype.int32, mstype.int64))
        return rules.check_dtype_in(self.name, "x", x, _FLOATS)

    def bprop(self, x, axis, out, dout):
        # d out_i / d x_j = exp(x_j - out_i) for every i whose sum holds j: a cumulative sum the other way
        back = self._grad_prim(CumSum, self.exclusive, not self.reverse)(fops.mul(dout, fops.exp(fops.neg(out))), axis)
        dx = fops.mul(back, fops.exp(x))
        return dx, (None if isinstance(axis, int) else fops.zeros_like(axis))


class Eps(Primitive):
    """``Eps()(x)``: a tensor like ``x`` filled with its float dtype's machine epsilon."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return tuple(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _FLOATS)

    def bprop(self, x, out, dout):
        return (fops.zeros_like(x),)


# --- counting and searching ------------------------------------------------------------------
class Bincount(Primitive):
    """``Bincount()(array, size, weights)``: ``out[i]`` = the sum of ``weights`` where ``array == i``, for
    ``i < size`` (``size`` a 0-d int32 tensor or an int), in ``weights``' dtype."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, array, size, weights):
        if isinstance(size, int):
            if size < 0:
                raise MSValueError(f"For '{self.name}', the 'size' must be non-negative, but got {size}.")
            return (size,)
        rules.check_rank(self.name, "size", size, 0)
        return (-1,)

    def infer_dtype(self, array, size, weights):
        rules.check_dtype_in(self.name, "array", array, (mstype.int32,))
        return rules.check_dtype_in(self.name, "weights", weights, (mstype.int32, mstype.int64, mstype.float32,
                                                                    mstype.float64))

    bprop = NON_DIFFERENTIABLE


class Histogram(Primitive):
    """``Histogram(bins=100, min=0.0, max=0.0)(x)``: counts of ``x`` in ``bins`` equal bins of ``[min, max]``
    (the data's range when both are 0), in ``x``'s dtype."""

    @prim_attr_register
    def __init__(self, bins=100, min=0.0, max=0.0):  # noqa: A002 - MindSpore's attribute names
        rules.check_positive_int(self.name, "bins", bins)
        if min > max:
            raise MSValueError(f"For '{self.name}', the attr 'min' must be less than or equal to 'max', but got "
                               f"min {min} and max {max}.")

    def infer_shape(self, x):
        return (self.bins,)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, (mstype.int32, mstype.float16, mstype.float32))

    bprop = NON_DIFFERENTIABLE


class HistogramFixedWidth(Primitive):
    """``HistogramFixedWidth(nbins, dtype='int32')(x, range)``: counts of ``x`` in ``nbins`` equal bins of
    ``[range[0], range[1])``; values below (above) go to the first (last) bin."""

    @prim_attr_register
    def __init__(self, nbins, dtype="int32"):
        rules.check_positive_int(self.name, "nbins", nbins)
        if dtype != "int32":
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be 'int32', but got {dtype}.")

    def infer_shape(self, x, range):  # noqa: A002
        rules.check_rank(self.name, "range", range, 1)
        return (self.nbins,)

    def infer_dtype(self, x, range):  # noqa: A002
        rules.check_dtype_in(self.name, "x", x, (mstype.int32, mstype.float16, mstype.float32, mstype.float64))
        rules.check_same_dtype(self.name, ("x", "range"), (x, range))
        return mstype.int32

    bprop = NON_DIFFERENTIABLE


class SearchSorted(Primitive):
    """``SearchSorted(dtype=int64, right=False)(sorted_sequence, values)``: for each value, the index in its
    row of ``sorted_sequence`` where it would be inserted keeping the order."""

    @prim_attr_register
    def __init__(self, dtype=mstype.int64, right=False):
        if dtype not in _INDEX:
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be int32 or int64, but got {dtype}.")
        rules.check_bool(self.name, "right", right)

    def infer_shape(self, sorted_sequence, values):
        if len(sorted_sequence) > 1 and tuple(sorted_sequence[:-1]) != tuple(values[:-1]):
            raise MSValueError(f"For '{self.name}', the leading dimensions of 'sorted_sequence' "
                               f"{tuple(sorted_sequence)} and 'values' {tuple(values)} must be the same.")
        return tuple(values)

    def infer_dtype(self, sorted_sequence, values):
        rules.check_dtype_in(self.name, "sorted_sequence", sorted_sequence, _REAL)
        rules.check_same_dtype(self.name, ("sorted_sequence", "values"), (sorted_sequence, values))
        return self.dtype

    bprop = NON_DIFFERENTIABLE


class _Bound(Primitive):
    right = False

    @prim_attr_register
    def __init__(self, out_type=mstype.int32):
        if out_type not in _INDEX:
            raise MSTypeError(f"For '{self.name}', the 'out_type' must be int32 or int64, but got {out_type}.")

    def infer_shape(self, sorted_x, values):
        rules.check_rank(self.name, "sorted_x", sorted_x, 2)
        rules.check_rank(self.name, "values", values, 2)
        if sorted_x[0] != values[0]:
            raise MSValueError(f"For '{self.name}', the first dimension of 'sorted_x' and 'values' must be equal, "
                               f"but got {sorted_x[0]} and {values[0]}.")
        return tuple(values)

    def infer_dtype(self, sorted_x, values):
        rules.check_dtype_in(self.name, "sorted_x", sorted_x, _REAL)
        rules.check_same_dtype(self.name, ("sorted_x", "values"), (sorted_x, values))
        return self.out_type

    bprop = NON_DIFFERENTIABLE


class LowerBound(_Bound):
    """``LowerBound(out_type=int32)(sorted_x, values)``: per row, the first index whose element is ``>= value``."""


class UpperBound(_Bound):
    """``UpperBound(out_type=int32)(sorted_x, values)``: per row, the first index whose element is ``> value``."""

    right = True


class Bucketize(Primitive):
    """``Bucketize(boundaries)(x)``: for each element, the number of ``boundaries`` (a sorted list of floats)
    that are ``<= x``, as int32."""

    @prim_attr_register
    def __init__(self, boundaries):
        if not isinstance(boundaries, (list, tuple)):
            raise MSTypeError(f"For '{self.name}', the 'boundaries' must be a list of float, but got "
                              f"{type(boundaries).__name__}.")
        if any(b > c for b, c in zip(boundaries, boundaries[1:])):
            raise MSValueError(f"For '{self.name}', the 'boundaries' must be sorted, but got {list(boundaries)}.")

    def infer_shape(self, x):
        return tuple(x)

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "input", x, _REAL)
        return mstype.int32

    bprop = NON_DIFFERENTIABLE


class ApproximateEqual(Primitive):
    """``ApproximateEqual(tolerance=1e-5)(x, y)``: ``|x - y| < tolerance`` elementwise, a bool tensor."""

    @prim_attr_register
    def __init__(self, tolerance=1e-5):
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)):
            raise MSTypeError(f"For '{self.name}', the 'tolerance' must be a float, but got "
                              f"{type(tolerance).__name__}.")

    def infer_shape(self, x, y):
        return rules.check_same_shape(self.name, ("x", "y"), (x, y))

    def infer_dtype(self, x, y):
        rules.check_dtype_in(self.name, "x", x, _FLOATS)
        rules.check_same_dtype(self.name, ("x", "y"), (x, y))
        return mstype.bool_

    bprop = NON_DIFFERENTIABLE


class LogSpace(Primitive):
    """``LogSpace(steps=10, base=10, dtype=float32)(start, end)``: ``base ** linspace(start, end, steps)``
    (``start``/``end`` 0-d tensors)."""

    @prim_attr_register
    def __init__(self, steps=10, base=10, dtype=mstype.float32):
        rules.check_int(self.name, "steps", steps)
        if steps < 0:
            raise MSValueError(f"For '{self.name}', the 'steps' must be non-negative, but got {steps}.")
        rules.check_int(self.name, "base", base)
        if dtype not in _FLOATS:
            raise MSTypeError(f"For '{self.name}', the 'dtype' should be one of [float16, float32, float64], but "
                              f"got {dtype}.")

    def infer_shape(self, start, end):
        rules.check_rank(self.name, "start", start, 0)
        rules.check_rank(self.name, "end", end, 0)
        return (self.steps,)

    def infer_dtype(self, start, end):
        rules.check_dtype_in(self.name, "start", start, _FLOATS)
        rules.check_same_dtype(self.name, ("start", "end"), (start, end))
        return self.dtype

    bprop = NON_DIFFERENTIABLE


# --- Dense ------------------------------------------------------------------------------------------------
class Dense(Primitive):
    """``Dense()(x, w, b=None)``: ``x @ w^T + b`` (``w`` (out, in) or 1-D (in,), ``x`` (..., in))."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, w, b=None):
        return super().__call__(x, w, b)

    def infer_shape(self, x, w, b=None):
        rules.check_rank(self.name, "w", w, (1, 2))
        if not x or x[-1] != w[-1]:
            raise MSValueError(f"For '{self.name}', the last dimension of 'x' {tuple(x)} must equal that of 'w' "
                               f"{tuple(w)}.")
        out = tuple(x[:-1]) + ((w[0],) if len(w) == 2 else ())
        if b is not None and b != ():
            rules.broadcast_shapes(self.name, out, b)
        return out

    def infer_dtype(self, x, w, b=None):
        rules.check_dtype_in(self.name, "x", x, _FLOATS + (mstype.bfloat16,))
        d = rules.check_same_dtype(self.name, ("x", "w"), (x, w))
        if isinstance(b, mstype.Type):
            rules.check_same_dtype(self.name, ("x", "b"), (x, b))
        return d

    def bprop(self, x, w, b, out, dout):
        if len(w.shape) == 1:
            g = fops.expand_dims(dout, -1)
            dx = fops.mul(g, w)
            dw = fops.reshape(fops.matmul(fops.reshape(g, (1, -1)), fops.reshape(x, (-1, w.shape[0]))), w.shape)
        else:
            dx = fops.matmul(dout, w)
            flat_g = fops.reshape(dout, (-1, w.shape[0]))
            dw = fops.matmul(fops.swapaxes(flat_g, 0, 1), fops.reshape(x, (-1, w.shape[1])))
        db = None if b is None else dout
        return dx, dw, db


PRIMITIVES = [Dense, Cross, Ger, Logit, GLU, Cdist, Renorm, SquareSumAll, CumulativeLogsumexp, Eps, Bincount, Histogram,
              HistogramFixedWidth, SearchSorted, LowerBound, UpperBound, Bucketize, ApproximateEqual, LogSpace]
