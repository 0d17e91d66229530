"""The GPU runtime's memory statistics, streams and events (``mindspore.runtime``).

They run on the NumPy stand-in for CuPy (``cupy_sim.py``: its memory pool, streams and events behave like
CuPy 14's), which checks how the runtime maps ``mindspore.runtime`` onto CuPy. The same on a real device is
checked by the ``needs_gpu`` tests of ``test_gpu_plugin.py`` (which ``tests/gpu/run.sh`` runs).
"""
import gc
import pathlib
import sys
import time
import types

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation
from mindspore.plugin import PLUGIN_API_VERSION, BackendProbe, hookimpl

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cupy_sim  # noqa: E402

SIM = cupy_sim.load_runtime()          # mindspore_gpu.runtime on the stand-in
POOL = cupy_sim.get_default_memory_pool()
MiB = 1 << 20


@pytest.fixture
def rt():
    """A GPU runtime on the stand-in, with the pool's cache emptied, no limit and the peaks restarted (and earlier
    tests' garbage collected, so that no block comes back to the pool in the middle of a test)."""
    for _ in range(3):    # (a collection can run finalizers whose objects the next one frees)
        gc.collect()
    POOL.set_limit(size=0)
    POOL.free_all_blocks()
    runtime = SIM.GPURuntime(device_id=0)
    runtime.reset_peak_memory_stats()
    yield runtime
    POOL.set_limit(size=0)
    cupy_sim.Stream.null.use()


# -- memory, on the stand-in ------------------------------------------------------------------------------
def test_memory_counts_follow_the_pool(rt):
    before = rt.memory_stats()
    assert set(before) == {"allocated", "reserved", "peak_allocated", "peak_reserved"}
    a = rt.from_host(np.ones((1000,), np.float32))          # 4000 bytes: one 4096-byte block (512-byte units)
    assert isinstance(a, cupy_sim.DeviceArray)
    s = rt.memory_stats()
    assert s["allocated"] == before["allocated"] + 4096 == POOL.used_bytes()
    assert s["reserved"] == POOL.total_bytes() >= s["allocated"]
    assert s["peak_allocated"] >= s["allocated"]
    del a
    gc.collect()
    s2 = rt.memory_stats()
    assert s2["allocated"] == before["allocated"]                  # back to the pool...
    assert s2["reserved"] == s["reserved"]                         # ...which keeps the block cached
    assert s2["peak_allocated"] == s["allocated"]                  # the peak was sampled by the query
    rt.empty_cache()                                               # free_all_blocks
    s3 = rt.memory_stats()
    assert s3["reserved"] == POOL.total_bytes() == s3["allocated"]
    assert s3["peak_reserved"] == s["reserved"]                    # sampled before the cache was freed


def test_peaks_are_sampled_at_synchronisations_and_copies_to_host(rt):
    base = rt.memory_stats()["allocated"]
    a = rt.from_host(np.zeros(MiB, np.uint8))
    b = rt.copy(a)                                                 # two MiB live
    rt.synchronize()                                               # a sampling point
    del a, b
    gc.collect()
    assert rt.memory_stats()["peak_allocated"] >= base + 2 * MiB
    rt.reset_peak_memory_stats(allocated=True, reserved=False)
    s = rt.memory_stats()
    assert s["peak_allocated"] == s["allocated"] == base
    assert s["peak_reserved"] >= base + 2 * MiB                    # not reset
    b = rt.from_host(np.zeros(3 * MiB, np.uint8))
    host = rt.to_host(b)                                           # also a sampling point
    del b
    gc.collect()
    assert host.nbytes == 3 * MiB and rt.memory_stats()["peak_allocated"] >= base + 3 * MiB
    rt.reset_peak_memory_stats()
    s = rt.memory_stats()
    assert (s["peak_allocated"], s["peak_reserved"]) == (s["allocated"], s["reserved"])


def test_peaks_belong_to_the_device_not_the_runtime_object(rt):
    a = rt.from_host(np.zeros(MiB, np.uint8))
    rt.synchronize()
    other = SIM.GPURuntime(device_id=0)                            # a new runtime after set_context(...)
    assert other.memory_stats()["peak_allocated"] >= MiB
    del a


def test_memory_limit_is_the_pools(rt):
    rt.set_memory_limit(8 * MiB)
    assert POOL.get_limit() == 8 * MiB and rt.memory_limit == 8 * MiB
    keep = rt.from_host(np.zeros(4 * MiB, np.uint8))
    with pytest.raises(MemoryError, match="limit set to: 8,388,608 bytes"):
        rt.from_host(np.zeros(5 * MiB, np.uint8))
    del keep


def test_device_id_is_checked():
    with pytest.raises(ValueError, match=r"must be in \[0, 1\)"):
        SIM.GPURuntime(device_id=1)


# -- streams and events, on the stand-in --------------------------------------------------------------------
def test_streams_are_cupy_streams(rt):
    cuda = SIM.cupy.cuda
    assert rt.default_stream() is cuda.Stream.null
    assert rt.current_stream() == cuda.Stream.null
    s = rt.new_stream(priority=-1)
    assert isinstance(s, cuda.Stream) and s.is_non_blocking and s.priority == -1
    assert s != cuda.Stream.null
    rt.set_current_stream(s)
    assert cuda.get_current_stream() is s and rt.current_stream() is s
    rt.set_current_stream(rt.default_stream())
    assert rt.current_stream() is cuda.Stream.null
    comm = rt.communication_stream()
    assert comm is rt.communication_stream() is SIM.GPURuntime(0).communication_stream()
    assert comm.is_non_blocking and comm != rt.default_stream()


def test_stream_query_and_synchronize(rt):
    s = rt.new_stream()
    assert rt.query_stream(s)
    s._launch()                                                    # a kernel still running
    assert not rt.query_stream(s)
    rt.synchronize_stream(s)
    assert rt.query_stream(s)
    s._launch(2)
    rt.synchronize()                                               # the device: every stream
    assert rt.query_stream(s)


def test_events_record_wait_and_time(rt):
    s1, s2 = rt.new_stream(), rt.new_stream()
    start, end = rt.new_event(enable_timing=True), rt.new_event(enable_timing=True, blocking=True)
    assert not start.disable_timing and end.block
    rt.record_event(start, s1)
    s1._launch()
    time.sleep(0.002)
    rt.record_event(end, s1)
    assert rt.query_event(start) and not rt.query_event(end)
    rt.wait_event(s2, end)
    assert s2.waited == [end]
    ms_ = rt.elapsed_time(start, end)                              # waits for the end event
    assert rt.query_event(end) and rt.query_stream(s1)
    assert 1.0 <= ms_ < 1000.0
    plain = rt.new_event()                                         # timing disabled, as CUDA's default here
    assert plain.disable_timing
    rt.record_event(plain, s1)
    with pytest.raises(RuntimeError, match="cudaErrorInvalidResourceHandle"):
        rt.elapsed_time(start, plain)


# -- mindspore.runtime on the stand-in GPU runtime ------------------------------------------------------------
TARGET = "GPURTSIM"


class _SimGPURuntime(SIM.GPURuntime):
    target = TARGET


def _runtime_plugin():
    @hookimpl
    def ms_plugin_info():
        return {"name": TARGET.lower(), "version": "0", "api_version": PLUGIN_API_VERSION}

    @hookimpl
    def ms_backend_probe():
        return [BackendProbe(target=TARGET, available=True, priority=-100, device_count=1)]

    @hookimpl
    def ms_backend_create(target):
        return _SimGPURuntime(0) if target == TARGET else None

    mod = types.ModuleType("gpurtsim_plugin")
    mod.__dict__.update(ms_plugin_info=ms_plugin_info, ms_backend_probe=ms_backend_probe,
                        ms_backend_create=ms_backend_create)
    return mod


@pytest.fixture
def on_sim_gpu(rt):
    before = ms.get_context("device_target_requested")
    max_memory = ms.get_context("max_device_memory")
    ms.plugin.register_plugin(_runtime_plugin(), TARGET.lower())
    ms.set_context(device_target=TARGET)
    yield
    ms.set_context(max_device_memory=max_memory)
    ms.plugin.unregister_plugin(TARGET.lower())
    ms.context.store("device_target", before)
    _generation.bump(plugins=False)
    POOL.set_limit(size=0)


def test_public_memory_api_on_the_gpu_runtime(on_sim_gpu):
    r = ms.runtime
    r.reset_peak_memory_stats()
    base = r.memory_allocated()
    x = ms.Tensor(np.ones((256, 256), np.float32))                 # 256 KiB through the runtime's from_host
    assert r.memory_allocated() == base + 256 * 1024
    assert r.memory_reserved() >= r.memory_allocated()
    stats = r.memory_stats()
    assert stats["total_allocated_memory"] == base + 256 * 1024
    assert stats["total_idle_memory"] == stats["total_reserved_memory"] - stats["total_allocated_memory"]
    assert "Memory summary (GPURTSIM)" in r.memory_summary()
    del x
    gc.collect()
    assert r.memory_allocated() == base and r.max_memory_allocated() == base + 256 * 1024
    reserved = r.memory_reserved()
    r.empty_cache()
    assert r.memory_reserved() < reserved and r.max_memory_reserved() >= reserved
    r.reset_max_memory_allocated()
    assert r.max_memory_allocated() == base
    r.reset_max_memory_reserved()
    assert r.max_memory_reserved() == r.memory_reserved()


def test_memory_limits_reach_the_pool(on_sim_gpu):
    ms.runtime.set_memory(max_size="0.5GB")
    assert POOL.get_limit() == 512 * MiB
    ms.set_context(max_device_memory="2GB")
    assert POOL.get_limit() == 2048 * MiB and ms.get_context("max_device_memory") == "2GB"
    ms.set_context(max_device_memory="0.001GB")                    # about 1 MiB
    with pytest.raises(MemoryError, match="Out of memory"):
        ms.Tensor(np.zeros(2 * MiB, np.uint8))


def test_public_streams_and_events_on_the_gpu_runtime(on_sim_gpu):
    r = ms.runtime
    cuda = SIM.cupy.cuda
    assert r.current_stream() == r.default_stream()
    assert r.default_stream()._handle is cuda.Stream.null
    s = r.Stream(priority=-1)
    assert isinstance(s._handle, cuda.Stream) and s._handle.priority == -1
    with r.StreamCtx(s):
        assert cuda.get_current_stream() is s._handle              # where kernels launch
        assert r.current_stream() == s
        s._handle._launch()
        event = s.record_event()
    assert cuda.get_current_stream() is cuda.Stream.null
    assert not event.query() and not s.query()
    r.current_stream().wait_event(event)
    assert cuda.Stream.null.waited[-1] is event._handle
    event.synchronize()
    assert event.query() and s.query()
    start, end = r.Event(enable_timing=True), r.Event(enable_timing=True)
    start.record(s)
    end.record(s)
    assert start.elapsed_time(end) >= 0.0
    r.set_cur_stream(s)
    assert cuda.get_current_stream() is s._handle
    r.set_cur_stream(r.default_stream())
    assert r.communication_stream() == r.communication_stream() != r.default_stream()
    r.synchronize()


def test_float8_is_refused_with_a_clear_error_and_bfloat16_taken(rt):
    """CuPy has no kernels for ml_dtypes' float8 types: an upload, and a Cast to one, name the dtype and what to use;
    bfloat16 uploads (checked as dtypes, not by name)."""
    import ml_dtypes
    array_family = cupy_sim.load_kernel_families().modules["array"]
    with pytest.raises(TypeError, match="does not support dtype float8_e4m3fn"):
        rt.from_host(np.zeros(3, ml_dtypes.float8_e4m3fn))
    assert rt.to_host(rt.from_host(np.ones(3, ml_dtypes.bfloat16))).dtype == np.dtype(ml_dtypes.bfloat16)
    with pytest.raises(TypeError, match="For 'Cast', the GPU backend does not support dtype float8_e5m2"):
        array_family._np_dtype(ms.float8_e5m2)
    assert array_family._np_dtype(ms.bfloat16) == np.dtype(ml_dtypes.bfloat16)
