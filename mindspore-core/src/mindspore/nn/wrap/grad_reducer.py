"""DistributedGradReducer: all-reduce the gradients over the data-parallel group (and average them).

Semantics (MindSpore 2.10)
--------------------------
Every gradient is cast to float32, summed over the ranks of ``group`` and, with ``mean``, multiplied by
``1 / degree`` (a float32 constant), then cast back to its own dtype. Gradients of parameters with
``layerwise_parallel=True`` are left alone (neither reduced nor averaged). In one process the all-reduce is
the identity.

Buckets (communication fusion)
------------------------------
MindSpore tags each AllReduce with a ``fusion`` id and its backend fuses the tagged all-reduces into few
large ones. Here the fusion happens in this Cell: the gradients are split into *buckets*, each bucket is
flattened into one float32 buffer (``concat`` of the reshaped gradients), all-reduced with ONE ``AllReduce``,
averaged once, then split back into the gradients. The buckets follow MindSpore's rules, in parameter order:

1. the fusion id of each gradient: the parameters' ``comm_fusion`` when they differ; otherwise the split
   indices (``set_auto_parallel_context(all_reduce_fusion_config=[i0, i1, ...])`` or ``comm_fusion``'s
   ``"index"`` mode) give gradients ``0..i0`` one id, ``i0+1..i1`` the next, ...; otherwise ``fusion_type``
   for all (MindSpore's default 1). Fusion id 0 means "never fused": such a gradient is its own bucket.
2. within one fusion id, gradients are packed in order into buckets of at most the size threshold (``comm_fusion``
   ``{"allreduce": {"mode": "size", "config": MB}}``; ``"auto"``: 64 MB; ``"index"`` mode or split indices:
   no threshold). ``comm_fusion={"openstate": False}`` turns fusion off (one all-reduce per gradient).

The plan is fixed at construction from the parameters' shapes (``bucket_plan`` shows it) and checked against
the gradients' shapes at every call. A bucket of one gradient is all-reduced without the copy.

Ordering in GRAPH_MODE: the buckets become applies of the compiled graph (concat, AllReduce, mul, split,
reshape); the graph executor runs the applies of a graph one after the other in program order, where they stand
after the whole backward pass (the gradients are handed to this Cell as one tuple). This Cell's ``AllReduce``
carries the attribute ``grad_bucket``; on CPU, mindspore-parallel's backend pass (``mindspore.parallel._overlap``)
then splits each bucket's all-reduce into a start, moved (with the bucket's packing) right after the bucket's
last gradient is computed, and a wait right before the first use of the reduced buffer, so the reduction
overlaps the rest of the backward pass (an ``MPI_Iallreduce`` in a group of 2, a communication thread running
the blocking one in larger groups), with bitwise the same results (``MS_DISABLE_GRAD_OVERLAP=1`` turns the pass
off; measurements in that module). Other backends run the blocking all-reduce where the program puts it.
PYNATIVE: the gradients come from the tape as one tuple as well, so the buckets run
after the backward pass there too; the bucketing's gain is fewer, larger messages.
"""
from __future__ import annotations

import mindspore.context as context
import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore._plugin.collective import process_group
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell

__all__ = ["DistributedGradReducer"]

_WORLD_GROUPS = ("hccl_world_group", "nccl_world_group", "mccl_world_group")
_AUTO_THRESHOLD_MB = 64
_FIRST_INDEX_FUSION = 1024   # MindSpore numbers the fusion groups made from split indices from 2**10


def _current_world_group():
    """The world group's name for the initialised communication backend (``hccl_world_group`` without one)."""
    try:
        from mindspore.communication.management import GlobalComm
    except ImportError:
        return _WORLD_GROUPS[0]
    return GlobalComm.WORLD_COMM_GROUP


def _fusion_ids(parameters, fusion_type, split_indices):
    """One fusion id per parameter, as MindSpore assigns them (see the module docstring)."""
    per_param = [int(getattr(p, "comm_fusion", 1)) for p in parameters]
    if len(set(per_param)) > 1:
        return per_param, False
    if split_indices and fusion_type == 1:
        ids, fusion, split = [], _FIRST_INDEX_FUSION, 0
        for i in range(len(parameters)):
            ids.append(fusion)
            if split < len(split_indices) and split_indices[split] <= i:
                fusion += 1
                split += 1
        return ids, True
    return [fusion_type] * len(parameters), False


def _bucket_plan(parameters, reduce_mask, fusion_type):
    """Lists of gradient indices, one list per all-reduce, from the parameters and the auto-parallel context."""
    comm_fusion = context.get_auto_parallel_context("comm_fusion")
    split_indices = context.get_auto_parallel_context("all_reduce_fusion_config")
    ids, by_index = _fusion_ids(parameters, fusion_type, split_indices)
    allreduce = comm_fusion.get("allreduce", {"mode": "auto", "config": None})
    threshold = None
    if not by_index and allreduce["mode"] == "auto":
        threshold = _AUTO_THRESHOLD_MB
    elif not by_index and allreduce["mode"] == "size":
        threshold = allreduce["config"]
    threshold_bytes = None if threshold is None else float(threshold) * 1024 * 1024
    fused = comm_fusion.get("openstate", True)
    buckets, open_bucket = [], {}   # fusion id -> (bucket, bytes so far)
    for i, (param, fusion, reduce) in enumerate(zip(parameters, ids, reduce_mask)):
        if not reduce:
            continue
        if not fused or fusion == 0:
            buckets.append([i])
            continue
        nbytes = 4 * _numel(param.shape)   # float32 on the wire
        current = open_bucket.get(fusion)
        if current is not None and threshold_bytes is not None and current[1] + nbytes > threshold_bytes:
            current = None
        if current is None:
            bucket = [i]
            buckets.append(bucket)
            open_bucket[fusion] = (bucket, nbytes)
        else:
            current[0].append(i)
            open_bucket[fusion] = (current[0], current[1] + nbytes)
    return buckets


def _numel(shape):
    n = 1
    for s in shape:
        n *= int(s)
    return n


class DistributedGradReducer(Cell):
    """A Cell that all-reduces gradients for data-parallel training, in fused buckets.

    Args:
        parameters (list): the parameters whose gradients are reduced (one gradient per parameter, same order).
        mean (bool): divide the sums by ``degree``. Default: ``None`` (the ``gradients_mean`` of the
            auto-parallel context).
        degree (int): the divisor of the mean. Default: ``None`` (the size of ``group``).
        fusion_type (int): the fusion id of the gradients when the parameters do not set their own and no split
            indices are given; 0 turns fusion off. Default: ``1``.
        group (str): the communication group. Default: the world group.

    Inputs:
        - **grads** (Union[Tensor, tuple[Tensor]]) - the gradients.

    Outputs:
        tuple[Tensor], the reduced gradients, each in its input's dtype and shape.

    Raises:
        ValueError: ``degree`` is not a positive int.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> reducer = nn.DistributedGradReducer([w], mean=True, degree=1)
        >>> print(reducer((ms.Tensor(np.ones(2, np.float32)),))[0])
        [1. 1.]
    """

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group="hccl_world_group"):
        super().__init__(auto_prefix=False)
        if not isinstance(group, str):
            raise MSTypeError(f"For 'DistributedGradReducer', the 'group' must be a str, but got {type(group)}.")
        if group in _WORLD_GROUPS:
            group = _current_world_group()
        if mean is None:
            mean = context.get_auto_parallel_context("gradients_mean")
        if not isinstance(mean, bool):
            raise MSTypeError(f"For 'DistributedGradReducer', the 'mean' must be a bool, but got {type(mean)}.")
        if degree is None:
            degree = process_group(group).size
        elif isinstance(degree, bool) or not isinstance(degree, int) or degree <= 0:
            raise MSValueError(f"For 'DistributedGradReducer', parameter 'degree' in DistributedGradReducer should "
                               f"large than 0 and be int, degree: {degree}.")
        if isinstance(fusion_type, bool) or not isinstance(fusion_type, int) or fusion_type < 0:
            raise MSTypeError(f"For 'DistributedGradReducer', the 'fusion_type' must be a non-negative int, but got "
                              f"{fusion_type!r}.")
        self.parameters = tuple(parameters)
        self.mean = mean
        self.degree = Tensor(1.0 / degree, mstype.float32)
        self.group = group
        self.fusion_type = fusion_type
        self.allreduce_filter = tuple(not getattr(p, "layerwise_parallel", False) for p in self.parameters)
        self.bucket_plan = _bucket_plan(self.parameters, self.allreduce_filter, fusion_type)
        self._shapes = tuple(tuple(p.shape) for p in self.parameters)
        self.allreduce = ops.AllReduce(group=group)
        self.allreduce.add_prim_attr("grad_bucket", True)   # GRAPH_MODE: may overlap the backward pass
        self.enable_tuple_broaden = True

    def _reduce_bucket(self, grads):
        """All-reduce float32 gradients together (one AllReduce) and average them."""
        single = len(grads) == 1 and grads[0].ndim > 0
        if single:
            flat = grads[0]
        else:   # a scalar gradient travels as a (1,) buffer too
            flat = ops.concat([ops.reshape(g, (-1,)) for g in grads])
        total = self.allreduce(flat)
        if self.mean:
            total = ops.mul(total, self.degree)
        if single:
            return [total]
        sizes = [_numel(g.shape) for g in grads]
        pieces = ops.split(total, sizes)
        return [ops.reshape(piece, g.shape) for piece, g in zip(pieces, grads)]

    def construct(self, grads):
        grads = tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)
        if len(grads) != len(self.parameters):
            raise MSValueError(f"For 'DistributedGradReducer', the number of gradients must be the number of "
                               f"parameters ({len(self.parameters)}), but got {len(grads)}.")
        out = list(grads)
        for bucket in self.bucket_plan:
            for i in bucket:
                if tuple(grads[i].shape) != self._shapes[i]:
                    raise MSValueError(f"For 'DistributedGradReducer', the gradient {i} must have the shape of "
                                       f"parameter '{self.parameters[i].name}' {self._shapes[i]}, but got "
                                       f"{tuple(grads[i].shape)}.")
            members = [grads[i] if grads[i].dtype == mstype.float32 else ops.cast(grads[i], mstype.float32)
                       for i in bucket]
            for i, reduced in zip(bucket, self._reduce_bucket(members)):
                out[i] = reduced if grads[i].dtype == mstype.float32 else ops.cast(reduced, grads[i].dtype)
        return tuple(out)
