"""The compile pipeline: one ordered list of named passes over a typed graph (and every graph it uses).

Order and why:

1. ``inline`` - calls of graphs (and ``If`` on a constant condition) are replaced by the callee's
   body, so every later pass sees one flat graph where possible;
   ``unread_writes`` - an in-place write (``x += y`` in graph mode) into a value the graph computed
   that nothing reads afterwards is dropped;
2. ``constant_fold`` - pure primitives whose inputs are all constants are computed now;
3. ``simplify`` - algebraic identities (``x*1``, ``x+0``, reshape/cast to the same type, tuple
   get-of-make, ``ZerosLike``/``OnesLike``/``Fill`` of static shape become constants);
4. ``cse`` - equal pure applies on equal inputs are computed once (reads of a Parameter are not
   merged across an in-place write to it);
5. ``dce`` - applies whose values are not used and that have no side effect are dropped;
   ``fold_batchnorm`` - in a graph whose weights were frozen into constants (an inference entry point,
   :mod:`.freeze`), an inference BatchNorm after a convolution becomes the convolution's weights and a
   bias-add (after ``dce``: the BatchNorm's unread outputs are gone);
6. backend passes - registered by backend plugins through ``ms_register_passes`` (the CPU backend
   fuses elementwise chains and bias-add + activation), then ``dce`` again;
7. ``memory_plan`` - liveness and in-place reuse of dead buffers by fused elementwise kernels.

Every pass keeps the IR's invariants (:func:`mindspore._ir.verify`, run after each pass when
``VERIFY`` is set: the test suite sets it); ``set_context(save_graphs=True, save_graphs_path=...)``
writes the IR text after inference and after each pass.
"""
from __future__ import annotations

import os

import mindspore._generation as _generation
import mindspore.context as context
from mindspore._ir.printer import print_module
from mindspore._ir.verifier import verify
from mindspore._plugin import manager
from mindspore._plugin.registry import PassRegistry
from mindspore._runtime import backend

_GEN = _generation.GENERATION

__all__ = ["PASSES", "run_pipeline", "VERIFY", "pass_names", "backend_passes"]

#: Run the IR verifier after every pass (the test suite turns this on).
VERIFY = bool(os.environ.get("MS_VERIFY_IR"))


def _builtin_passes():
    from mindspore._pipeline import cse, dce, fold, fold_batchnorm, inline, memory, simplify, unread_writes
    return [
        ("inline", inline.run),
        ("unread_writes", unread_writes.run),
        ("constant_fold", fold.run),
        ("simplify", simplify.run),
        ("cse", cse.run),
        ("dce", dce.run),
        ("fold_batchnorm", fold_batchnorm.run),
        ("backend", _run_backend_passes),
        ("dce_after_backend", dce.run),
        ("memory_plan", memory.run),
    ]


_PASSES = None


def PASSES():  # noqa: N802 - reads as the constant it stands for
    """The ordered (name, function) list."""
    global _PASSES
    if _PASSES is None:
        _PASSES = _builtin_passes()
    return _PASSES


def pass_names():
    return [n for n, _ in PASSES()]


_BACKEND = [None, None]   # [plugin generation, [(name, fn, target)]]


def backend_passes():
    """The passes registered by plugins, as (name, fn, target) (collected again when plugins change)."""
    if _BACKEND[0] != _GEN[0]:
        gen = _GEN[0]
        registry = PassRegistry()
        for rec, fn in manager.hookimpls("ms_register_passes"):
            try:
                fn(registry=registry.for_plugin(rec.name))
            except manager.ISOLATED as exc:  # isolation: the plugin is reported failed
                rec.fail("failed", exc, "ms_register_passes failed")
        _BACKEND[:] = [gen, [(name, fn, target) for _, name, fn, target in registry.passes]]
    return _BACKEND[1]


def _run_backend_passes(graph):
    target = backend.current().target
    changed = False
    for name, fn, t in backend_passes():
        if t is None or t == target:
            changed |= bool(fn(graph))
            if VERIFY:
                verify(graph)
    return changed


def run_pipeline(graph, upto=None, save_dir=None):
    """Run the passes in order (through ``upto`` inclusive, when given) on ``graph``; returns it."""
    save_dir = save_dir if save_dir is not None else _save_dir()
    # the end of grad expansion: a gradient's forward that a call of the same Cell computes is that call's
    from mindspore._pipeline import forward_reuse
    forward_reuse.run(graph)
    if VERIFY:
        verify(graph)
    if save_dir:
        _dump(save_dir, graph, 0, "infer")
    for i, (name, fn) in enumerate(PASSES(), start=1):
        fn(graph)
        if VERIFY:
            verify(graph)
        if save_dir:
            _dump(save_dir, graph, i, name)
        if name == upto:
            break
    return graph


def _save_dir():
    if not context.get_context("save_graphs"):
        return None
    return context.get_context("save_graphs_path") or "."


def _dump(directory, graph, index, name):
    os.makedirs(directory, exist_ok=True)
    stem = "".join(c if c.isalnum() or c in "_-." else "_" for c in str(graph.name))[:80]   # no path separators
    path = os.path.join(directory, f"{stem}_{index:02d}_{name}.ir")
    with open(path, "w", encoding="utf-8") as f:
        f.write(print_module(graph))
