"""Segment reductions, scatters by reduction, selections and band/diagonal helpers of MindSpore 2.10's
functional API (``ops.unsorted_segment_sum``, ``ops.tensor_scatter_max``, ``ops.slice_scatter``, ...).

All are compositions of existing primitives (eager, ``@ms.jit`` and autodiff alike):

* the segment reductions and ``population_count`` call their primitives (``ops/_defs/math_prims.py``: one
  definition, with kernels and gradients; empty segments get 0/1 or the dtype's lowest/highest value, as
  MindSpore's kernels give, and ids outside ``[0, num_segments)`` belong to no segment);
* ``tensor_scatter_mul/div/max/min`` turn the index rows into linear positions of the first ``k``
  dimensions and reduce the updates per position, so repeated indices combine as MindSpore's kernels do;
* the ``*_scatter`` functions gather ``src`` to the input's shape and select with a constant mask.
"""
import builtins
import itertools

import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import math_prims as _prims
from mindspore.ops._defs.array import cached_prim
from mindspore.ops._defs import nn_prims as _nn_prims
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math
from mindspore.ops.function import reduce_func as _reduce
from mindspore.ops import _higher

__all__ = [
    "unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod",
    "tensor_scatter_sub", "tensor_scatter_mul", "tensor_scatter_div", "tensor_scatter_max", "tensor_scatter_min",
    "searchsorted", "bucketize", "sequence_mask", "matrix_band_part", "index_fill", "combinations",
    "channel_shuffle", "diagonal", "select_scatter", "slice_scatter", "diagonal_scatter", "reverse_sequence",
    "population_count", "einsum_ext", "mse_loss_ext", "soft_shrink", "fills", "float_power_ext", "qr",
]

def _check_tensor(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")


def _segment_args(op, x, segment_ids, num_segments):
    _check_tensor(op, "x", x)
    _check_tensor(op, "segment_ids", segment_ids)
    if isinstance(num_segments, Tensor):
        num_segments = int(num_segments.asnumpy())
    if isinstance(num_segments, bool) or not isinstance(num_segments, int) or num_segments <= 0:
        raise MSValueError(f"For '{op}', the 'num_segments' must be a positive int, but got {num_segments}.")
    return num_segments


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """Sum of the slices of ``input_x`` with each segment id (shape ``(num_segments,) + x.shape[k:]``); ids
    outside ``[0, num_segments)`` belong to no segment (primitive ``UnsortedSegmentSum``).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
        >>> print(ops.unsorted_segment_sum(x, ms.Tensor(np.array([0, 1, 0], np.int32)), 2))
        [4. 2.]
    """
    n = _segment_args("UnsortedSegmentSum", input_x, segment_ids, num_segments)
    if input_x.dtype == mstype.bool_:   # a logical or, as MindSpore sums booleans
        summed = cached_prim(_prims.UnsortedSegmentSum)(_array.cast(input_x, mstype.int32), segment_ids, n)
        return _math.ne(summed, _array.zeros((), mstype.int32))
    return cached_prim(_prims.UnsortedSegmentSum)(input_x, segment_ids, n)


def unsorted_segment_prod(x, segment_ids, num_segments):
    """Product of the slices with each segment id (1 for an empty segment; primitive ``UnsortedSegmentProd``)."""
    n = _segment_args("UnsortedSegmentProd", x, segment_ids, num_segments)
    return cached_prim(_prims.UnsortedSegmentProd)(x, segment_ids, n)


def unsorted_segment_max(x, segment_ids, num_segments):
    """Maximum of the slices with each segment id (the dtype's lowest value for an empty segment; primitive
    ``UnsortedSegmentMax``)."""
    n = _segment_args("UnsortedSegmentMax", x, segment_ids, num_segments)
    return cached_prim(_prims.UnsortedSegmentMax)(x, segment_ids, n)


def unsorted_segment_min(x, segment_ids, num_segments):
    """Minimum of the slices with each segment id (the dtype's highest value for an empty segment; primitive
    ``UnsortedSegmentMin``)."""
    n = _segment_args("UnsortedSegmentMin", x, segment_ids, num_segments)
    return cached_prim(_prims.UnsortedSegmentMin)(x, segment_ids, n)


def tensor_scatter_sub(input_x, indices, updates):
    """``input_x`` with ``updates`` subtracted at ``indices`` (repeated indices subtract each update)."""
    _check_tensor("TensorScatterSub", "updates", updates)
    return _array.tensor_scatter_add(input_x, indices, _math.neg(updates))


def _linear_positions(op, input_x, indices, updates):
    """(input flattened over the first k dims (P, R...), positions (M,), updates (M, R...), P)."""
    for name, v in (("input_x", input_x), ("indices", indices), ("updates", updates)):
        _check_tensor(op, name, v)
    if indices.dtype not in (mstype.int32, mstype.int64):
        raise MSTypeError(f"For '{op}', the 'indices' must be int32 or int64, but got {indices.dtype}.")
    k = indices.shape[-1]
    if k > input_x.ndim:
        raise MSValueError(f"For '{op}', the last dimension of 'indices' must be at most the rank of 'input_x' "
                           f"{input_x.ndim}, but got {k}.")
    expected = tuple(indices.shape[:-1]) + tuple(input_x.shape[k:])
    if tuple(updates.shape) != expected:
        raise MSValueError(f"For '{op}', the shape of 'updates' must be {expected}, but got {updates.shape}.")
    lead = tuple(input_x.shape[:k])
    rest = tuple(input_x.shape[k:])
    p = int(_np.prod(lead)) if lead else 1
    strides = _np.cumprod((lead + (1,))[::-1])[::-1][1:].astype(_np.int32) if k else _np.zeros((0,), _np.int32)
    pos = _reduce.sum(_math.mul(_array.cast(indices, mstype.int32), Tensor(strides, mstype.int32)), -1)
    return (_array.reshape(input_x, (p,) + rest), _array.reshape(pos, (-1,)),
            _array.reshape(updates, (-1,) + rest), p)


def _scatter_reduce(op, input_x, indices, updates, combine):
    flat, pos, upd, p = _linear_positions(op, input_x, indices, updates)
    return _array.reshape(combine(flat, upd, pos, p), input_x.shape)


def tensor_scatter_mul(input_x, indices, updates):
    """``input_x`` multiplied by ``updates`` at ``indices`` (repeated indices multiply each update)."""
    return _scatter_reduce("TensorScatterMul", input_x, indices, updates,
                           lambda x, u, pos, p: _math.mul(x, unsorted_segment_prod(u, pos, p)))


def tensor_scatter_div(input_x, indices, updates):
    """``input_x`` divided by ``updates`` at ``indices`` (repeated indices divide by each update)."""
    return _scatter_reduce("TensorScatterDiv", input_x, indices, updates,
                           lambda x, u, pos, p: _math.div(x, unsorted_segment_prod(u, pos, p)))


def _touched(pos, p):
    return _reduce.any(_math.eq(_array.expand_dims(pos, -1), _array.arange(p, dtype=mstype.int32)), 0)  # (P,)


def _scatter_extreme(op, input_x, indices, updates, take_max):
    def combine(x, u, pos, p):
        seg = unsorted_segment_max(u, pos, p) if take_max else unsorted_segment_min(u, pos, p)
        hit = _array.reshape(_touched(pos, p), (p,) + (1,) * (x.ndim - 1))
        best = _math.maximum(x, seg) if take_max else _math.minimum(x, seg)
        return _array.where(hit, best, x)
    return _scatter_reduce(op, input_x, indices, updates, combine)


def tensor_scatter_max(input_x, indices, updates):
    """``max(input_x, updates)`` at ``indices`` (the maximum over repeated indices)."""
    return _scatter_extreme("TensorScatterMax", input_x, indices, updates, True)


def tensor_scatter_min(input_x, indices, updates):
    """``min(input_x, updates)`` at ``indices`` (the minimum over repeated indices)."""
    return _scatter_extreme("TensorScatterMin", input_x, indices, updates, False)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    """Indices at which ``values`` would be inserted into the last dimension of ``sorted_sequence``."""
    mint = _higher.get("mint")
    return mint.searchsorted(sorted_sequence, values, out_int32=out_int32, right=right, side=side, sorter=sorter)


def bucketize(input, boundaries, *, right=False):
    """The bucket of each element of ``input`` given the sorted list ``boundaries`` (Int32 indices)."""
    _check_tensor("bucketize", "input", input)
    if not isinstance(boundaries, (list, tuple)):
        raise MSTypeError(f"For 'Bucketize', the 'boundaries' must be a list of floats, but got "
                          f"{type(boundaries).__name__}.")
    b = Tensor(_np.asarray(boundaries, _np.float32), input.dtype if input.dtype in mstype.float_type
               else mstype.float32)
    x = _array.cast(input, b.dtype)
    below = _math.lt(b, _array.expand_dims(x, -1)) if not right else _math.le(b, _array.expand_dims(x, -1))
    return _array.cast(_reduce.sum(_array.cast(below, mstype.int32), -1), mstype.int32)


def sequence_mask(lengths, maxlen=None):
    """``mask[..., j] = j < lengths[...]`` (Bool; ``maxlen`` defaults to ``max(lengths)``)."""
    _check_tensor("sequence_mask", "lengths", lengths)
    if maxlen is None:
        maxlen = int(_reduce.amax(lengths).asnumpy())
    if not isinstance(maxlen, int) or maxlen <= 0:
        raise MSValueError(f"For 'sequence_mask', the 'maxlen' must be a positive int, but got {maxlen}.")
    return _math.lt(_array.arange(maxlen, dtype=lengths.dtype), _array.expand_dims(lengths, -1))


def matrix_band_part(x, lower, upper):
    """Zero everything outside the band of ``lower`` sub- and ``upper`` super-diagonals (negative: keep all)."""
    _check_tensor("MatrixBandPart", "x", x)
    if x.ndim < 2:
        raise MSValueError(f"For 'MatrixBandPart', the rank of 'x' must be at least 2, but got {x.ndim}.")
    m, n = x.shape[-2], x.shape[-1]
    i, j = _np.indices((m, n))
    lo = lower.asnumpy().item() if isinstance(lower, Tensor) else lower
    hi = upper.asnumpy().item() if isinstance(upper, Tensor) else upper
    keep = ((lo < 0) | (i - j <= lo)) & ((hi < 0) | (j - i <= hi))
    return _array.where(Tensor(keep), x, _array.zeros((), x.dtype))


def index_fill(x, axis, index, value):
    """``x`` with the slices at ``index`` along ``axis`` set to ``value`` (a number or a 0-d Tensor)."""
    _check_tensor("index_fill", "x", x)
    _check_tensor("index_fill", "index", index)
    if isinstance(axis, Tensor):
        axis = int(axis.asnumpy())
    if not isinstance(axis, int) or not -x.ndim <= axis < builtins.max(x.ndim, 1):
        raise MSValueError(f"For 'index_fill', the 'axis' must be an int in [{-x.ndim}, {x.ndim}), but got {axis}.")
    axis %= builtins.max(x.ndim, 1)
    n = x.shape[axis] if x.ndim else 1
    hit = _reduce.any(_math.eq(_array.expand_dims(_array.reshape(_array.cast(index, mstype.int32), (-1,)), -1),
                               _array.arange(n, dtype=mstype.int32)), 0)  # (n,)
    shape = [1] * x.ndim
    if x.ndim:
        shape[axis] = n
    hit = _array.reshape(hit, tuple(shape))
    v = _array.cast(value, x.dtype) if isinstance(value, Tensor) else _array.full((), value, dtype=x.dtype)
    return _array.where(hit, v, x)


def combinations(input, r=2, with_replacement=False):
    """The length-``r`` combinations of the 1-D ``input``, one per row."""
    _check_tensor("combinations", "input", input)
    if input.ndim != 1:
        raise MSValueError(f"For 'combinations', the 'input' must be 1-D, but got shape {input.shape}.")
    if not isinstance(r, int) or r < 0:
        raise MSValueError(f"For 'combinations', the 'r' must be a non-negative int, but got {r}.")
    make = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = list(make(range(input.shape[0]), r))
    if not rows or r == 0:
        return _array.zeros((0,) if r == 0 else (0, r), input.dtype)
    idx = Tensor(_np.asarray(rows, _np.int32).reshape(-1), mstype.int32)
    return _array.reshape(_array.gather(input, idx, 0), (len(rows), r))


def channel_shuffle(x, groups):
    """Split the channels (dimension 1) into ``groups`` and interleave them (input of 4 or more dims)."""
    _check_tensor("ChannelShuffle", "x", x)
    if x.ndim <= 3:
        raise MSTypeError(f"For ChannelShuffle, expect input with > 3 dims, but got {x.ndim}.")
    if not isinstance(groups, int) or groups <= 0 or x.shape[1] % groups:
        raise MSValueError(f"For 'ChannelShuffle', the 'groups' must be a positive int dividing the channels "
                           f"{x.shape[1]}, but got {groups}.")
    return _nn_prims.ChannelShuffle(groups)(x)


def _diag_positions(shape, offset):
    """Linear positions of the ``offset`` diagonal in a flattened (n, m) matrix."""
    n, m = shape
    if offset >= 0:
        count = builtins.max(builtins.min(n, m - offset), 0)
        return [i * m + i + offset for i in range(count)]
    count = builtins.max(builtins.min(n + offset, m), 0)
    return [(i - offset) * m + i for i in range(count)]


def _to_last(op, x, dim1, dim2):
    nd = x.ndim
    if not (-nd <= dim1 < nd and -nd <= dim2 < nd):
        raise MSValueError(f"For '{op}', 'dim1' and 'dim2' must be in range [{-nd}, {nd}), but got {dim1} and "
                           f"{dim2}.")
    d1, d2 = dim1 % nd, dim2 % nd
    if d1 == d2:
        raise MSValueError(f"For '{op}', 'dim1' and 'dim2' must be different, but got {dim1} and {dim2}.")
    return _array.movedim(x, (d1, d2), (-2, -1)), d1, d2


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The ``offset`` diagonal of the (``dim1``, ``dim2``) planes, as the last dimension."""
    _check_tensor("diagonal", "input", input)
    y, _, _ = _to_last("diagonal", input, dim1, dim2)
    n, m = y.shape[-2], y.shape[-1]
    flat = _array.reshape(y, tuple(y.shape[:-2]) + (n * m,))
    pos = _diag_positions((n, m), offset)
    if not pos:
        return _array.zeros(tuple(y.shape[:-2]) + (0,), input.dtype)
    return _array.gather(flat, Tensor(_np.asarray(pos, _np.int32)), flat.ndim - 1)


def _scatter_by_map(x, src_full_index, mask, src, axis):
    """``where(mask, gather(src, src_full_index, axis), x)``."""
    gathered = _array.gather(src, Tensor(_np.asarray(src_full_index, _np.int32)), axis)
    return _array.where(Tensor(mask), _array.cast(gathered, x.dtype), x)


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """``input`` with its ``offset`` diagonal of the (``dim1``, ``dim2``) planes replaced by ``src``."""
    _check_tensor("diagonal_scatter", "input", input)
    _check_tensor("diagonal_scatter", "src", src)
    y, d1, d2 = _to_last("diagonal_scatter", input, dim1, dim2)
    n, m = y.shape[-2], y.shape[-1]
    pos = _diag_positions((n, m), offset)
    if tuple(src.shape) != tuple(y.shape[:-2]) + (len(pos),):
        raise MSValueError(f"For 'diagonal_scatter', the shape of 'src' must be {tuple(y.shape[:-2]) + (len(pos),)}, "
                           f"but got {src.shape}.")
    flat = _array.reshape(y, tuple(y.shape[:-2]) + (n * m,))
    index = [0] * (n * m)
    mask = _np.zeros(n * m, bool)
    for k, p in enumerate(pos):
        index[p], mask[p] = k, True
    if not pos:
        return input
    out = _scatter_by_map(flat, index, mask, src, flat.ndim - 1)
    return _array.movedim(_array.reshape(out, y.shape), (-2, -1), (d1, d2))


def _axis(op, x, axis):
    if not isinstance(axis, int) or not -x.ndim <= axis < x.ndim:
        raise MSValueError(f"For '{op}', the 'axis' must be an int in [{-x.ndim}, {x.ndim}), but got {axis}.")
    return axis % x.ndim


def select_scatter(input, src, axis, index):
    """``input`` with the slice ``index`` along ``axis`` replaced by ``src``."""
    _check_tensor("select_scatter", "input", input)
    _check_tensor("select_scatter", "src", src)
    axis = _axis("select_scatter", input, axis)
    n = input.shape[axis]
    if not -n <= index < n:
        raise MSValueError(f"For 'select_scatter', the 'index' must be in [{-n}, {n}), but got {index}.")
    index %= n
    expected = tuple(input.shape[:axis]) + tuple(input.shape[axis + 1:])
    if tuple(src.shape) != expected:
        raise MSValueError(f"For 'select_scatter', the shape of 'src' must be {expected}, but got {src.shape}.")
    mask = _np.zeros([n if d == axis else 1 for d in range(input.ndim)], bool)
    mask[(slice(None),) * axis + (index,)] = True
    return _scatter_by_map(input, [0] * n, mask, _array.expand_dims(src, axis), axis)


def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    """``input`` with the slice ``start:end:step`` along ``axis`` replaced by ``src``."""
    _check_tensor("slice_scatter", "input", input)
    _check_tensor("slice_scatter", "src", src)
    axis = _axis("slice_scatter", input, axis)
    n = input.shape[axis]
    picked = list(range(n))[slice(start, end, step)]
    expected = tuple(input.shape[:axis]) + (len(picked),) + tuple(input.shape[axis + 1:])
    if tuple(src.shape) != expected:
        raise MSValueError(f"For 'slice_scatter', the shape of 'src' must be {expected}, but got {src.shape}.")
    if not picked:
        return input
    index = [0] * n
    mask = _np.zeros([n if d == axis else 1 for d in range(input.ndim)], bool)
    for k, p in enumerate(picked):
        index[p] = k
        mask[(slice(None),) * axis + (p,)] = True
    return _scatter_by_map(input, index, mask, src, axis)


def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """Reverse the first ``seq_lengths[b]`` elements along ``seq_dim`` of each batch entry ``b``."""
    _check_tensor("ReverseSequence", "x", x)
    _check_tensor("ReverseSequence", "seq_lengths", seq_lengths)
    seq_dim, batch_dim = _axis("ReverseSequence", x, seq_dim), _axis("ReverseSequence", x, batch_dim)
    if seq_dim == batch_dim:
        raise MSValueError(f"For 'ReverseSequence', the 'seq_dim' and 'batch_dim' must be different, but got "
                           f"{seq_dim}.")
    t = x.shape[seq_dim]
    lens = _array.cast(seq_lengths, mstype.int32)
    shape = [1] * x.ndim
    shape[batch_dim] = x.shape[batch_dim]
    lens = _array.reshape(lens, tuple(shape))
    tshape = [1] * x.ndim
    tshape[seq_dim] = t
    pos = _array.reshape(_array.arange(t, dtype=mstype.int32), tuple(tshape))
    idx = _array.where(_math.lt(pos, lens), _math.sub(_math.sub(lens, 1), pos), pos)
    return _array.gather_elements(x, seq_dim, _array.broadcast_to(idx, x.shape))


def population_count(input_x):
    """The number of set bits of each element (UInt8), two's complement for negative numbers (primitive
    ``PopulationCount``)."""
    _check_tensor("PopulationCount", "input_x", input_x)
    if input_x.dtype not in mstype.int_type + mstype.uint_type:
        raise MSTypeError(f"For 'PopulationCount', the 'input_x' must be an integer tensor, but got "
                          f"{input_x.dtype}.")
    return cached_prim(_prims.PopulationCount)(input_x)


def einsum_ext(equation, *operands):
    """Alias of :func:`mindspore.ops.einsum` (MindSpore's Ascend entry point)."""
    return _math.einsum(equation, *operands)


def mse_loss_ext(input, target, reduction="mean"):
    """Mean squared error (``reduction``: 'mean', 'sum' or 'none')."""
    from mindspore.ops.function import nn_func  # pylint: disable=import-outside-toplevel
    return nn_func.mse_loss(input, target, reduction)


def soft_shrink(input, lambd=0.5):
    """Alias of :func:`mindspore.ops.softshrink`."""
    from mindspore.ops.function import nn_func  # pylint: disable=import-outside-toplevel
    return nn_func.softshrink(input, lambd)


def fills(x, value):
    """A tensor of ``x``'s shape and dtype filled with ``value`` (primitive ``Fills``)."""
    _check_tensor("fills", "x", x)
    return cached_prim(_prims.Fills)(x, value)


def float_power_ext(input, exponent):
    """Alias of :func:`mindspore.ops.float_power`."""
    return _math.float_power(input, exponent)


def qr(input, mode="reduced"):
    """QR decomposition ``(Q, R)`` of each matrix in the last two dimensions (``mode``: 'reduced' or 'complete';
    primitive ``Qr``)."""
    _check_tensor("Qr", "input", input)
    if mode not in ("reduced", "complete"):
        raise MSValueError(f"For 'qr', the 'mode' must be 'reduced' or 'complete', but got {mode!r}.")
    return cached_prim(_prims.Qr, mode == "complete")(input)
