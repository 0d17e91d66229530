"""Functional array ops (``ops.reshape``, ``ops.concat``, ``ops.gather``, ``ops.zeros``, ...).

Every function is a composition of the primitives of the ``array`` and ``indexing`` families, so it
is differentiable wherever those are. Python-level arguments (shapes, axes, sizes) are normalised
here; tensors are never touched with NumPy.

Note: this module defines functions named ``range``, ``slice`` and ``size``; internally the builtins
are reached through :mod:`builtins`.
"""
import builtins
import math as _pymath
import numbers

from mindspore._core.primitive import float32_number
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs import array as A
from mindspore.ops._defs import indexing as I
from mindspore.ops._defs.array import cached_prim

__all__ = [
    # casting, shape and metadata
    "cast", "reshape", "transpose", "permute", "swapaxes", "swapdims", "moveaxis", "movedim", "expand_dims",
    "unsqueeze", "squeeze", "flatten", "ravel", "t", "tile", "broadcast_to", "expand_as", "shape", "dtype", "rank",
    "size", "numel",
    # joining and splitting
    "concat", "cat", "stack", "unstack", "unbind", "split", "chunk", "meshgrid",
    # creation
    "fill", "full", "full_like", "zeros", "ones", "zeros_like", "ones_like", "arange", "range", "linspace",
    "eye", "tuple_to_array", "scalar_to_tensor", "make_range", "one_hot", "diag", "tril", "triu",
    # gather, scatter, slicing
    "gather", "gather_d", "gather_elements", "gather_nd", "index_select", "strided_slice", "slice", "narrow",
    "scatter_nd", "tensor_scatter_update", "tensor_scatter_add", "tensor_scatter_elements", "scatter",
    "scatter_nd_update",
    "pad", "reverse", "flip", "roll", "repeat_elements", "repeat_interleave",
    # selection and sorting
    "select", "where", "masked_fill", "masked_select", "nonzero", "argwhere", "unique", "sort", "argsort", "topk",
    # graph plumbing and state
    "identity", "depend", "stop_gradient", "assign", "assign_add", "assign_sub",
    # Tensor indexing (Tensor.__getitem__ / __setitem__)
    "_tensor_getitem", "_tensor_setitem",
]

_cast = A.Cast()
_reshape = A.Reshape()
_transpose = A.Transpose()
_expand_dims = A.ExpandDims()
_tile = A.Tile()
_zeros_like = A.ZerosLike()
_ones_like = A.OnesLike()
_fill = A.Fill()
_stop_gradient = A.StopGradient()
_identity = A.Identity()
_select = I.Select()
_masked_fill = I.MaskedFill()
_gather_d = I.GatherD()
_gather_nd = I.GatherNd()
_slice = I.Slice()


def _axis_of(op, axis, ndim):
    return rules.check_axis(op, axis, ndim)


def _as_tuple(op, name, value):
    """A tuple-of-int argument; a tensor, or tensors in the tuple, count by their values (in a graph, one the graph
    computes makes the call run as Python: MSValueUnavailableError)."""
    if isinstance(value, Tensor):
        value = value.tolist()
    elif isinstance(value, (tuple, list)) and any(isinstance(v, Tensor) for v in value):
        value = tuple(v.tolist() if isinstance(v, Tensor) else v for v in value)
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return (int(value),)
    return rules.check_int_tuple(op, name, value)


def _check_tensor(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _dtype_or(dtype, default):
    return default if dtype is None else mstype.to_ms_dtype(dtype)


# --- casting, shape and metadata --------------------------------------------------------------
def cast(input, dtype):
    """``input`` converted to ``dtype``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.cast(ms.Tensor([1.7, -2.2]), ms.int32)
        Tensor(shape=[2], dtype=Int32, value= [ 1, -2])
    """
    return _cast(input, _ms_dtype_arg("Cast", dtype))


def _ms_dtype_arg(op, dtype):
    """``dtype`` if it is a MindSpore dtype; MindSpore 2.10's Cast/Zeros/Ones refuse names and NumPy types."""
    if not isinstance(dtype, mstype.Type):
        raise MSTypeError(f"For '{op}', the input 'dtype' should be mindspore dtype, but got {dtype!r}; use e.g. "
                          f"mindspore.float32.")
    return dtype


def reshape(input, shape):
    """``input`` with a new ``shape`` (one ``-1`` is inferred)."""
    return _reshape(input, _as_tuple("Reshape", "shape", shape))


def transpose(input, dims):
    """``input`` with its axes permuted: output axis ``i`` is input axis ``dims[i]``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.transpose(ms.Tensor(np.zeros((2, 3, 4))), (2, 0, 1)).shape
        (4, 2, 3)
    """
    return _transpose(input, _as_tuple("Transpose", "input_perm", dims))


def permute(input, axis):
    """Same as :func:`transpose`."""
    return transpose(input, axis)


def swapaxes(input, axis0, axis1):
    """``input`` with axes ``axis0`` and ``axis1`` exchanged."""
    ndim = len(_check_tensor("swapaxes", "input", input).shape)
    perm = list(builtins.range(ndim))
    a, b = _axis_of("swapaxes", axis0, ndim), _axis_of("swapaxes", axis1, ndim)
    perm[a], perm[b] = perm[b], perm[a]
    return _transpose(input, tuple(perm))


swapdims = swapaxes


def moveaxis(x, source, destination):
    """``x`` with the axes ``source`` moved to positions ``destination`` (others keep their order)."""
    ndim = len(_check_tensor("moveaxis", "x", x).shape)
    src = [_axis_of("moveaxis", a, ndim) for a in _as_tuple("moveaxis", "source", source)]
    dst = [_axis_of("moveaxis", a, ndim) for a in _as_tuple("moveaxis", "destination", destination)]
    if len(src) != len(dst):
        raise MSValueError(f"For 'moveaxis', 'source' and 'destination' must have the same number of elements, "
                           f"but got {len(src)} and {len(dst)}.")
    order = [a for a in builtins.range(ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _transpose(x, tuple(order))


movedim = moveaxis


def expand_dims(input_x, axis):
    """``input_x`` with a new size-1 dimension at ``axis``."""
    return _expand_dims(input_x, axis)


def unsqueeze(input, dim):
    """``input`` with a new size-1 dimension at ``dim``."""
    return _expand_dims(input, dim)


def squeeze(input, axis=None):
    """``input`` without its size-1 dimensions (only those in ``axis`` when given)."""
    axis = () if axis is None else _as_tuple("Squeeze", "axis", axis)
    return cached_prim(A.Squeeze, axis)(input)


def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """``input`` with dimensions ``start_dim..end_dim`` merged into one.

    ``order='F'`` flattens in column-major order. A 0-D or 1-D input gives a 1-D tensor.
    """
    _check_tensor("flatten", "input", input)
    if order not in ("C", "F"):
        raise MSValueError(f"For 'flatten', the 'order' must be 'C' or 'F', but got {order!r}.")
    rank_ = len(input.shape)
    if rank_ in (0, 1):
        return _reshape(input, (-1,))
    if order == "F":
        input = _transpose(input, tuple(builtins.range(rank_ - 1, -1, -1)))
    start = rules.check_axis("flatten", start_dim, rank_, "start_dim")
    end = rules.check_axis("flatten", end_dim, rank_, "end_dim")
    if start > end:
        raise MSValueError(f"For 'flatten', 'start_dim' must not be greater than 'end_dim', but got {start_dim} "
                           f"and {end_dim}.")
    if start == end:
        return input
    if (start, end) == (1, rank_ - 1):
        return cached_prim(A.Flatten)(input)
    s = input.shape
    return _reshape(input, tuple(s[:start]) + (_pymath.prod(s[start:end + 1]),) + tuple(s[end + 1:]))


def ravel(input):
    """``input`` flattened to 1-D."""
    return _reshape(input, (-1,))


def t(input):
    """The transpose of a 2-D tensor (a 0-D or 1-D tensor is returned as it is)."""
    ndim = len(_check_tensor("t", "input", input).shape)
    if ndim > 2:
        raise MSValueError(f"For 't', the 'input' must be at most 2-D, but got {ndim}-D.")
    return _transpose(input, (1, 0)) if ndim == 2 else input


def tile(input, dims):
    """``input`` repeated ``dims[i]`` times along each axis (``dims`` is left-padded with 1s)."""
    return _tile(input, _as_tuple("Tile", "multiples", dims))


def broadcast_to(input, shape):
    """``input`` broadcast to ``shape`` (``-1`` keeps the input's dimension)."""
    return cached_prim(A.BroadcastTo, _as_tuple("BroadcastTo", "shape", shape))(input)


def expand_as(input, other):
    """``input`` broadcast to the shape of ``other``."""
    return broadcast_to(input, other.shape)


def shape(input_x):
    """The shape of ``input_x``, a tuple of ints."""
    return cached_prim(A.Shape)(input_x)


def dtype(input):
    """The dtype of ``input``."""
    return cached_prim(A.DType)(input)


def rank(input_x):
    """The number of dimensions of ``input_x``, an int."""
    return cached_prim(A.Rank)(input_x)


def size(input_x):
    """The number of elements of ``input_x``, an int."""
    return cached_prim(A.Size)(input_x)


def numel(input):
    """The number of elements of ``input``, an int."""
    return cached_prim(A.Size)(input)


# --- joining and splitting --------------------------------------------------------------------
def _tensors(op, tensors):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (tuple, list)):
        raise MSTypeError(f"For '{op}', the 'tensors' must be a tuple or list of Tensors, but got "
                          f"{type(tensors).__name__}.")
    return tuple(tensors)


def concat(tensors, axis=0):
    """The tensors joined along an existing ``axis``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.concat((ms.Tensor(np.ones((2, 3))), ms.Tensor(np.zeros((1, 3))))).shape
        (3, 3)
    """
    return cached_prim(A.Concat, axis)(_tensors("concat", tensors))


def cat(tensors, axis=0):
    """Same as :func:`concat`."""
    return concat(tensors, axis)


def stack(tensors, axis=0):
    """Same-shaped tensors joined along a new ``axis`` (a single Tensor counts as a sequence of one, as in
    MindSpore 2.10: ``stack(x)`` is ``x`` with a new size-1 axis)."""
    if isinstance(tensors, Tensor):
        tensors = (tensors,)
    return cached_prim(A.Stack, axis)(_tensors("stack", tensors))


def unstack(input_x, axis=0):
    """The slices of ``input_x`` along ``axis``, as a tuple of tensors."""
    return cached_prim(A.Unstack, axis)(input_x)


def unbind(input, dim=0):
    """Same as :func:`unstack`."""
    return unstack(input, dim)


def _split_sizes(op, n, split):
    if isinstance(split, numbers.Integral) and not isinstance(split, bool):
        if split <= 0:
            raise MSValueError(f"For '{op}', the split size must be positive, but got {split}.")
        sizes = [split] * (n // split) + ([n % split] if n % split else [])
        return tuple(sizes) or (0,)
    sizes = _as_tuple(op, "split_size_or_sections", split)
    if builtins.sum(sizes) != n:
        raise MSValueError(f"For '{op}', the sum of the sections {sizes} must be equal to the dimension {n}.")
    return sizes


def split(tensor, split_size_or_sections, axis=0):
    """``tensor`` cut along ``axis``: into pieces of an int size (the last may be smaller), or of the given sizes.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> [t.shape for t in ops.split(ms.Tensor(np.arange(10)), 4)]
        [(4,), (4,), (2,)]
    """
    ndim = len(_check_tensor("split", "tensor", tensor).shape)
    axis = _axis_of("split", axis, ndim)
    sizes = _split_sizes("split", tensor.shape[axis], split_size_or_sections)
    return cached_prim(A.SplitV, sizes, axis, len(sizes))(tensor)


def chunk(input, chunks, axis=0):
    """``input`` cut into at most ``chunks`` pieces of equal size (the last may be smaller) along ``axis``."""
    ndim = len(_check_tensor("chunk", "input", input).shape)
    axis = _axis_of("chunk", axis, ndim)
    chunks = rules.check_positive_int("chunk", "chunks", chunks)
    n = input.shape[axis]
    return split(input, builtins.max(-(-n // chunks), 1), axis)


def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids from 1-D tensors (``'xy'``: Cartesian, ``'ij'``: matrix indexing)."""
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    return cached_prim(A.Meshgrid, indexing)(tuple(inputs))


# --- creation ---------------------------------------------------------------------------------
def fill(type, shape, value):
    """A tensor of ``shape`` and dtype ``type`` filled with ``value``."""
    return _fill(mstype.to_ms_dtype(type), _as_tuple("Fill", "dims", shape), value)


def _value_dtype(value):
    if isinstance(value, Tensor):
        return value.dtype
    return mstype.default_scalar_dtype(value)


def full(size, fill_value, *, dtype=None):
    """A tensor of ``size`` filled with ``fill_value`` (dtype inferred from it unless given)."""
    dtype = _value_dtype(fill_value) if dtype is None else _ms_dtype_arg("full", dtype)
    return _fill(dtype, _as_tuple("full", "size", size), fill_value)


def full_like(input, fill_value, *, dtype=None):
    """A tensor shaped like ``input`` filled with ``fill_value`` (``input``'s dtype unless given)."""
    return _fill(_dtype_or(dtype, input.dtype), input.shape, fill_value)


def zeros(size, dtype=None):
    """A tensor of zeros of ``size`` (Float32 unless ``dtype`` is given)."""
    dtype = mstype.float32 if dtype is None else _ms_dtype_arg("Zeros", dtype)
    return cached_prim(A.Zeros)(_as_tuple("Zeros", "size", size), dtype)


def ones(shape, dtype=None):
    """A tensor of ones of ``shape`` (Float32 unless ``dtype`` is given)."""
    dtype = mstype.float32 if dtype is None else _ms_dtype_arg("Ones", dtype)
    return cached_prim(A.Ones)(_as_tuple("Ones", "shape", shape), dtype)


def zeros_like(input, *, dtype=None):
    """Zeros with ``input``'s shape (and dtype unless ``dtype`` is given)."""
    out = _zeros_like(input)
    return out if dtype is None else cast(out, dtype)


def ones_like(input, *, dtype=None):
    """Ones with ``input``'s shape (and dtype unless ``dtype`` is given)."""
    out = _ones_like(input)
    return out if dtype is None else cast(out, dtype)


def _scalar_arg(v):
    return v.item() if isinstance(v, Tensor) else v


_ARANGE_TENSOR_DTYPES = (mstype.int32, mstype.float32, mstype.int64, mstype.float64)


def arange(start=0, end=None, step=1, *, dtype=None):
    """Values ``start, start + step, ...`` up to (excluding) ``end``; Int64 for ints, Float32 otherwise.

    Examples:
        >>> from mindspore import ops
        >>> ops.arange(5)
        Tensor(shape=[5], dtype=Int64, value= [0, 1, 2, 3, 4])
    """
    if end is None:
        start, end = 0, start
    # as 2.10: a tensor argument is the number it holds (one of four dtypes, 0-d); the result is Float32 when any
    # argument is a float, else Int64, whatever the tensors' own dtypes
    args = (start, end, step)
    for v in args:
        if isinstance(v, Tensor):
            if v.dtype not in _ARANGE_TENSOR_DTYPES:
                raise MSTypeError("For arange, the input type must be int or float or a TensorScalar in "
                                  "[mindspore.int32, mindspore.float32, mindspore.int64, mindspore.float64], but got "
                                  f"{v.dtype}")
            if v.ndim != 0:
                shapes = [tuple(a.shape) if isinstance(a, Tensor) else () for a in args]
                raise MSValueError(f"For arange, the input args must be a TensorScalar, but got start shape:"
                                   f"{shapes[0]}, end shape:{shapes[1]}, step shape:{shapes[2]}")
    args = tuple(_scalar_arg(v) for v in args)
    if any(isinstance(v, float) for v in args):
        args = tuple(float(v) for v in args)
    out = cached_prim(A.Range, 2 ** 62)(*args)
    return out if dtype is None or mstype.to_ms_dtype(dtype) is out.dtype else cast(out, dtype)


def range(start, end, step):
    """Values ``start, start + step, ...`` up to (excluding) ``end`` (``ops.range``)."""
    return arange(start, end, step)


def linspace(start, end, steps):
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive (Float32)."""
    return cached_prim(A.LinSpace)(start, end, steps)


def eye(n, m=None, dtype=None):
    """An ``n`` x ``m`` matrix with ones on the diagonal (Float32 unless ``dtype`` is given)."""
    dtype = mstype.float32 if dtype is None else _ms_dtype_arg("Eye", dtype)
    return cached_prim(A.Eye)(n, n if m is None else m, dtype)


def tuple_to_array(input_x):
    """A 1-D tensor from a tuple (or list, or ``range``) of numbers. As MindSpore 2.10 documents it, the first
    number decides the dtype: Int32 when it is an int (or bool; later floats are truncated), else Float32.

    Examples:
        >>> import mindspore as ms
        >>> ms.ops.tuple_to_array(range(3))
        Tensor(shape=[3], dtype=Int32, value= [0, 1, 2])
    """
    if not isinstance(input_x, (tuple, list, builtins.range)):
        raise MSTypeError(f"For 'tuple_to_array', the 'input_x' must be a tuple, but got {type(input_x).__name__}.")
    values = tuple(input_x)
    if not values:
        raise MSValueError("For 'tuple_to_array', the 'input_x' must not be empty.")
    if isinstance(values[0], numbers.Integral):
        return Tensor(tuple(int(v) for v in values), mstype.int32)
    return Tensor(tuple(float(v) for v in values), mstype.float32)


def scalar_to_tensor(input_x, dtype=mstype.float32):
    """A 0-D tensor holding the number ``input_x``."""
    if not rules.is_scalar(input_x):
        raise MSTypeError(f"For 'scalar_to_tensor', the 'input_x' must be a number, but got "
                          f"{type(input_x).__name__}.")
    return Tensor(input_x, dtype=mstype.to_ms_dtype(dtype))


def make_range(start, stop=None, step=None):
    """The tuple ``tuple(range(start, stop, step))`` (a compile-time constant)."""
    if stop is None:
        start, stop = 0, start
    return tuple(builtins.range(start, stop, 1 if step is None else step))


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """The one-hot encoding of ``indices`` with a new axis of size ``depth`` at ``axis``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.one_hot(ms.Tensor([0, 2]), 3, ms.Tensor(1.0), ms.Tensor(0.0))
        Tensor(shape=[2, 3], dtype=Float32, value=
        [[1., 0., 0.],
         [0., 0., 1.]])
    """
    if isinstance(on_value, Tensor) and not isinstance(off_value, Tensor):
        off_value = Tensor(off_value, dtype=on_value.dtype)
    elif isinstance(off_value, Tensor) and not isinstance(on_value, Tensor):
        on_value = Tensor(on_value, dtype=off_value.dtype)
    elif not isinstance(on_value, Tensor):
        kind = mstype.promote_types(mstype.default_scalar_dtype(on_value), mstype.default_scalar_dtype(off_value))
        on_value, off_value = Tensor(on_value, dtype=kind), Tensor(off_value, dtype=kind)
    return cached_prim(I.OneHot, axis)(indices, depth, on_value, off_value)


def diag(input):
    """A tensor with ``input`` on its diagonal: shape ``input.shape + input.shape``."""
    s = _check_tensor("diag", "input", input).shape
    n = _pymath.prod(s)
    flat = _reshape(input, (1, n))
    out = _select(cast(eye(n, n, mstype.bool_), mstype.bool_), broadcast_to(flat, (n, n)), zeros_like(flat))
    return _reshape(out, tuple(s) + tuple(s))


def tril(input, diagonal=0):
    """The lower triangle of the last two axes of ``input`` (the rest zeroed)."""
    return cached_prim(A.Tril, diagonal)(input)


def triu(input, diagonal=0):
    """The upper triangle of the last two axes of ``input`` (the rest zeroed)."""
    return cached_prim(A.Triu, diagonal)(input)


# --- gather, scatter, slicing ------------------------------------------------------------------
def _index_tensor(v):
    return v if isinstance(v, Tensor) else Tensor(v, dtype=mstype.int64)


def gather(input_params, input_indices, axis, batch_dims=0):
    """Slices of ``input_params`` along ``axis`` at ``input_indices``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.gather(ms.Tensor([10, 20, 30]), ms.Tensor([2, 0]), 0)
        Tensor(shape=[2], dtype=Int64, value= [30, 10])
    """
    return cached_prim(I.Gather, batch_dims)(input_params, _index_tensor(input_indices), axis)


def index_select(input, axis, index):
    """The entries of ``input`` along ``axis`` at the 1-D ``index``."""
    return gather(input, index, axis)


def gather_d(x, dim, index):
    """``out[i][j] = x[index[i][j]][j]`` for ``dim=0`` (and likewise for other dims)."""
    return _gather_d(x, dim, _index_tensor(index))


def gather_elements(input, dim, index):
    """Same as :func:`gather_d`."""
    return _gather_d(input, dim, _index_tensor(index))


def gather_nd(input_x, indices):
    """``out[i...] = input_x[indices[i...]]``."""
    return _gather_nd(input_x, _index_tensor(indices))


def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0):
    """A strided slice of ``input_x`` (see :class:`mindspore.ops.StridedSlice` for the masks)."""
    prim = cached_prim(I.StridedSlice, begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)
    return prim(input_x, tuple(begin), tuple(end), tuple(strides))


def slice(input_x, begin, size):
    """The block of ``input_x`` starting at ``begin`` with extent ``size`` (``-1``: to the end)."""
    return _slice(input_x, _as_tuple("Slice", "begin", begin), _as_tuple("Slice", "size", size))


def narrow(input, axis, start, length):
    """The ``length`` entries of ``input`` along ``axis`` from ``start``."""
    ndim = len(_check_tensor("narrow", "input", input).shape)
    axis = _axis_of("narrow", axis, ndim)
    n = input.shape[axis]
    start = rules.check_int("narrow", "start", start)
    if not -n <= start <= n:
        raise MSValueError(f"For 'narrow', the 'start' must be in range [{-n}, {n}], but got {start}.")
    start %= builtins.max(n, 1)
    begin = tuple(start if d == axis else 0 for d in builtins.range(ndim))
    sizes = tuple(length if d == axis else -1 for d in builtins.range(ndim))
    return _slice(input, begin, sizes)


def scatter_nd(indices, updates, shape):
    """Zeros of ``shape`` with ``updates`` summed in at ``indices``."""
    return cached_prim(I.ScatterNd)(_index_tensor(indices), updates, _as_tuple("ScatterNd", "shape", shape))


def tensor_scatter_update(input_x, indices, updates):
    """A copy of ``input_x`` with ``updates`` written at ``indices``."""
    return cached_prim(I.TensorScatterUpdate)(input_x, _index_tensor(indices), updates)


def tensor_scatter_add(input_x, indices, updates):
    """A copy of ``input_x`` with ``updates`` added at ``indices``."""
    return cached_prim(I.TensorScatterAdd)(input_x, _index_tensor(indices), updates)


def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """A copy of ``input_x`` with ``updates`` written (or added) at ``indices`` along ``axis``."""
    return cached_prim(I.TensorScatterElements, axis, reduction)(input_x, _index_tensor(indices), updates)


def scatter(input, axis, index, src):
    """A copy of ``input`` with ``src[i][j]`` written at ``[index[i][j]][j]`` for ``axis=0`` (and so on)."""
    return tensor_scatter_elements(input, index, src, axis)


def scatter_nd_update(input_x, indices, updates, use_locking=True):
    """Writes ``updates`` into the Parameter ``input_x`` at ``indices`` in place and returns it."""
    return cached_prim(I.ScatterNdUpdate, use_locking)(input_x, _index_tensor(indices), updates)


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "circular"}


def pad(input_x, padding, mode="constant", value=None):
    """``input_x`` padded; ``padding`` pairs run from the last axis backwards; negative values crop.

    Args:
        input_x (Tensor): the input.
        padding (Union[tuple[int], list[int], Tensor]): ``(left, right, top, bottom, ...)``.
        mode (str): ``'constant'``, ``'reflect'``, ``'replicate'`` or ``'circular'``.
        value (Union[int, float, None]): the fill value of ``'constant'`` mode (0 when None).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.pad(ms.Tensor(np.ones((2, 2))), (1, 1)).shape
        (2, 4)
    """
    if mode not in _PAD_MODES:
        raise MSValueError(f"For 'pad', the 'mode' must be 'constant', 'reflect', 'replicate' or 'circular', "
                           f"but got {mode!r}.")
    if mode != "constant" and value is not None:
        raise MSValueError(f"For 'pad', the 'value' can only be given in 'constant' mode, but got mode {mode!r}.")
    padding = _as_tuple("pad", "padding", padding)
    return cached_prim(I.PadV3, _PAD_MODES[mode])(input_x, padding, 0 if value is None else value)


def reverse(x, axis):
    """``x`` with the order of elements reversed along each of ``axis``."""
    return cached_prim(A.ReverseV2, _as_tuple("ReverseV2", "axis", axis))(x)


def flip(input, dims):
    """``input`` with the order of elements reversed along each of ``dims``."""
    return reverse(input, dims)


def roll(input, shifts, dims=None):
    """``input`` with elements shifted cyclically by ``shifts`` along ``dims`` (flattened when None)."""
    _check_tensor("roll", "input", input)
    if dims is None:
        return reshape(roll(_reshape(input, (-1,)), shifts, 0), input.shape)
    shifts, dims = _as_tuple("roll", "shifts", shifts), _as_tuple("roll", "dims", dims)
    if len(shifts) != len(dims):
        raise MSValueError(f"For 'roll', 'shifts' and 'dims' must have the same length, but got {shifts} and "
                           f"{dims}.")
    out = input
    for shift, dim in zip(shifts, dims):
        dim = _axis_of("roll", dim, len(input.shape))
        n = input.shape[dim]
        shift = shift % n if n else 0
        if shift:
            out = concat((narrow(out, dim, n - shift, shift), narrow(out, dim, 0, n - shift)), dim)
    return out


def repeat_elements(x, rep, axis=0):
    """Each element of ``x`` repeated ``rep`` times along ``axis``."""
    ndim = len(_check_tensor("repeat_elements", "x", x).shape)
    axis = _axis_of("repeat_elements", axis, ndim)
    rep = rules.check_int("repeat_elements", "rep", rep)
    if rep < 0:
        raise MSValueError(f"For 'repeat_elements', the 'rep' must be non-negative, but got {rep}.")
    y = _tile(_expand_dims(x, axis + 1), (1,) * (axis + 1) + (rep,) + (1,) * (ndim - axis - 1))
    s = x.shape
    return _reshape(y, tuple(s[:axis]) + (s[axis] * rep,) + tuple(s[axis + 1:]))


def repeat_interleave(input, repeats, axis=None):
    """Each element of ``input`` repeated ``repeats`` times (an int, or one count per element) along ``axis``."""
    _check_tensor("repeat_interleave", "input", input)
    if axis is None:
        input, axis = _reshape(input, (-1,)), 0
    if isinstance(repeats, Tensor):
        repeats = repeats.tolist()
    if isinstance(repeats, (list, tuple)) and len(repeats) == 1:
        repeats = repeats[0]
    if isinstance(repeats, numbers.Integral):
        return repeat_elements(input, int(repeats), axis)
    axis = _axis_of("repeat_interleave", axis, len(input.shape))
    counts = _as_tuple("repeat_interleave", "repeats", repeats)
    if len(counts) != input.shape[axis]:
        raise MSValueError(f"For 'repeat_interleave', the number of 'repeats' must be {input.shape[axis]}, but got "
                           f"{len(counts)}.")
    index = [i for i, c in enumerate(counts) for _ in builtins.range(c)]
    return gather(input, Tensor(index, dtype=mstype.int64) if index else zeros((0,), mstype.int64), axis)


# --- selection and sorting ----------------------------------------------------------------------
def _as_operand(v, dtype_):
    if isinstance(v, Tensor):
        return v if v.dtype is dtype_ else _cast(v, dtype_)
    return _fill(dtype_, (), v)


def _select_operands(x, y):
    # a Python float operand is a float32 number, as in 2.10 (where(c, x64, 0.1) gives 0.10000000149011612)
    x = float32_number(x) if type(x) is float else x
    y = float32_number(y) if type(y) is float else y
    xt, yt = isinstance(x, Tensor), isinstance(y, Tensor)
    if xt and yt:
        common = mstype.promote_types(x.dtype, y.dtype)
    elif xt:
        common = mstype.promote_with_scalar(x.dtype, y)
    elif yt:
        common = mstype.promote_with_scalar(y.dtype, x)
    else:
        common = mstype.promote_types(mstype.default_scalar_dtype(x), mstype.default_scalar_dtype(y))
    return _as_operand(x, common), _as_operand(y, common)


def select(condition, input, other):
    """Elements of ``input`` where ``condition`` is True, else of ``other`` (with broadcasting).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.select(ms.Tensor([True, False]), ms.Tensor([1.0, 2.0]), 0.0)
        Tensor(shape=[2], dtype=Float32, value= [1., 0.])
    """
    _check_tensor("select", "condition", condition)
    x, y = _select_operands(input, other)
    return _select(condition, x, y)


def where(condition, input, other):
    """Same as :func:`select`."""
    return select(condition, input, other)


def masked_fill(input_x, mask, value):
    """``input_x`` with ``value`` where ``mask`` is True."""
    if isinstance(value, Tensor) and value.dtype is not input_x.dtype:
        value = _cast(value, input_x.dtype)
    return _masked_fill(input_x, mask, value)


def masked_select(input, mask):
    """The 1-D tensor of the elements of ``input`` where ``mask`` is True."""
    return cached_prim(I.MaskedSelect)(input, mask)


def nonzero(input, *, as_tuple=False):
    """The Int64 coordinates of the non-zero elements, ``(N, ndim)`` (a tuple of N-vectors with ``as_tuple``)."""
    coords = cached_prim(I.NonZero)(input)
    if not as_tuple:
        return coords
    ndim = len(input.shape)
    if ndim == 0:
        return (_reshape(coords, (-1,)),)
    return tuple(cached_prim(A.Unstack, 1, ndim)(coords))


def argwhere(input):
    """The Int64 coordinates of the non-zero elements of ``input``, ``(N, input.ndim)``."""
    return cached_prim(I.NonZero)(input)


def unique(input):
    """``(output, idx)``: the distinct values of ``input`` in order of first occurrence and each element's
    position in ``output``."""
    return cached_prim(I.Unique)(input)


def sort(input_x, axis=-1, descending=False):
    """``(values, indices)`` of ``input_x`` sorted along ``axis`` (stable; Int32 indices)."""
    return cached_prim(I.Sort, axis, descending)(input_x)


def argsort(input, axis=-1, descending=False):
    """The Int32 indices that sort ``input`` along ``axis``."""
    return sort(input, axis, descending)[1]


def topk(input, k, dim=None, largest=True, sorted=True):
    """``(values, indices)`` of the ``k`` largest (or smallest) entries along ``dim`` (the last axis by default)."""
    ndim = len(_check_tensor("topk", "input", input).shape)
    dim = ndim - 1 if dim is None else _axis_of("topk", dim, builtins.max(ndim, 1))
    if largest and dim == ndim - 1:
        return cached_prim(I.TopK, sorted)(input, k)
    values, indices = sort(input, dim, largest)
    return narrow(values, dim, 0, k), narrow(indices, dim, 0, k)


# --- graph plumbing and state -------------------------------------------------------------------
def identity(input):
    """A copy of ``input``; a tuple or list element by element, and a Python number as it is (MindSpore 2.10)."""
    if isinstance(input, (tuple, list)):
        return type(input)(identity(v) for v in input)
    if not isinstance(input, Tensor) and rules.is_scalar(input):
        return input
    return _identity(input)


#: ``ops.depend(value, expr)``: ``value``, ordered after ``expr`` (a Primitive instance, as in MindSpore).
depend = A.Depend()


def stop_gradient(value):
    """``value`` unchanged, but no gradient flows back through it."""
    if isinstance(value, (tuple, list)):
        return type(value)(stop_gradient(v) for v in value)
    if not isinstance(value, Tensor) and rules.is_scalar(value):
        return value  # a Python number has no gradient to stop
    return _stop_gradient(value)


def assign(variable, value):
    """Writes ``value`` into the Parameter ``variable`` in place; returns ``variable``'s new value."""
    return cached_prim(A.Assign)(variable, value)


def assign_add(variable, value):
    """``variable += value`` in place; returns ``variable``'s new value."""
    return cached_prim(A.AssignAdd)(variable, value)


def assign_sub(variable, value):
    """``variable -= value`` in place; returns ``variable``'s new value."""
    return cached_prim(A.AssignSub)(variable, value)


# --- Tensor indexing ----------------------------------------------------------------------------
from mindspore.ops.function._indexing import tensor_getitem as _tensor_getitem  # noqa: E402
from mindspore.ops.function._indexing import tensor_setitem as _tensor_setitem  # noqa: E402


# MindSpore cuts mindspore.ops into its own families: a function imported from its `array_func` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.ops")
