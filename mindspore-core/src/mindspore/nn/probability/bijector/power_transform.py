"""The power transform bijector (Box-Cox)."""
from __future__ import annotations

import mindspore.ops as ops
from mindspore.nn.probability.bijector.bijector import Bijector
from mindspore.nn.probability import _utils

__all__ = ["PowerTransform"]


class PowerTransform(Bijector):
    r"""Power transform :math:`y = (1 + x c)^{1/c}` for power c > 0, :math:`y = e^x` for c = 0.

    Args:
        power (float, list, numpy.ndarray, Tensor): The power c, >= 0. Default: ``0.0``.
        name (str): Default: ``'PowerTransform'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.bijector as msb
        >>> print(msb.PowerTransform(0.5).forward(ms.Tensor([2.0])))
        [4.]
    """

    def __init__(self, power=0.0, name="PowerTransform"):
        param = dict(locals())
        param["param_dict"] = {"power": power}
        super().__init__(name=name, param=param)
        self._power = self._add_parameter(power, "power")
        _utils.check_greater_equal_zero(self._power, "Power")

    @property
    def power(self):
        """The power c."""
        return self._power

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"power = {self.power}"
        return f"batch_shape = {self.batch_shape}"

    def _broadcast_power(self, x):
        power = self.cast_param_by_value(x, self.power)
        ones = ops.ones_like(x + power)
        power = power * ones
        is_zero = power == 0.0
        return x * ones, power, is_zero, ops.select(is_zero, ones, power)

    def _forward(self, x):
        x, power, is_zero, safe_power = self._broadcast_power(self._check_value_dtype(x))
        return ops.select(is_zero, ops.exp(x), ops.exp(ops.log1p(x * safe_power) / safe_power))

    def _inverse(self, y):
        y, power, is_zero, safe_power = self._broadcast_power(self._check_value_dtype(y))
        return ops.select(is_zero, _utils.log(y), ops.expm1(_utils.log(y) * safe_power) / safe_power)

    def _forward_log_jacobian(self, x):
        x, _, is_zero, safe_power = self._broadcast_power(self._check_value_dtype(x))
        # safe_power keeps the branch not taken finite (no 1/0: NaN would leak into the gradient through select)
        return ops.select(is_zero, x, (1.0 / safe_power - 1.0) * ops.log1p(x * safe_power))

    def _inverse_log_jacobian(self, y):
        y = self._check_value_dtype(y)
        power = self.cast_param_by_value(y, self.power)
        return (power - 1.0) * _utils.log(y)
