"""The GPU device runtime: buffers are ``cupy.ndarray`` objects on one CUDA device.

Kernels are launched on CuPy's current stream of that device, so ``synchronize`` waits for the
device; transfers (``from_host``/``to_host``) are synchronous copies.
"""
import cupy

from mindspore.plugin import DeviceRuntime, MSTypeError, MSValueError

# NumPy dtypes CuPy has no kernels for (ml_dtypes' extension types).
_UNSUPPORTED = ("bfloat16", "float8_e4m3fn", "float8_e5m2")


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

    def from_host(self, array):
        if array.dtype.name in _UNSUPPORTED:
            raise MSTypeError(f"For 'Tensor', the GPU backend does not support dtype {array.dtype.name} "
                              f"(CuPy has no kernels for it); use float16 or float32.")
        with self.device:
            return cupy.asarray(array)

    def to_host(self, buffer):
        return cupy.asnumpy(buffer)

    def copy(self, buffer):
        with self.device:
            return cupy.array(buffer, copy=True)

    def synchronize(self):
        self.device.synchronize()
