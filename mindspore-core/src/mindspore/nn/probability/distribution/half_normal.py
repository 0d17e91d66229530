"""The half-normal distribution."""
from __future__ import annotations

import math

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability.distribution.distribution import _MeanSd

__all__ = ["HalfNormal"]


class HalfNormal(_MeanSd):
    r"""Half-normal distribution: pdf :math:`\sqrt{2/\pi} / \sigma \cdot e^{-(x-\mu)^2/2\sigma^2}` for x >= 0.

    Only ``prob`` and ``log_prob`` are defined (as in MindSpore 2.10; the other methods raise
    NotImplementedError).

    Args:
        mean (int, float, list, numpy.ndarray, Tensor): The mean. Default: ``None``.
        sd (int, float, list, numpy.ndarray, Tensor): The standard deviation, > 0. Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples, a float type. Default: ``mstype.float32``.
        name (str): Default: ``'HalfNormal'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> d = msd.HalfNormal(0.0, 1.0)
        >>> print(d.prob(ms.Tensor([-1.0])))
        [0.]
    """

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32, name="HalfNormal"):
        super().__init__(mean, sd, seed, dtype, name)

    def _prob(self, value, mean=None, sd=None):
        value = self._cast_value(value)
        mean, sd = self._check_param_type(mean, sd)
        pdf = math.sqrt(2.0 / math.pi) / sd * ops.exp(-0.5 * ops.square((value - mean) / sd))
        return pdf * ops.cast(value >= 0, self.dtype)
