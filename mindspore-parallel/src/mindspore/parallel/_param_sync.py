"""``parameter_broadcast`` and ``sync_pipeline_shared_parameters``: make the copies of a parameter equal across
ranks (MindSpore 2.10's ``mindspore.parallel`` functions of these names).

``parameter_broadcast(net, layout)``: the ranks that hold the same slice of a parameter under its layout (they
differ only along the device axes the layout repeats it over) all get the slice of the first of them (the lowest
rank). Each rank's slices are exchanged with one all-gather per parameter over the world group, and each rank
keeps the copy of its group's first rank.
"""
import numpy as np

import mindspore as ms
from mindspore import context, nn, ops
from mindspore.communication.management import GlobalComm, get_group_size, get_rank
from mindspore.parallel._checkpoint_layout import as_layout

__all__ = ["parameter_broadcast", "sync_pipeline_shared_parameters"]


def _check_rank(cur_rank, initial_rank, stages):
    rank = get_rank()
    if cur_rank != rank:
        raise ValueError(f"For parameter broadcast, the cur_rank: {cur_rank} is wrong, the current rank is {rank}.")
    per_stage = get_group_size() // max(1, stages)
    if initial_rank != rank // per_stage * per_stage:
        raise ValueError(f"For parameter broadcast, the initial_rank: {initial_rank} is wrong, the start rank of "
                         f"the current pipeline stage is {rank // per_stage * per_stage}.")


def parameter_broadcast(net, layout, cur_rank=0, initial_rank=0):
    """Give every rank holding the same slice of a parameter of ``layout`` (``{name: layout}``, as
    ``net.parameter_layout_dict`` or a strategy file gives it) the values of the lowest such rank."""
    if not layout or not GlobalComm.INITED or get_group_size() <= 1:
        return
    _check_rank(cur_rank, initial_rank, context.get_auto_parallel_context("pipeline_stages"))
    params = net.parameters_dict()
    size, rank = get_group_size(), get_rank()
    gather = ops.AllGather()
    for name in sorted(layout):
        if name not in params:
            raise ValueError(f"For parameter broadcast, the param: {name} can not be found.")
        param = params[name]
        lay = as_layout(layout[name], name)
        full = lay.tensor_shape or lay.full_shape_from_slice(tuple(param.shape))
        if lay.device_num != size:
            raise ValueError(f"For parameter broadcast, the layout of '{name}' is for {lay.device_num} devices, "
                             f"but {size} ranks run.")
        boxes = [lay.box(r, full) for r in range(size)]
        source = boxes.index(boxes[rank])
        if all(boxes.index(b) == r for r, b in enumerate(boxes)):
            continue        # no two ranks hold the same slice
        value = ms.Tensor(np.ascontiguousarray(param.asnumpy()))
        gathered = gather(ops.expand_dims(value, 0))
        if source != rank:
            param.set_data(ms.Tensor(gathered.asnumpy()[source], dtype=param.dtype))


def sync_pipeline_shared_parameters(net):
    """Give the copies of a parameter that two pipeline stages share (an embedding table used again by the last
    stage's head) the value of its first stage's copy. Every rank runs every stage here (see
    :mod:`mindspore.parallel._pipeline`), so a shared parameter is one object on each rank, already equal on every
    stage: there is nothing to copy. Call it after the network's first compile or call, as in MindSpore."""
    if not isinstance(net, nn.Cell):
        raise TypeError(f"For 'sync_pipeline_shared_parameters', the argument 'net' should be a Cell, but got "
                        f"{type(net)}.")
