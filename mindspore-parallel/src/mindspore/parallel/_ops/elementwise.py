"""Elementwise operators with broadcasting: every input is cut like the output dimensions it is aligned
with (from the right); a broadcast dimension (size 1) stays whole (a cut of it fails the divisibility check).
Unary activations take one input.

A :class:`~mindspore.parallel.Layout` strategy over the world's devices runs with its layouts as written: in
``Layout((2, 4), ("x", "y"))("None", ("y", "x"))`` the 8 blocks of dimension 1 are held y-major (rank ``4x + y``
holds block ``2y + x``), not in rank order as the cut counts ``(1, 8)`` would place them."""
import math

from mindspore.plugin import MSValueError
from mindspore.common.tensor import Tensor
from mindspore.parallel import _layouts
from mindspore.parallel._layouts import TensorLayout, set_layout
from mindspore.parallel._ops._plan import Plan, check_strategy, full_shape, to_layout


def _written_layouts(prim, shapes):
    """The inputs' layouts of a Layout strategy whose device matrix is the world's; None otherwise (the cut counts
    run as a tuple strategy)."""
    items = prim.attrs.get("in_layout")
    _, device_num = _layouts.world()
    if not items or len(items) != len(shapes) or any(
            item.get("interleaved_parallel") or math.prod(item["device_matrix"]) != device_num for item in items):
        return None
    return [TensorLayout(item["device_matrix"], item["tensor_map"], shape) for item, shape in zip(items, shapes)]


def _layout_rule(prim, args, layouts):
    """Each input moved to its written layout; the output is laid out like the inputs' aligned dimensions."""
    rank_n = max(len(l.full_shape) for l in layouts)
    out_axes, out_shape = [()] * rank_n, [1] * rank_n
    for i, layout in enumerate(layouts):
        off = rank_n - len(layout.full_shape)
        for d, size in enumerate(layout.full_shape):
            if size == 1:
                continue
            axes = layout.axes(d)
            if out_shape[off + d] != 1 and out_axes[off + d] != axes:
                raise MSValueError(f"For '{prim.name}', the in_layout {prim.attrs['in_layout']}: the inputs must be "
                                   f"split alike along dimension {off + d}, but input {i} is split differently.")
            out_axes[off + d], out_shape[off + d] = axes, size
    rank, device_num = _layouts.world()
    it = iter(layouts)
    y = prim(*[to_layout(a, next(it), rank, device_num) if isinstance(a, Tensor) else a for a in args])
    n = len(layouts[0].dev_matrix)
    return set_layout(y, TensorLayout(layouts[0].dev_matrix, [tuple(n - 1 - a for a in axes) for axes in out_axes],
                                      out_shape))


def elementwise_rule(prim, args, strategy):
    tensors = [a for a in args if isinstance(a, Tensor)]
    shapes = [full_shape(a) for a in tensors]
    check_strategy(prim, strategy, shapes)
    layouts = _written_layouts(prim, shapes)
    if layouts is not None:
        return _layout_rule(prim, args, layouts)
    rank = max(len(s) for s in shapes)
    out_shape = [1] * rank
    cuts = [1] * rank
    letters_of = []
    for shape, s in zip(shapes, strategy):
        off = rank - len(shape)
        letters = []
        for d, (size, cut) in enumerate(zip(shape, s)):
            o = off + d
            if size != 1:
                if cuts[o] not in (1, cut) and out_shape[o] != 1:
                    raise MSValueError(f"For '{prim.name}', the strategy is {tuple(strategy)}: the inputs must be "
                                       f"split alike along dimension {o}, but got {cuts[o]} and {cut}.")
                cuts[o] = max(cuts[o], cut)
                out_shape[o] = size
            letters.append(f"d{o}" if size != 1 else None)
        letters_of.append(letters)
    plan = Plan(prim, [(f"d{o}", cuts[o]) for o in range(rank)])
    it = iter(letters_of)
    local = [plan.take(a, next(it)) if isinstance(a, Tensor) else a for a in args]
    y = prim(*local)
    return plan.out(y, [f"d{o}" for o in range(rank)], tuple(out_shape))


_NAMES = ("Add", "Sub", "Mul", "RealDiv", "Div", "Maximum", "Minimum", "Pow", "SquaredDifference",
          "ReLU", "GeLU", "FastGeLU", "Sigmoid", "Tanh", "Exp", "Log", "Neg", "Square", "Sqrt", "Rsqrt", "Abs",
          "Cast", "Erf", "Reciprocal", "SiLU", "LogicalNot", "Equal", "Greater", "Less", "Select")
RULES = {name: elementwise_rule for name in _NAMES}
