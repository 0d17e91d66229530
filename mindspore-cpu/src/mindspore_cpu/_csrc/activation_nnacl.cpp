// float32 Sigmoid, Softplus, Softplus's gradient, Elu, Mish, SeLU, HSwish and BCEWithLogitsLoss bit for bit as
// MindSpore 2.10's CPU computes them.
//
// 2.10's kernels hand the whole tensor (one chunk) to nnacl's Sigmoid, Softplus, SoftplusGrad, Elu and ElementMish,
// which run a SIMD body over the blocks of 16, 8 and 4 values (the same per-value operations at every width, so the
// results do not depend on the vector width) and a scalar loop over the last n % 4 values. nnacl's exp, in both:
//   v = max(-87.3365478515625, min(x, 88.72283935546875))          (a NaN becomes 88.72...)
//   k = floor(v * log2(e) + 0.5)  (one FMA),  r = v - k ln2  (one FMA, ln2 = 0x3f317215),
//   p = (((r/120 + 1/24) r + 1/6) r + 1/2) r + 1,  q = r p + 1      (every "a b + c" one FMA)
//   exp(x) = h * 2 with h = q * 2^(k-1) (rounded) in the SIMD body, q * 2^k (2^k = 2^(k-1) + 2^(k-1)) in the tail
//   (the same except where 2^k overflows, k = 128).
// Sigmoid:      1 / (2 h + 1)  (one FMA) for -x, body and tail alike. A NaN anywhere in the input makes 2.10 compute
//               every value as 1 / (1 + expf(-x)) with glibc's expf instead.
// Softplus:     body: x > 88 ? x : nnacl's SIMD log of (2 h + 1)  (log_f32.cpp describes it: z = (m - 1) / (m + 1),
//               an odd series in z with FMAs, 2 z p + e ln2); tail: x > 88 ? x : float(log1p(double(q 2^k))).
// SoftplusGrad: dy / ((h + h) + 1) for -x, body and tail alike.
// Elu:          body: x <= 0 ? (2 h - 1) alpha : x  (2 h - 1 one FMA); tail: x > 0 ? x : float(expm1(double(x)) alpha)
//               (so -0 gives +0 in the body, -0 in the tail).
// Mish:         a = 1 + exp(x) (2 h + 1, one FMA, in the body; q 2^k + 1 in the tail), then
//               body: (a a - 1) / (a a + 1) * x, tail: ((a a - 1) x) / (a a + 1), each "a a +- 1" one FMA.
// BCEWithLogitsLoss, SeLU and HSwish: see their functions.
// The AVX2+FMA path computes exactly these operations with FMA instructions; elsewhere std::fma (exact in software)
// gives the same bits. All run with flush-to-zero and denormals-are-zero set, as 2.10's threads do. No multiply-add
// may be fused unless written as one: GCC contracts by default.
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MSCPU_ACT_X86 1
#else
#define MSCPU_ACT_X86 0
#endif

#include "common.h"
#include "ordered_sums.h"

namespace mscpu {
namespace {

using ordered::bits_of_float;
using ordered::float_of_bits;

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

// nnacl's constants as rounded in its tables
const float kHi = float_of_bits(0x42b17218u), kLo = float_of_bits(0xc2aeac50u), kLog2e = float_of_bits(0x3fb8aa3bu),
            kLn2 = float_of_bits(0x3f317215u);
const float kE5 = float_of_bits(0x3c088889u), kE4 = float_of_bits(0x3d2aaaabu), kE3 = float_of_bits(0x3e2aaaabu);
const float kC11 = float_of_bits(0x3dba2e8cu), kC9 = float_of_bits(0x3de38e39u), kC7 = float_of_bits(0x3e124925u),
            kC5 = float_of_bits(0x3e4ccccdu),
            kC3 = float_of_bits(0x3eaaaaabu);
constexpr float kSoftplusLinear = 88.f;
constexpr uint32_t kExpMask = 0x7f800000u, kOneBits = 0x3f800000u;

// q and k of nnacl's exp (see the top), k in [-126, 128].
inline float exp_parts(float x, int32_t& k) {
    float v = x < kHi ? x : kHi;        // minps: the bound where unordered
    v = kLo > v ? kLo : v;
    const float fk = std::floor(std::fma(v, kLog2e, 0.5f));
    k = static_cast<int32_t>(fk);
    const float r = std::fma(-fk, kLn2, v);
    float p = std::fma(r, kE5, kE4);
    p = std::fma(p, r, kE3);
    p = std::fma(p, r, 0.5f);
    p = std::fma(p, r, 1.f);
    return std::fma(r, p, 1.f);
}

// 2^(k-1), 0 at -126
inline float half_scale(int32_t k) { return float_of_bits(static_cast<uint32_t>(k + 126) << 23); }

inline float half_exp(float x) {     // h of the SIMD body
    int32_t k;
    const float q = exp_parts(x, k);
    return q * half_scale(k);
}

inline float tail_exp(float x) {     // q 2^k of the scalar tail
    int32_t k;
    const float q = exp_parts(x, k);
    const float s = half_scale(k);
    return q * (s + s);
}

// nnacl's SIMD log of a positive value, +inf kept (Softplus's argument 2 h + 1 is >= 1).
inline float log_ge1_form(float a) {
    const uint32_t b = bits_of_float(a);
    if (b == kExpMask) return a;
    const float m = float_of_bits((b & ~kExpMask) | kOneBits);
    const float e = static_cast<float>(static_cast<int32_t>((b & kExpMask) >> 23) - 127) * kLn2;
    const float z = (m + -1.f) / (m + 1.f);
    const float s = z * z;
    float r = std::fma(s, kC11, kC9);
    r = std::fma(r, s, kC7);
    r = std::fma(r, s, kC5);
    r = std::fma(r, s, kC3);
    const float p = std::fma(s, r, 1.f);
    return std::fma(z * p, 2.f, e);
}

// ---- one value of each kernel, body (SIMD) and tail forms ------------------------------------------------------
inline float sigmoid_body(float x) { return 1.f / std::fma(half_exp(-x), 2.f, 1.f); }
inline float sigmoid_tail(float x) {
    int32_t k;
    const float q = exp_parts(-x, k);
    const float s = half_scale(k);
    return 1.f / std::fma(q, s + s, 1.f);
}
inline float softplus_body(float x) {
    return x > kSoftplusLinear ? x : log_ge1_form(std::fma(half_exp(x), 2.f, 1.f));
}
inline float softplus_tail(float x) {
    return x > kSoftplusLinear ? x : static_cast<float>(std::log1p(static_cast<double>(tail_exp(x))));
}
inline float softplus_grad_one(float dy, float x) {
    const float h = half_exp(-x);
    return dy / ((h + h) + 1.f);
}
inline float mish_body(float x) {
    const float a = std::fma(half_exp(x), 2.f, 1.f);
    return (std::fma(a, a, -1.f) / std::fma(a, a, 1.f)) * x;
}
inline float mish_tail(float x) {
    const float a = tail_exp(x) + 1.f;
    return (std::fma(a, a, -1.f) * x) / std::fma(a, a, 1.f);
}
inline float elu_body(float x, float alpha) { return x <= 0.f ? std::fma(half_exp(x), 2.f, -1.f) * alpha : x; }
inline float elu_tail(float x, float alpha) {
    return x > 0.f ? x : static_cast<float>(std::expm1(static_cast<double>(x)) * static_cast<double>(alpha));
}

// ---- the SIMD bodies ---------------------------------------------------------------------------------------------
enum class Op { sigmoid, softplus, softplus_grad, elu, mish };

template <Op op>
void body_portable(const float* x, const float* dy, float alpha, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
        if constexpr (op == Op::sigmoid) y[i] = sigmoid_body(x[i]);
        else if constexpr (op == Op::softplus) y[i] = softplus_body(x[i]);
        else if constexpr (op == Op::softplus_grad) y[i] = softplus_grad_one(dy[i], x[i]);
        else if constexpr (op == Op::mish) y[i] = mish_body(x[i]);
        else y[i] = elu_body(x[i], alpha);
    }
}

#if MSCPU_ACT_X86
__attribute__((target("avx2,fma"))) inline __m256 half_exp8(__m256 x) {
    __m256 v = _mm256_min_ps(x, _mm256_set1_ps(kHi));
    v = _mm256_max_ps(_mm256_set1_ps(kLo), v);
    const __m256 fk = _mm256_floor_ps(_mm256_fmadd_ps(v, _mm256_set1_ps(kLog2e), _mm256_set1_ps(0.5f)));
    const __m256i k = _mm256_cvttps_epi32(fk);
    const __m256 r = _mm256_fnmadd_ps(fk, _mm256_set1_ps(kLn2), v);
    __m256 p = _mm256_fmadd_ps(r, _mm256_set1_ps(kE5), _mm256_set1_ps(kE4));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kE3));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0.5f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.f));
    const __m256 q = _mm256_fmadd_ps(r, p, _mm256_set1_ps(1.f));
    const __m256i s = _mm256_slli_epi32(_mm256_add_epi32(k, _mm256_set1_epi32(126)), 23);
    return _mm256_mul_ps(q, _mm256_castsi256_ps(s));
}

__attribute__((target("avx2,fma"))) inline __m256 log_ge1_8(__m256 a) {
    const __m256i emask = _mm256_set1_epi32(static_cast<int>(kExpMask));
    const __m256i b = _mm256_castps_si256(a);
    const __m256i eb = _mm256_and_si256(b, emask);
    const __m256 m = _mm256_castsi256_ps(_mm256_or_si256(_mm256_andnot_si256(emask, b),
                                                         _mm256_set1_epi32(static_cast<int>(kOneBits))));
    const __m256 e = _mm256_mul_ps(
        _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_srli_epi32(eb, 23), _mm256_set1_epi32(127))),
        _mm256_set1_ps(kLn2));
    const __m256 one = _mm256_set1_ps(1.f);
    const __m256 z = _mm256_div_ps(_mm256_add_ps(m, _mm256_set1_ps(-1.f)), _mm256_add_ps(m, one));
    const __m256 s = _mm256_mul_ps(z, z);
    __m256 r = _mm256_fmadd_ps(s, _mm256_set1_ps(kC11), _mm256_set1_ps(kC9));
    r = _mm256_fmadd_ps(r, s, _mm256_set1_ps(kC7));
    r = _mm256_fmadd_ps(r, s, _mm256_set1_ps(kC5));
    r = _mm256_fmadd_ps(r, s, _mm256_set1_ps(kC3));
    const __m256 p = _mm256_fmadd_ps(s, r, one);
    const __m256 res = _mm256_fmadd_ps(_mm256_mul_ps(z, p), _mm256_set1_ps(2.f), e);
    return _mm256_blendv_ps(res, a, _mm256_castsi256_ps(_mm256_cmpeq_epi32(b, emask)));   // +inf stays
}

template <Op op>
__attribute__((target("avx2,fma"))) void body_avx2(const float* x, const float* dy, float alpha, float* y,
                                                    int64_t n) {
    const __m256 one = _mm256_set1_ps(1.f), two = _mm256_set1_ps(2.f);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        __m256 res;
        if constexpr (op == Op::sigmoid) {
            const __m256 h = half_exp8(_mm256_sub_ps(_mm256_setzero_ps(), v));
            res = _mm256_div_ps(one, _mm256_fmadd_ps(h, two, one));
        } else if constexpr (op == Op::softplus) {
            const __m256 lg = log_ge1_8(_mm256_fmadd_ps(half_exp8(v), two, one));
            res = _mm256_blendv_ps(lg, v, _mm256_cmp_ps(v, _mm256_set1_ps(kSoftplusLinear), _CMP_GT_OQ));
        } else if constexpr (op == Op::softplus_grad) {
            const __m256 h = half_exp8(_mm256_sub_ps(_mm256_setzero_ps(), v));
            res = _mm256_div_ps(_mm256_loadu_ps(dy + i), _mm256_add_ps(_mm256_add_ps(h, h), one));
        } else if constexpr (op == Op::mish) {
            const __m256 a = _mm256_fmadd_ps(half_exp8(v), two, one);
            const __m256 num = _mm256_fmadd_ps(a, a, _mm256_set1_ps(-1.f)), den = _mm256_fmadd_ps(a, a, one);
            res = _mm256_mul_ps(_mm256_div_ps(num, den), v);
        } else {
            const __m256 e = _mm256_mul_ps(_mm256_fmadd_ps(half_exp8(v), two, _mm256_set1_ps(-1.f)),
                                           _mm256_set1_ps(alpha));
            res = _mm256_blendv_ps(v, e, _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LE_OQ));
        }
        _mm256_storeu_ps(y + i, res);
    }
    body_portable<op>(x + i, dy ? dy + i : nullptr, alpha, y + i, n - i);
}

#endif

template <Op op>
void run_body(const float* x, const float* dy, float alpha, float* y, int64_t n) {
#if MSCPU_ACT_X86
    if (ordered::has_avx2_fma()) {
        body_avx2<op>(x, dy, alpha, y, n);
        return;
    }
#endif
    body_portable<op>(x, dy, alpha, y, n);
}

// The body over [0, n - n % 4) in chunks of whole blocks, split among the team when worth it; the tail after.
template <Op op>
void run(const float* x, const float* dy, float alpha, float* y, int64_t n) {
    DenormalsAreZero daz;
    const int64_t body = n - n % 4;
    constexpr int64_t kChunk = 4096;
    const int64_t chunks = (body + kChunk - 1) / kChunk;
    auto span = [&](int64_t c0, int64_t c1) {
        DenormalsAreZero daz_worker;
        const int64_t lo = c0 * kChunk, hi = std::min(body, c1 * kChunk);
        if (lo < hi) run_body<op>(x + lo, dy ? dy + lo : nullptr, alpha, y + lo, hi - lo);
    };
    if (!worth_parallel(30.0 * body, kParallelVisits) || chunks < 2) {
        span(0, chunks);
    } else {
        parallel(max_threads(), [&](int tid, int nt) {
            int64_t c0, c1;
            static_range(chunks, tid, nt, c0, c1);
            span(c0, c1);
        });
    }
    for (int64_t i = body; i < n; ++i) {
        if constexpr (op == Op::sigmoid) y[i] = sigmoid_tail(x[i]);
        else if constexpr (op == Op::softplus) y[i] = softplus_tail(x[i]);
        else if constexpr (op == Op::softplus_grad) y[i] = softplus_grad_one(dy[i], x[i]);
        else if constexpr (op == Op::mish) y[i] = mish_tail(x[i]);
        else y[i] = elu_tail(x[i], alpha);
    }
}

py::array_t<float> like(const py::array& x) {
    return py::array_t<float>(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
}

void check_f32(const std::string& where, const char* name, const py::array& a) {
    check_array(where, name, a, -1);
    if (dtype_of(a) != DType::f32) fail(where, std::string("'") + name + "' must be float32");
}

// ---- BCEWithLogitsLoss (reduction 'none') ----------------------------------------------------------------------
// nnacl's log of any value (its SIMD form: 0 -> -inf, +inf kept, < 0 or NaN -> NaN).
inline float log_any(float a) {
    if (a == 0.f) return -std::numeric_limits<float>::infinity();
    if (a != a || a < 0.f) return std::numeric_limits<float>::quiet_NaN();
    return log_ge1_form(a);
}

inline float bce_body(float x, float t, float w, float pw) {
    const float neg = 0.f - x;
    const float mx = neg > 0.f ? neg : 0.f;          // maxps(neg, 0): a NaN gives 0
    const float lw = std::fma(pw + -1.f, t, 1.f);
    const float e = static_cast<float>(std::exp(static_cast<double>(0.f - mx))) +
                    static_cast<float>(std::exp(static_cast<double>(neg - mx)));
    const float loss = std::fma(log_any(e) + mx, lw, (1.f - t) * x);
    return loss * w;
}

inline float bce_tail(float x, float t, float w, float pw) {
    const float neg = -x;
    const float mx = neg > 0.f ? neg : 0.f;
    const float lw = std::fma(pw - 1.f, t, 1.f);
    const float lev = std::log(std::exp(-mx) + std::exp(neg - mx));   // glibc's expf and logf
    return std::fma(1.f - t, x, (lev + mx) * lw) * w;
}

inline float bce_broadcast(float x, float t, float w, float pw) {    // 2.10's own loop (no nnacl, no FMA)
    const float mx = -x > 0.f ? -x : 0.f;
    const float lw = (pw - 1.f) * t + 1.f;
    const float lev = std::log(std::exp(-mx) + std::exp(-x - mx));
    return ((1.f - t) * x + lw * (lev + mx)) * w;
}

void bce_body_span(const float* x, const float* t, const float* w, const float* pw, float* y, int64_t lo,
                   int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) y[i] = bce_body(x[i], t[i], w[i], pw[i]);
}

#if MSCPU_ACT_X86
__attribute__((target("avx2,fma"))) void bce_body_span_fma(const float* x, const float* t, const float* w,
                                                           const float* pw, float* y, int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) y[i] = bce_body(x[i], t[i], w[i], pw[i]);
}
#endif

// One of 2.10's tasks: nnacl's BCEWithLogitLoss over [lo, hi) (its SIMD body, then its scalar tail).
void bce_task(const float* x, const float* t, const float* w, const float* pw, float* y, int64_t lo, int64_t hi) {
    const int64_t mid = hi - (hi - lo) % 4;
#if MSCPU_ACT_X86
    if (ordered::has_avx2_fma()) {
        bce_body_span_fma(x, t, w, pw, y, lo, mid);
    } else {
        bce_body_span(x, t, w, pw, y, lo, mid);
    }
#else
    bce_body_span(x, t, w, pw, y, lo, mid);
#endif
    for (int64_t i = mid; i < hi; ++i) y[i] = bce_tail(x[i], t[i], w[i], pw[i]);
}

// 2.10's kernel splits the n values into min(n, threads) tasks of ceil(n / tasks) values, each one nnacl call
// (``broadcast``: weight or pos_weight had another shape than the label, and 2.10 runs its own scalar loop instead).
py::array bce_with_logits_f32(const py::array& x, const py::array& t, const py::array& w, const py::array& pw,
                              bool broadcast) {
    const std::string where = "bce_with_logits_f32";
    check_f32(where, "logits", x);
    check_f32(where, "label", t);
    check_f32(where, "weight", w);
    check_f32(where, "pos_weight", pw);
    const int64_t n = x.size();
    if (t.size() != n || w.size() != n || pw.size() != n) fail(where, "all inputs must have the size of 'logits'");
    auto y = like(x);
    const float *px = cptr<float>(x), *pt = cptr<float>(t), *pwt = cptr<float>(w), *ppw = cptr<float>(pw);
    float* py_ = mptr(y);
    const int64_t tasks = std::max<int64_t>(1, std::min<int64_t>(n, max_threads()));
    const int64_t stride = ceil_div(n, tasks);
    py::gil_scoped_release release;
    auto run_tasks = [&](int64_t k0, int64_t k1) {
        DenormalsAreZero daz;
        for (int64_t k = k0; k < k1; ++k) {
            const int64_t lo = std::min(n, k * stride), hi = std::min(n, lo + stride);
            if (broadcast) {
                for (int64_t i = lo; i < hi; ++i) py_[i] = bce_broadcast(px[i], pt[i], pwt[i], ppw[i]);
            } else {
                bce_task(px, pt, pwt, ppw, py_, lo, hi);
            }
        }
    };
    if (!worth_parallel(60.0 * n, kParallelVisits) || tasks < 2) {
        run_tasks(0, tasks);
    } else {
        parallel(max_threads(), [&](int tid, int nt) {
            int64_t k0, k1;
            static_range(tasks, tid, nt, k0, k1);
            run_tasks(k0, k1);
        });
    }
    return std::move(y);
}

py::array sigmoid_f32(const py::array& x) {
    check_f32("sigmoid_f32", "x", x);
    auto y = like(x);
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    const int64_t n = x.size();
    py::gil_scoped_release release;
    bool has_nan = false;
    for (int64_t i = 0; i < n && !has_nan; ++i) has_nan = px[i] != px[i];
    if (has_nan) {   // 2.10's kernel then computes every value with libm's expf
        DenormalsAreZero daz;
        for (int64_t i = 0; i < n; ++i) py_[i] = 1.f / (1.f + std::exp(-px[i]));
    } else {
        run<Op::sigmoid>(px, nullptr, 0.f, py_, n);
    }
    return std::move(y);
}

py::array softplus_f32(const py::array& x) {
    check_f32("softplus_f32", "x", x);
    auto y = like(x);
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    py::gil_scoped_release release;
    run<Op::softplus>(px, nullptr, 0.f, py_, x.size());
    return std::move(y);
}

py::array softplus_grad_f32(const py::array& dy, const py::array& x) {
    const std::string where = "softplus_grad_f32";
    check_f32(where, "dy", dy);
    check_f32(where, "x", x);
    if (dy.size() != x.size()) fail(where, "'dy' " + shape_str(dy) + " and 'x' " + shape_str(x) + " differ");
    auto y = like(x);
    const float* px = cptr<float>(x);
    const float* pdy = cptr<float>(dy);
    float* py_ = mptr(y);
    py::gil_scoped_release release;
    run<Op::softplus_grad>(px, pdy, 0.f, py_, x.size());
    return std::move(y);
}

// libm's expm1f of every value (2.10's float16 SeLU rounds it to float16).
py::array expm1f_f32(const py::array& x) {
    check_f32("expm1f_f32", "x", x);
    auto y = like(x);
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    const int64_t n = x.size();
    py::gil_scoped_release release;
    DenormalsAreZero daz;
    for (int64_t i = 0; i < n; ++i) py_[i] = std::expm1(px[i]);
    return std::move(y);
}

// 2.10's SeLU: x > 0 ? scale x : (scale alpha) expm1f(x), the constants and their product rounded to float, libm's
// expm1f (no nnacl here).
py::array selu_f32(const py::array& x) {
    check_f32("selu_f32", "x", x);
    auto y = like(x);
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    const int64_t n = x.size();
    const float scale = static_cast<float>(1.05070098735548049341933498);
    const float scale_alpha = scale * static_cast<float>(1.67326324235437728481704299);
    py::gil_scoped_release release;
    auto span = [&](int64_t lo, int64_t hi) {
        DenormalsAreZero daz;
        for (int64_t i = lo; i < hi; ++i) py_[i] = px[i] > 0.f ? scale * px[i] : scale_alpha * std::expm1(px[i]);
    };
    if (!worth_parallel(20.0 * n, kParallelVisits)) {
        span(0, n);
    } else {
        parallel(max_threads(), [&](int tid, int nt) {
            int64_t lo, hi;
            static_range(n, tid, nt, lo, hi);
            if (lo < hi) span(lo, hi);
        });
    }
    return std::move(y);
}

// 2.10's float32 HSwish: 0 up to -3, x from 3 on, (x (x + 3)) / 6 between, each operation rounded (no FMA).
inline float hswish_one(float v) { return v <= -3.f ? 0.f : (v >= 3.f ? v : v * (v + 3.f) / 6.f); }

#if MSCPU_ACT_X86
__attribute__((target("avx2"))) int64_t hswish_avx2(const float* x, float* y, int64_t lo, int64_t hi) {
    const __m256 three = _mm256_set1_ps(3.f), mthree = _mm256_set1_ps(-3.f), six = _mm256_set1_ps(6.f);
    int64_t i = lo;
    for (; i + 8 <= hi; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        const __m256 inner = _mm256_div_ps(_mm256_mul_ps(v, _mm256_add_ps(v, three)), six);
        __m256 r = _mm256_blendv_ps(inner, v, _mm256_cmp_ps(v, three, _CMP_GE_OQ));
        r = _mm256_andnot_ps(_mm256_cmp_ps(v, mthree, _CMP_LE_OQ), r);      // 0 up to -3
        _mm256_storeu_ps(y + i, r);
    }
    return i;
}
#endif

void hswish_span(const float* x, float* y, int64_t lo, int64_t hi) {
    int64_t i = lo;
#if MSCPU_ACT_X86
    if (ordered::has_avx2_fma()) i = hswish_avx2(x, y, lo, hi);
#endif
    for (; i < hi; ++i) y[i] = hswish_one(x[i]);
}

py::array hswish_f32(const py::array& x) {
    check_f32("hswish_f32", "x", x);
    auto y = like(x);
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    const int64_t n = x.size();
    py::gil_scoped_release release;
    auto span = [&](int64_t lo, int64_t hi) { hswish_span(px, py_, lo, hi); };
    if (!worth_parallel(2.0 * n, kParallelVisits)) {
        span(0, n);
    } else {
        parallel(max_threads(), [&](int tid, int nt) {
            int64_t lo, hi;
            static_range(n, tid, nt, lo, hi);
            if (lo < hi) span(lo, hi);
        });
    }
    return std::move(y);
}

py::array mish_f32(const py::array& x) {
    check_f32("mish_f32", "x", x);
    auto y = like(x);
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    py::gil_scoped_release release;
    run<Op::mish>(px, nullptr, 0.f, py_, x.size());
    return std::move(y);
}

py::array elu_f32(const py::array& x, float alpha) {
    check_f32("elu_f32", "x", x);
    auto y = like(x);
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    py::gil_scoped_release release;
    run<Op::elu>(px, nullptr, alpha, py_, x.size());
    return std::move(y);
}

}  // namespace

void register_activation_nnacl(py::module_& m) {
    using py::arg;
    m.def("sigmoid_f32", &sigmoid_f32, arg("x"), "float32 Sigmoid as MindSpore 2.10's CPU (nnacl) computes it.");
    m.def("softplus_f32", &softplus_f32, arg("x"), "float32 Softplus as MindSpore 2.10's CPU (nnacl) computes it.");
    m.def("softplus_grad_f32", &softplus_grad_f32, arg("dy"), arg("x"),
          "float32 dy * sigmoid(x) as MindSpore 2.10's CPU SoftplusGrad (nnacl) computes it: dy / (1 + exp(-x)).");
    m.def("bce_with_logits_f32", &bce_with_logits_f32, arg("logits"), arg("label"), arg("weight"), arg("pos_weight"),
          arg("broadcast"),
          "float32 BCEWithLogitsLoss (reduction 'none', inputs of one size: weight and pos_weight broadcast first, "
          "'broadcast' telling whether they had to be) as MindSpore 2.10's CPU computes it.");
    m.def("expm1f_f32", &expm1f_f32, arg("x"), "libm's expm1f of every float32 value (flush-to-zero set).");
    m.def("selu_f32", &selu_f32, arg("x"), "float32 SeLU as MindSpore 2.10's CPU computes it (libm's expm1f).");
    m.def("hswish_f32", &hswish_f32, arg("x"), "float32 HSwish as MindSpore 2.10's CPU computes it.");
    m.def("mish_f32", &mish_f32, arg("x"), "float32 Mish as MindSpore 2.10's CPU (nnacl's ElementMish) computes it.");
    m.def("elu_f32", &elu_f32, arg("x"), arg("alpha"), "float32 Elu as MindSpore 2.10's CPU (nnacl) computes it.");
}

}  // namespace mscpu
