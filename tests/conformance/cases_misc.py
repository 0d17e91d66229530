"""Conformance cases of ``ops.function.misc_func`` (``scatter_*``, windows, Cholesky, ``iou``, ``lp_pool``,
``pdist``, losses). Oracles are NumPy; conventions (``iou`` areas count the end pixel, ``hann_window`` is
Float64 by default, integer ``scatter_div`` truncates) were checked against MindSpore 2.10 (CPU).
"""
from __future__ import annotations

import numpy as np

import mindspore as ms
from mindspore import ops

from case import Case, rand, randint


def _scatter_rows(x, idx, upd, fn):
    out = x.copy()
    for i, u in zip(idx.reshape(-1), upd.reshape((-1,) + x.shape[1:])):
        out[i] = fn(out[i], u)
    return out


def _spd(n, seed=0):
    a = rand(n, n, seed=seed)
    return a @ a.T + n * np.eye(n)


def _iou(anchor, gt, iof=False):
    out = np.zeros((len(gt), len(anchor)))
    for m, g in enumerate(gt):
        for n, a in enumerate(anchor):
            w = max(min(a[2], g[2]) - max(a[0], g[0]) + 1, 0)
            h = max(min(a[3], g[3]) - max(a[1], g[1]) + 1, 0)
            area = lambda b: (b[2] - b[0] + 1) * (b[3] - b[1] + 1)  # noqa: E731
            out[m, n] = w * h / (area(g) if iof else area(a) + area(g) - w * h)
    return out


def _window(n, periodic, coeffs):
    if n <= 1:
        return np.ones(n)
    t = 2 * np.pi * np.arange(n) / (n if periodic else n - 1)
    return coeffs[0] + sum(c * np.cos(k * t) for k, c in enumerate(coeffs[1:], 1))


def _lp1d(x, p, k):
    n = x.shape[-1] // k
    return np.sum(x[..., :n * k].reshape(x.shape[:-1] + (n, k)) ** p, -1) ** (1 / p)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _mlsm(x, y):
    return np.mean(-np.mean(y * np.log(_sigmoid(x)) + (1 - y) * np.log(_sigmoid(-x)), -1))


def _multi_margin(x, y, p=1, margin=1.0):
    out = []
    for row, t in zip(x, y):
        h = np.maximum(margin - row[t] + row, 0) ** p
        h[t] = 0
        out.append(h.sum() / len(row))
    return np.mean(out)


_ROWS = np.array([0, 2, 0], np.int32)
_BOXES_A = np.array([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 3.0]])
_BOXES_G = np.array([[0.0, 0.0, 2.0, 2.0], [0.0, 0.0, 1.0, 1.0], [5.0, 5.0, 6.0, 6.0]])

SCATTER = [
    Case("scatter_add_rows", lambda x, u: ops.scatter_add(x, ms.Tensor(_ROWS), u), [rand(3, 2), rand(3, 2, seed=1)],
         oracle=lambda x, u: _scatter_rows(x, _ROWS, u, np.add), prims=["TensorScatterAdd"], grad=True),
    Case("scatter_mul_max_min", lambda x, u: (ops.scatter_mul(x, ms.Tensor(_ROWS), u),
                                                  ops.scatter_max(x, ms.Tensor(_ROWS), u),
                                                  ops.scatter_min(x, ms.Tensor(_ROWS), u)),
         [rand(3, 2), rand(3, 2, seed=1)],
         oracle=lambda x, u: tuple(_scatter_rows(x, _ROWS, u, f) for f in (np.multiply, np.maximum, np.minimum)),
         prims=["TensorScatterAdd", "ReduceProd", "ReduceMax", "ReduceMin"]),
    Case("scatter_update_div", lambda x, u: (ops.scatter_update(x, ms.Tensor(_ROWS[1:]), u[1:]),
                                             ops.scatter_div(x, ms.Tensor(_ROWS), u)),
         [rand(3, 2), rand(3, 2, low=0.5, high=2.0, seed=1)],
         oracle=lambda x, u: (_scatter_rows(x, _ROWS[1:], u[1:], lambda a, b: b),
                              _scatter_rows(x, _ROWS, u, np.divide)),
         prims=["TensorScatterUpdate", "Div"], rtol=1e-5),
    Case("scatter_div_int_truncates", lambda x, u: ops.scatter_div(x, ms.Tensor(np.array([0, 1], np.int32)), u),
         [np.array([7, -7, 8], np.int32), np.array([2, 2], np.int32)],
         oracle=lambda x, u: np.array([3, -3, 8], np.int32), prims=["TruncateDiv"], out_dtype=ms.int32),
    Case("scatter_nd_family", lambda x, u: tuple(f(x, ms.Tensor(np.array([[0, 1], [2, 0], [0, 1]], np.int32)), u)
                                                 for f in (ops.scatter_nd_add, ops.scatter_nd_sub, ops.scatter_nd_mul,
                                                           ops.scatter_nd_max, ops.scatter_nd_min)),
         [rand(3, 2), rand(3, seed=1)],
         oracle=lambda x, u: tuple(_scatter_nd(x, u, f) for f in (np.add, np.subtract, np.multiply, np.maximum,
                                                                   np.minimum)),
         prims=["TensorScatterAdd", "ReduceProd", "ReduceMax", "ReduceMin"]),
]


def _scatter_nd(x, u, fn):
    out = x.copy()
    for (i, j), v in zip([(0, 1), (2, 0), (0, 1)], u):
        out[i, j] = fn(out[i, j], v)
    return out


LINALG = [
    # ops.cholesky is the Cholesky primitive: it reads one triangle and its gradient is the symmetric one, so the
    # finite differences go through a symmetric parametrisation A = B B^T + 4I
    Case("cholesky", lambda b: ops.cholesky(ops.matmul(b, b.T) + 4 * ops.eye(4, 4, b.dtype)), [rand(4, 4)],
         oracle=lambda b: np.linalg.cholesky(b @ b.T + 4 * np.eye(4)), prims=["Cholesky"], grad=True,
         rtol=1e-5, atol=1e-6, grad_rtol=1e-4, grad_atol=1e-5),
    Case("cholesky_upper", lambda a: ops.cholesky(a, True), [_spd(3, seed=1)],
         oracle=lambda a: np.linalg.cholesky(a).T, prims=["Cholesky"], rtol=1e-5),
    Case("cholesky_solve", ops.cholesky_solve, [rand(3, 2), np.linalg.cholesky(_spd(3, seed=2))],
         oracle=lambda b, l: np.linalg.solve(l @ l.T, b), prims=["Div", "Mul"], grad=True, rtol=1e-4, atol=1e-5,
         grad_rtol=1e-4, grad_atol=1e-5),
    Case("cholesky_solve_upper", lambda b, u: ops.cholesky_solve(b, u, True),
         [rand(3, 1), np.linalg.cholesky(_spd(3, seed=3)).T],
         oracle=lambda b, u: np.linalg.solve(u.T @ u, b), prims=["Div"], rtol=1e-4, atol=1e-5),
    Case("cholesky_inverse", ops.cholesky_inverse, [np.linalg.cholesky(_spd(3, seed=4))],
         oracle=lambda l: np.linalg.inv(l @ l.T), prims=["Div"], grad=True, rtol=1e-4, atol=1e-5, grad_rtol=1e-4,
         grad_atol=1e-5),
    Case("pdist", ops.pdist, [rand(4, 3)],
         oracle=lambda x: np.array([np.linalg.norm(x[i] - x[j]) for i in range(4) for j in range(i + 1, 4)]),
         prims=["Gather", "Pow"], grad=True, rtol=1e-5),
    Case("pdist_p1_batched", lambda x: ops.pdist(x, 1.0), [rand(2, 3, 2)],
         oracle=lambda x: np.stack([[np.abs(b[i] - b[j]).sum() for i in range(3) for j in range(i + 1, 3)]
                                    for b in x]), prims=["Gather"]),
    Case("ger", ops.ger, [rand(3), rand(4, seed=1)], oracle=np.outer, prims=["Mul"], grad=True),
]

OTHER = [
    Case("iou_iof", lambda a, g: (ops.iou(a, g), ops.iou(a, g, "iof")), [_BOXES_A, _BOXES_G],
         oracle=lambda a, g: (_iou(a, g), _iou(a, g, True)), prims=["Minimum", "Maximum", "Div"], rtol=1e-5),
    Case("lp_pool1d", lambda x: ops.lp_pool1d(x, 2, 2), [rand(1, 2, 5, low=0.1, high=1.0)],
         oracle=lambda x: _lp1d(x, 2, 2), prims=["AvgPool", "Pow"], grad=True, rtol=1e-5),
    Case("lp_pool2d_p1", lambda x: ops.lp_pool2d(x, 1, 2, 1), [rand(1, 1, 3, 4)],
         oracle=lambda x: x[..., :-1, :-1] + x[..., 1:, :-1] + x[..., :-1, 1:] + x[..., 1:, 1:],
         prims=["AvgPool"], grad=True, rtol=1e-5),
    Case("multilabel_soft_margin_loss", ops.multilabel_soft_margin_loss,
         [rand(3, 4), randint(3, 4, high=2).astype(np.float64)], oracle=_mlsm, prims=["Sigmoid", "Log"], grad=True,
         grad_inputs=[0], rtol=1e-5),
    Case("multi_margin_loss", ops.multi_margin_loss, [rand(3, 4), np.array([2, 1, 0], np.int64)],
         oracle=lambda x, y: _multi_margin(x, y), prims=["Maximum", "GatherD"], grad=True, grad_inputs=[0]),
    Case("multi_margin_loss_p2", lambda x, y: ops.multi_margin_loss(x, y, p=2, margin=0.5),
         [rand(3, 4), np.array([3, 1, 0], np.int64)],
         oracle=lambda x, y: _multi_margin(x, y, 2, 0.5), prims=["Maximum", "Square"]),
    Case("intopk_approximate_equal", lambda x, t: (ops.intopk(x, t, 1), ops.intopk(x, t, 2),
                                                   ops.approximate_equal(x, x + 1e-6), ops.approximate_equal(x, x + 1)),
         [np.array([[1.0, 3.0, 2.0], [4.0, 1.0, 4.0], [1.0, 2.0, 3.0]]), np.array([1, 2, 0], np.int32)],
         oracle=lambda x, t: (np.array([True, True, False]), np.array([True, True, False]), np.ones((3, 3), bool),
                              np.zeros((3, 3), bool)), prims=["Greater", "Less"], out_dtype=ms.bool_),
    Case("hann_hamming_window", lambda x: (ops.hann_window(5) + x, ops.hann_window(6, False, dtype=ms.float32),
                                           ops.hamming_window(4), ops.hamming_window(4, False, 0.5, 0.5),
                                           ops.hann_window(1)),
         [np.zeros(5)],
         oracle=lambda x: (_window(5, True, (0.5, -0.5)) + x, _window(6, False, (0.5, -0.5)),
                           _window(4, True, (0.54, -0.46)), _window(4, False, (0.5, -0.5)), np.ones(1)),
         prims=["Cos"], rtol=1e-6, atol=1e-7),
]

def _unfold(x, k, s):
    n, c, h, w = x.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    cols = np.zeros((n, c, k, k, oh * ow))
    for i in range(oh):
        for j in range(ow):
            cols[..., i * ow + j] = x[:, :, i * s:i * s + k, j * s:j * s + k]
    return cols.reshape(n, c * k * k, oh * ow)


def _fold(cols, size, k):
    n, ck, L = cols.shape
    c = ck // (k * k)
    out = np.zeros((n, c) + size)
    ow = size[1] - k + 1
    blocks = cols.reshape(n, c, k, k, L)
    for pos in range(L):
        i, j = divmod(pos, ow)
        out[:, :, i:i + k, j:j + k] += blocks[..., pos]
    return out


def _nanmedian(x, axis):
    vals, idx = [], []
    for row in np.moveaxis(x, axis, -1).reshape(-1, x.shape[axis]):
        ok = np.flatnonzero(~np.isnan(row))
        if not len(ok):
            vals.append(np.nan)
            idx.append(0)
            continue
        order = ok[np.argsort(row[ok], kind="stable")]
        pick = order[(len(ok) - 1) // 2]
        vals.append(row[pick])
        idx.append(pick)
    shape = np.moveaxis(x, axis, -1).shape[:-1]
    return np.array(vals).reshape(shape), np.array(idx).reshape(shape)


def _lrn(x, r, bias, alpha, beta):
    c = x.shape[1]
    out = np.empty_like(x)
    for ch in range(c):
        lo, hi = max(0, ch - r), min(c, ch + r + 1)
        out[:, ch] = x[:, ch] / (bias + alpha * np.sum(x[:, lo:hi] ** 2, 1)) ** beta
    return out


_NANS = np.array([[1.0, np.nan, 3.0, 2.0], [np.nan, np.nan, 1.0, 4.0], [np.nan] * 4])

MORE = [
    Case("unfold", lambda x: ops.unfold(x, 2, 1, 0, 2), [rand(1, 2, 4, 4)], oracle=lambda x: _unfold(x, 2, 2),
         prims=["Gather", "Concat"], grad=True),
    Case("fold", lambda c: ops.fold(c, ms.Tensor(np.array([3, 3], np.int32)), 2), [rand(1, 8, 4)],
         oracle=lambda c: _fold(c, (3, 3), 2), prims=["Add"], grad=True),
    Case("mirror_pad_reflect", lambda x: ops.mirror_pad(x, ms.Tensor(np.array([[0, 0], [1, 1], [2, 0]])), "REFLECT"),
         [rand(1, 3, 4)], oracle=lambda x: np.pad(x, ((0, 0), (1, 1), (2, 0)), "reflect"), prims=["Gather"],
         grad=True),
    Case("mirror_pad_symmetric", lambda x: ops.mirror_pad(x, ((1, 2), (0, 1)), "SYMMETRIC"), [rand(3, 2)],
         oracle=lambda x: np.pad(x, ((1, 2), (0, 1)), "symmetric"), prims=["Gather"]),
    Case("bartlett_blackman_window", lambda x: (ops.bartlett_window(ms.Tensor(5)) + x,
                                                ops.bartlett_window(ms.Tensor(np.array(4, np.int32)), False),
                                                ops.blackman_window(ms.Tensor(6)),
                                                ops.blackman_window(ms.Tensor(5), False, dtype=ms.float64)),
         [np.zeros(5, np.float32)],
         oracle=lambda x: (np.bartlett(6)[:5] + x, np.bartlett(4), _window(6, True, (0.42, -0.5, 0.08)),
                           np.blackman(5)), prims=["Cos", "Abs"], rtol=1e-6, atol=1e-6),
    Case("nanmedian", lambda x: ops.nanmedian(x, 1), [_NANS], oracle=lambda x: _nanmedian(x, 1), prims=["Sort"]),
    Case("nanmedian_axis0_keepdims", lambda x: ops.nanmedian(x, 0, True), [_NANS[:2]],
         oracle=lambda x: tuple(a[None] for a in _nanmedian(x, 0)), prims=["Sort"]),
    Case("lrn", lambda x: ops.lrn(x, 2, 1.0, 0.5, 0.75), [rand(2, 5, 2, 3)],
         oracle=lambda x: _lrn(x, 2, 1.0, 0.5, 0.75),
         prims=["MatMul", "Pow"], grad=True, rtol=1e-5),
    Case("adaptive_avg_pool3d", lambda x: ops.adaptive_avg_pool3d(x, (1, 1, 2)), [rand(1, 2, 2, 3, 4)],
         oracle=lambda x: np.stack([x[..., :2].mean((2, 3, 4)), x[..., 2:].mean((2, 3, 4))], -1)[:, :, None, None],
         prims=["ReduceMean"], grad=True),
]

def _triplet(a, p, n, margin=1.0, swap=False, eps=1e-6):
    d = lambda x, y: np.linalg.norm(x - y + eps, axis=1)  # noqa: E731
    d_an = np.minimum(d(a, n), d(p, n)) if swap else d(a, n)
    return np.mean(np.maximum(d(a, p) - d_an + margin, 0))


_WITH_NAN = rand(3, 5)
_WITH_NAN[1, 2] = np.nan

MORE += [
    Case("quantile", lambda x: (ops.quantile(x, 0.3, 1), ops.quantile(x, 0.5), ops.quantile(x, 0.9, 0, True)),
         [rand(3, 5)], oracle=lambda x: (np.quantile(x, 0.3, 1), np.quantile(x, 0.5),
                                         np.quantile(x, 0.9, 0, keepdims=True)),
         prims=["Sort", "GatherD"], grad=True, rtol=1e-5),
    Case("quantile_nan_and_vector_q", lambda x, q: (ops.quantile(x, q, 1), ops.nanquantile(x, q, 1, True),
                                                    ops.nanquantile(x, 0.5)),
         [_WITH_NAN, np.array([0.3, 0.9])],
         oracle=lambda x, q: (np.quantile(x, q, 1), np.nanquantile(x, q, 1, keepdims=True), np.nanquantile(x, 0.5)),
         prims=["Sort", "GatherD"], rtol=1e-5),
    Case("triplet_margin_loss", ops.triplet_margin_loss, [rand(4, 3), rand(4, 3, seed=1), rand(4, 3, seed=2)],
         oracle=_triplet, prims=["Pow", "Maximum"], grad=True, rtol=1e-5),
    Case("triplet_margin_loss_swap", lambda a, p, n: ops.triplet_margin_loss(a, p, n, margin=0.5, swap=True),
         [rand(4, 3), rand(4, 3, seed=1), rand(4, 3, seed=2)],
         oracle=lambda a, p, n: _triplet(a, p, n, 0.5, True), prims=["Minimum"], rtol=1e-5),
    Case("embedding", ops.embedding, [np.array([[0, 2], [1, 1]], np.int32), rand(3, 4)],
         oracle=lambda i, w: w[i], prims=["Gather"], grad=True, grad_inputs=[1]),
]

CASES = SCATTER + LINALG + OTHER + MORE
