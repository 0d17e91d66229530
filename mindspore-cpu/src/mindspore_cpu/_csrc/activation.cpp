// GELU (tanh approximation, MindSpore's GeLU primitive) and its derivative, and ReLU's derivative
// (ReluGrad), float32 and float64.
//
//   u = k (x + c x^3),  t = tanh(u),  k = sqrt(2/pi),  c = 0.044715
//   gelu(x)   = 0.5 x (1 + t)
//   gelu'(x)  = 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3 c x^2)
//
// float32 GeLU is MindSpore 2.10's CPU kernel bit for bit: u = 0.7978845608f * (x + 0.044715f * x * x * x) in float
// (no fused multiply-add), t = tanhf(u) with libm's tanhf, y = 0.5f * x * (1 + t). glibc's tanhf (up to 2.40: fdlibm's
// s_tanhf.c over s_expm1f.c) is reproduced here operation by operation, in AVX2 vectors and in scalar code (checked
// equal to glibc 2.36's on every float); a one-time probe compares it with this process's tanhf, and where they
// differ (another libm) every value calls tanhf as 2.10 does. float32 GeLUGrad is 2.10's too (see gelu_grad_2_10);
// float64 keeps the formulas above with std::tanh. ``gelu`` takes an
// optional bias added along the last axis first (a Dense layer's bias-add fused with its activation: the sum is
// rounded first, as 2.10's BiasAdd rounds it) and an optional output array (which may be the input: the computation
// is elementwise). Elements are split across threads above a size worth waking them for.
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MSCPU_GELU_X86 1
#else
#define MSCPU_GELU_X86 0
#endif

#include "common.h"
#include "ordered_sums.h"

namespace mscpu {
namespace {

using ordered::bits_of_float;
using ordered::float_of_bits;

constexpr double kGeluK = 0.7978845608028654;  // sqrt(2 / pi)
constexpr double kGeluC = 0.044715;

inline double tanh_of(double x) { return std::tanh(x); }

template <typename T>
inline T gelu_value(T x) {
    const T k = static_cast<T>(kGeluK), c = static_cast<T>(kGeluC);
    return T(0.5) * x * (T(1) + tanh_of(k * (x + c * x * x * x)));
}

template <typename T>
inline T gelu_slope(T x) {
    const T k = static_cast<T>(kGeluK), c = static_cast<T>(kGeluC);
    const T x2 = x * x;
    const T t = tanh_of(k * x * (T(1) + c * x2));
    return T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * k * (T(1) + T(3) * c * x2);
}

// MindSpore 2.10's kernel threads run with the SSE flush-to-zero and denormals-are-zero modes set: a subnormal input
// counts as 0 and a subnormal result becomes 0 (e.g. sigmoid(-88.5) is 0, and log of it -inf). The kernels here set
// both for their duration, on every thread that computes (libm's calls included, as in 2.10).
class DenormalsAreZero {
public:
#if defined(__x86_64__) || defined(__i386__)
    DenormalsAreZero() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | 0x8040u); }
    ~DenormalsAreZero() { _mm_setcsr(saved_); }

private:
    unsigned saved_;
#endif
};

// ---- glibc's tanhf, reproduced -------------------------------------------------------------------------------
// fdlibm's expm1f constants (s_expm1f.c)
const float kLn2Hi = float_of_bits(0x3f317180u), kLn2Lo = float_of_bits(0x3717f7d1u),
            kInvLn2 = float_of_bits(0x3fb8aa3bu);
const float kQ1 = float_of_bits(0xbd088889u), kQ2 = float_of_bits(0x3ad00d01u), kQ3 = float_of_bits(0xb8a670cdu),
            kQ4 = float_of_bits(0x36867e54u), kQ5 = float_of_bits(0xb457edbbu);

// expm1f(a) for the arguments tanhf passes (|a| in [2^-54, 44), a > -2), every branch evaluated, one selected.
inline float expm1f_fdlibm(float a) {
    const uint32_t hx = bits_of_float(a) & 0x7fffffffu;
    const bool neg = (bits_of_float(a) >> 31) != 0;
    const bool reduce = hx > 0x3eb17218u;           // |a| > ln2 / 2
    const bool near1 = hx < 0x3f851592u;            // |a| < 1.5 ln2
    const int32_t kg = static_cast<int32_t>(kInvLn2 * a + (neg ? -0.5f : 0.5f));
    const int32_t k = reduce ? (near1 ? (neg ? -1 : 1) : kg) : 0;
    const float tk = static_cast<float>(k);
    const float hi = a - tk * kLn2Hi, lo = tk * kLn2Lo;
    const float xr0 = hi - lo;
    const float xr = reduce ? xr0 : a;
    const float c = reduce ? (hi - xr0) - lo : 0.f;
    const float hfx = 0.5f * xr, hxs = xr * hfx;
    const float r1 = 1.f + hxs * (kQ1 + hxs * (kQ2 + hxs * (kQ3 + hxs * (kQ4 + hxs * kQ5))));
    const float t = 3.f - r1 * hfx;
    const float e = hxs * ((r1 - t) / (6.f - xr * t));
    float e2 = (xr * (e - c) - c);
    e2 -= hxs;
    const uint32_t kbits = static_cast<uint32_t>(k) << 23;
    float res;
    if (hx < 0x33000000u) {
        res = a;
    } else if (k == 0) {
        res = xr - (xr * e - hxs);
    } else if (k == -1) {
        res = 0.5f * (xr - e2) - 0.5f;
    } else if (k == 1) {
        res = xr < -0.25f ? -2.f * (e2 - (xr + 0.5f)) : 1.f + 2.f * (xr - e2);
    } else if (k <= -2 || k > 56) {
        res = float_of_bits(bits_of_float(1.f - (e2 - xr)) + kbits) - 1.f;
    } else if (k < 23) {
        res = float_of_bits(bits_of_float(float_of_bits(0x3f800000u - (0x1000000u >> k)) - (e2 - xr)) + kbits);
    } else {
        res = float_of_bits(bits_of_float((xr - (e2 + float_of_bits(static_cast<uint32_t>(0x7f - k) << 23))) + 1.f) +
                            kbits);
    }
    return res;
}

inline float tanhf_fdlibm(float x) {
    const uint32_t jx = bits_of_float(x), ix = jx & 0x7fffffffu;
    if (ix > 0x7f800000u) return x + x;              // NaN
    const float ax = float_of_bits(ix);
    float z;
    if (ix >= 0x41b00000u) {                         // |x| >= 22 (inf included)
        z = 1.f;
    } else if (ix < 0x24000000u) {                   // |x| < 2^-55 (0 included)
        z = ax * (1.f + ax);
    } else if (ix >= 0x3f800000u) {
        const float t = expm1f_fdlibm(2.f * ax);
        z = 1.f - 2.f / (t + 2.f);
    } else {
        const float t = expm1f_fdlibm(-2.f * ax);
        z = -t / (t + 2.f);
    }
    return (jx >> 31) ? -z : z;
}

#if MSCPU_GELU_X86
__attribute__((target("avx2"))) inline __m256 sel(__m256 a, __m256 b, __m256i m) {   // m ? b : a
    return _mm256_blendv_ps(a, b, _mm256_castsi256_ps(m));
}

__attribute__((target("avx2"))) inline __m256 expm1f_fdlibm8(__m256 a) {
    const __m256i bits = _mm256_castps_si256(a);
    const __m256i hx = _mm256_and_si256(bits, _mm256_set1_epi32(0x7fffffff));
    const __m256i negm = _mm256_srai_epi32(bits, 31);
    const __m256i reduce = _mm256_cmpgt_epi32(hx, _mm256_set1_epi32(0x3eb17218));
    const __m256i near1 = _mm256_cmpgt_epi32(_mm256_set1_epi32(0x3f851592), hx);
    const __m256 half_s = sel(_mm256_set1_ps(0.5f), _mm256_set1_ps(-0.5f), negm);
    const __m256i kg = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(kInvLn2), a), half_s));
    const __m256i one_s = _mm256_or_si256(negm, _mm256_set1_epi32(1));                 // 1 or -1
    const __m256i k = _mm256_and_si256(_mm256_blendv_epi8(kg, one_s, near1), reduce);
    const __m256 tk = _mm256_cvtepi32_ps(k);
    const __m256 hi = _mm256_sub_ps(a, _mm256_mul_ps(tk, _mm256_set1_ps(kLn2Hi)));
    const __m256 lo = _mm256_mul_ps(tk, _mm256_set1_ps(kLn2Lo));
    const __m256 xr0 = _mm256_sub_ps(hi, lo);
    const __m256 xr = sel(a, xr0, reduce);
    const __m256 c = _mm256_and_ps(_mm256_sub_ps(_mm256_sub_ps(hi, xr0), lo), _mm256_castsi256_ps(reduce));
    const __m256 one = _mm256_set1_ps(1.f), half = _mm256_set1_ps(0.5f), two = _mm256_set1_ps(2.f);
    const __m256 hfx = _mm256_mul_ps(half, xr), hxs = _mm256_mul_ps(xr, hfx);
    __m256 p = _mm256_mul_ps(hxs, _mm256_set1_ps(kQ5));
    p = _mm256_mul_ps(hxs, _mm256_add_ps(_mm256_set1_ps(kQ4), p));
    p = _mm256_mul_ps(hxs, _mm256_add_ps(_mm256_set1_ps(kQ3), p));
    p = _mm256_mul_ps(hxs, _mm256_add_ps(_mm256_set1_ps(kQ2), p));
    p = _mm256_mul_ps(hxs, _mm256_add_ps(_mm256_set1_ps(kQ1), p));
    const __m256 r1 = _mm256_add_ps(one, p);
    const __m256 t = _mm256_sub_ps(_mm256_set1_ps(3.f), _mm256_mul_ps(r1, hfx));
    const __m256 e = _mm256_mul_ps(hxs, _mm256_div_ps(_mm256_sub_ps(r1, t),
                                                      _mm256_sub_ps(_mm256_set1_ps(6.f), _mm256_mul_ps(xr, t))));
    const __m256 res0 = _mm256_sub_ps(xr, _mm256_sub_ps(_mm256_mul_ps(xr, e), hxs));
    const __m256 e2 = _mm256_sub_ps(_mm256_sub_ps(_mm256_mul_ps(xr, _mm256_sub_ps(e, c)), c), hxs);
    const __m256 ex = _mm256_sub_ps(e2, xr);
    const __m256 res_m1 = _mm256_sub_ps(_mm256_mul_ps(half, _mm256_sub_ps(xr, e2)), half);
    const __m256 p1a = _mm256_mul_ps(_mm256_set1_ps(-2.f), _mm256_sub_ps(e2, _mm256_add_ps(xr, half)));
    const __m256 p1b = _mm256_add_ps(one, _mm256_mul_ps(two, _mm256_sub_ps(xr, e2)));
    const __m256 res_p1 = _mm256_blendv_ps(p1b, p1a, _mm256_cmp_ps(xr, _mm256_set1_ps(-0.25f), _CMP_LT_OQ));
    const __m256i kbits = _mm256_slli_epi32(k, 23);
    const __m256 res_big = _mm256_sub_ps(
        _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(_mm256_sub_ps(one, ex)), kbits)), one);
    const __m256i ks = _mm256_min_epi32(_mm256_max_epi32(k, _mm256_setzero_si256()), _mm256_set1_epi32(31));
    const __m256 t1 = _mm256_castsi256_ps(
        _mm256_sub_epi32(_mm256_set1_epi32(0x3f800000), _mm256_srlv_epi32(_mm256_set1_epi32(0x1000000), ks)));
    const __m256 res_mid = _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(_mm256_sub_ps(t1, ex)), kbits));
    const __m256 t2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_sub_epi32(_mm256_set1_epi32(0x7f), k), 23));
    const __m256 y3 = _mm256_add_ps(_mm256_sub_ps(xr, _mm256_add_ps(e2, t2)), one);
    const __m256 res_hi = _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(y3), kbits));
    __m256 res = sel(res_hi, res_mid, _mm256_cmpgt_epi32(_mm256_set1_epi32(23), k));
    res = sel(res, res_big, _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(-1), k),
                                            _mm256_cmpgt_epi32(k, _mm256_set1_epi32(56))));
    res = sel(res, res_p1, _mm256_cmpeq_epi32(k, _mm256_set1_epi32(1)));
    res = sel(res, res_m1, _mm256_cmpeq_epi32(k, _mm256_set1_epi32(-1)));
    res = sel(res, res0, _mm256_cmpeq_epi32(k, _mm256_setzero_si256()));
    return sel(res, a, _mm256_cmpgt_epi32(_mm256_set1_epi32(0x33000000), hx));
}

__attribute__((target("avx2"))) inline __m256 tanhf_fdlibm8(__m256 x) {
    const __m256i ix = _mm256_and_si256(_mm256_castps_si256(x), _mm256_set1_epi32(0x7fffffff));
    const __m256 ax = _mm256_castsi256_ps(ix);
    const __m256i ge1 = _mm256_cmpgt_epi32(ix, _mm256_set1_epi32(0x3f7fffff));
    const __m256 one = _mm256_set1_ps(1.f), two = _mm256_set1_ps(2.f);
    const __m256 a2 = _mm256_mul_ps(two, ax);
    const __m256 t = expm1f_fdlibm8(sel(_mm256_sub_ps(_mm256_setzero_ps(), a2), a2, ge1));
    const __m256 tp2 = _mm256_add_ps(t, two);
    __m256 z = sel(_mm256_div_ps(_mm256_xor_ps(t, _mm256_set1_ps(-0.f)), tp2),
                   _mm256_sub_ps(one, _mm256_div_ps(two, tp2)), ge1);
    z = sel(z, one, _mm256_cmpgt_epi32(ix, _mm256_set1_epi32(0x41afffff)));
    z = sel(z, _mm256_mul_ps(ax, _mm256_add_ps(one, ax)), _mm256_cmpgt_epi32(_mm256_set1_epi32(0x24000000), ix));
    const __m256 r = _mm256_or_ps(z, _mm256_and_ps(x, _mm256_set1_ps(-0.f)));
    return sel(r, _mm256_add_ps(x, x), _mm256_cmpgt_epi32(ix, _mm256_set1_epi32(0x7f800000)));
}
#endif

// Whether this process's tanhf is fdlibm's (glibc up to 2.40): checked once on values spread over its branches.
bool libm_tanhf_is_fdlibm() {
    static const bool same = [] {
        for (uint32_t b = 0x24000000u; b < 0x41c00000u; b += 0x3f1bu) {
            const float v = float_of_bits(b);
            if (bits_of_float(tanhf_fdlibm(v)) != bits_of_float(std::tanh(v)) ||
                bits_of_float(tanhf_fdlibm(-v)) != bits_of_float(std::tanh(-v))) {
                return false;
            }
        }
        return true;
    }();
    return same;
}

inline float gelu_2_10(float v, float t) { return 0.5f * v * (1.f + t); }
inline float gelu_arg(float v) { return 0.7978845608f * (v + 0.044715f * v * v * v); }

// 2.10's float32 GeLU over one row (``bias`` added first, rounded).
template <bool kFdlibm>
void gelu_row_scalar(const float* xr, const float* bias, float* yr, int64_t j0, int64_t cols) {
    for (int64_t j = j0; j < cols; ++j) {
        const float v = bias ? xr[j] + bias[j] : xr[j];
        const float u = gelu_arg(v);
        yr[j] = gelu_2_10(v, kFdlibm ? tanhf_fdlibm(u) : std::tanh(u));
    }
}

#if MSCPU_GELU_X86
__attribute__((target("avx2"))) int64_t gelu_row_avx2(const float* xr, const float* bias, float* yr,
                                                        int64_t cols) {
    const __m256 k = _mm256_set1_ps(0.7978845608f), c = _mm256_set1_ps(0.044715f);
    const __m256 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.f);
    int64_t j = 0;
    for (; j + 8 <= cols; j += 8) {
        __m256 v = _mm256_loadu_ps(xr + j);
        if (bias) v = _mm256_add_ps(v, _mm256_loadu_ps(bias + j));
        const __m256 cube = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(c, v), v), v);
        const __m256 u = _mm256_mul_ps(k, _mm256_add_ps(v, cube));
        const __m256 t = tanhf_fdlibm8(u);
        _mm256_storeu_ps(yr + j, _mm256_mul_ps(_mm256_mul_ps(half, v), _mm256_add_ps(one, t)));
    }
    return j;
}

bool use_avx2() {
    static const bool yes = __builtin_cpu_supports("avx2") && !ordered::portable_forced();
    return yes;
}
#endif

void gelu_rows_f32(const float* x, const float* bias, int64_t cols, float* y, int64_t row0, int64_t row1) {
    const bool fdlibm = libm_tanhf_is_fdlibm();
    DenormalsAreZero daz;
    for (int64_t r = row0; r < row1; ++r) {
        const float* xr = x + r * cols;
        float* yr = y + r * cols;
        if (!fdlibm) {
            gelu_row_scalar<false>(xr, bias, yr, 0, cols);
            continue;
        }
        int64_t j = 0;
#if MSCPU_GELU_X86
        if (use_avx2()) j = gelu_row_avx2(xr, bias, yr, cols);
#endif
        gelu_row_scalar<true>(xr, bias, yr, j, cols);
    }
}

// ---- 2.10's float32 GeLUGrad ------------------------------------------------------------------------------------
// t = float(tanh(u)) with u = 0.7978845608 (x + 0.044715 x^3) and libm's tanh, both in double, then float math. The
// AVX2 path evaluates tanh(u) in double to within a few units of its last place (an odd Taylor series below 0.25,
// 1 - 2 / (exp(2|u|) + 1) above) before rounding it to float: the float equals that of libm's tanh unless the two
// straddle a float rounding boundary (a chance of about 1e-8 per value). Elsewhere libm's tanh itself.
inline double gelu_u(double xd) { return 0.7978845608 * (xd + 0.044715 * xd * xd * xd); }

inline float gelu_grad_2_10(float dy, float x, float t) {
    const double xd = x;
    const float m = static_cast<float>(0.7978845608 + 0.1070322244 * xd * xd);
    return dy * (((1.f + t) + x * (1.f - t * t) * m) / 2.f);
}

void gelu_grad_scalar(const float* dy, const float* x, float* dx, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
        dx[i] = gelu_grad_2_10(dy[i], x[i], static_cast<float>(std::tanh(gelu_u(x[i]))));
    }
}

#if MSCPU_GELU_X86
// tanh's odd Taylor coefficients (u^3 ... u^25)
constexpr double kTanhC[12] = {-0x1.5555555555555p-2, 0x1.1111111111111p-3,  -0x1.ba1ba1ba1ba1cp-5,
                               0x1.664f4882c10fap-6,  -0x1.226e355e6c23dp-7, 0x1.d6d3d0e157de0p-9,
                               -0x1.7da36452b75e3p-10, 0x1.3558248036744p-11, -0x1.f57d7734d1664p-13,
                               0x1.967e18afcafadp-14, -0x1.497d8eea25259p-15, 0x1.0b132d39a6050p-16};

__attribute__((target("avx2"))) inline __m256d tanh_d4(__m256d u) {
    const __m256d sign = _mm256_set1_pd(-0.0);
    const __m256d a = _mm256_andnot_pd(sign, u);
    const __m256d one = _mm256_set1_pd(1.0);
    // |u| < 0.25: u (1 + s (c3 + s (c5 + ...))), s = u^2
    const __m256d s = _mm256_mul_pd(a, a);
    __m256d p = _mm256_set1_pd(kTanhC[11]);
    for (int i = 10; i >= 0; --i) p = _mm256_add_pd(_mm256_mul_pd(p, s), _mm256_set1_pd(kTanhC[i]));
    const __m256d small = _mm256_add_pd(a, _mm256_mul_pd(a, _mm256_mul_pd(s, p)));
    // above: 1 - 2 / (e^y + 1), y = 2|u| (at most 60: tanh is 1 in double from 19.1 on)
    const __m256d y = _mm256_min_pd(_mm256_add_pd(a, a), _mm256_set1_pd(60.0));
    const __m256d n = _mm256_round_pd(_mm256_mul_pd(y, _mm256_set1_pd(1.4426950408889634)),
                                      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256d r = _mm256_sub_pd(_mm256_sub_pd(y, _mm256_mul_pd(n, _mm256_set1_pd(6.93147180369123816490e-01))),
                                    _mm256_mul_pd(n, _mm256_set1_pd(1.90821492927058770002e-10)));
    __m256d e = _mm256_set1_pd(1.0 / 6227020800.0);    // 1/13!
    const double inv_fact[13] = {1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0, 1.0 / 362880.0,
                                 1.0 / 40320.0, 1.0 / 5040.0, 1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5,
                                 1.0, 1.0};
    for (double c : inv_fact) e = _mm256_add_pd(_mm256_mul_pd(e, r), _mm256_set1_pd(c));
    const __m128i ni = _mm256_cvtpd_epi32(n);
    const __m256i expo = _mm256_slli_epi64(_mm256_add_epi64(_mm256_cvtepi32_epi64(ni), _mm256_set1_epi64x(1023)), 52);
    e = _mm256_mul_pd(e, _mm256_castsi256_pd(expo));
    const __m256d big = _mm256_sub_pd(one, _mm256_div_pd(_mm256_set1_pd(2.0), _mm256_add_pd(e, one)));
    __m256d res = _mm256_blendv_pd(big, small, _mm256_cmp_pd(a, _mm256_set1_pd(0.25), _CMP_LT_OQ));
    res = _mm256_or_pd(res, _mm256_and_pd(u, sign));
    return _mm256_blendv_pd(res, u, _mm256_cmp_pd(u, u, _CMP_UNORD_Q));       // NaN stays NaN
}

__attribute__((target("avx2"))) void gelu_grad_avx2(const float* dy, const float* x, float* dx, int64_t begin,
                                                      int64_t end) {
    const __m256d k = _mm256_set1_pd(0.7978845608), c = _mm256_set1_pd(0.044715);
    const __m256d mk = _mm256_set1_pd(0.1070322244);
    const __m128 one = _mm_set1_ps(1.f), two = _mm_set1_ps(2.f);
    int64_t i = begin;
    for (; i + 4 <= end; i += 4) {
        const __m128 xf = _mm_loadu_ps(x + i);
        const __m256d xd = _mm256_cvtps_pd(xf);
        const __m256d cube = _mm256_mul_pd(_mm256_mul_pd(_mm256_mul_pd(c, xd), xd), xd);
        const __m128 t = _mm256_cvtpd_ps(tanh_d4(_mm256_mul_pd(k, _mm256_add_pd(xd, cube))));
        const __m128 m = _mm256_cvtpd_ps(_mm256_add_pd(k, _mm256_mul_pd(_mm256_mul_pd(mk, xd), xd)));
        const __m128 inner = _mm_mul_ps(_mm_mul_ps(xf, _mm_sub_ps(one, _mm_mul_ps(t, t))), m);
        const __m128 yv = _mm_div_ps(_mm_add_ps(_mm_add_ps(one, t), inner), two);
        _mm_storeu_ps(dx + i, _mm_mul_ps(_mm_loadu_ps(dy + i), yv));
    }
    gelu_grad_scalar(dy, x, dx, i, end);
}
#endif

void gelu_grad_span_f32(const float* dy, const float* x, float* dx, int64_t begin, int64_t end) {
    DenormalsAreZero daz;
#if MSCPU_GELU_X86
    if (use_avx2()) {
        gelu_grad_avx2(dy, x, dx, begin, end);
        return;
    }
#endif
    gelu_grad_scalar(dy, x, dx, begin, end);
}

void gelu_rows_f64(const double* x, const double* bias, int64_t cols, double* y, int64_t row0, int64_t row1) {
    for (int64_t r = row0; r < row1; ++r) {
        for (int64_t j = 0; j < cols; ++j) {
            y[r * cols + j] = gelu_value(x[r * cols + j] + (bias ? bias[j] : 0.0));
        }
    }
}

void gelu_grad_span_f64(const double* dy, const double* x, double* dx, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) dx[i] = dy[i] * gelu_slope(x[i]);
}

// Splits [0, n) into one contiguous span per thread when the work is worth it.
template <typename F>
void split(int64_t n, double work, F&& body) {
    if (!worth_parallel(work, kParallelVisits)) {
        body(0, n);
        return;
    }
    parallel(max_threads(), [&](int, int) {
        const int64_t teams = team_size(), id = thread_id();
        const int64_t chunk = ceil_div(n, teams);
        const int64_t b = std::min(n, id * chunk), e = std::min(n, b + chunk);
        if (b < e) body(b, e);
    });
}

template <typename T>
void gelu_loop(const T* x, const T* bias, int64_t cols, T* y, int64_t n) {
    if (!bias) {   // elementwise: split the values, not the rows (a 1-D input is one row)
        split(n, 40.0 * n, [&](int64_t b, int64_t e) {
            if constexpr (std::is_same_v<T, float>) gelu_rows_f32(x + b, nullptr, e - b, y + b, 0, 1);
            else gelu_rows_f64(x + b, nullptr, e - b, y + b, 0, 1);
        });
        return;
    }
    const int64_t rows = cols ? n / cols : 0;
    split(rows, 40.0 * n, [&](int64_t r0, int64_t r1) {
        if constexpr (std::is_same_v<T, float>) gelu_rows_f32(x, bias, cols, y, r0, r1);
        else gelu_rows_f64(x, bias, cols, y, r0, r1);
    });
}

template <typename T>
void gelu_grad_loop(const T* dy, const T* x, T* dx, int64_t n) {
    split(n, 25.0 * n, [&](int64_t b, int64_t e) {
        if constexpr (std::is_same_v<T, float>) gelu_grad_span_f32(dy, x, dx, b, e);
        else gelu_grad_span_f64(dy, x, dx, b, e);
    });
}

py::array gelu(const py::array& x, const py::object& bias, const py::object& out) {
    const std::string where = "gelu";
    check_array(where, "x", x, -1);
    const DType dt = common_float(where, {&x});
    py::array b;
    int64_t channels = 1;
    if (!bias.is_none()) {
        b = py::reinterpret_borrow<py::array>(bias);
        check_array(where, "bias", b, 1);
        if (common_float(where, {&x, &b}) != dt || x.ndim() < 1 || b.shape(0) != x.shape(x.ndim() - 1)) {
            fail(where, "the bias must have the size of the last axis of 'x', but got bias " + shape_str(b) +
                            " for x " + shape_str(x));
        }
        channels = b.shape(0);
    }
    py::array y;
    if (out.is_none()) {
        y = py::array(x.dtype(), std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    } else {
        y = py::reinterpret_borrow<py::array>(out);
        check_array(where, "out", y, static_cast<int>(x.ndim()));
        if (!y.dtype().is(x.dtype()) || y.size() != x.size() || !y.writeable()) {
            fail(where, "'out' must be a writeable array of the shape and dtype of 'x'");
        }
    }
    const int64_t n = x.size();
    const int64_t cols = bias.is_none() ? (x.ndim() ? x.shape(x.ndim() - 1) : 1) : channels;
    py::gil_scoped_release release;
    if (n == 0) return y;
    if (dt == DType::f32) {
        gelu_loop(cptr<float>(x), bias.is_none() ? nullptr : cptr<float>(b), cols,
                  static_cast<float*>(y.mutable_data()), n);
    } else {
        gelu_loop(cptr<double>(x), bias.is_none() ? nullptr : cptr<double>(b), cols,
                  static_cast<double*>(y.mutable_data()), n);
    }
    return y;
}

py::array gelu_grad(const py::array& dy, const py::array& x) {
    const std::string where = "gelu_grad";
    check_array(where, "dy", dy, -1);
    check_array(where, "x", x, -1);
    const DType dt = common_float(where, {&dy, &x});
    if (dy.size() != x.size()) fail(where, "'dy' " + shape_str(dy) + " and 'x' " + shape_str(x) + " differ");
    py::array dx(x.dtype(), std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    const int64_t n = x.size();
    py::gil_scoped_release release;
    if (dt == DType::f32) {
        gelu_grad_loop(cptr<float>(dy), cptr<float>(x), static_cast<float*>(dx.mutable_data()), n);
    } else {
        gelu_grad_loop(cptr<double>(dy), cptr<double>(x), static_cast<double*>(dx.mutable_data()), n);
    }
    return dx;
}

// ReluGrad: dx = y > 0 ? dy : 0, with y the ReLU's output (or input: same sign). A select, as
// MindSpore's and PyTorch's kernels compute it: a NaN or infinite dy where y <= 0 gives 0. Branch-free
// so that it vectorises; ``out`` may be dy itself.
template <typename T>
void relu_grad_span(const T* dy, const T* y, T* dx, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) dx[i] = y[i] > T(0) ? dy[i] : T(0);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void relu_grad_span_f32(const float* dy, const float* y, float* dx, int64_t begin, int64_t end) {
    relu_grad_span(dy, y, dx, begin, end);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void relu_grad_span_f64(const double* dy, const double* y, double* dx, int64_t begin, int64_t end) {
    relu_grad_span(dy, y, dx, begin, end);
}

// The 16-bit floats (float16, bfloat16) on their bits: y > 0 exactly when y lies in [1, +inf's bits] (the sign
// clear, not zero, not NaN), so the select needs no conversion.
__attribute__((target_clones("avx512f", "avx2", "default")))
void relu_grad_span_u16(const uint16_t* dy, const uint16_t* y, uint16_t* dx, uint16_t inf, int64_t begin,
                        int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
        dx[i] = static_cast<uint16_t>(y[i] - 1u) < inf ? dy[i] : static_cast<uint16_t>(0);
    }
}

py::array relu_grad16(const py::array& dy, const py::array& y, const std::string& kind) {
    const std::string where = "relu_grad16";
    check_array(where, "dy", dy, -1);
    check_array(where, "y", y, -1);
    if (dy.itemsize() != 2 || y.itemsize() != 2 || !dy.dtype().is(y.dtype())) {
        fail(where, "'dy' and 'y' must be 16-bit floats of one dtype");
    }
    if (kind != "float16" && kind != "bfloat16") fail(where, "'kind' must be 'float16' or 'bfloat16'");
    if (dy.size() != y.size()) fail(where, "'dy' " + shape_str(dy) + " and 'y' " + shape_str(y) + " differ");
    const uint16_t inf = kind == "float16" ? 0x7c00u : 0x7f80u;
    py::array dx(dy.dtype(), std::vector<py::ssize_t>(dy.shape(), dy.shape() + dy.ndim()));
    const int64_t n = dy.size();
    const auto* pdy = static_cast<const uint16_t*>(dy.data());
    const auto* py_ = static_cast<const uint16_t*>(y.data());
    auto* pdx = static_cast<uint16_t*>(dx.mutable_data());
    py::gil_scoped_release release;
    split(n, 2.0 * n, [&](int64_t b, int64_t e) { relu_grad_span_u16(pdy, py_, pdx, inf, b, e); });
    return dx;
}

py::array relu_grad(const py::array& dy, const py::array& y, const py::object& out) {
    const std::string where = "relu_grad";
    check_array(where, "dy", dy, -1);
    check_array(where, "y", y, -1);
    const DType dt = common_float(where, {&dy, &y});
    if (dy.size() != y.size()) fail(where, "'dy' " + shape_str(dy) + " and 'y' " + shape_str(y) + " differ");
    py::array dx;
    if (out.is_none()) {
        dx = py::array(dy.dtype(), std::vector<py::ssize_t>(dy.shape(), dy.shape() + dy.ndim()));
    } else {
        dx = py::reinterpret_borrow<py::array>(out);
        check_array(where, "out", dx, -1);
        if (!dx.dtype().is(dy.dtype()) || dx.size() != dy.size() || !dx.writeable()) {
            fail(where, "'out' must be a writeable array of the size and dtype of 'dy'");
        }
    }
    const int64_t n = dy.size();
    py::gil_scoped_release release;
    split(n, 2.0 * n, [&](int64_t b, int64_t e) {
        if (dt == DType::f32) {
            relu_grad_span_f32(cptr<float>(dy), cptr<float>(y), static_cast<float*>(dx.mutable_data()), b, e);
        } else {
            relu_grad_span_f64(cptr<double>(dy), cptr<double>(y), static_cast<double*>(dx.mutable_data()), b, e);
        }
    });
    return dx;
}

}  // namespace

void register_activation(py::module_& m) {
    using py::arg;
    m.def("gelu", &gelu, arg("x"), arg("bias") = py::none(), arg("out") = py::none(),
          "GELU (tanh approximation) of x (+ bias along the last axis), into 'out' when given.");
    m.def("gelu_grad", &gelu_grad, arg("dy"), arg("x"), "dy * GELU'(x) (tanh approximation).");
    m.def("relu_grad", &relu_grad, arg("dy"), arg("y"), arg("out") = py::none(),
          "y > 0 ? dy : 0 (ReLU's gradient from its output y), into 'out' when given (it may be dy).");
    m.def("relu_grad16", &relu_grad16, arg("dy"), arg("y"), arg("kind"),
          "relu_grad of 16-bit floats ('float16' or 'bfloat16' bits), computed on the bits.");
}

}  // namespace mscpu
