"""PYNATIVE backward passes that repeat run compiled, as one graph.

A PYNATIVE training step records the same primitives on its tape at every step; walking that tape runs one bprop
after another, each of its primitives dispatched on its own (on a GPU: a kernel launch each, and the host's time per
launch decides a small network's step). MindSpore's PyNative mode compiles the backward graph of a forward it has
seen before; so does this module.

:func:`backward` (called by ``grad``/``value_and_grad``/``GradOperation``/``TrainOneStepCell`` in PYNATIVE, in place
of :func:`mindspore._autodiff.tape.backward`) describes the tape as a :class:`_Template`: the nodes' primitives (by
identity), the constants they were given, and every tensor as a slot of one flat argument list (the watched inputs and
weights, the nodes' inputs and outputs, the seeds) with its shape and dtype, so two steps of one network on batches
of one shape have equal templates. The first :data:`REPEATS` times a template is seen for a differentiated function
(the Cell or the function given to ``grad``: what the compiled walks are kept with, and dropped with) the tape is
walked as before; from then on the walk is compiled, once per template (a shape seen once, such as one length of a
network fed sequences of varying length, is never compiled), through the same pipeline as GRAPH_MODE: :class:`_Walk`
performs the tape's walk (the same bprops, the same accumulation, summed to each input's shape and cast to its dtype)
on the staged tensors of those slots, so the graph holds every bprop's primitives, and the backend runs it as any
compiled graph (the CPU backend's fused kernels; the GPU backend's fused elementwise kernels, and from its third run
one CUDA graph: its inputs copied in and its gradients copied out in a few launches, where the tape launched every
kernel).

The tape is walked as before (and nothing is compiled) when the walk could differ: tensor hooks registered
(``Tensor.register_hook``), saved-tensor hooks, a final-gradient callback (data-parallel reduction), a watched tensor
updated in place, an outer tape (gradients of gradients), a primitive that is not one of the operator registry's
(a Cell's own ``bprop``, a ``@jit`` call, ``recompute``, a user's own ``Primitive`` subclass: its bprop would run
once, when compiled), or one whose bprop calls back into Python or has effects (``ops.Custom``, ``HookBackward``,
``InsertGradientOf``, dumps, summaries, collectives). A template whose walk fails to compile
(a bprop that can not be staged) is walked on the tape from then on. ``MS_PYNATIVE_COMPILED_BACKWARD=0`` walks
every tape.
"""
from __future__ import annotations

import os
import threading
import weakref

import numpy as np

from mindspore._autodiff import tape as _tape
from mindspore._core import interpreters as _interpreters
from mindspore._core.primitive import Primitive, hook_suspended
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor

__all__ = ["backward", "STATS", "ENV", "REPEATS", "LIMIT", "reset"]

#: ``MS_PYNATIVE_COMPILED_BACKWARD=0``: every backward pass walks its tape.
ENV = "MS_PYNATIVE_COMPILED_BACKWARD"
#: Times a template is walked on the tape before its walk is compiled (a structure seen once is never compiled).
REPEATS = 2
#: Per differentiated function, the most templates with compiled walks kept (and templates counted, and failed); past
#: it the oldest are forgotten.
LIMIT = 16
#: Compiled: the primitives of the operator registry (defined in these modules' package) ...
_OPERATORS = "mindspore.ops._defs."
#: ... but those whose bprops call back into Python or have effects.
_EXCLUDED = frozenset({"mindspore.ops._defs.control_prims", "mindspore.ops._defs.custom", "mindspore.ops._defs.debug",
                       "mindspore.ops._defs.comm", "mindspore.ops._defs.summary"})
#: The largest NumPy array a template keys by its bytes (a larger one given to an operator: the tape is walked).
_ARRAY_BYTES = 4096
#: Backward passes walked on the tape / run compiled / compiled; templates whose compilation failed.
STATS = {"tape": 0, "compiled": 0, "compiles": 0, "failed": 0}

_lock = threading.Lock()


class _Templates:
    """What one differentiated function's backward passes were: per template key, the times walked on the tape
    (``seen``), the compiled walk and its compile cache (``compiled``), and the keys whose walk did not compile
    (``failed``). Kept with the function (the Cell or the Python function given to ``grad``) and dropped with it, so
    the compiled graphs, what they hold (the Parameters they read as weights, on a GPU a captured graph's buffers)
    and the keys of dead objects' ids go when the network does."""

    __slots__ = ("seen", "compiled", "failed")

    def __init__(self):
        self.seen, self.compiled, self.failed = {}, {}, set()


_OWNERS = weakref.WeakKeyDictionary()     # the differentiated function (or a bound method's object) -> _Templates


def _templates(fn):
    """The :class:`_Templates` of the differentiated ``fn``, or ``None`` when it can not be kept with it."""
    owner = getattr(fn, "__self__", None)
    if owner is None or getattr(fn, "__func__", None) is None:
        owner = fn
    try:
        found = _OWNERS.get(owner)
        if found is None:
            found = _OWNERS[owner] = _Templates()
    except TypeError:          # not weakly referable: not compiled
        return None
    return found


def reset():
    """Forget every template and compiled walk (and the counts)."""
    with _lock:
        _OWNERS.clear()
        for k in STATS:
            STATS[k] = 0


def _on():
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


class _NotCompilable(Exception):
    pass


def _const_key(v):
    """A constant argument in a template's key, by value: shapes, axes, dtypes, numbers, and lists, dicts and small
    NumPy arrays of them (an array changed in place between two steps is another key). A value known only by
    identity could change between steps unseen: such a tape is walked."""
    try:
        hash(v)
    except TypeError:
        if type(v) in (list, tuple):
            return (type(v), tuple(_const_key(e) for e in v))
        if type(v) is dict:
            return (dict, tuple(sorted((repr(k), _const_key(e)) for k, e in v.items())))
        if isinstance(v, np.ndarray) and v.nbytes <= _ARRAY_BYTES and v.dtype != object:
            return (np.ndarray, v.dtype.str, v.shape, v.tobytes())
        raise _NotCompilable(v) from None
    if isinstance(v, np.ndarray):       # (hashable only as a 0-d subclass; by value too)
        return (np.ndarray, v.dtype.str, v.shape, v.tobytes())
    return (type(v), v)


def _holds_tensor(x):
    if isinstance(x, Tensor):
        return True
    if type(x) in (tuple, list):
        return any(_holds_tensor(e) for e in x)
    if type(x) is dict:
        return any(_holds_tensor(e) for e in x.values())
    return False


def _constant(x):
    """``("c", x)``; a value holding a tensor deeper than a flat tuple's elements can not be a constant (its value
    changes from step to step): such a tape is walked."""
    if type(x) in (tuple, list, dict) and _holds_tensor(x):
        raise _NotCompilable(x)
    return ("c", x)


class _Template:
    """A tape's backward walk with its tensors as slots of one flat argument list (``flat``, the tensors of this
    step; ``key``, what two steps must share to share a compiled walk)."""

    __slots__ = ("key", "flat", "nodes", "seeds", "watched")

    def __init__(self, tape, outputs, sens):
        slots = {}
        flat = []
        weights = []

        def slot(t):
            s = slots.get(id(t))
            if s is None:
                s = slots[id(t)] = len(flat)
                flat.append(t)
                if isinstance(t, Parameter):
                    # the compiled graph reads a Parameter in place, as a weight, from the very Parameter it was
                    # compiled with (on a GPU: no copy into a captured graph): another Parameter is another template
                    weights.append((s, id(t)))
            return s

        def tensor(t):
            return ("t", slot(t), _tape.tracked(t, tape))

        self.watched = tuple(slot(t) for t in tape.watched)
        key = [self.watched]
        nodes = []
        for node in tape.nodes:
            prim = node.prim
            module = type(prim).__module__
            if not module.startswith(_OPERATORS) or module in _EXCLUDED or not isinstance(prim, Primitive):
                raise _NotCompilable(prim)
            spec, spec_key = [], []
            for x in node.inputs:
                if isinstance(x, Tensor):
                    spec.append(tensor(x))
                    spec_key.append(spec[-1])
                elif type(x) in (tuple, list) and any(isinstance(e, Tensor) for e in x):
                    items = tuple(tensor(e) if isinstance(e, Tensor) else _constant(e) for e in x)
                    spec.append(("s", type(x), items))
                    spec_key.append(("s", type(x), tuple(i if i[0] == "t" else ("c", _const_key(i[1])) for i in items)))
                else:
                    spec.append(_constant(x))
                    spec_key.append(("c", _const_key(x)))
            outs = tuple(slot(o) if isinstance(o, Tensor) else None for o in node.outputs)
            nodes.append((prim, tuple(spec), outs, node.multi))
            # (its attributes' version: an operator given another attribute since is compiled again)
            key.append((id(prim), prim.__dict__.get("_attr_version", 0), tuple(spec_key), outs, node.multi))
        seeds = []
        for o, s in zip(outputs, sens):
            if isinstance(o, Tensor) and _tape.tracked(o, tape):
                seeds.append((slot(o), ("t", slot(s)) if isinstance(s, Tensor) else ("c", s)))
        key.append(tuple((o, s if s[0] == "t" else ("c", _const_key(s[1]))) for o, s in seeds))
        key.append(tuple(weights))
        # and every slot's shape and dtype: a walk is compiled for shapes that repeat (a network fed a new shape at
        # every step, such as sequences of varying length, would otherwise compile at every step, and keep every
        # compiled graph)
        key.append(tuple((tuple(t.shape), t.dtype) for t in flat))
        self.key = tuple(key)
        self.flat = flat
        self.nodes = tuple(nodes)
        self.seeds = tuple(seeds)


class _Walk:
    """``(*flat) -> the gradients of the watched slots that get one``: the tape's walk over a template, run by the
    compiler on staged tensors. ``present`` is set by that run: which watched slots the outputs are."""

    def __init__(self, template):
        self.nodes, self.seeds, self.watched = template.nodes, template.seeds, template.watched
        self.present = None
        self.__name__ = "pynative_backward"

    def __call__(self, *flat):
        grads = {}

        def accumulate(s, g):
            if g is None:
                return
            like = flat[s]
            if not isinstance(g, Tensor) or g.shape != like.shape or g.dtype != like.dtype:
                g = _tape.sum_to(g, like)
            prev = grads.get(s)
            grads[s] = g if prev is None else _tape._add(prev, g)

        def value(entry):
            return flat[entry[1]] if entry[0] == "t" else entry[1]

        for o, s in self.seeds:
            accumulate(o, value(s))
        for prim, spec, outs, multi in reversed(self.nodes):
            douts = [grads.get(o) if o is not None else None for o in outs]
            if all(d is None for d in douts):
                continue
            if multi:
                out = tuple(flat[o] if o is not None else None for o in outs)
                dout = _tape.multi_cotangent(prim, douts, out)
            else:
                dout, out = douts[0], flat[outs[0]]
            args = [value(s) if s[0] != "s" else s[1](value(e) for e in s[2]) for s in spec]
            in_grads = prim.bprop(*args, out, dout)
            _tape.check_bprop_result(prim, in_grads)
            for s, g in zip(spec, in_grads):
                if g is None:
                    continue
                if s[0] == "t":
                    if s[2]:
                        accumulate(s[1], g)
                elif s[0] == "s":
                    for e, ge in zip(s[2], g):
                        if e[0] == "t" and e[2]:
                            accumulate(e[1], ge)
        present = tuple(dict.fromkeys(w for w in self.watched if w in grads))
        self.present = present
        return tuple(grads[w] for w in present)


def _walk_on_tape(tape, outputs, sens):
    STATS["tape"] += 1
    return _tape.backward(tape, outputs, sens)


class _Compiled:
    """A template's compiled walk: the :class:`_Walk`, its compiled graph, and the compiler's generation it was
    compiled in (:func:`mindspore._pipeline.compiler.generation`: another backend, or every graph made stale)."""

    __slots__ = ("walk", "graph", "generation")

    def __init__(self, walk):
        self.walk, self.graph, self.generation = walk, None, None


def backward(tape, outputs, sens, fn=None):
    """The gradients of ``outputs`` (weighted by ``sens``) w.r.t. the tensors ``tape`` watches, as
    :func:`mindspore._autodiff.tape.backward` gives them (``id(tensor) -> gradient``, only for watched tensors when
    compiled); compiled when the tape's template (its structure and shapes) was walked :data:`REPEATS` times before
    for the differentiated function ``fn`` (``None``: never compiled)."""
    if not _on():
        return _tape.backward(tape, outputs, sens)
    if fn is None or not tape.nodes or tape.aliases or _tape._HOOKS or _tape._FINAL or _tape.SAVED_TENSORS_HOOKS \
            or len(_tape.active()) > 1:
        return _walk_on_tape(tape, outputs, sens)
    templates = _templates(fn)
    if templates is None:
        return _walk_on_tape(tape, outputs, sens)
    try:
        template = _Template(tape, outputs, sens)
    except _NotCompilable:
        return _walk_on_tape(tape, outputs, sens)
    key = template.key
    with _lock:
        compiled = templates.compiled
        found = compiled.pop(key, None)
        if found is None:
            seen = templates.seen.pop(key, 0) + 1
            if key in templates.failed or seen <= REPEATS:
                templates.seen[key] = seen
                if len(templates.seen) > LIMIT:
                    del templates.seen[next(iter(templates.seen))]
            else:
                found = _Compiled(_Walk(template))
        if found is not None:
            compiled[key] = found           # (the most recently used last: past LIMIT, the least recently used go)
            if len(compiled) > LIMIT:
                del compiled[next(iter(compiled))]
    if found is None:
        return _walk_on_tape(tape, outputs, sens)
    from mindspore._pipeline import compiler
    flat = tuple(template.flat)
    try:
        generation = compiler.generation()
        graph = found.graph
        if graph is None or found.generation != generation or graph.stale():
            with _interpreters.suspended(tape), hook_suspended():
                graph = compiler.compile_callable(found.walk, flat, None, name="pynative_backward")
            found.graph, found.generation = graph, generation
            STATS["compiles"] += 1
        with _interpreters.suspended(tape), hook_suspended():
            result = graph.run(flat, None)
    except Exception:  # noqa: BLE001 - a bprop that can not be staged: this template is walked on the tape
        with _lock:
            templates.compiled.pop(key, None)
            if len(templates.failed) >= LIMIT:
                templates.failed.clear()
            templates.failed.add(key)
        STATS["failed"] += 1
        return _walk_on_tape(tape, outputs, sens)
    STATS["compiled"] += 1
    return {id(flat[w]): g for w, g in zip(found.walk.present, result if isinstance(result, tuple) else (result,))}
