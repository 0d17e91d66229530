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

Ordering in GRAPH_MODE: the buckets become applies of the compiled graph (concat, AllReduce, mul, split, reshape);
the graph executor runs the applies of a graph one after the other in program order, where they stand after the
whole backward pass (the gradients are handed to this Cell as one tuple). This Cell's ``AllReduce`` carries the
attribute ``grad_bucket``; on CPU and GPU, mindspore-parallel's backend pass (``mindspore.parallel._overlap``) then
splits each bucket's all-reduce into a start, moved (with the bucket's packing) right after the bucket's last
gradient is computed, and a wait right before the first use of the reduced buffer, so the reduction overlaps the
rest of the backward pass (an ``MPI_Iallreduce`` in a group of 2, a communication thread running the blocking one
in larger groups; on the GPU, NCCL on a stream of its own), with bitwise the same results
(``MS_DISABLE_GRAD_OVERLAP=1`` turns the pass off; measurements in that module). Other backends run the blocking
all-reduce where the program puts it.

PYNATIVE: ``TrainOneStepCell`` and the loss-scale wrappers (so ``Model`` too) run their backward pass inside
:meth:`DistributedGradReducer.overlap`, which registers a final-gradient callback on the tape
(``mindspore._autodiff.tape.on_gradient_final``) for that one backward pass. When the last gradient of a bucket is
final during the walk (every recorded use of its parameter walked: nothing will be accumulated into it again), the
bucket is packed right there (the caller's per-gradient transform, e.g. the loss scale's unscaling, then the same
float32 casts and ``concat`` in the same order) and its all-reduce STARTED with the communicator's
``allreduce_start`` (the one the GRAPH_MODE pass uses: ``MPI_Iallreduce`` in a group of 2, a communication thread
beyond). The call of this Cell after the backward pass (before the optimizer) waits for each started bucket, in
bucket order, and averages, splits and casts back exactly as the blocking path does, so the results are bitwise the
same. Every rank walks the same tape, so the starts come in the same order everywhere; the first started step
checks every bucket's buffer across the ranks (the communicator's check), later steps start unchecked (the plan and
the gradients' shapes and dtypes are fixed). A bucket is started only when all its gradients reached the tape (a
parameter without gradient gets zeros after the pass). A device buffer (GPU) is started by the communicator's
device side (mindspore-parallel's ``nccl()``: NCCL on a stream of its own, which waits for the gradients' producers
on the caller's stream; the caller's stream waits for the reduction in this Cell's call), or, without one, reduced
the blocking way. A bucket this Cell is then not handed exactly those gradients (the same objects) is waited for,
dropped and reduced the blocking way, as are the buckets not started. Nothing overlaps (the blocking path,
unchanged) in one process or without a communicator offering ``allreduce_start``, in GRAPH_MODE and while a graph
is being traced, with ``MS_DISABLE_GRAD_OVERLAP=1`` (which must be the same on every rank), or for callers that do
not use :meth:`overlap`. Measurements on 2 ranks: ``mindspore.parallel._overlap``.
"""
from __future__ import annotations

import os

import numpy as np

import mindspore.context as context
import mindspore.ops as ops
from mindspore._autodiff import tape as _tape
from mindspore._errors import MSTypeError, MSValueError
from mindspore._infer import staging as _staging
from mindspore._plugin.collective import WORLD_GROUPS, process_group, world_group
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell

__all__ = ["DistributedGradReducer"]

_AUTO_THRESHOLD_MB = 64
_FIRST_INDEX_FUSION = 1024   # MindSpore numbers the fusion groups made from split indices from 2**10


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
        if group in WORLD_GROUPS:
            group = world_group()
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
        self._starts = None   # PYNATIVE: the buckets the last overlap() started, for the next call
        self._checked_plan = False   # every bucket started once with the communicator's check (same on every rank)

    def overlap(self, transform=None):
        """PYNATIVE: a context manager for one backward pass whose gradients this Cell is then called on; each
        bucket's all-reduce starts as soon as its gradients are final (module docstring). ``transform(g)``: what
        the caller does to each gradient before handing it over (e.g. unscaling), done here as each gradient is
        final; the caller then takes the gradients from ``.transformed(grads)`` of what it returns. Where nothing
        can overlap, the returned object only applies ``transform``."""
        comm = self._overlap_communicator()
        if comm is None:
            return _NoOverlap(transform)
        return _BucketStarts(self, comm, transform)

    def _overlap_communicator(self):
        if os.environ.get("MS_DISABLE_GRAD_OVERLAP", "") not in ("", "0") or not self.bucket_plan:
            return None
        if _staging.active() or context.get_context("mode") != context.PYNATIVE_MODE:
            return None
        group = process_group(self.group)
        if group.size <= 1 or group.communicator is None:
            return None
        return group.communicator if hasattr(group.communicator, "allreduce_start") else None

    @staticmethod
    def _pack(grads):
        """The float32 gradients of a bucket as one buffer (itself for one gradient that is not a scalar)."""
        if len(grads) == 1 and grads[0].ndim > 0:
            return grads[0]
        return ops.concat([ops.reshape(g, (-1,)) for g in grads])   # a scalar gradient travels as a (1,) buffer

    def _reduce_bucket(self, grads, total=None):
        """All-reduce float32 gradients together (one AllReduce) and average them (``total``: the all-reduced
        buffer, when an overlapped start has already reduced it)."""
        single = len(grads) == 1 and grads[0].ndim > 0
        if total is None:
            total = self.allreduce(self._pack(grads))
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
        starts, self._starts = self._starts, None
        out = list(grads)
        for b, bucket in enumerate(self.bucket_plan):
            for i in bucket:
                if tuple(grads[i].shape) != self._shapes[i]:
                    if starts is not None:
                        starts.drain()
                    raise MSValueError(f"For 'DistributedGradReducer', the gradient {i} must have the shape of "
                                       f"parameter '{self.parameters[i].name}' {self._shapes[i]}, but got "
                                       f"{tuple(grads[i].shape)}.")
            started = None if starts is None else starts.finish(b, grads)
            if started is not None:   # reduced while the backward pass ran: the same members, the same buffer
                members, total = started
            else:
                members = [grads[i] if grads[i].dtype == mstype.float32 else ops.cast(grads[i], mstype.float32)
                           for i in bucket]
                total = None
            for i, reduced in zip(bucket, self._reduce_bucket(members, total)):
                out[i] = reduced if grads[i].dtype == mstype.float32 else ops.cast(reduced, grads[i].dtype)
        return tuple(out)


class _NoOverlap:
    """:meth:`DistributedGradReducer.overlap` where nothing overlaps: only the caller's transform."""

    def __init__(self, transform=None):
        self.transform = transform

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def transformed(self, grads):
        if self.transform is None:
            return grads
        return tuple(self.transform(g) for g in grads)


class _BucketStarts(_NoOverlap):
    """The buckets of one PYNATIVE backward pass, started as their gradients become final."""

    def __init__(self, reducer, comm, transform=None):
        super().__init__(transform)
        self.reducer = reducer
        self.comm = comm
        self.index = {}
        for i, p in enumerate(reducer.parameters):
            self.index.setdefault(id(p), i)
        self.bucket_of = {i: b for b, bucket in enumerate(reducer.bucket_plan) for i in bucket}
        self.left = [len(bucket) for bucket in reducer.bucket_plan]
        self.final = {}     # gradient index -> (the tape's gradient, the transformed one this Cell will see)
        self.started = {}   # bucket index -> (the transformed gradients, their float32 forms, wait)
        self.checked = set()   # the buckets whose start was checked across the ranks
        self.device = False    # the device communicator, looked up by the first device buffer's start
        self.hook = _tape.on_gradient_final(self._final)

    def __enter__(self):
        self.reducer._starts = None
        self.hook.__enter__()
        return self

    def __exit__(self, *exc):
        self.hook.__exit__(*exc)
        if exc[0] is not None:
            self.drain()
        else:
            self.reducer._starts = self
        return False

    def _final(self, key, grad):
        i = self.index.get(key)
        if i is None or grad is None or i in self.final:
            return
        self.final[i] = (grad, grad if self.transform is None else self.transform(grad))
        b = self.bucket_of.get(i)
        if b is None:   # not reduced (layerwise parallel)
            return
        self.left[b] -= 1
        if self.left[b] == 0:
            self._start(b)

    def _start(self, b):
        bucket = self.reducer.bucket_plan[b]
        seen = [self.final[i][1] for i in bucket]
        members = [g if g.dtype == mstype.float32 else ops.cast(g, mstype.float32) for g in seen]
        flat = self.reducer._pack(members)
        data = flat._data
        comm = self.comm if type(data) is np.ndarray else self._device_comm()
        if comm is None:   # a device buffer without a device communicator: reduced the blocking way after the pass
            return
        if self.reducer._checked_plan:   # every bucket's buffer was checked across the ranks at its first start
            recv, wait = comm.allreduce_start(data, "sum", check=False)
        else:
            recv, wait = comm.allreduce_start(data, "sum")
            self.checked.add(b)
        self.started[b] = (seen, members, wait)

    def _device_comm(self):
        """The communicator's device side for device buffers (mindspore-parallel's ``nccl()``: NCCL over the same
        ranks, made by the first call on every rank, which reach this bucket at the same point) when it can start
        an all-reduce, else None."""
        if self.device is False:
            make = getattr(self.comm, "nccl", None)
            device = make() if make is not None else None
            self.device = device if hasattr(device, "allreduce_start") else None
        return self.device

    def transformed(self, grads):
        if self.transform is None:
            return grads
        out = []
        for i, g in enumerate(grads):
            done = self.final.get(i)
            out.append(done[1] if done is not None and done[0] is g else self.transform(g))
        self.final = {}   # the untransformed gradients are no longer needed here
        return tuple(out)

    def finish(self, b, grads):
        """``(float32 members, all-reduced buffer)`` of bucket ``b`` when it was started on exactly ``grads``'
        members, else None (a started one is waited for and dropped)."""
        entry = self.started.pop(b, None)
        if entry is None:
            return None
        seen, members, wait = entry
        total = Tensor._make(wait(), mstype.float32)
        if any(grads[i] is not g for i, g in zip(self.reducer.bucket_plan[b], seen)):
            return None
        if len(self.checked) == len(self.reducer.bucket_plan):
            self.reducer._checked_plan = True
        return members, total

    def drain(self):
        """Wait for every started all-reduce (an error path: the buffers must outlive the reductions)."""
        started, self.started = self.started, {}
        for _, _, wait in started.values():
            wait()
