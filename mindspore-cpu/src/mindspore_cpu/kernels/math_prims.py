"""CPU kernels of ``mindspore/ops/_defs/math_prims.py``: mindspore-array-kernels' ``math_prims`` family bound to
NumPy (the GPU backend binds the same source to CuPy); segment reductions through NumPy's ``ufunc.at``."""
import numpy as np

from mindspore_array_kernels import bind
from mindspore_cpu.kernels.array_more import KERNELS as _ARRAY_MORE

_UFUNC = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}


def _reduce_segments(kind, flat, ids, n, fill):
    """``out[s] = reduce(flat[ids == s])`` for ``s < n`` (``fill`` where no id is ``s``); ids outside drop."""
    out = np.full((n,) + flat.shape[1:], fill, flat.dtype)
    keep = (ids >= 0) & (ids < n)
    _UFUNC[kind].at(out, ids[keep], flat[keep])
    return out


def _counts(ids, n):
    keep = (ids >= 0) & (ids < n)
    return np.bincount(ids[keep], minlength=n)[:n]


def _same(x):
    return x


KERNELS = bind("math_prims", globals(), xp=np, dev=np.asarray, host=np.asarray, back=np.asarray,
               array_more=_ARRAY_MORE, add_at=np.add.at, sortable=_same, reduce_segments=_reduce_segments,
               counts=_counts)["KERNELS"]
