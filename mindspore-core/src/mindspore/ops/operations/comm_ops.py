"""``mindspore.ops.operations.comm_ops``: the collective primitives under MindSpore's module path (the same classes
as ``mindspore.ops.AllReduce`` and friends)."""
from mindspore.ops._defs.comm import (AllGather, AllGatherV, AllReduce, AlltoAll, AlltoAllV,  # noqa: F401
                                      AlltoAllVC, Barrier, BatchISendIRecv, Broadcast, CollectiveGather,
                                      CollectiveScatter, NeighborExchange, NeighborExchangeV2, NeighborExchangeV2Grad,
                                      Receive, Reduce,
                                      ReduceOp, ReduceScatter, ReduceScatterV, Send)

__all__ = ["AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AlltoAll", "Send", "Receive", "Barrier", "Reduce",
           "CollectiveGather", "CollectiveScatter", "AllGatherV", "ReduceScatterV", "ReduceOp",
           "AlltoAllV", "AlltoAllVC", "NeighborExchange", "NeighborExchangeV2", "BatchISendIRecv"]
