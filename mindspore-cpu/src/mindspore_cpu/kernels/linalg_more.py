"""CPU kernels of ``mindspore/ops/_defs/linalg_more.py`` (``Svd``, ``MatrixExp``, ``MatrixSolve``, ``Eig``,
``Geqrf``, ``Orgqr``, ``LuUnpack``, ``MatrixTriangularSolve``, ``MatrixPower``, the Cholesky family): LAPACK through
``numpy.linalg`` and ``scipy.linalg.expm`` (Pade approximation with scaling and squaring); half precision computes
in float32. The triangular solve reads only the triangle it is told to.
"""
import functools

import numpy as np

xp = np   # ``_orgqr``/``_lu_unpack`` below are written against ``xp`` (the GPU backend runs them on CuPy)


def _host_list(a):
    return np.asarray(a).tolist()


@functools.cache
def _expm():
    from scipy.linalg import expm

    return expm


def _svd(prim, a, out=None):
    a = np.asarray(a)
    dt = a.dtype
    if not prim.compute_uv:
        s = np.linalg.svd(a, compute_uv=False)
        return s.astype(dt), np.zeros((0,), dt), np.zeros((0,), dt)
    u, s, vh = np.linalg.svd(a, full_matrices=prim.full_matrices)
    return s.astype(dt), np.ascontiguousarray(u).astype(dt), np.ascontiguousarray(np.swapaxes(vh, -1, -2)).astype(dt)


def _matrix_exp(prim, x, out=None):
    x = np.asarray(x)
    work = x.astype(np.float32) if x.dtype == np.float16 else x
    with np.errstate(all="ignore"):
        return np.asarray(_expm()(work)).astype(x.dtype)


def _matrix_solve(prim, matrix, rhs, out=None):
    a, b = np.asarray(matrix), np.asarray(rhs)
    dt = a.dtype
    work = np.float32 if dt == np.float16 else dt
    a, b = a.astype(work), b.astype(work)
    if prim.adjoint:
        a = np.conj(np.swapaxes(a, -1, -2))
    return np.linalg.solve(a, b).astype(dt)


def _eig(prim, x, out=None):
    x = np.asarray(x)
    cdt = out[0].dtype.to_numpy()
    w, v = np.linalg.eig(x)
    return w.astype(cdt), (np.ascontiguousarray(v).astype(cdt) if prim.compute_v else np.zeros((0,), cdt))


def _geqrf(prim, x, out=None):
    x = np.asarray(x)
    h, tau = np.linalg.qr(x, mode="raw")
    return np.ascontiguousarray(np.swapaxes(h, -1, -2)).astype(x.dtype), np.ascontiguousarray(tau).astype(x.dtype)


def _orgqr_kernel(prim, x, tau, out=None):
    return np.ascontiguousarray(_orgqr(np.asarray(x), np.asarray(tau)))


def _lu_unpack_kernel(prim, lu_data, lu_pivots, out=None):
    return tuple(np.ascontiguousarray(t) for t in _lu_unpack(np.asarray(lu_data), np.asarray(lu_pivots)))


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


def _work(x):
    x = np.asarray(x)
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _tri_solve(matrix, rhs, lower, adjoint):
    """Solve with the lower/upper triangle of ``matrix`` (the other triangle ignored), batched and broadcast."""
    t = np.tril(matrix) if lower else np.triu(matrix)
    if adjoint:
        t = np.conj(np.swapaxes(t, -1, -2))
    batch = np.broadcast_shapes(t.shape[:-2], rhs.shape[:-2])
    t = np.broadcast_to(t, batch + t.shape[-2:])
    rhs = np.broadcast_to(rhs, batch + rhs.shape[-2:])
    return np.linalg.solve(t, rhs)


def _matrix_triangular_solve(prim, matrix, rhs, out=None):
    a = np.asarray(matrix)
    with np.errstate(all="ignore"):
        res = _tri_solve(a, np.asarray(rhs), prim.lower, prim.adjoint)
    return np.ascontiguousarray(res).astype(a.dtype)


def _matrix_power(prim, x, out=None):
    x = np.asarray(x)
    return np.linalg.matrix_power(_work(x), prim.n).astype(x.dtype)


def _cholesky(prim, x, out=None):
    x = np.asarray(x)
    try:
        lower = np.linalg.cholesky(x)
    except np.linalg.LinAlgError as exc:
        raise ValueError("For 'Cholesky', the input matrix must be symmetric positive definite.") from exc
    return np.ascontiguousarray(np.swapaxes(lower, -1, -2) if prim.upper else lower).astype(x.dtype)


def _gram(factor, upper):
    t = np.swapaxes(factor, -1, -2)
    return t @ factor if upper else factor @ t


def _cholesky_inverse(prim, x, out=None):
    x = np.asarray(x)
    return np.linalg.inv(_gram(x, prim.upper)).astype(x.dtype)


def _cholesky_solve(prim, x1, x2, out=None):
    x2 = np.asarray(x2)
    return np.linalg.solve(_gram(x2, prim.upper), np.asarray(x1)).astype(x2.dtype)


KERNELS = {"MatrixTriangularSolve": _matrix_triangular_solve, "MatrixPower": _matrix_power, "Cholesky": _cholesky,
           "CholeskyInverse": _cholesky_inverse, "CholeskySolve": _cholesky_solve, "Svd": _svd,
           "MatrixExp": _matrix_exp, "MatrixSolve": _matrix_solve, "Eig": _eig, "Geqrf": _geqrf,
           "Orgqr": _orgqr_kernel, "LuUnpack": _lu_unpack_kernel}
