"""CPU kernels of the nn_prims family (``mindspore/ops/_defs/nn_prims.py`` and ``nn_prims_ext.py``), in NumPy.

Depthwise convolution runs the conv family's grouped ``Conv2D`` kernel. The recurrent kernels share one LSTM step
loop (:func:`lstm_forward`) and its back-propagation through time (:func:`lstm_backward`): ``DynamicRNN``,
``BasicLSTMCell`` (one step) and ``LSTM`` (its (i, f, g, o) weights permuted into that loop's gate order, layer by
layer and direction by direction). CTC runs the log-space alpha-beta recursion per sequence; candidate sampling
and fractional-pooling boundaries are sequential draws.

The transposed 3-D convolution is the conv family's input-gradient kernel run on the primitive's equivalent
direct convolution (``prim._direct``). LRN sums squares over the channel window with a cumulative sum;
3-D adaptive pooling loops over the output cells (their bounds from
:func:`mindspore.ops._defs.nn_prims.adaptive_bounds`); the fused attention computes the whole score matrix (its
gradient recomputes the softmax from the scores); the rest is vectorised. Half precision computes in
float32 and is cast back to the inferred ``out`` dtype (:mod:`._out`). The random kernels draw from
``prim.generator()`` (the instance's stream).
"""
import numpy as np

from mindspore.plugin import MSValueError
from mindspore_cpu.kernels import conv as _conv
from mindspore_cpu.kernels._out import fit, fits_out

_WIDE = (np.dtype(np.float32), np.dtype(np.float64))


def _wide(*arrays):
    dt = np.result_type(*arrays)
    dt = dt if dt in _WIDE else np.dtype(np.float32)
    return [np.asarray(a, dtype=dt) for a in arrays]


def _bounds(n_in, n_out, i):
    return (i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)


def _reduce(loss, reduction):
    if reduction == "mean":
        return np.asarray(loss.mean())
    if reduction == "sum":
        return np.asarray(loss.sum())
    return loss


# --- Conv3DTranspose ------------------------------------------------------------------------------
def _conv3d_transpose(prim, x, w, out=None):
    y = _conv.KERNELS["Conv3DBackpropInput"](prim._direct, w, x, out.shape)
    return fit(np.asarray(y), out)


# --- LRN ------------------------------------------------------------------------------------------
def _band(v, r):
    """``sum_{|c' - c| <= r} v[:, c']`` over the channel axis (1) by a cumulative sum."""
    c = v.shape[1]
    cs = np.concatenate([np.zeros_like(v[:, :1]), np.cumsum(v, axis=1)], axis=1)
    hi = np.minimum(np.arange(c) + r + 1, c)
    lo = np.maximum(np.arange(c) - r, 0)
    return cs[:, hi] - cs[:, lo]


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
    rows = x.shape[0] * x.shape[1]
    plane = int(np.prod(out.shape[2:]))
    idx = np.asarray(argmax, np.int64).reshape(rows, -1)
    if idx.size and (idx.min() < 0 or idx.max() >= plane):
        bad = idx[(idx < 0) | (idx >= plane)][0]
        raise MSValueError(f"For '{prim.name}', the 'argmax' values must be in [0, {plane}), but got {bad}.")
    y = np.zeros((rows, plane), dtype=x.dtype)
    y[np.arange(rows)[:, None], idx] = x.reshape(rows, -1)
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
    y = np.empty(out.shape, xw.dtype)
    for o, cell in _cells(x.shape[-3:], out.shape[-3:]):
        y[(Ellipsis,) + o] = xw[(Ellipsis,) + cell].mean(axis=(-3, -2, -1))
    return y


@fits_out
def _adaptive_avg3d_grad(prim, dout, orig_shape, out=None):
    (g,) = _wide(dout)
    dx = np.zeros(out.shape, g.dtype)
    for o, cell in _cells(out.shape[-3:], dout.shape[-3:]):
        count = (cell[0].stop - cell[0].start) * (cell[1].stop - cell[1].start) * (cell[2].stop - cell[2].start)
        dx[(Ellipsis,) + cell] += g[(Ellipsis,) + o][..., None, None, None] / count
    return dx


def _adaptive_max3d(prim, x, output_size, out=None):
    y = np.empty(out[0].shape, x.dtype)
    arg = np.empty(out[1].shape, np.int64)
    d, h, w = x.shape[-3:]
    for o, cell in _cells(x.shape[-3:], out[0].shape[-3:]):
        block = x[(Ellipsis,) + cell]
        flat = block.reshape(block.shape[:-3] + (-1,))
        pick = np.argmax(np.where(np.isnan(flat), np.inf, flat) if flat.dtype.kind == "f" else flat, axis=-1)
        y[(Ellipsis,) + o] = np.take_along_axis(flat, pick[..., None], -1)[..., 0]
        bh, bw = block.shape[-2], block.shape[-1]
        dd, rem = np.divmod(pick, bh * bw)
        hh, ww = np.divmod(rem, bw)
        arg[(Ellipsis,) + o] = ((dd + cell[0].start) * h + hh + cell[1].start) * w + ww + cell[2].start
    return y, fit(arg, out[1])


@fits_out
def _adaptive_max3d_grad(prim, dout, x, argmax, out=None):
    (g,) = _wide(dout)
    lead = int(np.prod(x.shape[:-3]))
    dx = np.zeros((lead, int(np.prod(x.shape[-3:]))), g.dtype)
    rows = np.broadcast_to(np.arange(lead)[:, None], (lead, int(np.prod(dout.shape[-3:]))))
    np.add.at(dx, (rows, np.asarray(argmax, np.int64).reshape(lead, -1)), g.reshape(lead, -1))
    return dx.reshape(x.shape)


# --- losses ---------------------------------------------------------------------------------------
@fits_out
def _soft_margin_loss(prim, x, y, out=None):
    x, y = _wide(x, y)
    return _reduce(np.logaddexp(0.0, -x * y), prim.reduction)


@fits_out
def _multi_margin_loss(prim, x, target, weight=None, out=None):
    (xw,) = _wide(x)
    n, c = xw.shape
    t = np.asarray(target, np.int64)
    if t.size and (t.min() < 0 or t.max() >= c):
        raise MSValueError(f"For '{prim.name}', the 'target' values must be in [0, {c}), but got "
                           f"{t[(t < 0) | (t >= c)][0]}.")
    x_y = xw[np.arange(n), t][:, None]
    h = np.maximum(prim.margin - x_y + xw, 0.0)
    if prim.p == 2:
        h = h * h
    h[np.arange(n), t] = 0.0
    if weight is not None:
        h = h * np.asarray(weight, xw.dtype)[t][:, None]
    return _reduce(h.sum(axis=1) / c, prim.reduction)


# --- channel dropout, shuffle, RMS normalisation --------------------------------------------------
def _channel_dropout(prim, x, out=None):
    keep = prim.keep_prob
    mask = prim.generator().random(x.shape[:2]) < keep
    mask = np.broadcast_to(mask.reshape(x.shape[:2] + (1,) * (x.ndim - 2)), x.shape)
    scale = 0.0 if keep == 0 else 1.0 / keep
    y = np.where(mask, x * scale, 0).astype(x.dtype) if x.dtype.kind in "fc" else np.where(mask, x, 0)
    return fit(np.asarray(y), out[0]), np.ascontiguousarray(mask)


def _channel_shuffle(prim, x, out=None):
    n, c = x.shape[:2]
    g = prim.group
    return np.ascontiguousarray(x.reshape((n, g, c // g) + x.shape[2:]).swapaxes(1, 2)).reshape(x.shape)


def _rms_norm(prim, x, gamma, out=None):
    xw = np.asarray(x, np.float32) if x.dtype != np.float64 else x
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1.0 / np.sqrt(np.mean(xw * xw, axis=axes, keepdims=True) + prim.epsilon)
    y = xw * rstd * np.asarray(gamma, xw.dtype)
    return fit(y, out[0]), fit(rstd, out[1])


# --- random samplers ------------------------------------------------------------------------------
def _truncated_normal(prim, shape, out=None):
    gen = prim.generator()
    z = gen.standard_normal(shape)
    bad = np.abs(z) > 2.0
    while bad.any():
        z[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(z) > 2.0
    return fit(np.asarray(z), out)


def _random_gamma(prim, shape, alpha, out=None):
    a = np.broadcast_to(np.asarray(alpha, np.float64), out.shape)
    return fit(np.asarray(prim.generator().gamma(a)), out)


def _random_poisson(prim, shape, rate, out=None):
    lam = np.broadcast_to(np.asarray(rate, np.float64), out.shape)
    if lam.size and lam.min() < 0:
        raise MSValueError(f"For '{prim.name}', the 'rate' must be non-negative, but got {lam.min()}.")
    return fit(np.asarray(prim.generator().poisson(lam)), out)


def _cauchy(prim, out=None):
    z = prim.generator().standard_cauchy(out.shape)
    return fit(np.asarray(prim.median + prim.sigma * z), out)


def _log_normal_reverse(prim, x, out=None):
    return fit(np.asarray(prim.generator().lognormal(prim.mean, prim.std, x.shape)), out)


def _parameterized_truncated_normal(prim, shape, mean, stdevs, lo, hi, out=None):
    gen = prim.generator()
    batch = out.shape[0]
    per_row = (batch,) + (1,) * (len(out.shape) - 1)
    m, s, a, b = (np.broadcast_to(np.asarray(v, np.float64).reshape(-1), (batch,)).reshape(per_row)
                  for v in (mean, stdevs, lo, hi))
    if (s <= 0).any() or (a >= b).any():
        raise MSValueError(f"For '{prim.name}', the 'stdevs' must be positive and 'min' less than 'max'.")
    m, s, a, b = (np.broadcast_to(v, out.shape) for v in (m, s, a, b))
    z = m + s * gen.standard_normal(out.shape)
    bad = (z < a) | (z > b)
    for _ in range(10000):
        if not bad.any():
            break
        z[bad] = m[bad] + s[bad] * gen.standard_normal(int(bad.sum()))
        bad = (z < a) | (z > b)
    else:
        raise MSValueError(f"For '{prim.name}', the interval [min, max] is too far in the tail to sample.")
    return fit(np.asarray(z), out)


def _non_deterministic_ints(prim, shape, out=None):
    dt = out.dtype.to_numpy()
    info = np.iinfo(dt)
    return np.asarray(prim.generator().integers(info.min, info.max, size=shape, dtype=dt, endpoint=True))


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
    "Dropout2D": _channel_dropout,
    "Dropout3D": _channel_dropout,
    "ChannelShuffle": _channel_shuffle,
    "RmsNorm": _rms_norm,
    "TruncatedNormal": _truncated_normal,
    "RandomGamma": _random_gamma,
    "RandomPoisson": _random_poisson,
    "Cauchy": _cauchy,
    "LogNormalReverse": _log_normal_reverse,
    "ParameterizedTruncatedNormal": _parameterized_truncated_normal,
    "NonDeterministicInts": _non_deterministic_ints,
}


# --- triplet / multilabel margin losses -----------------------------------------------------------
def _pnorm(v, p):
    return (np.abs(v) ** p).sum(axis=1) ** (1.0 / p)


@fits_out
def _triplet_margin_loss(prim, x, positive, negative, margin, out=None):
    x, positive, negative = _wide(x, positive, negative)
    p, eps = prim.p, prim.eps
    d_ap, d_an = _pnorm(x - positive + eps, p), _pnorm(x - negative + eps, p)
    if prim.swap:
        d_an = np.minimum(d_an, _pnorm(positive - negative + eps, p))
    return _reduce(np.maximum(d_ap - d_an + float(np.asarray(margin)), 0.0), prim.reduction)


def multilabel_targets(target):
    """How many times each class is listed in each row of ``target`` before its first -1."""
    t = np.asarray(target).reshape(-1, target.shape[-1])
    c = t.shape[1]
    valid = np.cumprod(t >= 0, axis=1).astype(bool)
    count = np.zeros(t.shape, np.int32)
    rows = np.broadcast_to(np.arange(t.shape[0])[:, None], t.shape)
    if valid.any() and (t[valid] >= c).any():
        raise MSValueError(f"For 'MultilabelMarginLoss', the 'target' values must be in [-1, {c}).")
    np.add.at(count, (rows[valid], t[valid]), 1)
    return count


def _multilabel_margin_loss(prim, x, target, out=None):
    (xw,) = _wide(x)
    x2 = xw.reshape(-1, x.shape[-1])
    count = multilabel_targets(target)
    is_t = (count > 0).astype(np.int32)
    h = np.maximum(1.0 - x2[:, :, None] + x2[:, None, :], 0.0)     # [n, j, i] = 1 - (x[j] - x[i])
    pair = count[:, :, None] * (1 - is_t)[:, None, :]
    loss = (h * pair).sum(axis=(1, 2)) / x2.shape[1]
    loss = loss.reshape(x.shape[:-1]) if prim.reduction == "none" else _reduce(loss, prim.reduction)
    return fit(np.asarray(loss), out[0]), is_t.reshape(target.shape)


# --- DropoutGenMask / DropoutDoMask ---------------------------------------------------------------
def _scalar(v):
    return float(np.asarray(v).reshape(-1)[0])


def _dropout_gen_mask(prim, shape, keep_prob, out=None):
    bits = prim.generator().random(out.shape[0] * 8) < _scalar(keep_prob)
    return np.packbits(bits, bitorder="little")


def _dropout_do_mask(prim, x, mask, keep_prob, out=None):
    keep = _scalar(keep_prob)
    bits = np.unpackbits(np.asarray(mask, np.uint8), bitorder="little")[:x.size].reshape(x.shape).astype(bool)
    scale = 0.0 if keep == 0 else 1.0 / keep
    return fit(np.where(bits, x * scale, 0), out)


# --- ComputeAccidentalHits / candidate samplers ---------------------------------------------------
def _compute_accidental_hits(prim, true_classes, sampled, out=None):
    hit = (np.asarray(true_classes)[:, :, None] == np.asarray(sampled)[None, None, :]).any(axis=1)
    rows, ids = np.nonzero(hit)
    weights = np.full(rows.shape, np.finfo(np.float32).min, np.float32)
    return rows.astype(np.int32), ids.astype(out[1].dtype.to_numpy()), weights


def sample_candidates(gen, draw, num_sampled, unique, exclude):
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
    classes = np.asarray(true_classes)
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
    sampled, tries = sample_candidates(prim.generator(), draw, prim.num_sampled, unique, exclude)
    true_count = _candidate_counts(prob(classes), tries, prim.num_sampled, unique)
    sampled_count = _candidate_counts(prob(sampled), tries, prim.num_sampled, unique)
    return (sampled.astype(classes.dtype), np.asarray(true_count, np.float32),
            np.asarray(sampled_count, np.float32))


# --- fractional max pooling with a fixed window ---------------------------------------------------
def fractional_starts(sample, in_size, out_size, k):
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
    nd = prim._nd
    batched = x.ndim == nd + 2
    xs = x if batched else x[None]
    spatial = xs.shape[2:]
    planes = xs.reshape((-1,) + spatial)
    smp = np.asarray(samples, np.float64).reshape(planes.shape[0], nd)
    y = np.empty((planes.shape[0],) + prim._out, x.dtype)
    arg = np.empty(y.shape, np.int64)
    for p in range(planes.shape[0]):
        idx = [fractional_starts(smp[p, _sample_column(nd, a)], spatial[a], prim._out[a], prim._ksize[a])[:, None]
               + np.arange(prim._ksize[a])[None, :] for a in range(nd)]
        grids = np.meshgrid(*[i.ravel() for i in idx], indexing="ij")
        flat = np.ravel_multi_index(grids, spatial).reshape(
            sum(((o, k) for o, k in zip(prim._out, prim._ksize)), ()))
        order = tuple(range(0, 2 * nd, 2)) + tuple(range(1, 2 * nd, 2))
        flat = flat.transpose(order).reshape(prim._out + (-1,))
        vals = planes[p].ravel()[flat]
        key = np.where(np.isnan(vals), np.inf, vals) if vals.dtype.kind == "f" else vals
        pick = np.argmax(key, axis=-1)[..., None]
        y[p] = np.take_along_axis(vals, pick, -1)[..., 0]
        arg[p] = np.take_along_axis(flat, pick, -1)[..., 0]
    shape = xs.shape[:2] + prim._out
    y, arg = y.reshape(shape), arg.reshape(shape)
    return (y, arg) if batched else (y[0], arg[0])


@fits_out
def _max_pool_scatter_grad(prim, dout, x, argmax, out=None):
    (g,) = _wide(dout)
    nd = prim.nd
    lead = int(np.prod(x.shape[:-nd]))
    dx = np.zeros((lead, int(np.prod(x.shape[-nd:]))), g.dtype)
    cols = int(np.prod(dout.shape[-nd:]))
    rows = np.broadcast_to(np.arange(lead)[:, None], (lead, cols))
    np.add.at(dx, (rows, np.asarray(argmax, np.int64).reshape(lead, -1)), g.reshape(lead, -1))
    return dx.reshape(x.shape)


# --- CTCLoss --------------------------------------------------------------------------------------
def _log_softmax(x):
    m = x.max(axis=-1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=-1, keepdims=True))


def _lse(a, axis=None):
    m = np.max(a, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):      # log(0) = -inf: a state no path reaches
        return np.squeeze(m + np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)), axis=axis)


def ctc_one(logp, labels, merge_repeated):
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
    stay_next = stay
    for t in range(t_len - 2, -1, -1):
        nxt = beta[t + 1]
        cand = np.stack([np.where(stay_next, nxt, neg), np.concatenate([nxt[1:], [neg]]),
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


def _ctc_loss(prim, x, labels_indices, labels_values, sequence_length, out=None):
    xw = np.asarray(x, np.float64)
    t_max, batch, _ = xw.shape
    idx, vals = np.asarray(labels_indices), np.asarray(labels_values)
    lens = np.asarray(sequence_length)
    loss, grad = np.zeros(batch), np.zeros_like(xw)
    for b in range(batch):
        rows = idx[:, 0] == b
        labels = vals[rows][np.argsort(idx[rows, 1], kind="stable")]
        if prim.preprocess_collapse_repeated and len(labels):
            labels = labels[np.concatenate([[True], labels[1:] != labels[:-1]])]
        t_len = int(lens[b])
        if t_len > t_max or t_len < 0:
            raise MSValueError(f"For '{prim.name}', the 'sequence_length' {t_len} of batch {b} must be in "
                               f"[0, {t_max}].")
        if len(labels) > t_len:
            # as MindSpore 2.10: an error, or (ignore_longer_outputs_than_inputs) an infinite loss, no gradient
            if prim.ignore_longer_outputs_than_inputs:
                loss[b] = np.inf
                continue
            raise MSValueError(f"For '{prim.name}', input time(sequence length) must be greater than output "
                               f"size(label length), but got sequence length: {t_len} and label length: "
                               f"{len(labels)}.")
        if t_len == 0:
            continue
        loss[b], grad[:t_len, b] = ctc_one(_log_softmax(xw[:t_len, b]), labels, prim.ctc_merge_repeated)
    return fit(loss, out[0]), fit(grad, out[1])


# --- DepthwiseConv2dNative: the conv family's grouped Conv2D kernel, one group per channel ----------
def _depthwise_conv2d(prim, x, w, out=None):
    c = x.shape[1]
    y = _conv.KERNELS["Conv2D"](prim.direct_conv(c), x, np.ascontiguousarray(np.swapaxes(w, 0, 1)),
                                out=_Spec(out.shape[:1] + (c,) + out.shape[2:], out.dtype))
    return fit(np.repeat(np.asarray(y), prim.channel_multiplier, axis=1), out)


class _Spec:
    """An ``out`` spec for a kernel called from another (shape and dtype, as core's TensorSpec)."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtype


# --- DeformableOffsets ----------------------------------------------------------------------------
def _deformable_grid(prim, x, offsets):
    """Per sample (N, dg, P = kh * kw * oh * ow): the corner indices, bilinear weights, validity and mask."""
    n, c, h, w = x.shape
    dg = prim.deformable_groups
    kh, kw = prim.ksize
    oh, ow = offsets.shape[2:]
    off = offsets.reshape(n, 3, dg, kh, kw, oh, ow)
    base_y = (np.arange(oh) * prim.strides[2])[None, :] + (np.arange(kh) * prim.dilations[2])[:, None] - prim.pads[0]
    base_x = (np.arange(ow) * prim.strides[3])[None, :] + (np.arange(kw) * prim.dilations[3])[:, None] - prim.pads[2]
    yy = (base_y[:, None, :, None] + off[:, 1]).reshape(n, dg, -1)
    xx = (base_x[None, :, None, :] + off[:, 0]).reshape(n, dg, -1)
    mask = off[:, 2].reshape(n, dg, -1)
    inside = (yy > -1) & (yy < h) & (xx > -1) & (xx < w)
    top, left = np.floor(yy).astype(np.int64), np.floor(xx).astype(np.int64)
    t, l = yy - top, xx - left
    corners = []
    for dy, dx_, wgt, dwy, dwx in ((0, 0, (1 - l) * (1 - t), -(1 - l), -(1 - t)), (0, 1, l * (1 - t), -l, 1 - t),
                                   (1, 0, (1 - l) * t, 1 - l, -t), (1, 1, l * t, l, t)):
        cy, cx = top + dy, left + dx_
        ok = inside & (cy >= 0) & (cy < h) & (cx >= 0) & (cx < w)
        corners.append((np.where(ok, cy * w + cx, 0), np.where(ok, wgt, 0.0), np.where(ok, dwy, 0.0),
                        np.where(ok, dwx, 0.0)))
    return corners, mask


def _deformable_offsets(prim, x, offsets, out=None):
    xw, offw = _wide(x, offsets)
    n, c, h, w = x.shape
    dg = prim.deformable_groups
    kh, kw = prim.ksize
    oh, ow = offsets.shape[2:]
    corners, mask = _deformable_grid(prim, xw, offw)
    planes = xw.reshape(n, dg, c // dg, h * w)
    y = 0.0
    for idx, wgt, _, _ in corners:
        y = y + np.take_along_axis(planes, idx[:, :, None, :], axis=3) * wgt[:, :, None, :]
    y = y * mask[:, :, None, :]
    y = y.reshape(n, dg, c // dg, kh, kw, oh, ow).transpose(0, 1, 2, 5, 3, 6, 4)
    return fit(np.ascontiguousarray(y).reshape(out.shape), out)


def _deformable_offsets_grad(prim, dout, x, offsets, out=None):
    g, xw, offw = _wide(dout, x, offsets)
    n, c, h, w = x.shape
    dg, cg = prim.deformable_groups, c // prim.deformable_groups
    kh, kw = prim.ksize
    oh, ow = offsets.shape[2:]
    corners, mask = _deformable_grid(prim, xw, offw)
    g = g.reshape(n, dg, cg, oh, kh, ow, kw).transpose(0, 1, 2, 4, 6, 3, 5).reshape(n, dg, cg, -1)
    planes = xw.reshape(n, dg, cg, h * w)
    dx = np.zeros(planes.shape, g.dtype)
    rows = np.arange(n * dg * cg).reshape(n, dg, cg, 1) * (h * w)
    value, d_y, d_x = 0.0, 0.0, 0.0
    for idx, wgt, dwy, dwx in corners:
        v = np.take_along_axis(planes, idx[:, :, None, :], axis=3)
        value, d_y, d_x = value + v * wgt[:, :, None, :], d_y + v * dwy[:, :, None, :], d_x + v * dwx[:, :, None, :]
        np.add.at(dx.reshape(-1), (rows + idx[:, :, None, :]).ravel(),
                  (g * (wgt * mask)[:, :, None, :]).ravel())
    m = mask[:, :, None, :]
    doff = np.stack([(g * m * d_x).sum(2), (g * m * d_y).sum(2), (g * value).sum(2)], axis=1)
    return fit(dx.reshape(x.shape), out[0]), fit(doff.reshape(offsets.shape), out[1])


# --- STFT -----------------------------------------------------------------------------------------
def _stft(prim, x, window, out=None):
    n_fft, hop = prim.n_fft, prim.hop_length
    frames = 1 + (x.shape[-1] - n_fft) // hop
    starts = np.arange(frames) * hop
    taps = starts[:, None] + np.arange(n_fft)[None, :]
    left = (n_fft - prim.win_length) // 2
    win = np.zeros(n_fft, np.result_type(window.dtype, np.float32))
    win[left:left + prim.win_length] = window
    seg = x[..., taps] * win                                      # (..., frames, n_fft)
    norm = "ortho" if prim.normalized else "backward"
    spec = np.fft.rfft(seg, axis=-1, norm=norm) if prim.onesided else np.fft.fft(seg, axis=-1, norm=norm)
    spec = np.swapaxes(spec, -1, -2)
    if not prim.return_complex:
        spec = np.stack([spec.real, spec.imag], axis=-1)
    return fit(np.ascontiguousarray(spec), out)


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
    row, col = _fractional_sequences(prim, x)
    y = np.empty(out[0].shape, x.dtype)
    reduce = np.max if prim.name == "FractionalMaxPool" else np.mean
    for i, j, r, c in _fractional_cells(row, col, x.shape[1], x.shape[2], prim.overlapping):
        y[:, i, j, :] = reduce(x[:, r, c, :], axis=(1, 2))
    return fit(y, out[0]), np.asarray(row), np.asarray(col)


def _fractional_max_pool_grad(prim, orig_input, orig_output, dout, row, col, out=None):
    x, g = orig_input, dout
    n, h, w, c = x.shape
    dx = np.zeros(x.shape, g.dtype)
    lanes = np.arange(n)[:, None], np.arange(c)[None, :]
    for i, j, r, cs in _fractional_cells(row, col, h, w, prim.overlapping):
        block = x[:, r, cs, :]
        bw = block.shape[2]
        pick = np.argmax(block.reshape(n, -1, c), axis=1)              # (N, C): first maximum
        dx[lanes[0], r.start + pick // bw, cs.start + pick % bw, lanes[1]] += g[:, i, j, :]
    return fit(dx, out)


def _fractional_avg_pool_grad(prim, shape, dout, row, col, out=None):
    g = dout
    dx = np.zeros(tuple(shape), g.dtype if g.dtype.kind == "f" else np.float64)
    for i, j, r, c in _fractional_cells(row, col, shape[1], shape[2], prim.overlapping):
        count = (r.stop - r.start) * (c.stop - c.start)
        dx[:, r, c, :] += g[:, i, j, :][:, None, None, :] / count
    return fit(dx, out)


# --- DynamicRNN / BasicLSTMCell: the LSTM recursion and its back-propagation through time -----------
def _sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def lstm_forward(x, w, b, h0, c0, forget_bias, cell_clip):
    """h, c, i, j, f, o, tanh(c) per step (T, B, H) of an LSTM with gates ``[i, j, f, o] = [x_t, h] @ w + b``."""
    steps, hidden = x.shape[0], w.shape[1] // 4
    outs = [np.empty((steps, x.shape[1], hidden), x.dtype) for _ in range(7)]
    h, c = h0[0], c0[0]
    for t in range(steps):
        gates = np.concatenate([x[t], h], axis=1) @ w + b
        gi, gj, gf, go = (gates[:, k * hidden:(k + 1) * hidden] for k in range(4))
        i, j, f, o = _sigmoid(gi), np.tanh(gj), _sigmoid(gf + forget_bias), _sigmoid(go)
        c = f * c + i * j
        if cell_clip > 0:
            c = np.clip(c, -cell_clip, cell_clip)
        tc = np.tanh(c)
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
    dx, dw, db = np.zeros_like(x), np.zeros_like(w), np.zeros(w.shape[1], w.dtype)
    dh_next, dc_next = np.zeros_like(h0[0]), np.zeros_like(c0[0])
    for t in range(steps - 1, -1, -1):
        h_prev = h[t - 1] if t else h0[0]
        c_prev = c[t - 1] if t else c0[0]
        dh = dy[t] + dh_out[t] + dh_next
        dtc = dtc_out[t] + dh * o[t]
        dc = dc_out[t] + dc_next + dtc * (1.0 - tc[t] * tc[t])
        if cell_clip > 0:
            dc = np.where(np.abs(f[t] * c_prev + i[t] * j[t]) <= cell_clip, dc, 0.0)
        d_i = (di_out[t] + dc * j[t]) * i[t] * (1.0 - i[t])
        d_j = (dj_out[t] + dc * i[t]) * (1.0 - j[t] * j[t])
        d_f = (df_out[t] + dc * c_prev) * f[t] * (1.0 - f[t])
        d_o = (do_out[t] + dh * tc[t]) * o[t] * (1.0 - o[t])
        dgates = np.concatenate([d_i, d_j, d_f, d_o], axis=1)
        dw += np.concatenate([x[t], h_prev], axis=1).T @ dgates
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
    return np.concatenate([r, z, n] if order == "rzh" else [z, r, n], axis=-1)


def gru_forward(x, wi, wh, bi, bh, h0, order, reset_after):
    """h, z, r, n, hidden_new per step (T, B, H)."""
    hidden = h0.shape[-1]
    outs = [np.empty((x.shape[0], x.shape[1], hidden), x.dtype) for _ in range(5)]
    wh_r, wh_z, wh_n = _gru_split(wh, hidden, order)
    bh_r, bh_z, bh_n = _gru_split(bh, hidden, order)
    h = h0
    for t in range(x.shape[0]):
        gi_r, gi_z, gi_n = _gru_split(x[t] @ wi + bi, hidden, order)
        r = _sigmoid(gi_r + h @ wh_r + bh_r)
        z = _sigmoid(gi_z + h @ wh_z + bh_z)
        hn = (h if reset_after else r * h) @ wh_n + bh_n
        n = np.tanh(gi_n + (r * hn if reset_after else hn))
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
    dx, dwi, dbi = np.zeros_like(x), np.zeros_like(wi), np.zeros_like(bi)
    dwh_r, dwh_z, dwh_n = (np.zeros_like(wh_r) for _ in range(3))
    dbh_r, dbh_z, dbh_n = (np.zeros((hidden,), bh.dtype) for _ in range(3))
    dh_next = np.zeros_like(h0)
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
        bias.append(flat[pos:pos + 4 * h] if prim.has_bias else np.zeros(4 * h, dtype))
        pos += 4 * h if prim.has_bias else 0
    cells = []
    for wi, wh, b in zip(w_ih, w_hh, bias):
        full = np.concatenate([wi, wh], axis=1).T.reshape(-1, 4, h)[:, list(_IFGO_TO_IJFO)].reshape(-1, 4 * h)
        cells.append((np.ascontiguousarray(full), b.reshape(4, h)[list(_IFGO_TO_IJFO)].reshape(-1)))
    return cells


def _lstm_layers(prim, x, h0, c0, cells):
    """Run every layer and direction; returns the output and, per cell, (its input, its step outputs)."""
    d, inp, saved = prim.num_directions, x, []
    h_n, c_n = np.empty_like(h0), np.empty_like(c0)
    for layer in range(prim.num_layers):
        outs = []
        for direction in range(d):
            k = layer * d + direction
            seq = inp if direction == 0 else inp[::-1]
            steps = lstm_forward(seq, cells[k][0], cells[k][1], h0[k:k + 1], c0[k:k + 1], 0.0, -1.0)
            saved.append((seq, steps))
            outs.append(steps[0] if direction == 0 else steps[0][::-1])
            h_n[k], c_n[k] = steps[0][-1], steps[1][-1]
        inp = np.concatenate(outs, axis=-1)
    return inp, h_n, c_n, saved


def _lstm(prim, x, h, c, w, out=None):
    x, h, c, w = _wide(x, h, c, w)
    y, h_n, c_n, _ = _lstm_layers(prim, x, h, c, _lstm_weights(prim, w, x.dtype))
    empty = np.zeros((0, 1), out[3].dtype.to_numpy())
    return fit(y, out[0]), fit(h_n, out[1]), fit(c_n, out[2]), empty, empty.copy()


def _lstm_grad(prim, x, h, c, w, dy, dh_n, dc_n, out=None):
    x, h, c, w, dy, dh_n, dc_n = _wide(x, h, c, w, dy, dh_n, dc_n)
    cells = _lstm_weights(prim, w, x.dtype)
    _, _, _, saved = _lstm_layers(prim, x, h, c, cells)
    d, hid = prim.num_directions, prim.hidden_size
    dh, dc = np.zeros_like(h), np.zeros_like(c)
    grads = [None] * len(cells)
    d_out = dy                                              # cotangent of the current layer's output
    for layer in range(prim.num_layers - 1, -1, -1):
        d_in = None
        for direction in range(d):
            k = layer * d + direction
            seq, steps = saved[k]
            g = d_out[..., direction * hid:(direction + 1) * hid]
            g = g if direction == 0 else g[::-1]
            zeros = np.zeros_like(g)
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
    dw = np.concatenate(parts_ih + parts_hh + (parts_b if prim.has_bias else [])).reshape(w.shape)
    return fit(d_out, out[0]), fit(dh, out[1]), fit(dc, out[2]), fit(dw, out[3])


# --- the fused attention (ScaledDotProductAttention) ------------------------------------------------------------------
def _attention_probs(prim, q, k):
    """(softmax of the masked scaled scores, the row maxima, the row sums of exp, the mask), in q's dtype."""
    s = np.matmul(q, np.swapaxes(k, -1, -2)) * q.dtype.type(prim.scale)
    mask = prim.hidden(q.shape[-2], k.shape[-2])
    if mask is not None:
        s = np.where(mask, q.dtype.type(-1e30), s)
    m = s.max(axis=-1, keepdims=True)
    e = np.exp(s - m)
    z = e.sum(axis=-1, keepdims=True)
    return e / z, m, z, mask


def _sdpa(prim, query, key, value, out=None):
    q, k, v = _wide(query, key, value)
    p, m, z, _ = _attention_probs(prim, q, k)
    return np.matmul(p, v).astype(query.dtype, copy=False), (m + np.log(z)).astype(q.dtype, copy=False)


def _sdpa_grad(prim, query, key, value, attention_out, dout, lse, dlse, out=None):
    q, k, v, do = _wide(query, key, value, dout)
    p, _, _, mask = _attention_probs(prim, q, k)
    dv = np.matmul(np.swapaxes(p, -1, -2), do)
    dp = np.matmul(do, np.swapaxes(v, -1, -2))
    delta = (p * dp).sum(axis=-1, keepdims=True)
    if prim.lse_grad:
        delta = delta - np.asarray(dlse, q.dtype)
    ds = p * (dp - delta)
    if mask is not None:        # a masked score is a constant: no gradient flows to it
        ds = np.where(mask, q.dtype.type(0), ds)
    scale = q.dtype.type(prim.scale)
    dq = np.matmul(ds, k) * scale
    dk = np.matmul(np.swapaxes(ds, -1, -2), q) * scale
    return (dq.astype(query.dtype, copy=False), dk.astype(key.dtype, copy=False),
            dv.astype(value.dtype, copy=False))


KERNELS.update({
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
})
