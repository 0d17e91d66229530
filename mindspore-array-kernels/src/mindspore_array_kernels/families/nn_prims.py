"""The kernels of the nn_prims family (``mindspore/ops/_defs/nn_prims.py`` and ``nn_prims_ext.py``) but the channel
dropouts and the random samplers that draw from a backend's own streams (``TruncatedNormal``, ``RandomGamma``,
``RandomPoisson``, ``Cauchy``, ``LogNormalReverse``, ``ParameterizedTruncatedNormal``), bound
(:func:`mindspore_array_kernels.bind`) with:

* ``xp``, the array library, and two movers: ``dev`` (an operand as an ``xp`` array) and ``host`` (an array as
  NumPy, for the sequential parts and small reads);
* ``add_at(target, index, values)``, an unbuffered add in place (NumPy's ``add.at``; on a GPU atomics);
* ``conv``, the backend's conv kernel module (its ``KERNELS``' ``Conv2D`` and ``Conv3DBackpropInput``);
* ``uniform(prim, shape)``, float64 uniforms in [0, 1) from the primitive's random stream (``DropoutGenMask``);
* ``got(values, bad)``, the end of an out-of-range message: ``", but got v"`` with ``v`` the first of
  ``values[bad]``, or nothing on a backend whose messages do not name the value.

Depthwise convolution runs the conv family's grouped ``Conv2D`` kernel; the transposed 3-D convolution is its
input-gradient kernel run on the primitive's equivalent direct convolution (``prim._direct``). The recurrent kernels
share one LSTM step loop (:func:`lstm_forward`) and its back-propagation through time (:func:`lstm_backward`):
``DynamicRNN``, ``BasicLSTMCell`` (one step) and ``LSTM`` (its (i, f, g, o) weights permuted into that loop's gate
order, layer by layer and direction by direction); ``DynamicGRUV2`` has its own (:func:`gru_forward`). They loop
over time steps with each step's matrix products on ``xp``. What is inherently sequential and small runs on the host
in NumPy and moves its result over: the CTC alpha-beta recursion (log space, per sequence), candidate sampling, the
fractional-pooling boundaries and the window starts of fixed-window fractional pooling (the pooling itself is one
gather).

LRN sums squares over the channel window with a cumulative sum; 3-D adaptive pooling loops over the output cells
(few) with each cell's reduction vectorised (their bounds as core's adaptive-pooling shape rule gives them);
max-unpooling and the max-pooling gradients are a scatter. The fused attention computes the whole score matrix (its
gradient recomputes the softmax from the scores); the rest is vectorised. Half precision computes in float32 and is
cast back to the inferred ``out`` dtype (:func:`~mindspore_array_kernels.common.fit`).
"""
import math

import numpy as np

from mindspore.plugin import MSRuntimeError, MSValueError
from mindspore_array_kernels.common import fit, fits_out

BOUND = ("xp", "dev", "host", "add_at", "conv", "uniform", "got")

_WIDE = (np.dtype(np.float32), np.dtype(np.float64))


def _wide(*arrays):
    """The operands as ``xp`` arrays of their common dtype where it is float32 or float64, else of float32."""
    arrays = [dev(a) for a in arrays]
    dt = np.result_type(*[a.dtype for a in arrays])
    dt = dt if dt in _WIDE else _WIDE[0]
    return [a.astype(dt, copy=False) for a in arrays]


def _bounds(n_in, n_out, i):
    return (i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)


def _reduce(loss, reduction):
    if reduction == "mean":
        return dev(loss.mean())
    if reduction == "sum":
        return dev(loss.sum())
    return loss


# --- Conv3DTranspose ------------------------------------------------------------------------------
def _conv3d_transpose(prim, x, w, out=None):
    y = conv.KERNELS["Conv3DBackpropInput"](prim._direct, w, x, out.shape, out=None)
    return fit(dev(y), out)


# --- LRN ------------------------------------------------------------------------------------------
def _band(v, r):
    """``sum_{|c' - c| <= r} v[:, c']`` over the channel axis (1) by a cumulative sum."""
    c = v.shape[1]
    cs = xp.concatenate([xp.zeros_like(v[:, :1]), xp.cumsum(v, axis=1)], axis=1)
    hi = xp.minimum(xp.arange(c) + r + 1, c)
    lo = xp.maximum(xp.arange(c) - r, 0)
    return xp.take(cs, hi, axis=1) - xp.take(cs, lo, axis=1)


@fits_out
def _lrn(prim, x, out=None):
    (x,) = _wide(x)
    scale = prim.bias + prim.alpha * _band(x * x, prim.depth_radius)
    return x * scale ** -prim.beta


@fits_out
def _lrn_grad(prim, grads, x, y, out=None):
    g, x = _wide(grads, x)
    r, beta = prim.depth_radius, prim.beta
    scale = prim.bias + prim.alpha * _band(x * x, r)
    inner = _band(g * x * scale ** (-beta - 1.0), r)
    return g * scale ** -beta - 2.0 * prim.alpha * beta * x * inner


# --- MaxUnpool2D / MaxUnpool3D --------------------------------------------------------------------
def _max_unpool(prim, x, argmax, out=None):
    x = dev(x)
    rows = x.shape[0] * x.shape[1]
    plane = math.prod(out.shape[2:])
    idx = dev(argmax).astype(np.int64, copy=False).reshape(rows, -1)
    bad = (idx < 0) | (idx >= plane)
    if idx.size and bool(bad.any()):
        raise MSValueError(f"For '{prim.name}', the 'argmax' values must be in [0, {plane}){got(idx, bad)}.")
    y = xp.zeros((rows, plane), dtype=x.dtype)
    y[xp.arange(rows)[:, None], idx] = x.reshape(rows, -1)
    return y.reshape(out.shape)


# --- adaptive 3-D pooling -------------------------------------------------------------------------
def _cells(in_shape, out_shape):
    for i in range(out_shape[0]):
        d0, d1 = _bounds(in_shape[0], out_shape[0], i)
        for j in range(out_shape[1]):
            h0, h1 = _bounds(in_shape[1], out_shape[1], j)
            for k in range(out_shape[2]):
                w0, w1 = _bounds(in_shape[2], out_shape[2], k)
                yield (i, j, k), (slice(d0, d1), slice(h0, h1), slice(w0, w1))


@fits_out
def _adaptive_avg3d(prim, x, out=None):
    (xw,) = _wide(x)
    y = xp.empty(out.shape, xw.dtype)
    for o, cell in _cells(x.shape[-3:], out.shape[-3:]):
        y[(Ellipsis,) + o] = xw[(Ellipsis,) + cell].mean(axis=(-3, -2, -1))
    return y


@fits_out
def _adaptive_avg3d_grad(prim, dout, orig_shape, out=None):
    (g,) = _wide(dout)
    dx = xp.zeros(out.shape, g.dtype)
    for o, cell in _cells(out.shape[-3:], dout.shape[-3:]):
        count = (cell[0].stop - cell[0].start) * (cell[1].stop - cell[1].start) * (cell[2].stop - cell[2].start)
        dx[(Ellipsis,) + cell] += g[(Ellipsis,) + o][..., None, None, None] / count
    return dx


def _adaptive_max3d(prim, x, output_size, out=None):
    x = dev(x)
    y = xp.empty(out[0].shape, x.dtype)
    arg = xp.empty(out[1].shape, np.int64)
    d, h, w = x.shape[-3:]
    for o, cell in _cells(x.shape[-3:], out[0].shape[-3:]):
        block = x[(Ellipsis,) + cell]
        flat = block.reshape(block.shape[:-3] + (-1,))
        key = xp.where(xp.isnan(flat), np.inf, flat) if flat.dtype.kind == "f" else flat
        pick = xp.argmax(key, axis=-1)
        y[(Ellipsis,) + o] = xp.take_along_axis(flat, pick[..., None], -1)[..., 0]
        bh, bw = block.shape[-2], block.shape[-1]
        dd, rem = pick // (bh * bw), pick % (bh * bw)
        hh, ww = rem // bw, rem % bw
        arg[(Ellipsis,) + o] = ((dd + cell[0].start) * h + hh + cell[1].start) * w + ww + cell[2].start
    return y, fit(arg, out[1])


def _scatter_to_argmax(dout, x, argmax, nd):
    """The gradient of a max pooling over x's last ``nd`` axes: ``dout`` added at the flat ``argmax`` positions."""
    (g,) = _wide(dout)
    lead = math.prod(x.shape[:-nd])
    dx = xp.zeros((lead, math.prod(x.shape[-nd:])), g.dtype)
    rows = xp.broadcast_to(xp.arange(lead)[:, None], (lead, math.prod(dout.shape[-nd:])))
    add_at(dx, (rows, dev(argmax).astype(np.int64, copy=False).reshape(lead, -1)), g.reshape(lead, -1))
    return dx.reshape(x.shape)


@fits_out
def _adaptive_max3d_grad(prim, dout, x, argmax, out=None):
    return _scatter_to_argmax(dout, x, argmax, 3)


@fits_out
def _max_pool_scatter_grad(prim, dout, x, argmax, out=None):
    return _scatter_to_argmax(dout, x, argmax, prim.nd)


# --- losses ---------------------------------------------------------------------------------------
@fits_out
def _soft_margin_loss(prim, x, y, out=None):
    x, y = _wide(x, y)
    return _reduce(xp.logaddexp(x.dtype.type(0), -x * y), prim.reduction)


@fits_out
def _multi_margin_loss(prim, x, target, weight=None, out=None):
    (xw,) = _wide(x)
    n, c = xw.shape
    t = dev(target).astype(np.int64, copy=False)
    bad = (t < 0) | (t >= c)
    if t.size and bool(bad.any()):
        raise MSValueError(f"For '{prim.name}', the 'target' values must be in [0, {c}){got(t, bad)}.")
    rows = xp.arange(n)
    x_y = xw[rows, t][:, None]
    h = xp.maximum(prim.margin - x_y + xw, 0.0)
    if prim.p == 2:
        h = h * h
    h[rows, t] = 0.0
    if weight is not None:
        h = h * dev(weight).astype(xw.dtype, copy=False)[t][:, None]
    return _reduce(h.sum(axis=1) / c, prim.reduction)


def _pnorm(v, p):
    return (xp.abs(v) ** p).sum(axis=1) ** (1.0 / p)


@fits_out
def _triplet_margin_loss(prim, x, positive, negative, margin, out=None):
    x, positive, negative = _wide(x, positive, negative)
    p, eps = prim.p, prim.eps
    d_ap, d_an = _pnorm(x - positive + eps, p), _pnorm(x - negative + eps, p)
    if prim.swap:
        d_an = xp.minimum(d_an, _pnorm(positive - negative + eps, p))
    return _reduce(xp.maximum(d_ap - d_an + dev(margin).astype(x.dtype), 0.0), prim.reduction)


def _multilabel_targets(target):
    """How many times each class is listed in each row of ``target`` before its first -1 (int32)."""
    t = dev(target).reshape(-1, target.shape[-1]).astype(np.int64, copy=False)
    c = t.shape[1]
    valid = xp.cumprod((t >= 0).astype(np.int32), axis=1).astype(bool)
    if bool((valid & (t >= c)).any()):
        raise MSValueError(f"For 'MultilabelMarginLoss', the 'target' values must be in [-1, {c}).")
    count = xp.zeros(t.shape, np.int32)
    rows = xp.broadcast_to(xp.arange(t.shape[0])[:, None], t.shape)
    add_at(count, (rows, xp.where(valid, t, 0)), valid.astype(np.int32))
    return count


def _multilabel_margin_loss(prim, x, target, out=None):
    (xw,) = _wide(x)
    x2 = xw.reshape(-1, x.shape[-1])
    count = _multilabel_targets(target)
    is_t = (count > 0).astype(np.int32)
    h = xp.maximum(1.0 - x2[:, :, None] + x2[:, None, :], 0.0)     # [n, j, i] = 1 - (x[j] - x[i])
    pair = count[:, :, None] * (1 - is_t)[:, None, :]
    loss = (h * pair).sum(axis=(1, 2)) / x2.shape[1]
    loss = loss.reshape(x.shape[:-1]) if prim.reduction == "none" else _reduce(loss, prim.reduction)
    return fit(loss, out[0]), is_t.reshape(target.shape)


# --- channel shuffle, RMS normalisation, the full-range random integers ---------------------------
def _channel_shuffle(prim, x, out=None):
    x = dev(x)
    n, c = x.shape[:2]
    g = prim.group
    return xp.ascontiguousarray(x.reshape((n, g, c // g) + x.shape[2:]).swapaxes(1, 2)).reshape(x.shape)


def _rms_norm(prim, x, gamma, out=None):
    x, gamma = dev(x), dev(gamma)
    xw = x.astype(np.float32, copy=False) if x.dtype != np.float64 else x
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1.0 / xp.sqrt(xp.mean(xw * xw, axis=axes, keepdims=True) + prim.epsilon)
    y = xw * rstd * gamma.astype(xw.dtype, copy=False)
    return fit(y, out[0]), fit(rstd, out[1])


def _non_deterministic_ints(prim, shape, out=None):
    # the full integer range of the dtype: drawn from the host stream (cuRAND's randint stops short of it)
    dt = out.dtype.to_numpy()
    info = np.iinfo(dt)
    return dev(prim.generator().integers(info.min, info.max, size=tuple(shape), dtype=dt, endpoint=True))


# --- DropoutGenMask / DropoutDoMask: the mask packs 8 keep bits a byte, the first in the lowest bit ----------------
_BIT_WEIGHTS = np.array([1, 2, 4, 8, 16, 32, 64, 128], np.uint8)


def _scalar(v):
    return float(host(v).reshape(-1)[0]) if hasattr(v, "shape") else float(v)


def _dropout_gen_mask(prim, shape, keep_prob, out=None):
    bits = uniform(prim, (out.shape[0], 8)) < _scalar(keep_prob)
    return (bits.astype(np.uint8) * dev(_BIT_WEIGHTS)).sum(axis=1).astype(np.uint8)


def _dropout_do_mask(prim, x, mask, keep_prob, out=None):
    x = dev(x)
    keep = _scalar(keep_prob)
    bits = (dev(mask).astype(np.uint8, copy=False)[:, None] & dev(_BIT_WEIGHTS)[None, :]) != 0
    bits = bits.reshape(-1)[:x.size].reshape(x.shape)
    scale = 0.0 if keep == 0 else 1.0 / keep
    return fit(xp.where(bits, x * scale, 0), out)


# --- ComputeAccidentalHits / candidate samplers (sequential draws on the host stream) -------------
def _compute_accidental_hits(prim, true_classes, sampled, out=None):
    hit = (dev(true_classes)[:, :, None] == dev(sampled)[None, None, :]).any(axis=1)
    rows, ids = xp.nonzero(hit)
    weights = xp.full(rows.shape, np.finfo(np.float32).min, np.float32)
    return rows.astype(np.int32), ids.astype(out[1].dtype.to_numpy()), weights


def _sample_candidates(gen, draw, num_sampled, unique, exclude):
    """``num_sampled`` candidates from ``draw(gen, n)`` (unique ones, none in ``exclude``): (candidates, tries)."""
    picked, seen, tries = [], set(), 0
    while len(picked) < num_sampled:
        for c in draw(gen, num_sampled - len(picked)).tolist():
            tries += 1
            if c in exclude or (unique and c in seen):
                continue
            seen.add(c)
            picked.append(c)
            if len(picked) == num_sampled:
                break
    return np.asarray(picked), tries


def _candidate_counts(prob, tries, num_sampled, unique):
    if unique:
        return -np.expm1(tries * np.log1p(-prob))
    return num_sampled * prob


def _candidate_sampler(prim, true_classes, out=None):
    classes = host(true_classes)
    n, unique = prim.range_max, prim.unique
    if prim.name == "LogUniformCandidateSampler":
        log_range = np.log(n + 1.0)

        def draw(gen, k):
            return np.minimum(np.floor(np.exp(gen.random(k) * log_range)).astype(np.int64) - 1, n - 1)

        def prob(k):
            return np.log((k + 2.0) / (k + 1.0)) / log_range
    else:
        def draw(gen, k):
            return gen.integers(0, n, k)

        def prob(k):
            return np.full(np.shape(k), 1.0 / n)
    if classes.size and (classes.min() < 0 or classes.max() >= n):
        raise MSValueError(f"For '{prim.name}', the 'true_classes' must be in [0, {n}).")
    exclude = set(classes.ravel().tolist()) if prim.remove_accidental_hits else set()
    if len(exclude) + prim.num_sampled > n and unique:
        raise MSValueError(f"For '{prim.name}', there are not {prim.num_sampled} unique candidates outside the "
                           f"true classes in [0, {n}).")
    sampled, tries = _sample_candidates(prim.generator(), draw, prim.num_sampled, unique, exclude)
    true_count = _candidate_counts(prob(classes), tries, prim.num_sampled, unique)
    sampled_count = _candidate_counts(prob(sampled), tries, prim.num_sampled, unique)
    return (dev(sampled.astype(classes.dtype)), dev(np.asarray(true_count, np.float32)),
            dev(np.asarray(sampled_count, np.float32)))


# --- fractional max pooling with a fixed window (the window starts on the host, the pooling one gather) -----------
def _fractional_starts(sample, in_size, out_size, k):
    """The window starts of fractional pooling for one random sample in [0, 1)."""
    starts = np.empty(out_size, np.int64)
    if out_size > 1:
        alpha = (in_size - k) / (out_size - 1)
        i = np.arange(out_size - 1)
        starts[:-1] = ((i + sample) * alpha).astype(np.int64) - int(sample * alpha)
    starts[-1] = in_size - k
    return starts


def _sample_column(nd, axis):
    """The random-sample column that drives spatial ``axis``: (W, H) in 2-D, (D, H, W) in 3-D."""
    return 1 - axis if nd == 2 else axis


def _fractional_fixed(prim, x, samples, out=None):
    x = dev(x)
    nd = prim._nd
    batched = x.ndim == nd + 2
    xs = x if batched else x[None]
    spatial = xs.shape[2:]
    planes = xs.reshape((-1,) + spatial)
    smp = host(samples).astype(np.float64).reshape(planes.shape[0], nd)       # (N*C, nd): small
    flat = np.empty((planes.shape[0],) + prim._out + (math.prod(prim._ksize),), np.int64)
    order = tuple(range(0, 2 * nd, 2)) + tuple(range(1, 2 * nd, 2))
    for p in range(planes.shape[0]):              # each plane's windows: (out..., window) flat indices into it
        idx = [_fractional_starts(smp[p, _sample_column(nd, a)], spatial[a], prim._out[a], prim._ksize[a])[:, None]
               + np.arange(prim._ksize[a])[None, :] for a in range(nd)]
        grids = np.meshgrid(*[i.ravel() for i in idx], indexing="ij")
        taps = np.ravel_multi_index(grids, spatial).reshape(sum(((o, k) for o, k in zip(prim._out, prim._ksize)), ()))
        flat[p] = taps.transpose(order).reshape(flat.shape[1:])
    flat = dev(flat)
    base = (xp.arange(planes.shape[0]) * math.prod(spatial)).reshape((-1,) + (1,) * (nd + 1))
    vals = planes.reshape(-1)[flat + base]
    key = xp.where(xp.isnan(vals), np.inf, vals) if vals.dtype.kind == "f" else vals
    pick = xp.argmax(key, axis=-1)[..., None]
    shape = xs.shape[:2] + prim._out
    y = xp.take_along_axis(vals, pick, -1)[..., 0].reshape(shape)
    arg = xp.take_along_axis(flat, pick, -1)[..., 0].reshape(shape)
    return (y, arg) if batched else (y[0], arg[0])


# --- CTCLoss (the alpha-beta recursion is sequential in time: it runs on the host) ----------------
def _log_softmax(x):
    m = x.max(axis=-1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=-1, keepdims=True))


def _lse(a, axis=None):
    m = np.max(a, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):      # log(0) = -inf: a state no path reaches
        return np.squeeze(m + np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)), axis=axis)


def _ctc_one(logp, labels, merge_repeated):
    """(-log p(labels), d loss / d logits) of one sequence: ``logp`` (T, C) log-softmax, blank C - 1."""
    t_len, c = logp.shape
    ext = np.full(2 * len(labels) + 1, c - 1, np.int64)
    ext[1::2] = labels
    s_len = len(ext)
    skip = np.zeros(s_len, bool)            # s may come from s - 2
    skip[3::2] = (ext[3::2] != ext[1:-2:2]) | (not merge_repeated)
    stay = np.ones(s_len, bool)             # s may stay at s
    if not merge_repeated:
        stay[1::2] = False
    neg = -np.inf
    alpha = np.full((t_len, s_len), neg)
    alpha[0, :2] = logp[0, ext[:2]]
    for t in range(1, t_len):
        prev = alpha[t - 1]
        cand = np.stack([np.where(stay, prev, neg), np.concatenate([[neg], prev[:-1]]),
                         np.where(skip, np.concatenate([[neg, neg], prev[:-2]]), neg)])
        alpha[t] = _lse(cand, axis=0) + logp[t, ext]
    beta = np.full((t_len, s_len), neg)
    beta[-1, -2:] = logp[-1, ext[-2:]]
    skip_next = np.concatenate([skip[2:], [False, False]])   # s + 2 may come from s
    for t in range(t_len - 2, -1, -1):
        nxt = beta[t + 1]
        cand = np.stack([np.where(stay, nxt, neg), np.concatenate([nxt[1:], [neg]]),
                         np.where(skip_next, np.concatenate([nxt[2:], [neg, neg]]), neg)])
        beta[t] = _lse(cand, axis=0) + logp[t, ext]
    log_p = _lse(alpha[-1, -2:])
    if not np.isfinite(log_p):
        return np.inf, np.zeros_like(logp)
    ab = alpha + beta - logp[:, ext]
    grad = np.exp(logp)
    for k in np.unique(ext):
        grad[:, k] -= np.exp(_lse(ab[:, ext == k], axis=1) - log_p)
    return -log_p, grad


def _ctc_blank_only(logp):
    """(-log p, gradient) of an empty label sequence, as MindSpore 2.10's CPU kernel computes it: its backward
    recursion seeds the last two time steps of the single (blank) state, so the last step counts as
    ``log(1 + p_blank)`` rather than ``log p_blank``."""
    lb = logp[:, -1]
    t_len = len(lb)
    beta = np.zeros(t_len)                      # 2.10's convention: beta[t] excludes step t
    if t_len > 1:
        beta[t_len - 2] = np.log1p(np.exp(lb[-1]))
        for t in range(t_len - 3, -1, -1):
            beta[t] = beta[t + 1] + lb[t + 1]
    alpha = np.cumsum(lb)
    log_p = alpha[0] + beta[0]
    grad = np.exp(logp)
    grad[:, -1] -= np.exp(alpha + beta - log_p)
    return -log_p, grad


def _ctc_labels(prim, vals, collapse, num_classes):
    """Batch ``b``'s labels as 2.10's CPU kernel reads them: a value >= num_classes - 1 (the blank, or more; a
    negative one as its unsigned form) ends the sequence, and a label after it is an error."""
    labels, ended = [], False
    for i, v in enumerate(vals):
        if i and collapse and v == vals[i - 1]:
            continue
        if v < 0 or v >= num_classes - 1:
            ended = True
        elif ended:
            raise MSRuntimeError(f"For '{prim.name}', the value of labels_values[{i}] must be in the range of "
                                 f"[0, num_classes), but got {v}")
        else:
            labels.append(v)
    return np.asarray(labels, np.int64)


def _ctc_loss(prim, x, labels_indices, labels_values, sequence_length, out=None):
    xw = host(x).astype(np.float64, copy=False)
    t_max, batch, num_classes = xw.shape
    idx, vals = host(labels_indices), host(labels_values).astype(np.int64)
    lens = host(sequence_length).astype(np.int64) & 0xFFFFFFFF      # 2.10 reads these as unsigned
    # 2.10's kernel messages, checked in its order (its "For 'CTCLoss," lacks the closing quote)
    for t_len in lens:
        if t_len == 0:
            raise MSRuntimeError(f"For '{prim.name}, the 'sequence_length' must be greater than 0, but got 0.")
        if t_len > t_max:
            raise MSRuntimeError(f"For '{prim.name}, the 'max_time'(the 1st dimension value of 'probs') must be "
                                 f"greater than or equal to 'sequence_length', but got 'max_time': {t_max} and "
                                 f"'sequence_length': {t_len}")
    rows = idx[:, 0].astype(np.int64).astype(np.uint64) if len(idx) else np.zeros(0, np.uint64)
    bad = np.flatnonzero(rows >= batch)
    if bad.size:
        raise MSRuntimeError(f"For '{prim.name}, 'index' must be less than the length of 'label', but got 'index': "
                             f"{rows[bad[0]]} and the length of 'label': {batch}")
    # as 2.10: batch b's labels are the next count(b) values (labels_indices' second column is not read)
    starts = np.concatenate([[0], np.cumsum(np.bincount(rows.astype(np.int64), minlength=batch))])
    loss, grad = np.zeros(batch), np.zeros_like(xw)
    for b in range(batch):
        labels = _ctc_labels(prim, [int(v) for v in vals[starts[b]:starts[b + 1]]],
                             prim.preprocess_collapse_repeated, num_classes)
        t_len = int(lens[b])
        if len(labels) > t_len:
            # as MindSpore 2.10: an error, or (ignore_longer_outputs_than_inputs) an infinite loss, no gradient
            if prim.ignore_longer_outputs_than_inputs:
                loss[b] = np.inf
                continue
            raise MSRuntimeError(f"For '{prim.name}, input time(sequence length) must be greater than output "
                                 f"size(label length), but got sequence length: {t_len} and label length: "
                                 f"{len(labels)}")
        logp = _log_softmax(xw[:t_len, b])
        loss[b], grad[:t_len, b] = (_ctc_one(logp, labels, prim.ctc_merge_repeated) if len(labels)
                                    else _ctc_blank_only(logp))
    return fit(dev(loss), out[0]), fit(dev(grad), out[1])


# --- DepthwiseConv2dNative: the conv family's grouped Conv2D kernel, one group per channel ----------
class _Spec:
    """An ``out`` spec for a kernel called from another (shape and dtype, as core's TensorSpec)."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtype


def _depthwise_conv2d(prim, x, w, out=None):
    x = dev(x)
    c = x.shape[1]
    y = conv.KERNELS["Conv2D"](prim.direct_conv(c), x, xp.ascontiguousarray(xp.swapaxes(dev(w), 0, 1)),
                               out=_Spec(out.shape[:1] + (c,) + out.shape[2:], out.dtype))
    return fit(xp.repeat(dev(y), prim.channel_multiplier, axis=1), out)


# --- DeformableOffsets ----------------------------------------------------------------------------
def _deformable_grid(prim, x, offsets):
    """Per sample (N, dg, P = kh * kw * oh * ow): the corner indices, bilinear weights, validity and mask."""
    n, c, h, w = x.shape
    dg = prim.deformable_groups
    kh, kw = prim.ksize
    oh, ow = offsets.shape[2:]
    off = offsets.reshape(n, 3, dg, kh, kw, oh, ow)
    base_y = (xp.arange(oh) * prim.strides[2])[None, :] + (xp.arange(kh) * prim.dilations[2])[:, None]
    base_x = (xp.arange(ow) * prim.strides[3])[None, :] + (xp.arange(kw) * prim.dilations[3])[:, None]
    base_y, base_x = base_y - prim.pads[0], base_x - prim.pads[2]
    yy = (base_y[:, None, :, None] + off[:, 1]).reshape(n, dg, -1)
    xx = (base_x[None, :, None, :] + off[:, 0]).reshape(n, dg, -1)
    mask = off[:, 2].reshape(n, dg, -1)
    inside = (yy > -1) & (yy < h) & (xx > -1) & (xx < w)
    top, left = xp.floor(yy).astype(np.int64), xp.floor(xx).astype(np.int64)
    t, l = yy - top, xx - left
    corners = []
    for dy, dx_, wgt, dwy, dwx in ((0, 0, (1 - l) * (1 - t), -(1 - l), -(1 - t)), (0, 1, l * (1 - t), -l, 1 - t),
                                   (1, 0, (1 - l) * t, 1 - l, -t), (1, 1, l * t, l, t)):
        cy, cx = top + dy, left + dx_
        ok = inside & (cy >= 0) & (cy < h) & (cx >= 0) & (cx < w)
        corners.append((xp.where(ok, cy * w + cx, 0), xp.where(ok, wgt, 0.0), xp.where(ok, dwy, 0.0),
                        xp.where(ok, dwx, 0.0)))
    return corners, mask


def _deformable_offsets(prim, x, offsets, out=None):
    xw, offw = _wide(x, offsets)
    n, c, h, w = x.shape
    dg = prim.deformable_groups
    kh, kw = prim.ksize
    oh, ow = offsets.shape[2:]
    corners, mask = _deformable_grid(prim, xw, offw)
    planes = xw.reshape(n, dg, c // dg, h * w)
    y = xp.zeros((), xw.dtype)
    for idx, wgt, _, _ in corners:
        y = y + xp.take_along_axis(planes, idx[:, :, None, :], axis=3) * wgt[:, :, None, :]
    y = y * mask[:, :, None, :]
    y = y.reshape(n, dg, c // dg, kh, kw, oh, ow).transpose(0, 1, 2, 5, 3, 6, 4)
    return fit(xp.ascontiguousarray(y).reshape(out.shape), out)


def _deformable_offsets_grad(prim, dout, x, offsets, out=None):
    g, xw, offw = _wide(dout, x, offsets)
    n, c, h, w = x.shape
    dg, cg = prim.deformable_groups, c // prim.deformable_groups
    kh, kw = prim.ksize
    oh, ow = offsets.shape[2:]
    corners, mask = _deformable_grid(prim, xw, offw)
    g = g.reshape(n, dg, cg, oh, kh, ow, kw).transpose(0, 1, 2, 4, 6, 3, 5).reshape(n, dg, cg, -1)
    planes = xw.reshape(n, dg, cg, h * w)
    dx = xp.zeros(planes.shape, g.dtype)
    rows = xp.arange(n * dg * cg).reshape(n, dg, cg, 1) * (h * w)
    value, d_y, d_x = 0.0, 0.0, 0.0
    for idx, wgt, dwy, dwx in corners:
        v = xp.take_along_axis(planes, idx[:, :, None, :], axis=3)
        value, d_y, d_x = value + v * wgt[:, :, None, :], d_y + v * dwy[:, :, None, :], d_x + v * dwx[:, :, None, :]
        add_at(dx.reshape(-1), (rows + idx[:, :, None, :]).ravel(), (g * (wgt * mask)[:, :, None, :]).ravel())
    m = mask[:, :, None, :]
    doff = xp.stack([(g * m * d_x).sum(2), (g * m * d_y).sum(2), (g * value).sum(2)], axis=1)
    return fit(dx.reshape(x.shape), out[0]), fit(doff.reshape(offsets.shape), out[1])


# --- STFT -----------------------------------------------------------------------------------------
def _stft(prim, x, window, out=None):
    x, window = dev(x), dev(window)
    n_fft, hop = prim.n_fft, prim.hop_length
    frames = 1 + (x.shape[-1] - n_fft) // hop
    starts = xp.arange(frames) * hop
    taps = starts[:, None] + xp.arange(n_fft)[None, :]
    left = (n_fft - prim.win_length) // 2
    win = xp.zeros(n_fft, xp.result_type(window.dtype, np.float32))
    win[left:left + prim.win_length] = window
    seg = x[..., taps] * win                                      # (..., frames, n_fft)
    norm = "ortho" if prim.normalized else "backward"
    spec = xp.fft.rfft(seg, axis=-1, norm=norm) if prim.onesided else xp.fft.fft(seg, axis=-1, norm=norm)
    spec = xp.swapaxes(spec, -1, -2)
    if not prim.return_complex:
        spec = xp.stack([spec.real, spec.imag], axis=-1)
    return fit(xp.ascontiguousarray(spec), out)


# --- FractionalMaxPool / FractionalAvgPool (NHWC; boundaries drawn on the host, few) ----------------
def _pooling_sequence(gen, n_in, n_out, pseudo_random):
    """Graham's cell boundaries: ``n_out + 1`` increasing ints from 0 to ``n_in``."""
    if pseudo_random:
        alpha = n_in / n_out
        k = n_in // n_out
        u = gen.random() * min((k + 2) / alpha - 1, (n_in + 1 - k) / alpha - (n_out - 1))
        inner = [int(np.ceil(alpha * (i + u)) - 1) for i in range(1, n_out)]
        return np.asarray([0] + inner + [n_in], np.int64)
    k, extra = divmod(n_in, n_out)
    sizes = np.asarray([k + 1] * extra + [k] * (n_out - extra), np.int64)
    gen.shuffle(sizes)
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


def _fractional_sequences(prim, x):
    gen = np.random.default_rng([prim.seed, prim.seed2]) if prim.deterministic else prim.generator()
    oh, ow = int(x.shape[1] // prim._ratio[1]), int(x.shape[2] // prim._ratio[2])
    return (_pooling_sequence(gen, x.shape[1], oh, prim.pseudo_random),
            _pooling_sequence(gen, x.shape[2], ow, prim.pseudo_random))


def _fractional_cells(row, col, h, w, overlapping):
    extra = 1 if overlapping else 0
    for i in range(len(row) - 1):
        r = slice(int(row[i]), min(int(row[i + 1]) + extra, h))
        for j in range(len(col) - 1):
            yield i, j, r, slice(int(col[j]), min(int(col[j + 1]) + extra, w))


def _fractional_pool(prim, x, out=None):
    x = dev(x)
    row, col = _fractional_sequences(prim, x)
    y = xp.empty(out[0].shape, x.dtype)
    reduce = xp.max if prim.name == "FractionalMaxPool" else xp.mean
    for i, j, r, c in _fractional_cells(row, col, x.shape[1], x.shape[2], prim.overlapping):
        y[:, i, j, :] = reduce(x[:, r, c, :], axis=(1, 2))
    return fit(y, out[0]), dev(row), dev(col)


def _fractional_max_pool_grad(prim, orig_input, orig_output, dout, row, col, out=None):
    x, g = dev(orig_input), dev(dout)
    row, col = host(row), host(col)
    n, h, w, c = x.shape
    dx = xp.zeros(x.shape, g.dtype)
    lanes = xp.arange(n)[:, None], xp.arange(c)[None, :]
    for i, j, r, cs in _fractional_cells(row, col, h, w, prim.overlapping):
        block = x[:, r, cs, :]
        bw = block.shape[2]
        pick = xp.argmax(block.reshape(n, -1, c), axis=1)              # (N, C): first maximum
        dx[lanes[0], r.start + pick // bw, cs.start + pick % bw, lanes[1]] += g[:, i, j, :]
    return fit(dx, out)


def _fractional_avg_pool_grad(prim, shape, dout, row, col, out=None):
    g = dev(dout)
    row, col = host(row), host(col)
    dx = xp.zeros(tuple(shape), g.dtype if g.dtype.kind == "f" else np.float64)
    for i, j, r, c in _fractional_cells(row, col, shape[1], shape[2], prim.overlapping):
        count = (r.stop - r.start) * (c.stop - c.start)
        dx[:, r, c, :] += g[:, i, j, :][:, None, None, :] / count
    return fit(dx, out)


# --- DynamicRNN / BasicLSTMCell: the LSTM recursion and its back-propagation through time -----------
def _sigmoid(v):
    return 1.0 / (1.0 + xp.exp(-v))


def lstm_forward(x, w, b, h0, c0, forget_bias, cell_clip):
    """h, c, i, j, f, o, tanh(c) per step (T, B, H) of an LSTM with gates ``[i, j, f, o] = [x_t, h] @ w + b``."""
    steps, hidden = x.shape[0], w.shape[1] // 4
    outs = [xp.empty((steps, x.shape[1], hidden), x.dtype) for _ in range(7)]
    h, c = h0[0], c0[0]
    for t in range(steps):
        gates = xp.concatenate([x[t], h], axis=1) @ w + b
        gi, gj, gf, go = (gates[:, k * hidden:(k + 1) * hidden] for k in range(4))
        i, j, f, o = _sigmoid(gi), xp.tanh(gj), _sigmoid(gf + forget_bias), _sigmoid(go)
        c = f * c + i * j
        if cell_clip > 0:
            c = xp.clip(c, -cell_clip, cell_clip)
        tc = xp.tanh(c)
        h = o * tc
        for arr, v in zip(outs, (h, c, i, j, f, o, tc)):
            arr[t] = v
    return outs


def _dynamic_rnn(prim, x, w, b, h0, c0, out=None):
    args = _wide(x, w, b, h0, c0)
    h, c, i, j, f, o, tc = lstm_forward(*args, prim.forget_bias, prim.cell_clip)
    return tuple(fit(v, spec) for v, spec in zip((h, h, c, i, j, f, o, tc), out))


def _basic_lstm_cell(prim, x, h, c, w, b, out=None):
    x, h, c, w, b = _wide(x, h, c, w, b)
    hs, cs, i, j, f, o, tc = lstm_forward(x[None], w, b, h[None], c[None], prim.forget_bias, -1.0)
    return tuple(fit(v[0], spec) for v, spec in zip((cs, hs, i, j, f, o, tc), out))


def _lstm_sequence_grad(prim, x, w, b, h0, c0, h, c, i, j, f, o, tc, dy, dh_out, dc_out, di_out, dj_out, df_out,
                        do_out, dtc_out, out=None):
    x, w, b, h0, c0, h, c, i, j, f, o, tc = _wide(x, w, b, h0, c0, h, c, i, j, f, o, tc)
    cots = _wide(dy, dh_out, dc_out, di_out, dj_out, df_out, do_out, dtc_out)
    grads = lstm_backward(x, w, h0, c0, (h, c, i, j, f, o, tc), cots, prim.cell_clip)
    return tuple(fit(v, spec) for v, spec in zip(grads, out))


def lstm_backward(x, w, h0, c0, steps_out, cotangents, cell_clip):
    """(dx, dw, db, dh0, dc0) of :func:`lstm_forward` from the cotangents of its per-step outputs (y, h, c, i, j,
    f, o, tanh c)."""
    h, c, i, j, f, o, tc = steps_out
    dy, dh_out, dc_out, di_out, dj_out, df_out, do_out, dtc_out = cotangents
    steps, inputs = x.shape[0], x.shape[2]
    dx, dw, db = xp.zeros_like(x), xp.zeros_like(w), xp.zeros(w.shape[1], w.dtype)
    dh_next, dc_next = xp.zeros_like(h0[0]), xp.zeros_like(c0[0])
    for t in range(steps - 1, -1, -1):
        h_prev = h[t - 1] if t else h0[0]
        c_prev = c[t - 1] if t else c0[0]
        dh = dy[t] + dh_out[t] + dh_next
        dtc = dtc_out[t] + dh * o[t]
        dc = dc_out[t] + dc_next + dtc * (1.0 - tc[t] * tc[t])
        if cell_clip > 0:
            dc = xp.where(xp.abs(f[t] * c_prev + i[t] * j[t]) <= cell_clip, dc, 0.0)
        d_i = (di_out[t] + dc * j[t]) * i[t] * (1.0 - i[t])
        d_j = (dj_out[t] + dc * i[t]) * (1.0 - j[t] * j[t])
        d_f = (df_out[t] + dc * c_prev) * f[t] * (1.0 - f[t])
        d_o = (do_out[t] + dh * tc[t]) * o[t] * (1.0 - o[t])
        dgates = xp.concatenate([d_i, d_j, d_f, d_o], axis=1)
        dw += xp.concatenate([x[t], h_prev], axis=1).T @ dgates
        db += dgates.sum(axis=0)
        dxh = dgates @ w.T
        dx[t], dh_next = dxh[:, :inputs], dxh[:, inputs:]
        dc_next = dc * f[t]
    return dx, dw, db, dh_next[None], dc_next[None]


# --- DynamicGRUV2: the GRU recursion and its back-propagation through time --------------------------
def _gru_split(v, hidden, order):
    """(r, z, n) column blocks of a (.., 3H) array whose blocks are in ``order`` ('rzh' or 'zrh')."""
    a, b_, n = (v[..., k * hidden:(k + 1) * hidden] for k in range(3))
    return (a, b_, n) if order == "rzh" else (b_, a, n)


def _gru_join(r, z, n, order):
    return xp.concatenate([r, z, n] if order == "rzh" else [z, r, n], axis=-1)


def gru_forward(x, wi, wh, bi, bh, h0, order, reset_after):
    """h, z, r, n, hidden_new per step (T, B, H)."""
    hidden = h0.shape[-1]
    outs = [xp.empty((x.shape[0], x.shape[1], hidden), x.dtype) for _ in range(5)]
    wh_r, wh_z, wh_n = _gru_split(wh, hidden, order)
    bh_r, bh_z, bh_n = _gru_split(bh, hidden, order)
    h = h0
    for t in range(x.shape[0]):
        gi_r, gi_z, gi_n = _gru_split(x[t] @ wi + bi, hidden, order)
        r = _sigmoid(gi_r + h @ wh_r + bh_r)
        z = _sigmoid(gi_z + h @ wh_z + bh_z)
        hn = (h if reset_after else r * h) @ wh_n + bh_n
        n = xp.tanh(gi_n + (r * hn if reset_after else hn))
        h = (1.0 - z) * n + z * h
        for arr, v in zip(outs, (h, z, r, n, hn)):
            arr[t] = v
    return outs


def _dynamic_gru_v2(prim, x, wi, wh, bi, bh, h0, out=None):
    args = _wide(x, wi, wh, bi, bh, h0)
    h, z, r, n, hn = gru_forward(*args, prim.gate_order, prim.reset_after)
    return tuple(fit(v, spec) for v, spec in zip((h, h, z, r, n, hn), out))


def _gru_sequence_grad(prim, x, wi, wh, bi, bh, h0, h, z, r, n, hn, dy, dh_out, dz_out, dr_out, dn_out, dhn_out,
                       out=None):
    x, wi, wh, bi, bh, h0, h, z, r, n, hn = _wide(x, wi, wh, bi, bh, h0, h, z, r, n, hn)
    dy, dh_out, dz_out, dr_out, dn_out, dhn_out = _wide(dy, dh_out, dz_out, dr_out, dn_out, dhn_out)
    order, hidden = prim.gate_order, h0.shape[-1]
    wh_r, wh_z, wh_n = _gru_split(wh, hidden, order)
    dx, dwi, dbi = xp.zeros_like(x), xp.zeros_like(wi), xp.zeros_like(bi)
    dwh_r, dwh_z, dwh_n = (xp.zeros_like(wh_r) for _ in range(3))
    dbh_r, dbh_z, dbh_n = (xp.zeros((hidden,), bh.dtype) for _ in range(3))
    dh_next = xp.zeros_like(h0)
    for t in range(x.shape[0] - 1, -1, -1):
        h_prev = h[t - 1] if t else h0
        dh = dy[t] + dh_out[t] + dh_next
        dpn = (dn_out[t] + dh * (1.0 - z[t])) * (1.0 - n[t] * n[t])
        dpz = (dz_out[t] + dh * (h_prev - n[t])) * z[t] * (1.0 - z[t])
        dh_prev = dh * z[t]
        if prim.reset_after:
            dhn = dhn_out[t] + dpn * r[t]
            dpr = (dr_out[t] + dpn * hn[t]) * r[t] * (1.0 - r[t])
            dwh_n += h_prev.T @ dhn
            dh_prev = dh_prev + dhn @ wh_n.T
        else:
            dhn = dhn_out[t] + dpn
            drh = dhn @ wh_n.T
            dpr = (dr_out[t] + drh * h_prev) * r[t] * (1.0 - r[t])
            dwh_n += (r[t] * h_prev).T @ dhn
            dh_prev = dh_prev + drh * r[t]
        dbh_n += dhn.sum(axis=0)
        dwh_r += h_prev.T @ dpr
        dwh_z += h_prev.T @ dpz
        dbh_r += dpr.sum(axis=0)
        dbh_z += dpz.sum(axis=0)
        dh_prev = dh_prev + dpr @ wh_r.T + dpz @ wh_z.T
        dgi = _gru_join(dpr, dpz, dpn, order)
        dwi += x[t].T @ dgi
        dbi += dgi.sum(axis=0)
        dx[t] = dgi @ wi.T
        dh_next = dh_prev
    dwh, dbh = _gru_join(dwh_r, dwh_z, dwh_n, order), _gru_join(dbh_r, dbh_z, dbh_n, order)
    return tuple(fit(v, spec) for v, spec in zip((dx, dwi, dwh, dbi, dbh, dh_next), out))


# --- LSTM: stacked / bidirectional layers of the LSTM recursion (gates i, f, g, o; MindSpore's CPU weight layout)
_IFGO_TO_IJFO = (0, 2, 1, 3)     # PyTorch's gate blocks (i, f, g, o) in lstm_forward's order (i, j = g, f, o)


def _lstm_weights(prim, w, dtype):
    """Per (layer, direction): ``W`` (in + H, 4H) with the gate blocks in lstm_forward's order, and ``b`` (4H,)."""
    flat, h, d = w.reshape(-1), prim.hidden_size, prim.num_directions
    widths = [prim.input_size if layer == 0 else h * d for layer in range(prim.num_layers) for _ in range(d)]
    pos, w_ih, w_hh, bias = 0, [], [], []
    for width in widths:
        w_ih.append(flat[pos:pos + 4 * h * width].reshape(4 * h, width))
        pos += 4 * h * width
    for _ in widths:
        w_hh.append(flat[pos:pos + 4 * h * h].reshape(4 * h, h))
        pos += 4 * h * h
    for _ in widths:
        bias.append(flat[pos:pos + 4 * h] if prim.has_bias else xp.zeros(4 * h, dtype))
        pos += 4 * h if prim.has_bias else 0
    cells = []
    for wi, wh, b in zip(w_ih, w_hh, bias):
        full = xp.concatenate([wi, wh], axis=1).T.reshape(-1, 4, h)[:, list(_IFGO_TO_IJFO)].reshape(-1, 4 * h)
        cells.append((xp.ascontiguousarray(full), b.reshape(4, h)[list(_IFGO_TO_IJFO)].reshape(-1)))
    return cells


def _lstm_layers(prim, x, h0, c0, cells):
    """Run every layer and direction; returns the output and, per cell, (its input, its step outputs)."""
    d, inp, saved = prim.num_directions, x, []
    h_n, c_n = xp.empty_like(h0), xp.empty_like(c0)
    for layer in range(prim.num_layers):
        outs = []
        for direction in range(d):
            k = layer * d + direction
            seq = inp if direction == 0 else inp[::-1]
            steps = lstm_forward(seq, cells[k][0], cells[k][1], h0[k:k + 1], c0[k:k + 1], 0.0, -1.0)
            saved.append((seq, steps))
            outs.append(steps[0] if direction == 0 else steps[0][::-1])
            h_n[k], c_n[k] = steps[0][-1], steps[1][-1]
        inp = xp.concatenate(outs, axis=-1)
    return inp, h_n, c_n, saved


def _lstm(prim, x, h, c, w, out=None):
    x, h, c, w = _wide(x, h, c, w)
    y, h_n, c_n, _ = _lstm_layers(prim, x, h, c, _lstm_weights(prim, w, x.dtype))
    empty = xp.zeros((0, 1), out[3].dtype.to_numpy())
    return fit(y, out[0]), fit(h_n, out[1]), fit(c_n, out[2]), empty, empty.copy()


def _lstm_grad(prim, x, h, c, w, dy, dh_n, dc_n, out=None):
    x, h, c, w, dy, dh_n, dc_n = _wide(x, h, c, w, dy, dh_n, dc_n)
    cells = _lstm_weights(prim, w, x.dtype)
    _, _, _, saved = _lstm_layers(prim, x, h, c, cells)
    d, hid = prim.num_directions, prim.hidden_size
    dh, dc = xp.zeros_like(h), xp.zeros_like(c)
    grads = [None] * len(cells)
    d_out = dy                                              # cotangent of the current layer's output
    for layer in range(prim.num_layers - 1, -1, -1):
        d_in = None
        for direction in range(d):
            k = layer * d + direction
            seq, steps = saved[k]
            g = d_out[..., direction * hid:(direction + 1) * hid]
            g = g if direction == 0 else g[::-1]
            zeros = xp.zeros_like(g)
            d_h, d_c = zeros.copy(), zeros.copy()
            d_h[-1], d_c[-1] = dh_n[k], dc_n[k]
            dx_k, dw_k, db_k, dh0, dc0 = lstm_backward(seq, cells[k][0], h[k:k + 1], c[k:k + 1], steps,
                                                       (g, d_h, d_c) + (zeros,) * 5, -1.0)
            grads[k] = (dw_k, db_k)
            dh[k], dc[k] = dh0[0], dc0[0]
            dx_k = dx_k if direction == 0 else dx_k[::-1]
            d_in = dx_k if d_in is None else d_in + dx_k
        d_out = d_in
    order = list(_IFGO_TO_IJFO)          # the permutation is its own inverse
    parts_ih, parts_hh, parts_b = [], [], []
    for (dw_k, db_k), (cell_w, _) in zip(grads, cells):
        width = cell_w.shape[0] - hid
        full = dw_k.reshape(-1, 4, hid)[:, order].reshape(-1, 4 * hid).T       # (4H, in + H), gates i, f, g, o
        parts_ih.append(full[:, :width].reshape(-1))
        parts_hh.append(full[:, width:].reshape(-1))
        parts_b.append(db_k.reshape(4, hid)[order].reshape(-1))
    dw = xp.concatenate(parts_ih + parts_hh + (parts_b if prim.has_bias else []))
    if dw.size < w.size:    # a longer ``w``: the elements the forward pass does not read get no gradient
        dw = xp.concatenate([dw, xp.zeros(w.size - dw.size, dw.dtype)])
    dw = dw.reshape(w.shape)
    return fit(d_out, out[0]), fit(dh, out[1]), fit(dc, out[2]), fit(dw, out[3])


# --- the fused attention (ScaledDotProductAttention) on the whole score matrix ---------------------------------------
def _attention_probs(prim, q, k):
    """(softmax of the masked scaled scores, the row maxima, the row sums of exp, the mask), in q's dtype."""
    s = xp.matmul(q, xp.swapaxes(k, -1, -2)) * q.dtype.type(prim.scale)
    mask = prim.hidden(q.shape[-2], k.shape[-2], xp)     # (built where the scores are)
    if mask is not None:
        s = xp.where(mask, q.dtype.type(-1e30), s)
    m = s.max(axis=-1, keepdims=True)
    e = xp.exp(s - m)
    z = e.sum(axis=-1, keepdims=True)
    return e / z, m, z, mask


def _sdpa_plain(prim, query, key, value):
    """(attention_out in query's dtype, softmax_lse in the computing dtype)."""
    q, k, v = _wide(query, key, value)
    p, m, z, _ = _attention_probs(prim, q, k)
    return xp.matmul(p, v).astype(query.dtype, copy=False), m + xp.log(z)


def _sdpa_grad_plain(prim, query, key, value, attention_out, dout, lse, dlse=None):
    """(dquery, dkey, dvalue) in their inputs' dtypes, the softmax recomputed from the scores."""
    q, k, v, do = _wide(query, key, value, dout)
    p, _, _, mask = _attention_probs(prim, q, k)
    dv = xp.matmul(xp.swapaxes(p, -1, -2), do)
    dp = xp.matmul(do, xp.swapaxes(v, -1, -2))
    delta = (p * dp).sum(axis=-1, keepdims=True)
    if prim.lse_grad:
        delta = delta - dev(dlse).astype(q.dtype, copy=False)
    ds = p * (dp - delta)
    if mask is not None:        # a masked score is a constant: no gradient flows to it
        ds = xp.where(mask, q.dtype.type(0), ds)
    scale = q.dtype.type(prim.scale)
    dq = xp.matmul(ds, k) * scale
    dk = xp.matmul(xp.swapaxes(ds, -1, -2), q) * scale
    return (dq.astype(query.dtype, copy=False), dk.astype(key.dtype, copy=False),
            dv.astype(value.dtype, copy=False))


def _sdpa(prim, query, key, value, out=None):
    return fit(_sdpa_plain(prim, query, key, value), out)


def _sdpa_grad(prim, query, key, value, attention_out, dout, lse, dlse, out=None):
    return fit(_sdpa_grad_plain(prim, query, key, value, attention_out, dout, lse, dlse), out)


KERNELS = {
    "Conv3DTranspose": _conv3d_transpose,
    "LRN": _lrn,
    "LRNGrad": _lrn_grad,
    "MaxUnpool2D": _max_unpool,
    "MaxUnpool3D": _max_unpool,
    "AdaptiveAvgPool3D": _adaptive_avg3d,
    "AdaptiveAvgPool3DGrad": _adaptive_avg3d_grad,
    "AdaptiveMaxPool3D": _adaptive_max3d,
    "AdaptiveMaxPool3DGrad": _adaptive_max3d_grad,
    "SoftMarginLoss": _soft_margin_loss,
    "MultiMarginLoss": _multi_margin_loss,
    "ChannelShuffle": _channel_shuffle,
    "RmsNorm": _rms_norm,
    "NonDeterministicInts": _non_deterministic_ints,
    "ScaledDotProductAttention": _sdpa,
    "ScaledDotProductAttentionGrad": _sdpa_grad,
    "LSTM": _lstm,
    "LSTMGrad": _lstm_grad,
    "DynamicGRUV2": _dynamic_gru_v2,
    "GRUSequenceGrad": _gru_sequence_grad,
    "DynamicRNN": _dynamic_rnn,
    "BasicLSTMCell": _basic_lstm_cell,
    "LSTMSequenceGrad": _lstm_sequence_grad,
    "FractionalMaxPool": _fractional_pool,
    "FractionalAvgPool": _fractional_pool,
    "FractionalMaxPoolGrad": _fractional_max_pool_grad,
    "FractionalAvgPoolGrad": _fractional_avg_pool_grad,
    "STFT": _stft,
    "DeformableOffsets": _deformable_offsets,
    "DeformableOffsetsGrad": _deformable_offsets_grad,
    "DepthwiseConv2dNative": _depthwise_conv2d,
    "TripletMarginLoss": _triplet_margin_loss,
    "MultilabelMarginLoss": _multilabel_margin_loss,
    "DropoutGenMask": _dropout_gen_mask,
    "DropoutDoMask": _dropout_do_mask,
    "ComputeAccidentalHits": _compute_accidental_hits,
    "UniformCandidateSampler": _candidate_sampler,
    "LogUniformCandidateSampler": _candidate_sampler,
    "FractionalMaxPoolWithFixedKsize": _fractional_fixed,
    "FractionalMaxPool3DWithFixedKsize": _fractional_fixed,
    "MaxPoolScatterGrad": _max_pool_scatter_grad,
    "CTCLoss": _ctc_loss,
}
