"""What every SimNPU kernel uses: reading buffers, writing results, and the dtypes kernels compute in."""
import numpy as np

from mindspore.common import dtype as mstype

from ms_simnpu.runtime import SimBuffer, device_array, new_buffer

__all__ = ["FLOATS", "INDICES", "device_array", "new_buffer", "operand", "compute_dtype", "is_buffer"]

#: The float dtypes the float-only kernels accept (their registration's ``dtypes``).
FLOATS = frozenset({mstype.float16, mstype.float32, mstype.float64})
#: Class-index dtypes (the labels of the sparse cross-entropy).
INDICES = frozenset({mstype.int32, mstype.int64})

_F32 = np.dtype(np.float32)


def is_buffer(value):
    return type(value) is SimBuffer


def operand(value, dtype=None):
    """A kernel argument as a NumPy array: a buffer's array, or a Python constant (a number, or a
    scalar given as a constant) as a 0-d array; in ``dtype`` when one is given."""
    a = device_array(value) if is_buffer(value) else np.asarray(value)
    return a if dtype is None else a.astype(dtype, copy=False)


def compute_dtype(spec):
    """The dtype to compute an output of ``spec`` in: its own, but float32 for half precision (NumPy's
    float16 products and sums lose too much), rounded back once by :func:`new_buffer`."""
    dt = np.dtype(spec.dtype.to_numpy())
    return _F32 if dt.kind == "f" and dt.itemsize < 4 else dt
