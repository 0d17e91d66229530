"""The Exponential distribution."""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.distribution import Distribution

__all__ = ["Exponential"]

_TINY = float(np.finfo(np.float64).tiny)


class Exponential(Distribution):
    r"""Exponential distribution: pdf :math:`\lambda e^{-\lambda x}` for :math:`x \geq 0`.

    Args:
        rate (int, float, list, numpy.ndarray, Tensor): The rate, > 0. Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples, a float type. Default: ``mstype.float32``.
        name (str): Default: ``'Exponential'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> e = msd.Exponential(0.5)
        >>> print(e.mean())
        2.0
    """

    def __init__(self, rate=None, seed=None, dtype=mstype.float32, name="Exponential"):
        param = dict(locals())
        param["param_dict"] = {"rate": rate}
        _utils.check_dtype(dtype, mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._rate = self._add_parameter(rate, "rate")
        if self._rate is not None:
            _utils.check_greater_zero(self._rate, "rate")

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"rate = {self.rate}"
        return f"batch_shape = {self._broadcast_shape}"

    @property
    def rate(self):
        """The rate."""
        return self._rate

    def _get_dist_type(self):
        return "Exponential"

    def _get_dist_args(self, rate=None):
        rate = self._rate if rate is None else _utils.check_tensor(rate, "rate")
        return (rate,)

    def _mean(self, rate=None):
        return 1.0 / self._check_param_type(rate)

    def _mode(self, rate=None):
        rate = self._check_param_type(rate)
        return ops.fill(self.dtype, rate.shape, 0.0)

    def _sd(self, rate=None):
        return 1.0 / self._check_param_type(rate)

    def _entropy(self, rate=None):
        return 1.0 - ops.log(self._check_param_type(rate))

    def _cross_entropy(self, dist, rate_b, rate=None):
        _utils.check_dist_name(dist, "Exponential")
        return self._entropy(rate) + self._kl_loss(dist, rate_b, rate)

    def _log_prob(self, value, rate=None):
        value = self._cast_value(value)
        rate = self._check_param_type(rate)
        prob = ops.log(rate) - rate * value
        return ops.select(value < 0.0, ops.fill(prob.dtype, prob.shape, -np.inf), prob)

    def _cdf(self, value, rate=None):
        value = self._cast_value(value)
        rate = self._check_param_type(rate)
        cdf = 1.0 - ops.exp(-1.0 * rate * value)
        return ops.select(value < 0.0, ops.zeros_like(cdf), cdf)

    def _log_survival(self, value, rate=None):
        value = self._cast_value(value)
        rate = self._check_param_type(rate)
        survival = -1.0 * rate * value
        return ops.select(value < 0.0, ops.zeros_like(survival), survival)

    def _kl_loss(self, dist, rate_b, rate=None):
        _utils.check_dist_name(dist, "Exponential")
        rate_b = self._cast_other(rate_b, "rate_b")
        rate_a = self._check_param_type(rate)
        return ops.log(rate_a) - ops.log(rate_b) + rate_b / rate_a - 1.0

    def _sample(self, shape=(), rate=None):
        rate = self._check_param_type(rate)
        sample_shape, squeeze = self._sample_shape(shape, rate.shape)
        uniform = ops.uniform(sample_shape, ops.scalar_to_tensor(_TINY, mstype.float32),
                              ops.scalar_to_tensor(1.0, mstype.float32), self.seed)
        value = ops.cast(-ops.log(uniform) / rate, self.dtype)
        return ops.squeeze(value, 0) if squeeze else value
