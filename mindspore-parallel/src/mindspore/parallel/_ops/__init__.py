"""Distributed operator rules, one module per operator family.

A rule ``rule(prim, args, strategy) -> output`` runs one application of a sharded primitive on this rank:
it checks the strategy against the inputs (MindSpore's messages), moves each input to the layout the strategy
asks for (:class:`~mindspore.parallel._ops._plan.Plan`), applies the primitive to the local blocks, completes
partial results with collectives, and records the output's layout. Rules are made of primitive applications
only, so PYNATIVE tapes and GRAPH_MODE staging differentiate through them.
"""
from mindspore.plugin import MSValueError
from mindspore.parallel._ops import elementwise, gather, matmul, norm, reduce, shape, softmax

#: primitive name -> rule; the families register their primitives' names here explicitly
RULES = {}
for _family in (matmul, elementwise, softmax, norm, reduce, gather, shape):
    RULES.update(_family.RULES)


def rule_for(prim):
    rule = RULES.get(prim.name)
    if rule is None:
        raise MSValueError(f"For '{prim.name}', a sharding strategy is set, but SEMI_AUTO_PARALLEL has no "
                           f"distributed rule for this operator; supported: {sorted(RULES)}.")
    return rule


def propagate(prim, args):
    """An operator without strategy on laid-out inputs, run block by block when the layouts allow it without
    communication (sharding propagation of the layout-keeping operators); None when they do not."""
    from mindspore.common.tensor import Tensor
    from mindspore.parallel._layouts import layout_of, set_layout
    first = args[0] if args else None
    layout = layout_of(first) if isinstance(first, Tensor) else None
    if layout is None:
        return None
    name = prim.name
    if name == "Reshape":
        return shape.reshape_keep(prim, args)
    if name == "Transpose":
        return shape.transpose_keep(prim, args)
    if name == "StridedSlice" and prim.attrs.get("skip_redistribution"):
        return shape.micro_slice_keep(prim, args)
    if name == "LayerNorm":   # whole rows on each rank: normalise block by block (gamma/beta through mirrors)
        strategy = norm.layernorm_strategy(prim, [layout.splits(d) for d in range(len(layout.full_shape))],
                                           layout.full_shape)
        return None if strategy is None else norm.layernorm_rule(prim, args, strategy)
    if name in ("Softmax", "LogSoftmax"):
        axes = prim.attrs.get("axis", -1)
        axes = axes if isinstance(axes, (tuple, list)) else (axes,)
        if any(layout.splits(a % len(layout.full_shape)) != 1 for a in axes):
            return None
        return set_layout(prim(*args), layout)
    if name in elementwise.RULES:
        for a in args:
            if isinstance(a, Tensor) and layout_of(a) != layout and not (layout_of(a) is None and a.ndim == 0):
                return None
        return set_layout(prim(*args), layout)
    return None
