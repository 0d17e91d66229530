"""The CPU device runtime: buffers are host ``numpy.ndarray`` objects, so transfers are free.

Allocation: a training step allocates and frees the same large buffers (activations, gradients)
every step. glibc serves blocks over its mmap threshold with fresh ``mmap`` calls, whose pages fault
in again on first touch each step; measured here, that doubled the step time of a 784-512-512-10
MLP. Like the caching allocators of other frameworks, the runtime keeps freed memory in the process:
it raises glibc's mmap and trim thresholds once, when the CPU backend is first used (never at
import). ``MS_CPU_ALLOCATOR=system`` leaves glibc's defaults alone.

Memory statistics, streams and events keep :class:`mindspore.plugin.DeviceRuntime`'s defaults, which are
MindSpore's CPU behaviour: every ``mindspore.runtime`` memory count is 0 (buffers are ordinary process
memory, in no pool of ours; ``empty_cache`` has nothing to free and the memory limit is only recorded),
and there is one implicit host stream, on which each kernel has finished when it returns, with events
timed by the host clock.
"""
import ctypes
import ctypes.util
import os

import numpy as np

from mindspore.plugin import DeviceRuntime

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_CACHED_BYTES = 1 << 30
_tuned = [False]


def _keep_freed_memory():
    """Serve allocations up to 1 GiB from the heap and keep up to 1 GiB of freed memory (glibc only)."""
    if _tuned[0] or os.environ.get("MS_CPU_ALLOCATOR", "caching") == "system":
        return False
    _tuned[0] = True
    name = ctypes.util.find_library("c")
    if not name:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):   # not glibc (musl, macOS): nothing to tune
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    ok = mallopt(_M_MMAP_THRESHOLD, _CACHED_BYTES) == 1
    return bool(mallopt(_M_TRIM_THRESHOLD, _CACHED_BYTES) == 1 and ok)


class CPURuntime(DeviceRuntime):
    target = "CPU"
    is_host = True
    buffer_types = (np.ndarray,)

    def __init__(self):
        from mindspore_cpu.kernels._native import _kernels
        self.threads = _kernels.num_threads()
        self.caching_allocator = _keep_freed_memory()

    def set_threads(self, n):
        """The thread team size of the C++ kernels, from every thread that launches them."""
        from mindspore_cpu.kernels._native import _kernels
        _kernels.set_num_threads(n)
        self.threads = _kernels.num_threads()

    def from_host(self, array):
        return array

    def to_host(self, buffer):
        return buffer

    def copy(self, buffer):
        return buffer.copy()

    def synchronize(self):
        pass
