"""MindSpore's ``mindspore.ops.auto_generate.gen_extend_func``: see :mod:`mindspore.ops.auto_generate`."""
from mindspore._module_paths import fallback as _fallback

__getattr__ = _fallback(__name__, "mindspore.ops")
