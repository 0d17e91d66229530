"""Fused recurrences for ``nn.RNN``, ``nn.LSTM`` and ``nn.GRU``: ``RNNDirection`` and its gradient
``RNNDirectionGrad`` (private primitives, not MindSpore names).

``RNNDirection(mode)(xw, h0, c0, w_hh, b_hh, seq_length)`` runs one layer in one direction over all T steps of
``xw`` (T, B, G*H), the input projection ``x W_ih^T + b_ih`` already computed (one big matmul outside the loop),
from the states ``h0``, ``c0`` (B, H) (``c0`` is read by ``LSTM`` only), with the recurrent weight ``w_hh`` (G*H,
H) and bias ``b_hh`` (G*H,). MindSpore 2.10's formulas and gate orders:

* ``LSTM`` (G = 4, gates i, f, g, o): ``c' = f c + i g``, ``h' = o tanh(c')``;
* ``GRU`` (G = 3, gates r, z, n): ``n = tanh(W_in x + b_in + r (W_hn h + b_hn))``, ``h' = (1 - z) n + z h``;
* ``RNN_TANH`` / ``RNN_RELU`` (G = 1): ``h' = tanh|relu(W_ih x + b_ih + W_hh h + b_hh)``.

``seq_length`` (B,) int32/int64: step t of sample b is valid when ``t < seq_length[b]``; past it the output is
zero and the state is carried unchanged (``nn.LSTM``'s masking). Outputs ``(y (T, B, H), h_n, c_n (B, H),
reserve (T, B, R))``: ``c_n`` is zeros but for ``LSTM``; ``reserve`` holds what back-propagation through time needs
(the activated gates and the states of every step, in float32 for float16 inputs), so the backward pass does not
recompute the forward one. ``RNNDirectionGrad(mode)(w_hh, h0, c0, seq_length, reserve, dy, dh_n, dc_n)`` ->
``(dxw, dh0, dc0, dw_hh, db_hh)``. Kernels live in the backends' ``kernels/rnn.py`` (mindspore-array-kernels'
``rnn`` family): one matmul per step, the rest vectorised over the batch.
"""
import numpy as np

from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

#: Gates per mode.
GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}
#: Columns of ``reserve`` per mode, in units of H: LSTM i, f, g, o, c' (unmasked), h_t, c_t (states);
#: GRU r, z, n, W_hn h + b_hn, h_t; RNN h' (unmasked), h_t.
RESERVE = {"LSTM": 7, "GRU": 5, "RNN_TANH": 2, "RNN_RELU": 2}
_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _check_mode(op, mode):
    if mode not in GATES:
        raise MSValueError(f"For '{op}', the 'mode' must be in {list(GATES)}, but got {mode!r}.")


def _check_shapes(op, mode, xw, h0, c0, w_hh, b_hh, seq_length):
    """(T, B, H) from the forward operands' shapes."""
    rules.check_rank(op, "xw", xw, 3)
    for name, s in (("h0", h0), ("c0", c0), ("w_hh", w_hh)):
        rules.check_rank(op, name, s, 2)
    rules.check_rank(op, "b_hh", b_hh, 1)
    rules.check_rank(op, "seq_length", seq_length, 1)
    steps, batch, width = xw
    hidden = w_hh[1]
    gates = GATES[mode] * hidden
    if -1 in (steps, batch, width, hidden):
        return steps, batch, hidden
    if width != gates or tuple(w_hh) != (gates, hidden) or tuple(b_hh) != (gates,):
        raise MSValueError(f"For '{op}', the 'xw' must be (T, B, {GATES[mode]} * H), 'w_hh' ({GATES[mode]} * H, H) "
                           f"and 'b_hh' ({GATES[mode]} * H,), but got {tuple(xw)}, {tuple(w_hh)} and {tuple(b_hh)}.")
    for name, s in (("h0", h0), ("c0", c0)):
        if tuple(s) != (batch, hidden):
            raise MSValueError(f"For '{op}', the '{name}' shape must be {(batch, hidden)}, but got {tuple(s)}.")
    if tuple(seq_length) != (batch,):
        raise MSValueError(f"For '{op}', the 'seq_length' shape must be ({batch},), but got {tuple(seq_length)}.")
    return steps, batch, hidden


def step(mode, xw, state, w_hh, b_hh):
    """One step as operators, from the input projection ``xw`` (B, G*H): the new h (and, for LSTM, ``(h, c)``).
    ``nn.RNNCell`` and its kin run it; ``RNNDirection``'s export is its unrolling."""
    h = state[0] if mode == "LSTM" else state
    hw = fops.matmul(h, fops.transpose(w_hh, (1, 0)))
    hw = hw if b_hh is None else fops.add(hw, b_hh)
    if mode == "LSTM":
        i, f, g, o = fops.split(fops.add(xw, hw), hw.shape[-1] // 4, axis=-1)
        i, f, o = fops.sigmoid(i), fops.sigmoid(f), fops.sigmoid(o)
        c_new = fops.add(fops.mul(f, state[1]), fops.mul(i, fops.tanh(g)))
        return fops.mul(o, fops.tanh(c_new)), c_new
    if mode == "GRU":
        i_r, i_z, i_n = fops.split(xw, xw.shape[-1] // 3, axis=-1)
        h_r, h_z, h_n = fops.split(hw, hw.shape[-1] // 3, axis=-1)
        r = fops.sigmoid(fops.add(i_r, h_r))
        z = fops.sigmoid(fops.add(i_z, h_z))
        n = fops.tanh(fops.add(i_n, fops.mul(r, h_n)))
        return fops.add(n, fops.mul(z, fops.sub(h, n)))
    pre = fops.add(xw, hw)
    return fops.relu(pre) if mode == "RNN_RELU" else fops.tanh(pre)


def unrolled(mode, xw, h0, c0, w_hh, b_hh, seq_length):
    """``RNNDirection``'s ``(y, h_n, c_n)`` as per-step operators (what an export writes, and the reference the
    fused kernels are tested against); no masking when ``seq_length`` is a constant covering every step."""
    steps, batch, hidden = xw.shape[0], xw.shape[1], h0.shape[1]
    mask = None
    if type(seq_length) is not Tensor or bool((seq_length.asnumpy() < steps).any()):
        valid = fops.less(Tensor(np.arange(steps, dtype=np.int64)[:, None]),
                          fops.reshape(fops.cast(seq_length, mstype.int64), (1, -1)))
        mask = fops.broadcast_to(fops.expand_dims(valid, 2), (steps, batch, hidden))
    lstm = mode == "LSTM"
    state = (h0, c0) if lstm else h0
    outputs = []
    for t in range(steps):
        new = step(mode, xw[t], state, w_hh, b_hh)
        h_new = new[0] if lstm else new
        if mask is None:
            state = new
            outputs.append(h_new)
            continue
        m = mask[t]
        state = (fops.select(m, new[0], state[0]), fops.select(m, new[1], state[1])) if lstm else \
            fops.select(m, new, state)
        outputs.append(fops.select(m, h_new, fops.zeros_like(h_new)))
    y = fops.stack(outputs, 0) if outputs else fops.zeros((0, batch, hidden), xw.dtype)
    if lstm:
        return y, state[0], state[1]
    return y, state, fops.zeros_like(h0)


def _reserve_dtype(dtype):
    return mstype.float32 if dtype == mstype.float16 else dtype


class RNNDirection(Primitive):
    """``RNNDirection(mode)(xw, h0, c0, w_hh, b_hh, seq_length)`` -> ``(y, h_n, c_n, reserve)``: one layer-direction
    of ``nn.RNN`` / ``nn.LSTM`` / ``nn.GRU`` over all its steps (see the module docstring)."""

    @prim_attr_register
    def __init__(self, mode="LSTM"):
        _check_mode(self.name, mode)

    def infer_shape(self, xw, h0, c0, w_hh, b_hh, seq_length):
        steps, batch, hidden = _check_shapes(self.name, self.mode, xw, h0, c0, w_hh, b_hh, seq_length)
        reserve = -1 if hidden == -1 else RESERVE[self.mode] * hidden
        return (steps, batch, hidden), (batch, hidden), (batch, hidden), (steps, batch, reserve)

    def infer_dtype(self, xw, h0, c0, w_hh, b_hh, seq_length):
        rules.check_dtype_in(self.name, "xw", xw, _FLOATS)
        d = rules.check_same_dtype(self.name, ("xw", "h0", "c0", "w_hh", "b_hh"), (xw, h0, c0, w_hh, b_hh))
        rules.check_dtype_in(self.name, "seq_length", seq_length, (mstype.int32, mstype.int64))
        return d, d, d, _reserve_dtype(d)

    def export_expand(self, xw, h0, c0, w_hh, b_hh, seq_length):
        """The composition an export writes instead (MindIR and ONNX have no such primitive): the steps unrolled
        (:func:`unrolled`); ``reserve``, which only the gradient reads, comes out as zeros."""
        y, h_n, c_n = unrolled(self.mode, xw, h0, c0, w_hh, b_hh, seq_length)
        width = RESERVE[self.mode] * h0.shape[1]
        return y, h_n, c_n, fops.zeros((xw.shape[0], xw.shape[1], width), _reserve_dtype(xw.dtype))

    def bprop(self, xw, h0, c0, w_hh, b_hh, seq_length, out, dout):
        grad = self._grad_prim(RNNDirectionGrad, self.mode)
        dxw, dh0, dc0, dw_hh, db_hh = grad(w_hh, h0, c0, seq_length, out[3], dout[0], dout[1], dout[2])
        return dxw, dh0, dc0, dw_hh, db_hh, None


class RNNDirectionGrad(Primitive):
    """``RNNDirectionGrad(mode)(w_hh, h0, c0, seq_length, reserve, dy, dh_n, dc_n)`` -> ``(dxw, dh0, dc0, dw_hh,
    db_hh)``: back-propagation through time of :class:`RNNDirection` from its saved ``reserve``."""

    @prim_attr_register
    def __init__(self, mode="LSTM"):
        _check_mode(self.name, mode)

    def infer_shape(self, w_hh, h0, c0, seq_length, reserve, dy, dh_n, dc_n):
        rules.check_rank(self.name, "reserve", reserve, 3)
        rules.check_rank(self.name, "dy", dy, 3)
        rules.check_same_shape(self.name, ("h0", "c0", "dh_n", "dc_n"), (h0, c0, dh_n, dc_n))
        steps, batch = dy[0], dy[1]
        return (steps, batch, w_hh[0]), tuple(h0), tuple(c0), tuple(w_hh), (w_hh[0],)

    def infer_dtype(self, w_hh, h0, c0, seq_length, reserve, dy, dh_n, dc_n):
        d = rules.check_same_dtype(self.name, ("w_hh", "h0", "c0", "dy", "dh_n", "dc_n"), (w_hh, h0, c0, dy, dh_n,
                                                                                        dc_n))
        return d, d, d, d, d

    bprop = NON_DIFFERENTIABLE


PRIMITIVES = [RNNDirection, RNNDirectionGrad]
