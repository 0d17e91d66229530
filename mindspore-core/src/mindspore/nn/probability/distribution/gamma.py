"""The Gamma distribution."""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.distribution import Distribution

__all__ = ["Gamma"]


class Gamma(Distribution):
    r"""Gamma distribution: pdf :math:`\beta^\alpha x^{\alpha-1} e^{-\beta x} / \Gamma(\alpha)`.

    Args:
        concentration (list, numpy.ndarray, Tensor): :math:`\alpha` > 0 (not a Python number). Default: ``None``.
        rate (list, numpy.ndarray, Tensor): :math:`\beta` > 0 (not a Python number). Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples, a float type. Default: ``mstype.float32``.
        name (str): Default: ``'Gamma'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> g = msd.Gamma(ms.Tensor([3.0]), ms.Tensor([1.0]))
        >>> print(g.mean())
        [3.]
    """

    def __init__(self, concentration=None, rate=None, seed=None, dtype=mstype.float32, name="Gamma"):
        param = dict(locals())
        param["param_dict"] = {"concentration": concentration, "rate": rate}
        _utils.check_dtype(dtype, mstype.float_type, type(self).__name__)
        _utils.check_scalar_free(type(self).__name__, concentration=concentration, rate=rate)
        super().__init__(seed, dtype, name, param)
        self._concentration = self._add_parameter(concentration, "concentration")
        self._rate = self._add_parameter(rate, "rate")
        if self._concentration is not None:
            _utils.check_greater_zero(self._concentration, "concentration")
        if self._rate is not None:
            _utils.check_greater_zero(self._rate, "rate")

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"concentration = {self._concentration}, rate = {self._rate}"
        return f"batch_shape = {self._broadcast_shape}"

    @property
    def concentration(self):
        """The concentration (shape) parameter."""
        return self._concentration

    @property
    def rate(self):
        """The rate (inverse scale) parameter."""
        return self._rate

    def _get_dist_type(self):
        return "Gamma"

    def _get_dist_args(self, concentration=None, rate=None):
        concentration = self._concentration if concentration is None else \
            _utils.check_tensor(concentration, "concentration")
        rate = self._rate if rate is None else _utils.check_tensor(rate, "rate")
        return concentration, rate

    def _mean(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        return concentration / rate

    def _var(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        return concentration / ops.square(rate)

    def _sd(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        return ops.sqrt(concentration) / rate

    def _mode(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        mode = (concentration - 1.0) / rate
        return ops.select(concentration > 1.0, mode, ops.fill(mode.dtype, mode.shape, np.nan))

    def _entropy(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        return (concentration - _utils.log(rate) + ops.lgamma(concentration)
                + (1.0 - concentration) * ops.digamma(concentration))

    def _cross_entropy(self, dist, concentration_b, rate_b, concentration_a=None, rate_a=None):
        _utils.check_dist_name(dist, "Gamma")
        return (self._entropy(concentration_a, rate_a)
                + self._kl_loss(dist, concentration_b, rate_b, concentration_a, rate_a))

    def _log_prob(self, value, concentration=None, rate=None):
        value = self._cast_value(value)
        concentration, rate = self._check_param_type(concentration, rate)
        unnormalized = (concentration - 1.0) * _utils.log(value) - rate * value
        normalization = ops.lgamma(concentration) - concentration * _utils.log(rate)
        return unnormalized - normalization

    def _cdf(self, value, concentration=None, rate=None):
        value = self._cast_value(value)
        concentration, rate = self._check_param_type(concentration, rate)
        return ops.igamma(concentration, rate * value)

    def _kl_loss(self, dist, concentration_b, rate_b, concentration_a=None, rate_a=None):
        _utils.check_dist_name(dist, "Gamma")
        concentration_b = self._cast_other(concentration_b, "concentration_b")
        rate_b = self._cast_other(rate_b, "rate_b")
        concentration_a, rate_a = self._check_param_type(concentration_a, rate_a)
        return ((concentration_a - concentration_b) * ops.digamma(concentration_a)
                + ops.lgamma(concentration_b) - ops.lgamma(concentration_a)
                + concentration_b * _utils.log(rate_a) - concentration_b * _utils.log(rate_b)
                + concentration_a * (rate_b / rate_a - 1.0))

    def _sample(self, shape=(), concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        sample_shape, squeeze = self._sample_shape(shape, (concentration + rate).shape)
        # ops.gamma's beta is the scale (MindSpore's kernels draw std::gamma_distribution(alpha, beta)), so the
        # rate goes in inverted: samples of mean concentration / rate, as this distribution's mean() says
        value = ops.cast(ops.gamma(sample_shape, concentration, 1.0 / rate, self.seed), self.dtype)
        return ops.squeeze(value, 0) if squeeze else value
