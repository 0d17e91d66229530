// float32 LogSoftmax bit for bit as MindSpore 2.10's CPU computes it.
//
// 2.10's CPU LogSoftmax runs oneDNN's softmax primitive (algorithm softmax_log, oneDNN 3.10 inside 2.10), then sets
// every positive output to 0. oneDNN JIT-compiles the kernel for the CPU it runs on, and the vector width changes the
// order of the sums: W = 16 lanes on a CPU with AVX-512 (avx512_core), W = 8 on one with AVX2. The caller chooses W;
// both orders are computed here on any CPU.
//
// Over the last axis (or an axis whose trailing dimensions are all 1), per row of n values, with a "vector" being W
// consecutive values: full = n / W whole vectors and a tail of n % W values. Four accumulator vectors take whole
// vectors in turn (vector j into accumulator j % 4 while four remain, then the 1-3 left over into accumulators 0, 1,
// 2), the tail into accumulator 0 (masked: its other lanes unchanged). Used accumulators are combined as
// (a0 op a1) op (a2 op a3), (a0 op a1) op a2, a0 op a1 or a0, then the lanes of the result across halves: lane i with
// lane i ^ 8 (W = 16), then i ^ 4, i ^ 2, i ^ 1, every lane keeping its own result.
//   max: accumulators start at -FLT_MAX; max(a, b) is the instruction's (a > b ? a : b), NaN not propagated
//        symmetrically. AVX2's masked tail feeds -FLT_MAX to the lanes past the tail.
//   t = x - max (per lane, stored), e = exp(t) by oneDNN's polynomial, sum as above from 0, s = log(sum) by oneDNN's
//   table-based log, y = t - s, then 2.10 sets y > 0 to 0.
// Over another axis (trailing size inner > 1) every output position is independent: max from -FLT_MAX and the sum of
// exps in axis order, one at a time.
//
// oneDNN's exp (its eltwise injector): clamp x to [ln(FLT_MIN), ln(FLT_MAX)] with minps/maxps (a NaN becomes
// ln(FLT_MAX)); fx = x * log2(e) + 0.5 (rounded twice), n = floor(fx), r = fma(-n, ln2, x); 2^(n-1) built from the
// exponent bits (0 where x < ln(FLT_MIN)); p = 1 + r(p1 + r(p2 + r(p3 + r(p4 + r p5)))) by five FMAs; p * 2^(n-1) * 2.
// oneDNN's log: x = 2^E m with the top 5 mantissa bits choosing r_i ~ 1/m from a table (m taken in [0.75, 1.5)),
// z = fma(m, r_i, -1), p = z (1 + z(q1 + z(q2 + z(q3 + z q4)))), c = fma(E, ln2, -127 ln2 - ln r_i),
// hi = p + c, result = hi + ((hi - c) - p); 0 -> -inf, < 0 -> NaN, +inf -> +inf, NaN -> NaN, 1 -> 0.
//
// The AVX2+FMA path computes exactly these operations with FMA instructions; elsewhere std::fma (exact in software)
// gives the same bits, slowly.
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MSCPU_LSM_X86 1
#else
#define MSCPU_LSM_X86 0
#endif

#include "common.h"
#include "ordered_sums.h"

namespace mscpu {
namespace {

using ordered::bits_of_float;
using ordered::float_of_bits;

// oneDNN's constants (as bit patterns).
const float kLnFltMin = float_of_bits(0xc2aeac50u), kLnFltMax = float_of_bits(0x42b17218u);
const float kLog2e = float_of_bits(0x3fb8aa3bu), kLn2 = float_of_bits(0x3f317218u);
const float kP1 = float_of_bits(0x3f7ffffbu), kP2 = float_of_bits(0x3efffee3u), kP3 = float_of_bits(0x3e2aad40u),
            kP4 = float_of_bits(0x3d2b9d0du), kP5 = float_of_bits(0x3c07cfceu);
const float kQ1 = float_of_bits(0xbf000000u), kQ2 = float_of_bits(0x3eaaaaabu), kQ3 = float_of_bits(0xbe8004abu),
            kQ4 = float_of_bits(0x3e4cc8a3u);

// The log table: for the top five mantissa bits k, r_k ~ 1/m (m in [1, 1.5) for k < 16, in [0.75, 1) after
// halving for k >= 16) and -127 ln2 - ln r_k.
struct LogEntry {
    float r, c;
};
const LogEntry* log_table() {
    static const uint32_t raw[32][2] = {
        {0x3f800000, 0xc2b00f34}, {0x3f780000, 0xc2affef2}, {0x3f700000, 0xc2afee29}, {0x3f680000, 0xc2afdccd},
        {0x3f600000, 0xc2afcad6}, {0x3f580000, 0xc2afb837}, {0x3f580000, 0xc2afb837}, {0x3f500000, 0xc2afa4e4},
        {0x3f480000, 0xc2af90cf}, {0x3f480000, 0xc2af90cf}, {0x3f400000, 0xc2af7be9}, {0x3f400000, 0xc2af7be9},
        {0x3f380000, 0xc2af661e}, {0x3f380000, 0xc2af661e}, {0x3f300000, 0xc2af4f5c}, {0x3f300000, 0xc2af4f5c},
        {0x3fa80000, 0xc2b09a6f}, {0x3fa80000, 0xc2b09a6f}, {0x3fa00000, 0xc2b08174}, {0x3fa00000, 0xc2b08174},
        {0x3fa00000, 0xc2b08174}, {0x3f980000, 0xc2b06731}, {0x3f980000, 0xc2b06731}, {0x3f900000, 0xc2b04b82},
        {0x3f900000, 0xc2b04b82}, {0x3f900000, 0xc2b04b82}, {0x3f900000, 0xc2b04b82}, {0x3f880000, 0xc2b02e3e},
        {0x3f880000, 0xc2b02e3e}, {0x3f880000, 0xc2b02e3e}, {0x3f800000, 0xc2b00f34}, {0x3f800000, 0xc2b00f34},
    };
    static const std::vector<LogEntry> table = [] {
        std::vector<LogEntry> t(32);
        for (int k = 0; k < 32; ++k) t[k] = {float_of_bits(raw[k][0]), float_of_bits(raw[k][1])};
        return t;
    }();
    return table.data();
}

inline float min_ps(float a, float b) { return a < b ? a : b; }  // minps/maxps: the second operand if unordered
inline float max_ps(float a, float b) { return a > b ? a : b; }

// The scalar forms (std::fma: an instruction under target("fma"), an exact library call otherwise). The body is
// shared by the two instantiations below through this macro, so that both compile the same operations.
#define MSCPU_ONEDNN_EXP_BODY                                                   \
    const bool zero = x < kLnFltMin;                                            \
    x = max_ps(min_ps(x, kLnFltMax), kLnFltMin);                                \
    float fx = x * kLog2e;                                                      \
    fx = fx + 0.5f;                                                             \
    const float n = std::floor(fx);                                             \
    const float r = std::fma(-n, kLn2, x);                                      \
    const int32_t e = static_cast<int32_t>(std::nearbyint(n - 1.0f)) + 127;     \
    const float scale = zero ? 0.0f : float_of_bits(static_cast<uint32_t>(e) << 23);   \
    float p = std::fma(kP5, r, kP4);                                            \
    p = std::fma(p, r, kP3);                                                    \
    p = std::fma(p, r, kP2);                                                    \
    p = std::fma(p, r, kP1);                                                    \
    p = std::fma(p, r, 1.0f);                                                   \
    return (p * scale) * 2.0f;

#define MSCPU_ONEDNN_LOG_BODY                                                   \
    const uint32_t u = bits_of_float(x);                                               \
    const uint32_t k = (u >> 18) & 0x1fu;                                       \
    const uint32_t hi_half = k >> 4;                                            \
    const float big_e = static_cast<float>(static_cast<int32_t>((u >> 23) + hi_half)); \
    const float m = float_of_bits((u & 0x7fffffu) | ((hi_half ^ 127u) << 23));         \
    const LogEntry t = log_table()[k];                                          \
    const float z = std::fma(m, t.r, -1.0f);                                    \
    float p = std::fma(kQ4, z, kQ3);                                            \
    p = std::fma(p, z, kQ2);                                                    \
    p = std::fma(p, z, kQ1);                                                    \
    p = std::fma(p, z, 1.0f);                                                   \
    p = p * z;                                                                  \
    const float c = std::fma(big_e, kLn2, t.c);                                 \
    const float hi = p + c;                                                     \
    float res = hi + ((hi - c) - p);                                            \
    if (x <= 0.0f) res = x == 0.0f ? -INFINITY : float_of_bits(0x7fc00000u);           \
    if (x == INFINITY) res = INFINITY;                                          \
    if (x != x) res = x;                                                        \
    if (x == 1.0f) res = 0.0f;                                                  \
    return res;

inline float onednn_exp(float x) { MSCPU_ONEDNN_EXP_BODY }
inline float onednn_log(float x) { MSCPU_ONEDNN_LOG_BODY }
#if MSCPU_LSM_X86
__attribute__((target("avx2,fma"))) inline float onednn_exp_fma(float x) { MSCPU_ONEDNN_EXP_BODY }
__attribute__((target("avx2,fma"))) inline float onednn_log_fma(float x) { MSCPU_ONEDNN_LOG_BODY }
#endif

// ---- portable rows: the lanes as arrays ------------------------------------------------------------------------
template <int W>
void lane_reduce(float* v, bool is_max) {  // the horizontal step: every lane ends with its own combination
    float tmp[W];
    for (int s = W / 2; s >= 1; s /= 2) {
        for (int i = 0; i < W; ++i) tmp[i] = v[i ^ s];
        for (int i = 0; i < W; ++i) v[i] = is_max ? max_ps(v[i], tmp[i]) : v[i] + tmp[i];
    }
}

// The log of every lane's sum: one log when the lanes hold the same bits (always, unless a NaN made them differ).
template <int W, typename Log>
inline void lane_logs(const float* sums, float* logs, Log log) {
    bool same = true;
    for (int i = 1; i < W; ++i) same &= bits_of_float(sums[i]) == bits_of_float(sums[0]);
    if (same) {
        const float l = log(sums[0]);
        for (int i = 0; i < W; ++i) logs[i] = l;
    } else {
        for (int i = 0; i < W; ++i) logs[i] = log(sums[i]);
    }
}

template <int W>
void combine(float (*acc)[W], int used, float* out, bool is_max) {
    auto op = [&](float* a, const float* b) {
        for (int i = 0; i < W; ++i) a[i] = is_max ? max_ps(a[i], b[i]) : a[i] + b[i];
    };
    if (used == 4) {
        op(acc[0], acc[1]);
        op(acc[2], acc[3]);
        op(acc[0], acc[2]);
    } else if (used == 3) {
        op(acc[0], acc[1]);
        op(acc[0], acc[2]);
    } else if (used == 2) {
        op(acc[0], acc[1]);
    }
    std::memcpy(out, acc[0], sizeof(float) * W);
    lane_reduce<W>(out, is_max);
}

// One row of n values (x and y may not alias).
template <int W>
void row_portable(const float* x, float* y, int64_t n) {
    const int64_t full = n / W, tail = n % W;
    const int64_t loops = full / 4, left = full % 4;
    const int used = loops ? 4 : (left ? static_cast<int>(left) : 1);
    float acc[4][W];
    auto visit = [&](auto&& body) {  // body(vector index j, accumulator, valid lanes)
        int64_t j = 0;
        for (int64_t l = 0; l < loops; ++l)
            for (int a = 0; a < 4; ++a, ++j) body(j, a, W);
        for (int a = 0; a < left; ++a, ++j) body(j, a, W);
        if (tail) body(j, 0, static_cast<int>(tail));
    };
    for (int a = 0; a < used; ++a)
        for (int i = 0; i < W; ++i) acc[a][i] = -FLT_MAX;
    visit([&](int64_t j, int a, int valid) {
        for (int i = 0; i < W; ++i) {
            if (i < valid) {
                acc[a][i] = max_ps(acc[a][i], x[j * W + i]);
            } else if (W == 8) {  // AVX2 blends -FLT_MAX into the lanes past the tail; AVX-512 masks them
                acc[a][i] = max_ps(acc[a][i], -FLT_MAX);
            }
        }
    });
    float vmax[W], vsum[W], vlog[W];
    combine<W>(acc, used, vmax, true);
    for (int a = 0; a < used; ++a)
        for (int i = 0; i < W; ++i) acc[a][i] = 0.0f;
    visit([&](int64_t j, int a, int valid) {
        for (int i = 0; i < valid; ++i) {
            const float t = x[j * W + i] - vmax[i];
            y[j * W + i] = t;
            acc[a][i] = acc[a][i] + onednn_exp(t);
        }
    });
    combine<W>(acc, used, vsum, false);
    lane_logs<W>(vsum, vlog, onednn_log);
    for (int64_t k = 0; k < n; ++k) {
        const float v = y[k] - vlog[k % W];
        y[k] = v > 0.0f ? 0.0f : v;
    }
}

// Positions [i0, i1) of the inner dimension of one outer block (values at k * inner + i, k < n).
void strided_portable(const float* x, float* y, int64_t n, int64_t inner, int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
        float m = -FLT_MAX;
        for (int64_t k = 0; k < n; ++k) m = max_ps(m, x[k * inner + i]);
        float s = 0.0f;
        for (int64_t k = 0; k < n; ++k) {
            const float t = x[k * inner + i] - m;
            y[k * inner + i] = t;
            s = s + onednn_exp(t);
        }
        const float l = onednn_log(s);
        for (int64_t k = 0; k < n; ++k) {
            const float v = y[k * inner + i] - l;
            y[k * inner + i] = v > 0.0f ? 0.0f : v;
        }
    }
}

#if MSCPU_LSM_X86
// ---- AVX2+FMA: the same operations, 8 lanes per register, G registers per oneDNN vector -----------------------
__attribute__((target("avx2,fma"))) inline __m256 exp8(__m256 x) {
    const __m256 zero = _mm256_cmp_ps(x, _mm256_set1_ps(kLnFltMin), _CMP_LT_OS);
    x = _mm256_min_ps(x, _mm256_set1_ps(kLnFltMax));
    x = _mm256_max_ps(x, _mm256_set1_ps(kLnFltMin));
    __m256 fx = _mm256_mul_ps(x, _mm256_set1_ps(kLog2e));
    fx = _mm256_add_ps(fx, _mm256_set1_ps(0.5f));
    const __m256 n = _mm256_floor_ps(fx);
    const __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2), x);
    __m256i e = _mm256_cvtps_epi32(_mm256_sub_ps(n, _mm256_set1_ps(1.0f)));
    e = _mm256_slli_epi32(_mm256_add_epi32(e, _mm256_set1_epi32(127)), 23);
    const __m256 scale = _mm256_andnot_ps(zero, _mm256_castsi256_ps(e));
    __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(kP5), r, _mm256_set1_ps(kP4));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kP3));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kP2));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kP1));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
    return _mm256_mul_ps(_mm256_mul_ps(p, scale), _mm256_set1_ps(2.0f));
}

__attribute__((target("avx2"))) inline __m256i tail_mask(int valid) {  // lanes < valid
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(valid), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

template <int G>
struct Vec {
    __m256 r[G];
};

template <bool Max>
__attribute__((target("avx2"))) inline __m256 op8(__m256 a, __m256 b) {
    return Max ? _mm256_max_ps(a, b) : _mm256_add_ps(a, b);
}

template <int G, bool Max>
__attribute__((target("avx2"))) inline void vop(Vec<G>& a, const Vec<G>& b) {
    for (int g = 0; g < G; ++g) a.r[g] = op8<Max>(a.r[g], b.r[g]);
}

template <int G, bool Max>
__attribute__((target("avx2"))) inline Vec<G> combine_avx2(Vec<G>* acc, int used) {
    if (used == 4) {
        vop<G, Max>(acc[0], acc[1]);
        vop<G, Max>(acc[2], acc[3]);
        vop<G, Max>(acc[0], acc[2]);
    } else if (used == 3) {
        vop<G, Max>(acc[0], acc[1]);
        vop<G, Max>(acc[0], acc[2]);
    } else if (used == 2) {
        vop<G, Max>(acc[0], acc[1]);
    }
    Vec<G> v = acc[0];
    if (G == 2) {  // lane i with lane i ^ 8: the two registers
        const __m256 lo = v.r[0], hi = v.r[G - 1];
        v.r[0] = op8<Max>(lo, hi);
        v.r[G - 1] = op8<Max>(hi, lo);
    }
    for (int g = 0; g < G; ++g) {
        __m256 t = v.r[g];
        t = op8<Max>(t, _mm256_permute2f128_ps(t, t, 1));
        t = op8<Max>(t, _mm256_shuffle_ps(t, t, 0x4E));
        t = op8<Max>(t, _mm256_shuffle_ps(t, t, 0xB1));
        v.r[g] = t;
    }
    return v;
}

template <int G>
__attribute__((target("avx2,fma"))) void row_avx2(const float* x, float* y, int64_t n) {
    constexpr int W = 8 * G;
    const int64_t full = n / W, tail = n % W;
    const int64_t loops = full / 4, left = full % 4;
    const int used = loops ? 4 : (left ? static_cast<int>(left) : 1);
    // the tail's registers: g < tg whole, register tg partly (tv lanes), the rest unused
    const int tg = static_cast<int>(tail / 8), tv = static_cast<int>(tail % 8);
    const __m256i tmask = tail_mask(tv);
    const __m256 neg_max = _mm256_set1_ps(-FLT_MAX);
    Vec<G> acc[4];
    for (int a = 0; a < used; ++a)
        for (int g = 0; g < G; ++g) acc[a].r[g] = neg_max;
    const float* p = x;
    for (int64_t l = 0; l < loops; ++l)
        for (int a = 0; a < 4; ++a, p += W)
            for (int g = 0; g < G; ++g) acc[a].r[g] = _mm256_max_ps(acc[a].r[g], _mm256_loadu_ps(p + 8 * g));
    for (int a = 0; a < left; ++a, p += W)
        for (int g = 0; g < G; ++g) acc[a].r[g] = _mm256_max_ps(acc[a].r[g], _mm256_loadu_ps(p + 8 * g));
    if (tail) {
        for (int g = 0; g < G; ++g) {
            if (g < tg) {
                acc[0].r[g] = _mm256_max_ps(acc[0].r[g], _mm256_loadu_ps(p + 8 * g));
            } else if (g == tg && tv) {
                const __m256 v = _mm256_maskload_ps(p + 8 * g, tmask);
                const __m256 b = G == 1 ? _mm256_blendv_ps(neg_max, v, _mm256_castsi256_ps(tmask)) : v;
                acc[0].r[g] = G == 1 ? _mm256_max_ps(acc[0].r[g], b)
                                     : _mm256_blendv_ps(acc[0].r[g], _mm256_max_ps(acc[0].r[g], b),
                                                        _mm256_castsi256_ps(tmask));
            } else if (G == 1) {
                acc[0].r[g] = _mm256_max_ps(acc[0].r[g], neg_max);
            }
        }
    }
    const Vec<G> vmax = combine_avx2<G, true>(acc, used);
    for (int a = 0; a < used; ++a)
        for (int g = 0; g < G; ++g) acc[a].r[g] = _mm256_setzero_ps();
    p = x;
    float* q = y;
    auto sum_vec = [&](Vec<G>& a) {
        for (int g = 0; g < G; ++g) {
            const __m256 t = _mm256_sub_ps(_mm256_loadu_ps(p + 8 * g), vmax.r[g]);
            _mm256_storeu_ps(q + 8 * g, t);
            a.r[g] = _mm256_add_ps(a.r[g], exp8(t));
        }
        p += W;
        q += W;
    };
    for (int64_t l = 0; l < loops; ++l)
        for (int a = 0; a < 4; ++a) sum_vec(acc[a]);
    for (int a = 0; a < left; ++a) sum_vec(acc[a]);
    if (tail) {
        for (int g = 0; g < tg; ++g) {
            const __m256 t = _mm256_sub_ps(_mm256_loadu_ps(p + 8 * g), vmax.r[g]);
            _mm256_storeu_ps(q + 8 * g, t);
            acc[0].r[g] = _mm256_add_ps(acc[0].r[g], exp8(t));
        }
        if (tv) {
            const __m256 t = _mm256_sub_ps(_mm256_maskload_ps(p + 8 * tg, tmask), vmax.r[tg]);
            _mm256_maskstore_ps(q + 8 * tg, tmask, t);
            const __m256 e = _mm256_and_ps(exp8(t), _mm256_castsi256_ps(tmask));  // + 0 past the tail
            acc[0].r[tg] = _mm256_add_ps(acc[0].r[tg], e);
        }
    }
    const Vec<G> vsum = combine_avx2<G, false>(acc, used);
    alignas(32) float s[W], lg[W];
    for (int g = 0; g < G; ++g) _mm256_store_ps(s + 8 * g, vsum.r[g]);
    lane_logs<W>(s, lg, onednn_log_fma);
    Vec<G> vlog;
    for (int g = 0; g < G; ++g) vlog.r[g] = _mm256_load_ps(lg + 8 * g);
    const __m256 zero = _mm256_setzero_ps();
    int64_t k = 0;
    for (; k + W <= n; k += W) {
        for (int g = 0; g < G; ++g) {
            const __m256 v = _mm256_sub_ps(_mm256_loadu_ps(y + k + 8 * g), vlog.r[g]);
            // v > 0 -> 0 (NaN kept)
            _mm256_storeu_ps(y + k + 8 * g, _mm256_blendv_ps(v, zero, _mm256_cmp_ps(v, zero, _CMP_GT_OQ)));
        }
    }
    for (; k < n; ++k) {
        const float v = y[k] - lg[k % W];
        y[k] = v > 0.0f ? 0.0f : v;
    }
}

// Eight inner positions at a time (the lanes are independent), the rest one by one.
__attribute__((target("avx2,fma"))) void strided_avx2(const float* x, float* y, int64_t n, int64_t inner,
                                                      int64_t i0, int64_t i1) {
    int64_t i = i0;
    const __m256 zero = _mm256_setzero_ps();
    for (; i + 8 <= i1; i += 8) {
        __m256 m = _mm256_set1_ps(-FLT_MAX);
        for (int64_t k = 0; k < n; ++k) m = _mm256_max_ps(m, _mm256_loadu_ps(x + k * inner + i));
        __m256 s = _mm256_setzero_ps();
        for (int64_t k = 0; k < n; ++k) {
            const __m256 t = _mm256_sub_ps(_mm256_loadu_ps(x + k * inner + i), m);
            _mm256_storeu_ps(y + k * inner + i, t);
            s = _mm256_add_ps(s, exp8(t));
        }
        alignas(32) float sv[8];
        _mm256_store_ps(sv, s);
        for (int l = 0; l < 8; ++l) sv[l] = onednn_log_fma(sv[l]);
        const __m256 lg = _mm256_load_ps(sv);
        for (int64_t k = 0; k < n; ++k) {
            const __m256 v = _mm256_sub_ps(_mm256_loadu_ps(y + k * inner + i), lg);
            _mm256_storeu_ps(y + k * inner + i, _mm256_blendv_ps(v, zero, _mm256_cmp_ps(v, zero, _CMP_GT_OQ)));
        }
    }
    for (; i < i1; ++i) {
        float m = -FLT_MAX;
        for (int64_t k = 0; k < n; ++k) m = max_ps(m, x[k * inner + i]);
        float s = 0.0f;
        for (int64_t k = 0; k < n; ++k) {
            const float t = x[k * inner + i] - m;
            y[k * inner + i] = t;
            s = s + onednn_exp_fma(t);
        }
        const float l = onednn_log_fma(s);
        for (int64_t k = 0; k < n; ++k) {
            const float v = y[k * inner + i] - l;
            y[k * inner + i] = v > 0.0f ? 0.0f : v;
        }
    }
}

#endif

using RowFn = void (*)(const float*, float*, int64_t);
using StridedFn = void (*)(const float*, float*, int64_t, int64_t, int64_t, int64_t);

RowFn row_fn(int lanes) {
#if MSCPU_LSM_X86
    if (ordered::has_avx2_fma()) return lanes == 16 ? row_avx2<2> : row_avx2<1>;
#endif
    return lanes == 16 ? row_portable<16> : row_portable<8>;
}

StridedFn strided_fn() {
#if MSCPU_LSM_X86
    if (ordered::has_avx2_fma()) return strided_avx2;
#endif
    return strided_portable;
}

// x viewed as (outer, n, inner), normalised over n.
py::array log_softmax_f32(const py::array& x, int64_t axis, int lanes) {
    const std::string where = "log_softmax_f32";
    check_array(where, "x", x, -1);
    if (dtype_of(x) != DType::f32) fail(where, "'x' must be float32");
    const int64_t nd = x.ndim();
    if (nd < 1) fail(where, "'x' must have at least 1 dimension");
    if (axis < -nd || axis >= nd) fail(where, "'axis' out of range: " + std::to_string(axis));
    if (axis < 0) axis += nd;
    if (lanes != 8 && lanes != 16) fail(where, "'lanes' must be 8 or 16, but got " + std::to_string(lanes));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= x.shape(d);
    for (int64_t d = axis + 1; d < nd; ++d) inner *= x.shape(d);
    const int64_t n = x.shape(axis);
    py::array_t<float> y(std::vector<py::ssize_t>(x.shape(), x.shape() + nd));
    if (x.size() == 0) return std::move(y);
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    py::gil_scoped_release release;
    const double work = 30.0 * static_cast<double>(x.size());
    if (inner == 1) {
        const RowFn row = row_fn(lanes);
        const int64_t rows = outer;
        auto body = [&](int64_t r0, int64_t r1) {
            for (int64_t r = r0; r < r1; ++r) row(px + r * n, py_ + r * n, n);
        };
        if (!worth_parallel(work, kParallelVisits) || rows < 2) {
            body(0, rows);
        } else {
            parallel(max_threads(), [&](int tid, int nt) {
                int64_t lo, hi;
                static_range(rows, tid, nt, lo, hi);
                if (lo < hi) body(lo, hi);
            });
        }
        return std::move(y);
    }
    const StridedFn strided = strided_fn();
    // work items: (outer block, chunk of 64 inner positions)
    const int64_t chunk = 64, per = (inner + chunk - 1) / chunk, items = outer * per;
    auto body = [&](int64_t w0, int64_t w1) {
        for (int64_t w = w0; w < w1; ++w) {
            const int64_t o = w / per, c = w % per;
            strided(px + o * n * inner, py_ + o * n * inner, n, inner, c * chunk, std::min(inner, (c + 1) * chunk));
        }
    };
    if (!worth_parallel(work, kParallelVisits) || items < 2) {
        body(0, items);
    } else {
        parallel(max_threads(), [&](int tid, int nt) {
            int64_t lo, hi;
            static_range(items, tid, nt, lo, hi);
            if (lo < hi) body(lo, hi);
        });
    }
    return std::move(y);
}

// LogSoftmaxGrad: dx = dy - exp(y) * sum(dy) over the axis. oneDNN runs its JIT kernel only with AVX-512 and over
// the last axis: the sum of dy in 16 lanes (one accumulator, the tail's missing lanes adding nothing, then the lanes
// across halves as above), its own exp of y, and dx = fnmadd(exp(y), sum, dy) (one rounding). Everywhere else (AVX2,
// other axes) its reference kernel: the sum in order, from 0, and dy - expf(y) * sum with libm's expf, two roundings.
void grad_row16(const float* y, const float* dy, float* dx, int64_t n) {
    float s[16];
    for (int i = 0; i < 16; ++i) s[i] = 0.0f;
    for (int64_t k = 0; k < n; ++k) s[k % 16] = s[k % 16] + dy[k];
    lane_reduce<16>(s, false);
    for (int64_t k = 0; k < n; ++k) dx[k] = std::fma(-onednn_exp(y[k]), s[k % 16], dy[k]);
}

#if MSCPU_LSM_X86
__attribute__((target("avx2,fma"))) void grad_row16_avx2(const float* y, const float* dy, float* dx, int64_t n) {
    __m256 lo = _mm256_setzero_ps(), hi = _mm256_setzero_ps();
    int64_t k = 0;
    for (; k + 16 <= n; k += 16) {
        lo = _mm256_add_ps(lo, _mm256_loadu_ps(dy + k));
        hi = _mm256_add_ps(hi, _mm256_loadu_ps(dy + k + 8));
    }
    alignas(32) float s[16];
    _mm256_store_ps(s, lo);
    _mm256_store_ps(s + 8, hi);
    for (; k < n; ++k) s[k % 16] = s[k % 16] + dy[k];
    lane_reduce<16>(s, false);
    const __m256 s0 = _mm256_load_ps(s), s1 = _mm256_load_ps(s + 8);
    for (k = 0; k + 16 <= n; k += 16) {
        _mm256_storeu_ps(dx + k, _mm256_fnmadd_ps(exp8(_mm256_loadu_ps(y + k)), s0, _mm256_loadu_ps(dy + k)));
        _mm256_storeu_ps(dx + k + 8,
                         _mm256_fnmadd_ps(exp8(_mm256_loadu_ps(y + k + 8)), s1, _mm256_loadu_ps(dy + k + 8)));
    }
    for (; k < n; ++k) dx[k] = std::fma(-onednn_exp_fma(y[k]), s[k % 16], dy[k]);
}
#endif

// Positions [i0, i1) (at most 64) of one outer block; each position's sum in order over k.
void grad_reference(const float* y, const float* dy, float* dx, int64_t n, int64_t inner, int64_t i0, int64_t i1) {
    float s[64];
    const int64_t m = i1 - i0;
    for (int64_t i = 0; i < m; ++i) s[i] = 0.0f;
    for (int64_t k = 0; k < n; ++k)
        for (int64_t i = 0; i < m; ++i) s[i] = s[i] + dy[k * inner + i0 + i];
    for (int64_t k = 0; k < n; ++k) {
        for (int64_t i = 0; i < m; ++i) {
            const int64_t at = k * inner + i0 + i;
            const float e = std::exp(y[at]);  // libm's expf, as oneDNN's reference kernel calls it
            dx[at] = dy[at] - e * s[i];
        }
    }
}

py::array log_softmax_grad_f32(const py::array& y, const py::array& dy, int64_t axis, int lanes) {
    const std::string where = "log_softmax_grad_f32";
    check_array(where, "y", y, -1);
    check_array(where, "dy", dy, -1);
    if (dtype_of(y) != DType::f32 || dtype_of(dy) != DType::f32) fail(where, "'y' and 'dy' must be float32");
    const int64_t nd = y.ndim();
    if (nd < 1) fail(where, "'y' must have at least 1 dimension");
    if (dy.ndim() != nd || !std::equal(y.shape(), y.shape() + nd, dy.shape()))
        fail(where, "'y' " + shape_str(y) + " and 'dy' " + shape_str(dy) + " differ");
    if (axis < -nd || axis >= nd) fail(where, "'axis' out of range: " + std::to_string(axis));
    if (axis < 0) axis += nd;
    if (lanes != 8 && lanes != 16) fail(where, "'lanes' must be 8 or 16, but got " + std::to_string(lanes));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= y.shape(d);
    for (int64_t d = axis + 1; d < nd; ++d) inner *= y.shape(d);
    const int64_t n = y.shape(axis);
    py::array_t<float> dx(std::vector<py::ssize_t>(y.shape(), y.shape() + nd));
    if (y.size() == 0) return std::move(dx);
    const float *py_ = cptr<float>(y), *pdy = cptr<float>(dy);
    float* pdx = mptr(dx);
    py::gil_scoped_release release;
    const bool jit = lanes == 16 && inner == 1;
    auto row16 = grad_row16;
#if MSCPU_LSM_X86
    if (ordered::has_avx2_fma()) row16 = grad_row16_avx2;
#endif
    const int64_t chunk = inner == 1 ? 1 : 64, per = (inner + chunk - 1) / chunk, items = outer * per;
    auto body = [&](int64_t w0, int64_t w1) {
        for (int64_t w = w0; w < w1; ++w) {
            const int64_t o = w / per, c = w % per, off = o * n * inner;
            if (jit) {
                row16(py_ + off, pdy + off, pdx + off, n);
            } else {
                grad_reference(py_ + off, pdy + off, pdx + off, n, inner, c * chunk, std::min(inner, (c + 1) * chunk));
            }
        }
    };
    if (!worth_parallel(20.0 * static_cast<double>(y.size()), kParallelVisits) || items < 2) {
        body(0, items);
    } else {
        parallel(max_threads(), [&](int tid, int nt) {
            int64_t lo, hi;
            static_range(items, tid, nt, lo, hi);
            if (lo < hi) body(lo, hi);
        });
    }
    return std::move(dx);
}

int onednn_lanes() {  // the vector width oneDNN 3.10's softmax picks on this CPU (AVX-512 core: 16, else 8)
#if MSCPU_LSM_X86
    static const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    return avx512 ? 16 : 8;
#else
    return 8;
#endif
}

}  // namespace

void register_log_softmax(py::module_& m) {
    using py::arg;
    m.def("log_softmax_f32", &log_softmax_f32, arg("x"), arg("axis"), arg("lanes"),
          "float32 LogSoftmax over 'axis' as MindSpore 2.10's CPU computes it (oneDNN 3.10's softmax_log kernel with "
          "'lanes' = 16 (AVX-512) or 8 (AVX2) lanes, then positive outputs set to 0), bit for bit.");
    m.def("log_softmax_grad_f32", &log_softmax_grad_f32, arg("y"), arg("dy"), arg("axis"), arg("lanes"),
          "float32 LogSoftmaxGrad (dy - exp(y) * sum(dy) over 'axis') as MindSpore 2.10's CPU computes it: oneDNN "
          "3.10's JIT kernel with 'lanes' = 16 over the last axis, its reference kernel otherwise, bit for bit.");
    m.def("onednn_lanes", &onednn_lanes,
          "The lanes oneDNN 3.10's softmax kernel uses on this CPU: 16 with AVX-512 (avx512_core), else 8.");
}

}  // namespace mscpu
