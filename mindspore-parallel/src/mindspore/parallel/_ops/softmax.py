"""Softmax and LogSoftmax: cut like an elementwise operator, except along the normalised axis, which must stay
whole on each rank (as MindSpore requires)."""
from mindspore.plugin import MSValueError
from mindspore.parallel._ops._plan import Plan, check_strategy, full_shape


def softmax_rule(prim, args, strategy):
    x = args[0]
    shape = full_shape(x)
    check_strategy(prim, strategy, (shape,))
    axes = prim.attrs.get("axis", -1)
    axes = axes if isinstance(axes, (tuple, list)) else (axes,)
    for a in axes:
        a = a % len(shape)
        if strategy[0][a] != 1:
            raise MSValueError(f"For '{prim.name}', the strategy is {tuple(strategy)}: the axis {a} it normalises "
                               f"over can not be split, but got strategy value {strategy[0][a]}.")
    letters = [f"d{d}" for d in range(len(shape))]
    plan = Plan(prim, list(zip(letters, strategy[0])))
    y = prim(plan.take(x, letters), *args[1:])
    return plan.out(y, letters, shape)


RULES = {"Softmax": softmax_rule, "LogSoftmax": softmax_rule}
