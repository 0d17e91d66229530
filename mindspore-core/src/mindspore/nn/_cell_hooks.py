"""The PYNATIVE hooks of a Cell: ``register_forward_pre_hook``, ``register_forward_hook``,
``register_backward_pre_hook`` and ``register_backward_hook`` (MindSpore 2.10 semantics).

A hooked call runs, in order: the forward pre-hooks ``hook(cell, inputs)`` (a Tensor or tuple they return replaces
the inputs), ``construct``, the forward hooks ``hook(cell, inputs, outputs)`` (a value they return replaces the
outputs). The backward hooks see the cell as the region between two gradient boundaries, each a
``HookBackward`` on the tensors crossing it: the one on the outputs (placed after the forward hooks, so an output
a forward hook rewrote is inside the region) calls ``hook(cell, grad_output)`` of the backward pre-hooks, the one
on the inputs ``hook(cell, grad_input, grad_output)`` of the backward hooks; the gradients are tuples (one entry per
tensor input/output) and a tuple a hook returns replaces them. As in MindSpore 2.10, once one input of the cell is
differentiated the hooks get every input's gradient, and when none is (only the weights' gradients asked for) a
marker node on the tape still calls them, with ``grad_input=(None,)``; ``grad`` with a ``grad_position``
differentiates every input of the call while backward hooks are registered. The boundaries are placed only while a
gradient tape records. Inside compiled graphs (GRAPH_MODE, ``ms.jit``) the forward hooks are traced into the graph (they
run on the staged tensors when the graph is compiled) and the backward hooks do not run, as in MindSpore 2.10.

Hooks are kept per cell in registration order; ``remove()`` on the returned handle unregisters one.
"""
from __future__ import annotations

import itertools
import weakref

import numpy as np

from mindspore._autodiff import tape as _tape
from mindspore._errors import MSTypeError
from mindspore.common.tensor import Tensor

KINDS = ("forward_pre", "forward", "backward_pre", "backward")
_ids = itertools.count()


class HookHandle:
    """What the ``Cell.register_*hook`` methods return (these forward/backward hooks, and the state-dict hooks of
    ``_cell_extras.py``): :meth:`remove` unregisters the hook and then calls ``on_removed``, if given."""

    __slots__ = ("_hooks", "handle_id", "_on_removed")

    def __init__(self, hooks, handle_id, on_removed=None):
        self._hooks = hooks
        self.handle_id = handle_id
        self._on_removed = on_removed

    def remove(self):
        if self._hooks.pop(self.handle_id, None) is not None and self._on_removed is not None:
            self._on_removed()


def add(hooks, hook_fn, on_removed=None):
    """Registers ``hook_fn`` last in the ordered ``{handle id: hook}`` table ``hooks``; returns its handle."""
    handle = HookHandle(hooks, next(_ids), on_removed)
    hooks[handle.handle_id] = hook_fn
    return handle


def _backward_hook_removed():
    _tape.CELL_BACKWARD_HOOKS[0] -= 1


def _graphs_stale():
    """Compiled graphs trace the forward hooks: one registered or removed makes them stale."""
    from mindspore._pipeline.compiler import invalidate_all
    invalidate_all()


def register(cell, kind, hook_fn):
    if not callable(hook_fn):
        raise MSTypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")
    table = cell.__dict__.get("_hooks")
    if table is None:
        table = {k: {} for k in KINDS}
        object.__setattr__(cell, "_hooks", table)
        # the process-wide count of backward hooks holds only live cells' hooks: a cell dropped with its hooks
        # still registered must not keep gradients in their hooked form (nor forward reuse off) for good
        weakref.finalize(cell, _forget_backward_hooks, table)
    if kind.startswith("forward"):
        handle = add(table[kind], hook_fn, _graphs_stale)
        _graphs_stale()
    else:
        handle = add(table[kind], hook_fn, _backward_hook_removed)
        _tape.CELL_BACKWARD_HOOKS[0] += 1
    return handle


def _forget_backward_hooks(table):
    _tape.CELL_BACKWARD_HOOKS[0] -= len(table["backward_pre"]) + len(table["backward"])


def active(cell):
    table = cell.__dict__.get("_hooks")
    return table is not None and any(table.values())


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


def _through_hook(values, on_grads):
    """``values`` (tensors) passed through one ``HookBackward`` whose gradients go to ``on_grads``, as a tuple."""
    from mindspore.ops._defs.control_prims import HookBackward
    return _as_tuple(HookBackward(on_grads)(*values))


class _UntrackedInputs:
    """Stands in for a primitive on the tape (as a Cell's own ``bprop`` does) when no input of a cell with backward
    hooks is differentiated (the first layer, while only the weights' gradients are asked for): recorded before
    ``construct``, so the walk reaches it after the cell's own nodes, where it calls the backward hooks with
    ``grad_input=(None,)``, as MindSpore 2.10 does."""

    __slots__ = ("name", "fire")

    def __init__(self, fire):
        self.name = "Cell.register_backward_hook"
        self.fire = fire

    def bprop(self, out, dout):
        self.fire(())
        return ()


def _open_region(cell, table, args):
    """Place the input boundary of the backward hooks; returns the inputs for ``construct`` and ``close(out)``,
    which places the output boundary."""
    tape = _tape.active()[-1]
    where = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    # one input differentiated: all of them cross the boundary (MindSpore 2.10 gives the hooks every input's
    # gradient then); none: a marker node instead
    diff = where if any(_tape.tracked(args[i], tape) for i in where) else []
    grad_output = [()]

    def on_input_grads(grads):
        got = dict(zip(diff, grads))
        # no input differentiated: MindSpore 2.10 passes one None, whatever the number of inputs
        grad_input = tuple(got.get(i) for i in where) if diff else (None,)
        for hook in list(table["backward"].values()):
            new = hook(cell, grad_input, grad_output[0])
            if new is not None:
                grad_input = _as_tuple(new)
        if not diff:
            return ()
        if len(grad_input) != len(where):
            return grad_input   # HookBackward reports the count
        return tuple(grad_input[where.index(i)] for i in diff)

    marker = None
    if diff:
        hooked = _through_hook([args[i] for i in diff], on_input_grads)
        args = list(args)
        for i, v in zip(diff, hooked):
            args[i] = v
        args = tuple(args)
    else:
        marker = Tensor(np.zeros((), np.float32))
        tape._record(_tape.Node(_UntrackedInputs(on_input_grads), (), (marker,), False))

    def close(out):
        outs = _as_tuple(out)
        opos = [i for i, o in enumerate(outs) if isinstance(o, Tensor)]
        n = len(opos)

        def on_output_grads(grads):
            mine = tuple(grads[:n])
            for hook in list(table["backward_pre"].values()):
                new = hook(cell, mine)
                if new is not None:
                    mine = _as_tuple(new)
            grad_output[0] = mine
            return mine + tuple(grads[n:])   # the marker's gradient makes the walk reach it

        if not opos:
            return out
        hooked = _through_hook([outs[i] for i in opos] + ([marker] if marker is not None else []), on_output_grads)
        outs = list(outs)
        for i, v in zip(opos, hooked):
            outs[i] = v
        return tuple(outs) if isinstance(out, tuple) else outs[0]

    return args, close


def call(cell, run, args, kwargs, backward=True):
    """Run ``run(args, kwargs)`` (the cell's construct) with the cell's hooks; ``backward=False`` (compiled graphs)
    leaves out the backward hooks."""
    table = cell.__dict__["_hooks"]
    for hook in list(table["forward_pre"].values()):
        new = hook(cell, args)
        if new is not None:
            args = _as_tuple(new)
    close = None
    if backward and _tape.active() and (table["backward_pre"] or table["backward"]):
        args, close = _open_region(cell, table, args)
    out = run(args, kwargs)
    for hook in list(table["forward"].values()):
        new = hook(cell, args, out)
        if new is not None:
            out = new
    return out if close is None else close(out)
