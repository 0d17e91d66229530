"""MindSpore's ``mindspore.ops.function.other_func``: its functions are those of :mod:`mindspore.ops`."""
from mindspore._module_paths import fallback as _fallback

__getattr__ = _fallback(__name__, "mindspore.ops")
