"""Cases for the collective primitives on a single process (every group is this process alone).

With one rank each collective's meaning is fixed: AllReduce, AllGather, ReduceScatter, AlltoAll, Reduce,
CollectiveGather, CollectiveScatter, AllGatherV and ReduceScatterV give the input back, Broadcast gives the
root's (this rank's) tensors, Barrier returns ``[1.]``, and a Send to oneself is what the matching Receive
gets. The multi-process values and gradients are checked against NumPy under ``mpiexec`` in
``mindspore-parallel/tests/test_collectives.py``.
"""
import numpy as np

import mindspore as ms
from mindspore import ops

from case import Case, rand
from mindspore.ops.operations.comm_ops import NeighborExchangeV2Grad


def _send_receive(x):
    # Receive's optional input orders it after the Send; backwards, Receive's bprop sends the gradient back
    # and Send's bprop receives it, so dx = dout exactly as the finite differences of x -> x say.
    return ops.Receive(3, 0, x.shape, x.dtype)(ops.Send(3, 0)(x))


# this process is its own top neighbour: its top row comes back as the bottom frame
_HALO = ops.NeighborExchangeV2([0, -1, -1, -1, -1, -1, -1, -1], [1, 0, 0, 0], [-1, -1, -1, -1, 0, -1, -1, -1],
                               [0, 1, 0, 0], "NCHW")
# ... and the gradient: the bottom frame goes back and is added onto the top row
_HALO_GRAD = NeighborExchangeV2Grad([-1, -1, -1, -1, 0, -1, -1, -1], [0, 1, 0, 0], [0, -1, -1, -1, -1, -1, -1, -1],
                                    [1, 0, 0, 0], "NCHW")

CASES = [
    Case("all_reduce_max_single_rank", lambda x: ops.AllReduce(ops.ReduceOp.MAX)(x), [rand(2, 3)],
         oracle=lambda x: x, prims=["AllReduce"], grad=True),
    Case("all_reduce_prod_single_rank", lambda x: ops.AllReduce(ops.ReduceOp.PROD)(x), [rand(2, 3, low=0.5)],
         oracle=lambda x: x, prims=["AllReduce"], grad=True),
    Case("all_gather_single_rank", lambda x: ops.AllGather()(x), [rand(2, 3)], oracle=lambda x: x,
         prims=["AllGather"], grad=True),
    Case("reduce_scatter_single_rank", lambda x: ops.ReduceScatter()(x), [rand(4, 3)], oracle=lambda x: x,
         prims=["ReduceScatter"], grad=True),
    Case("reduce_scatter_min_single_rank", lambda x: ops.ReduceScatter(ops.ReduceOp.MIN)(x), [rand(4, 3)],
         oracle=lambda x: x, prims=["ReduceScatter"], grad=True),
    Case("broadcast_single_rank", lambda x, y: ops.Broadcast(0)((x, y)), [rand(2, 3), rand(4)],
         oracle=lambda x, y: (x, y), prims=["Broadcast"], grad=True),
    Case("all_to_all_single_rank", lambda x: ops.AlltoAll(1, 0, 1)(x), [rand(2, 3)], oracle=lambda x: x,
         prims=["AlltoAll"], grad=True),
    Case("barrier", lambda: ops.Barrier()(), [], oracle=lambda: np.ones((1,), np.float32), prims=["Barrier"],
         out_dtype=ms.float32),
    Case("reduce_single_rank", lambda x: ops.Reduce(0)(x), [rand(3, 2)], oracle=lambda x: x, prims=["Reduce"],
         grad=True),
    Case("collective_gather_single_rank", lambda x: ops.CollectiveGather(0)(x), [rand(2, 2)], oracle=lambda x: x,
         prims=["CollectiveGather"], grad=True),
    Case("collective_scatter_single_rank", lambda x: ops.CollectiveScatter(0)(x), [rand(2, 2)], oracle=lambda x: x,
         prims=["CollectiveScatter"], grad=True),
    Case("all_gather_v_single_rank", lambda x: ops.AllGatherV()(x, (5,)), [rand(5)], oracle=lambda x: x,
         prims=["AllGatherV"], grad=True),
    Case("reduce_scatter_v_single_rank", lambda x: ops.ReduceScatterV()(x, [4]), [rand(4)], oracle=lambda x: x,
         prims=["ReduceScatterV"], grad=True),
    Case("reduce_scatter_v_max_single_rank", lambda x: ops.ReduceScatterV(ops.ReduceOp.MAX)(x, [4]), [rand(4)],
         oracle=lambda x: x, prims=["ReduceScatterV"], grad=True),
    Case("send_receive_to_self", _send_receive, [rand(2, 3)], oracle=lambda x: x, prims=["Send", "Receive"],
         grad=True),
    # the exchanges: one rank sends itself everything (the 2-rank values are in mindspore-parallel/tests)
    Case("all_to_all_v_single_rank", lambda x: ops.AlltoAllV(block_size=2)(x, [3], [3]), [rand(6)],
         oracle=lambda x: x, prims=["AlltoAllV"], grad=True),
    Case("all_to_all_v_c_single_rank", lambda x: ops.AlltoAllVC()(x, [5]), [rand(5)], oracle=lambda x: x,
         prims=["AlltoAllVC"], grad=True),
    Case("neighbor_exchange_to_self", lambda x, y: ops.NeighborExchange([0, 0], [0, 0], ([2, 3], [4]), ([2, 3], [4]),
                                                                        x.dtype)((x, y)),   # float64 for gradients
         [rand(2, 3), rand(4)], oracle=lambda x, y: (x, y), prims=["NeighborExchange"], grad=True),
    Case("neighbor_exchange_v2_to_self", lambda x: _HALO(x), [rand(2, 1, 3, 4)],
         oracle=lambda x: np.concatenate([x, x[:, :, :1]], 2), prims=["NeighborExchangeV2"], grad=True),
    Case("neighbor_exchange_v2_grad_to_self", lambda d: _HALO_GRAD(d), [rand(2, 1, 4, 4)],
         oracle=lambda d: d[:, :, :3] + np.concatenate([d[:, :, 3:], np.zeros_like(d[:, :, :2])], 2),
         prims=["NeighborExchangeV2Grad"]),
    Case("batch_isend_irecv_to_self",
         lambda x: ops.BatchISendIRecv(("isend", "irecv"), (0, 0), ([2, 3],), (ms.float32,))((x,))[1],
         [rand(2, 3)], oracle=lambda x: x, prims=["BatchISendIRecv"]),
]
