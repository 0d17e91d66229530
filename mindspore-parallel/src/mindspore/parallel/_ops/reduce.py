"""ReduceSum, ReduceMean, ReduceMax, ReduceMin: reduce the local block, then complete over the axes that cut a
reduced dimension (sum: all-reduce; mean: all-reduce of the block means divided by the cut count, exact for equal
blocks; max/min: all-reduce max/min)."""
from mindspore.parallel._ops._plan import Plan, check_strategy, full_shape


def _axes(args, rank):
    axis = args[1] if len(args) > 1 else ()
    if axis is None or axis == ():
        return tuple(range(rank))
    axis = axis if isinstance(axis, (tuple, list)) else (axis,)
    return tuple(a % rank for a in axis)


def reduce_rule(prim, args, strategy):
    x = args[0]
    shape = full_shape(x)
    check_strategy(prim, strategy, (shape,))
    letters = [f"d{d}" for d in range(len(shape))]
    plan = Plan(prim, list(zip(letters, strategy[0])))
    axes = _axes(args, len(shape))
    y = prim(plan.take(x, letters), *args[1:])
    reduced = [letters[a] for a in axes]
    op = {"ReduceMax": "max", "ReduceMin": "min"}.get(prim.name, "sum")
    y = plan.reduce_over(y, reduced, op)
    if prim.name == "ReduceMean":
        count = 1
        for letter in reduced:
            count *= plan.cuts[letter]
        if count > 1:
            y = y / count
    keep = prim.attrs.get("keep_dims", False)
    out_letters = [None if d in axes else letters[d] for d in range(len(shape)) if keep or d not in axes]
    out_shape = tuple(1 if d in axes else shape[d] for d in range(len(shape)) if keep or d not in axes)
    return plan.out(y, out_letters, out_shape)


RULES = {name: reduce_rule for name in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin")}
