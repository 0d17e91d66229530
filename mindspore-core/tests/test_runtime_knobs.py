"""``mindspore.runtime``'s launch controls, core limits and pluggable allocators (``mindspore._runtime_knobs``)."""
import ctypes.util

import pytest

import mindspore as ms
from mindspore import _runtime_knobs, runtime


@pytest.fixture(autouse=True)
def fresh_conf():
    saved = dict(_runtime_knobs._CONF)
    for key in saved:
        _runtime_knobs._CONF[key] = None
    yield
    _runtime_knobs._CONF.update(saved)


def test_names_exported_at_top_level_and_in_runtime():
    for name in ("set_cpu_affinity", "set_kernel_launch_group", "set_kernel_launch_capture", "set_device_limit",
                 "get_device_limit", "set_stream_limit", "get_stream_limit", "reset_stream_limit", "StreamLimitCtx",
                 "PluggableAllocator", "MemPool", "use_mem_pool", "memory_replay"):
        assert getattr(ms, name) is getattr(runtime, name)


def test_set_cpu_affinity_once():
    ms.set_cpu_affinity(True, ["0-1"], {"main": [0], "runtime": [1]})
    conf = _runtime_knobs.runtime_config()["thread_bind_core"]
    assert conf["cpus"] == [0, 1] and conf["modules"] == {"main": [0], "runtime": [1]}
    with pytest.raises(RuntimeError, match="cannot be set repeatedly"):
        ms.set_cpu_affinity(True)


def test_set_cpu_affinity_checks():
    with pytest.raises(ValueError, match="range string"):
        ms.set_cpu_affinity(True, ["3"])
    with pytest.raises(ValueError, match="'main', 'runtime', 'pynative', 'minddata'"):
        ms.set_cpu_affinity(True, ["0-1"], {"other": [0]})


def test_kernel_launch_group_and_capture_exclude_each_other():
    ms.set_kernel_launch_group(thread_num=2, kernel_group_num=4)
    assert _runtime_knobs.runtime_config()["kernel_launch_group"] == (2, 4)
    with pytest.raises(RuntimeError, match="can not be set repeatedly"):
        ms.set_kernel_launch_group()
    with pytest.raises(RuntimeError, match="can not be set together"):
        ms.set_kernel_launch_capture(True)


def test_kernel_launch_capture_then_group():
    ms.set_kernel_launch_capture(True, ["MatMul"])
    assert _runtime_knobs.runtime_config()["kernel_launch_capture"] == (True, ["MatMul"])
    with pytest.raises(RuntimeError, match="can not be set together"):
        ms.set_kernel_launch_group()
    with pytest.raises(TypeError):
        ms.set_kernel_launch_capture(1)


def test_device_and_stream_limits():
    ms.set_device_limit(0, 8, 16)
    assert ms.get_device_limit(0) == {"cube_core_num": 8, "vector_core_num": 16}
    assert ms.get_device_limit(1) == {"cube_core_num": -1, "vector_core_num": -1}
    with pytest.raises(ValueError):
        ms.set_device_limit(0, 0, 1)
    s = runtime.Stream()
    assert ms.get_stream_limit(s) == {"cube_core_num": -1, "vector_core_num": -1}
    ms.set_stream_limit(s, 4, 4)
    with ms.StreamLimitCtx(s, 2, 3):
        assert ms.get_stream_limit(s) == {"cube_core_num": 2, "vector_core_num": 3}
    assert ms.get_stream_limit(s) == {"cube_core_num": 4, "vector_core_num": 4}
    ms.reset_stream_limit(s)
    assert ms.get_stream_limit(s)["cube_core_num"] == -1


def test_pluggable_allocator_resolves_functions():
    libc = ctypes.util.find_library("c")
    if libc is None:
        pytest.skip("no C library to load")
    alloc = ms.PluggableAllocator(libc, "malloc", "free")
    lib = ctypes.CDLL(libc)
    assert alloc.alloc_fn_ptr == ctypes.cast(lib.malloc, ctypes.c_void_p).value
    assert alloc.free_fn_ptr == ctypes.cast(lib.free, ctypes.c_void_p).value
    pool = ms.MemPool(alloc)
    assert pool.allocator is alloc
    with ms.use_mem_pool(pool):
        assert _runtime_knobs.runtime_config()["active_mem_pool"] is pool
    assert _runtime_knobs.runtime_config()["active_mem_pool"] is None
    with pytest.raises(AttributeError):
        ms.PluggableAllocator(libc, "no_such_function_here", "free")
    with pytest.raises(TypeError):
        ms.MemPool(object())


def test_memory_replay_needs_ascend():
    with pytest.raises(RuntimeError, match="needs the Ascend device runtime"):
        ms.memory_replay("/tmp/trace.json")
