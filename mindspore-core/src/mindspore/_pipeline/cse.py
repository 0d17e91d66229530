"""Common-subexpression elimination: equal pure applies on the same inputs are computed once.

Two applies are equal when they call primitives of the same class with equal attributes (or the same
IR op) on the same input nodes. Effectful applies are never merged; an apply reading a Parameter
(a ``weight`` input, written in place by ``Assign`` and the optimizers) is keyed by the number of
effects before it, so a read after a write is never replaced by the read before it.
"""
from __future__ import annotations

from mindspore._ir import ops as irops
from mindspore._ir.nodes import Constant, Parameter
from mindspore._pipeline._util import each_graph, is_effectful_apply, is_written, prim_of, substitute, written_values
from mindspore.common.tensor import Tensor

__all__ = ["run"]

_NEVER = (irops.If, irops.While, irops.while_stack, irops.while_grad, irops.raise_runtime)


def _freeze(v):
    if isinstance(v, Tensor):
        return ("tensor", id(v))
    if isinstance(v, (list, tuple)):
        return (type(v), tuple(_freeze(x) for x in v))
    if isinstance(v, dict):
        return (dict, tuple((k, _freeze(x)) for k, x in v.items()))
    try:
        hash(v)
    except TypeError:
        return ("id", id(v))
    return (type(v), v)


def _callee_key(node):
    prim = prim_of(node)
    if prim is not None:
        return (type(prim), tuple(sorted((k, _freeze(v)) for k, v in prim.attrs.items())), prim.name)
    f = node.inputs[0]
    return ("const", _freeze(f.value)) if isinstance(f, Constant) else ("node", id(f))


def _input_key(x):
    if isinstance(x, Constant):
        return ("c", _freeze(x.value))
    return ("n", id(x))


def _cse_graph(g):
    table = {}
    subst = {}
    keep = []
    epoch = 0
    written = written_values(g)
    for node in g.nodes:
        if subst:
            node.inputs = [subst.get(x, x) for x in node.inputs]
        if node.fn_value() in _NEVER or is_effectful_apply(node) or getattr(prim_of(node), "kernel", None):
            epoch += 1
            keep.append(node)
            continue
        reads_weight = any((isinstance(x, Parameter) and x.weight is not None) or is_written(x, written)
                           for x in node.inputs)
        key = (_callee_key(node), tuple(_input_key(x) for x in node.inputs[1:]), epoch if reads_weight else -1)
        try:
            prev = table.get(key)
        except TypeError:
            keep.append(node)
            continue
        if prev is not None:
            subst[node] = prev
            continue
        table[key] = node
        keep.append(node)
    g.nodes = keep
    substitute(g, subst)
    return bool(subst)


def run(root):
    return each_graph(root, _cse_graph)
