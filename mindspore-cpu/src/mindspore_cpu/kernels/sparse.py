"""CPU kernels of ``mindspore/ops/_defs/sparse.py`` in NumPy.

Products accumulate with ``np.add.at`` (repeated indices sum); index checks come first and raise MindSpore's
``ValueError``s. ``Coalesce`` and ``SparseSlice`` size their results here (their shapes are inferred as -1).
"""
import numpy as np

from mindspore.plugin import MSRuntimeError, MSValueError

from mindspore_cpu.kernels.indexing import KERNELS as _INDEXING


def _check_box(op, indices, shape):
    """Every row of ``indices`` (N, R) inside ``shape``: the first offender in MindSpore's words."""
    bad = (indices < 0) | (indices >= np.asarray(shape, np.int64)[None, :])
    if bad.any():
        i, d = map(int, np.argwhere(bad)[0])
        raise MSValueError(f"For '{op}', the {i}th value in {d}th dimension index: {int(indices[i, d])} of "
                           f"'output' out of bounds: [0, {shape[d]})")


def _sparse_to_dense(prim, indices, values, sparse_shape, out=None):
    indices = np.asarray(indices).astype(np.int64).reshape(-1, len(sparse_shape))
    _check_box(prim.name, indices, sparse_shape)
    dense = np.zeros(tuple(sparse_shape), dtype=values.dtype)
    dense[tuple(indices.T)] = values            # an index given twice keeps its last value
    return dense


def _sparse_tensor_dense_matmul(prim, indices, values, sparse_shape, dense, out=None):
    idx = np.asarray(indices).astype(np.int64).reshape(-1, 2)
    rows, cols = idx[:, 0], idx[:, 1]
    m, k = sparse_shape
    bad = (rows < 0) | (rows >= m) | (cols < 0) | (cols >= k)
    if bad.any():
        i = int(np.argmax(bad))
        raise MSValueError(f"For '{prim.name}', the indices including out of bounds index, row range: [0, {m}), col "
                           f"range: [0, {k}), but got row: {int(rows[i])}, col: {int(cols[i])}")
    if prim.adjoint_st:
        rows, cols, values, m = cols, rows, np.conj(values), k
    b = np.conj(dense.T) if prim.adjoint_dt else dense
    res = np.zeros((m, b.shape[1]), dtype=np.result_type(values, b))
    np.add.at(res, rows, values[:, None] * b[cols])
    return res.astype(out.dtype.to_numpy() if out is not None else values.dtype)


def _sparse_tensor_dense_add(prim, x1_indices, x1_values, x1_shape, x2, out=None):
    shape = tuple(int(s) for s in np.asarray(x1_shape))
    for d, (a, b) in enumerate(zip(shape, x2.shape)):
        if a != b:
            raise MSRuntimeError(f"For '{prim.name}', Dimension [{d}] does not equal(no broadcasting is supported): "
                                 f"x1_shape side {a} vs x2_shape side {b}.")
    idx = np.asarray(x1_indices).astype(np.int64).reshape(-1, len(shape))
    bad = (idx < 0) | (idx >= np.asarray(shape, np.int64)[None, :])
    if bad.any():
        i, d = map(int, np.argwhere(bad)[0])
        raise MSValueError(f"For '{prim.name}', the input x1_indices is out of bounds! x1_indices is: {int(idx[i, d])} "
                           f", bounds is : [0, {shape[d]})")
    res = np.array(x2, copy=True)
    np.add.at(res, tuple(idx.T), x1_values)
    return res


def _sparse_slice(prim, indices, values, shape, start, size, out=None):
    shape, start, size = (np.asarray(a).astype(np.int64).reshape(-1) for a in (shape, start, size))
    if (start < 0).any() or (size < 0).any():
        raise MSValueError(f"For '{prim.name}', the 'start' and 'size' must be non-negative, but got {start.tolist()} "
                           f"and {size.tolist()}.")
    lo, hi = start, np.minimum(start + size, shape)
    keep = np.all((indices >= lo) & (indices < hi), axis=1)
    y_shape = np.maximum(hi - lo, 0)
    return (np.ascontiguousarray(indices[keep] - lo).astype(np.int64), np.ascontiguousarray(values[keep]),
            y_shape.astype(np.int64))


def _coalesce(prim, x_indices, x_values, x_shape, out=None):
    idx, shape = np.asarray(x_indices).astype(np.int64), np.asarray(x_shape).astype(np.int64).reshape(-1)
    neg = np.argwhere(idx < 0)
    if neg.size:
        i, j = map(int, neg[0])
        raise MSValueError(f"For Coalesce, values of elements of x_indices must be non-negative, but got "
                           f"x_indices[{i}][{j}] = {int(idx[i, j])}")
    over = np.argwhere(idx >= shape[:, None])
    if over.size:
        i, j = map(int, over[0])
        raise MSValueError(f"For Coalesce, values of elements of x_indices can not exceed the limit set by x_shape, "
                           f"but got x_indices[{i}][{j}] = {int(idx[i, j])}, got x_shape[{i}] = {int(shape[i])}")
    uniq, inverse = np.unique(idx.T, axis=0, return_inverse=True)      # rows sorted lexicographically
    vals = np.zeros(uniq.shape[0], dtype=np.float64 if x_values.dtype == np.float16 else x_values.dtype)
    np.add.at(vals, inverse.reshape(-1), x_values)
    return np.ascontiguousarray(uniq.T.reshape(idx.shape[0], -1)), vals.astype(x_values.dtype), shape.copy()


def _sparse_segment_mean(prim, x, indices, segment_ids, out=None):
    idx, seg = np.asarray(indices).astype(np.int64), np.asarray(segment_ids).astype(np.int64)
    bad = (idx < 0) | (idx >= x.shape[0])
    if bad.any():
        i = int(np.argmax(bad))
        raise MSRuntimeError(f"For '{prim.name}', the {i}-th 'indices'[{int(idx[i])}] is out of range"
                             f"[0, {x.shape[0]}).")
    if (seg < 0).any():
        raise MSRuntimeError(f"For '{prim.name}', the 'segment_ids' must be non-negative, but got {seg.tolist()}.")
    if (np.diff(seg) < 0).any():
        raise MSRuntimeError(f"For '{prim.name}', the input 'segment_ids' must be sorted.")
    num = int(seg[-1]) + 1 if seg.size else 0
    acc = np.zeros((num,) + x.shape[1:], dtype=np.float64)
    np.add.at(acc, seg, x[idx].astype(np.float64))
    counts = np.maximum(np.bincount(seg, minlength=num), 1).reshape((num,) + (1,) * (x.ndim - 1))
    return (acc / counts).astype(x.dtype)


def _sparse_gather_v2(prim, params, indices, axis, out=None):
    return _INDEXING["Gather"](prim, params, indices, axis, out=out)


KERNELS = {
    "SparseToDense": _sparse_to_dense, "SparseTensorDenseMatmul": _sparse_tensor_dense_matmul,
    "SparseTensorDenseAdd": _sparse_tensor_dense_add, "SparseSlice": _sparse_slice,
    "SparseGatherV2": _sparse_gather_v2, "Coalesce": _coalesce, "SparseSegmentMean": _sparse_segment_mean,
}
