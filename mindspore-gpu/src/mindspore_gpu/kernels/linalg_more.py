"""GPU kernels of ``mindspore/ops/_defs/linalg_more.py``: mindspore-array-kernels' ``linalg_more`` family bound to
CuPy (the CPU backend binds the same source to NumPy): ``Svd``, ``MatrixSolve``, ``Geqrf``, ``Orgqr``, ``LuUnpack``,
``MatrixTriangularSolve``, ``CholeskyInverse`` and ``CholeskySolve`` through ``cupy.linalg`` (cuSOLVER), ``Eig``
through NumPy on the host (CuPy has no general eigensolver: the matrices are copied to the host, LAPACK's ``geev``
runs there and the result is copied back, an explicit transfer); and this backend's own kernels:

* ``MatrixExp``: scaling and squaring with a degree-18 Taylor polynomial (the norm scaled below 1/2: rounding-level
  truncation), half precision in float32;
* ``MatrixPower``: square-and-multiply (a negative power of the inverse, ``kernels/linalg.py``'s, which refuses a
  matrix that is not invertible as MindSpore does: one read of the ranks back to the host), half precision in
  float32;
* ``Cholesky``: ``cupy.linalg.cholesky``, whose failure on a matrix that is not positive definite shows as non-finite
  entries, checked.
"""
import math

import cupy
import cupy.linalg

from mindspore.plugin import MSValueError
from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev
from mindspore_gpu.kernels.linalg import inverse_with_rank

KERNELS = bind("linalg_more", globals(), xp=cupy, dev=dev, host=cupy.asnumpy)["KERNELS"]


def _matrix_exp(prim, x, *, out):
    x = dev(x)
    work = x.astype(cupy.float32) if x.dtype == cupy.float16 else x
    n = work.shape[-1]
    norm = float(cupy.asnumpy(cupy.abs(work).sum(axis=-1).max())) if work.size else 0.0
    squarings = max(0, int(math.ceil(math.log2(norm / 0.5)))) if norm > 0.5 else 0
    b = work / (2.0 ** squarings)
    eye = cupy.broadcast_to(cupy.eye(n, dtype=work.dtype), work.shape)
    result, term = eye.copy(), eye.copy()
    for k in range(1, 19):
        term = cupy.matmul(term, b) / k
        result = result + term
    for _ in range(squarings):
        result = cupy.matmul(result, result)
    return result.astype(x.dtype)


def _matrix_power(prim, x, *, out):
    x = dev(x)
    work = x.astype(cupy.float32) if x.dtype == cupy.float16 else x
    base = work
    if prim.n < 0:
        base, rank = inverse_with_rank(work)
        if bool(cupy.any(rank < work.shape[-1])):
            raise MSValueError("For MatrixPower, negative power can not apply to singular matrix.")
    result = cupy.broadcast_to(cupy.eye(x.shape[-1], dtype=work.dtype), work.shape).copy()
    n = abs(prim.n)
    while n:                                   # square-and-multiply
        if n & 1:
            result = cupy.matmul(result, base)
        base = cupy.matmul(base, base)
        n >>= 1
    return result.astype(x.dtype)


def _cholesky(prim, x, *, out):
    x = dev(x)
    lower = cupy.linalg.cholesky(x)
    if not bool(cupy.all(cupy.isfinite(lower))):
        raise ValueError("For 'Cholesky', the input matrix must be symmetric positive definite.")
    return cupy.ascontiguousarray(cupy.swapaxes(lower, -1, -2) if prim.upper else lower).astype(x.dtype)


KERNELS.update({"MatrixExp": _matrix_exp, "MatrixPower": _matrix_power, "Cholesky": _cholesky})
