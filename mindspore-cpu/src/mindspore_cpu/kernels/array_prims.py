"""CPU kernels of ``mindspore/ops/_defs/array_prims.py``: mindspore-array-kernels' ``array_prims`` family bound to
NumPy (the GPU backend binds the same source to CuPy), and this backend's ``CopyWithSlice``, which writes ``src``
into ``self``'s buffer when it is writeable."""
import numpy as np

from mindspore_array_kernels import bind
from mindspore_cpu.kernels import array_more

KERNELS = bind("array_prims", globals(), xp=np, dev=np.asarray, host=np.asarray, back=np.ascontiguousarray,
               batch_to_space=array_more._batch_to_space)["KERNELS"]


def _copy_with_slice(prim, x, src, out=None):
    if isinstance(x, np.ndarray) and x.flags.writeable:
        np.copyto(x, src)
        return x.copy()
    return np.array(src, copy=True)


KERNELS["CopyWithSlice"] = _copy_with_slice
