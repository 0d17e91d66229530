"""One rank of ``test_mint_distributed.py``: ``mpiexec -n 2 python test_mint_dist_worker.py``.

Runs every ``mindspore.mint.distributed`` function on 2 ranks and checks the results in place; prints
``OK <rank>`` at the end. (Only the ``__main__`` block does anything, so pytest can import it harmlessly.)
"""
import numpy as np


def main():
    import mindspore as ms
    from mindspore.mint import distributed as dist

    def t(a, dtype=np.float32):
        return ms.Tensor(np.asarray(a, dtype))

    def eq(got, want, what):
        np.testing.assert_allclose(got.asnumpy(), np.asarray(want), rtol=1e-6, err_msg=f"{what} on rank {rank}")

    assert dist.is_available() and not dist.is_initialized()
    dist.init_process_group()
    assert dist.is_initialized()
    rank, size = dist.get_rank(), dist.get_world_size()
    assert size == 2 and dist.get_backend() == "mccl"
    other = 1 - rank

    x = t([1.0, 2.0]) * (rank + 1)
    assert dist.all_reduce(x) is None
    eq(x, [3.0, 6.0], "all_reduce")
    x = t([1.0, 2.0]) * (rank + 1)
    handle = dist.all_reduce(x, op="max", async_op=True)
    handle.wait()
    eq(x, [2.0, 4.0], "all_reduce max")

    outs = [t([0.0, 0.0]), t([0.0, 0.0])]
    dist.all_gather(outs, t([rank, 10 + rank]))
    eq(outs[0], [0, 10], "all_gather 0")
    eq(outs[1], [1, 11], "all_gather 1")
    out = t(np.zeros((4,)))
    dist.all_gather_into_tensor(out, t([rank, rank]))
    eq(out, [0, 0, 1, 1], "all_gather_into_tensor")
    out = t(np.zeros((3,)))
    dist.all_gather_into_tensor_uneven(out, t([5.0] * (rank + 1)), output_split_sizes=[1, 2])
    eq(out, [5, 5, 5], "all_gather_into_tensor_uneven")

    out = t([0.0])
    dist.reduce_scatter_tensor(out, t([1.0, 2.0]) * (rank + 1))
    eq(out, [3.0 * (rank + 1)], "reduce_scatter_tensor")
    out = t([0.0])
    dist.reduce_scatter(out, [t([1.0]), t([2.0])])
    eq(out, [2.0 * (rank + 1)], "reduce_scatter")
    out = t(np.zeros((2 - rank,)))
    dist.reduce_scatter_tensor_uneven(out, t([1.0, 2.0, 3.0]), input_split_sizes=[2, 1])
    eq(out, [2.0, 4.0] if rank == 0 else [6.0], "reduce_scatter_tensor_uneven")

    b = t([rank + 7.0])
    dist.broadcast(b, 1)
    eq(b, [8.0], "broadcast")
    r = t([rank + 1.0])
    dist.reduce(r, 0)
    eq(r, [3.0] if rank == 0 else [2.0], "reduce")
    gl = [t([0.0]), t([0.0])]
    dist.gather(t([rank * 3.0]), gl, dst=0)
    if rank == 0:
        eq(gl[0], [0.0], "gather 0")
        eq(gl[1], [3.0], "gather 1")
    s = t([0.0, 0.0])
    dist.scatter(s, [t([1.0, 1.0]), t([2.0, 2.0])] if rank == 1 else None, src=1)
    eq(s, [rank + 1.0] * 2, "scatter")
    outs = [t([0.0]), t([0.0])]
    dist.all_to_all(outs, [t([10.0 * rank]), t([10.0 * rank + 1])])
    eq(outs[0], [rank], "all_to_all 0")
    eq(outs[1], [10.0 + rank], "all_to_all 1")
    out = t(np.zeros((2,)))
    dist.all_to_all_single(out, t([10.0 * rank, 10.0 * rank + 1]))
    eq(out, [rank, 10.0 + rank], "all_to_all_single")
    dist.barrier()

    if rank == 0:
        dist.send(t([42.0]), 1)
    else:
        got = t([0.0])
        assert dist.recv(got, 0) == 0
        eq(got, [42.0], "send/recv")
    got = t([0.0])
    ops = [dist.P2POp(dist.isend, t([100.0 + rank]), other), dist.P2POp("irecv", got, other)]
    for h in dist.batch_isend_irecv(ops):
        h.wait()
    eq(got, [100.0 + other], "batch_isend_irecv")
    got = t([0.0])
    send_h = dist.isend(t([7.0 * (rank + 1)]), other, tag=3)
    recv_h = dist.irecv(got, other, tag=3)
    send_h.wait()
    recv_h.wait()
    eq(got, [7.0 * (other + 1)], "isend/irecv")

    group = dist.new_group([0, 1])
    assert dist.get_process_group_ranks(group) == [0, 1]
    assert dist.get_global_rank(group, 1) == 1 and dist.get_group_rank(group, 0) == 0
    g = t([1.0])
    dist.all_reduce(g, group=group)
    eq(g, [2.0], "all_reduce on a new group")

    objs = [None, None]
    dist.all_gather_object(objs, {"rank": rank})
    assert objs == [{"rank": 0}, {"rank": 1}], objs
    items = ["a", rank] if rank == 0 else [None, None]
    dist.broadcast_object_list(items, src=0)
    assert items == ["a", 0], items
    gathered = [None, None] if rank == 0 else None
    dist.gather_object(("x", rank), gathered, dst=0)
    assert rank != 0 or gathered == [("x", 0), ("x", 1)], gathered
    mine = [None]
    dist.scatter_object_list(mine, [{"to": 0}, {"to": 1}] if rank == 0 else None, src=0)
    assert mine == [{"to": rank}], mine
    if rank == 0:
        dist.send_object_list([1, "two", {3: 4}], dst=1)
    else:
        box = [None, None, None]
        dist.recv_object_list(box, src=0)
        assert box == [1, "two", {3: 4}], box

    from mindspore import mint
    full = np.arange(2 * 2 * 3 * 4, dtype=np.float32).reshape(4, 3, 2, 2) % 7
    bn = mint.nn.SyncBatchNorm(3, momentum=1.0)
    bn.set_train(True)
    out = bn(t(full[2 * rank:2 * rank + 2]))
    mean, var = full.mean((0, 2, 3)), full.var((0, 2, 3))
    want = (full - mean.reshape(1, 3, 1, 1)) / np.sqrt(var.reshape(1, 3, 1, 1) + 1e-5)
    np.testing.assert_allclose(out.asnumpy(), want[2 * rank:2 * rank + 2], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn.running_mean.asnumpy(), mean, rtol=1e-5)
    np.testing.assert_allclose(bn.running_var.asnumpy(), var * 16 / 15, rtol=1e-5)

    dist.destroy_process_group()
    assert not dist.is_initialized()
    print(f"OK {rank}", flush=True)


if __name__ == "__main__":
    main()
