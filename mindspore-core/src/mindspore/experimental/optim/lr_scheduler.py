"""``mindspore.experimental.optim.lr_scheduler``: PyTorch-style learning-rate schedules for the optimizers of
:mod:`mindspore.experimental.optim`.

A scheduler owns no learning rate: it rewrites, in place, each parameter group's ``lr`` Parameter of its
optimizer (``optimizer.lrs``), once at construction (epoch 0) and at each :meth:`LRScheduler.step`. Most schedules
are recursive, as in MindSpore and PyTorch: the new rate is the current one times a factor (so a rate changed by
hand, or by another scheduler chained on the same optimizer, carries on); ``step(epoch)`` jumps to an epoch with
the closed form where there is one. Rates are float32 scalar tensors; :meth:`LRScheduler.get_last_lr` returns them.
The epoch counter ``last_epoch`` is an int.
"""
import math
from bisect import bisect_right
from collections import Counter

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.experimental.optim.optimizer import Optimizer

__all__ = ["StepLR", "LinearLR", "LRScheduler", "ExponentialLR", "PolynomialLR", "MultiplicativeLR", "ConstantLR",
           "MultiStepLR", "LambdaLR", "SequentialLR", "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts",
           "CosineAnnealingLR"]


def _f32(value):
    return value if isinstance(value, Tensor) and value.dtype == mstype.float32 else ops.cast(Tensor(value),
                                                                                             mstype.float32)


class LRScheduler:
    """The base of the schedules: subclass it and define ``get_lr()``, the rates of the epoch ``last_epoch``
    (a list, one per parameter group), usually from the current ones (``self._last_lr``) or ``self.base_lrs``.

    Args:
        optimizer (:class:`mindspore.experimental.optim.Optimizer`): the optimizer whose rates to schedule.
        last_epoch (int, optional): the epoch to resume after (its groups must then hold ``initial_lr``).
            Default ``-1``: start afresh; each group's current ``lr`` becomes its ``initial_lr``.

    Raises:
        TypeError: ``optimizer`` is not an Optimizer of ``mindspore.experimental.optim``, or ``last_epoch`` not an
            int.
        ValueError: ``last_epoch`` is below -1.
        KeyError: resuming (``last_epoch`` given) and a group has no ``initial_lr``.
    """

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise MSTypeError(f"{type(optimizer).__name__} is not an Optimizer")
        if isinstance(last_epoch, bool) or not isinstance(last_epoch, int):
            raise MSTypeError(f"The 'last_epoch' must be int, but got {type(last_epoch).__name__}.")
        if last_epoch < -1:
            raise MSValueError(f"Invalid last_epoch: {last_epoch}")
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"].value())
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] when resuming an "
                                   f"optimizer")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.optimizer = optimizer
        self._last_lr = list(optimizer.lrs)
        self.groups_num = len(optimizer.param_groups)
        self.last_epoch = last_epoch
        self.step()

    def get_lr(self):
        """The rates of epoch ``last_epoch`` (one per group); each schedule defines it."""
        raise MSTypeError(f"'{type(self).__name__}' defines no 'get_lr': a scheduler must define it.")

    def get_last_lr(self):
        """The rates in effect (a list of float32 scalar Tensors, one per parameter group)."""
        return [lr.value() for lr in self._last_lr]

    def step(self, epoch=None):
        """Move to the next epoch (or to ``epoch``) and set the optimizer's rates to its."""
        if epoch is None:
            self.last_epoch += 1
            values = self.get_lr()
        else:
            self.last_epoch = epoch
            closed = getattr(self, "_get_closed_form_lr", None)
            values = closed() if closed is not None else self.get_lr()
        for lr, value in zip(self._last_lr, values):
            ops.assign(lr, _f32(value))
        return True

    def _scaled(self, factor):
        return [ops.mul(lr, factor) for lr in self._last_lr]

    def _unchanged(self):
        return [lr.value() for lr in self._last_lr]


class StepLR(LRScheduler):
    """Multiply the rates by ``gamma`` every ``step_size`` epochs.

    Raises:
        TypeError: ``step_size`` is not an int or ``gamma`` not a float.
    """

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        if isinstance(step_size, bool) or not isinstance(step_size, int):
            raise MSTypeError(f"For 'StepLR', the 'step_size' must be int, but got {type(step_size)}.")
        if not isinstance(gamma, float):
            raise MSTypeError(f"For 'StepLR', the 'gamma' must be float, but got {type(gamma)}.")
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._unchanged()
        return self._scaled(self.gamma)

    def _get_closed_form_lr(self):
        return [ops.mul(base, self.gamma ** (self.last_epoch // self.step_size)) for base in self.base_lrs]


class LinearLR(LRScheduler):
    """Scale the rates linearly from ``start_factor`` to ``end_factor`` times the initial ones over
    ``total_iters`` epochs.

    Raises:
        ValueError: ``start_factor`` is not in (0, 1] or ``end_factor`` not in [0, 1].
        TypeError: ``total_iters`` is not an int.
    """

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise MSValueError("Starting multiplicative factor expected to be greater than 0 and less than or equal "
                               "to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise MSValueError("Ending multiplicative factor expected to be between 0 and 1.")
        if not isinstance(total_iters, int):
            raise MSTypeError(f"For 'LinearLR', the type of total_iters must be int, but got {type(total_iters)}.")
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch == 0:
            return self._scaled(self.start_factor)
        if self.last_epoch > self.total_iters:
            return self._unchanged()
        delta = self.end_factor - self.start_factor
        return self._scaled(1.0 + delta / (self.total_iters * self.start_factor + (self.last_epoch - 1) * delta))

    def _get_closed_form_lr(self):
        frac = min(self.total_iters, self.last_epoch) / self.total_iters
        return [ops.mul(base, self.start_factor + (self.end_factor - self.start_factor) * frac)
                for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the rates by ``gamma`` every epoch.

    Raises:
        TypeError: ``gamma`` is not a float.
    """

    def __init__(self, optimizer, gamma, last_epoch=-1):
        if not isinstance(gamma, float):
            raise MSTypeError(f"For 'ExponentialLR', the 'gamma' must be float, but got {type(gamma)}.")
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return self._unchanged() if self.last_epoch == 0 else self._scaled(self.gamma)

    def _get_closed_form_lr(self):
        return [ops.mul(base, self.gamma ** self.last_epoch) for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decay the rates as ``(1 - epoch / total_iters) ** power`` times the initial ones, reaching 0 at
    ``total_iters``.

    Raises:
        TypeError: ``power`` is not a float or ``total_iters`` not an int.
        ValueError: ``power`` is negative.
    """

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        if not isinstance(power, float):
            raise MSTypeError(f"For 'PolynomialLR', the 'power' must be float, but got {type(power)}.")
        if power < 0:
            raise MSValueError(f"For 'PolynomialLR', the 'power' must be >= 0, but got {power}.")
        if not isinstance(total_iters, int):
            raise MSTypeError(f"For 'PolynomialLR', the type of total_iters must be int, but got {type(total_iters)}.")
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch == 0 or self.last_epoch > self.total_iters:
            return self._unchanged()
        e, t = self.last_epoch, self.total_iters
        return self._scaled(((1.0 - e / t) / (1.0 - (e - 1) / t)) ** self.power)

    def _get_closed_form_lr(self):
        return [ops.mul(base, (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power)
                for base in self.base_lrs]


def _lambdas(optimizer, lr_lambda):
    n = len(optimizer.param_groups)
    if isinstance(lr_lambda, (list, tuple)):
        if len(lr_lambda) != n:
            raise MSValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
        return list(lr_lambda)
    return [lr_lambda] * n


class LambdaLR(LRScheduler):
    """Set each group's rate to its initial rate times ``lr_lambda(epoch)`` (one function, or one per group).

    Raises:
        ValueError: a list of ``lr_lambda`` does not have one function per group.
    """

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [ops.mul(base, fn(self.last_epoch)) for fn, base in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(LRScheduler):
    """Multiply each group's rate by ``lr_lambda(epoch)`` every epoch after the first.

    Raises:
        ValueError: a list of ``lr_lambda`` does not have one function per group.
    """

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch > 0:
            return [ops.mul(lr, fn(self.last_epoch)) for fn, lr in zip(self.lr_lambdas, self._last_lr)]
        return self._unchanged()


class MultiStepLR(LRScheduler):
    """Multiply the rates by ``gamma`` at each of the epochs ``milestones`` (by ``gamma ** k`` for a milestone
    listed ``k`` times).

    Raises:
        TypeError: ``milestones`` is not a list of ints, or ``gamma`` not a float or int.
    """

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        if not isinstance(milestones, list):
            raise MSTypeError(f"For 'MultiStepLR', the 'milestones' must be list, but got {type(milestones)}.")
        for milestone in milestones:
            if isinstance(milestone, bool) or not isinstance(milestone, int):
                raise MSTypeError(f"For 'MultiStepLR', elements of the 'milestones' must be type of int, but got one "
                                  f"element of 'milestones' type: {type(milestone)}.")
        if isinstance(gamma, bool) or not isinstance(gamma, (float, int)):
            raise MSTypeError(f"For 'MultiStepLR', the 'gamma' must be float or int, but got {type(gamma)}.")
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch not in self.milestones:
            return self._unchanged()
        return self._scaled(self.gamma ** self.milestones[self.last_epoch])

    def _get_closed_form_lr(self):
        passed = bisect_right(sorted(self.milestones.elements()), self.last_epoch)
        return [ops.mul(base, self.gamma ** passed) for base in self.base_lrs]


class ConstantLR(LRScheduler):
    """Multiply the rates by ``factor`` until epoch ``total_iters``, then restore them.

    Raises:
        ValueError: ``factor`` is not in [0, 1].
        TypeError: ``total_iters`` is not an int.
    """

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise MSValueError("Constant multiplicative factor expected to be between 0 and 1.")
        if not isinstance(total_iters, int):
            raise MSTypeError(f"For 'ConstantLR', the type of total_iters must be int, but got {type(total_iters)}.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch == 0:
            return self._scaled(self.factor)
        if self.last_epoch != self.total_iters:
            return self._unchanged()
        return [ops.div(lr, self.factor) for lr in self._last_lr]

    def _get_closed_form_lr(self):
        after = 1.0 if self.last_epoch >= self.total_iters else 0.0
        return [ops.mul(base, self.factor + after * (1 - self.factor)) for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    r"""Anneal the rates along a cosine from the initial ones to ``eta_min`` over ``T_max`` epochs (and back,
    periodically): :math:`\eta_t = \eta_{min} + (\eta_0 - \eta_{min})(1 + \cos(\pi t / T_{max}))/2`, computed
    recursively (`SGDR <https://arxiv.org/abs/1608.03983>`_).

    Raises:
        TypeError: ``T_max`` is not an int or ``eta_min`` not a number.
    """

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):  # noqa: N803 - MindSpore's name
        if isinstance(eta_min, bool) or not isinstance(eta_min, (float, int)):
            raise MSTypeError(f"For 'CosineAnnealingLR', the 'eta_min' must be float or int, but got {type(eta_min)}.")
        if isinstance(T_max, bool) or not isinstance(T_max, int):
            raise MSTypeError(f"For 'CosineAnnealingLR', the 'T_max' must be int, but got {type(T_max)}.")
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, t, low = self.last_epoch, self.T_max, self.eta_min
        if e == 0:
            return self._unchanged()
        if (e - 1 - t) % (2 * t) == 0:
            return [ops.add(lr, ops.mul(ops.sub(base, low), (1 - math.cos(math.pi / t)) / 2))
                    for base, lr in zip(self.base_lrs, self._last_lr)]
        ratio = (1 + math.cos(math.pi * e / t)) / (1 + math.cos(math.pi * (e - 1) / t))
        return [ops.add(ops.mul(ops.sub(lr, low), ratio), low) for lr in self._last_lr]

    def _get_closed_form_lr(self):
        cos = (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
        return [ops.add(ops.mul(ops.sub(base, self.eta_min), cos), self.eta_min) for base in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    r"""Cosine annealing with warm restarts (`SGDR <https://arxiv.org/abs/1608.03983>`_): the rates follow
    :math:`\eta_{min} + (\eta_0 - \eta_{min})(1 + \cos(\pi T_{cur}/T_i))/2` and restart every :math:`T_i` epochs,
    the first period ``T_0`` and each next one ``T_mult`` times longer.

    Raises:
        ValueError: ``T_0`` is not a positive int or ``T_mult`` not an int of at least 1; ``step`` got a negative
            epoch.
        TypeError: ``eta_min`` is not a number.
    """

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1):  # noqa: N803 - MindSpore's names
        if not isinstance(T_0, int) or T_0 <= 0:
            raise MSValueError(f"T_0 should be an integer and equal or greater than 0, but got {T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise MSValueError(f"T_mult should be an integer and equal or greater than 1, but got {T_mult}")
        if isinstance(eta_min, bool) or not isinstance(eta_min, (float, int)):
            raise MSTypeError(f"The 'eta_min' must be float or int, but got {type(eta_min).__name__}.")
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        cos = (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
        return [ops.add(ops.mul(ops.sub(base, self.eta_min), cos), self.eta_min) for base in self.base_lrs]

    def step(self, epoch=None):
        """Move to the next epoch, or to ``epoch`` (a float is a fraction of the way through an epoch)."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        else:
            if epoch < 0:
                raise MSValueError(f"epoch should be a non-negative integer, but got {epoch}")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        for lr, value in zip(self._last_lr, self.get_lr()):
            ops.assign(lr, _f32(value))
        # returns None, as 2.10's (the other schedulers' step returns True)


class CyclicLR(LRScheduler):
    """Cycle the rates between ``base_lr`` and ``max_lr`` (`Cyclical Learning Rates for Training Neural Networks
    <https://arxiv.org/abs/1506.01186>`_): up over ``step_size_up`` epochs, down over ``step_size_down`` (default
    the same), the amplitude scaled per cycle (``"triangular"``: constant, ``"triangular2"``: halved each cycle)
    or per epoch (``"exp_range"``: ``gamma ** epoch``), or by ``scale_fn`` of the cycle or epoch
    (``scale_mode``). Sets the groups' rates to ``base_lr`` at once.

    Raises:
        ValueError: ``mode`` is unknown and there is no ``scale_fn``; a list of ``base_lr``/``max_lr`` does not
            have one value per group.
    """

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None, mode="triangular",
                 gamma=1.0, scale_fn=None, scale_mode="cycle", last_epoch=-1):
        base_lrs = self._per_group(optimizer, base_lr, "base_lr")
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                ops.assign(group["lr"], _f32(lr))
        self.max_lrs = [_f32(lr) for lr in self._per_group(optimizer, max_lr, "max_lr")]
        step_size_up = float(step_size_up)
        step_size_down = step_size_up if step_size_down is None else float(step_size_down)
        self.total_step_size = step_size_up + step_size_down
        self.step_up_ratio = step_size_up / self.total_step_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise MSValueError("mode is invalid and scale_fn is None")
        self.mode, self.gamma = mode, gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        if scale_fn is None:
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        super().__init__(optimizer, last_epoch)
        self.base_lrs = [_f32(lr) for lr in base_lrs]

    @staticmethod
    def _per_group(optimizer, value, name):
        n = len(optimizer.param_groups)
        if isinstance(value, (list, tuple)):
            if len(value) != n:
                raise MSValueError(f"Expected {n} values for {name}, got {len(value)}")
            return list(value)
        return [value] * n

    def scale_fn(self, x):
        """The amplitude's scale at cycle or epoch ``x``."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        return self.gamma ** x

    def get_lr(self):
        cycle = math.floor(1 + self.last_epoch / self.total_step_size)
        x = 1.0 + self.last_epoch / self.total_step_size - cycle
        if x <= self.step_up_ratio:
            scale = x / self.step_up_ratio
        else:
            scale = (x - 1) / (self.step_up_ratio - 1)
        amplitude = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        return [ops.add(base, ops.mul(ops.mul(ops.sub(high, base), scale), amplitude))
                for base, high in zip(self.base_lrs, self.max_lrs)]


class SequentialLR:
    """Run ``schedulers`` one after another, switching at the epochs ``milestones`` (a scheduler starts from its
    epoch 0 when it takes over).

    Raises:
        ValueError: a scheduler belongs to another optimizer, or there is not one milestone fewer than schedulers.
    """

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        for i, scheduler in enumerate(schedulers):
            if scheduler.optimizer is not optimizer:
                raise MSValueError(f"Sequential Schedulers expects all schedulers to belong to the same optimizer, "
                                   f"but got scheduler at index {i} is different from the optimizer passed in.")
        if len(milestones) != len(schedulers) - 1:
            raise MSValueError(f"Sequential Schedulers expects number of schedulers provided to be one more than the "
                               f"number of milestone points, but got number of schedulers {len(schedulers)} and the "
                               f"number of milestones {len(milestones)}")
        self._schedulers = list(schedulers)
        self.milestones = list(milestones)
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            ops.assign(group["lr"], group["initial_lr"])
        for scheduler in self._schedulers:
            scheduler.last_epoch -= 1
        self._schedulers[0].step()
        self._last_lr = self._schedulers[0]._last_lr

    def step(self):
        """Move to the next epoch, on the scheduler whose turn it is."""
        self.last_epoch += 1
        idx = bisect_right(self.milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self.milestones[idx - 1] == self.last_epoch:
            scheduler.step(0)
        else:
            scheduler.step()
        # returns None, as 2.10's

    def get_last_lr(self):
        """The rates in effect (float32 scalar Tensors, one per group)."""
        return [lr.value() for lr in self._last_lr]


class ReduceLROnPlateau:
    """Multiply the rates by ``factor`` when the metric passed to :meth:`step` has not improved for ``patience``
    epochs (improved: below ``best * (1 - threshold)`` in ``"min"`` mode with ``"rel"`` thresholds, and so on),
    then wait ``cooldown`` epochs; never below ``min_lr``, and only by more than ``eps``.

    Raises:
        ValueError: ``factor`` is not below 1, ``mode`` or ``threshold_mode`` is unknown, or a list of ``min_lr``
            does not have one value per group.
        TypeError: ``optimizer`` is not an Optimizer.
    """

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4, threshold_mode="rel",
                 cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise MSValueError("The lr factor should be less than 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise MSTypeError(f"Expected an `Optimizer`, but got type {type(optimizer).__name__}")
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n:
                raise MSValueError(f"Expected {n} min_lrs, got {len(min_lr)}")
            self.min_lrs = [float(v) for v in min_lr]
        else:
            self.min_lrs = [float(min_lr)] * n
        if mode not in ("min", "max"):
            raise MSValueError(f"`mode` should be 'min' or 'max', but got {mode}.")
        if threshold_mode not in ("rel", "abs"):
            raise MSValueError(f"`threshold mode` should be 'rel' or 'abs', but got {threshold_mode}.")
        self.optimizer, self.factor, self.mode, self.patience = optimizer, factor, mode, patience
        self.threshold, self.threshold_mode, self.cooldown, self.eps = threshold, threshold_mode, cooldown, eps
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.wait = 0
        self.last_epoch = 0
        self._last_lr = [group["lr"] for group in optimizer.param_groups]

    def step(self, metrics):
        """Record this epoch's ``metrics`` (a number or scalar Tensor) and reduce the rates if it is time."""
        current = float(metrics.asnumpy()) if isinstance(metrics, Tensor) else float(metrics)
        self.last_epoch += 1
        if self._is_improvement(current, self.best):
            self.best, self.wait = current, 0
        else:
            self.wait += 1
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.wait > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.wait = 0
        return True

    def _reduce_lr(self):
        for lr, min_lr in zip(self._last_lr, self.min_lrs):
            new_lr = ops.maximum(ops.mul(lr, self.factor), _f32(min_lr))
            ops.assign(lr, ops.where(ops.greater(lr, ops.add(new_lr, self.eps)), new_lr, lr.value()))

    def in_cooldown(self):
        """Whether the cooldown after a reduction is still running."""
        return self.cooldown_counter > 0

    def _is_improvement(self, current, best):
        if self.mode == "min":
            benchmark = best * (1.0 - self.threshold) if self.threshold_mode == "rel" else best - self.threshold
            return current < benchmark
        benchmark = best * (1.0 + self.threshold) if self.threshold_mode == "rel" else best + self.threshold
        return current > benchmark

    def get_last_lr(self):
        """The rates in effect (float32 scalar Tensors, one per group)."""
        return [lr.value() for lr in self._last_lr]
