"""MindSpore's ``mindspore.ops.auto_generate``: the operator classes and functions MindSpore generates from its YAML
definitions, imported by name by code written for it (``from mindspore.ops.auto_generate import Reshape``; MindOne's
``P.auto_generate.PagedAttention``). Here every operator is defined in :mod:`mindspore.ops`; a name of this module is
the ``mindspore.ops`` name it stands for. (MindSpore's ``...Ext`` classes, the primitives behind ``mindspore.mint``,
are not among them: ``mindspore.mint``'s functions are what this project has.)"""
from mindspore._module_paths import fallback as _fallback

__getattr__ = _fallback(__name__, "mindspore.ops")
