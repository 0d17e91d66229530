"""MindSpore's ``mindspore.parallel.shard``: ``Layout`` and the ``shard`` function (the package imports them from
here, so that ``mindspore.parallel.shard`` stays the function, as in MindSpore)."""
from mindspore.parallel._shard import Layout, shard  # noqa: F401

__all__ = ["Layout", "shard"]
