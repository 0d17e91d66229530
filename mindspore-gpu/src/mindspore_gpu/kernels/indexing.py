"""GPU kernels of ``mindspore/ops/_defs/indexing.py`` (gather/scatter, strided slicing, padding, selection,
sorting): mindspore-array-kernels' ``indexing`` family bound to CuPy (the CPU backend binds the same source to
NumPy), with ``_common.dev`` (no copy for a CuPy array already on the device: ``ScatterNdUpdate`` writes into it,
and writes a host buffer back), ``cupy.asnumpy`` (an explicit copy: the scalars given as tensors), scatter-adds by
CUDA's atomic add (``_common.scatter_add``: their float sums in no fixed order) and ``_common.sortable`` (bfloat16,
which CuPy cannot sort, sorts as float32). The index bounds are read back from the device in one copy, which
synchronises; a stream capturing a CUDA graph refuses it, so a captured step (``mindspore_gpu.capture``) does
without the check, as the plain steps before it made it.
"""
import cupy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev, scatter_add, sortable


def _extremes(idx):
    if cupy.cuda.get_current_stream().is_capturing():
        return None
    lo, hi = (int(v) for v in cupy.asnumpy(cupy.stack((idx.min(), idx.max()))))   # one read-back
    return lo, hi


KERNELS = bind("indexing", globals(), xp=cupy, dev=dev, host=cupy.asnumpy, extremes=_extremes, add_at=scatter_add,
               add_rows=scatter_add, sortable=sortable)["KERNELS"]
