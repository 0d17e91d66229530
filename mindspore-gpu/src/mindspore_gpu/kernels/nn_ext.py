"""GPU kernels of ``mindspore/ops/_defs/nn_ext.py`` (element-wise losses and image resizing): mindspore-array-kernels'
``nn_ext`` family bound to CuPy (the CPU backend binds the same source to NumPy), with ``_common.dev`` (no copy for a
CuPy array already on the device), ``_common.wide`` (float16 and bfloat16 compute in float32) and, for the resize
gradients, a scatter by CUDA's atomic add (``_common.scatter_add``). The resize coordinates are computed on the host
(in the CPU kernels' float32 arithmetic, bit for bit) and moved to the device once per call.
"""
import cupy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev, scatter_add, wide


KERNELS = bind("nn_ext", globals(), xp=cupy, dev=dev, host=cupy.asnumpy, wide=wide, add_at=scatter_add)["KERNELS"]
