"""CPU kernels of ``mindspore/ops/_defs/linalg.py``.

``MatrixInverse`` is this backend's C++ kernel (``_csrc/linalg.cpp``): LU with complete pivoting, as MindSpore's
CPU kernel, so a matrix that is not invertible gives MindSpore's rank-limited solution (``[[1, 2], [2, 4]]`` ->
``[[0, 0], [0, 0.25]]``; zeros for a matrix holding NaN or infinity), not an error. The determinants are LAPACK's
through ``numpy.linalg``; half precision is computed in float32 and rounded once at the end.
"""
import numpy as np

from mindspore_cpu import _kernels


def _work(x):
    x = np.asarray(x)
    return (x.astype(np.float32), x.dtype) if x.dtype == np.float16 else (x, x.dtype)


def inverse_with_rank(x, adjoint=False):
    """``(inverse, rank)`` of each matrix of ``x`` (..., n, n) by the C++ kernel (rank: int64, ``x.shape[:-2]``)."""
    x = np.asarray(x)
    return _kernels.matrix_inverse(np.ascontiguousarray(x, dtype=x.dtype.newbyteorder("=")), bool(adjoint))


def _matrix_inverse(prim, x, out=None):
    return inverse_with_rank(x, prim.adjoint)[0]


def _matrix_determinant(prim, x, out=None):
    a, dt = _work(x)
    return np.asarray(np.linalg.det(a), dtype=dt)


def _log_matrix_determinant(prim, x, out=None):
    a, dt = _work(x)
    sign, logabs = np.linalg.slogdet(a)
    return np.asarray(sign, dtype=dt), np.asarray(logabs, dtype=dt)


KERNELS = {
    "MatrixInverse": _matrix_inverse,
    "MatrixDeterminant": _matrix_determinant,
    "LogMatrixDeterminant": _log_matrix_determinant,
}
