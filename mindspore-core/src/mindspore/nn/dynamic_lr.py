"""Dynamic learning rates as plain Python lists, one value per training step (MindSpore 2.10's formulas).

Give the list to an optimizer as ``learning_rate``: step ``i`` uses ``lr[i]``. ``current_epoch`` below is
``floor(i / step_per_epoch)``. The lists are computed in Python floats (double precision), exactly as
MindSpore computes them, so they compare equal to MindSpore's documented outputs.
"""
from __future__ import annotations

import math

from mindspore._errors import MSTypeError, MSValueError
from mindspore.nn import _validators as validator

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
           "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]


def piecewise_constant_lr(milestone, learning_rates):
    r"""``learning_rates[t]`` for every step in ``[milestone[t-1], milestone[t])``.

    Args:
        milestone (Union[list[int], tuple[int]]): increasing positive step counts.
        learning_rates (Union[list[float], tuple[float]]): one learning rate per milestone.

    Returns:
        list[float] of length ``milestone[-1]``.

    Examples:
        >>> from mindspore import nn
        >>> nn.piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01])
        [0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01, 0.01, 0.01, 0.01]
    """
    validator.check_value_type("milestone", milestone, (tuple, list))
    validator.check_value_type("learning_rates", learning_rates, (tuple, list))
    if len(milestone) != len(learning_rates):
        raise MSValueError(f"For 'piecewise_constant_lr', the size of 'milestone' must be same with the size of "
                           f"'learning_rates', but got 'milestone' size: {len(milestone)}, 'learning_rates' size: "
                           f"{len(learning_rates)}.")
    lr = []
    last_item = 0
    for i, item in enumerate(milestone):
        validator.check_positive_int(f"milestone[{i}]", item)
        validator.check_is_float(f"learning_rates[{i}]", learning_rates[i])
        if item < last_item:
            raise MSValueError(f"For 'piecewise_constant_lr', the value of milestone[{i}] must be greater than "
                               f"milestone[{i - 1}], but got milestone[{i}]: {milestone[i]}, milestone[{i - 1}]: "
                               f"{milestone[i - 1]}.")
        lr += [learning_rates[i]] * (item - last_item)
        last_item = item
    return lr


def _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair):
    validator.check_positive_int("total_step", total_step)
    validator.check_positive_int("step_per_epoch", step_per_epoch)
    validator.check_positive_int("decay_epoch", decay_epoch)
    validator.check_positive_float("learning_rate", learning_rate)
    validator.check_is_float("learning_rate", learning_rate)
    validator.check_positive_float("decay_rate", decay_rate)
    validator.check_is_float("decay_rate", decay_rate)
    validator.check_bool("is_stair", is_stair)


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    r"""``learning_rate * decay_rate ** (current_epoch / decay_epoch)`` (exponent floored if ``is_stair``).

    Examples:
        >>> from mindspore import nn
        >>> nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1)
        [0.1, 0.1, 0.09000000000000001, 0.09000000000000001, 0.08100000000000002, 0.08100000000000002]
    """
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    lr = []
    for i in range(total_step):
        if is_stair:
            lr.append(learning_rate * decay_rate ** math.floor(math.floor(i / step_per_epoch) / decay_epoch))
        else:
            lr.append(learning_rate * decay_rate ** (math.floor(i / step_per_epoch) / decay_epoch))
    return lr


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    r"""``learning_rate * e ** (-decay_rate * current_epoch)``; with ``is_stair`` the epoch is rounded down to a
    multiple of ``decay_epoch``.

    Examples:
        >>> from mindspore import nn
        >>> nn.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2, True)
        [0.1, 0.1, 0.1, 0.1, 0.016529888822158657, 0.016529888822158657]
    """
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            epoch = math.floor(epoch / decay_epoch) * decay_epoch
        lr.append(learning_rate * math.e ** (-decay_rate * epoch))
    return lr


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    r"""``learning_rate / (1 + decay_rate * current_epoch / decay_epoch)`` (ratio floored if ``is_stair``).

    Examples:
        >>> from mindspore import nn
        >>> nn.inverse_decay_lr(0.1, 0.5, 6, 1, 1, True)
        [0.1, 0.06666666666666667, 0.05, 0.04, 0.03333333333333333, 0.028571428571428574]
    """
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    lr = []
    for i in range(total_step):
        if is_stair:
            lr.append(learning_rate / (1 + decay_rate * math.floor(math.floor(i / step_per_epoch) / decay_epoch)))
        else:
            lr.append(learning_rate / (1 + decay_rate * math.floor(i / step_per_epoch) / decay_epoch))
    return lr


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    r"""``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(current_epoch, decay_epoch) / decay_epoch))``.

    Examples:
        >>> from mindspore import nn
        >>> nn.cosine_decay_lr(0.01, 0.1, 6, 2, 2)
        [0.1, 0.1, 0.05500000000000001, 0.05500000000000001, 0.01, 0.01]
    """
    if not isinstance(min_lr, float):
        raise MSTypeError(f"For 'cosine_decay_lr', the argument 'min_lr' must be type of float, but got 'min_lr' "
                          f"type: {type(min_lr)}.")
    validator.check_non_negative_float("min_lr", min_lr)
    validator.check_positive_float("max_lr", max_lr)
    validator.check_is_float("max_lr", max_lr)
    validator.check_positive_int("total_step", total_step)
    validator.check_positive_int("step_per_epoch", step_per_epoch)
    validator.check_positive_int("decay_epoch", decay_epoch)
    if min_lr >= max_lr:
        raise MSValueError(f"For 'cosine_decay_lr', the 'max_lr' must be greater than the 'min_lr', but got "
                           f"'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")
    delta = 0.5 * (max_lr - min_lr)
    lr = []
    for i in range(total_step):
        tmp_epoch = min(math.floor(i / step_per_epoch), decay_epoch)
        lr.append(min_lr + delta * (1 + math.cos(math.pi * tmp_epoch / decay_epoch)))
    return lr


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch, decay_epoch, power,
                        update_decay_epoch=False):
    r"""``(learning_rate - end_learning_rate) * (1 - tmp_epoch / tmp_decay_epoch) ** power + end_learning_rate``.

    ``tmp_epoch = min(current_epoch, decay_epoch)`` and ``tmp_decay_epoch = decay_epoch``; with
    ``update_decay_epoch``, ``tmp_epoch = current_epoch`` and ``tmp_decay_epoch = decay_epoch *
    max(ceil(current_epoch / decay_epoch), 1)``.

    Examples:
        >>> from mindspore import nn
        >>> nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5)
        [0.1, 0.1, 0.07363961030678928, 0.07363961030678928, 0.01, 0.01]
    """
    validator.check_positive_float("learning_rate", learning_rate)
    validator.check_is_float("learning_rate", learning_rate)
    if not isinstance(end_learning_rate, float):
        raise MSTypeError(f"For 'polynomial_decay_lr', the argument 'end_learning_rate' must be type of float, but "
                          f"got 'end_learning_rate' type: {type(end_learning_rate)}.")
    validator.check_non_negative_float("end_learning_rate", end_learning_rate)
    validator.check_positive_float("power", power)
    validator.check_is_float("power", power)
    validator.check_positive_int("total_step", total_step)
    validator.check_positive_int("step_per_epoch", step_per_epoch)
    validator.check_positive_int("decay_epoch", decay_epoch)
    validator.check_bool("update_decay_epoch", update_decay_epoch)
    lr = []
    delta = learning_rate - end_learning_rate
    for i in range(total_step):
        current_epoch = math.floor(i / step_per_epoch)
        if update_decay_epoch:
            tmp_decay_epoch = decay_epoch * max(math.ceil(current_epoch / decay_epoch), 1)
            tmp_epoch = current_epoch
        else:
            tmp_decay_epoch = decay_epoch
            tmp_epoch = min(decay_epoch, current_epoch)
        lr.append(delta * (1 - tmp_epoch / tmp_decay_epoch) ** power + end_learning_rate)
    return lr


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    r"""``learning_rate * min(current_epoch, warmup_epoch) / warmup_epoch``.

    Examples:
        >>> from mindspore import nn
        >>> nn.warmup_lr(0.1, 6, 2, 2)
        [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]
    """
    if not isinstance(learning_rate, float):
        raise MSTypeError(f"For 'warmup_lr', the argument 'learning_rate' must be type of float, but got "
                          f"'learning_rate' type: {type(learning_rate)}.")
    validator.check_non_negative_float("learning_rate", learning_rate)
    validator.check_positive_int("warmup_epoch", warmup_epoch)
    validator.check_positive_int("total_step", total_step)
    validator.check_positive_int("step_per_epoch", step_per_epoch)
    lr = []
    for i in range(total_step):
        current_epoch = math.floor(i / step_per_epoch)
        lr.append(learning_rate * min(warmup_epoch, current_epoch) / warmup_epoch)
    return lr
