"""``mindspore.nn`` wrapper Cells: loss/eval/grad wrappers, training steps, loss scaling, gradient reduction."""
from mindspore.nn.wrap.cell_wrapper import (ForwardValueAndGrad, ParameterUpdate, TrainOneStepCell, WithEvalCell,
                                            WithGradCell, WithLossCell)
from mindspore.nn.wrap.grad_reducer import DistributedGradReducer
from mindspore.nn.wrap.micro_batch import (GradAccumulationCell, MicroBatchInterleaved, PipelineCell,
                                            PipelineGradReducer, VirtualDatasetCellTriple)
from mindspore.nn.wrap.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                                          TrainOneStepWithLossScaleCell)

__all__ = ["WithLossCell", "WithGradCell", "ForwardValueAndGrad", "TrainOneStepCell", "WithEvalCell",
           "ParameterUpdate", "DistributedGradReducer", "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell",
           "TrainOneStepWithLossScaleCell", "GradAccumulationCell", "PipelineCell", "MicroBatchInterleaved",
           "VirtualDatasetCellTriple", "PipelineGradReducer"]
