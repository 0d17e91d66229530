"""``mindspore.ops.functional``: every functional op, re-exported from ``ops.function``."""
import sys

from mindspore.ops._defs import _lazy
from mindspore.ops.function import (array_func, comm_func, conv_func, debug_func, fft_func, loss_func, math_ext_func,
                                    math_func, misc_func, more_func, nn_func, nn_more_func, nn_prims_func, random_func,
                                    reduce_func, scalar_func, segment_func, sparse_func, special_func)
from mindspore.ops.function import misc2_func
from mindspore.ops.function import image_func
from mindspore.ops.function import llm_attention_func, llm_func

_MODULES = (math_func, array_func, reduce_func, nn_func, conv_func, loss_func, random_func, debug_func, math_ext_func,
            segment_func, misc_func, special_func, scalar_func, more_func, nn_more_func, fft_func, comm_func,
            nn_prims_func, sparse_func, misc2_func)
_MODULES += (image_func,)
_MODULES += (llm_func, llm_attention_func)
from mindspore.ops.function import reshard_func, sparse_attention_func  # noqa: E402
_MODULES += (reshard_func, sparse_attention_func)

__all__ = []
for _m in _MODULES:
    for _name in _m.__all__:
        globals()[_name] = getattr(_m, _name)
        __all__.append(_name)
del _m, _name

tensor_add = add  # noqa: F821 - MindSpore's legacy alias
__all__.append("tensor_add")

_lazy.functional.bind(sys.modules[__name__])   # bprops call functional ops through this slot


# MindSpore's `mindspore.ops.functional` also holds the primitive classes and functions of mindspore.ops
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.ops")
