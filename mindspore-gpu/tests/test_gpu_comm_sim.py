"""The GPU collective kernels (``mindspore_gpu/kernels/comm.py``) on the CuPy stand-in, with the communicators a
group of 2 would have: device buffers go to the NCCL communicator and stay device arrays; without NCCL they go
through host memory over MPI, with one warning. (NCCL itself needs GPUs: ``mindspore.communication._nccl``.)
"""
import pathlib
import sys
import warnings

import numpy as np
import pytest

from mindspore import ops
from mindspore.plugin import ProcessGroup, set_process_groups

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402

LOADED = cupy_sim.load_kernel_families()
comm = LOADED.modules["comm"]
cupy = LOADED.cupy


class Host:
    """An MPI-like communicator of rank 0 in a group of 2 whose peer holds the same data (host arrays only)."""

    def __init__(self, device=None):
        self.calls = []
        self._device = device

    def nccl(self):
        return self._device

    def allreduce(self, x, op="sum", name="AllReduce"):
        assert type(x) is np.ndarray, "the MPI path gets host arrays"
        self.calls.append(name)
        return x * 2

    def all_gather(self, x, name="AllGather"):
        assert type(x) is np.ndarray
        self.calls.append(name)
        return np.concatenate([x, x])

    def barrier(self):
        self.calls.append("Barrier")


class Device(Host):
    """A NCCL-like communicator: device arrays in and out."""

    def allreduce(self, x, op="sum", name="AllReduce"):
        assert isinstance(x, cupy.ndarray), "the NCCL path gets device arrays"
        self.calls.append(name)
        return x * 2

    def all_gather(self, x, name="AllGather"):
        assert isinstance(x, cupy.ndarray)
        self.calls.append(name)
        return cupy.concatenate([x, x])


@pytest.fixture
def group():
    def install(communicator):
        set_process_groups([ProcessGroup("hccl_world_group", 2, 0, communicator)])
        comm._WARNED.clear()
        return communicator
    yield install
    set_process_groups([])


def test_device_buffers_go_through_nccl(group):
    device = Device()
    host = group(Host(device))
    x = cupy.asarray(np.ones((2, 3), np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # no fallback warning
        reduced = comm.KERNELS["AllReduce"](ops.AllReduce(), x, out=None)
        gathered = comm.KERNELS["AllGather"](ops.AllGather(), x, out=None)
    assert isinstance(reduced, cupy.ndarray) and isinstance(gathered, cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(reduced), np.full((2, 3), 2.0))
    assert gathered.shape == (4, 3)
    assert device.calls == ["AllReduce", "AllGather"] and host.calls == []


def test_without_nccl_host_copies_over_mpi_with_one_warning(group):
    host = group(Host(device=None))
    x = cupy.asarray(np.ones(3, np.float32))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = comm.KERNELS["AllReduce"](ops.AllReduce(), x, out=None)
        comm.KERNELS["AllGather"](ops.AllGather(), x, out=None)
    assert isinstance(first, cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(first), [2, 2, 2])
    assert sum("NCCL is unavailable" in str(w.message) for w in caught) == 1
    assert host.calls == ["AllReduce", "AllGather"]


def test_send_to_oneself_in_a_group_of_one():
    from mindspore import float32
    from mindspore.plugin import TensorSpec
    x = cupy.asarray(np.arange(3, dtype=np.float32))
    comm.KERNELS["Send"](ops.Send(1, 0), x, out=None)
    got = comm.KERNELS["Receive"](ops.Receive(1, 0, (3,), float32), out=TensorSpec((3,), float32))
    np.testing.assert_array_equal(cupy.asnumpy(got), [0, 1, 2])
    with pytest.raises(RuntimeError, match=r"For 'Receive', nothing was sent with tag 1"):
        comm.KERNELS["Receive"](ops.Receive(1, 0, (3,), float32), out=TensorSpec((3,), float32))
