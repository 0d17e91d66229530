"""Algebraic simplification: rewrites that make a value available without computing it.

* ``tuple_getitem(make_tuple(a, b, ...), i)`` -> the i-th item;
* ``Reshape`` to the input's own shape, ``Cast`` to its own dtype, ``Depend(x, y)`` and
  ``StopGradient(x)`` (gradients are already expanded) -> ``x``;
* ``x * 1``, ``x / 1``, ``x + 0``, ``x - 0`` (a scalar or all-equal constant) -> ``x`` when the
  result has ``x``'s shape and dtype;
* ``ZerosLike``/``OnesLike`` of a static shape -> a constant;
* the copy a gradient makes of a value its forward writes in place (``graph_grad``'s ``Load``) -> the value,
  once the write is gone (``unread_writes``).

Each rewrite only redirects uses: the apply it makes dead is left to ``dce``. In a graph with in-place
writes (``Assign``, optimizer updates), a value is never replaced by a graph input or Parameter: reading
``w * 1`` copies ``w`` as it is at that point, and that copy must survive a later write to ``w``.
"""
from __future__ import annotations

import numpy as np

from mindspore._infer.abstract import AbstractTensor
from mindspore._ir import ops as irops
from mindspore._ir.nodes import Constant, Parameter
from mindspore._pipeline._util import each_graph, is_effectful_apply, is_written, prim_of, substitute, written_values
from mindspore.common.tensor import Tensor

__all__ = ["run"]

_IDENTITY_WHEN_SAME = {"Reshape", "Cast", "Depend", "StopGradient", "ExpandDims", "Squeeze", "BroadcastTo"}
_NEUTRAL = {"Mul": (1, "either"), "Div": (1, "right"), "RealDiv": (1, "right"), "Add": (0, "either"),
            "AddV2": (0, "either"), "Sub": (0, "right")}


def _const_scalar(x):
    if not isinstance(x, Constant):
        return None
    v = x.value
    if isinstance(v, (bool, int, float)):
        return v
    if isinstance(v, Tensor) and v.size >= 1:
        arr = v.asnumpy()
        first = arr.reshape(-1)[0]
        if np.all(arr == first):
            return first.item()
    return None


def _same(node, x, writes):
    """``x`` can stand for ``node``: same abstract value, and no in-place write in the graph could change
    ``x`` (a graph input or Parameter, or a value written in place) after ``node`` read it."""
    if writes and (isinstance(x, Parameter) or is_written(x, writes)):
        return False
    return isinstance(x.abstract, AbstractTensor) and x.abstract == node.abstract


def _rewrite(node, writes):
    fn = node.fn_value()
    args = node.inputs[1:]
    if fn is irops.tuple_getitem:
        src = args[0]
        if src.__class__.__name__ == "Apply" and src.fn_value() is irops.make_tuple:
            return src.inputs[1 + args[1].value]
        return None
    prim = prim_of(node)
    if prim is None:
        return None
    name = type(prim).__name__
    if name in ("Depend", "StopGradient"):
        return args[0]
    if name in _IDENTITY_WHEN_SAME and args and _same(node, args[0], writes):
        return args[0]
    if name == "Identity" and getattr(node, "debug", None) == "Load" and _same(node, args[0], writes):
        return args[0]      # a gradient's copy of a value read before an in-place write that is gone
    if name in _NEUTRAL and len(args) == 2:
        value, side = _NEUTRAL[name]
        for keep, other, allowed in ((args[0], args[1], True), (args[1], args[0], side == "either")):
            if allowed and _const_scalar(other) == value and _same(node, keep, writes):
                return keep
    if (name in ("ZerosLike", "OnesLike") and isinstance(node.abstract, AbstractTensor)
            and -1 not in node.abstract.shape):
        ab = node.abstract
        arr = (np.zeros if name == "ZerosLike" else np.ones)(ab.shape, dtype=ab.dtype.to_numpy())
        from mindspore._runtime import backend
        c = Constant(Tensor._make(backend.from_host(arr), ab.dtype))
        c.abstract = ab
        return c
    return None


def _simplify_graph(g):
    subst = {}
    writes = written_values(g) if any(is_effectful_apply(n) for n in g.nodes) else None
    for node in g.nodes:
        if subst:
            node.inputs = [subst.get(x, x) for x in node.inputs]
        new = _rewrite(node, writes)
        if new is not None:
            subst[node] = new
    substitute(g, subst)
    return bool(subst)


def run(root):
    return each_graph(root, _simplify_graph)
