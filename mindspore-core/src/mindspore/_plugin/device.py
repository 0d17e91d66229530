"""What a backend tells core about a device target, and the runtime it hands over for one.

:class:`BackendProbe` is the answer of ``ms_backend_probe`` (one per target a plugin offers), and
:class:`DeviceRuntime` the base of what ``ms_backend_create`` returns. Both are part of the public
plugin contract (:mod:`mindspore.plugin`).

Buffers: a runtime's buffers are whatever array type its kernels compute on (``numpy.ndarray`` on the
CPU, ``cupy.ndarray`` on the GPU). Core never computes on them; it reads only ``buffer.shape`` (a tuple
of ints) and ``buffer.dtype`` (a NumPy dtype, ``ml_dtypes`` for bfloat16), and moves data only through
:meth:`DeviceRuntime.from_host` and :meth:`DeviceRuntime.to_host`.

Memory, streams and events (``mindspore.runtime``) go through optional methods of
:class:`DeviceRuntime`, whose defaults describe a runtime that has no such notion: no memory pool (every
count 0) and one implicit host stream on which all work is complete when its launch returns.
GRAPH_MODE graphs run through :meth:`DeviceRuntime.graph_runner` from their second call on (by default
kernel by kernel, as on their first call).
"""
from __future__ import annotations

import dataclasses
import threading
import time

from mindspore._errors import MSRuntimeError

import numpy as np

__all__ = ["BackendProbe", "DeviceRuntime"]


@dataclasses.dataclass
class BackendProbe:
    """What a plugin says about one device target it offers.

    Attributes:
        target (str): the target's name, as users pass it to ``set_context(device_target=...)``
            (``"CPU"``, ``"GPU"``, ``"Ascend"``, or a third party's own name). Matching is
            case-insensitive.
        available (bool): whether the target is usable on this machine now.
        reason (str): why not, when unavailable (``"no CUDA device"``); shown to users.
        priority (int): among usable targets, the highest priority is the default (CPU: 0, GPU: 10).
        device_count (int): how many devices of this target the machine has.
        install_hint (str): what to install when the target is missing (``"pip install my-backend"``).
    """

    target: str
    available: bool
    reason: str = ""
    priority: int = 0
    device_count: int = 0
    install_hint: str = ""


class _HostStream:
    """The handle of a stream of a runtime without streams (the defaults of :class:`DeviceRuntime`)."""

    __slots__ = ("name", "priority")

    def __init__(self, name, priority=0):
        self.name = name
        self.priority = priority

    def __repr__(self):
        return f"<host stream {self.name!r} at {id(self):#x}>"


class _HostEvent:
    """The handle of an event of a runtime without events: ``time`` is the host clock when recorded."""

    __slots__ = ("enable_timing", "blocking", "time")

    def __init__(self, enable_timing=False, blocking=False):
        self.enable_timing = enable_timing
        self.blocking = blocking
        self.time = None

    def __repr__(self):
        when = "not recorded" if self.time is None else f"recorded at {self.time:.6f} s"
        return f"<host event {when}>"


class _HostStreams:
    """Per runtime: its default and communication streams, and each thread's current stream."""

    def __init__(self):
        self.default = _HostStream("default")
        self.communication = _HostStream("communication")
        self.local = threading.local()


class _CapsuleHolder:
    """A bare DLPack capsule, dressed as the ``__dlpack__`` object ``numpy.from_dlpack`` takes (it checks the
    device recorded in the capsule itself)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, *args, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)   # kDLCPU; numpy refuses a capsule whose own DLTensor says otherwise


def array_layout(array):
    """``(element strides, element offset into its storage)`` of a ``numpy.ndarray`` (or of a subclass, or of the
    NumPy array a backend's buffer wraps), what :meth:`DeviceRuntime.layout` answers; None for empty elements."""
    if array.itemsize == 0:
        return None
    root = array
    while isinstance(root.base, np.ndarray):
        root = root.base
    offset = array.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    return tuple(s // array.itemsize for s in array.strides), offset // array.itemsize


class DeviceRuntime:
    """A device runtime: host transfers and synchronisation for one target, and optionally its memory
    statistics, streams and events.

    Subclasses set :attr:`target` and :attr:`is_host` and override the transfers. A runtime whose
    buffers live in host memory as ``numpy.ndarray`` (``is_host = True``) may keep the identity
    transfers below; every other runtime must override :meth:`from_host` and :meth:`to_host`.

    **Memory** (``mindspore.runtime.memory_allocated`` and the rest; all optional): :meth:`memory_stats`
    returns byte counts ``{"allocated", "reserved", "peak_allocated", "peak_reserved"}`` (by default all
    0, as MindSpore reports for the CPU), :meth:`reset_peak_memory_stats` restarts the peaks,
    :meth:`empty_cache` returns cached free memory to the device and :meth:`set_memory_limit` caps the
    memory the runtime may take (``set_context(max_device_memory=...)``, ``runtime.set_memory(max_size=...)``).

    **Streams and events** (``mindspore.runtime.Stream``/``Event``; all optional): handles are whatever
    objects the runtime chooses (core wraps them and never looks inside), made by :meth:`new_stream`,
    :meth:`default_stream`, :meth:`communication_stream`, :meth:`current_stream` (of the calling thread)
    and :meth:`new_event`, and used through :meth:`set_current_stream`, :meth:`synchronize_stream`,
    :meth:`query_stream`, :meth:`wait_event`, :meth:`record_event`, :meth:`synchronize_event`,
    :meth:`query_event` and :meth:`elapsed_time`. A runtime that launches kernels on its current stream
    overrides them all. The defaults describe a runtime without streams: one implicit host stream per
    runtime (new streams are distinct handles of the same kind, so selecting one is observable), on which
    all work is complete when its launch returns; events are always complete, and their elapsed time is
    measured by the host clock between the two ``record_event`` calls. A runtime that overrides
    :meth:`synchronize` for asynchronous work keeps correct defaults for the synchronisations (they call
    it) but should override the queries.
    """

    #: The target name this runtime serves.
    target = "CPU"
    #: Whether buffers are host ``numpy.ndarray`` objects (transfers are then free).
    is_host = True
    #: The classes of the buffers this runtime makes (``(numpy.ndarray,)``, ``(cupy.ndarray,)``): core reads a
    #: tensor made on another target (before ``set_context(device_target=...)`` changed it) through the
    #: runtime that made it. Empty: every buffer is taken to be the current runtime's.
    buffer_types = ()
    #: Whether a GRAPH_MODE graph whose control flow is decided on the host (an ``If`` on a device value, a
    #: ``While``) reaches :meth:`graph_runner` in pieces: each stretch of its kernels between two host decisions,
    #: in the graph and in every branch and loop body, as a graph of its own (see :meth:`graph_runner`).
    graph_segments = False

    def from_host(self, array):
        """A device buffer holding a copy of (or, for host runtimes, sharing) the NumPy ``array``."""
        return array

    def to_host(self, buffer):
        """A ``numpy.ndarray`` with the data of ``buffer`` (may share memory on host runtimes)."""
        return buffer

    def copy(self, buffer):
        """A new buffer on this device with the data of ``buffer`` (a Parameter made from a tensor, a clone).
        Override with a device-side copy; this default goes through the host."""
        return self.from_host(self.to_host(buffer).copy())

    def view(self, buffer, index):
        """A buffer aliasing ``buffer[index]`` for a basic ``index`` (a tuple of ints, slices, ``None`` and
        ``Ellipsis``), or None where this runtime's buffers can not alias.

        Core uses it for PYNATIVE slicing (``x[1:3]``, ``x[0]``), whose results are views as in MindSpore:
        writes through the view are seen by ``x`` and the other way round. Returning None makes the result
        a copy. The default aliases host ``numpy.ndarray`` buffers (NumPy's basic indexing)."""
        if self.is_host and isinstance(buffer, np.ndarray):
            return buffer[index]
        return None

    def write(self, buffer, index, value):
        """Write ``value`` into ``buffer[index]`` in place; True when done, False where it can not be done.

        ``index`` is basic, as for :meth:`view`; ``value`` is a buffer of this runtime with ``buffer``'s dtype
        and a shape that broadcasts to ``buffer[index]``'s. Core uses it for PYNATIVE item assignment
        (``x[0, 1:] = v``) so that views of ``x`` see the write; on False (not supported, a read-only
        buffer) it rebinds ``x`` to an updated copy instead. The default writes host ``numpy.ndarray``
        buffers that are writeable."""
        if not (self.is_host and isinstance(buffer, np.ndarray) and buffer.flags.writeable):
            return False
        buffer[index] = value
        return True

    def layout(self, buffer):
        """``(element strides, element offset into its storage)`` of ``buffer`` (``Tensor.stride()``,
        ``storage_offset()``, ``is_contiguous()``: a view can be strided), or None for a contiguous buffer of
        its own. The default reads host ``numpy.ndarray`` buffers."""
        if not (self.is_host and isinstance(buffer, np.ndarray)):
            return None
        return array_layout(buffer)

    def synchronize(self):
        """Wait until every kernel launched on this runtime has finished."""

    def graph_runner(self, graph, run):
        """What runs a compiled GRAPH_MODE graph from its second call on (optional; default: ``run``).

        ``run(*buffers) -> outputs`` runs the graph's kernels one by one (its inputs: the device buffers
        of the call's tensors, then of the network's Parameters; its outputs: a buffer or a tuple of them);
        ``graph`` is the typed graph it runs (:class:`mindspore.plugin.Graph`: ``params``, with
        ``weight`` set for network Parameters, and ``nodes``), read-only. A runtime may return another
        callable with the same contract, made once per compiled graph: the GPU backend's records the
        kernels of a steady-state call as a CUDA graph and replays it. It must compute what ``run``
        computes, including the in-place writes into Parameters' buffers, and fall back to ``run``
        whenever it cannot. Not used while a kernel hook (the profiler's) is set.

        With :attr:`graph_segments` set, a graph holding host decisions is not given whole: each stretch of two or
        more kernels between them is (``graph.flags["segment_of"]`` names the graph it was cut from; its inputs are
        tensors, ``weight`` set on those that always are a network Parameter, and its output is a tuple of tensors),
        and the host decisions run between the returned callables' calls."""
        return run

    def host_uploader(self, depth):
        """What copies dataset batches to this device ahead of their use, or ``None`` (the default: each batch
        becomes tensors through :meth:`from_host` when the training loop takes it).

        ``Model.train`` (sink and non-sink) and ``data_sink`` ask for one per run and call, from a background
        thread, ``token = uploader.put(arrays)`` with each batch's NumPy arrays (numeric dtypes, any layout):
        it starts their copies without waiting for the device and returns at once; ``depth`` such batches
        may be in flight. The training loop's thread then calls ``uploader.take(token)``, which returns the
        device buffers in the same order, ready for kernels launched on that thread's current stream (a
        runtime that copies on another stream makes the current one wait for the copies, and must keep a
        buffer's memory from being reused while kernels queued before its release may still read it).
        ``uploader.close()`` is called when the run ends."""
        return None

    def set_threads(self, n):
        """Use ``n`` threads for kernels (``set_context(runtime_num_threads=n)``); runtimes with a
        thread pool resize it."""
        self.threads = n

    # -- device queries (optional; ``mindspore.hal``) -------------------------------------------------------
    def device_name(self, device_id):
        """The name of device ``device_id`` (a str; core has checked the id against the probe's count).
        Default: the target's name, which is what MindSpore answers for the CPU."""
        return self.target

    def device_properties(self, device_id):
        """The properties of device ``device_id`` (any object with attributes such as ``name``,
        ``total_memory``, ``major``, ``minor``, ``multi_processor_count``), or ``None`` when the device has none
        to tell (the default, and MindSpore's answer for the CPU)."""
        return None

    def device_capability(self, device_id):
        """The compute capability of device ``device_id`` as ``(major, minor)``, or ``None`` (the default, and
        MindSpore's answer for the CPU)."""
        return None

    def arch_list(self):
        """The architectures this runtime's kernels were built for (a list of str, ``["sm_80", ...]``), or
        ``None`` (the default, and MindSpore's answer for the CPU)."""
        return None

    # -- DLPack (optional; ``mindspore.utils.to_dlpack``/``from_dlpack``) ------------------------------------
    def to_dlpack(self, buffer):
        """A DLPack capsule sharing ``buffer``'s memory. Default: the buffer's own ``__dlpack__()`` (NumPy and
        CuPy arrays have one)."""
        if not hasattr(buffer, "__dlpack__"):
            raise MSRuntimeError(f"The device runtime of '{self.target}' cannot export DLPack data: its buffers "
                                 f"({type(buffer).__name__}) have no '__dlpack__'.")
        return buffer.__dlpack__()

    def from_dlpack(self, source):
        """A buffer of this runtime sharing the memory of ``source`` (a DLPack capsule or an object with
        ``__dlpack__``). Default, for host runtimes: ``numpy.from_dlpack`` (host memory only); other runtimes
        override it (CuPy's ``cupy.from_dlpack``)."""
        if not self.is_host:
            raise MSRuntimeError(f"The device runtime of '{self.target}' cannot import DLPack data: it does not "
                                 f"implement 'from_dlpack'.")
        if type(source).__name__ == "PyCapsule":
            source = _CapsuleHolder(source)
        try:
            return np.from_dlpack(source)
        except (RuntimeError, BufferError, TypeError, ValueError) as e:
            raise MSRuntimeError(f"from_dlpack received an invalid capsule or one this device cannot read: {e}. "
                                 f"Note that DLTensor capsules can be consumed only once.") from e

    # -- memory (optional) -----------------------------------------------------------------------------
    def memory_stats(self):
        """Byte counts of this device's memory, a dict with int values: ``allocated`` (held by live buffers),
        ``reserved`` (taken from the device by the runtime's allocator, cached free blocks included), and
        ``peak_allocated``/``peak_reserved`` (their highest values since the runtime started or the last
        :meth:`reset_peak_memory_stats`; a runtime documents how exactly it tracks them). Default: all 0."""
        return {"allocated": 0, "reserved": 0, "peak_allocated": 0, "peak_reserved": 0}

    def reset_peak_memory_stats(self, allocated=True, reserved=True):
        """Restart the peak of allocated and/or reserved memory from its current value."""

    def empty_cache(self):
        """Return the allocator's cached free memory to the device (memory held by buffers stays)."""

    def set_memory_limit(self, nbytes):
        """Cap the device memory this runtime may take at ``nbytes`` (an int); allocations beyond it fail
        with the runtime's out-of-memory error. The default only records it as ``memory_limit``."""
        self.memory_limit = nbytes

    # -- streams and events (optional) ----------------------------------------------------------------
    def _host_streams(self):
        state = self.__dict__.get("_ms_host_streams")
        if state is None:
            state = self.__dict__.setdefault("_ms_host_streams", _HostStreams())
        return state

    def new_stream(self, priority=0):
        """A new stream handle (``priority``: lower numbers are higher priorities, 0 the default)."""
        return _HostStream("stream", priority)

    def default_stream(self):
        """The handle of the stream kernels run on unless another is made current."""
        return self._host_streams().default

    def communication_stream(self):
        """The handle of the stream meant for collective communication."""
        return self._host_streams().communication

    def current_stream(self):
        """The handle of the calling thread's current stream (where kernels are launched)."""
        return getattr(self._host_streams().local, "stream", None) or self._host_streams().default

    def set_current_stream(self, stream):
        """Make ``stream`` (a handle of this runtime) the calling thread's current stream."""
        self._host_streams().local.stream = stream

    def synchronize_stream(self, stream):
        """Wait until all work launched on ``stream`` has finished."""
        self.synchronize()

    def query_stream(self, stream):
        """Whether all work launched on ``stream`` has finished (never blocks)."""
        return True

    def wait_event(self, stream, event):
        """Make work launched on ``stream`` from now on wait for ``event`` (returns at once)."""

    def new_event(self, enable_timing=False, blocking=False):
        """A new event handle; ``enable_timing``: it can measure time; ``blocking``: synchronising on it
        blocks the host thread (rather than spinning)."""
        return _HostEvent(enable_timing, blocking)

    def record_event(self, event, stream):
        """Record ``event`` on ``stream``: it completes when the work launched there before it has."""
        event.time = time.perf_counter()

    def synchronize_event(self, event):
        """Wait until the work ``event`` captured has finished."""
        self.synchronize()

    def query_event(self, event):
        """Whether the work ``event`` captured has finished (never blocks)."""
        return True

    def elapsed_time(self, start, end):
        """Milliseconds (a float) between the recordings of the events ``start`` and ``end`` (both recorded,
        with timing enabled; core checks that)."""
        return (end.time - start.time) * 1000.0
