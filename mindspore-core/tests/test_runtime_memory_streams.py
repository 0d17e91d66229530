"""``mindspore.runtime``: memory statistics, ``set_memory``/``max_device_memory``, streams and events.

On the session's device (the CPU, or STRICT and other test devices whose runtimes keep
``DeviceRuntime``'s defaults) every memory count is 0, as MindSpore documents for the CPU, and streams and
events are the default host ones. A test-only backend whose runtime has a memory pool of its own checks
how the public functions map onto the runtime's methods.
"""
import inspect
import threading
import time
import types

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation, context, ops
from mindspore import runtime as rt
from mindspore._runtime import backend
from mindspore.plugin import PLUGIN_API_VERSION, BackendProbe, DeviceRuntime, hookimpl

GB = 1 << 30
MEMORY_QUERIES = [rt.memory_allocated, rt.max_memory_allocated, rt.memory_reserved, rt.max_memory_reserved]


def _runtime():
    return backend.current().runtime


@pytest.fixture
def host_defaults():
    """The session's runtime keeps DeviceRuntime's memory and stream defaults (CPU, STRICT)."""
    runtime = _runtime()
    for name in ("memory_stats", "new_stream", "record_event", "elapsed_time"):
        if getattr(type(runtime), name) is not getattr(DeviceRuntime, name):
            pytest.skip(f"the session's runtime ({runtime.target}) has its own {name}")
    return runtime


@pytest.fixture
def memory_settings():
    saved = {key: context.get_context(key) for key in ("max_device_memory", "memory_optimize_level")}
    settings = dict(rt._memory_settings)
    yield
    ms.set_context(max_device_memory=saved["max_device_memory"])
    context.store("memory_optimize_level", saved["memory_optimize_level"])
    rt._memory_settings.clear()
    rt._memory_settings.update(settings)


# -- signatures ----------------------------------------------------------------------------------------------
def _params(fn):
    return [(p.name, p.default, p.kind.name) for p in inspect.signature(fn).parameters.values()]


def test_signatures_are_mindspores():
    empty = inspect.Parameter.empty
    for fn in MEMORY_QUERIES + [rt.memory_stats, rt.memory_summary, rt.reset_peak_memory_stats,
                                rt.reset_max_memory_allocated, rt.reset_max_memory_reserved, rt.empty_cache,
                                rt.current_stream, rt.default_stream, rt.communication_stream, rt.synchronize]:
        assert _params(fn) == [], fn.__name__
    assert [(n, d) for n, d, _ in _params(rt.set_memory)] == [
        ("init_size", "2GB"), ("increase_size", "2GB"), ("max_size", "1024GB"), ("optimize_level", "O0"),
        ("huge_page_reserve_size", "0GB")]
    assert _params(rt.Stream) == [("priority", 0, "POSITIONAL_OR_KEYWORD"), ("kwargs", empty, "VAR_KEYWORD")]
    assert [(n, d) for n, d, _ in _params(rt.Event)] == [("enable_timing", False), ("blocking", False)]
    assert [n for n, _, _ in _params(rt.StreamCtx)] == ["ctx_stream"]
    assert [n for n, _, _ in _params(rt.set_cur_stream)] == ["stream"]
    assert [(n, d) for n, d, _ in _params(rt.Stream.record_event)] == [("self", empty), ("event", None)]
    assert [n for n, _, _ in _params(rt.Stream.wait_event)] == ["self", "event"]
    assert [n for n, _, _ in _params(rt.Stream.wait_stream)] == ["self", "stream"]
    assert [(n, d) for n, d, _ in _params(rt.Event.record)] == [("self", empty), ("stream", None)]
    assert [(n, d) for n, d, _ in _params(rt.Event.wait)] == [("self", empty), ("stream", None)]
    assert [n for n, _, _ in _params(rt.Event.elapsed_time)] == ["self", "end_event"]
    for name in rt.__all__:
        assert getattr(ms.runtime, name) is getattr(rt, name)


# -- memory on the session's device ----------------------------------------------------------------------------
def test_every_memory_count_is_zero_on_a_runtime_without_a_pool(host_defaults):
    x = ms.Tensor(np.ones((64, 64), np.float32))
    y = ops.add(x, x)
    for fn in MEMORY_QUERIES:
        value = fn()
        assert value == 0 and type(value) is int, fn.__name__
    assert rt.memory_stats() == {"total_reserved_memory": 0, "total_allocated_memory": 0, "total_idle_memory": 0,
                                 "total_eager_free_memory": 0, "max_reserved_memory": 0, "max_allocated_memory": 0}
    rt.reset_peak_memory_stats()
    rt.reset_max_memory_allocated()
    rt.reset_max_memory_reserved()
    rt.empty_cache()
    assert all(fn() == 0 for fn in MEMORY_QUERIES)
    np.testing.assert_array_equal(y.asnumpy(), 2 * np.ones((64, 64), np.float32))


def test_memory_summary_is_a_table_of_the_stats():
    text = rt.memory_summary()
    assert isinstance(text, str) and f"Memory summary ({_runtime().target})" in text
    for label in ("Reserved memory", "Allocated memory", "Idle memory", "Eager free memory", "Max reserved memory",
                  "Max allocated memory"):
        assert label in text


# -- set_memory and max_device_memory ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["init_size", "increase_size", "max_size", "optimize_level",
                                  "huge_page_reserve_size"])
@pytest.mark.parametrize("bad", [2, 2.0, None, b"2GB"])
def test_set_memory_wants_strings(memory_settings, name, bad):
    with pytest.raises(TypeError, match=f"For 'set_memory', the argument '{name}' must be str"):
        rt.set_memory(**{name: bad})


@pytest.mark.parametrize("name", ["init_size", "increase_size", "max_size"])
@pytest.mark.parametrize("bad", ["2G", "2gb", "GB", "-1GB", "1.5.5GB", " 2GB", "2GB ", "2 GB", "2MB", "1e3GB",
                                 ".5GB", "02GB", ""])
def test_set_memory_sizes_are_xxGB(memory_settings, name, bad):
    with pytest.raises(ValueError, match=f"For 'set_memory', the argument '{name}' must be a size in GB"):
        rt.set_memory(**{name: bad})


@pytest.mark.parametrize("zero", ["0GB", "0.0GB", "0.GB"])
def test_set_memory_sizes_are_not_zero(memory_settings, zero):
    with pytest.raises(ValueError, match="must not be \"0GB\""):
        rt.set_memory(max_size=zero)
    rt.set_memory(huge_page_reserve_size=zero)        # a reservation may be zero
    with pytest.raises(ValueError, match="'huge_page_reserve_size' must be a size in GB"):
        rt.set_memory(huge_page_reserve_size="-1GB")


@pytest.mark.parametrize("bad", ["O2", "o1", "", "O"])
def test_set_memory_optimize_level(memory_settings, bad):
    with pytest.raises(ValueError, match=r"'optimize_level' must be one of \['O0', 'O1'\], but got"):
        rt.set_memory(optimize_level=bad)


def test_set_memory_applies_max_size_as_the_device_limit(memory_settings):
    limits = []
    runtime = _runtime()
    original = runtime.set_memory_limit
    runtime.set_memory_limit = lambda n: (limits.append(n), original(n))
    try:
        rt.set_memory("10GB", "2GB", "60GB", "O1", "0GB")
        rt.set_memory(max_size="0.5GB")
        rt.set_memory(max_size="3.25GB", init_size="0.5GB")
    finally:
        del runtime.set_memory_limit
    assert limits == [60 * GB, GB // 2, int(3.25 * GB)]
    assert type(limits[0]) is int and runtime.memory_limit == int(3.25 * GB)
    assert ms.get_context("max_device_memory") == "3.25GB"
    assert ms.get_context("memory_optimize_level") == "O0"
    assert rt._memory_settings["init_size"] == "0.5GB"


def test_a_rejected_set_memory_changes_nothing(memory_settings):
    rt.set_memory(max_size="4GB", optimize_level="O1")
    with pytest.raises(ValueError):
        rt.set_memory(max_size="8GB", optimize_level="O3")
    assert ms.get_context("max_device_memory") == "4GB" and ms.get_context("memory_optimize_level") == "O1"
    assert _runtime().memory_limit == 4 * GB


def test_max_device_memory_is_validated_and_applied(memory_settings):
    ms.set_context(max_device_memory="3.5GB")
    assert ms.get_context("max_device_memory") == "3.5GB"
    assert _runtime().memory_limit == int(3.5 * GB)
    for bad in ("3.5", "3.5 GB", "0GB", "abc", "-2GB"):
        with pytest.raises(ValueError, match="For 'set_context', the argument 'max_device_memory'"):
            ms.set_context(max_device_memory=bad)
    with pytest.raises(TypeError, match="'max_device_memory' must be str, but got int"):
        ms.set_context(max_device_memory=4)
    assert ms.get_context("max_device_memory") == "3.5GB" and _runtime().memory_limit == int(3.5 * GB)


# -- a runtime with a memory pool of its own -----------------------------------------------------------------------
TARGET = "MEMPOOLTEST"


class PoolRuntime(DeviceRuntime):
    """Host buffers, with made-up pool counts and a log of the memory calls core makes."""

    target = TARGET
    is_host = True

    def __init__(self):
        self.calls = []
        self.counts = {"allocated": 1000, "reserved": 4096, "peak_allocated": 3000, "peak_reserved": 2048}

    def memory_stats(self):
        return dict(self.counts)

    def reset_peak_memory_stats(self, allocated=True, reserved=True):
        self.calls.append(("reset", allocated, reserved))

    def empty_cache(self):
        self.calls.append(("empty_cache",))

    def set_memory_limit(self, nbytes):
        self.calls.append(("limit", nbytes))


def _pool_plugin():
    @hookimpl
    def ms_plugin_info():
        return {"name": TARGET.lower(), "version": "0", "api_version": PLUGIN_API_VERSION}

    @hookimpl
    def ms_backend_probe():
        return [BackendProbe(target=TARGET, available=True, priority=-100, device_count=1)]

    @hookimpl
    def ms_backend_create(target):
        return PoolRuntime() if target == TARGET else None

    mod = types.ModuleType("mempooltest_plugin")
    mod.__dict__.update(ms_plugin_info=ms_plugin_info, ms_backend_probe=ms_backend_probe,
                        ms_backend_create=ms_backend_create)
    return mod


@pytest.fixture
def pool_device(memory_settings):
    before = ms.get_context("device_target_requested")
    ms.plugin.register_plugin(_pool_plugin(), TARGET.lower())
    yield
    ms.plugin.unregister_plugin(TARGET.lower())
    context.store("device_target", before)
    _generation.bump(plugins=False)


def test_public_memory_functions_ask_the_runtime(pool_device):
    ms.set_context(max_device_memory="6GB")             # before the runtime exists...
    ms.set_context(device_target=TARGET)
    runtime = _runtime()
    assert isinstance(runtime, PoolRuntime)
    assert runtime.calls == [("limit", 6 * GB)]         # ...applied when it is created
    assert rt.memory_allocated() == 1000 and rt.memory_reserved() == 4096
    # a peak below the current value (a runtime that samples) is reported as the current value
    assert rt.max_memory_allocated() == 3000 and rt.max_memory_reserved() == 4096
    assert rt.memory_stats() == {"total_reserved_memory": 4096, "total_allocated_memory": 1000,
                                 "total_idle_memory": 3096, "total_eager_free_memory": 0,
                                 "max_reserved_memory": 4096, "max_allocated_memory": 3000}
    summary = rt.memory_summary()
    assert "Memory summary (MEMPOOLTEST)" in summary and "4.00 KB" in summary and "1000 B" in summary
    runtime.calls.clear()
    rt.reset_peak_memory_stats()
    rt.reset_max_memory_allocated()
    rt.reset_max_memory_reserved()
    rt.empty_cache()
    rt.set_memory(max_size="1.5GB")
    ms.set_context(max_device_memory="2GB")
    assert runtime.calls == [("reset", True, True), ("reset", True, False), ("reset", False, True),
                             ("empty_cache",), ("limit", int(1.5 * GB)), ("limit", 2 * GB)]
    runtime.counts = {"allocated": 7}                   # missing keys count as 0
    assert rt.memory_stats()["total_reserved_memory"] == 0 and rt.max_memory_allocated() == 7


# -- streams and events on the default host runtime ----------------------------------------------------------------
@pytest.fixture
def host_streams(host_defaults):
    yield host_defaults
    rt.set_cur_stream(rt.default_stream())


def test_the_current_stream_is_the_default_one_until_another_is_selected(host_streams):
    cur, default = rt.current_stream(), rt.default_stream()
    assert isinstance(cur, rt.Stream) and cur == default and hash(cur) == hash(default)
    assert cur.query() is True
    cur.synchronize()
    s = rt.Stream()
    assert s != default and s.query() and s.priority == 0 and s.device_name == _runtime().target
    assert (s == 1) is False and s != "stream"
    rt.set_cur_stream(s)
    assert rt.current_stream() == s
    rt.set_cur_stream(None)                              # a no-op, as in MindSpore
    assert rt.current_stream() == s
    rt.set_cur_stream(default)
    assert rt.current_stream() == default
    comm = rt.communication_stream()
    assert comm == rt.communication_stream() and comm != default
    assert rt.Stream(priority=-1).priority == -1
    assert "Stream(device_name=" in repr(s)


def test_stream_ctx_selects_and_restores(host_streams):
    s1, s2 = rt.Stream(), rt.Stream()
    default = rt.default_stream()
    with rt.StreamCtx(s1) as entered:
        assert entered is s1 and rt.current_stream() == s1
        with rt.StreamCtx(s2):
            assert rt.current_stream() == s2
            x = ms.Tensor(np.arange(4, dtype=np.float32))
            y = ops.mul(x, x)                            # operators run while another stream is current
        assert rt.current_stream() == s1
        with rt.StreamCtx(None):                         # a no-op
            assert rt.current_stream() == s1
    assert rt.current_stream() == default
    np.testing.assert_array_equal(y.asnumpy(), np.arange(4, dtype=np.float32) ** 2)
    with pytest.raises(ZeroDivisionError):
        with rt.StreamCtx(s1):
            1 / 0
    assert rt.current_stream() == default


def test_the_current_stream_is_per_thread(host_streams):
    s = rt.Stream()
    seen = []
    with rt.StreamCtx(s):
        t = threading.Thread(target=lambda: seen.append(rt.current_stream() == rt.default_stream()))
        t.start()
        t.join()
        assert rt.current_stream() == s
    assert seen == [True]


def test_events_on_the_host_are_complete_and_timed_by_the_host_clock(host_streams):
    start, end = rt.Event(enable_timing=True), rt.Event(enable_timing=True, blocking=True)
    assert start.query() and "not recorded" in repr(start)
    start.synchronize()                                  # never recorded: returns at once
    start.record()
    time.sleep(0.02)
    s = rt.Stream()
    assert s.record_event(end) is end
    assert start.query() and end.query()
    end.synchronize()
    elapsed = start.elapsed_time(end)
    assert type(elapsed) is float and 15.0 <= elapsed < 5000.0
    assert end.elapsed_time(start) < 0                   # measured, not clamped
    event = s.record_event()
    assert isinstance(event, rt.Event) and not event.enable_timing and event.query()
    rt.current_stream().wait_event(event)
    event.wait()
    event.wait(s)
    rt.default_stream().wait_stream(s)
    s.synchronize()
    assert s.query()
    rt.synchronize()


def test_elapsed_time_needs_timing_and_recorded_events(host_streams):
    timed, plain = rt.Event(enable_timing=True), rt.Event()
    with pytest.raises(RuntimeError, match="both events must be recorded"):
        timed.elapsed_time(rt.Event(enable_timing=True))
    timed.record()
    plain.record()
    with pytest.raises(RuntimeError, match="enable_timing=True"):
        timed.elapsed_time(plain)
    with pytest.raises(RuntimeError, match="enable_timing=True"):
        plain.elapsed_time(timed)


def test_stream_and_event_arguments_are_checked():
    s = rt.current_stream()
    cases = [
        (lambda: rt.Stream(priority=1.0), "For 'Stream', the type of 'priority' must be int, but got float"),
        (lambda: rt.Stream(priority=True), "For 'Stream', the type of 'priority' must be int, but got bool"),
        (lambda: rt.Stream(device="GPU"), "For 'Stream', got an unexpected keyword argument 'device'"),
        (lambda: rt.Event(enable_timing=1), "For 'Event', the type of 'enable_timing' must be bool"),
        (lambda: rt.Event(blocking="yes"), "For 'Event', the type of 'blocking' must be bool"),
        (lambda: rt.set_cur_stream(1), "For 'set_cur_stream', the argument 'stream' should be Stream"),
        (lambda: rt.StreamCtx("s"), "For 'StreamCtx', the argument 'ctx_stream' should be Stream"),
        (lambda: s.record_event(1), "For 'record_event', the argument 'event' should be Event"),
        (lambda: s.wait_event(None), "For 'wait_event', the argument 'event' should be Event"),
        (lambda: s.wait_stream(rt.Event()), "For 'wait_stream', the argument 'stream' should be Stream"),
        (lambda: rt.Event().record(1), "For 'record', the argument 'stream' should be Stream"),
        (lambda: rt.Event().wait("s"), "For 'wait', the argument 'stream' should be Stream"),
        (lambda: rt.Event().elapsed_time(s), "For 'elapsed_time', the argument 'end_event' should be Event"),
    ]
    for call, message in cases:
        with pytest.raises(TypeError, match=message):
            call()


def test_a_device_switch_keeps_the_kernel_registry_and_a_new_plugin_renews_it(pool_device):
    """What plugins register does not depend on the device target: switching targets keeps the kernel registry (it
    was rebuilt from every plugin's kernels at each switch), while a plugin set that changes renews it."""
    from mindspore._runtime import backend
    ms.set_context(device_target="CPU")
    reg = backend.kernel_registry()
    ms.set_context(device_target=TARGET)
    ms.set_context(device_target="CPU")
    assert backend.kernel_registry() is reg
    ms.plugin.unregister_plugin(TARGET.lower())
    renewed = backend.kernel_registry()
    assert renewed is not reg and renewed.has("Add", "CPU")
