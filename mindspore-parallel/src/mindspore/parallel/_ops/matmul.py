"""MatMul and BatchMatMul: row (``i``), column (``j``) and reduction-dimension (``k``) cuts.

``MatMul`` with strategy ``((a, b), (b, c))`` (for the operands as stored, so a transposed operand lists its
cuts in stored order) has loop dimensions ``i, k, j`` cut ``a, b, c``; a cut ``k`` leaves partial sums, all-reduced
over the ``k`` axis. ``BatchMatMul`` adds the batch dimensions in front (they must be cut alike in both operands).
"""
from mindspore.plugin import MSValueError
from mindspore.parallel._ops._plan import Plan, check_strategy, full_shape


def _letters(prim, nbatch):
    batch = [f"b{n}" for n in range(nbatch)]
    x = batch + (["k", "i"] if prim.attrs.get("transpose_a") else ["i", "k"])
    w = batch + (["j", "k"] if prim.attrs.get("transpose_b") else ["k", "j"])
    return batch, x, w


def matmul_rule(prim, args, strategy):
    x, w = args[0], args[1]
    xs, ws = full_shape(x), full_shape(w)
    check_strategy(prim, strategy, (xs, ws))
    if len(xs) != len(ws):
        raise MSValueError(f"For '{prim.name}', sharding needs inputs of the same rank, but got shapes {xs} and "
                           f"{ws}.")
    nbatch = len(xs) - 2
    batch, xl, wl = _letters(prim, nbatch)
    cuts = {}
    for letters, s in ((xl, strategy[0]), (wl, strategy[1])):
        for letter, cut in zip(letters, s):
            if cuts.setdefault(letter, cut) != cut:
                raise MSValueError(f"For '{prim.name}', the strategy is {tuple(strategy)}: the cuts of the dimension "
                                   f"'{letter}' shared by both inputs must be equal, but got {cuts[letter]} and {cut}.")
    plan = Plan(prim, [(l, cuts[l]) for l in batch + ["i", "k", "j"]])
    y = prim(plan.take(x, xl), plan.take(w, wl))
    y = plan.reduce_over(y, ["k"])
    sizes = dict(zip(xl, xs))
    sizes.update(zip(wl, ws))
    out = batch + ["i", "j"]
    return plan.out(y, out, tuple(sizes[l] for l in out))


RULES = {"MatMul": matmul_rule, "BatchMatMul": matmul_rule}
