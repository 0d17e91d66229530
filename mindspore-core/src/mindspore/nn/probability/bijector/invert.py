"""The inverse of a bijector."""
from __future__ import annotations

from mindspore.nn.probability.bijector.bijector import Bijector
from mindspore.nn.probability import _utils

__all__ = ["Invert"]


class Invert(Bijector):
    """The inverse of ``bijector``: its forward is the bijector's inverse and the other way round.

    Args:
        bijector (Bijector): The bijector to invert.
        name (str): Default: ``''`` ('Invert' + the bijector's name).

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.bijector as msb
        >>> print(msb.Invert(msb.Exp()).forward(ms.Tensor([1.0])))
        [0.]
    """

    def __init__(self, bijector, name=""):
        param = dict(locals())
        _utils.check_instance("bijector", bijector, Bijector, "Invert")
        name = name or "Invert" + bijector.name
        param["name"] = name
        super().__init__(is_constant_jacobian=bijector.is_constant_jacobian, is_injective=bijector.is_injective,
                         name=name, dtype=bijector.dtype, param=param)
        self._bijector = bijector
        self._batch_shape = bijector.batch_shape
        self._is_scalar_batch = bijector.is_scalar_batch

    @property
    def bijector(self):
        """The inverted bijector."""
        return self._bijector

    def inverse(self, y):
        return self._bijector("forward", y)

    def forward(self, x):
        return self._bijector("inverse", x)

    def inverse_log_jacobian(self, y):
        return self._bijector("forward_log_jacobian", y)

    def forward_log_jacobian(self, x):
        return self._bijector("inverse_log_jacobian", x)
