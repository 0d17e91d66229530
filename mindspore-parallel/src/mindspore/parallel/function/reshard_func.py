"""``mindspore.parallel.function.reshard_func``: ``reshard`` under MindSpore 2.10's path (core's ``ops.reshard``; its
distributed rule is ``mindspore.parallel._ops.shape.reshard_rule``)."""
from mindspore.ops import reshard

__all__ = ["reshard"]
