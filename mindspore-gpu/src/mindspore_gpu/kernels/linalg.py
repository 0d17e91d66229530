"""GPU kernels of ``mindspore/ops/_defs/linalg.py``.

``MatrixInverse`` follows MindSpore's CPU kernel, as mindspore-cpu's C++ kernel does: LU with complete pivoting of
the matrix as a column-major map sees it (its transpose; the conjugate for ``adjoint``), stopped at the first zero
corner; the rank counts the pivots above ``|largest pivot| * epsilon * n``; each unit column is solved with the
top-left rank x rank block and its other components set to zero. So a matrix that is not invertible gives its
rank-limited solution (``[[1, 2], [2, 4]]`` -> ``[[0, 0], [0, 0.25]]``; zeros for one holding NaN or infinity), not
an error, the same on both backends. It runs as one hand-written kernel (``ms_matrix_inverse_real`` /
``_complex``: a block per matrix, float32/float64/complex64/complex128); with the hand-written kernels off
(``MS_GPU_FUSED_KERNELS=0``) the same steps run as CuPy array operations over the batch, a few launches per column.

The determinants are Gaussian elimination with partial pivoting in CuPy array operations (one pass over the
columns, every matrix of the batch at once): they multiply the pivots (a row swap flips the sign). Half precision
is computed in float32 and rounded once at the end; a singular matrix gives a zero determinant (``-inf`` log).
"""
import cupy
import numpy

from mindspore_gpu.kernels._common import RawKernels, dev

_F32, _F64 = numpy.dtype(numpy.float32), numpy.dtype(numpy.float64)
_COMPLEX = (numpy.dtype(numpy.complex64), numpy.dtype(numpy.complex128))

#: The inverse of each n x n matrix of a batch (a block of RAW_BLOCK threads per matrix), written for the real type
#: ``R`` (float or double); ``_complex`` takes (and writes) complex data as pairs of R. ``work`` holds 2 n^2 scalars
#: per matrix (the factors, the solved columns), ``order`` 2 n (the row and column permutations), ``rank`` one.
_INVERSE_SOURCE = r"""
struct ms_cplx { R re, im; };

__device__ __forceinline__ R ms_mag(R v) { return fabs(v); }
__device__ __forceinline__ R ms_mag(ms_cplx v) { return hypot(v.re, v.im); }
__device__ __forceinline__ R ms_conj(R v) { return v; }
__device__ __forceinline__ ms_cplx ms_conj(ms_cplx v) { return ms_cplx{v.re, -v.im}; }
__device__ __forceinline__ ms_cplx operator*(ms_cplx a, ms_cplx b) {
    return ms_cplx{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
__device__ __forceinline__ ms_cplx operator-(ms_cplx a, ms_cplx b) { return ms_cplx{a.re - b.re, a.im - b.im}; }
__device__ __forceinline__ R ms_quot(R a, R b) { return a / b; }
__device__ __forceinline__ ms_cplx ms_quot(ms_cplx a, ms_cplx b) {     // Smith's division (no overflow of |b|^2)
    if (fabs(b.re) >= fabs(b.im)) {
        const R r = b.im / b.re, d = b.re + b.im * r;
        return ms_cplx{(a.re + a.im * r) / d, (a.im - a.re * r) / d};
    }
    const R r = b.re / b.im, d = b.im + b.re * r;
    return ms_cplx{(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}
template <typename S> __device__ __forceinline__ S ms_of(R v);
template <> __device__ __forceinline__ R ms_of<R>(R v) { return v; }
template <> __device__ __forceinline__ ms_cplx ms_of<ms_cplx>(R v) { return ms_cplx{v, (R)0}; }

// Swaps the n elements w[a + j * stride] and w[b + j * stride] (two rows or two columns of W) across the block's
// threads, and order[k] with order[other] (thread 0).
template <typename S>
__device__ __forceinline__ void ms_swap_lines(S* w, long long a, long long b, long long stride, long long n,
                                              long long* order, long long k, long long other) {
    for (long long j = threadIdx.x; j < n; j += RAW_BLOCK) {
        const S t = w[a + j * stride];
        w[a + j * stride] = w[b + j * stride];
        w[b + j * stride] = t;
    }
    if (threadIdx.x == 0) {
        const long long p = order[k];
        order[k] = order[other];
        order[other] = p;
    }
}

template <typename S>
__device__ void ms_invert(const S* __restrict__ x, S* __restrict__ out, S* __restrict__ work,
                          long long* __restrict__ order, long long* __restrict__ rank_out, long long n, int adjoint,
                          R eps) {
    __shared__ R best_v[RAW_BLOCK];
    __shared__ long long best_t[RAW_BLOCK];
    const long long nn = n * n, tid = threadIdx.x;
    const S* in = x + (long long)blockIdx.x * nn;
    S* o = out + (long long)blockIdx.x * nn;
    S* w = work + (long long)blockIdx.x * 2 * nn;       // W(i, j) = w[i + j * n] (column-major, as the map is)
    S* c = w + nn;
    long long* prow = order + (long long)blockIdx.x * 2 * n;
    long long* pcol = prow + n;
    for (long long t = tid; t < nn; t += RAW_BLOCK) w[t] = adjoint ? ms_conj(in[(t % n) * n + t / n]) : in[t];
    for (long long t = tid; t < n; t += RAW_BLOCK) prow[t] = pcol[t] = t;
    __syncthreads();
    long long nonzero = n;
    R max_pivot = 0;
    for (long long k = 0; k < n; ++k) {
        // the first largest |W| of the trailing block in column-major order: NaN never wins, but at (k, k) it stays
        const long long m = n - k;
        R bv = -1;
        long long bt = -1;
        for (long long t = tid; t < m * m; t += RAW_BLOCK) {
            const R v = ms_mag(w[(k + t % m) + (k + t / m) * n]);
            if (v > bv) { bv = v; bt = t; }
        }
        best_v[tid] = bv;
        best_t[tid] = bt;
        __syncthreads();
        for (int half = RAW_BLOCK / 2; half > 0; half >>= 1) {
            if (tid < half) {
                const R v = best_v[tid + half];
                const long long t = best_t[tid + half];
                if (v > best_v[tid] || (v == best_v[tid] && t >= 0 && (best_t[tid] < 0 || t < best_t[tid]))) {
                    best_v[tid] = v;
                    best_t[tid] = t;
                }
            }
            __syncthreads();
        }
        if (tid == 0) {
            const R corner = ms_mag(w[k + k * n]);
            if (corner != corner) { best_v[0] = corner; best_t[0] = 0; }
        }
        __syncthreads();
        const R best = best_v[0];
        const long long bt0 = best_t[0];
        __syncthreads();
        if (best == (R)0) { nonzero = k; break; }
        if (best > max_pivot) max_pivot = best;
        const long long br = k + bt0 % m, bc = k + bt0 / m;
        if (br != k) ms_swap_lines(w, k, br, n, n, prow, k, br);              // rows k and br
        __syncthreads();
        if (bc != k) ms_swap_lines(w, k * n, bc * n, 1, n, pcol, k, bc);      // columns k and bc
        __syncthreads();
        if (k + 1 < n) {
            const S pivot = w[k + k * n];
            for (long long i = k + 1 + tid; i < n; i += RAW_BLOCK) w[i + k * n] = ms_quot(w[i + k * n], pivot);
            __syncthreads();
            const long long r = m - 1;
            for (long long t = tid; t < r * r; t += RAW_BLOCK) {
                const long long i = k + 1 + t % r, j = k + 1 + t / r;
                w[i + j * n] = w[i + j * n] - w[i + k * n] * w[k + j * n];
            }
            __syncthreads();
        }
    }
    const R threshold = max_pivot * (eps * (R)n);
    long long rank = 0;
    for (long long i = 0; i < nonzero; ++i) rank += ms_mag(w[i + i * n]) > threshold ? 1 : 0;
    if (tid == 0) rank_out[blockIdx.x] = rank;
    if (rank == 0) {
        for (long long t = tid; t < nn; t += RAW_BLOCK) o[t] = ms_of<S>((R)0);
        return;
    }
    for (long long t = tid; t < nn; t += RAW_BLOCK) c[t] = ms_of<S>((R)0);
    __syncthreads();
    for (long long i = tid; i < n; i += RAW_BLOCK) c[i + prow[i] * n] = ms_of<S>((R)1);
    __syncthreads();
    for (long long j = tid; j < n; j += RAW_BLOCK) {      // a column of the permuted identity per thread
        S* col = c + j * n;
        for (long long i = 0; i < n; ++i) {                // unit lower: col(i+1:) -= col(i) * L(i+1:, i)
            const S b = col[i];
            for (long long r = i + 1; r < n; ++r) col[r] = col[r] - b * w[r + i * n];
        }
        for (long long i = rank - 1; i >= 0; --i) {        // upper, top-left rank x rank: col(i) *= 1 / U(i, i)
            const S b = col[i] * ms_quot(ms_of<S>((R)1), w[i + i * n]);
            col[i] = b;
            for (long long r = 0; r < i; ++r) col[r] = col[r] - b * w[r + i * n];
        }
    }
    __syncthreads();
    for (long long t = tid; t < nn; t += RAW_BLOCK) {      // solution row pcol(i) = c row i (i < rank), else zero
        const long long i = t % n, j = t / n;
        o[pcol[i] + j * n] = i < rank ? c[t] : ms_of<S>((R)0);
    }
}

extern "C" __global__ void ms_matrix_inverse_real(const R* x, R* out, R* work, long long* order, long long* rank,
                                                  long long n, int adjoint, R eps) {
    ms_invert<R>(x, out, work, order, rank, n, adjoint, eps);
}

extern "C" __global__ void ms_matrix_inverse_complex(const R* x, R* out, R* work, long long* order,
                                                     long long* rank, long long n, int adjoint, R eps) {
    ms_invert<ms_cplx>((const ms_cplx*)x, (ms_cplx*)out, (ms_cplx*)work, order, rank, n, adjoint, eps);
}
"""
_INVERSE = RawKernels("ms_matrix_inverse", _INVERSE_SOURCE, ("ms_matrix_inverse_real", "ms_matrix_inverse_complex"),
                      dtypes=(_F32, _F64), bindings=({"R": _F32}, {"R": _F64}))


def _invert_loop(a, adjoint):
    """The kernel's steps as CuPy array operations on every matrix of ``a`` (B, n, n) at once: (inverse, rank)."""
    bsz, n = a.shape[0], a.shape[-1]
    real = numpy.dtype(a.real.dtype)
    w = (cupy.conj(a) if adjoint else cupy.swapaxes(a, -1, -2)).copy()      # w[b, i, j] = W(i, j)
    batch = cupy.arange(bsz)
    prow = cupy.broadcast_to(cupy.arange(n), (bsz, n)).copy()
    pcol = prow.copy()
    active = cupy.ones((bsz,), bool)
    nonzero = cupy.full((bsz,), n, cupy.int64)
    max_pivot = cupy.zeros((bsz,), real)
    nan = cupy.full((), numpy.nan, real)

    def swap(arr, k, other, axis):
        if axis == 1:
            first, second = arr[:, k].copy(), arr[batch, other].copy()
            arr[:, k] = second
            arr[batch, other] = first
        else:
            first, second = arr[:, :, k].copy(), arr[batch, :, other].copy()
            arr[:, :, k] = second
            arr[batch, :, other] = first

    for k in range(n):
        m = n - k
        scores = cupy.swapaxes(cupy.abs(w[:, k:, k:]), -1, -2).reshape(bsz, m * m)   # t = j * m + i
        corner_nan = cupy.isnan(scores[:, 0])
        ranked = cupy.where(cupy.isnan(scores), cupy.full((), -1, real), scores)
        t = cupy.where(corner_nan, 0, cupy.argmax(ranked, axis=1))
        best = cupy.where(corner_nan, nan, ranked[batch, t])
        stop = active & (best == 0)
        nonzero = cupy.where(stop, k, nonzero)
        active = active & ~stop
        max_pivot = cupy.where(active & (best > max_pivot), best, max_pivot)
        br = cupy.where(active, k + t % m, k)
        bc = cupy.where(active, k + t // m, k)
        swap(w, k, br, 1)
        swap(prow, k, br, 1)
        swap(w, k, bc, 2)
        swap(pcol, k, bc, 1)
        if k + 1 < n:
            keep = active[:, None]
            w[:, k + 1:, k] = cupy.where(keep, w[:, k + 1:, k] / cupy.where(keep, w[:, k, k, None], 1), w[:, k + 1:, k])
            update = w[:, k + 1:, k + 1:] - w[:, k + 1:, k, None] * w[:, k, None, k + 1:]
            w[:, k + 1:, k + 1:] = cupy.where(keep[:, :, None], update, w[:, k + 1:, k + 1:])
    idx = cupy.arange(n)
    diag = cupy.abs(w[:, idx, idx])
    threshold = max_pivot * (numpy.finfo(real).eps * n)
    rank = ((diag > threshold[:, None]) & (idx[None, :] < nonzero[:, None])).sum(axis=1).astype(cupy.int64)
    c = cupy.zeros_like(w)
    c[batch[:, None], idx[None, :], prow] = 1
    for i in range(n):
        c[:, i + 1:, :] -= w[:, i + 1:, i, None] * c[:, i, None, :]
    for i in range(n - 1, -1, -1):
        solved = (i < rank)[:, None]
        pivot = cupy.where(solved[:, 0], w[:, i, i], 1)
        xi = cupy.where(solved, c[:, i, :] * (1 / pivot)[:, None], c[:, i, :])
        c[:, i, :] = xi
        c[:, :i, :] -= cupy.where(solved[:, None], w[:, :i, i, None] * xi[:, None, :], 0)
    solution = cupy.zeros_like(c)
    solution[batch[:, None], pcol, :] = cupy.where((idx[None, :] < rank[:, None])[:, :, None], c, 0)
    return cupy.ascontiguousarray(cupy.swapaxes(solution, -1, -2)), rank


def inverse_with_rank(x, adjoint=False):
    """``(inverse, rank)`` of each matrix of ``x`` (..., n, n), float32/float64/complex64/complex128 (rank: int64 of
    shape ``x.shape[:-2]``, each matrix's rank as the kernel counts it)."""
    x = dev(x)
    shape, n = x.shape, x.shape[-1]
    if x.size == 0:
        return cupy.empty(shape, x.dtype), cupy.full(shape[:-2], n, cupy.int64)
    a = cupy.ascontiguousarray(x.reshape((-1, n, n)))
    bsz = a.shape[0]
    real = numpy.dtype(a.real.dtype)
    if _INVERSE.enabled():
        out = cupy.empty_like(a)
        work = cupy.empty((bsz, 2, n, n), a.dtype)
        order = cupy.empty((bsz, 2, n), cupy.int64)
        rank = cupy.empty((bsz,), cupy.int64)
        kernel = "ms_matrix_inverse_complex" if a.dtype in _COMPLEX else "ms_matrix_inverse_real"
        _INVERSE.launch(kernel, (bsz,), (a, out, work, order, rank, numpy.int64(n), numpy.int32(bool(adjoint)),
                                         real.type(numpy.finfo(real).eps)), R=real)
    else:
        out, rank = _invert_loop(a, adjoint)
    return out.reshape(shape), rank.reshape(shape[:-2])


def _batched(x):
    x = cupy.asarray(x)
    dt = x.dtype
    work = cupy.float32 if dt == cupy.float16 else dt
    n = x.shape[-1]
    return x.reshape((-1, n, n)).astype(work, copy=True), dt, x.shape


def _eliminate(a):
    """Row-reduce ``a`` (B, n, n) in place; returns (pivots (B, n), swap sign (B,))."""
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
        if k + 1 < n:
            safe = cupy.where(piv == 0, cupy.ones((), a.dtype), piv)
            factors = a[:, k + 1:, k] / safe[:, None]
            a[:, k + 1:, :] -= factors[:, :, None] * a[:, k, None, :]
    return pivots, sign


def _matrix_inverse(prim, x, *, out):
    return inverse_with_rank(x, prim.adjoint)[0]


def _matrix_determinant(prim, x, *, out):
    a, dt, shape = _batched(x)
    pivots, sign = _eliminate(a)
    return (sign * cupy.prod(pivots, axis=1)).reshape(shape[:-2]).astype(dt)


def _log_matrix_determinant(prim, x, *, out):
    a, dt, shape = _batched(x)
    pivots, sign = _eliminate(a)
    size = cupy.abs(pivots)
    if dt in _COMPLEX:
        unit = pivots / cupy.where(size == 0, 1, size)  # each pivot's phase z / |z| (0 for a zero pivot)
    else:
        unit = cupy.sign(pivots)
    sign = sign * cupy.prod(unit, axis=1)
    logabs = cupy.sum(cupy.log(size), axis=1)
    return sign.reshape(shape[:-2]).astype(dt), logabs.reshape(shape[:-2]).astype(dt)


KERNELS = {
    "MatrixInverse": _matrix_inverse,
    "MatrixDeterminant": _matrix_determinant,
    "LogMatrixDeterminant": _log_matrix_determinant,
}
