"""GPU kernels of the indexing family (gather/scatter, strided slicing, padding, selection, sorting).

Integer indices must lie in ``[-n, n)`` for a dimension of size ``n`` (negative ones wrap, as in
NumPy); anything else raises ``MSIndexRuntimeError``, an IndexError and, as MindSpore's kernels, a
RuntimeError (the bounds are read back from the device, which synchronises). Scatters with accumulation use CUDA's atomic add (:func:`._common.scatter_add`);
scatters that overwrite (``TensorScatterUpdate``, ``ScatterNdUpdate``, ``TensorScatterElements``
without reduction) keep one of the updates of a repeated index, not necessarily the last one as the
CPU kernels do. Sorts are stable (CuPy's sorts are), NaN last; bfloat16, which CuPy cannot sort, sorts as float32.
"""
import cupy
import numpy

from mindspore.plugin import MSIndexRuntimeError
from mindspore_gpu.kernels._common import fit, fits_out, is_array, scalar_of, scatter_add, sortable, dev

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)


def _check_bounds(op, idx, n, dim):
    # reads the extremes back to the host, which a stream capturing a CUDA graph refuses: a captured step
    # (mindspore_gpu.capture) does without the check, as the plain steps before it made it
    if idx.size and not cupy.cuda.get_current_stream().is_capturing():
        lo, hi = (int(v) for v in cupy.asnumpy(cupy.stack((idx.min(), idx.max()))))   # one read-back
        if lo < -n or hi >= n:
            bad = lo if lo < -n else hi
            raise MSIndexRuntimeError(f"For '{op}', the index {bad} is out of bounds for dimension {dim} with size "
                                      f"{n}.")


def _check_nd(op, indices, shape):
    for j in range(indices.shape[-1]):
        _check_bounds(op, indices[..., j], shape[j], j)


def _wrapped(idx, n):
    """Indices in [-n, n) as non-negative int64 ones."""
    idx = idx.astype(numpy.int64)
    return cupy.where(idx < 0, idx + n, idx)


def _coords(indices, shape):
    """The index tuple of ``indices`` (..., k) into the leading k dimensions of ``shape``."""
    return tuple(_wrapped(indices[..., j], shape[j]) for j in range(indices.shape[-1]))


# --- gathers ----------------------------------------------------------------------------------
def _gather(prim, params, indices, axis, *, out):
    params, indices = _dev(params), _dev(indices)
    axis %= params.ndim
    b = prim.batch_dims + indices.ndim if prim.batch_dims < 0 else prim.batch_dims
    _check_bounds(prim.name, indices, params.shape[axis], axis)
    indices = _wrapped(indices, params.shape[axis])
    if b == 0:
        return cupy.take(params, indices, axis=axis)
    batch, pre, post = params.shape[:b], params.shape[b:axis], params.shape[axis + 1:]
    nb = int(numpy.prod(batch, dtype=numpy.int64))
    p = cupy.moveaxis(params, axis, b).reshape((nb, params.shape[axis]) + pre + post)
    ind = indices.reshape(nb, -1)
    g = p[cupy.arange(nb)[:, None], ind].reshape(batch + indices.shape[b:] + pre + post)
    ni, npre = indices.ndim - b, len(pre)
    perm = tuple(range(b)) + tuple(range(b + ni, b + ni + npre)) + tuple(range(b, b + ni)) + \
        tuple(range(b + ni + npre, g.ndim))
    return cupy.asarray(cupy.transpose(g, perm), order="C")


def _gather_d(prim, x, dim, index, *, out):
    x, index = _dev(x), _dev(index)
    dim %= x.ndim
    _check_bounds(prim.name, index, x.shape[dim], dim)
    window = tuple(slice(None) if d == dim else slice(0, s) for d, s in enumerate(index.shape))
    return cupy.asarray(cupy.take_along_axis(x[window], _wrapped(index, x.shape[dim]), axis=dim), order="C")


def _gather_nd(prim, x, indices, *, out):
    x, indices = _dev(x), _dev(indices)
    _check_nd(prim.name, indices, x.shape)
    if indices.shape[-1] == 0:
        return cupy.broadcast_to(x, indices.shape[:-1] + x.shape).copy()
    return cupy.asarray(x[_coords(indices, x.shape)], order="C")


# --- scatters ---------------------------------------------------------------------------------
def _elementwise_coords(indices, axis, n):
    coords = []
    for d, size in enumerate(indices.shape):
        if d == axis:
            coords.append(_wrapped(indices, n))
        else:
            shape = [1] * indices.ndim
            shape[d] = size
            coords.append(cupy.arange(size).reshape(shape))
    return tuple(coords)


def _tensor_scatter_elements(prim, x, indices, updates, *, out):
    x, indices, updates = _dev(x), _dev(indices), _dev(updates)
    axis = prim.axis % x.ndim
    _check_bounds(prim.name, indices, x.shape[axis], axis)
    r = x.copy()
    coords = _elementwise_coords(indices, axis, x.shape[axis])
    if prim.reduction == "add":
        scatter_add(r, coords, cupy.broadcast_to(updates, indices.shape))
    else:
        r[coords] = updates
    return r


def _scatter_add_nd(target, indices, updates):
    """``target[indices[i]] += updates[i]`` in place, summing repeated indices."""
    k = indices.shape[-1]
    if k == 0:
        if updates.size:
            target += updates.reshape((-1,) + target.shape).sum(axis=0).astype(target.dtype, copy=False)
        return target
    if indices.size == 0:
        return target
    scatter_add(target, _coords(indices, target.shape), updates)
    return target


def _scatter_nd(prim, indices, updates, shape, *, out):
    indices, updates = _dev(indices), _dev(updates)
    shape = tuple(shape)
    _check_nd(prim.name, indices, shape)
    return _scatter_add_nd(cupy.zeros(shape, dtype=updates.dtype), indices, updates)


def _write_nd(target, indices, updates):
    if indices.shape[-1] == 0:
        if updates.size:
            target[...] = updates.reshape((-1,) + target.shape)[-1]
        return target
    target[_coords(indices, target.shape)] = updates
    return target


def _tensor_scatter_update(prim, x, indices, updates, *, out):
    x, indices, updates = _dev(x), _dev(indices), _dev(updates)
    _check_nd(prim.name, indices, x.shape)
    return _write_nd(x.copy(), indices, updates)


def _tensor_scatter_add(prim, x, indices, updates, *, out):
    x, indices, updates = _dev(x), _dev(indices), _dev(updates)
    _check_nd(prim.name, indices, x.shape)
    return _scatter_add_nd(x.copy(), indices, updates)


def _scatter_nd_update(prim, x, indices, updates, *, out):
    indices, updates = _dev(indices), _dev(updates)
    _check_nd(prim.name, indices, x.shape)
    if isinstance(x, cupy.ndarray):
        return _write_nd(x, indices, updates)  # in place: x is the Parameter's own buffer
    written = _write_nd(_dev(x), indices, updates)   # a host buffer (made before the GPU was chosen)
    numpy.copyto(x, cupy.asnumpy(written))
    return x


# --- slicing and padding ------------------------------------------------------------------------
def _strided_slice(prim, x, begin, end, strides, *, out):
    x = _dev(x)
    index, _ = prim.plan(x.shape, begin, end, strides)
    return x[index].copy()


def _strided_slice_grad(prim, dy, shapex, begin, end, strides, *, out):
    dy = _dev(dy)
    index, _ = prim.plan(shapex, begin, end, strides)
    r = cupy.zeros(tuple(shapex), dtype=dy.dtype)
    r[index] = dy
    return r


def _slice(prim, x, begin, size, *, out):
    x = _dev(x)
    size = prim.infer_shape(x.shape, begin, size)
    return x[tuple(slice(b, b + s) for b, s in zip(begin, size))].copy()


_PAD_MODE = {"constant": "constant", "reflect": "reflect", "edge": "edge", "circular": "wrap"}


def _pad_v3(prim, x, paddings, value, *, out):
    x = _dev(x)
    pairs = prim.pad_pairs(paddings, x.ndim)
    crop = tuple(slice(max(-a, 0), s - max(-b, 0)) for s, (a, b) in zip(x.shape, pairs))
    widths = tuple((max(a, 0), max(b, 0)) for a, b in pairs)
    x = x[crop]
    if prim.mode == "constant":
        fill = numpy.asarray(scalar_of(value)).astype(x.dtype).item()
        return cupy.pad(x, widths, mode="constant", constant_values=fill)
    return cupy.pad(x, widths, mode=_PAD_MODE[prim.mode])


# --- selection ----------------------------------------------------------------------------------
def _select(prim, cond, x, y, *, out):
    return fit(cupy.where(_dev(cond), _dev(x), _dev(y)), out)


def _masked_fill(prim, x, mask, value, *, out):
    x = _dev(x)
    v = _dev(value).astype(x.dtype) if is_array(value) else numpy.asarray(value).astype(x.dtype)[()]
    return cupy.where(_dev(mask), v, x)


def _masked_select(prim, x, mask, *, out):
    xb, mb = cupy.broadcast_arrays(_dev(x), _dev(mask))
    return xb[mb]


def _non_zero(prim, x, *, out):
    return fit(cupy.argwhere(_dev(x)), out)


def _one_hot(prim, indices, depth, on_value, off_value, *, out):
    indices = _dev(indices)
    depth = int(scalar_of(depth))
    hot = indices[..., None] == cupy.arange(depth)
    on = _dev(on_value) if is_array(on_value) else on_value
    off = _dev(off_value) if is_array(off_value) else off_value
    r = fit(cupy.where(hot, on, off), out)
    if prim.axis != -1:
        r = cupy.moveaxis(r, -1, prim.axis)
    return cupy.asarray(r, order="C")


# --- sorting ------------------------------------------------------------------------------------
def _argsort(x, axis, descending):
    """Stable argsort; descending keeps equal elements in their original order. bfloat16 sorts as float32 (CuPy
    cannot sort it; the order is the same)."""
    x = sortable(x)
    if not descending:
        return cupy.argsort(x, axis=axis)
    idx = cupy.flip(cupy.argsort(cupy.flip(x, axis), axis=axis), axis)
    return x.shape[axis] - 1 - idx


def _sort(prim, x, *, out):
    x = _dev(x)
    axis = prim.axis % x.ndim
    idx = _argsort(x, axis, prim.descending)
    return fit((cupy.take_along_axis(x, idx, axis), idx), out)


def _top_k(prim, x, k, *, out):
    x = _dev(x)
    idx = _argsort(x, -1, True)[..., :int(scalar_of(k))]
    return fit((cupy.take_along_axis(x, idx, -1), idx), out)


@fits_out
def _unique(prim, x, *, out=None):
    x = _dev(x)
    # distinct values in order of first occurrence, as the CPU backend and MindSpore 2.10's CPU kernel
    y, first, idx = cupy.unique(sortable(x).reshape(-1), return_index=True, return_inverse=True)
    y = y.astype(x.dtype, copy=False)     # bfloat16 was found in float32 (exact), its values are bfloat16's
    order = cupy.argsort(first)
    rank = cupy.empty_like(order)
    rank[order] = cupy.arange(order.size, dtype=order.dtype)
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
