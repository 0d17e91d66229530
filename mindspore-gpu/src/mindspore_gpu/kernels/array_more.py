"""GPU kernels of ``mindspore/ops/_defs/array_more.py`` on CuPy (the CPU backend's ``kernels/array_more.py``
with ``cupy`` for ``numpy``; index arguments given as tensors are read back with ``scalar_of``).

Repeated indices of ``IndexAdd`` accumulate through ``scatter_add`` (CUDA atomics). Every kernel returns a
fresh device array of the inferred dtype; the inputs are never written.
"""
import cupy

from mindspore_gpu.kernels._common import dev, scalar_of, scatter_add


def _as_tuple(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


def _roll(prim, x, *, out):
    x = dev(x)
    if prim.dims is None:
        return cupy.roll(x.reshape(-1), _as_tuple(prim.shifts)[0]).reshape(x.shape)
    return cupy.roll(x, _as_tuple(prim.shifts), _as_tuple(prim.dims))


def _diag(prim, x, *, out):
    x = dev(x)
    n = x.size
    flat = cupy.zeros((n, n), x.dtype)
    flat[cupy.arange(n), cupy.arange(n)] = x.reshape(-1)
    return flat.reshape(x.shape + x.shape)


def _diag_part(prim, x, *, out):
    x = dev(x)
    k = x.ndim // 2
    n = 1
    for s in x.shape[:k]:
        n *= s
    return cupy.ascontiguousarray(x.reshape(n, n)[cupy.arange(n), cupy.arange(n)].reshape(x.shape[:k]))


def _trace(prim, x, *, out):
    x = dev(x)
    return cupy.trace(x).astype(x.dtype).reshape(())


def _band_mask(m, n, lower, upper):
    i = cupy.arange(m)[:, None]
    j = cupy.arange(n)[None, :]
    keep = cupy.ones((m, n), bool)
    if lower >= 0:
        keep &= (i - j) <= lower
    if upper >= 0:
        keep &= (j - i) <= upper
    return keep


def _matrix_band_part(prim, x, lower, upper, *, out):
    x = dev(x)
    keep = _band_mask(x.shape[-2], x.shape[-1], int(scalar_of(lower)), int(scalar_of(upper)))
    return cupy.where(keep, x, cupy.zeros((), x.dtype))


def _fill_diagonal(prim, x, *, out):
    res = dev(x).copy()
    if res.ndim == 2 and prim.wrap and res.shape[0] > res.shape[1] + 1:
        flat = res.reshape(-1)
        flat[::res.shape[1] + 1] = prim.fill_value
        return flat.reshape(res.shape)
    cupy.fill_diagonal(res, prim.fill_value)
    return res


def _depth_to_space(prim, x, *, out):
    x = dev(x)
    b = prim.block_size
    n, c, h, w = x.shape
    y = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    return cupy.ascontiguousarray(y.reshape(n, c // (b * b), h * b, w * b))


def _space_to_depth(prim, x, *, out):
    x = dev(x)
    b = prim.block_size
    n, c, h, w = x.shape
    y = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return cupy.ascontiguousarray(y.reshape(n, c * b * b, h // b, w // b))


def _reverse_sequence(prim, x, seq_lengths, *, out):
    x = dev(x)
    seq, batch = prim.seq_dim % x.ndim, prim.batch_dim % x.ndim
    # one gather along the sequence axis: position j of batch entry i reads j' = len_i - 1 - j when j < len_i
    lengths = dev(seq_lengths).reshape(-1).astype(cupy.int64)
    pos = cupy.arange(x.shape[seq], dtype=cupy.int64)
    src = cupy.where(pos[None, :] < lengths[:, None], lengths[:, None] - 1 - pos[None, :], pos[None, :])
    shape = [1] * x.ndim
    shape[batch], shape[seq] = x.shape[batch], x.shape[seq]
    if batch > seq:
        src = src.T
    index = cupy.broadcast_to(src.reshape(shape), x.shape)
    return cupy.take_along_axis(x, index, axis=seq)


def _index_add(prim, x, indices, y, *, out):
    x = dev(x)
    res = x.copy()
    axis = prim.axis % x.ndim
    idx = dev(indices).reshape(-1).astype(cupy.int64)
    if prim.check_index_bound and idx.size and bool(cupy.any((idx < 0) | (idx >= x.shape[axis]))):
        raise ValueError(f"For 'IndexAdd', the values of 'indices' must be in [0, {x.shape[axis]}).")
    moved = cupy.ascontiguousarray(cupy.moveaxis(res, axis, 0))
    scatter_add(moved, idx, cupy.moveaxis(dev(y).astype(x.dtype), axis, 0))
    return cupy.ascontiguousarray(cupy.moveaxis(moved, 0, axis))


def _index_fill(prim, x, dim, index, value, *, out):
    x = dev(x)
    res = x.copy()
    fill = dev(value).astype(x.dtype).reshape(())
    idx = dev(index).reshape(-1).astype(cupy.int64)
    if res.ndim == 0:
        return fill.copy() if idx.size else res
    axis = int(scalar_of(dim)) % res.ndim
    if idx.size and bool(cupy.any((idx < -x.shape[axis]) | (idx >= x.shape[axis]))):
        raise ValueError(f"For 'IndexFill', the values of 'index' must be in [{-x.shape[axis]}, {x.shape[axis]}).")
    cupy.moveaxis(res, axis, 0)[idx] = fill
    return res


def _masked_scatter(prim, x, mask, updates, *, out):
    x = dev(x)
    full = cupy.broadcast_to(dev(mask).astype(bool), x.shape)
    count = int(scalar_of(cupy.count_nonzero(full)))
    src = dev(updates).reshape(-1)
    if count > src.size:
        raise ValueError(f"For 'MaskedScatter', the number of elements of 'updates' ({src.size}) must be at least "
                         f"the number of True in 'mask' ({count}).")
    res = x.copy()
    res[full] = src[:count]
    return res


def _masked_scatter_grad(prim, dout, mask, updates, *, out):
    dout = dev(dout)
    taken = dout[dev(mask).astype(bool)]
    updates = dev(updates)
    res = cupy.zeros(updates.size, dout.dtype)
    res[:taken.size] = taken
    return res.reshape(updates.shape)


def _inplace(op):
    def kernel(prim, x, v, *, out):
        res = dev(x).copy()
        v = dev(v).astype(res.dtype)
        for k, r in enumerate(_as_tuple(prim.indices)):
            res[r] = op(res[r], v[k])
        return res
    return kernel


def _inplace_update_v2(prim, x, indices, v, *, out):
    res = dev(x).copy()
    rows = dev(indices).reshape(-1).astype(cupy.int64)
    res[rows] = dev(v).astype(res.dtype).reshape((rows.size,) + res.shape[1:])
    return res


def _unravel_index(prim, indices, dims, *, out):
    indices = dev(indices)
    sizes = tuple(int(d) for d in cupy.asnumpy(dev(dims)).reshape(-1))
    if any(d <= 0 for d in sizes):
        raise ValueError(f"For 'UnravelIndex', every element of 'dims' must be positive, but got {list(sizes)}.")
    size = 1
    for d in sizes:
        size *= d
    if indices.size and bool(cupy.any((indices < 0) | (indices >= size))):
        raise ValueError(f"For 'UnravelIndex', the elements of 'indices' must be in [0, {size}).")
    return cupy.stack(cupy.unravel_index(indices, sizes)).astype(indices.dtype)


def _tri_indices(lower):
    def kernel(prim, *, out):
        fn = cupy.tril_indices if lower else cupy.triu_indices
        rows, cols = fn(prim.row, prim.offset, prim.col)
        return cupy.stack([rows, cols]).astype(out.dtype.to_numpy()).reshape(2, -1)
    return kernel


def _runs(rows_differ, n):
    keep = cupy.ones(n, bool)
    if n > 1:
        keep[1:] = rows_differ
    run = cupy.cumsum(keep) - 1
    starts = cupy.flatnonzero(keep)
    counts = cupy.diff(cupy.concatenate([starts, cupy.asarray([n], starts.dtype)]))
    return keep, run.astype(cupy.int64), counts.astype(cupy.int64)


def _unique_consecutive(prim, x, *, out):
    x = dev(x)
    if prim.dim is None:
        flat = x.reshape(-1)
        keep, run, counts = _runs(flat[1:] != flat[:-1], flat.size)
        return flat[keep], run.reshape(x.shape), counts
    axis = prim.dim % x.ndim
    moved = cupy.moveaxis(x, axis, 0).reshape(x.shape[axis], -1)
    keep, run, counts = _runs(cupy.any(moved[1:] != moved[:-1], axis=1), moved.shape[0])
    values = cupy.take(x, cupy.flatnonzero(keep), axis=axis)
    return cupy.ascontiguousarray(values), run, counts


def _padding(prim, x, *, out):
    x = dev(x)
    res = cupy.zeros(x.shape[:-1] + (prim.pad_dim_size,), x.dtype)
    res[..., :1] = x
    return res


def _identity_n(prim, xs, *, out):
    return tuple(dev(x).copy() for x in xs)


def _spatial(prim, two_d_name):
    if isinstance(prim.block_shape, int):
        return 2 if type(prim).__name__ == two_d_name else 1
    return len(prim.block_shape)


def _blocks(block, spatial):
    return (block,) * spatial if isinstance(block, int) else tuple(block)


def _batch_to_space(prim, x, *, out):
    x = dev(x)
    spatial = _spatial(prim, "BatchToSpace")
    blocks = _blocks(prim.block_shape, spatial)
    lead = x.ndim - spatial
    prod = 1
    for b in blocks:
        prod *= b
    batch = x.shape[0] // prod
    y = x.reshape(blocks + (batch,) + x.shape[1:])
    perm = [spatial] + list(range(spatial + 1, spatial + lead))
    for i in range(spatial):
        perm += [spatial + lead + i, i]
    y = y.transpose(perm).reshape((batch,) + x.shape[1:lead] + tuple(s * b for s, b in zip(x.shape[lead:], blocks)))
    index = [slice(None)] * lead + [slice(c0, y.shape[lead + i] - c1) for i, (c0, c1) in enumerate(prim.crops)]
    return cupy.ascontiguousarray(y[tuple(index)])


def _space_to_batch(prim, x, *, out):
    x = dev(x)
    spatial = _spatial(prim, "SpaceToBatch")
    blocks = _blocks(prim.block_shape, spatial)
    lead = x.ndim - spatial
    y = cupy.pad(x, [(0, 0)] * lead + [tuple(p) for p in prim.paddings])
    split = []
    for s, b in zip(y.shape[lead:], blocks):
        split += [s // b, b]
    y = y.reshape(y.shape[:lead] + tuple(split))
    perm = [lead + 2 * i + 1 for i in range(spatial)] + list(range(lead)) + [lead + 2 * i for i in range(spatial)]
    y = y.transpose(perm)
    prod = 1
    for b in blocks:
        prod *= b
    return cupy.ascontiguousarray(y.reshape((prod * x.shape[0],) + y.shape[spatial + 1:]))


KERNELS = {
    "Padding": _padding, "IdentityN": _identity_n, "BatchToSpaceND": _batch_to_space, "BatchToSpace": _batch_to_space,
    "SpaceToBatchND": _space_to_batch, "SpaceToBatch": _space_to_batch,
    "Roll": _roll, "Diag": _diag, "DiagPart": _diag_part, "Trace": _trace, "MatrixBandPart": _matrix_band_part,
    "FillDiagonal": _fill_diagonal, "DepthToSpace": _depth_to_space, "SpaceToDepth": _space_to_depth,
    "ReverseSequence": _reverse_sequence, "IndexAdd": _index_add, "IndexFill": _index_fill,
    "MaskedScatter": _masked_scatter, "MaskedScatterGrad": _masked_scatter_grad,
    "InplaceAdd": _inplace(cupy.add), "InplaceSub": _inplace(cupy.subtract), "InplaceUpdate": _inplace(lambda a, b: b),
    "InplaceUpdateV2": _inplace_update_v2, "UnravelIndex": _unravel_index, "TrilIndices": _tri_indices(True),
    "TriuIndices": _tri_indices(False), "UniqueConsecutive": _unique_consecutive,
}
