"""Loss Cells (``nn.SoftmaxCrossEntropyWithLogits``, ``nn.MSELoss``, ...) and their base ``LossBase``.

MindSpore 2.10 defaults that matter:

* ``SoftmaxCrossEntropyWithLogits(sparse=False, reduction='none')``: dense (one-hot, float) labels and a
  per-sample loss of shape (N,). Integer labels need ``sparse=True`` (int32 or int64); otherwise the fused
  primitive rejects them with a ``TypeError``. ``sparse=True, reduction='mean'`` is the fused
  ``SparseSoftmaxCrossEntropyWithLogits``.
* ``CrossEntropyLoss``, ``MSELoss``, ``L1Loss``, ``BCELoss``, ``BCEWithLogitsLoss``, ``NLLLoss``, ``KLDivLoss``,
  ``HuberLoss`` default to ``reduction='mean'``; ``SmoothL1Loss`` to ``'none'``.
* :meth:`LossBase.get_loss` computes in float32 (``weights * x``, then mean/sum over every axis) and casts the
  result back to the input dtype.
"""
from __future__ import annotations

import logging

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore._module_paths import reexport as _reexport
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk
from mindspore.nn.layer.activation import get_activation

__all__ = ["LossBase", "L1Loss", "MSELoss", "RMSELoss", "MAELoss", "SmoothL1Loss", "SoftMarginLoss",
           "SoftmaxCrossEntropyWithLogits", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss",
           "KLDivLoss", "HuberLoss", "CosineEmbeddingLoss", "MarginRankingLoss", "HingeEmbeddingLoss",
           "GaussianNLLLoss", "PoissonNLLLoss", "FocalLoss", "DiceLoss", "MultiClassDiceLoss"]

_REDUCTIONS = ("mean", "sum", "none")


def _tensor(loss, name, value):
    if not isinstance(value, Tensor):
        raise MSTypeError(f"For '{type(loss).__name__}', the '{name}' must be a Tensor, but got "
                          f"{type(value).__name__}.")
    return value


class LossBase(Cell):
    """Base class of the losses: a subclass computes the elementwise loss in ``construct`` and reduces it with
    :meth:`get_loss`.

    Args:
        reduction (str): ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn, ops
        >>> class Net(nn.LossBase):
        ...     def construct(self, logits, labels):
        ...         return self.get_loss(ops.abs(logits - labels))
        >>> print(Net()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.0, 2.0, 2.0])))
        0.33333334
    """

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise MSValueError(f"For '{type(self).__name__}', the 'reduction' must be in ['mean', 'sum', 'none'], "
                               f"but got {reduction}.")
        self.reduction = reduction
        self.average = reduction != "sum"
        self.reduce = reduction != "none"

    def get_axis(self, x):
        """Every axis of ``x``, as a tuple."""
        return tuple(range(x.ndim))

    def get_loss(self, x, weights=1.0):
        """``weights * x`` computed in float32, reduced by the Cell's ``reduction``, cast back to ``x``'s dtype.

        Args:
            x (Tensor): the elementwise loss.
            weights (Union[float, Tensor]): a scalar or a tensor broadcastable to ``x``. Default: ``1.0``.
        """
        input_dtype = x.dtype
        x = ops.cast(x, mstype.float32)
        weights = ops.cast(weights, mstype.float32) if isinstance(weights, Tensor) else float(weights)
        x = ops.mul(weights, x)
        if self.reduce:
            axis = self.get_axis(x)
            x = ops.reduce_mean(x, axis) if self.average else ops.reduce_sum(x, axis)
        return ops.cast(x, input_dtype)


class L1Loss(LossBase):
    """Mean (by default) absolute error ``|logits - labels|`` (broadcast).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> print(nn.L1Loss()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.0, 2.0, 2.0])))
        0.33333334
    """

    def construct(self, logits, labels):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", labels)
        return self.get_loss(ops.abs(ops.sub(logits, labels)))


class MSELoss(LossBase):
    """Mean (by default) squared error ``(logits - labels)^2`` (broadcast).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> print(nn.MSELoss()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.0, 1.0, 1.0])))
        1.6666666
    """

    def construct(self, logits, labels):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", labels)
        return self.get_loss(ops.square(ops.sub(logits, labels)))


class RMSELoss(LossBase):
    """``sqrt(mean((logits - labels)^2))``."""

    def __init__(self):
        super().__init__()
        self.MSELoss = MSELoss()

    def construct(self, logits, label):
        for name, v in (("logits", logits), ("labels", label)):
            _tensor(self, name, v)
            if v.dtype in mstype.uint_type:
                raise MSTypeError(f"For 'RMSELoss', the parameters data type must not be unsigned, but got "
                                  f"{v.dtype}.")
        return ops.sqrt(self.MSELoss(logits, label))


class MAELoss(LossBase):
    """Mean (by default) absolute error ``|logits - label|``."""

    def construct(self, logits, label):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", label)
        return self.get_loss(ops.abs(ops.sub(logits, label)))


class SmoothL1Loss(LossBase):
    """``0.5 d^2 / beta`` where ``|d| < beta``, ``|d| - 0.5 beta`` elsewhere, ``d = logits - labels``.

    Args:
        beta (float): Default: ``1.0``.
        reduction (str): Default: ``'none'``.
    """

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        self.beta = chk.check_number("SmoothL1Loss", "beta", beta, lo=0, lo_inc=False, types=(float, int))
        self.smooth_l1_loss = ops.SmoothL1Loss(float(beta), reduction)

    def construct(self, logits, labels):
        return self.smooth_l1_loss(logits, labels)


class SoftMarginLoss(LossBase):
    """``mean(log(1 + exp(-labels * logits)))`` for labels in {1, -1}."""

    def construct(self, logits, labels):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", labels)
        if tuple(logits.shape) != tuple(labels.shape):
            raise MSValueError(f"For 'SoftMarginLoss', the shape of 'logits' {tuple(logits.shape)} must be the same "
                               f"as the shape of 'labels' {tuple(labels.shape)}.")
        return ops.soft_margin_loss(logits, labels, self.reduction)


class SoftmaxCrossEntropyWithLogits(LossBase):
    r"""Softmax cross entropy between (N, C) ``logits`` and ``labels``.

    Args:
        sparse (bool): labels are class indices (N,) of int32/int64 instead of dense (N, C) probabilities.
            Default: ``False``.
        reduction (str): ``'none'`` (default: per-sample loss of shape (N,)), ``'mean'`` or ``'sum'``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
        >>> logits = ms.Tensor(np.array([[3, 5, 6, 9, 12, 33, 42, 12, 32, 72]]), ms.float32)
        >>> print(loss(logits, ms.Tensor(np.array([1]).astype(np.int32))))
        [67.]
    """

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        self.sparse = chk.check_bool("SoftmaxCrossEntropyWithLogits", "sparse", sparse)
        self.softmax_cross_entropy = ops.SoftmaxCrossEntropyWithLogits()
        self.sparse_softmax_cross_entropy = ops.SparseSoftmaxCrossEntropyWithLogits()
        self.one_hot = ops.OneHot()

    def construct(self, logits, labels):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", labels)
        if self.sparse:
            if self.reduction == "mean":
                return self.sparse_softmax_cross_entropy(logits, labels)
            if labels.dtype not in (mstype.int32, mstype.int64):
                raise MSTypeError(f"For 'SoftmaxCrossEntropyWithLogits', the 'labels' must be int32 or int64 when "
                                  f"'sparse' is True, but got {labels.dtype}.")
            on, off = Tensor(1.0, logits.dtype), Tensor(0.0, logits.dtype)
            labels = self.one_hot(labels, logits.shape[-1], on, off)
        return self.get_loss(self.softmax_cross_entropy(logits, labels)[0])


class CrossEntropyLoss(LossBase):
    r"""Cross entropy of ``logits`` (classes on axis 1) against class indices or class probabilities.

    Args:
        weight (Tensor, optional): per-class weight (C,). Default: ``None``.
        ignore_index (int): target value that contributes nothing. Default: ``-100``.
        reduction (str): Default: ``'mean'``.
        label_smoothing (float): in [0, 1]. Default: ``0.0``.
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        chk.check_int("CrossEntropyLoss", "ignore_index", ignore_index)
        chk.check_number("CrossEntropyLoss", "label_smoothing", label_smoothing, lo=0, hi=1, types=(float, int))
        if weight is not None:
            _tensor(self, "weight", weight)
        self.weight = weight
        self.ignore_index = ignore_index
        self.label_smoothing = float(label_smoothing)

    def construct(self, logits, labels):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", labels)
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction,
                                 self.label_smoothing)


class NLLLoss(LossBase):
    r"""Negative log-likelihood of class indices ``labels`` under log-probabilities ``logits`` (N, C, ...).

    Args:
        weight (Tensor, optional): per-class weight (C,). Default: ``None``.
        ignore_index (int): Default: ``-100``.
        reduction (str): Default: ``'mean'`` (weighted mean over the non-ignored samples).
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        chk.check_int("NLLLoss", "ignore_index", ignore_index)
        if weight is not None:
            _tensor(self, "weight", weight)
        self.weight = weight
        self.ignore_index = ignore_index

    def construct(self, logits, labels):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", labels)
        return ops.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class BCELoss(LossBase):
    r"""Binary cross entropy ``-w [y log(x) + (1 - y) log(1 - x)]`` of probabilities ``logits``.

    Args:
        weight (Tensor, optional): elementwise weight, same shape as the inputs. Default: ``None`` (ones).
        reduction (str): Default: ``'mean'``.
    """

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        if weight is not None:
            _tensor(self, "weight", weight)
        self.weight = weight
        self.binary_cross_entropy = ops.BinaryCrossEntropy(reduction=reduction)

    def construct(self, logits, labels):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", labels)
        weight = ops.ones_like(logits) if self.weight is None else self.weight
        return self.binary_cross_entropy(logits, labels, weight)


class BCEWithLogitsLoss(LossBase):
    r"""``sigmoid`` + binary cross entropy in one numerically stable step.

    Args:
        reduction (str): Default: ``'mean'``.
        weight (Tensor, optional): elementwise weight (broadcastable). Default: ``None``.
        pos_weight (Tensor, optional): weight of the positive term per class (broadcastable). Default: ``None``.
    """

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        for name, value in (("weight", weight), ("pos_weight", pos_weight)):
            if value is not None:
                _tensor(self, name, value)
        self.weight = weight
        self.pos_weight = pos_weight

    def construct(self, logits, labels):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", labels)
        weight = ops.ones_like(logits) if self.weight is None else self.weight
        pos_weight = ops.ones_like(logits) if self.pos_weight is None else self.pos_weight
        return ops.binary_cross_entropy_with_logits(logits, labels, weight, pos_weight, self.reduction)


class KLDivLoss(LossBase):
    r"""Kullback-Leibler divergence ``labels * (log(labels) - logits)`` of log-probabilities ``logits``.

    Args:
        reduction (str): ``'mean'`` (default), ``'batchmean'``, ``'sum'`` or ``'none'``.
    """

    def __init__(self, reduction="mean"):
        if reduction not in ("mean", "batchmean", "sum", "none"):
            raise MSValueError(f"For 'KLDivLoss', the 'reduction' must be in ['mean', 'batchmean', 'sum', 'none'], "
                               f"but got {reduction}.")
        super().__init__("mean" if reduction == "batchmean" else reduction)
        self.reduction = reduction

    def construct(self, logits, labels):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", labels)
        return ops.kl_div(logits, labels, self.reduction)


class HuberLoss(LossBase):
    r"""``0.5 d^2`` where ``|d| < delta``, ``delta (|d| - 0.5 delta)`` elsewhere, ``d = logits - labels``.

    Args:
        reduction (str): Default: ``'mean'``.
        delta (Union[int, float]): positive threshold. Default: ``1.0``.
    """

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.delta = chk.check_number("HuberLoss", "delta", delta, lo=0, lo_inc=False, types=(float, int))

    def construct(self, logits, labels):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", labels)
        z = ops.abs(ops.sub(logits, labels))
        quadratic = ops.mul(ops.square(z), 0.5)
        linear = ops.mul(ops.sub(z, 0.5 * self.delta), self.delta)
        return self.get_loss(ops.select(ops.less(z, self.delta), quadratic, linear))


class CosineEmbeddingLoss(LossBase):
    r"""``1 - cos(x1, x2)`` where ``labels == 1``, ``max(0, cos(x1, x2) - margin)`` where ``labels == -1``;
    the cosine is taken along axis 1.

    Args:
        margin (float): in [-1, 1]. Default: ``0.0``.
        reduction (str): Default: ``'mean'``.
    """

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = chk.check_number("CosineEmbeddingLoss", "margin", margin, lo=-1.0, hi=1.0, types=(float,))

    def construct(self, logits_x1, logits_x2, labels):
        _tensor(self, "logits_x1", logits_x1)
        _tensor(self, "logits_x2", logits_x2)
        _tensor(self, "labels", labels)
        if tuple(logits_x1.shape) != tuple(logits_x2.shape) or logits_x1.dtype != logits_x2.dtype:
            raise MSValueError(f"For 'CosineEmbeddingLoss', 'logits_x1' and 'logits_x2' must have the same shape and "
                               f"dtype, but got {tuple(logits_x1.shape)} {logits_x1.dtype} and "
                               f"{tuple(logits_x2.shape)} {logits_x2.dtype}.")
        prod_sum = ops.reduce_sum(ops.mul(logits_x1, logits_x2), (1,))
        denom = ops.mul(ops.sqrt(ops.reduce_sum(ops.square(logits_x1), (1,))),
                        ops.sqrt(ops.reduce_sum(ops.square(logits_x2), (1,))))
        cosine = ops.div(prod_sum, denom)
        zeros = ops.zeros_like(cosine)
        pos = ops.select(ops.equal(labels, 1), ops.sub(1.0, cosine), zeros)
        neg = ops.select(ops.equal(labels, -1), ops.maximum(ops.sub(cosine, self.margin), 0.0), zeros)
        return self.get_loss(ops.add(pos, neg))


class MarginRankingLoss(LossBase):
    """``max(0, -target * (input1 - input2) + margin)``, reduced (``'mean'`` by default)."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = chk.check_number("MarginRankingLoss", "margin", margin, types=(float, int))

    def construct(self, input1, input2, target):
        return ops.margin_ranking_loss(input1, input2, target, float(self.margin), self.reduction)


class HingeEmbeddingLoss(LossBase):
    """``x`` where ``labels == 1``, ``max(0, margin - x)`` where ``labels == -1``, reduced."""

    def __init__(self, margin=1.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = chk.check_number("HingeEmbeddingLoss", "margin", margin, types=(float, int))

    def construct(self, logits, labels):
        return ops.hinge_embedding_loss(logits, labels, float(self.margin), self.reduction)


class GaussianNLLLoss(LossBase):
    """Gaussian negative log-likelihood ``0.5 (log(max(var, eps)) + (logits - labels)^2 / max(var, eps))``
    (plus ``0.5 log(2 pi)`` with ``full``)."""

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(reduction)
        self.full = chk.check_bool("GaussianNLLLoss", "full", full)
        self.eps = chk.check_number("GaussianNLLLoss", "eps", eps, lo=0, lo_inc=False, types=(float,))

    def construct(self, logits, labels, var):
        return ops.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class PoissonNLLLoss(LossBase):
    """Poisson negative log-likelihood: ``exp(x) - y x`` (``log_input``) or ``x - y log(x + eps)``, plus the
    Stirling term ``y log(y) - y + 0.5 log(2 pi y)`` for ``y > 1`` with ``full``."""

    def __init__(self, log_input=True, full=False, eps=1e-08, reduction="mean"):
        super().__init__(reduction)
        self.log_input = chk.check_bool("PoissonNLLLoss", "log_input", log_input)
        self.full = chk.check_bool("PoissonNLLLoss", "full", full)
        self.eps = chk.check_number("PoissonNLLLoss", "eps", eps, types=(float,))

    def construct(self, x, target):
        _tensor(self, "x", x)
        _tensor(self, "target", target)
        if x.ndim == 0 or target.ndim == 0:
            raise MSValueError(f"For 'PoissonNLLLoss', the inputs must be non-scalar, but got shapes: x: "
                               f"{tuple(x.shape)}, target: {tuple(target.shape)}")
        target = ops.cast(target, x.dtype)
        if self.log_input:
            loss = ops.sub(ops.exp(x), ops.mul(target, x))
        else:
            loss = ops.sub(x, ops.mul(target, ops.log(ops.add(x, self.eps))))
        if self.full:
            t = ops.maximum(target, self.eps)
            stirling = ops.add(ops.sub(ops.mul(ops.add(t, 0.5), ops.log(t)), t), 0.9189385332046727)
            loss = ops.add(loss, ops.mul(stirling, ops.cast(ops.greater(t, 1), x.dtype)))
        return self.get_loss(loss)


class FocalLoss(LossBase):
    r"""Focal loss ``-(1 - p_t)^gamma log(p_t)`` over softmax probabilities along axis 1.

    ``labels`` are class indices with a channel axis of size 1 ((N, 1, ...)) or dense targets shaped like
    ``logits``; ``weight`` (C,) rescales each class.

    Args:
        weight (Tensor, optional): Default: ``None``. gamma (float): Default: ``2.0``. reduction (str): ``'mean'``.
    """

    def __init__(self, weight=None, gamma=2.0, reduction="mean"):
        super().__init__(reduction=reduction)
        self.gamma = chk.check_number("FocalLoss", "gamma", gamma, types=(float,))
        if weight is not None and not isinstance(weight, Tensor):
            raise MSTypeError(f"For 'FocalLoss', the type of 'weight' must be a Tensor, but got "
                              f"{type(weight).__name__}.")
        if isinstance(weight, Tensor) and weight.ndim != 1:
            raise MSValueError(f"For 'FocalLoss', the dimension of 'weight' must be 1, but got {weight.ndim}.")
        self.weight = weight

    def construct(self, logits, labels):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", labels)
        if labels.dtype not in (mstype.int32, mstype.int64, mstype.float16, mstype.float32):
            raise MSTypeError(f"For 'FocalLoss', the 'labels' must be int32, int64, float16 or float32, but got "
                              f"{labels.dtype}.")
        if logits.ndim != labels.ndim:
            raise MSValueError(f"For 'FocalLoss', the 'labels' must have the rank of 'logits' {logits.ndim}, but "
                               f"got {labels.ndim}.")
        if labels.shape[1] != 1 and tuple(labels.shape) != tuple(logits.shape):
            raise MSValueError(f"For 'FocalLoss', the channel of 'labels' must be 1 or the 'labels' shape must be "
                               f"{tuple(logits.shape)}, but got {tuple(labels.shape)}.")
        sparse = labels.shape[1] == 1
        if logits.ndim > 2:
            logits = ops.reshape(logits, (logits.shape[0], logits.shape[1], -1))
            labels = ops.reshape(labels, (labels.shape[0], labels.shape[1], -1))
        else:
            logits, labels = ops.expand_dims(logits, 2), ops.expand_dims(labels, 2)
        log_p = ops.log_softmax(logits, 1)
        if sparse:
            index = ops.cast(labels, mstype.int32)
            log_p = ops.squeeze(ops.gather_d(log_p, 1, index), 1)
        p = ops.exp(log_p)
        if self.weight is not None:
            w = ops.tile(ops.reshape(self.weight, (1, -1, 1)), (labels.shape[0], 1, labels.shape[2]))
            if sparse:
                w = ops.squeeze(ops.gather_d(w, 1, index), 1)
            log_p = ops.mul(log_p, w)
        focus = ops.pow(ops.sub(1.0, p), self.gamma)
        if sparse:
            loss = ops.mean(ops.neg(ops.mul(focus, log_p)), 1)
        else:
            loss = ops.mean(ops.neg(ops.mul(ops.mul(focus, labels), log_p)), -1)
        return self.get_loss(loss)


class DiceLoss(LossBase):
    """``1 - 2 sum(x y) / (sum(x^2) + sum(y^2) + smooth)`` over all elements."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        self.smooth = chk.check_number("DiceLoss", "smooth", smooth, lo=0, lo_inc=False, types=(float,))

    def construct(self, logits, label):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", label)
        if logits.dtype == mstype.uint8 or label.dtype == mstype.uint8:
            raise MSTypeError("For 'DiceLoss', the dtype of 'logits' and 'labels' can not be uint8.")
        x, y = ops.reshape(logits, (-1,)), ops.reshape(label, (-1,))
        intersection = ops.reduce_sum(ops.mul(x, y))
        union = ops.add(ops.reduce_sum(ops.mul(x, x)), ops.reduce_sum(ops.mul(y, y)))
        return ops.sub(1, ops.div(ops.mul(intersection, 2), ops.add(union, self.smooth)))


class MultiClassDiceLoss(LossBase):
    """The mean over channels (axis 1) of :class:`DiceLoss`, after ``activation`` (default ``'softmax'``)."""

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        allowed = ["softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid"]
        if weights is not None:
            _tensor(self, "weights", weights)
            if weights.ndim != 2:
                raise MSValueError(f"For 'MultiClassDiceLoss', the dimension of 'weights' must be 2, but got "
                                   f"{weights.ndim}.")
        if ignore_indiex is not None:
            chk.check_int("MultiClassDiceLoss", "ignore_indiex", ignore_indiex)
        if isinstance(activation, str) and activation not in allowed:
            raise MSValueError(f"For 'MultiClassDiceLoss', the 'activation' must be in {allowed}, but got "
                               f"{activation}.")
        self.weights = weights
        self.ignore_indiex = ignore_indiex
        self.binarydiceloss = DiceLoss(smooth=1e-5)
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        if self.activation is not None and not isinstance(self.activation, Cell):
            raise MSTypeError(f"For 'MultiClassDiceLoss', the 'activation' must be str or Cell, but got "
                              f"{type(self.activation).__name__}.")

    def construct(self, logits, label):
        _tensor(self, "logits", logits)
        _tensor(self, "labels", label)
        if tuple(logits.shape) != tuple(label.shape) or logits.ndim < 2:
            raise MSValueError(f"For 'MultiClassDiceLoss', 'logits' and 'labels' must have the same shape of rank >= "
                               f"2, but got {tuple(logits.shape)} and {tuple(label.shape)}.")
        if self.activation is not None:
            logits = self.activation(logits)
        total = 0
        for i in range(label.shape[1]):
            if i == self.ignore_indiex:
                continue
            dice = self.binarydiceloss(logits[:, i], label[:, i])
            if self.weights is not None:
                dice = ops.mul(dice, self.weights[i])
            total = ops.add(total, dice)
        return ops.div(total, label.shape[1])


class _Loss(LossBase):
    """MindSpore's name for :class:`LossBase` before 1.3, which older model code still subclasses: ``LossBase``,
    with MindSpore's deprecation warning."""

    def __init__(self, reduction="mean"):
        logging.getLogger("mindspore").warning("'_Loss' is deprecated from version 1.3 and will be removed after "
                                               "version 2.9.0, use 'LossBase' instead.")
        super().__init__(reduction)


# The losses MindSpore defines in this module and this project in its neighbours (``from mindspore.nn.loss.loss
# import CTCLoss`` works in both)
__getattr__ = _reexport("mindspore.nn.loss.loss", {"mindspore.nn": (
    "CTCLoss MultiLabelSoftMarginLoss MultiMarginLoss MultilabelMarginLoss SampledSoftmaxLoss TripletMarginLoss "
    "TripletMarginWithDistanceLoss")})
