"""``GroupLossScaleManager``: a loss scale per group of layers (enhanced mixed precision), for
:class:`mindspore.boost.BoostTrainOneStepWithLossScaleCell` when the boost configuration turns
``loss_scale_group`` on."""
import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell

__all__ = ["GroupLossScaleManager"]


class GroupLossScaleManager(Cell):
    """Loss scales per layer group.

    Args:
        init_loss_scale (float): the initial scale.
        loss_scale_groups (list): the groups of layers (lists of parameter or cell names) sharing a scale.

    Inputs (as a Cell): ``(x, layer1, layer2)``: ``x`` rescaled from group ``layer2``'s scale to ``layer1``'s.

    Examples:
        >>> from mindspore import boost
        >>> manager = boost.GroupLossScaleManager(4096, [["conv1"], ["fc"]])
        >>> manager.set_loss_scale_status(2, 4096.0)
    """

    def __init__(self, init_loss_scale, loss_scale_groups):
        super().__init__()
        self._loss_scale = init_loss_scale
        self.loss_scale_groups = loss_scale_groups
        self.loss_scale_number = 0
        self.dynamic_loss_scale = None

    def set_loss_scale_status(self, loss_scale_number, init_loss_scale):
        """Make ``loss_scale_number`` group scales, all ``init_loss_scale`` (or one value each from a list);
        index 0 and the last are the unscaled ends (1)."""
        self.loss_scale_number = loss_scale_number
        self.dynamic_loss_scale = ParameterTuple(
            Parameter(Tensor(1, mstype.float32), name=f"layer_loss_scale_{x}", requires_grad=False)
            for x in range(loss_scale_number + 2))
        values = init_loss_scale if isinstance(init_loss_scale, list) else [init_loss_scale] * loss_scale_number
        for i, value in enumerate(values):
            self.dynamic_loss_scale[i + 1].set_data(Tensor(value, mstype.float32))

    def update_loss_scale_status(self, layer, update_ratio):
        """Multiply group ``layer``'s scale by ``update_ratio``; returns the new scale."""
        scale = self.dynamic_loss_scale[layer + 1]
        new_scale = scale * update_ratio
        ops.assign(scale, new_scale)
        return new_scale

    def construct(self, x, layer1, layer2):
        return x * ops.cast(self.dynamic_loss_scale[layer1] / self.dynamic_loss_scale[layer2], x.dtype)

    def get_loss_scale(self):
        """The initial loss scale."""
        return self._loss_scale

    def get_update_cell(self):
        """This manager (it updates its own scales)."""
        return self
