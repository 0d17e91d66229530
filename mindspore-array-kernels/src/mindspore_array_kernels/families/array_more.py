"""The kernels of ``mindspore/ops/_defs/array_more.py``: ``Roll``, ``Diag``, ``DiagPart``, ``Trace``,
``MatrixBandPart``, ``FillDiagonal``, ``DepthToSpace``, ``SpaceToDepth``, ``ReverseSequence``, ``IndexAdd``,
``IndexFill``, ``MaskedScatter`` and its gradient, the ``Inplace*`` row updates, ``UnravelIndex``, ``TrilIndices``,
``TriuIndices``, ``UniqueConsecutive``, ``Padding``, ``IdentityN`` and the ``BatchToSpace``/``SpaceToBatch`` forms,
bound (:func:`mindspore_array_kernels.bind`) with:

* ``xp``, the array library, and two movers: ``dev`` (an operand as an ``xp`` array) and ``host`` (an array as
  NumPy: the scalars given as tensors, ``UnravelIndex``'s dims, the counts and checks that decide a shape or raise,
  and the indices an out-of-range message names);
* ``add_at(target, index, values)``, ``target[index] += values`` in place with repeated indices summed (NumPy's
  ``add.at``; on a GPU atomics): ``IndexAdd``.

Every kernel returns a fresh array of the inferred dtype; the inputs are never written.
"""
import math

import numpy as np

BOUND = ("xp", "dev", "host", "add_at")


def _as_tuple(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


def _item(v):
    """A Python scalar given as a Python number or a one-element array (a device array is read back)."""
    if isinstance(v, (bool, int, float, complex)):
        return v
    return host(v).reshape(-1)[0].item()


def _roll(prim, x, out=None):
    x = dev(x)
    if prim.dims is None:
        return xp.roll(x.reshape(-1), _as_tuple(prim.shifts)[0]).reshape(x.shape)
    return xp.roll(x, _as_tuple(prim.shifts), _as_tuple(prim.dims))


def _diag(prim, x, out=None):
    x = dev(x)
    n = x.size
    flat = xp.zeros((n, n), x.dtype)
    flat[xp.arange(n), xp.arange(n)] = x.reshape(-1)
    return flat.reshape(x.shape + x.shape)


def _diag_part(prim, x, out=None):
    x = dev(x)
    k = x.ndim // 2
    n = math.prod(x.shape[:k])
    return xp.ascontiguousarray(x.reshape(n, n)[xp.arange(n), xp.arange(n)].reshape(x.shape[:k]))


def _trace(prim, x, out=None):
    x = dev(x)
    return xp.asarray(xp.trace(x)).astype(x.dtype).reshape(())


def _band_mask(m, n, lower, upper):
    i = xp.arange(m)[:, None]
    j = xp.arange(n)[None, :]
    keep = xp.ones((m, n), bool)
    if lower >= 0:
        keep &= (i - j) <= lower
    if upper >= 0:
        keep &= (j - i) <= upper
    return keep


def _matrix_band_part(prim, x, lower, upper, out=None):
    x = dev(x)
    keep = _band_mask(x.shape[-2], x.shape[-1], int(_item(lower)), int(_item(upper)))
    return xp.where(keep, x, xp.zeros((), x.dtype))


def _fill_diagonal(prim, x, out=None):
    res = dev(x).copy()
    if res.ndim == 2 and prim.wrap and res.shape[0] > res.shape[1] + 1:
        flat = res.reshape(-1)
        flat[::res.shape[1] + 1] = prim.fill_value
        return flat.reshape(res.shape)
    xp.fill_diagonal(res, prim.fill_value)
    return res


def _depth_to_space(prim, x, out=None):
    x = dev(x)
    b = prim.block_size
    n, c, h, w = x.shape
    y = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    return xp.ascontiguousarray(y.reshape(n, c // (b * b), h * b, w * b))


def _space_to_depth(prim, x, out=None):
    x = dev(x)
    b = prim.block_size
    n, c, h, w = x.shape
    y = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return xp.ascontiguousarray(y.reshape(n, c * b * b, h // b, w // b))


def _reverse_sequence(prim, x, seq_lengths, out=None):
    x = dev(x)
    seq, batch = prim.seq_dim % x.ndim, prim.batch_dim % x.ndim
    n = x.shape[seq]
    # a length reverses what the slice [0:length] of the sequence holds (a negative one counts from the end, one past
    # the end stops there), then one gather along the sequence axis: position j of batch entry i reads
    # len_i - 1 - j when j < len_i
    lengths = dev(seq_lengths).reshape(-1).astype(np.int64)
    lengths = xp.where(lengths < 0, xp.maximum(lengths + n, 0), xp.minimum(lengths, n))
    pos = xp.arange(n, dtype=np.int64)
    src = xp.where(pos[None, :] < lengths[:, None], lengths[:, None] - 1 - pos[None, :], pos[None, :])
    shape = [1] * x.ndim
    shape[batch], shape[seq] = x.shape[batch], n
    if batch > seq:
        src = src.T
    index = xp.broadcast_to(src.reshape(shape), x.shape)
    return xp.take_along_axis(x, index, axis=seq)


def _index_add(prim, x, indices, y, out=None):
    x = dev(x)
    axis = prim.axis % x.ndim
    idx = dev(indices).reshape(-1).astype(np.int64)
    if prim.check_index_bound and idx.size and bool(host(xp.any((idx < 0) | (idx >= x.shape[axis])))):
        raise ValueError(f"For 'IndexAdd', the values of 'indices' must be in [0, {x.shape[axis]}), but got "
                         f"{host(idx).tolist()}.")
    moved = xp.moveaxis(x, axis, 0).copy()          # (a fresh C-contiguous target for add_at)
    add_at(moved, idx, xp.moveaxis(dev(y).astype(x.dtype), axis, 0))
    return xp.ascontiguousarray(xp.moveaxis(moved, 0, axis))


def _index_fill(prim, x, dim, index, value, out=None):
    x = dev(x)
    res = x.copy()
    fill = dev(value).astype(x.dtype).reshape(())
    idx = dev(index).reshape(-1).astype(np.int64)
    if res.ndim == 0:
        return fill.copy() if idx.size else res
    axis = int(_item(dim)) % res.ndim
    n = x.shape[axis]
    if idx.size and bool(host(xp.any((idx < -n) | (idx >= n)))):
        raise ValueError(f"For 'IndexFill', the values of 'index' must be in [{-n}, {n}), but got "
                         f"{host(idx).tolist()}.")
    xp.moveaxis(res, axis, 0)[idx] = fill
    return res


def _masked_scatter(prim, x, mask, updates, out=None):
    x = dev(x)
    full = xp.broadcast_to(dev(mask).astype(bool), x.shape)
    count = int(host(xp.count_nonzero(full)))
    src = dev(updates).reshape(-1)
    if count > src.size:
        raise ValueError(f"For 'MaskedScatter', the number of elements of 'updates' ({src.size}) must be at least "
                         f"the number of True in 'mask' ({count}).")
    res = x.copy()
    res[full] = src[:count]
    return res


def _masked_scatter_grad(prim, dout, mask, updates, out=None):
    dout = dev(dout)
    taken = dout[dev(mask).astype(bool)]
    updates = dev(updates)
    res = xp.zeros(updates.size, dout.dtype)
    res[:taken.size] = taken
    return res.reshape(updates.shape)


def _inplace(op):
    def kernel(prim, x, v, out=None):
        res = dev(x).copy()
        v = dev(v).astype(res.dtype)
        for k, r in enumerate(_as_tuple(prim.indices)):
            res[r] = op(res[r], v[k])
        return res
    return kernel


def _inplace_update_v2(prim, x, indices, v, out=None):
    res = dev(x).copy()
    rows = dev(indices).reshape(-1).astype(np.int64)
    res[rows] = dev(v).astype(res.dtype).reshape((rows.size,) + res.shape[1:])
    return res


def _unravel_index(prim, indices, dims, out=None):
    indices = dev(indices)
    sizes = tuple(int(d) for d in host(dims).reshape(-1))
    if any(d <= 0 for d in sizes):
        raise ValueError(f"For 'UnravelIndex', every element of 'dims' must be positive, but got {list(sizes)}.")
    size = math.prod(sizes)
    if indices.size and bool(host(xp.any((indices < 0) | (indices >= size)))):
        raise ValueError(f"For 'UnravelIndex', the elements of 'indices' must be in [0, {size}), but got "
                         f"{host(indices).tolist()}.")
    return xp.stack(xp.unravel_index(indices, sizes)).astype(indices.dtype)


def _tri_indices(lower):
    def kernel(prim, out=None):
        fn = xp.tril_indices if lower else xp.triu_indices
        rows, cols = fn(prim.row, prim.offset, prim.col)
        return xp.stack([rows, cols]).astype(out.dtype.to_numpy()).reshape(2, -1)
    return kernel


def _runs(rows_differ, n):
    """(keep, run, counts) of ``n`` rows, ``rows_differ[i]`` whether row i + 1 differs from row i."""
    keep = xp.ones(n, bool)
    if n > 1:
        keep[1:] = rows_differ
    run = xp.cumsum(keep) - 1
    starts = xp.flatnonzero(keep)
    counts = xp.diff(xp.concatenate([starts, xp.asarray([n], starts.dtype)]))
    return keep, run.astype(np.int64), counts.astype(np.int64)


def _unique_consecutive(prim, x, out=None):
    x = dev(x)
    if prim.dim is None:
        flat = x.reshape(-1)
        keep, run, counts = _runs(flat[1:] != flat[:-1], flat.size)
        return flat[keep], run.reshape(x.shape), counts
    axis = prim.dim % x.ndim
    moved = xp.moveaxis(x, axis, 0).reshape(x.shape[axis], -1)
    keep, run, counts = _runs(xp.any(moved[1:] != moved[:-1], axis=1), moved.shape[0])
    values = xp.take(x, xp.flatnonzero(keep), axis=axis)
    return xp.ascontiguousarray(values), run, counts


def _padding(prim, x, out=None):
    x = dev(x)
    res = xp.zeros(x.shape[:-1] + (prim.pad_dim_size,), x.dtype)
    res[..., :1] = x
    return res


def _identity_n(prim, xs, out=None):
    return tuple(dev(x).copy() for x in xs)


def _spatial(prim, two_d_name):
    """The number of spatial dims: 2 for ``BatchToSpace``/``SpaceToBatch``, the block's length for the N-D forms."""
    if isinstance(prim.block_shape, int):
        return 2 if type(prim).__name__ == two_d_name else 1
    return len(prim.block_shape)


def _blocks(block, spatial):
    return (block,) * spatial if isinstance(block, int) else tuple(block)


def _batch_to_space(prim, x, out=None):
    x = dev(x)
    spatial = _spatial(prim, "BatchToSpace")
    blocks = _blocks(prim.block_shape, spatial)
    lead = x.ndim - spatial
    batch = x.shape[0] // math.prod(blocks)
    y = x.reshape(blocks + (batch,) + x.shape[1:])
    perm = [spatial] + list(range(spatial + 1, spatial + lead))
    for i in range(spatial):
        perm += [spatial + lead + i, i]
    y = y.transpose(perm).reshape((batch,) + x.shape[1:lead] + tuple(s * b for s, b in zip(x.shape[lead:], blocks)))
    index = [slice(None)] * lead + [slice(c0, y.shape[lead + i] - c1) for i, (c0, c1) in enumerate(prim.crops)]
    return xp.ascontiguousarray(y[tuple(index)])


def _space_to_batch(prim, x, out=None):
    x = dev(x)
    spatial = _spatial(prim, "SpaceToBatch")
    blocks = _blocks(prim.block_shape, spatial)
    lead = x.ndim - spatial
    y = xp.pad(x, [(0, 0)] * lead + [tuple(p) for p in prim.paddings])
    split = []
    for s, b in zip(y.shape[lead:], blocks):
        split += [s // b, b]
    y = y.reshape(y.shape[:lead] + tuple(split))
    perm = [lead + 2 * i + 1 for i in range(spatial)] + list(range(lead)) + [lead + 2 * i for i in range(spatial)]
    y = y.transpose(perm)
    return xp.ascontiguousarray(y.reshape((math.prod(blocks) * x.shape[0],) + y.shape[spatial + 1:]))


KERNELS = {
    "Padding": _padding, "IdentityN": _identity_n, "BatchToSpaceND": _batch_to_space, "BatchToSpace": _batch_to_space,
    "SpaceToBatchND": _space_to_batch, "SpaceToBatch": _space_to_batch,
    "Roll": _roll, "Diag": _diag, "DiagPart": _diag_part, "Trace": _trace, "MatrixBandPart": _matrix_band_part,
    "FillDiagonal": _fill_diagonal, "DepthToSpace": _depth_to_space, "SpaceToDepth": _space_to_depth,
    "ReverseSequence": _reverse_sequence, "IndexAdd": _index_add, "IndexFill": _index_fill,
    "MaskedScatter": _masked_scatter, "MaskedScatterGrad": _masked_scatter_grad,
    "InplaceAdd": _inplace(xp.add), "InplaceSub": _inplace(xp.subtract), "InplaceUpdate": _inplace(lambda a, b: b),
    "InplaceUpdateV2": _inplace_update_v2, "UnravelIndex": _unravel_index, "TrilIndices": _tri_indices(True),
    "TriuIndices": _tri_indices(False), "UniqueConsecutive": _unique_consecutive,
}
