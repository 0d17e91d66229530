"""The Gumbel distribution: the inverse Gumbel CDF applied to Uniform(0, 1)."""
from __future__ import annotations

import math

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability.bijector.gumbel_cdf import GumbelCDF
from mindspore.nn.probability.bijector.invert import Invert
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.transformed_distribution import TransformedDistribution
from mindspore.nn.probability.distribution.uniform import Uniform

__all__ = ["Gumbel"]

_EULER_GAMMA = float(np.euler_gamma)


class Gumbel(TransformedDistribution):
    r"""Gumbel distribution: cdf :math:`e^{-e^{-(x - \mu)/\beta}}`.

    Its parameters are fixed at construction: the methods take no per-call parameters (as in MindSpore 2.10).

    Args:
        loc (int, float, list, numpy.ndarray, Tensor): :math:`\mu`.
        scale (int, float, list, numpy.ndarray, Tensor): :math:`\beta`, > 0.
        seed (int): The seed of sampling. Default: ``0``.
        dtype (mindspore.dtype): The type of the samples, a float type. Default: ``mstype.float32``.
        name (str): Default: ``'Gumbel'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> d = msd.Gumbel(0.0, 1.0)
        >>> print(d.mode())
        0.0
    """

    def __init__(self, loc, scale, seed=0, dtype=mstype.float32, name="Gumbel"):
        _utils.check_dtype(dtype, mstype.float_type, type(self).__name__)
        gumbel_cdf = GumbelCDF(loc, scale)
        super().__init__(distribution=Uniform(0.0, 1.0, dtype=dtype), bijector=Invert(gumbel_cdf), seed=seed,
                         name=name)
        self._reset_parameters()
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        self._gumbel_bijector = gumbel_cdf

    @property
    def loc(self):
        r""":math:`\mu`."""
        return self._loc

    @property
    def scale(self):
        r""":math:`\beta`."""
        return self._scale

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"loc = {self._loc}, scale = {self._scale}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self):
        return "Gumbel"

    def _get_dist_args(self, loc=None, scale=None):
        loc = self._loc if loc is None else _utils.check_tensor(loc, "loc")
        scale = self._scale if scale is None else _utils.check_tensor(scale, "scale")
        return loc, scale

    def _batch_scale(self):
        return self._scale * ops.ones(self.broadcast_shape, self.parameter_type)

    def _mean(self):
        return self._loc + self._scale * _EULER_GAMMA

    def _mode(self):
        return self._loc * ops.ones(self._scale.shape, self.parameter_type)

    def _sd(self):
        return self._batch_scale() * math.pi / math.sqrt(6.0)

    def _entropy(self):
        return 1.0 + _utils.log(self._batch_scale()) + _EULER_GAMMA

    def _log_prob(self, value):
        value = self._cast_value(value)
        z = (value - self._loc) / self._scale
        return -(z + ops.exp(-z)) - _utils.log(self._scale)

    def _cdf(self, value):
        value = self._cast_value(value)
        return self._gumbel_bijector("forward", value)

    def _cross_entropy(self, dist, loc_b, scale_b):
        _utils.check_dist_name(dist, "Gumbel")
        return self._entropy() + self._kl_loss(dist, loc_b, scale_b)

    def _kl_loss(self, dist, loc_b, scale_b):
        _utils.check_dist_name(dist, "Gumbel")
        loc_b = self._cast_other(loc_b, "loc_b")
        scale_b = self._cast_other(scale_b, "scale_b")
        return (_utils.log(scale_b / self._scale) + _EULER_GAMMA * (self._scale / scale_b - 1.0)
                + (self._loc - loc_b) / scale_b
                + ops.expm1((loc_b - self._loc) / scale_b + ops.lgamma(self._scale / scale_b + 1.0)))

    def _sample(self, shape=()):
        sample_shape, squeeze = self._sample_shape(shape, self._broadcast_shape)
        sample = ops.cast(self.distribution("sample", sample_shape), self.dtype)
        value = self.bijector("forward", sample)
        return ops.squeeze(value, 0) if squeeze else value
