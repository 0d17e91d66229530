"""GPU kernels of ``mindspore/ops/_defs/linalg_scipy.py``: ``Eigh`` through ``cupy.linalg.eigh`` (cuSOLVER's
syevd on the chosen triangle); ``LU`` by partial pivoting on the device, one column at a time over the whole batch
(LAPACK's getrf order: the largest magnitude of the column below the diagonal is the pivot, the first of equal
ones); ``LstsqV2`` and ``LinearSumAssignment`` on the host, an explicit copy there and back as ``Eig``'s (cuSOLVER
has no rank-revealing least squares, CUDA no assignment solver): NumPy's ``lstsq`` (gelsd: the minimum-norm
solution, which every driver gives for these inputs, with the rank and singular values) and the shortest augmenting
path algorithm (Crouse, "On implementing 2D rectangular assignment algorithms", 2016), as SciPy's."""
import cupy
import cupy.linalg
import numpy as np

from mindspore.plugin import MSValueError
from mindspore_gpu.kernels._common import dev


def _eigh(prim, a, *, out):
    a = dev(a)
    w, v = cupy.linalg.eigh(a, UPLO="L" if prim.lower else "U")
    w = w.astype(a.dtype)
    return (w, cupy.ascontiguousarray(v).astype(a.dtype)) if prim.compute_eigenvectors else w


def _lu(prim, x, *, out):
    a = dev(x).copy()
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    flat = a.reshape((-1, m, n))
    rows = cupy.arange(flat.shape[0])
    piv = cupy.zeros((flat.shape[0], k), cupy.int32)
    perm = cupy.broadcast_to(cupy.arange(m), (flat.shape[0], m)).copy()
    for j in range(k):
        p = j + cupy.argmax(cupy.abs(flat[:, j:, j]), axis=1)
        piv[:, j] = p
        top, low = flat[rows, j].copy(), flat[rows, p].copy()
        flat[rows, j], flat[rows, p] = low, top
        pj, pp = perm[rows, j].copy(), perm[rows, p].copy()
        perm[rows, j], perm[rows, p] = pp, pj
        pivot = flat[:, j, j][:, None]
        safe = cupy.where(pivot == 0, 1, pivot)
        flat[:, j + 1:, j] = cupy.where(pivot == 0, flat[:, j + 1:, j], flat[:, j + 1:, j] / safe)
        flat[:, j + 1:, j + 1:] -= flat[:, j + 1:, j][:, :, None] * flat[:, j, j + 1:][:, None, :]
    full = cupy.zeros((flat.shape[0], m, m), cupy.int32)
    full[rows[:, None], perm, cupy.arange(m)[None, :]] = 1
    return (flat.reshape(a.shape), piv.reshape(batch + (k,)),
            cupy.ascontiguousarray(full[:, :k, :k]).reshape(batch + (k, k)))


def _lstsq(prim, a, b, driver, *, out):
    a, b = cupy.asnumpy(dev(a)), cupy.asnumpy(dev(b))
    vector = b.ndim == a.ndim - 1
    if vector:
        b = b[..., None]
    batch = a.shape[:-2]
    real = out[1].dtype.to_numpy()
    x = np.empty(batch + (a.shape[-1], b.shape[-1]), a.dtype)
    rank = np.zeros(batch, np.int64)
    sv = np.zeros(batch + (min(a.shape[-2:]),), real)
    for idx in np.ndindex(*batch):
        x[idx], _, rank[idx], sv[idx] = np.linalg.lstsq(a[idx], b[idx], rcond=None)
    residual = np.sum(np.abs(b - a @ x) ** 2, axis=-2).astype(real)
    x = x[..., 0] if vector else x
    outs = (x, residual, rank, sv)
    return tuple(dev(np.ascontiguousarray(v).reshape(spec.shape)) if spec.shape != (0,) else
                 dev(np.zeros((0,), spec.dtype.to_numpy())) for v, spec in zip(outs, out))


def _assign_rows(cost):
    """For each row of ``cost`` (rows <= columns), its column in a minimum-cost assignment."""
    nr, nc = cost.shape
    u, v = np.zeros(nr), np.zeros(nc)
    col4row, row4col = np.full(nr, -1), np.full(nc, -1)
    for cur in range(nr):
        shortest, path = np.full(nc, np.inf), np.full(nc, -1)
        seen_rows, seen_cols = np.zeros(nr, bool), np.zeros(nc, bool)
        i, min_val, sink = cur, 0.0, -1
        while sink == -1:
            seen_rows[i] = True
            free = ~seen_cols
            reduced = min_val + cost[i] - u[i] - v
            better = free & (reduced < shortest)
            path[better], shortest[better] = i, reduced[better]
            cand = np.where(free, shortest, np.inf)
            lowest = cand.min()
            if not np.isfinite(lowest):
                raise MSValueError("For 'LinearSumAssignment', cost matrix is infeasible.")
            ties = np.flatnonzero(cand == lowest)
            unassigned = ties[row4col[ties] == -1]
            j = unassigned[0] if unassigned.size else ties[0]
            min_val = lowest
            seen_cols[j] = True
            if row4col[j] == -1:
                sink = j
            else:
                i = row4col[j]
        u[cur] += min_val
        others = seen_rows.copy()
        others[cur] = False
        u[others] += min_val - shortest[col4row[others]]
        v[seen_cols] -= min_val - shortest[seen_cols]
        j = sink
        while True:
            i = path[j]
            row4col[j] = i
            col4row[i], j = j, col4row[i]
            if i == cur:
                break
    return col4row


def _linear_sum_assignment(prim, cost_matrix, dimension_limit, maximize, *, out):
    cost = cupy.asnumpy(dev(cost_matrix)).astype(np.float64)
    k = min(cost.shape)
    limit = int(cupy.asnumpy(dev(dimension_limit)))
    cost = cost[:, :max(limit, 0)]
    if maximize:
        cost = -cost
    rows = np.zeros(0, np.int64)
    cols = np.zeros(0, np.int64)
    if cost.size:
        if cost.shape[0] <= cost.shape[1]:
            rows, cols = np.arange(cost.shape[0]), _assign_rows(cost)
        else:
            cols_t = _assign_rows(cost.T)
            order = np.argsort(cols_t)
            rows, cols = cols_t[order], order
    row_ind, col_ind = np.full((k,), -1, np.int64), np.full((k,), -1, np.int64)
    row_ind[:rows.size], col_ind[:cols.size] = rows, cols
    return dev(row_ind), dev(col_ind)


KERNELS = {"Eigh": _eigh, "SelfAdjointEig": _eigh, "LU": _lu, "LstsqV2": _lstsq, "LinearSumAssignment": _linear_sum_assignment}
