"""Gradient all-reduces that overlap the backward pass on the GPU: NCCL started on the NCCL communicator's own stream
(``mindspore.communication._nccl.NCCLCommunicator.allreduce_start``), from the PYNATIVE reducer and from the
GRAPH_MODE pass of mindspore-parallel.

One process, on the CuPy stand-in (mindspore-gpu/tests/cupy_sim.py), in a group of 2 whose other rank holds the same
gradients: the NCCL library is a stand-in that sums the two ranks' buffers (twice this rank's) on the stream it is
given, so the tests check which stream each reduction runs on, what waits for what, and that the numbers are the
blocking path's. (Several GPUs are needed for the real thing.)
"""
import gc
import pathlib
import sys
import weakref

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation, nn
from mindspore.communication import _nccl
from mindspore.plugin import ProcessGroup, set_process_groups

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "mindspore-gpu" / "tests"))
import cupy_sim  # noqa: E402

GRAPH = cupy_sim.load_graph_modules()      # the kernels with the GPU backend's passes and CUDA-graph capture
cupy = GRAPH.cupy
TARGET = "GPUSIMO"
GROUP = "gpu_pair"


class FakeNcclLibrary:
    """What ``cupy.cuda.nccl`` offers that the communicator uses (its types and reduction ops)."""

    NCCL_FLOAT16, NCCL_FLOAT32, NCCL_FLOAT64, NCCL_INT32, NCCL_INT64, NCCL_UINT8 = range(6)
    NCCL_SUM, NCCL_PROD, NCCL_MAX, NCCL_MIN = range(4)


class FakeNcclComm:
    """A ``NcclCommunicator`` of rank 0 of 2 whose peer holds the same data: a sum gives twice the buffer."""

    def __init__(self):
        self.buffers = weakref.WeakValueDictionary()    # handle -> array (the communicator's own references only)
        self.calls = []   # (name, stream handle)

    def allReduce(self, send, recv, count, dtype, op, stream):  # noqa: N802 - NCCL's name
        assert op == FakeNcclLibrary.NCCL_SUM
        src, dst = self.buffers[send], self.buffers[recv]
        assert src.size == dst.size == count
        dst[...] = src * 2
        self.calls.append(("allReduce", stream))


class Nccl(_nccl.NCCLCommunicator):
    """The real communicator over the stand-in library; buffers are handed over by a handle instead of a pointer."""

    def _ptr(self, a):
        self.comm.buffers[id(a)] = a
        return id(a)


class Mpi:
    """The MPI communicator of the group: checks (counted) and the device side."""

    rank, size, label = 0, 2, "group gpu_pair"

    def __init__(self):
        self.checks = 0
        self.device = Nccl(FakeNcclComm(), self, FakeNcclLibrary, cupy)
        self.blocking = 0

    def check(self, name, arrays, extra=""):
        self.checks += 1

    def nccl(self):
        return self.device

    def allreduce_start(self, array, op="sum", name="AllReduce", check=True):
        raise AssertionError("host buffers are not expected here")

    def allreduce(self, array, op="sum", name="AllReduce"):
        self.blocking += 1
        return array * 2


@pytest.fixture
def mpi():
    comm = Mpi()
    set_process_groups([ProcessGroup(GROUP, 2, 0, comm)])
    yield comm
    set_process_groups([])
    cupy_sim.Stream.null.use()


def test_a_started_reduction_runs_on_its_own_stream_after_the_callers_work(mpi):
    nccl = mpi.device
    x = cupy.asarray(np.arange(6, dtype=np.float32))
    caller = cupy_sim.Stream(non_blocking=True)
    with caller:
        out, wait = nccl.allreduce_start(x, "sum")
        start = nccl._start_stream
        assert nccl.comm.calls == [("allReduce", start.ptr)] and start.ptr != caller.ptr
        assert start.waited[-1]._stream is caller, "the start stream waits for the work queued on the caller's stream"
        assert mpi.checks == 1
        src = weakref.ref(next(iter(nccl.comm.buffers.values())))
        del x
        gc.collect()
        assert src() is not None, "the sent buffer lives until the wait"
        result = wait()
        assert caller.waited[-1] is nccl._last_start, "the caller's stream waits for the reduction"
    gc.collect()
    assert src() is None
    np.testing.assert_array_equal(cupy_sim.asnumpy(result), 2 * np.arange(6, dtype=np.float32))
    _, wait = nccl.allreduce_start(cupy.asarray(np.ones(2, np.float32)), "sum", check=False)
    assert mpi.checks == 1, "check=False starts without the check across the ranks"
    other = cupy_sim.Stream(non_blocking=True)
    with other:
        nccl.allreduce(cupy.asarray(np.ones(2, np.float32)))
    assert other.waited[-1] is nccl._last_start, "a later collective of the communicator waits for the started ones"
    assert nccl.comm.calls[-1] == ("allReduce", other.ptr)
    wait()


def test_bool_buffers_reduce_as_int32_and_come_back_as_bool(mpi):
    out, wait = mpi.device.allreduce_start(cupy.asarray(np.array([True, False])), "sum")
    assert out.dtype == np.int32
    result = wait()
    assert result.dtype == np.bool_ and cupy_sim.asnumpy(result).tolist() == [True, False]


# -- the PYNATIVE reducer and the GRAPH_MODE pass on the GPU kernels -------------------------------------------
@pytest.fixture(scope="module")
def sim_target():
    from mindspore.parallel import _overlap
    from mindspore.plugin import hookimpl

    @hookimpl
    def ms_register_passes(registry):   # the GPU backend's passes, and mindspore-parallel's as the GPU target has it
        GRAPH.passes.register(registry, target=TARGET)
        registry.register("parallel_overlap_grad_allreduce", _overlap.overlap_grad_allreduce, target=TARGET,
                          priority=40)

    plugin = cupy_sim.make_plugin(TARGET, GRAPH.families, graph=GRAPH)
    plugin.ms_register_passes = ms_register_passes
    ms.plugin.register_plugin(plugin, TARGET.lower())
    yield TARGET
    ms.plugin.unregister_plugin(TARGET.lower())


@pytest.fixture
def on_sim(sim_target, mpi, monkeypatch):
    monkeypatch.setenv("MS_GPU_CAPTURE_GEMM", "0")    # (the capture GEMM calls libcublas, which the stand-in lacks)
    before = ms.get_context("device_target_requested")
    mode = ms.get_context("mode")
    ms.set_context(device_target=sim_target)
    yield mpi
    ms.set_context(mode=mode)
    ms.context.store("device_target", before)
    _generation.bump(plugins=False)


def _net():
    ms.set_seed(5)
    layers = [nn.Dense(8, 16, activation="relu"), nn.Dense(16, 16, activation="relu"), nn.Dense(16, 3)]
    net = nn.SequentialCell(layers)
    rng = np.random.default_rng(2)
    for p in net.trainable_params():
        p.set_data(ms.Tensor((rng.standard_normal(p.shape) * 0.3).astype(np.float32)))
    return net


def _data():
    rng = np.random.default_rng(4)
    return (ms.Tensor(rng.standard_normal((6, 8)).astype(np.float32)),
            ms.Tensor(rng.standard_normal((6, 3)).astype(np.float32)))


def _reduced_grads(overlap, monkeypatch):
    """The gradients of one backward pass after the reducer (mean over the 2 ranks, which hold the same data)."""
    if not overlap:
        monkeypatch.setenv("MS_DISABLE_GRAD_OVERLAP", "1")
    net = _net()
    weights = net.trainable_params()
    reducer = nn.DistributedGradReducer(weights, mean=True, degree=2, group=GROUP)
    grad_fn = ms.value_and_grad(lambda x, y: nn.MSELoss()(net(x), y), None, weights)
    with reducer.overlap():
        _, grads = grad_fn(*_data())
    grads = reducer(grads)
    monkeypatch.delenv("MS_DISABLE_GRAD_OVERLAP", raising=False)
    return [g.asnumpy() for g in grads], len(reducer.bucket_plan)


def test_pynative_buckets_start_on_the_nccl_stream_during_the_backward_pass(on_sim, monkeypatch):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    calls = on_sim.device.comm.calls
    plain, _ = _reduced_grads(False, monkeypatch)
    blocking = list(calls)
    assert blocking and all(stream != getattr(on_sim.device._start_stream, "ptr", None) for _, stream in blocking)
    del calls[:]
    started, buckets = _reduced_grads(True, monkeypatch)
    start = on_sim.device._start_stream
    assert start is not None and calls == [("allReduce", start.ptr)] * buckets, "every bucket started on the stream"
    assert len(started) == len(plain) == 6
    for a, b in zip(started, plain):
        np.testing.assert_array_equal(a, b)


def test_graph_mode_starts_each_bucket_on_the_nccl_stream_and_is_never_captured(on_sim, monkeypatch):
    ms.set_context(mode=ms.GRAPH_MODE)
    calls = on_sim.device.comm.calls
    net = _net()
    weights = net.trainable_params()
    reducer = nn.DistributedGradReducer(weights, mean=True, degree=2, group=GROUP)
    grad_fn = ms.value_and_grad(lambda x, y: nn.MSELoss()(net(x), y), None, weights)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        return loss, reducer(grads)

    x, y = _data()
    stats = dict(GRAPH.capture.STATS)
    for _ in range(3):
        _, grads = step(x, y)
    assert GRAPH.capture.STATS["captured"] == stats["captured"], "a graph with collectives is never captured"
    assert GRAPH.capture.STATS["refused"] > stats["refused"]
    start = on_sim.device._start_stream
    assert start is not None and calls and all(stream == start.ptr for _, stream in calls), \
        "the pass turned the bucket all-reduces into starts on the NCCL stream"
    monkeypatch.setenv("MS_DISABLE_GRAD_OVERLAP", "1")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    plain, _ = _reduced_grads(False, monkeypatch)
    for a, b in zip(grads, plain):
        np.testing.assert_allclose(a.asnumpy(), b, rtol=1e-6, atol=1e-7)
