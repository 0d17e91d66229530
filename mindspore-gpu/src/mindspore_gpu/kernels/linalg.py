"""GPU kernels of ``mindspore/ops/_defs/linalg.py``: batched Gaussian elimination with partial pivoting in
CuPy array operations (one pass over the columns, every matrix of the batch at once).

Determinants multiply the pivots (a row swap flips the sign); the inverse is Gauss-Jordan on ``[A | I]``.
Half precision is computed in float32 and rounded once at the end. A singular matrix gives a zero
determinant (``-inf`` log) and non-finite inverse entries, as LAPACK-based kernels do.
"""
import cupy


def _batched(x):
    x = cupy.asarray(x)
    dt = x.dtype
    work = cupy.float32 if dt == cupy.float16 else dt
    n = x.shape[-1]
    return x.reshape((-1, n, n)).astype(work, copy=True), dt, x.shape


def _eliminate(a, jordan):
    """Row-reduce ``a`` (B, n, m) in place on its first n columns; returns (pivots (B, n), swap sign (B,))."""
    b, n = a.shape[0], a.shape[1]
    batch = cupy.arange(b)
    sign = cupy.ones((b,), a.dtype)
    pivots = cupy.empty((b, n), a.dtype)
    for k in range(n):
        p = cupy.argmax(cupy.abs(a[:, k:, k]), axis=1) + k
        row_k = a[:, k, :].copy()
        a[:, k, :] = a[batch, p, :]
        a[batch, p, :] = row_k
        sign = cupy.where(p != k, -sign, sign)
        piv = a[:, k, k].copy()
        pivots[:, k] = piv
        safe = cupy.where(piv == 0, cupy.ones((), a.dtype), piv)
        if jordan:
            a[:, k, :] = a[:, k, :] / safe[:, None]
            factors = a[:, :, k].copy()
            factors[:, k] = 0
            a -= factors[:, :, None] * a[:, k, None, :]
        elif k + 1 < n:
            factors = a[:, k + 1:, k] / safe[:, None]
            a[:, k + 1:, :] -= factors[:, :, None] * a[:, k, None, :]
    return pivots, sign


def _matrix_inverse(prim, x, *, out):
    a, dt, shape = _batched(x)
    if prim.adjoint:
        a = cupy.ascontiguousarray(cupy.swapaxes(a, -1, -2))
    b, n = a.shape[0], a.shape[1]
    aug = cupy.concatenate([a, cupy.broadcast_to(cupy.eye(n, dtype=a.dtype), (b, n, n))], axis=2)
    pivots, _ = _eliminate(aug, True)
    inv = aug[:, :, n:]
    singular = cupy.any(pivots == 0, axis=1)
    inv = cupy.where(singular[:, None, None], cupy.full((), cupy.inf, a.dtype), inv)
    return inv.reshape(shape).astype(dt)


def _matrix_determinant(prim, x, *, out):
    a, dt, shape = _batched(x)
    pivots, sign = _eliminate(a, False)
    return (sign * cupy.prod(pivots, axis=1)).reshape(shape[:-2]).astype(dt)


def _log_matrix_determinant(prim, x, *, out):
    a, dt, shape = _batched(x)
    pivots, sign = _eliminate(a, False)
    sign = sign * cupy.prod(cupy.sign(pivots), axis=1)
    logabs = cupy.sum(cupy.log(cupy.abs(pivots)), axis=1)
    return sign.reshape(shape[:-2]).astype(dt), logabs.reshape(shape[:-2]).astype(dt)


KERNELS = {
    "MatrixInverse": _matrix_inverse,
    "MatrixDeterminant": _matrix_determinant,
    "LogMatrixDeterminant": _log_matrix_determinant,
}
