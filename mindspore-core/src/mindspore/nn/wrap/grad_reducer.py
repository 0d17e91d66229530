"""DistributedGradReducer: all-reduce the gradients over the data-parallel group (and average them).

Each gradient goes through ``ops.AllReduce`` (sum over the ranks of ``group``); with ``mean`` it is then
multiplied by ``1 / degree`` in float32, as MindSpore does. In one process the all-reduce is the identity.
"""
from __future__ import annotations

from mindspore import context, ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore._plugin.collective import process_group
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell

__all__ = ["DistributedGradReducer"]

_WORLD_GROUPS = ("hccl_world_group", "nccl_world_group", "mccl_world_group")


def _current_world_group():
    """The world group's name for the initialised communication backend (``hccl_world_group`` without one)."""
    try:
        from mindspore.communication.management import GlobalComm
    except ImportError:
        return _WORLD_GROUPS[0]
    return GlobalComm.WORLD_COMM_GROUP


class DistributedGradReducer(Cell):
    """A Cell that all-reduces gradients for data-parallel training.

    Args:
        parameters (list): the parameters whose gradients are reduced (one gradient per parameter).
        mean (bool): divide the sums by ``degree``. Default: ``None`` (the ``gradients_mean`` of the
            auto-parallel context).
        degree (int): the number of devices. Default: ``None`` (the size of ``group``).
        fusion_type (int): accepted for compatibility. Default: ``1``.
        group (str): the communication group. Default: the world group.

    Inputs:
        - **grads** (tuple[Tensor]) - the gradients.

    Outputs:
        tuple[Tensor], the reduced gradients.

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
        if isinstance(degree, bool) or not isinstance(degree, int) or degree <= 0:
            raise MSValueError(f"For 'DistributedGradReducer', the 'degree' must be a positive int, but got "
                               f"{degree!r}.")
        self.parameters = tuple(parameters)
        self.mean = mean
        self.degree = Tensor(1.0 / degree, mstype.float32)
        self.group = group
        self.fusion_type = fusion_type
        self.allreduce = ops.AllReduce(group=group)

    def construct(self, grads):
        grads = tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)
        out = []
        for grad in grads:
            grad = self.allreduce(grad)
            if self.mean:
                grad = ops.mul(grad, ops.cast(self.degree, grad.dtype))
            out.append(grad)
        return tuple(out)
