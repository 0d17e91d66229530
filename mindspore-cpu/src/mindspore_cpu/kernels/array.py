"""CPU kernels of the array family (``mindspore/ops/_defs/array.py``): mindspore-array-kernels' ``array`` family
bound to NumPy (the GPU backend binds the same source to CuPy), with ``np.concatenate`` for the joins,
``np.copyto`` (``casting='unsafe'``) for ``Assign`` and scalar operands read by ``np.asarray(v).item()``; and
this backend's own ``Cast`` (float16/bfloat16 <-> float32 in C++, :mod:`._half`) and ``Fill`` (``np.full`` of the value as a NumPy array, cast as ``copyto`` casts).

Kernels return fresh C-contiguous arrays (never views of an input that an in-place op could later
modify), except the reshapes and the in-place ``Assign*`` kernels, which write into and return their first input.
"""
import numpy as np

from mindspore_array_kernels import bind
from mindspore_cpu.kernels._half import astype


def _np_dtype(dtype):
    return dtype.to_numpy()


def _scalar(v):
    return np.asarray(v).item()


def _concatenate(xs, axis):
    return np.concatenate(xs, axis=axis)


def _store(dst, value):
    np.copyto(dst, value, casting="unsafe")
    return dst


KERNELS = bind("array", globals(), xp=np, dev=np.asarray, np_dtype=_np_dtype, scalar=_scalar,
               concatenate=_concatenate, store=_store)["KERNELS"]


def _convert(x, dst):
    """``x`` as ``dst`` (float16/bfloat16 <-> float32 in C++); float64 to float16 through float32, rounded twice as
    MindSpore 2.10's CPU Cast rounds it (it differs from one rounding on about 1 value in 10,000)."""
    x = np.asarray(x)
    if x.dtype == np.float64 and dst == np.float16:
        x = x.astype(np.float32)
    return astype(x, dst)


def _cast(prim, x, dtype, out=None):
    return _convert(x, dtype.to_numpy())


def _cast_many(prim, inputs, dtypes, out=None):
    return tuple(_convert(x, o.dtype.to_numpy()) for x, o in zip(inputs, out))


def _fill(prim, dtype, shape, value, out=None):
    return np.full(shape, np.asarray(value), dtype=dtype.to_numpy())


KERNELS.update({
    "Cast": _cast,
    "CastMany": _cast_many,
    "Fill": _fill,
})
