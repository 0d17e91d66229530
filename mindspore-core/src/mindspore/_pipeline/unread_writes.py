"""Unread in-place writes: an ``Assign`` into a value the graph computed, that nothing reads afterwards, goes.

GRAPH_MODE runs ``x op= y`` on a tensor in place, as MindSpore 2.10 does (:func:`mindspore._infer.staging.
inplace_update`): ``Add(x, y)`` followed by ``Assign(x, new)``, so that every name for ``x`` sees the new value.
When ``x`` is a value of the run (not a graph input, Parameter or constant) and no apply reads it after the write
(in its own graph, and none in another graph), no name can see the write: the ``Assign`` is dropped, and its users
read ``new``. That is the common case (``out += identity`` in a residual block); left in, the copy would also keep
the elementwise chain around it from fusing.
"""
from __future__ import annotations

from mindspore._ir.nodes import Apply
from mindspore._pipeline._util import graphs, prim_of, substitute

__all__ = ["run"]


def _is_assign(node):
    prim = prim_of(node)
    return prim is not None and prim.name == "Assign" and len(node.inputs) == 3


def run(root):
    every = graphs(root)
    # where each value is read: (graph, position in its nodes; None for the graph's output)
    readers = {}
    for g in every:
        for i, node in enumerate(g.nodes):
            for x in node.inputs:
                readers.setdefault(x, []).append((g, i))
        readers.setdefault(g.output, []).append((g, None))
    changed = False
    for g in every:
        dropped = {}
        for i, node in enumerate(g.nodes):
            if not _is_assign(node):
                continue
            target, new = node.inputs[1], node.inputs[2]
            if not isinstance(target, Apply) or target.graph is not g:
                continue
            if any(rg is not g or at is None or (at > i and g.nodes[at] is not node) for rg, at in readers[target]):
                continue
            if any(rg is not g for rg, _ in readers.get(node, ())):
                continue
            dropped[node] = new
        if dropped:
            g.nodes = [n for n in g.nodes if n not in dropped]
            substitute(g, dropped)
            changed = True
    return changed
