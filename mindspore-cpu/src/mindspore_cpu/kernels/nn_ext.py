"""CPU kernels of ``mindspore/ops/_defs/nn_ext.py`` (element-wise losses and image resizing): mindspore-array-kernels'
``nn_ext`` family bound to NumPy (the GPU backend binds the same source to CuPy), with float16 computing in float32
(and cast back to float16: the losses and resize gradients used to return float32 for float16 inputs, which the
runtime refused), and the resize gradients' scatter by ``np.add.reduceat`` over the sorted source indices (no
per-element Python loop).
"""
import numpy as np

from mindspore_array_kernels import bind
from mindspore_cpu.kernels._half import wide as _wide


def _scatter_axis(g, axis, idx, n):
    """The adjoint of ``np.take(x, idx, axis)`` for an ``x`` with ``n`` entries on ``axis``."""
    if np.any(idx[1:] < idx[:-1]):  # resize indices are monotonic; sort only if someone passes others
        order = np.argsort(idx, kind="stable")
        idx = idx[order]
        g = np.take(g, order, axis=axis)
    uniq, start = np.unique(idx, return_index=True)
    summed = np.add.reduceat(g, start, axis=axis)
    if uniq.size == n:  # every source index is hit (upsampling): already in place
        return summed
    shape = list(g.shape)
    shape[axis] = n
    out = np.zeros(shape, g.dtype)
    index = [slice(None)] * g.ndim
    index[axis] = uniq
    out[tuple(index)] = summed
    return out


KERNELS = bind("nn_ext", globals(), xp=np, dev=np.asarray, host=np.asarray, wide=_wide,
               scatter_axis=_scatter_axis)["KERNELS"]
