"""``mindspore.parallel.nn``: the cell wrappers of parallel training (micro-batches and their gradients).

``GradAccumulation`` splits every input along axis 0 into ``micro_size`` micro-batches, runs the network on each and
sums the outputs, so the gradient of the result is the micro-batches' accumulated gradient (the same computation as
``mindspore.nn.GradAccumulationCell``, with 2.10's names in its messages). ``PipelineCell``,
``MicroBatchInterleaved`` and ``PipelineGradReducer`` are ``mindspore.nn``'s; ``Pipeline`` is ``PipelineCell`` under
2.10's name (micro-batches and ``stage_config``; the stages themselves: :mod:`mindspore.parallel._pipeline`).
"""
from mindspore.nn import GradAccumulationCell, MicroBatchInterleaved, PipelineCell, PipelineGradReducer

__all__ = ["GradAccumulation", "Pipeline", "PipelineCell", "MicroBatchInterleaved", "PipelineGradReducer"]


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


class Pipeline(PipelineCell):
    """Pipeline parallel over ``micro_size`` micro-batches: every input is split along axis 0, ``network`` runs on
    each slice and the outputs are summed; ``stage_config`` (``{cell name: stage}``) sets the ``pipeline_stage`` of
    those sub-cells, ``segment_config`` their ``pipeline_segment``. ``micro_size`` should be at least the number of
    stages.

    Args:
        network (Cell): the network to wrap (usually a loss network).
        micro_size (int): the number of micro-batches; must divide every input's axis 0.
        stage_config (dict, optional): cell name to pipeline stage. Default ``None``.
        segment_config (dict, optional): cell name to pipeline segment. Default ``None``.

    Raises:
        TypeError: ``network`` is not a Cell, or ``micro_size`` not an int.
        ValueError: ``micro_size`` is not positive.
        KeyError: a name of ``stage_config`` / ``segment_config`` is not a cell of ``network``.

    Examples:
        >>> from mindspore import nn
        >>> from mindspore.parallel.nn import Pipeline
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.layer1 = nn.Dense(3, 3)
        ...         self.layer2 = nn.Dense(3, 2)
        ...     def construct(self, x):
        ...         return self.layer2(self.layer1(x))
        >>> net = Pipeline(nn.WithLossCell(Net(), nn.MSELoss()), 2,
        ...                stage_config={"_backbone.layer1": 0, "_backbone.layer2": 1})
        >>> net.network._backbone.layer2.pipeline_stage
        1
    """
