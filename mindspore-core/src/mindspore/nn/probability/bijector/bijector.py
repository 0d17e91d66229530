"""The base Cell of the bijectors: invertible, differentiable maps y = f(x).

A bijector has ``forward`` (f), ``inverse`` (f^-1) and their log Jacobian determinants; called as a Cell it
dispatches by method name (``bijector('forward', x)``), and called on a Distribution it returns the
TransformedDistribution of that distribution through f. Its parameters (``scale``, ``power``, ...) are fixed at
construction; values are computed in the dtype of the input (a float type).
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSTypeError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.probability import _utils

__all__ = ["Bijector"]


class Bijector(Cell):
    """Base class of the bijectors.

    Args:
        is_constant_jacobian (bool): Whether the Jacobian is constant. Default: ``False``.
        is_injective (bool): Whether the map is injective. Default: ``True``.
        name (str): The name of the bijector. Default: ``None``.
        dtype (mindspore.dtype): The type of the values the bijector takes, a float type; ``None`` takes any float
            type. Default: ``None``.
        param (dict): The arguments the bijector was built with. Default: ``None``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.bijector as msb
        >>> print(msb.ScalarAffine(2.0, 1.0).forward(ms.Tensor([1.0, 2.0])))
        [3. 5.]
    """

    def __init__(self, is_constant_jacobian=False, is_injective=True, name=None, dtype=None, param=None):
        super().__init__()
        cls_name = type(self).__name__
        _utils.check_instance("name", name, str, cls_name)
        _utils.check_instance("is_constant_jacobian", is_constant_jacobian, bool, name)
        _utils.check_instance("is_injective", is_injective, bool, name)
        if dtype is not None:
            _utils.check_dtype(dtype, mstype.float_type, cls_name)
        self._name = name
        self._dtype = dtype
        param = param or {}
        self._parameters = {k: v for k, v in param.items()
                            if k != "param" and k != "self" and not k.startswith("_")}
        if "bijector" not in param:
            param_dict = self._parameters.get("param_dict")
            self._batch_shape = None if param_dict is None else _utils.batch_shape_of(
                {k: _utils.cast_to_tensor(v) for k, v in param_dict.items()})
            self._is_scalar_batch = param_dict is not None and _utils.is_scalar_batch(param_dict)
        self._is_constant_jacobian = is_constant_jacobian
        self._is_injective = is_injective
        self.default_parameters = []
        self.parameter_names = []
        self.common_dtype = None

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def parameters(self):
        return self._parameters

    @property
    def is_constant_jacobian(self):
        return self._is_constant_jacobian

    @property
    def is_injective(self):
        return self._is_injective

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def is_scalar_batch(self):
        return self._is_scalar_batch

    def _add_parameter(self, value, name):
        """Record a parameter (a float number or tensor; all of one dtype) and return it as a Tensor."""
        if isinstance(value, bool) or value is None:
            raise MSTypeError(f"{name} cannot be type {type(value)}")
        value_t = value if isinstance(value, Tensor) else Tensor(value)
        if self.dtype is None:
            if self.common_dtype is None:
                self.common_dtype = value_t.dtype
            elif value_t.dtype != self.common_dtype:
                raise MSTypeError(f"{name} should have the same dtype as other arguments.")
            _utils.check_dtype(value_t.dtype, mstype.float_type, type(self).__name__, f"dtype of {name}")
        elif value_t.dtype != self.dtype:
            raise MSTypeError(f"{name} should have the same dtype as the bijector's dtype.")
        self.default_parameters.append(value)
        self.parameter_names.append(name)
        return value_t

    def _check_value_dtype(self, value):
        """``value`` must be a float Tensor (of the bijector's dtype when it has one)."""
        _utils.check_tensor(value, "input value of bijector")
        if self.dtype is None:
            if value.dtype not in mstype.float_type:
                raise MSTypeError(f"For input value of bijector , the type must be or be subclass of Float, "
                                  f"but got {value.dtype}")
        elif value.dtype != self.dtype:
            raise MSTypeError(f"For 'SameTypeShape', the dtype of input 'x' must be {self.dtype}, "
                              f"but got {value.dtype}.")
        return value

    def _check_value(self, value, name):
        return _utils.check_tensor(value, name)

    def cast_param_by_value(self, value, para):
        """``para`` in the dtype of ``value``."""
        return ops.cast(para, value.dtype)

    def shape_mapping(self, shape):
        """The shape of the output for an input of ``shape``: ``shape`` broadcast with the batch shape."""
        return tuple(np.broadcast_shapes(tuple(shape), tuple(self.batch_shape)))

    def forward(self, value, *args, **kwargs):
        """y = f(x)."""
        return self._forward(value, *args, **kwargs)

    def inverse(self, value, *args, **kwargs):
        """x = f^-1(y)."""
        return self._inverse(value, *args, **kwargs)

    def forward_log_jacobian(self, value, *args, **kwargs):
        """log |df/dx| at x."""
        return self._forward_log_jacobian(value, *args, **kwargs)

    def inverse_log_jacobian(self, value, *args, **kwargs):
        """log |df^-1/dy| at y."""
        return self._inverse_log_jacobian(value, *args, **kwargs)

    def __call__(self, *args, **kwargs):
        # called on a distribution: the transformed distribution (the distribution builds it: see its module)
        transformed_by = getattr(args[0], "_transformed_by", None) if args and isinstance(args[0], Cell) else None
        if transformed_by is not None:
            return transformed_by(self)
        return super().__call__(*args, **kwargs)

    def construct(self, name, *args, **kwargs):
        """Call the method named ``name``: 'forward', 'inverse', 'forward_log_jacobian' or 'inverse_log_jacobian'."""
        if name == "forward":
            return self.forward(*args, **kwargs)
        if name == "inverse":
            return self.inverse(*args, **kwargs)
        if name == "forward_log_jacobian":
            return self.forward_log_jacobian(*args, **kwargs)
        if name == "inverse_log_jacobian":
            return self.inverse_log_jacobian(*args, **kwargs)
        raise Exception("Invalid name")
