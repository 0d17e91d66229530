"""The continuous Uniform distribution."""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.distribution import Distribution

__all__ = ["Uniform"]


class Uniform(Distribution):
    """Uniform distribution on [low, high].

    Args:
        low (int, float, list, numpy.ndarray, Tensor): The lower bound. Default: ``None``.
        high (int, float, list, numpy.ndarray, Tensor): The upper bound, > low. Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples, a float type. Default: ``mstype.float32``.
        name (str): Default: ``'Uniform'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> u = msd.Uniform(0.0, 2.0)
        >>> print(u.mean())
        1.0
    """

    def __init__(self, low=None, high=None, seed=None, dtype=mstype.float32, name="Uniform"):
        param = dict(locals())
        param["param_dict"] = {"low": low, "high": high}
        _utils.check_dtype(dtype, mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._low = self._add_parameter(low, "low")
        self._high = self._add_parameter(high, "high")
        if self._low is not None and self._high is not None:
            _utils.check_greater(self._low, self._high, "low", "high")

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"low = {self.low}, high = {self.high}"
        return f"batch_shape = {self._broadcast_shape}"

    @property
    def low(self):
        """The lower bound."""
        return self._low

    @property
    def high(self):
        """The upper bound."""
        return self._high

    def _get_dist_type(self):
        return "Uniform"

    def _get_dist_args(self, low=None, high=None):
        low = self._low if low is None else _utils.check_tensor(low, "low")
        high = self._high if high is None else _utils.check_tensor(high, "high")
        return low, high

    def _mean(self, low=None, high=None):
        low, high = self._check_param_type(low, high)
        return (low + high) / 2.0

    def _var(self, low=None, high=None):
        low, high = self._check_param_type(low, high)
        return ops.square(high - low) / 12.0

    def _entropy(self, low=None, high=None):
        low, high = self._check_param_type(low, high)
        return ops.log(high - low)

    def _cross_entropy(self, dist, low_b, high_b, low=None, high=None):
        _utils.check_dist_name(dist, "Uniform")
        return self._entropy(low, high) + self._kl_loss(dist, low_b, high_b, low, high)

    def _prob(self, value, low=None, high=None):
        value = self._cast_value(value)
        low, high = self._check_param_type(low, high)
        prob = ops.exp(-1.0 * ops.log(high - low)) * ops.ones_like(value)
        zeros = ops.zeros_like(prob)
        return ops.select(value <= high, ops.select(value < low, zeros, prob), zeros)

    def _kl_loss(self, dist, low_b, high_b, low=None, high=None):
        _utils.check_dist_name(dist, "Uniform")
        low_b = self._cast_other(low_b, "low_b")
        high_b = self._cast_other(high_b, "high_b")
        low_a, high_a = self._check_param_type(low, high)
        kl = ops.log(high_b - low_b) - ops.log(high_a - low_a)
        inside = ops.logical_and(low_b <= low_a, high_a <= high_b)
        return ops.select(inside, kl, ops.fill(kl.dtype, kl.shape, np.inf))

    def _cdf(self, value, low=None, high=None):
        value = self._cast_value(value)
        low, high = self._check_param_type(low, high)
        prob = (value - low) / (high - low)
        return ops.select(value < high, ops.select(value < low, ops.zeros_like(prob), prob), ops.ones_like(prob))

    def _sample(self, shape=(), low=None, high=None):
        low, high = self._check_param_type(low, high)
        sample_shape, squeeze = self._sample_shape(shape, (low + high).shape)
        uniform = ops.uniform(sample_shape, ops.scalar_to_tensor(0.0, mstype.float32),
                              ops.scalar_to_tensor(1.0, mstype.float32), self.seed)
        value = ops.cast((high - low) * uniform + low, self.dtype)
        return ops.squeeze(value, 0) if squeeze else value
