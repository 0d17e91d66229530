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
import warnings
import weakref

import numpy as np

from mindspore._errors import NeedsPython
from mindspore._infer.abstract import signature
from mindspore._infer.specialize import specialize
from mindspore._infer.staging import flatten, unflatten
from mindspore._pipeline import freeze as _freeze
from mindspore._pipeline import passes as _passes
from mindspore._runtime import backend as _backend
from mindspore._runtime.executor import Executable
from mindspore.common.tensor import Tensor

__all__ = ["CompiledGraph", "compiled_call", "compiled_entry", "compile_callable", "cache_for", "cache_for_call",
           "generation", "STATS", "invalidate_all"]

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


_BOUND = weakref.WeakKeyDictionary()


def cache_for_call(fn, args):
    """The compile cache of ``fn`` (a ``@jit`` function) called with ``args``. A method called on an object that the
    cache key tells apart only by identity (``self``, a Cell: an optimizer's ``@jit`` construct) has a cache per
    object, dropped with the object: one cache for the function would keep every instance's graphs, and the
    Parameters they read, alive for good, and give a new instance that reuses a dead one's ``id`` the dead one's
    graphs, bound to the dead one's Parameters."""
    if args and signature(args[:1])[0][0] == "id":
        try:
            per_object = _BOUND.get(args[0])
            if per_object is None:
                per_object = _BOUND[args[0]] = {}
        except TypeError:        # not weakly referable: the function's cache
            return cache_for(fn)
        cache = per_object.get(fn)
        if cache is None:
            cache = per_object[fn] = {}
        return cache
    return cache_for(fn)


class CompiledGraph:
    """One specialisation: the program (how to feed it, how to rebuild its output) and its schedule."""

    def __init__(self, program, executable, compile_s, frozen=()):
        self.program = program
        self.executable = executable
        self.compile_s = compile_s
        self.weight_specs = [(w._dtype, tuple(w.shape)) for w in program.weights]
        self.frozen = tuple(frozen)
        self.adopted = False

    def stale(self):
        """Whether a Parameter the graph reads changed dtype or shape since it was compiled
        (``set_dtype``, ``set_data`` with another shape), or a weight it froze holds other data: the graph
        must be compiled again; or it changed a caller's list in place (``global_list.reverse()``) or replaced a
        tensor attribute at compile time (``self.t = self.t * 2``), which MindSpore does at every call."""
        if self.program.outer_writes:
            return True
        for w, (dtype, shape) in zip(self.program.weights, self.weight_specs):
            if w._dtype is not dtype or (w._data is not None and w._data.shape != shape):
                return True
        for obj, attr, kind in self.program.state:
            value = getattr(obj, attr, None)
            if type(value) is not kind:     # the number attribute was given another kind of value
                return True
        for obj, attr, before, _ in self.program.guards:
            value = getattr(obj, attr, None)
            if type(value) is not type(before) or value != before:
                return True
        return any(w._data is not buffer for w, buffer in self.frozen)

    @property
    def graph(self):
        return self.program.graph

    def run(self, args, kwargs):
        p = self.program
        leaves, _ = flatten((tuple(args), dict(kwargs or {})))
        # tensors made before set_device switched the target move to this graph's device: the weights and
        # attributes once, the arguments at each call
        if not self.adopted:
            for w in p.weights:
                _backend.adopt(w)
            for obj, attr, _ in p.state:
                value = getattr(obj, attr)
                if isinstance(value, Tensor):
                    _backend.adopt(value)
            self.adopted = True
        for i in p.input_leaves:
            if isinstance(leaves[i], Tensor):
                _backend.adopt(leaves[i])
        inputs = [_buffer(leaves[i]) for i in p.input_leaves]
        inputs += [_buffer(getattr(obj, attr)) for obj, attr, _ in p.state]
        inputs += [w._buffer() for w in p.weights]
        outs = self.executable(*inputs)
        dtypes = p.out_dtypes
        values = [Tensor._make(outs[k], dtypes[k]) if kind == "graph" else leaves[k] if kind == "input" else k
                  for kind, k in p.out_plan]
        if p.scalar_outputs:     # computed from mutable numbers alone: a Python number, as in MindSpore
            values = [p.scalar_outputs[k](_backend.to_host(outs[k]).item()) if kind == "graph" and
                      k in p.scalar_outputs else v for v, (kind, k) in zip(values, p.out_plan)]
        for i, k in p.input_writes:     # an in-place method updated this argument (MindSpore: the input changes)
            leaves[i]._data = outs[k]
        for obj, attr, _, value in p.guards:
            setattr(obj, attr, value)
        for (obj, attr, kind), plan in zip(p.state, p.state_plan):
            if plan is not None:     # the number attribute the function assigned, as after this call
                setattr(obj, attr, kind(_backend.to_host(outs[plan[1]]).item()) if plan[0] == "graph" else plan[1])
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
    name = name or _name_of(fn)
    program = specialize(fn, args, kwargs, name=name)
    if program.number_writes:
        program = _carry_number_attributes(program, fn, args, kwargs, name)
    frozen = _freeze.freeze_weights(program.graph) if freeze_weights else ()
    _passes.run_pipeline(program.graph)
    executable = Executable(program.graph)
    elapsed = time.perf_counter() - start
    STATS["compiles"] += 1
    STATS["last_compile_s"] = elapsed
    return CompiledGraph(program, executable, elapsed, frozen)


def _carry_number_attributes(program, fn, args, kwargs, name):
    """``fn`` assigned number attributes (``self.calls += 1``): compile it again with them carried through the
    graph, so that the assignment happens at every call (MindSpore's JIT fallback), not once at compile time.
    Where they can not be carried (used as a Python int: ``range(self.n)``), the first program stays, guarded
    by the values it was compiled with: it makes the assignment at each call, and a call that finds other
    values compiles again (with a warning, once per function)."""
    writes = program.number_writes
    after = [(obj, attr, getattr(obj, attr)) for obj, attr, _ in writes]
    for obj, attr, before in writes:        # undo the compile-time assignments: the graph makes them now
        object.__setattr__(obj, attr, before)
    try:
        return specialize(fn, args, kwargs, name=name, state=[(obj, attr) for obj, attr, _ in writes])
    except Exception as exc:   # noqa: BLE001 - any failure: guard the first program instead
        for obj, attr, value in after:
            object.__setattr__(obj, attr, value)
        program.guards = tuple((obj, attr, before, value) for (obj, attr, before), (_, _, value)
                               in zip(writes, after))
        if name not in _WARNED_GUARDS:
            _WARNED_GUARDS.add(name)
            names = ", ".join(f"'{type(obj).__name__}.{attr}'" for obj, attr, _ in writes)
            warnings.warn(f"In graph mode, '{name}' assigns {names}, which it also uses as a Python value "
                          f"({type(exc).__name__}: {exc}): it is compiled again at each call that finds another "
                          f"value there.", RuntimeWarning, stacklevel=4)
        return program


_WARNED_GUARDS = set()


def _name_of(fn):
    cell = getattr(fn, "__self__", None)
    if cell is not None and hasattr(cell, "_cells"):
        return f"{type(cell).__name__}_construct"
    return getattr(fn, "__name__", "graph").replace("<", "").replace(">", "")


class _PythonFallback:
    """The cache entry of a signature that runs as Python (see :func:`compiled_entry`)."""

    program = None

    @staticmethod
    def stale():
        return False


PYTHON_FALLBACK = _PythonFallback()
_WARNED_FALLBACK = set()


def compiled_entry(cache, fn, args, kwargs=None, extra_key=(), name=None, freeze_weights=False, fallback=False):
    """The :class:`CompiledGraph` that runs ``fn(*args, **kwargs)``, compiled on a new signature.

    With ``fallback``, a function that needs a value it computes as a Python value (``int(x)``, ``x.asnumpy()``,
    ``self.attr = x + 1``: :class:`~mindspore._errors.NeedsPython`) gets :data:`PYTHON_FALLBACK`: the caller runs
    it as Python, which is what MindSpore's JIT fallback does for such code (it runs it at run time). JIT strict
    mode keeps the error."""
    key = (signature(args, kwargs), extra_key, _backend.current().generation, _EPOCH[0], freeze_weights)
    entry = cache.get(key)
    if entry is None or entry.stale():
        try:
            entry = compile_callable(fn, args, kwargs, name, freeze_weights)
        except NeedsPython as exc:
            import mindspore.context as context
            if not fallback or context._ctx["jit_syntax_level"] == context.STRICT:
                raise
            entry = PYTHON_FALLBACK
            name = name or _name_of(fn)
            once = _code_of(fn) or name
            if once not in _WARNED_FALLBACK:
                _WARNED_FALLBACK.add(once)
                warnings.warn(f"In graph mode, '{name}' uses a value it computes as a Python value; "
                              f"it runs as Python (JIT fallback) for these inputs: {str(exc).splitlines()[0]}",
                              RuntimeWarning, stacklevel=4)
        cache[key] = entry
    else:
        STATS["hits"] += 1
    return entry


def _code_of(fn):
    """The code object of the user's function behind ``fn`` (a Cell's construct for its call): warn once each."""
    owner = getattr(fn, "__self__", None)
    if owner is not None and hasattr(owner, "_cells"):
        fn = getattr(type(owner), "construct", fn)
    return getattr(getattr(fn, "__func__", fn), "__code__", None)


def compiled_call(cache, fn, args, kwargs=None, extra_key=(), name=None, freeze_weights=False):
    """Run ``fn(*args, **kwargs)`` compiled, compiling on a new signature (or as Python: JIT fallback)."""
    entry = compiled_entry(cache, fn, args, kwargs, extra_key, name, freeze_weights, fallback=True)
    if entry is PYTHON_FALLBACK:
        return fn(*args, **(kwargs or {}))
    return entry.run(args, kwargs)


def generation():
    """What every compile-cache key holds besides the arguments: the backend's generation and the
    :func:`invalidate_all` epoch. A caller that keeps an entry across calls reuses it while this is unchanged
    and the entry is not stale."""
    return _backend.current().generation, _EPOCH[0]
