"""Conformance cases of ``ops.function.segment_func`` (segment reductions, scatters by reduction, ``*_scatter``,
band/diagonal helpers, ``population_count``). Oracles are NumPy; edge semantics (empty segments give the
dtype's lowest/highest value, ``bucketize`` gives Int32, ``population_count`` UInt8) were checked against
MindSpore 2.10 (CPU).
"""
from __future__ import annotations

import itertools

import numpy as np

import mindspore as ms
from mindspore import ops

from case import Case, rand, randint


def _segment(x, ids, n, reduce, empty):
    out = np.full((n,) + x.shape[ids.ndim:], empty, dtype=x.dtype)
    flat = x.reshape((-1,) + x.shape[ids.ndim:])
    for s in range(n):
        sel = flat[ids.reshape(-1) == s]
        if len(sel):
            out[s] = reduce(sel, axis=0)
    return out


def _scatter(x, idx, upd, fn):
    out = x.copy()
    k = idx.shape[-1]
    for i, u in zip(idx.reshape(-1, k), upd.reshape((-1,) + x.shape[k:])):
        out[tuple(i)] = fn(out[tuple(i)], u)
    return out


_F32 = np.finfo(np.float32)
_I32 = np.iinfo(np.int32)
_IDS = np.array([0, 2, 0, 3, 2], np.int32)
_IDX = np.array([[0, 1], [2, 0], [0, 1]], np.int32)   # a repeated position


def _band(x, lo, hi):
    i, j = np.indices(x.shape[-2:])
    keep = ((lo < 0) | (i - j <= lo)) & ((hi < 0) | (j - i <= hi))
    return np.where(keep, x, 0)


def _revseq(x, lens, seq_dim, batch_dim):
    out = x.copy()
    for b, n in enumerate(lens):
        src = np.take(x, b, batch_dim)
        part = np.take(src, np.r_[np.arange(n)[::-1], np.arange(n, x.shape[seq_dim])],
                       seq_dim - (seq_dim > batch_dim))
        idx = [slice(None)] * x.ndim
        idx[batch_dim] = b
        out[tuple(idx)] = part
    return out


SEGMENTS = [
    Case("unsorted_segment_sum", lambda x, i: ops.unsorted_segment_sum(x, i, 4), [rand(5, 3), _IDS],
         oracle=lambda x, i: _segment(x, i, 4, np.sum, 0), prims=["ReduceSum", "Select", "Equal"], grad=True),
    Case("unsorted_segment_sum_2d_ids_int", lambda x, i: ops.unsorted_segment_sum(x, i, 3),
         [randint(2, 3, 2), np.array([[0, 2, 2], [1, 0, 5]], np.int32)],
         oracle=lambda x, i: _segment(x, i, 3, np.sum, 0), prims=["ReduceSum"], out_dtype=ms.int32),
    Case("unsorted_segment_prod", lambda x, i: ops.unsorted_segment_prod(x, i, 4), [rand(5, 2), _IDS],
         oracle=lambda x, i: _segment(x, i, 4, np.prod, 1), prims=["ReduceProd"], grad=True),
    Case("unsorted_segment_max_empty_segments", lambda x, i: ops.unsorted_segment_max(x, i, 5), [rand(5, 3), _IDS],
         oracle=lambda x, i: _segment(x, i, 5, np.max, _F32.min), prims=["ReduceMax"]),
    Case("unsorted_segment_max", lambda x, i: ops.unsorted_segment_max(x, i, 3),
         [rand(5, 3), np.array([0, 2, 0, 1, 2], np.int32)],
         oracle=lambda x, i: _segment(x, i, 3, np.max, 0), prims=["ReduceMax"], grad=True),
    Case("unsorted_segment_min_int", lambda x, i: ops.unsorted_segment_min(x, i, 4), [randint(5), _IDS],
         oracle=lambda x, i: _segment(x, i, 4, np.min, _I32.max), prims=["ReduceMin"], out_dtype=ms.int32),
    Case("tensor_scatter_sub", ops.tensor_scatter_sub, [rand(3, 2), _IDX, rand(3, seed=1)],
         oracle=lambda x, i, u: _scatter(x, i, u, np.subtract), prims=["TensorScatterAdd"], grad=True,
         grad_inputs=[0, 2]),
    Case("tensor_scatter_mul", ops.tensor_scatter_mul, [rand(3, 2), _IDX, rand(3, seed=1)],
         oracle=lambda x, i, u: _scatter(x, i, u, np.multiply), prims=["ReduceProd", "Mul"], grad=True,
         grad_inputs=[0, 2]),
    Case("tensor_scatter_div_rows", ops.tensor_scatter_div,
         [rand(3, 2), np.array([[1], [1]], np.int32), rand(2, 2, low=0.5, high=2.0, seed=1)],
         oracle=lambda x, i, u: _scatter(x, i, u, np.divide), prims=["ReduceProd", "Div"], grad=True,
         grad_inputs=[0, 2], rtol=1e-5),
    Case("tensor_scatter_max", ops.tensor_scatter_max, [rand(3, 2), _IDX, rand(3, seed=1)],
         oracle=lambda x, i, u: _scatter(x, i, u, np.maximum), prims=["ReduceMax", "Maximum"], grad=True,
         grad_inputs=[0, 2]),
    Case("tensor_scatter_min", ops.tensor_scatter_min, [rand(3, 2), _IDX, rand(3, seed=1)],
         oracle=lambda x, i, u: _scatter(x, i, u, np.minimum), prims=["ReduceMin", "Minimum"]),
]

SELECT = [
    Case("searchsorted", lambda s, v: ops.searchsorted(s, v, right=True),
         [np.array([1.0, 3.0, 5.0, 7.0]), np.array([3.0, 6.0, 0.0, 9.0])],
         oracle=lambda s, v: np.searchsorted(s, v, side="right"), prims=["Less"], out_dtype=ms.int64),
    Case("bucketize", lambda x: (ops.bucketize(x, [2.0, 5.0, 8.0]), ops.bucketize(x, [2.0, 5.0, 8.0], right=True)),
         [np.array([1.0, 5.0, 9.0, 2.0])],
         oracle=lambda x: (np.searchsorted([2.0, 5.0, 8.0], x, "left"), np.searchsorted([2.0, 5.0, 8.0], x, "right")),
         prims=["Less", "LessEqual"], out_dtype=ms.int32),
    Case("sequence_mask", lambda n: ops.sequence_mask(n, 4), [np.array([[1, 3], [0, 4]], np.int32)],
         oracle=lambda n: np.arange(4) < n[..., None], prims=["Less"], out_dtype=ms.bool_),
    Case("matrix_band_part", lambda x: (ops.matrix_band_part(x, 1, 0), ops.matrix_band_part(x, -1, 1)),
         [rand(2, 3, 4)], oracle=lambda x: (_band(x, 1, 0), _band(x, -1, 1)), prims=["Select"], grad=True),
    Case("index_fill", lambda x, i: ops.index_fill(x, 1, i, -1.0), [rand(3, 4), np.array([0, 2], np.int32)],
         oracle=lambda x, i: np.where(np.isin(np.arange(4), i), -1.0, x), prims=["Select"], grad=True,
         grad_inputs=[0]),
    Case("combinations", lambda x: (ops.combinations(x), ops.combinations(x, 3, True)), [rand(4)],
         oracle=lambda x: (np.array(list(itertools.combinations(x, 2))),
                           np.array(list(itertools.combinations_with_replacement(x, 3)))),
         prims=["Gather"], grad=True),
    Case("channel_shuffle", lambda x: ops.channel_shuffle(x, 2), [rand(2, 6, 2, 2)],
         oracle=lambda x: x.reshape(2, 2, 3, 2, 2).swapaxes(1, 2).reshape(2, 6, 2, 2), prims=["Transpose"],
         grad=True),
    Case("diagonal", lambda x: (ops.diagonal(x, 1, 1, 2), ops.diagonal(x, -1, 2, 0)), [rand(2, 3, 4)],
         oracle=lambda x: (np.diagonal(x, 1, 1, 2), np.diagonal(x, -1, 2, 0)), prims=["Gather"], grad=True),
    Case("diagonal_scatter", lambda x, s: ops.diagonal_scatter(x, s, 1), [rand(3, 4), rand(3, seed=1)],
         oracle=lambda x, s: np.where(np.eye(3, 4, 1, dtype=bool), np.pad(np.diag(s), ((0, 0), (1, 0))), x),
         prims=["Gather", "Select"], grad=True),
    Case("select_scatter", lambda x, s: ops.select_scatter(x, s, 1, -1), [rand(2, 3, 2), rand(2, 2, seed=1)],
         oracle=lambda x, s: np.concatenate([x[:, :2], s[:, None]], 1), prims=["Select"], grad=True),
    Case("slice_scatter", lambda x, s: ops.slice_scatter(x, s, 0, 0, 5, 2), [rand(5, 2), rand(3, 2, seed=1)],
         oracle=lambda x, s: np.where((np.arange(5) % 2 == 0)[:, None], np.repeat(s, 2, 0)[:5], x),
         prims=["Select", "Gather"], grad=True),
    Case("reverse_sequence", lambda x, n: ops.reverse_sequence(x, n, 1), [rand(2, 4, 3), np.array([2, 4], np.int32)],
         oracle=lambda x, n: _revseq(x, n, 1, 0), prims=["GatherD"], grad=True, grad_inputs=[0]),
    Case("reverse_sequence_batch_dim1", lambda x, n: ops.reverse_sequence(x, n, 0, 1),
         [rand(4, 3), np.array([1, 3, 4], np.int64)], oracle=lambda x, n: _revseq(x, n, 0, 1), prims=["GatherD"]),
    Case("population_count", lambda a, b: (ops.population_count(a), ops.population_count(b)),
         [np.array([7, -1, 0, 255], np.int16), np.array([7, -1, 0, -128], np.int8)],
         oracle=lambda a, b: (np.array([3, 16, 0, 8]), np.array([3, 8, 0, 1])),
         prims=["RightShift", "BitwiseAnd"], out_dtype=ms.uint8),
    Case("aliases", lambda x, y: (ops.einsum_ext("ij,jk->ik", x, y), ops.mse_loss_ext(x, x * 2, "sum"),
                                  ops.soft_shrink(x, 0.3), ops.fills(x, 2.0), ops.float_power_ext(x, 2)),
         [rand(2, 3), rand(3, 2, seed=1)],
         oracle=lambda x, y: (x @ y, np.sum(x ** 2), np.where(np.abs(x) > 0.3, x - 0.3 * np.sign(x), 0.0),
                              np.full_like(x, 2.0), x.astype(np.float64) ** 2),
         prims=["Einsum", "SoftShrink"], rtol=1e-5),
    # Q R = A, Q orthonormal, R upper triangular (the signs of R's diagonal are the factorization's choice)
    Case("qr_reconstructs", lambda a: _qr_checks(*ops.qr(a)), [rand(4, 3)],
         oracle=lambda a: (a, np.eye(3), np.zeros((3, 3)), np.abs(np.diag(np.linalg.qr(a)[1]))),
         prims=["MatMul"], rtol=1e-4, atol=1e-5),
]


def _qr_checks(q, r):
    return (ops.matmul(q, r), ops.matmul(q.T, q), r - ops.triu(r), ops.abs(ops.diagonal(r)))


CASES = SEGMENTS + SELECT
