"""``ROC``: the receiver operating characteristic curve (false / true positive rates per threshold), binary or
one curve per class, as MindSpore's ``train.ROC`` computes it.
"""
from __future__ import annotations

import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["ROC"]


def _binary_clf_curve(preds, target, pos_label=1):
    """(false positives, true positives, thresholds) at each distinct score, highest score first."""
    if preds.ndim > target.ndim:
        preds = preds[:, 0]
    order = np.argsort(-preds, kind="stable")
    preds, target = preds[order], target[order]
    distinct = np.where(preds[1:] - preds[:-1])[0]
    threshold_idxs = np.pad(distinct, (0, 1), constant_values=target.shape[0] - 1)
    target = (target == pos_label).astype(np.int64)
    tps = np.cumsum(target, axis=0)[threshold_idxs]
    fps = 1 + threshold_idxs - tps
    return fps, tps, preds[threshold_idxs]


def _curve_update(y_pred, y, class_num, pos_label):
    if not (y_pred.ndim == y.ndim or y_pred.ndim == y.ndim + 1):
        raise ValueError(f"For 'ROC', predicted value (input[0]) and true value (input[1]) must have same dimensions, "
                         f"or the dimension of predicted value equal the dimension of true value add 1, but got "
                         f"predicted value ndim: {y_pred.ndim}, true value ndim: {y.ndim}.")
    if y_pred.ndim == y.ndim:
        if class_num is not None and class_num != 1:
            raise ValueError(f"For 'ROC', when predicted value (input[0]) and true value (input[1]) have the same "
                             f"shape, the 'class_num' must be 1, but got {class_num}.")
        return y_pred.flatten(), y.flatten(), 1, 1 if pos_label is None else pos_label
    if pos_label is not None:
        raise ValueError(f"For 'ROC', when the dimension of predicted value (input[0]) equals the dimension of true "
                         f"value (input[1]) add 1, the 'pos_label' must be None, but got {pos_label}.")
    if class_num != y_pred.shape[1]:
        raise ValueError(f"For 'ROC', the 'class_num' must equal the number of classes from predicted value "
                         f"(input[0]), but got 'class_num' {class_num}, the number of classes from predicted value "
                         f"{y_pred.shape[1]}.")
    return y_pred.reshape(-1, class_num) if y_pred.ndim == 2 else y_pred, y.flatten(), class_num, pos_label


class ROC(Metric):
    """ROC curve of the last ``update``'s ``(y_pred, y)``.

    Binary (``y_pred`` shaped like ``y``): ``eval`` gives ``(fpr, tpr, thresholds)`` arrays, the first threshold
    being the highest score + 1. Multi-class (``y_pred`` (N, C), ``class_num=C``): three lists of C arrays, class
    ``c`` against the rest. (MindSpore 2.10 reshapes an (N, C) ``y_pred`` to (C, N) first, which only keeps
    the data intact when N == C; here column ``c`` always holds class ``c``'s scores.)

    Args:
        class_num (int): number of classes (None: binary). Default: ``None``.
        pos_label (int): the positive label of a binary problem (None: 1). Default: ``None``.

    Examples:
        >>> import numpy as np
        >>> from mindspore import Tensor
        >>> from mindspore.train import ROC
        >>> metric = ROC(pos_label=2)
        >>> metric.update(Tensor(np.array([3, 1, 4, 2])), Tensor(np.array([0, 1, 2, 3])))
        >>> fpr, tpr, thresholds = metric.eval()
        >>> fpr.tolist(), tpr.tolist(), thresholds.tolist()
        ([0.0, 0.0, 0.3333333333333333, 0.6666666666666666, 1.0], [0.0, 1.0, 1.0, 1.0, 1.0], [5, 4, 3, 2, 1])
    """

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        for name, value in (("class_num", class_num), ("pos_label", pos_label)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise TypeError(f"For 'ROC', the type of '{name}' must be int, but got {type(value).__name__}.")
        self.class_num = class_num
        self.pos_label = pos_label
        self.clear()

    def clear(self):
        """Clear the internal evaluation result."""
        self.y_pred = 0
        self.y = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """Keep ``(y_pred, y)`` (the curve is computed by ``eval``)."""
        if len(inputs) != 2:
            raise ValueError(f"For 'ROC.update', it needs 2 inputs (predicted value, true value), but got "
                             f"{len(inputs)}")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self.y_pred, self.y, self.class_num, self.pos_label = _curve_update(y_pred, y, self.class_num,
                                                                            self.pos_label)
        self._is_update = True

    @staticmethod
    def _binary(y_pred, y, pos_label):
        fps, tps, thresholds = _binary_clf_curve(y_pred, y, pos_label=pos_label)
        tps = np.squeeze(np.hstack([np.zeros(1, dtype=tps.dtype), tps]))
        fps = np.squeeze(np.hstack([np.zeros(1, dtype=fps.dtype), fps]))
        thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
        if fps[-1] <= 0:
            raise ValueError("For 'ROC.eval', there is no negative samples in true value, false positive value is "
                             "meaningless.")
        if tps[-1] <= 0:
            raise ValueError("For 'ROC.eval', there is no positive samples in true value, true positive value is "
                             "meaningless.")
        return fps / fps[-1], tps / tps[-1], thresholds

    def eval(self):
        """``(fpr, tpr, thresholds)``: arrays (binary) or lists of per-class arrays.

        Raises:
            RuntimeError: If ``update`` was not called.
        """
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        y_pred, y = np.squeeze(self.y_pred), np.squeeze(self.y)
        if self.class_num == 1:
            return self._binary(y_pred, y, self.pos_label)
        fpr, tpr, thresholds = [], [], []
        for c in range(self.class_num):
            f, t, th = self._binary(y_pred[:, c].flatten(), y.flatten(), c)
            fpr.append(f)
            tpr.append(t)
            thresholds.append(th)
        return fpr, tpr, thresholds
