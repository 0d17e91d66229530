"""The kernels of ``mindspore/ops/_defs/rnn.py`` (``RNNDirection``, ``RNNDirectionGrad``), bound
(:func:`mindspore_array_kernels.bind`) with ``xp``, the array library, and ``dev``, an operand as an ``xp`` array.

The recurrence runs over time in Python, one ``h W_hh^T`` matmul per step and the gates vectorised over the batch;
the backward pass runs the recurrence in reverse from the forward's ``reserve`` and gets ``dW_hh`` as one matmul
over all steps at the end (the per-step factors computed at once over all steps first). float16 is computed in
float32 and rounded once. Gradients below float32's normal range are flushed to zero (see the backward).
"""
BOUND = ("xp", "dev")

# Columns of the reserve per mode (units of H), and where its state h starts (then, for LSTM, c): LSTM i, f, g, o,
# c' (unmasked), h, c; GRU r, z, n, W_hn h + b_hn, h; RNN h' (unmasked), h.
_RESERVE = {"LSTM": 7, "GRU": 5, "RNN_TANH": 2, "RNN_RELU": 2}
_H_COL = {"LSTM": 5, "GRU": 4, "RNN_TANH": 1, "RNN_RELU": 1}


def _sigmoid(a):
    return 1 / (1 + xp.exp(-a))


def _wide(a):
    a = dev(a)
    return a.astype(xp.float32) if a.dtype == xp.float16 else a


def _masks(seq_length, steps, dtype):
    """(T, B, 1) 1 where the step is valid, 0 past the sequence's length; None when every step of every sequence
    is (no masking to do)."""
    lengths = dev(seq_length).astype(xp.int64)
    if not lengths.size or int(lengths.min()) >= steps:
        return None
    return (xp.arange(steps)[:, None, None] < lengths[None, :, None]).astype(dtype)


def _forward_step(mode, xw_t, h, c, w_t, b, row):
    """One step: the new (unmasked) h and c; the step's activations are written into ``row`` (its reserve)."""
    hidden = h.shape[1]
    hw = xp.matmul(h, w_t)
    hw += b
    if mode == "LSTM":
        gates = xw_t + hw
        act = row[:, :4 * hidden]
        act[...] = _sigmoid(gates)
        act[:, 2 * hidden:3 * hidden] = xp.tanh(gates[:, 2 * hidden:3 * hidden])
        i, f, g, o = (act[:, k * hidden:(k + 1) * hidden] for k in range(4))
        c_new = row[:, 4 * hidden:5 * hidden]
        c_new[...] = f * c + i * g
        return o * xp.tanh(c_new), c_new
    if mode == "GRU":
        rz = row[:, :2 * hidden]
        rz[...] = _sigmoid(xw_t[:, :2 * hidden] + hw[:, :2 * hidden])
        r, z = rz[:, :hidden], rz[:, hidden:]
        hn = row[:, 3 * hidden:4 * hidden]
        hn[...] = hw[:, 2 * hidden:]
        n = row[:, 2 * hidden:3 * hidden]
        n[...] = xp.tanh(xw_t[:, 2 * hidden:] + r * hn)
        return n + z * (h - n), c
    pre = xw_t + hw
    h_new = row[:, :hidden]
    h_new[...] = xp.maximum(pre, 0) if mode == "RNN_RELU" else xp.tanh(pre)
    return h_new, c


def _rnn_direction(prim, xw, h0, c0, w_hh, b_hh, seq_length, out=None):
    mode = prim.mode
    dtype = dev(xw).dtype
    xw, h, c, w_hh, b_hh = (_wide(a) for a in (xw, h0, c0, w_hh, b_hh))
    steps, batch, _ = xw.shape
    hidden = h.shape[1]
    lstm = mode == "LSTM"
    mask = _masks(seq_length, steps, xw.dtype)
    w_t = xp.ascontiguousarray(w_hh.T)
    ys = xp.empty((steps, batch, hidden), dtype=xw.dtype)
    h_col = _H_COL[mode] * hidden
    reserve = xp.empty((steps, batch, _RESERVE[mode] * hidden), dtype=xw.dtype)
    for t in range(steps):
        row = reserve[t]
        h_new, c_new = _forward_step(mode, xw[t], h, c, w_t, b_hh, row)
        if mask is None:
            ys[t] = h_new
            h, c = h_new, c_new
        else:
            m = mask[t]
            ys[t] = m * h_new
            h = h + m * (h_new - h)
            if lstm:
                c = c + m * (c_new - c)
        row[:, h_col:h_col + hidden] = h
        if lstm:
            row[:, h_col + hidden:] = c
    c_n = c if lstm else xp.zeros_like(h)
    return ys.astype(dtype), h.astype(dtype), c_n.astype(dtype), reserve


def _factors(mode, reserve, h_prev, c_prev, hidden):
    """The per-step factors of the backward pass, computed at once over all steps (T, B, ...): for each mode what
    turns the cotangents of a step's new h (and c) into those of its pre-activations."""
    part = [reserve[:, :, k * hidden:(k + 1) * hidden] for k in range(reserve.shape[2] // hidden)]
    if mode == "LSTM":
        i, f, g, o, c_new = part[:5]
        tanh_c = xp.tanh(c_new)
        gates = xp.concatenate((g * i * (1 - i), c_prev * f * (1 - f), i * (1 - g * g), tanh_c * o * (1 - o)), 2)
        return gates, o * (1 - tanh_c * tanh_c), f
    if mode == "GRU":
        r, z, n, hn = part[:4]
        dn = (1 - z) * (1 - n * n)
        return xp.concatenate((dn * hn * r * (1 - r), (h_prev - n) * z * (1 - z), dn), 2), r, z
    h_new = part[0]
    return ((h_new > 0).astype(h_new.dtype) if mode == "RNN_RELU" else 1 - h_new * h_new), None, None


def _rnn_direction_grad(prim, w_hh, h0, c0, seq_length, reserve, dy, dh_n, dc_n, out=None):
    mode = prim.mode
    dtype = dev(w_hh).dtype
    w_hh, h0, c0, dy, dh, dc = (_wide(a) for a in (w_hh, h0, c0, dy, dh_n, dc_n))
    reserve = dev(reserve).astype(w_hh.dtype)
    steps, batch, _ = dy.shape
    hidden = h0.shape[1]
    lstm, gru = mode == "LSTM", mode == "GRU"
    mask = _masks(seq_length, steps, w_hh.dtype)
    h_col = _H_COL[mode] * hidden
    h_prev = xp.concatenate((h0[None], reserve[:-1, :, h_col:h_col + hidden]), axis=0)[:steps]
    c_prev = xp.concatenate((c0[None], reserve[:-1, :, h_col + hidden:]), axis=0)[:steps] if lstm else None
    factor, extra_a, extra_b = _factors(mode, reserve, h_prev, c_prev, hidden)
    dxw = xp.empty((steps, batch, w_hh.shape[0]), dtype=w_hh.dtype)
    dhw = xp.empty_like(dxw) if gru else dxw
    for t in range(steps - 1, -1, -1):
        dh_new = dh + dy[t]
        if mask is not None:
            dh_new *= mask[t]
        if lstm:
            dc_new = dc if mask is None else dc * mask[t]
            dc_new = dc_new + dh_new * extra_a[t]
            xp.multiply(xp.concatenate((dc_new, dc_new, dc_new, dh_new), 1), factor[t], out=dxw[t])
            carry = dc_new * extra_b[t]
            dc = carry if mask is None else carry + (1 - mask[t]) * dc
        elif gru:
            xp.multiply(xp.concatenate((dh_new, dh_new, dh_new), 1), factor[t], out=dxw[t])
            dhw[t] = dxw[t]
            dhw[t, :, 2 * hidden:] *= extra_a[t]
        else:
            xp.multiply(dh_new, factor[t], out=dxw[t])
        back = xp.matmul(dhw[t], w_hh)
        if gru:
            back += dh_new * extra_b[t]
        dh = back if mask is None else back + (1 - mask[t]) * dh
    # Cotangents that decayed through many steps fall below float32's normal range; subnormal operands make the
    # matmuls downstream (the input projection's gradients) some 50 times slower, so they are flushed to zero (what
    # a CPU in flush-to-zero mode gives; the change is below 1.2e-38).
    dxw = xp.where(xp.abs(dxw) < xp.finfo(dxw.dtype).tiny, 0, dxw).astype(dxw.dtype)
    dhw = xp.where(xp.abs(dhw) < xp.finfo(dhw.dtype).tiny, 0, dhw).astype(dhw.dtype) if gru else dxw
    flat = dhw.reshape(steps * batch, dhw.shape[2])
    dw = xp.matmul(flat.T, h_prev.reshape(steps * batch, hidden))
    db = flat.sum(axis=0)
    dc0 = dc if lstm else xp.zeros_like(c0)
    return tuple(a.astype(dtype) for a in (dxw, dh, dc0, dw, db))


KERNELS = {"RNNDirection": _rnn_direction, "RNNDirectionGrad": _rnn_direction_grad}
