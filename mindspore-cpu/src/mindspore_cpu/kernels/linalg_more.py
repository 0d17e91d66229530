"""CPU kernels of ``mindspore/ops/_defs/linalg_more.py``: mindspore-array-kernels' ``linalg_more`` family bound to
NumPy (the GPU backend binds the same source to CuPy): ``Svd``, ``MatrixSolve``, ``Eig``, ``Geqrf``, ``Orgqr``,
``LuUnpack``, ``MatrixTriangularSolve``, ``CholeskyInverse`` and ``CholeskySolve`` through ``numpy.linalg``
(LAPACK); and this backend's own ``MatrixExp`` (``scipy.linalg.expm``: Pade approximation with scaling and
squaring), ``MatrixPower`` (``numpy.linalg.matrix_power``; a negative power of ``kernels/linalg.py``'s inverse, which refuses a
matrix that is not invertible as MindSpore does), both computing half precision in float32, and
``Cholesky`` (LAPACK's failure on a matrix that is not positive definite is the error).
"""
import functools

import numpy as np

from mindspore.plugin import MSRuntimeError, MSValueError
from mindspore_array_kernels import bind
from mindspore_cpu.kernels.linalg import inverse_with_rank

KERNELS = bind("linalg_more", globals(), xp=np, dev=np.asarray, host=np.asarray)["KERNELS"]


@functools.cache
def _expm():
    from scipy.linalg import expm

    return expm


def _matrix_exp(prim, x, out=None):
    x = np.asarray(x)
    work = x.astype(np.float32) if x.dtype == np.float16 else x
    with np.errstate(all="ignore"):
        return np.asarray(_expm()(work)).astype(x.dtype)


def _matrix_power(prim, x, out=None):
    x = np.asarray(x)
    work = x.astype(np.float32) if x.dtype == np.float16 else x
    if prim.n >= 0:
        return np.linalg.matrix_power(work, prim.n).astype(x.dtype)
    inverse, rank = inverse_with_rank(work)
    if np.any(rank < work.shape[-1]):
        raise MSValueError("For MatrixPower, negative power can not apply to singular matrix.")
    return np.linalg.matrix_power(inverse, -prim.n).astype(x.dtype)


def _cholesky(prim, x, out=None):
    x = np.asarray(x)
    try:
        lower = np.linalg.cholesky(x)
    except np.linalg.LinAlgError as exc:
        # 2.10's CPU kernel (Eigen's LLT) fails at run time: a RuntimeError, not a ValueError
        raise MSRuntimeError("Cholesky expects symmetric positive definite matrices as inputs.") from exc
    return np.ascontiguousarray(np.swapaxes(lower, -1, -2) if prim.upper else lower).astype(x.dtype)


KERNELS.update({"MatrixExp": _matrix_exp, "MatrixPower": _matrix_power, "Cholesky": _cholesky})
