"""Loss scale managers for ``Model`` / ``amp.build_train_network`` (public as ``mindspore.train.loss_scale_manager``
and ``mindspore.amp``).

A manager gives the initial scale (``get_loss_scale``), the cell that updates the scale inside the
training cell (``get_update_cell``: ``nn.FixedLossScaleUpdateCell`` / ``nn.DynamicLossScaleUpdateCell``,
imported when called), and a host-side ``update_loss_scale(overflow)`` that ``Model`` calls after
every step when ``get_drop_overflow_update()`` is True.
"""
from __future__ import annotations

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]


class LossScaleManager:
    """Base class of loss scale managers (see :class:`FixedLossScaleManager`, :class:`DynamicLossScaleManager`)."""

    def get_loss_scale(self):
        """The current loss scale (subclasses override; the base has none)."""

    def update_loss_scale(self, overflow):
        """Update the scale after a step that did (``overflow=True``) or did not overflow (subclasses override)."""

    def get_update_cell(self):
        """The Cell that updates the scale inside ``nn.TrainOneStepWithLossScaleCell`` (subclasses override)."""


class FixedLossScaleManager(LossScaleManager):
    """A constant loss scale.

    Args:
        loss_scale (float): The scale; at least 1. Default: ``128.0``.
        drop_overflow_update (bool): Skip the optimizer step when gradients overflow. When False, set the
            optimizer's ``loss_scale`` to the same value. Default: ``True``.

    Raises:
        ValueError: If ``loss_scale`` < 1.

    Examples:
        >>> import mindspore as ms
        >>> manager = ms.FixedLossScaleManager(1024.0, drop_overflow_update=False)  # doctest: +SKIP
        >>> manager.get_loss_scale()  # doctest: +SKIP
        1024.0
    """

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, (int, float)):
            raise TypeError(f"The argument 'loss_scale' must be float, but got {type(loss_scale).__name__}.")
        if loss_scale < 1:
            raise ValueError(f"The argument 'loss_scale' must be >= 1, but got {loss_scale}")
        if not isinstance(drop_overflow_update, bool):
            raise TypeError(f"The argument 'drop_overflow_update' must be bool, but got "
                            f"{type(drop_overflow_update).__name__}.")
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self):
        """The fixed loss scale."""
        return self._loss_scale

    def get_drop_overflow_update(self):
        """Whether the optimizer step is skipped on overflow."""
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        """The scale is fixed: nothing to update."""

    def get_update_cell(self):
        """``nn.FixedLossScaleUpdateCell(loss_scale)`` when dropping overflowed updates, else None."""
        if not self._drop_overflow_update:
            return None
        import mindspore.nn as nn
        return nn.FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A loss scale divided by ``scale_factor`` on overflow and multiplied by it after ``scale_window``
    steps without overflow.

    Args:
        init_loss_scale (float): The initial scale. Default: ``2**24``.
        scale_factor (int): The growth/shrink factor. Default: ``2``.
        scale_window (int): Overflow-free steps before the scale grows. Default: ``2000``.

    Raises:
        ValueError: If ``init_loss_scale`` < 1, ``scale_factor`` <= 0 or ``scale_window`` is not a positive int.

    Examples:
        >>> import mindspore as ms
        >>> manager = ms.DynamicLossScaleManager()  # doctest: +SKIP
        >>> manager.get_loss_scale()  # doctest: +SKIP
        16777216
    """

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        if init_loss_scale < 1.0:
            raise ValueError(f"The argument 'init_loss_scale' must be > 1, but got {init_loss_scale}")
        if isinstance(scale_window, bool) or not isinstance(scale_window, int) or scale_window <= 0:
            raise ValueError(f"For 'DynamicLossScaleManager', the 'scale_window' must be a positive int, but got "
                             f"{scale_window!r}.")
        if scale_factor <= 0:
            raise ValueError(f"The argument 'scale_factor' must be > 0, but got {scale_factor}")
        self.loss_scale = init_loss_scale
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self):
        """The current loss scale."""
        return self.loss_scale

    def update_loss_scale(self, overflow):
        """Shrink on overflow (not below 1), grow every ``scale_window`` clean steps.

        Raises:
            RuntimeError: After more than 1000 overflowing steps in a row.
        """
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError(f"Dynamic loss scale Continuous overflow {self.bad_step} times, has exceeded maximum "
                               f"threshold.")
        self.cur_iter += 1

    def get_drop_overflow_update(self):
        """Always True: overflowed steps are skipped."""
        return True

    def get_update_cell(self):
        """``nn.DynamicLossScaleUpdateCell(loss_scale, scale_factor, scale_window)``."""
        import mindspore.nn as nn
        return nn.DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
