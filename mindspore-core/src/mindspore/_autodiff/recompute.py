"""``mindspore.recompute(block, *args)``: gradient checkpointing.

In PYNATIVE, under a gradient tape, ``block`` runs once unrecorded (none of its intermediate values are kept
for the backward pass), and the tape records one step whose backward runs ``block`` again on a fresh tape
and differentiates it: the output, the inputs' and the Cell's parameters' gradients are those of calling
``block`` directly, for the memory of its inputs and output. Without a tape it is just ``block(*args)``.
In GRAPH_MODE the compiled graph calls ``block`` inline: the values are the same, and the graph keeps the
intermediates its schedule needs (the memory saving is PYNATIVE's).
"""
from __future__ import annotations

from mindspore._autodiff import tape as _tape
from mindspore._core import interpreters as _interpreters
from mindspore._errors import MSTypeError
from mindspore.common.tensor import Tensor

__all__ = ["recompute"]


def _is_cell(block):
    return hasattr(block, "construct") and hasattr(block, "trainable_params")


class _Recompute:
    """Stands in for a primitive on the tape: its bprop recomputes the block's forward and differentiates it."""

    __slots__ = ("block", "kwargs", "n_args", "name")

    def __init__(self, block, kwargs, n_args):
        self.block = block
        self.kwargs = kwargs
        self.n_args = n_args
        self.name = f"recompute({getattr(block, '__name__', type(block).__name__)})"

    def bprop(self, *inputs_out_dout):
        inputs, dout = inputs_out_dout[:-2], inputs_out_dout[-1]
        args, params = inputs[:self.n_args], inputs[self.n_args:]
        # fresh tensors on the caller's buffers: the inner tape must not see the outer tape's records
        fresh = tuple(Tensor._make(a._data, a._dtype) if isinstance(a, Tensor) else a for a in args)
        with _tape.Tape() as tp:
            for a in fresh:
                if isinstance(a, Tensor):
                    tp.watch(a)
            for p in params:
                tp.watch(p)
            out = self.block(*fresh, **self.kwargs)
            outs = out if isinstance(out, tuple) else (out,)
            douts = dout if isinstance(dout, tuple) else (dout,)
            grads = _tape.backward(tp, outs, douts)
        return tuple(grads.get(id(a)) if isinstance(a, Tensor) else None for a in fresh) + \
            tuple(grads.get(id(p)) for p in params)


def recompute(block, *args, use_reentrant=True, output_recompute=False, early_stop=True, context_fn=None,
              **kwargs):
    """``block(*args, **kwargs)``, whose intermediate values are recomputed in the backward pass instead of
    kept (see the module docstring). ``block`` is a Cell, or with ``use_reentrant=False`` any callable.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> dense = nn.Dense(3, 2)
        >>> ms.recompute(dense, ms.Tensor(np.ones((1, 3), np.float32))).shape
        (1, 2)
    """
    if use_reentrant and not _is_cell(block):
        raise MSTypeError("Recompute function now only support block which inherited from Cell when "
                          "use_reentrant=True!")
    if not callable(block):
        raise MSTypeError(f"For 'recompute', the 'block' must be callable, but got {type(block).__name__}.")
    tapes = _tape.active()
    if not tapes or _interpreters.STACK[-1].kind != "tape":
        return block(*args, **kwargs)       # nothing records (or a graph is being built): a plain call
    params = tuple(block.trainable_params()) if _is_cell(block) else ()
    with _interpreters.untraced():
        out = block(*args, **kwargs)
    outs = out if isinstance(out, tuple) else (out,)
    fresh = tuple(Tensor._make(o._data, o._dtype) if isinstance(o, Tensor) else o for o in outs)
    result = fresh if isinstance(out, tuple) else fresh[0]
    _tape.record(_Recompute(block, kwargs, len(args)), tuple(args) + params, result)
    return result
