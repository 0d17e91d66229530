"""``OptTFTWrapper``: the optimizer wrapper of MindIO TFT (training fault tolerance: last-step checkpoints,
uncorrectable-error recovery, rank replacement). It reports the step's start and end around the wrapped
optimizer; MindIO's controller acts on those reports. As in MindSpore it needs ``MS_ENABLE_TFT`` to switch a
TFT feature on (``'{TTP:1,UCE:1,ARF:1}'``) and the Ascend device.
"""
import os

import mindspore.context as context
import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.optim.optimizer import Optimizer

__all__ = ["OptTFTWrapper"]


class OptTFTWrapper(Optimizer):
    """Wrap ``opt`` for MindIO TFT: each call counts the step in ``tft_g_one_flag`` and runs ``opt``.

    Args:
        opt (Optimizer): the optimizer to wrap.

    Examples:
        >>> # with MS_ENABLE_TFT='{TTP:1}' on Ascend
        >>> opt = nn.OptTFTWrapper(nn.Momentum(net.trainable_params(), 0.1, 0.9))
    """

    def __init__(self, opt, **kwargs):
        if not isinstance(opt, Optimizer):
            raise MSTypeError(f"For 'OptTFTWrapper', the argument 'opt' must be Optimizer type, but got {type(opt)}.")
        super().__init__(opt.learning_rate, opt._parameters)
        tft_env = os.getenv("MS_ENABLE_TFT", "")
        if "TTP:1" not in tft_env and "UCE:1" not in tft_env and "ARF:1" not in tft_env:
            raise MSValueError("MindIO TFT regitster need custom switch on[MS_ENABLE_TFT='{TTP:1,UCE:1,ARF:1}']!")
        if context.get_context("device_target") != "Ascend":
            raise MSValueError("MindIO adataper only support on Ascend device!")
        self.opt = opt
        self.tft_g_one_flag = Parameter(Tensor([1], dtype=mstype.int32))
        self.global_step = opt.global_step

    def construct(self, gradients):
        ops.assign_add(self.tft_g_one_flag, Tensor([1], mstype.int32))
        return self.opt(gradients)
