"""``mindspore.ops.composite``: higher-order composites, and the gradient transforms.

``GradOperation`` sits above the operators (it drives the tape and the compiler), so
:mod:`mindspore._autodiff.grad` installs it here when it is imported (``import mindspore`` does). As in
MindSpore, the functional random ops, products and a few helpers are exported here too (the same objects
as ``mindspore.ops``'s).
"""
from mindspore.ops import functional as _F  # noqa: F401 - the functional ops load before the composites
from mindspore.ops.composite.base import HyperMap, Map, MultitypeFuncGraph, partial, tail, zip_operation  # noqa: F401
from mindspore.ops.function.array_func import ones_like, zeros_like  # noqa: F401
from mindspore.ops.functional import (augassign_add, augassign_div, augassign_floordiv,  # noqa: F401
                                      augassign_mod, augassign_mul, augassign_sub, batch_dot, count_nonzero,
                                      cummin, dot, gamma, laplace, matmul, mm, multinomial, normal, poisson,
                                      repeat_elements, repeat_interleave, sequence_mask, tensor_dot, uniform,
                                      vecdot)

from mindspore.ops.function.math_func import clip_by_global_norm, clip_by_value  # noqa: F401,E402
from mindspore.ops.function.misc2_func import (add_flags, env_get, hyper_add, iter_converter,  # noqa: F401,E402
                                               ms_hasnext, ms_next)

__all__ = ["HyperMap", "Map", "MultitypeFuncGraph", "partial", "ones_like", "zeros_like", "tail", "zip_operation",
           "hyper_add", "augassign_add", "augassign_div", "augassign_floordiv", "augassign_mod", "augassign_mul",
           "augassign_sub", "batch_dot", "count_nonzero", "cummin", "dot", "gamma", "laplace", "matmul", "mm",
           "multinomial", "normal", "poisson", "repeat_elements", "repeat_interleave", "sequence_mask", "tensor_dot",
           "uniform", "vecdot", "add_flags", "env_get", "iter_converter", "ms_hasnext", "ms_next", "clip_by_value",
           "clip_by_global_norm"]
