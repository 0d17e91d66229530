"""The exchange primitives (AlltoAllV, AlltoAllVC, NeighborExchange, NeighborExchangeV2, BatchISendIRecv) and the
collective functions of ``mindspore.ops`` (in place and out of place): 2-rank MPI jobs in PYNATIVE and GRAPH_MODE
(``comm_ops_worker.py``), and in-process checks of the shape rules, errors and the one-process semantics."""
import os
import re
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, ops

sys.path.insert(0, os.path.dirname(__file__))
from _mpi_launch import run_ranks, skip_unless_mpi  # noqa: E402

WORKER = os.path.join(os.path.dirname(__file__), "comm_ops_worker.py")


@skip_unless_mpi
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_exchange_primitives_and_ops_functions_on_two_ranks(mode):
    out = run_ranks(WORKER, 2, timeout=120, args=(mode,))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-6000:]
    assert sorted(re.findall(r"OK (\d+)", out.stdout)) == ["0", "1"], out.stdout


def test_one_process_exchanges_are_local():
    x = Tensor(np.arange(6, dtype=np.float32))
    np.testing.assert_array_equal(ops.AlltoAllV(block_size=2)(x, [3], [3]).asnumpy(), np.arange(6))
    np.testing.assert_array_equal(ops.AlltoAllVC()(x, [6]).asnumpy(), np.arange(6))
    assert ops.AlltoAllV()(Tensor(np.zeros((0,), np.float32)), [0], [0]).shape == ()
    img = np.arange(24, dtype=np.float32).reshape(2, 1, 3, 4)
    # this process is its own top neighbour: its top row comes back as the bottom frame
    halo = ops.NeighborExchangeV2([0, -1, -1, -1, -1, -1, -1, -1], [1, 0, 0, 0], [-1, -1, -1, -1, 0, -1, -1, -1],
                                  [0, 1, 0, 0], "NCHW")
    out = halo(Tensor(img)).asnumpy()
    np.testing.assert_array_equal(out, np.concatenate([img, img[:, :, :1]], 2))
    grad = ms.grad(lambda t: (halo(t) * halo(t)).sum())(Tensor(img)).asnumpy()
    want = 2 * img
    want[:, :, 0] += 2 * img[:, :, 0]
    np.testing.assert_array_equal(grad, want)
    # left/right frames and a corner
    halo2 = ops.NeighborExchangeV2([-1, 0, -1, -1, -1, -1, -1, -1], [1, 0, 0, 2], [-1, -1, -1, -1, -1, 0, -1, -1],
                                   [0, 1, 2, 0], "NCHW")
    out2 = halo2(Tensor(img)).asnumpy()
    assert out2.shape == (2, 1, 4, 6)
    np.testing.assert_array_equal(out2[:, :, :3, 2:], img)
    np.testing.assert_array_equal(out2[:, :, 3:, :2], img[:, :, :1, 2:])   # the top-right corner, at bottom-left
    assert not out2[:, :, 3:, 2:].any() and not out2[:, :, :3, :2].any()
    res = ops.BatchISendIRecv(("isend", "irecv"), (0, 0), ([2],), (ms.float32,))((Tensor(np.ones(2, np.float32)),))
    assert res[0].shape == () and res[1].asnumpy().tolist() == [1.0, 1.0]


def test_exchange_argument_errors():
    with pytest.raises(ValueError, match=r"'send_rank_ids' must hold -1 or distinct ranks"):
        ops.NeighborExchangeV2([0, -1, -1, -1, 0, -1, -1, -1], [1, 1, 0, 0], [-1] * 8, [0, 0, 0, 0], "NCHW")
    with pytest.raises(ValueError, match=r"'data_format' must be 'NCHW'"):
        ops.NeighborExchangeV2([-1] * 8, [0] * 4, [-1] * 8, [0] * 4, "NHWC")
    with pytest.raises(TypeError, match=r"'send_lens' must be a list"):
        ops.NeighborExchangeV2([-1] * 8, (0, 0, 0, 0), [-1] * 8, [0] * 4, "NCHW")
    with pytest.raises(ValueError, match="length of op_types and remote_ranks must be the same"):
        ops.BatchISendIRecv(("isend",), (0, 0))
    with pytest.raises(ValueError, match=r"'rank_id in recv_rank_ids' must be in \[0, 1\), but got 1"):
        ops.NeighborExchange([0], [1], ([2],), ([2],), ms.float32)((Tensor(np.ones(2, np.float32)),))
    with pytest.raises(ValueError, match="must have as many elements as it sends, 4, but got 6"):
        ops.AlltoAllV()(Tensor(np.zeros(6, np.float32)), [4], [4])
    with pytest.raises(ValueError, match=r"'send_numel_list' must have 1 entries, but got 2"):
        ops.AlltoAllV()(Tensor(np.zeros(6, np.float32)), [4, 2], [4])


def test_ops_comm_functions_check_their_arguments_and_the_switch():
    with pytest.raises(TypeError, match="For all_reduce, the input tensor must be tensor"):
        ops.all_reduce(np.ones(2))
    with pytest.raises(TypeError, match="the input op value must be one of sum, prod, min, max, avg"):
        ops.all_reduce(Tensor(np.ones(2, np.float32)), op="mean")
    with pytest.raises(TypeError, match="the argument 'is_enable' must be type of bool"):
        ops.set_comm_ops_inplace(1)
    with pytest.raises(ValueError, match="The function name in `func_list` must be correct, but got nope."):
        ops.set_comm_ops_inplace(False, ["all_reduce", "nope"])
    ops.set_comm_ops_inplace(False, ["reduce"])
    try:
        with pytest.raises(ValueError, match="Non-inplace mode is currently not supported."):
            ops.reduce(Tensor(np.ones(2, np.float32)), 0)
    finally:
        ops.set_comm_ops_inplace(True)


def test_fused_matmul_collectives_in_one_process_and_their_checks():
    a = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = Tensor(np.linspace(-1, 1, 12).astype(np.float32).reshape(3, 4))
    out, gathered = ops.all_gather_matmul(a, b, "hccl_world_group", 1)
    np.testing.assert_allclose(out.asnumpy(), a.asnumpy() @ b.asnumpy(), rtol=1e-6)
    np.testing.assert_array_equal(gathered.asnumpy(), a.asnumpy())
    assert ops.all_gather_matmul(a, b, "hccl_world_group", 1, gather_output=False)[1].shape == (0,)
    grad = ms.grad(lambda x: ops.matmul_reduce_scatter(x, b, "hccl_world_group", 1).sum())(a)
    np.testing.assert_allclose(grad.asnumpy(), np.tile(b.asnumpy().sum(1), (2, 1)), rtol=1e-6)
    with pytest.raises(RuntimeError, match=r"the 'world_size' must be the size of the group 'hccl_world_group', 1, "
                                           r"but got 2"):
        ops.all_gather_matmul(a, b, "hccl_world_group", 2)
    with pytest.raises(RuntimeError, match=r"only bias=None is supported"):
        ops.matmul_reduce_scatter(a, b, "hccl_world_group", 1, bias=b)
    with pytest.raises(RuntimeError, match="the k axis of 'input'"):
        ops.all_gather_matmul(a, a, "hccl_world_group", 1)


def test_ops_comm_functions_are_mindspore_210s_names():
    import mindspore.ops.function.comm_func as comm_func
    names = {"all_gather", "all_gather_into_tensor", "all_gather_into_tensor_uneven", "all_gather_object",
             "all_reduce", "all_to_all", "all_to_all_single", "all_to_all_v_c", "barrier", "batch_isend_irecv",
             "broadcast", "broadcast_object_list", "destroy_process_group", "gather_into_tensor", "gather_object",
             "get_backend", "get_global_rank", "get_group_rank", "get_process_group_ranks", "get_rank",
             "get_world_size", "init_process_group", "irecv", "is_available", "is_initialized", "isend", "new_group",
             "recv", "recv_object_list", "reduce", "reduce_scatter", "reduce_scatter_tensor",
             "reduce_scatter_tensor_uneven", "scatter_object_list", "scatter_tensor", "send", "send_object_list",
             "set_comm_ops_inplace", "all_gather_matmul", "matmul_reduce_scatter"}
    for name in names:
        assert getattr(ops, name) is getattr(comm_func, name), name
    # ops.gather and ops.scatter stay the array ops; comm_func's are the collectives, as in 2.10
    assert ops.gather is not getattr(comm_func, "gather", None)
    assert comm_func.gather is ms.mint.distributed.gather and comm_func.scatter is ms.mint.distributed.scatter
