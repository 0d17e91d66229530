// float32 sums in the orders of MindSpore 2.10's CPU kernels, shared by the reductions (reduce.cpp) and Softmax's
// gradient (softmax.cpp), which 2.10 composes from a ReduceSum kernel:
//
// * lane8_sum: nnacl's ReduceSumDim2Axis1 (a 2-D ReduceSum/ReduceMean over axis 1): eight float lanes (an AVX
//   register), lane l adding p[l], p[8 + l], ... from 0, then the lanes added to 0 in order, then the values past
//   the last whole block one by one;
// * double_sums: 2.10's generic ReduceSum<float> ("use double instead of float"): every value added in order to a
//   double, rounded to float once.
//
// Results are bit for bit those orders on any CPU: no FMA can arise (every file including this one compiles with
// fp-contract off), a vectorised loop adds lane-wise, in the same order, and the AVX2 paths (rows interleaved as the
// lanes of registers; a long row's additions skipped ahead where provably exact) give the portable loops' bits.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MSCPU_ORDERED_X86 1
#else
#define MSCPU_ORDERED_X86 0
#endif

namespace mscpu {
namespace ordered {

inline float lane8_sum(const float* p, int64_t n) {
    float lane[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
    const int64_t c8 = n - n % 8;
    for (int64_t k = 0; k < c8; k += 8) {
        for (int l = 0; l < 8; ++l) lane[l] += p[k + l];
    }
    float t = 0.f;
    for (int l = 0; l < 8; ++l) t += lane[l];
    for (int64_t k = c8; k < n; ++k) t += p[k];
    return t;
}

// MINDSPORE_CPU_ORDERED_ISA=portable makes these kernels (and softmax.cpp's) take their portable paths on any CPU,
// so that tests can check the two give the same bits.
inline bool portable_forced() {
    static const bool yes = [] {
        const char* env = std::getenv("MINDSPORE_CPU_ORDERED_ISA");
        return env != nullptr && std::strcmp(env, "portable") == 0;
    }();
    return yes;
}

// A float32's bits and back (the kernels that follow nnacl's and glibc's bit manipulations).
inline float float_of_bits(uint32_t b) {
    float v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

inline uint32_t bits_of_float(float v) {
    uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

#if MSCPU_ORDERED_X86
inline bool has_avx2() {
    static const bool yes = __builtin_cpu_supports("avx2") && !portable_forced();
    return yes;
}

// AVX2 with FMA: the kernels that fuse 2.10's multiply-adds as its build does take their vector paths (elsewhere, or
// with MINDSPORE_CPU_ORDERED_ISA=portable, std::fma in the portable loops gives the same bits).
inline bool has_avx2_fma() {
    static const bool yes = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && !portable_forced();
    }();
    return yes;
}

// r[k] becomes column k of the 8 x 8 block whose rows were r[0..7].
__attribute__((target("avx2"))) inline void transpose8(__m256* r) {
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 u6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 u7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
    r[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
    r[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    r[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
    r[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    r[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
    r[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    r[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
    r[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

// double_sums of 8 rows (below): rows as the lanes of two double vectors, each still added in order.
__attribute__((target("avx2"))) inline void double_sums8_avx2(const float* p, int64_t n, float* out) {
    __m256d lo = _mm256_setzero_pd(), hi = _mm256_setzero_pd();
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256 r[8];
        for (int l = 0; l < 8; ++l) r[l] = _mm256_loadu_ps(p + l * n + j);
        transpose8(r);
        for (int k = 0; k < 8; ++k) {
            lo = _mm256_add_pd(lo, _mm256_cvtps_pd(_mm256_castps256_ps128(r[k])));
            hi = _mm256_add_pd(hi, _mm256_cvtps_pd(_mm256_extractf128_ps(r[k], 1)));
        }
    }
    alignas(32) double s[8];
    _mm256_store_pd(s, lo);
    _mm256_store_pd(s + 4, hi);
    for (int l = 0; l < 8; ++l) {
        for (int64_t k = j; k < n; ++k) s[l] += p[l * n + k];
        out[l] = static_cast<float>(s[l]);
    }
}

// One row's double sum, as double_sums adds it, skipping ahead several values at a time where none of their
// additions can round. Let Q be the smallest float ulp among the values added so far, the new ones included (zeros
// aside; Q only falls). The running sum s is a multiple of Q: it starts at 0, an exact addition keeps it one, and a
// rounded result is a multiple of its own ulp, a power of two above Q. If |s| + sum |x| <= 2^53 Q over the next
// values, every partial sum is a multiple of Q no larger than 2^53 Q, exact in a double: the additions in order give
// exactly s + (their sum), which may be taken in any order. The test asks for 2^53 Q (1 - 2^-45) and bounds sum |x|
// from a float sum raised by 2^-16 (room for the rounding of both); NaN and infinities fail it. It is tried on 64
// values, and where it fails on their blocks of eight (summed with the blocks as the lanes of AVX registers, an 8 x 8
// transpose), a block that fails it being added one value at a time.

// 2^53 Q (1 - 2^-45) for Q = 2^(qfield - 150), the float ulp of exponent field qfield (a double's field qfield + 926)
inline double exact_bound(int32_t qfield) {
    const int64_t bits = static_cast<int64_t>(qfield + 926) << 52;
    double bound;
    std::memcpy(&bound, &bits, sizeof bound);
    return bound * (1.0 - 0x1p-45);
}

// The smallest exponent field among the non-zero values of `least` (their bits minus 1, as unsigned: a zero wraps
// to the largest), subnormals counting as 1.
__attribute__((target("avx2"))) inline int32_t least_field(__m256i least) {
    __m128i m = _mm_min_epu32(_mm256_castsi256_si128(least), _mm256_extracti128_si256(least, 1));
    m = _mm_min_epu32(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_min_epu32(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(2, 3, 0, 1)));
    const uint32_t bits = static_cast<uint32_t>(_mm_cvtsi128_si32(m)) + 1u;     // 0 when all were zeros
    const int32_t field = bits == 0u ? 255 : static_cast<int32_t>((bits >> 23) & 0xff);
    return std::max(field, 1);
}

__attribute__((target("avx2"))) inline double hsum(__m256d v) {
    const __m128d h = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
}

__attribute__((target("avx2"))) inline float hsum(__m256 v) {
    __m128 h = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    h = _mm_add_ps(h, _mm_movehl_ps(h, h));
    return _mm_cvtss_f32(_mm_add_ss(h, _mm_shuffle_ps(h, h, 1)));
}

// The 64 values at p block by block (see above): returns the new s, updates qfield.
__attribute__((target("avx2"))) inline double chain_blocks(const float* p, double s, int32_t& qfield) {
    const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256i one = _mm256_set1_epi32(1);
    __m256 r[8];
    for (int l = 0; l < 8; ++l) r[l] = _mm256_loadu_ps(p + 8 * l);
    transpose8(r);     // lane l of r[k]: value k of block l
    __m256d t_lo = _mm256_setzero_pd(), t_hi = _mm256_setzero_pd();
    __m256 mag = _mm256_setzero_ps();
    __m256i least = _mm256_set1_epi32(-1);
    for (int k = 0; k < 8; ++k) {
        const __m256 a = _mm256_and_ps(r[k], abs_mask);
        t_lo = _mm256_add_pd(t_lo, _mm256_cvtps_pd(_mm256_castps256_ps128(r[k])));
        t_hi = _mm256_add_pd(t_hi, _mm256_cvtps_pd(_mm256_extractf128_ps(r[k], 1)));
        mag = _mm256_add_ps(mag, a);
        least = _mm256_min_epu32(least, _mm256_sub_epi32(_mm256_castps_si256(a), one));
    }
    alignas(32) double sums[8];
    alignas(32) float mags[8];
    alignas(32) uint32_t leasts[8];
    _mm256_store_pd(sums, t_lo);
    _mm256_store_pd(sums + 4, t_hi);
    _mm256_store_ps(mags, mag);
    _mm256_store_si256(reinterpret_cast<__m256i*>(leasts), least);
    for (int l = 0; l < 8; ++l) {
        const uint32_t bits = leasts[l] + 1u;
        qfield = std::min(qfield, std::max(bits == 0u ? 255 : static_cast<int32_t>((bits >> 23) & 0xff), 1));
        if (std::fabs(s) + static_cast<double>(mags[l]) * (1.0 + 0x1p-16) <= exact_bound(qfield)) {
            s += sums[l];
        } else {
            for (int i = 0; i < 8; ++i) s += p[8 * l + i];
        }
    }
    return s;
}

__attribute__((target("avx2"))) inline double double_chain_avx2(const float* p, int64_t n) {
    const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256i one = _mm256_set1_epi32(1);
    double s = 0.0;
    int32_t qfield = 255;    // the smallest exponent field among the non-zero values so far (subnormals count as 1)
    int64_t j = 0;
    for (; j + 64 <= n; j += 64) {
        __m256d t_lo = _mm256_setzero_pd(), t_hi = _mm256_setzero_pd();
        __m256 mag = _mm256_setzero_ps();
        __m256i least = _mm256_set1_epi32(-1);
        for (int l = 0; l < 8; ++l) {
            const __m256 v = _mm256_loadu_ps(p + j + 8 * l);
            const __m256 a = _mm256_and_ps(v, abs_mask);
            t_lo = _mm256_add_pd(t_lo, _mm256_cvtps_pd(_mm256_castps256_ps128(v)));
            t_hi = _mm256_add_pd(t_hi, _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
            mag = _mm256_add_ps(mag, a);
            least = _mm256_min_epu32(least, _mm256_sub_epi32(_mm256_castps_si256(a), one));
        }
        const int32_t q64 = std::min(qfield, least_field(least));
        if (std::fabs(s) + static_cast<double>(hsum(mag)) * (1.0 + 0x1p-16) <= exact_bound(q64)) {
            s += hsum(_mm256_add_pd(t_lo, t_hi));
            qfield = q64;
        } else {
            s = chain_blocks(p + j, s, qfield);
        }
    }
    for (; j < n; ++j) s += p[j];
    return s;
}
#endif

// The double sums of `count` rows of n values (row r at p + r * n) into out[r]: eight (AVX2) or four rows at a
// time, so that independent chains of additions keep the adder busy (each chain is still added in order); the rows
// left over, with AVX2, by double_chain_avx2 (long rows go faster there than four at a time).
inline void double_sums(const float* p, int64_t n, int64_t count, float* out) {
    int64_t r = 0;
    bool chains = false;
#if MSCPU_ORDERED_X86
    if (has_avx2() && n >= 8) {
        for (; r + 8 <= count; r += 8) double_sums8_avx2(p + r * n, n, out + r);
    }
    chains = has_avx2() && n >= 512;
#endif
    for (; !chains && r + 4 <= count; r += 4) {
        const float *a = p + r * n, *b = a + n, *c = b + n, *d = c + n;
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        for (int64_t j = 0; j < n; ++j) {
            s0 += a[j];
            s1 += b[j];
            s2 += c[j];
            s3 += d[j];
        }
        out[r] = static_cast<float>(s0);
        out[r + 1] = static_cast<float>(s1);
        out[r + 2] = static_cast<float>(s2);
        out[r + 3] = static_cast<float>(s3);
    }
    for (; r < count; ++r) {
        const float* a = p + r * n;
#if MSCPU_ORDERED_X86
        if (has_avx2() && n >= 64) {
            out[r] = static_cast<float>(double_chain_avx2(a, n));
            continue;
        }
#endif
        double s = 0.0;
        for (int64_t j = 0; j < n; ++j) s += a[j];
        out[r] = static_cast<float>(s);
    }
}

}  // namespace ordered
}  // namespace mscpu
