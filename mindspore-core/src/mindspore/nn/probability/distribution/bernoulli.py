"""The Bernoulli distribution."""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.distribution import Distribution

__all__ = ["Bernoulli"]


class Bernoulli(Distribution):
    """Bernoulli distribution: 1 with probability ``probs``, else 0.

    Args:
        probs (float, list, numpy.ndarray, Tensor): The probability of 1, in (0, 1). Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples. Default: ``mstype.int32``.
        name (str): Default: ``'Bernoulli'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> b = msd.Bernoulli(0.5, dtype=ms.int32)
        >>> print(b.prob(ms.Tensor([1, 0, 1], ms.int32)))
        [0.5 0.5 0.5]
    """

    def __init__(self, probs=None, seed=None, dtype=mstype.int32, name="Bernoulli"):
        param = dict(locals())
        param["param_dict"] = {"probs": probs}
        valid = tuple(mstype.int_type) + tuple(mstype.uint_type) + tuple(mstype.float_type)
        _utils.check_dtype(dtype, valid, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            _utils.check_prob(self._probs)
        # log_prob clamps the probabilities into [eps, 1 - eps] of their dtype
        self._eps = float(np.finfo(mstype.dtype_to_nptype(self.parameter_type)).eps)

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"probs = {self.probs}"
        return f"batch_shape = {self._broadcast_shape}"

    @property
    def probs(self):
        """The probability of 1."""
        return self._probs

    def _get_dist_type(self):
        return "Bernoulli"

    def _get_dist_args(self, probs1=None):
        probs1 = self._probs if probs1 is None else _utils.check_tensor(probs1, "probs")
        return (probs1,)

    def _mean(self, probs1=None):
        return self._check_param_type(probs1)

    def _mode(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        return ops.cast(ops.select(probs1 > 0.5, 1.0, 0.0), self.dtype)

    def _var(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        return ops.exp(_utils.log(1.0 - probs1) + _utils.log(probs1))

    def _entropy(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        probs0 = 1.0 - probs1
        return -(probs0 * _utils.log(probs0)) - probs1 * _utils.log(probs1)

    def _cross_entropy(self, dist, probs1_b, probs1=None):
        _utils.check_dist_name(dist, "Bernoulli")
        return self._entropy(probs1) + self._kl_loss(dist, probs1_b, probs1)

    def _log_prob(self, value, probs1=None):
        value = self._cast_value(value, self.parameter_type)
        probs1 = ops.clip_by_value(self._check_param_type(probs1), self._eps, 1.0 - self._eps)
        return _utils.log(probs1) * value + _utils.log(1.0 - probs1) * (1.0 - value)

    def _cdf(self, value, probs1=None):
        value = ops.floor(self._cast_value(value, self.parameter_type))
        probs1 = self._check_param_type(probs1)
        shape = (value * probs1).shape
        value = ops.broadcast_to(value, shape)
        probs0 = ops.broadcast_to(1.0 - probs1, shape)
        below_one = ops.select(value < 0.0, ops.zeros_like(probs0), probs0)
        return ops.select(value < 1.0, below_one, ops.ones_like(probs0))

    def _kl_loss(self, dist, probs1_b, probs1=None):
        _utils.check_dist_name(dist, "Bernoulli")
        probs1_b = self._cast_other(probs1_b, "probs1_b")
        probs1_a = self._check_param_type(probs1)
        probs0_a = 1.0 - probs1_a
        probs0_b = 1.0 - probs1_b
        return probs1_a * _utils.log(probs1_a / probs1_b) + probs0_a * _utils.log(probs0_a / probs0_b)

    def _sample(self, shape=(), probs1=None):
        probs1 = self._check_param_type(probs1)
        sample_shape, squeeze = self._sample_shape(shape, probs1.shape)
        uniform = ops.uniform(sample_shape, _scalar(0.0), _scalar(1.0), self.seed)
        value = ops.cast(uniform < probs1, self.dtype)
        return ops.squeeze(value, 0) if squeeze else value


def _scalar(x):
    return ops.scalar_to_tensor(x, mstype.float32)
