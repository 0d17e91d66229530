"""Tensor layouts of distributed checkpoints: which part of a full parameter each rank holds.

A layout is MindSpore's: a device matrix ``dev_matrix`` (ranks numbered row-major over it, the last axis
fastest) and a ``tensor_map`` with one entry per tensor dimension naming the device axis that splits it,
counted *from the right* of the device matrix (``0`` is the last axis), ``-1`` when the dimension is not
split. An entry may also be a tuple of axes (a ``Layout`` that splits one dimension over several device
axes, the first one outermost). Device axes no tensor dimension uses are *repeated*: the ranks that differ
only there hold the same slice.

The parallel optimizer (``opt_weight_shard_size`` > 0, or -1 for "all repeats", with
``opt_weight_shard_step`` > 0) splits the model-parallel slice once more along dimension 0 over the ranks
that repeat it: the innermost repeated axes are used first (the opt-shard group is made of consecutive
repeats), so a rank's piece is ``repeat_index % opt_size``, where ``repeat_index`` counts row-major over
the repeated axes. That is what a rank's checkpoint holds under optimizer parallelism.

Everything reduces to *boxes*: for a full shape and a rank, :meth:`ParamLayout.box` is the per-dimension
``(start, stop)`` of what the rank stores. Slicing a full tensor is indexing with the box; merging is
copying each distinct box into place (a region counts as covered only when the pieces' volumes add up to
it); re-sharding copies the intersections of source boxes with a destination box. Uneven first-dimension
slices (``param_split_shape``, per slice index) are supported when merging.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

__all__ = ["ParamLayout", "as_layout", "assemble", "LayoutError"]


class LayoutError(ValueError):
    """A checkpoint slice, a shape or a rank set that does not fit a layout."""


def _ints(value, what, name):
    try:
        return tuple(int(v) for v in value)
    except (TypeError, ValueError) as e:
        raise TypeError(f"The {what} of parameter '{name}' must be a sequence of int, but got {value!r}.") from e


@dataclasses.dataclass(frozen=True)
class ParamLayout:
    """One parameter's layout (see the module docstring)."""

    dev_matrix: tuple
    tensor_map: tuple
    tensor_shape: tuple | None = None
    field: int = 0
    opt_weight_shard_step: int = 0
    opt_weight_shard_size: int = 0
    param_split_shape: tuple = ()
    indices_offset: tuple = ()
    stages: tuple = (0,)

    def with_stages(self, stages):
        return dataclasses.replace(self, stages=tuple(stages))

    # -------------------------------------------------------------------------------- structure
    @property
    def device_num(self):
        return int(math.prod(self.dev_matrix))

    def describe(self):
        tmap = [list(a) if isinstance(a, tuple) else a for a in self.tensor_map]
        text = f"dev_matrix {list(self.dev_matrix)}, tensor_map {tmap}"
        if self.opt_size() > 1:
            text += f", opt_weight_shard_size {self.opt_weight_shard_size}"
        return text

    def _axes(self, i):
        """Positions in ``dev_matrix`` (left-based) splitting tensor dimension ``i``, outermost first."""
        entry = self.tensor_map[i]
        entries = entry if isinstance(entry, tuple) else (entry,)
        n = len(self.dev_matrix)
        return tuple(n - 1 - a for a in entries if a != -1)

    def strategy(self):
        """Number of slices along each tensor dimension."""
        return tuple(math.prod(self.dev_matrix[p] for p in self._axes(i)) for i in range(len(self.tensor_map)))

    def _repeated_axes(self):
        used = {p for i in range(len(self.tensor_map)) for p in self._axes(i)}
        return tuple(p for p, d in enumerate(self.dev_matrix) if p not in used and d > 1)

    def repeat_num(self):
        return int(math.prod(self.dev_matrix[p] for p in self._repeated_axes()))

    def opt_size(self):
        """Effective optimizer-shard size (1: no optimizer sharding)."""
        size, step = self.opt_weight_shard_size, self.opt_weight_shard_step
        if size == 0 or step == 0:
            return 1
        return self.repeat_num() if size == -1 else size

    def validate(self, name, api):
        if not self.dev_matrix or any(d <= 0 for d in self.dev_matrix):
            raise LayoutError(f"For '{api}', the dev_matrix of parameter '{name}' must be a non-empty list of "
                              f"positive int, but got {list(self.dev_matrix)}.")
        seen = []
        n = len(self.dev_matrix)
        for entry in self.tensor_map:
            for a in (entry if isinstance(entry, tuple) else (entry,)):
                if a == -1:
                    continue
                if not 0 <= a < n or a in seen:
                    raise LayoutError(f"For '{api}', the tensor_map of parameter '{name}' is invalid for its "
                                      f"dev_matrix: {self.describe()} (each entry must be -1 or a distinct device "
                                      f"axis in [0, {n - 1}]).")
                seen.append(a)
        self._check_opt(name, api)

    def _check_opt(self, name, api):
        size = self.opt_size()
        if size == 1:
            return
        repeats = [self.dev_matrix[p] for p in self._repeated_axes()]
        remaining = size
        for d in reversed(repeats):   # innermost repeated axes first, as MindSpore assigns them
            if remaining <= 1:
                break
            if remaining % d == 0:
                remaining //= d
            elif d % remaining == 0:
                remaining = 1
            else:
                break
        if remaining != 1:
            raise LayoutError(f"For '{api}', the optimizer shard size {self.opt_weight_shard_size} of parameter "
                              f"'{name}' does not fit the repeated device axes {repeats} of its layout "
                              f"({self.describe()}).")

    # -------------------------------------------------------------------------------- ranks
    def coord(self, rank):
        """``rank``'s coordinates in the device matrix (row-major, last axis fastest)."""
        coord = []
        for d in reversed(self.dev_matrix):
            coord.append(rank % d)
            rank //= d
        return coord[::-1]

    def slice_index(self, rank):
        """Per-dimension slice index of ``rank`` (model parallel only)."""
        coord = self.coord(rank)
        out = []
        for i in range(len(self.tensor_map)):
            idx = 0
            for p in self._axes(i):
                idx = idx * self.dev_matrix[p] + coord[p]
            out.append(idx)
        return tuple(out)

    def opt_index(self, rank):
        size = self.opt_size()
        if size == 1:
            return 0
        coord = self.coord(rank)
        rep = 0
        for p in self._repeated_axes():
            rep = rep * self.dev_matrix[p] + coord[p]
        return rep % size

    # -------------------------------------------------------------------------------- boxes
    def check_shape(self, name, full_shape, api):
        full_shape = tuple(full_shape)
        if len(full_shape) != len(self.tensor_map):
            raise LayoutError(f"For '{api}', the parameter '{name}' has shape {full_shape}, but its strategy "
                              f"({self.describe()}) is for a {len(self.tensor_map)}-D tensor.")
        strat = self.strategy()
        uneven = bool(self.param_split_shape)
        for i, (dim, s) in enumerate(zip(full_shape, strat)):
            if dim % s and not (uneven and i == 0):
                raise LayoutError(f"For '{api}', the dimension {i} of parameter '{name}' (shape {full_shape}) can "
                                  f"not be split into {s} slices by its strategy ({self.describe()}).")
        opt = self.opt_size()
        if opt > 1 and full_shape and (full_shape[0] // strat[0]) % opt:
            raise LayoutError(f"For '{api}', the dimension 0 of the slices of parameter '{name}' (shape "
                              f"{full_shape}, {strat[0]} slices) can not be split by the optimizer shard size "
                              f"{opt} ({self.describe()}).")

    def _dim0_range(self, index, full0):
        """(start, stop) of slice ``index`` (the flat slice index tuple) along dimension 0."""
        strat = self.strategy()
        if not self.param_split_shape:
            step = full0 // strat[0]
            return index[0] * step, (index[0] + 1) * step
        # uneven: sizes given per flat slice index; dimension 0 offsets add up over the same other indices
        flat = np.ravel_multi_index(index, strat)
        start = 0
        for k in range(index[0]):
            start += self.param_split_shape[np.ravel_multi_index((k,) + index[1:], strat)]
        return start, start + self.param_split_shape[flat]

    def mp_box(self, rank, full_shape):
        index = self.slice_index(rank)
        strat = self.strategy()
        box = []
        for i, (dim, s) in enumerate(zip(full_shape, strat)):
            if i == 0:
                box.append(self._dim0_range(index, dim))
            else:
                step = dim // s
                box.append((index[i] * step, (index[i] + 1) * step))
        return tuple(box)

    def box(self, rank, full_shape, opt=True):
        """The part of ``full_shape`` that ``rank`` stores, as ``((start, stop), ...)``."""
        box = list(self.mp_box(rank, full_shape))
        size = self.opt_size() if opt else 1
        if size > 1 and box:
            start, stop = box[0]
            step = (stop - start) // size
            k = self.opt_index(rank)
            box[0] = (start + k * step, start + (k + 1) * step)
        return tuple(box)

    def take(self, full, rank, opt=True):
        """``rank``'s slice of the full array ``full``."""
        return full[tuple(slice(a, b) for a, b in self.box(rank, full.shape, opt))]

    def full_shape_from_slice(self, slice_shape, opt=True):
        """The full shape whose (even) slices have ``slice_shape``."""
        strat = self.strategy()
        shape = [d * s for d, s in zip(slice_shape, strat)]
        if opt and shape and self.opt_size() > 1:
            shape[0] *= self.opt_size()
        return tuple(shape)


def _layout_from_message(msg, name, tensor_shape):
    if not len(msg.dev_matrix) or not len(msg.tensor_map):
        raise ValueError(f"The layout of parameter '{name}' has no dev_matrix or tensor_map.")
    dev = tuple(msg.dev_matrix[0].dim)
    if len(msg.tensor_map) > 1:   # one TensorMap per dimension (a multi-axis Layout); empty ones are padding
        tmap = tuple(tuple(m.dim) if len(m.dim) > 1 else m.dim[0] for m in msg.tensor_map if len(m.dim))
    else:
        tmap = tuple(msg.tensor_map[0].dim)
    split = tuple(msg.param_split_shape[0].dim) if len(msg.param_split_shape) else ()
    offset = tuple(msg.indices_offset[0].dim) if len(msg.indices_offset) else ()
    return ParamLayout(dev, tmap, tensor_shape, int(msg.field), int(msg.opt_weight_shard_step),
                       int(msg.opt_weight_shard_size), split, offset)


def _norm_map(value, name):
    out = []
    for entry in value:
        if isinstance(entry, (list, tuple)):
            axes = _ints(entry, "tensor_map", name)
            out.append(axes if len(axes) > 1 else (axes[0] if axes else -1))
        else:
            out.append(int(entry))
    return tuple(out)


def as_layout(value, name="", tensor_shape=None):
    """Normalise any accepted layout form into a :class:`ParamLayout`.

    Accepted: a :class:`ParamLayout`; a ``ParallelLayouts`` protobuf message (ours or MindSpore's); a dict
    with ``dev_matrix``/``tensor_map`` (and the other field names); a ``(dev_matrix, tensor_map, full_shape)``
    triple (operator sharding's ``parameter_layouts``); a MindSpore layout list ``[dev_matrix, tensor_map,
    param_split_shape, field, opt_weight_shard_step, opt_weight_shard_size, ...]`` (as ``_convert_to_list``
    and ``infer_predict_layout`` give it; a string at index 5 is an optimizer-shard *group* and is ignored
    here).
    """
    if isinstance(value, ParamLayout):
        return value if tensor_shape is None else dataclasses.replace(value, tensor_shape=tuple(tensor_shape))
    if hasattr(value, "dev_matrix") and hasattr(value, "opt_weight_shard_size") and hasattr(value, "ListFields"):
        return _layout_from_message(value, name, tuple(tensor_shape) if tensor_shape else None)
    if isinstance(value, dict):
        shape = value.get("tensor_shape", tensor_shape)
        return ParamLayout(_ints(value["dev_matrix"], "dev_matrix", name), _norm_map(value["tensor_map"], name),
                           tuple(shape) if shape else None, int(value.get("field", 0)),
                           int(value.get("opt_weight_shard_step", 0)), int(value.get("opt_weight_shard_size", 0)),
                           _ints(value.get("param_split_shape", ()), "param_split_shape", name),
                           _ints(value.get("indices_offset", ()), "indices_offset", name))
    if isinstance(value, (list, tuple)) and len(value) >= 2:
        dev, tmap = _ints(value[0], "dev_matrix", name), _norm_map(value[1], name)
        if len(value) == 3:   # (dev_matrix, tensor_map, full_shape)
            shape = value[2] if value[2] is not None else tensor_shape
            return ParamLayout(dev, tmap, tuple(int(d) for d in shape) if shape is not None else None)
        split = _ints(value[2], "param_split_shape", name) if len(value) > 2 and value[2] else ()
        field = int(value[3]) if len(value) > 3 else 0
        step = int(value[4]) if len(value) > 4 and not isinstance(value[4], str) else 0
        size = int(value[5]) if len(value) > 5 and not isinstance(value[5], str) else 0
        return ParamLayout(dev, tmap, tuple(tensor_shape) if tensor_shape else None, field, step, size, split)
    raise TypeError(f"The layout of parameter '{name}' must be a ParallelLayouts, a dict or a list "
                    f"[dev_matrix, tensor_map, ...], but got {type(value).__name__}.")


def assemble(region, pieces, dtype, name, api):
    """Fill ``region`` (``((start, stop), ...)``, full-tensor coordinates) from ``pieces``.

    ``pieces`` is a list of ``(box, array, rank)``; each piece's intersection with the region is copied (pieces
    may overlap: a whole model-parallel slice next to optimizer shards of it). Raises :class:`LayoutError`
    when the pieces leave a hole in the region.
    """
    shape = tuple(b - a for a, b in region)
    out = np.empty(shape, dtype=dtype)
    filled = np.zeros(shape, dtype=bool)
    for box, array, _ in pieces:
        inter = [(max(a, c), min(b, d)) for (a, b), (c, d) in zip(box, region)]
        if any(lo >= hi for lo, hi in inter):
            continue
        src = tuple(slice(lo - a, hi - a) for (lo, hi), (a, _) in zip(inter, box))
        dst = tuple(slice(lo - c, hi - c) for (lo, hi), (c, _) in zip(inter, region))
        out[dst] = array[src]
        filled[dst] = True
    if not filled.all():
        raise LayoutError(f"For '{api}', the slices of parameter '{name}' do not cover its region {list(region)}: "
                          f"a checkpoint slice is missing.")
    return out
