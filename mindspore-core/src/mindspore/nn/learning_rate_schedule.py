"""Learning-rate schedules as Cells: ``schedule(global_step) -> scalar learning rate``.

An optimizer given a :class:`LearningRateSchedule` calls it with its ``global_step`` Parameter (an int32
tensor of shape ``(1,)``) before each update. The formulas are MindSpore 2.10's, computed in float32 from
``global_step`` cast to float32; ``current_step`` below is ``global_step``.
"""
from __future__ import annotations

import math

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.nn.cell import Cell
from mindspore.nn import _validators as validator

__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR",
           "PolynomialDecayLR", "WarmUpLR"]


class LearningRateSchedule(Cell):
    """Base class of learning-rate schedules: subclasses define ``construct(global_step)``.

    The output must be a scalar Tensor: the learning rate for the step ``global_step``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> class Halving(nn.LearningRateSchedule):
        ...     def construct(self, global_step):
        ...         return 0.1 * 0.5 ** ms.ops.cast(global_step, ms.float32)
        >>> print(Halving()(ms.Tensor(2, ms.int32)))
        0.025
    """

    def __init__(self):
        super().__init__()

    def construct(self, global_step):
        raise MSTypeError(f"For '{type(self).__name__}', the method 'construct(global_step)' must be "
                                    f"defined by the subclass of LearningRateSchedule.")


def _check_decay_inputs(learning_rate, decay_rate, decay_steps, is_stair, cls_name):
    validator.check_positive_int("decay_steps", decay_steps, cls_name)
    validator.check_positive_float("learning_rate", learning_rate, cls_name)
    validator.check_is_float("learning_rate", learning_rate, cls_name)
    validator.check_positive_float("decay_rate", decay_rate, cls_name)
    validator.check_is_float("decay_rate", decay_rate, cls_name)
    validator.check_bool("is_stair", is_stair, cls_name)


def _step_f32(global_step):
    return ops.cast(global_step, mstype.float32)


class ExponentialDecayLR(LearningRateSchedule):
    r"""``learning_rate * decay_rate ** p`` with ``p = current_step / decay_steps`` (floored if ``is_stair``).

    Args:
        learning_rate (float): the initial learning rate.
        decay_rate (float): the decay rate.
        decay_steps (int): the number of steps to decay over.
        is_stair (bool): decay once every ``decay_steps`` steps. Default: ``False``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> print(nn.ExponentialDecayLR(0.1, 0.9, 4)(ms.Tensor(2, ms.int32)).asnumpy().round(6))
        0.094868
    """

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        _check_decay_inputs(learning_rate, decay_rate, decay_steps, is_stair, type(self).__name__)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair

    def construct(self, global_step):
        p = _step_f32(global_step) / self.decay_steps
        if self.is_stair:
            p = ops.floor(p)
        return self.learning_rate * ops.pow(self.decay_rate, p)


class NaturalExpDecayLR(LearningRateSchedule):
    r"""``learning_rate * e ** (-decay_rate * p)`` with ``p = current_step`` (``floor(step / decay_steps) *
    decay_steps`` if ``is_stair``), as MindSpore computes it.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> print(nn.NaturalExpDecayLR(0.1, 0.9, 4, True)(ms.Tensor(2, ms.int32)))
        0.1
    """

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        _check_decay_inputs(learning_rate, decay_rate, decay_steps, is_stair, type(self).__name__)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair
        self.math_e = math.e

    def construct(self, global_step):
        p = _step_f32(global_step)
        if self.is_stair:
            p = ops.floor_divide(p, self.decay_steps) * self.decay_steps
        return self.learning_rate * ops.pow(self.math_e, -self.decay_rate * p)


class InverseDecayLR(LearningRateSchedule):
    r"""``learning_rate / (1 + decay_rate * p)`` with ``p = current_step / decay_steps`` (floored if ``is_stair``).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> print(nn.InverseDecayLR(0.1, 0.9, 4, True)(ms.Tensor(2, ms.int32)))
        0.1
    """

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        _check_decay_inputs(learning_rate, decay_rate, decay_steps, is_stair, type(self).__name__)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair

    def construct(self, global_step):
        p = _step_f32(global_step) / self.decay_steps
        if self.is_stair:
            p = ops.floor(p)
        return self.learning_rate / (1 + self.decay_rate * p)


class CosineDecayLR(LearningRateSchedule):
    r"""``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(current_step, decay_steps) / decay_steps))``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> print(nn.CosineDecayLR(0.01, 0.1, 4)(ms.Tensor(2, ms.int32)))
        0.055
    """

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        name = type(self).__name__
        if not isinstance(min_lr, float):
            raise MSTypeError(f"For '{name}', the argument 'min_lr' must be type of float, but got "
                                        f"'min_lr' type: {type(min_lr)}.")
        validator.check_non_negative_float("min_lr", min_lr, name)
        validator.check_positive_float("max_lr", max_lr, name)
        validator.check_is_float("max_lr", max_lr, name)
        validator.check_positive_int("decay_steps", decay_steps, name)
        if min_lr >= max_lr:
            raise MSValueError(f"For '{name}', the 'max_lr' must be greater than the 'min_lr', but got "
                                         f"'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")
        self.min_lr = min_lr
        self.max_lr = max_lr
        self.decay_steps = decay_steps
        self.math_pi = math.pi
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step):
        p = ops.cast(ops.minimum(global_step, self.decay_steps), mstype.float32)
        return self.min_lr + self.delta * (1.0 + ops.cos(self.math_pi * p / self.decay_steps))


class PolynomialDecayLR(LearningRateSchedule):
    r"""``(learning_rate - end_learning_rate) * (1 - step / decay_steps) ** power + end_learning_rate``.

    ``step = min(current_step, decay_steps)``; with ``update_decay_steps`` the step is not clipped and
    ``decay_steps`` becomes ``decay_steps * max(ceil(current_step / decay_steps), 1)``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> print(nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5)(ms.Tensor(2, ms.int32)))
        0.07363961
    """

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power, update_decay_steps=False):
        super().__init__()
        name = type(self).__name__
        validator.check_positive_float("learning_rate", learning_rate, name)
        validator.check_is_float("learning_rate", learning_rate, name)
        if not isinstance(end_learning_rate, float):
            raise MSTypeError(f"For '{name}', the argument 'end_learning_rate' must be type of float, "
                                        f"but got 'end_learning_rate' type: {type(end_learning_rate)}.")
        validator.check_non_negative_float("end_learning_rate", end_learning_rate, name)
        validator.check_positive_int("decay_steps", decay_steps, name)
        validator.check_bool("update_decay_steps", update_decay_steps, name)
        validator.check_positive_float("power", power, name)
        validator.check_is_float("power", power, name)
        self.decay_steps = decay_steps
        self.start_learning_rate = learning_rate
        self.end_learning_rate = end_learning_rate
        self.diff_learning_rate = learning_rate - end_learning_rate
        self.power = power
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step):
        step = _step_f32(global_step)
        decay_steps = self.decay_steps
        if self.update_decay_steps:
            decay_steps = decay_steps * ops.maximum(ops.ceil(step / decay_steps), 1.0)
        else:
            step = ops.minimum(step, float(decay_steps))
        p = step / decay_steps
        return self.diff_learning_rate * ops.pow(1.0 - p, self.power) + self.end_learning_rate


class WarmUpLR(LearningRateSchedule):
    r"""``learning_rate * min(current_step, warmup_steps) / warmup_steps``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> print(nn.WarmUpLR(0.1, 2)(ms.Tensor(2, ms.int32)))
        0.1
    """

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        name = type(self).__name__
        if not isinstance(learning_rate, float):
            raise MSTypeError(f"For '{name}', the argument 'learning_rate' must be type of float, but "
                                        f"got 'learning_rate' type: {type(learning_rate)}.")
        validator.check_non_negative_float("learning_rate", learning_rate, name)
        validator.check_positive_int("warmup_steps", warmup_steps, name)
        self.warmup_steps = warmup_steps
        self.learning_rate = learning_rate

    def construct(self, global_step):
        percent = ops.cast(ops.minimum(global_step, self.warmup_steps), mstype.float32) / self.warmup_steps
        return self.learning_rate * percent
