"""``mindspore.parallel.function``: functions of sharded programs (``reshard``, the same as ``mindspore.ops.reshard``)."""
from mindspore.parallel.function.reshard_func import reshard

__all__ = ["reshard"]
