"""GPU kernels of ``mindspore/ops/_defs/nn_ext.py`` (element-wise losses and image resizing): mindspore-array-kernels'
``nn_ext`` family bound to CuPy (the CPU backend binds the same source to NumPy), with ``_common.dev`` (no copy for a
CuPy array already on the device), ``_common.wide`` (float16 and bfloat16 compute in float32) and, for the resize
gradients, a scatter by CUDA's atomic add (``_common.scatter_add``). The resize coordinates are computed on the host
(in the CPU kernels' float32 arithmetic, bit for bit) and moved to the device once per call.
"""
import cupy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev, scatter_add, wide


def _scatter_axis(g, axis, idx, n):
    """The adjoint of ``take(x, idx, axis)`` for an ``x`` with ``n`` entries on ``axis`` (``idx`` on the host)."""
    shape = list(g.shape)
    shape[axis] = n
    r = cupy.zeros(shape, g.dtype)
    scatter_add(r, (slice(None),) * axis + (cupy.asarray(idx),), g)
    return r


KERNELS = bind("nn_ext", globals(), xp=cupy, dev=dev, host=cupy.asnumpy, wide=wide,
               scatter_axis=_scatter_axis)["KERNELS"]
