"""GPU kernels of ``mindspore/ops/_defs/sparse.py``: mindspore-array-kernels' ``sparse`` family bound to CuPy (the CPU
backend binds the same source to NumPy), with ``_common.dev`` (no copy for a CuPy array already on the device),
``_host`` (the index arrays of a sparse operand, small next to its values, read back once: their checks and
arithmetic run on the host), ``cupy.asarray`` (the host indices moved over), ``_common.scatter_add`` for the sums
(CUDA's atomic add, repeated indices summed) and this backend's ``Gather`` for ``SparseGatherV2``.
"""
import cupy
import numpy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev, scatter_add
from mindspore_gpu.kernels.indexing import KERNELS as _INDEXING


def _host(a):
    """``a`` as NumPy: a device array copied back, anything else (a shape given as a tuple) as it is."""
    return numpy.asarray(cupy.asnumpy(a) if isinstance(a, cupy.ndarray) else a)


KERNELS = bind("sparse", globals(), xp=cupy, dev=dev, host=_host, back=cupy.asarray, add_at=scatter_add,
               indexing=_INDEXING)["KERNELS"]
