"""Transpose (with a strategy: the output is cut as the permuted input) and the layout-keeping forms of
Reshape and Transpose without a strategy (used by :func:`propagate`): a reshape keeps a cut when the cut
dimension leads a group of input dimensions that becomes a group of output dimensions whose leading
dimension the cut divides, so the blocks stay contiguous."""
from mindspore.common.parameter import Parameter
from mindspore.parallel import _layouts
from mindspore.parallel._layouts import TensorLayout, layout_of, parameter_layout, set_layout
from mindspore.parallel._redistribute import redistribute
from mindspore.parallel._ops._plan import Plan, check_strategy, full_shape


def transpose_rule(prim, args, strategy):
    x, perm = args[0], tuple(args[1])
    shape = full_shape(x)
    check_strategy(prim, strategy, (shape,))
    letters = [f"d{d}" for d in range(len(shape))]
    plan = Plan(prim, list(zip(letters, strategy[0])))
    y = prim(plan.take(x, letters), perm)
    return plan.out(y, [letters[p] for p in perm], tuple(shape[p] for p in perm))


def transpose_keep(prim, args):
    """Transpose of a laid-out block without a strategy: the layout is permuted (no communication)."""
    x, perm = args[0], tuple(args[1])
    layout = layout_of(x)
    y = prim(x, perm)
    return set_layout(y, TensorLayout(layout.dev_matrix, [layout.tensor_map[p] for p in perm],
                                      [layout.full_shape[p] for p in perm]))


def _groups(a, b):
    """Split shapes ``a`` and ``b`` (same size) into matching groups of consecutive dimensions."""
    groups, i, j = [], 0, 0
    while i < len(a) or j < len(b):
        gi, gj = [i], [j]
        pa, pb = a[i] if i < len(a) else 1, b[j] if j < len(b) else 1
        i, j = i + 1, j + 1
        while pa != pb:
            if pa < pb:
                pa *= a[i]
                gi.append(i)
                i += 1
            else:
                pb *= b[j]
                gj.append(j)
                j += 1
        groups.append(([d for d in gi if d < len(a)], [d for d in gj if d < len(b)]))
    return groups


def reshape_keep(prim, args):
    """Reshape of a laid-out block keeping its cuts, or None when the cuts cannot be kept."""
    x, new_shape = args[0], tuple(args[1])
    layout = layout_of(x)
    old = layout.full_shape
    if -1 in new_shape:
        known = 1
        for s in new_shape:
            known *= s if s != -1 else 1
        total = 1
        for s in old:
            total *= s
        new_shape = tuple(total // known if s == -1 else s for s in new_shape)
    if 0 in old or 1 in old or 1 in new_shape:
        return None
    tmap = [-1] * len(new_shape)
    local = list(new_shape)
    for gin, gout in _groups(old, new_shape):
        cuts = [layout.splits(d) for d in gin]
        if all(c == 1 for c in cuts):
            continue
        if not gout or any(c != 1 for c in cuts[1:]) or new_shape[gout[0]] % cuts[0]:
            return None
        tmap[gout[0]] = layout.tensor_map[gin[0]]
        local[gout[0]] = new_shape[gout[0]] // cuts[0]
    y = prim(x, tuple(local))
    return set_layout(y, TensorLayout(layout.dev_matrix, tmap, new_shape))


def micro_slice_keep(prim, args):
    """A ``StridedSlice`` marked ``skip_redistribution`` (a micro-batch slice) on a laid-out block: every rank slices
    its own block, with ``begin`` and ``end`` divided by each dimension's cuts (MindSpore's
    ``StridedSliceInfo::ChangeCNodeBeginEnd``), so micro-batch ``i`` of the global batch is slice ``i`` of every
    rank's rows; the output keeps the input's cuts. None (the slice runs on the whole value) when a cut dimension
    is sliced with a stride or a mask, or not in whole blocks."""
    x, begin, end, strides = args[0], tuple(args[1]), tuple(args[2]), tuple(args[3])
    layout = layout_of(x)
    if any(prim.masks()) or len(begin) != len(layout.full_shape):
        return None
    local_begin, local_end, out_shape = [], [], []
    for d, (b, e, st) in enumerate(zip(begin, end, strides)):
        cuts = layout.splits(d)
        if cuts > 1 and (st != 1 or b % cuts or e % cuts):
            return None
        local_begin.append(b // cuts)
        local_end.append(e // cuts)
        out_shape.append(e - b)
    y = prim(x, tuple(local_begin), tuple(local_end), strides)
    return set_layout(y, TensorLayout(layout.dev_matrix, layout.tensor_map, out_shape))


def reshard_rule(prim, args, strategy):
    """``ops.Reshard`` (``ops.reshard``): the tensor moved to the layout it names, which its result carries (no
    computation); a device matrix over fewer devices than the world is repeated in front, as for any strategy."""
    x = args[0]
    shape = full_shape(x)
    check_strategy(prim, strategy, (shape,))
    info = prim.attrs["in_layout"][0]
    rank, device_num = _layouts.world()
    dev_matrix = tuple(info["device_matrix"])
    used = 1
    for d in dev_matrix:
        used *= d
    if used < device_num:
        dev_matrix = (device_num // used,) + dev_matrix
    dst = TensorLayout(dev_matrix, info["tensor_map"], shape)
    src = layout_of(x)
    if src is None and isinstance(x, Parameter):
        src = parameter_layout(x)
    return set_layout(redistribute(x, src, dst, rank, device_num), dst)


RULES = {"Transpose": transpose_rule, "Reshard": reshard_rule}
