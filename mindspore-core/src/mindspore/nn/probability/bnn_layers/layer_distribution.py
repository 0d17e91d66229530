"""The prior and posterior distributions of the Bayesian layers' weights."""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSTypeError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.probability.distribution.normal import Normal

__all__ = ["NormalPrior", "NormalPosterior"]


def _is_number(value):
    return not isinstance(value, bool) and isinstance(value, (int, float))


class NormalPrior(Cell):
    """A fixed Normal(mean, std) prior: a Cell that calls its Normal (``prior('kl_loss', 'Normal', m, s)``).

    Args:
        dtype (mindspore.dtype): The dtype of the distribution. Default: ``mstype.float32``.
        mean (int, float): The mean. Default: ``0``.
        std (int, float): The standard deviation. Default: ``0.1``.

    Examples:
        >>> from mindspore.nn.probability.bnn_layers import NormalPrior
        >>> prior = NormalPrior(mean=0, std=1)
        >>> print(prior('mean'))
        0.0
    """

    def __init__(self, dtype=mstype.float32, mean=0, std=0.1):
        super().__init__()
        self.normal = Normal(mean, std, dtype=dtype)

    def construct(self, *inputs):
        return self.normal(*inputs)


class NormalPosterior(Cell):
    """A trainable Normal posterior: Parameters ``<name>_mean`` and ``<name>_untransformed_std`` of ``shape``,
    drawn from Normal(loc_mean, loc_std) and Normal(untransformed_scale_mean, untransformed_scale_std) (NumPy's
    global generator); the standard deviation is ``1e-6 + softplus(untransformed_std)``.

    Args:
        name (str): The prefix of the Parameters' names.
        shape (list, tuple): The shape of the Parameters.
        dtype (mindspore.dtype): The dtype of the Parameters. Default: ``mstype.float32``.
        loc_mean (int, float): Default: ``0``.
        loc_std (int, float): >= 0. Default: ``0.1``.
        untransformed_scale_mean (int, float): Default: ``-5``.
        untransformed_scale_std (int, float): >= 0. Default: ``0.1``.

    Examples:
        >>> from mindspore.nn.probability.bnn_layers import NormalPosterior
        >>> posterior = NormalPosterior('w', [2, 3])
        >>> print(posterior('sample').shape)
        (2, 3)
    """

    def __init__(self, name, shape, dtype=mstype.float32, loc_mean=0, loc_std=0.1, untransformed_scale_mean=-5,
                 untransformed_scale_std=0.1):
        super().__init__()
        if not isinstance(name, str):
            raise MSTypeError("The type of `name` must be `str`")
        if not isinstance(shape, (tuple, list)):
            raise MSTypeError("The type of `shape` must be `tuple` or `list`")
        if not _is_number(loc_mean):
            raise MSTypeError("The type of `loc_mean` must be `int` or `float`")
        if not _is_number(untransformed_scale_mean):
            raise MSTypeError("The type of `untransformed_scale_mean` must be `int` or `float`")
        if not (_is_number(loc_std) and loc_std >= 0):
            raise MSTypeError("The type of `loc_std` must be `int` or `float` and its value must > 0")
        if not (_is_number(untransformed_scale_std) and untransformed_scale_std >= 0):
            raise MSTypeError("The type of `untransformed_scale_std` must be `int` or `float` and its value must > 0")
        self.mean = Parameter(Tensor(np.random.normal(loc_mean, loc_std, shape), dtype=dtype), name=name + "_mean")
        self.untransformed_std = Parameter(
            Tensor(np.random.normal(untransformed_scale_mean, untransformed_scale_std, shape), dtype=dtype),
            name=name + "_untransformed_std")
        self.normal = Normal()

    def _std_trans(self, std_pre):
        return 1e-6 + ops.log(ops.exp(std_pre) + 1.0)

    def construct(self, *inputs):
        return self.normal(*inputs, mean=self.mean, sd=self._std_trans(self.untransformed_std))
