"""Collective primitives and ``comm_func``: real MPI jobs of 2 and 4 ranks, and in-process checks of what the GRAPH_MODE
compiler must do with collectives (keep every one, in order, at every run), their shape rules and group errors.

The multi-process checks run ``collectives_worker.py`` under ``mpiexec`` (see its docstring): values and gradients
against NumPy on the world group and a ``create_group`` subgroup, in PYNATIVE and GRAPH_MODE, and mismatches that
must be the same clear error on every rank. The in-process checks install a recording communicator as a group of 2
through ``mindspore.plugin.set_process_groups``, which is exactly what the kernels see after ``init()``.
"""
import os
import re
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, ops
from mindspore.plugin import ProcessGroup, set_process_groups

sys.path.insert(0, os.path.dirname(__file__))
from _mpi_launch import run_ranks, skip_unless_mpi  # noqa: E402

WORKER = __file__.replace("test_collectives.py", "collectives_worker.py")


def _job(n, mode, what, timeout=90):
    out = run_ranks(WORKER, n, timeout=timeout, args=(mode, what))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-6000:]
    assert sorted(re.findall(r"OK (\d+)", out.stdout)) == [str(r) for r in range(n)], out.stdout
    return out.stdout


@skip_unless_mpi
@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_collectives_match_numpy(n, mode):
    _job(n, mode, "values")


@skip_unless_mpi
@pytest.mark.parametrize("n,mode", [(2, "pynative"), (2, "graph"), (4, "pynative")])
def test_mismatches_are_the_same_clear_error_on_every_rank(n, mode):
    stdout = _job(n, mode, "errors")
    errors = {}
    for rank, kind, message in re.findall(r"ERR (\d+) (\w+): (.*)", stdout):
        errors.setdefault(kind, {})[int(rank)] = message
    everyone = set(range(n))
    assert set(errors["shape"]) == everyone
    assert len(set(errors["shape"].values())) == 1, "every rank must give the same message"
    assert re.search(r"For 'AllReduce', the 'x' shape and dtype must be the same on every rank of the world group, "
                     r"but got shape \(2,\) dtype float32 on rank 0 and shape \(3,\) dtype float32 on rank 1\.",
                     errors["shape"][0])
    assert set(errors["dtype"]) == everyone and "dtype float64 on rank 0" in errors["dtype"][1]
    assert set(errors["op"]) == everyone and "'op=sum' on rank 0 and 'op=max' on rank 1" in errors["op"][0]
    assert set(errors["collective"]) == everyone
    assert "rank 0 called 'AllReduce' and rank 1 called 'AllGather'" in errors["collective"][n - 1]
    assert set(errors["root"]) == everyone and "'root=0' on rank 0 and 'root=1' on rank 1" in errors["root"][0]
    assert set(errors["v_length"]) == everyone
    assert "but rank 1 passed 3 elements instead of 2" in errors["v_length"][0]
    if n == 2:
        assert set(errors["membership"]) == everyone and "group 'not_created' does not exist" in errors["membership"][0]
    else:
        assert set(errors["membership"]) == {2, 3}
        assert "not a member of the group 'first_two'" in errors["membership"][3]
    assert set(errors["p2p"]) == {0}
    assert "expects, shape (2,) dtype float32, but the sender sent shape (3,) dtype float32" in errors["p2p"][0]


# --- in process: a recording communicator as a group of two ----------------------------------------------
class Recorder:
    """A communicator for rank 0 of a group of 2 whose peer holds the same data: records every call."""

    def __init__(self):
        self.calls = []

    def allreduce(self, x, op="sum", name="AllReduce"):
        self.calls.append(name)
        return x * 2 if op == "sum" else x.copy()

    def all_gather(self, x, name="AllGather"):
        self.calls.append(name)
        return np.concatenate([x, x])

    def reduce_scatter(self, x, op="sum", name="ReduceScatter"):
        self.calls.append(name)
        return x[: x.shape[0] // 2] * 2

    def barrier(self):
        self.calls.append("Barrier")


@pytest.fixture
def pair():
    rec = Recorder()
    set_process_groups([ProcessGroup(n, 2, 0, rec) for n in ("hccl_world_group", "nccl_world_group")]
                       + [ProcessGroup("others", 2, -1, None)])
    yield rec
    set_process_groups([])


def test_shape_rules_read_the_group_size(pair):
    x = Tensor(np.ones((4, 3), np.float32))
    assert ops.AllGather()(x).shape == (8, 3)
    assert ops.ReduceScatter()(x).shape == (2, 3)
    with pytest.raises(ValueError, match=r"For 'ReduceScatter', the first dimension of 'x' must be divisible by the "
                                         r"group size 2, but got shape \(3, 3\)"):
        ops.ReduceScatter()(Tensor(np.ones((3, 3), np.float32)))
    with pytest.raises(ValueError, match=r"For 'AlltoAll', the 'split_count' must be equal to the group size 2, "
                                         r"but got 3"):
        ops.AlltoAll(3, 0, 0)(x)
    with pytest.raises(ValueError, match=r"For 'Broadcast', the 'root_rank' must be a rank of the group, in \[0, 2\), "
                                         r"but got 2"):
        ops.Broadcast(2)((x,))


@pytest.mark.parametrize("jit", [False, True])
def test_group_errors_before_any_data_moves(pair, jit):
    x = Tensor(np.ones(2, np.float32))
    for group, message in (("others", r"this process is not a member of the group 'others'"),
                           ("nowhere", r"the group 'nowhere' does not exist; create it with "
                                       r"mindspore\.communication\.create_group\(\) first")):
        fn = (lambda t, g=group: ops.AllReduce("sum", g)(t))
        with pytest.raises(ValueError, match=f"For 'AllReduce', {message}"):
            (ms.jit(fn) if jit else fn)(x)
    assert pair.calls == []


def test_graph_mode_keeps_every_collective_in_program_order(pair):
    x = Tensor(np.arange(4, dtype=np.float32).reshape(4, 1))

    @ms.jit
    def step(t):
        a = ops.AllReduce()(t)
        b = ops.AllReduce()(t)            # the same op on the same input: CSE must not merge it
        ops.AllGather()(t)                # unused: DCE must not drop it
        ops.Barrier()()                   # no data at all
        c = ops.ReduceScatter()(t)
        return a + b, c

    ab, c = step(x)
    np.testing.assert_array_equal(ab.asnumpy(), 4 * x.asnumpy())
    np.testing.assert_array_equal(c.asnumpy(), 2 * x.asnumpy()[:2])
    assert pair.calls == ["AllReduce", "AllReduce", "AllGather", "Barrier", "ReduceScatter"]
    step(x)                               # a cached graph communicates again, the same way
    assert pair.calls == ["AllReduce", "AllReduce", "AllGather", "Barrier", "ReduceScatter"] * 2


def test_graph_mode_never_folds_a_collective_on_constants(pair):
    const = Tensor(np.ones(3, np.float32))

    @ms.jit
    def f():
        return ops.AllReduce()(const) + 1

    np.testing.assert_array_equal(f().asnumpy(), [3, 3, 3])
    np.testing.assert_array_equal(f().asnumpy(), [3, 3, 3])
    assert pair.calls == ["AllReduce", "AllReduce"]


def test_graph_mode_gradient_communicates_in_the_backward_pass(pair):
    x = Tensor(np.ones((2, 2), np.float32))
    grad = ms.jit(ms.grad(lambda t: (ops.AllGather()(t) * 3).sum()))(x)
    np.testing.assert_array_equal(grad.asnumpy(), np.full((2, 2), 6.0))   # ReduceScatter(sum) of the 3s
    assert pair.calls == ["AllGather", "ReduceScatter"]


def test_a_cell_construct_keeps_its_collectives(pair):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.reduce = ops.AllReduce()
            self.barrier = ops.Barrier()

        def construct(self, t):
            self.barrier()
            return self.reduce(t) + self.reduce(t)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = Net()(Tensor(np.ones(2, np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(out.asnumpy(), [4, 4])
    assert pair.calls == ["Barrier", "AllReduce", "AllReduce"]


# --- single process ------------------------------------------------------------------------------------
def test_every_collective_is_a_primitive_of_ops_and_operations():
    from mindspore.ops import operations
    from mindspore.ops._defs import debug
    from mindspore.ops.operations import comm_ops
    for name in ("AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AlltoAll", "Send", "Receive", "Barrier",
                 "Reduce", "CollectiveGather", "CollectiveScatter", "AllGatherV", "ReduceScatterV"):
        assert getattr(ops, name) is getattr(operations, name) is getattr(comm_ops, name)
        assert getattr(ops, name).side_effect is True, name
    assert debug.AllReduce is ops.AllReduce and debug.ReduceOp is ops.ReduceOp     # the old import path
    assert (ops.ReduceOp.SUM, ops.ReduceOp.MAX, ops.ReduceOp.MIN, ops.ReduceOp.PROD) == ("sum", "max", "min", "prod")


def test_comm_func_names_and_returns_as_mindspore():
    from mindspore.communication import comm_func
    assert comm_func.__all__ == ["all_reduce", "all_gather_into_tensor", "all_to_all_with_output_shape",
                                 "all_to_all_single_with_output_shape", "barrier", "broadcast", "gather_into_tensor",
                                 "isend", "irecv", "reduce_scatter_tensor", "reduce", "scatter_tensor", "send",
                                 "recv", "P2POp", "batch_isend_irecv", "all_to_all_v_c"]
    x = Tensor(np.arange(4, dtype=np.float32))
    out, handle = comm_func.all_reduce(x)
    assert handle is None
    np.testing.assert_array_equal(out.asnumpy(), x.asnumpy())
    out, handle = comm_func.all_gather_into_tensor(x, async_op=True)
    assert isinstance(handle, comm_func.CommHandle)
    handle.wait()
    np.testing.assert_array_equal(comm_func.broadcast(x, 0).asnumpy(), x.asnumpy())
    assert comm_func.barrier() is None
    with pytest.raises(TypeError, match="For all_reduce, the input tensor must be tensor"):
        comm_func.all_reduce(np.ones(2))
    with pytest.raises(TypeError, match="For all_reduce, the input op value must be one of sum, prod, min, max"):
        comm_func.all_reduce(x, "mean")
    with pytest.raises(TypeError, match="For broadcast, the src must be int"):
        comm_func.broadcast(x, "0")


def test_nccl_is_optional():
    from mindspore.communication import _nccl
    try:
        import cupy  # noqa: F401
    except ImportError:
        assert _nccl.nccl_module() is None


@pytest.mark.parametrize("uid", [bytes(range(128)), tuple(range(-64, 64))], ids=["cupy14-bytes", "older-tuple"])
def test_the_nccl_id_reaches_every_rank_as_cupy_made_it(monkeypatch, uid):
    """CuPy 14's ``get_unique_id`` returns 128 bytes (earlier CuPy a tuple of ints): whatever it is goes unchanged
    from rank 0 to ``NcclCommunicator`` (converting it broke on the H200: int() of a bytes object)."""
    pytest.importorskip("mpi4py")
    import types

    from mpi4py import MPI

    from mindspore.communication import _mpi, _nccl
    made = []
    fake = types.SimpleNamespace(get_unique_id=lambda: uid,
                                 NcclCommunicator=lambda size, commid, rank: made.append((size, commid, rank)) or "c")
    monkeypatch.setattr(_nccl, "nccl_module", lambda: fake)
    monkeypatch.setitem(sys.modules, "cupy", sys.modules.get("cupy") or types.ModuleType("cupy"))
    comm = _nccl.NCCLCommunicator.create(_mpi.MPICommunicator(MPI.COMM_SELF))
    assert made == [(1, uid, 0)] and comm.comm == "c" and comm.size == 1


def test_output_buffers_are_reused_only_when_nothing_refers_to_them():
    from mindspore.communication._mpi import _BufferPool
    pool = _BufferPool()
    first = pool.empty((1 << 15,), np.float32)          # 128 KiB: pooled
    view = first[10:]
    del first
    second = pool.empty((1 << 15,), np.float32)
    assert not np.shares_memory(second, view), "a view still sees the first buffer"
    base = second.__array_interface__["data"][0]
    del second
    assert pool.empty((1 << 15,), np.float32).__array_interface__["data"][0] == base
    small = pool.empty((4,), np.float32)
    assert pool.empty((4,), np.float32) is not small    # small outputs are not pooled
