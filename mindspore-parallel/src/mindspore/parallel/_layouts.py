"""Tensor layouts of SEMI_AUTO_PARALLEL: which slice of a global tensor each rank holds.

Design
------
A :class:`TensorLayout` is MindSpore's triple ``(dev_matrix, tensor_map, full_shape)``. The ``device_num``
ranks are laid out row-major over ``dev_matrix`` (the last axis varies fastest). ``tensor_map[d]`` names the
device-matrix axis that cuts dimension ``d`` of the tensor, counted **from the right** as MindSpore counts
(``0`` is the last axis of ``dev_matrix``), or ``-1`` for an uncut dimension. A rank holds the block of the
global tensor at its coordinate along each cutting axis; along the axes that cut no dimension it holds a copy
(the *copy group* of that block: the ranks with the same block). A dimension may be cut by several axes, as a
:class:`~mindspore.parallel.Layout` writes ``("x", "y")``: ``tensor_map[d]`` is then a tuple, major axis first, and
the block index along ``d`` is the rank's coordinates along those axes read as one mixed-radix number.

While a sharded network runs, tensors carry their layout in a side table (:func:`layout_of`,
:func:`set_layout`) keyed by the tensor object (eager tensors and graph-staging tensors alike); a tensor
without an entry is whole on every rank. Parameters are not in the table: outside the rules that cut them
(optimizer updates) they are used block by block. A network :class:`~mindspore.Parameter` that a sharded operator
uses is cut once, when first used: it then holds only this rank's block (``param._ms_layout`` records its
layout), and so do the optimizer states cloned from it. :func:`parameter_layouts` lists those layouts for
checkpoints and the strategy file.
"""
from __future__ import annotations

import weakref

import numpy as np

__all__ = ["TensorLayout", "layout_of", "set_layout", "parameter_layouts", "rank_coord", "world"]


class TensorLayout:
    """``(dev_matrix, tensor_map, full_shape)`` with MindSpore's right-to-left ``tensor_map``."""

    __slots__ = ("dev_matrix", "tensor_map", "full_shape")

    def __init__(self, dev_matrix, tensor_map, full_shape):
        self.dev_matrix = tuple(int(d) for d in dev_matrix)
        self.tensor_map = tuple(_map_entry(m) for m in tensor_map)
        self.full_shape = tuple(int(s) for s in full_shape)

    def axes(self, dim):
        """The device-matrix axes (counted from the left, major first) cutting ``dim``; () when uncut."""
        m = self.tensor_map[dim]
        n = len(self.dev_matrix)
        if isinstance(m, tuple):
            return tuple(n - 1 - a for a in m)
        return () if m < 0 else (n - 1 - m,)

    def axis(self, dim):
        """The one device-matrix axis (counted from the left) cutting ``dim``, or None; a dimension cut by several
        axes has no single one (see :meth:`axes`)."""
        axes = self.axes(dim)
        assert len(axes) <= 1, f"dimension {dim} of {self!r} is cut by several axes {axes}"
        return axes[0] if axes else None

    def splits(self, dim):
        out = 1
        for a in self.axes(dim):
            out *= self.dev_matrix[a]
        return out

    def with_axes(self, dim, axes):
        """This layout with ``dim`` cut by the device-matrix ``axes`` (from the left, major first)."""
        n = len(self.dev_matrix)
        tmap = list(self.tensor_map)
        tmap[dim] = tuple(n - 1 - a for a in axes)
        return TensorLayout(self.dev_matrix, tmap, self.full_shape)

    @property
    def slice_shape(self):
        return tuple(s // self.splits(d) for d, s in enumerate(self.full_shape))

    def box(self, rank):
        """This rank's block: one ``(start, stop)`` per dimension."""
        coord = rank_coord(self.dev_matrix, rank)
        out = []
        for d, size in enumerate(self.full_shape):
            index = 0
            for a in self.axes(d):
                index = index * self.dev_matrix[a] + coord[a]
            step = size // self.splits(d)
            out.append((index * step, (index + 1) * step))
        return tuple(out)

    def copy_axes(self):
        """Device-matrix axes (from the left) along which the blocks are copies."""
        used = {a for d in range(len(self.tensor_map)) for a in self.axes(d)}
        return [a for a in range(len(self.dev_matrix)) if a not in used and self.dev_matrix[a] > 1]

    def is_whole(self):
        return all(self.splits(d) == 1 for d in range(len(self.tensor_map)))

    def same_blocks(self, other, device_num):
        return self.full_shape == other.full_shape and all(
            self.box(r) == other.box(r) for r in range(device_num))

    def as_tuple(self):
        return (self.dev_matrix, self.tensor_map, self.full_shape)

    def __eq__(self, other):
        return isinstance(other, TensorLayout) and self.as_tuple() == other.as_tuple()

    def __hash__(self):
        return hash(self.as_tuple())

    def __repr__(self):
        return (f"TensorLayout(dev_matrix={self.dev_matrix}, tensor_map={self.tensor_map}, "
                f"full_shape={self.full_shape})")


def _map_entry(m):
    """A tensor-map entry: an int (``-1``: uncut), or a tuple of several axes (a one-axis tuple is that int)."""
    if isinstance(m, (tuple, list)):
        axes = tuple(int(a) for a in m if int(a) >= 0)
        if len(axes) > 1:
            return axes
        return axes[0] if axes else -1
    return int(m)


def rank_coord(dev_matrix, rank):
    """The coordinate of ``rank`` in ``dev_matrix`` (row-major, last axis fastest)."""
    return tuple(int(c) for c in np.unravel_index(rank, dev_matrix)) if dev_matrix else ()


def axis_group(dev_matrix, axis, rank):
    """The world ranks that differ from ``rank`` only along ``axis`` (ordered by their coordinate there)."""
    coord = list(rank_coord(dev_matrix, rank))
    ranks = []
    for c in range(dev_matrix[axis]):
        coord[axis] = c
        ranks.append(int(np.ravel_multi_index(coord, dev_matrix)))
    return ranks


def axes_group(dev_matrix, axes, rank):
    """The world ranks that differ from ``rank`` only along ``axes``, in ascending order."""
    coord = rank_coord(dev_matrix, rank)
    out = []
    for r in range(int(np.prod(dev_matrix))):
        c = rank_coord(dev_matrix, r)
        if all(c[i] == coord[i] for i in range(len(dev_matrix)) if i not in axes):
            out.append(r)
    return out


def world():
    """``(rank, device_num)`` of the sharded run: the communication world once ``init`` ran, otherwise
    rank 0 of ``device_num`` from the auto-parallel context (enough to validate strategies)."""
    from mindspore import context
    try:
        from mindspore.communication.management import GlobalComm, get_group_size, get_rank
        if GlobalComm.INITED and get_group_size() > 1:
            return get_rank(), get_group_size()
    except ImportError:
        pass
    return 0, int(context.get_auto_parallel_context("device_num") or 1)


# --- the side table ------------------------------------------------------------------------------------------
_table: dict[int, tuple] = {}


def layout_of(value):
    """The layout ``value`` carries, or None (whole on every rank, or not a tensor)."""
    hit = _table.get(id(value))
    if hit is not None and hit[0]() is value:
        return hit[1]
    return None


def parameter_layout(param):
    """The layout of a parameter cut by :func:`split_parameter` (None: whole)."""
    return param.__dict__.get("_ms_layout")


def set_layout(value, layout):
    """Record that ``value`` (a tensor) holds this rank's block of ``layout``; returns ``value``."""
    if layout is None or layout.is_whole():
        _table.pop(id(value), None)
        return value
    key = id(value)
    _table[key] = (weakref.ref(value, lambda _r, key=key: _table.pop(key, None)), layout)
    return value


# --- parameters ----------------------------------------------------------------------------------------------
def split_parameter(param, layout, rank):
    """Cut ``param`` (and the optimizer states cloned from it) to this rank's block of ``layout``, once."""
    from mindspore.common.tensor import Tensor
    box = layout.box(rank)
    index = tuple(slice(a, b) for a, b in box)
    todo = [param]
    while todo:
        p = todo.pop()
        if p.__dict__.get("_ms_layout") is not None or tuple(p.shape) != layout.full_shape:
            continue
        block = np.ascontiguousarray(p.asnumpy()[index])
        p.set_data(Tensor(block, p.dtype), slice_shape=True)
        p.__dict__["_ms_layout"] = layout
        for ref in p.__dict__.get("_clones", ()):
            clone = ref()
            if clone is not None:
                todo.append(clone)
    from mindspore.plugin import invalidate_compiled_graphs
    invalidate_compiled_graphs()


def merged_parameter(param):
    """The full value of a parameter this rank holds a block of (None: whole): every rank's block, gathered over
    the world and put in place (``save_checkpoint(..., integrated_save=True)`` calls it on every rank)."""
    layout = param.__dict__.get("_ms_layout")
    if layout is None:
        return None
    from mindspore import ops
    from mindspore.common.tensor import Tensor
    from mindspore.plugin import process_group
    size = process_group("hccl_world_group").size
    if size != int(np.prod(layout.dev_matrix)):
        return None      # not the world the layout was made for (a one-process dry run): the block as it is
    block = Tensor(np.ascontiguousarray(param.asnumpy()), param.dtype)
    blocks = ops.AllGather()(ops.expand_dims(block, 0)).asnumpy() if size > 1 else block.asnumpy()[None]
    full = np.empty(layout.full_shape, blocks.dtype)
    for r in range(size):
        full[tuple(slice(a, b) for a, b in layout.box(r))] = blocks[r]
    return Tensor(full, param.dtype)


def parameter_layouts(network):
    """``{param_name: (dev_matrix, tensor_map, full_shape)}`` for every parameter of ``network`` that holds a
    block of a sharded layout (what the strategy file and distributed checkpoints record)."""
    out = {}
    for p in network.get_parameters():
        layout = p.__dict__.get("_ms_layout")
        if layout is not None:
            out[p.name] = layout.as_tuple()
    return out


def _install_merge_hook():
    from mindspore.plugin import set_parameter_merge_hook
    set_parameter_merge_hook(merged_parameter)


_install_merge_hook()
