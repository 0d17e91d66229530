"""The Cauchy distribution."""
from __future__ import annotations

import math

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.distribution import _LocationScale

__all__ = ["Cauchy"]


class Cauchy(_LocationScale):
    r"""Cauchy distribution: pdf :math:`1 / (\pi \gamma (1 + ((x - x_0)/\gamma)^2))`.

    Its mean, standard deviation and variance are undefined (they raise a ValueError).

    Args:
        loc (int, float, list, numpy.ndarray, Tensor): The location. Default: ``None``.
        scale (int, float, list, numpy.ndarray, Tensor): The scale, > 0. Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples, a float type. Default: ``mstype.float32``.
        name (str): Default: ``'Cauchy'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> c = msd.Cauchy(0.0, 1.0)
        >>> print(c.cdf(ms.Tensor([0.0])))
        [0.5]
    """

    def __init__(self, loc=None, scale=None, seed=None, dtype=mstype.float32, name="Cauchy"):
        super().__init__(loc, scale, seed, dtype, name)

    def _get_dist_type(self):
        return "Cauchy"

    def _mode(self, loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        return loc

    def _mean(self, *args, **kwargs):
        return _utils.raise_not_defined("mean", "Cauchy")

    def _sd(self, *args, **kwargs):
        return _utils.raise_not_defined("standard deviation", "Cauchy")

    def _var(self, *args, **kwargs):
        return _utils.raise_not_defined("variance", "Cauchy")

    def _entropy(self, loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        return _utils.log(scale) + math.log(4.0 * math.pi)

    def _z(self, value, loc, scale):
        value = self._cast_value(value)
        loc, scale = self._check_param_type(loc, scale)
        return (value - loc) / scale, scale

    def _log_prob(self, value, loc=None, scale=None):
        z, scale = self._z(value, loc, scale)
        return -1.0 * _utils.log(ops.square(z) + 1.0) - _utils.log(math.pi * scale)

    def _cdf(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return ops.atan(z) / math.pi + 0.5

    def _log_cdf(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return _utils.log(2.0 * ops.atan(z) / math.pi + 1.0) - math.log(2.0)

    def _quantile(self, p, loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        return loc + scale * ops.tan(math.pi * (p - 0.5))

    def _kl_loss(self, dist, loc_b, scale_b, loc_a=None, scale_a=None):
        _utils.check_dist_name(dist, "Cauchy")
        loc_a, scale_a = self._check_param_type(loc_a, scale_a)
        loc_b = self._cast_other(loc_b, "loc_b")
        scale_b = self._cast_other(scale_b, "scale_b")
        sum_square = ops.square(scale_a + scale_b)
        square_diff = ops.square(loc_a - loc_b)
        return _utils.log(sum_square + square_diff) - math.log(4.0) - _utils.log(scale_a) - _utils.log(scale_b)

    def _cross_entropy(self, dist, loc_b, scale_b, loc_a=None, scale_a=None):
        _utils.check_dist_name(dist, "Cauchy")
        return self._entropy(loc_a, scale_a) + self._kl_loss(dist, loc_b, scale_b, loc_a, scale_a)

    def _sample(self, shape=(), loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        sample_shape, squeeze = self._sample_shape(shape, (loc + scale).shape)
        uniform = ops.uniform(sample_shape, ops.scalar_to_tensor(0.0, mstype.float32),
                              ops.scalar_to_tensor(1.0, mstype.float32), self.seed)
        value = ops.cast(self._quantile(uniform, loc, scale), self.dtype)
        return ops.squeeze(value, 0) if squeeze else value
