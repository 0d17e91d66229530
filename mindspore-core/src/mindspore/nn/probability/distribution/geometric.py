"""The Geometric distribution (the number of failures before the first success)."""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.distribution import Distribution

__all__ = ["Geometric"]

_TINY = float(np.finfo(np.float64).tiny)


class Geometric(Distribution):
    """Geometric distribution: P(X = k) = (1 - p)^k p, k = 0, 1, ...

    Args:
        probs (float, list, numpy.ndarray, Tensor): The success probability, in (0, 1). Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples. Default: ``mstype.int32``.
        name (str): Default: ``'Geometric'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> g = msd.Geometric(0.5, dtype=ms.int32)
        >>> print(g.mean())
        1.0
    """

    def __init__(self, probs=None, seed=None, dtype=mstype.int32, name="Geometric"):
        param = dict(locals())
        param["param_dict"] = {"probs": probs}
        valid = tuple(mstype.int_type) + tuple(mstype.uint_type) + tuple(mstype.float_type)
        _utils.check_dtype(dtype, valid, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            _utils.check_prob(self._probs)

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"probs = {self.probs}"
        return f"batch_shape = {self._broadcast_shape}"

    @property
    def probs(self):
        """The success probability."""
        return self._probs

    def _get_dist_type(self):
        return "Geometric"

    def _get_dist_args(self, probs1=None):
        probs1 = self._probs if probs1 is None else _utils.check_tensor(probs1, "probs")
        return (probs1,)

    def _mean(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        return (1.0 - probs1) / probs1

    def _mode(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        return ops.fill(self.dtype, probs1.shape, 0.0)

    def _var(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        return (1.0 - probs1) / ops.square(probs1)

    def _entropy(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        probs0 = 1.0 - probs1
        return (-probs0 * _utils.log(probs0) - probs1 * _utils.log(probs1)) / probs1

    def _cross_entropy(self, dist, probs1_b, probs1=None):
        _utils.check_dist_name(dist, "Geometric")
        return self._entropy(probs1) + self._kl_loss(dist, probs1_b, probs1)

    def _prob(self, value, probs1=None):
        value = ops.floor(self._cast_value(value, self.parameter_type))
        probs1 = self._check_param_type(probs1)
        pmf = ops.exp(_utils.log(1.0 - probs1) * value + _utils.log(probs1))
        return ops.select(value < 0.0, ops.zeros_like(pmf), pmf)

    def _cdf(self, value, probs1=None):
        value = ops.floor(self._cast_value(value, self.parameter_type))
        probs1 = self._check_param_type(probs1)
        cdf = 1.0 - ops.pow(1.0 - probs1, value + 1.0)
        return ops.select(value < 0.0, ops.zeros_like(cdf), cdf)

    def _kl_loss(self, dist, probs1_b, probs1=None):
        _utils.check_dist_name(dist, "Geometric")
        probs1_b = self._cast_other(probs1_b, "probs1_b")
        probs1_a = self._check_param_type(probs1)
        probs0_a = 1.0 - probs1_a
        probs0_b = 1.0 - probs1_b
        return _utils.log(probs1_a / probs1_b) + probs0_a / probs1_a * _utils.log(probs0_a / probs0_b)

    def _sample(self, shape=(), probs1=None):
        probs1 = self._check_param_type(probs1)
        sample_shape, squeeze = self._sample_shape(shape, probs1.shape)
        uniform = ops.uniform(sample_shape, ops.scalar_to_tensor(_TINY, mstype.float32),
                              ops.scalar_to_tensor(1.0, mstype.float32), self.seed)
        value = ops.cast(ops.floor(_utils.log(uniform) / _utils.log(1.0 - probs1)), self.dtype)
        return ops.squeeze(value, 0) if squeeze else value
