"""The Gumbel cumulative distribution function as a bijector."""
from __future__ import annotations

import mindspore.ops as ops
from mindspore.nn.probability.bijector.bijector import Bijector
from mindspore.nn.probability import _utils

__all__ = ["GumbelCDF"]


class GumbelCDF(Bijector):
    r"""Gumbel CDF bijector :math:`y = e^{-e^{-(x - \mu)/\beta}}`.

    Args:
        loc (float, list, numpy.ndarray, Tensor): :math:`\mu`. Default: ``0.0``.
        scale (float, list, numpy.ndarray, Tensor): :math:`\beta`, > 0. Default: ``1.0``.
        name (str): Default: ``'GumbelCDF'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.bijector as msb
        >>> print(msb.GumbelCDF(0.0, 1.0).forward(ms.Tensor([0.0])).shape)
        (1,)
    """

    def __init__(self, loc=0.0, scale=1.0, name="GumbelCDF"):
        param = dict(locals())
        param["param_dict"] = {"loc": loc, "scale": scale}
        super().__init__(name=name, param=param)
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        _utils.check_greater_zero(self._scale, "scale")

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
            return f"loc = {self.loc}, scale = {self.scale}"
        return f"batch_shape = {self.batch_shape}"

    def _forward(self, x):
        x = self._check_value_dtype(x)
        z = (x - self.cast_param_by_value(x, self.loc)) / self.cast_param_by_value(x, self.scale)
        return ops.exp(-1.0 * ops.exp(-z))

    def _inverse(self, y):
        y = self._check_value_dtype(y)
        loc = self.cast_param_by_value(y, self.loc)
        scale = self.cast_param_by_value(y, self.scale)
        return loc - scale * _utils.log(-1.0 * _utils.log(y))

    def _forward_log_jacobian(self, x):
        x = self._check_value_dtype(x)
        scale = self.cast_param_by_value(x, self.scale)
        z = (x - self.cast_param_by_value(x, self.loc)) / scale
        return -z - ops.exp(-z) - _utils.log(scale)

    def _inverse_log_jacobian(self, y):
        y = self._check_value_dtype(y)
        scale = self.cast_param_by_value(y, self.scale)
        return _utils.log(scale / (-1.0 * y * _utils.log(y)))
