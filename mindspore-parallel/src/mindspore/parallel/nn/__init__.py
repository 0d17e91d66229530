"""``mindspore.parallel.nn``: the cell wrappers of parallel training (micro-batches and their gradients).

``GradAccumulation`` splits every input along axis 0 into ``micro_size`` micro-batches, runs the network on each and
sums the outputs, so the gradient of the result is the micro-batches' accumulated gradient (the same computation as
``mindspore.nn.GradAccumulationCell``, with 2.10's names in its messages). ``PipelineCell``,
``MicroBatchInterleaved`` and ``PipelineGradReducer`` are ``mindspore.nn``'s.
"""
from mindspore.nn import GradAccumulationCell, MicroBatchInterleaved, PipelineCell, PipelineGradReducer

__all__ = ["GradAccumulation", "PipelineCell", "MicroBatchInterleaved", "PipelineGradReducer"]


class GradAccumulation(GradAccumulationCell):
    """Gradient accumulation over ``micro_size`` micro-batches of every input (split along axis 0).

    Args:
        network (Cell): the network to wrap (usually a loss network).
        micro_size (int): the number of micro-batches; must divide every input's axis 0.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> from mindspore.parallel.nn import GradAccumulation
        >>> dense = nn.Dense(3, 2, weight_init='ones', bias_init='zeros')
        >>> net = GradAccumulation(nn.WithLossCell(dense, nn.MSELoss()), 2)
        >>> float(net(ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.zeros((4, 2), np.float32))))
        18.0
    """
