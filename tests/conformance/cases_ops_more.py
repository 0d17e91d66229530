"""Conformance cases of the primitives of ``ops/_defs/math_special.py``, ``math_misc.py``, ``array_more.py``,
``complex_ops.py``, ``deprecated.py``, ``ctc.py``, ``fft.py``, ``linalg_more.py`` and ``scatter.py`` (the Bessel and
gamma families, ``Igamma``, ``Zeta``, ``Betainc``, ``Cross``, ``Cdist``, ``Renorm``, the searches and histograms,
``Roll``, ``Diag``, ``DepthToSpace``, ``IndexAdd``, ``MaskedScatter``, complex parts, CTC, Fourier transforms,
SVD/expm/solves/Cholesky, the batch/space rearrangements, the in-place and functional scatters, ...).

Forward oracles are NumPy (SciPy's ``scipy.special``/``scipy.linalg`` where NumPy has no such function; brute
force over every alignment for CTC); MindSpore 2.10's own values for the same ops are compared in
``tests/api/test_ops_more.py``. Gradients are checked against finite differences, which no oracle shares with
the bprops; complex-valued ones through ``Complex``/``Real``/``Imag`` around them.
"""
from __future__ import annotations

import numpy as np
from scipy import special

import mindspore as ms
from mindspore import ops

from case import Case, rand, randint, randpos

_UNARY = [("BesselI0", special.i0), ("BesselI0e", special.i0e), ("BesselI1", special.i1),
          ("BesselI1e", special.i1e), ("BesselJ0", special.j0), ("BesselJ1", special.j1)]
_POSITIVE = [("BesselY0", special.y0), ("BesselY1", special.y1), ("BesselK0", special.k0),
             ("BesselK0e", special.k0e), ("BesselK1", special.k1), ("BesselK1e", special.k1e),
             ("Lgamma", special.gammaln), ("Digamma", special.digamma)]


def _unary_case(name, fn, data):
    return Case(name.lower(), getattr(ops, name)(), [data], oracle=fn, prims=[name], grad=True,
                dtypes=(np.float32, np.float64), rtol=1e-5, atol=1e-6, grad_rtol=1e-5, grad_atol=1e-6)


_SIGNED = np.array([[-2.5, -0.7, 0.3], [1.1, 2.0, 3.7]])
_POS = np.array([[0.4, 0.9, 1.3], [2.2, 3.1, 4.5]])

SPECIAL = [_unary_case(n, f, _SIGNED) for n, f in _UNARY] + [_unary_case(n, f, _POS) for n, f in _POSITIVE] + [
    Case("bessel_i1_at_zero_grad", ops.BesselI1(), [np.array([0.0, 0.5])], oracle=special.i1, prims=["BesselI1"],
         grad=True),
    Case("bessel_float16", lambda x: (ops.bessel_j0(x), ops.bessel_i0e(x), ops.lgamma(x)), [_POS],
         oracle=lambda x: (special.j0(x), special.i0e(x), special.gammaln(x)), prims=["BesselJ0", "Lgamma"],
         dtypes=(np.float16,)),
    Case("polygamma", lambda x: ops.Polygamma()(ms.Tensor(np.array([0, 1, 2], np.int64)), x), [randpos(2, 3)],
         oracle=lambda x: np.stack([special.polygamma(k, x[:, k]) for k in range(3)], axis=1),
         prims=["Polygamma"], grad=True, dtypes=(np.float32, np.float64), rtol=1e-5, grad_rtol=1e-5),
    Case("mvlgamma", lambda x: ops.Mvlgamma(3)(x), [randpos(2, 3) + 1.5],
         oracle=lambda x: special.multigammaln(x.reshape(-1, 1), 3).reshape(x.shape) if False else
         sum(special.gammaln(x - j / 2.0) for j in range(3)) + 3 * 2 / 4.0 * np.log(np.pi),
         prims=["Mvlgamma", "Digamma"], grad=True, dtypes=(np.float32, np.float64)),
    Case("igamma_igammac", lambda a, x: (ops.igamma(a, x), ops.igammac(a, x)), [randpos(2, 3), randpos(2, 3, seed=1)],
         oracle=lambda a, x: (special.gammainc(a, x), special.gammaincc(a, x)),
         prims=["Igamma", "Igammac", "IgammaGradA", "Lgamma"], grad=True, dtypes=(np.float32, np.float64),
         rtol=1e-5, grad_rtol=1e-5, grad_atol=1e-6),
    Case("zeta", ops.Zeta(), [randpos(2, 3) + 1.5, randpos(2, 3, seed=2)], oracle=special.zeta, prims=["Zeta"],
         grad=True, grad_inputs=[1], dtypes=(np.float32, np.float64), rtol=1e-5),
    Case("nextafter", ops.NextAfter(), [rand(2, 3), rand(2, 3, seed=3)], oracle=np.nextafter, prims=["NextAfter"],
         grad=True, grad_inputs=[0], dtypes=(np.float32, np.float64), rtol=0, atol=0),
    Case("betainc", ops.Betainc(), [randpos(2, 3), randpos(2, 3, seed=1), rand(2, 3, low=0.1, high=0.9, seed=2)],
         oracle=special.betainc, prims=["Betainc", "Lgamma"], grad=True, grad_inputs=[2],
         dtypes=(np.float32, np.float64), rtol=1e-5),
]


def _cdist(a, b, p):
    d = np.abs(a[..., :, None, :] - b[..., None, :, :])
    return d.max(-1) if p == np.inf else (d ** p).sum(-1) ** (1.0 / p)


def _renorm(x, p, dim, maxnorm):
    others = tuple(i for i in range(x.ndim) if i != dim)
    norm = (np.abs(x) ** p).sum(others, keepdims=True) ** (1.0 / p)
    return x * np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)


def _clse(x, exclusive, reverse):
    y = np.flip(x, 0) if reverse else x
    out = np.logaddexp.accumulate(y, axis=0)
    if exclusive:
        out = np.concatenate([np.full_like(out[:1], np.finfo(x.dtype).min), out[:-1]])
    return np.flip(out, 0) if reverse else out


def _glu(x):
    a, b = np.split(x, 2, -1)
    return a / (1.0 + np.exp(-b))


_SORTED = np.array([[0.1, 0.4, 0.4, 0.9], [-1.0, 0.0, 2.0, 3.0]])
_VALUES = np.array([[0.4, 0.0, 1.0], [2.0, -5.0, 2.5]])

MATH_MISC = [
    Case("cross_default_dim", ops.Cross(), [rand(2, 3, 4), rand(2, 3, 4, seed=1)],
         oracle=lambda a, b: np.cross(a, b, axis=1), prims=["Cross"], grad=True),
    Case("ger", ops.Ger(), [rand(3), rand(4, seed=1)], oracle=np.outer, prims=["Ger"], grad=True),
    Case("logit_eps", ops.Logit(0.2), [rand(2, 4, low=0.05, high=0.95)],
         oracle=lambda x: np.log(np.clip(x, 0.2, 0.8) / (1 - np.clip(x, 0.2, 0.8))), prims=["Logit"], grad=True,
         rtol=1e-5, grad_atol=1e-5),
    Case("logit", ops.Logit(), [rand(2, 3, low=0.1, high=0.9)], oracle=lambda x: np.log(x / (1 - x)),
         prims=["Logit"], grad=True),
    Case("glu", ops.GLU(), [rand(2, 4)], oracle=_glu, prims=["GLU"], grad=True),
    Case("glu_axis0", ops.GLU(0), [rand(4, 3)], oracle=lambda x: _glu(x.T).T, prims=["GLU"], grad=True),
    Case("cdist_p2", ops.Cdist(), [rand(2, 3, 4), rand(2, 5, 4, seed=1)], oracle=lambda a, b: _cdist(a, b, 2.0),
         prims=["Cdist"], grad=True, rtol=1e-5),
    Case("cdist_p1_5_2d", ops.Cdist(1.5), [rand(3, 2), rand(4, 2, seed=2)], oracle=lambda a, b: _cdist(a, b, 1.5),
         prims=["Cdist"], grad=True, rtol=1e-5, grad_rtol=1e-4, grad_atol=1e-5),
    Case("cdist_inf", ops.Cdist(float("inf")), [rand(3, 2), rand(2, 2, seed=3)],
         oracle=lambda a, b: _cdist(a, b, np.inf), prims=["Cdist"], grad=True),
    Case("renorm", ops.Renorm(2, 0, 1.0), [rand(3, 4) * 2], oracle=lambda x: _renorm(x, 2, 0, 1.0),
         prims=["Renorm"], grad=True, rtol=1e-5),
    Case("renorm_p1_dim1", ops.Renorm(1, 1, 1.5), [rand(2, 3, 2)], oracle=lambda x: _renorm(x, 1, 1, 1.5),
         prims=["Renorm"], grad=True, rtol=1e-5),
    Case("square_sum_all", ops.SquareSumAll(), [rand(2, 3), rand(2, 3, seed=1)],
         oracle=lambda x, y: (np.sum(x * x), np.sum(y * y)), prims=["SquareSumAll"], grad=True, dtypes=(np.float32,),
         rtol=1e-5),
    Case("cumulative_logsumexp", lambda x: ops.CumulativeLogsumexp()(x, 0), [rand(4, 3)],
         oracle=lambda x: _clse(x, False, False), prims=["CumulativeLogsumexp", "CumSum"], grad=True, rtol=1e-5),
    Case("cumulative_logsumexp_exclusive_reverse", lambda x: ops.CumulativeLogsumexp(True, True)(x, 0), [rand(4, 2)],
         oracle=lambda x: _clse(x, True, True), prims=["CumulativeLogsumexp"], rtol=1e-5),
    # (an empty axis stays empty: the CPU raised IndexError, the GPU gave one row of the lowest float)
    Case("cumulative_logsumexp_exclusive_empty_axis", lambda x: ops.CumulativeLogsumexp(True, False)(x, 0),
         [np.zeros((0, 3), np.float32)], oracle=lambda x: x.copy(), prims=["CumulativeLogsumexp"]),
    Case("cumulative_logsumexp_reverse_grad", lambda x: ops.CumulativeLogsumexp(False, True)(x, 0), [rand(3, 2)],
         oracle=lambda x: _clse(x, False, True), prims=["CumulativeLogsumexp"], grad=True, rtol=1e-5),
    Case("eps", ops.Eps(), [rand(2, 3)], oracle=lambda x: np.full(x.shape, np.finfo(x.dtype).eps, x.dtype),
         prims=["Eps"], grad=True, dtypes=(np.float16, np.float32, np.float64), rtol=0, atol=0),
    Case("bincount", lambda a, w: ops.Bincount()(a, 6, w), [np.array([0, 1, 1, 3, 7], np.int32), rand(5)],
         oracle=lambda a, w: np.bincount(a, w, minlength=8)[:6].astype(w.dtype), prims=["Bincount"], rtol=1e-5),
    Case("histogram", ops.Histogram(4, -1.0, 1.0), [rand(3, 5)],
         oracle=lambda x: np.histogram(x, 4, (-1.0, 1.0))[0].astype(x.dtype), prims=["Histogram"]),
    Case("histogram_data_range", ops.Histogram(3), [rand(7)],
         oracle=lambda x: np.histogram(x, 3)[0].astype(x.dtype), prims=["Histogram"]),
    Case("histogram_fixed_width", ops.HistogramFixedWidth(5), [np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0]),
                                                               np.array([0.0, 5.0])],
         oracle=lambda x, r: np.array([2, 1, 1, 0, 2], np.int32), prims=["HistogramFixedWidth"], out_dtype=ms.int32),
    Case("search_sorted", ops.SearchSorted(), [_SORTED, _VALUES],
         oracle=lambda s, v: np.stack([np.searchsorted(a, b) for a, b in zip(s, v)]), prims=["SearchSorted"],
         out_dtype=ms.int64),
    Case("search_sorted_right_int32", ops.SearchSorted(ms.int32, True), [_SORTED[0], _VALUES[0]],
         oracle=lambda s, v: np.searchsorted(s, v, "right").astype(np.int32), prims=["SearchSorted"],
         out_dtype=ms.int32),
    Case("lower_upper_bound", lambda s, v: (ops.LowerBound()(s, v), ops.UpperBound(ms.int64)(s, v)), [_SORTED, _VALUES],
         oracle=lambda s, v: (np.stack([np.searchsorted(a, b) for a, b in zip(s, v)]).astype(np.int32),
                              np.stack([np.searchsorted(a, b, "right") for a, b in zip(s, v)])),
         prims=["LowerBound", "UpperBound"], out_dtype=ms.int32),
    Case("bucketize", ops.Bucketize([-0.5, 0.0, 0.5]), [rand(2, 4)],
         oracle=lambda x: np.searchsorted([-0.5, 0.0, 0.5], x, "right").astype(np.int32), prims=["Bucketize"],
         out_dtype=ms.int32),
    Case("approximate_equal", ops.ApproximateEqual(0.3), [rand(2, 3), rand(2, 3, seed=1)],
         oracle=lambda x, y: np.abs(x - y) < 0.3, prims=["ApproximateEqual"], out_dtype=ms.bool_),
    Case("log_space", ops.LogSpace(5, 2), [np.array(-1.0), np.array(3.0)],
         oracle=lambda a, b: (2.0 ** np.linspace(-1, 3, 5)).astype(np.float32), prims=["LogSpace"],
         out_dtype=ms.float32),
]


def _depth_to_space(x, b):
    n, c, h, w = x.shape
    out = np.zeros((n, c // (b * b), h * b, w * b), x.dtype)
    for k in range(c):
        i, rest = divmod(k, b * c // (b * b))
        j, ch = divmod(rest, c // (b * b))
        out[:, ch, i::b, j::b] = x[:, k]
    return out


def _reverse_sequence(x, lengths, seq, batch):
    out = x.copy()
    for i, n in enumerate(lengths):
        idx = [slice(None)] * x.ndim
        idx[batch] = i
        for j in range(n):
            src, dst = list(idx), list(idx)
            src[seq], dst[seq] = n - 1 - j, j
            out[tuple(dst)] = x[tuple(src)]
    return out


def _index_add(x, idx, y, axis):
    out = np.moveaxis(x.copy(), axis, 0)
    for k, i in enumerate(idx):
        out[i] += np.moveaxis(y, axis, 0)[k]
    return np.moveaxis(out, 0, axis)


def _unique_consecutive(x):
    flat = x.reshape(-1)
    vals, idx, counts, prev = [], [], [], object()
    for v in flat:
        if v != prev:
            vals.append(v)
            counts.append(0)
        counts[-1] += 1
        idx.append(len(vals) - 1)
        prev = v
    return np.array(vals, x.dtype), np.array(idx, np.int64).reshape(x.shape), np.array(counts, np.int64)


_IDX = np.array([2, 0, 2], np.int32)

ARRAY_MORE = [
    Case("roll", ops.Roll((1, -2), (0, 1)), [rand(3, 4)], oracle=lambda x: np.roll(x, (1, -2), (0, 1)),
         prims=["Roll"], grad=True),
    Case("roll_flat", ops.Roll(4), [rand(2, 3)], oracle=lambda x: np.roll(x.reshape(-1), 4).reshape(2, 3),
         prims=["Roll"], grad=True),
    Case("diag_diag_part", lambda x: (ops.Diag()(x), ops.DiagPart()(ops.Diag()(x))), [rand(2, 3)],
         oracle=lambda x: (np.diag(x.reshape(-1)).reshape(2, 3, 2, 3), x), prims=["Diag", "DiagPart"], grad=True),
    Case("diag_part", ops.DiagPart(), [rand(3, 3)], oracle=np.diagonal, prims=["DiagPart"], grad=True),
    Case("trace", ops.Trace(), [rand(3, 4)], oracle=np.trace, prims=["Trace"], grad=True),
    Case("matrix_band_part", lambda x: ops.MatrixBandPart()(x, 1, -1), [rand(2, 4, 4)],
         oracle=lambda x: x * (np.subtract.outer(np.arange(4), np.arange(4)) <= 1), prims=["MatrixBandPart"],
         grad=True),
    Case("fill_diagonal_wrap", ops.FillDiagonal(2.0, True), [rand(7, 3)],
         oracle=lambda x: np.where(np.isin(np.arange(21).reshape(7, 3), np.arange(0, 21, 4)), 2.0, x),
         prims=["FillDiagonal"], grad=True),
    Case("depth_space", lambda x: (ops.DepthToSpace(2)(x), ops.SpaceToDepth(2)(ops.DepthToSpace(2)(x))),
         [rand(1, 8, 2, 3)], oracle=lambda x: (_depth_to_space(x, 2), x), prims=["DepthToSpace", "SpaceToDepth"],
         grad=True),
    Case("reverse_sequence", lambda x, n: ops.ReverseSequence(1, 0)(x, n), [rand(3, 4, 2), np.array([1, 4, 2],
                                                                                               np.int32)],
         oracle=lambda x, n: _reverse_sequence(x, n, 1, 0), prims=["ReverseSequence"], grad=True),
    Case("reverse_sequence_batch_after", lambda x, n: ops.ReverseSequence(0, 2)(x, n),
         [rand(4, 2, 3), np.array([2, 4, 3], np.int64)], oracle=lambda x, n: _reverse_sequence(x, n, 0, 2),
         prims=["ReverseSequence"]),
    Case("index_add", lambda x, y: ops.IndexAdd(1)(x, ms.Tensor(_IDX), y), [rand(2, 3), rand(2, 3, seed=1)],
         oracle=lambda x, y: _index_add(x, _IDX, y, 1), prims=["IndexAdd", "Gather"], grad=True),
    Case("index_fill", lambda x, v: ops.IndexFill()(x, 0, ms.Tensor(np.array([0, 2], np.int32)), v),
         [rand(3, 2), np.array(4.0)], oracle=lambda x, v: np.where(np.array([[1], [0], [1]], bool), v, x),
         prims=["IndexFill"], grad=True),
    Case("masked_scatter", lambda x, u: ops.MaskedScatter()(x, ms.Tensor(np.array([True, False, True])), u),
         [rand(2, 3), rand(5, seed=1)], oracle=lambda x, u: np.where([True, False, True], np.array(
             [[u[0], 0, u[1]], [u[2], 0, u[3]]]), x), prims=["MaskedScatter", "MaskedScatterGrad"], grad=True),
    Case("inplace_rows", lambda x, v: (ops.InplaceAdd((0, 2))(x, v), ops.InplaceSub(1)(x, v[:1]),
                                       ops.InplaceUpdate((2, 0))(x, v)), [rand(3, 2), rand(2, 2, seed=1)],
         oracle=lambda x, v: (x + np.array([v[0], [0, 0], v[1]]), x - np.array([[0, 0], v[0], [0, 0]]),
                              np.array([v[1], x[1], v[0]])), prims=["InplaceAdd", "InplaceSub", "InplaceUpdate"],
         grad=True),
    Case("inplace_update_v2", lambda x, v: ops.InplaceUpdateV2()(x, ms.Tensor(np.array([1], np.int32)), v),
         [rand(3, 2), rand(1, 2, seed=1)], oracle=lambda x, v: np.array([x[0], v[0], x[2]]),
         prims=["InplaceUpdateV2"], grad=True),
    Case("unravel_index", ops.UnravelIndex(), [np.array([5, 7, 0], np.int32), np.array([3, 4], np.int32)],
         oracle=lambda i, d: np.stack(np.unravel_index(i, (3, 4))).astype(np.int32), prims=["UnravelIndex"]),
    Case("tril_triu_indices", lambda: (ops.TrilIndices(3, 4, 1)(), ops.TriuIndices(4, 3, -1, ms.int64)()), [],
         oracle=lambda: (np.stack(np.tril_indices(3, 1, 4)).astype(np.int32), np.stack(np.triu_indices(4, -1, 3))),
         prims=["TrilIndices", "TriuIndices"], out_dtype=ms.int32),
    Case("unique_consecutive", ops.UniqueConsecutive(True, True), [np.array([[1, 1, 2], [2, 2, 5]], np.int32)],
         oracle=_unique_consecutive, prims=["UniqueConsecutive"], modes=("pynative",)),
    Case("unique_consecutive_dim", ops.UniqueConsecutive(True, True, 0),
         [np.array([[1, 2], [1, 2], [3, 4], [1, 2]], np.int32)],
         oracle=lambda x: (np.array([[1, 2], [3, 4], [1, 2]], np.int32), np.array([0, 0, 1, 2]),
                           np.array([2, 1, 1])), prims=["UniqueConsecutive"], modes=("pynative",)),
]


def _z(a, b):
    return ops.Complex()(a, b)


COMPLEX = [
    Case("complex_parts", lambda a, b: (ops.Real()(_z(a, b)), ops.Imag()(_z(a, b)), ops.Angle()(_z(a, b)),
                                        ops.ComplexAbs()(_z(a, b))), [rand(2, 3), rand(2, 3, seed=1)],
         oracle=lambda a, b: (a, b, np.arctan2(b, a), np.hypot(a, b)),
         prims=["Complex", "Real", "Imag", "Angle", "ComplexAbs"], grad=True, dtypes=(np.float32, np.float64),
         rtol=1e-5),
    Case("complex_product_conj", lambda a, b: (ops.Real()(ops.mul(_z(a, b), ops.Conj()(_z(b, a)))),
                                               ops.Imag()(ops.Conj()(ops.mul(_z(a, b), _z(a, a))))),
         [rand(3), rand(3, seed=2)],
         oracle=lambda a, b: (((a + 1j * b) * np.conj(b + 1j * a)).real, np.conj((a + 1j * b) * (a + 1j * a)).imag),
         prims=["Conj", "Mul"], grad=True, rtol=1e-5),
    Case("conj_grad", lambda a, b: (ops.Real()(ops.Conj()(_z(a, b))), ops.Imag()(ops.Conj()(_z(a, b)))),
         [rand(2, 2), rand(2, 2, seed=3)], oracle=lambda a, b: (a, -b), prims=["Conj"], grad=True),
    # the values are complex_parts'; here the dtype (the runner compares values as floats)
    Case("complex_dtype", lambda a, b: _z(a, b), [rand(2), rand(2, seed=1)], prims=["Complex"],
         out_dtype=ms.complex64),
]

DEPRECATED = [
    Case("tensor_add_gelu_fast_gelu", lambda a, b: (ops.TensorAdd()(a, b), ops.Gelu()(a), ops.FastGelu()(b)),
         [rand(2, 3), rand(2, 3, seed=1)],
         oracle=lambda a, b: (a + b, 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a ** 3))),
                             b / (1 + np.exp(-1.702 * b))),
         prims=["TensorAdd", "Gelu", "FastGelu"], grad=True, rtol=1e-5, grad_rtol=1e-5, grad_atol=1e-6),
    Case("pack_unpack_gather_v2", lambda a, b: (ops.Pack(1)((a, b)), ops.Unpack(0)(a)[1],
                                                ops.GatherV2()(b, ms.Tensor(np.array([2, 0, 2], np.int32)), 1)),
         [rand(2, 3), rand(2, 3, seed=1)], oracle=lambda a, b: (np.stack([a, b], 1), a[1], b[:, [2, 0, 2]]),
         prims=["Pack", "Unpack", "GatherV2"], grad=True),
]


def _ctc_nll(lp, target, blank):
    """-log p(target | lp) by summing over every alignment (brute force over all paths: tiny T only)."""
    t_max, c = lp.shape
    total = -np.inf
    for path in np.ndindex(*(c,) * t_max):
        collapsed = [k for i, k in enumerate(path) if i == 0 or k != path[i - 1]]
        if [k for k in collapsed if k != blank] == list(target):
            total = np.logaddexp(total, sum(lp[t, k] for t, k in enumerate(path)))
    return -total


_CTC_TARGETS = np.array([[1, 1], [2, 0]], np.int32)
_CTC_TARGETS_B2 = np.array([[1, 1], [0, 1]], np.int32)
_CTC_IN = np.array([4, 3], np.int32)
_CTC_TL = np.array([2, 1], np.int32)


def _log_softmax(x):
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


CTC = [
    Case("ctc_loss_v2", lambda x: ops.CTCLossV2(0)(ops.log_softmax(x, -1), ms.Tensor(_CTC_TARGETS),
                                                   ms.Tensor(_CTC_IN), ms.Tensor(_CTC_TL))[0],
         [rand(4, 2, 3)],
         oracle=lambda x: np.array([_ctc_nll(_log_softmax(x)[:n, b], _CTC_TARGETS[b, :m], 0)
                                    for b, (n, m) in enumerate(zip(_CTC_IN, _CTC_TL))]),
         prims=["CTCLossV2", "CTCLossV2Grad"], grad=True, dtypes=(np.float32, np.float64), rtol=1e-5),
    Case("ctc_loss_blank_last_mean", lambda x: ops.ctc_loss(ops.log_softmax(x, -1), ms.Tensor(_CTC_TARGETS_B2),
                                                            ms.Tensor(_CTC_IN), ms.Tensor(_CTC_TL), 2)[0],
         [rand(4, 2, 3, seed=1)],
         oracle=lambda x: np.mean([_ctc_nll(_log_softmax(x)[:n, b], _CTC_TARGETS_B2[b, :m], 2) / m
                                   for b, (n, m) in enumerate(zip(_CTC_IN, _CTC_TL))]),
         prims=["CTCLossV2"], grad=True, rtol=1e-5),
    Case("ctc_greedy_decoder", lambda x: ops.CTCGreedyDecoder()(x, ms.Tensor(np.array([3, 2], np.int32))),
         [np.log(np.array([[[0.1, 0.7, 0.2], [0.6, 0.3, 0.1]], [[0.1, 0.8, 0.1], [0.2, 0.2, 0.6]],
                           [[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]]]))],
         oracle=lambda x: (np.array([[0, 0], [0, 1], [1, 0]]), np.array([1, 0, 0]), np.array([2, 2]),
                           -np.log([[0.7 * 0.8 * 0.5], [0.6 * 0.6]])),
         prims=["CTCGreedyDecoder"], modes=("pynative",), rtol=1e-5),
]


def _parts(z):
    return ops.Real()(z), ops.Imag()(z)


def _np_parts(z):
    return z.real, z.imag


FFT = [
    Case("fftn_pad", lambda a, b: _parts(ops.FFTN((1,), (5,))(_z(a, b))), [rand(2, 4), rand(2, 4, seed=1)],
         oracle=lambda a, b: _np_parts(np.fft.fft(a + 1j * b, 5, 1)), prims=["FFTN"], grad=True,
         dtypes=(np.float32, np.float64), rtol=1e-5, atol=1e-5),
    Case("ifftn_truncate_ortho_2d", lambda a, b: _parts(ops.FFTN((0, 1), (2, 3), "ortho", True)(_z(a, b))),
         [rand(3, 4), rand(3, 4, seed=1)], oracle=lambda a, b: _np_parts(np.fft.ifft2(a + 1j * b, (2, 3),
                                                                                     norm="ortho")),
         prims=["FFTN"], grad=True, rtol=1e-5),
    Case("rfftn_2d_forward", lambda x: _parts(ops.RFFTN((0, 1), (3, 4), "forward")(x)), [rand(3, 5)],
         oracle=lambda x: _np_parts(np.fft.rfft2(x, (3, 4), norm="forward")), prims=["RFFTN"], grad=True,
         dtypes=(np.float32, np.float64), rtol=1e-5, atol=1e-6),
    Case("irfftn_even", lambda a, b: ops.IRFFTN((1,), (6,))(_z(a, b)), [rand(2, 4), rand(2, 4, seed=2)],
         oracle=lambda a, b: np.fft.irfft(a + 1j * b, 6, 1), prims=["IRFFTN"], grad=True,
         dtypes=(np.float32, np.float64), rtol=1e-5, atol=1e-6),
    Case("irfftn_odd_2d_padded", lambda a, b: ops.IRFFTN((0, 1), (3, 7), "ortho")(_z(a, b)),
         [rand(3, 3), rand(3, 3, seed=3)], oracle=lambda a, b: np.fft.irfft2(a + 1j * b, (3, 7), norm="ortho"),
         prims=["IRFFTN"], grad=True, rtol=1e-5, atol=1e-6),
    Case("hfft_ihfft_functions", lambda x: (ops.hfft(x, 6), ops.Real()(ops.ihfft(x)), ops.fftshift(x, 1)),
         [rand(2, 4)], oracle=lambda x: (np.fft.hfft(x, 6), np.fft.ihfft(x).real, np.fft.fftshift(x, 1)),
         prims=["IRFFTN", "RFFTN", "Conj", "Roll"], grad=True, rtol=1e-5, atol=1e-6),
]


def _svd_oracle(a):
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    return s, u, np.swapaxes(vh, -1, -2)


def _svd_align(outs, expected):
    """Singular vectors are unique only up to negating a pair ``(u_i, v_i)`` together (LAPACK and cuSOLVER pick
    different signs): each pair of ours takes the oracle's sign, read from ``u_i . u'_i + v_i . v'_i`` (about +2 or
    -2 for a right pair), before the usual comparison. A wrong vector, or one of a pair negated alone (the sum is
    then about 0: kept as is), still fails. A full ``u``'s columns past ``min(m, n)`` take their own sign."""
    if len(outs) != 3 or len(expected) != 3:
        return outs
    s, u, v = outs
    _, eu, ev = expected
    if u.shape != eu.shape or v.shape != ev.shape or u.ndim < 2 or v.ndim < 2 or not u.size or not v.size:
        return outs
    k = min(u.shape[-1], v.shape[-1])
    u, v = u.astype(np.float64), v.astype(np.float64)
    pair = (u[..., :k] * eu[..., :k]).sum(-2) + (v[..., :k] * ev[..., :k]).sum(-2)        # (..., k)
    sign = np.where(pair < 0, -1.0, 1.0)[..., None, :]
    u[..., :k] *= sign
    v[..., :k] *= sign
    for rest, erest in ((u[..., k:], eu[..., k:]), (v[..., k:], ev[..., k:])):
        rest *= np.where((rest * erest).sum(-2) < 0, -1.0, 1.0)[..., None, :]
    return [s, u, v]


def _expm(a):
    from scipy.linalg import expm
    return expm(a)


def _lu_unpack(lu, piv):
    m, n = lu.shape
    k = min(m, n)
    perm = list(range(m))
    for i, j in enumerate(piv - 1):
        perm[i], perm[j] = perm[j], perm[i]
    p = np.zeros((m, m))
    p[perm, range(m)] = 1.0
    return p, np.tril(lu[:, :k], -1) + np.eye(m, k), np.triu(lu[:k])


_TALL = np.array([[1.0, 2.0], [3.0, 4.5], [5.0, 7.0]]) + rand(3, 2, seed=4) * 0.1

LINALG_MORE = [
    Case("svd_reduced", ops.Svd(), [_TALL], oracle=_svd_oracle, prims=["Svd"], align=_svd_align, grad=True,
         dtypes=(np.float32, np.float64), rtol=1e-4, atol=1e-5, grad_rtol=1e-5, grad_atol=1e-6),
    Case("svd_wide_batched", ops.Svd(), [rand(2, 2, 3, seed=5)], oracle=_svd_oracle, prims=["Svd"],
         align=_svd_align, grad=True, rtol=1e-5, grad_rtol=1e-5, grad_atol=1e-6),
    Case("svd_values_only", ops.Svd(compute_uv=False), [_TALL],
         oracle=lambda a: (np.linalg.svd(a, compute_uv=False), np.zeros(0), np.zeros(0)), prims=["Svd"],
         align=_svd_align, grad=True, rtol=1e-5),
    Case("svd_full", lambda a: ops.Svd(True)(a)[0], [_TALL], oracle=lambda a: np.linalg.svd(a)[1], prims=["Svd"],
         align=_svd_align, grad=True, rtol=1e-5),
    Case("matrix_exp", ops.MatrixExp(), [rand(2, 3, 3, seed=6)], oracle=lambda a: np.stack([_expm(m) for m in a]),
         prims=["MatrixExp"], grad=True, dtypes=(np.float32, np.float64), rtol=1e-5, atol=1e-6),
    Case("matrix_solve", ops.MatrixSolve(), [rand(2, 3, 3, seed=7) + 3 * np.eye(3), rand(2, 3, 2, seed=8)],
         oracle=np.linalg.solve, prims=["MatrixSolve"], grad=True, rtol=1e-5),
    Case("matrix_solve_adjoint", ops.MatrixSolve(True), [rand(3, 3, seed=9) + 3 * np.eye(3), rand(3, 1, seed=1)],
         oracle=lambda a, b: np.linalg.solve(a.T, b), prims=["MatrixSolve"], grad=True, rtol=1e-5),
    Case("eig_triangular", lambda a: tuple(ops.Real()(t) for t in ops.Eig(True)(a)),
         [np.array([[2.0, 1.0, 0.5], [0.0, 3.0, 1.0], [0.0, 0.0, -1.0]])],
         oracle=lambda a: tuple(t.real for t in np.linalg.eig(a)), prims=["Eig"], rtol=1e-5, atol=1e-6),
    Case("geqrf_orgqr", lambda a: (ops.Geqrf()(a)[0], ops.Orgqr()(*ops.Geqrf()(a))), [_TALL],
         oracle=lambda a: (np.swapaxes(np.linalg.qr(a, mode="raw")[0], -1, -2), np.linalg.qr(a)[0]),
         prims=["Geqrf", "Orgqr"], rtol=1e-5, atol=1e-6),
    Case("lu_unpack", lambda lu: ops.LuUnpack()(lu, ms.Tensor(np.array([3, 2, 3], np.int32))),
         [rand(3, 3, seed=2)], oracle=lambda lu: _lu_unpack(lu, np.array([3, 2, 3])), prims=["LuUnpack"], grad=True),
    Case("lu_unpack_wide", lambda lu: ops.LuUnpack()(lu, ms.Tensor(np.array([2, 2], np.int32))),
         [rand(2, 4, seed=3)], oracle=lambda lu: _lu_unpack(lu, np.array([2, 2])), prims=["LuUnpack"], grad=True),
    Case("lu_unpack_tall", lambda lu: ops.LuUnpack()(lu, ms.Tensor(np.array([1, 3], np.int64))),
         [rand(4, 2, seed=3)], oracle=lambda lu: _lu_unpack(lu, np.array([1, 3])), prims=["LuUnpack"], grad=True),
]


def _spd(n, seed=0):
    a = rand(n, n, seed=seed)
    return a @ a.T + n * np.eye(n)


def _b2s(x, blocks, crops):
    """BatchToSpaceND by its definition: out[b, c, h*bh + i, w*bw + j] = x[(i*bw + j)*B + b, c, h, w], cropped."""
    bh, bw = blocks
    nb, c, h, w = x.shape
    batch = nb // (bh * bw)
    out = np.zeros((batch, c, h * bh, w * bw), x.dtype)
    for i in range(bh):
        for j in range(bw):
            out[:, :, i::bh, j::bw] = x[(i * bw + j) * batch:(i * bw + j + 1) * batch]
    (c0, c1), (d0, d1) = crops
    return out[:, :, c0:h * bh - c1, d0:w * bw - d1]


def _s2b(x, blocks, pads):
    bh, bw = blocks
    y = np.pad(x, [(0, 0), (0, 0), tuple(pads[0]), tuple(pads[1])])
    return np.concatenate([y[:, :, i::bh, j::bw] for i in range(bh) for j in range(bw)])


MORE = [
    Case("dense", ops.Dense(), [rand(2, 3, 4), rand(5, 4, seed=1), rand(5, seed=2)],
         oracle=lambda x, w, b: x @ w.T + b, prims=["Dense"], grad=True, rtol=1e-5),
    Case("dense_vector_weight_no_bias", lambda x, w: ops.Dense()(x, w), [rand(3, 4), rand(4, seed=1)],
         oracle=lambda x, w: x @ w, prims=["Dense"], grad=True),
    Case("identity_n_padding", lambda a, b: ops.IdentityN()((a, ops.Padding(3)(b))), [rand(2, 2), rand(3, 1, seed=1)],
         oracle=lambda a, b: (a, np.concatenate([b, np.zeros((3, 2))], 1)), prims=["IdentityN", "Padding"],
         grad=True),
    Case("batch_to_space_nd", ops.BatchToSpaceND((2, 2), ((0, 1), (1, 0))), [rand(8, 2, 2, 3)],
         oracle=lambda x: _b2s(x, (2, 2), ((0, 1), (1, 0))), prims=["BatchToSpaceND", "SpaceToBatchND"], grad=True),
    Case("space_to_batch_nd", ops.SpaceToBatchND((1, 2), ((1, 1), (0, 1))), [rand(2, 1, 2, 3)],
         oracle=lambda x: _s2b(x, (1, 2), ((1, 1), (0, 1))), prims=["SpaceToBatchND", "BatchToSpaceND"], grad=True),
    Case("batch_space_2d", lambda x: (ops.BatchToSpace(2, ((0, 0), (0, 1)))(x),
                                      ops.SpaceToBatch(2, ((0, 0), (1, 1)))(x)), [rand(4, 1, 2, 2)],
         oracle=lambda x: (_b2s(x, (2, 2), ((0, 0), (0, 1))), _s2b(x, (2, 2), ((0, 0), (1, 1)))),
         prims=["BatchToSpace", "SpaceToBatch"], grad=True),
    Case("matrix_triangular_solve", ops.MatrixTriangularSolve(), [rand(2, 3, 3, seed=3) + 3 * np.eye(3),
                                                                  rand(2, 3, 2, seed=4)],
         oracle=lambda a, b: np.linalg.solve(np.tril(a), b), prims=["MatrixTriangularSolve"], grad=True, rtol=1e-5),
    Case("matrix_triangular_solve_upper_adjoint", ops.MatrixTriangularSolve(False, True),
         [rand(3, 3, seed=5) + 3 * np.eye(3), rand(3, 1, seed=6)],
         oracle=lambda a, b: np.linalg.solve(np.triu(a).T, b), prims=["MatrixTriangularSolve"], grad=True, rtol=1e-5),
    Case("matrix_power", ops.MatrixPower(3), [rand(2, 3, 3, seed=7)],
         oracle=lambda x: np.linalg.matrix_power(x, 3), prims=["MatrixPower"], grad=True, rtol=1e-5),
    Case("matrix_power_negative", ops.MatrixPower(-2), [rand(1, 3, 3, seed=8) + 3 * np.eye(3)],
         oracle=lambda x: np.linalg.matrix_power(x, -2), prims=["MatrixPower"], grad=True, rtol=1e-5),
    # the factorisation reads one triangle; its gradient is the symmetric one (MindSpore's, PyTorch's), so the
    # finite differences go through a symmetric parametrisation A = B B^T + 3I
    Case("cholesky", lambda b: (ops.Cholesky()(ops.matmul(b, b.T) + 3 * ops.eye(3, 3, b.dtype)),
                                ops.Cholesky(True)(ops.matmul(b, b.T) + 3 * ops.eye(3, 3, b.dtype))), [rand(3, 3)],
         oracle=lambda b: (np.linalg.cholesky(b @ b.T + 3 * np.eye(3)), np.linalg.cholesky(b @ b.T + 3 * np.eye(3)).T),
         prims=["Cholesky"], grad=True, rtol=1e-5, grad_rtol=1e-5, grad_atol=1e-6),
    Case("cholesky_inverse", lambda l_: (ops.CholeskyInverse()(l_), ops.CholeskyInverse(True)(l_.T)),
         [np.linalg.cholesky(_spd(3, seed=1))],
         oracle=lambda l_: (np.linalg.inv(l_ @ l_.T),) * 2, prims=["CholeskyInverse"], grad=True, rtol=1e-5),
    Case("cholesky_solve", lambda b, l_: (ops.CholeskySolve()(b, l_), ops.CholeskySolve(True)(b, l_.T)),
         [rand(3, 2), np.linalg.cholesky(_spd(3, seed=2))],
         oracle=lambda b, l_: (np.linalg.solve(l_ @ l_.T, b),) * 2, prims=["CholeskySolve"], grad=True, rtol=1e-5),
]


def _in_place(prim, indices):
    """``prim`` applied to a Parameter made of the input; the result and the Parameter read back after."""
    def op(x, u):
        param = ms.Parameter(x, name="p")
        out = prim(param, ms.Tensor(indices), u)
        return out, ops.identity(param)
    return op


def _np_scatter(x, indices, updates, fn, nd):
    out = x.copy()
    idx = indices.reshape(-1, indices.shape[-1]) if nd else indices.reshape(-1, 1)
    upd = updates.reshape((idx.shape[0],) + x.shape[idx.shape[1]:])
    for row, u in zip(idx, upd):
        out[tuple(row)] = fn(out[tuple(row)], u)
    return out


_ROW_IDX = np.array([[2, 0], [2, 1]], np.int32)          # row 2 twice, rows 0 and 1 once
_ND_IDX = np.array([[0, 1], [2, 0], [0, 1]], np.int64)
_SCATTER_FNS = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide, "Max": np.maximum,
                "Min": np.minimum, "Update": lambda a, b: b}

SCATTER = [
    Case(f"scatter_{kind.lower()}_in_place", _in_place(getattr(ops, f"Scatter{kind}")(), _ROW_IDX),
         [rand(3, 2), rand(2, 2, 2, low=0.5, high=2.0, seed=1)],
         oracle=lambda x, u, fn=fn: (_np_scatter(x, _ROW_IDX, u, fn, False),) * 2, prims=[f"Scatter{kind}"],
         modes=("pynative",), rtol=1e-5)
    for kind, fn in _SCATTER_FNS.items()
] + [
    Case(f"scatter_nd_{kind.lower()}_in_place", _in_place(getattr(ops, f"ScatterNd{kind}")(), _ND_IDX),
         [rand(3, 2), rand(3, low=0.5, high=2.0, seed=2)],
         oracle=lambda x, u, fn=fn: (_np_scatter(x, _ND_IDX, u, fn, True),) * 2, prims=[f"ScatterNd{kind}"],
         modes=("pynative",), rtol=1e-5)
    for kind, fn in _SCATTER_FNS.items() if kind != "Update"
] + [
    Case("scatter_non_aliasing_add", _in_place(ops.ScatterNonAliasingAdd(), _ND_IDX[:, :1]),
         [rand(3, 2), rand(3, 2, seed=3)], oracle=lambda x, u: (_np_scatter(x, _ND_IDX[:, :1], u, np.add, True),) * 2,
         prims=["ScatterNonAliasingAdd"], modes=("pynative",), rtol=1e-5),
    Case("tensor_scatter_sub_mul_div", lambda x, u: (ops.TensorScatterSub()(x, ms.Tensor(_ND_IDX), u),
                                                     ops.TensorScatterMul()(x, ms.Tensor(_ND_IDX), u),
                                                     ops.TensorScatterDiv()(x, ms.Tensor(_ND_IDX), u)),
         [rand(3, 2), rand(3, low=0.5, high=2.0, seed=4)],
         oracle=lambda x, u: tuple(_np_scatter(x, _ND_IDX, u, fn, True) for fn in (np.subtract, np.multiply,
                                                                                    np.divide)),
         prims=["TensorScatterSub", "TensorScatterMul", "TensorScatterDiv"], grad=True, rtol=1e-5),
    Case("tensor_scatter_max_min", lambda x, u: (ops.TensorScatterMax()(x, ms.Tensor(_ND_IDX[:2]), u),
                                                 ops.TensorScatterMin()(x, ms.Tensor(_ND_IDX[:2]), u)),
         [rand(3, 2), np.array([0.7, -0.4])],
         oracle=lambda x, u: (_np_scatter(x, _ND_IDX[:2], u, np.maximum, True),
                              _np_scatter(x, _ND_IDX[:2], u, np.minimum, True)),
         prims=["TensorScatterMax", "TensorScatterMin"], grad=True),
    Case("tensor_scatter_rows_int", lambda x, u: ops.TensorScatterMax()(x, ms.Tensor(np.array([[1], [1]])), u),
         [randint(3, 2), randint(2, 2, seed=5)],
         oracle=lambda x, u: _np_scatter(x, np.array([[1], [1]]), u, np.maximum, True), prims=["TensorScatterMax"]),
]

CASES = SPECIAL + MATH_MISC + ARRAY_MORE + COMPLEX + DEPRECATED + CTC + FFT + LINALG_MORE + MORE + SCATTER
