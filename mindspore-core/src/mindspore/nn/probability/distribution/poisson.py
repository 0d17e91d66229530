"""The Poisson distribution."""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.distribution import Distribution

__all__ = ["Poisson"]


class Poisson(Distribution):
    r"""Poisson distribution: P(X = k) = :math:`\lambda^k e^{-\lambda} / k!`.

    Args:
        rate (list, numpy.ndarray, Tensor): The rate, > 0 (not a Python number). Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples. Default: ``mstype.float32``.
        name (str): Default: ``'Poisson'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> p = msd.Poisson(ms.Tensor([0.5]))
        >>> print(p.mean())
        [0.5]
    """

    def __init__(self, rate=None, seed=None, dtype=mstype.float32, name="Poisson"):
        param = dict(locals())
        param["param_dict"] = {"rate": rate}
        valid = tuple(mstype.int_type) + tuple(mstype.uint_type) + tuple(mstype.float_type)
        _utils.check_dtype(dtype, valid, type(self).__name__)
        _utils.check_scalar_free(type(self).__name__, rate=rate)
        super().__init__(seed, dtype, name, param)
        self._rate = self._add_parameter(rate, "rate")
        if self._rate is not None:
            _utils.check_greater_zero(self._rate, "rate")

    @property
    def rate(self):
        """The rate."""
        return self._rate

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"rate = {self.rate}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self):
        return "Poisson"

    def _get_dist_args(self, rate=None):
        rate = self._rate if rate is None else _utils.check_tensor(rate, "rate")
        return (rate,)

    def _mean(self, rate=None):
        return self._check_param_type(rate)

    def _mode(self, rate=None):
        return ops.floor(self._check_param_type(rate))

    def _var(self, rate=None):
        return self._check_param_type(rate)

    def _log_prob(self, value, rate=None):
        value = self._cast_value(value)
        rate = self._check_param_type(rate)
        log_rate = ops.log(rate)
        safe_x = ops.select(value < 0.0, ops.zeros_like(value), value)
        log_unnormalized = log_rate * safe_x - ops.lgamma(safe_x + 1.0)
        log_unnormalized = ops.select(value == safe_x, log_unnormalized, -np.inf)
        return log_unnormalized - rate

    def _cdf(self, value, rate=None):
        value = self._cast_value(value)
        rate = self._check_param_type(rate)
        negative = value < 0.0
        safe_x = ops.select(negative, ops.zeros_like(value), value)
        cdf = 1.0 - ops.igamma(1.0 + safe_x, rate)
        return ops.select(negative, ops.zeros_like(cdf), cdf)

    def _sample(self, shape=(), rate=None):
        rate = ops.cast(self._check_param_type(rate), mstype.float32)
        sample_shape, squeeze = self._sample_shape(shape, rate.shape)
        value = ops.cast(ops.poisson(sample_shape, rate, self.seed), self.dtype)
        return ops.squeeze(value, 0) if squeeze else value
