"""Elementwise operators with broadcasting: every input is cut like the output dimensions it is aligned
with (from the right); a broadcast dimension (size 1) stays whole (a cut of it fails the divisibility check).
Unary activations take one input."""
from mindspore.plugin import MSValueError
from mindspore.common.tensor import Tensor
from mindspore.parallel._ops._plan import Plan, check_strategy, full_shape


def elementwise_rule(prim, args, strategy):
    tensors = [a for a in args if isinstance(a, Tensor)]
    shapes = [full_shape(a) for a in tensors]
    check_strategy(prim, strategy, shapes)
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
