"""The GPU device runtime: buffers are ``cupy.ndarray`` objects on one CUDA device.

Kernels are launched on CuPy's current stream of that device, so ``synchronize`` waits for the
device (every stream); transfers (``from_host``/``to_host``) are synchronous copies. Dataset batches of
``Model.train`` are copied ahead of use from pinned memory on a copy stream (``host_uploader``,
:mod:`mindspore_gpu.upload`).

Memory is CuPy's default memory pool (``cupy.get_default_memory_pool()``), for this runtime's device:
allocated = ``used_bytes()`` (held by live arrays), reserved = ``total_bytes()`` (taken from CUDA, cached
free blocks included), ``empty_cache`` = ``free_all_blocks()``, the memory limit = ``set_limit(size=...)``.
CuPy's pool keeps no peaks, and a hook on every allocation would cost each operator a Python call, so the
peaks are **high-water marks sampled** by this runtime: at every memory query, every synchronisation (of
the device, a stream or an event), every copy to the host (``Tensor.asnumpy()``, printing) and before
``empty_cache``. A peak that rises and falls between two samples (an activation freed before the step's
loss is read) is missed; the reserved peak is exact in practice, since the pool only gives memory back in
``empty_cache`` (sampled first) or when an allocation fails. Peaks belong to the device, not the runtime
object, and ``reset_peak_memory_stats`` restarts them from the current values.

Streams are ``cupy.cuda.Stream`` objects: new ones are non-blocking (they do not wait for the legacy
default stream), the default stream is CuPy's (``Stream.null``, or ``Stream.ptds`` when
``CUPY_CUDA_PER_THREAD_DEFAULT_STREAM`` is set), and the current stream is CuPy's, per thread, which is where
every kernel and transfer is launched. Events are ``cupy.cuda.Event`` objects, timed with
``cupy.cuda.get_elapsed_time``.
"""
import os
import threading

import cupy

from mindspore.plugin import DeviceRuntime, MSTypeError, MSValueError
from mindspore_gpu import upload
from mindspore_gpu.kernels._common import UNSUPPORTED_DTYPES

# (UNSUPPORTED_DTYPES: NumPy dtypes CuPy has no kernels for, ml_dtypes' float8 types. bfloat16 (``ml_dtypes.bfloat16``)
# is taken: CuPy 14 transfers, casts and computes it (its sorts and scans excepted, which the kernels run in float32).)

#: CuPy's default stream is the per-thread one when this variable is set (CuPy reads it once, at import).
_PER_THREAD_DEFAULT_STREAM = os.environ.get("CUPY_CUDA_PER_THREAD_DEFAULT_STREAM", "0").strip() not in ("", "0")
_lock = threading.Lock()
#: Per device id: ``[peak allocated, peak reserved]`` observed (see the module docstring).
_peaks: dict = {}
#: Per device id: the stream handed out as the communication stream, made on first use.
_communication: dict = {}


class GPURuntime(DeviceRuntime):
    target = "GPU"
    is_host = False
    buffer_types = (cupy.ndarray,)

    def __init__(self, device_id=0):
        n = cupy.cuda.runtime.getDeviceCount()
        if not isinstance(device_id, int) or not 0 <= device_id < n:
            raise MSValueError(f"For 'set_context', the 'device_id' must be in [0, {n}) on this machine, "
                               f"but got {device_id!r}.")
        self.device_id = device_id
        self.device = cupy.cuda.Device(device_id)
        self.device.use()
        self.pool = cupy.get_default_memory_pool()
        with _lock:
            self._peaks = _peaks.setdefault(device_id, [0, 0])

    def from_host(self, array):
        if array.dtype in UNSUPPORTED_DTYPES:
            raise MSTypeError(f"For 'Tensor', the GPU backend does not support dtype {array.dtype.name} "
                              f"(CuPy has no kernels for it); use bfloat16, float16 or float32.")
        with self.device:
            return cupy.asarray(array)

    def to_host(self, buffer):
        self._sample()
        return cupy.asnumpy(buffer)

    def copy(self, buffer):
        with self.device:
            return cupy.array(buffer, copy=True)

    def view(self, buffer, index):
        return buffer[index]          # CuPy's basic indexing aliases, as NumPy's does

    def layout(self, buffer):
        if buffer.itemsize == 0:
            return None
        return (tuple(s // buffer.itemsize for s in buffer.strides),
                (buffer.data.ptr - buffer.data.mem.ptr) // buffer.itemsize)

    def write(self, buffer, index, value):
        with self.device:
            if isinstance(value, cupy.ndarray) and cupy.may_share_memory(buffer, value):
                value = value.copy()      # x[1:] = x[:-1]: CuPy's copy kernel does not order overlapping reads
            buffer[index] = value
        return True

    def synchronize(self):
        self.device.synchronize()
        self._sample()

    def host_uploader(self, depth):
        """Dataset batches copied ahead from pinned memory on a copy stream (:mod:`mindspore_gpu.upload`)."""
        return upload.HostUploader(self.device, depth)

    #: a graph with host decisions (the loss-scaled step's overflow branch) is captured stretch by stretch
    graph_segments = True

    def graph_runner(self, graph, run):
        """Steady-state GRAPH_MODE calls replay a captured CUDA graph (:mod:`mindspore_gpu.capture`)."""
        from mindspore_gpu import capture
        return capture.graph_runner(graph, run, device=self.device)

    # -- memory -----------------------------------------------------------------------------------------
    def _sample(self):
        """``(allocated, reserved)`` now, raising the peaks to them."""
        with self.device:
            used, total = self.pool.used_bytes(), self.pool.total_bytes()
        peaks = self._peaks
        if used > peaks[0]:
            peaks[0] = used
        if total > peaks[1]:
            peaks[1] = total
        return used, total

    def memory_stats(self):
        used, total = self._sample()
        peaks = self._peaks
        return {"allocated": used, "reserved": total, "peak_allocated": max(peaks[0], used),
                "peak_reserved": max(peaks[1], total)}

    def reset_peak_memory_stats(self, allocated=True, reserved=True):
        with self.device:
            used, total = self.pool.used_bytes(), self.pool.total_bytes()
        if allocated:
            self._peaks[0] = used
        if reserved:
            self._peaks[1] = total

    def empty_cache(self):
        self._sample()
        with self.device:
            if upload.has_returned(self.device_id):   # dataset batches' blocks held back for the compute stream
                self.device.synchronize()
                upload.release_returned(self.device_id)
            self.pool.free_all_blocks()

    def set_memory_limit(self, nbytes):
        with self.device:
            self.pool.set_limit(size=int(nbytes))
        self.memory_limit = int(nbytes)

    # -- streams and events -----------------------------------------------------------------------------
    def new_stream(self, priority=0):
        with self.device:
            return cupy.cuda.Stream(non_blocking=True, priority=priority)

    def default_stream(self):
        return cupy.cuda.Stream.ptds if _PER_THREAD_DEFAULT_STREAM else cupy.cuda.Stream.null

    def communication_stream(self):
        with _lock:
            stream = _communication.get(self.device_id)
            if stream is None:
                stream = _communication[self.device_id] = self.new_stream()
            return stream

    def current_stream(self):
        return cupy.cuda.get_current_stream(self.device_id)

    def set_current_stream(self, stream):
        with self.device:
            stream.use()

    def synchronize_stream(self, stream):
        stream.synchronize()
        self._sample()

    def query_stream(self, stream):
        return stream.done

    def wait_event(self, stream, event):
        stream.wait_event(event)

    def new_event(self, enable_timing=False, blocking=False):
        with self.device:
            return cupy.cuda.Event(block=blocking, disable_timing=not enable_timing)

    def record_event(self, event, stream):
        with self.device:
            event.record(stream)

    def synchronize_event(self, event):
        event.synchronize()
        self._sample()

    def query_event(self, event):
        return event.done

    def elapsed_time(self, start, end):
        end.synchronize()
        return cupy.cuda.get_elapsed_time(start, end)

    # -- device queries (mindspore.hal) and DLPack (mindspore.utils) -------------------------------------
    def device_name(self, device_id):
        return _properties(device_id)["name"]

    def device_properties(self, device_id):
        props = _properties(device_id)
        with cupy.cuda.Device(device_id):
            free, _total = cupy.cuda.runtime.memGetInfo()
        return _GpuDeviceProperties(name=props["name"], major=props["major"], minor=props["minor"],
                                    is_multi_gpu_board=props.get("isMultiGpuBoard", 0),
                                    is_integrated=props.get("integrated", 0),
                                    multi_processor_count=props["multiProcessorCount"],
                                    total_memory=props["totalGlobalMem"], free_memory=free)

    def device_capability(self, device_id):
        props = _properties(device_id)
        return props["major"], props["minor"]

    def arch_list(self):
        # kernels are compiled by NVRTC for the device they run on: the architectures of this machine's GPUs
        n = cupy.cuda.runtime.getDeviceCount()
        return sorted({f"sm_{_properties(i)['major']}{_properties(i)['minor']}" for i in range(n)})

    def from_dlpack(self, source):
        with self.device:
            return cupy.from_dlpack(source)


def _properties(device_id):
    props = dict(cupy.cuda.runtime.getDeviceProperties(device_id))
    name = props.get("name", b"")
    props["name"] = name.decode() if isinstance(name, bytes) else str(name)
    return props


class _GpuDeviceProperties:
    """What ``mindspore.hal.get_device_properties`` answers for a GPU (MindSpore's attribute names)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __repr__(self):
        return (f"_GpuDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"is_multi_gpu_board={self.is_multi_gpu_board}, is_integrated={self.is_integrated}, "
                f"multi_processor_count={self.multi_processor_count}, "
                f"total_memory={self.total_memory // (1 << 20)}MB, free_memory={self.free_memory // (1 << 20)}MB)")
