"""The scalar affine bijector."""
from __future__ import annotations

import mindspore.ops as ops
from mindspore.nn.probability import _utils
from mindspore.nn.probability.bijector.bijector import Bijector

__all__ = ["ScalarAffine"]


class ScalarAffine(Bijector):
    """Scalar affine bijector :math:`y = a x + b`.

    Args:
        scale (float, list, numpy.ndarray, Tensor): a. Default: ``1.0``.
        shift (float, list, numpy.ndarray, Tensor): b. Default: ``0.0``.
        name (str): Default: ``'ScalarAffine'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.bijector as msb
        >>> print(msb.ScalarAffine(2.0, 1.0).inverse(ms.Tensor([3.0])))
        [1.]
    """

    def __init__(self, scale=1.0, shift=0.0, name="ScalarAffine"):
        param = dict(locals())
        param["param_dict"] = {"scale": scale, "shift": shift}
        super().__init__(is_constant_jacobian=True, is_injective=True, name=name, dtype=None, param=param)
        self._scale = self._add_parameter(scale, "scale")
        self._shift = self._add_parameter(shift, "shift")

    @property
    def scale(self):
        """a."""
        return self._scale

    @property
    def shift(self):
        """b."""
        return self._shift

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"scale = {self.scale}, shift = {self.shift}"
        return f"batch_shape = {self.batch_shape}"

    def _forward(self, x):
        x = self._check_value_dtype(x)
        scale = self.cast_param_by_value(x, self.scale)
        shift = self.cast_param_by_value(x, self.shift)
        return scale * x + shift * ops.ones_like(x)

    def _inverse(self, y):
        y = self._check_value_dtype(y)
        scale = self.cast_param_by_value(y, self.scale)
        shift = self.cast_param_by_value(y, self.shift)
        return (y - shift) / scale

    def _forward_log_jacobian(self, x):
        x = self._check_value_dtype(x)
        return _utils.log(ops.abs(self.cast_param_by_value(x, self.scale)))

    def _inverse_log_jacobian(self, y):
        y = self._check_value_dtype(y)
        return -1.0 * _utils.log(ops.abs(self.cast_param_by_value(y, self.scale)))
