"""PYNATIVE: a gradient of a Cell reuses that Cell's last forward on the same inputs (MindSpore 2.10).

A hand-written train step runs ``loss = net(x)`` and then ``GradOperation(...)(net, weights)(x, sens)``. In
MindSpore 2.10 the second call does not run ``net`` again when ``net`` was marked with ``set_grad()`` and its last
forward had the same inputs: the gradient is taken through that forward, so its effects (BatchNorm's moving
statistics, Dropout's mask, ``Assign``) happen once per step, and the loss and the gradients see the same values.

So a forward of a ``set_grad`` Cell called outside any gradient (no tape running) is recorded on a tape of its own
that watches its tensor inputs and its trainable parameters; the tape is kept on the Cell until the next forward of
that Cell replaces it or a gradient of that Cell with the very same input objects takes it (:func:`take`). A
gradient that can not use it (other inputs, weights the Cell does not own, backward hooks) runs the forward again.
"""
from __future__ import annotations

from mindspore._autodiff import tape as _tape
from mindspore._core import interpreters as _interpreters
from mindspore.common.tensor import Tensor

__all__ = ["recording", "run_recorded", "take"]

_SLOT = "_last_grad_forward"


class _Forward:
    __slots__ = ("args", "out", "tape", "watched")

    def __init__(self, args, out, tape, watched):
        self.args, self.out, self.tape, self.watched = args, out, tape, watched


def recording(cell, kwargs):
    """Whether this eager call of ``cell`` is recorded for a later gradient to reuse."""
    return (not kwargs and cell.__dict__.get("requires_grad", False) and _tape.GRAD_ENABLED[0]
            and not _tape.CELL_BACKWARD_HOOKS[0] and not _tape.active())


def _tensors(values):
    for v in values:
        if isinstance(v, Tensor):
            yield v
        elif isinstance(v, (tuple, list)):
            yield from _tensors(v)


def run_recorded(cell, args, run):
    """``run()`` (the Cell's forward on ``args``) on a tape kept on ``cell`` for :func:`take`."""
    drop(cell)
    tp = _tape.Tape()
    for t in _tensors(args):
        tp.watch(t)
    weights = cell.trainable_params()
    for w in weights:
        tp.watch(w)
    _interpreters.push(tp)
    try:
        out = run()
    except BaseException:
        _interpreters.pop(tp)
        tp.release()
        raise
    _interpreters.pop(tp)
    cell.__dict__[_SLOT] = _Forward(tuple(args), out, tp, {id(w) for w in weights})
    return out


def drop(cell):
    """Forget ``cell``'s recorded forward."""
    last = cell.__dict__.pop(_SLOT, None)
    if last is not None:
        last.tape.release()


def take(fn, args, weights):
    """``(tape, output)`` of ``fn``'s recorded forward when a gradient of ``fn`` on ``args`` w.r.t. ``weights``
    can reuse it (the caller releases the tape), else None."""
    last = getattr(fn, "__dict__", {}).get(_SLOT)
    if last is None:
        return None
    del fn.__dict__[_SLOT]
    same = len(last.args) == len(args) and all(a is b for a, b in zip(last.args, args))
    if not same or _tape.CELL_BACKWARD_HOOKS[0] or any(id(w) not in last.watched for w in weights or ()):
        last.tape.release()
        return None
    return last.tape, last.out
