"""CPU kernels of ``mindspore/ops/_defs/linalg_scipy.py``: ``Eigh`` (``numpy.linalg.eigh``, LAPACK's syevd on
the chosen triangle), ``LU`` (``scipy.linalg.lu_factor``, getrf), ``LstsqV2`` (``scipy.linalg.lstsq`` with the
requested LAPACK driver; "gels" is QR-based and needs full rank, which gelsd's solution equals) and
``LinearSumAssignment`` (``scipy.optimize.linear_sum_assignment``, the shortest augmenting path algorithm)."""
import functools

import numpy as np

from mindspore.plugin import MSValueError


@functools.cache
def _scipy():
    import scipy.linalg
    import scipy.optimize

    return scipy


def _eigh(prim, a, out=None):
    a = np.asarray(a)
    w, v = np.linalg.eigh(a, UPLO="L" if prim.lower else "U")
    w = w.astype(a.dtype)
    return (w, np.ascontiguousarray(v).astype(a.dtype)) if prim.compute_eigenvectors else w


def _lu_one(x):
    m, n = x.shape
    lu, piv = _scipy().linalg.lu_factor(x, check_finite=False)
    perm = np.arange(m)
    for i, p in enumerate(piv):
        perm[i], perm[p] = perm[p], perm[i]
    full = np.zeros((m, m), np.int32)
    full[perm, np.arange(m)] = 1
    k = min(m, n)
    return lu, piv.astype(np.int32), full[:k, :k]


def _lu(prim, x, out=None):
    x = np.asarray(x)
    batch, (m, n) = x.shape[:-2], x.shape[-2:]
    k = min(m, n)
    lu = np.empty_like(x)
    piv = np.empty(batch + (k,), np.int32)
    perm = np.empty(batch + (k, k), np.int32)
    for idx in np.ndindex(*batch):
        lu[idx], piv[idx], perm[idx] = _lu_one(x[idx])
    return lu, piv, perm


def _lstsq_one(a, b, driver):
    if driver == "gels":
        x = np.linalg.lstsq(a, b, rcond=None)[0]
        return x, None, None
    x, _, rank, sv = _scipy().linalg.lstsq(a, b, lapack_driver=driver, check_finite=False)
    return x, rank, sv


def _lstsq(prim, a, b, driver, out=None):
    a, b = np.asarray(a), np.asarray(b)
    driver = driver or "gelsy"
    vector = b.ndim == a.ndim - 1
    if vector:
        b = b[..., None]
    batch = a.shape[:-2]
    real = out[1].dtype.to_numpy()
    x = np.empty(batch + (a.shape[-1], b.shape[-1]), a.dtype)
    rank = np.zeros(batch, np.int64)
    sv = np.zeros(batch + (min(a.shape[-2:]),), real)
    for idx in np.ndindex(*batch):
        x[idx], r, s = _lstsq_one(a[idx], b[idx], driver)
        if r is not None:
            rank[idx] = r
        if s is not None and s.size:
            sv[idx] = s
    residual = np.sum(np.abs(b - a @ x) ** 2, axis=-2).astype(real)
    x = x[..., 0] if vector else x
    return (np.ascontiguousarray(x), residual.reshape(out[1].shape) if out[1].shape != (0,) else
            np.zeros((0,), real), rank.reshape(out[2].shape) if out[2].shape != (0,) else np.zeros((0,), np.int64),
            sv if out[3].shape != (0,) else np.zeros((0,), real))


def _linear_sum_assignment(prim, cost_matrix, dimension_limit, maximize, out=None):
    cost = np.asarray(cost_matrix)
    k = min(cost.shape)
    limit = int(np.asarray(dimension_limit))
    cost = cost[:, :max(limit, 0)].astype(np.float64)
    try:
        rows, cols = _scipy().optimize.linear_sum_assignment(cost, maximize=bool(maximize))
    except ValueError as exc:
        raise MSValueError(f"For 'LinearSumAssignment', {exc}") from exc
    row_ind = np.full((k,), -1, np.int64)
    col_ind = np.full((k,), -1, np.int64)
    row_ind[:rows.size] = rows
    col_ind[:cols.size] = cols
    return row_ind, col_ind


KERNELS = {"Eigh": _eigh, "SelfAdjointEig": _eigh, "LU": _lu, "LstsqV2": _lstsq, "LinearSumAssignment": _linear_sum_assignment}
