"""The kernels of ``mindspore/ops/_defs/sparse.py`` (``SparseToDense``, ``SparseTensorDenseMatmul``,
``SparseTensorDenseAdd``, ``SparseSlice``, ``SparseGatherV2``, ``Coalesce``, ``SparseSegmentMean``), bound
(:func:`mindspore_array_kernels.bind`) with:

* ``xp``, the array library, and three movers: ``dev`` (an operand as an ``xp`` array), ``host`` (an array as
  NumPy: a sparse operand's indices, its shape, the segment ids) and ``back`` (a NumPy array as an ``xp`` array);
* ``add_at(target, index, values)``, an unbuffered add in place (NumPy's ``add.at``; on a GPU atomics): repeated
  indices sum;
* ``indexing``, the backend's ``indexing`` kernels (``SparseGatherV2`` is its ``Gather``).

The index arrays of a sparse operand are small next to its values and are needed on the host anyway (to check them
and raise MindSpore's errors first, and to size the ``Coalesce``/``SparseSlice`` results, whose shapes are inferred
as -1): they are read once, the index arithmetic happens there in NumPy, and the values are moved, multiplied and
summed with ``xp``. ``Coalesce`` sums float16 in float64 and ``SparseSegmentMean`` every dtype in float64, each
rounded once to the input dtype.
"""
import numpy as np

from mindspore.plugin import MSRuntimeError, MSValueError

BOUND = ("xp", "dev", "host", "back", "add_at", "indexing")


def _check_box(op, indices, shape):
    """Every row of ``indices`` (N, R) inside ``shape``: the first offender in MindSpore's words."""
    bad = (indices < 0) | (indices >= np.asarray(shape, np.int64)[None, :])
    if bad.any():
        i, d = map(int, np.argwhere(bad)[0])
        raise MSValueError(f"For '{op}', the {i}th value in {d}th dimension index: {int(indices[i, d])} of "
                           f"'output' out of bounds: [0, {shape[d]})")


def _sparse_to_dense(prim, indices, values, sparse_shape, out=None):
    idx = host(indices).astype(np.int64).reshape(-1, len(sparse_shape))
    _check_box(prim.name, idx, sparse_shape)
    values = dev(values)
    dense = xp.zeros(tuple(sparse_shape), dtype=values.dtype)
    if idx.shape[0]:
        # An index given twice keeps its last value: only the last occurrence of each is written (the order of a
        # scattered write with repeats is NumPy's, not every library's).
        lin = np.ravel_multi_index(tuple(idx.T), tuple(sparse_shape))
        _, last = np.unique(lin[::-1], return_index=True)
        keep = np.zeros(idx.shape[0], bool)
        keep[idx.shape[0] - 1 - last] = True
        dense[tuple(idx[keep].T)] = values[back(np.nonzero(keep)[0])]
    return dense


def _sparse_tensor_dense_matmul(prim, indices, values, sparse_shape, dense, out=None):
    idx = host(indices).astype(np.int64).reshape(-1, 2)
    rows, cols = idx[:, 0], idx[:, 1]
    m, k = sparse_shape
    bad = (rows < 0) | (rows >= m) | (cols < 0) | (cols >= k)
    if bad.any():
        i = int(np.argmax(bad))
        raise MSValueError(f"For '{prim.name}', the indices including out of bounds index, row range: [0, {m}), col "
                           f"range: [0, {k}), but got row: {int(rows[i])}, col: {int(cols[i])}")
    values, dense = dev(values), dev(dense)
    if prim.adjoint_st:
        rows, cols, values, m = cols, rows, xp.conj(values), k
    b = xp.conj(dense.T) if prim.adjoint_dt else dense
    res = xp.zeros((m, b.shape[1]), dtype=np.result_type(values.dtype, b.dtype))
    if rows.size:
        add_at(res, back(rows), values[:, None] * b[back(cols)])
    dt = np.dtype(out.dtype.to_numpy()) if out is not None else values.dtype
    return res if res.dtype == dt else res.astype(dt)


def _sparse_tensor_dense_add(prim, x1_indices, x1_values, x1_shape, x2, out=None):
    shape = tuple(int(s) for s in host(x1_shape).reshape(-1))
    for d, (a, b) in enumerate(zip(shape, x2.shape)):
        if a != b:
            raise MSRuntimeError(f"For '{prim.name}', Dimension [{d}] does not equal(no broadcasting is supported): "
                                 f"x1_shape side {a} vs x2_shape side {b}.")
    idx = host(x1_indices).astype(np.int64).reshape(-1, len(shape))
    bad = (idx < 0) | (idx >= np.asarray(shape, np.int64)[None, :])
    if bad.any():
        i, d = map(int, np.argwhere(bad)[0])
        raise MSValueError(f"For '{prim.name}', the input x1_indices is out of bounds! x1_indices is: {int(idx[i, d])} "
                           f", bounds is : [0, {shape[d]})")
    res = dev(x2).copy()
    if idx.shape[0]:
        flat = res.reshape(-1)
        add_at(flat, back(np.ravel_multi_index(tuple(idx.T), shape)), dev(x1_values))
        res = flat.reshape(shape)
    return res


def _sparse_slice(prim, indices, values, shape, start, size, out=None):
    idx = host(indices).astype(np.int64)
    shape, start, size = (host(a).astype(np.int64).reshape(-1) for a in (shape, start, size))
    if (start < 0).any() or (size < 0).any():
        raise MSValueError(f"For '{prim.name}', the 'start' and 'size' must be non-negative, but got {start.tolist()} "
                           f"and {size.tolist()}.")
    lo, hi = start, np.minimum(start + size, shape)
    keep = np.nonzero(np.all((idx >= lo) & (idx < hi), axis=1))[0]
    y_idx = np.ascontiguousarray(idx[keep] - lo).reshape(-1, idx.shape[1])
    return back(y_idx), dev(values)[back(keep)], back(np.maximum(hi - lo, 0))


def _coalesce(prim, x_indices, x_values, x_shape, out=None):
    idx, shape = host(x_indices).astype(np.int64), host(x_shape).astype(np.int64).reshape(-1)
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
    values = dev(x_values)
    acc = xp.zeros(uniq.shape[0], dtype=np.float64 if values.dtype == np.float16 else values.dtype)
    if inverse.size:
        add_at(acc, back(inverse.reshape(-1)), values)
    vals = acc if acc.dtype == values.dtype else acc.astype(values.dtype)
    return back(np.ascontiguousarray(uniq.T.reshape(idx.shape[0], -1))), vals, back(shape)


def _sparse_segment_mean(prim, x, indices, segment_ids, out=None):
    idx, seg = host(indices).astype(np.int64), host(segment_ids).astype(np.int64)
    x = dev(x)
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
    acc = xp.zeros((num,) + x.shape[1:], dtype=np.float64)
    if seg.size:
        add_at(acc, back(seg), x[back(idx)].astype(np.float64))
    counts = np.maximum(np.bincount(seg, minlength=num), 1).reshape((num,) + (1,) * (x.ndim - 1))
    return (acc / back(counts)).astype(x.dtype)


def _sparse_gather_v2(prim, params, indices, axis, out=None):
    return indexing["Gather"](prim, params, indices, axis, out=out)


KERNELS = {
    "SparseToDense": _sparse_to_dense, "SparseTensorDenseMatmul": _sparse_tensor_dense_matmul,
    "SparseTensorDenseAdd": _sparse_tensor_dense_add, "SparseSlice": _sparse_slice,
    "SparseGatherV2": _sparse_gather_v2, "Coalesce": _coalesce, "SparseSegmentMean": _sparse_segment_mean,
}
