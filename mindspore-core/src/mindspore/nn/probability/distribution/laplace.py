"""The Laplace distribution."""
from __future__ import annotations

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability.distribution.distribution import _MeanSd

__all__ = ["Laplace"]


class Laplace(_MeanSd):
    r"""Laplace distribution: pdf :math:`e^{-|x-\mu|/b} / 2b` (``sd`` is the scale b).

    Only ``prob`` and ``log_prob`` are defined (as in MindSpore 2.10; the other methods raise
    NotImplementedError).

    Args:
        mean (int, float, list, numpy.ndarray, Tensor): The location. Default: ``None``.
        sd (int, float, list, numpy.ndarray, Tensor): The scale, > 0. Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples, a float type. Default: ``mstype.float32``.
        name (str): Default: ``'Laplace'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> d = msd.Laplace(0.0, 1.0)
        >>> print(d.prob(ms.Tensor([0.0])))
        [0.5]
    """

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32, name="Laplace"):
        super().__init__(mean, sd, seed, dtype, name)

    def _log_prob(self, value, mean=None, sd=None):
        value = self._cast_value(value)
        mean, sd = self._check_param_type(mean, sd)
        return -1.0 * ops.abs((value - mean) / sd) - ops.log(2.0 * sd)
