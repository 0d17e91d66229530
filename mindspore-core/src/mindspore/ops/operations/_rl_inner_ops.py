"""``mindspore.ops.operations._rl_inner_ops``: MindSpore 2.10's private module of recurrent primitives written for
cuDNN, of which libraries import ``CudnnGRU`` (MindNLP's ``nn.GRU`` on GPU; it imports the name on every device).

``CudnnGRU(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout)(x, h, w)`` runs a stacked GRU
over the (T, B, I) steps of ``x`` from ``h`` (num_layers * D, B, H), gates (r, z, n), and returns
``(output, h_n, reserve, state)``: ``output`` (T, B, D * H), ``h_n`` like ``h``, and two empty workspaces (cuDNN's,
which nothing here needs: the gradient goes through the recurrence as ``nn.GRU``'s does). ``w`` is cuDNN's flat
(N, 1, 1) buffer: every layer-direction's ``W_ih`` (3H, in) and ``W_hh`` (3H, H), layer-major and direction-minor,
then (``has_bias``) every ``b_ih`` and ``b_hh`` (3H,) in the same order. It is a composition of the operators
``nn.GRU`` runs (one ``RNNDirection`` per layer-direction), usable in PYNATIVE mode; ``dropout`` is applied
between layers in neither (2.10's kernel applies it only in training, which a functional call has no notion of).
"""
from mindspore import ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.nn.layer.rnns import _run_direction
from mindspore.ops._defs import rnn as _rnn_defs

__all__ = ["CudnnGRU"]


class CudnnGRU:
    """See the module docstring."""

    def __init__(self, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout):
        for name, v in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise MSTypeError(f"For 'CudnnGRU', the '{name}' must be int, but got {type(v).__name__}.")
            if v <= 0:
                raise MSValueError(f"For 'CudnnGRU', the '{name}' must be positive, but got {v}.")
        for name, v in (("has_bias", has_bias), ("bidirectional", bidirectional)):
            if not isinstance(v, bool):
                raise MSTypeError(f"For 'CudnnGRU', the '{name}' must be bool, but got {type(v).__name__}.")
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.has_bias, self.bidirectional, self.dropout = has_bias, bidirectional, dropout
        self.num_directions = 2 if bidirectional else 1
        self._fused = _rnn_defs.RNNDirection(mode="GRU")

    def _split(self, w):
        hidden, dirs = self.hidden_size, self.num_directions
        flat = ops.reshape(w, (-1,))
        total = sum(dirs * 3 * hidden * ((self.input_size if layer == 0 else hidden * dirs) + hidden +
                                         (2 if self.has_bias else 0)) for layer in range(self.num_layers))
        if flat.shape[0] != total:
            raise MSValueError(f"For 'CudnnGRU', the 'w' must hold {total} elements, but got {flat.shape[0]}.")
        pieces, at = [], 0

        def take(shape):
            nonlocal at
            size = shape[0] * (shape[1] if len(shape) > 1 else 1)
            piece = ops.reshape(flat[at:at + size], shape)
            at += size
            return piece
        mats = []
        for layer in range(self.num_layers):
            width = self.input_size if layer == 0 else hidden * dirs
            for _ in range(dirs):
                mats.append((take((3 * hidden, width)), take((3 * hidden, hidden))))
        for w_ih, w_hh in mats:
            biases = (take((3 * hidden,)), take((3 * hidden,))) if self.has_bias else (None, None)
            pieces.append((w_ih, w_hh) + biases)
        return pieces

    def __call__(self, x, h, w):
        weights = self._split(w)
        steps, batch = x.shape[0], x.shape[1]
        lengths = ops.fill(mstype.int32, (batch,), steps)
        layer_in, h_n = x, []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(self.num_directions):
                k = layer * self.num_directions + direction
                inp = layer_in if direction == 0 else ops.flip(layer_in, (0,))
                out, state = _run_direction(self._fused, inp, h[k], *weights[k], lengths)
                outs.append(out if direction == 0 else ops.flip(out, (0,)))
                h_n.append(state)
            layer_in = outs[0] if len(outs) == 1 else ops.concat(outs, 2)
        empty = ops.zeros((0,), x.dtype)
        return layer_in, ops.stack(h_n, 0), empty, empty
