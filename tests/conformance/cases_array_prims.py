"""Conformance cases of the array_prims family (``EmbeddingLookup``, ``FFTWithSize``, the view primitives,
``CopyWithSlice``, ``TensorToTuple``). Oracles: NumPy indexing/transposes and ``numpy.fft``; complex results
are compared as (real, imaginary) parts, complex inputs are built from two real ones (so the gradient check
covers both parts)."""
import itertools

import numpy as np

import mindspore as ms
from mindspore import ops

from case import Case, rand, randint

EAGER_ONLY = ("pynative",)


def np_embedding_lookup(params, indices, offset):
    local = indices.astype(np.int64) - offset
    valid = (local >= 0) & (local < params.shape[0])
    out = params[np.where(valid, local, 0)]
    out[~valid] = 0
    return out


def _z(a, b):
    return ops.Complex()(a, b)


def _parts(z):
    return ops.Real()(z), ops.Imag()(z)


def _np_parts(z):
    return z.real, z.imag


IDX = np.array([[5, 2, 3], [8, 5, 0], [-1, 4, 7]], np.int32)
TABLE = rand(6, 4, seed=1)


def _fws(*args, **kw):
    return ops.FFTWithSize(*args, **kw)


def np_rnnt_cost(acts, labels, input_lengths, label_lengths, blank=0):
    """-log of the summed probability of every alignment, enumerated one by one (tiny cases only)."""
    a = acts.astype(np.float64)
    lp = a - a.max(-1, keepdims=True)
    lp = lp - np.log(np.exp(lp).sum(-1, keepdims=True))
    costs = []
    for b in range(a.shape[0]):
        t_len, n = int(input_lengths[b]), int(label_lengths[b])
        total = []
        for emits in itertools.combinations(range(t_len - 1 + n), n):   # which steps emit a label
            t = u = 0
            logp = 0.0
            for step in range(t_len - 1 + n):
                if step in emits:
                    logp += lp[b, t, u, labels[b, u]]
                    u += 1
                else:
                    logp += lp[b, t, u, blank]
                    t += 1
            total.append(logp + lp[b, t_len - 1, n, blank])
        costs.append(-np.logaddexp.reduce(total))
    return np.array(costs)


def np_rnnt(acts, labels, input_lengths, label_lengths, blank=0):
    """Costs by enumeration and their gradient w.r.t. ``acts`` by central differences of it (float64)."""
    acts = acts.astype(np.float64)
    grads = np.zeros_like(acts)
    eps = 1e-6
    for idx in np.ndindex(*acts.shape):
        hi, lo = acts.copy(), acts.copy()
        hi[idx] += eps
        lo[idx] -= eps
        grads[idx] = (np_rnnt_cost(hi, labels, input_lengths, label_lengths, blank)[idx[0]]
                      - np_rnnt_cost(lo, labels, input_lengths, label_lengths, blank)[idx[0]]) / (2 * eps)
    return np_rnnt_cost(acts, labels, input_lengths, label_lengths, blank), grads


def np_confusion(labels, preds, weights=None, n=4):
    out = np.zeros((n, n))
    for i, (l, p) in enumerate(zip(labels, preds)):
        out[l, p] += 1 if weights is None else weights[i]
    return out


RNNT_ACTS = rand(2, 4, 3, 5, low=-2, high=2, seed=7)
RNNT_LABELS = np.array([[1, 3], [4, 0]], np.int32)
RNNT_TLEN = np.array([4, 3], np.int32)
RNNT_ULEN = np.array([2, 1], np.int32)

CASES = [
    Case("embedding_lookup_offset", lambda p, i: ops.EmbeddingLookup()(p, i, 2), [TABLE, IDX],
         oracle=lambda p, i: np_embedding_lookup(p, i, 2), prims=["EmbeddingLookup"], grad=True,
         dtypes=(np.float32, np.float64, np.float16)),
    Case("embedding_lookup_no_offset_int64", lambda p, i: ops.EmbeddingLookup()(p, i, 0),
         [TABLE, randint(5, high=8, seed=2, dtype=np.int64)],
         oracle=lambda p, i: np_embedding_lookup(p, i, 0), prims=["EmbeddingLookup"], grad=True),
    Case("embedding_lookup_rank1_params", lambda p, i: ops.EmbeddingLookup()(p, i, 1), [rand(5, seed=3), IDX],
         oracle=lambda p, i: np_embedding_lookup(p, i, 1), prims=["EmbeddingLookup"], grad=True),
    Case("embedding_lookup_int_table", lambda p, i: ops.EmbeddingLookup()(p, i, 3),
         [randint(6, 2, high=50, seed=4), IDX], oracle=lambda p, i: np_embedding_lookup(p, i, 3),
         prims=["EmbeddingLookup"], out_dtype=ms.int32),
    Case("fft_with_size_c2c_2d", lambda a, b: _parts(_fws(2, False, False)(_z(a, b))),
         [rand(2, 3, 4), rand(2, 3, 4, seed=1)], oracle=lambda a, b: _np_parts(np.fft.fft2(a + 1j * b)),
         prims=["FFTWithSize"], grad=True, rtol=1e-5, atol=1e-5),
    Case("fft_with_size_ifft_ortho", lambda a, b: _parts(_fws(1, True, False, norm="ortho")(_z(a, b))),
         [rand(3, 5), rand(3, 5, seed=1)], oracle=lambda a, b: _np_parts(np.fft.ifft(a + 1j * b, norm="ortho")),
         prims=["FFTWithSize"], grad=True),
    Case("fft_with_size_rfft_forward", lambda x: _parts(_fws(2, False, True, norm="forward")(x)), [rand(3, 6)],
         oracle=lambda x: _np_parts(np.fft.rfft2(x, norm="forward")), prims=["FFTWithSize"], grad=True),
    Case("fft_with_size_rfft_full", lambda x: _parts(_fws(1, False, True, onesided=False)(x)), [rand(3, 5)],
         oracle=lambda x: _np_parts(np.fft.fft(x)), prims=["FFTWithSize"], grad=True, rtol=1e-5, atol=1e-5),
    Case("fft_with_size_irfft_default_size", lambda a, b: _fws(1, True, True)(_z(a, b)),
         [rand(2, 4), rand(2, 4, seed=2)], oracle=lambda a, b: np.fft.irfft(a + 1j * b, 6),
         prims=["FFTWithSize"], grad=True),
    Case("fft_with_size_irfft_sizes_2d", lambda a, b: _fws(2, True, True, signal_sizes=(3, 7))(_z(a, b)),
         [rand(3, 4), rand(3, 4, seed=3)], oracle=lambda a, b: np.fft.irfft2(a + 1j * b, (3, 7)),
         prims=["FFTWithSize"], grad=True),
    Case("fft_with_size_irfft_full", lambda a, b: _fws(1, True, True, onesided=False)(_z(a, b)),
         [rand(2, 4), rand(2, 4, seed=4)], oracle=lambda a, b: np.fft.ifft(a + 1j * b).real,
         prims=["FFTWithSize"], grad=True),
    Case("transpose_view", lambda x: ops.TransposeView()(x, (2, 0, 1)), [rand(2, 3, 4)],
         oracle=lambda x: np.transpose(x, (2, 0, 1)), prims=["TransposeView"], grad=True,
         dtypes=(np.float32, np.float64, np.float16)),
    Case("transpose_view_then_add", lambda x: ops.TransposeView()(x, (1, 0)) + 1, [rand(3, 4)],
         oracle=lambda x: x.T + 1, prims=["TransposeView"], grad=True),
    Case("transpose_ext_view", lambda x: ops.TransposeExtView()(x, -1, 0), [rand(2, 3, 4)],
         oracle=lambda x: np.swapaxes(x, -1, 0), prims=["TransposeExtView"], grad=True),
    Case("transpose_ext_view_same_dim", lambda x: ops.TransposeExtView()(x, 1, 1), [rand(2, 3)],
         oracle=lambda x: x, prims=["TransposeExtView"], grad=True),
    Case("select_view_dim0", lambda x: ops.SelectView()(x, 2, 0), [rand(4, 3)], oracle=lambda x: x[2],
         prims=["SelectView"], grad=True),
    Case("select_view_negative_dim", lambda x: ops.SelectView()(x, 1, -1), [rand(2, 3, 4)],
         oracle=lambda x: x[..., 1], prims=["SelectView"], grad=True),
    Case("copy_with_slice", lambda x, s: ops.CopyWithSlice()(x, s), [rand(3, 4), rand(3, 4, seed=5)],
         oracle=lambda x, s: s, prims=["CopyWithSlice"], grad=True),
    Case("tensor_to_tuple", lambda x: ms.Tensor(np.array(ops.TensorToTuple()(x))), [randint(5, seed=6)],
         oracle=lambda x: x, prims=["TensorToTuple"], modes=EAGER_ONLY),
    Case("rnnt_loss_costs_and_grads", lambda a, l, t, u: ops.RNNTLoss()(a, l, t, u),
         [RNNT_ACTS, RNNT_LABELS, RNNT_TLEN, RNNT_ULEN], oracle=np_rnnt, prims=["RNNTLoss"], rtol=1e-4, atol=1e-5),
    Case("rnnt_loss_blank_last_grad", lambda a, l, t, u: ops.RNNTLoss(blank_label=4)(a, l, t, u)[0],
         [rand(1, 3, 3, 5, seed=8), np.array([[2, 2]], np.int32), np.array([3], np.int32), np.array([2], np.int32)],
         oracle=lambda a, l, t, u: np_rnnt_cost(a, l, t, u, blank=4), prims=["RNNTLoss"], grad=True,
         grad_inputs=[0], rtol=1e-5, atol=1e-6),
    Case("rnnt_loss_single_frame_no_labels", lambda a, l, t, u: ops.RNNTLoss()(a, l, t, u)[0],
         [rand(2, 1, 2, 3, seed=9), np.array([[1], [2]], np.int32), np.array([1, 1], np.int32),
          np.array([0, 1], np.int32)],
         oracle=np_rnnt_cost, prims=["RNNTLoss"], grad=True, grad_inputs=[0]),
    Case("confusion_matrix", lambda l, p: ops.ConfusionMatrix(4)(l, p),
         [np.array([0, 1, 1, 3, 2, 1], np.int32), np.array([1, 2, 1, 3, 2, 2], np.int32)],
         oracle=lambda l, p: np_confusion(l, p), prims=["ConfusionMatrix"], out_dtype=ms.int32),
    Case("confusion_matrix_weighted_float", lambda l, p, w: ops.ConfusionMatrix(4, "float32")(l, p, w),
         [np.array([0, 1, 1, 3, 2], np.int64), np.array([1, 2, 1, 3, 0], np.int64), rand(5, low=0, high=2, seed=10)],
         oracle=lambda l, p, w: np_confusion(l, p, w), prims=["ConfusionMatrix"], out_dtype=ms.float32),
    Case("batch_to_space_nd_v2", lambda x, b, c: ops.BatchToSpaceNDV2()(x, b, c),
         [rand(8, 2, 3, 2, seed=11), np.array([2, 4], np.int32), np.array([[1, 2], [0, 3]], np.int64)],
         oracle=lambda x, b, c: np_batch_to_space(x, b, c), prims=["BatchToSpaceNDV2"], modes=EAGER_ONLY,
         dtypes=(np.float32, np.float64, np.float16)),
    Case("batch_to_space_nd_v2_1d_block", lambda x, b, c: ops.BatchToSpaceNDV2()(x, b, c),
         [rand(6, 4, 5, seed=12), np.array([3], np.int64), np.array([[2, 1]], np.int32)],
         oracle=lambda x, b, c: np_batch_to_space(x, b, c), prims=["BatchToSpaceNDV2"], modes=EAGER_ONLY),
]


def np_batch_to_space(x, block, crops):
    """Element by element: output[n, ..., s_i] reads batch (block offsets, n) at s_i // block_i."""
    m = len(block)
    lead = x.ndim - m
    batch = x.shape[0] // int(np.prod(block))
    full = [s * b for s, b in zip(x.shape[lead:], block)]
    out = np.zeros((batch,) + x.shape[1:lead] + tuple(full), x.dtype)
    for idx in np.ndindex(*out.shape):
        offs = [idx[lead + i] % block[i] for i in range(m)]
        flat = 0
        for i in range(m):
            flat = flat * block[i] + offs[i]
        src = (flat * batch + idx[0],) + idx[1:lead] + tuple(idx[lead + i] // block[i] for i in range(m))
        out[idx] = x[src]
    sl = (slice(None),) * lead + tuple(slice(c0, f - c1) for (c0, c1), f in zip(crops, full))
    return out[sl]
