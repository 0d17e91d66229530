"""Margin losses of ``mindspore.nn``: ``TripletMarginLoss``, ``MultiMarginLoss``, ``MultiLabelSoftMarginLoss`` and
``MultilabelMarginLoss``, composed from existing ops (so they differentiate and trace under ``@jit``), with
MindSpore 2.10's arguments and the torch-compatible formulas its ``ops`` functions implement:

* triplet: ``max(d(a, p) - d(a, n) + margin, 0)``, ``d(u, v) = ||u - v + eps||_p`` along axis 1; ``swap`` uses
  ``min(d(a, n), d(p, n))``. A ``margin`` given to the constructor (other than 1.0) wins over ``construct``'s.
* multi-margin: ``sum_{i != y} w[y] * max(0, margin - x[y] + x[i]) ** p / C`` per sample.
* multi-label soft margin: ``-mean_c(w_c * (y log sigmoid(x) + (1 - y) log sigmoid(-x)))`` per sample.
* multi-label margin: ``target`` holds class indices up to the first ``-1``; per sample
  ``sum_{j target} sum_{i not target} max(0, 1 - (x[j] - x[i])) / C``.
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common.tensor import Tensor
from mindspore.nn.loss.loss import LossBase

__all__ = ["TripletMarginLoss", "MultiMarginLoss", "MultiLabelSoftMarginLoss", "MultilabelMarginLoss",
           "TripletMarginWithDistanceLoss"]

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(op, reduction):
    if reduction not in _REDUCTIONS:
        raise MSValueError(f"For '{op}', the 'reduction' must be in ['mean', 'sum', 'none'], but got {reduction}.")
    return reduction


def _check_tensor(op, name, value):
    if not isinstance(value, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(value).__name__}.")
    return value


def _reduce(x, reduction):
    if reduction == "mean":
        return ops.mean(x)
    if reduction == "sum":
        return ops.sum(x)
    return x


class TripletMarginLoss(LossBase):
    """Triplet margin loss of anchors ``x``, ``positive`` and ``negative`` samples (N, D, \\*).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> a = ms.Tensor(np.array([[0.3, 0.7], [0.5, 0.5]], np.float32))
        >>> p = ms.Tensor(np.array([[0.4, 0.6], [0.4, 0.6]], np.float32))
        >>> n = ms.Tensor(np.array([[0.2, 0.9], [0.3, 0.7]], np.float32))
        >>> round(float(nn.TripletMarginLoss()(a, p, n)), 4)
        0.8882
    """

    def __init__(self, p=2, swap=False, eps=1e-06, reduction="mean", margin=1.):
        super().__init__()
        self.p = p
        self.swap = swap
        self.eps = eps
        self.reduction = _check_reduction("TripletMarginLoss", reduction)
        self.margin = margin

    def construct(self, x, positive, negative, margin=1.):
        for name, value in (("x", x), ("positive", positive), ("negative", negative)):
            _check_tensor("TripletMarginLoss", name, value)
        if self.margin != 1.0:
            margin = self.margin
        return ops.triplet_margin_loss(x, positive, negative, margin, self.p, self.eps, self.swap, self.reduction)


class MultiMarginLoss(LossBase):
    """Multi-class margin (hinge) loss of scores ``x`` (N, C) against class indices ``target`` (N,).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.array([[0.3, 0.7, 0.5], [0.5, 0.5, 0.2]], np.float32))
        >>> round(float(nn.MultiMarginLoss()(x, ms.Tensor(np.array([1, 2], np.int64)))), 4)
        0.6667
    """

    def __init__(self, p=1, margin=1.0, reduction="mean", weight=None):
        super().__init__()
        if p not in (1, 2) or isinstance(p, bool):
            raise MSValueError(f"For 'MultiMarginLoss', the 'p' must be 1 or 2, but got {p}.")
        self.p = p
        self.margin = margin
        self.reduction = _check_reduction("MultiMarginLoss", reduction)
        self.weight = weight

    def construct(self, x, target, weight=None):
        _check_tensor("MultiMarginLoss", "x", x)
        _check_tensor("MultiMarginLoss", "target", target)
        if self.weight is not None:
            weight = self.weight
        if weight is not None:
            _check_tensor("MultiMarginLoss", "weight", weight)
        return ops.multi_margin_loss(x, target, self.p, self.margin, weight, self.reduction)


class MultiLabelSoftMarginLoss(LossBase):
    """Multi-label one-versus-all logistic loss of logits ``x`` (N, C) and 0/1 ``target`` (N, C).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.array([[0.3, 0.6, 0.6], [0.9, 0.4, 0.2]], np.float32))
        >>> y = ms.Tensor(np.array([[0., 0., 1.], [0., 0., 1.]], np.float32))
        >>> round(float(nn.MultiLabelSoftMarginLoss(reduction='mean')(x, y)), 4)
        0.8469
    """

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight
        self.reduction = reduction

    def construct(self, x, target):
        _check_tensor("MultiLabelSoftMarginLoss", "x", x)
        target = ops.cast(target, x.dtype)
        loss = -(target * ops.logsigmoid(x) + (1 - target) * ops.logsigmoid(-x))
        if self.weight is not None:
            loss = loss * ops.cast(self.weight, x.dtype)
        return _reduce(ops.mean(loss, -1), self.reduction)


class MultilabelMarginLoss(LossBase):
    """Multi-label margin loss of scores ``x`` (N, C) or (C,) and ``target`` of the same shape holding the sample's
    class indices, ended by the first ``-1``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.array([[0.1, 0.2, 0.4, 0.8], [0.2, 0.3, 0.5, 0.7]], np.float32))
        >>> y = ms.Tensor(np.array([[1, 2, 0, 3], [2, 3, -1, 1]], np.int32))
        >>> round(float(nn.MultilabelMarginLoss()(x, y)), 4)
        0.325
    """

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = _check_reduction("MultilabelMarginLoss", reduction)

    def construct(self, x, target):
        _check_tensor("MultilabelMarginLoss", "x", x)
        _check_tensor("MultilabelMarginLoss", "target", target)
        if x.shape != target.shape:
            raise MSValueError(f"For 'MultilabelMarginLoss', the shape of 'target' must be the same as 'x', but got "
                               f"'x' shape {x.shape} and 'target' shape {target.shape}.")
        return ops.multilabel_margin_loss(x, target, self.reduction)


class TripletMarginWithDistanceLoss(LossBase):
    """Triplet loss ``max(d(x, positive) - d(x, negative) + margin, 0)`` with a custom distance (default: the L2
    norm of ``|a - b|`` along axis 1, without ``eps``), reduced by ``reduction``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> a = ms.Tensor(np.array([[0.3, 0.7], [0.5, 0.5]], np.float32))
        >>> p = ms.Tensor(np.array([[0.4, 0.6], [0.4, 0.6]], np.float32))
        >>> n = ms.Tensor(np.array([[0.2, 0.9], [0.3, 0.7]], np.float32))
        >>> round(float(nn.TripletMarginWithDistanceLoss()(a, p, n)), 4)
        0.8882
    """

    def __init__(self, distance_function=None, swap=False, reduction="mean", margin=1.0):
        super().__init__(reduction=reduction)
        if not isinstance(margin, float):
            raise MSTypeError(f"For 'TripletMarginWithDistanceLoss', the type of 'margin' must be float, but got "
                              f"{type(margin).__name__}.")
        if not isinstance(swap, bool):
            raise MSTypeError(f"For 'TripletMarginWithDistanceLoss', the type of 'swap' must be bool, but got "
                              f"{type(swap).__name__}.")
        self.distance_function = distance_function if distance_function is not None else self._pairwise_distance
        self.swap = swap
        self.margin = margin

    @staticmethod
    def _pairwise_distance(x, y):
        d = ops.abs(x - y)
        if d.ndim == 0:
            raise MSValueError(f"For 'pairwise_distance' in 'TripletMarginWithDistanceLoss', 'ndim' of the input must "
                               f"be positive, but got {d.ndim}")
        return ops.sqrt(ops.sum(d * d, 1))

    def construct(self, x, positive, negative):
        _check_tensor("TripletMarginWithDistanceLoss", "positive", positive)
        _check_tensor("TripletMarginWithDistanceLoss", "negative", negative)
        d1 = self.distance_function(x, positive)
        d2 = self.distance_function(x, negative)
        if self.swap:
            d2 = ops.minimum(d2, self.distance_function(positive, negative))
        return self.get_loss(ops.relu(d1 - d2 + self.margin))
