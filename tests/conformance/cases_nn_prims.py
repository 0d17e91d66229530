"""Conformance cases of the nn_prims family (transposed 3-D convolution, LRN, max-unpooling, 3-D adaptive
pooling, margin losses, channel dropout, channel shuffle, RMS normalisation, legacy random samplers).

Oracles are written from the definitions, loop by loop: the transposed convolution scatters each input cell
through the kernel onto a canvas and crops it (the output sizes from MindSpore 2.10's formulas), LRN sums
each channel window explicitly, ``LRNGrad`` is checked against central differences of the LRN oracle.
Random samplers are checked for shape and dtype here; their distributions in
``mindspore-core/tests/test_nn_prims.py``.
"""
import itertools

import numpy as np

import mindspore as ms
from mindspore import ops
from mindspore.ops._defs import nn_prims, nn_prims_ext  # the gradient primitives are not public API

from case import Case, rand, randint, randpos

F16 = (np.float32, np.float16)


# --- Conv3DTranspose ------------------------------------------------------------------------------
def np_conv3d_transpose(x, w, stride=(1, 1, 1), pad_mode="valid", pad=(0,) * 6, dilation=(1, 1, 1), group=1,
                        output_padding=(0, 0, 0)):
    x, w = x.astype(np.float64), w.astype(np.float64)
    n, cin, *spatial = x.shape
    cout_g, kernel = w.shape[1], w.shape[2:]
    heads, outs = [], []
    for i in range(3):
        s, d, k, size = stride[i], dilation[i], kernel[i], spatial[i]
        e = d * (k - 1) + 1
        if pad_mode == "pad":
            head, tail = pad[2 * i], pad[2 * i + 1]
            out = (size - 1) * s + e - head - tail
        elif pad_mode == "same":
            head, out = max(e - s, 0) // 2, size * s
        else:
            head, out = 0, size * s + max(e - s, 0)
        heads.append(head)
        outs.append(out + output_padding[i])
    canvas = [max((spatial[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1, heads[i] + outs[i])
              for i in range(3)]
    y = np.zeros((n, cout_g * group) + tuple(canvas))
    cin_g = cin // group
    for g in range(group):
        xs = x[:, g * cin_g:(g + 1) * cin_g]
        for a, b, c in itertools.product(*(range(k) for k in kernel)):
            contrib = np.einsum("nidhw,io->nodhw", xs, w[g * cin_g:(g + 1) * cin_g, :, a, b, c])
            sl = tuple(slice(o * dilation[i], o * dilation[i] + (spatial[i] - 1) * stride[i] + 1, stride[i])
                       for i, o in enumerate((a, b, c)))
            y[(slice(None), slice(g * cout_g, (g + 1) * cout_g)) + sl] += contrib
    return y[(slice(None), slice(None)) + tuple(slice(h, h + o) for h, o in zip(heads, outs))]


def _c3t(in_c, out_c, k, **kw):
    return lambda x, w: ops.Conv3DTranspose(in_c, out_c, k, **kw)(x, w)


# --- LRN ------------------------------------------------------------------------------------------
def np_lrn(x, r=5, bias=1.0, alpha=1.0, beta=0.5):
    x = x.astype(np.float64)
    c = x.shape[1]
    out = np.empty_like(x)
    for ch in range(c):
        window = (x[:, max(ch - r, 0):min(ch + r, c - 1) + 1] ** 2).sum(axis=1)
        out[:, ch] = x[:, ch] / (bias + alpha * window) ** beta
    return out


def np_lrn_grad(g, x, y, r=2, bias=1.5, alpha=0.3, beta=0.75, eps=1e-6):
    """``J^T g`` of the LRN oracle, its Jacobian by central differences."""
    x, g = x.astype(np.float64), g.astype(np.float64)
    dx = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[idx] += eps
        minus[idx] -= eps
        dx[idx] = ((np_lrn(plus, r, bias, alpha, beta) - np_lrn(minus, r, bias, alpha, beta)) * g).sum() / (2 * eps)
    return dx


# --- max-unpooling / adaptive pooling -------------------------------------------------------------
def np_max_unpool(x, idx, out_spatial):
    lead = x.shape[:2]
    y = np.zeros(lead + (int(np.prod(out_spatial)),), x.dtype)
    for a, b in np.ndindex(lead):
        for v, i in zip(x[a, b].ravel(), idx[a, b].ravel()):
            y[a, b, i] = v
    return y.reshape(lead + tuple(out_spatial))


def _cell(n_in, n_out, i):
    return int(np.floor(i * n_in / n_out)), int(np.ceil((i + 1) * n_in / n_out))


def np_adaptive3d(x, out, kind):
    d, h, w = x.shape[-3:]
    out = tuple(s if o is None else o for s, o in zip((d, h, w), out))
    y = np.zeros(x.shape[:-3] + out, np.float64)
    arg = np.zeros(x.shape[:-3] + out, np.int32)
    for i, j, k in np.ndindex(out):
        (d0, d1), (h0, h1), (w0, w1) = _cell(d, out[0], i), _cell(h, out[1], j), _cell(w, out[2], k)
        block = x[..., d0:d1, h0:h1, w0:w1].astype(np.float64)
        if kind == "avg":
            y[..., i, j, k] = block.mean(axis=(-3, -2, -1))
            continue
        for lead in np.ndindex(x.shape[:-3]):
            b = block[lead]
            dd, hh, ww = np.unravel_index(np.argmax(b), b.shape)
            y[lead + (i, j, k)] = b[dd, hh, ww]
            arg[lead + (i, j, k)] = ((dd + d0) * h + hh + h0) * w + ww + w0
    return y if kind == "avg" else (y, arg)


def np_adaptive_avg3d_grad(g, shape):
    dx = np.zeros(shape)
    d, h, w = shape[-3:]
    od, oh, ow = g.shape[-3:]
    for i, j, k in np.ndindex(od, oh, ow):
        (d0, d1), (h0, h1), (w0, w1) = _cell(d, od, i), _cell(h, oh, j), _cell(w, ow, k)
        count = (d1 - d0) * (h1 - h0) * (w1 - w0)
        dx[..., d0:d1, h0:h1, w0:w1] += g[..., i, j, k][..., None, None, None] / count
    return dx


def np_adaptive_max3d_grad(g, x, argmax):
    dx = np.zeros(x.shape, np.float64).reshape(x.shape[:-3] + (-1,))
    for lead in np.ndindex(x.shape[:-3]):
        for v, i in zip(g[lead].ravel(), argmax[lead].ravel()):
            dx[lead + (i,)] += v
    return dx.reshape(x.shape)


# --- losses ---------------------------------------------------------------------------------------
def _reduce(loss, reduction):
    return {"mean": np.mean, "sum": np.sum}.get(reduction, lambda v: v)(loss)


def np_soft_margin(x, y, reduction="mean"):
    return _reduce(np.log1p(np.exp(-x.astype(np.float64) * y)), reduction)


def np_multi_margin(x, t, w=None, p=1, margin=1.0, reduction="mean"):
    n, c = x.shape
    loss = np.zeros(n)
    for i in range(n):
        for j in range(c):
            if j != t[i]:
                h = max(0.0, margin - float(x[i, t[i]]) + float(x[i, j])) ** p
                loss[i] += h * (1.0 if w is None else float(w[t[i]]))
    return _reduce(loss / c, reduction)


# --- shuffle / RMS norm ---------------------------------------------------------------------------
def np_channel_shuffle(x, g):
    c = x.shape[1]
    order = [(k % g) * (c // g) + k // g for k in range(c)]
    return x[:, order]


def np_rms_norm(x, gamma, eps=1e-6):
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    xw = x.astype(np.float64)
    rstd = 1.0 / np.sqrt((xw * xw).mean(axis=axes, keepdims=True) + eps)
    return xw * rstd * gamma, rstd


X5 = rand(1, 2, 2, 3, 2, seed=1)
W5 = rand(2, 3, 2, 2, 2, seed=2)
XG = rand(1, 4, 2, 2, 2, seed=3)
WG = rand(4, 1, 2, 1, 2, seed=4)
LRN_X = rand(2, 6, 2, 3, seed=5)
UNPOOL_X = rand(1, 2, 2, 2, seed=7)
UNPOOL_I = np.array([[[[0, 3], [9, 14]], [[5, 6], [8, 15]]]], np.int64)
UNPOOL3_X = rand(1, 1, 1, 2, 2, seed=8)
UNPOOL3_I = np.array([[[[[1, 10], [20, 31]]]]], np.int32)
A3 = rand(2, 2, 3, 4, 5, seed=9)
A3G = rand(2, 2, 2, 2, 3, seed=10)
A3_ARG = np_adaptive3d(A3, (2, 2, 3), "max")[1]
MM_X = rand(4, 5, seed=11)
MM_T = np.array([0, 4, 2, 2], np.int64)
MM_W = randpos(5, seed=12)
SM_Y = np.sign(rand(3, 4, seed=13)).astype(np.float64)


# --- batch two: triplet / multilabel losses, dropout masks, samplers, fractional pooling, CTC ---------------
def np_triplet(x, pos, neg, margin, p=2, eps=1e-6, swap=False, reduction="mean"):
    def dist(a, b):
        return (np.abs(a - b + eps) ** p).sum(axis=1) ** (1.0 / p)
    d_an = dist(x, neg)
    if swap:
        d_an = np.minimum(d_an, dist(pos, neg))
    return _reduce(np.maximum(dist(x, pos) - d_an + margin, 0.0), reduction)


def np_multilabel(x, target, reduction="mean"):
    x2, t2 = x.reshape(-1, x.shape[-1]).astype(np.float64), target.reshape(-1, x.shape[-1])
    loss, is_t = np.zeros(len(x2)), np.zeros(t2.shape, np.int32)
    for n in range(len(x2)):
        listed = []
        for v in t2[n]:
            if v < 0:
                break
            listed.append(v)
        is_t[n, listed] = 1
        for j in listed:
            for i in range(x2.shape[1]):
                if i not in listed:
                    loss[n] += max(0.0, 1.0 - (x2[n, j] - x2[n, i]))
    loss /= x2.shape[1]
    loss = loss.reshape(x.shape[:-1]) if reduction == "none" else _reduce(loss, reduction)
    return loss, is_t.reshape(target.shape)


def np_do_mask(x, mask, keep):
    bits = np.array([(int(mask[i // 8]) >> (i % 8)) & 1 for i in range(x.size)]).reshape(x.shape)
    return np.where(bits == 1, x / keep, 0.0)


def np_accidental_hits(true_classes, sampled):
    rows, ids = [], []
    for b in range(true_classes.shape[0]):
        for j, c in enumerate(sampled):
            if c in true_classes[b]:
                rows.append(b)
                ids.append(j)
    return (np.array(rows, np.int32), np.array(ids, true_classes.dtype),
            np.full(len(rows), np.finfo(np.float32).min, np.float32))


def np_fractional(x, samples, ksize, out):
    nd = len(ksize)
    cols = [1, 0] if nd == 2 else [0, 1, 2]
    y = np.zeros(x.shape[:2] + tuple(out))
    arg = np.zeros(x.shape[:2] + tuple(out), np.int64)
    for n, c in np.ndindex(x.shape[:2]):
        starts = []
        for a in range(nd):
            u, size, k, m = samples[n, c, cols[a]], x.shape[2 + a], ksize[a], out[a]
            alpha = (size - k) / (m - 1) if m > 1 else 0.0
            starts.append([int((i + u) * alpha) - int(u * alpha) for i in range(m - 1)] + [size - k])
        for o in np.ndindex(*out):
            window = tuple(slice(starts[a][o[a]], starts[a][o[a]] + ksize[a]) for a in range(nd))
            block = x[(n, c) + window]
            pos = np.unravel_index(np.argmax(block), block.shape)
            y[(n, c) + o] = block[pos]
            arg[(n, c) + o] = np.ravel_multi_index(tuple(starts[a][o[a]] + pos[a] for a in range(nd)), x.shape[2:])
    return y, arg


def np_scatter_grad(g, x, argmax, nd):
    lead = x.shape[:-nd]
    dx = np.zeros(lead + (int(np.prod(x.shape[-nd:])),))
    for idx in np.ndindex(*lead):
        for v, i in zip(g[idx].ravel(), argmax[idx].ravel()):
            dx[idx + (i,)] += v
    return dx.reshape(x.shape)


def _collapse(path, blank, merge):
    out, prev = [], None
    for s in path:
        if s != blank and (not merge or s != prev):
            out.append(s)
        prev = s
    return out


def np_ctc_brute(x, idx, vals, seq, merge=True):
    """The CTC loss by summing the probability of every path that collapses to the labels (tiny T and C only)."""
    t_max, batch, c = x.shape
    loss = np.zeros(batch)
    for b in range(batch):
        labels = list(vals[idx[:, 0] == b][np.argsort(idx[idx[:, 0] == b, 1])])
        t_len = int(seq[b])
        logits = x[:t_len, b].astype(np.float64)
        prob = np.exp(logits - logits.max(1, keepdims=True))
        prob /= prob.sum(1, keepdims=True)
        total = sum(np.prod([prob[t, s] for t, s in enumerate(path)])
                    for path in itertools.product(range(c), repeat=t_len) if _collapse(path, c - 1, merge) == labels)
        loss[b] = -np.log(total)
    return loss


def np_ctc_with_grad(x, idx, vals, seq, merge=True, eps=1e-6):
    loss = np_ctc_brute(x, idx, vals, seq, merge)
    grad = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        plus, minus = x.astype(np.float64).copy(), x.astype(np.float64).copy()
        plus[i] += eps
        minus[i] -= eps
        grad[i] = (np_ctc_brute(plus, idx, vals, seq, merge)[i[1]] - np_ctc_brute(minus, idx, vals, seq, merge)[i[1]]) \
            / (2 * eps)
    return loss, grad


def np_depthwise(x, w, mult, stride=1, pads=(0, 0, 0, 0), dilation=1):
    n, c, h, wd = x.shape
    kh, kw = w.shape[2:]
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), pads[:2], pads[2:]))
    oh = (xp.shape[2] - dilation * (kh - 1) - 1) // stride + 1
    ow = (xp.shape[3] - dilation * (kw - 1) - 1) // stride + 1
    y = np.zeros((n, c, oh, ow))
    for i, j in np.ndindex(oh, ow):
        for a, b in np.ndindex(kh, kw):
            y[:, :, i, j] += xp[:, :, i * stride + a * dilation, j * stride + b * dilation] * w[0, :, a, b]
    return np.repeat(y, mult, axis=1)


def _bilinear(img, yy, xx):
    h, w = img.shape
    if yy <= -1 or yy >= h or xx <= -1 or xx >= w:
        return 0.0
    y0, x0 = int(np.floor(yy)), int(np.floor(xx))
    total = 0.0
    for cy, wy in ((y0, 1 - (yy - y0)), (y0 + 1, yy - y0)):
        for cx, wx in ((x0, 1 - (xx - x0)), (x0 + 1, xx - x0)):
            if 0 <= cy < h and 0 <= cx < w:
                total += wy * wx * img[cy, cx]
    return total


def np_deformable(x, off, strides, pads, ksize, dilations=(1, 1, 1, 1), groups=1):
    n, c = x.shape[:2]
    kh, kw = ksize
    oh, ow = off.shape[2:]
    k = groups * kh * kw
    out = np.zeros((n, c, oh * kh, ow * kw))
    for b, ch, i, j, a, e in itertools.product(range(n), range(c), range(oh), range(ow), range(kh), range(kw)):
        idx = (ch // (c // groups)) * kh * kw + a * kw + e
        yy = i * strides[2] - pads[0] + a * dilations[2] + off[b, k + idx, i, j]
        xx = j * strides[3] - pads[2] + e * dilations[3] + off[b, idx, i, j]
        out[b, ch, i * kh + a, j * kw + e] = _bilinear(x[b, ch].astype(np.float64), yy, xx) * off[b, 2 * k + idx, i, j]
    return out


def np_deformable_conv(x, w, off, bias, ksize, strides, pads):
    s = np_deformable(x, off, strides, pads, ksize)
    n, c = x.shape[:2]
    oh, ow = s.shape[2] // ksize[0], s.shape[3] // ksize[1]
    cols = s.reshape(n, c, oh, ksize[0], ow, ksize[1])
    return np.einsum("ncpaqb,ocab->nopq", cols, w) + bias[None, :, None, None]


def np_stft(x, window, n_fft, hop, normalized=False, onesided=True, return_complex=True):
    left = (n_fft - len(window)) // 2
    w = np.zeros(n_fft, complex)
    w[left:left + len(window)] = window
    frames = 1 + (x.shape[-1] - n_fft) // hop
    k = np.arange(n_fft if not onesided else n_fft // 2 + 1)
    basis = np.exp(-2j * np.pi * np.outer(np.arange(n_fft), k) / n_fft)
    spec = np.stack([(x[..., f * hop:f * hop + n_fft] * w) @ basis for f in range(frames)], axis=-1)
    if normalized:
        spec = spec / np.sqrt(n_fft)
    return spec if return_complex else np.stack([spec.real, spec.imag], -1)


def _real_imag(z):
    """A complex result as (real, imaginary) parts (the runner compares real arrays)."""
    return ops.real(z), ops.imag(z)


def _np_real_imag(z):
    return z.real, z.imag


def np_lstm(x, w, b, h0, c0, forget_bias=0.0, cell_clip=-1.0):
    """Every per-step output of an LSTM with gates [i, j, f, o] = [x_t, h] @ w + b, step by step."""
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    hid = w.shape[1] // 4
    h, c = h0[0].astype(np.float64), c0[0].astype(np.float64)
    rows = []
    for xt in x.astype(np.float64):
        g = np.concatenate([xt, h], 1) @ w + b
        i, j, f, o = sig(g[:, :hid]), np.tanh(g[:, hid:2 * hid]), sig(g[:, 2 * hid:3 * hid] + forget_bias), \
            sig(g[:, 3 * hid:])
        c = f * c + i * j
        if cell_clip > 0:
            c = np.clip(c, -cell_clip, cell_clip)
        h = o * np.tanh(c)
        rows.append((h, h, c, i, j, f, o, np.tanh(c)))
    return tuple(np.stack(parts) for parts in zip(*rows))


def _one_cell_step(outs):
    """BasicLSTMCell's (ct, ht, it, jt, ft, ot, tanhct) from one step of :func:`np_lstm`."""
    y, h, c, i, j, f, o, tc = (v[0] for v in outs)
    return c, h, i, j, f, o, tc


def np_gru(x, wi, wh, bi, bh, h0, order="rzh", reset_after=True):
    """Every per-step output of DynamicGRUV2 (y, output_h, update, reset, new, hidden_new), step by step."""
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    hid = h0.shape[-1]

    def split(v):
        blocks = [v[..., k * hid:(k + 1) * hid] for k in range(3)]
        return blocks if order == "rzh" else [blocks[1], blocks[0], blocks[2]]
    (wr, wz, wn), (br, bz, bn), h, rows = split(wh), split(bh), h0.astype(np.float64), []
    for xt in x.astype(np.float64):
        ir, iz, i_n = split(xt @ wi + bi)
        r, z = sig(ir + h @ wr + br), sig(iz + h @ wz + bz)
        hn = (h if reset_after else r * h) @ wn + bn
        n = np.tanh(i_n + (r * hn if reset_after else hn))
        h = (1 - z) * n + z * h
        rows.append((h, h, z, r, n, hn))
    return tuple(np.stack(parts) for parts in zip(*rows))


def np_lstm_stack(x, h0, c0, w, layers, dirs, bias):
    """A stacked LSTM (PyTorch's gates i, f, g, o), ``w`` in MindSpore's CPU layout: every W_ih, every W_hh, then
    every bias, layer-major."""
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    hid = h0.shape[-1]
    flat, pos = w.reshape(-1).astype(np.float64), 0
    widths = [x.shape[-1] if layer == 0 else hid * dirs for layer in range(layers) for _ in range(dirs)]
    w_ih, w_hh, b = [], [], []
    for width in widths:
        w_ih.append(flat[pos:pos + 4 * hid * width].reshape(4 * hid, width))
        pos += 4 * hid * width
    for _ in widths:
        w_hh.append(flat[pos:pos + 4 * hid * hid].reshape(4 * hid, hid))
        pos += 4 * hid * hid
    for _ in widths:
        b.append(flat[pos:pos + 4 * hid] if bias else 0.0)
        pos += 4 * hid if bias else 0
    inp, h_n, c_n = x.astype(np.float64), [], []
    for layer in range(layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            h, c, ys = h0[k].astype(np.float64), c0[k].astype(np.float64), []
            for xt in (inp if d == 0 else inp[::-1]):
                g = xt @ w_ih[k].T + h @ w_hh[k].T + b[k]
                i, f, gg, o = (g[:, q * hid:(q + 1) * hid] for q in range(4))
                c = sig(f) * c + sig(i) * np.tanh(gg)
                h = sig(o) * np.tanh(c)
                ys.append(h)
            outs.append(np.stack(ys) if d == 0 else np.stack(ys)[::-1])
            h_n.append(h)
            c_n.append(c)
        inp = np.concatenate(outs, -1)
    return inp, np.stack(h_n), np.stack(c_n)


TRIP = [rand(4, 3, seed=30), rand(4, 3, seed=31), rand(4, 3, seed=32)]
ML_X = rand(3, 5, seed=33)
ML_T = np.array([[3, 0, -1, 1, 2], [1, 1, 4, -1, 0], [0, 1, 2, 3, 4]], np.int32)
MASK = np.array([0b10110101, 0b01101110, 0b11111111, 0b00010000] * 4, np.uint8)
FR_X = rand(2, 2, 6, 7, seed=34)
FR_S = rand(2, 2, 2, low=0.0, high=0.99, seed=35)
FR3_X = rand(1, 2, 4, 5, 5, seed=36)
FR3_S = rand(1, 2, 3, low=0.0, high=0.99, seed=37)
FR_ARG = np_fractional(FR_X, FR_S, (2, 3), (3, 4))[1]
CTC_X = rand(4, 2, 3, low=-2, high=2, seed=38)
CTC_IDX = np.array([[0, 0], [0, 1], [1, 0]], np.int64)
CTC_VALS = np.array([1, 1, 0], np.int32)
CTC_SEQ = np.array([4, 3], np.int32)
LSTM_BI = [rand(3, 2, 2, seed=66), rand(2, 2, 2, seed=67), rand(2, 2, 2, seed=68), rand(80, 1, 1, seed=69)]
LSTM_2L = [rand(3, 2, 2, seed=70), rand(2, 2, 2, seed=71), rand(2, 2, 2, seed=72), rand(64, 1, 1, seed=73)]
GRU = [rand(3, 2, 3, seed=60), rand(3, 12, low=-0.6, high=0.6, seed=61), rand(4, 12, low=-0.6, high=0.6, seed=62),
       rand(12, low=-0.2, high=0.2, seed=63), rand(12, low=-0.2, high=0.2, seed=64), rand(2, 4, seed=65)]
RNN = [rand(3, 2, 3, seed=55), rand(8, 20, low=-0.5, high=0.5, seed=56), rand(20, low=-0.2, high=0.2, seed=57),
       rand(1, 2, 5, seed=58), rand(1, 2, 5, seed=59)]
DF_X = rand(1, 2, 3, 4, seed=45)
DF_OFF = rand(1, 12, 2, 3, low=-1.3, high=1.3, seed=46)
DF2_X = rand(1, 4, 4, 3, seed=47)
DF2_OFF = rand(1, 24, 2, 3, low=-1.3, high=1.3, seed=48)


# --- ScaledDotProductAttention (the fused attention of flash_attention_score) ---------------------------------------
def np_attention(q, k, v, scale, lo=None, hi=None):
    """(softmax(scale q k^T, masked) v, log-sum-exp of each row): a key j is masked for query i unless
    lo <= j - i <= hi; a masked score is -1e30 (a row masked everywhere attends uniformly)."""
    q, k, v = (np.asarray(a, np.float64) for a in (q, k, v))
    s = np.einsum("bnid,bnjd->bnij", q, k) * scale
    i, j = np.arange(q.shape[2])[:, None], np.arange(k.shape[2])[None, :]
    hidden = np.zeros((q.shape[2], k.shape[2]), bool)
    if hi is not None:
        hidden |= j - i > hi
    if lo is not None:
        hidden |= j - i < lo
    s = np.where(hidden, -1e30, s)
    top = s.max(-1, keepdims=True)
    w = np.exp(s - top)
    total = w.sum(-1, keepdims=True)
    return np.einsum("bnij,bnjd->bnid", w / total, v), top + np.log(total)


SDPA = nn_prims_ext.ScaledDotProductAttention
NO_BAND = nn_prims_ext.NO_BAND
ATT_Q, ATT_K, ATT_V = rand(2, 3, 5, 8, seed=61), rand(2, 3, 7, 8, seed=62), rand(2, 3, 7, 6, seed=63)
ATT_SQ = [rand(1, 2, 6, 8, seed=64), rand(1, 2, 6, 8, seed=65), rand(1, 2, 6, 8, seed=66)]

CASES = [
    # --- Conv3DTranspose ----------------------------------------------------------------------------
    Case("conv3d_transpose_valid", _c3t(2, 3, 2), [X5, W5], oracle=np_conv3d_transpose, prims=["Conv3DTranspose"],
         grad=True, dtypes=F16, rtol=1e-4, atol=1e-5),
    Case("conv3d_transpose_pad_stride_output_padding",
         _c3t(2, 3, 2, pad_mode="pad", pad=(1, 0, 0, 1, 1, 1), stride=2, output_padding=1), [X5, W5],
         oracle=lambda x, w: np_conv3d_transpose(x, w, (2, 2, 2), "pad", (1, 0, 0, 1, 1, 1), output_padding=(1,) * 3),
         prims=["Conv3DTranspose"], grad=True, rtol=1e-4, atol=1e-5),
    Case("conv3d_transpose_same_dilation", _c3t(2, 3, 2, pad_mode="same", stride=(1, 2, 3), dilation=(1, 2, 1)),
         [X5, W5], oracle=lambda x, w: np_conv3d_transpose(x, w, (1, 2, 3), "same", dilation=(1, 2, 1)),
         prims=["Conv3DTranspose"], grad=True, rtol=1e-4, atol=1e-5),
    Case("conv3d_transpose_groups_valid_stride", _c3t(4, 2, (2, 1, 2), stride=3, group=2), [XG, WG],
         oracle=lambda x, w: np_conv3d_transpose(x, w, (3, 3, 3), group=2), prims=["Conv3DTranspose"], grad=True),
    Case("conv3d_transpose_functional", lambda x, w: ops.conv3d_transpose(x, w, pad_mode="pad", padding=1, stride=2),
         [X5, W5], oracle=lambda x, w: np_conv3d_transpose(x, w, (2, 2, 2), "pad", (1,) * 6),
         prims=["Conv3DTranspose"], rtol=1e-4, atol=1e-5),
    # --- LRN ----------------------------------------------------------------------------------------
    Case("lrn_defaults", lambda x: ops.LRN()(x), [LRN_X], oracle=np_lrn, prims=["LRN"], grad=True, dtypes=F16),
    Case("lrn_attrs", lambda x: ops.LRN(2, 1.5, 0.3, 0.75)(x), [LRN_X],
         oracle=lambda x: np_lrn(x, 2, 1.5, 0.3, 0.75), prims=["LRN", "LRNGrad"], grad=True),
    Case("lrn_functional", lambda x: ops.lrn(x, 1, 2.0, 0.5, 0.5), [LRN_X],
         oracle=lambda x: np_lrn(x, 1, 2.0, 0.5, 0.5), prims=["LRN"]),
    Case("lrn_grad", lambda g, x, y: nn_prims.LRNGrad(2, 1.5, 0.3, 0.75)(g, x, y),
         [rand(1, 4, 2, 2, seed=14), rand(1, 4, 2, 2, seed=15), rand(1, 4, 2, 2, seed=16)],
         oracle=np_lrn_grad, prims=["LRNGrad"], dtypes=(np.float64,), rtol=1e-5, atol=1e-6),
    # --- MaxUnpool2D / MaxUnpool3D -------------------------------------------------------------------
    Case("max_unpool2d", lambda x, i: ops.MaxUnpool2D(ksize=2)(x, i), [UNPOOL_X, UNPOOL_I],
         oracle=lambda x, i: np_max_unpool(x, i, (4, 4)), prims=["MaxUnpool2D"], grad=True, dtypes=F16),
    Case("max_unpool2d_output_shape", lambda x, i: ops.MaxUnpool2D(2, 2, 0, (1, 2, 5, 4))(x, i), [UNPOOL_X, UNPOOL_I],
         oracle=lambda x, i: np_max_unpool(x, i, (5, 4)), prims=["MaxUnpool2D"]),
    Case("max_unpool2d_functional_unbatched", lambda x, i: ops.max_unpool2d(x[0], i[0], 2), [UNPOOL_X, UNPOOL_I],
         oracle=lambda x, i: np_max_unpool(x, i, (4, 4))[0], prims=["MaxUnpool2D"]),
    Case("max_unpool3d", lambda x, i: ops.MaxUnpool3D(ksize=(2, 4, 2), strides=(1, 2, 2))(x, i),
         [UNPOOL3_X, UNPOOL3_I], oracle=lambda x, i: np_max_unpool(x, i, (2, 6, 4)), prims=["MaxUnpool3D"],
         grad=True),
    Case("max_unpool3d_functional", lambda x, i: ops.max_unpool3d(x, i, 2), [UNPOOL3_X, UNPOOL3_I],
         oracle=lambda x, i: np_max_unpool(x, i, (2, 4, 4)), prims=["MaxUnpool3D"]),
    # --- adaptive 3-D pooling ------------------------------------------------------------------------
    Case("adaptive_avg_pool3d", lambda x: ops.AdaptiveAvgPool3D((2, 2, 3))(x), [A3],
         oracle=lambda x: np_adaptive3d(x, (2, 2, 3), "avg"), prims=["AdaptiveAvgPool3D", "AdaptiveAvgPool3DGrad"],
         grad=True, dtypes=F16),
    Case("adaptive_avg_pool3d_none_4d", lambda x: ops.adaptive_avg_pool3d(x[0], (None, 3, 2)), [A3],
         oracle=lambda x: np_adaptive3d(x[0], (None, 3, 2), "avg"), prims=["AdaptiveAvgPool3D"]),
    Case("adaptive_avg_pool3d_grad", lambda g: nn_prims.AdaptiveAvgPool3DGrad()(g, A3.shape), [A3G],
         oracle=lambda g: np_adaptive_avg3d_grad(g, A3.shape), prims=["AdaptiveAvgPool3DGrad"], grad=True),
    Case("adaptive_max_pool3d", lambda x: ops.AdaptiveMaxPool3D()(x, (2, 2, 3)), [A3],
         oracle=lambda x: np_adaptive3d(x, (2, 2, 3), "max"), prims=["AdaptiveMaxPool3D", "AdaptiveMaxPool3DGrad"],
         grad=True, dtypes=F16),
    Case("adaptive_max_pool3d_functional", lambda x: ops.adaptive_max_pool3d(x, (3, None, 2), True), [A3],
         oracle=lambda x: np_adaptive3d(x, (3, None, 2), "max"), prims=["AdaptiveMaxPool3D"]),
    Case("adaptive_max_pool3d_grad", lambda g, x, a: nn_prims.AdaptiveMaxPool3DGrad()(g, x, a), [A3G, A3, A3_ARG],
         oracle=np_adaptive_max3d_grad, prims=["AdaptiveMaxPool3DGrad"], grad=True, grad_inputs=[0]),
    # --- losses -------------------------------------------------------------------------------------
    Case("soft_margin_loss_mean", lambda x, y: ops.SoftMarginLoss()(x, y), [rand(3, 4, seed=17), SM_Y],
         oracle=np_soft_margin, prims=["SoftMarginLoss"], grad=True, dtypes=F16),
    Case("soft_margin_loss_none", lambda x, y: ops.SoftMarginLoss("none")(x, y), [rand(3, 4, seed=17), SM_Y],
         oracle=lambda x, y: np_soft_margin(x, y, "none"), prims=["SoftMarginLoss"], grad=True),
    Case("soft_margin_loss_functional_sum", lambda x, y: ops.soft_margin_loss(x, y, "sum"),
         [rand(3, 4, seed=17), SM_Y], oracle=lambda x, y: np_soft_margin(x, y, "sum"), prims=["SoftMarginLoss"],
         grad=True),
    Case("multi_margin_loss", lambda x, t: ops.MultiMarginLoss()(x, t), [MM_X, MM_T], oracle=np_multi_margin,
         prims=["MultiMarginLoss"], grad=True, dtypes=F16),
    Case("multi_margin_loss_p2_weight_none", lambda x, t, w: ops.MultiMarginLoss(2, 0.5, "none")(x, t, w),
         [MM_X, MM_T, MM_W], oracle=lambda x, t, w: np_multi_margin(x, t, w, 2, 0.5, "none"),
         prims=["MultiMarginLoss"], grad=True, grad_inputs=[0]),
    Case("multi_margin_loss_functional_sum", lambda x, t, w: ops.multi_margin_loss(x, t, 1, 0.7, w, "sum"),
         [MM_X, MM_T, MM_W], oracle=lambda x, t, w: np_multi_margin(x, t, w, 1, 0.7, "sum"),
         prims=["MultiMarginLoss"], grad=True, grad_inputs=[0]),
    # --- channel dropout (statistics in mindspore-core/tests/test_nn_prims.py) ------------------------
    Case("dropout2d_keep_all", lambda x: ops.Dropout2D(1.0)(x), [rand(2, 3, 2, 2, seed=18)],
         oracle=lambda x: (x, np.ones(x.shape, bool)), prims=["Dropout2D"], grad=True, dtypes=F16),
    Case("dropout3d_keep_all", lambda x: ops.Dropout3D(1.0)(x), [rand(2, 3, 1, 2, 2, seed=19)],
         oracle=lambda x: (x, np.ones(x.shape, bool)), prims=["Dropout3D"], grad=True),
    Case("dropout2d_drop_all", lambda x: ops.Dropout2D(0.0)(x), [rand(2, 3, 2, 2, seed=18)],
         oracle=lambda x: (np.zeros_like(x), np.zeros(x.shape, bool)), prims=["Dropout2D"]),
    Case("dropout2d_shape", lambda x: ops.Dropout2D(0.4)(x)[1], [rand(2, 3, 2, 2, seed=18)], prims=["Dropout2D"],
         out_dtype=ms.bool_),
    Case("dropout3d_functional_eval", lambda x: ops.dropout3d(x, 0.5, False), [rand(2, 3, 1, 2, 2, seed=19)],
         oracle=lambda x: x, prims=["Dropout3D"]),
    # --- ChannelShuffle / RmsNorm -------------------------------------------------------------------
    Case("channel_shuffle", lambda x: ops.ChannelShuffle(3)(x), [rand(2, 6, 2, 1, seed=20)],
         oracle=lambda x: np_channel_shuffle(x, 3), prims=["ChannelShuffle"], grad=True, dtypes=F16),
    Case("channel_shuffle_int_functional", lambda x: ops.channel_shuffle(x, 2), [randint(1, 4, 2, 2, seed=21)],
         oracle=lambda x: np_channel_shuffle(x, 2), prims=["ChannelShuffle"]),
    Case("rms_norm", lambda x, g: ops.RmsNorm()(x, g), [rand(2, 3, 4, seed=22), rand(4, seed=23)],
         oracle=np_rms_norm, prims=["RmsNorm"], grad=True, dtypes=(np.float32, np.float64), rtol=1e-4, atol=1e-5),
    Case("rms_norm_two_axes_functional", lambda x, g: ops.rms_norm(x, g, 1e-3), [rand(2, 3, 4, seed=24),
                                                                               rand(3, 4, seed=25)],
         oracle=lambda x, g: np_rms_norm(x, g, 1e-3), prims=["RmsNorm"], grad=True, dtypes=(np.float32,),
         rtol=1e-4, atol=1e-5),
    # --- random samplers (no pointwise oracle) -------------------------------------------------------
    Case("truncated_normal", lambda: ops.TruncatedNormal(seed=1, seed2=2)((3, 4)), [], prims=["TruncatedNormal"],
         out_dtype=ms.float32),
    Case("truncated_normal_f16", lambda: ops.TruncatedNormal(ms.float16, seed=1)((5,)), [],
         prims=["TruncatedNormal"], out_dtype=ms.float16),
    Case("random_gamma", lambda a: ops.RandomGamma(seed=3)((2, 3), a), [randpos(4, seed=26)], prims=["RandomGamma"],
         out_dtype=ms.float32),
    Case("random_gamma_functional", lambda a: ops.random_gamma((2,), a, seed=3), [randpos(4, seed=26)],
         prims=["RandomGamma"], out_dtype=ms.float32),
    Case("random_poisson", lambda r: ops.RandomPoisson(seed=4)((3,), r), [randpos(2, seed=27)],
         prims=["RandomPoisson"], out_dtype=ms.int64),
    Case("random_poisson_functional", lambda r: ops.random_poisson((3,), r, seed=4, dtype=ms.float16),
         [randpos(2, seed=27)], prims=["RandomPoisson"], out_dtype=ms.float16),
    Case("cauchy", lambda: ops.Cauchy([2, 3], 1.0, 2.0)(), [], prims=["Cauchy"], out_dtype=ms.float32),
    Case("log_normal_reverse", lambda x: ops.LogNormalReverse(0.5, 0.1)(x), [rand(3, 2, seed=28)],
         prims=["LogNormalReverse"], dtypes=F16),
    Case("parameterized_truncated_normal",
         lambda m, s, lo, hi: ops.ParameterizedTruncatedNormal(seed=5)((2, 3), m, s, lo, hi),
         [np.array([0.0, 5.0]), np.array([1.0, 2.0]), np.array([-1.0, 4.0]), np.array([1.0, 6.0])],
         prims=["ParameterizedTruncatedNormal"], out_dtype=ms.float32),
    Case("non_deterministic_ints", lambda: ops.NonDeterministicInts(ms.int32)((2, 2)), [],
         prims=["NonDeterministicInts"], out_dtype=ms.int32),
    # --- TripletMarginLoss / MultilabelMarginLoss -------------------------------------------------------
    Case("triplet_margin_loss", lambda a, p, n: ops.TripletMarginLoss()(a, p, n, ms.Tensor(0.5, ms.float32)), TRIP,
         oracle=lambda a, p, n: np_triplet(a, p, n, 0.5), prims=["TripletMarginLoss"], grad=True, dtypes=F16,
         rtol=1e-4, atol=1e-5),
    Case("triplet_margin_loss_p1_swap_none",
         lambda a, p, n: ops.TripletMarginLoss(1, True, 1e-3, "none")(a, p, n, ms.Tensor(0.8, ms.float32)), TRIP,
         oracle=lambda a, p, n: np_triplet(a, p, n, 0.8, 1, 1e-3, True, "none"), prims=["TripletMarginLoss"],
         grad=True),
    Case("triplet_margin_loss_p3_functional", lambda a, p, n: ops.triplet_margin_loss(a, p, n, 1.2, 3, swap=True),
         TRIP, oracle=lambda a, p, n: np_triplet(a, p, n, 1.2, 3, swap=True), prims=["TripletMarginLoss"], grad=True,
         rtol=1e-4, atol=1e-5),
    Case("multilabel_margin_loss", lambda x, t: ops.MultilabelMarginLoss()(x, t), [ML_X, ML_T], oracle=np_multilabel,
         prims=["MultilabelMarginLoss"], grad=True, dtypes=F16),
    Case("multilabel_margin_loss_none_1d", lambda x, t: ops.MultilabelMarginLoss("none")(x[0], t[0]),
         [ML_X, ML_T], oracle=lambda x, t: np_multilabel(x[0], t[0], "none"), prims=["MultilabelMarginLoss"],
         grad=True),
    Case("multilabel_margin_loss_functional_sum", lambda x, t: ops.multilabel_margin_loss(x, t, "sum"),
         [ML_X, ML_T], oracle=lambda x, t: np_multilabel(x, t, "sum")[0], prims=["MultilabelMarginLoss"], grad=True),
    # --- DropoutGenMask / DropoutDoMask ---------------------------------------------------------------
    Case("dropout_gen_mask_keep_all", lambda: ops.DropoutGenMask(3, 4)((3, 50), ms.Tensor(1.0, ms.float32)), [],
         oracle=lambda: np.full(32, 255, np.uint8), prims=["DropoutGenMask"], out_dtype=ms.uint8),
    Case("dropout_gen_mask", lambda: ops.DropoutGenMask(3, 4)((2, 3, 5), ms.Tensor(0.5, ms.float32)), [],
         prims=["DropoutGenMask"], out_dtype=ms.uint8),
    Case("dropout_do_mask", lambda x, m: ops.DropoutDoMask()(x, m, ms.Tensor(0.8, ms.float32)),
         [rand(4, 5, 6, seed=39), MASK], oracle=lambda x, m: np_do_mask(x, m, 0.8), prims=["DropoutDoMask"],
         grad=True, dtypes=F16),
    # --- ComputeAccidentalHits / candidate samplers ---------------------------------------------------------
    Case("compute_accidental_hits", lambda t, s: ops.ComputeAccidentalHits(2)(t, s),
         [np.array([[1, 2], [0, 4], [3, 3]], np.int64), np.array([0, 1, 2, 3, 4, 1], np.int64)],
         oracle=np_accidental_hits, prims=["ComputeAccidentalHits"], modes=("pynative",)),
    Case("uniform_candidate_sampler_counts",
         lambda t: ops.UniformCandidateSampler(1, 3, False, 4, seed=2)(t)[1:], [np.array([[1], [3]], np.int32)],
         oracle=lambda t: (np.full((2, 1), 0.75, np.float32), np.full(3, 0.75, np.float32)),
         prims=["UniformCandidateSampler"]),
    Case("uniform_candidate_sampler_unique_all", lambda t: ops.uniform_candidate_sampler(t, 2, 6, True, 6, 5)[0],
         [np.array([[1, 2]], np.int64)], oracle=None, prims=["UniformCandidateSampler"], out_dtype=ms.int64),
    Case("log_uniform_candidate_sampler_true_counts",
         lambda t: ops.LogUniformCandidateSampler(1, 4, False, 9, seed=3)(t)[1], [np.array([[0], [8]], np.int64)],
         oracle=lambda t: 4 * np.log((t + 2.0) / (t + 1.0)) / np.log(10.0), prims=["LogUniformCandidateSampler"]),
    # --- fractional max pooling ---------------------------------------------------------------------------
    Case("fractional_max_pool", lambda x, s: ops.FractionalMaxPoolWithFixedKsize((2, 3), (3, 4))(x, s),
         [FR_X, FR_S], oracle=lambda x, s: np_fractional(x, s, (2, 3), (3, 4)),
         prims=["FractionalMaxPoolWithFixedKsize", "MaxPoolScatterGrad"], grad=True, grad_inputs=[0], dtypes=F16),
    Case("fractional_max_pool3d", lambda x, s: ops.FractionalMaxPool3DWithFixedKsize((2, 2, 3), (3, 2, 3))(x, s),
         [FR3_X, FR3_S], oracle=lambda x, s: np_fractional(x, s, (2, 2, 3), (3, 2, 3)),
         prims=["FractionalMaxPool3DWithFixedKsize"], grad=True, grad_inputs=[0]),
    Case("fractional_max_pool2d_functional", lambda x, s: ops.fractional_max_pool2d(x, 2, (4, 3), None, True, s),
         [FR_X, FR_S], oracle=lambda x, s: np_fractional(x, s, (2, 2), (4, 3)),
         prims=["FractionalMaxPoolWithFixedKsize"]),
    Case("max_pool_scatter_grad", lambda g, x, a: nn_prims_ext.MaxPoolScatterGrad(2)(g, x, a),
         [rand(2, 2, 3, 4, seed=40), FR_X, FR_ARG], oracle=lambda g, x, a: np_scatter_grad(g, x, a, 2),
         prims=["MaxPoolScatterGrad"], grad=True, grad_inputs=[0]),
    # --- CTCLoss (brute force over every path) -----------------------------------------------------------
    Case("ctc_loss", lambda x, i, v, s: ops.CTCLoss()(x, i, v, s), [CTC_X, CTC_IDX, CTC_VALS, CTC_SEQ],
         oracle=np_ctc_with_grad, prims=["CTCLoss"], dtypes=(np.float32, np.float64), rtol=1e-4, atol=1e-5),
    # the bprop (as 2.10's) carries the loss's cotangent only: differentiate the loss
    Case("ctc_loss_bprop", lambda x, i, v, s: ops.CTCLoss()(x, i, v, s)[0], [CTC_X, CTC_IDX, CTC_VALS, CTC_SEQ],
         oracle=np_ctc_brute, prims=["CTCLoss"], grad=True, grad_inputs=[0], grad_rtol=1e-4, grad_atol=1e-5),
    Case("ctc_loss_no_merge", lambda x, i, v, s: ops.CTCLoss(ctc_merge_repeated=False)(x, i, v, s),
         [CTC_X, CTC_IDX, CTC_VALS, CTC_SEQ], oracle=lambda x, i, v, s: np_ctc_with_grad(x, i, v, s, False),
         prims=["CTCLoss"], rtol=1e-4, atol=1e-5),
    # --- DepthwiseConv2dNative ----------------------------------------------------------------------------
    Case("depthwise_conv2d_native", lambda x, w: ops.DepthwiseConv2dNative(1, 3)(x, w),
         [rand(2, 3, 5, 6, seed=41), rand(1, 3, 3, 3, seed=42)], oracle=lambda x, w: np_depthwise(x, w, 1),
         prims=["DepthwiseConv2dNative"], grad=True, dtypes=F16, rtol=1e-4, atol=1e-5),
    Case("depthwise_conv2d_native_pad_stride_multiplier",
         lambda x, w: ops.DepthwiseConv2dNative(2, (2, 3), pad_mode="pad", pad=(1, 0, 2, 1), stride=2,
                                                dilation=2)(x, w),
         [rand(1, 2, 7, 6, seed=43), rand(1, 2, 2, 3, seed=44)],
         oracle=lambda x, w: np_depthwise(x, w, 2, 2, (1, 0, 2, 1), 2), prims=["DepthwiseConv2dNative"], grad=True),
    # --- DeformableOffsets / deformable_conv2d ----------------------------------------------------------------
    Case("deformable_offsets", lambda x, o: ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(x, o),
         [DF_X, DF_OFF], oracle=lambda x, o: np_deformable(x, o, (1, 1, 1, 1), (0, 0, 0, 0), (2, 2)),
         prims=["DeformableOffsets", "DeformableOffsetsGrad"], grad=True, dtypes=F16, grad_rtol=1e-4,
         grad_atol=1e-5),
    Case("deformable_offsets_groups_stride_pad",
         lambda x, o: ops.DeformableOffsets((1, 1, 2, 1), (1, 0, 1, 1), (2, 2), (1, 1, 1, 2), "NCHW", 2)(x, o),
         [DF2_X, DF2_OFF],
         oracle=lambda x, o: np_deformable(x, o, (1, 1, 2, 1), (1, 0, 1, 1), (2, 2), (1, 1, 1, 2), 2),
         prims=["DeformableOffsets"], grad=True, grad_rtol=1e-4, grad_atol=1e-5),
    Case("deformable_conv2d", lambda x, w, o, b: ops.deformable_conv2d(x, w, o, (2, 2), (1, 1, 1, 1), (0, 0, 0, 0),
                                                                        b),
         [DF_X, rand(3, 2, 2, 2, seed=49), DF_OFF, rand(3, seed=50)],
         oracle=lambda x, w, o, b: np_deformable_conv(x, w, o, b, (2, 2), (1, 1, 1, 1), (0, 0, 0, 0)),
         prims=["DeformableOffsets", "Conv2D"], rtol=1e-4, atol=1e-5),
    # --- STFT -----------------------------------------------------------------------------------------------
    Case("stft", lambda x, w: _real_imag(ops.STFT(8, 3, 6, True, True, True)(x, w)),
         [rand(2, 21, seed=51), np.hanning(6)], oracle=lambda x, w: _np_real_imag(np_stft(x, w, 8, 3, True)),
         prims=["STFT"], dtypes=(np.float32, np.float64), rtol=1e-4, atol=1e-5),
    Case("stft_twosided_pairs_1d", lambda x, w: ops.STFT(6, 2, 5, False, False, False)(x, w),
         [rand(17, seed=52), np.hamming(5)], oracle=lambda x, w: np_stft(x, w, 6, 2, False, False, False),
         prims=["STFT"], rtol=1e-4, atol=1e-5),
    # --- FractionalMaxPool / FractionalAvgPool (NHWC): deterministic boundaries, values in test_nn_prims.py ---
    Case("fractional_max_pool_nhwc",
         lambda x: ops.FractionalMaxPool([1.0, 1.5, 1.4, 1.0], deterministic=True, seed=3, seed2=1)(x),
         [rand(2, 7, 6, 3, seed=53)], prims=["FractionalMaxPool", "FractionalMaxPoolGrad"], grad=True),
    Case("fractional_max_pool_overlapping_pseudo",
         lambda x: ops.FractionalMaxPool([1.0, 1.6, 1.6, 1.0], True, True, True, seed=4)(x),
         [rand(1, 8, 7, 2, seed=54)], prims=["FractionalMaxPool"], grad=True),
    Case("fractional_avg_pool_nhwc",
         lambda x: ops.FractionalAvgPool([1.0, 1.5, 1.4, 1.0], deterministic=True, seed=3, seed2=1)(x),
         [rand(2, 7, 6, 3, seed=53)], prims=["FractionalAvgPool", "FractionalAvgPoolGrad"], grad=True),
    Case("fractional_avg_pool_overlapping_pseudo",
         lambda x: ops.FractionalAvgPool([1.0, 1.6, 1.6, 1.0], True, True, True, seed=4)(x),
         [rand(1, 8, 7, 2, seed=54)], prims=["FractionalAvgPool"], grad=True),
    # --- DynamicRNN / BasicLSTMCell ------------------------------------------------------------------------
    Case("dynamic_rnn", lambda x, w, b, h, c: ops.DynamicRNN(forget_bias=0.7)(x, w, b, None, h, c), RNN,
         oracle=lambda x, w, b, h, c: np_lstm(x, w, b, h, c, 0.7), prims=["DynamicRNN", "LSTMSequenceGrad"],
         grad=True, dtypes=F16, rtol=1e-4, atol=1e-5),
    Case("dynamic_rnn_cell_clip", lambda x, w, b, h, c: ops.DynamicRNN(cell_clip=0.3)(x, w, b, None, h, c)[2],
         RNN, oracle=lambda x, w, b, h, c: np_lstm(x, w, b, h, c, 0.0, 0.3)[2], prims=["DynamicRNN"], grad=True,
         rtol=1e-4, atol=1e-5),
    Case("basic_lstm_cell", lambda x, w, b, h, c: ops.BasicLSTMCell(forget_bias=0.4)(x[0], h[0], c[0], w, b), RNN,
         oracle=lambda x, w, b, h, c: _one_cell_step(np_lstm(x[:1], w, b, h, c, 0.4)),
         prims=["BasicLSTMCell", "LSTMSequenceGrad"], grad=True, rtol=1e-4, atol=1e-5),
    # --- DynamicGRUV2 ---------------------------------------------------------------------------------------
    Case("dynamic_gru_v2", lambda x, wi, wh, bi, bh, h: ops.DynamicGRUV2()(x, wi, wh, bi, bh, None, h), GRU,
         oracle=np_gru, prims=["DynamicGRUV2", "GRUSequenceGrad"], grad=True, dtypes=F16, rtol=1e-4, atol=1e-5),
    Case("dynamic_gru_v2_zrh_reset_before",
         lambda x, wi, wh, bi, bh, h: ops.DynamicGRUV2(gate_order="zrh", reset_after=False)(x, wi, wh, bi, bh, None, h),
         GRU, oracle=lambda *a: np_gru(*a, order="zrh", reset_after=False), prims=["DynamicGRUV2"], grad=True,
         rtol=1e-4, atol=1e-5),
    Case("dynamic_gru_v2_no_bias", lambda x, wi, wh, h: ops.DynamicGRUV2()(x, wi, wh, None, None, None, h)[0],
         [GRU[0], GRU[1], GRU[2], GRU[5]], oracle=lambda x, wi, wh, h: np_gru(x, wi, wh, 0.0, np.zeros(12), h)[0],
         prims=["DynamicGRUV2"], grad=True, rtol=1e-4, atol=1e-5),
    # --- LSTM (MindSpore's CPU weight layout) ----------------------------------------------------------------------
    Case("lstm_bidirectional", lambda x, h, c, w: ops.LSTM(2, 2, 1, True, True, 0.0)(x, h, c, w)[:3], LSTM_BI,
         oracle=lambda x, h, c, w: np_lstm_stack(x, h, c, w, 1, 2, True), prims=["LSTM", "LSTMGrad"], grad=True,
         dtypes=F16, rtol=1e-4, atol=1e-5),
    Case("lstm_two_layers_no_bias", lambda x, h, c, w: ops.LSTM(2, 2, 2, False, False, 0.5)(x, h, c, w)[:3],
         LSTM_2L, oracle=lambda x, h, c, w: np_lstm_stack(x, h, c, w, 2, 1, False), prims=["LSTM"], grad=True,
         rtol=1e-4, atol=1e-5),
    # --- ScaledDotProductAttention ---------------------------------------------------------------------------------
    # (both outputs weighted in the gradient check: the log-sum-exp's cotangent too)
    Case("sdpa_both_outputs", lambda q, k, v: SDPA(0.35)(q, k, v), [ATT_Q, ATT_K, ATT_V],
         oracle=lambda q, k, v: np_attention(q, k, v, 0.35), prims=["ScaledDotProductAttention",
                                                                     "ScaledDotProductAttentionGrad"],
         grad=True, dtypes=F16),
    Case("sdpa_causal", lambda q, k, v: SDPA(0.5, NO_BAND, 0)(q, k, v)[0], ATT_SQ,
         oracle=lambda q, k, v: np_attention(q, k, v, 0.5, hi=0)[0], prims=["ScaledDotProductAttention"],
         grad=True, dtypes=F16),
    Case("sdpa_band", lambda q, k, v: SDPA(0.4, 1, 2)(q, k, v)[0], [ATT_Q, ATT_K, ATT_V],
         oracle=lambda q, k, v: np_attention(q, k, v, 0.4, lo=-1, hi=2)[0], prims=["ScaledDotProductAttention"],
         grad=True),
    # rows 0 and 1 see no key at all (uniform weights, no gradient into the scores; their log-sum-exp, -1e30, is left
    # out: it would drown every other term of the finite differences)
    Case("sdpa_rows_masked_everywhere", lambda q, k, v: SDPA(0.3, NO_BAND, -2)(q, k, v)[0], ATT_SQ,
         oracle=lambda q, k, v: np_attention(q, k, v, 0.3, hi=-2)[0], prims=["ScaledDotProductAttention"],
         grad=True),
]
