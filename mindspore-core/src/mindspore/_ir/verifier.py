"""The IR verifier: the invariants every pass must keep (run after every pass in the test suite).

For each graph reachable from the root:

* every apply in ``nodes`` belongs to the graph, appears once, and uses only constants, the
  graph's own parameters and applies listed *before* it (program order is a topological order);
* closures (``parent`` set) may also use nodes of enclosing graphs; closed graphs (typed ones, all
  graphs after inference) may not;
* the output is defined; in a typed graph every parameter and apply has an abstract value;
* ``If`` branches take the same number of parameters as the arguments passed.
"""
from __future__ import annotations

from mindspore._errors import InternalError
from mindspore._ir import ops as irops
from mindspore._ir.nodes import Apply, Constant, Graph, graphs_of

__all__ = ["verify", "VerifyError"]


class VerifyError(InternalError):
    """The IR broke an invariant: a bug in the pass that produced it."""


def _ancestors(g):
    out = set()
    p = g.parent
    while p is not None:
        out.add(p)
        p = p.parent
    return out


def _check_graph(g, typed, defined_by_graph):
    own = set()
    for p in g.params:
        if p.graph is not g:
            raise VerifyError(f"@{g.name}: parameter {p.name} belongs to @{getattr(p.graph, 'name', None)}")
        own.add(p)
        if typed and p.abstract is None:
            raise VerifyError(f"@{g.name}: parameter {p.name} has no abstract value")
    ancestors = _ancestors(g)
    seen = set()
    for node in g.nodes:
        if not isinstance(node, Apply):
            raise VerifyError(f"@{g.name}: {node!r} in nodes is not an Apply")
        if node.graph is not g:
            raise VerifyError(f"@{g.name}: {node!r} belongs to @{getattr(node.graph, 'name', None)}")
        if node in seen:
            raise VerifyError(f"@{g.name}: {node!r} appears twice")
        if not node.inputs:
            raise VerifyError(f"@{g.name}: an apply has no callee")
        for x in node.inputs:
            _check_use(g, node, x, own, seen, ancestors, defined_by_graph)
        if typed and node.abstract is None:
            raise VerifyError(f"@{g.name}: {node!r} has no abstract value")
        fn = node.fn_value()
        if fn is irops.If:
            _check_if(g, node)
        seen.add(node)
    if g.output is None:
        raise VerifyError(f"@{g.name} has no output")
    _check_use(g, None, g.output, own, seen, ancestors, defined_by_graph)
    defined_by_graph[g] = seen | own


def _check_use(g, user, x, own, seen, ancestors, defined_by_graph):
    if isinstance(x, Constant):
        return
    if x in own or x in seen:
        return
    owner = x.graph
    if owner in ancestors:
        if owner in defined_by_graph and x not in defined_by_graph[owner]:
            raise VerifyError(f"@{g.name}: free variable {x!r} is not defined in @{owner.name}")
        return
    where = f"{user!r}" if user is not None else "the output"
    if owner is g:
        raise VerifyError(f"@{g.name}: {where} uses {x!r} before it is defined (or it is not in nodes)")
    raise VerifyError(f"@{g.name}: {where} uses {x!r} of @{getattr(owner, 'name', None)}, which is not an "
                      f"enclosing graph")


def _check_if(g, node):
    branches = node.inputs[2:4]
    n_args = len(node.inputs) - 4
    for b in branches:
        if not isinstance(b, Constant) or not isinstance(b.value, Graph):
            raise VerifyError(f"@{g.name}: an If branch is not a graph constant")
        if len(b.value.params) != n_args:
            raise VerifyError(f"@{g.name}: If branch @{b.value.name} takes {len(b.value.params)} parameters, "
                              f"but {n_args} arguments are passed")


def verify(root, typed=None):
    """Check ``root`` and every graph it reaches; raises :class:`VerifyError`. Returns ``root``."""
    graphs = graphs_of(root)
    defined = {}
    # parents first, so closures can check their free variables against what the parent defines
    for g in sorted(graphs, key=lambda x: len(_ancestors(x))):
        is_typed = g.flags.get("typed", False) if typed is None else typed
        if is_typed and g.parent is not None:
            raise VerifyError(f"@{g.name}: a typed graph must be closed, but it is a closure of @{g.parent.name}")
        _check_graph(g, is_typed, defined)
    return root

