"""Worker of test_msrun_multinode_parallel.py: one job script for a world of 4 ranks, launched either by two msruns
of 2 workers each (nodes 0 and 1: world ranks 0-1 and 2-3) or by one ``mpiexec -n 4``; the same script must give
the same numbers either way.

argv: mode (pynative | graph), out_dir. In order, every rank:

1. trains the sharded networks of ``tests/parallel/_semi_auto_worker.py`` (``CONFIGS``: SEMI_AUTO_PARALLEL MLP
   4-way and 2 x 2 MatMul splits, a 2 x 2 transformer layer and vocabulary-split embedding, AUTO_PARALLEL
   sharding propagation and recursive programming, the parallel optimizer, full_batch=False, and the layout
   changes of ``redistribute``), each against one process on the global batch: ``out_dir/rank<r>.json``;
2. runs collectives on the world and on groups spanning both nodes (``create_group`` over world ranks [1, 2] and
   [3, 0]), Send/Receive between ranks on different nodes (and a gradient through them), AlltoAll and Barrier,
   compiled (``ms.jit``) in graph mode: what each returned goes to ``out_dir/comm<r>.npz`` for the test to
   check against NumPy (``data`` makes every rank's input); the time rank 0 waited in the world's Barrier for
   rank 3, which sleeps ``BARRIER_SLEEP`` seconds first, goes there too;
3. saves distributed checkpoints of a Megatron MLP trained under SEMI_AUTO_PARALLEL (``_dist_ckpt_worker.semi_auto``):
   4-way model parallel in ``out_dir/ckpt_mp4``, 2 x 2 with the parallel optimizer in ``out_dir/ckpt_opt``
   (``rank_<r>/net.ckpt`` per rank, the strategy file, rank 0's one-process ``standalone.ckpt``).

Prints ``OK <rank>`` at the end.
"""
import json
import pathlib
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import Tensor, ops
from mindspore.communication import (comm_func, create_group, get_group_rank_from_world_rank, get_group_size,
                                     get_process_group_ranks, get_rank, get_world_rank_from_group_rank, init)

PARALLEL_TESTS = pathlib.Path(__file__).resolve().parents[2] / "tests" / "parallel"
CONFIGS = ["redistribute", "mlp:1:4:semi", "mlp:2:2:semi", "transformer:2:2:semi", "embed:2:2:semi", "mlp:2:2:sp",
           "transformer:2:2:sp", "mlp:1:4:rp", "mlp:2:2:opt", "mlp:2:2:batch"]
GROUPS = {"cross": [1, 2], "corners": [3, 0]}   # each spans both nodes; "corners" lists its ranks out of order
BARRIER_SLEEP = 0.5


def data(r, shape, seed=0):
    """Rank ``r``'s test array: distinct per rank, exact in float32."""
    n = int(np.prod(shape))
    base = (np.arange(n) * 7 + seed * 3) % 11 - 5.0
    return (base * (r + 1) + 0.25 * r).reshape(shape).astype(np.float32)


def collectives(mode, rank):
    """Step 2: ``{name: array}`` of what this rank's collectives and point-to-point calls returned."""
    def run(fn, *args):
        return (ms.jit(fn) if mode == "graph" else fn)(*args).asnumpy()

    got = {}
    # the world: AlltoAll (rank r's (2, 12) input cut in 4 along axis 1, gathered along axis 0) and Barrier
    got["world_alltoall"] = run(lambda t: ops.AlltoAll(4, 1, 0)(t), Tensor(data(rank, (2, 12))))
    if rank == 3:
        time.sleep(BARRIER_SLEEP)
    start = time.monotonic()
    got["world_barrier"] = run(lambda: ops.Barrier()())
    got["barrier_wait"] = np.array(time.monotonic() - start)
    for name, ranks in GROUPS.items():
        create_group(name, ranks)
    for name, ranks in GROUPS.items():
        if rank not in ranks:
            continue
        me = ranks.index(rank)
        got[f"{name}_info"] = np.array([get_rank(name), get_group_size(name), get_world_rank_from_group_rank(name, 1),
                                        get_group_rank_from_world_rank(ranks[0], name)])
        assert get_process_group_ranks(name) == ranks, (name, get_process_group_ranks(name))
        x = Tensor(data(me, (4, 3)))
        got[f"{name}_allreduce"] = run(lambda t, g=name: ops.AllReduce("sum", g)(t), x)
        got[f"{name}_allgather"] = run(lambda t, g=name: ops.AllGather(g)(t), x)
        got[f"{name}_alltoall"] = run(lambda t, g=name: ops.AlltoAll(2, 1, 0, g)(t), Tensor(data(me, (2, 6))))
        got[f"{name}_broadcast"] = run(lambda t, g=name: ops.Broadcast(1, g)((t,))[0], x)
        got[f"{name}_barrier"] = run(lambda g=name: ops.Barrier(g)())
        # group rank 0 sends to group rank 1, which sends back twice the value
        if me == 0:
            def there_and_back(t, g=name):
                ops.Send(3, 1, g)(t)
                return ops.Receive(4, 1, (4, 3), ms.float32, g)()
            got[f"{name}_p2p"] = run(there_and_back, x)
        else:
            def back(t, g=name):
                r = ops.Receive(3, 0, (4, 3), ms.float32, g)()
                ops.Send(4, 0, g)(r * 2)
                return r
            got[f"{name}_p2p"] = run(back, x)
    # world ranks 1 (node 0) and 2 (node 1) swap a tensor: 1 sends first, 2 receives first
    if rank in (1, 2):
        peer = 3 - rank

        def swap(t):
            if rank == 1:
                ops.Send(5, peer)(t)
                return ops.Receive(6, peer, (3, 5), ms.float32)()
            r = ops.Receive(5, peer, (3, 5), ms.float32)()
            ops.Send(6, peer)(t)
            return r
        got["swap"] = run(swap, Tensor(data(rank, (3, 5), seed=1)))
    # a pipeline's boundary: rank 0 sends to rank 3, whose gradient comes back through Receive's bprop
    w = data(3, (3,), seed=6)
    if rank == 0:
        got["p2p_grad"] = run(ms.grad(lambda t: ops.Send(11, 3)(t).sum()), Tensor(data(0, (3,))))
    elif rank == 3:
        got["p2p_grad_recv"] = run(ms.grad(lambda d: (ops.Receive(11, 0, (3,), ms.float32)(d) * Tensor(w)).sum()),
                                   Tensor(np.zeros(3, np.float32)))
    if mode == "pynative":   # the functions of comm_func: send/recv and isend/irecv across the nodes
        if rank == 0:
            comm_func.send(Tensor(data(0, (6,), seed=2)), dst=2, tag=7)
        elif rank == 2:
            got["comm_func_recv"] = comm_func.recv(Tensor(np.zeros(6, np.float32)), src=0, tag=7).asnumpy()
        nxt, prv = (rank + 1) % 4, (rank - 1) % 4
        h_send = comm_func.isend(Tensor(data(rank, (5,), seed=3)), dst=nxt, tag=8)
        out, h_recv = comm_func.irecv(Tensor(np.zeros(5, np.float32)), src=prv, tag=8)
        h_recv.wait()
        h_send.wait()
        got["comm_func_ring"] = out.asnumpy()
    return got


def main():
    mode, out = sys.argv[1], pathlib.Path(sys.argv[2])
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    init()
    rank = get_rank()
    assert get_group_size() == 4, get_group_size()
    sys.path.insert(0, str(PARALLEL_TESTS))
    import _dist_ckpt_worker
    import _semi_auto_worker
    results = []
    for config in CONFIGS:
        if config == "redistribute":
            results.append({"case": config, "bad": _semi_auto_worker.check_redistribute()})
            continue
        case, dp, mp, level = config.split(":")
        results.append(_semi_auto_worker.run(case, int(dp), int(mp), 3, level))
    (out / f"rank{rank}.json").write_text(json.dumps(results))
    np.savez(out / f"comm{rank}.npz", **collectives(mode, rank))
    _dist_ckpt_worker.semi_auto(str(out / "ckpt_mp4"), rank, mp=4)
    _dist_ckpt_worker.semi_auto(str(out / "ckpt_opt"), rank, mp=2, dp=2, optimizer=True)
    print(f"OK {rank}", flush=True)


if __name__ == "__main__":
    main()
