"""``Perplexity``: ``exp(-mean(log p(label)))`` over every counted position (as MindSpore's)."""
from __future__ import annotations

import math

import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["Perplexity"]


class Perplexity(Metric):
    """Perplexity of predicted distributions: ``exp(-sum(log(max(p[label], 1e-10))) / count)``.

    Args:
        ignore_label (Union[int, None]): a label whose positions are not counted. Default: ``None``.

    Examples:
        >>> import numpy as np
        >>> from mindspore import Tensor
        >>> from mindspore.train import Perplexity
        >>> metric = Perplexity()
        >>> metric.update(Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]])), Tensor(np.array([1, 0, 1])))
        >>> round(metric.eval(), 6)
        2.231443
    """

    def __init__(self, ignore_label=None):
        super().__init__()
        if ignore_label is not None and (not isinstance(ignore_label, int) or isinstance(ignore_label, bool)):
            raise TypeError(f"For 'Perplexity', the type of 'ignore_label' must be int, but got "
                            f"{type(ignore_label).__name__}.")
        self.ignore_label = ignore_label
        self.clear()

    def clear(self):
        """Clear the internal evaluation result."""
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs):
        """Accumulate ``(preds, labels)``: ``preds`` (..., C) probabilities, ``labels`` with one entry per row."""
        if len(inputs) != 2:
            raise ValueError(f"For 'Perplexity.update', it needs 2 inputs (predicted value, label), but got "
                             f"{len(inputs)}.")
        pred = self._convert_data(inputs[0])
        label = self._convert_data(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError(f"For 'Perplexity.update', predicted value (input[0]) and label (input[1]) should have "
                               f"the same shape, but got predicted value shape {pred.shape}, label shape "
                               f"{label.shape}.")
        label = label.reshape(-1)
        picked = pred.reshape(-1, pred.shape[-1])[np.arange(label.size), label.astype(int)]
        num = picked.size
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(picked.dtype)
            num -= np.sum(ignore)
            picked = picked * (1 - ignore) + ignore
        self._sum_metric -= np.sum(np.log(np.maximum(1e-10, picked)))
        self._num_inst += num

    def eval(self):
        """The perplexity (float).

        Raises:
            RuntimeError: If nothing was counted.
        """
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of samples is 0, please "
                               "check whether the update method has been called before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)
