"""The GPU kernels of the exchange primitives (AlltoAllV/VC, NeighborExchange(V2), BatchISendIRecv) on the CuPy
stand-in: in a group of one they match their messages locally and stay device arrays; in a group of 2 they hand
host copies to the communicator's ``exchange`` (MPI) and put what comes back on the device where the plan says."""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops
from mindspore.plugin import ProcessGroup, set_process_groups

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402

LOADED = cupy_sim.load_kernel_families()
comm = LOADED.modules["comm"]
cupy = LOADED.cupy


class Host:
    """Rank 0 of 2: records the messages; each received array is filled with 100 + its tag."""

    def __init__(self):
        self.sent, self.wanted = [], []

    def nccl(self):
        return None

    def exchange(self, sends, recvs, name="Exchange"):
        assert all(type(a) is np.ndarray for a, _, _ in sends), "the MPI path gets host arrays"
        self.sent += [(a.copy(), peer, tag) for a, peer, tag in sends]
        self.wanted += list(recvs)
        return [np.full(shape, 100 + tag, dtype) for shape, dtype, _, tag in recvs]


@pytest.fixture
def two_ranks():
    host = Host()
    set_process_groups([ProcessGroup("hccl_world_group", 2, 0, host)])
    yield host
    set_process_groups([])


def test_group_of_one_is_local_and_on_the_device():
    x = cupy.asarray(np.arange(6, dtype=np.float32))
    got = comm.KERNELS["AlltoAllV"](ops.AlltoAllV(block_size=3), x, [2], [2], out=None)
    assert isinstance(got, cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(got), np.arange(6))
    img = np.arange(24, dtype=np.float32).reshape(2, 1, 3, 4)
    prim = ops.NeighborExchangeV2([0, -1, -1, -1, -1, -1, -1, -1], [1, 0, 0, 0], [-1, -1, -1, -1, 0, -1, -1, -1],
                                  [0, 1, 0, 0], "NCHW")
    out = comm.KERNELS["NeighborExchangeV2"](prim, cupy.asarray(img), out=None)
    np.testing.assert_array_equal(cupy.asnumpy(out), np.concatenate([img, img[:, :, :1]], 2))
    with pytest.raises(RuntimeError, match="receives from itself more than it sends itself"):
        comm.KERNELS["BatchISendIRecv"](ops.BatchISendIRecv(("irecv",), (0,), ([2],), (ms.float32,)), (), out=None)


def test_two_ranks_go_through_the_host_exchange(two_ranks):
    x = cupy.asarray(np.arange(5, dtype=np.float32))
    got = comm.KERNELS["AlltoAllV"](ops.AlltoAllV(), x, [2, 3], [1, 4], out=None)
    assert isinstance(got, cupy.ndarray) and got.shape == (5,)
    assert [(a.tolist(), p) for a, p, _ in two_ranks.sent] == [([0.0, 1.0], 0), ([2.0, 3.0, 4.0], 1)]
    assert [(s, p) for s, _, p, _ in two_ranks.wanted] == [((1,), 0), ((4,), 1)]
    # the halo: rank 0 with a neighbour below (rank 1), 1 row each way
    two_ranks.sent.clear()
    prim = ops.NeighborExchangeV2([-1, -1, -1, -1, 1, -1, -1, -1], [0, 1, 0, 0], [-1, -1, -1, -1, 1, -1, -1, -1],
                                  [0, 1, 0, 0], "NCHW")
    img = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4)
    out = cupy.asnumpy(comm.KERNELS["NeighborExchangeV2"](prim, cupy.asarray(img), out=None))
    (piece, peer, tag), = two_ranks.sent
    np.testing.assert_array_equal(piece, img[:, :, -1:])
    assert peer == 1
    np.testing.assert_array_equal(out[:, :, :3], img)
    # what came from below was sent upwards by the neighbour (direction 0): tag offset 0
    np.testing.assert_array_equal(out[:, :, 3:], np.full((1, 1, 1, 4), 100 + tag - 4, np.float32))
