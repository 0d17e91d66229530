"""``mindspore.ops``: the functional API, the Primitive classes and the gradient transforms.

The gradient transforms (``GradOperation``, ``grad``, ``value_and_grad``, ``vjp``, ``jvp``) sit above the
operators; :mod:`mindspore._autodiff.grad` installs them here when it is imported (``import mindspore`` does).
"""
from mindspore.ops import composite, functional, operations  # noqa: F401
from mindspore.ops import tensor_methods as _tensor_methods  # noqa: F401 - installs Tensor's computing methods
from mindspore.ops import _registry  # noqa: F401 - the operator registry (tells the kernel registry the names)
from mindspore.ops.functional import *  # noqa: F401,F403
from mindspore.ops.operations import *  # noqa: F401,F403
from mindspore.ops.primitive import (Primitive, PrimitiveWithCheck, PrimitiveWithInfer, constexpr,  # noqa: F401
                                     prim_attr_register)
from mindspore.ops.composite import HyperMap, Map, MultitypeFuncGraph, partial  # noqa: F401
from mindspore.ops._defs.comm import ReduceOp  # noqa: F401,E402
from mindspore.ops.op_info_register import (AiCPURegOp, AkgAscendRegOp, AkgGpuRegOp, CpuRegOp,  # noqa: F401,E402
                                             CustomRegOp, DataType, TBERegOp, custom_info_register,
                                             op_info_register)
from mindspore.ops.operations.custom_ops import CustomOpBuilder  # noqa: F401,E402
from mindspore.common.tensor import Tensor  # noqa: F401,E402 - MindSpore's ops has it too (ops.Tensor)
P = operations  # MindSpore's short name of mindspore.ops.operations (`from mindspore.ops import P`)
from mindspore.ops import auto_generate  # noqa: F401,E402 - MindSpore's generated operators (ops.auto_generate.X)
