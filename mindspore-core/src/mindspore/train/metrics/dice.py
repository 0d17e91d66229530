"""``Dice``: the mean per-batch Dice coefficient ``2 <p, y> / (<p, p> + <y, y> + smooth)`` (as MindSpore's)."""
from __future__ import annotations

import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["Dice"]


class Dice(Metric):
    """Dice coefficient of prediction and ground truth; each ``update`` adds one coefficient, ``eval`` divides
    their sum by the number of samples seen (axis 0 of every ``y``), as MindSpore does.

    Args:
        smooth (float): added to the denominator, > 0. Default: ``1e-5``.

    Examples:
        >>> import numpy as np
        >>> from mindspore import Tensor
        >>> from mindspore.train import Dice
        >>> metric = Dice(smooth=1e-5)
        >>> metric.update(Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]])),
        ...               Tensor(np.array([[0, 1], [1, 0], [0, 1]])))
        >>> round(metric.eval(), 6)
        0.204678
    """

    def __init__(self, smooth=1e-5):
        super().__init__()
        if not isinstance(smooth, float) or smooth <= 0:
            raise ValueError(f"For 'Dice', the 'smooth' must be a positive float, but got {smooth}.")
        self.smooth = smooth
        self.clear()

    def clear(self):
        """Clear the internal evaluation result."""
        self._dice_coeff_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        """Accumulate ``(y_pred, y)`` of the same shape."""
        if len(inputs) != 2:
            raise ValueError(f"For 'Dice.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError(f"For 'Dice.update', predicted value (input[0]) and true value (input[1]) should have "
                             f"same shape, but got predicted value shape: {y_pred.shape}, true value shape: "
                             f"{y.shape}.")
        p, t = y_pred.reshape(-1), y.reshape(-1)
        self._dice_coeff_sum += 2 * float(np.dot(p, t)) / float(np.dot(p, p) + np.dot(t, t) + self.smooth)

    def eval(self):
        """The mean Dice coefficient (float).

        Raises:
            RuntimeError: If no sample was seen.
        """
        if self._samples_num == 0:
            raise RuntimeError("The 'Dice coefficient' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs(predicted value, true value) are empty, or has "
                               "called update method before calling eval method.")
        return self._dice_coeff_sum / float(self._samples_num)
