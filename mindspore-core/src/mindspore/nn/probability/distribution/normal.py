"""The Normal (Gaussian) distribution."""
from __future__ import annotations

import math

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.distribution import _MeanSd

__all__ = ["Normal"]

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


class Normal(_MeanSd):
    r"""Normal distribution :math:`N(\mu, \sigma)`: pdf :math:`e^{-(x-\mu)^2/2\sigma^2} / \sqrt{2\pi}\sigma`.

    Args:
        mean (int, float, list, numpy.ndarray, Tensor): The mean. Default: ``None`` (given per call).
        sd (int, float, list, numpy.ndarray, Tensor): The standard deviation, > 0. Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples, a float type. Default: ``mstype.float32``.
        name (str): Default: ``'Normal'``.

    Raises:
        ValueError: When ``sd`` <= 0.
        TypeError: When ``dtype`` is not a float type.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> n = msd.Normal(3.0, 4.0)
        >>> print(n.prob(ms.Tensor([1.0, 2.0, 3.0])).shape)
        (3,)
    """

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32, name="Normal"):
        super().__init__(mean, sd, seed, dtype, name)

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"mean = {self._mean_value}, standard deviation = {self._sd_value}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self):
        return "Normal"

    def _get_dist_args(self, mean=None, sd=None):
        mean = self._mean_value if mean is None else _utils.check_tensor(mean, "mean")
        sd = self._sd_value if sd is None else _utils.check_tensor(sd, "sd")
        return mean, sd

    def _mean(self, mean=None, sd=None):
        mean, sd = self._check_param_type(mean, sd)
        return mean

    def _mode(self, mean=None, sd=None):
        mean, sd = self._check_param_type(mean, sd)
        return mean

    def _sd(self, mean=None, sd=None):
        mean, sd = self._check_param_type(mean, sd)
        return sd

    def _entropy(self, mean=None, sd=None):
        mean, sd = self._check_param_type(mean, sd)
        return 0.5 * math.log(2.0 * math.pi * math.e) + ops.log(sd)

    def _cross_entropy(self, dist, mean_b, sd_b, mean=None, sd=None):
        _utils.check_dist_name(dist, "Normal")
        return self._entropy(mean, sd) + self._kl_loss(dist, mean_b, sd_b, mean, sd)

    def _log_prob(self, value, mean=None, sd=None):
        value = self._cast_value(value)
        mean, sd = self._check_param_type(mean, sd)
        return -0.5 * ops.square((value - mean) / sd) - _HALF_LOG_2PI - ops.log(sd)

    def _cdf(self, value, mean=None, sd=None):
        value = self._cast_value(value)
        mean, sd = self._check_param_type(mean, sd)
        return 0.5 * (1.0 + ops.erf((value - mean) / (sd * math.sqrt(2.0))))

    def _kl_loss(self, dist, mean_b, sd_b, mean=None, sd=None):
        _utils.check_dist_name(dist, "Normal")
        mean_b = self._cast_other(mean_b, "mean_b")
        sd_b = self._cast_other(sd_b, "sd_b")
        mean_a, sd_a = self._check_param_type(mean, sd)
        diff_log_scale = ops.log(sd_a) - ops.log(sd_b)
        squared_diff = ops.square(mean_a / sd_b - mean_b / sd_b)
        return 0.5 * squared_diff + 0.5 * ops.expm1(2.0 * diff_log_scale) - diff_log_scale

    def _sample(self, shape=(), mean=None, sd=None):
        mean, sd = self._check_param_type(mean, sd)
        sample_shape, squeeze = self._sample_shape(shape, mean.shape)
        value = ops.cast(ops.normal(sample_shape, mean, sd, self.seed), self.dtype)
        return ops.squeeze(value, 0) if squeeze else value
