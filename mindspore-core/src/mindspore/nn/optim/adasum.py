"""AdaSum (Adaptive Summation) optimizer wrappers: ``AdaSumByGradWrapCell`` and ``AdaSumByDeltaWeightWrapCell``.

Algorithm (MindSpore 2.10, after Maleki et al., "AdaSum: Scaling Distributed Training with Adaptive Summation",
arXiv:2006.02924)
--------------------------------------------------------------------------------------------------------------
The ranks form ``group_number`` "servers" of ``device_number`` ranks each (MindSpore fixes 8 ranks a server); ranks
with the same index in their server combine their tensors by recursive halving over ``log2(group_number)`` steps.
At step ``s`` rank ``r`` pairs with ``r +- device_number * 2**s``; the lower one ("left") keeps the right half of
each tensor and sends its left half, the upper one keeps the left half and sends its right half (a tensor is split
on its first axis longer than 1; one without such an axis is "indivisible"). On the kept halves ``a`` (own) and
``b`` (peer's), each scaled by ``max(own half) + 1e-12``, the three dot products ``a.b``, ``|g_left|^2`` and
``|g_right|^2`` (each ``+ 1e-12``) are all-reduced over the ``2**(s+1)`` ranks taking part, and the half becomes

    (1 - a.b / (2 |g_left|^2)) g_left_half + (1 - a.b / (2 |g_right|^2)) g_right_half

An indivisible tensor is averaged instead (all-reduce / ``2**(s+1)``). The halves travel back up the steps in
reverse (each rank sends its combined half to the peer and concatenates what it gets back), and the result is
reshaped to the tensor's shape. ``AdaSumByGradWrapCell`` combines the gradients and hands them to the optimizer;
``AdaSumByDeltaWeightWrapCell`` runs the optimizer first and combines the weight changes ``old - new``, then sets
``param = old - combined``. Both end with an all-reduce of a dummy int32 as a synchronisation point, as MindSpore's.

The send/receive tags are MindSpore's (SHA-256 of step, rank and tensor index, modulo 2**31), the pair groups are
named as MindSpore names them (``"0-8"``, ...) and made through core's collective contract (``create_group`` of
``mindspore._plugin.collective``), like :class:`~mindspore.nn.DistributedGradReducer`. The public wrappers keep
MindSpore's conditions (a parallel mode, at least 16 ranks a power of 2, no optimizer shard, no pipeline);
:class:`_AdaSum` itself takes any ``device_number``/``group_number``, which is how it is tested on 2 ranks.
"""
from __future__ import annotations

import hashlib
import math

import mindspore.context as context
import mindspore.ops as ops
from mindspore._errors import MSTypeError
from mindspore._plugin.collective import create_group, process_group, process_groups, world_group
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.optim.optimizer import Optimizer

__all__ = ["AdaSumByDeltaWeightWrapCell", "AdaSumByGradWrapCell"]

_MAX_NUM_HASH = 2 ** 31
_EPS = 1e-12
_SERVER_SIZE = 8     # MindSpore's ranks per server


def _tag(step, target, index):
    digest = hashlib.sha256(("tag" + str(step) + str(target) + str(index)).encode()).hexdigest()
    return int(int(digest, 16) % _MAX_NUM_HASH)


def _halves(shapes):
    """Split each shape on its first axis longer than 1: (left shapes, right shapes, divisible flags)."""
    left, right, divisible = [], [], []
    for shape in shapes:
        lshape, rshape, flag = list(shape), list(shape), False
        for i, value in enumerate(shape):
            if value > 1:
                lshape[i], rshape[i], flag = value // 2, value - value // 2, True
                break
        left.append(lshape)
        right.append(rshape)
        divisible.append(flag)
    return left, right, divisible


class _Step:
    """The communication plan of one halving step for this rank."""

    def __init__(self, step, rank, device_number, shapes, dtypes, names):
        span = device_number * 2 ** step
        self.left_send = (rank // span) % 2 == 0
        peer = rank + span if self.left_send else rank - span
        self.peer = peer
        left, right, self.divisible = _halves(shapes)
        world = world_group()

        def pair(index, shape, dtype):
            send = ops.Send(sr_tag=_tag(step, rank, index), dest_rank=peer, group=world)
            recv = ops.Receive(sr_tag=_tag(step, peer, index), src_rank=peer, shape=tuple(shape), dtype=dtype,
                               group=world)
            return send, recv, tuple(shape)      # a half travels in the shape its receiver expects

        n = len(shapes)
        lefts = [pair(i, s, d) for i, (s, d) in enumerate(zip(left, dtypes))]
        rights = [pair(n + i, s, d) for i, (s, d) in enumerate(zip(right, dtypes))]
        for i, name in enumerate(names):
            for prim in lefts[i][:2] + rights[i][:2]:
                prim.add_prim_attr("opposite_rank", peer)
                prim.add_prim_attr("target_param", name)
        if self.left_send:      # keeps the right half: sends the left one forward, the right one back
            self.forward = [(s, r, shape) for (s, _, shape), (_, r, _) in zip(lefts, rights)]
            self.rollback = [(s, r, shape) for (_, r, _), (s, _, shape) in zip(lefts, rights)]
            self.next_shapes = right
        else:
            self.forward = [(s, r, shape) for (_, r, _), (s, _, shape) in zip(lefts, rights)]
            self.rollback = [(s, r, shape) for (s, _, shape), (_, r, _) in zip(lefts, rights)]
            self.next_shapes = left
        members = [(rank // device_number // 2 ** (step + 1) * 2 ** (step + 1) + k) * device_number
                   + rank % device_number for k in range(2 ** (step + 1))]
        self.group = "-".join(str(m) for m in members)
        if process_group(world).size > 1 and self.group not in process_groups():
            create_group(self.group, members)
        self.allreduce = ops.AllReduce(ops.ReduceOp.SUM, self.group)
        self.node_num = 2 ** (step + 1)


def _flat(x):
    return ops.reshape(x, (-1,)) if x.ndim != 1 else x


class _AdaSum(Cell):
    """AdaSum of ``delta_weights`` over the ranks (see the module docstring); ``construct(delta_weights, parameters,
    old_parameters)`` sets each parameter to ``old - AdaSum(delta)`` and returns the parameters."""

    def __init__(self, rank, device_number, group_number, parameter_tuple):
        super().__init__()
        self.rank = rank
        self.device_number = device_number
        self.group_number = group_number
        self.parameter_tuple = parameter_tuple
        self.calc_times = int(math.log(group_number, 2))
        names = ["adasum_delta_weight." + p.name for p in parameter_tuple]
        dtypes = [p.dtype for p in parameter_tuple]
        shapes = [[int(s) for s in p.shape] for p in parameter_tuple]
        self.steps = []
        for step in range(self.calc_times):
            plan = _Step(step, rank, device_number, shapes, dtypes, names)
            self.steps.append(plan)
            shapes = plan.next_shapes

    def _combine(self, plan, index, local, recv):
        """The AdaSum of this rank's kept half ``local`` and the peer's ``recv`` (both of one tensor)."""
        if not plan.divisible[index]:
            return plan.allreduce(local) / plan.node_num
        scale = ops.ReduceMax()(local) + _EPS
        local_s, recv_s = local / scale, recv / scale
        # the norms are the left rank's and the right rank's tensors: each rank adds the halves it holds of both
        left_s, right_s = (local_s, recv_s) if plan.left_send else (recv_s, local_s)
        dot = plan.allreduce(ops.ReduceSum()(local_s * recv_s) + _EPS)
        norm_left = plan.allreduce(ops.ReduceSum()(left_s * left_s) + _EPS)
        norm_right = plan.allreduce(ops.ReduceSum()(right_s * right_s) + _EPS)
        left, right = (local, recv) if plan.left_send else (recv, local)
        return (1 - dot / (2 * norm_left)) * left + (1 - dot / (2 * norm_right)) * right

    def _forward(self, plan, tensors):
        out = []
        for i, x in enumerate(tensors):
            if not plan.divisible[i]:
                out.append(self._combine(plan, i, x, x))
                continue
            x = ops.squeeze(x)
            half = x.shape[0] // 2
            left, right = x[:half], x[half:]
            send, recv, shape = plan.forward[i]
            if plan.left_send:
                got = recv(send(ops.reshape(left, shape)))
                local = right
            else:
                got = recv(right)
                got = ops.depend(got, send(ops.reshape(right, shape)))
                local = left
            out.append(self._combine(plan, i, local, ops.squeeze(got)))
        return out

    def _rollback(self, plan, tensors):
        out = []
        for i, x in enumerate(tensors):
            if not plan.divisible[i]:
                out.append(x)
                continue
            send, recv, shape = plan.rollback[i]
            if plan.left_send:
                got = recv(send(ops.reshape(x, shape)))
                out.append(ops.concat((_flat(got), _flat(x))))
            else:
                got = recv(x)
                got = ops.depend(got, send(ops.reshape(x, shape)))
                out.append(ops.concat((_flat(x), _flat(got))))
        return out

    def combine(self, tensors):
        """The AdaSum of ``tensors`` (one per parameter) over the ranks, each in its own shape."""
        levels = [list(tensors)]
        for plan in self.steps:
            levels.append(self._forward(plan, levels[-1]))
        result = levels[-1]
        for plan in reversed(self.steps):
            result = self._rollback(plan, result)
        return tuple(ops.reshape(r, x.shape) for r, x in zip(result, tensors))

    def construct(self, delta_weights, parameters, old_parameters):
        update = self.combine(delta_weights)
        for param, old, delta in zip(parameters, old_parameters, update):
            ops.assign(param, old - delta)
        return parameters


def _stage_device_num():
    if context._auto_parallel_is_set("device_num"):
        devices = context.get_auto_parallel_context("device_num")
    else:
        devices = process_group(world_group()).size
    return devices // context.get_auto_parallel_context("pipeline_stages")


def _parallel_check(name):
    """MindSpore's conditions for applying AdaSum."""
    mode = context.get_auto_parallel_context("parallel_mode")
    if mode == "stand_alone":
        raise RuntimeError("Stand alone mode is not supported to apply adasum.")
    if context.get_auto_parallel_context("enable_parallel_optimizer"):
        raise RuntimeError("Currently, the optimizer shard is not supported with applying adasum.")
    if context.get_auto_parallel_context("pipeline_stages") > 1:
        raise RuntimeError("Currently, the pipeline parallel is not supported with applying adasum.")
    devices = _stage_device_num()
    if devices < 16 or devices & (devices - 1) != 0:
        raise RuntimeError("The device_num must be at least 16 and must be the power of 2 when applying adasum.")


class _AdaSumWrap(Cell):
    """What both public wrappers share: the checks, the optimizer, the AdaSum plan and the sync all-reduce."""

    def __init__(self, optimizer, name):
        super().__init__(auto_prefix=False)
        _parallel_check(name)
        if not isinstance(optimizer, Optimizer):
            raise MSTypeError(f"For '{name}', the 'optimizer' must be an Optimizer, but got "
                              f"{type(optimizer).__name__}.")
        self.optimizer = optimizer
        self.parameters = optimizer.parameters
        self.grad_clone = ParameterTuple(self.parameters)
        self.adasum = _AdaSum(process_group(world_group()).rank, _SERVER_SIZE,
                              _stage_device_num() // _SERVER_SIZE, self.grad_clone)
        self.sync_tensor = Parameter(Tensor(0, dtype=mstype.int32), name="sync_tensor")
        self._sync = ops.AllReduce(ops.ReduceOp.SUM, world_group())

    def _synchronise(self, after):
        return self._sync(ops.depend(self.sync_tensor, after))


class AdaSumByGradWrapCell(_AdaSumWrap):
    r"""Apply AdaSum to the gradients, then the wrapped optimizer.

    .. math::
        w_{t+1} = w_t - \alpha \cdot [(1 - \frac{g_2^T g_1}{2 \|g_1\|^2}) g_1 + (1 - \frac{g_1^T g_2}{2 \|g_2\|^2}) g_2]

    where the :math:`g_i` are the gradients of the ranks in the data-parallel dimension (ranks with the same index in
    their server of 8).

    Args:
        optimizer (Optimizer): updates the weights; called with the gradients only.

    Inputs:
        - **grads** (tuple[Tensor]) - the gradients, as the optimizer takes them.

    Raises:
        RuntimeError: in stand-alone mode, with the optimizer shard, with pipeline stages, or when the number of
            devices is not a power of 2 of at least 16.

    Supported Platforms:
        ``Ascend`` ``GPU`` ``CPU``

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> # on 16 ranks, after communication.init() and a parallel mode
        >>> net = nn.Dense(4, 2)
        >>> optim = nn.AdaSumByGradWrapCell(nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9))
        >>> model = ms.train.Model(net, loss_fn=nn.MSELoss(), optimizer=optim)
    """

    def __init__(self, optimizer):
        super().__init__(optimizer, "AdaSumByGradWrapCell")

    def construct(self, grads):
        combined = self.adasum.combine(grads)
        sync = self._synchronise(combined)
        return ops.depend(self.optimizer(combined), sync)


class AdaSumByDeltaWeightWrapCell(_AdaSumWrap):
    r"""Run the wrapped optimizer, then apply AdaSum to the weight changes it made.

    .. math::
        w_{t+1} = w_t - [(1 - \frac{d_2^T d_1}{2 \|d_1\|^2}) d_1 + (1 - \frac{d_1^T d_2}{2 \|d_2\|^2}) d_2]

    where the :math:`d_i = w_t - w'_{t+1}` are the updates the optimizer made on the ranks in the data-parallel
    dimension (ranks with the same index in their server of 8).

    Args:
        optimizer (Optimizer): updates the weights; called with the gradients only.

    Inputs:
        - **grads** (tuple[Tensor]) - the gradients, as the optimizer takes them.

    Outputs:
        The updated parameters.

    Raises:
        RuntimeError: in stand-alone mode, with the optimizer shard, with pipeline stages, or when the number of
            devices is not a power of 2 of at least 16.

    Supported Platforms:
        ``Ascend`` ``GPU`` ``CPU``

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> # on 16 ranks, after communication.init() and a parallel mode
        >>> net = nn.Dense(4, 2)
        >>> optim = nn.AdaSumByDeltaWeightWrapCell(nn.Momentum(net.trainable_params(), learning_rate=0.1,
        ...                                                    momentum=0.9))
        >>> model = ms.train.Model(net, loss_fn=nn.MSELoss(), optimizer=optim)
    """

    def __init__(self, optimizer):
        super().__init__(optimizer, "AdaSumByDeltaWeightWrapCell")
        self.scale = Tensor(1.0, dtype=mstype.float32)

    def construct(self, grads):
        old = tuple(ops.mul(p, self.scale) for p in self.parameters)
        grads = ops.depend(grads, old)
        done = self.optimizer(grads)
        parameters = ops.depend(self.parameters, done)
        delta = tuple(o - p for p, o in zip(parameters, old))
        updated = self.adasum(delta, parameters, old)
        sync = self._synchronise(updated)
        return ops.depend(parameters, sync)
