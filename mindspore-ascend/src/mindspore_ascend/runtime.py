"""The Ascend device runtime: buffers are blocks of device memory allocated through pyACL.

A buffer (:class:`AscendBuffer`) knows its shape and NumPy dtype and frees its memory when it is
collected. Transfers are synchronous ``acl.rt.memcpy`` calls between the buffer and the memory of a
contiguous host array (addressed through ``ndarray.ctypes.data``, which every pyACL version accepts).
"""
import numpy as np

from mindspore.plugin import DeviceRuntime, MSRuntimeError, MSValueError

ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_ERROR_REPEAT_INITIALIZE = 100002


def _check(ret, what):
    if ret != 0:
        raise MSRuntimeError(f"The Ascend runtime failed: {what} returned ACL error {ret}.")


class AscendBuffer:
    """``nbytes`` bytes of device memory holding an array of ``shape`` and ``dtype``."""

    __slots__ = ("ptr", "shape", "dtype", "nbytes", "_acl")

    def __init__(self, acl, shape, dtype):
        self._acl = acl
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.nbytes = int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize
        self.ptr = None
        # aclrtMalloc refuses size 0; an empty array still gets a (1-byte) block.
        ptr, ret = acl.rt.malloc(max(self.nbytes, 1), ACL_MEM_MALLOC_HUGE_FIRST)
        _check(ret, "aclrtMalloc")
        self.ptr = ptr

    @property
    def ndim(self):
        return len(self.shape)

    def __del__(self):
        if self.ptr is not None:
            self._acl.rt.free(self.ptr)
            self.ptr = None


class AscendRuntime(DeviceRuntime):
    target = "Ascend"
    is_host = False

    def __init__(self, device_id=0):
        import acl
        self._acl = acl
        ret = acl.init()
        if ret not in (0, ACL_ERROR_REPEAT_INITIALIZE):
            _check(ret, "aclInit")
        count, ret = acl.rt.get_device_count()
        _check(ret, "aclrtGetDeviceCount")
        if not isinstance(device_id, int) or not 0 <= device_id < count:
            raise MSValueError(f"For 'set_context', the 'device_id' must be in [0, {count}) on this machine, "
                               f"but got {device_id!r}.")
        _check(acl.rt.set_device(device_id), "aclrtSetDevice")
        self.device_id = device_id

    def from_host(self, array):
        host = np.asarray(array, order="C")  # (ascontiguousarray would turn a 0-d array into 1-d)
        buf = AscendBuffer(self._acl, host.shape, host.dtype)
        if buf.nbytes:
            _check(self._acl.rt.memcpy(buf.ptr, buf.nbytes, host.ctypes.data, buf.nbytes, ACL_MEMCPY_HOST_TO_DEVICE),
                   "aclrtMemcpy (host to device)")
        return buf

    def to_host(self, buffer):
        if isinstance(buffer, np.ndarray):
            return buffer
        host = np.empty(buffer.shape, dtype=buffer.dtype)
        if buffer.nbytes:
            _check(self._acl.rt.memcpy(host.ctypes.data, buffer.nbytes, buffer.ptr, buffer.nbytes,
                                       ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy (device to host)")
        return host

    def synchronize(self):
        _check(self._acl.rt.synchronize_device(), "aclrtSynchronizeDevice")
