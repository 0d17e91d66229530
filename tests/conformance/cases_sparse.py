"""Conformance cases of the sparse family (``ops/_defs/sparse.py``): sparse operands given by parts, NumPy oracles
on the dense equivalents, gradients w.r.t. the values and the dense operands. Values, result layouts and
duplicate handling were checked against MindSpore 2.10 (CPU): ``tests/fixtures/ops/sparse_ops_2.10.json``.
"""
from __future__ import annotations

import numpy as np

import mindspore as ms
from mindspore import ops

from case import Case, rand

_IDX = np.array([[0, 1], [1, 2], [0, 3], [2, 0], [1, 2]], np.int64)     # (1, 2) twice
_IDX_UNIQUE = _IDX[:4]
_SHAPE = (3, 4)


def _dense(idx, vals, shape, accumulate=True):
    out = np.zeros(shape, vals.dtype)
    for i, v in zip(idx, vals):
        if accumulate:
            out[tuple(i)] += v
        else:
            out[tuple(i)] = v
    return out


def _stdm(adjoint_st, adjoint_dt, shape):
    def oracle(idx, vals, dense):
        a = _dense(idx, vals, shape)
        a = a.T if adjoint_st else a
        b = dense.T if adjoint_dt else dense
        return a @ b
    return oracle


def _slice(idx, vals, shape, start, size):
    hi = np.minimum(start + size, shape)
    keep = np.all((idx >= start) & (idx < hi), axis=1)
    return idx[keep] - start, vals[keep], np.maximum(hi - start, 0)


def _coalesce(idx, vals, shape):
    cols = {}
    for j in range(idx.shape[1]):
        key = tuple(idx[:, j])
        cols[key] = cols.get(key, 0) + vals[j]
    keys = sorted(cols)
    return np.array(keys, np.int64).T.reshape(idx.shape[0], -1), np.array([cols[k] for k in keys], vals.dtype), shape


def _segment_mean(x, indices, seg):
    n = seg[-1] + 1
    out = np.zeros((n,) + x.shape[1:], x.dtype)
    for s in range(n):
        rows = x[indices[seg == s]]
        if len(rows):
            out[s] = rows.mean(axis=0)
    return out


_SLICE_IDX = np.array([[0, 1], [1, 2], [1, 3], [2, 2], [2, 3]], np.int64)
_COALESCE_IDX = np.array([[2, 0, 0, 1, 2], [0, 1, 1, 2, 0]], np.int64)

CASES = [
    Case("sparse_to_dense", lambda i, v: ops.SparseToDense()(i, v, _SHAPE), [_IDX_UNIQUE, rand(4)],
         oracle=lambda i, v: _dense(i, v, _SHAPE), prims=["SparseToDense"], grad=True,
         dtypes=(np.float32, np.float64, np.float16)),
    Case("sparse_to_dense_int32_last_wins", lambda i, v: ops.SparseToDense()(i, v, _SHAPE),
         [_IDX.astype(np.int32), np.array([1, 2, 3, 4, 5], np.int32)],
         oracle=lambda i, v: _dense(i, v, _SHAPE, accumulate=False), prims=["SparseToDense"], out_dtype=ms.int32),
    Case("sparse_tensor_dense_matmul", lambda i, v, d: ops.SparseTensorDenseMatmul()(i, v, _SHAPE, d),
         [_IDX, rand(5), rand(4, 2, seed=1)], oracle=_stdm(False, False, _SHAPE), prims=["SparseTensorDenseMatmul"],
         grad=True, dtypes=(np.float32, np.float64)),
    Case("sparse_tensor_dense_matmul_adjoint_st", lambda i, v, d: ops.SparseTensorDenseMatmul(True, False)(
        i, v, (4, 3), d), [_IDX[:, ::-1].copy(), rand(5), rand(4, 3, seed=2)], oracle=_stdm(True, False, (4, 3)),
        prims=["SparseTensorDenseMatmul"], grad=True),
    Case("sparse_tensor_dense_matmul_adjoint_both", lambda i, v, d: ops.SparseTensorDenseMatmul(True, True)(
        i, v, (4, 3), d), [_IDX[:, ::-1].astype(np.int32), rand(5), rand(2, 4, seed=3)],
        oracle=_stdm(True, True, (4, 3)), prims=["SparseTensorDenseMatmul"], grad=True),
    Case("sparse_tensor_dense_matmul_int", lambda i, v, d: ops.SparseTensorDenseMatmul(False, True)(i, v, _SHAPE, d),
         [_IDX, np.array([1, 2, 3, 4, 5], np.int32), np.arange(12, dtype=np.int32).reshape(3, 4)],
         oracle=_stdm(False, True, _SHAPE), prims=["SparseTensorDenseMatmul"], out_dtype=ms.int32),
    Case("sparse_tensor_dense_add", lambda i, v, s, d: ops.SparseTensorDenseAdd()(i, v, s, d),
         [_IDX, rand(5), np.array(_SHAPE, np.int64), rand(3, 4, seed=4)],
         oracle=lambda i, v, s, d: d + _dense(i, v, _SHAPE), prims=["SparseTensorDenseAdd"], grad=True),
    Case("sparse_slice", lambda i, v, sh, st, sz: ops.SparseSlice()(i, v, sh, st, sz),
         [_SLICE_IDX, rand(5), np.array([3, 4], np.int64), np.array([1, 2], np.int64), np.array([5, 5], np.int64)],
         oracle=_slice, prims=["SparseSlice"]),
    # graph-mode autodiff cannot build the zero cotangents of the unused outputs, whose size is known only at
    # run time: the gradient is checked eagerly
    Case("sparse_slice_grad", lambda i, v, sh, st, sz: ops.SparseSlice()(i, v, sh, st, sz)[1],
         [_SLICE_IDX, rand(5), np.array([3, 4], np.int64), np.array([0, 1], np.int64), np.array([2, 3], np.int64)],
         oracle=lambda *a: _slice(*a)[1], prims=["SparseSlice"], grad=True, modes=("pynative",)),
    Case("sparse_gather_v2", lambda p, i: ops.SparseGatherV2()(p, i, 0), [rand(5, 3), np.array([4, 0, 4], np.int32)],
         oracle=lambda p, i: p[i], prims=["SparseGatherV2"], grad=True),
    Case("sparse_gather_v2_axis1", lambda p, i: ops.SparseGatherV2()(p, i, 1),
         [rand(2, 5), np.array([[1, 3], [0, 0]], np.int64)], oracle=lambda p, i: p[:, i], prims=["SparseGatherV2"],
         grad=True),
    Case("coalesce", lambda i, v, s: ops.Coalesce()(i, v, s), [_COALESCE_IDX, rand(5), np.array([3, 3], np.int64)],
         oracle=_coalesce, prims=["Coalesce"], dtypes=(np.float32, np.float64, np.float16)),
    Case("coalesce_grad", lambda i, v, s: ops.Coalesce()(i, v, s)[1], [_COALESCE_IDX, rand(5), np.array([3, 3])],
         oracle=lambda *a: _coalesce(*a)[1], prims=["Coalesce"], grad=True, modes=("pynative",)),   # as sparse_slice
    Case("sparse_segment_mean", lambda x, i, s: ops.sparse_segment_mean(x, i, s),
         [rand(5, 3), np.array([0, 2, 4, 1], np.int32), np.array([0, 0, 2, 2], np.int32)], oracle=_segment_mean,
         prims=["SparseSegmentMean"], grad=True, dtypes=(np.float32, np.float64)),
]
