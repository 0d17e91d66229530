"""The kernel contract's output side: a kernel returns exactly the ``out`` spec core inferred.

Kernels that compute half precision in float32, or index outputs in NumPy's int64, end with
:func:`fit` (or are wrapped by :func:`fits_out`) to give the result in the inferred dtype(s) instead
of repeating core's promotion rules. Both are mindspore-array-kernels' (the GPU backend uses the same).
"""
from mindspore_array_kernels.common import fit, fits_out

__all__ = ["fit", "fits_out"]
