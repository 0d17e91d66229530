"""Conformance cases of ``ops/_defs/math_prims.py`` (segment reductions, norms, linalg, builders, value primitives),
called as primitives. Oracles are NumPy; the sequential ones (``UniqueWithPad``, ``ListDiff``, ``RaggedRange``,
``NthElement``'s ties) are also checked against MindSpore 2.10's numbers in ``tests/ops/test_math_prims.py``
(``tests/fixtures/ops/math_prims_2.10.json``).
"""
from __future__ import annotations

import numpy as np

import mindspore as ms
from mindspore.ops._defs import math_prims as P

from case import Case, rand, randint, randpos

_IDS = np.array([0, 2, 0, 3, 2], np.int32)
_FULL = np.array([0, 2, 0, 1, 2], np.int32)
_SORTED = np.array([0, 0, 2, 2, 3], np.int32)
_F32 = np.finfo(np.float32)


def _segment(x, ids, n, reduce, empty):
    out = np.full((n,) + x.shape[ids.ndim:], empty, dtype=x.dtype)
    flat = x.reshape((-1,) + x.shape[ids.ndim:])
    for s in range(n):
        sel = flat[ids.reshape(-1) == s]
        if len(sel):
            out[s] = reduce(sel, axis=0)
    return out


def _pdist(x, p):
    n = x.shape[-2]
    rows = [np.linalg.norm(x[..., i, :] - x[..., j, :], ord=p, axis=-1) for i in range(n) for j in range(i + 1, n)]
    return np.stack(rows, -1)


def _lu(a):
    """Doolittle LU with partial pivoting: (packed LU, 1-based pivots) as LAPACK's getrf gives them."""
    a = a.copy()
    n = a.shape[0]
    piv = np.zeros(n, np.int32)
    for k in range(n):
        p = k + int(np.argmax(np.abs(a[k:, k])))
        piv[k] = p + 1
        a[[k, p]] = a[[p, k]]
        a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k, k + 1:])
    return a, piv


_LU_A = np.array([[4.0, 1.0, 2.0], [2.0, 5.0, 1.0], [1.0, 2.0, 6.0]])
_LU, _PIV = _lu(_LU_A)


def _tridiag(sup, main, sub, rhs):
    m = rhs.shape[-2]
    t = np.diag(main[0]) + np.diag(sup[0, :-1], 1) + np.diag(sub[0, 1:], -1)
    assert t.shape == (m, m)
    return t @ rhs


def _bitpack(x, t):
    return np.packbits(x > t, axis=-1)


def _log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def _in_top_k(x, t, k):
    target = x[np.arange(len(t)), t]
    return (x > target[:, None]).sum(1) < k


def _scatter_axis(x, idx, upd, axis):
    out = x.copy()
    for pos in np.ndindex(idx.shape):
        tgt = list(pos)
        tgt[axis] = idx[pos]
        out[tuple(tgt)] += upd[pos]
    return out


def _parts(z):
    return ms.ops.real(z), ms.ops.imag(z)


def _diag_len(d, rows, cols):
    return min(rows + min(0, d), cols - max(0, d))


def _diag_oracle(packed, lo, hi, rows, cols, pad, align, single):
    """Matrices (rows, cols) with the packed diagonals ``hi..lo`` placed, ``pad`` elsewhere."""
    packed = packed[..., None, :] if single else packed
    out = np.full(packed.shape[:-2] + (rows, cols), pad, packed.dtype)
    max_len = packed.shape[-1]
    for n, d in enumerate(range(hi, lo - 1, -1)):
        length = _diag_len(d, rows, cols)
        right = align.split("_")[0 if d >= 0 else 1] == "RIGHT"
        off = max_len - length if right else 0
        for q in range(length):
            i, j = (q, q + d) if d >= 0 else (q - d, q)
            out[..., i, j] = packed[..., n, off + q]
    return out


def _diag_part_oracle(x, lo, hi, pad, align, single):
    rows, cols = x.shape[-2:]
    max_len = max(_diag_len(d, rows, cols) for d in range(lo, hi + 1))
    out = np.full(x.shape[:-2] + (hi - lo + 1, max_len), pad, x.dtype)
    for n, d in enumerate(range(hi, lo - 1, -1)):
        length = _diag_len(d, rows, cols)
        right = align.split("_")[0 if d >= 0 else 1] == "RIGHT"
        off = max_len - length if right else 0
        for q in range(length):
            i, j = (q, q + d) if d >= 0 else (q - d, q)
            out[..., n, off + q] = x[..., i, j]
    return out[..., 0, :] if single else out


def _set_diag_oracle(x, diag, lo, hi, align, single):
    rows, cols = x.shape[-2:]
    placed = _diag_oracle(diag, lo, hi, rows, cols, 0, align, single)
    mask = _diag_oracle(np.ones_like(diag), lo, hi, rows, cols, 0, align, single) != 0
    return np.where(mask, placed, x)


def _householder_q(x, tau):
    m = x.shape[-2]
    q = np.eye(m)
    for i in range(tau.shape[-1]):
        v = np.zeros(m)
        v[i] = 1.0
        v[i + 1:] = x[i + 1:, i]
        q = q @ (np.eye(m) - tau[i] * np.outer(v, v))
    return q


def _solve_ls(a, b, l2):
    m, n = a.shape[-2:]
    if m >= n:
        return np.linalg.solve(a.T @ a + l2 * np.eye(n), a.T @ b)
    return a.T @ np.linalg.solve(a @ a.T + l2 * np.eye(m), b)


def _index_put(x, v, rows, cols, acc):
    out = x.copy()
    for k, (r, c) in enumerate(zip(rows, cols)):
        val = v[k] if v.shape[0] > 1 else v[0]
        out[r, c] = out[r, c] + val if acc else val
    return out


def _index_add(x, idx, u, axis):
    out = np.moveaxis(x.copy(), axis, 0)
    uu = np.moveaxis(u, axis, 0)
    for k, i in enumerate(idx):
        out[i] += uu[k]
    return np.moveaxis(out, 0, axis)


def _popcount(x):
    u = x.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize])
    return np.array([bin(int(v)).count("1") for v in u.reshape(-1)], np.uint8).reshape(x.shape)


SEGMENTS = [
    Case("prim_unsorted_segment_sum", lambda x, i: P.UnsortedSegmentSum()(x, i, 4), [rand(5, 3), _IDS],
         oracle=lambda x, i: _segment(x, i, 4, np.sum, 0), prims=["UnsortedSegmentSum"], grad=True, grad_inputs=[0]),
    Case("prim_unsorted_segment_sum_tensor_n_2d_ids", lambda x, i, n: P.UnsortedSegmentSum()(x, i, n),
         [randint(2, 3, 2), np.array([[0, 2, 2], [1, -1, 5]], np.int32), np.array(3, np.int32)],
         oracle=lambda x, i, n: _segment(x, i, 3, np.sum, 0), prims=["UnsortedSegmentSum"], out_dtype=ms.int32,
         modes=("pynative",)),
    Case("prim_unsorted_segment_max", lambda x, i: P.UnsortedSegmentMax()(x, i, 5), [rand(5, 3), _IDS],
         oracle=lambda x, i: _segment(x, i, 5, np.max, _F32.min), prims=["UnsortedSegmentMax"]),
    Case("prim_unsorted_segment_max_grad", lambda x, i: P.UnsortedSegmentMax()(x, i, 3), [rand(5, 3), _FULL],
         oracle=lambda x, i: _segment(x, i, 3, np.max, 0), prims=["UnsortedSegmentMax"], grad=True,
         grad_inputs=[0]),
    Case("prim_unsorted_segment_min", lambda x, i: P.UnsortedSegmentMin()(x, i, 3), [rand(5, 2), _FULL],
         oracle=lambda x, i: _segment(x, i, 3, np.min, 0), prims=["UnsortedSegmentMin"], grad=True,
         grad_inputs=[0]),
    Case("prim_unsorted_segment_min_int", lambda x, i: P.UnsortedSegmentMin()(x, i, 5), [randint(5), _IDS],
         oracle=lambda x, i: _segment(x, i, 5, np.min, np.iinfo(np.int32).max), prims=["UnsortedSegmentMin"]),
    Case("prim_unsorted_segment_prod", lambda x, i: P.UnsortedSegmentProd()(x, i, 4), [rand(5, 2), _IDS],
         oracle=lambda x, i: _segment(x, i, 4, np.prod, 1), prims=["UnsortedSegmentProd"], grad=True,
         grad_inputs=[0]),
    Case("prim_unsorted_segment_prod_zero_grad", lambda x, i: P.UnsortedSegmentProd()(x, i, 2),
         [np.array([[0.0, 2.0], [3.0, 0.0], [0.5, 1.5], [0.0, 0.0]]), np.array([0, 0, 1, 0], np.int32)],
         oracle=lambda x, i: _segment(x, i, 2, np.prod, 1), prims=["UnsortedSegmentProd"], grad=True,
         grad_inputs=[0], eps=1e-7),
    Case("prim_segment_sum", lambda x, i: P.SegmentSum()(x, i), [rand(5, 3), _SORTED],
         oracle=lambda x, i: _segment(x, i, 4, np.sum, 0), prims=["SegmentSum"], grad=True, grad_inputs=[0],
         modes=("pynative",)),
    Case("prim_segment_mean", lambda x, i: P.SegmentMean()(x, i), [rand(5, 3), _SORTED],
         oracle=lambda x, i: _segment(x, i, 4, np.mean, 0), prims=["SegmentMean"], grad=True, grad_inputs=[0],
         modes=("pynative",)),
    Case("prim_segment_max", lambda x, i: P.SegmentMax()(x, i), [rand(5, 3), _SORTED],
         oracle=lambda x, i: _segment(x, i, 4, np.max, 0), prims=["SegmentMax"], grad=True, grad_inputs=[0],
         modes=("pynative",)),
    Case("prim_segment_min", lambda x, i: P.SegmentMin()(x, i), [rand(5, 3), _SORTED],
         oracle=lambda x, i: _segment(x, i, 4, np.min, 0), prims=["SegmentMin"], grad=True, grad_inputs=[0],
         modes=("pynative",)),
    Case("prim_segment_prod_int", lambda x, i: P.SegmentProd()(x, i), [randint(5, 2, low=1, high=4), _SORTED],
         oracle=lambda x, i: _segment(x, i, 4, np.prod, 1), prims=["SegmentProd"], out_dtype=ms.int32,
         modes=("pynative",)),
]

NORMS = [
    Case("euclidean_norm", lambda x: (P.EuclideanNorm()(x, (1,)), P.EuclideanNorm(True)(x, (0, 2))), [rand(2, 3, 4)],
         oracle=lambda x: (np.sqrt((x * x).sum(1)), np.sqrt((x * x).sum((0, 2), keepdims=True))),
         prims=["EuclideanNorm"], grad=True),
    Case("euclidean_norm_tensor_axes", lambda x, a: P.EuclideanNorm()(x, a), [rand(2, 3), np.array([1], np.int32)],
         oracle=lambda x, a: np.sqrt((x * x).sum(1)), prims=["EuclideanNorm"], modes=("pynative",)),
    Case("count_nonzero", lambda x: (P.CountNonZero()(x), P.CountNonZero(dims=[0, 2])(x)),
         [np.array([[[0.0, 1.0], [2.0, 0.0]], [[0.0, 0.0], [3.0, 4.0]]])],
         oracle=lambda x: (np.count_nonzero(x), np.count_nonzero(x, axis=(0, 2))), prims=["CountNonZero"],
         out_dtype=ms.int64),
    Case("nuclear_norm", lambda x: (P.NuclearNorm(dim=(0, 2))(x), P.NuclearNorm(dim=(-1, 0), keepdim=True)(x)),
         [rand(3, 2, 4)],
         oracle=lambda x: (np.linalg.svd(np.moveaxis(x, (0, 2), (-2, -1)), compute_uv=False).sum(-1),
                           np.linalg.svd(np.moveaxis(x, (2, 0), (-2, -1)), compute_uv=False).sum(-1)[None, :, None]),
         prims=["NuclearNorm"], dtypes=(np.float32, np.float64), rtol=1e-4, atol=1e-5),
]

ELEMENTWISE = [
    Case("conjugate_transpose", lambda x: P.ConjugateTranspose()(x, (2, 0, 1)), [rand(2, 3, 4)],
         oracle=lambda x: np.transpose(x, (2, 0, 1)), prims=["ConjugateTranspose"], grad=True),
    Case("conjugate_transpose_complex", lambda x: _parts(P.ConjugateTranspose()(x, (1, 0))),
         [(rand(2, 3) + 1j * rand(2, 3, seed=1)).astype(np.complex64)],
         oracle=lambda x: (x.T.real, -x.T.imag), prims=["ConjugateTranspose"]),
    Case("population_count", lambda a, b, c: (P.PopulationCount()(a), P.PopulationCount()(b), P.PopulationCount()(c)),
         [np.array([-1, 0, 7, 1023], np.int16), np.array([255, 3], np.uint8),
          np.array([-(2 ** 40), 2 ** 62 - 1], np.int64)],
         oracle=lambda a, b, c: (_popcount(a), _popcount(b), _popcount(c)), prims=["PopulationCount"],
         out_dtype=ms.uint8),
    Case("polar", lambda r, t: _parts(P.Polar()(r, t)), [randpos(2, 3), rand(2, 3, low=-3.0, high=3.0, seed=1)],
         oracle=lambda r, t: (r * np.cos(t), r * np.sin(t)), prims=["Polar"], dtypes=(np.float32, np.float64)),
    Case("polar_grad", lambda r, t: ms.ops.real(P.Polar()(r, t)) + 2.0 * ms.ops.imag(P.Polar()(r, t)),
         [randpos(2, 3), rand(2, 3, low=-3.0, high=3.0, seed=1)],
         oracle=lambda r, t: r * np.cos(t) + 2.0 * r * np.sin(t), prims=["Polar"], grad=True),
    Case("nth_element", lambda x: (P.NthElement()(x, 2), P.NthElement(True)(x, 0)), [rand(3, 5)],
         oracle=lambda x: (np.sort(x, -1)[..., 2], np.sort(x, -1)[..., -1]), prims=["NthElement"], grad=True),
    Case("nth_element_tensor_n_int", lambda x, n: P.NthElement(True)(x, n), [randint(2, 4), np.array(1, np.int32)],
         oracle=lambda x, n: np.sort(x, -1)[..., -2], prims=["NthElement"], modes=("pynative",)),
    Case("lerp_scalar", lambda a, b: P.LerpScalar()(a, b, 0.3), [rand(2, 3), rand(3, seed=1)],
         oracle=lambda a, b: a + 0.3 * (b - a), prims=["LerpScalar"], grad=True),
    Case("log_softmax_ext", lambda x: (P.LogSoftmaxExt()(x, -1, None), P.LogSoftmaxExt()(x, None, None)),
         [rand(2, 3, 4)], oracle=lambda x: (_log_softmax(x, -1), _log_softmax(x, 0)), prims=["LogSoftmaxExt"],
         grad=True),
    Case("log_softmax_ext_dtype", lambda x: P.LogSoftmaxExt()(x, 1, ms.float64), [rand(2, 3)],
         oracle=lambda x: _log_softmax(x, 1), prims=["LogSoftmaxExt"], out_dtype=ms.float64),
    Case("quantile", lambda x, q: (P.Quantile(dim=1)(x, q), P.Quantile(keep_dims=True)(x, q)),
         [rand(3, 5), np.array([0.1, 0.5, 0.9])],
         oracle=lambda x, q: (np.quantile(x, q, axis=1), np.quantile(x, q, keepdims=True)),
         prims=["Quantile", "QuantileGrad"], dtypes=(np.float32, np.float64), grad=True, grad_inputs=[0]),
    Case("quantile_nan", lambda x, q: (P.Quantile(dim=0, ignore_nan=True)(x, q), P.Quantile(dim=0)(x, q)),
         [np.array([[1.0, np.nan], [3.0, 2.0], [np.nan, 5.0]]), np.array(0.25)],
         oracle=lambda x, q: (np.nanquantile(x, q, axis=0), np.quantile(x, q, axis=0)), prims=["Quantile"]),
    Case("quantile_grad_nan", lambda x, q: P.Quantile(dim=1, ignore_nan=True)(x, q) + P.Quantile(dim=1)(x, q),
         [np.array([[1.0, 4.0, 2.0, 8.0], [3.0, 0.5, 6.0, 2.0]]), np.array([0.3, 0.8])],
         oracle=lambda x, q: 2 * np.quantile(x, q, axis=1), prims=["Quantile", "QuantileGrad"], grad=True,
         grad_inputs=[0]),
    Case("pdist", lambda x: (P.Pdist()(x), P.Pdist(1.0)(x), P.Pdist(3.0)(x), P.Pdist(float("inf"))(x)),
         [rand(2, 4, 3)],
         oracle=lambda x: (_pdist(x, 2), _pdist(x, 1), _pdist(x, 3), _pdist(x, np.inf)), prims=["Pdist", "PdistGrad"],
         grad=True, rtol=1e-4, grad_rtol=1e-4, grad_atol=1e-5),
    Case("pdist_zero", lambda x: P.Pdist(0.0)(x), [np.array([[1.0, 2.0], [1.0, 3.0], [0.0, 3.0]])],
         oracle=lambda x: _pdist(x, 0), prims=["Pdist"]),
]

LINALG = [
    Case("lstsq", lambda a, b: (P.Lstsq()(a, b), P.Lstsq(fast=False)(a, b[:, 0])),
         [rand(5, 3), rand(5, 2, seed=1)],
         oracle=lambda a, b: (np.linalg.lstsq(a, b, rcond=None)[0], np.linalg.lstsq(a, b[:, 0], rcond=None)[0]),
         prims=["Lstsq"], dtypes=(np.float32, np.float64), rtol=1e-4, atol=1e-5),
    Case("lu_solve", lambda b, lu, p: P.LuSolve()(b, lu, p), [rand(2, 3, 2), _LU, _PIV],
         oracle=lambda b, lu, p: np.linalg.solve(_LU_A, b), prims=["LuSolve"], dtypes=(np.float32, np.float64),
         rtol=1e-4, atol=1e-5),
    Case("matrix_logarithm", lambda x: _parts(P.MatrixLogarithm()(x)),
         [np.array([[[2.0, 0.5], [0.0, 3.0]], [[0.0, -1.0], [1.0, 0.0]]], np.complex64)],
         oracle=lambda x: (np.array([[[np.log(2.0), 0.5 * np.log(1.5)], [0.0, np.log(3.0)]],
                                     [[0.0, -np.pi / 2], [np.pi / 2, 0.0]]]), np.zeros((2, 2, 2))),
         prims=["MatrixLogarithm"], rtol=1e-5, atol=1e-5),
    Case("qr", lambda x: P.Qr()(x), [rand(2, 4, 3)],
         oracle=lambda x: tuple(np.linalg.qr(x)), prims=["Qr"], dtypes=(np.float32, np.float64), rtol=1e-4,
         atol=1e-5),
    Case("qr_full", lambda x: P.Qr(True)(x), [rand(3, 2)],
         oracle=lambda x: tuple(np.linalg.qr(x, mode="complete")), prims=["Qr"], rtol=1e-4, atol=1e-5),
    Case("tridiagonal_matmul", lambda a, b, c, r: P.TridiagonalMatMul()(a, b, c, r),
         [rand(1, 4), rand(1, 4, seed=1), rand(1, 4, seed=2), rand(4, 3, seed=3)],
         oracle=_tridiag, prims=["TridiagonalMatMul"], dtypes=(np.float32, np.float64)),
]

BUILDERS = [
    Case("accumulate_nv2", lambda a, b, c: P.AccumulateNV2()((a, b, c)), [rand(2, 3), rand(2, 3, seed=1),
                                                                           rand(2, 3, seed=2)],
         oracle=lambda a, b, c: a + b + c, prims=["AccumulateNV2"], grad=True),
    Case("compare_and_bitpack", lambda x, t: P.CompareAndBitpack()(x, t), [rand(3, 16), np.array(0.1)],
         oracle=_bitpack, prims=["CompareAndBitpack"], out_dtype=ms.uint8),
    Case("expand", lambda x: P.Expand()(x, (2, -1, 4)), [rand(3, 1)],
         oracle=lambda x: np.broadcast_to(x, (2, 3, 4)), prims=["Expand"], grad=True),
    Case("expand_tensor_shape", lambda x, s: P.Expand()(x, s), [rand(3, 1), np.array([3, 5], np.int32)],
         oracle=lambda x, s: np.broadcast_to(x, (3, 5)), prims=["Expand"], modes=("pynative",)),
    Case("fill_v2", lambda v: P.FillV2()((2, 3), v), [np.array(1.5)],
         oracle=lambda v: np.full((2, 3), v), prims=["FillV2"], grad=True),
    Case("fill_v2_tensor_shape", lambda s, v: P.FillV2()(s, v), [np.array([2, 2], np.int64), np.array(7, np.int8)],
         oracle=lambda s, v: np.full((2, 2), 7, np.int8), prims=["FillV2"], out_dtype=ms.int8, modes=("pynative",)),
    Case("fills", lambda x: P.Fills()(x, 2.5), [rand(2, 3)], oracle=lambda x: np.full(x.shape, 2.5),
         prims=["Fills"]),
    Case("equal_count", lambda x, y: P.EqualCount()(x, y),
         [np.array([1, 2, 3, 4], np.int32), np.array([1, 0, 3, 4], np.int32)],
         oracle=lambda x, y: np.array([3], np.int32), prims=["EqualCount"], out_dtype=ms.int32),
    Case("in_top_k", lambda x, t: (P.InTopK(1)(x, t), P.InTopK(2)(x, t)),
         [np.array([[1.0, 3.0, 2.0], [4.0, 4.0, 1.0], [0.0, 1.0, 2.0]], np.float32), np.array([1, 1, 0], np.int32)],
         oracle=lambda x, t: (_in_top_k(x, t, 1), _in_top_k(x, t, 2)), prims=["InTopK"], out_dtype=ms.bool_),
    Case("parallel_concat", lambda a, b: P.ParallelConcat()((a, b)), [rand(1, 3), rand(1, 3, seed=1)],
         oracle=lambda a, b: np.concatenate([a, b]), prims=["ParallelConcat"]),
    Case("scatter_add_with_axis", lambda x, i, u: (P.ScatterAddWithAxis(1)(x, i, u), P.ScatterAddWithAxis(0)(x, i, u)),
         [rand(3, 4), np.array([[0, 0], [2, -1], [1, 2]], np.int32), rand(3, 2, seed=1)],
         oracle=lambda x, i, u: (_scatter_axis(x, np.where(i < 0, i + 4, i), u, 1),
                                 _scatter_axis(x, np.where(i < 0, i + 3, i), u, 0)),
         prims=["ScatterAddWithAxis"], grad=True, grad_inputs=[0, 2]),
]

SEQUENTIAL = [
    Case("unique_with_pad", lambda x, p: P.UniqueWithPad()(x, p),
         [np.array([5, 1, 5, 3, 1, 7, 7, 7], np.int32), np.array(-1, np.int32)],
         oracle=lambda x, p: (np.array([5, 1, 3, 7, -1, -1, -1, -1], np.int32),
                              np.array([0, 1, 0, 2, 1, 3, 3, 3], np.int32)),
         prims=["UniqueWithPad"], out_dtype=ms.int32),
    Case("list_diff", lambda x, y: P.ListDiff()(x, y),
         [np.array([4, 1, 9, 3, 1, 6], np.int32), np.array([1, 6], np.int32)],
         oracle=lambda x, y: (x[~np.isin(x, y)], np.nonzero(~np.isin(x, y))[0].astype(np.int32)),
         prims=["ListDiff"], out_dtype=ms.int32, modes=("pynative",)),
    Case("ragged_range", lambda s, l, d: P.RaggedRange(ms.int64)(s, l, d),
         [np.array([2, 5, 8, -1], np.int32), np.array([3, 5, 12, -6], np.int32), np.array([1, 1, 2, -2], np.int32)],
         oracle=lambda s, l, d: (np.array([0, 1, 1, 3, 6], np.int64),
                                 np.concatenate([np.arange(a, b, c) for a, b, c in zip(s, l, d)]).astype(np.int32)),
         prims=["RaggedRange"], out_dtype=ms.int64, modes=("pynative",)),
    Case("ragged_range_float", lambda s, l, d: P.RaggedRange(ms.int32)(s, l, d),
         [np.array([0.0, 1.0]), np.array([1.0, 0.0]), np.array([0.3, -0.5])],
         oracle=lambda s, l, d: (np.array([0, 4, 6], np.int32),
                                 np.concatenate([np.arange(a, b, c) for a, b, c in zip(s, l, d)])),
         prims=["RaggedRange"], out_dtype=ms.int32, modes=("pynative",)),
]

VALUES = [
    Case("tensor_shape", lambda x: (P.TensorShape()(x), P.DynamicShape()(x)), [rand(2, 3, 4)],
         oracle=lambda x: (np.array([2, 3, 4], np.int64),) * 2, prims=["TensorShape", "DynamicShape"],
         out_dtype=ms.int64),
    Case("tuple_to_array", lambda: (P.TupleToArray()((1, 2, 3)), P.TupleToArray()((1.5, 2.0))), [],
         oracle=lambda: (np.array([1, 2, 3], np.int32), np.array([1.5, 2.0], np.float32)), prims=["TupleToArray"],
         out_dtype=ms.int32),
    Case("scalar_to_array_tensor", lambda: (P.ScalarToArray()(2.5), P.ScalarToTensor()(3, ms.int64),
                                            P.ScalarToTensor()(True)), [],
         oracle=lambda: (np.array(2.5, np.float32), np.array(3, np.int64), np.array(1.0, np.float32)),
         prims=["ScalarToArray", "ScalarToTensor"], out_dtype=ms.float32),
    Case("scalar_cast_dtype_to_enum",
         lambda x: x * P.ScalarCast()(2.7, ms.int64) + P.DtypeToEnum()("Op", "x", ms.float32), [rand(2)],
         oracle=lambda x: x * 2 + 43, prims=["ScalarCast", "DtypeToEnum"]),
]

MORE = [
    Case("matrix_diag_v3", lambda x: (P.MatrixDiagV3()(x, (-1, 1), -1, -1, ms.Tensor(0.0, ms.float64)),
                                      P.MatrixDiagV3("LEFT_RIGHT")(x, (-1, 1), -1, -1, ms.Tensor(0.0, ms.float64))),
         [rand(2, 3, 3)],
         oracle=lambda x: (_diag_oracle(x, -1, 1, 3, 3, 0, "RIGHT_LEFT", False),
                           _diag_oracle(x, -1, 1, 3, 3, 0, "LEFT_RIGHT", False)),
         prims=["MatrixDiagV3"], dtypes=(np.float64,), grad=True),
    Case("matrix_diag_v3_tensor_k_pad", lambda x, k, p: P.MatrixDiagV3()(x, k, ms.Tensor(3, ms.int32),
                                                                        ms.Tensor(-1, ms.int32), p),
         [rand(2, 3), np.array(0, np.int32), np.array(9.0)],
         oracle=lambda x, k, p: _diag_oracle(x, 0, 0, 3, 3, 9.0, "RIGHT_LEFT", True), prims=["MatrixDiagV3"],
         dtypes=(np.float64,), modes=("pynative",)),
    Case("matrix_diag_part_v3", lambda x: (P.MatrixDiagPartV3()(x, (-1, 2), ms.Tensor(0.0, ms.float64)),
                                           P.MatrixDiagPartV3("RIGHT_RIGHT")(x, 1, ms.Tensor(0.0, ms.float64))),
         [rand(2, 3, 4)],
         oracle=lambda x: (_diag_part_oracle(x, -1, 2, 0, "RIGHT_LEFT", False),
                           _diag_part_oracle(x, 1, 1, 0, "RIGHT_RIGHT", True)),
         prims=["MatrixDiagPartV3"], dtypes=(np.float64,), grad=True),
    Case("matrix_set_diag_v3", lambda x, d: P.MatrixSetDiagV3()(x, d, (0, 1)), [rand(2, 3, 4), rand(2, 2, 3, seed=1)],
         oracle=lambda x, d: _set_diag_oracle(x, d, 0, 1, "RIGHT_LEFT", False), prims=["MatrixSetDiagV3"],
         grad=True),
    Case("matrix_solve_ls", lambda a, b: P.MatrixSolveLs()(a, b, ms.Tensor(0.1, ms.float64)),
         [rand(5, 3), rand(5, 2, seed=1)], oracle=lambda a, b: _solve_ls(a, b, 0.1), prims=["MatrixSolveLs"],
         grad=True, rtol=1e-4, atol=1e-5),
    Case("matrix_solve_ls_wide", lambda a, b: P.MatrixSolveLs(False)(a, b, ms.Tensor(0.5, ms.float64)),
         [rand(2, 4), rand(2, 3, seed=1)], oracle=lambda a, b: _solve_ls(a, b, 0.5), prims=["MatrixSolveLs"],
         grad=True, rtol=1e-4, atol=1e-5),
    Case("ormqr", lambda x, t, c: (P.Ormqr()(x, t, c), P.Ormqr(False, True)(x, t, c.T)),
         [rand(4, 3), rand(3, seed=1), rand(4, 2, seed=2)],
         oracle=lambda x, t, c: (_householder_q(x, t) @ c, c.T @ _householder_q(x, t).T), prims=["Ormqr"],
         dtypes=(np.float32, np.float64), rtol=1e-4, atol=1e-5),
    Case("edit_distance", lambda hi, hv, hs, ti, tv, ts: P.EditDistance(False)(hi, hv, hs, ti, tv, ts),
         [np.array([[0, 0], [0, 1], [1, 0]], np.int64), np.array([1, 2, 3], np.int32), np.array([2, 3], np.int64),
          np.array([[0, 0], [1, 0], [1, 1]], np.int64), np.array([1, 3, 4], np.int32), np.array([2, 2], np.int64)],
         oracle=lambda *a: np.array([1.0, 1.0], np.float32), prims=["EditDistance"], modes=("pynative",)),
    Case("no_repeat_ngram", lambda s, lp: P.NoRepeatNGram(2)(s, lp),
         [np.array([[[1, 2, 1, 2]]], np.int32), rand(1, 1, 5)],
         oracle=lambda s, lp: np.where(np.arange(5) == 1, np.finfo(np.float32).min, lp), prims=["NoRepeatNGram"]),
    Case("index_put", lambda x, v, r, c: (P.IndexPut(0)(x, v, (r, c)), P.IndexPut(1)(x, v, (r, c))),
         [rand(3, 4), rand(2, seed=1), np.array([0, 2], np.int32), np.array([1, 3], np.int32)],
         oracle=lambda x, v, r, c: (_index_put(x, v, r, c, False), _index_put(x, v, r, c, True)),
         prims=["IndexPut"], grad=True, grad_inputs=[0, 1]),
    Case("inplace_index_add", lambda x, i, u: P.InplaceIndexAdd(1)(x, i, u),
         [rand(2, 4), np.array([3, 0, 3], np.int32), rand(2, 3, seed=1)],
         oracle=lambda x, i, u: _index_add(x, i, u, 1), prims=["InplaceIndexAdd"], grad=True, grad_inputs=[0, 2]),
]

CASES = SEGMENTS + NORMS + ELEMENTWISE + LINALG + BUILDERS + SEQUENTIAL + VALUES + MORE
