"""``mindspore.ops.operations.manually_defined``: the Primitive classes MindSpore 2.10 keeps in this module that this build has
(the same objects as ``mindspore.ops.operations``; the list is :mod:`mindspore.ops.operations._layout`)."""
from mindspore.ops.operations._layout import export as _export

from mindspore.ops.function.nn_prims_func import FlashAttentionScore  # noqa: E402 - a call-only primitive, 2.10's

__all__ = _export(globals(), "manually_defined") + ["FlashAttentionScore"]
