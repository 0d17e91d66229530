"""Recurrent layers ``RNN``, ``LSTM``, ``GRU`` and their single-step cells ``RNNCell``, ``LSTMCell``, ``GRUCell``.

As in MindSpore 2.10 (torch layout and formulas):

* Parameters ``weight_ih_l{k}[_reverse]`` (gates * H, input), ``weight_hh_l{k}[_reverse]`` (gates * H, H),
  ``bias_ih_l{k}[_reverse]``, ``bias_hh_l{k}[_reverse]`` (gates * H,), registered in that order: every
  ``weight_ih`` first, then every ``weight_hh``, ``bias_ih``, ``bias_hh``. They are drawn from
  U(-1/sqrt(H), 1/sqrt(H)) with NumPy's global generator (which ``ms.set_seed`` seeds), in the order
  layer, direction, (w_ih, w_hh, b_ih, b_hh) -- MindSpore's order, so a seed gives MindSpore's values.
* LSTM gates are (i, f, g, o): ``c' = f c + i g``, ``h' = o tanh(c')``; GRU gates (r, z, n):
  ``n = tanh(W_in x + b_in + r (W_hn h + b_hn))``, ``h' = (1 - z) n + z h``; RNN ``h' = tanh|relu(...)``.
* Input (seq_len, batch, input_size) or, with ``batch_first``, (batch, seq_len, input_size). ``LSTM``
  returns ``(output, (h_n, c_n))``, the others ``(output, h_n)``, ``h_n`` shaped (layers * dirs, batch, H).
* ``seq_length`` (batch,) masks padded steps: past a sequence's length its output is zero and its state is
  carried unchanged; the reverse direction reverses each sequence within its own length.
* ``dropout`` is applied (in training) to the output of every layer but the last.

Each layer-direction is one ``RNNDirection`` (``ops/_defs/rnn.py``): the input projection is one matmul over all
steps, the recurrence and its backward through time run in the backend's kernel, so a compiled graph does not grow
with the sequence length (an export writes the steps unrolled).
"""
from __future__ import annotations

import math

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import Uniform, initializer
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk
from mindspore.nn.layer.basic import Dropout
from mindspore.ops._defs import rnn as rnn_defs

__all__ = ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}
_FLOATS = (mstype.float16, mstype.float32)


def _linear(x, w, b):
    y = ops.matmul(x, ops.transpose(w, (1, 0)))
    return y if b is None else ops.add(y, b)


def _reverse_index(seq_length, steps, hidden):
    """Gather indices (steps, batch, hidden) reversing each sequence within its own length (ReverseSequence)."""
    lengths = ops.reshape(ops.cast(seq_length, mstype.int64), (1, -1))
    t = Tensor(np.arange(steps, dtype=np.int64)[:, None])
    idx = ops.select(ops.less(t, lengths), ops.sub(ops.sub(lengths, 1), t), ops.broadcast_to(t, (steps, lengths.shape[1])))
    return ops.broadcast_to(ops.expand_dims(idx, 2), (steps, lengths.shape[1], hidden))


def _run_direction(fused, x, state, w_ih, w_hh, b_ih, b_hh, lengths):
    """One layer, one direction over (T, B, in) ``x`` with the fused recurrence ``fused`` (an ``RNNDirection``);
    ``lengths`` (B,) are the valid steps of each sequence."""
    steps, batch = x.shape[0], x.shape[1]
    xw = ops.reshape(_linear(ops.reshape(x, (steps * batch, -1)), w_ih, b_ih), (steps, batch, -1))
    lstm = fused.mode == "LSTM"
    h0, c0 = state if lstm else (state, state)
    if b_hh is None:
        b_hh = ops.zeros((w_hh.shape[0],), w_hh.dtype)
    y, h_n, c_n, _ = fused(xw, h0, c0, w_hh, b_hh, lengths)
    return y, ((h_n, c_n) if lstm else h_n)


class _RNNBase(Cell):
    """Stacked (bi)directional recurrent layers sharing the parameter layout of MindSpore's ``_RNNBase``."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.,
                 bidirectional=False, dtype=mstype.float32):
        super().__init__()
        op = type(self).__name__
        chk.check_positive_int(op, "hidden_size", hidden_size)
        chk.check_positive_int(op, "input_size", input_size)
        chk.check_positive_int(op, "num_layers", num_layers)
        if isinstance(dropout, bool) or not isinstance(dropout, float):
            raise MSTypeError(f"For '{op}', the 'dropout' must be float, but got {type(dropout).__name__}.")
        chk.check_bool(op, "has_bias", has_bias)
        chk.check_bool(op, "batch_first", batch_first)
        chk.check_bool(op, "bidirectional", bidirectional)
        if not 0 <= dropout < 1:
            raise MSValueError(f"For '{op}', the 'dropout' must be a number in range [0, 1) representing the "
                               f"probability of an element being zeroed, but got {dropout}.")
        if mode not in _GATES:
            raise MSValueError(f"For '{op}', the 'mode' must be in ['RNN_RELU', 'RNN_TANH', 'LSTM', 'GRU'], but got "
                               f"{mode}.")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.has_bias = has_bias
        self.batch_first = batch_first
        self.dropout = dropout
        self.bidirectional = bidirectional
        self.is_lstm = mode == "LSTM"
        self.dropout_op = Dropout(p=float(dropout))
        self.fused = rnn_defs.RNNDirection(mode)
        dirs = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        stdv = 1 / math.sqrt(hidden_size)
        lists = {"weight_ih": [], "weight_hh": [], "bias_ih": [], "bias_hh": []}
        for layer in range(num_layers):
            for direction in range(dirs):
                layer_input = input_size if layer == 0 else hidden_size * dirs
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                shapes = {"weight_ih": (gate_size, layer_input), "weight_hh": (gate_size, hidden_size)}
                if has_bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                for kind, shape in shapes.items():
                    data = np.random.uniform(-stdv, stdv, shape).astype(np.float32)
                    lists[kind].append(Parameter(Tensor(data, dtype), name=kind + suffix))
        for params in lists.values():
            for p in params:
                self.insert_param_to_cell(p.name, p)
        self.w_ih_list = ParameterTuple(lists["weight_ih"])
        self.w_hh_list = ParameterTuple(lists["weight_hh"])
        self.b_ih_list = ParameterTuple(lists["bias_ih"])
        self.b_hh_list = ParameterTuple(lists["bias_hh"])

    def _weights(self, layer, direction):
        suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
        w_ih = getattr(self, "weight_ih" + suffix)
        w_hh = getattr(self, "weight_hh" + suffix)
        if not self.has_bias:
            return w_ih, w_hh, None, None
        return w_ih, w_hh, getattr(self, "bias_ih" + suffix), getattr(self, "bias_hh" + suffix)

    def _check_inputs(self, x, hx, seq_length):
        op = type(self).__name__
        chk.check_rank(op, "x", x, (3,))
        if x.dtype not in _FLOATS:
            raise MSTypeError(f"For '{op}', the dtype of 'x' must be float16 or float32, but got {x.dtype}.")
        if x.shape[-1] != self.input_size:
            raise MSValueError(f"For '{op}', the last dimension of 'x' must be input_size {self.input_size}, but "
                               f"got shape {tuple(x.shape)}.")
        batch = x.shape[0] if self.batch_first else x.shape[1]
        want = (self.num_layers * (2 if self.bidirectional else 1), batch, self.hidden_size)
        if hx is not None:
            states = hx if self.is_lstm else (hx,)
            if self.is_lstm and (not isinstance(hx, tuple) or len(hx) != 2):
                raise MSTypeError(f"For '{op}', the 'hx' must be a tuple of two Tensors (h_0, c_0), but got "
                                  f"{type(hx).__name__}.")
            for i, h in enumerate(states):
                name = f"hx[{i}]" if self.is_lstm else "hx"
                chk.check_tensor(op, name, h)
                if h.dtype != x.dtype:
                    raise MSTypeError(f"For '{op}', the dtype of '{name}' must be the same as 'x' ({x.dtype}), but "
                                      f"got {h.dtype}.")
                if tuple(h.shape) != want:
                    raise MSValueError(f"For '{op}', the shape of '{name}' must be {want}, but got "
                                       f"{tuple(h.shape)}.")
        if seq_length is not None:
            chk.check_tensor(op, "seq_length", seq_length)
            if seq_length.dtype not in (mstype.int32, mstype.int64):
                raise MSTypeError(f"For '{op}', the dtype of 'seq_length' must be int32 or int64, but got "
                                  f"{seq_length.dtype}.")
            if tuple(seq_length.shape) != (batch,):
                raise MSValueError(f"For '{op}', the shape of 'seq_length' must be ({batch},), but got "
                                   f"{tuple(seq_length.shape)}.")
        return want

    def construct(self, x, hx=None, seq_length=None):
        state_shape = self._check_inputs(x, hx, seq_length)
        dtype = x.dtype
        if hx is None:
            zeros = ops.zeros(state_shape, dtype)
            hx = (zeros, zeros) if self.is_lstm else zeros
        if self.batch_first:
            x = ops.transpose(x, (1, 0, 2))
        steps = x.shape[0]
        rev_index = None
        if seq_length is None:
            lengths = Tensor(np.full((x.shape[1],), steps, np.int32))
        else:
            lengths = seq_length
        dirs = 2 if self.bidirectional else 1
        layer_in = x
        h_n, c_n = [], []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(dirs):
                k = layer * dirs + direction
                state = (hx[0][k], hx[1][k]) if self.is_lstm else hx[k]
                inp = layer_in
                if direction == 1:
                    if seq_length is None:
                        inp = ops.flip(inp, (0,))
                    else:
                        if rev_index is None or rev_index.shape[2] != inp.shape[2]:
                            rev_index = _reverse_index(seq_length, steps, inp.shape[2])
                        inp = ops.gather_d(inp, 0, rev_index)
                out, state = _run_direction(self.fused, inp, state, *self._weights(layer, direction), lengths)
                if direction == 1:
                    if seq_length is None:
                        out = ops.flip(out, (0,))
                    else:
                        out = ops.gather_d(out, 0, _reverse_index(seq_length, steps, out.shape[2]))
                outs.append(out)
                h_n.append(state[0] if self.is_lstm else state)
                if self.is_lstm:
                    c_n.append(state[1])
            output = outs[0] if dirs == 1 else ops.concat(outs, 2)
            if self.dropout != 0 and layer < self.num_layers - 1:
                output = self.dropout_op(output)
            layer_in = output
        output = layer_in
        if self.batch_first:
            output = ops.transpose(output, (1, 0, 2))
        h = ops.stack(h_n, 0)
        if self.is_lstm:
            return output, (h, ops.stack(c_n, 0))
        return output, h

    def _export_composite(self):
        """Export keeps the layer whole (ONNX has LSTM, GRU and RNN nodes): its form's name and attributes."""
        return self.mode, {"input_size": self.input_size, "hidden_size": self.hidden_size,
                           "num_layers": self.num_layers, "has_bias": self.has_bias,
                           "batch_first": self.batch_first, "bidirectional": self.bidirectional,
                           "dropout": float(self.dropout) if self.training else 0.0}

    def extend_repr(self):
        return (f"input_size={self.input_size}, hidden_size={self.hidden_size}, num_layers={self.num_layers}, "
                f"has_bias={self.has_bias}, batch_first={self.batch_first}, dropout={self.dropout}, "
                f"bidirectional={self.bidirectional}")


class RNN(_RNNBase):
    r"""Stacked Elman RNN: ``h_t = tanh(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)`` (or ReLU).

    Args:
        input_size (int), hidden_size (int), num_layers (int, default 1), nonlinearity (str: ``'tanh'``
        (default) or ``'relu'``, keyword only), has_bias (bool, default True), batch_first (bool, default False),
        dropout (float in [0, 1), default 0.0), bidirectional (bool, default False).

    Inputs:
        - **x** (Tensor) - (seq_len, batch, input_size), or (batch, seq_len, input_size) with ``batch_first``.
        - **hx** (Tensor) - (num_layers * num_directions, batch, hidden_size); zeros when ``None``.
        - **seq_length** (Tensor) - (batch,) int32/int64 valid lengths. Default: ``None``.

    Outputs:
        ``(output, h_n)``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.RNN(10, 16, 2, has_bias=True, batch_first=True, bidirectional=False)
        >>> x = ms.Tensor(np.ones([3, 5, 10]).astype(np.float32))
        >>> h0 = ms.Tensor(np.ones([1 * 2, 3, 16]).astype(np.float32))
        >>> output, hn = net(x, h0)
        >>> output.shape
        (3, 5, 16)
    """

    def __init__(self, *args, **kwargs):
        nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if nonlinearity not in ("tanh", "relu"):
            raise MSValueError(f"For 'RNN', the 'nonlinearity' must be in ['tanh', 'relu'], but got {nonlinearity}.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)


class GRU(_RNNBase):
    r"""Stacked GRU: ``r, z = sigmoid(...)``, ``n = tanh(W_in x + b_in + r (W_hn h + b_hn))``,
    ``h' = (1 - z) n + z h``. Arguments, inputs and outputs as in :class:`RNN` (no ``nonlinearity``).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.GRU(10, 16, 2, batch_first=True)
        >>> net(ms.Tensor(np.ones([3, 5, 10]), ms.float32))[1].shape
        (2, 3, 16)
    """

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)


class LSTM(_RNNBase):
    r"""Stacked LSTM with gates (i, f, g, o): ``c' = f c + i g``, ``h' = o tanh(c')``.

    Args:
        input_size (int): features of the input.
        hidden_size (int): features of the hidden state H.
        num_layers (int): stacked layers. Default: ``1``.
        has_bias (bool): Default: ``True``.
        batch_first (bool): input/output as (batch, seq_len, features). Default: ``False``.
        dropout (float): dropout on every layer's output but the last, in [0, 1). Default: ``0.0``.
        bidirectional (bool): Default: ``False``.
        dtype (mindspore.dtype): Parameter dtype. Default: ``mindspore.float32``.

    Inputs:
        - **x** (Tensor) - (seq_len, batch, input_size) or, with ``batch_first``, (batch, seq_len, input_size).
        - **hx** (tuple) - ``(h_0, c_0)``, each (num_layers * num_directions, batch, H); zeros when ``None``.
        - **seq_length** (Tensor) - (batch,) valid lengths. Default: ``None``.

    Outputs:
        ``(output, (h_n, c_n))``: output (seq_len, batch, num_directions * H) (batch first when asked).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.LSTM(10, 16, 2, has_bias=True, batch_first=True, bidirectional=False)
        >>> x = ms.Tensor(np.ones([3, 5, 10]).astype(np.float32))
        >>> h0 = ms.Tensor(np.ones([1 * 2, 3, 16]).astype(np.float32))
        >>> output, (hn, cn) = net(x, (h0, h0))
        >>> output.shape
        (3, 5, 16)
    """

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)


class _RNNCellBase(Cell):
    """One recurrent step; Parameters ``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh`` ~ U(±1/sqrt(H))."""

    _mode = "RNN_TANH"

    def __init__(self, input_size, hidden_size, has_bias, num_chunks, dtype=mstype.float32):
        super().__init__()
        op = type(self).__name__
        self.input_size = chk.check_positive_int(op, "input_size", input_size)
        self.hidden_size = chk.check_positive_int(op, "hidden_size", hidden_size)
        self.has_bias = chk.check_bool(op, "has_bias", has_bias)
        stdv = 1 / math.sqrt(hidden_size)
        rows = num_chunks * hidden_size
        # 2.10 first fills the four Parameters with np.random.randn (then redraws them all below): the same draws
        # here keep NumPy's global stream, and so these weights and every later seeded draw, equal to 2.10's
        for shape in ((rows, input_size), (rows, hidden_size)) + (((rows,), (rows,)) if has_bias else ()):
            np.random.randn(*shape)
        self.weight_ih = Parameter(initializer(Uniform(stdv), (rows, input_size), dtype), name="weight_ih")
        self.weight_hh = Parameter(initializer(Uniform(stdv), (rows, hidden_size), dtype), name="weight_hh")
        self.bias_ih = self.bias_hh = None
        if has_bias:
            self.bias_ih = Parameter(initializer(Uniform(stdv), (rows,), dtype), name="bias_ih")
            self.bias_hh = Parameter(initializer(Uniform(stdv), (rows,), dtype), name="bias_hh")

    def _check(self, x, states):
        op = type(self).__name__
        chk.check_rank(op, "x", x, (1, 2))
        if x.dtype not in _FLOATS:
            raise MSTypeError(f"For '{op}', the dtype of 'x' must be float16 or float32, but got {x.dtype}.")
        for name, h in states:
            chk.check_tensor(op, name, h)
            if h.ndim != x.ndim or h.shape[-1] != self.hidden_size or (x.ndim == 2 and h.shape[0] != x.shape[0]):
                raise MSValueError(f"For '{op}', the shape of '{name}' must be (batch, {self.hidden_size}) matching "
                                   f"'x' {tuple(x.shape)}, but got {tuple(h.shape)}.")

    def _default_state(self, x):
        shape = (x.shape[0], self.hidden_size) if x.ndim == 2 else (self.hidden_size,)
        return ops.zeros(shape, x.dtype)

    def _run(self, x, state):
        """The step on a batched input; 1-D inputs get and lose a batch axis."""
        unbatched = x.ndim == 1
        if unbatched:
            x = ops.expand_dims(x, 0)
            state = tuple(ops.expand_dims(s, 0) for s in state) if isinstance(state, tuple) else \
                ops.expand_dims(state, 0)
        xw = _linear(x, self.weight_ih, self.bias_ih)
        out = rnn_defs.step(self._mode, xw, state, self.weight_hh, self.bias_hh)
        if unbatched:
            out = tuple(ops.squeeze(o, 0) for o in out) if isinstance(out, tuple) else ops.squeeze(out, 0)
        return out


class RNNCell(_RNNCellBase):
    r"""One Elman RNN step ``h' = tanh|relu(W_ih x + b_ih + W_hh h + b_hh)``.

    Args:
        input_size (int), hidden_size (int), has_bias (bool, default True), nonlinearity (str, ``'tanh'`` or
        ``'relu'``), dtype (default float32).

    Inputs: ``x`` (batch, input_size) or (input_size,), ``hx`` (batch, H) (zeros when ``None``). Output: h'.
    """

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity="tanh", dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, 1, dtype)
        if nonlinearity not in ("tanh", "relu"):
            raise MSValueError(f"For 'RNNCell', the 'nonlinearity' must be in ['tanh', 'relu'], but got "
                               f"{nonlinearity}.")
        self.nonlinearity = nonlinearity
        self._mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"

    def construct(self, x, hx=None):
        hx = self._default_state(x) if hx is None else hx
        self._check(x, (("hx", hx),))
        return self._run(x, hx)


class GRUCell(_RNNCellBase):
    r"""One GRU step (gates r, z, n as in :class:`GRU`). Inputs ``x``, ``hx``; output h'."""

    _mode = "GRU"

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, 3, dtype)

    def construct(self, x, hx=None):
        hx = self._default_state(x) if hx is None else hx
        self._check(x, (("hx", hx),))
        return self._run(x, hx)


class LSTMCell(_RNNCellBase):
    r"""One LSTM step (gates i, f, g, o). Inputs ``x`` and ``hx = (h, c)``; output ``(h', c')``."""

    _mode = "LSTM"

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, 4, dtype)

    def construct(self, x, hx=None):
        if hx is None:
            hx = (self._default_state(x), self._default_state(x))
        if not isinstance(hx, (tuple, list)) or len(hx) != 2:
            raise MSTypeError(f"For 'LSTMCell', the 'hx' must be a tuple (h, c), but got {type(hx).__name__}.")
        self._check(x, (("hx[0]", hx[0]), ("hx[1]", hx[1])))
        return self._run(x, tuple(hx))
