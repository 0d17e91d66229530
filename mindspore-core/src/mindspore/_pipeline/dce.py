"""Dead-code elimination: applies whose values nothing uses and that have no side effect go.

Side-effecting applies (in-place writes, prints, random draws, control flow containing them) are
roots like the output, so the program's effects survive in their original order.
"""
from __future__ import annotations

from mindspore._ir.nodes import Apply
from mindspore._pipeline._util import each_graph, is_effectful_apply

__all__ = ["run", "dce_graph"]


def dce_graph(g):
    live = set()
    work = [g.output]
    for node in g.nodes:
        if is_effectful_apply(node):
            work.append(node)
    while work:
        x = work.pop()
        if x in live or not isinstance(x, Apply) or x.graph is not g:
            continue
        live.add(x)
        work.extend(x.inputs)
    before = len(g.nodes)
    g.nodes = [n for n in g.nodes if n in live]
    return len(g.nodes) != before


def run(root):
    return each_graph(root, dce_graph)
