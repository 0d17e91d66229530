"""Dataset batches copied to the GPU ahead of use: the runtime's host uploader (``Model.train``'s feed, sink and
non-sink, and ``data_sink``; core's device feed of ``mindspore.train`` drives it).

``put``, on the feed's thread, copies each array of a batch into a page-locked (pinned) staging block and
starts its copy to the device on the device's copy stream (one per device, shared by every uploader), into
memory taken from CuPy's pool while that stream is current; an event recorded after the batch's copies is
its token. ``take``, on the training loop's thread, makes the loop's current stream wait for that event: the
copies overlap the kernels of the step before, and neither the host nor the compute stream waits for them.

Two reuses must wait for the device:

* **Staging blocks.** Each column has a ring of ``depth + 2`` pinned blocks; before a block is overwritten,
  the event of the copy that last read it is synchronised (long completed unless the device lags that many
  batches behind). A block too small for a batch is replaced. ``close`` waits for the copies still reading
  the blocks before letting them go.
* **Device memory.** CuPy's pool gives a freed block back to the arena of the stream it was allocated on,
  where the next allocation on that stream may take it at once. A batch's memory belongs to the copy stream's
  arena, but the kernels reading it run on the training loop's stream and may still be queued when the
  batch's last array dies. So the arrays handed out own their memory through a lease: when an array dies,
  its lease's finalizer (which makes no CUDA call) puts the block on its device's return list; the next
  ``put`` records an event on the stream batches were last taken on, after everything queued there (every
  kernel that read the block was queued before the array died), and the block goes back to the pool only
  once that event has completed. ``GPURuntime.empty_cache`` synchronises the device first and so gives every
  returned block back. Blocks of batches never taken are given back at once (only the copy stream touched
  them). Kernels that read a batch on streams other than the one it was taken on must be ordered before its
  release by the user, as with any CuPy array used across streams.
"""
import ctypes
import threading

import cupy
import numpy as np

__all__ = ["HostUploader", "copy_stream", "has_returned", "release_returned"]

_lock = threading.Lock()
#: Per device id: its copy stream (made on first use, never destroyed) and its :class:`_Returns`.
_streams: dict = {}
_returns: dict = {}


class _Returns:
    """One device's blocks whose arrays died (``returned``: appended by finalizers) and those waiting for an
    event on the stream batches were taken on (``pending``)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.returned = []
        self.pending = []
        self.consumer = None

    def reclaim(self):
        """Put the returned blocks behind an event on the consumer's stream; give back those whose event is done."""
        with self.lock:
            n = len(self.returned)
            if n:
                blocks = self.returned[:n]
                del self.returned[:n]         # (finalizers may append meanwhile: only the first n are taken)
                if self.consumer is not None:
                    event = cupy.cuda.Event(disable_timing=True)
                    event.record(self.consumer)
                    self.pending.append((event, blocks))
                del blocks                    # never taken: only the copy stream touched them
            if self.pending:
                self.pending = [(event, blocks) for event, blocks in self.pending if not event.done]

    def release_all(self):
        """Every returned block back to the pool (the caller has synchronised the device)."""
        with self.lock:
            del self.returned[:len(self.returned)]
            self.pending = []


class _Lease:
    """Owns a batch array's pool block; its death hands the block to the device's return list."""

    __slots__ = ("block", "returns")

    def __init__(self, block, returns):
        self.block, self.returns = block, returns

    def __del__(self):
        self.returns.returned.append(self.block)


def _returns_of(device_id):
    with _lock:
        returns = _returns.get(device_id)
        if returns is None:
            returns = _returns[device_id] = _Returns()
        return returns


def copy_stream(device):
    """The stream host batches are copied on, for ``device`` (a ``cupy.cuda.Device``)."""
    with _lock:
        stream = _streams.get(device.id)
        if stream is None:
            with device:
                stream = _streams[device.id] = cupy.cuda.Stream(non_blocking=True)
        return stream


def has_returned(device_id):
    """Whether blocks returned on ``device_id`` wait to go back to the pool."""
    returns = _returns.get(device_id)
    return returns is not None and bool(returns.returned or returns.pending)


def release_returned(device_id):
    """After a synchronisation of the device: every block returned on it goes back to the pool."""
    returns = _returns.get(device_id)
    if returns is not None:
        returns.release_all()


class HostUploader:
    """The GPU runtime's host uploader (``DeviceRuntime.host_uploader``; see the module docstring)."""

    def __init__(self, device, depth):
        self.device = device
        self.slots = max(1, int(depth)) + 2
        self.stream = copy_stream(device)
        self.returns = _returns_of(device.id)
        self.rings = []        # per column: {"slots": [[pinned, capacity, event]], "next": index}

    def put(self, arrays):
        """Start copying ``arrays`` (NumPy) to the device; returns the token :meth:`take` takes."""
        used = []
        with self.device, self.stream:
            self.returns.reclaim()
            buffers = [self._upload(column, a, used) for column, a in enumerate(arrays)]
            event = self.stream.record()
        for slot in used:
            slot[2] = event
        return buffers, event

    def take(self, token):
        """The batch's device arrays, ready for kernels on the calling thread's current stream."""
        buffers, event = token
        with self.device:
            stream = cupy.cuda.get_current_stream()
            stream.wait_event(event)
        self.returns.consumer = stream
        return buffers

    def close(self):
        """Wait for the copies still reading the staging blocks, then let the blocks go."""
        for ring in self.rings:
            for slot in ring["slots"]:
                if slot[2] is not None:
                    slot[2].synchronize()
        self.rings = []

    def _upload(self, column, a, used):
        nbytes = a.nbytes
        if nbytes == 0:
            return cupy.empty(a.shape, a.dtype)
        slot = self._slot(column, nbytes)
        staged = np.frombuffer(slot[0], np.uint8, nbytes).view(a.dtype).reshape(a.shape)
        np.copyto(staged, a)
        block = cupy.cuda.alloc(nbytes)          # from the copy stream's arena (it is the current stream)
        memory = cupy.cuda.UnownedMemory(block.ptr, nbytes, _Lease(block, self.returns), self.device.id)
        pointer = cupy.cuda.MemoryPointer(memory, 0)
        pointer.copy_from_host_async(ctypes.c_void_p(slot[0].ptr), nbytes, self.stream)
        used.append(slot)
        return cupy.ndarray(a.shape, a.dtype, memptr=pointer)

    def _slot(self, column, nbytes):
        """The next staging block of ``column``, free to overwrite, holding at least ``nbytes``."""
        while len(self.rings) <= column:
            self.rings.append({"slots": [], "next": 0})
        ring = self.rings[column]
        slots = ring["slots"]
        if len(slots) < self.slots:
            slot = [None, 0, None]
            slots.append(slot)
        else:
            slot = slots[ring["next"]]
            ring["next"] = (ring["next"] + 1) % len(slots)
            if slot[2] is not None:
                slot[2].synchronize()            # the copy that last read this block
                slot[2] = None
        if slot[1] < nbytes:
            slot[0], slot[1] = cupy.cuda.alloc_pinned_memory(nbytes), nbytes
        return slot
