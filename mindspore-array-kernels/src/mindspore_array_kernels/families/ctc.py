"""The kernels of ``mindspore/ops/_defs/ctc.py`` (``CTCLossV2``, ``CTCLossV2Grad``, ``CTCGreedyDecoder``), bound
(:func:`mindspore_array_kernels.bind`) with ``xp``, the array library; ``dev``, an operand as an ``xp`` array; and
``host``, an array as NumPy (the lengths, read once to check them; the greedy decoder's width).

The forward (alpha) and backward (beta) recursions run over time, vectorised over the batch and the
blank-extended target positions, in log space and float64; results are rounded once to the input dtype. The greedy
decoder's sparse result is assembled as arrays (on a GPU, on the device), its size read back.
"""
import numpy as np

BOUND = ("xp", "dev", "host")


def _ext_labels(targets, target_lengths, blank):
    """The blank-extended targets l' (N, 2S+1), their valid length 2L+1 per sample, and whether the
    transition s-2 -> s is allowed (l'_s not blank and not equal to l'_{s-2})."""
    n, s = targets.shape
    ext = xp.full((n, 2 * s + 1), blank, dtype=xp.int64)
    ext[:, 1::2] = targets.astype(xp.int64)
    skip = xp.zeros(ext.shape, dtype=bool)
    if s:
        skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    return ext, 2 * target_lengths.astype(xp.int64) + 1, skip


def _lse(*terms):
    out = terms[0]
    for t in terms[1:]:
        out = xp.logaddexp(out, t)
    return out


def _shifted(a, k):
    """``a`` moved k places right along the last axis, -inf coming in."""
    out = xp.full(a.shape, -xp.inf, dtype=a.dtype)
    if k < a.shape[-1]:
        out[..., k:] = a[..., :a.shape[-1] - k]
    return out


def _forward(lp, targets, input_lengths, target_lengths, blank):
    """log_alpha (N, T, 2S+1) and the negative log-likelihood (N,), in float64."""
    t_max, n, _ = lp.shape
    ext, valid, skip = _ext_labels(targets, target_lengths, blank)
    width = ext.shape[1]
    inside = xp.arange(width)[None, :] < valid[:, None]
    emit = xp.take_along_axis(xp.transpose(lp, (1, 0, 2)), xp.broadcast_to(ext[:, None, :], (n, t_max, width)),
                              axis=2)                                             # (N, T, 2S+1)
    alpha = xp.full((n, t_max, width), -xp.inf, dtype=lp.dtype)
    if t_max:
        first = xp.full((n, width), -xp.inf, dtype=lp.dtype)
        first[:, :2] = emit[:, 0, :2]
        alpha[:, 0] = xp.where(inside, first, -xp.inf)
    for t in range(1, t_max):
        prev = alpha[:, t - 1]
        two = xp.where(skip, _shifted(prev, 2), -xp.inf)
        alpha[:, t] = xp.where(inside, _lse(prev, _shifted(prev, 1), two) + emit[:, t], -xp.inf)
    live = xp.arange(t_max)[None, :, None] < input_lengths.astype(xp.int64)[:, None, None]
    alpha = xp.where(live, alpha, -xp.inf)
    last_t = xp.clip(input_lengths.astype(xp.int64) - 1, 0, max(t_max - 1, 0))
    rows = xp.arange(n)
    final = alpha[rows, last_t]                                                   # (N, 2S+1)
    end = xp.take_along_axis(final, (valid - 1)[:, None], axis=1)[:, 0]
    before = xp.take_along_axis(final, xp.maximum(valid - 2, 0)[:, None], axis=1)[:, 0]
    before = xp.where(valid >= 2, before, -xp.inf)
    nll = -xp.logaddexp(end, before)
    nll = xp.where(input_lengths.astype(xp.int64) > 0, nll, xp.where(valid == 1, 0.0, xp.inf))
    return alpha, nll, ext, valid, skip, emit


def _backward(lp, input_lengths, ext, valid, skip, emit):
    """log_beta (N, T, 2S+1), including the emission at t as alpha does."""
    t_max, n, _ = lp.shape
    width = ext.shape[1]
    beta = xp.full((n, t_max, width), -xp.inf, dtype=lp.dtype)
    lengths = input_lengths.astype(xp.int64)
    pos = xp.arange(width)[None, :]
    inside = pos < valid[:, None]
    start = (pos == valid[:, None] - 1) | (pos == valid[:, None] - 2)
    skip_next = xp.zeros(skip.shape, dtype=bool)
    skip_next[:, :-2] = skip[:, 2:]
    for t in range(t_max - 1, -1, -1):
        at_end = (lengths - 1 == t)[:, None]
        nxt = beta[:, t + 1] if t + 1 < t_max else xp.full((n, width), -xp.inf, dtype=lp.dtype)
        two = xp.where(skip_next, _shifted_left(nxt, 2), -xp.inf)
        rec = _lse(nxt, _shifted_left(nxt, 1), two) + emit[:, t]
        val = xp.where(at_end, xp.where(start, emit[:, t], -xp.inf), rec)
        beta[:, t] = xp.where(inside & (t < lengths)[:, None], val, -xp.inf)
    return beta


def _shifted_left(a, k):
    out = xp.full(a.shape, -xp.inf, dtype=a.dtype)
    if k < a.shape[-1]:
        out[..., :a.shape[-1] - k] = a[..., k:]
    return out


def _grad(dout, lp, targets, input_lengths, target_lengths, nll, blank, zero_infinity):
    t_max, n, c = lp.shape
    alpha, nll64, ext, valid, skip, emit = _forward(lp, targets, input_lengths, target_lengths, blank)
    beta = _backward(lp, input_lengths, ext, valid, skip, emit)
    ab = alpha + beta                                                             # (N, T, 2S+1)
    top = xp.max(ab, axis=2, keepdims=True)
    top = xp.where(xp.isfinite(top), top, 0.0)
    onehot = (ext[:, :, None] == xp.arange(c)[None, None, :]).astype(lp.dtype)  # (N, 2S+1, C)
    summed = xp.matmul(xp.exp(ab - top), onehot)                                 # (N, T, C)
    with_top = xp.log(summed) + top                                              # lcab, -inf where no path
    lp_n = xp.transpose(lp, (1, 0, 2))                                           # (N, T, C)
    grad = xp.exp(lp_n) - xp.exp(with_top + nll64[:, None, None] - lp_n)
    live = xp.arange(t_max)[None, :, None] < input_lengths.astype(xp.int64)[:, None, None]
    grad = xp.where(live, grad, 0.0)
    scale = dout.astype(lp.dtype)
    if zero_infinity:
        scale = xp.where(xp.isinf(nll64), 0.0, scale)
    grad = grad * scale[:, None, None]
    return xp.transpose(grad, (1, 0, 2))


def _greedy(inputs, sequence_length, merge_repeated):
    """Host-side assembly of the sparse result (its size is only known here)."""
    t_max, n, c = inputs.shape
    best = xp.argmax(inputs, axis=2)                                              # (T, N)
    top = xp.max(inputs, axis=2)
    lengths = sequence_length.astype(xp.int64)
    live = xp.arange(t_max)[:, None] < lengths[None, :]
    log_prob = -xp.sum(xp.where(live, top, 0.0), axis=0).reshape(n, 1)
    keep = live & (best != c - 1)
    if merge_repeated and t_max > 1:
        same = xp.zeros(best.shape, dtype=bool)
        same[1:] = best[1:] == best[:-1]
        keep = keep & ~same
    return best, keep, log_prob


def _check(log_probs, targets, input_lengths, target_lengths):
    t_max, _, _ = log_probs.shape
    il, tl = host(input_lengths).reshape(-1), host(target_lengths).reshape(-1)
    for i, (a, b) in enumerate(zip(il.tolist(), tl.tolist())):
        if not 0 <= a <= t_max or a < b:
            raise ValueError(f"For 'CTCLossV2', the input_lengths[{i}] = {a} should be non-negative and not smaller "
                             f"than tar_len_p[{i}] = {b}")
        if not 0 <= b <= targets.shape[1]:
            raise ValueError(f"For 'CTCLossV2', the target_lengths[{i}] = {b} must be in [0, {targets.shape[1]}].")


def _ctc_loss_v2(prim, log_probs, targets, input_lengths, target_lengths, out=None):
    lp = dev(log_probs)
    _check(lp, dev(targets), input_lengths, target_lengths)
    with np.errstate(all="ignore"):   # log(0) = -inf marks the unreachable positions
        alpha, nll, *_ = _forward(lp.astype(xp.float64), dev(targets), dev(input_lengths), dev(target_lengths),
                                  prim.blank)
    if prim.zero_infinity:
        nll = xp.where(xp.isinf(nll), 0.0, nll)
    return nll.astype(lp.dtype), alpha.astype(lp.dtype)


def _ctc_loss_v2_grad(prim, dout, log_probs, targets, input_lengths, target_lengths, nll, log_alpha, out=None):
    lp = dev(log_probs)
    with np.errstate(all="ignore"):
        grad = _grad(dev(dout), lp.astype(xp.float64), dev(targets), dev(input_lengths), dev(target_lengths),
                     dev(nll), prim.blank, prim.zero_infinity)
    return xp.ascontiguousarray(grad).astype(lp.dtype)


def _ctc_greedy_decoder(prim, inputs, sequence_length, out=None):
    inputs = dev(inputs)
    lengths = dev(sequence_length)
    if bool(xp.any((lengths < 0) | (lengths > inputs.shape[0]))):
        raise ValueError(f"For 'CTCGreedyDecoder', the values of 'sequence_length' must be in [0, {inputs.shape[0]}], "
                         f"but got {host(lengths).tolist()}.")
    best, keep, log_prob = _greedy(inputs, lengths, prim.merge_repeated)
    keep_t = xp.ascontiguousarray(keep.T)                                   # (N, T)
    rows = xp.nonzero(keep_t)[0]
    cols = (xp.cumsum(keep_t, axis=1) - 1)[keep_t]
    values = best.T[keep_t].astype(xp.int64)
    width = int(host(keep_t.sum(axis=1).max())) if keep_t.size else 0
    indices = xp.stack([rows, cols], axis=1).astype(xp.int64).reshape(-1, 2)
    shape = xp.asarray([inputs.shape[1], width], dtype=xp.int64)
    return indices, values, shape, log_prob.astype(inputs.dtype)


KERNELS = {"CTCLossV2": _ctc_loss_v2, "CTCLossV2Grad": _ctc_loss_v2_grad, "CTCGreedyDecoder": _ctc_greedy_decoder}
