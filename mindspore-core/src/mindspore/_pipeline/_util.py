"""Small helpers the passes share: substituting values, cloning applies, effect queries."""
from __future__ import annotations

import weakref

from mindspore._ir import ops as irops
from mindspore._ir.nodes import Apply, Constant, Graph, graphs_of
from mindspore._core.primitive import Primitive

__all__ = ["substitute", "graphs", "each_graph", "is_effectful_apply", "prim_of", "written_values", "is_written"]


def graphs(root):
    return graphs_of(root)


def each_graph(root, fn):
    """Apply ``fn(graph) -> changed`` to ``root`` and every graph it reaches; whether any changed."""
    changed = False
    for g in graphs_of(root):
        changed |= bool(fn(g))
    return changed


def substitute(graph, mapping):
    """Replace every use of a key of ``mapping`` (inputs and output) by its value, transitively."""
    if not mapping:
        return

    def final(x):
        seen = 0
        while x in mapping:
            x = mapping[x]
            seen += 1
            if seen > 10000:
                raise RuntimeError("cyclic substitution")
        return x
    for node in graph.nodes:
        inputs = node.inputs
        for i, x in enumerate(inputs):
            if x in mapping:
                inputs[i] = final(x)
    if graph.output in mapping:
        graph.output = final(graph.output)


def prim_of(node):
    if isinstance(node, Apply):
        f = node.inputs[0]
        if isinstance(f, Constant) and isinstance(f.value, Primitive):
            return f.value
    return None


_EFFECT_CACHE = weakref.WeakKeyDictionary()


def graph_has_effects(g, _stack=None):
    cached = _EFFECT_CACHE.get(g)
    if cached is not None and cached[0] == len(g.nodes):
        return cached[1]
    stack = _stack or set()
    if g in stack:
        return True
    stack.add(g)
    result = any(is_effectful_apply(n, stack) for n in g.nodes)
    stack.discard(g)
    _EFFECT_CACHE[g] = (len(g.nodes), result)
    return result


def is_effectful_apply(node, _stack=None):
    """Whether an apply must run even when its value is unused, and must not be merged or reordered."""
    from mindspore._infer.staging import is_effectful
    f = node.inputs[0]
    if not isinstance(f, Constant):
        return True
    v = f.value
    if isinstance(v, Primitive):
        return is_effectful(v)
    if v is irops.If:
        return any(graph_has_effects(b.value, _stack) for b in node.inputs[2:4])
    if v in (irops.While, irops.while_stack):
        return any(graph_has_effects(b.value, _stack) for b in node.inputs[1:3])
    if isinstance(v, irops.IROp):
        return not v.pure
    if isinstance(v, Graph):
        return graph_has_effects(v, _stack)
    if isinstance(v, irops.CustomCall):
        return graph_has_effects(v.graph, _stack)
    return True


def written_values(g):
    """What the applies of ``g`` write in place (the inputs at a primitive's ``written_inputs``): (the nodes, the
    ids of the constant tensors). A graph input or computed value written so (``x += 1`` in graph mode, ops.assign)
    must not be read through a copy made before the write, nor a constant tensor (an attribute updated by ``+=``)
    be read at compile time."""
    nodes, constants = set(), set()
    for node in g.nodes:
        prim = prim_of(node)
        for i in getattr(prim, "written_inputs", ()) if prim is not None else ():
            if i + 1 < len(node.inputs):
                x = node.inputs[i + 1]
                if isinstance(x, Constant):
                    constants.add(id(x.value))
                else:
                    nodes.add(x)
    return nodes, constants


def is_written(x, written):
    """Whether node ``x`` is one ``written`` (:func:`written_values`) says is written in place."""
    nodes, constants = written
    if isinstance(x, Constant):
        return bool(constants) and id(x.value) in constants
    return x in nodes
