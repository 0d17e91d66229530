"""CPU kernels of the indexing family (gather/scatter, strided slicing, padding, selection, sorting).

Integer indices must lie in ``[-n, n)`` for a dimension of size ``n`` (negative ones wrap, as in
NumPy); anything else raises ``MSIndexRuntimeError`` (an IndexError and, as MindSpore's kernels, a
RuntimeError). Scatters with accumulation sort the linearised indices once and reduce with
``np.add.reduceat``, which is much faster than ``np.add.at``.
"""
import math

import numpy as np

from mindspore.plugin import MSIndexRuntimeError
from mindspore_cpu.kernels._out import fits_out



def _check_bounds(op, idx, n, dim):
    if idx.size:
        lo, hi = idx.min(), idx.max()
        if lo < -n or hi >= n:
            bad = int(lo) if lo < -n else int(hi)
            raise MSIndexRuntimeError(f"For '{op}', the index {bad} is out of bounds for dimension {dim} with size "
                                      f"{n}.")


def _check_nd(op, indices, shape):
    for j in range(indices.shape[-1]):
        _check_bounds(op, indices[..., j], shape[j], j)


def _coords(indices):
    return tuple(np.moveaxis(indices, -1, 0))


def _scatter_add_nd(out, indices, updates):
    """``out[indices[i]] += updates[i]`` in place, summing repeated indices."""
    k = indices.shape[-1]
    lead = out.shape[:k]
    rows = out.reshape((math.prod(lead),) + out.shape[k:])
    upd = updates.reshape((-1,) + out.shape[k:])
    if upd.shape[0] == 0:
        return out
    idx = indices.reshape(-1, k).astype(np.int64)
    idx = np.where(idx < 0, idx + np.asarray(lead, dtype=np.int64), idx)
    flat = np.ravel_multi_index(tuple(idx.T), lead) if k else np.zeros(len(idx), np.int64)
    order = np.argsort(flat, kind="stable")
    uniq, starts = np.unique(flat[order], return_index=True)
    rows[uniq] += np.add.reduceat(upd[order], starts, axis=0)
    return out


# --- gathers ----------------------------------------------------------------------------------
def _gather(prim, params, indices, axis, out=None):
    axis %= params.ndim
    b = prim.batch_dims + indices.ndim if prim.batch_dims < 0 else prim.batch_dims
    _check_bounds(prim.name, indices, params.shape[axis], axis)
    if b == 0:
        return np.asarray(np.take(params, indices, axis=axis))   # a 0-d index of a 1-D input: an array, not a scalar
    batch, pre, post = params.shape[:b], params.shape[b:axis], params.shape[axis + 1:]
    nb = math.prod(batch)
    p = np.moveaxis(params, axis, b).reshape((nb, params.shape[axis]) + pre + post)
    ind = indices.reshape(nb, -1)
    g = p[np.arange(nb)[:, None], ind].reshape(batch + indices.shape[b:] + pre + post)
    ni, npre = indices.ndim - b, len(pre)
    perm = tuple(range(b)) + tuple(range(b + ni, b + ni + npre)) + tuple(range(b, b + ni)) + \
        tuple(range(b + ni + npre, g.ndim))
    return np.asarray(np.transpose(g, perm), order="C")


def _gather_d(prim, x, dim, index, out=None):
    dim %= x.ndim
    _check_bounds(prim.name, index, x.shape[dim], dim)
    window = tuple(slice(None) if d == dim else slice(0, s) for d, s in enumerate(index.shape))
    return np.asarray(np.take_along_axis(x[window], index.astype(np.int64), axis=dim), order="C")


def _gather_nd(prim, x, indices, out=None):
    _check_nd(prim.name, indices, x.shape)
    if indices.shape[-1] == 0:
        return np.broadcast_to(x, indices.shape[:-1] + x.shape).copy()
    return np.asarray(x[_coords(indices)], order="C")


# --- scatters ---------------------------------------------------------------------------------
def _elementwise_coords(indices, axis):
    coords = list(np.indices(indices.shape, sparse=True))
    coords[axis] = indices
    return tuple(coords)


def _tensor_scatter_elements(prim, x, indices, updates, out=None):
    axis = prim.axis % x.ndim
    _check_bounds(prim.name, indices, x.shape[axis], axis)
    res = x.copy()
    coords = _elementwise_coords(indices, axis)
    if prim.reduction == "add":
        np.add.at(res, coords, updates)
    else:
        res[coords] = updates
    return res


def _scatter_nd(prim, indices, updates, shape, out=None):
    _check_nd(prim.name, indices, shape)
    return _scatter_add_nd(np.zeros(shape, dtype=updates.dtype), indices, updates)


def _write_nd(out, indices, updates):
    if indices.shape[-1] == 0:
        if updates.size:
            out[...] = updates.reshape((-1,) + out.shape)[-1]
        return out
    out[_coords(indices)] = updates
    return out


def _tensor_scatter_update(prim, x, indices, updates, out=None):
    _check_nd(prim.name, indices, x.shape)
    return _write_nd(x.copy(), indices, updates)


def _tensor_scatter_add(prim, x, indices, updates, out=None):
    _check_nd(prim.name, indices, x.shape)
    return _scatter_add_nd(x.copy(), indices, updates)


def _scatter_nd_update(prim, x, indices, updates, out=None):
    _check_nd(prim.name, indices, x.shape)
    return _write_nd(x, indices, updates)  # in place: x is the Parameter's own buffer


# --- slicing and padding ------------------------------------------------------------------------
def _strided_slice(prim, x, begin, end, strides, out=None):
    index, _ = prim.plan(x.shape, begin, end, strides)
    return np.array(x[index], copy=True)


def _strided_slice_grad(prim, dy, shapex, begin, end, strides, out=None):
    index, _ = prim.plan(shapex, begin, end, strides)
    res = np.zeros(shapex, dtype=dy.dtype)
    res[index] = dy
    return res


def _slice(prim, x, begin, size, out=None):
    size = prim.infer_shape(x.shape, begin, size)
    return np.array(x[tuple(slice(b, b + s) for b, s in zip(begin, size))], copy=True)


_NP_PAD_MODE = {"constant": "constant", "reflect": "reflect", "edge": "edge", "circular": "wrap"}


def _pad_v3(prim, x, paddings, value, out=None):
    pairs = prim.pad_pairs(paddings, x.ndim)
    crop = tuple(slice(max(-a, 0), s - max(-b, 0)) for s, (a, b) in zip(x.shape, pairs))
    widths = tuple((max(a, 0), max(b, 0)) for a, b in pairs)
    x = x[crop]
    if prim.mode == "constant":
        return np.pad(x, widths, constant_values=np.asarray(value).astype(x.dtype).item())
    return np.pad(x, widths, mode=_NP_PAD_MODE[prim.mode])


# --- selection ----------------------------------------------------------------------------------
def _select(prim, cond, x, y, out=None):
    return np.asarray(np.where(cond, x, y))


def _masked_fill(prim, x, mask, value, out=None):
    return np.where(mask, np.asarray(value).astype(x.dtype), x)


def _masked_select(prim, x, mask, out=None):
    xb, mb = np.broadcast_arrays(x, mask)
    return xb[mb]


def _non_zero(prim, x, out=None):
    return np.argwhere(x).astype(np.int64)


def _one_hot(prim, indices, depth, on_value, off_value, out=None):
    depth = int(np.asarray(depth).item())
    hot = indices[..., None] == np.arange(depth)
    res = np.where(hot, np.asarray(on_value), np.asarray(off_value))
    if prim.axis != -1:
        res = np.moveaxis(res, -1, prim.axis)
    return np.asarray(res, order="C")


# --- sorting ------------------------------------------------------------------------------------
def _argsort(x, axis, descending):
    """Stable argsort; descending keeps equal elements in their original order."""
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    idx = np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)
    return x.shape[axis] - 1 - idx


def _sort(prim, x, out=None):
    axis = prim.axis % x.ndim
    idx = _argsort(x, axis, prim.descending)
    return np.take_along_axis(x, idx, axis), idx.astype(np.int32)


def _top_k(prim, x, k, out=None):
    idx = _argsort(x, -1, True)[..., :k]
    return np.take_along_axis(x, idx, -1), idx.astype(np.int32)


@fits_out
def _unique(prim, x, out=None):
    # MindSpore 2.10 (CPU) lists the distinct values in order of first occurrence, not sorted
    flat = x.reshape(-1)
    y, first, idx = np.unique(flat, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return y[order], rank[idx.reshape(-1)].reshape(x.shape)


KERNELS = {
    "Gather": _gather,
    "GatherD": _gather_d,
    "GatherNd": _gather_nd,
    "TensorScatterElements": _tensor_scatter_elements,
    "ScatterNd": _scatter_nd,
    "TensorScatterUpdate": _tensor_scatter_update,
    "TensorScatterAdd": _tensor_scatter_add,
    "ScatterNdUpdate": _scatter_nd_update,
    "StridedSlice": _strided_slice,
    "StridedSliceGrad": _strided_slice_grad,
    "Slice": _slice,
    "PadV3": _pad_v3,
    "Select": _select,
    "MaskedFill": _masked_fill,
    "MaskedSelect": _masked_select,
    "NonZero": _non_zero,
    "OneHot": _one_hot,
    "Sort": _sort,
    "TopK": _top_k,
    "Unique": _unique,
}
