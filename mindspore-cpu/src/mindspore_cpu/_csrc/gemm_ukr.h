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

// The convolution tile (ConvTile in gemm.h): the K loop reads each vector's rows in place, with plain
// loads when every vector is whole (Full) and masked ones otherwise (a masked lane is never read, so a
// row may end at the end of a buffer); the epilogue adds, clamps and stores as it leaves the registers.
template <typename S, int MR, int NV, bool Full>
void conv_tile_any(const ConvTile<typename S::T>& t) {
    using T = typename S::T;
    using V = typename S::V;
    using M = typename S::M;
    V r[MR][NV];
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) r[i][v] = S::zero();
    }
    M m[NV];
    const T* b[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
        m[v] = S::mask(t.len[v]);
        b[v] = t.b[v];
    }
    const T* a = t.a;
    const int64_t* off = t.off;
    for (int64_t k = 0; k < t.kc; ++k) {
        const int64_t o = off[k];
        V bv[NV];
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) bv[v] = Full ? S::load(b[v] + o) : S::loadm(b[v] + o, m[v]);
#pragma GCC unroll 16
        for (int i = 0; i < MR; ++i) {
            const V av = S::set1(a[i]);
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) r[i][v] = S::fma(av, bv[v], r[i][v]);
        }
        a += MR;
    }
    const V zero = S::zero();
    const bool epilogue = t.last;
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
        if (i >= t.rows) break;
        const V bias = epilogue && t.bias ? S::set1(t.bias[i]) : zero;
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) {
            if (!Full && t.len[v] == 0) continue;
            T* p = t.c[v] + i * t.ldc;
            V x = r[i][v];
            if (t.acc) x = S::add(x, Full ? S::load(p) : S::loadm(p, m[v]));
            if (epilogue) {
                if (t.bias) x = S::add(x, bias);
                if (t.z[v]) x = S::add(x, Full ? S::load(t.z[v] + i * t.ldc) : S::loadm(t.z[v] + i * t.ldc, m[v]));
                if (t.relu) x = S::max(x, zero);   // max(NaN, 0) = 0: MindSpore's ReLU(NaN)
            }
            if (Full) {
                S::store(p, x);
            } else {
                S::storem(p, x, m[v]);
            }
        }
    }
}

template <typename S, int MR, int NV>
void conv_tile(const ConvTile<typename S::T>& t) {
    bool full = true;
    for (int v = 0; v < NV; ++v) full = full && t.len[v] == S::W;
    if (full) {
        conv_tile_any<S, MR, NV, true>(t);
    } else {
        conv_tile_any<S, MR, NV, false>(t);
    }
}

// ConvPack (gemm.h): per vector, a lane's input lies at a fixed offset from the vector's base. Where all
// of a vector's inputs lie within two vectors' span (ResNet's 8-wide rows: two runs of 8 within 18
// elements), and the ISA can pick lanes from two registers, each tap costs two loads and a permute;
// otherwise each run of consecutive inputs is copied as one masked vector.
template <typename S>
void conv_pack(const ConvPack<typename S::T>& p) {
    using T = typename S::T;
    using M = typename S::M;
    constexpr int W = S::W;
    for (int v = 0; v < ConvPack<T>::kMaxVectors; ++v) {
        const int n = p.len[v];
        if (n == 0) continue;
        const int64_t* q = p.q[v];
        const T* b = p.b[v] + q[0];
        T* d = p.dst + v * W;
        const int64_t span = q[n - 1] - q[0] + 1;
        if constexpr (S::kPermute) {
            if (span <= 2 * W) {
                const typename S::I idx = S::index(q, n);
                const M lo = S::mask(static_cast<int>(std::min<int64_t>(span, W)));
                const M hi = S::mask(static_cast<int>(std::max<int64_t>(span - W, 0)));
                for (int64_t k = 0; k < p.kc; ++k) {
                    const T* src = b + p.off[k];
                    S::store(d + k * p.ld, S::permute2(S::loadm(src, lo), idx, S::loadm(src + W, hi)));
                }
                continue;
            }
        }
        int lane[W], len[W];
        int64_t at[W];
        int runs = 0;
        for (int j = 0; j < n; ++j) {
            if (j > 0 && q[j] == q[j - 1] + 1) {
                ++len[runs - 1];
            } else {
                lane[runs] = j;
                at[runs] = q[j] - q[0];
                len[runs] = 1;
                ++runs;
            }
        }
        M m[W];
        for (int r = 0; r < runs; ++r) m[r] = S::mask(len[r]);
        for (int64_t k = 0; k < p.kc; ++k) {
            const T* src = b + p.off[k];
            T* dk = d + k * p.ld;
            for (int r = 0; r < runs; ++r) S::storem(dk + lane[r], S::loadm(src + at[r], m[r]), m[r]);
        }
    }
}
