"""MindSpore's ``mindspore.ops.auto_generate.gen_ops_prim``: see :mod:`mindspore.ops.auto_generate`."""
from mindspore._module_paths import fallback as _fallback

__getattr__ = _fallback(__name__, "mindspore.ops")
