"""MatMul and BatchMatMul: row (``i``), column (``j``) and reduction-dimension (``k``) cuts.

``MatMul`` with strategy ``((a, b), (b, c))`` (for the operands as stored, so a transposed operand lists its
cuts in stored order) has loop dimensions ``i, k, j`` cut ``a, b, c``; a cut ``k`` leaves partial sums, all-reduced
over the ``k`` axis. ``BatchMatMul`` adds the batch dimensions in front (they must be cut alike in both operands).

2D/3D tensor parallel (``add_prim_attr("enable_nd_tp", True)`` with a :class:`~mindspore.parallel.Layout`
strategy, MindSpore's high-dimension TP): the operands' ``k`` may be cut by different device-matrix axes, e.g.
``x: ("None", ("x", "y"))`` and ``w: ("x", "y")``. As MindSpore does with AllGather, MatMul and ReduceScatter, each
operand is gathered along ``k`` down to the axes both cut it by (their common major axes: ``x`` here, gathering
``x`` over ``y``), and along ``i`` off the axes ``w`` cuts ``j`` by (3D); the partial products are summed over
the common ``k`` axes and the output is left cut as MindSpore's ReduceScatter leaves it: like ``w`` (its ``k`` axes
cutting ``i``, its ``j`` axes ``j``).
"""
import math

from mindspore.plugin import MSValueError
from mindspore.parallel import _layouts
from mindspore.parallel._layouts import TensorLayout, axes_group, set_layout
from mindspore.parallel._ops._plan import Plan, check_strategy, full_shape, to_layout
from mindspore.parallel._redistribute import all_reduce, redistribute


def _letters(prim, nbatch):
    batch = [f"b{n}" for n in range(nbatch)]
    x = batch + (["k", "i"] if prim.attrs.get("transpose_a") else ["i", "k"])
    w = batch + (["j", "k"] if prim.attrs.get("transpose_b") else ["k", "j"])
    return batch, x, w


def matmul_rule(prim, args, strategy):
    if prim.attrs.get("enable_nd_tp") and prim.attrs.get("in_layout"):
        return nd_tp_rule(prim, args)
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


def _in_layouts(prim, shapes):
    """The operands' TensorLayouts of the ``in_layout`` Layouts, checked as MindSpore checks them."""
    _, device_num = _layouts.world()
    out = []
    for i, (item, shape) in enumerate(zip(prim.attrs["in_layout"], shapes)):
        layout = TensorLayout(item["device_matrix"], item["tensor_map"], shape)
        if len(layout.tensor_map) != len(shape):
            raise MSValueError(f"For '{prim.name}', the tensor_map {item['tensor_map']} of the layout of input {i} "
                               f"must have one entry per dimension of the input, but the input's shape is {shape}.")
        for d, size in enumerate(shape):
            if size % layout.splits(d):
                raise MSValueError(f"For '{prim.name}', the layout of input {i} splits dimension {d} into "
                                   f"{layout.splits(d)} parts, but its size {size} is not divisible by it.")
        out.append(layout)
    if out[0].dev_matrix != out[1].dev_matrix:
        raise MSValueError(f"For '{prim.name}', the device_matrix of input0 {out[0].dev_matrix} does not equal the "
                           f"device_matrix of input1 {out[1].dev_matrix}.")
    if math.prod(out[0].dev_matrix) != device_num:
        raise MSValueError(f"For '{prim.name}', the device_matrix {out[0].dev_matrix} of the layouts uses "
                           f"{math.prod(out[0].dev_matrix)} devices, but the device num is {device_num}.")
    return out


def _common_major(a, b):
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def nd_tp_rule(prim, args):
    """MatMul/BatchMatMul with ``enable_nd_tp`` and a Layout strategy (see the module docstring)."""
    x, w = args[0], args[1]
    xs, ws = full_shape(x), full_shape(w)
    if len(xs) != len(ws):
        raise MSValueError(f"For '{prim.name}', 2D/3D tensor parallel needs inputs of the same rank, but got shapes "
                           f"{xs} and {ws}.")
    xl, wl = _in_layouts(prim, (xs, ws))
    rank, device_num = _layouts.world()
    batch, xletters, wletters = _letters(prim, len(xs) - 2)
    xd, wd = {l: d for d, l in enumerate(xletters)}, {l: d for d, l in enumerate(wletters)}
    # gather k down to the axes both operands cut it by, i off the axes that cut j, the batch of w like x's
    common = _common_major(xl.axes(xd["k"]), wl.axes(wd["k"]))
    j_axes = wl.axes(wd["j"])
    i_axes = tuple(a for a in xl.axes(xd["i"]) if a not in j_axes)
    xc = xl.with_axes(xd["k"], common).with_axes(xd["i"], i_axes)
    wc = wl.with_axes(wd["k"], common)
    for b in batch:
        wc = wc.with_axes(wd[b], xl.axes(xd[b]))
    used = [a for b in batch for a in xl.axes(xd[b])] + list(i_axes) + list(j_axes)
    if len(set(used)) != len(used):
        raise MSValueError(f"For '{prim.name}', the in_layout {prim.attrs['in_layout']} cuts the output by a "
                           f"device-matrix axis more than once (batch, row and column axes {used}).")
    xb = redistribute(to_layout(x, xl, rank, device_num), xl, xc, rank, device_num)
    wb = redistribute(to_layout(w, wl, rank, device_num), wl, wc, rank, device_num)
    y = prim(xb, wb)
    if common:
        y = all_reduce(y, axes_group(xl.dev_matrix, common, rank))
    sizes = dict(zip(xletters, xs))
    sizes.update(zip(wletters, ws))
    out_letters = batch + ["i", "j"]
    out_shape = tuple(sizes[l] for l in out_letters)
    n = len(xl.dev_matrix)
    have_axes = [xl.axes(xd[b]) for b in batch] + [i_axes, j_axes]
    have = TensorLayout(xl.dev_matrix, [tuple(n - 1 - a for a in axes) for axes in have_axes], out_shape)
    # MindSpore's ReduceScatter leaves the output cut like w: its k axes cut i (the rows of the sums)
    want_axes = [wl.axes(wd[b]) for b in batch] + [wl.axes(wd["k"]), j_axes]
    want = TensorLayout(xl.dev_matrix, [tuple(n - 1 - a for a in axes) for axes in want_axes], out_shape)
    y = set_layout(y, have)
    return set_layout(redistribute(y, have, want, rank, device_num), want)


RULES = {"MatMul": matmul_rule, "BatchMatMul": matmul_rule}
