"""The kernels of ``mindspore/ops/_defs/indexing.py``: the gathers (``Gather``, ``GatherD``, ``GatherNd``), the
scatters (``TensorScatterElements``, ``ScatterNd``, ``TensorScatterUpdate``, ``TensorScatterAdd``,
``ScatterNdUpdate``), strided slicing and its gradient, ``Slice``, ``PadV3``, the selections (``Select``,
``MaskedFill``, ``MaskedSelect``, ``NonZero``, ``OneHot``) and the sorts (``Sort``, ``TopK``, ``Unique``), bound
(:func:`mindspore_array_kernels.bind`) with:

* ``xp``, the array library, and two movers: ``dev`` (an operand as an ``xp`` array: the very buffer when it is
  one, which ``ScatterNdUpdate`` writes into) and ``host`` (an array as NumPy: the scalars given as tensors, and a
  host buffer's write-back);
* ``extremes(idx)``, the least and the greatest of a non-empty index array as Python ints, or ``None`` where they
  cannot be read (on a GPU, while a stream captures a CUDA graph: the check is then left to the plain steps before);
* ``add_at(target, index, values)``, ``target[index] += values`` in place with repeated indices summed (NumPy's
  ``add.at``; on a GPU atomics): ``TensorScatterElements`` with ``reduction="add"``;
* ``add_rows(rows, pos, updates)``, the same for rows ``pos`` of a 2-D or higher ``rows``: the N-D scatter-adds;
* ``sortable(x)``, ``x`` in a dtype the library sorts exactly (itself; on a GPU bfloat16 as float32).

Integer indices must lie in ``[-n, n)`` for a dimension of size ``n`` (negative ones wrap, as in NumPy); anything
else raises ``MSIndexRuntimeError`` (an IndexError and, as MindSpore's kernels, a RuntimeError). Scatters that
overwrite (``TensorScatterUpdate``, ``ScatterNdUpdate``, ``TensorScatterElements`` without reduction) keep the last
update of a repeated index on NumPy, one of them on a GPU. Sorts are stable, NaN last.
"""
import math

import numpy as np

from mindspore.plugin import MSIndexRuntimeError
from mindspore_array_kernels.common import fit, fits_out

BOUND = ("xp", "dev", "host", "extremes", "add_at", "add_rows", "sortable")


def _item(v):
    """A Python scalar given as a Python number or a one-element array (a device array is read back)."""
    if isinstance(v, (bool, int, float, complex)):
        return v
    return host(v).reshape(-1)[0].item()


def _is_array(v):
    return isinstance(v, (np.ndarray, xp.ndarray))


def _check_bounds(op, idx, n, dim):
    found = extremes(idx) if idx.size else None
    if found is not None:
        lo, hi = found
        if lo < -n or hi >= n:
            bad = lo if lo < -n else hi
            raise MSIndexRuntimeError(f"For '{op}', the index {bad} is out of bounds for dimension {dim} with size "
                                      f"{n}.")


def _check_nd(op, indices, shape):
    for j in range(indices.shape[-1]):
        _check_bounds(op, indices[..., j], shape[j], j)


def _wrapped(idx, n):
    """Indices in [-n, n) as non-negative int64 ones."""
    idx = idx.astype(np.int64)
    return xp.where(idx < 0, idx + n, idx)


def _coords(indices, shape):
    """The index tuple of ``indices`` (..., k) into the leading k dimensions of ``shape``."""
    return tuple(_wrapped(indices[..., j], shape[j]) for j in range(indices.shape[-1]))


def _positions(indices, lead):
    """The flat positions (M,) of ``indices`` (..., k), k > 0, into the leading dimensions ``lead``."""
    idx = indices.reshape(-1, len(lead))
    pos = xp.zeros(idx.shape[0], np.int64)
    for j, n in enumerate(lead):
        pos = pos * n + _wrapped(idx[:, j], n)
    return pos


# --- gathers ----------------------------------------------------------------------------------
def _gather(prim, params, indices, axis, out=None):
    params, indices = dev(params), dev(indices)
    axis %= params.ndim
    b = prim.batch_dims + indices.ndim if prim.batch_dims < 0 else prim.batch_dims
    _check_bounds(prim.name, indices, params.shape[axis], axis)
    indices = _wrapped(indices, params.shape[axis])
    if b == 0:
        return xp.asarray(xp.take(params, indices, axis=axis))   # a 0-d index of a 1-D input: an array, not a scalar
    batch, pre, post = params.shape[:b], params.shape[b:axis], params.shape[axis + 1:]
    nb = math.prod(batch)
    p = xp.moveaxis(params, axis, b).reshape((nb, params.shape[axis]) + pre + post)
    ind = indices.reshape(nb, -1)
    g = p[xp.arange(nb)[:, None], ind].reshape(batch + indices.shape[b:] + pre + post)
    ni, npre = indices.ndim - b, len(pre)
    perm = tuple(range(b)) + tuple(range(b + ni, b + ni + npre)) + tuple(range(b, b + ni)) + \
        tuple(range(b + ni + npre, g.ndim))
    return xp.asarray(xp.transpose(g, perm), order="C")


def _gather_d(prim, x, dim, index, out=None):
    x, index = dev(x), dev(index)
    dim %= x.ndim
    _check_bounds(prim.name, index, x.shape[dim], dim)
    window = tuple(slice(None) if d == dim else slice(0, s) for d, s in enumerate(index.shape))
    return xp.asarray(xp.take_along_axis(x[window], _wrapped(index, x.shape[dim]), axis=dim), order="C")


def _gather_nd(prim, x, indices, out=None):
    x, indices = dev(x), dev(indices)
    _check_nd(prim.name, indices, x.shape)
    if indices.shape[-1] == 0:
        return xp.broadcast_to(x, indices.shape[:-1] + x.shape).copy()
    return xp.asarray(x[_coords(indices, x.shape)], order="C")


# --- scatters ---------------------------------------------------------------------------------
def _elementwise_coords(indices, axis, n):
    coords = []
    for d, size in enumerate(indices.shape):
        if d == axis:
            coords.append(_wrapped(indices, n))
        else:
            shape = [1] * indices.ndim
            shape[d] = size
            coords.append(xp.arange(size).reshape(shape))
    return tuple(coords)


def _tensor_scatter_elements(prim, x, indices, updates, out=None):
    x, indices, updates = dev(x), dev(indices), dev(updates)
    axis = prim.axis % x.ndim
    _check_bounds(prim.name, indices, x.shape[axis], axis)
    res = x.copy()
    coords = _elementwise_coords(indices, axis, x.shape[axis])
    if prim.reduction == "add":
        add_at(res, coords, xp.broadcast_to(updates, indices.shape))
    else:
        res[coords] = updates
    return res


def _scatter_add_nd(target, indices, updates):
    """``target[indices[i]] += updates[i]`` in place (``target`` a fresh C-contiguous array), summing repeated
    indices; with no index axis (k == 0) every update adds to the whole of ``target``."""
    k = indices.shape[-1]
    m = math.prod(indices.shape[:-1])          # the number of updates
    if not m or not updates.size:
        return target
    if k == 0:
        target += updates.reshape((m,) + target.shape).sum(axis=0).astype(target.dtype, copy=False)
        return target
    lead = target.shape[:k]
    add_rows(target.reshape((math.prod(lead),) + target.shape[k:]), _positions(indices, lead),
             updates.reshape((m,) + target.shape[k:]))
    return target


def _scatter_nd(prim, indices, updates, shape, out=None):
    indices, updates = dev(indices), dev(updates)
    shape = tuple(shape)
    _check_nd(prim.name, indices, shape)
    return _scatter_add_nd(xp.zeros(shape, dtype=updates.dtype), indices, updates)


def _write_nd(target, indices, updates):
    updates = updates.astype(target.dtype, copy=False)   # converted to the written tensor's dtype, as MindSpore
    if indices.shape[-1] == 0:
        if updates.size:
            target[...] = updates.reshape((-1,) + target.shape)[-1]
        return target
    target[_coords(indices, target.shape)] = updates
    return target


def _tensor_scatter_update(prim, x, indices, updates, out=None):
    x, indices, updates = dev(x), dev(indices), dev(updates)
    _check_nd(prim.name, indices, x.shape)
    return _write_nd(x.copy(), indices, updates)


def _tensor_scatter_add(prim, x, indices, updates, out=None):
    x, indices, updates = dev(x), dev(indices), dev(updates)
    _check_nd(prim.name, indices, x.shape)
    return _scatter_add_nd(x.copy(), indices, updates)


def _scatter_nd_update(prim, x, indices, updates, out=None):
    indices, updates = dev(indices), dev(updates)
    _check_nd(prim.name, indices, x.shape)
    target = dev(x)
    _write_nd(target, indices, updates)      # in place: x is the Parameter's own buffer
    if target is not x:                      # a host buffer (made before a device backend was chosen): written back
        np.copyto(x, host(target))
    return x


# --- slicing and padding ------------------------------------------------------------------------
def _strided_slice(prim, x, begin, end, strides, out=None):
    x = dev(x)
    index, _ = prim.plan(x.shape, begin, end, strides)
    return xp.asarray(x[index]).copy()          # (every axis indexed by an int: NumPy gives a scalar)


def _strided_slice_grad(prim, dy, shapex, begin, end, strides, out=None):
    dy = dev(dy)
    index, _ = prim.plan(shapex, begin, end, strides)
    res = xp.zeros(tuple(shapex), dtype=dy.dtype)
    res[index] = dy
    return res


def _slice(prim, x, begin, size, out=None):
    x = dev(x)
    size = prim.infer_shape(x.shape, begin, size)
    return xp.asarray(x[tuple(slice(b, b + s) for b, s in zip(begin, size))]).copy()


_PAD_MODE = {"constant": "constant", "reflect": "reflect", "edge": "edge", "circular": "wrap"}


def _pad_v3(prim, x, paddings, value, out=None):
    x = dev(x)
    pairs = prim.pad_pairs(paddings, x.ndim)
    crop = tuple(slice(max(-a, 0), s - max(-b, 0)) for s, (a, b) in zip(x.shape, pairs))
    widths = tuple((max(a, 0), max(b, 0)) for a, b in pairs)
    x = x[crop]
    if prim.mode == "constant":
        fill = host(value).astype(x.dtype).item()
        return xp.pad(x, widths, mode="constant", constant_values=fill)
    return xp.pad(x, widths, mode=_PAD_MODE[prim.mode])


# --- selection ----------------------------------------------------------------------------------
def _select(prim, cond, x, y, out=None):
    return fit(xp.where(dev(cond), dev(x), dev(y)), out)


def _masked_fill(prim, x, mask, value, out=None):
    x = dev(x)
    v = dev(value).astype(x.dtype) if _is_array(value) else np.asarray(value).astype(x.dtype)[()]
    return xp.where(dev(mask), v, x)


def _masked_select(prim, x, mask, out=None):
    xb, mb = xp.broadcast_arrays(dev(x), dev(mask))
    return xb[mb]


def _non_zero(prim, x, out=None):
    return fit(xp.argwhere(dev(x)), out)


def _one_hot(prim, indices, depth, on_value, off_value, out=None):
    indices = dev(indices)
    depth = int(_item(depth))
    hot = indices[..., None] == xp.arange(depth)
    on = dev(on_value) if _is_array(on_value) else on_value
    off = dev(off_value) if _is_array(off_value) else off_value
    res = fit(xp.where(hot, on, off), out)
    if prim.axis != -1:
        res = xp.moveaxis(res, -1, prim.axis)
    return xp.asarray(res, order="C")


# --- sorting ------------------------------------------------------------------------------------
def _argsort(x, axis, descending):
    """Stable argsort; descending keeps equal elements in their original order (``x`` sorted as ``sortable``
    gives it: the order is the same)."""
    x = sortable(x)
    if not descending:
        return xp.argsort(x, axis=axis, kind="stable")
    idx = xp.flip(xp.argsort(xp.flip(x, axis), axis=axis, kind="stable"), axis)
    return x.shape[axis] - 1 - idx


def _sort(prim, x, out=None):
    x = dev(x)
    axis = prim.axis % x.ndim
    idx = _argsort(x, axis, prim.descending)
    return fit((xp.take_along_axis(x, idx, axis), idx.astype(np.int32)), out)


def _top_k(prim, x, k, out=None):
    x = dev(x)
    idx = _argsort(x, -1, True)[..., :int(_item(k))]
    return fit((xp.take_along_axis(x, idx, -1), idx.astype(np.int32)), out)


@fits_out
def _unique(prim, x, out=None):
    x = dev(x)
    # distinct values in order of first occurrence, not sorted (MindSpore 2.10's CPU kernel)
    y, first, idx = xp.unique(sortable(x).reshape(-1), return_index=True, return_inverse=True)
    y = y.astype(x.dtype, copy=False)     # (values found in a wider dtype, exactly: they are x's)
    order = xp.argsort(first, kind="stable")
    rank = xp.empty_like(order)
    rank[order] = xp.arange(order.size, dtype=order.dtype)
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
