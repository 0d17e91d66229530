"""``mindspore.nn`` wrapper Cells: loss/eval/grad wrappers, training steps, loss scaling, gradient reduction."""
from mindspore.nn.wrap.cell_wrapper import (ForwardValueAndGrad, GetNextSingleOp, ParameterUpdate, TrainOneStepCell,
                                            WithEvalCell, WithGradCell, WithLossCell)
from mindspore.nn.wrap.grad_reducer import DistributedGradReducer
from mindspore.nn.wrap.micro_batch import (GradAccumulationCell, MicroBatchInterleaved, PipelineCell,
                                            PipelineGradReducer, VirtualDatasetCellTriple)
from mindspore.nn.wrap.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                                          TrainOneStepWithLossScaleCell)

__all__ = ["WithLossCell", "WithGradCell", "ForwardValueAndGrad", "TrainOneStepCell", "WithEvalCell",
           "ParameterUpdate", "DistributedGradReducer", "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell",
           "TrainOneStepWithLossScaleCell", "GradAccumulationCell", "PipelineCell", "MicroBatchInterleaved",
           "VirtualDatasetCellTriple", "PipelineGradReducer", "GetNextSingleOp"]


# MindSpore groups mindspore.nn's cells into its own modules: a cell imported from its `nn.wrap` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.nn")
