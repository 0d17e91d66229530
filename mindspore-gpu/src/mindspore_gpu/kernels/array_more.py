"""GPU kernels of ``mindspore/ops/_defs/array_more.py`` (``Roll``, ``Diag``, ``IndexAdd``, ``IndexFill``,
``MaskedScatter``, the ``Inplace*`` row updates, ``UniqueConsecutive``, the ``BatchToSpace``/``SpaceToBatch``
forms, ...): mindspore-array-kernels' ``array_more`` family bound to CuPy (the CPU backend binds the same source to
NumPy), with ``_common.dev`` (no copy for a CuPy array already on the device), ``cupy.asnumpy`` (an explicit copy:
the scalars given as tensors, ``UnravelIndex``'s dims, ``MaskedScatter``'s count and the index checks, which
synchronise) and ``_common.scatter_add`` (CUDA's atomic add) for ``IndexAdd``'s repeated indices.
"""
import cupy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev, scatter_add

KERNELS = bind("array_more", globals(), xp=cupy, dev=dev, host=cupy.asnumpy, add_at=scatter_add)["KERNELS"]
