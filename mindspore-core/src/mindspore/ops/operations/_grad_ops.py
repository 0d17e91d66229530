"""``mindspore.ops.operations._grad_ops``: the Primitive classes MindSpore 2.10 keeps in this module that this build has
(the same objects as ``mindspore.ops.operations``; the list is :mod:`mindspore.ops.operations._layout`)."""
from mindspore.ops.operations._layout import export as _export

__all__ = _export(globals(), "_grad_ops")
