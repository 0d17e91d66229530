"""The kernels of ``mindspore/ops/_defs/array_prims.py`` but ``CopyWithSlice`` (each backend's own), bound
(:func:`mindspore_array_kernels.bind`) with ``xp``, the array library; ``dev``, an operand as an ``xp`` array (the
very buffer when it is one: the views share its memory); ``host``, an array as NumPy; ``back``, a NumPy result as a
contiguous ``xp`` array; and ``batch_to_space``, the backend's ``BatchToSpaceND`` kernel.

The view primitives (``TransposeView``, ``TransposeExtView``, ``SelectView``) return views of their input (NumPy
views; on a GPU strided device arrays), so that in PYNATIVE the result shares memory with it as in MindSpore 2.10.
``FFTWithSize`` runs on ``xp.fft`` (pocketfft; cuFFT). ``RNNTLoss`` runs the forward-backward recursion over the
(T, U) lattice in float64 on the host (sequential, tiny per step), and so does ``ConfusionMatrix``.
"""
import types

import numpy as np

from mindspore.plugin import MSValueError

BOUND = ("xp", "dev", "host", "back", "batch_to_space")


def _embedding_lookup(prim, params, indices, offset, out=None):
    params, indices = dev(params), dev(indices)
    local = indices.astype(xp.int64) - int(offset)
    valid = (local >= 0) & (local < params.shape[0])
    res = params[xp.where(valid, local, 0)]
    res[~valid] = 0
    return xp.ascontiguousarray(res)


def _fft_with_size(prim, x, out=None):
    x = dev(x)
    kind, axes, sizes = prim._plan(x.shape)
    if kind == "c2c":
        fn = xp.fft.ifftn if prim.inverse else xp.fft.fftn
        res = fn(x, s=sizes, axes=axes, norm=prim.norm)
    elif kind == "r2c":
        res = xp.fft.rfftn(x.astype(xp.float64), s=sizes, axes=axes, norm=prim.norm)
    elif kind == "r2c_full":
        res = xp.fft.fftn(x.astype(xp.float64), s=sizes, axes=axes, norm=prim.norm)
    elif kind == "c2r_full":
        res = xp.fft.ifftn(x, s=sizes, axes=axes, norm=prim.norm).real
    else:
        res = xp.fft.irfftn(x, s=sizes, axes=axes, norm=prim.norm)
    return xp.ascontiguousarray(res).astype(out.dtype.to_numpy(), copy=False)


def _transpose_view(prim, x, perm, out=None):
    x = dev(x)
    return x.transpose(tuple(p % max(x.ndim, 1) for p in perm))


def _transpose_ext_view(prim, x, dim0, dim1, out=None):
    x = dev(x)
    return x.transpose(prim.perm(x.ndim, dim0, dim1))


def _select_view(prim, x, index, dim, out=None):
    x = dev(x)
    return x[(slice(None),) * (dim % x.ndim) + (index,)]


def _log_softmax(a):
    m = a.max(axis=-1, keepdims=True)
    return a - m - np.log(np.exp(a - m).sum(axis=-1, keepdims=True))


def _rnnt_one(lp, labels, t_len, u_len, blank):
    """Cost and d cost / d log-probs of one sample: ``lp`` (T, U, V) in float64 on the host."""
    grad = np.zeros_like(lp)
    if t_len <= 0:
        return 0.0, grad
    emit = lp[:t_len, :u_len - 1][:, np.arange(u_len - 1), labels[:u_len - 1]] if u_len > 1 else None
    stay = lp[:t_len, :u_len, blank]
    alpha = np.full((t_len, u_len), -np.inf)
    beta = np.full((t_len, u_len), -np.inf)
    alpha[0, 0] = 0.0
    for t in range(t_len):
        for u in range(u_len):
            if t == u == 0:
                continue
            a = alpha[t - 1, u] + stay[t - 1, u] if t else -np.inf
            b = alpha[t, u - 1] + emit[t, u - 1] if u else -np.inf
            alpha[t, u] = np.logaddexp(a, b)
    beta[t_len - 1, u_len - 1] = stay[t_len - 1, u_len - 1]
    for t in range(t_len - 1, -1, -1):
        for u in range(u_len - 1, -1, -1):
            if t == t_len - 1 and u == u_len - 1:
                continue
            a = beta[t + 1, u] + stay[t, u] if t < t_len - 1 else -np.inf
            b = beta[t, u + 1] + emit[t, u] if u < u_len - 1 else -np.inf
            beta[t, u] = np.logaddexp(a, b)
    log_p = beta[0, 0]
    nxt = np.full((t_len, u_len), -np.inf)
    nxt[:-1] = beta[1:]
    nxt[-1, -1] = 0.0
    grad[:t_len, :u_len, blank] = -np.exp(alpha + stay + nxt - log_p)
    if u_len > 1:
        g = -np.exp(alpha[:, :-1] + emit + beta[:, 1:] - log_p)
        grad[np.arange(t_len)[:, None], np.arange(u_len - 1)[None, :], labels[None, :u_len - 1]] = g
    return -log_p, grad


def _rnnt_loss(prim, acts, labels, input_lengths, label_lengths, out=None):
    """Forward-backward over the (T, U) lattice per sample, in float64 on the host."""
    lp = _log_softmax(host(acts).astype(np.float64))
    labels, t_lens, u_lens = host(labels), host(input_lengths), host(label_lengths)
    bsz, t_max, u_max, v = lp.shape
    costs = np.zeros(bsz)
    grads = np.zeros_like(lp)
    for b in range(bsz):
        t_len, u_len = int(t_lens[b]), int(u_lens[b]) + 1
        if not (0 <= t_len <= t_max and 1 <= u_len <= u_max):
            raise MSValueError(f"For 'RNNTLoss', input_lengths[{b}] must be in [0, {t_max}] and label_lengths[{b}] "
                             f"in [0, {u_max - 1}], but got {t_len} and {u_len - 1}.")
        lab = labels[b].astype(np.int64)
        if u_len > 1 and (lab[:u_len - 1].min() < 0 or lab[:u_len - 1].max() >= v):
            raise MSValueError(f"For 'RNNTLoss', the labels must be in [0, {v}), but got {lab[:u_len - 1]}.")
        costs[b], g_lp = _rnnt_one(lp[b], lab, t_len, u_len, prim.blank_label)
        # through the log-softmax: g - softmax * sum(g)
        grads[b] = g_lp - np.exp(lp[b]) * g_lp.sum(axis=-1, keepdims=True)
        grads[b, t_len:] = 0
        grads[b, :, u_len:] = 0
    dt = out[0].dtype.to_numpy()
    return back(costs.astype(dt)), back(grads.astype(dt))


def _confusion_matrix(prim, labels, predictions, weights=None, out=None):
    labels, predictions = host(labels).astype(np.int64), host(predictions).astype(np.int64)
    n = prim.num_classes
    for name, v in (("labels", labels), ("predictions", predictions)):
        if v.size and (v.min() < 0 or v.max() >= n):
            raise MSValueError(f"For 'ConfusionMatrix', the '{name}' must be in [0, {n}), but got values in "
                             f"[{v.min()}, {v.max()}].")
    w = np.ones(labels.shape) if weights is None else host(weights).astype(np.float64)
    res = np.zeros((n, n))
    np.add.at(res, (labels, predictions), w)
    return back(res.astype(out.dtype.to_numpy()))


def _batch_to_space_nd_v2(prim, x, block_shape, crops, out=None):
    """``BatchToSpaceND``'s kernel with the block and crops read from the (host) values."""
    blocks, pairs = prim.geometry(x.shape, host(block_shape).tolist(), host(crops).tolist())
    return batch_to_space(types.SimpleNamespace(block_shape=blocks, crops=pairs), x, out=out)


KERNELS = {"EmbeddingLookup": _embedding_lookup, "FFTWithSize": _fft_with_size, "TransposeView": _transpose_view,
           "TransposeExtView": _transpose_ext_view, "SelectView": _select_view, "RNNTLoss": _rnnt_loss,
           "ConfusionMatrix": _confusion_matrix, "BatchToSpaceNDV2": _batch_to_space_nd_v2}
