"""Constant folding: a pure primitive whose inputs are all constants is computed at compile time.

The value comes from the eager dispatcher (the same kernels), so folding can never change a
result. Random and side-effecting primitives are never folded; ``tuple_getitem`` of a constant
tuple folds too.
"""
from __future__ import annotations

from mindspore._infer.abstract import AbstractTensor
from mindspore._infer.staging import is_effectful
from mindspore._ir import ops as irops
from mindspore._ir.nodes import Constant
from mindspore._pipeline._util import each_graph, is_written, prim_of, substitute, written_values
from mindspore.common.tensor import Tensor

__all__ = ["run"]


def _const(value):
    c = Constant(value)
    if isinstance(value, Tensor):
        c.abstract = AbstractTensor(value.shape, value.dtype)
    return c


def _fold_graph(g):
    subst = {}
    keep = []
    written = written_values(g)     # a constant tensor written in place is read at each run
    for node in g.nodes:
        if subst:
            node.inputs = [subst.get(x, x) for x in node.inputs]
        args = node.inputs[1:]
        prim = prim_of(node)
        if prim is not None and not is_effectful(prim) and all(isinstance(a, Constant) for a in args) \
                and not getattr(prim, "no_fold", False) and not any(is_written(a, written) for a in args):
            subst[node] = _const(prim(*[a.value for a in args]))
            continue
        if node.fn_value() is irops.tuple_getitem and isinstance(args[0], Constant) \
                and isinstance(args[0].value, tuple):
            subst[node] = _const(args[0].value[args[1].value])
            continue
        keep.append(node)
    g.nodes = keep
    substitute(g, subst)
    return bool(subst)


def run(root):
    return each_graph(root, _fold_graph)
