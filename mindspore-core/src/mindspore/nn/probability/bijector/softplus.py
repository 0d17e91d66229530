"""The softplus bijector."""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.nn.probability import _utils
from mindspore.nn.probability.bijector.bijector import Bijector

__all__ = ["Softplus"]

_THRESHOLD = float(np.log(np.finfo(np.float32).eps) + 1.0)
_TINY = float(np.exp(_THRESHOLD))


def _inverse_softplus(x):
    """log(exp(x) - 1), log(x) for tiny x and x above the float32 threshold (2.10's formulation)."""
    too_small = x < _TINY
    too_large = x > -_THRESHOLD
    safe_x = ops.select(ops.logical_or(too_small, too_large), ops.ones_like(x), x)
    y = safe_x + _utils.log(ops.abs(ops.expm1(-1.0 * safe_x)))
    return ops.select(too_small, _utils.log(x), ops.select(too_large, x, y))


class Softplus(Bijector):
    r"""Softplus bijector :math:`y = \log(1 + e^{kx}) / k` for sharpness k.

    Args:
        sharpness (float, list, numpy.ndarray, Tensor): k. Default: ``1.0``.
        name (str): Default: ``'Softplus'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.bijector as msb
        >>> print(msb.Softplus(2.0).forward(ms.Tensor([0.0])).shape)
        (1,)
    """

    def __init__(self, sharpness=1.0, name="Softplus"):
        param = dict(locals())
        param["param_dict"] = {"sharpness": sharpness}
        super().__init__(name=name, dtype=None, param=param)
        self._sharpness = self._add_parameter(sharpness, "sharpness")

    @property
    def sharpness(self):
        """k."""
        return self._sharpness

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"sharpness = {self.sharpness}"
        return f"batch_shape = {self.batch_shape}"

    def _forward(self, x):
        x = self._check_value_dtype(x)
        sharpness = self.cast_param_by_value(x, self.sharpness)
        return _utils.stable_softplus(sharpness * x) / sharpness

    def _inverse(self, y):
        y = self._check_value_dtype(y)
        sharpness = self.cast_param_by_value(y, self.sharpness)
        return _inverse_softplus(sharpness * y) / sharpness

    def _forward_log_jacobian(self, x):
        x = self._check_value_dtype(x)
        sharpness = self.cast_param_by_value(x, self.sharpness)
        return -_utils.stable_softplus(-(sharpness * x))

    def _inverse_log_jacobian(self, y):
        y = self._check_value_dtype(y)
        scaled = self.cast_param_by_value(y, self.sharpness) * y
        return scaled - _inverse_softplus(scaled)
