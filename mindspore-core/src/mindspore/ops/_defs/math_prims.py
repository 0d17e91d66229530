"""Math, linalg, segment and array primitives of MindSpore 2.10 that the functional API is built on:
the segment reductions (``UnsortedSegmentSum/Max/Min/Prod``, ``SegmentSum/Max/Mean/Min/Prod``), ``EuclideanNorm``,
``CountNonZero``, ``ConjugateTranspose``, ``PopulationCount``, ``Polar``, ``NthElement``, ``Quantile``, ``Pdist``
(and its gradient ``PdistGrad``), ``Lstsq``, ``LuSolve``, ``MatrixLogarithm``, ``Qr``, ``NuclearNorm``,
``TridiagonalMatMul``, ``AccumulateNV2``, ``CompareAndBitpack``, ``Expand``, ``FillV2``, ``Fills``,
``LerpScalar``, ``LogSoftmaxExt``, ``EqualCount``, ``InTopK``, ``UniqueWithPad``, ``ListDiff``, ``RaggedRange``,
``ParallelConcat``, ``ScatterAddWithAxis``, the value primitives ``TensorShape``, ``DynamicShape``,
``TupleToArray``, ``ScalarToArray``, ``ScalarToTensor``, ``ScalarCast``, ``DtypeToEnum``, the diagonal primitives
``MatrixDiagV3``, ``MatrixDiagPartV3``, ``MatrixSetDiagV3``, ``MatrixSolveLs``, ``Ormqr``, ``EditDistance``,
``NoRepeatNGram``, ``IndexPut`` and ``InplaceIndexAdd`` (whose kernels are ``IndexAdd``'s); ``QuantileGrad`` is
``Quantile``'s gradient.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop`` (or
``NON_DIFFERENTIABLE``; differentiable exactly where MindSpore 2.10 registers a gradient). Semantics follow
MindSpore 2.10 (CPU):

* unsorted segment reductions drop ids outside ``[0, num_segments)``; an empty segment gets 0 (sum), 1 (prod), or
  the dtype's lowest/highest value (max/min); the sorted ``Segment*`` need ascending non-negative ids, give
  ``segment_ids[-1] + 1`` rows, and 0 for an empty segment (also for max/min/mean);
* the max/min gradients split ``dout`` evenly over the elements that reached the extreme;
* ``NthElement`` picks the ``n``-th smallest (``reverse``: largest) along the last axis;
* ``Qr(full_matrices)`` gives ``(q, r)``; ``Lstsq(fast, l2_regularizer)`` solves ``x @ X = a`` in the least-squares
  sense (MindSpore only accepts ``l2_regularizer=0.0``); ``LuSolve(b, lu_data, lu_pivots)`` takes 1-based pivots;
* ``UniqueWithPad`` keeps first-occurrence order and pads with ``pad_num``; ``ListDiff`` keeps ``x``'s order;
* ``DtypeToEnum`` gives MindSpore's ``TypeId`` numbers.

Kernels live in the backends' ``kernels/math_prims.py``.
"""
from mindspore._cxx import TYPE_IDS
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, constexpr, prim_attr_register

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)
_F32_64 = (mstype.float32, mstype.float64)
_COMPLEX = (mstype.complex64, mstype.complex128)
_INDEX = (mstype.int32, mstype.int64)
_REAL = rules.INT_TYPES + _FLOATS



def _tensor_arg(dtype_view):
    """Whether an argument arrived as a tensor (its dtype view is a dtype; a constant comes as its value).

    ``infer_dtype`` runs right before ``infer_shape`` on the same call, so the shape rule of a primitive whose
    argument may be a constant tuple or a tensor (``FillV2``'s shape, ``EuclideanNorm``'s axes) reads what the dtype
    rule saw."""
    return isinstance(dtype_view, mstype.Type)


def _check_ids(op, x, ids, name="segment_ids"):
    if tuple(x[:len(ids)]) != tuple(ids):
        raise MSValueError(f"For '{op}', the shape of '{name}' must be a prefix of the shape of 'x', but got "
                           f"{tuple(ids)} and {tuple(x)}.")


def _num_segments(op, num_segments):
    """The static segment count (-1 when it arrives as a tensor)."""
    if isinstance(num_segments, bool):
        raise MSTypeError(f"For '{op}', the 'num_segments' must be an int or a Tensor, but got bool.")
    if isinstance(num_segments, int):
        if num_segments <= 0:
            raise MSValueError(f"For '{op}', the 'num_segments' must be a positive int, but got {num_segments}.")
        return num_segments
    if rules.is_shape(num_segments):
        rules.check_rank(op, "num_segments", num_segments, (0, 1))
        return -1
    raise MSTypeError(f"For '{op}', the 'num_segments' must be an int or a Tensor, but got "
                      f"{type(num_segments).__name__}.")


def _rows_of(dout, ids, n):
    """``dout[ids]`` with zero rows for ids outside ``[0, n)`` (the gradient of a segment reduction)."""
    valid = fops.logical_and(fops.greater_equal(ids, 0), fops.less(ids, n))
    picked = fops.gather(dout, fops.select(valid, ids, fops.zeros_like(ids)), 0)
    mask = fops.reshape(valid, fops.shape(valid) + (1,) * (len(fops.shape(picked)) - len(fops.shape(valid))))
    return fops.select(fops.broadcast_to(mask, fops.shape(picked)), picked, fops.zeros_like(picked))


def _extreme_grad(x, ids, n, out, dout):
    """Gradient of a segment max/min: ``dout`` split evenly over the elements equal to the extreme."""
    hit = fops.equal(x, _rows_of(out, ids, n))
    count = UnsortedSegmentSum()(fops.cast(hit, fops.dtype(x)), ids, n)
    share = fops.div(dout, fops.maximum(count, fops.ones_like(count)))
    return fops.select(hit, _rows_of(share, ids, n), fops.zeros_like(x))


def _prod_grad(x, ids, n, out, dout):
    """Gradient of a segment product, exact with zeros: the product of the other elements of the segment."""
    is_zero = fops.equal(x, fops.zeros_like(x))
    zeros = UnsortedSegmentSum()(fops.cast(is_zero, mstype.int32), ids, n)
    nonzero_prod = UnsortedSegmentProd()(fops.select(is_zero, fops.ones_like(x), x), ids, n)
    safe_x = fops.select(is_zero, fops.ones_like(x), x)
    others = fops.select(is_zero, _rows_of(nonzero_prod, ids, n), fops.div(_rows_of(out, ids, n), safe_x))
    others = fops.select(fops.greater(_rows_of(zeros, ids, n), 1), fops.zeros_like(x), others)
    return fops.mul(others, _rows_of(dout, ids, n))


# --- UnsortedSegmentSum / Max / Min / Prod ------------------------------------------------------------------
class _UnsortedSegment(Primitive):
    """``(x, segment_ids, num_segments)`` -> ``(num_segments,) + x.shape[segment_ids.ndim:]``."""

    _TYPES = rules.NUMBER_TYPES

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "segment_ids", "num_segments"], outputs=["y"])

    def infer_shape(self, x, segment_ids, num_segments):
        _check_ids(self.name, x, segment_ids)
        return (_num_segments(self.name, num_segments),) + tuple(x[len(segment_ids):])

    def infer_dtype(self, x, segment_ids, num_segments):
        rules.check_dtype_in(self.name, "segment_ids", segment_ids, _INDEX)
        if isinstance(num_segments, mstype.Type):
            rules.check_dtype_in(self.name, "num_segments", num_segments, _INDEX)
        return rules.check_dtype_in(self.name, "x", x, self._TYPES)


class UnsortedSegmentSum(_UnsortedSegment):
    """``UnsortedSegmentSum()(input_x, segment_ids, num_segments)``: the sum of the slices with each id."""

    def bprop(self, x, segment_ids, num_segments, out, dout):
        return _rows_of(dout, segment_ids, fops.shape(out)[0]), None, None


class UnsortedSegmentMax(_UnsortedSegment):
    """``UnsortedSegmentMax()(x, segment_ids, num_segments)``: the maximum of the slices with each id (the
    dtype's lowest value for an empty segment)."""

    _TYPES = _REAL

    def bprop(self, x, segment_ids, num_segments, out, dout):
        return _extreme_grad(x, segment_ids, fops.shape(out)[0], out, dout), None, None


class UnsortedSegmentMin(_UnsortedSegment):
    """``UnsortedSegmentMin()(x, segment_ids, num_segments)``: the minimum of the slices with each id (the
    dtype's highest value for an empty segment)."""

    _TYPES = _REAL

    def bprop(self, x, segment_ids, num_segments, out, dout):
        return _extreme_grad(x, segment_ids, fops.shape(out)[0], out, dout), None, None


class UnsortedSegmentProd(_UnsortedSegment):
    """``UnsortedSegmentProd()(x, segment_ids, num_segments)``: the product of the slices with each id (1 for an
    empty segment)."""

    def bprop(self, x, segment_ids, num_segments, out, dout):
        return _prod_grad(x, segment_ids, fops.shape(out)[0], out, dout), None, None


# --- SegmentSum / Max / Mean / Min / Prod (sorted ids) ---------------------------------------------------------
class _Segment(Primitive):
    """``(input_x, segment_ids)`` with ascending 1-D ids -> ``(segment_ids[-1] + 1,) + x.shape[1:]``."""

    _TYPES = rules.NUMBER_TYPES

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["input_x", "segment_ids"], outputs=["output"])

    def infer_shape(self, input_x, segment_ids):
        rules.check_rank(self.name, "segment_ids", segment_ids, 1)
        if len(input_x) < 1 or input_x[0] != segment_ids[0]:
            raise MSValueError(f"For '{self.name}', the amount of data for segment_ids must be equal to the first "
                               f"dimension of the shape of input_x, but got {segment_ids[0] if segment_ids else 0} "
                               f"and {tuple(input_x)}.")
        return (-1,) + tuple(input_x[1:])

    def infer_dtype(self, input_x, segment_ids):
        rules.check_dtype_in(self.name, "segment_ids", segment_ids, _INDEX)
        return rules.check_dtype_in(self.name, "input_x", input_x, self._TYPES)


class SegmentSum(_Segment):
    """``SegmentSum()(input_x, segment_ids)``: the sum of each run of equal sorted ids."""

    def bprop(self, input_x, segment_ids, out, dout):
        return _rows_of(dout, segment_ids, fops.shape(out)[0]), None


class SegmentMean(_Segment):
    """``SegmentMean()(input_x, segment_ids)``: the mean of each run of equal sorted ids (0 when empty)."""

    def bprop(self, input_x, segment_ids, out, dout):
        n = fops.shape(out)[0]
        ones = fops.ones((fops.shape(segment_ids)[0],), fops.dtype(dout))
        count = self._grad_prim(UnsortedSegmentSum)(ones, segment_ids, n)
        count = fops.reshape(fops.maximum(count, fops.ones_like(count)), (n,) + (1,) * (len(fops.shape(dout)) - 1))
        return _rows_of(fops.div(dout, count), segment_ids, n), None


class SegmentMax(_Segment):
    """``SegmentMax()(input_x, segment_ids)``: the maximum of each run of equal sorted ids (0 when empty)."""

    _TYPES = _REAL

    def bprop(self, input_x, segment_ids, out, dout):
        return _extreme_grad(input_x, segment_ids, fops.shape(out)[0], out, dout), None


class SegmentMin(_Segment):
    """``SegmentMin()(input_x, segment_ids)``: the minimum of each run of equal sorted ids (0 when empty)."""

    _TYPES = _REAL

    def bprop(self, input_x, segment_ids, out, dout):
        return _extreme_grad(input_x, segment_ids, fops.shape(out)[0], out, dout), None


class SegmentProd(_Segment):
    """``SegmentProd()(input_x, segment_ids)``: the product of each run of equal sorted ids (1 when empty)."""

    bprop = NON_DIFFERENTIABLE


# --- EuclideanNorm / CountNonZero / NuclearNorm ---------------------------------------------------------------
def _axes_value(op, axes, ndim, name="axes"):
    """The normalised axes of a constant ``axes`` (int, tuple, list)."""
    if isinstance(axes, int) and not isinstance(axes, bool):
        axes = (axes,)
    if not isinstance(axes, (tuple, list)):
        raise MSTypeError(f"For '{op}', the '{name}' must be an int, a tuple/list of int or a Tensor, but got "
                          f"{type(axes).__name__}.")
    out = []
    for a in axes:
        a = rules.check_axis(op, a, max(ndim, 1), name)
        if a in out:
            raise MSValueError(f"For '{op}', the '{name}' must not contain duplicate values, but got {tuple(axes)}.")
        out.append(a)
    return tuple(out)


class EuclideanNorm(Primitive):
    """``EuclideanNorm(keep_dims=False)(x, axes)``: ``sqrt(sum(|x|^2))`` over ``axes``."""

    @prim_attr_register
    def __init__(self, keep_dims=False):
        rules.check_bool(self.name, "keep_dims", keep_dims)

    def infer_shape(self, x, axes):
        got = None if self._axes_tensor else _axes_value(self.name, axes, len(x))
        if got is None:
            rules.check_rank(self.name, "axes", axes, (0, 1))
            n = axes[0] if axes else 1
            return (-1,) * (len(x) if self.keep_dims else len(x) - n)
        if self.keep_dims:
            return tuple(1 if i in got else s for i, s in enumerate(x))
        return tuple(s for i, s in enumerate(x) if i not in got)

    def infer_dtype(self, x, axes):
        self._axes_tensor = _tensor_arg(axes)
        if self._axes_tensor:
            rules.check_dtype_in(self.name, "axes", axes, _INDEX)
        return rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)

    def bprop(self, x, axes, out, dout):
        kept = self._grad_prim(EuclideanNorm, True)(x, axes)
        d = fops.reshape(dout, fops.shape(kept))
        nonzero = fops.not_equal(kept, fops.zeros_like(kept))
        scale = fops.select(nonzero, fops.div(d, fops.select(nonzero, kept, fops.ones_like(kept))),
                            fops.zeros_like(kept))
        return fops.mul(x, scale), None


class CountNonZero(Primitive):
    """``CountNonZero(dims=None)(x)``: the number of non-zero elements over ``dims`` (all when None), Int64."""

    @prim_attr_register
    def __init__(self, dims=None):
        if dims is not None and not isinstance(dims, (int, tuple, list)):
            raise MSTypeError(f"For '{self.name}', the 'dims' must be an int, a tuple/list of int or None, but got "
                              f"{type(dims).__name__}.")

    def reduced_axes(self, ndim):
        if self.dims is None:
            return tuple(range(ndim))
        return _axes_value(self.name, self.dims, ndim, "dims")

    def infer_shape(self, x):
        axes = self.reduced_axes(len(x))
        return tuple(s for i, s in enumerate(x) if i not in axes)

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)
        return mstype.int64

    bprop = NON_DIFFERENTIABLE


class NuclearNorm(Primitive):
    """``NuclearNorm(dim=None, keepdim=False)(x)``: the sum of the singular values of the matrices spanned by
    the two ``dim`` axes (the last two of a 2-D ``x`` when None)."""

    @prim_attr_register
    def __init__(self, dim=None, keepdim=False):
        rules.check_bool(self.name, "keepdim", keepdim)
        if dim is not None:
            rules.check_int_tuple(self.name, "dim", dim, 2)

    def matrix_axes(self, ndim):
        if self.dim is None:
            if ndim != 2:
                raise MSValueError(f"For '{self.name}', the rank of 'x' must be 2 when 'dim' is None, but got {ndim}.")
            return (0, 1)
        a, b = (rules.check_axis(self.name, d, ndim, "dim") for d in self.dim)
        if a == b:
            raise MSValueError(f"For '{self.name}', the two 'dim' must be different, but got {self.dim}.")
        return a, b

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, range(2, 9))
        axes = self.matrix_axes(len(x))
        if self.keepdim:
            return tuple(1 if i in axes else s for i, s in enumerate(x))
        return tuple(s for i, s in enumerate(x) if i not in axes)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _F32_64)

    bprop = NON_DIFFERENTIABLE


# --- ConjugateTranspose / PopulationCount / Polar --------------------------------------------------------------
@constexpr
def _inverse_perm(perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p % len(perm)] = i
    return tuple(inv)


class ConjugateTranspose(Primitive):
    """``ConjugateTranspose()(x, perm)``: ``conj(transpose(x, perm))`` (``transpose`` for real ``x``)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "perm"], outputs=["output"])

    def infer_shape(self, x, perm):
        perm = rules.check_int_tuple(self.name, "perm", perm)
        if len(perm) != len(x) or sorted(p % max(len(x), 1) for p in perm) != list(range(len(x))):
            raise MSValueError(f"For '{self.name}', the 'perm' must be a permutation of range({len(x)}), but got "
                               f"{perm}.")
        return tuple(x[p] for p in perm)

    def infer_dtype(self, x, perm):
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)

    def bprop(self, x, perm, out, dout):
        return self._grad_prim(ConjugateTranspose)(dout, _inverse_perm(perm)), None


class PopulationCount(Primitive):
    """``PopulationCount()(input_x)``: the number of set bits of each element (two's complement), UInt8."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, input_x):
        return tuple(input_x)

    def infer_dtype(self, input_x):
        rules.check_dtype_in(self.name, "input_x", input_x, rules.INT_TYPES)
        return mstype.uint8

    bprop = NON_DIFFERENTIABLE


class Polar(Primitive):
    """``Polar()(abs, angle)``: the complex ``abs * (cos(angle) + i sin(angle))``."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["abs", "angle"], outputs=["y"])

    def infer_shape(self, abs, angle):  # noqa: A002 - MindSpore's names
        return rules.broadcast_shapes(self.name, abs, angle, names=("abs", "angle"))

    def infer_dtype(self, abs, angle):  # noqa: A002
        rules.check_dtype_in(self.name, "abs", abs, _F32_64)
        dt = rules.check_same_dtype(self.name, ("abs", "angle"), (abs, angle))
        return mstype.complex64 if dt == mstype.float32 else mstype.complex128

    def bprop(self, abs, angle, out, dout):  # noqa: A002
        re, im = fops.real(dout), fops.imag(dout)
        c, s = fops.cos(angle), fops.sin(angle)
        return (fops.add(fops.mul(re, c), fops.mul(im, s)),
                fops.mul(abs, fops.sub(fops.mul(im, c), fops.mul(re, s))))


# --- NthElement / Quantile --------------------------------------------------------------------------------------
class NthElement(Primitive):
    """``NthElement(reverse=False)(input, n)``: the ``n``-th smallest (``reverse``: largest) value along the last
    axis."""

    @prim_attr_register
    def __init__(self, reverse=False):
        rules.check_bool(self.name, "reverse", reverse)

    def infer_shape(self, input, n):  # noqa: A002
        rules.check_rank(self.name, "input", input, range(1, 9))
        if isinstance(n, int) and not isinstance(n, bool):
            if not 0 <= n < input[-1]:
                raise MSValueError(f"For '{self.name}', the 'n' must be in [0, {input[-1]}), but got {n}.")
        elif rules.is_shape(n):
            rules.check_rank(self.name, "n", n, 0)
        else:
            raise MSTypeError(f"For '{self.name}', the 'n' must be an int or a Tensor, but got {type(n).__name__}.")
        return tuple(input[:-1])

    def infer_dtype(self, input, n):  # noqa: A002
        if isinstance(n, mstype.Type):
            rules.check_dtype_in(self.name, "n", n, (mstype.int32,))
        return rules.check_dtype_in(self.name, "input", input, _REAL)

    def bprop(self, input, n, out, dout):  # noqa: A002
        hit = fops.equal(input, fops.expand_dims(out, -1))
        count = fops.reduce_sum(fops.cast(hit, fops.dtype(dout)), -1)
        share = fops.expand_dims(fops.div(dout, count), -1)
        return fops.select(hit, fops.broadcast_to(share, fops.shape(input)), fops.zeros_like(input)), None


class Quantile(Primitive):
    """``Quantile(dim=None, keep_dims=False, ignore_nan=False)(input, q)``: the ``q``-th quantiles (linear
    interpolation) along ``dim`` (of all elements when None); a 1-D ``q`` adds a leading dimension."""

    @prim_attr_register
    def __init__(self, dim=None, keep_dims=False, ignore_nan=False):
        if dim is not None:
            rules.check_int(self.name, "dim", dim)
        rules.check_bool(self.name, "keep_dims", keep_dims)
        rules.check_bool(self.name, "ignore_nan", ignore_nan)

    def infer_shape(self, input, q):  # noqa: A002
        rules.check_rank(self.name, "q", q, (0, 1))
        lead = tuple(q)
        if self.dim is None:
            return lead + ((1,) * len(input) if self.keep_dims else ())
        axis = rules.check_axis(self.name, self.dim, max(len(input), 1), "dim")
        if self.keep_dims:
            return lead + tuple(1 if i == axis else s for i, s in enumerate(input))
        return lead + tuple(s for i, s in enumerate(input) if i != axis)

    def infer_dtype(self, input, q):  # noqa: A002
        rules.check_dtype_in(self.name, "input", input, _F32_64)
        return rules.check_same_dtype(self.name, ("input", "q"), (input, q))

    def bprop(self, input, q, out, dout):  # noqa: A002
        return self._grad_prim(QuantileGrad, self.dim, self.keep_dims, self.ignore_nan)(dout, input, q), None


class QuantileGrad(Primitive):
    """``QuantileGrad(dim=None, keep_dims=False, ignore_nan=False)(dout, input, q)``: the gradient of
    :class:`Quantile` with respect to ``input``: each quantile's ``dout`` split between the two order statistics it
    interpolates (zero for a slice whose quantile is NaN)."""

    @prim_attr_register
    def __init__(self, dim=None, keep_dims=False, ignore_nan=False):
        if dim is not None:
            rules.check_int(self.name, "dim", dim)

    def infer_shape(self, dout, input, q):  # noqa: A002
        return tuple(input)

    def infer_dtype(self, dout, input, q):  # noqa: A002
        return rules.check_same_dtype(self.name, ("dout", "input"), (dout, input))

    bprop = NON_DIFFERENTIABLE


# --- Pdist ----------------------------------------------------------------------------------------------------
class Pdist(Primitive):
    """``Pdist(p=2.0)(x)``: the p-norm distances between each pair of rows of ``x`` (..., N, M), the upper
    triangle row by row, (..., N (N - 1) / 2)."""

    @prim_attr_register
    def __init__(self, p=2.0):
        if isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0:
            raise MSValueError(f"For '{self.name}', the 'p' must be a non-negative float, but got {p}.")

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, range(2, 9))
        n = x[-2]
        return tuple(x[:-2]) + (n * (n - 1) // 2,)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _FLOATS)

    def bprop(self, x, out, dout):
        return (self._grad_prim(PdistGrad, self.p)(dout, x, out),)


class PdistGrad(Primitive):
    """``PdistGrad(p=2.0)(y_grad, x, y)``: the gradient of :class:`Pdist` with respect to ``x``."""

    @prim_attr_register
    def __init__(self, p=2.0):
        if isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0:
            raise MSValueError(f"For '{self.name}', the 'p' must be a non-negative float, but got {p}.")

    def infer_shape(self, y_grad, x, y):
        rules.check_same_shape(self.name, ("y_grad", "y"), (y_grad, y))
        return tuple(x)

    def infer_dtype(self, y_grad, x, y):
        return rules.check_same_dtype(self.name, ("y_grad", "x", "y"), (y_grad, x, y))

    bprop = NON_DIFFERENTIABLE


# --- Lstsq / LuSolve / MatrixLogarithm / Qr / TridiagonalMatMul ---------------------------------------------------
class Lstsq(Primitive):
    """``Lstsq(fast=True, l2_regularizer=0.0)(x, a)``: the least-squares solution ``X`` (N, K) of ``x @ X = a``
    for ``x`` (M, N) and ``a`` (M, K) or (M,)."""

    @prim_attr_register
    def __init__(self, fast=True, l2_regularizer=0.0):
        rules.check_bool(self.name, "fast", fast)
        if isinstance(l2_regularizer, bool) or not isinstance(l2_regularizer, (int, float)):
            raise MSTypeError(f"For '{self.name}', the 'l2_regularizer' must be a float, but got "
                              f"{type(l2_regularizer).__name__}.")
        if l2_regularizer != 0.0:
            raise MSTypeError(f"For '{self.name}', the 'l2_regularizer' should be 0.0, but got '{l2_regularizer}'.")

    def infer_shape(self, x, a):
        rules.check_rank(self.name, "x", x, 2)
        rules.check_rank(self.name, "a", a, (1, 2))
        if x[0] != a[0]:
            raise MSValueError(f"For '{self.name}', the length of x_dim[0]: {x[0]} is not equal to the length of "
                               f"a_dims[0]: {a[0]}.")
        return (x[1],) if len(a) == 1 else (x[1], a[1])

    def infer_dtype(self, x, a):
        rules.check_dtype_in(self.name, "x", x, (mstype.float16,) + _F32_64)
        return rules.check_same_dtype(self.name, ("x", "a"), (x, a))

    bprop = NON_DIFFERENTIABLE


class LuSolve(Primitive):
    """``LuSolve()(x, lu_data, lu_pivots)``: ``X`` with ``A @ X = x`` for ``A``'s packed LU factorisation
    (``lu_pivots`` 1-based, as ``lu`` gives them); batch dimensions broadcast."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "lu_data", "lu_pivots"], outputs=["output"])

    def infer_shape(self, x, lu_data, lu_pivots):
        rules.check_rank(self.name, "lu_data", lu_data, range(2, 9))
        rules.check_rank(self.name, "x", x, range(2, 9))
        if lu_data[-1] != lu_data[-2]:
            raise MSValueError(f"For '{self.name}', the input 'lu_data' should be square matrix, but got "
                               f"{tuple(lu_data)}.")
        if x[-2] != lu_data[-2]:
            raise MSValueError(f"For '{self.name}', the x.shape[-2] must be equal to lu_data.shape[-2], but got "
                               f"{tuple(x)} and {tuple(lu_data)}.")
        if tuple(lu_pivots) != tuple(lu_data[:-1]):
            raise MSValueError(f"For '{self.name}', the shape of 'lu_pivots' must be {tuple(lu_data[:-1])}, but got "
                               f"{tuple(lu_pivots)}.")
        batch = rules.broadcast_shapes(self.name, tuple(x[:-2]), tuple(lu_data[:-2]), names=("x", "lu_data"))
        return tuple(batch) + tuple(x[-2:])

    def infer_dtype(self, x, lu_data, lu_pivots):
        rules.check_dtype_in(self.name, "x", x, (mstype.float16,) + _F32_64)
        rules.check_dtype_in(self.name, "lu_pivots", lu_pivots, (mstype.int32,))
        return rules.check_same_dtype(self.name, ("x", "lu_data"), (x, lu_data))

    bprop = NON_DIFFERENTIABLE


class MatrixLogarithm(Primitive):
    """``MatrixLogarithm()(x)``: the principal matrix logarithm of each complex square matrix."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, range(2, 9))
        if x[-1] != x[-2]:
            raise MSValueError(f"For '{self.name}', the last two dimensions of 'x' must be equal, but got "
                               f"{tuple(x)}.")
        return tuple(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _COMPLEX)

    bprop = NON_DIFFERENTIABLE


class Qr(Primitive):
    """``Qr(full_matrices=False)(x)``: ``(q, r)`` of each matrix of ``x`` (..., M, N): ``q`` (..., M, K) with
    orthonormal columns and upper triangular ``r`` (..., K, N), K = M when ``full_matrices`` else min(M, N)."""

    @prim_attr_register
    def __init__(self, full_matrices=False):
        rules.check_bool(self.name, "full_matrices", full_matrices)

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, range(2, 9))
        m, n = x[-2], x[-1]
        k = m if self.full_matrices else min(m, n)
        return tuple(x[:-2]) + (m, k), tuple(x[:-2]) + (k, n)

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "x", x, _FLOATS + _COMPLEX)
        return x, x

    bprop = NON_DIFFERENTIABLE


class TridiagonalMatMul(Primitive):
    """``TridiagonalMatMul()(superdiag, maindiag, subdiag, rhs)``: the tridiagonal matrix with the given
    diagonals (each (..., 1, M); ``superdiag[-1]`` and ``subdiag[0]`` unused) times ``rhs`` (..., M, N)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, superdiag, maindiag, subdiag, rhs):
        rules.check_rank(self.name, "rhs", rhs, range(2, 9))
        want = tuple(rhs[:-2]) + (1, rhs[-2])
        for name, s in (("superdiag", superdiag), ("maindiag", maindiag), ("subdiag", subdiag)):
            if tuple(s) != want:
                raise MSValueError(f"For '{self.name}', the shape of '{name}' must be {want}, but got {tuple(s)}.")
        return tuple(rhs)

    def infer_dtype(self, superdiag, maindiag, subdiag, rhs):
        rules.check_dtype_in(self.name, "rhs", rhs, _FLOATS + _COMPLEX)
        return rules.check_same_dtype(self.name, ("superdiag", "maindiag", "subdiag", "rhs"),
                                      (superdiag, maindiag, subdiag, rhs))

    bprop = NON_DIFFERENTIABLE


# --- AccumulateNV2 / CompareAndBitpack / Expand / FillV2 / Fills ----------------------------------------------
class AccumulateNV2(Primitive):
    """``AccumulateNV2()(x)``: the elementwise sum of a tuple of tensors of one shape and dtype."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        if not isinstance(x, (tuple, list)) or not x or not all(rules.is_shape(s) for s in x):
            raise MSTypeError(f"For '{self.name}', the input 'x' must be a non-empty tuple or list of Tensors, "
                              f"but got {x!r}.")
        return rules.check_same_shape(self.name, [f"x[{i}]" for i in range(len(x))], x)

    def infer_dtype(self, x):
        if not isinstance(x, (tuple, list)) or not x or not all(isinstance(d, mstype.Type) for d in x):
            raise MSTypeError(f"For '{self.name}', the input 'x' must be a non-empty tuple or list of Tensors, "
                              f"but got {x!r}.")
        rules.check_dtype_in(self.name, "x[0]", x[0], rules.NUMBER_TYPES)
        return rules.check_same_dtype(self.name, [f"x[{i}]" for i in range(len(x))], x)

    def bprop(self, x, out, dout):
        return ((dout,) * len(x),)


class CompareAndBitpack(Primitive):
    """``CompareAndBitpack()(x, threshold)``: ``x > threshold`` packed 8 to a byte along the last axis (the first
    element in the most significant bit), UInt8 (..., N / 8)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, threshold):
        rules.check_rank(self.name, "x", x, range(1, 9))
        rules.check_rank(self.name, "threshold", threshold, 0)
        if x[-1] % 8:
            raise MSValueError(f"For '{self.name}', x.shape[-1] must be a multiple of 8, but got {x[-1]}.")
        return tuple(x[:-1]) + (x[-1] // 8,)

    def infer_dtype(self, x, threshold):
        rules.check_dtype_in(self.name, "x", x, (mstype.bool_, mstype.int8, mstype.int16, mstype.int32,
                                                mstype.int64) + _FLOATS)
        rules.check_same_dtype(self.name, ("x", "threshold"), (x, threshold))
        return mstype.uint8

    bprop = NON_DIFFERENTIABLE


class Expand(Primitive):
    """``Expand()(x, shape)``: ``x`` broadcast to ``shape`` (a 1-D int tensor; -1 keeps a dimension)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "shape"], outputs=["y"])

    def infer_shape(self, x, shape):
        if self._shape_tensor:
            rules.check_rank(self.name, "shape", shape, 1)
            return (-1,) * shape[0]
        target = rules.check_int_tuple(self.name, "shape", shape)
        return _expanded(self.name, tuple(x), target)

    def infer_dtype(self, x, shape):
        self._shape_tensor = _tensor_arg(shape)
        if self._shape_tensor:
            rules.check_dtype_in(self.name, "shape", shape, _INDEX)
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)

    def bprop(self, x, shape, out, dout):
        return fops.reshape(fops.reduce_sum(dout, _sum_axes(fops.shape(dout), fops.shape(x))), fops.shape(x)), None


def _expanded(op, x, target):
    if len(target) < len(x):
        raise MSValueError(f"For '{op}', the length of 'shape' must be at least the rank of 'x' {len(x)}, but got "
                           f"{target}.")
    out = list(target)
    lead = len(target) - len(x)
    for i, s in enumerate(x):
        t = target[lead + i]
        if t == -1:
            out[lead + i] = s
        elif s != 1 and s != t:
            raise MSValueError(f"For '{op}', the shape of 'x' {x} cannot be broadcast to {target}.")
    if any(t < 0 for t in out[:lead]):
        raise MSValueError(f"For '{op}', a new leading dimension of 'shape' cannot be -1, but got {target}.")
    return tuple(out)


@constexpr
def _sum_axes(out_shape, in_shape):
    lead = len(out_shape) - len(in_shape)
    axes = list(range(lead))
    axes += [lead + i for i, s in enumerate(in_shape) if s == 1 and out_shape[lead + i] != 1]
    return tuple(axes)


class FillV2(Primitive):
    """``FillV2()(shape, value)``: a tensor of ``shape`` (a tuple or a 1-D int tensor) filled with the 0-d tensor
    ``value``, in ``value``'s dtype."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["shape", "value"], outputs=["y"])

    def infer_shape(self, shape, value):
        rules.check_rank(self.name, "value", value, 0)
        if self._shape_tensor:
            rules.check_rank(self.name, "shape", shape, 1)
            return (-1,) * shape[0]
        shape = rules.check_int_tuple(self.name, "shape", shape)
        if any(s < 0 for s in shape):
            raise MSValueError(f"For '{self.name}', each dimension of 'shape' must be non-negative, but got {shape}.")
        return shape

    def infer_dtype(self, shape, value):
        self._shape_tensor = _tensor_arg(shape)
        if self._shape_tensor:
            rules.check_dtype_in(self.name, "shape", shape, _INDEX)
        return rules.check_dtype_in(self.name, "value", value, rules.ALL_TYPES)

    def bprop(self, shape, value, out, dout):
        return None, fops.reduce_sum(dout)


class Fills(Primitive):
    """``Fills()(x, value)``: a tensor of ``x``'s shape and dtype filled with the number ``value``."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "value"], outputs=["y"])

    def infer_shape(self, x, value):
        if not rules.is_scalar(value) and not (rules.is_shape(value) and len(value) == 0):
            raise MSTypeError(f"For '{self.name}', the 'value' must be a number or a 0-d Tensor, but got {value!r}.")
        return tuple(x)

    def infer_dtype(self, x, value):
        return rules.check_dtype_in(self.name, "x", x, (mstype.int8, mstype.int16, mstype.int32) + _FLOATS)

    bprop = NON_DIFFERENTIABLE


@constexpr
def log_softmax_axis(ndim, dim):
    """The axis ``LogSoftmaxExt`` works along: ``dim``, or torch's legacy choice (0 for 0-, 1- and 3-D) for None."""
    if dim is None:
        return 0 if ndim in (0, 1, 3) else 1
    return dim % max(ndim, 1)


# --- LerpScalar / LogSoftmaxExt -------------------------------------------------------------------------------
class LerpScalar(Primitive):
    """``LerpScalar()(input, end, weight)``: ``input + weight * (end - input)`` for a number ``weight``."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["input", "end", "weight"], outputs=["y"])

    def infer_shape(self, input, end, weight):  # noqa: A002
        if not rules.is_scalar(weight) or isinstance(weight, bool):
            raise MSTypeError(f"For '{self.name}', the 'weight' must be a float, but got {weight!r}.")
        return rules.broadcast_shapes(self.name, input, end, names=("input", "end"))

    def infer_dtype(self, input, end, weight):  # noqa: A002
        rules.check_dtype_in(self.name, "input", input, _FLOATS)
        return rules.check_same_dtype(self.name, ("input", "end"), (input, end))

    def bprop(self, input, end, weight, out, dout):  # noqa: A002
        return fops.mul(dout, 1.0 - weight), fops.mul(dout, weight), None


class LogSoftmaxExt(Primitive):
    """``LogSoftmaxExt()(input, dim=None, dtype=None)``: ``log(softmax(input))`` along ``dim`` (the last axis when
    None; the first of a 0-, 1- or 3-D input, as ``torch``'s legacy rule), computed in ``dtype`` when given."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["input", "dim", "dtype"], outputs=["output"])

    def infer_shape(self, input, dim=None, dtype=None):  # noqa: A002
        if dim is not None:
            rules.check_axis(self.name, dim, max(len(input), 1), "dim")
        return tuple(input)

    def infer_dtype(self, input, dim=None, dtype=None):  # noqa: A002
        rules.check_dtype_in(self.name, "input", input, _FLOATS + (mstype.bfloat16,))
        if dtype is not None:
            return rules.check_dtype_in(self.name, "dtype", mstype.to_ms_dtype(dtype), _FLOATS + (mstype.bfloat16,))
        return input

    def bprop(self, input, dim, dtype, out, dout):  # noqa: A002
        axis = log_softmax_axis(len(fops.shape(input)), dim)
        soft = fops.exp(out)
        grad = fops.sub(dout, fops.mul(soft, fops.reduce_sum(dout, axis, True)))
        return fops.cast(grad, fops.dtype(input)), None, None


# --- EqualCount / InTopK ----------------------------------------------------------------------------------------
class EqualCount(Primitive):
    """``EqualCount()(x, y)``: the number of equal elements, as a (1,) tensor of the inputs' dtype."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "y"], outputs=["output"])

    def infer_shape(self, x, y):
        rules.check_same_shape(self.name, ("x", "y"), (x, y))
        return (1,)

    def infer_dtype(self, x, y):
        rules.check_dtype_in(self.name, "x", x, (mstype.int32,) + _FLOATS)
        return rules.check_same_dtype(self.name, ("x", "y"), (x, y))

    bprop = NON_DIFFERENTIABLE


class InTopK(Primitive):
    """``InTopK(k)(x1, x2)``: whether ``x1[i, x2[i]]`` is among the ``k`` largest of row ``i`` (ties count in;
    False for a non-finite target or an out-of-range class)."""

    @prim_attr_register
    def __init__(self, k):
        rules.check_int(self.name, "k", k)

    def infer_shape(self, x1, x2):
        rules.check_rank(self.name, "x1", x1, 2)
        rules.check_rank(self.name, "x2", x2, 1)
        if x1[0] != x2[0]:
            raise MSValueError(f"For '{self.name}', the first dimension of 'x1' and 'x2' must be the same, but got "
                               f"{x1[0]} and {x2[0]}.")
        return tuple(x2)

    def infer_dtype(self, x1, x2):
        rules.check_dtype_in(self.name, "x1", x1, (mstype.float16, mstype.float32))
        rules.check_dtype_in(self.name, "x2", x2, _INDEX)
        return mstype.bool_

    bprop = NON_DIFFERENTIABLE


# --- UniqueWithPad / ListDiff / RaggedRange / ParallelConcat / ScatterAddWithAxis ----------------------------------
class UniqueWithPad(Primitive):
    """``UniqueWithPad()(x, pad_num)``: ``(y, idx)``: the distinct values of the 1-D ``x`` in first-occurrence
    order, padded with ``pad_num`` to ``x``'s length, and each element's position among them."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "pad_num"], outputs=["y", "idx"])

    def infer_shape(self, x, pad_num):
        if len(x) != 1:
            raise MSValueError(f"For primitive[{self.name}], the input_shape_size must be equal to 1, but got "
                               f"{len(x)}.")
        return tuple(x), tuple(x)

    def infer_dtype(self, x, pad_num):
        dt = rules.check_dtype_in(self.name, "x", x, _INDEX + (mstype.float32,))
        if isinstance(pad_num, mstype.Type):
            rules.check_same_dtype(self.name, ("x", "pad_num"), (x, pad_num))
        return dt, dt if dt in _INDEX else mstype.int32

    bprop = NON_DIFFERENTIABLE


class ListDiff(Primitive):
    """``ListDiff(out_idx=mindspore.int32)(x, y)``: ``(out, idx)``: the elements of the 1-D ``x`` that are not in
    ``y``, in ``x``'s order, and their positions in ``x`` (in ``out_idx``)."""

    @prim_attr_register
    def __init__(self, out_idx=mstype.int32):
        rules.check_dtype_in(self.name, "out_idx", out_idx, _INDEX)

    def infer_shape(self, x, y):
        rules.check_rank(self.name, "x", x, 1)
        rules.check_rank(self.name, "y", y, 1)
        return (-1,), (-1,)

    def infer_dtype(self, x, y):
        rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)
        return rules.check_same_dtype(self.name, ("x", "y"), (x, y)), self.out_idx

    bprop = NON_DIFFERENTIABLE


class RaggedRange(Primitive):
    """``RaggedRange(Tsplits)(starts, limits, deltas)``: ``(rt_nested_splits, rt_dense_values)``: the ranges
    ``range(starts[i], limits[i], deltas[i])`` concatenated, and their row splits (in ``Tsplits``)."""

    @prim_attr_register
    def __init__(self, Tsplits):  # noqa: N803 - MindSpore's attribute name
        rules.check_dtype_in(self.name, "Tsplits", Tsplits, _INDEX)

    def infer_shape(self, starts, limits, deltas):
        shapes = (starts, limits, deltas)
        ranks = {len(s) for s in shapes}
        if any(r > 1 for r in ranks):
            raise MSValueError(f"For '{self.name}', the 'starts', 'limits' and 'deltas' must be 0-D or 1-D, but got "
                               f"{tuple(starts)}, {tuple(limits)} and {tuple(deltas)}.")
        sizes = {s[0] for s in shapes if len(s) == 1}
        if len(sizes) > 1:
            raise MSValueError(f"For '{self.name}', the 'starts', 'limits' and 'deltas' must have the same size, but "
                               f"got {tuple(starts)}, {tuple(limits)} and {tuple(deltas)}.")
        rows = sizes.pop() if sizes else 1
        return (rows + 1,), (-1,)

    def infer_dtype(self, starts, limits, deltas):
        rules.check_dtype_in(self.name, "starts", starts, (mstype.int32, mstype.int64, mstype.float32,
                                                          mstype.float64))
        dt = rules.check_same_dtype(self.name, ("starts", "limits", "deltas"), (starts, limits, deltas))
        return self.Tsplits, dt

    bprop = NON_DIFFERENTIABLE


class ParallelConcat(Primitive):
    """``ParallelConcat()(values)``: the tensors of ``values`` (each with a first dimension of 1) concatenated
    along the first axis."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, values):
        if not isinstance(values, (tuple, list)) or not values or not all(rules.is_shape(s) for s in values):
            raise MSTypeError(f"For '{self.name}', the 'values' must be a non-empty tuple or list of Tensors, but "
                              f"got {values!r}.")
        for i, s in enumerate(values):
            if not s or s[0] != 1:
                raise MSValueError(f"For '{self.name}', the first dimension of every element of 'values' must be 1, "
                                   f"but got values[{i}] of shape {tuple(s)}.")
        rules.check_same_shape(self.name, [f"values[{i}]" for i in range(len(values))], values)
        return (len(values),) + tuple(values[0][1:])

    def infer_dtype(self, values):
        rules.check_dtype_in(self.name, "values[0]", values[0], rules.ALL_TYPES)
        return rules.check_same_dtype(self.name, [f"values[{i}]" for i in range(len(values))], values)

    bprop = NON_DIFFERENTIABLE


class ScatterAddWithAxis(Primitive):
    """``ScatterAddWithAxis(axis=0)(input_x, indices, updates)``: ``input_x`` with ``updates[i][j]...`` added at
    ``indices[i][j]...`` along ``axis`` (repeated indices add each update; negative ones count from the end)."""

    @prim_attr_register
    def __init__(self, axis=0):
        rules.check_int(self.name, "axis", axis)

    def infer_shape(self, input_x, indices, updates):
        rules.check_same_shape(self.name, ("indices", "updates"), (indices, updates))
        if len(indices) != len(input_x):
            raise MSValueError(f"For '{self.name}', the rank of 'indices' must be the rank of 'input_x' "
                               f"{len(input_x)}, but got {len(indices)}.")
        rules.check_axis(self.name, self.axis, max(len(input_x), 1))
        return tuple(input_x)

    def infer_dtype(self, input_x, indices, updates):
        rules.check_dtype_in(self.name, "indices", indices, _INDEX)
        return rules.check_same_dtype(self.name, ("input_x", "updates"), (input_x, updates))

    def bprop(self, input_x, indices, updates, out, dout):
        axis = self.axis % len(fops.shape(input_x))
        n = fops.shape(input_x)[axis]
        idx = fops.select(fops.less(indices, 0), fops.add(indices, n), indices)
        return dout, None, fops.gather_elements(dout, axis, idx)


# --- TensorShape / DynamicShape / TupleToArray / ScalarToArray / ScalarToTensor / ScalarCast / DtypeToEnum ---------
class TensorShape(Primitive):
    """``TensorShape()(input_x)``: the shape of ``input_x`` as a 1-D Int64 tensor."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, input_x):
        return (len(input_x),)

    def infer_dtype(self, input_x):
        rules.check_dtype_in(self.name, "input_x", input_x, rules.ALL_TYPES + (mstype.bfloat16,))
        return mstype.int64

    bprop = NON_DIFFERENTIABLE


class DynamicShape(TensorShape):
    """``DynamicShape(dtype=9)(input_x)``: the deprecated name of :class:`TensorShape` (Int64)."""

    @prim_attr_register
    def __init__(self, dtype=9):
        pass

    bprop = NON_DIFFERENTIABLE


def _number_dtype(op, values):
    kinds = {bool if isinstance(v, bool) else int if isinstance(v, int) else float if isinstance(v, float) else None
             for v in values}
    if None in kinds or bool in kinds:
        raise MSTypeError(f"For '{op}', the elements of 'input_x' must be int or float, but got {values!r}.")
    if len(kinds) > 1:
        raise MSTypeError(f"For '{op}', all elements of 'input_x' must be have same type.")
    return mstype.int32 if kinds == {int} else mstype.float32


class TupleToArray(Primitive):
    """``TupleToArray()(input_x)``: a 1-D tensor of a non-empty tuple of numbers of one type (Int32 for ints,
    Float32 for floats)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, input_x):
        if not isinstance(input_x, (tuple, list)) or not input_x:
            raise MSTypeError(f"For '{self.name}', the 'input_x' must be a non-empty tuple of numbers, but got "
                              f"{input_x!r}.")
        return (len(input_x),)

    def infer_dtype(self, input_x):
        return _number_dtype(self.name, tuple(input_x))

    bprop = NON_DIFFERENTIABLE


class ScalarToArray(Primitive):
    """``ScalarToArray()(input_x)``: a 0-d tensor of the number ``input_x`` (Int32 for an int, Float32 for a
    float)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, input_x):
        _number_dtype(self.name, (input_x,))
        return ()

    def infer_dtype(self, input_x):
        return _number_dtype(self.name, (input_x,))

    bprop = NON_DIFFERENTIABLE


class ScalarToTensor(Primitive):
    """``ScalarToTensor()(input_x, dtype=mindspore.float32)``: a 0-d tensor of the number ``input_x``."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["input_x", "dtype"], outputs=["output_data"])

    def infer_shape(self, input_x, dtype=mstype.float32):
        if not rules.is_scalar(input_x):
            raise MSTypeError(f"For '{self.name}', the 'input_x' must be a number, but got "
                              f"{type(input_x).__name__}.")
        return ()

    def infer_dtype(self, input_x, dtype=mstype.float32):
        return rules.check_dtype_in(self.name, "dtype", mstype.to_ms_dtype(dtype), rules.ALL_TYPES)

    bprop = NON_DIFFERENTIABLE


class ScalarCast(Primitive):
    """``ScalarCast()(input_x, input_y)``: the number ``input_x`` as ``input_y`` (mindspore.int64, float64 or
    bool), a Python scalar."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_value(self, input_x, input_y):
        if not rules.is_scalar(input_x):
            raise MSTypeError(f"For '{self.name}', the 'input_x' must be a number, but got {type(input_x).__name__}.")
        kind = {mstype.int64: int, mstype.float64: float, mstype.bool_: bool}.get(input_y)
        if kind is None:
            raise MSValueError(f"For '{self.name}', the supported type is in the list: [mindspore.int64, "
                               f"mindspore.float64, mindspore.bool], but got {input_y}")
        return kind(input_x)

    bprop = NON_DIFFERENTIABLE


class DtypeToEnum(Primitive):
    """``DtypeToEnum()(op_name, arg_name, dtype)``: MindSpore's ``TypeId`` number of ``dtype`` (an int)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_value(self, op_name, arg_name, dtype):
        if not isinstance(dtype, mstype.Type) or dtype not in TYPE_IDS:
            raise MSTypeError(f"For '{op_name}', the input '{arg_name}' should be a mindspore dtype, but got "
                              f"{dtype}.")
        return TYPE_IDS[dtype]

    bprop = NON_DIFFERENTIABLE


# --- MatrixDiagV3 / MatrixDiagPartV3 / MatrixSetDiagV3 --------------------------------------------------------------
ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _check_align(op, align):
    if align not in ALIGNS:
        raise MSValueError(f"For '{op}', the 'align' must be one of {list(ALIGNS)}, but got {align!r}.")


def k_pair(op, k):
    """``(low, high, single)`` of a constant ``k`` (an int or a pair of ints)."""
    ks = list(k) if isinstance(k, (list, tuple)) else [k]
    if not 1 <= len(ks) <= 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in ks):
        raise MSValueError(f"For '{op}', 'k' must be an int or a pair of ints, but got {k}.")
    lo, hi = int(ks[0]), int(ks[-1])
    if lo > hi:
        raise MSValueError(f"For '{op}', k[0] must not be greater than k[1], but got k = {ks}.")
    return lo, hi, lo == hi     # a pair (d, d) names one diagonal too, as in 2.10 (and TensorFlow)


def diag_len(d, rows, cols):
    return min(rows + min(0, d), cols - max(0, d))


def _k_shape_pair(op, k):
    """For a tensor ``k`` (its shape): whether it holds a single diagonal."""
    rules.check_rank(op, "k", k, (0, 1))
    if len(k) == 1 and k[0] not in (1, 2):
        raise MSValueError(f"For '{op}', the 'k' must hold 1 or 2 values, but got shape {tuple(k)}.")
    return len(k) == 0 or k[0] == 1


class MatrixDiagV3(Primitive):
    """``MatrixDiagV3(align='RIGHT_LEFT')(x, k, num_rows, num_cols, padding_value)``: matrices with the diagonals
    ``k`` (an int, a pair, or an int tensor) taken from ``x`` and ``padding_value`` elsewhere; ``num_rows`` /
    ``num_cols`` of -1 give the smallest fitting (square) size."""

    @prim_attr_register
    def __init__(self, align="RIGHT_LEFT"):
        _check_align(self.name, align)

    def infer_shape(self, x, k, num_rows, num_cols, padding_value):
        rules.check_rank(self.name, "padding_value", padding_value, 0)
        if self._k_tensor:
            single = _k_shape_pair(self.name, k)
            lead = tuple(x[:-1]) if single else tuple(x[:-2])
            return lead + (-1, -1)
        lo, hi, single = k_pair(self.name, k)
        num_diags = hi - lo + 1
        if not single and (len(x) < 2 or x[-2] != num_diags):
            raise MSValueError(f"For '{self.name}', x.shape[-2] must be the number of diagonals {num_diags}, but got "
                               f"shape {tuple(x)}.")
        lead = tuple(x[:-1]) if single else tuple(x[:-2])
        if not (isinstance(num_rows, int) and isinstance(num_cols, int)):
            return lead + (-1, -1)
        max_len = x[-1]
        min_rows, min_cols = max_len - min(hi, 0), max_len + max(lo, 0)
        if num_rows == -1 and num_cols == -1:
            num_rows = num_cols = max(min_rows, min_cols)
        elif num_rows == -1:
            num_rows = min_rows
        elif num_cols == -1:
            num_cols = min_cols
        if num_rows < min_rows or num_cols < min_cols:
            raise MSValueError(f"For '{self.name}', the output size ({num_rows}, {num_cols}) is too small for the "
                               f"diagonals, at least ({min_rows}, {min_cols}).")
        return lead + (num_rows, num_cols)

    def infer_dtype(self, x, k, num_rows, num_cols, padding_value):
        self._k_tensor = _tensor_arg(k)
        if self._k_tensor:
            rules.check_dtype_in(self.name, "k", k, (mstype.int32,))
        rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)
        if _tensor_arg(padding_value):
            rules.check_same_dtype(self.name, ("x", "padding_value"), (x, padding_value))
        return x

    def bprop(self, x, k, num_rows, num_cols, padding_value, out, dout):
        part = self._grad_prim(MatrixDiagPartV3, self.align)(dout, k, fops.zeros((), fops.dtype(dout)))
        return fops.reshape(part, fops.shape(x)), None, None, None, None


class MatrixDiagPartV3(Primitive):
    """``MatrixDiagPartV3(align='RIGHT_LEFT')(x, k, padding_value)``: the diagonals ``k`` of the innermost
    matrices of ``x``, packed into rows of the longest diagonal's length and filled with ``padding_value``."""

    @prim_attr_register
    def __init__(self, align="RIGHT_LEFT"):
        _check_align(self.name, align)

    def infer_shape(self, x, k, padding_value):
        rules.check_rank(self.name, "x", x, range(2, 9))
        rules.check_rank(self.name, "padding_value", padding_value, 0)
        rows, cols = x[-2], x[-1]
        if self._k_tensor:
            single = _k_shape_pair(self.name, k)
            return tuple(x[:-2]) + ((-1,) if single else (-1, -1))
        lo, hi, single = k_pair(self.name, k)
        if rows and cols and not (-rows < lo <= cols - 1 and -rows < hi <= cols - 1):
            raise MSValueError(f"For '{self.name}', 'k' must be in (-{rows}, {cols}), but got ({lo}, {hi}).")
        max_len = max(diag_len(d, rows, cols) for d in range(lo, hi + 1))
        return tuple(x[:-2]) + ((max_len,) if single else (hi - lo + 1, max_len))

    def infer_dtype(self, x, k, padding_value):
        self._k_tensor = _tensor_arg(k)
        if self._k_tensor:
            rules.check_dtype_in(self.name, "k", k, (mstype.int32,))
        rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)
        if _tensor_arg(padding_value):
            rules.check_same_dtype(self.name, ("x", "padding_value"), (x, padding_value))
        return x

    def bprop(self, x, k, padding_value, out, dout):
        return self._grad_prim(MatrixSetDiagV3, self.align)(fops.zeros_like(x), dout, k), None, None


class MatrixSetDiagV3(Primitive):
    """``MatrixSetDiagV3(align='RIGHT_LEFT')(x, diagonal, k)``: ``x`` with its diagonals ``k`` replaced by the
    packed ``diagonal`` (as ``MatrixDiagPartV3`` gives them)."""

    @prim_attr_register
    def __init__(self, align="RIGHT_LEFT"):
        _check_align(self.name, align)

    def infer_shape(self, x, diagonal, k):
        rules.check_rank(self.name, "x", x, range(2, 9))
        if not self._k_tensor:
            lo, hi, single = k_pair(self.name, k)
            rows, cols = x[-2], x[-1]
            if rows and cols and not (-rows < lo <= cols - 1 and -rows < hi <= cols - 1):
                raise MSValueError(f"For '{self.name}', 'k' must be in (-{rows}, {cols}), but got ({lo}, {hi}).")
            max_len = max(diag_len(d, rows, cols) for d in range(lo, hi + 1))
            want = tuple(x[:-2]) + ((max_len,) if single else (hi - lo + 1, max_len))
            if tuple(diagonal) != want:
                raise MSValueError(f"For '{self.name}', the shape of 'diagonal' must be {want}, but got "
                                   f"{tuple(diagonal)}.")
        return tuple(x)

    def infer_dtype(self, x, diagonal, k):
        self._k_tensor = _tensor_arg(k)
        if self._k_tensor:
            rules.check_dtype_in(self.name, "k", k, (mstype.int32,))
        rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)
        return rules.check_same_dtype(self.name, ("x", "diagonal"), (x, diagonal))

    def bprop(self, x, diagonal, k, out, dout):
        dx = self._grad_prim(MatrixSetDiagV3, self.align)(dout, fops.zeros_like(diagonal), k)
        return dx, self._grad_prim(MatrixDiagPartV3, self.align)(dout, k, fops.zeros((), fops.dtype(dout))), None


# --- MatrixSolveLs / Ormqr ------------------------------------------------------------------------------------------
class MatrixSolveLs(Primitive):
    """``MatrixSolveLs(fast=True)(matrix, rhs, l2)``: the regularised least-squares solutions ``X`` (..., N, K) of
    ``matrix @ X = rhs`` (``matrix`` (..., M, N), ``rhs`` (..., M, K)): ``(A^T A + l2 I)^-1 A^T B`` when M >= N,
    ``A^T (A A^T + l2 I)^-1 B`` otherwise."""

    @prim_attr_register
    def __init__(self, fast=True):
        rules.check_bool(self.name, "fast", fast)

    def infer_shape(self, matrix, rhs, l2):
        rules.check_rank(self.name, "matrix", matrix, range(2, 9))
        rules.check_rank(self.name, "l2", l2, 0)
        if len(rhs) != len(matrix) or tuple(rhs[:-1]) != tuple(matrix[:-1]):
            raise MSValueError(f"For '{self.name}', the shapes of 'matrix' {tuple(matrix)} and 'rhs' {tuple(rhs)} "
                               f"must agree but for the last dimension.")
        return tuple(matrix[:-2]) + (matrix[-1], rhs[-1])

    def infer_dtype(self, matrix, rhs, l2):
        rules.check_dtype_in(self.name, "matrix", matrix, _FLOATS + _COMPLEX)
        rules.check_dtype_in(self.name, "l2", l2, (mstype.float64,))
        return rules.check_same_dtype(self.name, ("matrix", "rhs"), (matrix, rhs))

    def bprop(self, matrix, rhs, l2, out, dout):
        a = matrix
        at = fops.swapaxes(a, -1, -2)
        reg = fops.cast(l2, fops.dtype(a))
        m, n = fops.shape(a)[-2], fops.shape(a)[-1]
        if m >= n:
            c = fops.inverse(fops.add(fops.matmul(at, a), fops.mul(reg, fops.eye(n, n, fops.dtype(a)))))
            z = fops.matmul(c, dout)
            da = fops.sub(fops.matmul(rhs, fops.swapaxes(z, -1, -2)),
                          fops.matmul(a, fops.add(fops.matmul(z, fops.swapaxes(out, -1, -2)),
                                                  fops.matmul(out, fops.swapaxes(z, -1, -2)))))
            return da, fops.matmul(a, z), None
        c = fops.inverse(fops.add(fops.matmul(a, at), fops.mul(reg, fops.eye(m, m, fops.dtype(a)))))
        y = fops.matmul(c, rhs)
        w = fops.matmul(c, fops.matmul(a, dout))
        da = fops.sub(fops.matmul(y, fops.swapaxes(dout, -1, -2)),
                      fops.matmul(fops.add(fops.matmul(w, fops.swapaxes(y, -1, -2)),
                                           fops.matmul(y, fops.swapaxes(w, -1, -2))), a))
        return da, w, None


class Ormqr(Primitive):
    """``Ormqr(left=True, transpose=False)(x, tau, other)``: ``Q @ other`` (``left``; else ``other @ Q``;
    ``transpose``: with ``Q^H``) for the full ``Q`` (M, M) of the Householder representation ``(x, tau)`` that
    ``Geqrf`` gives."""

    @prim_attr_register
    def __init__(self, left=True, transpose=False):
        rules.check_bool(self.name, "left", left)
        rules.check_bool(self.name, "transpose", transpose)

    def infer_shape(self, x, tau, other):
        rules.check_rank(self.name, "x", x, range(2, 9))
        m, n = x[-2], x[-1]
        if len(tau) != len(x) - 1 or tuple(tau[:-1]) != tuple(x[:-2]) or tau[-1] > min(m, n):
            raise MSValueError(f"For '{self.name}', the shape of 'tau' must be {tuple(x[:-2])} + (k,) with k <= "
                               f"{min(m, n)}, but got {tuple(tau)}.")
        if len(other) != len(x) or tuple(other[:-2]) != tuple(x[:-2]):
            raise MSValueError(f"For '{self.name}', the batch dimensions of 'other' must be {tuple(x[:-2])}, but got "
                               f"{tuple(other)}.")
        if (other[-2] if self.left else other[-1]) != m:
            raise MSValueError(f"For '{self.name}', other.shape[{-2 if self.left else -1}] must be {m}, but got "
                               f"{tuple(other)}.")
        return tuple(other)

    def infer_dtype(self, x, tau, other):
        rules.check_dtype_in(self.name, "x", x, _F32_64 + _COMPLEX)
        return rules.check_same_dtype(self.name, ("x", "tau", "other"), (x, tau, other))

    bprop = NON_DIFFERENTIABLE


# --- EditDistance / NoRepeatNGram ------------------------------------------------------------------------------------
class EditDistance(Primitive):
    """``EditDistance(normalize=True)(hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices,
    truth_values, truth_shape)``: the Levenshtein distances between the sparse sequences (grouped by all but the
    last index), divided by the truth's length when ``normalize``; Float32 of ``max(shapes)[:-1]``."""

    @prim_attr_register
    def __init__(self, normalize=True):
        rules.check_bool(self.name, "normalize", normalize)

    def infer_shape(self, hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, truth_values,
                    truth_shape):
        for name, ind, val in (("hypothesis", hypothesis_indices, hypothesis_values),
                               ("truth", truth_indices, truth_values)):
            rules.check_rank(self.name, f"{name}_indices", ind, 2)
            rules.check_rank(self.name, f"{name}_values", val, 1)
            if ind[0] != val[0]:
                raise MSValueError(f"For '{self.name}', the number of {name}_indices and {name}_values must agree, "
                                   f"but got {ind[0]} and {val[0]}.")
        rules.check_rank(self.name, "hypothesis_shape", hypothesis_shape, 1)
        rules.check_same_shape(self.name, ("hypothesis_shape", "truth_shape"), (hypothesis_shape, truth_shape))
        return (-1,) * (hypothesis_shape[0] - 1)

    def infer_dtype(self, hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, truth_values,
                    truth_shape):
        for name, dt in (("hypothesis_indices", hypothesis_indices), ("truth_indices", truth_indices),
                         ("hypothesis_shape", hypothesis_shape), ("truth_shape", truth_shape)):
            rules.check_dtype_in(self.name, name, dt, (mstype.int64,))
        rules.check_same_dtype(self.name, ("hypothesis_values", "truth_values"), (hypothesis_values, truth_values))
        return mstype.float32

    bprop = NON_DIFFERENTIABLE


class NoRepeatNGram(Primitive):
    """``NoRepeatNGram(ngram_size=1)(state_seq, log_probs)``: ``log_probs`` with the tokens that would repeat an
    ``ngram_size``-gram of ``state_seq`` (..., L) set to the float lowest value."""

    @prim_attr_register
    def __init__(self, ngram_size=1):
        rules.check_positive_int(self.name, "ngram_size", ngram_size)

    def infer_shape(self, state_seq, log_probs):
        rules.check_rank(self.name, "state_seq", state_seq, 3)
        rules.check_rank(self.name, "log_probs", log_probs, 3)
        if tuple(state_seq[:-1]) != tuple(log_probs[:-1]):
            raise MSValueError(f"For '{self.name}', the leading dimensions of 'state_seq' {tuple(state_seq)} and "
                               f"'log_probs' {tuple(log_probs)} must agree.")
        if self.ngram_size > state_seq[-1]:
            raise MSValueError(f"For '{self.name}', the 'ngram_size' must be at most state_seq.shape[-1] "
                               f"{state_seq[-1]}, but got {self.ngram_size}.")
        return tuple(log_probs)

    def infer_dtype(self, state_seq, log_probs):
        rules.check_dtype_in(self.name, "state_seq", state_seq, (mstype.int32,))
        return rules.check_dtype_in(self.name, "log_probs", log_probs, _FLOATS)

    bprop = NON_DIFFERENTIABLE


# --- IndexPut / InplaceIndexAdd -------------------------------------------------------------------------------------
class IndexPut(Primitive):
    """``IndexPut(accumulate=0)(x1, x2, indices)``: ``x1`` with ``x2`` (broadcast) written (``accumulate``: added)
    at the positions the tuple of 1-D int tensors ``indices`` selects over ``x1``'s leading dimensions."""

    @prim_attr_register
    def __init__(self, accumulate=0):
        rules.check_int(self.name, "accumulate", accumulate)
        if accumulate not in (0, 1):
            raise MSValueError(f"For '{self.name}', the 'accumulate' must be 0 or 1, but got {accumulate}.")

    def infer_shape(self, x1, x2, indices):
        if not isinstance(indices, (tuple, list)) or not indices or not all(rules.is_shape(s) for s in indices):
            raise MSTypeError(f"For '{self.name}', the 'indices' must be a non-empty tuple of Tensors, but got "
                              f"{indices!r}.")
        if len(indices) > len(x1):
            raise MSValueError(f"For '{self.name}', the number of 'indices' must be at most the rank of 'x1' "
                               f"{len(x1)}, but got {len(indices)}.")
        sel = tuple(rules.broadcast_shapes(self.name, *indices))
        rules.check_rank(self.name, "x2", x2, (0, 1))
        picked = sel + tuple(x1[len(indices):])
        if len(x2) == 1 and x2[0] not in (1, picked[-1] if picked else 1):
            raise MSValueError(f"For '{self.name}', the size of 'x2' must be 1 or {picked[-1] if picked else 1}, but "
                               f"got {x2[0]}.")
        return tuple(x1)

    def infer_dtype(self, x1, x2, indices):
        for i, d in enumerate(indices):
            rules.check_dtype_in(self.name, f"indices[{i}]", d, _INDEX)
        rules.check_dtype_in(self.name, "x1", x1, rules.NUMBER_TYPES)
        return rules.check_same_dtype(self.name, ("x1", "x2"), (x1, x2))

    def bprop(self, x1, x2, indices, out, dout):
        if self.accumulate:
            dx1 = dout
        else:
            dx1 = self._grad_prim(IndexPut, 0)(dout, fops.zeros((1,), fops.dtype(dout)), indices)
        picked = fops.gather_nd(dout, fops.stack(indices, -1))
        return dx1, picked, None   # the autodiff engine sums it back over x2's broadcast axes


class InplaceIndexAdd(Primitive):
    """``InplaceIndexAdd(axis)(var, indices, updates)``: ``var`` with slice ``updates[.., k, ..]`` added to slice
    ``var[.., indices[k], ..]`` along ``axis`` (the ``IndexAdd`` kernels; ``ops.inplace_index_add`` writes the
    result back into a Parameter)."""

    @prim_attr_register
    def __init__(self, axis):
        rules.check_int(self.name, "axis", axis)
        self.check_index_bound = True   # what the shared IndexAdd kernels read

    def infer_shape(self, var, indices, updates):
        axis = rules.check_axis(self.name, self.axis, len(var))
        rules.check_rank(self.name, "indices", indices, 1)
        want = tuple(var[:axis]) + (indices[0],) + tuple(var[axis + 1:])
        if not rules.same_shape(updates, want):
            raise MSValueError(f"For '{self.name}', the shape of 'updates' must be {want}, but got {tuple(updates)}.")
        return tuple(var)

    def infer_dtype(self, var, indices, updates):
        rules.check_dtype_in(self.name, "indices", indices, (mstype.int32,))
        rules.check_dtype_in(self.name, "var", var, rules.NUMBER_TYPES)
        return rules.check_same_dtype(self.name, ("var", "updates"), (var, updates))

    def bprop(self, var, indices, updates, out, dout):
        return dout, None, fops.gather(dout, indices, self.axis)


PRIMITIVES = [
    UnsortedSegmentSum, UnsortedSegmentMax, UnsortedSegmentMin, UnsortedSegmentProd, SegmentSum, SegmentMean,
    SegmentMax, SegmentMin, SegmentProd, EuclideanNorm, CountNonZero, NuclearNorm, ConjugateTranspose,
    PopulationCount, Polar, NthElement, Quantile, QuantileGrad, Pdist, PdistGrad, Lstsq, LuSolve, MatrixLogarithm, Qr,
    TridiagonalMatMul, AccumulateNV2, CompareAndBitpack, Expand, FillV2, Fills, LerpScalar, LogSoftmaxExt,
    EqualCount, InTopK, UniqueWithPad, ListDiff, RaggedRange, ParallelConcat, ScatterAddWithAxis, TensorShape,
    DynamicShape, TupleToArray, ScalarToArray, ScalarToTensor, ScalarCast, DtypeToEnum, MatrixDiagV3,
    MatrixDiagPartV3, MatrixSetDiagV3, MatrixSolveLs, Ormqr, EditDistance, NoRepeatNGram, IndexPut, InplaceIndexAdd,
]
