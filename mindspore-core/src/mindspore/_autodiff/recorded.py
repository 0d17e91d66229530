"""``@jit`` functions called while a PYNATIVE gradient tape records: one compiled call on the tape.

The call runs compiled and is recorded as one node whose bprop is the compiled vjp of the function
(itself run through here, so each order of derivative is one more compiled graph, recorded on any
outer tape in turn).
"""
from __future__ import annotations

from mindspore._autodiff import tape as _tape
from mindspore._autodiff.grad import _differentiate
from mindspore._infer.abstract import signature
from mindspore._pipeline.compiler import _EPOCH, PYTHON_FALLBACK, cache_for_call, compiled_entry
from mindspore._runtime import backend
from mindspore.common.tensor import Tensor

__all__ = ["call_on_tape"]


class _GraphCallPrim:
    """Stands in for a primitive on the tape: one compiled call, differentiated by its compiled vjp."""

    def __init__(self, fn, n_args, weights, cache):
        self.fn = fn
        self.n_args = n_args
        self.weights = weights
        self.cache = cache
        self.name = getattr(fn, "__name__", "graph")

    def bprop(self, *inputs_out_dout):
        *inputs, out, dout = inputs_out_dout
        runner = _VjpRunner(self.fn, self.n_args, self.weights)
        # recorded on any outer tape in turn, so gradients of gradients work
        return _run_recorded(self.cache, runner, tuple(inputs) + (dout,), f"{self.name}_vjp")


class _VjpRunner:
    """``(*args, *weights, dout) -> grads``: the function the compiled vjp of a @jit call is made of."""

    def __init__(self, fn, n_args, weights):
        self.fn, self.n_args, self.weights = fn, n_args, weights
        self.__name__ = "vjp"

    def __eq__(self, other):
        return isinstance(other, _VjpRunner) and (self.fn, self.n_args) == (other.fn, other.n_args)

    def __hash__(self):
        return hash((id(self.fn), self.n_args))

    def __call__(self, *inputs):
        args = inputs[:self.n_args]
        dout = inputs[-1]
        positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
        _, ig, wg = _differentiate(self.fn, args, positions, self.weights, False, dout)
        by_pos = dict(zip(positions, ig))
        return tuple(by_pos.get(i) for i in range(self.n_args)) + tuple(wg or ())


def call_on_tape(run, fn, args, kwargs):
    """A ``@jit`` call while a PYNATIVE gradient tape is recording: run compiled, record one node."""
    if kwargs:
        return fn(*args, **kwargs)
    return _run_recorded(cache_for_call(run, args), fn, tuple(args), getattr(fn, "__name__", "jit"))


def _run_recorded(cache, fn, args, name):
    """Run ``fn`` compiled and, while tapes record, record the call as one node differentiated by its
    compiled vjp (itself run through here, so each order of derivative is one more compiled graph)."""
    entry = compiled_entry(cache, fn, args, None, name=name, fallback=True)
    if entry is PYTHON_FALLBACK:
        return fn(*args)    # JIT fallback: run as Python, recorded op by op on the tapes
    out = entry.run(args, None)
    if not _tape.active():
        return out
    entry = _last_entry(cache, args)
    weights = tuple(entry.program.weights) if entry is not None else ()
    outs = out if isinstance(out, tuple) else (out,)
    if not outs or not all(isinstance(o, Tensor) for o in outs):
        return out
    prim = _GraphCallPrim(fn, len(args), weights, cache_for_call(fn, args) if not isinstance(fn, _VjpRunner) else cache)
    _tape.record(prim, tuple(args) + weights, out)
    return out


def _last_entry(cache, args):
    # the key compiled_entry files the call under (its last field: freeze_weights, False here)
    return cache.get((signature(args, None), (), backend.current().generation, _EPOCH[0], False))

