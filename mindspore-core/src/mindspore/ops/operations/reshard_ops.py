"""``mindspore.ops.operations.reshard_ops``: MindSpore 2.10's module of the ``Reshard`` primitive."""
from mindspore.ops.function.reshard_func import Reshard  # noqa: F401

__all__ = []   # as in 2.10, whose module exports nothing by ``*``
