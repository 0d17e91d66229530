"""One rank of ``test_collectives.py``: ``mpiexec -n N python collectives_worker.py {pynative|graph} {values|errors}``.

``values``: every collective primitive (and comm_func function) on the world group and on a ``create_group`` subgroup
(ranks in a different order than the world's), forward values and gradients against NumPy; GRAPH_MODE runs each
check compiled (``ms.jit``). ``errors``: mismatched shapes, dtypes, reductions and collectives across the ranks,
and a group this rank is not in: each must raise the same clear error on every rank, and the communicator must
still work afterwards. Prints ``OK <rank>`` (and ``ERR <rank> <kind>: <message>`` lines) on success.
"""
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, ops
from mindspore.communication import comm_func, create_group, get_group_size, get_rank, init

MODE, WHAT = sys.argv[1], sys.argv[2]
ms.set_context(mode=ms.GRAPH_MODE if MODE == "graph" else ms.PYNATIVE_MODE)
init()
RANK, SIZE = get_rank(), get_group_size()


def data(r, shape, seed=0):
    """Rank ``r``'s test array: distinct per rank, exact in float32, no ties across ranks."""
    n = int(np.prod(shape))
    base = (np.arange(n) * 7 + seed * 3) % 11 - 5.0
    return (base * (r + 1) + 0.25 * r).reshape(shape).astype(np.float32)


def run(fn, *args):
    """``fn(*args)`` as the mode says: eagerly, or compiled."""
    return (ms.jit(fn) if MODE == "graph" else fn)(*args)


def close(got, want, what):
    got = got.asnumpy() if isinstance(got, Tensor) else np.asarray(got)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"rank {RANK}: {what}")


def grad_of(fn, x):
    return run(ms.grad(fn), x)


def check_group(name, ranks):
    """Every primitive on group ``name`` made of world ranks ``ranks`` (group rank i = world rank ranks[i])."""
    n, me = len(ranks), ranks.index(RANK)
    tag = f"{name}"
    x = data(me, (2 * n, 3))
    xs = [data(r, (2 * n, 3)) for r in range(n)]
    stacked = np.stack(xs)
    for op, ref in (("sum", stacked.sum(0)), ("max", stacked.max(0)), ("min", stacked.min(0)),
                    ("prod", stacked.prod(0))):
        close(run(lambda t, op=op: ops.AllReduce(op, name)(t), Tensor(x)), ref, f"{tag} AllReduce {op}")
    scalar = run(lambda t: ops.AllReduce("sum", name)(t), Tensor(np.float32(me + 1)))   # a 0-d tensor stays 0-d
    close(scalar, np.float32(n * (n + 1) / 2), f"{tag} AllReduce of a scalar")
    assert scalar.shape == (), (tag, scalar.shape)
    close(run(lambda t: ops.AllGather(name)(t), Tensor(x)), np.concatenate(xs), f"{tag} AllGather")
    close(run(lambda t: ops.ReduceScatter("sum", name)(t), Tensor(x)), np.split(stacked.sum(0), n)[me],
          f"{tag} ReduceScatter")
    close(run(lambda t: ops.ReduceScatter("max", name)(t), Tensor(x)), np.split(stacked.max(0), n)[me],
          f"{tag} ReduceScatter max")
    y = data(me, (5,), seed=1).astype(np.int32)
    got = run(lambda a, b: ops.Broadcast(n - 1, name)((a, b)), Tensor(x), Tensor(y))
    close(got[0], xs[n - 1], f"{tag} Broadcast[0]")
    close(got[1], data(n - 1, (5,), seed=1).astype(np.int32), f"{tag} Broadcast[1]")
    a2a_in = [data(r, (2, 3 * n)) for r in range(n)]
    want = np.concatenate([np.split(a2a_in[r], n, axis=1)[me] for r in range(n)], axis=0)
    close(run(lambda t: ops.AlltoAll(n, 1, 0, name)(t), Tensor(a2a_in[me])), want, f"{tag} AlltoAll")
    close(run(lambda t: ops.Reduce(0, "sum", name)(t), Tensor(x)), stacked.sum(0) if me == 0 else np.zeros_like(x),
          f"{tag} Reduce")
    close(run(lambda t: ops.CollectiveGather(0, name)(t), Tensor(x)),
          np.concatenate(xs) if me == 0 else np.zeros((2 * n * n, 3), np.float32), f"{tag} CollectiveGather")
    close(run(lambda t: ops.CollectiveScatter(0, name)(t), Tensor(x)), np.split(xs[0], n)[me],
          f"{tag} CollectiveScatter")
    close(run(lambda: ops.Barrier(name)()), [1.0], f"{tag} Barrier")
    sizes = tuple(r + 1 for r in range(n))              # uneven pieces: rank r has r + 1 elements
    offs = np.cumsum((0,) + sizes)
    close(run(lambda t: ops.AllGatherV(name)(t, sizes), Tensor(data(me, (sizes[me],), seed=7))),
          np.concatenate([data(r, (sizes[r],), seed=7) for r in range(n)]), f"{tag} AllGatherV")
    xv = [data(r, (offs[-1],), seed=8) for r in range(n)]
    close(run(lambda t: ops.ReduceScatterV("sum", name)(t, sizes), Tensor(xv[me])),
          np.sum(xv, 0)[offs[me]:offs[me + 1]], f"{tag} ReduceScatterV")
    # a ring of Send/Receive: even ranks send first, odd ranks receive first
    nxt, prv = (me + 1) % n, (me - 1) % n

    def ring(t):
        if me % 2 == 0:
            ops.Send(7, nxt, name)(t)
            return ops.Receive(7, prv, (2 * n, 3), ms.float32, name)()
        got = ops.Receive(7, prv, (2 * n, 3), ms.float32, name)()
        ops.Send(7, nxt, name)(t)
        return got
    close(run(ring, Tensor(x)), xs[prv], f"{tag} Send/Receive ring")
    check_grads(name, n, me)


def check_grads(name, n, me):
    tag = f"{name} grad"
    x = data(me, (2 * n, 3))
    ws = [data(r, (2 * n, 3), seed=2) for r in range(n)]
    w = Tensor(ws[me])
    close(grad_of(lambda t: (ops.AllReduce("sum", name)(t) * w).sum(), Tensor(x)), np.sum(ws, 0), f"{tag} AllReduce")
    xs = np.stack([data(r, (2 * n, 3)) for r in range(n)])
    mask = (x == xs.max(0)).astype(np.float32)
    close(grad_of(lambda t: (ops.AllReduce("max", name)(t) * w).sum(), Tensor(x)), np.sum(ws, 0) * mask,
          f"{tag} AllReduce max")
    wg = [data(r, (2 * n * n, 3), seed=3) for r in range(n)]
    close(grad_of(lambda t: (ops.AllGather(name)(t) * Tensor(wg[me])).sum(), Tensor(x)),
          np.split(np.sum(wg, 0), n)[me], f"{tag} AllGather")
    wr = [data(r, (2, 3), seed=4) for r in range(n)]
    close(grad_of(lambda t: (ops.ReduceScatter("sum", name)(t) * Tensor(wr[me])).sum(), Tensor(x)),
          np.concatenate(wr), f"{tag} ReduceScatter")
    wa = [data(r, (2 * n, 3), seed=5) for r in range(n)]      # AlltoAll(n, 1, 0) of a (2, 3n) input is (2n, 3)
    want = np.concatenate([np.split(wa[j], n, axis=0)[me] for j in range(n)], axis=1)
    close(grad_of(lambda t: (ops.AlltoAll(n, 1, 0, name)(t) * Tensor(wa[me])).sum(), Tensor(data(me, (2, 3 * n)))),
          want, f"{tag} AlltoAll")
    sizes = tuple(r + 1 for r in range(n))
    offs = np.cumsum((0,) + sizes)
    wv = [data(r, (offs[-1],), seed=9) for r in range(n)]
    close(grad_of(lambda t: (ops.AllGatherV(name)(t, sizes) * Tensor(wv[me])).sum(), Tensor(data(me, (sizes[me],)))),
          np.sum(wv, 0)[offs[me]:offs[me + 1]], f"{tag} AllGatherV")
    us = [data(r, (sizes[r],), seed=10) for r in range(n)]
    close(grad_of(lambda t: (ops.ReduceScatterV("sum", name)(t, sizes) * Tensor(us[me])).sum(),
                  Tensor(data(me, (offs[-1],)))), np.concatenate(us), f"{tag} ReduceScatterV")
    close(grad_of(lambda t: (ops.Broadcast(0, name)((t,))[0] * w).sum(), Tensor(x)),
          np.sum(ws, 0) if me == 0 else np.zeros_like(x), f"{tag} Broadcast")


def check_send_receive_grad():
    """Pipeline-style: world rank 0 sends x to rank 1; rank 1's gradient comes back through Receive's bprop."""
    w1 = data(1, (3,), seed=6)
    if RANK == 0:
        x = Tensor(data(0, (3,)))
        close(grad_of(lambda t: ops.Send(11, 1)(t).sum(), x), w1, "Send/Receive grad on the sender")
    elif RANK == 1:
        dummy = Tensor(np.zeros((3,), np.float32))
        got = grad_of(lambda d: (ops.Receive(11, 0, (3,), ms.float32)(d) * Tensor(w1)).sum(), dummy)
        close(got, np.zeros(3), "Send/Receive grad on the receiver")


def check_comm_func():
    x = data(RANK, (2 * SIZE, 3))
    xs = np.stack([data(r, (2 * SIZE, 3)) for r in range(SIZE)])
    out, handle = comm_func.all_reduce(Tensor(x))
    assert handle is None
    close(out, xs.sum(0), "comm_func.all_reduce")
    out, handle = comm_func.all_reduce(Tensor(x), "max", async_op=True)
    handle.wait()
    close(out, xs.max(0), "comm_func.all_reduce async")
    close(comm_func.all_gather_into_tensor(Tensor(x))[0], np.concatenate(xs), "all_gather_into_tensor")
    close(comm_func.reduce_scatter_tensor(Tensor(x))[0], np.split(xs.sum(0), SIZE)[RANK], "reduce_scatter_tensor")
    close(comm_func.broadcast(Tensor(x), src=SIZE - 1), xs[SIZE - 1], "comm_func.broadcast")
    close(comm_func.reduce(Tensor(x), dst=1), xs.sum(0) if RANK == 1 else np.zeros_like(x), "comm_func.reduce")
    close(comm_func.scatter_tensor(Tensor(x), src=1), np.split(xs[1], SIZE)[RANK], "scatter_tensor")
    close(comm_func.gather_into_tensor(Tensor(x), dst=0), np.concatenate(xs) if RANK == 0 else
          np.zeros((2 * SIZE * SIZE, 3)), "gather_into_tensor")
    comm_func.barrier()
    # every rank isends to the next and irecvs from the previous: no deadlock, even for a large message
    big = np.full((300_000,), RANK, np.float32)
    nxt, prv = (RANK + 1) % SIZE, (RANK - 1) % SIZE
    h_send = comm_func.isend(Tensor(big), dst=nxt, tag=5)
    got, h_recv = comm_func.irecv(Tensor(np.zeros_like(big)), src=prv, tag=5)
    h_recv.wait()
    h_send.wait()
    close(got, np.full_like(big, prv), "isend/irecv")
    res = comm_func.batch_isend_irecv([comm_func.P2POp("isend", Tensor(x), nxt),
                                       comm_func.P2POp(comm_func.irecv, Tensor(np.zeros_like(x)), prv)])
    close(res[1], xs[prv], "batch_isend_irecv")
    if RANK % 2 == 0 and RANK + 1 < SIZE:
        comm_func.send(Tensor(x), dst=RANK + 1, tag=9)
    elif RANK % 2 == 1:
        close(comm_func.recv(Tensor(np.zeros_like(x)), src=RANK - 1, tag=9), xs[RANK - 1], "send/recv")
    # all_to_all_single with uneven splits: rank r sends r+1+j rows... to rank j
    ins = [[(r + j) % 3 + 1 for j in range(SIZE)] for r in range(SIZE)]
    mine = np.concatenate([np.full((ins[RANK][j], 2), 10 * RANK + j, np.float32) for j in range(SIZE)])
    recv_sizes = [ins[r][RANK] for r in range(SIZE)]
    want = np.concatenate([np.full((ins[r][RANK], 2), 10 * r + RANK, np.float32) for r in range(SIZE)])
    out, _ = comm_func.all_to_all_single_with_output_shape((sum(recv_sizes), 2), Tensor(mine), recv_sizes, ins[RANK])
    close(out, want, "all_to_all_single_with_output_shape")
    pieces = [Tensor(np.full((RANK + 1,), 100 * RANK + j, np.float32)) for j in range(SIZE)]
    outs, _ = comm_func.all_to_all_with_output_shape([(r + 1,) for r in range(SIZE)], pieces)
    for r in range(SIZE):
        close(outs[r], np.full((r + 1,), 100 * r + RANK), "all_to_all_with_output_shape")
    # all_to_all_v_c: rank i sends i + j + 1 elements to rank j, written into the output in place
    counts = [i + j + 1 for i in range(SIZE) for j in range(SIZE)]
    send = np.concatenate([np.full(RANK + j + 1, 10 * RANK + j, np.float32) for j in range(SIZE)])
    output = Tensor(np.zeros(sum(i + RANK + 1 for i in range(SIZE)), np.float32))
    assert comm_func.all_to_all_v_c(output, Tensor(send), counts) is None
    close(output, np.concatenate([np.full(i + RANK + 1, 10 * i + RANK) for i in range(SIZE)]), "all_to_all_v_c")
    res = comm_func.batch_isend_irecv([comm_func.P2POp(comm_func.isend, Tensor(x), nxt, tag=3),
                                       comm_func.P2POp("irecv", tuple(x.shape), prv, tag=3, recv_dtype=ms.float32)])
    close(res[1], xs[prv], "batch_isend_irecv with a shape")


def check_nccl_agreement():
    """Every rank agrees whether NCCL is there (one MPI all-reduce); without CuPy it is not, on every rank."""
    from mindspore.communication import _nccl
    from mindspore.communication.management import group_communicator
    world = group_communicator()
    if _nccl.nccl_module() is None:
        assert world.nccl() is None and world.nccl() is None


def values():
    check_nccl_agreement()
    check_group("hccl_world_group", list(range(SIZE)))
    if SIZE == 2:
        create_group("reversed", [1, 0])
        check_group("reversed", [1, 0])
    else:
        create_group("evens", list(range(0, SIZE, 2))[::-1])
        create_group("odds", list(range(1, SIZE, 2)))
        name = "evens" if RANK % 2 == 0 else "odds"
        check_group(name, list(range(0, SIZE, 2))[::-1] if RANK % 2 == 0 else list(range(1, SIZE, 2)))
    check_send_receive_grad()
    if MODE == "pynative":
        check_comm_func()


def say(line):
    """One line in one write: mpiexec merges the ranks' outputs, and must not cut into a line."""
    sys.stdout.flush()
    os.write(1, (line.replace("\n", " | ") + "\n").encode())


def expect_error(kind, fn):
    try:
        fn()
    except (ValueError, TypeError, RuntimeError) as exc:
        say(f"ERR {RANK} {kind}: {type(exc).__name__}: {exc}")
        return
    raise AssertionError(f"rank {RANK}: {kind} did not raise")


def errors():
    expect_error("shape", lambda: run(lambda t: ops.AllReduce()(t), Tensor(np.ones(2 + (RANK == 1), np.float32))))
    expect_error("dtype", lambda: run(lambda t: ops.AllGather()(t),
                                      Tensor(np.ones(2, np.float32 if RANK else np.float64))))
    expect_error("op", lambda: run(lambda t: ops.AllReduce("max" if RANK == 1 else "sum")(t), Tensor(np.ones(2))))
    expect_error("collective", lambda: run(lambda t: (ops.AllGather() if RANK == 1 else ops.AllReduce())(t),
                                           Tensor(np.ones(2, np.float32))))
    expect_error("root", lambda: run(lambda t: ops.Broadcast(RANK % 2)((t,)), Tensor(np.ones(2, np.float32))))
    expect_error("v_length", lambda: run(lambda t: ops.AllGatherV()(t, (2,) * SIZE),
                                         Tensor(np.ones(2 + (RANK == 1), np.float32))))
    create_group("first_two", [0, 1])
    if RANK >= 2 or SIZE == 2:
        name = "first_two" if RANK >= 2 else "not_created"
        expect_error("membership", lambda: run(lambda t: ops.AllReduce("sum", name)(t), Tensor(np.ones(2))))
    if RANK == 1:
        ops.Send(4, 0)(Tensor(np.ones((3,), np.float32)))
    elif RANK == 0:
        expect_error("p2p", lambda: ops.Receive(4, 1, (2,), ms.float32)())
    # the communicator still works after all of that
    close(run(lambda t: ops.AllReduce()(t), Tensor(np.ones(2, np.float32))), np.full(2, SIZE), "after errors")


values() if WHAT == "values" else errors()
say(f"OK {RANK}")
