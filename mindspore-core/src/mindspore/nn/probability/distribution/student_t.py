"""The Student's t distribution."""
from __future__ import annotations

import math

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.probability import _utils
from mindspore.nn.probability.distribution.distribution import Distribution

__all__ = ["StudentT"]


class StudentT(Distribution):
    r"""Student's t distribution with ``df`` degrees of freedom, location ``mean`` and scale ``sd``.

    Only ``prob`` and ``log_prob`` are defined (as in MindSpore 2.10; the other methods raise
    NotImplementedError).

    Args:
        df (int, float, list, numpy.ndarray, Tensor): The degrees of freedom, > 0. Default: ``None``.
        mean (int, float, list, numpy.ndarray, Tensor): The location. Default: ``None``.
        sd (int, float, list, numpy.ndarray, Tensor): The scale, > 0. Default: ``None``.
        seed (int): The seed of sampling. Default: ``None`` (0).
        dtype (mindspore.dtype): The type of the samples, a float type. Default: ``mstype.float32``.
        name (str): Default: ``'StudentT'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> d = msd.StudentT(3.0, 0.0, 1.0)
        >>> print(d.log_prob(ms.Tensor([0.0])).shape)
        (1,)
    """

    def __init__(self, df=None, mean=None, sd=None, seed=None, dtype=mstype.float32, name="StudentT"):
        param = dict(locals())
        param["param_dict"] = {"df": df, "mean": mean, "sd": sd}
        _utils.check_dtype(dtype, mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._df_value = self._add_parameter(df, "df")
        self._mean_value = self._add_parameter(mean, "mean")
        self._sd_value = self._add_parameter(sd, "sd")
        if self._sd_value is not None:
            _utils.check_greater_zero(self._sd_value, "Standard deviation")
        if self._df_value is not None:
            _utils.check_greater_zero(self._df_value, "Degrees of freedom")

    def _log_prob(self, value, df=None, mean=None, sd=None):
        value = self._cast_value(value)
        df, mean, sd = self._check_param_type(df, mean, sd)
        y = (value - mean) / sd
        unnormalized = -0.5 * (df + 1.0) * ops.log1p(ops.square(y) / df)
        normalization = (ops.log(ops.abs(sd)) + 0.5 * ops.log(df) + 0.5 * math.log(math.pi)
                         + ops.lgamma(0.5 * df) - ops.lgamma(0.5 * (df + 1.0)))
        return unnormalized - normalization
