// The GEMM micro-kernel body, included once per instruction-set region of gemm.cpp (deliberately no
// include guard). The region defines the vector traits ``S`` (T, V, W, zero, load, store, set1, fma,
// add); this template is then compiled for that region's target.
//
// Computes a MR x (NV * W) tile: C = [C +] sum_k a[k] (MR values) x b[k] (NV * W values), where
// ``a`` is a packed panel (a[k * MR + i]) and b[k] is either row k of a packed panel (b[k * NR + j])
// or, with Rows, the NR values at b + off[k] (rows read in place, e.g. shifted rows of an image).
template <typename S, int MR, int NV, bool Rows>
void ukr_any(int64_t kc, const typename S::T* a, const typename S::T* b, const int64_t* off, typename S::T* c,
             int64_t ldc, bool acc) {
    using V = typename S::V;
    constexpr int W = S::W;
    V r[MR][NV];
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) r[i][v] = S::zero();
    }
    for (int64_t k = 0; k < kc; ++k) {
        const typename S::T* bk = Rows ? b + off[k] : b;
        V bv[NV];
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) bv[v] = S::load(bk + v * W);
#pragma GCC unroll 16
        for (int i = 0; i < MR; ++i) {
            const V av = S::set1(a[i]);
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) r[i][v] = S::fma(av, bv[v], r[i][v]);
        }
        a += MR;
        if (!Rows) b += NV * W;
    }
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) {
            typename S::T* p = c + i * ldc + v * W;
            V x = r[i][v];
            if (acc) x = S::add(x, S::load(p));
            S::store(p, x);
        }
    }
}

template <typename S, int MR, int NV>
void ukr(int64_t kc, const typename S::T* a, const typename S::T* b, typename S::T* c, int64_t ldc, bool acc) {
    ukr_any<S, MR, NV, false>(kc, a, b, nullptr, c, ldc, acc);
}

template <typename S, int MR, int NV>
void ukr_rows(int64_t kc, const typename S::T* a, const typename S::T* b, const int64_t* off, typename S::T* c,
              int64_t ldc, bool acc) {
    ukr_any<S, MR, NV, true>(kc, a, b, off, c, ldc, acc);
}

// The inner-product tile: c[i * ldc + j] = [c +] sum_{s < nseg} sum_{q < len} a[i][s * sa + q] *
// b[j][s * sb + q] for MO rows a[i] and NJ rows b[j], read in place (no packing). Each of the MO x NJ
// accumulators holds W partial sums along q, reduced once at the end; a tail (len % W) is summed
// separately. Used where the reduction runs along the rows of both operands (a convolution's filter
// gradient), over several segments (batch items) before the reduction.
template <typename S, int MO, int NJ>
void dot(int64_t len, int64_t nseg, int64_t sa, int64_t sb, const typename S::T* const* a,
         const typename S::T* const* b, typename S::T* c, int64_t ldc, bool acc) {
    using T = typename S::T;
    using V = typename S::V;
    constexpr int W = S::W;
    V r[MO][NJ];
#pragma GCC unroll 8
    for (int i = 0; i < MO; ++i) {
#pragma GCC unroll 8
        for (int j = 0; j < NJ; ++j) r[i][j] = S::zero();
    }
    const int64_t body = len / W * W;
    T tail[MO][NJ] = {};
    for (int64_t sg = 0; sg < nseg; ++sg) {
        const T* ap[MO];
        const T* bp[NJ];
        for (int i = 0; i < MO; ++i) ap[i] = a[i] + sg * sa;
        for (int j = 0; j < NJ; ++j) bp[j] = b[j] + sg * sb;
        for (int64_t q = 0; q < body; q += W) {
            V bv[NJ];
#pragma GCC unroll 8
            for (int j = 0; j < NJ; ++j) bv[j] = S::load(bp[j] + q);
#pragma GCC unroll 8
            for (int i = 0; i < MO; ++i) {
                const V av = S::load(ap[i] + q);
#pragma GCC unroll 8
                for (int j = 0; j < NJ; ++j) r[i][j] = S::fma(av, bv[j], r[i][j]);
            }
        }
        for (int64_t q = body; q < len; ++q) {
            for (int i = 0; i < MO; ++i) {
                for (int j = 0; j < NJ; ++j) tail[i][j] += ap[i][q] * bp[j][q];
            }
        }
    }
    alignas(64) T lanes[W];
    for (int i = 0; i < MO; ++i) {
        for (int j = 0; j < NJ; ++j) {
            S::store(lanes, r[i][j]);
            T sum = T(0);
            for (int l = 0; l < W; ++l) sum += lanes[l];
            sum += tail[i][j];
            c[i * ldc + j] = acc ? c[i * ldc + j] + sum : sum;
        }
    }
}
