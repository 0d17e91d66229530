"""``mindspore.ops.primitive``: the Primitive base class and its helpers (defined in the bottom layer,
:mod:`mindspore._core.primitive`, so that Tensor, the interpreters and autodiff can use them without
importing ``ops``)."""
from mindspore._core.primitive import (NON_DIFFERENTIABLE, Primitive, PrimitiveWithCheck,  # noqa: F401
                                       PrimitiveWithInfer, TensorSpec, constexpr, prim_attr_register)
from mindspore._core.primitive import _primexpr  # noqa: F401 - MindSpore's private name, imported by libraries

__all__ = ["Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck", "prim_attr_register", "constexpr",
           "NON_DIFFERENTIABLE", "TensorSpec"]
