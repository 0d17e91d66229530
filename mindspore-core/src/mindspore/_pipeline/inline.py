"""Inlining: a call of a graph (or an ``If`` whose condition is a constant) becomes the callee's body.

The callee's applies are cloned, in order, at the call's position (program order is kept: the
callee's side effects happen where the call was); its parameters are replaced by the arguments,
and uses of the call by the clone of the callee's output. Typed graphs are never recursive (loops
are ``While`` applies), so repeating until no call is left terminates.
"""
from __future__ import annotations

from mindspore._ir import ops as irops
from mindspore._ir.nodes import Apply, Constant, Graph
from mindspore._pipeline._util import each_graph, substitute

__all__ = ["run", "inline_graph"]


def _callee(node, keep_custom=False, keep_composite=False):
    f = node.inputs[0]
    if not isinstance(f, Constant):
        return None, None
    v = f.value
    if isinstance(v, Graph):
        return v, node.inputs[1:]
    if isinstance(v, irops.CustomCall) and not keep_custom:
        return v.graph, node.inputs[1:]
    if isinstance(v, irops.Composite) and not keep_composite:
        return v.graph, node.inputs[1:]
    if v is irops.If and isinstance(node.inputs[1], Constant):
        cond = node.inputs[1].value
        branch = node.inputs[2] if bool(cond) else node.inputs[3]
        return branch.value, node.inputs[4:]
    return None, None


def clone_into(graph, callee, args, loc=None):
    """Clones of ``callee``'s applies for ``graph`` (not yet placed) and the node of its output."""
    mapping = dict(zip(callee.params, args))
    new_nodes = []
    for n in callee.nodes:
        c = Apply(graph, [mapping.get(x, x) for x in n.inputs], n.loc if n.loc is not None else loc)
        c.abstract = n.abstract
        c.debug = n.debug
        mapping[n] = c
        new_nodes.append(c)
    return new_nodes, mapping.get(callee.output, callee.output)


def inline_graph(graph, keep_custom=False, keep_composite=False):
    """Inline every call in ``graph``; ``keep_custom`` keeps calls with a user bprop (before autodiff),
    ``keep_composite`` the calls export's capture keeps whole (:class:`~mindspore._ir.ops.Composite`)."""
    changed = False
    while True:
        out, subst, again = [], {}, False
        for node in graph.nodes:
            if subst:
                node.inputs = [subst.get(x, x) for x in node.inputs]
            callee, args = _callee(node, keep_custom, keep_composite)
            if callee is None:
                out.append(node)
                continue
            new_nodes, result = clone_into(graph, callee, args, node.loc)
            out.extend(new_nodes)
            subst[node] = result
            again = True
        graph.nodes = out
        substitute(graph, subst)
        changed |= again
        if not again:
            return changed


def run(root):
    return each_graph(root, inline_graph)
