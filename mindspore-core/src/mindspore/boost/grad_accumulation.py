"""``GradientAccumulation``: apply the optimizer once every ``max_accumulation_step`` steps, to the mean of the
gradients of those steps (a larger effective batch at the memory cost of one)."""
import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell

__all__ = ["GradientAccumulation", "gradient_accumulation_op", "gradient_clear_op"]

# MindSpore's two per-parameter helpers of this module, which training loops written for MindSpore (MindCV's
# TrainStep) map over their accumulators: ``hyper_map(partial(gradient_accumulation_op, steps), accs, grads)``.
gradient_accumulation_op = ops.MultitypeFuncGraph("gradient_accumulation_op")


@gradient_accumulation_op.register("Int64", "Tensor", "Tensor")
def cumulative_grad_process(accumulation_step, cumulative_grad, grad):
    """Add ``grad / accumulation_step`` to the accumulator ``cumulative_grad`` (in place); return it."""
    ops.assign_add(cumulative_grad, grad / accumulation_step)
    return cumulative_grad


gradient_clear_op = ops.MultitypeFuncGraph("gradient_clear_op")


@gradient_clear_op.register("Tensor")
def clear_grad(cumulative_grad):
    """Zero the accumulator ``cumulative_grad`` (in place)."""
    return ops.assign(cumulative_grad, ops.zeros_like(cumulative_grad))


class GradientAccumulation(Cell):
    """Accumulate ``grads / max_accumulation_step`` each call; on every ``max_accumulation_step``-th call run
    ``optimizer`` on the sum and clear it.

    Args:
        max_accumulation_step (int): how many steps' gradients make one update.
        optimizer (Cell): the optimizer (its ``parameters`` are the ones the gradients belong to).

    Inputs:
        - **loss** (Tensor) - the step's loss (returned unchanged).
        - **grads** (tuple[Tensor]) - the step's gradients.

    Examples:
        >>> from mindspore import nn, boost
        >>> net = nn.Dense(3, 1)
        >>> acc = boost.GradientAccumulation(2, nn.SGD(net.trainable_params(), 0.1))
    """

    # the update happens on a tensor condition: GRAPH_MODE parses this construct
    _ms_parse_construct = True

    def __init__(self, max_accumulation_step, optimizer):
        super().__init__()
        self._max_accumulation_step = max_accumulation_step
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.hyper_map = ops.HyperMap()      # MindSpore's attribute (subclasses map the helpers above with it)
        self._grad_accumulation = self.weights.clone(prefix="grad_accumulation", init="zeros")
        self._accumulation_step = Parameter(Tensor(0, dtype=mstype.int32), name="accumulation_step",
                                            requires_grad=False)

    def construct(self, loss, grads):
        for acc, grad in zip(self._grad_accumulation, grads):
            ops.assign_add(acc, grad / self._max_accumulation_step)
        ops.assign_add(self._accumulation_step, Tensor(1, mstype.int32))
        if self._accumulation_step >= self._max_accumulation_step:
            self.optimizer(tuple(self._grad_accumulation))
            ops.assign(self._accumulation_step, Tensor(0, mstype.int32))
            for acc in self._grad_accumulation:
                ops.assign(acc, ops.zeros_like(acc))
        return loss
