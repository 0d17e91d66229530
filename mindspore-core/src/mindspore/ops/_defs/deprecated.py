"""MindSpore 2.10's deprecated primitive names, still in ``mindspore.ops`` and in older model code:
``TensorAdd`` (``Add``), ``Gelu`` (``GeLU``), ``FastGelu`` (``FastGeLU``), ``Pack`` (``Stack``), ``Unpack``
(``Unstack``), ``GatherV2`` (``Gather``).

Each is a subclass of the primitive it names, so it has that primitive's attributes, shape and dtype rules
and bprop; being its own class, it is its own registry entry, and the backends register the same kernels under
the old name (``kernels/deprecated.py``).
"""
from mindspore.ops._defs.array import Stack, Unstack
from mindspore.ops._defs.indexing import Gather
from mindspore.ops._defs.math import Add
from mindspore.ops._defs.nn import FastGeLU, GeLU


class TensorAdd(Add):
    """Deprecated: ``ops.Add``."""


class Gelu(GeLU):
    """Deprecated: ``ops.GeLU``."""


class FastGelu(FastGeLU):
    """Deprecated: ``ops.FastGeLU``."""


class Pack(Stack):
    """Deprecated: ``ops.Stack`` (``Pack(axis=0)(tensors)``)."""


class Unpack(Unstack):
    """Deprecated: ``ops.Unstack`` (``Unpack(axis=0)(x)``)."""


class GatherV2(Gather):
    """Deprecated: ``ops.Gather``."""


#: the deprecated class and the name of the primitive whose kernels it shares
ALIASES = {"TensorAdd": "Add", "Gelu": "GeLU", "FastGelu": "FastGeLU", "Pack": "Stack", "Unpack": "Unstack",
           "GatherV2": "Gather"}

PRIMITIVES = [TensorAdd, Gelu, FastGelu, Pack, Unpack, GatherV2]
