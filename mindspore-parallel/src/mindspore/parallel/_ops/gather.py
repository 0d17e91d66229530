"""Gather (and so ``nn.Embedding``) along axis 0 of the table.

Strategy ``((v, h...), (n...))``: the table's rows cut ``v`` ways (vocabulary split), its other dimensions cut
``h...``, the indices cut ``n...``. With a vocabulary split each rank looks up only the rows it holds: indices
outside them are masked to row 0 and their rows zeroed, and the partial lookups are summed over the ``v`` axis
(MindSpore's mask + AllReduce).
"""
from mindspore import ops
from mindspore.plugin import MSValueError
from mindspore.parallel._layouts import rank_coord
from mindspore.parallel._ops._plan import Plan, check_strategy, full_shape


def gather_rule(prim, args, strategy):
    table, indices, axis = args[0], args[1], args[2] if len(args) > 2 else 0
    ts, ishape = full_shape(table), full_shape(indices)
    check_strategy(prim, strategy, (ts, ishape))
    if axis % len(ts) != 0 or prim.attrs.get("batch_dims", 0):
        raise MSValueError(f"For '{prim.name}', a sharding strategy needs 'axis' 0 and 'batch_dims' 0, but got "
                           f"axis {axis} and batch_dims {prim.attrs.get('batch_dims', 0)}.")
    tl = ["v"] + [f"h{d}" for d in range(1, len(ts))]
    il = [f"n{d}" for d in range(len(ishape))]
    plan = Plan(prim, list(zip(il, strategy[1])) + list(zip(tl, strategy[0])))
    local_table = plan.take(table, tl)
    local_idx = plan.take(indices, il)
    vcut = plan.cuts["v"]
    if vcut == 1:
        y = prim(local_table, local_idx, 0)
    else:
        rows = ts[0] // vcut
        start = rank_coord(plan.dev_matrix, plan.rank)[plan.axis_of("v")] * rows
        shifted = ops.sub(local_idx, start)
        inside = ops.logical_and(ops.ge(shifted, 0), ops.lt(shifted, rows))
        safe = ops.mul(shifted, ops.cast(inside, shifted.dtype))
        y = prim(local_table, safe, 0)
        mask = ops.cast(inside, y.dtype)
        for _ in range(len(ts) - 1):
            mask = ops.expand_dims(mask, -1)
        y = plan.reduce_over(ops.mul(y, mask), ["v"])
    out = il + tl[1:]
    return plan.out(y, out, tuple(ishape) + tuple(ts[1:]))


RULES = {"Gather": gather_rule}
