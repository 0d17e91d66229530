"""One rank of ``test_comm_ops.py``: ``mpiexec -n 2 python comm_ops_worker.py {pynative|graph}``.

The exchange primitives (``AlltoAllV``, ``AlltoAllVC``, ``NeighborExchange``, ``NeighborExchangeV2``,
``BatchISendIRecv``): values and gradients against NumPy, eagerly or compiled; then (eagerly) the collective
functions of ``mindspore.ops`` in place and, after ``ops.set_comm_ops_inplace(False)``, out of place, and
``mindspore.parallel.parameter_broadcast``. Prints
``OK <rank>`` on success.
"""
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, ops
from mindspore.communication import get_rank, init

MODE = sys.argv[1]
ms.set_context(mode=ms.GRAPH_MODE if MODE == "graph" else ms.PYNATIVE_MODE)
init()
RANK = get_rank()
PEER = 1 - RANK


def run(fn, *args):
    return (ms.jit(fn) if MODE == "graph" else fn)(*args)


def close(got, want, what):
    got = got.asnumpy() if isinstance(got, Tensor) else np.asarray(got)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=f"rank {RANK}: {what}")


def data(r, n):
    return (np.arange(n) + 10.0 * r + 1).astype(np.float32)


# --- AlltoAllV: rank 0 sends [1, 2] elements, rank 1 sends [3, 1] -----------------------------------------
SEND = {0: [1, 2], 1: [3, 1]}
send, recv = SEND[RANK], [SEND[0][RANK], SEND[1][RANK]]
x = data(RANK, sum(send))
pieces = {r: np.split(data(r, sum(SEND[r])), np.cumsum(SEND[r])[:-1]) for r in (0, 1)}
want = np.concatenate([pieces[0][RANK], pieces[1][RANK]])
a2av = ops.AlltoAllV()
close(run(lambda t: a2av(t, send, recv), Tensor(x)), want, "AlltoAllV")
weight = np.arange(1, len(want) + 1, dtype=np.float32) * (RANK + 1)
# d/dx sum(w * out): this rank's element k went to rank j at position p, so its gradient is w_j[p]
got = run(ms.grad(lambda t: (a2av(t, send, recv) * Tensor(weight)).sum()), Tensor(x))
wts = {r: np.arange(1, sum(SEND[0][r:r + 1] + SEND[1][r:r + 1]) + 1, dtype=np.float32) * (r + 1) for r in (0, 1)}
back = np.concatenate([np.split(wts[j], [SEND[0][j]])[RANK] for j in (0, 1)])
close(got, back, "AlltoAllV gradient")

# --- AlltoAllVC: the same counts as a matrix, with block_size 2 -------------------------------------------
matrix = SEND[0] + SEND[1]
a2avc = ops.AlltoAllVC(block_size=2)
x2 = data(RANK, 2 * sum(send))
p2 = {r: np.split(data(r, 2 * sum(SEND[r])), 2 * np.cumsum(SEND[r])[:-1]) for r in (0, 1)}
want2 = np.concatenate([p2[0][RANK], p2[1][RANK]])
close(run(lambda t: a2avc(t, matrix), Tensor(x2)), want2, "AlltoAllVC")
w2 = np.linspace(1, 2, len(want2)).astype(np.float32) * (RANK + 1)
got = run(ms.grad(lambda t: (a2avc(t, matrix) * Tensor(w2)).sum()), Tensor(x2))
w2s = {r: np.linspace(1, 2, 2 * (SEND[0][r] + SEND[1][r])).astype(np.float32) * (r + 1) for r in (0, 1)}
close(got, np.concatenate([np.split(w2s[j], [2 * SEND[0][j]])[RANK] for j in (0, 1)]), "AlltoAllVC gradient")

# --- NeighborExchange: a (2, 3) and a (4,) tensor to the peer, (3, 2) and (4,) of the peer's back ---------
shapes = {0: ([2, 3], [4]), 1: ([3, 2], [4])}
ne = ops.NeighborExchange([PEER, PEER], [PEER, PEER], shapes[PEER], shapes[RANK], ms.float32)
xs = tuple(Tensor(data(RANK, int(np.prod(s))).reshape(s)) for s in shapes[RANK])
out = run(lambda a, b: ne((a, b)), *xs)
for got, s, k in zip(out, shapes[PEER], range(2)):
    close(got, data(PEER, int(np.prod(s))).reshape(s), f"NeighborExchange {k}")
grads = run(ms.grad(lambda a, b: sum((o * (i + 2)).sum() for i, o in enumerate(ne((a, b)))) * (RANK + 1),
                    grad_position=(0, 1)), *xs)
for g, s, k in zip(grads, shapes[RANK], range(2)):
    close(g, np.full(s, (k + 2) * (PEER + 1), np.float32), f"NeighborExchange gradient {k}")

# --- NeighborExchangeV2: rank 0 above rank 1; 1 row to the neighbour, 2 rows received ----------------------
ids = [-1] * 8
ids[4 if RANK == 0 else 0] = PEER           # rank 0's neighbour is below it, rank 1's above it
lens = [0, 1, 0, 0] if RANK == 0 else [1, 0, 0, 0]
rlens = [0, 1, 0, 0] if RANK == 0 else [1, 0, 0, 0]
halo = ops.NeighborExchangeV2(ids, lens, ids, rlens, "NCHW")
img = {r: np.arange(2 * 3 * 4, dtype=np.float32).reshape(1, 2, 3, 4) + 100 * r for r in (0, 1)}
got = run(lambda t: halo(t), Tensor(img[RANK]))
want = np.concatenate([img[0], img[1][:, :, :1]], 2) if RANK == 0 else np.concatenate([img[0][:, :, -1:], img[1]], 2)
close(got, want, "NeighborExchangeV2")
# gradient of sum(out^2): 2x on the body, plus twice the border row the neighbour received from this rank
g = run(ms.grad(lambda t: (halo(t) * halo(t)).sum()), Tensor(img[RANK]))
want_g = 2 * img[RANK]
if RANK == 0:
    want_g[:, :, -1] += 2 * img[0][:, :, -1]
else:
    want_g[:, :, 0] += 2 * img[1][:, :, 0]
close(g, want_g, "NeighborExchangeV2 gradient")

# --- BatchISendIRecv: both ranks send first, then receive (completes: all are posted together) ------------
batch = ops.BatchISendIRecv(("isend", "irecv"), (PEER, PEER), ([3],), (ms.float32,))
res = run(lambda t: batch((t,)), Tensor(data(RANK, 3)))
assert res[0].shape == () and res[1].shape == (3,), [r.shape for r in res]
close(res[1], data(PEER, 3), "BatchISendIRecv")

if MODE == "pynative":
    # --- mindspore.ops collective functions: in place (the default) ---------------------------------------
    t = Tensor(data(RANK, 4))
    assert ops.all_reduce(t) is None
    close(t, data(0, 4) + data(1, 4), "ops.all_reduce in place")
    outt = Tensor(np.zeros(8, np.float32))
    ops.all_gather_into_tensor(outt, Tensor(data(RANK, 4)))
    close(outt, np.concatenate([data(0, 4), data(1, 4)]), "ops.all_gather_into_tensor")
    gat = Tensor(np.full(6, -1, np.float32))
    ops.gather_into_tensor(gat, Tensor(data(RANK, 3)), dst=1)
    close(gat, np.concatenate([data(0, 3), data(1, 3)]) if RANK == 1 else np.full(6, -1, np.float32),
          "ops.gather_into_tensor")
    sc = Tensor(np.zeros(2, np.float32))
    ops.scatter_tensor(sc, Tensor(data(RANK, 4)), src=0)
    close(sc, data(0, 4)[2 * RANK:2 * RANK + 2], "ops.scatter_tensor")
    vc = Tensor(np.zeros(sum(recv), np.float32))
    ops.all_to_all_v_c(vc, Tensor(data(RANK, sum(send))), matrix)
    close(vc, np.concatenate([pieces[0][RANK], pieces[1][RANK]]), "ops.all_to_all_v_c")
    objs = [None, None]
    ops.all_gather_object(objs, {"rank": RANK})
    assert objs == [{"rank": 0}, {"rank": 1}], objs
    assert ops.get_rank() == RANK and ops.get_world_size() == 2 and ops.is_initialized()
    # --- out of place ---------------------------------------------------------------------------------------
    ops.set_comm_ops_inplace(False)
    t = Tensor(data(RANK, 4))
    out, handle = ops.all_reduce(t, op="max")
    assert handle is None
    close(out, data(1, 4), "ops.all_reduce out of place")
    close(t, data(RANK, 4), "input untouched out of place")
    out, _ = ops.reduce_scatter_tensor(None, Tensor(data(RANK, 4)))
    close(out, (data(0, 4) + data(1, 4))[2 * RANK:2 * RANK + 2], "ops.reduce_scatter_tensor out of place")
    try:
        ops.broadcast(t, 0)
    except ValueError as e:
        assert "Non-inplace mode is currently not supported." in str(e)
    else:
        raise AssertionError("ops.broadcast out of place must raise")
    ops.set_comm_ops_inplace(True, ["broadcast"])
    ops.broadcast(t, 1)
    close(t, data(1, 4), "ops.broadcast in place again")
    ops.set_comm_ops_inplace(True)

    # --- the fused matmul collectives ------------------------------------------------------------------------
    a = {r: data(r, 6).reshape(2, 3) for r in (0, 1)}
    b = np.linspace(-1, 1, 12).astype(np.float32).reshape(4, 3)
    out, gathered = ops.all_gather_matmul(Tensor(a[RANK]), Tensor(b), "hccl_world_group", 2, trans_x2=True)
    close(gathered, np.concatenate([a[0], a[1]]), "ops.all_gather_matmul gather_out")
    close(out, np.concatenate([a[0], a[1]]) @ b.T, "ops.all_gather_matmul")
    got = ops.matmul_reduce_scatter(Tensor(a[RANK]), Tensor(b.T.copy()), "hccl_world_group", 2)
    close(got, (a[0] @ b.T + a[1] @ b.T)[RANK:RANK + 1], "ops.matmul_reduce_scatter")

    # --- mindspore.parallel.parameter_broadcast: the copies of a repeated parameter take rank 0's values ------
    from mindspore import nn
    from mindspore.parallel import parameter_broadcast

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.rep = ms.Parameter(Tensor(data(RANK, 6).reshape(2, 3)), name="rep")    # repeated on both ranks
            self.cut = ms.Parameter(Tensor(data(RANK, 3).reshape(1, 3)), name="cut")    # rows split over the ranks

    net = Net()
    parameter_broadcast(net, {"rep": ([2], [-1, -1]), "cut": ([2], [0, -1], (2, 3))}, cur_rank=RANK)
    close(net.rep, data(0, 6).reshape(2, 3), "parameter_broadcast of a repeated parameter")
    close(net.cut, data(RANK, 3).reshape(1, 3), "parameter_broadcast leaves a split parameter alone")
    try:
        parameter_broadcast(net, {"rep": ([2], [-1, -1])}, cur_rank=PEER)
    except ValueError as e:
        assert "cur_rank" in str(e), e
    else:
        raise AssertionError("a wrong cur_rank must raise")

print(f"OK {RANK}", flush=True)
