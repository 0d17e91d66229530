"""What every distributed operator rule shares: strategy checks, the operator's device matrix, and moving
inputs to the layouts a strategy asks for.

An operator's strategy cuts *loop dimensions* (MatMul: ``i, k, j``; an elementwise op: the output's
dimensions). Its device matrix is MindSpore's: the cut counts of the loop dimensions in order, with the
repeat count ``device_num / product`` in front when the strategy uses fewer devices than there are (those
ranks compute copies). A tensor whose dimensions are loop dimensions ``(l1, l2, ...)`` gets the tensor map
that points each dimension at its loop dimension's axis (counted from the right).
"""
from __future__ import annotations

from mindspore.plugin import MSValueError
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.parallel import _layouts
from mindspore.parallel._layouts import TensorLayout, axes_group, layout_of, parameter_layout, set_layout, \
    split_parameter
from mindspore.parallel._redistribute import all_reduce, mirror, redistribute

__all__ = ["Plan", "full_shape", "check_strategy", "to_layout"]


def full_shape(x):
    """The global shape of ``x`` (a block carrying a layout, or a whole tensor)."""
    layout = layout_of(x)
    if layout is None and isinstance(x, Parameter):
        layout = parameter_layout(x)
    return layout.full_shape if layout is not None else tuple(x.shape)


def _fmt(strategy):
    return str(tuple(tuple(s) for s in strategy))


def check_strategy(prim, strategy, shapes):
    """MindSpore's checks of ``in_strategy`` against the input shapes and the device number."""
    name = prim.name
    _, device_num = _layouts.world()
    if len(strategy) != len(shapes):
        raise MSValueError(f"For '{name}', the strategy is {_fmt(strategy)}, strategy len: {len(strategy)} is not "
                           f"equal to inputs size: {len(shapes)}.")
    for i, (s, shape) in enumerate(zip(strategy, shapes)):
        if len(s) != len(shape):
            raise MSValueError(f"For '{name}', the strategy is {_fmt(strategy)}, the size of the strategy of input "
                               f"{i}: {len(s)} is not equal to the dimension of the input: {len(shape)} (shape "
                               f"{tuple(shape)}).")
        for d, (cut, size) in enumerate(zip(s, shape)):
            if not isinstance(cut, int) or isinstance(cut, bool) or cut <= 0:
                raise MSValueError(f"For '{name}', the strategy is {_fmt(strategy)}, the value of strategy must be "
                                   f"a positive integer, but got {cut!r}.")
            if size % cut:
                raise MSValueError(f"For '{name}', the strategy is {_fmt(strategy)}, shape {size} of dimension {d} "
                                   f"of input {i} can not be divisible by strategy value {cut}.")
        prod = 1
        for cut in s:
            prod *= cut
        if prod > device_num or device_num % prod:
            raise MSValueError(f"For '{name}', the strategy is {_fmt(strategy)}, the product of the strategy of "
                               f"input {i} is {prod}, which must divide the device num {device_num}.")


def _optimizer_shard(param, want):
    """With ``enable_parallel_optimizer``: the layout that also cuts the first dimension of a parameter over the
    ranks holding copies of its block (one device-matrix axis), so each keeps 1/copies of the weight and of its
    optimizer states; the operator gathers it back (an AllGather, whose bprop reduce-scatters the gradient).
    None when it does not apply (the option is off, ``param.parallel_optimizer`` is False, the first dimension
    is already cut or does not divide, or the copies span several axes)."""
    from mindspore import context
    if not context.get_auto_parallel_context("enable_parallel_optimizer") or not param.parallel_optimizer:
        return None
    axes = want.copy_axes()
    if len(axes) != 1 or not want.full_shape or want.splits(0) != 1:
        return None
    if want.full_shape[0] % want.dev_matrix[axes[0]]:
        return None
    tmap = list(want.tensor_map)
    tmap[0] = len(want.dev_matrix) - 1 - axes[0]
    return TensorLayout(want.dev_matrix, tmap, want.full_shape)


def to_layout(x, want, rank, device_num):
    """``x`` as this rank's block of layout ``want``. A whole network parameter is cut once (it keeps only its
    block) and passes through its mirror."""
    if isinstance(x, Parameter):
        have = parameter_layout(x)
        if have is None:
            store = _optimizer_shard(x, want) or want
            if not store.is_whole():
                split_parameter(x, store, rank)
            have = parameter_layout(x)
        x = mirror(x, have, rank, device_num)
        return redistribute(x, have, want if not want.is_whole() else None, rank, device_num)
    if not isinstance(x, Tensor):
        return x
    return redistribute(x, layout_of(x), want if not want.is_whole() else None, rank, device_num)


class Plan:
    """One application of a sharded operator: its loop dimensions, their cuts and its device matrix."""

    def __init__(self, prim, loops):
        """``loops``: ``[(letter, cut), ...]`` in device-matrix order."""
        self.prim = prim
        self.rank, self.device_num = _layouts.world()
        self.cuts = dict(loops)
        prod = 1
        for _, cut in loops:
            prod *= cut
        if prod > self.device_num or self.device_num % prod:
            raise MSValueError(f"For '{prim.name}', the strategy {prim.attrs.get('in_strategy')} uses {prod} "
                               f"devices, which must divide the device num {self.device_num}.")
        self.repeat = self.device_num // prod
        self.letters = ([None] if self.repeat > 1 else []) + [l for l, _ in loops]
        self.dev_matrix = tuple(([self.repeat] if self.repeat > 1 else []) + [c for _, c in loops])

    def axis_of(self, letter):
        return self.letters.index(letter)

    def layout(self, letters, shape):
        """The layout of a tensor of global ``shape`` whose dimensions are ``letters`` (None: uncut)."""
        n = len(self.dev_matrix)
        tmap = [-1 if (l is None or l not in self.cuts) else n - 1 - self.axis_of(l) for l in letters]
        return TensorLayout(self.dev_matrix, tmap, shape)

    def take(self, x, letters):
        """``x`` as this rank's block of the layout ``letters`` asks for (see :func:`to_layout`)."""
        return to_layout(x, self.layout(letters, full_shape(x)), self.rank, self.device_num)

    def reduce_over(self, x, letters, op="sum"):
        """Complete a partial result: all-reduce over the axes of the contracted, cut ``letters``."""
        axes = [self.axis_of(l) for l in letters if self.cuts.get(l, 1) > 1]
        if not axes:
            return x
        return all_reduce(x, axes_group(self.dev_matrix, axes, self.rank), op)

    def out(self, y, letters, shape):
        """Record ``y`` as this rank's block of the output layout ``letters``."""
        return set_layout(y, self.layout(letters, shape))
