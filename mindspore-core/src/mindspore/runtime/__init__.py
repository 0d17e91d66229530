"""``mindspore.runtime``: execution controls, device memory, streams and events.

Execution: our runtime executes every operator in the calling Python thread: PYNATIVE dispatches each
op and returns its result, and a compiled graph runs its kernels one after another. So the controls
real MindSpore offers for its asynchronous launch pipeline are accepted with that meaning:
``launch_blocking`` is the behaviour we already have, and ``dispatch_threads_num`` is validated (there
is no dispatch thread pool to size). ``synchronize`` waits for the device of the current backend (a
no-op on the CPU, a device synchronisation on the GPU).

Memory (``memory_allocated``, ``memory_reserved``, their peaks, ``memory_stats``, ``memory_summary``,
the resets, ``empty_cache``): byte counts of the current device, asked of its runtime
(:meth:`mindspore.plugin.DeviceRuntime.memory_stats`). As in MindSpore, every count is 0 on the CPU
(NumPy buffers live in ordinary process memory, which no pool of ours manages). ``set_memory`` and
``set_context(max_device_memory=...)`` validate their "xxGB" sizes and apply the maximum as the
device's memory limit, to the current runtime and to any created later.

Streams and events (``Stream``, ``Event``, ``StreamCtx``, ``current_stream``, ``default_stream``,
``set_cur_stream``, ``communication_stream``) wrap the handles of the current runtime: CUDA streams
and events on the GPU. A runtime without streams (the CPU) has one implicit host stream on which
every operator has finished when it returns: ``query()`` is always True, synchronising returns at
once, and ``Event.elapsed_time`` measures the host clock between the two ``record`` calls. The
current stream is per thread.
"""
from __future__ import annotations

import re

import mindspore.context as context
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
import mindspore._runtime_knobs as _knobs
from mindspore._runtime import backend
from mindspore._runtime_knobs import (MemPool, PluggableAllocator, get_device_limit, memory_replay,  # noqa: F401
                                      set_cpu_affinity, set_device_limit, set_kernel_launch_capture,
                                      set_kernel_launch_group, use_mem_pool)

__all__ = ["launch_blocking", "dispatch_threads_num", "synchronize",
           # memory
           "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved", "memory_stats",
           "memory_summary", "reset_peak_memory_stats", "reset_max_memory_allocated", "reset_max_memory_reserved",
           "empty_cache", "set_memory",
           # streams and events
           "Stream", "Event", "StreamCtx", "current_stream", "default_stream", "set_cur_stream",
           "communication_stream",
           # Ascend runtime controls (mindspore._runtime_knobs)
           "set_cpu_affinity", "set_kernel_launch_group", "set_kernel_launch_capture", "set_device_limit",
           "get_device_limit", "set_stream_limit", "get_stream_limit", "reset_stream_limit", "StreamLimitCtx",
           "PluggableAllocator", "MemPool", "use_mem_pool", "memory_replay"]


def launch_blocking():
    """Run operators synchronously, so that an error points at the line that launched the failing op.

    Already how this runtime works; the call records the request (``get_context('pynative_synchronize')``
    then reads True, as in MindSpore).
    """
    context._set_context(pynative_synchronize=True)   # no deprecation warning: this is the new API


def dispatch_threads_num(threads_num):
    """The number of runtime dispatch threads (MindSpore's default: 5), an int in [1, 128]: validated; this
    runtime dispatches in the calling thread, so there is no pool to size."""
    if isinstance(threads_num, bool) or not isinstance(threads_num, int):
        raise MSTypeError(f"For 'dispatch_threads_num', the 'threads_num' must be int, but got "
                          f"{type(threads_num).__name__}.")
    if not 1 <= threads_num <= 128:
        raise MSValueError(f"For 'dispatch_threads_num', the 'threads_num' must be in [1, 128], but got {threads_num}.")


def synchronize():
    """Wait until the current device has finished all queued work, on every stream."""
    backend.current().runtime.synchronize()


def _runtime():
    """The runtime of the current device (plain host memory when no backend is installed)."""
    return backend.data_runtime()


# -- memory ---------------------------------------------------------------------------------------------
_GB = 1 << 30
_SIZE = re.compile(r"[1-9][0-9]*\.?[0-9]*GB|0\.[0-9]*GB")
_SIZE_OR_ZERO = re.compile(r"[0-9]+\.?[0-9]*GB")
_OPTIMIZE_LEVELS = ("O0", "O1")

#: What ``set_memory`` was given last (sizes as strings). Only ``max_size`` acts here: the GPU's CuPy pool grows
#: as needed and returns memory with ``empty_cache``, so an initial size and a growth step have nothing to set.
_memory_settings = {"init_size": "2GB", "increase_size": "2GB", "max_size": "1024GB", "optimize_level": "O0",
                    "huge_page_reserve_size": "0GB"}


def _memory_size(value, name, api, allow_zero=False):
    """Bytes of a size given as MindSpore writes it: ``"xxGB"`` (``"5GB"``, ``"3.5GB"``)."""
    if not isinstance(value, str):
        raise MSTypeError(f"For '{api}', the argument '{name}' must be str, but got {type(value).__name__}.")
    gb = float(value[:-2]) if _SIZE_OR_ZERO.fullmatch(value) else None
    if gb == 0 and not allow_zero:
        raise MSValueError(f"For '{api}', the argument '{name}' must not be \"0GB\".")
    if gb is None or not (allow_zero or _SIZE.fullmatch(value)):
        raise MSValueError(f"For '{api}', the argument '{name}' must be a size in GB written as digits with at most "
                           f"one decimal point followed by 'GB', such as \"5GB\" or \"3.5GB\", but got {value!r}.")
    return int(gb * _GB)


def _set_max_device_memory(value):
    nbytes = _memory_size(value, "max_device_memory", "set_context")
    context.store("max_device_memory", value)
    backend.set_memory_limit(nbytes)


context.register_handler("max_device_memory", setter=_set_max_device_memory)


def set_memory(init_size="2GB", increase_size="2GB", max_size="1024GB", optimize_level="O0",
               huge_page_reserve_size="0GB"):
    """Set the memory parameters of the device's memory pool. Sizes are strings ``"xxGB"``.

    Args:
        init_size (str): the pool's initial size. Default ``"2GB"``.
        increase_size (str): how much the pool grows by when it runs out. Default ``"2GB"``.
        max_size (str): the most device memory the pool may take (the device's own capacity bounds it
            too). Default ``"1024GB"``, i.e. the whole device.
        optimize_level (str): the memory optimisation level, ``"O0"`` or ``"O1"``. Default ``"O0"``.
        huge_page_reserve_size (str): host huge-page memory to reserve (``"0GB"`` allowed). Default ``"0GB"``.

    ``max_size`` is applied as the device memory limit (as ``set_context(max_device_memory=...)``, which
    ``get_context('max_device_memory')`` then reads), to the current runtime and any created later: on the
    GPU, CuPy's memory pool limit, beyond which allocations raise ``OutOfMemoryError``. The other values are
    validated and recorded (``optimize_level`` as ``get_context('memory_optimize_level')``): CuPy's pool
    grows on demand, and the CPU has no pool. Unlike MindSpore, calling it again is allowed (the last call
    wins).

    Raises:
        TypeError: an argument is not a str.
        ValueError: a size is not ``"xxGB"`` (or is ``"0GB"``, except ``huge_page_reserve_size``), or
            ``optimize_level`` is not ``"O0"``/``"O1"``.
    """
    args = {"init_size": init_size, "increase_size": increase_size, "max_size": max_size,
            "optimize_level": optimize_level, "huge_page_reserve_size": huge_page_reserve_size}
    for name, value in args.items():
        if not isinstance(value, str):
            raise MSTypeError(f"For 'set_memory', the argument '{name}' must be str, but got {type(value).__name__}.")
    for name in ("init_size", "increase_size", "max_size"):
        _memory_size(args[name], name, "set_memory")
    _memory_size(huge_page_reserve_size, "huge_page_reserve_size", "set_memory", allow_zero=True)
    if optimize_level not in _OPTIMIZE_LEVELS:
        raise MSValueError(f"For 'set_memory', the argument 'optimize_level' must be one of "
                           f"{list(_OPTIMIZE_LEVELS)}, but got {optimize_level!r}.")
    _memory_settings.update(args)
    context.store("memory_optimize_level", optimize_level)
    _set_max_device_memory(max_size)


_STAT_KEYS = ("allocated", "reserved", "peak_allocated", "peak_reserved")


def _stats(runtime=None):
    raw = (runtime or _runtime()).memory_stats() or {}
    s = {key: int(raw.get(key, 0)) for key in _STAT_KEYS}
    s["peak_allocated"] = max(s["peak_allocated"], s["allocated"])
    s["peak_reserved"] = max(s["peak_reserved"], s["reserved"])
    return s


def memory_allocated():
    """Bytes of device memory held by tensors now (int). Always 0 on the CPU."""
    return _stats()["allocated"]


def max_memory_allocated():
    """The peak of :func:`memory_allocated` since the process started or the last reset (int bytes). Always 0
    on the CPU. On the GPU, CuPy's pool keeps no peak: it is the highest value the runtime observed (see
    ``mindspore-gpu``'s README), so a peak between two observations can be missed."""
    return _stats()["peak_allocated"]


def memory_reserved():
    """Bytes of device memory the memory pool holds now, cached free blocks included (int). Always 0 on the
    CPU."""
    return _stats()["reserved"]


def max_memory_reserved():
    """The peak of :func:`memory_reserved` since the process started or the last reset (int bytes). Always 0
    on the CPU."""
    return _stats()["peak_reserved"]


def memory_stats():
    """The memory pool's counts as a dict of int bytes, with MindSpore's keys: ``total_reserved_memory``,
    ``total_allocated_memory``, ``total_idle_memory`` (reserved but free), ``total_eager_free_memory``
    (always 0 here), ``max_reserved_memory`` and ``max_allocated_memory``. Every count is 0 on the CPU."""
    return _memory_stats_of(_runtime())


def _memory_stats_of(runtime):
    s = _stats(runtime)
    return {"total_reserved_memory": s["reserved"], "total_allocated_memory": s["allocated"],
            "total_idle_memory": max(s["reserved"] - s["allocated"], 0), "total_eager_free_memory": 0,
            "max_reserved_memory": s["peak_reserved"], "max_allocated_memory": s["peak_allocated"]}


def _format_bytes(n):
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1024 or unit == "TB":
            return f"{n} {unit}" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1024
    return f"{n:.2f} PB"   # pragma: no cover - unreachable


def memory_summary():
    """:func:`memory_stats` as a readable table (a str)."""
    return _memory_summary_of(_runtime())


def _memory_summary_of(runtime):
    stats = _memory_stats_of(runtime)
    rows = [("Reserved memory", "total_reserved_memory"), ("Allocated memory", "total_allocated_memory"),
            ("Idle memory", "total_idle_memory"), ("Eager free memory", "total_eager_free_memory"),
            ("Max reserved memory", "max_reserved_memory"), ("Max allocated memory", "max_allocated_memory")]
    width = 47
    title = f"Memory summary ({runtime.target})"
    lines = ["=" * width, f"{title:^{width}}", "=" * width, f" {'Metric':<22}| {'Data':<22}"]
    for label, key in rows:
        lines.append("-" * width)
        lines.append(f" {label:<22}| {_format_bytes(stats[key]):<22}")
    lines.append("=" * width)
    return "\n".join(lines) + "\n"


def reset_peak_memory_stats():
    """Restart both peaks (:func:`max_memory_allocated`, :func:`max_memory_reserved`) from the current values."""
    _runtime().reset_peak_memory_stats(allocated=True, reserved=True)


def reset_max_memory_allocated():
    """Restart :func:`max_memory_allocated` from the current :func:`memory_allocated`."""
    _runtime().reset_peak_memory_stats(allocated=True, reserved=False)


def reset_max_memory_reserved():
    """Restart :func:`max_memory_reserved` from the current :func:`memory_reserved`."""
    _runtime().reset_peak_memory_stats(allocated=False, reserved=True)


def empty_cache():
    """Return the memory pool's cached free blocks to the device (a no-op on the CPU); memory held by live
    tensors stays, so :func:`memory_reserved` drops towards :func:`memory_allocated`."""
    _runtime().empty_cache()


# -- streams and events ---------------------------------------------------------------------------------
def _check_int(value, name, api):
    if isinstance(value, bool) or not isinstance(value, int):
        raise MSTypeError(f"For '{api}', the type of '{name}' must be int, but got {type(value).__name__}.")


def _check_bool(value, name, api):
    if not isinstance(value, bool):
        raise MSTypeError(f"For '{api}', the type of '{name}' must be bool, but got {type(value).__name__}.")


def _check_stream(value, name, api):
    if not isinstance(value, Stream):
        raise MSTypeError(f"For '{api}', the argument '{name}' should be Stream, but got {type(value)}.")


def _check_event(value, name, api):
    if not isinstance(value, Event):
        raise MSTypeError(f"For '{api}', the argument '{name}' should be Event, but got {type(value)}.")


class Stream:
    """A device stream: a sequence of operators that runs in order, independently of other streams.

    Operators run on the current stream (:func:`current_stream`; select one with :class:`StreamCtx` or
    :func:`set_cur_stream`). On the GPU a new stream is a non-blocking CUDA stream; on the CPU every
    operator has finished when it returns, so a stream only names where work would go.

    Args:
        priority (int, optional): lower numbers are higher priorities. Default ``0``.
        kwargs (dict): accepted for MindSpore's signature; no keyword is used.

    Raises:
        TypeError: ``priority`` is not an int.
    """

    def __init__(self, priority=0, **kwargs):
        _check_int(priority, "priority", "Stream")
        if kwargs:
            raise MSTypeError(f"For 'Stream', got an unexpected keyword argument '{next(iter(kwargs))}'.")
        runtime = _runtime()
        self._runtime = runtime
        self._handle = runtime.new_stream(priority)
        self.priority = priority

    @classmethod
    def _wrap(cls, runtime, handle, priority=0):
        stream = cls.__new__(cls)
        stream._runtime, stream._handle, stream.priority = runtime, handle, priority
        return stream

    @property
    def device_name(self):
        """The device target of the stream."""
        return self._runtime.target

    def record_event(self, event=None):
        """Record ``event`` (a new :class:`Event` if ``None``) on this stream, and return it.

        Raises:
            TypeError: ``event`` is neither an :class:`Event` nor ``None``.
        """
        if event is None:
            event = Event()
        _check_event(event, "event", "record_event")
        event.record(self)
        return event

    def wait_event(self, event):
        """Make the work submitted to this stream from now on wait for ``event`` (returns at once).

        Raises:
            TypeError: ``event`` is not an :class:`Event`.
        """
        _check_event(event, "event", "wait_event")
        event.wait(self)

    def wait_stream(self, stream):
        """Make the work submitted to this stream from now on wait for all the work submitted to ``stream`` so far.

        Raises:
            TypeError: ``stream`` is not a :class:`Stream`.
        """
        _check_stream(stream, "stream", "wait_stream")
        self.wait_event(stream.record_event())

    def synchronize(self):
        """Wait until all the work submitted to this stream has finished."""
        self._runtime.synchronize_stream(self._handle)

    def query(self):
        """Whether all the work submitted to this stream has finished (bool; never blocks)."""
        return bool(self._runtime.query_stream(self._handle))

    def __eq__(self, other):
        if not isinstance(other, Stream):
            return NotImplemented
        return self._handle is other._handle or self._handle == other._handle

    def __hash__(self):
        return hash(self._handle)

    def __repr__(self):
        return f"Stream(device_name={self.device_name}, handle={self._handle!r})"


class Event:
    """A device event: a marker recorded on a stream, to wait for the work before it or to time it.

    The device's event is made when the event is first recorded.

    Args:
        enable_timing (bool, optional): whether the event can measure time (:meth:`elapsed_time`).
            Default ``False``.
        blocking (bool, optional): whether :meth:`synchronize` blocks the host thread (rather than spinning).
            Default ``False``.

    Raises:
        TypeError: an argument is not a bool.
    """

    def __init__(self, enable_timing=False, blocking=False):
        _check_bool(enable_timing, "enable_timing", "Event")
        _check_bool(blocking, "blocking", "Event")
        self.enable_timing = enable_timing
        self.blocking = blocking
        self._runtime = None
        self._handle = None

    def record(self, stream=None):
        """Record the event on ``stream`` (default: :func:`current_stream`): it completes when the work
        submitted there before it has.

        Raises:
            TypeError: ``stream`` is neither a :class:`Stream` nor ``None``.
        """
        if stream is None:
            stream = current_stream()
        _check_stream(stream, "stream", "record")
        runtime = stream._runtime
        if self._handle is None or self._runtime is not runtime:
            self._handle = runtime.new_event(self.enable_timing, self.blocking)
            self._runtime = runtime
        runtime.record_event(self._handle, stream._handle)

    def wait(self, stream=None):
        """Make the work submitted to ``stream`` (default: :func:`current_stream`) from now on wait for this
        event; returns at once. An event never recorded makes nothing wait.

        Raises:
            TypeError: ``stream`` is neither a :class:`Stream` nor ``None``.
        """
        if stream is None:
            stream = current_stream()
        _check_stream(stream, "stream", "wait")
        if self._handle is not None:
            stream._runtime.wait_event(stream._handle, self._handle)

    def synchronize(self):
        """Wait until the work this event captured has finished (returns at once if it was never recorded)."""
        if self._handle is not None:
            self._runtime.synchronize_event(self._handle)

    def query(self):
        """Whether the work this event captured has finished (bool; True if it was never recorded)."""
        if self._handle is None:
            return True
        return bool(self._runtime.query_event(self._handle))

    def elapsed_time(self, end_event):
        """Milliseconds (float) from the recording of this event to the recording of ``end_event``; waits for
        ``end_event`` to complete.

        Raises:
            TypeError: ``end_event`` is not an :class:`Event`.
            RuntimeError: either event was made without ``enable_timing=True``, was never recorded, or
                they were recorded on different devices.
        """
        _check_event(end_event, "end_event", "elapsed_time")
        if not (self.enable_timing and end_event.enable_timing):
            raise MSRuntimeError("For 'elapsed_time', both events must be created with enable_timing=True.")
        if self._handle is None or end_event._handle is None:
            raise MSRuntimeError("For 'elapsed_time', both events must be recorded before measuring the time "
                                 "between them.")
        if self._runtime.target != end_event._runtime.target:
            raise MSRuntimeError(f"For 'elapsed_time', the events were recorded on different devices "
                                 f"({self._runtime.target} and {end_event._runtime.target}).")
        return float(self._runtime.elapsed_time(self._handle, end_event._handle))

    def __repr__(self):
        state = "not recorded" if self._handle is None else repr(self._handle)
        return f"Event(enable_timing={self.enable_timing}, blocking={self.blocking}, {state})"


def current_stream():
    """The calling thread's current stream on the current device (a :class:`Stream`)."""
    runtime = _runtime()
    return Stream._wrap(runtime, runtime.current_stream())


def default_stream():
    """The current device's default stream (a :class:`Stream`): the current one until another is selected."""
    runtime = _runtime()
    return Stream._wrap(runtime, runtime.default_stream())


def communication_stream():
    """The current device's stream for collective communication (a :class:`Stream`)."""
    runtime = _runtime()
    return Stream._wrap(runtime, runtime.communication_stream())


def set_cur_stream(stream):
    """Make ``stream`` the calling thread's current stream (a no-op for ``None``). :class:`StreamCtx` is the
    better way: it puts the previous stream back.

    Raises:
        TypeError: ``stream`` is neither a :class:`Stream` nor ``None``.
    """
    if stream is None:
        return
    _check_stream(stream, "stream", "set_cur_stream")
    stream._runtime.set_current_stream(stream._handle)


class StreamCtx:
    """A context manager that makes ``ctx_stream`` the current stream within its block, then puts the previous
    one back. A no-op for ``None``.

    Raises:
        TypeError: ``ctx_stream`` is neither a :class:`Stream` nor ``None``.
    """

    def __init__(self, ctx_stream):
        if ctx_stream is not None:
            _check_stream(ctx_stream, "ctx_stream", "StreamCtx")
        self.stream = ctx_stream
        self.prev_stream = None

    def __enter__(self):
        if self.stream is not None:
            self.prev_stream = current_stream()
            set_cur_stream(self.stream)
        return self.stream

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self.stream is not None:
            set_cur_stream(self.prev_stream)
        return False


# --- Ascend core limits per stream (the device-wide ones and the other controls: mindspore._runtime_knobs) ----
def _check_limit_stream(stream, api):
    if not isinstance(stream, Stream):
        raise TypeError(f"For '{api}', the argument 'stream' should be Stream, but got {type(stream)}.")


def _stream_key(stream):
    return id(getattr(stream, "_handle", stream)) if getattr(stream, "_handle", None) is not None else id(stream)


def get_stream_limit(stream):
    """The core limits of ``stream``: ``{'cube_core_num': ..., 'vector_core_num': ...}`` (-1: no limit)."""
    _check_limit_stream(stream, "get_stream_limit")
    cube, vector = _knobs.STREAM_LIMITS.get(_stream_key(stream), (-1, -1))
    return {"cube_core_num": cube, "vector_core_num": vector}


def set_stream_limit(stream, cube_num=-1, vector_num=-1):
    """Limit the cube and vector cores of the operators launched on ``stream``."""
    _check_limit_stream(stream, "set_stream_limit")
    _knobs.check_core_limits(cube_num, vector_num, "set_stream_limit")
    _knobs.STREAM_LIMITS[_stream_key(stream)] = (cube_num, vector_num)


def reset_stream_limit(stream):
    """Remove the core limits of ``stream``."""
    _check_limit_stream(stream, "set_stream_limit")
    _knobs.STREAM_LIMITS.pop(_stream_key(stream), None)


class StreamLimitCtx:
    """``with StreamLimitCtx(stream, cube_num, vector_num):`` limits ``stream`` for the body, then restores the
    previous limits."""

    def __init__(self, stream, cube_num=-1, vector_num=-1):
        _check_limit_stream(stream, "StreamLimitCtx")
        self.stream = stream
        self.cube_num = cube_num
        self.vector_num = vector_num
        self.prev_cube_num = -1
        self.prev_vector_num = -1

    def __enter__(self):
        prev = get_stream_limit(self.stream)
        self.prev_cube_num, self.prev_vector_num = prev["cube_core_num"], prev["vector_core_num"]
        set_stream_limit(self.stream, self.cube_num, self.vector_num)

    def __exit__(self, *exc):
        if self.prev_cube_num == -1 and self.prev_vector_num == -1:
            reset_stream_limit(self.stream)
        else:
            set_stream_limit(self.stream, self.prev_cube_num, self.prev_vector_num)

