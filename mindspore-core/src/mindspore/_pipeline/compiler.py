"""Compiling a callable for one input signature, caching it, and running it.

``compiled_call(cache, fn, args, kwargs)`` is what GRAPH_MODE Cells, ``@ms.jit`` functions and
graph-mode gradient calls go through: the cache key is the input signature
(:func:`mindspore._infer.abstract.signature`: tensors by shape and dtype, Python values by value,
``ms.mutable`` values by type) plus the backend and the training flag of a Cell; a miss runs
parse -> infer (:func:`~mindspore._infer.specialize.specialize`, with autodiff expanded where the
program asks for gradients) -> the pass pipeline -> the executor's schedule, once.
"""
from __future__ import annotations

import time
import weakref

import numpy as np

from mindspore._infer.abstract import signature
from mindspore._infer.specialize import specialize
from mindspore._infer.staging import flatten, unflatten
from mindspore._pipeline import freeze as _freeze
from mindspore._pipeline import passes as _passes
from mindspore._runtime import backend as _backend
from mindspore._runtime.executor import Executable
from mindspore.common.tensor import Tensor

__all__ = ["CompiledGraph", "compiled_call", "compile_callable", "cache_for", "STATS", "invalidate_all"]

#: Counters tests and benchmarks read: compilations and cache hits.
STATS = {"compiles": 0, "hits": 0, "last_compile_s": 0.0}

_CACHES = weakref.WeakKeyDictionary()
_EPOCH = [0]


def invalidate_all():
    """Make every compiled graph stale (a network was changed in a way its inputs do not show, e.g. amp
    giving a primitive a mixed-precision class): the next call of each compiles again."""
    _EPOCH[0] += 1


def cache_for(owner):
    """The compile cache of ``owner`` (a Cell or a function), kept as long as ``owner`` lives."""
    try:
        cache = _CACHES.get(owner)
    except TypeError:
        return {}
    if cache is None:
        cache = {}
        _CACHES[owner] = cache
    return cache


class CompiledGraph:
    """One specialisation: the program (how to feed it, how to rebuild its output) and its schedule."""

    def __init__(self, program, executable, compile_s, frozen=()):
        self.program = program
        self.executable = executable
        self.compile_s = compile_s
        self.weight_specs = [(w._dtype, tuple(w.shape)) for w in program.weights]
        self.frozen = tuple(frozen)

    def stale(self):
        """Whether a Parameter the graph reads changed dtype or shape since it was compiled
        (``set_dtype``, ``set_data`` with another shape), or a weight it froze holds other data: the graph
        must be compiled again."""
        for w, (dtype, shape) in zip(self.program.weights, self.weight_specs):
            if w._dtype is not dtype or (w._data is not None and w._data.shape != shape):
                return True
        return any(w._data is not buffer for w, buffer in self.frozen)

    @property
    def graph(self):
        return self.program.graph

    def run(self, args, kwargs):
        p = self.program
        leaves, _ = flatten((tuple(args), dict(kwargs or {})))
        inputs = [_buffer(leaves[i]) for i in p.input_leaves]
        inputs += [w._buffer() for w in p.weights]
        outs = self.executable(*inputs)
        dtypes = p.out_dtypes
        values = [Tensor._make(outs[k], dtypes[k]) if kind == "graph" else leaves[k] if kind == "input" else k
                  for kind, k in p.out_plan]
        return unflatten(p.out_tree, values)


def _buffer(v):
    if isinstance(v, Tensor):
        return v._buffer()
    dtype = np.float32 if isinstance(v, float) else np.int64
    return _backend.from_host(np.array(v, dtype=dtype))


def compile_callable(fn, args, kwargs=None, name=None, freeze_weights=False):
    """Parse, infer, optimise and schedule ``fn`` for these arguments (with ``freeze_weights``, the weights
    it does not write as constants)."""
    start = time.perf_counter()
    program = specialize(fn, args, kwargs, name=name or _name_of(fn))
    frozen = _freeze.freeze_weights(program.graph) if freeze_weights else ()
    _passes.run_pipeline(program.graph)
    executable = Executable(program.graph)
    elapsed = time.perf_counter() - start
    STATS["compiles"] += 1
    STATS["last_compile_s"] = elapsed
    return CompiledGraph(program, executable, elapsed, frozen)


def _name_of(fn):
    cell = getattr(fn, "__self__", None)
    if cell is not None and hasattr(cell, "_cells"):
        return f"{type(cell).__name__}_construct"
    return getattr(fn, "__name__", "graph").replace("<", "").replace(">", "")


def compiled_call(cache, fn, args, kwargs=None, extra_key=(), name=None, freeze_weights=False):
    """Run ``fn(*args, **kwargs)`` compiled, compiling on a new signature."""
    key = (signature(args, kwargs), extra_key, _backend.current().generation, _EPOCH[0], freeze_weights)
    entry = cache.get(key)
    if entry is None or entry.stale():
        entry = compile_callable(fn, args, kwargs, name, freeze_weights)
        cache[key] = entry
    else:
        STATS["hits"] += 1
    return entry.run(args, kwargs)
