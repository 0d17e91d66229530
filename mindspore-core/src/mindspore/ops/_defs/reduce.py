"""Reduction primitives: sums, means, extrema, arg-extrema, products, norms, cumulative extrema.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop``.
Kernels live in the backends' ``kernels/reduce.py``.

Gradient conventions (the same as MindSpore's):

* ``ReduceMax``/``ReduceMin`` send the gradient to every position equal to the extremum, divided
  equally between ties.
* ``ArgMaxWithValue``/``ArgMinWithValue``/``Median``/``Cummax``/``Cummin`` send it to the selected
  index only (a one-hot of the returned indices), so ties go to the index the forward picked.
* ``ReduceProd`` is exact with zeros: an element's gradient is the product of the others, computed
  without dividing by zero.
"""
import math as _pymath

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

_REAL_TYPES = mstype.int_type + mstype.uint_type + mstype.float_type
_INDEX_TYPES = (mstype.int32, mstype.int64)
# any rank, as MindSpore's CPU reductions (the 8-D limit of the tutorial "Network Construction and Training Error
# Analysis" is Ascend's TBE kernels'): up to NumPy's 64 dimensions
_ANY_RANK = range(0, 65)


class _Reduce(Primitive):
    """``Reduce<Op>(keep_dims)(x, axis=())``; an empty ``axis`` reduces every axis."""

    @prim_attr_register
    def __init__(self, keep_dims=False):
        rules.check_bool(self.name, "keep_dims", keep_dims)

    def __call__(self, x, axis=()):
        if hasattr(axis, "tolist") and not isinstance(axis, (tuple, list)):  # a Tensor axis (legacy form)
            axis = axis.tolist()
            axis = tuple(axis) if isinstance(axis, list) else axis
        return super().__call__(x, axis)

    def infer_shape(self, x, axis):
        rules.check_rank(self.name, "x", x, _ANY_RANK)
        _check_axis_type(self.name, axis)
        return rules.reduce_shape(self.name, x, axis, self.keep_dims)

    def infer_dtype(self, x, axis):
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)


def _check_axis_type(op, axis):
    if isinstance(axis, (tuple, list)):
        for a in axis:
            rules.check_int(op, "axis", a)
    elif axis is not None:
        rules.check_int(op, "axis", axis)


def expand_reduced(grad, x_shape, axis, keep_dims):
    """Reshape a reduced gradient so it broadcasts back against ``x_shape``."""
    if keep_dims:
        return grad
    return fops.reshape(grad, kept_shape(x_shape, axis))


def kept_shape(x_shape, axis):
    """``x_shape`` with the reduced axes set to 1 (the keep_dims shape)."""
    axes = rules.normalize_axes("Reduce", axis, len(x_shape))
    return tuple(1 if i in axes else s for i, s in enumerate(x_shape))


def reduced_count(x_shape, axis):
    """How many elements each output element of a reduction over ``axis`` combines."""
    axes = rules.normalize_axes("Reduce", axis, len(x_shape))
    return _pymath.prod(x_shape[i] for i in axes)


def _grad_back(dout, x, axis, keep_dims):
    """``dout`` reshaped to the keep_dims shape and broadcast to ``x``'s shape."""
    return fops.broadcast_to(expand_reduced(dout, x.shape, axis, keep_dims), x.shape)


# --- ReduceSum ------------------------------------------------------------------------------
class ReduceSum(_Reduce):
    """Sum over ``axis``; with ``skip_mode`` an empty ``axis`` returns ``x`` unchanged instead of summing all."""

    @prim_attr_register
    def __init__(self, keep_dims=False, skip_mode=False):
        rules.check_bool(self.name, "keep_dims", keep_dims)
        rules.check_bool(self.name, "skip_mode", skip_mode)

    def infer_shape(self, x, axis):
        if self.skip_mode and _is_empty_axis(axis):
            return rules.check_rank(self.name, "x", x, _ANY_RANK)
        return super().infer_shape(x, axis)

    def infer_dtype(self, x, axis):
        rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)
        return x   # bool sums to bool (any element true), as MindSpore's ReduceSum; ops.sum widens to int64

    def bprop(self, x, axis, out, dout):
        if self.skip_mode and _is_empty_axis(axis):
            return dout, None
        return _grad_back(dout, x, axis, self.keep_dims), None


def _is_empty_axis(axis):
    return axis is None or axis == () or axis == []


# --- ReduceMean -----------------------------------------------------------------------------
class ReduceMean(_Reduce):
    """Mean over ``axis`` (integer inputs keep their dtype; the mean is truncated)."""

    def infer_dtype(self, x, axis):
        return rules.check_dtype_in(self.name, "x", x, mstype.number_type)

    def bprop(self, x, axis, out, dout):
        g = _grad_back(dout, x, axis, self.keep_dims)
        return fops.div(g, reduced_count(x.shape, axis)), None


# --- ReduceMax ------------------------------------------------------------------------------
def _extremum_bprop(x, axis, keep_dims, out, dout):
    """Gradient of max/min: split equally between the positions that reach the extremum."""
    y = fops.broadcast_to(expand_reduced(out, x.shape, axis, keep_dims), x.shape)
    hits = fops.cast(fops.equal(x, y), dout.dtype)
    count = fops.reduce_sum(hits, axis, True)
    g = expand_reduced(dout, x.shape, axis, keep_dims)
    return fops.mul(fops.div(hits, count), g)


class ReduceMax(_Reduce):
    """Maximum over ``axis``."""

    def infer_dtype(self, x, axis):
        return rules.check_dtype_in(self.name, "x", x, _REAL_TYPES + (mstype.bool_,))

    def bprop(self, x, axis, out, dout):
        return _extremum_bprop(x, axis, self.keep_dims, out, dout), None


# --- ReduceMin ------------------------------------------------------------------------------
class ReduceMin(_Reduce):
    """Minimum over ``axis``."""

    def infer_dtype(self, x, axis):
        return rules.check_dtype_in(self.name, "x", x, _REAL_TYPES + (mstype.bool_,))

    def bprop(self, x, axis, out, dout):
        return _extremum_bprop(x, axis, self.keep_dims, out, dout), None


# --- ReduceProd -----------------------------------------------------------------------------
class ReduceProd(_Reduce):
    """Product over ``axis``."""

    def infer_dtype(self, x, axis):
        return rules.check_dtype_in(self.name, "x", x, mstype.number_type)

    def bprop(self, x, axis, out, dout):
        # d prod / d x_i = product of the other elements. With z = (x == 0) and p = the product of
        # the non-zero elements (zeros replaced by 1): a non-zero x_i gets p / x_i when its slice has
        # no zero; a zero x_i gets p when it is the only zero; everything else gets 0.
        zero = fops.cast(fops.equal(x, 0), x.dtype)
        safe = fops.add(x, zero)
        p = self._grad_prim(ReduceProd, True)(safe, axis)
        zeros = fops.reduce_sum(zero, axis, True)
        no_zero = fops.cast(fops.equal(zeros, 0), x.dtype)
        one_zero = fops.cast(fops.equal(zeros, 1), x.dtype)
        g_nonzero = fops.mul(fops.div(p, safe), no_zero)
        g_zero = fops.mul(p, one_zero)
        g = fops.add(fops.mul(zero, g_zero), fops.mul(fops.sub(1, zero), g_nonzero))
        return fops.mul(g, expand_reduced(dout, x.shape, axis, self.keep_dims)), None


# --- ReduceAll ------------------------------------------------------------------------------
class ReduceAll(_Reduce):
    """Logical AND over ``axis`` of a bool tensor."""

    def infer_dtype(self, x, axis):
        return rules.check_dtype_in(self.name, "x", x, (mstype.bool_,))

    bprop = NON_DIFFERENTIABLE


# --- ReduceAny ------------------------------------------------------------------------------
class ReduceAny(_Reduce):
    """Logical OR over ``axis`` of a bool tensor."""

    def infer_dtype(self, x, axis):
        return rules.check_dtype_in(self.name, "x", x, (mstype.bool_,))

    bprop = NON_DIFFERENTIABLE


# --- Argmax ---------------------------------------------------------------------------------
def _drop_axis(op, shape, axis, keep_dims=False):
    rules.check_rank(op, "x", shape, _ANY_RANK)
    if not shape:
        rules.check_axis(op, axis, 0)
        return ()
    a = rules.check_axis(op, axis, len(shape))
    if keep_dims:
        return tuple(1 if i == a else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i != a)


class Argmax(Primitive):
    """``Argmax(axis=-1, output_type=int32)(x)``: the index of the (first) maximum along ``axis``."""

    @prim_attr_register
    def __init__(self, axis=-1, output_type=mstype.int32):
        rules.check_int(self.name, "axis", axis)
        if output_type not in _INDEX_TYPES:
            raise MSTypeError(f"For '{self.name}', the 'output_type' must be in ['Int32', 'Int64'], "
                              f"but got {output_type}.")

    def infer_shape(self, x):
        return _drop_axis(self.name, x, self.axis)

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "x", x, _REAL_TYPES)
        return self.output_type

    bprop = NON_DIFFERENTIABLE


# --- Argmin ---------------------------------------------------------------------------------
class Argmin(Argmax):
    """``Argmin(axis=-1, output_type=int32)(x)``: the index of the (first) minimum along ``axis``."""

    bprop = NON_DIFFERENTIABLE


# --- ArgMaxWithValue ------------------------------------------------------------------------
def _index_select_grad(x, axis, keep_dims, index, dout):
    """Gradient w.r.t. ``x`` of picking ``x`` at ``index`` along ``axis``: dout scattered one-hot."""
    rank = len(x.shape)
    a = axis % rank if rank else 0
    if not rank:
        return dout
    if not keep_dims:
        index = fops.reshape(index, kept_shape(x.shape, a))
        dout = fops.reshape(dout, kept_shape(x.shape, a))
    onehot = fops.one_hot(index, x.shape[a], 1.0, 0.0, a)
    onehot = fops.reshape(onehot, x.shape)
    return fops.mul(fops.cast(onehot, dout.dtype), dout)


class ArgMaxWithValue(Primitive):
    """``ArgMaxWithValue(axis=0, keep_dims=False)(x)`` -> ``(index, value)`` of the maximum along ``axis``.

    NaN as MindSpore's kernels treat it: the scan keeps the first element and replaces it only by a strictly
    greater value, so a leading NaN is the result, any later NaN is skipped.
    """

    @prim_attr_register
    def __init__(self, axis=0, keep_dims=False):
        rules.check_int(self.name, "axis", axis)
        rules.check_bool(self.name, "keep_dims", keep_dims)

    def infer_shape(self, x):
        out = _drop_axis(self.name, x, self.axis, self.keep_dims)
        return out, out

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "x", x, _REAL_TYPES)
        return mstype.int64, x   # MindSpore 2.10's index dtype (ops.max/ops.min along an axis return it too)

    def bprop(self, x, out, dout):
        return (_index_select_grad(x, self.axis, self.keep_dims, out[0], dout[1]),)


# --- ArgMinWithValue ------------------------------------------------------------------------
class ArgMinWithValue(ArgMaxWithValue):
    """``ArgMinWithValue(axis=0, keep_dims=False)(x)`` -> ``(index, value)`` of the minimum along ``axis``."""

    def bprop(self, x, out, dout):
        return (_index_select_grad(x, self.axis, self.keep_dims, out[0], dout[1]),)


# --- Median ---------------------------------------------------------------------------------
class Median(Primitive):
    """``Median(global_median=False, axis=0, keep_dims=False, ignore_nan=False)(x)`` -> ``(value, index)``.

    The median of an even count is the lower of the two middle values (MindSpore's and torch's rule).
    With ``global_median`` the whole tensor is reduced and the index output is ``0``.
    """

    @prim_attr_register
    def __init__(self, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
        rules.check_bool(self.name, "global_median", global_median)
        rules.check_int(self.name, "axis", axis)
        rules.check_bool(self.name, "keep_dims", keep_dims)
        rules.check_bool(self.name, "ignore_nan", ignore_nan)

    def infer_shape(self, x):
        if self.global_median or not x:
            rules.check_rank(self.name, "x", x, _ANY_RANK)
            size = 0 if 0 in x else 1
        else:
            out = _drop_axis(self.name, x, self.axis, self.keep_dims)
            size = x[self.axis % len(x)]
        if size == 0:   # no median of nothing (and no identity to return)
            raise MSValueError(f"For '{self.name}', the input must have elements along the reduced axis, but got "
                               f"shape {tuple(x)}.")
        if self.global_median:
            return (), ()
        return out, out

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "x", x, _REAL_TYPES)
        return x, mstype.int64

    def bprop(self, x, out, dout):
        if self.global_median:
            hits = fops.cast(fops.equal(x, out[0]), dout[0].dtype)
            return (fops.mul(fops.div(hits, fops.reduce_sum(hits)), dout[0]),)
        return (_index_select_grad(x, self.axis, self.keep_dims, out[1], dout[0]),)


# --- Cummax ---------------------------------------------------------------------------------
def _cumulative_select_grad(x, axis, index, dout):
    """Gradient of ``out[j] = x[index[j]]`` along ``axis``: ``dx[k] = sum_j dout[j] * (index[j] == k)``."""
    rank = len(x.shape)
    if not rank:
        return dout
    a = axis % rank
    n = x.shape[a]
    onehot = fops.cast(fops.one_hot(index, n, 1.0, 0.0, a + 1), dout.dtype)  # j at a, k at a + 1
    expanded = tuple(1 if i == a + 1 else s for i, s in enumerate(onehot.shape))
    weighted = fops.mul(onehot, fops.reshape(dout, expanded))
    return fops.reduce_sum(weighted, a)


class Cummax(Primitive):
    """``Cummax(axis)(x)`` -> ``(values, indices)``: running maximum along ``axis`` and where it was reached."""

    #: the dtype of the indices (MindSpore 2.10: Int64 for Cummax, Int32 for Cummin); kernels read it
    index_dtype = mstype.int64

    @prim_attr_register
    def __init__(self, axis):
        rules.check_int(self.name, "axis", axis)

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, _ANY_RANK)
        rules.check_axis(self.name, self.axis, len(x))
        return x, x

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "x", x, _REAL_TYPES)
        return x, self.index_dtype

    def bprop(self, x, out, dout):
        return (_cumulative_select_grad(x, self.axis, out[1], dout[0]),)


# --- Cummin ---------------------------------------------------------------------------------
class Cummin(Cummax):
    """``Cummin(axis)(x)`` -> ``(values, indices)``: running minimum along ``axis`` and where it was reached."""

    index_dtype = mstype.int32

    def bprop(self, x, out, dout):
        return (_cumulative_select_grad(x, self.axis, out[1], dout[0]),)


# --- LpNorm ---------------------------------------------------------------------------------
class LpNorm(Primitive):
    """``LpNorm(axis, p=2, keep_dims=False, epsilon=1e-12)(x)``: ``(sum |x|^p)^(1/p)`` over ``axis``.

    ``epsilon`` bounds the norm away from zero in the gradient, so the gradient at ``x = 0`` is 0.
    """

    @prim_attr_register
    def __init__(self, axis, p=2, keep_dims=False, epsilon=1e-12):
        _check_axis_type(self.name, axis)
        p = rules.check_int(self.name, "p", p)
        if p < 0:
            raise MSValueError(f"For '{self.name}', the 'p' must be non-negative, but got {p}.")
        rules.check_bool(self.name, "keep_dims", keep_dims)
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)):
            raise MSTypeError(f"For '{self.name}', the 'epsilon' must be a float, but got "
                              f"{type(epsilon).__name__}.")

    def infer_shape(self, x):
        rules.check_rank(self.name, "input", x, _ANY_RANK)
        return rules.reduce_shape(self.name, x, self.axis, self.keep_dims)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input", x, (mstype.float16, mstype.float32, mstype.float64))

    def bprop(self, x, out, dout):
        g = expand_reduced(dout, x.shape, self.axis, self.keep_dims)
        if self.p == 0:
            return (fops.zeros_like(x),)
        if self.p == 1:
            return (fops.mul(fops.sign(x), g),)
        norm = fops.maximum(expand_reduced(out, x.shape, self.axis, self.keep_dims), self.epsilon)
        if self.p == 2:
            return (fops.mul(fops.div(x, norm), g),)
        scale = fops.div(fops.pow(fops.abs(x), self.p - 1), fops.pow(norm, self.p - 1))
        return (fops.mul(fops.mul(fops.sign(x), scale), g),)


# --- L2Loss ---------------------------------------------------------------------------------
class L2Loss(Primitive):
    """``L2Loss()(x)``: ``sum(x ** 2) / 2``, a scalar."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, _ANY_RANK)
        return ()

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input_x", x, (mstype.float16, mstype.float32, mstype.float64))

    def bprop(self, x, out, dout):
        return (fops.mul(x, dout),)


# --- ReduceStd ------------------------------------------------------------------------------
class ReduceStd(Primitive):
    """``ReduceStd(axis=(), unbiased=True, keep_dims=False)(x)`` -> ``(std, mean)`` over ``axis``."""

    @prim_attr_register
    def __init__(self, axis=(), unbiased=True, keep_dims=False):
        _check_axis_type(self.name, axis)
        rules.check_bool(self.name, "unbiased", unbiased)
        rules.check_bool(self.name, "keep_dims", keep_dims)

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, _ANY_RANK)
        out = rules.reduce_shape(self.name, x, self.axis, self.keep_dims)
        return out, out

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "input_x", x, (mstype.float16, mstype.float32, mstype.float64))
        return x, x

    def bprop(self, x, out, dout):
        n = reduced_count(x.shape, self.axis)
        dof = n - 1 if self.unbiased else n
        std = expand_reduced(out[0], x.shape, self.axis, self.keep_dims)
        mean = expand_reduced(out[1], x.shape, self.axis, self.keep_dims)
        d_std = expand_reduced(dout[0], x.shape, self.axis, self.keep_dims)
        d_mean = expand_reduced(dout[1], x.shape, self.axis, self.keep_dims)
        centred = fops.sub(x, mean)
        g_std = fops.mul(fops.div(centred, fops.mul(std, dof)), d_std)
        g_mean = fops.div(d_mean, n)
        return (fops.add(g_std, g_mean),)


PRIMITIVES = [ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceAll, ReduceAny, Argmax, Argmin,
              ArgMaxWithValue, ArgMinWithValue, Median, Cummax, Cummin, LpNorm, L2Loss, ReduceStd]
