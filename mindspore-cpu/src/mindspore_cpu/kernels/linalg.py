"""CPU kernels of ``mindspore/ops/_defs/linalg.py`` (LAPACK through ``numpy.linalg``).

Half precision is computed in float32 and rounded once at the end.
"""
import numpy as np


def _work(x):
    x = np.asarray(x)
    return (x.astype(np.float32), x.dtype) if x.dtype == np.float16 else (x, x.dtype)


def _matrix_inverse(prim, x, out=None):
    a, dt = _work(x)
    if prim.adjoint:
        a = np.swapaxes(a, -1, -2)
    return np.asarray(np.linalg.inv(a), dtype=dt)


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
