"""Indexing primitives: gather/scatter, strided slicing, padding, selection, sorting.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop`` (or
``NON_DIFFERENTIABLE``). Kernels live in the backends' ``kernels/indexing.py``.

Index conventions shared by every kernel of this family: an integer index ``i`` into a dimension of
size ``n`` must lie in ``[-n, n)``; negative values count from the end (MindSpore documents
``[0, n)``; accepting negatives lets ``Tensor.__getitem__`` pass user indices straight through).
Anything else raises :class:`MSIndexError`. Gradients of gathers are scatters with accumulation
(``ScatterNd``/``TensorScatterElements(reduction='add')``), so repeated indices sum their gradients.
Output shapes that depend on data (``MaskedSelect``, ``NonZero``, ``Unique``) are inferred as ``-1``.
"""
import functools

import mindspore._errors as _errors
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops._defs.array import Pad, cached_prim, check_shape_arg
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, constexpr, prim_attr_register

_ANY_RANK = range(0, 9)
_INDEX_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8)

MSIndexError = getattr(_errors, "MSIndexError", None)
if MSIndexError is None:
    class MSIndexError(_errors.MindSporeError, IndexError):
        """An index out of range (an ``IndexError``, as MindSpore and NumPy raise)."""


def _check_index_dtype(op, name, dtype):
    return rules.check_dtype_in(op, name, dtype, _INDEX_TYPES)


# --- Gather ---------------------------------------------------------------------------------
class Gather(Primitive):
    """``Gather(batch_dims=0)(params, indices, axis)``: slices of ``params`` along ``axis`` at ``indices``.

    The output shape is ``params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]``.
    """

    @prim_attr_register
    def __init__(self, batch_dims=0):
        rules.check_int(self.name, "batch_dims", batch_dims)

    def infer_shape(self, params, indices, axis):
        rules.check_rank(self.name, "input_params", params, range(1, 9))
        rules.check_rank(self.name, "input_indices", indices, _ANY_RANK)
        axis = rules.check_axis(self.name, axis, len(params))
        b = gather_batch_dims(self.name, self.batch_dims, params, indices, axis)
        return tuple(params[:axis]) + tuple(indices[b:]) + tuple(params[axis + 1:])

    def infer_dtype(self, params, indices, axis):
        _check_index_dtype(self.name, "input_indices", indices)
        return rules.check_dtype_in(self.name, "input_params", params, rules.ALL_TYPES)

    def bprop(self, params, indices, axis, out, dout):
        return gather_grad(dout, indices, params.shape, axis, self.batch_dims), None, None


def gather_batch_dims(op, batch_dims, params, indices, axis):
    b = batch_dims + len(indices) if batch_dims < 0 else batch_dims
    if not 0 <= b <= len(indices) or b > axis:
        raise MSValueError(f"For '{op}', the 'batch_dims' must be in [-{len(indices)}, {len(indices)}] and not "
                           f"greater than 'axis' {axis}, but got {batch_dims}.")
    if tuple(params[:b]) != tuple(indices[:b]):
        raise MSValueError(f"For '{op}', the first {b} dimensions of 'input_params' and 'input_indices' must be "
                           f"equal, but got {tuple(params)} and {tuple(indices)}.")
    return b


def gather_grad(dout, indices, params_shape, axis, batch_dims):
    """Gradient of ``Gather``: ``dout`` scattered (summed) back into a tensor of ``params_shape``."""
    axis = axis % len(params_shape)
    b = batch_dims + len(indices.shape) if batch_dims < 0 else batch_dims
    perm_in, target, perm_back = _gather_grad_plan(tuple(params_shape), tuple(indices.shape), axis, b)
    g = fops.transpose(dout, perm_in)
    coords = fops.expand_dims(indices, -1)
    if b > 0:
        grids = []
        for j in range(b):
            grid = fops.arange(0, params_shape[j], 1, dtype=indices.dtype)
            grid = fops.reshape(grid, _grid_shape(j, b, indices.shape))
            grids.append(fops.broadcast_to(grid, _with_one(indices.shape)))
        grids.append(coords)
        coords = fops.concat(grids, -1)
    g = cached_prim(ScatterNd)(coords, g, target)
    return fops.transpose(g, perm_back)


@constexpr
def _gather_grad_plan(pshape, ishape, axis, b):
    n_pre, n_idx = axis - b, len(ishape) - b
    post = len(pshape) - axis - 1
    batch = tuple(range(b))
    perm_in = batch + tuple(range(b + n_pre, b + n_pre + n_idx)) + tuple(range(b, b + n_pre)) + \
        tuple(range(b + n_pre + n_idx, b + n_pre + n_idx + post))
    target = tuple(pshape[:b]) + (pshape[axis],) + tuple(pshape[b:axis]) + tuple(pshape[axis + 1:])
    perm_back = batch + tuple(range(b + 1, b + 1 + n_pre)) + (b,) + tuple(range(b + 1 + n_pre, len(pshape)))
    return perm_in, target, perm_back


@constexpr
def _grid_shape(j, b, ishape):
    return tuple(ishape[j] if i == j else 1 for i in range(len(ishape))) + (1,)


@constexpr
def _with_one(shape):
    return tuple(shape) + (1,)


def scatter_back_axis(g, index, axis, size):
    """Gradient of gathering ``index`` (a tuple of ints) along ``axis`` from a dimension of ``size``."""
    shape = tuple(g.shape[:axis]) + (size,) + tuple(g.shape[axis + 1:])
    return gather_grad(g, fops.tuple_to_array(index), shape, axis, 0)


# --- GatherD --------------------------------------------------------------------------------
class GatherD(Primitive):
    """``GatherD()(x, dim, index)``: ``out[i][j] = x[index[i][j]][j]`` for ``dim=0`` (and so on)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, dim, index):
        rules.check_rank(self.name, "x", x, range(1, 9))
        check_elementwise_index(self.name, x, dim, index)
        return tuple(index)

    def infer_dtype(self, x, dim, index):
        _check_index_dtype(self.name, "index", index)
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)

    def bprop(self, x, dim, index, out, dout):
        dx = cached_prim(TensorScatterElements, dim, "add")(fops.zeros_like(x), index, dout)
        return dx, None, None


def check_elementwise_index(op, x, dim, index):
    dim = rules.check_axis(op, dim, len(x), "dim")
    if len(index) != len(x):
        raise MSValueError(f"For '{op}', the rank of 'index' must be equal to the rank of 'x' {len(x)}, but got "
                           f"index shape {tuple(index)}.")
    for d, (a, b) in enumerate(zip(index, x)):
        if d != dim and a > b:
            raise MSValueError(f"For '{op}', the shape of 'index' must not exceed the shape of 'x' except at 'dim' "
                               f"{dim}, but got index shape {tuple(index)} and x shape {tuple(x)}.")
    return dim


# --- TensorScatterElements ------------------------------------------------------------------
class TensorScatterElements(Primitive):
    """``TensorScatterElements(axis=0, reduction='none')(x, indices, updates)``: the inverse of ``GatherD``.

    ``out = x`` with ``out[indices[i][j]][j] = updates[i][j]`` for ``axis=0`` (summed when
    ``reduction='add'``).
    """

    @prim_attr_register
    def __init__(self, axis=0, reduction="none"):
        rules.check_int(self.name, "axis", axis)
        if reduction not in ("none", "add"):
            raise MSValueError(f"For '{self.name}', the 'reduction' must be 'none' or 'add', but got {reduction!r}.")

    def infer_shape(self, x, indices, updates):
        rules.check_rank(self.name, "input_x", x, range(1, 9))
        check_elementwise_index(self.name, x, self.axis, indices)
        if tuple(indices) != tuple(updates):
            raise MSValueError(f"For '{self.name}', the shape of 'updates' must be equal to the shape of 'indices', "
                               f"but got {tuple(updates)} and {tuple(indices)}.")
        return tuple(x)

    def infer_dtype(self, x, indices, updates):
        _check_index_dtype(self.name, "indices", indices)
        return rules.check_same_dtype(self.name, ("input_x", "updates"), (x, updates))

    def bprop(self, x, indices, updates, out, dout):
        dupdates = cached_prim(GatherD)(dout, self.axis, indices)
        if self.reduction == "add":
            return dout, None, dupdates
        dx = cached_prim(TensorScatterElements, self.axis, "none")(dout, indices, fops.zeros_like(updates))
        return dx, None, dupdates


# --- GatherNd -------------------------------------------------------------------------------
class GatherNd(Primitive):
    """``GatherNd()(x, indices)``: ``out[i...] = x[indices[i...]]``; ``indices[..., k]`` indexes axis ``k`` of ``x``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, indices):
        rules.check_rank(self.name, "input_x", x, _ANY_RANK)
        k = _index_depth(self.name, indices, len(x))
        return tuple(indices[:-1]) + tuple(x[k:])

    def infer_dtype(self, x, indices):
        _check_index_dtype(self.name, "indices", indices)
        return x

    def bprop(self, x, indices, out, dout):
        return cached_prim(ScatterNd)(indices, dout, x.shape), None


def _index_depth(op, indices, ndim):
    rules.check_rank(op, "indices", indices, range(1, 9))
    if indices[-1] > ndim:
        raise MSValueError(f"For '{op}', the last dimension of 'indices' must not exceed the rank of the indexed "
                           f"tensor {ndim}, but got indices shape {tuple(indices)}.")
    return indices[-1]


def _check_updates(op, indices, updates, shape):
    k = _index_depth(op, indices, len(shape))
    want = tuple(indices[:-1]) + tuple(shape[k:])
    if not rules.same_shape(updates, want):
        raise MSValueError(f"For '{op}', the shape of 'updates' must be indices.shape[:-1] + shape[indices.shape[-1]:]"
                           f" = {want}, but got {tuple(updates)}.")


# --- ScatterNd ------------------------------------------------------------------------------
class ScatterNd(Primitive):
    """``ScatterNd()(indices, updates, shape)``: zeros of ``shape`` with ``updates`` summed in at ``indices``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, indices, updates, shape):
        shape = check_shape_arg(self.name, "shape", shape)
        _check_updates(self.name, indices, updates, shape)
        return shape

    def infer_dtype(self, indices, updates, shape):
        _check_index_dtype(self.name, "indices", indices)
        return rules.check_dtype_in(self.name, "updates", updates, rules.ALL_TYPES)

    def bprop(self, indices, updates, shape, out, dout):
        return None, cached_prim(GatherNd)(dout, indices), None


# --- TensorScatterUpdate --------------------------------------------------------------------
class TensorScatterUpdate(Primitive):
    """``TensorScatterUpdate()(x, indices, updates)``: a copy of ``x`` with ``updates`` written at ``indices``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, indices, updates):
        rules.check_rank(self.name, "input_x", x, range(1, 9))
        _check_updates(self.name, indices, updates, x)
        return tuple(x)

    def infer_dtype(self, x, indices, updates):
        _check_index_dtype(self.name, "indices", indices)
        return rules.check_same_dtype(self.name, ("input_x", "updates"), (x, updates))

    def bprop(self, x, indices, updates, out, dout):
        dx = cached_prim(TensorScatterUpdate)(dout, indices, fops.zeros_like(updates))
        return dx, None, cached_prim(GatherNd)(dout, indices)


# --- TensorScatterAdd -----------------------------------------------------------------------
class TensorScatterAdd(TensorScatterUpdate):
    """``TensorScatterAdd()(x, indices, updates)``: a copy of ``x`` with ``updates`` added at ``indices``."""

    def bprop(self, x, indices, updates, out, dout):
        return dout, None, cached_prim(GatherNd)(dout, indices)


# --- ScatterNdUpdate ------------------------------------------------------------------------
class ScatterNdUpdate(Primitive):
    """``ScatterNdUpdate(use_locking=True)(input_x, indices, updates)``: writes into ``input_x`` in place."""

    side_effect = True   # writes its input: graphs keep it, in program order
    written_inputs = (0,)

    @prim_attr_register
    def __init__(self, use_locking=True):
        rules.check_bool(self.name, "use_locking", use_locking)

    def infer_shape(self, x, indices, updates):
        rules.check_rank(self.name, "input_x", x, range(1, 9))
        _check_updates(self.name, indices, updates, x)
        return tuple(x)

    def infer_dtype(self, x, indices, updates):
        _check_index_dtype(self.name, "indices", indices)
        return rules.check_written_dtype(self.name, ("input_x", "updates"), (x, updates))

    bprop = NON_DIFFERENTIABLE


# --- StridedSlice ---------------------------------------------------------------------------
class StridedSlice(Primitive):
    """``StridedSlice(begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)(x, begin, end, strides)``.

    Bit ``i`` of a mask applies to entry ``i`` of ``begin``/``end``/``strides``: ``begin_mask`` and
    ``end_mask`` ignore the bound (the slice runs to the edge), ``ellipsis_mask`` makes the entry
    ``...``, ``new_axis_mask`` inserts a size-1 axis, ``shrink_axis_mask`` takes the single element
    ``begin[i]`` and drops the axis. Bounds are clamped like Python slices.
    """

    @prim_attr_register
    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
        for name in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"):
            if rules.check_int(self.name, name, getattr(self, name)) < 0:
                raise MSValueError(f"For '{self.name}', the '{name}' must be non-negative, but got "
                                   f"{getattr(self, name)}.")
        if bin(ellipsis_mask).count("1") > 1:
            raise MSValueError(f"For '{self.name}', only one bit of 'ellipsis_mask' may be set, but got "
                               f"{ellipsis_mask}.")

    def masks(self):
        return (self.begin_mask, self.end_mask, self.ellipsis_mask, self.new_axis_mask, self.shrink_axis_mask)

    def plan(self, shape, begin, end, strides):
        """``(index, out_shape)``: a Python index tuple equivalent to the slice, and the result's shape."""
        return strided_slice_plan(self.name, tuple(shape), _ints(self.name, "begin", begin),
                                  _ints(self.name, "end", end), _ints(self.name, "strides", strides), self.masks())

    def infer_shape(self, x, begin, end, strides):
        rules.check_rank(self.name, "input_x", x, _ANY_RANK)
        return self.plan(x, begin, end, strides)[1]

    def infer_dtype(self, x, begin, end, strides):
        return x

    def bprop(self, x, begin, end, strides, out, dout):
        grad = cached_prim(StridedSliceGrad, *self.masks())
        return grad(dout, x.shape, begin, end, strides), None, None, None


def _ints(op, name, v):
    if not isinstance(v, (tuple, list)):
        raise MSTypeError(f"For '{op}', the '{name}' must be a tuple of int, but got {type(v).__name__}.")
    return rules.check_int_tuple(op, name, v)


@functools.lru_cache(maxsize=1024)
def strided_slice_plan(op, shape, begin, end, strides, masks):
    begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_mask = masks
    if not len(begin) == len(end) == len(strides):
        raise MSValueError(f"For '{op}', 'begin', 'end' and 'strides' must have the same length, but got "
                           f"{len(begin)}, {len(end)} and {len(strides)}.")
    entries = []
    for i in range(len(begin)):
        bit = 1 << i
        if ellipsis_mask & bit:
            entries.append(Ellipsis)
        elif new_axis_mask & bit:
            entries.append(None)
        elif shrink_mask & bit:
            entries.append(("shrink", begin[i]))
        else:
            if strides[i] == 0:
                raise MSValueError(f"For '{op}', the 'strides' must not contain 0, but got {strides}.")
            entries.append(slice(None if begin_mask & bit else begin[i], None if end_mask & bit else end[i],
                                 strides[i]))
    used = sum(1 for e in entries if e is not None and e is not Ellipsis)
    if used > len(shape):
        raise MSValueError(f"For '{op}', the number of sliced dimensions {used} must not exceed the rank of "
                           f"'input_x' {len(shape)}.")
    if Ellipsis not in entries:
        entries.append(Ellipsis)
    index, out, dim = [], [], 0
    for e in entries:
        if e is None:
            index.append(None)
            out.append(1)
        elif e is Ellipsis:
            n = len(shape) - used
            index.extend([slice(None)] * n)
            out.extend(shape[dim:dim + n])
            dim += n
        elif isinstance(e, tuple):
            size, i = shape[dim], e[1]
            if not -size <= i < size:
                raise MSIndexError(f"For '{op}', the index {i} is out of bounds for dimension {dim} with size "
                                   f"{size}.")
            index.append(i % size)
            dim += 1
        else:
            index.append(e)
            out.append(len(range(*e.indices(shape[dim]))))
            dim += 1
    return tuple(index), tuple(out)


# --- StridedSliceGrad -----------------------------------------------------------------------
class StridedSliceGrad(Primitive):
    """``StridedSliceGrad(masks...)(dy, shapex, begin, end, strides)``: zeros of ``shapex`` with ``dy`` in the slice."""

    @prim_attr_register
    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
        pass

    def plan(self, shape, begin, end, strides):
        return cached_prim(StridedSlice, *self.masks()).plan(shape, begin, end, strides)

    masks = StridedSlice.masks

    def infer_shape(self, dy, shapex, begin, end, strides):
        shapex = check_shape_arg(self.name, "shapex", shapex)
        want = self.plan(shapex, begin, end, strides)[1]
        if tuple(dy) != want:
            raise MSValueError(f"For '{self.name}', the shape of 'dy' must be {want}, but got {tuple(dy)}.")
        return shapex

    def infer_dtype(self, dy, shapex, begin, end, strides):
        return dy

    def bprop(self, dy, shapex, begin, end, strides, out, dout):
        return cached_prim(StridedSlice, *self.masks())(dout, begin, end, strides), None, None, None, None


# --- Slice ----------------------------------------------------------------------------------
class Slice(Primitive):
    """``Slice()(x, begin, size)``: the block of ``x`` starting at ``begin`` with ``size`` (``-1``: to the end)."""
    mixed_precision_cast = False   # (Cell.to_float in PYNATIVE: a view or a cast of its input, as MindSpore 2.10)

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, begin, size):
        return slice_size(self.name, tuple(x), begin, size)

    def infer_dtype(self, x, begin, size):
        return x

    def bprop(self, x, begin, size, out, dout):
        return cached_prim(Pad, _slice_pads(tuple(x.shape), tuple(begin), tuple(out.shape)))(dout), None, None


def slice_size(op, shape, begin, size):
    rules.check_rank(op, "input_x", shape, _ANY_RANK)
    begin = _ints(op, "begin", begin)
    size = _ints(op, "size", size)
    if not len(begin) == len(size) == len(shape):
        raise MSValueError(f"For '{op}', the length of 'begin' and 'size' must be equal to the rank of 'input_x' "
                           f"{len(shape)}, but got {len(begin)} and {len(size)}.")
    out = []
    for d, (n, b, s) in enumerate(zip(shape, begin, size)):
        s = n - b if s == -1 else s
        if b < 0 or s < 0 or b + s > n:
            raise MSValueError(f"For '{op}', the slice [begin={b}, size={s}] is out of range for dimension {d} "
                               f"with size {n}.")
        out.append(s)
    return tuple(out)


@constexpr
def _slice_pads(shape, begin, size):
    return tuple((b, n - b - s) for n, b, s in zip(shape, begin, size))


# --- PadV3 ----------------------------------------------------------------------------------
class PadV3(Primitive):
    """``PadV3(mode='constant')(x, paddings, constant_value)``: torch-style padding.

    ``paddings`` is flat, last axis first: ``(left, right, top, bottom, ...)``; negative values crop.
    ``mode`` is ``'constant'``, ``'reflect'``, ``'edge'`` (replicate) or ``'circular'``. ``paddings`` may be a
    tensor (2.10's examples pass one): its values are read.
    """

    value_inputs = {1: "paddings"}
    float32_numbers = False     # the constant is the number given, as in 2.10

    @prim_attr_register
    def __init__(self, mode="constant", paddings_contiguous=True):
        if mode not in ("constant", "reflect", "edge", "circular"):
            raise MSValueError(f"For '{self.name}', the 'mode' must be 'constant', 'reflect', 'edge' or 'circular', "
                               f"but got {mode!r}.")

    def __call__(self, x, paddings, constant_value=0):
        return super().__call__(x, paddings, constant_value)

    def infer_shape(self, x, paddings, value):
        rules.check_rank(self.name, "x", x, _ANY_RANK)
        pairs = self.pad_pairs(paddings, len(x))
        out = []
        for d, (s, (a, b)) in enumerate(zip(x, pairs)):
            if self.mode == "reflect" and (a >= s or b >= s) and (a > 0 or b > 0):
                raise MSValueError(f"For '{self.name}', in 'reflect' mode the paddings of dimension {d} must be "
                                   f"less than its size {s}, but got ({a}, {b}).")
            if s + a + b < 0 or (self.mode != "constant" and s == 0 and (a > 0 or b > 0)):
                raise MSValueError(f"For '{self.name}', the paddings {tuple(paddings)} are invalid for input shape "
                                   f"{tuple(x)}.")
            out.append(s + a + b)
        return tuple(out)

    def pad_pairs(self, paddings, ndim):
        """Per-axis ``(before, after)`` from the flat, last-axis-first ``paddings`` (for kernels); with
        ``paddings_contiguous=False`` they are all the befores, then all the afters."""
        if not self.paddings_contiguous:
            paddings = rules.check_int_tuple(self.name, "paddings", paddings)
            half = len(paddings) // 2
            paddings = tuple(v for pair in zip(paddings[:half], paddings[half:]) for v in pair) + paddings[2 * half:]
        return padv3_pairs(self.name, paddings, ndim)

    def infer_dtype(self, x, paddings, value):
        if not (rules.is_scalar(value) or isinstance(value, mstype.Type)):
            raise MSTypeError(f"For '{self.name}', the 'constant_value' must be a number or Tensor, but got "
                              f"{type(value).__name__}.")
        return x

    def bprop(self, x, paddings, value, out, dout):
        if self.mode == "constant":
            flat = tuple(v for pair in reversed(self.pad_pairs(paddings, len(x.shape))) for v in pair)
            return cached_prim(PadV3, "constant")(dout, _negated(flat), 0), None, None
        pairs = self.pad_pairs(paddings, len(x.shape))
        g = dout
        for axis in range(len(x.shape) - 1, -1, -1):
            index = padv3_index(self.mode, x.shape[axis], pairs[axis])
            if index is not None:
                g = scatter_back_axis(g, index, axis, x.shape[axis])
        return g, None, None


@constexpr
def _negated(paddings):
    return tuple(-p for p in paddings)


def padv3_pairs(op, paddings, ndim):
    """Per-axis ``(before, after)`` from the flat, last-axis-first ``paddings``."""
    paddings = rules.check_int_tuple(op, "paddings", paddings)
    if len(paddings) % 2 or len(paddings) > 2 * ndim:
        raise MSValueError(f"For '{op}', the length of 'paddings' must be even and at most twice the rank "
                           f"{ndim} of the input, but got {len(paddings)}.")
    pairs = [(0, 0)] * ndim
    for i in range(len(paddings) // 2):
        pairs[ndim - 1 - i] = (paddings[2 * i], paddings[2 * i + 1])
    return tuple(pairs)


@constexpr
def padv3_index(mode, size, pair):
    """For a non-constant mode, the input position each output position along one axis reads from."""
    before, after = pair
    if before == 0 and after == 0:
        return None
    lo, hi = max(-before, 0), size - max(-after, 0)  # negative paddings crop first
    n = hi - lo
    out = []
    for j in range(-max(before, 0), n + max(after, 0)):
        if mode == "reflect":
            period = 2 * (n - 1) if n > 1 else 1
            k = j % period
            i = k if k < n else period - k
        elif mode == "edge":
            i = min(max(j, 0), n - 1)
        else:
            i = j % n
        out.append(lo + i)
    return tuple(out)


# --- Select ---------------------------------------------------------------------------------
class Select(Primitive):
    """``Select()(condition, x, y)``: elements of ``x`` where ``condition`` is True, else of ``y``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, cond, x, y):
        return rules.broadcast_shapes(self.name, cond, x, y)

    def infer_dtype(self, cond, x, y):
        if cond is not mstype.bool_:
            raise MSTypeError(f"For '{self.name}', the 'condition' must be a bool Tensor, but got {cond}.")
        xt, yt = isinstance(x, mstype.Type), isinstance(y, mstype.Type)
        if xt and yt and x is not y:
            raise MSTypeError(f"For '{self.name}', the 'x' and 'y' must have the same dtype, but got {x} and {y}.")
        if not (xt or yt):
            raise MSTypeError(f"For '{self.name}', at least one of 'x' and 'y' must be a Tensor.")
        return x if xt else y

    def bprop(self, cond, x, y, out, dout):
        _, need_x, need_y = self._grads_needed(3)
        zeros = fops.zeros_like(dout)
        dx = select_prim(cond, dout, zeros) if need_x else None
        dy = select_prim(cond, zeros, dout) if need_y else None
        return None, dx, dy


def select_prim(cond, x, y):
    return cached_prim(Select)(cond, x, y)


# --- MaskedFill -----------------------------------------------------------------------------
class MaskedFill(Primitive):
    """``MaskedFill()(input, mask, value)``: ``input`` with ``value`` where ``mask`` is True."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, mask, value):
        return rules.broadcast_shapes(self.name, x, mask, value)

    def infer_dtype(self, x, mask, value):
        rules.check_dtype_in(self.name, "input", x, rules.ALL_TYPES)
        if mask is not mstype.bool_:
            raise MSTypeError(f"For '{self.name}', the 'mask' must be a bool Tensor, but got {mask}.")
        if not (rules.is_scalar(value) or isinstance(value, mstype.Type)):
            raise MSTypeError(f"For '{self.name}', the 'value' must be a number or Tensor, but got "
                              f"{type(value).__name__}.")
        return x

    def bprop(self, x, mask, value, out, dout):
        dx = cached_prim(MaskedFill)(dout, mask, 0)
        return dx, None, fops.sub(dout, dx)


# --- MaskedSelect ---------------------------------------------------------------------------
class MaskedSelect(Primitive):
    """``MaskedSelect()(x, mask)``: the 1-D tensor of the elements of ``x`` where ``mask`` is True."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, mask):
        rules.broadcast_shapes(self.name, x, mask)
        return (-1,)

    def infer_dtype(self, x, mask):
        if mask is not mstype.bool_:
            raise MSTypeError(f"For '{self.name}', the 'mask' must be a bool Tensor, but got {mask}.")
        return rules.check_dtype_in(self.name, "input", x, rules.ALL_TYPES)

    def bprop(self, x, mask, out, dout):
        shape = rules.broadcast_shapes(self.name, x.shape, mask.shape)
        coords = cached_prim(NonZero)(fops.broadcast_to(mask, shape))
        return cached_prim(ScatterNd)(coords, dout, shape), None


# --- NonZero --------------------------------------------------------------------------------
class NonZero(Primitive):
    """``NonZero()(x)``: the coordinates of the non-zero elements of ``x``, an Int64 ``(N, x.ndim)`` tensor."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, _ANY_RANK)
        return (-1, len(x))

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)
        return mstype.int64

    bprop = NON_DIFFERENTIABLE


# --- OneHot ---------------------------------------------------------------------------------
class OneHot(Primitive):
    """``OneHot(axis=-1)(indices, depth, on_value, off_value)``: a one-hot encoding, new axis at ``axis``."""

    @prim_attr_register
    def __init__(self, axis=-1):
        rules.check_int(self.name, "axis", axis)

    def infer_shape(self, indices, depth, on_value, off_value):
        rules.check_rank(self.name, "indices", indices, range(0, 8))
        if not -1 <= self.axis <= len(indices):
            raise MSValueError(f"For '{self.name}', the 'axis' must be in range [-1, {len(indices)}], but got "
                               f"{self.axis}.")
        if rules.is_scalar(depth):
            if rules.check_int(self.name, "depth", depth) < 0:
                raise MSValueError(f"For '{self.name}', the 'depth' must be non-negative, but got {depth}.")
        else:
            depth = -1  # a tensor depth is only known when the kernel runs
        axis = len(indices) if self.axis == -1 else self.axis
        return tuple(indices[:axis]) + (depth,) + tuple(indices[axis:])

    def infer_dtype(self, indices, depth, on_value, off_value):
        _check_index_dtype(self.name, "indices", indices)
        on = on_value if isinstance(on_value, mstype.Type) else _scalar_dtype(self.name, "on_value", on_value)
        off = off_value if isinstance(off_value, mstype.Type) else on
        if off is not on:
            raise MSTypeError(f"For '{self.name}', the 'off_value' must have the same dtype as 'on_value', but got "
                              f"{off} and {on}.")
        return on

    bprop = NON_DIFFERENTIABLE


def _scalar_dtype(op, name, v):
    if not rules.is_scalar(v):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor or number, but got {type(v).__name__}.")
    return mstype.default_scalar_dtype(v)


# --- Sort -----------------------------------------------------------------------------------
class Sort(Primitive):
    """``Sort(axis=-1, descending=False)(x)``: ``(values, indices)`` sorted along ``axis`` (stable; Int32 indices)."""

    @prim_attr_register
    def __init__(self, axis=-1, descending=False):
        rules.check_int(self.name, "axis", axis)
        rules.check_bool(self.name, "descending", descending)

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, range(1, 9))
        rules.check_axis(self.name, self.axis, len(x))
        return tuple(x), tuple(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES), mstype.int32

    def bprop(self, x, out, dout):
        scatter = cached_prim(TensorScatterElements, self.axis, "add")
        return (scatter(fops.zeros_like(x), out[1], dout[0]),)


# --- TopK -----------------------------------------------------------------------------------
class TopK(Primitive):
    """``TopK(sorted=True)(x, k)``: ``(values, indices)`` of the ``k`` largest entries along the last axis."""

    @prim_attr_register
    def __init__(self, sorted=True):
        rules.check_bool(self.name, "sorted", sorted)

    def infer_shape(self, x, k):
        rules.check_rank(self.name, "input_x", x, range(1, 9))
        k = rules.check_int(self.name, "k", k)
        if not 0 <= k <= x[-1]:
            raise MSValueError(f"For '{self.name}', the 'k' must be in range [0, {x[-1]}], but got {k}.")
        out = tuple(x[:-1]) + (k,)
        return out, out

    def infer_dtype(self, x, k):
        return rules.check_dtype_in(self.name, "input_x", x, rules.NUMBER_TYPES), mstype.int32

    def bprop(self, x, k, out, dout):
        scatter = cached_prim(TensorScatterElements, -1, "add")
        return scatter(fops.zeros_like(x), out[1], dout[0]), None


# --- Unique ---------------------------------------------------------------------------------
class Unique(Primitive):
    """``Unique()(x)``: ``(y, idx)``: the distinct values of ``x`` in order of first occurrence (as MindSpore
    2.10's CPU kernel) and, per element, its position in ``y``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, _ANY_RANK)
        return (-1,), tuple(x)

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "input_x", x, rules.ALL_TYPES)
        return x, (mstype.int64 if x is mstype.int64 else mstype.int32)

    bprop = NON_DIFFERENTIABLE


PRIMITIVES = [
    Gather, GatherD, TensorScatterElements, GatherNd, ScatterNd, TensorScatterUpdate, TensorScatterAdd,
    ScatterNdUpdate, StridedSlice, StridedSliceGrad, Slice, PadV3, Select, MaskedFill, MaskedSelect, NonZero,
    OneHot, Sort, TopK, Unique,
]
