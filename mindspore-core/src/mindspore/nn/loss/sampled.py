"""Sequence and sampled losses of ``mindspore.nn``: ``CTCLoss`` and ``SampledSoftmaxLoss``.

- ``CTCLoss`` is ``ops.ctc_loss`` (the forward-backward recursion and its gradient live there); the Cell adds
  MindSpore's unbatched form: a 2-D ``log_probs`` (T, C) with 1-D or (1, S) targets gives a scalar.
- ``SampledSoftmaxLoss`` is the softmax cross-entropy of the true classes against ``num_sampled`` sampled
  classes only (Jean et al. 2015): logits ``x . w_c + b_c - log Q(c)`` for the true classes and the sampled ones,
  the true ones weighted ``1 / num_true``. As in MindSpore, the loss is per example (``reduction`` is checked
  and kept, but not applied). ``sampled_values`` = (sampled classes, expected count of each true class,
  expected count of each sampled class) makes it deterministic; without it, ``num_sampled`` distinct classes are
  drawn uniformly (``ops.randperm`` seeded by ``seed``; with ``remove_accidental_hits`` none of the batch's true
  classes while enough others remain), so each class's expected count is ``num_sampled / num_classes``.
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn.loss.loss import LossBase

__all__ = ["CTCLoss", "SampledSoftmaxLoss"]


def _check_is_tensor(op, name, value):
    if not isinstance(value, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be 'Tensor', but got '{type(value).__name__}'")


class CTCLoss(LossBase):
    r"""The Connectionist Temporal Classification loss (Graves et al. 2006).

    Args:
        blank (int): The blank label. Default ``0``.
        reduction (str): ``'none'``, ``'mean'`` (each loss divided by its target length, then averaged) or
            ``'sum'``. Default ``'mean'``.
        zero_infinity (bool): Replace infinite losses (impossible alignments) and their gradients by zero.
            Default ``False``.

    Inputs:
        - **log_probs** (Tensor) - (T, N, C) or (T, C): log-probabilities.
        - **targets** (Tensor) - (N, S) or (sum(target_lengths),); for 2-D ``log_probs``, (S,) or (1, S).
        - **input_lengths** (Union[tuple, Tensor]) - (N,).
        - **target_lengths** (Union[tuple, Tensor]) - (N,).

    Outputs:
        Tensor: the loss, (N,) with ``reduction='none'``, else a scalar.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> log_probs = ms.Tensor(np.log(np.full((3, 1, 3), 1 / 3, np.float32)))
        >>> loss = nn.CTCLoss(reduction='none')(log_probs, ms.Tensor(np.array([[1]], np.int32)),
        ...                                     ms.Tensor(np.array([3], np.int32)), ms.Tensor(np.array([1], np.int32)))
        >>> round(float(loss[0]), 4)
        1.5041
    """

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction)
        self.blank = blank
        self.reduction = reduction
        self.zero_infinity = zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        _check_is_tensor("CTCLoss", "log_probs", log_probs)
        _check_is_tensor("CTCLoss", "targets", targets)
        if log_probs.ndim == 2:
            if targets.ndim > 2 or (targets.ndim == 2 and targets.shape[0] != 1):
                raise MSValueError(f"For 'CTCLoss', when the shape of input 'log_probs' is (T, C), the dimension of "
                                   f"input 'targets' should be 1 or 2 with 1 in the first position, but got "
                                   f"{targets.shape}.")
            if targets.ndim == 1:
                targets = targets.expand_dims(0)
            loss, _ = ops.ctc_loss(log_probs.expand_dims(-2), targets, input_lengths, target_lengths, self.blank,
                                   self.reduction, self.zero_infinity)
            return loss.squeeze(0) if loss.ndim else loss
        loss, _ = ops.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                               self.zero_infinity)
        return loss


class SampledSoftmaxLoss(LossBase):
    r"""Softmax cross-entropy over the true classes and ``num_sampled`` sampled classes (per example).

    Args:
        num_sampled (int): The number of classes sampled per batch.
        num_classes (int): The number of classes.
        num_true (int): The number of true classes per example. Default ``1``.
        sampled_values (Union[list, tuple]): (sampled_candidates, true_expected_count, sampled_expected_count);
            ``None`` (default) draws them.
        remove_accidental_hits (bool): Whether a sampled class that is a true class is removed. Default ``True``.
        seed (int): Seed of the sampler. Default ``0``.
        reduction (str): Checked as in other losses. Default ``'none'``.

    Inputs:
        - **weights** (Tensor) - (num_classes, dim).
        - **biases** (Tensor) - (num_classes,).
        - **labels** (Tensor) - (batch, num_true), int32/int64.
        - **logits** (Tensor) - (batch, dim).

    Outputs:
        Tensor (batch,).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> sampled = (ms.Tensor(np.array([0, 3], np.int32)), ms.Tensor(np.full((2, 1), 0.5, np.float32)),
        ...            ms.Tensor(np.full((2,), 0.5, np.float32)))
        >>> loss = nn.SampledSoftmaxLoss(2, 5, sampled_values=sampled)
        >>> loss(ms.Tensor(np.ones((5, 3), np.float32)), ms.Tensor(np.zeros(5, np.float32)),
        ...      ms.Tensor(np.array([[1], [2]], np.int32)), ms.Tensor(np.ones((2, 3), np.float32))).shape
        (2,)
    """

    def __init__(self, num_sampled, num_classes, num_true=1, sampled_values=None, remove_accidental_hits=True,
                 seed=0, reduction="none"):
        super().__init__(reduction)
        op = "SampledSoftmaxLoss"
        if num_true < 1:
            raise MSValueError(f"For '{op}', the 'num_true' must be greater than or equal to 1, but got {num_true}.")
        if seed < 0:
            raise MSValueError(f"For '{op}', the 'seed' must be greater than or equal to 0, but got {seed}.")
        if num_sampled > num_classes:
            raise MSValueError(f"For '{op}', the 'num_sampled' must be smaller than or equal to 'num_classes', but "
                               f"got 'num_sampled': {num_sampled} and 'num_classes': {num_classes}.")
        if num_true > num_classes:
            raise MSValueError(f"For '{op}', the 'num_true' must be smaller than or equal to 'num_classes', but got "
                               f"'num_true': {num_true} amd 'num_classes': {num_classes}.")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise MSTypeError(f"For '{op}', the type of 'sampled_values' must be a list or tuple, but got "
                                  f"{type(sampled_values).__name__}.")
            if len(sampled_values) != 3:
                raise MSValueError(f"For '{op}', the length of 'sampled_values' must be equal to 3,but got "
                                   f"{len(sampled_values)}.")
        self.num_sampled = num_sampled
        self.num_classes = num_classes
        self.num_true = num_true
        self.sampled_values = sampled_values
        self.remove_accidental_hits = remove_accidental_hits
        self.seed = seed
        self._draws = 0

    def _sample(self, labels):
        """``num_sampled`` distinct classes drawn uniformly, and the expected counts of the true and sampled."""
        self._draws += 1
        perm = ops.randperm(self.num_classes, seed=self.seed, offset=self._draws, dtype=mstype.int32)
        if self.remove_accidental_hits:
            # the batch's true classes go to the end of the permutation, so none is drawn while others are left
            hit = (ops.one_hot(labels.reshape(-1), self.num_classes, 1.0, 0.0).sum(0) > 0).astype(mstype.float32)
            keys = ops.arange(self.num_classes).astype(mstype.float32) + self.num_classes * ops.gather(hit, perm, 0)
            perm = ops.gather(perm, ops.argsort(keys), 0)
        sampled = perm[:self.num_sampled]
        prob = self.num_sampled / self.num_classes
        true_expected = ops.full(labels.shape, prob, dtype=mstype.float32)
        sampled_expected = ops.full((self.num_sampled,), prob, dtype=mstype.float32)
        return sampled, true_expected, sampled_expected

    def construct(self, weights, biases, labels, logits):
        op = "SampledSoftmaxLoss"
        for name, value in (("weights", weights), ("biases", biases), ("labels", labels), ("logits", logits)):
            _check_is_tensor(op, name, value)
        if labels.dtype not in (mstype.int32, mstype.int64):
            raise MSTypeError(f"For '{op}', the 'labels' must be int32 or int64, but got "
                              f"'mindspore.{str(labels.dtype).lower()}'.")
        labels = labels.astype(mstype.int32).reshape(-1, self.num_true)
        sampled, true_expected, sampled_expected = (self.sampled_values if self.sampled_values is not None
                                                    else self._sample(labels))
        sampled = sampled.astype(mstype.int32)
        true_w = ops.gather(weights, labels.reshape(-1), 0).reshape(labels.shape[0], self.num_true, -1)
        true_logits = (logits.expand_dims(1) * true_w).sum(-1) + ops.gather(biases, labels.reshape(-1), 0).reshape(
            labels.shape)
        sampled_logits = ops.matmul(logits, ops.gather(weights, sampled, 0).transpose(1, 0)) + ops.gather(
            biases, sampled, 0)
        true_logits = true_logits - ops.log(true_expected.astype(logits.dtype))
        sampled_logits = sampled_logits - ops.log(sampled_expected.astype(logits.dtype))
        out_logits = ops.concat((true_logits, sampled_logits), 1)
        targets = ops.concat((ops.ones_like(true_logits) / self.num_true, ops.zeros_like(sampled_logits)), 1)
        shifted = out_logits - ops.amax(out_logits, 1, keepdims=True)
        stable = ops.exp(shifted)
        pred = stable / stable.sum(1, keepdims=True)
        return -(targets * ops.log(pred + 1.0e-20)).sum(1)
