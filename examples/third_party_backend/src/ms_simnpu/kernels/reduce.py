"""SimNPU kernels of the reduce family: sums, means, extrema and arg-extrema.

``axis`` arrives as a Python constant; MindSpore's empty ``axis`` (``()``) reduces every axis.
"""
import numpy as np

from ms_simnpu.kernels._util import compute_dtype, device_array, new_buffer


def _numpy_axis(a, axis):
    if a.ndim == 0 or axis is None or axis == () or axis == []:
        return None
    return tuple(axis) if isinstance(axis, (tuple, list)) else axis


def reduce_sum(prim, x, axis=(), *, out):
    a = device_array(x)
    if prim.skip_mode and (axis is None or axis == () or axis == []):
        return new_buffer(a, out)
    return new_buffer(np.sum(a, axis=_numpy_axis(a, axis), keepdims=prim.keep_dims, dtype=compute_dtype(out)), out)


def reduce_mean(prim, x, axis=(), *, out):
    a = device_array(x)
    if a.dtype.kind in "iub":   # MindSpore truncates the mean of integers
        mean = np.trunc(np.mean(a, axis=_numpy_axis(a, axis), keepdims=prim.keep_dims, dtype=np.float64))
    else:
        mean = np.mean(a, axis=_numpy_axis(a, axis), keepdims=prim.keep_dims, dtype=compute_dtype(out))
    return new_buffer(mean, out)


def _extremum(fn):
    def kernel(prim, x, axis=(), *, out):
        a = device_array(x)
        return new_buffer(fn(a, axis=_numpy_axis(a, axis), keepdims=prim.keep_dims), out)
    kernel.__name__ = fn.__name__
    return kernel


def _arg(fn):
    def kernel(prim, x, *, out):
        a = device_array(x)
        return new_buffer(fn(a, axis=prim.axis) if a.ndim else np.zeros(()), out)
    kernel.__name__ = fn.__name__
    return kernel


KERNELS = {
    "ReduceSum": reduce_sum,
    "ReduceMean": reduce_mean,
    "ReduceMax": _extremum(np.max),
    "ReduceMin": _extremum(np.min),
    "Argmax": _arg(np.argmax),
    "Argmin": _arg(np.argmin),
}
