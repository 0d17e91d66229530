"""Loss-scaled training: TrainOneStepWithLossScaleCell and the loss-scale update Cells.

A step seeds the backward pass with the loss scale, divides the gradients by it (times its float32
reciprocal), checks every gradient for inf/NaN, lets the update Cell adjust the scale, and skips the
optimizer when there was an overflow. The scale lives in the Parameter ``scale_sense``.

DynamicLossScaleUpdateCell (MindSpore's rule, with ``cur_iter`` starting at 1)::

    overflow:  scale = max(scale / scale_factor, 1);  last_overflow_iter = cur_iter
    no overflow and cur_iter - last_overflow_iter >= scale_window:
               scale = scale * scale_factor;         last_overflow_iter = cur_iter
    cur_iter += 1
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore._plugin.collective import world_group
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.wrap.cell_wrapper import TrainOneStepCell

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "TrainOneStepWithLossScaleCell"]

#: The overflow checks' operators (one instance each: a primitive keeps its compiled eager calls).
_ALL_FINITE = ops.AllFinite()
_UNSCALE_AND_CHECK = ops.UnscaleAndCheckFinite()

#: MindSpore's per-gradient overflow status (``[1.]`` when the gradient holds an inf or NaN, else ``[0.]``), which
#: libraries that write their own loss-scaled steps map over the gradients by name.
_grad_overflow = ops.MultitypeFuncGraph("_grad_overflow")
_FLOAT_STATUS = ops.FloatStatus()


@_grad_overflow.register("Tensor")
def _tensor_grad_overflow(grad):
    return _FLOAT_STATUS(grad)


class DynamicLossScaleUpdateCell(Cell):
    r"""Updates the loss scale: divided by ``scale_factor`` on overflow (not below 1), multiplied by it after
    ``scale_window`` steps without overflow.

    Args:
        loss_scale_value (float): the initial loss scale.
        scale_factor (int): the increase/decrease coefficient.
        scale_window (int): the number of overflow-free steps before an increase.

    Inputs:
        - **loss_scale** (Parameter) - the loss scale, updated in place.
        - **overflow** (bool) - whether this step overflowed.

    Outputs:
        bool, the input ``overflow``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2**12, scale_factor=2, scale_window=1000)
        >>> scale = ms.Parameter(ms.Tensor(2.0**12, ms.float32), name="scale_sense")
        >>> _ = manager(scale, ms.Tensor(True))
        >>> print(scale.asnumpy())
        2048.0
    """

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        self.scale_window = Tensor(scale_window, dtype=mstype.int32)
        self.scale_factor = Tensor(scale_factor, dtype=mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, dtype=mstype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(0, dtype=mstype.int32), name="last_overflow_iterator_step")
        self.minimum_loss_scale = Tensor(1.0, dtype=mstype.float32)

    def get_loss_scale(self):
        """The initial loss scale value."""
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        overflow_cond = overflow if isinstance(overflow, Tensor) else Tensor(bool(overflow), mstype.bool_)
        decreased = ops.maximum(loss_scale * ops.reciprocal(self.scale_factor), self.minimum_loss_scale)
        loss_scale_on_overflow = ops.select(overflow_cond, decreased, loss_scale)
        should_inc = ops.less_equal(self.scale_window, self.cur_iter - self.last_overflow_iter)
        last_iter_cond = ops.logical_or(overflow_cond, should_inc)
        ops.assign(self.last_overflow_iter, ops.select(last_iter_cond, self.cur_iter, self.last_overflow_iter))
        update_scale_cond = ops.logical_and(should_inc, ops.logical_not(overflow_cond))
        scaled = ops.select(update_scale_cond, loss_scale_on_overflow * self.scale_factor, loss_scale_on_overflow)
        ops.assign(loss_scale, ops.reshape(scaled, loss_scale.shape))
        ops.assign(self.cur_iter, self.cur_iter + 1)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """A loss scale that never changes.

    Args:
        loss_scale_value (float): the loss scale.

    Inputs:
        - **loss_scale** (Tensor) - ignored.
        - **overflow** (bool) - whether this step overflowed.

    Outputs:
        bool, the input ``overflow``.
    """

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self):
        """The loss scale value."""
        return self.loss_scale_value

    def construct(self, _, overflow):
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    r"""A training step with loss scaling and overflow detection.

    Args:
        network (Cell): the network with its loss (single output).
        optimizer (Cell): the optimizer.
        scale_sense (Union[Tensor, Cell]): a loss-scale update Cell (``DynamicLossScaleUpdateCell``,
            ``FixedLossScaleUpdateCell``), or a Tensor of shape ``()`` or ``(1,)`` holding the scale (change it
            with :meth:`set_sense_scale`).

    Inputs:
        - **\*inputs** (Tuple(Tensor)) - the network inputs.

    Outputs:
        ``(loss, overflow, loss_scale)``: the loss, a bool scalar Tensor (True: the update was skipped) and
        the loss scale after this step's update.

    Raises:
        TypeError: ``scale_sense`` is neither a Cell nor a Tensor.
        ValueError: ``scale_sense`` is a Tensor whose shape is neither ``()`` nor ``(1,)``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn, ops
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.w = ms.Parameter(ms.Tensor(np.ones((2, 1), np.float32)), name="w")
        ...     def construct(self, x):
        ...         return ops.matmul(x, self.w)
        >>> class L2(nn.Cell):
        ...     def construct(self, out, label):
        ...         return ((out - label) ** 2).mean()
        >>> net = Net()
        >>> manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2**12, scale_factor=2, scale_window=1000)
        >>> train = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, L2()),
        ...                                          nn.SGD(net.trainable_params(), 0.1), manager)
        >>> loss, overflow, scale = train(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0]]))
        >>> print(loss, overflow, scale)
        4.0 False 4096.0
    """

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        # MindSpore's attributes, which subclasses' ``construct`` use (MindCV's TrainStep:
        # ``self.hyper_map(F.partial(_grad_scale, scaling_sens), grads)``)
        self.hyper_map = ops.HyperMap()
        self.reduce_sum = ops.ReduceSum(keep_dims=False)
        self.reduce_all = ops.ReduceAll(keep_dims=False)
        self.less_equal = ops.LessEqual()
        self.equal = ops.Equal()
        self.logic_not = ops.LogicalNot()
        self.enable_allfinite = True
        self.base = Tensor(1, mstype.float32)
        self.base0 = Tensor(0, mstype.int32)
        self.is_distributed = self.parallel_mode != "stand_alone"
        if self.is_distributed:
            self.allreduce = ops.AllReduce(group=world_group())
        self.gpu_target = False
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), dtype=mstype.float32),
                                         name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if tuple(scale_sense.shape) not in ((1,), ()):
                raise MSValueError(f"For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be (1,) or "
                                   f"(), but got {tuple(scale_sense.shape)}.")
            self.scale_sense = Parameter(scale_sense, name="scale_sense")
        else:
            raise MSTypeError(f"For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell or Tensor, but "
                              f"got 'scale_sense' type: {type(scale_sense)}.")
        self.enable_tuple_broaden = True

    # the update is skipped on overflow: control flow on a tensor, so graph mode parses this construct
    _ms_parse_construct = True

    def construct(self, *inputs):
        scaling_sens = self.scale_sense
        if self._status_unread:
            status = None
        else:
            status, scaling_sens = self.start_overflow_check(None, scaling_sens)
        reciprocal = ops.reciprocal(scaling_sens)
        if self._unscale_and_check:
            loss, grads = self._forward_and_grads(inputs, scaling_sens)
            checked = _UNSCALE_AND_CHECK(tuple(self.grad_reducer(grads)), reciprocal)
            grads = checked[:-1]
            cond = ops.logical_not(checked[-1])
        else:
            loss, grads = self._forward_and_grads(inputs, scaling_sens, overlap=True, unscale=reciprocal)
            grads = self.grad_reducer(grads)
            cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        if not bool(overflow):
            self.optimizer(grads)
        return loss, cond, ops.identity(self.scale_sense)

    @property
    def _unscale_and_check(self):
        """Whether a step unscales and checks its gradients with one operator (:class:`ops.UnscaleAndCheckFinite`):
        not when they are all-reduced (each bucket is unscaled before its all-reduce starts, while the backward pass
        runs) nor when a subclass checks them its own way (its :meth:`get_overflow_status`)."""
        return not self.is_distributed and \
            type(self).get_overflow_status is TrainOneStepWithLossScaleCell.get_overflow_status

    @property
    def _status_unread(self):
        """Whether no one reads the status :meth:`start_overflow_check` makes: neither it nor
        :meth:`get_overflow_status` is a subclass's own. The step then makes none (a new Tensor at every step was a
        host-to-device copy, which on a GPU waits for the work queued before it)."""
        cls = type(self)
        return cls.start_overflow_check is TrainOneStepWithLossScaleCell.start_overflow_check and \
            cls.get_overflow_status is TrainOneStepWithLossScaleCell.get_overflow_status

    def set_sense_scale(self, sens):
        """Replace the loss scale (when ``scale_sense`` was given as a Tensor)."""
        if not isinstance(sens, Tensor):
            raise MSTypeError(f"For 'TrainOneStepWithLossScaleCell', the type of 'sens' must be Tensor, but got "
                              f"{type(sens)}")
        self.scale_sense.set_data(sens)

    def start_overflow_check(self, pre_cond, compute_input):
        """Start overflow detection: returns ``(status, compute_input)``; the status is a placeholder here,
        the check itself inspects the gradients (:meth:`get_overflow_status`)."""
        return Tensor([0] * 8, mstype.int32), compute_input

    def get_overflow_status(self, status, compute_output):
        """A bool scalar Tensor: True when any element of ``compute_output`` (the gradients) is inf or NaN;
        all-reduced over the data-parallel group when distributed."""
        outputs = compute_output if isinstance(compute_output, (tuple, list)) else (compute_output,)
        # one operator for all the gradients (isfinite, all and logical_and per gradient were three each)
        overflow = ops.logical_not(_ALL_FINITE(tuple(g for g in outputs if isinstance(g, Tensor))))
        if self.is_distributed:
            # every rank must take the same decision: the flags are summed over the world
            flag = self.allreduce(ops.reshape(ops.cast(overflow, mstype.float32), (1,)))
            overflow = ops.reshape(ops.less_equal(self.base, flag), ())
        return overflow

    def process_loss_scale(self, overflow):
        """Let the update Cell adjust the scale; returns ``overflow``."""
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow
