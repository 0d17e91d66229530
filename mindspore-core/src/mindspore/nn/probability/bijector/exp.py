"""The exponential bijector."""
from __future__ import annotations

from mindspore.nn.probability.bijector.power_transform import PowerTransform

__all__ = ["Exp"]


class Exp(PowerTransform):
    """Exponential bijector :math:`y = e^x` (the power transform with power 0).

    Args:
        name (str): Default: ``'Exp'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.bijector as msb
        >>> print(msb.Exp().inverse(ms.Tensor([1.0])))
        [0.]
    """

    def __init__(self, name="Exp"):
        super().__init__(name=name)

    def extend_repr(self):
        if self.is_scalar_batch:
            return "exp"
        return f"batch_shape = {self.batch_shape}"
