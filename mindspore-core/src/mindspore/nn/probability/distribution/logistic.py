"""The Logistic distribution."""
from __future__ import annotations

import math

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.distribution import _LocationScale

__all__ = ["Logistic"]

_TINY = float(np.finfo(np.float64).tiny)


class Logistic(_LocationScale):
    r"""Logistic distribution: cdf :math:`1 / (1 + e^{-(x - \mu)/s})`.

    Args:
        loc (int, float, list, numpy.ndarray, Tensor): The location. Default: ``None``.
        scale (int, float, list, numpy.ndarray, Tensor): The scale, > 0. Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples, a float type. Default: ``mstype.float32``.
        name (str): Default: ``'Logistic'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> d = msd.Logistic(0.0, 1.0)
        >>> print(d.cdf(ms.Tensor([0.0])))
        [0.5]
    """

    def __init__(self, loc=None, scale=None, seed=None, dtype=mstype.float32, name="Logistic"):
        super().__init__(loc, scale, seed, dtype, name)

    def _get_dist_type(self):
        return "Logistic"

    def _mean(self, loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        return loc

    def _mode(self, loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        return loc

    def _sd(self, loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        return scale * (math.pi / math.sqrt(3.0))

    def _entropy(self, loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        return _utils.log(scale) + 2.0

    def _z(self, value, loc, scale):
        value = self._cast_value(value)
        loc, scale = self._check_param_type(loc, scale)
        return (value - loc) / scale, scale

    def _log_prob(self, value, loc=None, scale=None):
        z, scale = self._z(value, loc, scale)
        return -z - 2.0 * _utils.stable_softplus(-z) - _utils.log(scale)

    def _cdf(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return ops.sigmoid(z)

    def _log_cdf(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return -1.0 * _utils.stable_softplus(-z)

    def _survival_function(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return ops.sigmoid(-z)

    def _log_survival(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return -1.0 * _utils.stable_softplus(z)

    def _sample(self, shape=(), loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        sample_shape, squeeze = self._sample_shape(shape, (loc + scale).shape)
        uniform = ops.uniform(sample_shape, ops.scalar_to_tensor(_TINY, mstype.float32),
                              ops.scalar_to_tensor(1.0, mstype.float32), self.seed)
        value = ops.cast((_utils.log(uniform) - ops.log1p(-uniform)) * scale + loc, self.dtype)
        return ops.squeeze(value, 0) if squeeze else value
