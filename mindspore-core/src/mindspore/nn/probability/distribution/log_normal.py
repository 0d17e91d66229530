"""The log-normal distribution: exp of a Normal."""
from __future__ import annotations

import math

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability.bijector.exp import Exp
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.normal import Normal
from mindspore.nn.probability.distribution.transformed_distribution import TransformedDistribution

__all__ = ["LogNormal"]


class LogNormal(TransformedDistribution):
    r"""Log-normal distribution: Y = exp(X) for X ~ N(loc, scale).

    Args:
        loc (int, float, list, numpy.ndarray, Tensor): The mean of log Y. Default: ``None``.
        scale (int, float, list, numpy.ndarray, Tensor): The standard deviation of log Y, > 0. Default: ``None``.
        seed (int): The seed of sampling. Default: ``0``.
        dtype (mindspore.dtype): The type of the samples, a float type. Default: ``mstype.float32``.
        name (str): Default: ``'LogNormal'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> d = msd.LogNormal(0.0, 1.0)
        >>> print(d.cdf(ms.Tensor([1.0])))
        [0.5]
    """

    def __init__(self, loc=None, scale=None, seed=0, dtype=mstype.float32, name="LogNormal"):
        super().__init__(distribution=Normal(loc, scale, dtype=dtype), bijector=Exp(), seed=seed, name=name)
        self._reset_parameters()
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")

    @property
    def loc(self):
        """The mean of log Y."""
        return self._loc

    @property
    def scale(self):
        """The standard deviation of log Y."""
        return self._scale

    def _get_dist_type(self):
        return "LogNormal"

    def _get_dist_args(self, loc=None, scale=None):
        loc = self._loc if loc is None else _utils.check_tensor(loc, "loc")
        scale = self._scale if scale is None else _utils.check_tensor(scale, "scale")
        return loc, scale

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"loc = {self.loc}, scale = {self.scale}"
        return f"batch_shape = {self.broadcast_shape}"

    def _mean(self, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        return ops.exp(mean + 0.5 * self.distribution("var", mean=mean, sd=sd))

    def _mode(self, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        return ops.exp(mean - self.distribution("var", mean=mean, sd=sd))

    def _var(self, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        var = self.distribution("var", mean=mean, sd=sd)
        return ops.expm1(var) * ops.exp(2.0 * mean + var)

    def _entropy(self, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        return mean + 0.5 + _utils.log(sd) + 0.5 * math.log(2.0 * math.pi)

    def _cdf(self, value, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        cdf = self.distribution("cdf", self.bijector("inverse", value), mean, sd)
        return ops.select(value > 0.0, cdf, ops.zeros_like(cdf))

    def _log_prob(self, value, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        unadjusted = self.distribution("log_prob", self.bijector("inverse", value), mean, sd)
        return unadjusted + self.bijector("inverse_log_jacobian", value)

    def _cross_entropy(self, dist, loc_b, scale_b, loc_a=None, scale_a=None):
        _utils.check_dist_name(dist, "LogNormal")
        return self._entropy(loc_a, scale_a) + self._kl_loss(dist, loc_b, scale_b, loc_a, scale_a)

    def _kl_loss(self, dist, loc_b, scale_b, loc_a=None, scale_a=None):
        _utils.check_dist_name(dist, "LogNormal")
        return self.distribution("kl_loss", "Normal", loc_b, scale_b, loc_a, scale_a)

    def _sample(self, shape=(), loc=None, scale=None):
        _utils.check_tuple(shape, "shape")
        mean, sd = self._check_param_type(loc, scale)
        sample_shape = (1,) if shape == () else shape
        sample = ops.cast(self.distribution("sample", sample_shape, mean, sd), self.dtype)
        value = self.bijector("forward", sample)
        return ops.squeeze(value, 0) if shape == () else value
