"""The Categorical distribution over the classes 0 .. K-1 (``probs``' last axis)."""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.distribution import Distribution

__all__ = ["Categorical"]


class Categorical(Distribution):
    """Categorical distribution: P(X = k) = probs[..., k].

    ``mean`` and ``var`` keep the class axis (size 1), and ``entropy``, ``kl_loss`` and ``cross_entropy`` squeeze
    every axis of size 1 away, as MindSpore 2.10 does.

    Args:
        probs (list, numpy.ndarray, Tensor): The class probabilities on the last axis, each in (0, 1), summing to
            one. Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples. Default: ``mstype.int32``.
        name (str): Default: ``'Categorical'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> c = msd.Categorical([0.2, 0.8])
        >>> print(c.mode())
        1
    """

    def __init__(self, probs=None, seed=None, dtype=mstype.int32, name="Categorical"):
        param = dict(locals())
        param["param_dict"] = {"probs": probs}
        valid = tuple(mstype.uint_type) + tuple(mstype.int_type) + tuple(mstype.float_type)
        _utils.check_dtype(dtype, valid, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            _utils.check_categorical_probs(self._probs)
            if self._probs.shape[:-1] == ():
                self._is_scalar_batch = True
            self._broadcast_shape = self._broadcast_shape[:-1]

    @property
    def probs(self):
        """The class probabilities."""
        return self._probs

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"probs = {self.probs}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self):
        return "Categorical"

    def _get_dist_args(self, probs=None):
        probs = self._probs if probs is None else _utils.check_tensor(probs, "probs")
        return (probs,)

    def _mean(self, probs=None):
        probs = self._check_param_type(probs)
        index = ops.arange(0, probs.shape[-1], dtype=probs.dtype)
        return ops.sum(index * probs, -1, keepdim=True)

    def _mode(self, probs=None):
        probs = self._check_param_type(probs)
        return ops.cast(ops.argmax(probs, -1), self.dtype)

    def _var(self, probs=None):
        probs = self._check_param_type(probs)
        index = ops.arange(0, probs.shape[-1], dtype=probs.dtype)
        return (ops.sum(ops.square(index) * probs, -1, keepdim=True)
                - ops.square(ops.sum(index * probs, -1, keepdim=True)))

    def _entropy(self, probs=None):
        probs = self._check_param_type(probs)
        return ops.squeeze(-ops.sum(_utils.log(probs) * probs, -1, keepdim=True))

    def _kl_loss(self, dist, probs_b, probs=None):
        _utils.check_dist_name(dist, "Categorical")
        probs_b = self._cast_other(probs_b, "probs_b")
        logits_a = _utils.log(self._check_param_type(probs))
        logits_b = _utils.log(probs_b)
        log_ratio = ops.log_softmax(logits_a, -1) - ops.log_softmax(logits_b, -1)
        return ops.squeeze(ops.sum(ops.softmax(logits_a, -1) * log_ratio, -1, keepdim=True))

    def _cross_entropy(self, dist, probs_b, probs=None):
        _utils.check_dist_name(dist, "Categorical")
        return self._entropy(probs) + self._kl_loss(dist, probs_b, probs)

    def _class_index(self, value, table):
        """``value`` (floored; (-1, 0) counts as 0) as indices into ``table``'s last axis, both broadcast."""
        value = ops.cast(value, table.dtype)
        in_minus_one_zero = ops.logical_and(value < 0.0, value > -1.0)
        value = ops.expand_dims(ops.select(in_minus_one_zero, ops.zeros_like(value), ops.floor(value)), -1)
        shape = (value * table).shape
        table = ops.broadcast_to(table, shape)
        value = ops.broadcast_to(value, shape[:-1] + (1,))
        index = ops.cast(ops.clip_by_value(value, 0.0, float(shape[-1] - 1)), mstype.int32)
        return value, table, index

    def _log_prob(self, value, probs=None):
        value = self._check_value(value, "value")
        probs = self._check_param_type(probs)
        value, logits, index = self._class_index(value, _utils.log(probs))
        out_of_bound = ops.logical_or(value < 0.0, value > float(logits.shape[-1] - 1))
        log_pmf = ops.gather_elements(logits, -1, index)
        return ops.squeeze(ops.select(out_of_bound, ops.fill(log_pmf.dtype, log_pmf.shape, np.nan), log_pmf), -1)

    def _cdf(self, value, probs=None):
        value = self._check_value(value, "value")
        probs = self._check_param_type(probs)
        value, probs, index = self._class_index(value, probs)
        cdf = ops.gather_elements(ops.cumsum(probs, -1), -1, index)
        return ops.squeeze(ops.select(value < 0.0, ops.zeros_like(cdf), cdf), -1)

    def _sample(self, shape=(), probs=None):
        _utils.check_tuple(shape, "shape")
        probs = self._check_param_type(probs)
        num_classes = probs.shape[-1]
        sample_shape = shape + probs.shape[:-1]
        num_samples = 1
        for dim in shape:
            num_samples = num_samples * dim
        samples = ops.multinomial(ops.reshape(probs, (-1, num_classes)), num_samples, seed=self.seed)
        samples = ops.transpose(samples, (1, 0))
        if sample_shape == ():
            return ops.cast(ops.reshape(samples, ()), self.dtype)
        return ops.stop_gradient(ops.cast(ops.reshape(samples, sample_shape), self.dtype))
