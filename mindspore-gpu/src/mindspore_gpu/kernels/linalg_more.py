"""GPU kernels of ``mindspore/ops/_defs/linalg_more.py`` (``Svd``, ``MatrixExp``, ``MatrixSolve``, ``Eig``,
``Geqrf``, ``Orgqr``, ``LuUnpack``, ``MatrixTriangularSolve``, ``MatrixPower``, the Cholesky family) on CuPy:
``cupy.linalg`` (cuSOLVER) for SVD, solves, QR and Cholesky; the matrix exponential by scaling and squaring with a
degree-18 Taylor polynomial (norm scaled below 1/2: rounding-level truncation), integer powers by
square-and-multiply; ``Orgqr``/``LuUnpack`` as the CPU backend's array code. CuPy has no general (non-symmetric)
eigensolver: ``Eig`` copies the matrices to the host, runs LAPACK's ``geev`` through NumPy and copies the result
back (an explicit transfer).
"""
import math

import cupy
import cupy.linalg
import numpy

from mindspore_gpu.kernels._common import dev

xp = cupy


def _host_list(a):
    return cupy.asnumpy(a).tolist()


def _svd(prim, a, *, out):
    a = dev(a)
    dt = a.dtype
    if not prim.compute_uv:
        s = cupy.linalg.svd(a, compute_uv=False)
        return s.astype(dt), cupy.zeros((0,), dt), cupy.zeros((0,), dt)
    u, s, vh = cupy.linalg.svd(a, full_matrices=prim.full_matrices)
    v = cupy.ascontiguousarray(cupy.swapaxes(vh, -1, -2))
    return s.astype(dt), cupy.ascontiguousarray(u).astype(dt), v.astype(dt)


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


def _matrix_solve(prim, matrix, rhs, *, out):
    a, b = dev(matrix), dev(rhs)
    dt = a.dtype
    work = cupy.float32 if dt == cupy.float16 else dt
    a, b = a.astype(work), b.astype(work)
    if prim.adjoint:
        a = cupy.conj(cupy.swapaxes(a, -1, -2))
    return cupy.linalg.solve(a, b).astype(dt)


def _eig(prim, x, *, out):
    cdt = out[0].dtype.to_numpy()
    w, v = numpy.linalg.eig(cupy.asnumpy(dev(x)))
    vectors = cupy.asarray(numpy.ascontiguousarray(v).astype(cdt)) if prim.compute_v else cupy.zeros((0,), cdt)
    return cupy.asarray(w.astype(cdt)), vectors


def _geqrf(prim, x, *, out):
    x = dev(x)
    h, tau = cupy.linalg.qr(x, mode="raw")
    return cupy.ascontiguousarray(cupy.swapaxes(h, -1, -2)).astype(x.dtype), cupy.ascontiguousarray(tau).astype(x.dtype)


def _orgqr_kernel(prim, x, tau, *, out):
    return cupy.ascontiguousarray(_orgqr(dev(x), dev(tau)))


def _lu_unpack_kernel(prim, lu_data, lu_pivots, *, out):
    return tuple(cupy.ascontiguousarray(t) for t in _lu_unpack(dev(lu_data), dev(lu_pivots)))


def _orgqr(x, tau):
    """The first N columns of ``H_1 ... H_k`` (``H_i = I - tau_i v_i v_i^H``, ``v_i`` below the diagonal of
    column i of ``x`` with a unit i-th entry), applied to the first N columns of the identity, batched."""
    m, n = x.shape[-2], x.shape[-1]
    k = tau.shape[-1]
    q = xp.broadcast_to(xp.eye(m, n, dtype=x.dtype), x.shape).copy()
    rows = xp.arange(m)
    for i in range(k - 1, -1, -1):
        v = xp.where(rows > i, x[..., :, i], xp.where(rows == i, 1.0, 0.0).astype(x.dtype))   # (..., M)
        w = xp.matmul(xp.conj(v)[..., None, :], q)                                             # (..., 1, N)
        q = q - tau[..., i, None, None] * v[..., :, None] * w
    return q


def _lu_unpack(lu, pivots):
    m, n = lu.shape[-2], lu.shape[-1]
    k = min(m, n)
    lower = xp.tril(lu[..., :, :k], -1) + xp.eye(m, k, dtype=lu.dtype)
    upper = xp.triu(lu[..., :k, :])
    batch = lu.shape[:-2]
    piv = pivots.reshape((-1, k)).astype(xp.int64) - 1
    perms = []
    for b in range(piv.shape[0]):
        perm = list(range(m))
        for i, j in enumerate(_host_list(piv[b])):
            perm[i], perm[j] = perm[j], perm[i]
        perms.append(perm)
    perm = xp.asarray(perms, dtype=xp.int64).reshape(batch + (m,))
    eye = xp.eye(m, dtype=lu.dtype)
    p = xp.swapaxes(eye[perm], -1, -2)        # P[perm[r], r] = 1, so that LU_data = P^T A
    return p, lower, upper


def _tri_solve(matrix, rhs, lower, adjoint):
    t = cupy.tril(matrix) if lower else cupy.triu(matrix)
    if adjoint:
        t = cupy.conj(cupy.swapaxes(t, -1, -2))
    batch = tuple(numpy.broadcast_shapes(t.shape[:-2], rhs.shape[:-2]))
    t = cupy.ascontiguousarray(cupy.broadcast_to(t, batch + t.shape[-2:]))
    rhs = cupy.ascontiguousarray(cupy.broadcast_to(rhs, batch + rhs.shape[-2:]))
    return cupy.linalg.solve(t, rhs)


def _matrix_triangular_solve(prim, matrix, rhs, *, out):
    a = dev(matrix)
    return cupy.ascontiguousarray(_tri_solve(a, dev(rhs), prim.lower, prim.adjoint)).astype(a.dtype)


def _matrix_power(prim, x, *, out):
    x = dev(x)
    work = x.astype(cupy.float32) if x.dtype == cupy.float16 else x
    base = cupy.linalg.inv(work) if prim.n < 0 else work
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


def _gram(factor, upper):
    t = cupy.swapaxes(factor, -1, -2)
    return cupy.matmul(t, factor) if upper else cupy.matmul(factor, t)


def _cholesky_inverse(prim, x, *, out):
    x = dev(x)
    return cupy.linalg.inv(_gram(x, prim.upper)).astype(x.dtype)


def _cholesky_solve(prim, x1, x2, *, out):
    x2 = dev(x2)
    return cupy.linalg.solve(_gram(x2, prim.upper), dev(x1)).astype(x2.dtype)


KERNELS = {"MatrixTriangularSolve": _matrix_triangular_solve, "MatrixPower": _matrix_power, "Cholesky": _cholesky,
           "CholeskyInverse": _cholesky_inverse, "CholeskySolve": _cholesky_solve, "Svd": _svd,
           "MatrixExp": _matrix_exp, "MatrixSolve": _matrix_solve, "Eig": _eig, "Geqrf": _geqrf,
           "Orgqr": _orgqr_kernel, "LuUnpack": _lu_unpack_kernel}
