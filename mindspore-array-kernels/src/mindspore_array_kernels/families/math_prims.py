"""The kernels of ``mindspore/ops/_defs/math_prims.py`` (segment reductions, ``EuclideanNorm``, ``CountNonZero``,
``NuclearNorm``, ``ConjugateTranspose``, ``PopulationCount``, ``Polar``, ``NthElement``, ``Quantile``, ``Pdist``,
``Lstsq``, ``LuSolve``, ``MatrixLogarithm``, ``Qr``, ``TridiagonalMatMul``, the array builders and the value
primitives), bound (:func:`mindspore_array_kernels.bind`) with:

* ``xp``, the array library, and three movers: ``dev`` (an operand as an ``xp`` array), ``host`` (an array as NumPy,
  for the sequential kernels and small index reads) and ``back`` (a NumPy result as an ``xp`` array);
* ``array_more``, the backend's ``array_more`` kernels (``InplaceIndexAdd`` is its ``IndexAdd``);
* ``add_at(target, index, values)``, an unbuffered add in place (NumPy's ``add.at``; on a GPU atomics);
* ``sortable(x)``, ``x`` in a dtype the library sorts exactly (itself; on a GPU bfloat16 as float32);
* ``reduce_segments(kind, flat, ids, n, fill)``, ``out[s] = reduce(flat[ids == s])`` for ``s < n`` with ``kind`` one
  of ``sum``/``prod``/``max``/``min`` (``fill`` where no id is ``s``; ids outside ``[0, n)`` drop), and
  ``counts(ids, n)``, how many ids are each ``s``.

Reductions and transcendental functions of half precision compute in float32 and are rounded once. ``Quantile``
runs NumPy's on the host where the backend has no quantile of NumPy's NaN rules of its own (the GPU backend
replaces it).
"""
import numpy as np

BOUND = ("xp", "dev", "host", "back", "array_more", "add_at", "sortable", "reduce_segments", "counts")


def _np_dtype(spec):
    return np.dtype(spec.dtype.to_numpy())


def _wide(x):
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _int_value(v):
    """An int given as a Python number or a (0-d or 1-element) tensor."""
    if isinstance(v, (int, np.integer)):
        return int(v)
    return int(host(v).reshape(-1)[0])


def _int_tuple(v):
    if isinstance(v, (tuple, list)):
        return tuple(int(s) for s in v)
    if isinstance(v, (int, np.integer)):
        return (int(v),)
    return tuple(int(s) for s in host(v).reshape(-1))


def _extreme(dtype, lowest):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        info = np.finfo(dtype)
        return info.min if lowest else info.max
    if dtype.kind == "b":
        return not lowest
    info = np.iinfo(dtype)
    return info.min if lowest else info.max


# --- segment reductions (``reduce_segments`` and ``counts`` are bound) ------------------------------------------
_FILL = {"sum": 0, "prod": 1}


def _unsorted(kind):
    def kernel(prim, x, segment_ids, num_segments, out=None):
        x, ids = dev(x), dev(segment_ids)
        n = _int_value(num_segments)
        flat = x.reshape((-1,) + x.shape[ids.ndim:])
        fill = _FILL[kind] if kind in _FILL else _extreme(x.dtype, kind == "max")
        return reduce_segments(kind, flat, ids.reshape(-1).astype(np.int64), n, fill)
    return kernel


def _sorted_ids(prim, ids):
    """The segment count of ascending non-negative 1-D ``ids`` (read on the host), checked."""
    h = host(ids).astype(np.int64)
    if h.size and (h[0] < 0 or np.any(h[1:] < h[:-1])):
        raise ValueError(f"For '{prim.name}', segment_ids must be a tensor with element values sorted in ascending "
                         f"order.")
    return int(h[-1]) + 1 if h.size else 0


def _sorted(kind):
    def kernel(prim, input_x, segment_ids, out=None):
        x, ids = dev(input_x), dev(segment_ids).astype(np.int64)
        n = _sorted_ids(prim, ids)
        if kind == "mean":
            w = _wide(x) if x.dtype.kind == "f" else x.astype(np.float64)
            total = reduce_segments("sum", w, ids, n, 0)
            count = counts(ids, n).reshape((n,) + (1,) * (x.ndim - 1))
            return (total / xp.maximum(count, 1)).astype(x.dtype)
        fill = _FILL[kind] if kind in _FILL else _extreme(x.dtype, kind == "max")
        res = reduce_segments(kind, x, ids, n, fill)
        if kind in ("max", "min"):
            empty = (counts(ids, n) == 0).reshape((n,) + (1,) * (x.ndim - 1))
            res = xp.where(empty, xp.zeros((), x.dtype), res)
        return res
    return kernel


# --- norms and counts -------------------------------------------------------------------------------------------
def _euclidean_norm(prim, x, axes, out=None):
    x = dev(x)
    axes = tuple(a % max(x.ndim, 1) for a in _int_tuple(axes))
    w = xp.abs(x) if x.dtype.kind == "c" else (_wide(x) if x.dtype.kind == "f" else x.astype(np.float64))
    res = xp.sqrt(xp.sum(w * w, axis=axes, keepdims=prim.keep_dims))
    return xp.asarray(res).astype(_np_dtype(out))


def _count_nonzero(prim, x, out=None):
    x = dev(x)
    axes = prim.reduced_axes(x.ndim)
    return xp.asarray(xp.sum(x != 0, axis=axes)).astype(np.int64)


def _nuclear_norm(prim, x, out=None):
    x = dev(x)
    a, b = prim.matrix_axes(x.ndim)
    m = xp.moveaxis(x, (a, b), (-2, -1))
    s = xp.linalg.svd(m, compute_uv=False)
    res = xp.sum(s, axis=-1)
    if prim.keepdim:
        res = res.reshape(tuple(1 if i in (a, b) else d for i, d in enumerate(x.shape)))
    return xp.asarray(res).astype(x.dtype)


# --- elementwise and layout ---------------------------------------------------------------------------------------
def _conjugate_transpose(prim, x, perm, out=None):
    x = dev(x)
    y = xp.transpose(x, tuple(int(p) for p in perm))
    return xp.ascontiguousarray(xp.conj(y) if x.dtype.kind == "c" else y)


_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _population_count(prim, input_x, out=None):
    x = dev(input_x)
    u = x.view(_UNSIGNED[x.dtype.itemsize])
    total = xp.zeros(x.shape, np.uint8)
    one = u.dtype.type(1)
    for k in range(x.dtype.itemsize * 8):
        total = total + ((u >> u.dtype.type(k)) & one).astype(np.uint8)
    return total


def _polar(prim, abs, angle, out=None):  # noqa: A002
    r, t = dev(abs), dev(angle)
    return (r * xp.cos(t) + 1j * (r * xp.sin(t))).astype(_np_dtype(out))


def _nth_element(prim, input, n, out=None):  # noqa: A002
    x = dev(input)
    k = _int_value(n)
    if not 0 <= k < x.shape[-1]:
        raise ValueError(f"For '{prim.name}', the 'n' must be in [0, {x.shape[-1]}), but got {k}.")
    s = xp.sort(sortable(x), axis=-1)
    return xp.ascontiguousarray(s[..., x.shape[-1] - 1 - k if prim.reverse else k]).astype(x.dtype, copy=False)


def _quantile(prim, input, q, out=None):  # noqa: A002
    x, q = dev(input), dev(q)
    if prim.ignore_nan:
        res = back(np.nanquantile(host(x), host(q), axis=prim.dim, keepdims=prim.keep_dims))
    else:
        res = xp.quantile(x, q, axis=prim.dim, keepdims=prim.keep_dims)
    return xp.asarray(res).astype(x.dtype).reshape(tuple(out.shape))


def _quantile_grad(prim, dout, input, q, out=None):  # noqa: A002
    g, x, q = dev(dout), dev(input), dev(q)
    axis = None if prim.dim is None else prim.dim % max(x.ndim, 1)
    moved = x.reshape(1, -1) if axis is None else xp.moveaxis(x, axis, -1)
    lead = moved.shape[:-1]
    n = moved.shape[-1]
    flat = moved.reshape(-1, n)                               # (B, n)
    b = flat.shape[0]
    qs = q.reshape(-1).astype(x.dtype)                        # (Q,)
    g2 = g.reshape(qs.shape[0], b).astype(x.dtype)            # (Q, B)
    nan = xp.isnan(flat)
    keyed = sortable(flat)
    order = xp.argsort(xp.where(nan, xp.full((), np.inf, keyed.dtype), keyed), axis=-1)
    if prim.ignore_nan:
        count = xp.sum(~nan, axis=-1)
        bad = count == 0
    else:
        count = xp.full((b,), n, np.int64)
        bad = xp.any(nan, axis=-1)
    last = xp.maximum(count - 1, 0).astype(x.dtype)           # (B,)
    pos = qs[:, None] * last[None, :]                          # (Q, B)
    lo = xp.floor(pos)
    hi = xp.minimum(lo + 1, last[None, :])
    frac = pos - lo
    g2 = xp.where(bad[None, :], xp.zeros((), x.dtype), g2)
    rows = xp.broadcast_to(xp.arange(b)[None, :], pos.shape)
    grad = xp.zeros((b * n,), x.dtype)
    for where, weight in ((lo, 1 - frac), (hi, frac)):
        col = order[rows, where.astype(np.int64)]             # (Q, B)
        add_at(grad, (rows * n + col).reshape(-1), (g2 * weight).reshape(-1))
    grad = grad.reshape(lead + (n,))
    return xp.ascontiguousarray(grad.reshape(x.shape) if axis is None else xp.moveaxis(grad, -1, axis))


# --- Pdist ----------------------------------------------------------------------------------------------------
def _pairs(n):
    i, j = np.triu_indices(n, 1)
    return i, j


def _pdist(prim, x, out=None):
    x = dev(x)
    i, j = _pairs(x.shape[-2])
    w = _wide(x)
    d = xp.abs(w[..., i, :] - w[..., j, :])
    p = prim.p
    if p == 0:
        res = xp.sum(d != 0, axis=-1)
    elif p == float("inf"):
        res = xp.max(d, axis=-1) if d.shape[-1] else xp.zeros(d.shape[:-1], w.dtype)
    else:
        res = xp.sum(d ** p, axis=-1) ** (1.0 / p)
    return xp.asarray(res).astype(x.dtype)


def _pdist_grad(prim, y_grad, x, y, out=None):
    g, x, y = dev(y_grad), dev(x), dev(y)
    n = x.shape[-2]
    i, j = _pairs(n)
    w, g, y = _wide(x), _wide(g), _wide(y)
    diff = w[..., i, :] - w[..., j, :]                    # (..., P, M)
    dist = y[..., None]
    p = prim.p
    if p == 0:
        part = xp.zeros(diff.shape, w.dtype)
    elif p == float("inf"):
        part = xp.sign(diff) * (xp.abs(diff) == dist).astype(w.dtype)
    elif p == 1:
        part = xp.sign(diff)
    else:
        safe = xp.where(dist > 0, dist, xp.ones((), w.dtype))
        part = xp.sign(diff) * (xp.abs(diff) / safe) ** (p - 1)
        part = xp.where(dist > 0, part, xp.zeros((), w.dtype))
    contrib = g[..., None] * part                         # (..., P, M)
    scatter = np.zeros((len(i), n), np.float64)           # +1 at row i, -1 at row j of each pair
    scatter[np.arange(len(i)), i] = 1.0
    scatter[np.arange(len(i)), j] = -1.0
    s = back(scatter.astype(w.dtype))
    res = xp.swapaxes(xp.matmul(xp.swapaxes(contrib, -1, -2), s), -1, -2)
    return xp.ascontiguousarray(res).astype(x.dtype)


# --- linear algebra -------------------------------------------------------------------------------------------
def _lstsq(prim, x, a, out=None):
    x, a = dev(x), dev(a)
    m = x.astype(np.float64)
    rhs = a.astype(np.float64)
    rhs2 = rhs.reshape(rhs.shape[0], -1)
    q, r = xp.linalg.qr(m)
    res = xp.linalg.solve(r, xp.matmul(xp.swapaxes(q, -1, -2), rhs2))
    return xp.ascontiguousarray(res.reshape((m.shape[1],) + rhs.shape[1:])).astype(x.dtype)


def _lu_solve(prim, x, lu_data, lu_pivots, out=None):
    b, lu = dev(x), dev(lu_data)
    n = lu.shape[-1]
    batch = tuple(np.broadcast_shapes(b.shape[:-2], lu.shape[:-2]))
    piv = host(lu_pivots).astype(np.int64) - 1
    perm = np.broadcast_to(np.arange(n), piv.shape).copy()
    for i in range(n):                                     # LAPACK's row interchanges, in order
        k = piv[..., i]
        pi = np.take_along_axis(perm, k[..., None], -1)[..., 0].copy()
        kk = perm[..., i].copy()
        np.put_along_axis(perm, k[..., None], kk[..., None], -1)
        perm[..., i] = pi
    perm = np.broadcast_to(perm, batch + (n,))
    w = b.astype(np.float32) if b.dtype == np.float16 else b
    lw = lu.astype(w.dtype)
    rhs = xp.broadcast_to(w, batch + w.shape[-2:])
    rhs = xp.take_along_axis(rhs, back(np.ascontiguousarray(perm[..., None]).astype(np.int64)), -2)
    eye = xp.eye(n, dtype=w.dtype)
    lower = xp.broadcast_to(xp.tril(lw, -1) + eye, batch + (n, n))
    upper = xp.broadcast_to(xp.triu(lw), batch + (n, n))
    res = xp.linalg.solve(upper, xp.linalg.solve(lower, rhs))
    return xp.ascontiguousarray(res).astype(b.dtype)


def _matrix_logarithm(prim, x, out=None):
    h = host(x)
    w, v = np.linalg.eig(h.astype(np.complex128))
    res = np.matmul(v * np.log(w)[..., None, :], np.linalg.inv(v))
    return back(np.ascontiguousarray(res).astype(h.dtype))


def _qr(prim, x, out=None):
    x = dev(x)
    w = _wide(x)
    q, r = xp.linalg.qr(w, mode="complete" if prim.full_matrices else "reduced")
    return xp.ascontiguousarray(q).astype(x.dtype), xp.ascontiguousarray(r).astype(x.dtype)


def _tridiagonal_matmul(prim, superdiag, maindiag, subdiag, rhs, out=None):
    sup, main, sub, r = (dev(v) for v in (superdiag, maindiag, subdiag, rhs))
    sup, main, sub = sup[..., 0, :, None], main[..., 0, :, None], sub[..., 0, :, None]
    res = main * r
    zero = xp.zeros(r.shape[:-2] + (1,) + r.shape[-1:], r.dtype)
    above = xp.concatenate([r[..., 1:, :], zero], axis=-2)
    below = xp.concatenate([zero, r[..., :-1, :]], axis=-2)
    res = res + sup * above + sub * below
    return xp.ascontiguousarray(res).astype(r.dtype)


# --- builders ---------------------------------------------------------------------------------------------------
def _accumulate_nv2(prim, x, out=None):
    res = dev(x[0]).copy()
    for t in x[1:]:
        res = res + dev(t)
    return res


def _compare_and_bitpack(prim, x, threshold, out=None):
    x, t = dev(x), dev(threshold)
    bits = (x > t).astype(np.uint8).reshape(x.shape[:-1] + (x.shape[-1] // 8, 8))
    weights = back(np.array([128, 64, 32, 16, 8, 4, 2, 1], np.uint8))
    return xp.sum(bits * weights, axis=-1).astype(np.uint8)


def _expand(prim, x, shape, out=None):
    x = dev(x)
    target = list(_int_tuple(shape))
    lead = len(target) - x.ndim
    for d in range(x.ndim):
        if target[lead + d] == -1:
            target[lead + d] = x.shape[d]
    return xp.ascontiguousarray(xp.broadcast_to(x, tuple(target)))


def _fill_v2(prim, shape, value, out=None):
    v = dev(value)
    return xp.ascontiguousarray(xp.broadcast_to(v.reshape(()), _int_tuple(shape)))


def _fills(prim, x, value, out=None):
    x = dev(x)
    v = (back(np.asarray(value)) if isinstance(value, (bool, int, float)) else dev(value)).astype(x.dtype)
    return xp.ascontiguousarray(xp.broadcast_to(v.reshape(()), x.shape))


def _lerp_scalar(prim, input, end, weight, out=None):  # noqa: A002
    a, b = dev(input), dev(end)
    wa, wb = _wide(a), _wide(b)
    return (wa + float(weight) * (wb - wa)).astype(_np_dtype(out))


def _log_softmax_ext(prim, input, dim=None, dtype=None, out=None):  # noqa: A002
    x = dev(input).astype(_np_dtype(out))
    if dim is None:
        axis = 0 if x.ndim in (0, 1, 3) else 1
    else:
        axis = dim % max(x.ndim, 1)
    if x.ndim == 0:
        return xp.zeros((), x.dtype)
    w = _wide(x)
    m = xp.max(w, axis=axis, keepdims=True)
    shifted = w - m
    res = shifted - xp.log(xp.sum(xp.exp(shifted), axis=axis, keepdims=True))
    return res.astype(x.dtype)


def _equal_count(prim, x, y, out=None):
    x, y = dev(x), dev(y)
    return xp.sum(x == y).astype(x.dtype).reshape(1)


def _in_top_k(prim, x1, x2, out=None):
    x, t = dev(x1), dev(x2).astype(np.int64)
    n = x.shape[1]
    valid = (t >= 0) & (t < n)
    safe = xp.where(valid, t, xp.zeros((), t.dtype))
    target = xp.take_along_axis(x, safe[:, None], 1)
    larger = xp.sum(x > target, axis=1)
    return (larger < prim.k) & xp.isfinite(target[:, 0]) & valid


# --- sequential kernels (run on the host) ----------------------------------------------------------------------------
def _unique_with_pad(prim, x, pad_num, out=None):
    h = host(x)
    pad = host(pad_num).reshape(()) if not isinstance(pad_num, (int, float)) else pad_num
    values, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")              # first-occurrence order
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    y = np.full(h.shape, pad, h.dtype)
    y[:len(values)] = values[order]
    idx = rank[inverse.reshape(-1)].astype(_np_dtype(out[1]))
    return back(y), back(idx)


def _list_diff(prim, x, y, out=None):
    hx, hy = host(x), host(y)
    keep = ~np.isin(hx, hy)
    return back(hx[keep]), back(np.nonzero(keep)[0].astype(_np_dtype(out[1])))


def _ragged_range(prim, starts, limits, deltas, out=None):
    s, l, d = (host(v) for v in (starts, limits, deltas))
    s, l, d = np.broadcast_arrays(np.atleast_1d(s), np.atleast_1d(l), np.atleast_1d(d))
    rows = []
    for a, b, c in zip(s, l, d):
        if c == 0:
            raise ValueError(f"For '{prim.name}', requires delta != 0, but got delta 0.")
        if s.dtype.kind == "i":
            size = max(-((a - b) // c) if (b - a) * c > 0 else 0, 0)
        else:
            size = max(int(np.ceil((b - a) / c)), 0)
        rows.append(a + c * np.arange(size, dtype=s.dtype))
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(_np_dtype(out[0]))
    values = np.concatenate(rows).astype(s.dtype) if rows else np.zeros((0,), s.dtype)
    return back(splits), back(values)


def _parallel_concat(prim, values, out=None):
    return xp.concatenate([dev(v) for v in values], axis=0)


def _scatter_add_with_axis(prim, input_x, indices, updates, out=None):
    x, idx, upd = dev(input_x), host(indices).astype(np.int64), dev(updates)
    axis = prim.axis % x.ndim
    n = x.shape[axis]
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise ValueError(f"For '{prim.name}', the 'indices' must be in [{-n}, {n}), but got values out of it.")
    idx = np.where(idx < 0, idx + n, idx)
    grid = list(np.indices(idx.shape))
    grid[axis] = idx
    res = x.copy()
    add_at(res, tuple(back(g) for g in grid), upd.astype(x.dtype))
    return res


# --- diagonals ------------------------------------------------------------------------------------------------
def _k_pair(k):
    ks = list(_int_tuple(k))
    return ks[0], ks[-1], ks[0] == ks[-1]       # a pair (d, d) names one diagonal too, as in 2.10


def _diag_len(d, rows, cols):
    return min(rows + min(0, d), cols - max(0, d))


def _offset(d, max_len, rows, cols, align):
    right = align.split("_")[0 if d >= 0 else 1] == "RIGHT"
    return max_len - _diag_len(d, rows, cols) if right else 0


def _diag_table(rows, cols, lo, hi, max_len, align):
    """For each (row, col): its index in the packed diagonals ``(hi - lo + 1) * max_len``, or -1 off the band."""
    table = np.full((rows, cols), -1, np.int64)
    for i in range(rows):
        for j in range(cols):
            d = j - i
            pos = _offset(d, max_len, rows, cols, align) + min(i, j)
            if lo <= d <= hi and 0 <= pos < max_len:   # an output longer than the packed rows pads
                table[i, j] = (hi - d) * max_len + pos
    return table


def _part_table(rows, cols, lo, hi, max_len, align):
    """For each (diagonal, position) of the packed diagonals: the flat (row, col) index read, or -1 (padding)."""
    table = np.full((hi - lo + 1, max_len), -1, np.int64)
    for n, d in enumerate(range(hi, lo - 1, -1)):
        length, off = _diag_len(d, rows, cols), _offset(d, max_len, rows, cols, align)
        for p in range(max_len):
            q = p - off
            if 0 <= q < length:
                i, j = (q, q + d) if d >= 0 else (q - d, q)
                table[n, p] = i * cols + j
    return table


def _gather_table(flat, table, pad):
    """``flat[..., table]`` with ``pad`` where the table holds -1."""
    idx = back(np.maximum(table, 0).reshape(-1))
    got = xp.take(flat, idx, axis=-1).reshape(flat.shape[:-1] + table.shape)
    inside = back(table >= 0)
    return xp.where(inside, got, pad)


def _matrix_diag_v3(prim, x, k, num_rows, num_cols, padding_value, out=None):
    x = dev(x)
    lo, hi, single = _k_pair(k)
    max_len = x.shape[-1]
    rows, cols = _int_value(num_rows), _int_value(num_cols)
    min_rows, min_cols = max_len - min(hi, 0), max_len + max(lo, 0)
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    elif rows == -1:
        rows = min_rows
    elif cols == -1:
        cols = min_cols
    if rows < min_rows or cols < min_cols:
        raise ValueError(f"For '{prim.name}', the output size ({rows}, {cols}) is too small for the diagonals, at "
                         f"least ({min_rows}, {min_cols}).")
    lead = x.shape[:-1] if single else x.shape[:-2]
    packed = x.reshape(lead + ((hi - lo + 1) * max_len,))
    pad = dev(padding_value).astype(x.dtype).reshape(())
    return xp.ascontiguousarray(_gather_table(packed, _diag_table(rows, cols, lo, hi, max_len, prim.align), pad))


def _band(prim, x, k):
    lo, hi, single = _k_pair(k)
    rows, cols = x.shape[-2], x.shape[-1]
    if rows and cols and not (-rows < lo <= cols - 1 and -rows < hi <= cols - 1):
        raise ValueError(f"For '{prim.name}', 'k' must be in (-{rows}, {cols}), but got ({lo}, {hi}).")
    max_len = max(_diag_len(d, rows, cols) for d in range(lo, hi + 1))
    return lo, hi, single, rows, cols, max_len


def _matrix_diag_part_v3(prim, x, k, padding_value, out=None):
    x = dev(x)
    lo, hi, single, rows, cols, max_len = _band(prim, x, k)
    flat = x.reshape(x.shape[:-2] + (rows * cols,))
    pad = dev(padding_value).astype(x.dtype).reshape(())
    res = _gather_table(flat, _part_table(rows, cols, lo, hi, max_len, prim.align), pad)
    return xp.ascontiguousarray(res[..., 0, :] if single else res)


def _matrix_set_diag_v3(prim, x, diagonal, k, out=None):
    x, diag = dev(x), dev(diagonal)
    lo, hi, single, rows, cols, max_len = _band(prim, x, k)
    lead = x.shape[:-2]
    packed = diag.astype(x.dtype)
    packed = xp.broadcast_to(packed[..., None, :] if single else packed, lead + (hi - lo + 1, max_len))
    packed = packed.reshape(lead + ((hi - lo + 1) * max_len,))
    table = _diag_table(rows, cols, lo, hi, max_len, prim.align)
    idx = back(np.maximum(table, 0).reshape(-1))
    got = xp.take(packed, idx, axis=-1).reshape(lead + (rows, cols))
    return xp.ascontiguousarray(xp.where(back(table >= 0), got, x))


# --- MatrixSolveLs / Ormqr ------------------------------------------------------------------------------------------
def _matrix_solve_ls(prim, matrix, rhs, l2, out=None):
    a, b = dev(matrix), dev(rhs)
    reg = float(host(l2).reshape(()))
    w = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    bw = b.astype(w.dtype)
    ah = xp.conj(xp.swapaxes(w, -1, -2))
    m, n = a.shape[-2], a.shape[-1]
    if m >= n:
        gram = xp.matmul(ah, w) + reg * xp.eye(n, dtype=w.dtype)
        res = xp.linalg.solve(gram, xp.matmul(ah, bw))
    else:
        gram = xp.matmul(w, ah) + reg * xp.eye(m, dtype=w.dtype)
        res = xp.matmul(ah, xp.linalg.solve(gram, bw))
    return xp.ascontiguousarray(res).astype(a.dtype)


def _ormqr(prim, x, tau, other, out=None):
    x, tau, c = dev(x), dev(tau), dev(other)
    m = x.shape[-2]
    q = xp.broadcast_to(xp.eye(m, dtype=x.dtype), x.shape[:-2] + (m, m)).copy()
    rows = back(np.arange(m))
    for i in range(tau.shape[-1]):                         # Q = H_1 H_2 ... H_k, H_i = I - tau_i v_i v_i^H
        v = xp.where(rows[:] > i, x[..., :, i], xp.zeros((), x.dtype))
        v = xp.where(rows[:] == i, xp.ones((), x.dtype), v)
        qv = xp.matmul(q, v[..., :, None])                 # (..., M, 1)
        q = q - tau[..., i, None, None] * qv * xp.conj(v)[..., None, :]
    if prim.transpose:
        q = xp.conj(xp.swapaxes(q, -1, -2))
    res = xp.matmul(q, c) if prim.left else xp.matmul(c, q)
    return xp.ascontiguousarray(res).astype(c.dtype)


# --- EditDistance / NoRepeatNGram (host) ----------------------------------------------------------------------
def _levenshtein(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
        prev = cur
    return prev[-1]


def _sequences(indices, values, shape):
    seqs = {}
    order = np.lexsort(indices.T[::-1]) if len(indices) else np.zeros((0,), np.int64)
    for r in order:
        seqs.setdefault(tuple(int(v) for v in indices[r, :-1]), []).append(values[r].item())
    return seqs


def _edit_distance(prim, hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, truth_values,
                   truth_shape, out=None):
    hi, hv, hs = host(hypothesis_indices), host(hypothesis_values), host(hypothesis_shape)
    ti, tv, ts = host(truth_indices), host(truth_values), host(truth_shape)
    shape = tuple(int(v) for v in np.maximum(hs, ts)[:-1])
    hyp, truth = _sequences(hi, hv, hs), _sequences(ti, tv, ts)
    res = np.zeros(shape, np.float32)
    for pos in np.ndindex(*shape):
        h, t = hyp.get(pos, []), truth.get(pos, [])
        d = float(_levenshtein(h, t))
        if prim.normalize:
            d = d / len(t) if t else (np.inf if h else 0.0)
        res[pos] = d
    return back(res)


def _no_repeat_ngram(prim, state_seq, log_probs, out=None):
    seq, lp = host(state_seq), host(log_probs)
    res = lp.copy()
    n = prim.ngram_size
    length = seq.shape[-1]
    low = np.finfo(lp.dtype).min
    for b in np.ndindex(*seq.shape[:-1]):
        s = seq[b]
        tail = tuple(s[length - n + 1:]) if n > 1 else ()
        for i in range(length - n + 1):
            if tuple(s[i:i + n - 1]) == tail:
                tok = int(s[i + n - 1])
                if 0 <= tok < lp.shape[-1]:
                    res[b + (tok,)] = low
    return back(res)


# --- IndexPut ------------------------------------------------------------------------------------------------------
def _index_put(prim, x1, x2, indices, out=None):
    x, v = dev(x1), dev(x2)
    idx = tuple(dev(i).astype(np.int64) for i in indices)
    res = x.copy()
    target_shape = res[idx].shape
    vals = xp.broadcast_to(v.astype(x.dtype), target_shape)
    if prim.accumulate:
        add_at(res, idx, vals)
    else:
        res[idx] = vals
    return res


# --- values -----------------------------------------------------------------------------------------------------
def _tensor_shape(prim, input_x, out=None):
    return back(np.array(dev(input_x).shape, np.int64))


def _tuple_to_array(prim, input_x, out=None):
    return back(np.array(tuple(input_x), _np_dtype(out)))


def _scalar_to_array(prim, input_x, out=None):
    return back(np.array(input_x, _np_dtype(out)))


def _scalar_to_tensor(prim, input_x, dtype=None, out=None):
    return back(np.array(input_x, _np_dtype(out)))


KERNELS = {
    "UnsortedSegmentSum": _unsorted("sum"),
    "UnsortedSegmentMax": _unsorted("max"),
    "UnsortedSegmentMin": _unsorted("min"),
    "UnsortedSegmentProd": _unsorted("prod"),
    "SegmentSum": _sorted("sum"),
    "SegmentMean": _sorted("mean"),
    "SegmentMax": _sorted("max"),
    "SegmentMin": _sorted("min"),
    "SegmentProd": _sorted("prod"),
    "EuclideanNorm": _euclidean_norm,
    "CountNonZero": _count_nonzero,
    "NuclearNorm": _nuclear_norm,
    "ConjugateTranspose": _conjugate_transpose,
    "PopulationCount": _population_count,
    "Polar": _polar,
    "NthElement": _nth_element,
    "Quantile": _quantile,
    "QuantileGrad": _quantile_grad,
    "Pdist": _pdist,
    "PdistGrad": _pdist_grad,
    "Lstsq": _lstsq,
    "LuSolve": _lu_solve,
    "MatrixLogarithm": _matrix_logarithm,
    "Qr": _qr,
    "TridiagonalMatMul": _tridiagonal_matmul,
    "AccumulateNV2": _accumulate_nv2,
    "CompareAndBitpack": _compare_and_bitpack,
    "Expand": _expand,
    "FillV2": _fill_v2,
    "Fills": _fills,
    "LerpScalar": _lerp_scalar,
    "LogSoftmaxExt": _log_softmax_ext,
    "EqualCount": _equal_count,
    "InTopK": _in_top_k,
    "UniqueWithPad": _unique_with_pad,
    "ListDiff": _list_diff,
    "RaggedRange": _ragged_range,
    "ParallelConcat": _parallel_concat,
    "ScatterAddWithAxis": _scatter_add_with_axis,
    "TensorShape": _tensor_shape,
    "DynamicShape": _tensor_shape,
    "TupleToArray": _tuple_to_array,
    "ScalarToArray": _scalar_to_array,
    "ScalarToTensor": _scalar_to_tensor,
    "MatrixDiagV3": _matrix_diag_v3,
    "MatrixDiagPartV3": _matrix_diag_part_v3,
    "MatrixSetDiagV3": _matrix_set_diag_v3,
    "MatrixSolveLs": _matrix_solve_ls,
    "Ormqr": _ormqr,
    "EditDistance": _edit_distance,
    "NoRepeatNGram": _no_repeat_ngram,
    "IndexPut": _index_put,
    "InplaceIndexAdd": array_more["IndexAdd"],   # the same kernel: InplaceIndexAdd(axis) is IndexAdd(axis)
}
