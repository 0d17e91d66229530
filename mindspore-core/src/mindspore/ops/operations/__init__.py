"""``mindspore.ops.operations``: the Primitive classes (the same objects as ``mindspore.ops.Xxx``)."""
from mindspore.ops._defs import FAMILIES as _FAMILIES
from mindspore.ops.primitive import Primitive, PrimitiveWithCheck, PrimitiveWithInfer, prim_attr_register  # noqa: F401

__all__ = []
for _family in _FAMILIES:
    for _cls in _family.PRIMITIVES:
        globals()[_cls.__name__] = _cls
        __all__.append(_cls.__name__)
del _family, _cls

# the names MindSpore 2.10 also exports from this namespace: objects that live elsewhere here
from mindspore.ops._defs.comm import ReduceOp  # noqa: E402
from mindspore.ops._defs.control_prims import identity  # noqa: E402,F401
from mindspore.ops.function.misc2_func import kernel, ms_kernel  # noqa: E402
# MindSpore 2.10's LLM operators (call-only compositions, Ascend-only there)
from mindspore.ops.function.llm_func import (ApplyRotaryPosEmb, GroupTopk, PagedAttention,  # noqa: E402
                                             PagedAttentionMask, ReshapeAndCache)

__all__ += ["ReduceOp", "kernel", "ms_kernel"]   # not ``identity``: ``from ... import *`` into mindspore.ops
# would shadow the function ``ops.identity``
__all__ += ["ApplyRotaryPosEmb", "GroupTopk", "PagedAttention", "PagedAttentionMask", "ReshapeAndCache"]
from mindspore.ops.operations.custom_ops import CustomOpBuilder  # noqa: E402

__all__ += ["CustomOpBuilder"]
from mindspore.ops.function.reshard_func import Reshard  # noqa: E402 - call-only: the identity outside parallel
from mindspore.ops.function.queue_func import GetNext  # noqa: E402 - call-only: reads a named data queue
from mindspore.ops.function.embedding_cache_func import MapUniform  # noqa: E402 - call-only composition

__all__ += ["Reshard", "GetNext", "MapUniform"]

# MindSpore 2.10's submodules of this namespace (code imports from them, or reaches them as attributes:
# ops.operations.nn_ops.FlashAttentionScore): each holds its 2.10 classes that this build has
from mindspore.ops.operations import (  # noqa: E402,F401
    _grad_ops, _inner_ops, array_ops, control_ops, debug_ops, image_ops, inner_ops, linalg_ops, manually_defined,
    math_ops, nn_ops, other_ops, random_ops, sparse_ops, spectral_ops)
