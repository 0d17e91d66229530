"""GPU kernels of ``mindspore/ops/_defs/sparse.py`` on CuPy.

The index arrays of a sparse operand are small next to its values and are needed on the host anyway (to check
them and raise MindSpore's errors, and to size ``Coalesce``/``SparseSlice`` results): they are read back once,
the index arithmetic happens there, and the values are moved, multiplied and summed on the device
(``scatter_add``: CUDA's atomic add, repeated indices summed).
"""
import cupy
import numpy

from mindspore.plugin import MSRuntimeError, MSValueError

from mindspore_gpu.kernels._common import dev, scatter_add
from mindspore_gpu.kernels.indexing import KERNELS as _INDEXING


def _host(a):
    return numpy.asarray(cupy.asnumpy(a) if isinstance(a, cupy.ndarray) else a)


def _check_box(op, indices, shape):
    bad = (indices < 0) | (indices >= numpy.asarray(shape, numpy.int64)[None, :])
    if bad.any():
        i, d = map(int, numpy.argwhere(bad)[0])
        raise MSValueError(f"For '{op}', the {i}th value in {d}th dimension index: {int(indices[i, d])} of "
                           f"'output' out of bounds: [0, {shape[d]})")


def _sparse_to_dense(prim, indices, values, sparse_shape, out=None):
    idx = _host(indices).astype(numpy.int64).reshape(-1, len(sparse_shape))
    _check_box(prim.name, idx, sparse_shape)
    values = dev(values)
    dense = cupy.zeros(tuple(sparse_shape), dtype=values.dtype)
    if idx.shape[0]:
        lin = numpy.ravel_multi_index(tuple(idx.T), tuple(sparse_shape))
        _, last = numpy.unique(lin[::-1], return_index=True)      # the last of repeated indices wins, as on CPU
        keep = numpy.zeros(idx.shape[0], bool)
        keep[idx.shape[0] - 1 - last] = True
        dense[tuple(idx[keep].T)] = values[cupy.asarray(numpy.nonzero(keep)[0])]
    return dense


def _sparse_tensor_dense_matmul(prim, indices, values, sparse_shape, dense, out=None):
    idx = _host(indices).astype(numpy.int64).reshape(-1, 2)
    rows, cols = idx[:, 0], idx[:, 1]
    m, k = sparse_shape
    bad = (rows < 0) | (rows >= m) | (cols < 0) | (cols >= k)
    if bad.any():
        i = int(numpy.argmax(bad))
        raise MSValueError(f"For '{prim.name}', the indices including out of bounds index, row range: [0, {m}), col "
                           f"range: [0, {k}), but got row: {int(rows[i])}, col: {int(cols[i])}")
    values, dense = dev(values), dev(dense)
    if prim.adjoint_st:
        rows, cols, values, m = cols, rows, cupy.conj(values), k
    b = cupy.conj(dense.T) if prim.adjoint_dt else dense
    res = cupy.zeros((m, b.shape[1]), dtype=values.dtype)
    if rows.size:
        scatter_add(res, cupy.asarray(rows), values[:, None] * b[cupy.asarray(cols)])
    return res


def _sparse_tensor_dense_add(prim, x1_indices, x1_values, x1_shape, x2, out=None):
    shape = tuple(int(s) for s in _host(x1_shape).reshape(-1))
    for d, (a, b) in enumerate(zip(shape, x2.shape)):
        if a != b:
            raise MSRuntimeError(f"For '{prim.name}', Dimension [{d}] does not equal(no broadcasting is supported): "
                                 f"x1_shape side {a} vs x2_shape side {b}.")
    idx = _host(x1_indices).astype(numpy.int64).reshape(-1, len(shape))
    bad = (idx < 0) | (idx >= numpy.asarray(shape, numpy.int64)[None, :])
    if bad.any():
        i, d = map(int, numpy.argwhere(bad)[0])
        raise MSValueError(f"For '{prim.name}', the input x1_indices is out of bounds! x1_indices is: {int(idx[i, d])} "
                           f", bounds is : [0, {shape[d]})")
    res = dev(x2).copy()
    if idx.shape[0]:
        lin = cupy.asarray(numpy.ravel_multi_index(tuple(idx.T), shape))
        flat = res.reshape(-1)
        scatter_add(flat, lin, dev(x1_values))
        res = flat.reshape(shape)
    return res


def _sparse_slice(prim, indices, values, shape, start, size, out=None):
    idx = _host(indices).astype(numpy.int64)
    shape, start, size = (_host(a).astype(numpy.int64).reshape(-1) for a in (shape, start, size))
    if (start < 0).any() or (size < 0).any():
        raise MSValueError(f"For '{prim.name}', the 'start' and 'size' must be non-negative, but got {start.tolist()} "
                           f"and {size.tolist()}.")
    lo, hi = start, numpy.minimum(start + size, shape)
    keep = numpy.nonzero(numpy.all((idx >= lo) & (idx < hi), axis=1))[0]
    y_idx = numpy.ascontiguousarray(idx[keep] - lo).reshape(-1, idx.shape[1])
    return (cupy.asarray(y_idx), dev(values)[cupy.asarray(keep)], cupy.asarray(numpy.maximum(hi - lo, 0)))


def _coalesce(prim, x_indices, x_values, x_shape, out=None):
    idx, shape = _host(x_indices).astype(numpy.int64), _host(x_shape).astype(numpy.int64).reshape(-1)
    neg = numpy.argwhere(idx < 0)
    if neg.size:
        i, j = map(int, neg[0])
        raise MSValueError(f"For Coalesce, values of elements of x_indices must be non-negative, but got "
                           f"x_indices[{i}][{j}] = {int(idx[i, j])}")
    over = numpy.argwhere(idx >= shape[:, None])
    if over.size:
        i, j = map(int, over[0])
        raise MSValueError(f"For Coalesce, values of elements of x_indices can not exceed the limit set by x_shape, "
                           f"but got x_indices[{i}][{j}] = {int(idx[i, j])}, got x_shape[{i}] = {int(shape[i])}")
    uniq, inverse = numpy.unique(idx.T, axis=0, return_inverse=True)
    values = dev(x_values)
    acc = cupy.zeros(uniq.shape[0], dtype=values.dtype)
    if inverse.size:
        scatter_add(acc, cupy.asarray(inverse.reshape(-1)), values)
    return cupy.asarray(numpy.ascontiguousarray(uniq.T.reshape(idx.shape[0], -1))), acc, cupy.asarray(shape)


def _sparse_segment_mean(prim, x, indices, segment_ids, out=None):
    idx, seg = _host(indices).astype(numpy.int64), _host(segment_ids).astype(numpy.int64)
    x = dev(x)
    bad = (idx < 0) | (idx >= x.shape[0])
    if bad.any():
        i = int(numpy.argmax(bad))
        raise MSRuntimeError(f"For '{prim.name}', the {i}-th 'indices'[{int(idx[i])}] is out of range"
                             f"[0, {x.shape[0]}).")
    if (seg < 0).any():
        raise MSRuntimeError(f"For '{prim.name}', the 'segment_ids' must be non-negative, but got {seg.tolist()}.")
    if (numpy.diff(seg) < 0).any():
        raise MSRuntimeError(f"For '{prim.name}', the input 'segment_ids' must be sorted.")
    num = int(seg[-1]) + 1 if seg.size else 0
    wide = numpy.float64 if x.dtype == numpy.float64 else numpy.float32
    acc = cupy.zeros((num,) + x.shape[1:], dtype=wide)
    if seg.size:
        scatter_add(acc, cupy.asarray(seg), x[cupy.asarray(idx)].astype(wide))
    counts = numpy.maximum(numpy.bincount(seg, minlength=num), 1).astype(wide)
    return (acc / cupy.asarray(counts).reshape((num,) + (1,) * (x.ndim - 1))).astype(x.dtype)


def _sparse_gather_v2(prim, params, indices, axis, out=None):
    return _INDEXING["Gather"](prim, params, indices, axis, out=out)


KERNELS = {
    "SparseToDense": _sparse_to_dense, "SparseTensorDenseMatmul": _sparse_tensor_dense_matmul,
    "SparseTensorDenseAdd": _sparse_tensor_dense_add, "SparseSlice": _sparse_slice,
    "SparseGatherV2": _sparse_gather_v2, "Coalesce": _coalesce, "SparseSegmentMean": _sparse_segment_mean,
}
