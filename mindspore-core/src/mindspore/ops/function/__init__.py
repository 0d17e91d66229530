"""The functional API (``mindspore.ops.xxx``), one module per family, as compositions of primitives."""
from mindspore._module_paths import fallback as _fallback
from mindspore._module_paths import names_over_submodules as _names_over_submodules

# MindSpore's `mindspore.ops.function` exports every function of `mindspore.ops`
__getattr__ = _fallback(__name__, "mindspore.ops")
_names_over_submodules(__name__, ("grad",))   # the function, as in MindSpore, not ops.function.grad
