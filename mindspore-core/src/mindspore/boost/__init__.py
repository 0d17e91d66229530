"""``mindspore.boost``: training accelerations MindSpore bundles as "boost": less batch normalization
(:class:`LessBN`), gradient freezing (:class:`GradientFreeze`, :class:`FreezeOpt`, :func:`freeze_cell`),
gradient accumulation (:class:`GradientAccumulation`), adaptive summation of data-parallel updates
(:class:`AdaSum`), dimension-reduced second-order training (:class:`DimReduce`), per-layer-group loss scales
(:class:`GroupLossScaleManager`), the training steps that apply them (:class:`BoostTrainOneStepCell`,
:class:`BoostTrainOneStepWithLossScaleCell`), and :class:`AutoBoost`, which picks them by level or
configuration. ``Model(..., boost_level="O1")`` uses them in MindSpore.
"""
from mindspore.boost.adasum import AdaSum
from mindspore.boost.base import OptimizerProcess, ParameterProcess
from mindspore.boost.boost import AutoBoost
from mindspore.boost.boost_cell_wrapper import BoostTrainOneStepCell, BoostTrainOneStepWithLossScaleCell
from mindspore.boost.dim_reduce import DimReduce
from mindspore.boost.grad_accumulation import GradientAccumulation
from mindspore.boost.grad_freeze import FreezeOpt, GradientFreeze, freeze_cell
from mindspore.boost.group_loss_scale_manager import GroupLossScaleManager
from mindspore.boost.less_batch_normalization import LessBN

__all__ = ["AutoBoost", "OptimizerProcess", "ParameterProcess", "BoostTrainOneStepCell",
           "BoostTrainOneStepWithLossScaleCell", "LessBN", "GradientFreeze", "FreezeOpt", "freeze_cell",
           "GradientAccumulation", "AdaSum", "DimReduce", "GroupLossScaleManager"]
