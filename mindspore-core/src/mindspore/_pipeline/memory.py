"""Memory planning: buffer lifetimes and in-place reuse.

* **Lifetimes**: the executor releases every value right after its last use (it computes the
  last uses from the same program order this pass sees), so a buffer's memory returns to the
  allocator as early as the schedule allows.
* **In-place reuse**: a primitive that declares ``reusable_inputs`` (input indices its kernel can
  write its output into, e.g. the CPU backend's fused elementwise kernels) gets ``reuse`` set to an
  input whose buffer dies at this apply and has the output's shape and dtype; graph inputs,
  Parameters and constants are never overwritten (they belong to the caller).
* **In-place parameter updates** need no planning: ``Assign``/``AssignAdd``/``AssignSub`` and the
  optimizer updates write into the Parameter's own buffer, which is a graph input read at each run.
"""
from __future__ import annotations

from mindspore._infer.abstract import AbstractTensor
from mindspore._ir.nodes import Apply
from mindspore._pipeline._util import each_graph, prim_of

__all__ = ["run", "last_uses"]


def last_uses(g):
    """value -> the apply that uses it last (in program order)."""
    last = {}
    for node in g.nodes:
        for x in node.inputs[1:]:
            last[x] = node
    if g.output is not None:
        last[g.output] = None
    return last


def _live_until(g):
    """value -> the apply that uses it last, counting the uses of every value that may be a view of it (a reshape
    of it, a tuple holding it, ...): its buffer is alive while any of them is. ``nn.Dense`` on a 3-D input reads a
    reshape of it; a backward reading that reshape after the value's last direct use needs its buffer intact."""
    last = last_uses(g)
    order = {n: i for i, n in enumerate(g.nodes)}
    end = len(order)
    for node in reversed(g.nodes):
        if node not in last or not _aliases_input(node):
            continue
        until = last[node]
        for x in node.inputs[1:]:
            if isinstance(x, Apply) and x in last:
                old = last[x]
                if until is None or (old is not None and order.get(until, end) > order.get(old, end)):
                    last[x] = until
    return last


def _plan_graph(g):
    last = _live_until(g)
    changed = False
    for node in g.nodes:
        prim = prim_of(node)
        candidates = getattr(prim, "reusable_inputs", None) if prim is not None else None
        if not candidates:
            continue
        choice = None
        for i in candidates:
            x = node.inputs[1 + i]
            if isinstance(x, Apply) and x.graph is g and last.get(x) is node and \
                    isinstance(x.abstract, AbstractTensor) and x.abstract == node.abstract and \
                    sum(1 for y in node.inputs[1:] if y is x) == 1 and not _aliases_input(x):
                choice = i
                break
        if getattr(prim, "reuse", None) != choice:
            if choice is None:
                prim.del_prim_attr("reuse")
                prim.reuse = None
            else:
                prim.add_prim_attr("reuse", choice)
            changed = True
    return changed


# primitives whose kernels always return a freshly allocated buffer (never a view of an input): only
# their values may be overwritten in place; anything else (reshapes and slices are views, Assign returns
# its Parameter) is left alone
_FRESH = frozenset({
    "MatMul", "BatchMatMul", "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "Conv3D", "BiasAdd",
    "Add", "Sub", "Mul", "RealDiv", "Div", "Neg", "Square", "Exp", "Tanh", "Sigmoid", "ReLU", "Maximum",
    "Minimum", "SparseSoftmaxCrossEntropyWithLogits", "SoftmaxCrossEntropyWithLogits", "Softmax", "LogSoftmax",
    "MaxPoolGrad", "AvgPoolGrad", "MaxPool", "AvgPool", "BiasAddGrad", "ReduceSum", "ReduceMean",
})


def _aliases_input(node):
    """Whether ``node``'s buffer may be a view of another value (then it is never overwritten)."""
    prim = prim_of(node)
    if prim is None:
        return True
    if getattr(prim, "kernel", None) is not None:       # a fused apply: fresh unless it writes into an input
        return getattr(prim, "into", None) is not None
    return type(prim).__name__ not in _FRESH


def run(root):
    return each_graph(root, _plan_graph)
