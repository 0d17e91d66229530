"""The kernels of ``mindspore/ops/_defs/linalg_more.py`` but ``MatrixExp``, ``MatrixPower`` and ``Cholesky`` (each
backend's own): ``Svd``, ``MatrixSolve``, ``Eig``, ``Geqrf``, ``Orgqr``, ``LuUnpack``, ``MatrixTriangularSolve``,
``CholeskyInverse`` and ``CholeskySolve``, bound (:func:`mindspore_array_kernels.bind`) with ``xp``, the array
library (its ``linalg``: LAPACK through NumPy, cuSOLVER through CuPy), and two movers: ``dev`` (an operand, or a
NumPy result, as an ``xp`` array) and ``host`` (an array as NumPy: the pivots ``LuUnpack`` reads, the matrices
``Eig`` decomposes).

``MatrixSolve`` computes half precision in float32. ``Eig`` runs NumPy's (LAPACK's ``geev``) on the host for every
backend: CuPy has no general (non-symmetric) eigensolver, so on a GPU it is an explicit copy there and back.
``Orgqr`` applies the Householder reflectors to the identity one after the other, batched; ``LuUnpack`` replays
LAPACK's row swaps on the host. The triangular solve reads only the triangle it is told to (the other is zeroed
before a general solve).
"""
import numpy as np

BOUND = ("xp", "dev", "host")


def _svd(prim, a, out=None):
    a = dev(a)
    dt = a.dtype
    if not prim.compute_uv:
        s = xp.linalg.svd(a, compute_uv=False)
        return s.astype(dt), xp.zeros((0,), dt), xp.zeros((0,), dt)
    u, s, vh = xp.linalg.svd(a, full_matrices=prim.full_matrices)
    v = xp.swapaxes(vh, -1, -2)
    v = xp.ascontiguousarray(xp.conj(v) if v.dtype.kind == "c" else v)      # a = u diag(s) v^H
    return s.astype(dt), xp.ascontiguousarray(u).astype(dt), v.astype(dt)


def _matrix_solve(prim, matrix, rhs, out=None):
    a, b = dev(matrix), dev(rhs)
    dt = a.dtype
    work = np.float32 if dt == np.float16 else dt
    a, b = a.astype(work), b.astype(work)
    if prim.adjoint:
        a = xp.conj(xp.swapaxes(a, -1, -2))
    return xp.linalg.solve(a, b).astype(dt)


def _eig(prim, x, out=None):
    cdt = out[0].dtype.to_numpy()
    w, v = np.linalg.eig(host(dev(x)))
    vectors = dev(np.ascontiguousarray(v).astype(cdt)) if prim.compute_v else xp.zeros((0,), cdt)
    return dev(w.astype(cdt)), vectors


def _geqrf(prim, x, out=None):
    x = dev(x)
    h, tau = xp.linalg.qr(x, mode="raw")
    return xp.ascontiguousarray(xp.swapaxes(h, -1, -2)).astype(x.dtype), xp.ascontiguousarray(tau).astype(x.dtype)


def _orgqr_kernel(prim, x, tau, out=None):
    return xp.ascontiguousarray(_orgqr(dev(x), dev(tau)))


def _lu_unpack_kernel(prim, lu_data, lu_pivots, out=None):
    return tuple(xp.ascontiguousarray(t) for t in _lu_unpack(dev(lu_data), dev(lu_pivots)))


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
        for i, j in enumerate(host(piv[b]).tolist()):
            perm[i], perm[j] = perm[j], perm[i]
        perms.append(perm)
    perm = xp.asarray(perms, dtype=xp.int64).reshape(batch + (m,))
    eye = xp.eye(m, dtype=lu.dtype)
    p = xp.swapaxes(eye[perm], -1, -2)        # P[perm[r], r] = 1, so that LU_data = P^T A
    return p, lower, upper


def _tri_solve(matrix, rhs, lower, adjoint):
    """Solve with the lower/upper triangle of ``matrix`` (the other triangle ignored), batched and broadcast."""
    t = xp.tril(matrix) if lower else xp.triu(matrix)
    if adjoint:
        t = xp.conj(xp.swapaxes(t, -1, -2))
    batch = tuple(np.broadcast_shapes(t.shape[:-2], rhs.shape[:-2]))
    t = xp.ascontiguousarray(xp.broadcast_to(t, batch + t.shape[-2:]))
    rhs = xp.ascontiguousarray(xp.broadcast_to(rhs, batch + rhs.shape[-2:]))
    try:
        return xp.linalg.solve(t, rhs)
    except np.linalg.LinAlgError:
        # a zero on the diagonal: 2.10 substitutes anyway (Eigen), giving inf/nan rather than failing
        return _substitute(t, rhs, lower != adjoint)


def _substitute(t, rhs, lower):
    """Forward (``lower``) or back substitution with the triangular ``t``, row by row."""
    x = xp.zeros(rhs.shape, xp.result_type(t, rhs))
    n = t.shape[-1]
    for i in (range(n) if lower else range(n - 1, -1, -1)):
        acc = rhs[..., i, :] - (t[..., i, :, None] * x).sum(-2)
        x[..., i, :] = acc / t[..., i, i, None]
    return x


def _matrix_triangular_solve(prim, matrix, rhs, out=None):
    a = dev(matrix)
    with np.errstate(all="ignore"):
        res = _tri_solve(a, dev(rhs), prim.lower, prim.adjoint)
    return xp.ascontiguousarray(res).astype(a.dtype)


def _gram(factor, upper):
    t = xp.swapaxes(factor, -1, -2)
    return xp.matmul(t, factor) if upper else xp.matmul(factor, t)


def _cholesky_inverse(prim, x, out=None):
    x = dev(x)
    return xp.linalg.inv(_gram(x, prim.upper)).astype(x.dtype)


def _cholesky_solve(prim, x1, x2, out=None):
    x2 = dev(x2)
    return xp.linalg.solve(_gram(x2, prim.upper), dev(x1)).astype(x2.dtype)


KERNELS = {"MatrixTriangularSolve": _matrix_triangular_solve, "CholeskyInverse": _cholesky_inverse,
           "CholeskySolve": _cholesky_solve, "Svd": _svd, "MatrixSolve": _matrix_solve, "Eig": _eig,
           "Geqrf": _geqrf, "Orgqr": _orgqr_kernel, "LuUnpack": _lu_unpack_kernel}
