"""The Beta distribution."""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.distribution import Distribution

__all__ = ["Beta"]


def _lbeta(x, y):
    """log B(x, y) = lgamma(x) + lgamma(y) - lgamma(x + y)."""
    return ops.lgamma(x) + ops.lgamma(y) - ops.lgamma(x + y)


class Beta(Distribution):
    r"""Beta distribution: pdf :math:`x^{\alpha-1} (1-x)^{\beta-1} / B(\alpha, \beta)` on (0, 1).

    Args:
        concentration1 (int, list, numpy.ndarray, Tensor): :math:`\alpha` > 0 (not a Python float). Default:
            ``None``.
        concentration0 (int, list, numpy.ndarray, Tensor): :math:`\beta` > 0 (not a Python float). Default:
            ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples, a float type. Default: ``mstype.float32``.
        name (str): Default: ``'Beta'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> b = msd.Beta(ms.Tensor([3.0]), ms.Tensor([1.0]))
        >>> print(b.mean())
        [0.75]
    """

    def __init__(self, concentration1=None, concentration0=None, seed=None, dtype=mstype.float32, name="Beta"):
        param = dict(locals())
        param["param_dict"] = {"concentration1": concentration1, "concentration0": concentration0}
        _utils.check_dtype(dtype, mstype.float_type, type(self).__name__)
        _utils.check_scalar_free(type(self).__name__, concentration0=concentration0, concentration1=concentration1)
        super().__init__(seed, dtype, name, param)
        self._concentration1 = self._add_parameter(concentration1, "concentration1")
        self._concentration0 = self._add_parameter(concentration0, "concentration0")
        if self._concentration1 is not None:
            _utils.check_greater_zero(self._concentration1, "concentration1")
        if self._concentration0 is not None:
            _utils.check_greater_zero(self._concentration0, "concentration0")

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"concentration1 = {self._concentration1}, concentration0 = {self._concentration0}"
        return f"batch_shape = {self._broadcast_shape}"

    @property
    def concentration1(self):
        r""":math:`\alpha`."""
        return self._concentration1

    @property
    def concentration0(self):
        r""":math:`\beta`."""
        return self._concentration0

    def _get_dist_type(self):
        return "Beta"

    def _get_dist_args(self, concentration1=None, concentration0=None):
        concentration1 = self._concentration1 if concentration1 is None else \
            _utils.check_tensor(concentration1, "concentration1")
        concentration0 = self._concentration0 if concentration0 is None else \
            _utils.check_tensor(concentration0, "concentration0")
        return concentration1, concentration0

    def _mean(self, concentration1=None, concentration0=None):
        concentration1, concentration0 = self._check_param_type(concentration1, concentration0)
        return concentration1 / (concentration1 + concentration0)

    def _var(self, concentration1=None, concentration0=None):
        concentration1, concentration0 = self._check_param_type(concentration1, concentration0)
        total = concentration1 + concentration0
        return concentration1 * concentration0 / (ops.pow(total, 2) * (total + 1.0))

    def _mode(self, concentration1=None, concentration0=None):
        concentration1, concentration0 = self._check_param_type(concentration1, concentration0)
        mode = (concentration1 - 1.0) / (concentration1 + concentration0 - 2.0)
        defined = ops.logical_and(concentration1 > 1.0, concentration0 > 1.0)
        return ops.select(defined, mode, ops.fill(self.dtype, mode.shape, np.nan))

    def _entropy(self, concentration1=None, concentration0=None):
        concentration1, concentration0 = self._check_param_type(concentration1, concentration0)
        total = concentration1 + concentration0
        return (_lbeta(concentration1, concentration0) - (concentration1 - 1.0) * ops.digamma(concentration1)
                - (concentration0 - 1.0) * ops.digamma(concentration0) + (total - 2.0) * ops.digamma(total))

    def _cross_entropy(self, dist, concentration1_b, concentration0_b, concentration1_a=None, concentration0_a=None):
        _utils.check_dist_name(dist, "Beta")
        return (self._entropy(concentration1_a, concentration0_a)
                + self._kl_loss(dist, concentration1_b, concentration0_b, concentration1_a, concentration0_a))

    def _log_prob(self, value, concentration1=None, concentration0=None):
        value = self._cast_value(value)
        concentration1, concentration0 = self._check_param_type(concentration1, concentration0)
        unnormalized = (concentration1 - 1.0) * _utils.log(value) + (concentration0 - 1.0) * ops.log1p(-value)
        return unnormalized - _lbeta(concentration1, concentration0)

    def _kl_loss(self, dist, concentration1_b, concentration0_b, concentration1_a=None, concentration0_a=None):
        _utils.check_dist_name(dist, "Beta")
        concentration1_b = self._cast_other(concentration1_b, "concentration1_b")
        concentration0_b = self._cast_other(concentration0_b, "concentration0_b")
        concentration1_a, concentration0_a = self._check_param_type(concentration1_a, concentration0_a)
        total_a = concentration1_a + concentration0_a
        total_b = concentration1_b + concentration0_b
        return (_lbeta(concentration1_b, concentration0_b) - _lbeta(concentration1_a, concentration0_a)
                - ops.digamma(concentration1_a) * (concentration1_b - concentration1_a)
                - ops.digamma(concentration0_a) * (concentration0_b - concentration0_a)
                + ops.digamma(total_a) * (total_b - total_a))

    def _sample(self, shape=(), concentration1=None, concentration0=None):
        concentration1, concentration0 = self._check_param_type(concentration1, concentration0)
        sample_shape, squeeze = self._sample_shape(shape, (concentration1 + concentration0).shape)
        ones = ops.ones(sample_shape, self.dtype)
        gamma1 = ops.gamma(sample_shape, concentration1, ones, self.seed)
        gamma0 = ops.gamma(sample_shape, concentration0, ones, self.seed)
        value = ops.cast(gamma1 / (gamma1 + gamma0), self.dtype)
        return ops.squeeze(value, 0) if squeeze else value
