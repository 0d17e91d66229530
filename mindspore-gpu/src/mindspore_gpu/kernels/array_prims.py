"""GPU kernels of ``mindspore/ops/_defs/array_prims.py``: mindspore-array-kernels' ``array_prims`` family bound to
CuPy (the CPU backend binds the same source to NumPy; ``FFTWithSize`` on cuFFT, the views strided device arrays
sharing their input's memory), and this backend's ``CopyWithSlice``, which writes ``src`` into ``self``'s device
buffer."""
import cupy
import cupy.fft  # noqa: F401  (FFTWithSize: xp.fft)

from mindspore_array_kernels import bind
from mindspore_gpu.kernels import array_more
from mindspore_gpu.kernels._common import dev


def _host(a):
    return cupy.asnumpy(dev(a))


KERNELS = bind("array_prims", globals(), xp=cupy, dev=dev, host=_host, back=cupy.asarray,
               batch_to_space=array_more._batch_to_space)["KERNELS"]


def _copy_with_slice(prim, x, src, *, out):
    x = dev(x)
    cupy.copyto(x, dev(src))
    return x.copy()


KERNELS["CopyWithSlice"] = _copy_with_slice
