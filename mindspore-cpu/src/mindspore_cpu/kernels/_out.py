"""The kernel contract's output side: a kernel returns exactly the ``out`` spec core inferred.

Kernels that compute half precision in float32, or index outputs in NumPy's int64, end with
:func:`fit` (or are wrapped by :func:`fits_out`) to give the result in the inferred dtype(s) instead
of repeating core's promotion rules. Both are mindspore-array-kernels' (the GPU backend uses the same); here they
convert float16/bfloat16 to and from float32 in C++ (:mod:`._half`).
"""
import numpy as np

from mindspore_array_kernels.common import fit, fits_out, register_cast
from mindspore_cpu.kernels._half import astype

__all__ = ["fit", "fits_out"]

register_cast(np.ndarray, astype)   # float16/bfloat16 <-> float32 in C++
