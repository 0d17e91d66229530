"""CPU kernels of ``mindspore/ops/_defs/array_more.py`` (``Roll``, ``Diag``, ``DiagPart``, ``Trace``,
``MatrixBandPart``, ``FillDiagonal``, ``DepthToSpace``, ``SpaceToDepth``, ``ReverseSequence``, ``IndexAdd``,
``IndexFill``, ``MaskedScatter``, the ``Inplace*`` row updates, ``UnravelIndex``, ``TrilIndices``,
``TriuIndices``, ``UniqueConsecutive``), in NumPy.

Every kernel returns a fresh array of the inferred dtype; the inputs are never written.
"""
import numpy as np


def _as_tuple(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


def _roll(prim, x, out=None):
    x = np.asarray(x)
    if prim.dims is None:
        return np.roll(x.reshape(-1), _as_tuple(prim.shifts)[0]).reshape(x.shape)
    return np.roll(x, _as_tuple(prim.shifts), _as_tuple(prim.dims))


def _diag(prim, x, out=None):
    x = np.asarray(x)
    n = x.size
    flat = np.zeros((n, n), x.dtype)
    flat[np.arange(n), np.arange(n)] = x.reshape(-1)
    return flat.reshape(x.shape + x.shape)


def _diag_part(prim, x, out=None):
    x = np.asarray(x)
    k = x.ndim // 2
    n = int(np.prod(x.shape[:k], dtype=np.int64))
    return np.ascontiguousarray(x.reshape(n, n)[np.arange(n), np.arange(n)].reshape(x.shape[:k]))


def _trace(prim, x, out=None):
    x = np.asarray(x)
    return np.asarray(np.trace(x), dtype=x.dtype)


def _band_mask(m, n, lower, upper):
    i = np.arange(m)[:, None]
    j = np.arange(n)[None, :]
    keep = np.ones((m, n), bool)
    if lower >= 0:
        keep &= (i - j) <= lower
    if upper >= 0:
        keep &= (j - i) <= upper
    return keep


def _matrix_band_part(prim, x, lower, upper, out=None):
    x = np.asarray(x)
    keep = _band_mask(x.shape[-2], x.shape[-1], int(lower), int(upper))
    return np.where(keep, x, np.zeros((), x.dtype))


def _fill_diagonal(prim, x, out=None):
    res = np.array(x, copy=True)
    if res.ndim == 2 and prim.wrap and res.shape[0] > res.shape[1] + 1:
        flat = res.reshape(-1)
        flat[::res.shape[1] + 1] = prim.fill_value
        return flat.reshape(res.shape)
    np.fill_diagonal(res, prim.fill_value)
    return res


def _depth_to_space(prim, x, out=None):
    x = np.asarray(x)
    b = prim.block_size
    n, c, h, w = x.shape
    y = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    return np.ascontiguousarray(y.reshape(n, c // (b * b), h * b, w * b))


def _space_to_depth(prim, x, out=None):
    x = np.asarray(x)
    b = prim.block_size
    n, c, h, w = x.shape
    y = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return np.ascontiguousarray(y.reshape(n, c * b * b, h // b, w // b))


def _reverse_sequence(prim, x, seq_lengths, out=None):
    x = np.asarray(x)
    seq, batch = prim.seq_dim % x.ndim, prim.batch_dim % x.ndim
    res = x.copy()
    lengths = np.asarray(seq_lengths).reshape(-1)
    for i, length in enumerate(lengths):
        length = int(length)
        src = [slice(None)] * x.ndim
        src[batch] = i
        src[seq] = slice(0, length)
        dst = list(src)
        sub = x[tuple(src)]
        # the batch axis is gone in ``sub``: the sequence axis moves down one if it came after it
        res[tuple(dst)] = np.flip(sub, seq - (1 if seq > batch else 0))
    return res


def _index_add(prim, x, indices, y, out=None):
    x = np.asarray(x)
    res = x.copy()
    axis = prim.axis % x.ndim
    idx = np.asarray(indices).reshape(-1)
    if prim.check_index_bound and idx.size and (idx.min() < 0 or idx.max() >= x.shape[axis]):
        raise ValueError(f"For 'IndexAdd', the values of 'indices' must be in [0, {x.shape[axis]}), but got "
                         f"{idx.tolist()}.")
    np.add.at(np.moveaxis(res, axis, 0), idx, np.moveaxis(np.asarray(y, x.dtype), axis, 0))
    return res


def _index_fill(prim, x, dim, index, value, out=None):
    x = np.asarray(x)
    res = x.copy()
    if res.ndim == 0:
        return np.asarray(np.asarray(value, x.dtype)) if np.asarray(index).size else res
    axis = int(dim) % res.ndim
    idx = np.asarray(index).reshape(-1).astype(np.int64)
    if idx.size and (idx.min() < -x.shape[axis] or idx.max() >= x.shape[axis]):
        raise ValueError(f"For 'IndexFill', the values of 'index' must be in [{-x.shape[axis]}, {x.shape[axis]}), "
                         f"but got {idx.tolist()}.")
    np.moveaxis(res, axis, 0)[idx] = np.asarray(value, x.dtype)
    return res


def _masked_scatter(prim, x, mask, updates, out=None):
    x = np.asarray(x)
    full = np.broadcast_to(np.asarray(mask, bool), x.shape)
    count = int(full.sum())
    src = np.asarray(updates).reshape(-1)
    if count > src.size:
        raise ValueError(f"For 'MaskedScatter', the number of elements of 'updates' ({src.size}) must be at least "
                         f"the number of True in 'mask' ({count}).")
    res = x.copy()
    res[full] = src[:count]
    return res


def _masked_scatter_grad(prim, dout, mask, updates, out=None):
    dout = np.asarray(dout)
    taken = dout[np.asarray(mask, bool)]
    res = np.zeros(np.asarray(updates).size, dout.dtype)
    res[:taken.size] = taken
    return res.reshape(np.shape(updates))


def _inplace(op):
    def kernel(prim, x, v, out=None):
        res = np.array(x, copy=True)
        rows = _as_tuple(prim.indices)
        v = np.asarray(v, res.dtype)
        for k, r in enumerate(rows):
            res[r] = op(res[r], v[k])
        return res
    return kernel


def _inplace_update_v2(prim, x, indices, v, out=None):
    res = np.array(x, copy=True)
    rows = np.asarray(indices).reshape(-1)
    v = np.asarray(v, res.dtype).reshape((rows.size,) + res.shape[1:])
    for k, r in enumerate(rows):
        res[int(r)] = v[k]
    return res


def _unravel_index(prim, indices, dims, out=None):
    indices, dims = np.asarray(indices), np.asarray(dims)
    if np.any(dims <= 0):
        raise ValueError(f"For 'UnravelIndex', every element of 'dims' must be positive, but got {dims.tolist()}.")
    size = int(np.prod(dims.astype(np.int64)))
    if indices.size and (indices.min() < 0 or indices.max() >= size):
        raise ValueError(f"For 'UnravelIndex', the elements of 'indices' must be in [0, {size}), but got "
                         f"{indices.tolist()}.")
    return np.stack(np.unravel_index(indices, tuple(int(d) for d in dims))).astype(indices.dtype)


def _tri_indices(lower):
    def kernel(prim, out=None):
        fn = np.tril_indices if lower else np.triu_indices
        rows, cols = fn(prim.row, prim.offset, prim.col)
        return np.stack([rows, cols]).astype(out.dtype.to_numpy()).reshape(2, -1)
    return kernel


def _unique_consecutive(prim, x, out=None):
    x = np.asarray(x)
    if prim.dim is None:
        flat = x.reshape(-1)
        keep = np.ones(flat.size, bool)
        keep[1:] = flat[1:] != flat[:-1]
        run = np.cumsum(keep) - 1
        counts = np.diff(np.append(np.flatnonzero(keep), flat.size))
        return flat[keep], run.reshape(x.shape).astype(np.int64), counts.astype(np.int64)
    axis = prim.dim % x.ndim
    moved = np.moveaxis(x, axis, 0).reshape(x.shape[axis], -1)
    keep = np.ones(moved.shape[0], bool)
    if moved.shape[0] > 1:
        keep[1:] = np.any(moved[1:] != moved[:-1], axis=1)
    run = np.cumsum(keep) - 1
    counts = np.diff(np.append(np.flatnonzero(keep), moved.shape[0]))
    values = np.compress(keep, x, axis=axis)
    return np.ascontiguousarray(values), run.astype(np.int64), counts.astype(np.int64)


def _padding(prim, x, out=None):
    x = np.asarray(x)
    res = np.zeros(x.shape[:-1] + (prim.pad_dim_size,), x.dtype)
    res[..., :1] = x
    return res


def _identity_n(prim, xs, out=None):
    return tuple(np.array(x, copy=True) for x in xs)


def _spatial(prim, two_d_name):
    """The number of spatial dims: 2 for ``BatchToSpace``/``SpaceToBatch``, the block's length for the N-D forms."""
    if isinstance(prim.block_shape, int):
        return 2 if type(prim).__name__ == two_d_name else 1
    return len(prim.block_shape)


def _blocks(block, spatial):
    return (block,) * spatial if isinstance(block, int) else tuple(block)


def _batch_to_space(prim, x, out=None):
    x = np.asarray(x)
    spatial = _spatial(prim, "BatchToSpace")
    blocks = _blocks(prim.block_shape, spatial)
    lead = x.ndim - spatial
    prod = int(np.prod(blocks))
    batch = x.shape[0] // prod
    y = x.reshape(blocks + (batch,) + x.shape[1:])
    perm = [spatial] + list(range(spatial + 1, spatial + lead))
    for i in range(spatial):
        perm += [spatial + lead + i, i]
    y = y.transpose(perm).reshape((batch,) + x.shape[1:lead] + tuple(s * b for s, b in zip(x.shape[lead:], blocks)))
    index = [slice(None)] * lead + [slice(c0, y.shape[lead + i] - c1) for i, (c0, c1) in enumerate(prim.crops)]
    return np.ascontiguousarray(y[tuple(index)])


def _space_to_batch(prim, x, out=None):
    x = np.asarray(x)
    spatial = _spatial(prim, "SpaceToBatch")
    blocks = _blocks(prim.block_shape, spatial)
    lead = x.ndim - spatial
    y = np.pad(x, [(0, 0)] * lead + [tuple(p) for p in prim.paddings])
    split = []
    for s, b in zip(y.shape[lead:], blocks):
        split += [s // b, b]
    y = y.reshape(y.shape[:lead] + tuple(split))
    perm = [lead + 2 * i + 1 for i in range(spatial)] + list(range(lead)) + [lead + 2 * i for i in range(spatial)]
    y = y.transpose(perm)
    return np.ascontiguousarray(y.reshape((int(np.prod(blocks)) * x.shape[0],) + y.shape[spatial + 1:]))


KERNELS = {
    "Padding": _padding, "IdentityN": _identity_n, "BatchToSpaceND": _batch_to_space, "BatchToSpace": _batch_to_space,
    "SpaceToBatchND": _space_to_batch, "SpaceToBatch": _space_to_batch,
    "Roll": _roll, "Diag": _diag, "DiagPart": _diag_part, "Trace": _trace, "MatrixBandPart": _matrix_band_part,
    "FillDiagonal": _fill_diagonal, "DepthToSpace": _depth_to_space, "SpaceToDepth": _space_to_depth,
    "ReverseSequence": _reverse_sequence, "IndexAdd": _index_add, "IndexFill": _index_fill,
    "MaskedScatter": _masked_scatter, "MaskedScatterGrad": _masked_scatter_grad,
    "InplaceAdd": _inplace(np.add), "InplaceSub": _inplace(np.subtract), "InplaceUpdate": _inplace(lambda a, b: b),
    "InplaceUpdateV2": _inplace_update_v2, "UnravelIndex": _unravel_index, "TrilIndices": _tri_indices(True),
    "TriuIndices": _tri_indices(False), "UniqueConsecutive": _unique_consecutive,
}
