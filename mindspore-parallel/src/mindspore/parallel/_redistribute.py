"""Tensor redistribution: moving a tensor from one layout to another with differentiable primitives.

Design
------
Every step is an ordinary primitive application (slices, pads, ``AllReduce``), so a gradient tape
records it and graph staging stages it, and the gradient of a redistribution is the redistribution's
own adjoint through those primitives' bprops.

Gradient convention (the "sum" convention, as with the collectives' bprops): the cotangent of a value
held as copies by several ranks is the *sum* of the ranks' cotangents. Under it, cutting a copy into
blocks needs no communication (each rank's cotangent is zero outside its block), gathering blocks is
an ``AllGather`` (its bprop, a ``ReduceScatter``, sums the ranks' cotangents of each block), and a
partial result (a contraction over a cut dimension) is made whole by an all-reduce. Every rank seeds
the cotangent of the (whole) loss with one, so the total cotangent is ``device_num`` times the true
one: the gradient of a parameter is all-reduced over its copy group and divided by ``device_num``
(:func:`mirror`), as MindSpore's mirror operator does with ``gradients_mean``.

:func:`redistribute` goes from layout A to layout B: a device-matrix axis that moves from cutting one
dimension to cutting another (same device matrix) is one ``AlltoAll``; then along every dimension where
some rank's B-block is not inside its A-block, the A-blocks are gathered over their device-matrix axis
(``AllGather``); the rest is a local slice. Equal blocks are left alone. The decision depends on the
layouts only, never on the rank, so every rank issues the same collectives.
"""
from __future__ import annotations

import threading

from mindspore.common.parameter import Parameter
from mindspore.parallel._layouts import TensorLayout, axes_group, axis_group, layout_of

__all__ = ["redistribute", "to_whole", "all_reduce", "group_name", "mirror", "local_slice"]

_groups_made: dict[tuple, str] = {}
_lock = threading.Lock()


def group_name(ranks):
    """The communication group of world ``ranks`` (made on first use; the world group for all ranks);
    None for a single rank."""
    ranks = tuple(ranks)
    if len(ranks) <= 1:
        return None
    from mindspore.communication.management import GlobalComm, create_group, get_group_size
    if ranks == tuple(range(get_group_size())):
        return GlobalComm.WORLD_COMM_GROUP
    with _lock:
        name = _groups_made.get(ranks)
        if name is None:
            name = "semi_auto_" + "_".join(str(r) for r in ranks)
            from mindspore.communication import management
            if name not in management._world.groups:     # noqa: SLF001 - made once per world
                create_group(name, list(ranks))
            _groups_made[ranks] = name
        return name


def all_reduce(x, ranks, op="sum"):
    """``AllReduce`` of ``x`` over world ``ranks`` (nothing for one rank)."""
    group = group_name(ranks)
    if group is None:
        return x
    from mindspore import ops
    return ops.AllReduce(op, group)(x)


def local_slice(x, box_in, box_out):
    """The part ``box_out`` of a local block that covers ``box_in`` (both in global coordinates)."""
    from mindspore import ops
    if box_in == box_out:
        return x
    begin = [b0 - a0 for (a0, _), (b0, _) in zip(box_in, box_out)]
    size = [b1 - b0 for b0, b1 in box_out]
    return ops.Slice()(x, tuple(begin), tuple(size))


def _gather_dim(x, layout, dim, rank):
    """Gather the blocks of ``dim`` over the minor device-matrix axis cutting it (``AllGather`` concatenates along
    axis 0 in group-rank order, which is the axis coordinate order). A dimension cut by axes ``(a, b)`` holds block
    ``a * |b| + b``: gathered over ``b``, it holds block ``a`` of the dimension cut by ``a`` alone."""
    from mindspore import ops
    axes = layout.axes(dim)
    group = group_name(axis_group(layout.dev_matrix, axes[-1], rank))
    if dim:
        perm = (dim,) + tuple(d for d in range(len(layout.full_shape)) if d != dim)
        back = tuple(perm.index(d) for d in range(len(perm)))
        out = ops.transpose(ops.AllGather(group)(ops.transpose(x, perm)), back)
    else:
        out = ops.AllGather(group)(x)
    return out, layout.with_axes(dim, axes[:-1])


def redistribute(x, src, dst, rank, device_num):
    """``x`` (this rank's block of ``src``; None: whole) as this rank's block of ``dst`` (None: whole)."""
    if src is None and dst is None:
        return x
    shape = (src or dst).full_shape
    ndim = len(shape)
    whole = TensorLayout((), (-1,) * ndim, shape)
    src = src or whole
    dst = dst or whole
    if src == dst or src.same_blocks(dst, device_num):
        return x
    if src.dev_matrix == dst.dev_matrix:
        x, src = _exchange_cuts(x, src, dst, rank)
    for d in range(ndim):
        while src.axes(d) and any(not _inside(src.box(r)[d], dst.box(r)[d]) for r in range(device_num)):
            x, src = _gather_dim(x, src, d, rank)
    return local_slice(x, src.box(rank), dst.box(rank))


def _exchange_cuts(x, src, dst, rank):
    """Where a device-matrix axis cuts dimension ``a`` in ``src`` and dimension ``b`` (whole in ``src``) in
    ``dst``, one ``AlltoAll`` over that axis moves the cut: each rank splits its block along ``b`` and joins the
    pieces it receives along ``a``."""
    from mindspore import ops
    for a in range(len(src.full_shape)):
        if len(src.axes(a)) != 1 or dst.axes(a):
            continue
        axis = src.axes(a)[0]
        if src.dev_matrix[axis] == 1:
            continue
        for b in range(len(src.full_shape)):
            if b != a and dst.axes(b) == (axis,) and not src.axes(b):
                n = src.dev_matrix[axis]
                group = group_name(axis_group(src.dev_matrix, axis, rank))
                x = ops.AlltoAll(n, b, a, group)(x)
                tmap = list(src.tensor_map)
                tmap[b], tmap[a] = tmap[a], -1
                src = TensorLayout(src.dev_matrix, tmap, src.full_shape)
                break
    return x, src


def _inside(outer, inner):
    return outer[0] <= inner[0] and inner[1] <= outer[1]


def to_whole(x, rank, device_num):
    """``x`` made whole on every rank (gathered along every cut dimension)."""
    layout = layout_of(x)
    if layout is None:
        return x
    return redistribute(x, layout, None, rank, device_num)


def mirror(param, layout, rank, device_num):
    """``param`` as an operand: identity forward; backward, its gradient all-reduced over its copy group and
    divided by ``device_num`` (see the module docstring)."""
    from mindspore.parallel._mirror import ConfiguredMirror, Mirror, gradient_settings
    if device_num <= 1:
        return param
    if layout is None:
        ranks = list(range(device_num))
    else:
        ranks = axes_group(layout.dev_matrix, layout.copy_axes(), rank)
    group = group_name(ranks)
    # the AutoParallel gradient settings (local norms, float32 communication) act where MindSpore has a mirror
    # operator: on a parameter held as copies by several ranks
    settings = gradient_settings(param) if group is not None and isinstance(param, Parameter) else None
    if settings is not None:
        return ConfiguredMirror(group, 1.0 / device_num, settings)(param)
    return Mirror(group, 1.0 / device_num)(param)


def whole_value(param):
    """The whole value of ``param`` (gathered from every rank's block when it was cut), as a NumPy array.
    Every rank must call it (it communicates when the parameter is cut)."""
    from mindspore.parallel._layouts import parameter_layout, world
    layout = parameter_layout(param)
    if layout is None:
        return param.asnumpy()
    from mindspore.common.tensor import Tensor
    rank, device_num = world()
    block = Tensor(param.asnumpy())
    return redistribute(block, layout, None, rank, device_num).asnumpy()
