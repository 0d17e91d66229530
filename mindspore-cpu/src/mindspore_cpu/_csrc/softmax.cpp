// float32 Softmax over the last axis and its gradient, bit for bit as MindSpore 2.10's CPU computes them.
//
// Softmax is nnacl's SoftmaxLastAxis, per row of n values:
//   m = max(x);  e = exp(x - m) by nnacl's polynomial exp;  sum: eight AVX lanes over the whole blocks of 8 (lane l
//   adds e[l], e[8 + l], ... from 0; the lanes then added in order), then one SSE block of 4 if 4 or more values
//   remain (added as ((e0 + e1) + e2) + e3), then the rest one by one;  y = e * (1 / sum).
// nnacl's exp clamps x to [log(FLT_MIN), log(FLT_MAX)], takes n = floor(x log2(e) + 1/2), d = x - n ln2 and
// 2 * 2^(n-1) * (1 + d (1 + d (1/2 + d (1/6 + d (1/24 + d/120))))), the seven multiply-adds fused (FMA, as 2.10's
// build compiles them). Here the AVX2+FMA path computes them with FMA instructions; a CPU without FMA uses std::fma,
// exact in software, so the results do not depend on the CPU.
//
// A row holding NaN or +inf, or no value above -inf (a sum of 0), is left to the caller (2.10 has its own rules there,
// which the family's kernel already follows): softmax_last_f32 returns the indices of such rows.
//
// Softmax's gradient is 2.10's graph Mul, ReduceSum, Sub, Mul: p = y * dy, its sum over the last axis (a 2-D input in
// nnacl's eight lanes, others accumulated in double: ordered_sums.h), dx = y * (dy - sum).
//
// float32 Exp is 2.10's nnacl exp too (exp_f32), with two differences from the one inside Softmax: NaN stays NaN, and
// the result is (2^(n-1) t) * 2, so that it stays finite up to log(FLT_MAX) and rounds as 2.10's near FLT_MIN.
//
// No multiply-add may be fused unless written as one (FMA would change the bits): GCC contracts by default.
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MSCPU_SOFTMAX_X86 1
#else
#define MSCPU_SOFTMAX_X86 0
#endif

#include "common.h"
#include "ordered_sums.h"

namespace mscpu {
namespace {

constexpr float kExpLo = -87.3365478515625f;   // logf(FLT_MIN)
constexpr float kExpHi = 88.72283935546875f;   // logf(FLT_MAX)
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2 = 0.693147f;
constexpr float kC5 = 1.0f / 120, kC4 = 1.0f / 24, kC3 = 1.0f / 6;

inline float exp_scale(float n) {   // 2^(n - 1) as nnacl builds it from the exponent bits
    const int32_t bits = (static_cast<int32_t>(n) + 126) << 23;
    float v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

// nnacl's exp of one value with std::fma (a library call, exact, where the CPU has no FMA).
inline float nnacl_exp(float x) {
    x = std::fmax(kExpLo, std::fmin(kExpHi, x));
    const float n = std::floor(std::fma(x, kLog2e, 0.5f));
    const float d = std::fma(-n, kLn2, x);
    float t = std::fma(d, kC5, kC4);
    t = std::fma(d, t, kC3);
    t = std::fma(d, t, 0.5f);
    t = std::fma(d, t, 1.0f);
    t = std::fma(d, t, 1.0f);
    return 2.0f * exp_scale(n) * t;
}

// 2.10's float32 Exp of one value (std::fma: exact where the CPU has no FMA).
inline float exp_value(float x) {
    if (x != x) return x;
    const float c = std::fmax(kExpLo, std::fmin(kExpHi, x));
    const float n = std::floor(std::fma(c, kLog2e, 0.5f));
    const float d = std::fma(-n, kLn2, c);
    float t = std::fma(d, kC5, kC4);
    t = std::fma(d, t, kC3);
    t = std::fma(d, t, 0.5f);
    t = std::fma(d, t, 1.0f);
    t = std::fma(d, t, 1.0f);
    return (exp_scale(n) * t) * 2.0f;
}

void exp_block_portable(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = exp_value(x[i]);
}

// One row: returns false (and leaves y unspecified) when it holds NaN or +inf or sums to 0 (all -inf).
bool softmax_row_portable(const float* x, float* y, int64_t n) {
    float m = -FLT_MAX;
    bool nan = false;
    for (int64_t j = 0; j < n; ++j) {
        nan |= x[j] != x[j];
        m = x[j] > m ? x[j] : m;
    }
    if (nan || m == std::numeric_limits<float>::infinity()) return false;
    float lane[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        for (int l = 0; l < 8; ++l) {
            y[j + l] = nnacl_exp(x[j + l] - m);
            lane[l] += y[j + l];
        }
    }
    float h = lane[0];
    for (int l = 1; l < 8; ++l) h += lane[l];
    float sum = 0.0f;
    sum += h;
    if (j + 4 <= n) {
        for (int l = 0; l < 4; ++l) y[j + l] = nnacl_exp(x[j + l] - m);
        sum += ((y[j] + y[j + 1]) + y[j + 2]) + y[j + 3];
        j += 4;
    }
    for (; j < n; ++j) {
        y[j] = nnacl_exp(x[j] - m);
        sum += y[j];
    }
    if (sum == 0.0f) return false;
    const float inv = 1.0f / sum;
    for (j = 0; j < n; ++j) y[j] = y[j] * inv;
    return true;
}

#if MSCPU_SOFTMAX_X86
__attribute__((target("avx2,fma"))) inline float nnacl_exp_fma(float x) {
    x = std::fmax(kExpLo, std::fmin(kExpHi, x));
    const float n = std::floor(std::fma(x, kLog2e, 0.5f));
    const float d = std::fma(-n, kLn2, x);
    float t = std::fma(d, kC5, kC4);
    t = std::fma(d, t, kC3);
    t = std::fma(d, t, 0.5f);
    t = std::fma(d, t, 1.0f);
    t = std::fma(d, t, 1.0f);
    return 2.0f * exp_scale(n) * t;
}

__attribute__((target("avx2,fma"))) inline __m256 nnacl_exp8(__m256 x) {
    x = _mm256_max_ps(_mm256_set1_ps(kExpLo), _mm256_min_ps(x, _mm256_set1_ps(kExpHi)));
    const __m256 n = _mm256_floor_ps(_mm256_fmadd_ps(x, _mm256_set1_ps(kLog2e), _mm256_set1_ps(0.5f)));
    const __m256 d = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2), x);
    __m256 t = _mm256_fmadd_ps(d, _mm256_set1_ps(kC5), _mm256_set1_ps(kC4));
    t = _mm256_fmadd_ps(d, t, _mm256_set1_ps(kC3));
    t = _mm256_fmadd_ps(d, t, _mm256_set1_ps(0.5f));
    t = _mm256_fmadd_ps(d, t, _mm256_set1_ps(1.0f));
    t = _mm256_fmadd_ps(d, t, _mm256_set1_ps(1.0f));
    const __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(126)), 23);
    return _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(2.0f), _mm256_castsi256_ps(bits)), t);
}

// 2.10's Exp of the eight values at x into y.
__attribute__((target("avx2,fma"))) inline void exp8(const float* x, float* y) {
    const __m256 v = _mm256_loadu_ps(x);
    const __m256 c = _mm256_max_ps(_mm256_set1_ps(kExpLo), _mm256_min_ps(v, _mm256_set1_ps(kExpHi)));
    const __m256 k = _mm256_floor_ps(_mm256_fmadd_ps(c, _mm256_set1_ps(kLog2e), _mm256_set1_ps(0.5f)));
    const __m256 d = _mm256_fnmadd_ps(k, _mm256_set1_ps(kLn2), c);
    __m256 t = _mm256_fmadd_ps(d, _mm256_set1_ps(kC5), _mm256_set1_ps(kC4));
    t = _mm256_fmadd_ps(d, t, _mm256_set1_ps(kC3));
    t = _mm256_fmadd_ps(d, t, _mm256_set1_ps(0.5f));
    t = _mm256_fmadd_ps(d, t, _mm256_set1_ps(1.0f));
    t = _mm256_fmadd_ps(d, t, _mm256_set1_ps(1.0f));
    const __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(k), _mm256_set1_epi32(126)), 23);
    const __m256 e = _mm256_mul_ps(_mm256_mul_ps(_mm256_castsi256_ps(bits), t), _mm256_set1_ps(2.0f));
    _mm256_storeu_ps(y, _mm256_blendv_ps(e, v, _mm256_cmp_ps(v, v, _CMP_UNORD_Q)));   // NaN stays NaN
}

__attribute__((target("avx2,fma"))) void exp_block_avx2(const float* x, float* y, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) exp8(x + i, y + i);
    if (i < n) {   // the last few values through the same vector code
        float in[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f}, out[8];
        std::memcpy(in, x + i, static_cast<size_t>(n - i) * sizeof(float));
        exp8(in, out);
        std::memcpy(y + i, out, static_cast<size_t>(n - i) * sizeof(float));
    }
}

__attribute__((target("avx2,fma"))) bool softmax_row_avx2(const float* x, float* y, int64_t n) {
    __m256 mv = _mm256_set1_ps(-FLT_MAX);
    __m256 unordered = _mm256_setzero_ps();
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        const __m256 v = _mm256_loadu_ps(x + j);
        unordered = _mm256_or_ps(unordered, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        mv = _mm256_max_ps(mv, v);
    }
    alignas(32) float buf[8];
    _mm256_store_ps(buf, mv);
    float m = buf[0];
    for (int l = 1; l < 8; ++l) m = buf[l] > m ? buf[l] : m;
    bool nan = _mm256_movemask_ps(unordered) != 0;
    for (int64_t k = j; k < n; ++k) {
        nan |= x[k] != x[k];
        m = x[k] > m ? x[k] : m;
    }
    if (nan || m == std::numeric_limits<float>::infinity()) return false;
    mv = _mm256_set1_ps(m);
    __m256 acc = _mm256_setzero_ps();
    for (j = 0; j + 8 <= n; j += 8) {
        const __m256 e = nnacl_exp8(_mm256_sub_ps(_mm256_loadu_ps(x + j), mv));
        _mm256_storeu_ps(y + j, e);
        acc = _mm256_add_ps(acc, e);
    }
    _mm256_store_ps(buf, acc);
    float h = buf[0];
    for (int l = 1; l < 8; ++l) h += buf[l];
    float sum = 0.0f;
    sum += h;
    if (j + 4 <= n) {
        for (int l = 0; l < 4; ++l) y[j + l] = nnacl_exp_fma(x[j + l] - m);
        sum += ((y[j] + y[j + 1]) + y[j + 2]) + y[j + 3];
        j += 4;
    }
    for (; j < n; ++j) {
        y[j] = nnacl_exp_fma(x[j] - m);
        sum += y[j];
    }
    if (sum == 0.0f) return false;
    const float inv = 1.0f / sum;
    const __m256 iv = _mm256_set1_ps(inv);
    for (j = 0; j + 8 <= n; j += 8) _mm256_storeu_ps(y + j, _mm256_mul_ps(_mm256_loadu_ps(y + j), iv));
    for (; j < n; ++j) y[j] = y[j] * inv;
    return true;
}

#endif

using RowFn = bool (*)(const float*, float*, int64_t);

RowFn softmax_row_fn() {
#if MSCPU_SOFTMAX_X86
    if (ordered::has_avx2_fma()) return softmax_row_avx2;
#endif
    return softmax_row_portable;
}

using BlockFn = void (*)(const float*, float*, int64_t);

BlockFn exp_block_fn() {
#if MSCPU_SOFTMAX_X86
    if (ordered::has_avx2_fma()) return exp_block_avx2;
#endif
    return exp_block_portable;
}

// body(r0, r1) over row ranges, split among the team when the work is worth it.
template <typename F>
void over_rows(int64_t rows, double work, F&& body) {
    if (!worth_parallel(work, kParallelVisits) || rows < 2) {
        body(0, rows);
        return;
    }
    parallel(max_threads(), [&](int tid, int nt) {
        int64_t lo, hi;
        static_range(rows, tid, nt, lo, hi);
        if (lo < hi) body(lo, hi);
    });
}

void check_f32(const std::string& where, const char* name, const py::array& a) {
    check_array(where, name, a, -1);
    if (dtype_of(a) != DType::f32) fail(where, std::string("'") + name + "' must be float32");
    if (a.ndim() < 1) fail(where, std::string("'") + name + "' must have at least 1 dimension");
}

py::tuple softmax_last_f32(const py::array& x) {
    const std::string where = "softmax_last_f32";
    check_f32(where, "x", x);
    const int64_t n = x.shape(x.ndim() - 1);
    const int64_t rows = n ? x.size() / n : 0;
    py::array_t<float> y(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    std::vector<uint8_t> ok(static_cast<size_t>(rows), 1);
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    {
        py::gil_scoped_release release;
        const RowFn row = softmax_row_fn();
        over_rows(rows, 12.0 * rows * n, [&](int64_t r0, int64_t r1) {
            for (int64_t r = r0; r < r1; ++r) ok[r] = row(px + r * n, py_ + r * n, n);
        });
    }
    std::vector<int64_t> bad;
    for (int64_t r = 0; r < rows; ++r) {
        if (!ok[r]) bad.push_back(r);
    }
    py::array_t<int64_t> bad_rows(static_cast<py::ssize_t>(bad.size()));
    if (!bad.empty()) std::memcpy(bad_rows.mutable_data(), bad.data(), bad.size() * sizeof(int64_t));
    return py::make_tuple(y, bad_rows);
}

// y * (dy - sum(y * dy)) per row; the products go through dx, which then receives the result.
// (in chunks of rows that stay in cache between the three passes)
void softmax_grad_rows(const float* y, const float* dy, float* dx, int64_t n, int64_t r0, int64_t r1, bool lanes) {
    const int64_t chunk = std::max<int64_t>(8, std::min<int64_t>(64, (16 << 10) / std::max<int64_t>(n, 1)) / 8 * 8);
    float sums[64];
    for (int64_t r = r0; r < r1; r += chunk) {
        const int64_t count = std::min(chunk, r1 - r);
        for (int64_t i = 0; i < count * n; ++i) dx[r * n + i] = y[r * n + i] * dy[r * n + i];
        if (lanes) {
            for (int64_t i = 0; i < count; ++i) sums[i] = ordered::lane8_sum(dx + (r + i) * n, n);
        } else {
            ordered::double_sums(dx + r * n, n, count, sums);
        }
        for (int64_t i = 0; i < count; ++i) {
            const float *yr = y + (r + i) * n, *dr = dy + (r + i) * n;
            float* o = dx + (r + i) * n;
            const float s = sums[i];
            for (int64_t j = 0; j < n; ++j) o[j] = yr[j] * (dr[j] - s);
        }
    }
}

py::array softmax_grad_last_f32(const py::array& y, const py::array& dy) {
    const std::string where = "softmax_grad_last_f32";
    check_f32(where, "y", y);
    check_f32(where, "dy", dy);
    if (y.ndim() != dy.ndim() || !std::equal(y.shape(), y.shape() + y.ndim(), dy.shape())) {
        fail(where, "'y' " + shape_str(y) + " and 'dy' " + shape_str(dy) + " differ");
    }
    const int64_t n = y.shape(y.ndim() - 1);
    const int64_t rows = n ? y.size() / n : 0;
    // 2.10's ReduceSum takes a 2-D input over axis 1 in nnacl's lanes, any other rank through double
    const bool lanes = y.ndim() == 2;
    py::array_t<float> dx(std::vector<py::ssize_t>(y.shape(), y.shape() + y.ndim()));
    const float *py_ = cptr<float>(y), *pdy = cptr<float>(dy);
    float* pdx = mptr(dx);
    py::gil_scoped_release release;
    over_rows(rows, 5.0 * rows * n, [&](int64_t r0, int64_t r1) {
        softmax_grad_rows(py_, pdy, pdx, n, r0, r1, lanes);
    });
    return std::move(dx);
}

py::array exp_f32(const py::array& x) {
    const std::string where = "exp_f32";
    check_array(where, "x", x, -1);
    if (dtype_of(x) != DType::f32) fail(where, "'x' must be float32");
    const int64_t n = x.size();
    py::array_t<float> y(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    py::gil_scoped_release release;
    const BlockFn block = exp_block_fn();
    over_chunks(n, 4096, 10.0 * n, [&](int64_t lo, int64_t hi) { block(px + lo, py_ + lo, hi - lo); });
    return std::move(y);
}

}  // namespace

void register_softmax(py::module_& m) {
    using py::arg;
    m.def("softmax_last_f32", &softmax_last_f32, arg("x"),
          "float32 Softmax over the last axis as MindSpore 2.10's CPU (nnacl's SoftmaxLastAxis) computes it, bit for "
          "bit: (y, indices of the rows holding NaN or +inf or summing to 0, which are left unspecified).");
    m.def("softmax_grad_last_f32", &softmax_grad_last_f32, arg("y"), arg("dy"),
          "float32 y * (dy - sum(y * dy)) over the last axis, the sum in 2.10's ReduceSum order (eight lanes for a "
          "2-D input, double otherwise).");
    m.def("exp_f32", &exp_f32, arg("x"),
          "float32 Exp as MindSpore 2.10's CPU (nnacl's polynomial exp) computes it, bit for bit (NaN kept, +-inf and "
          "overflow as 2.10's).");
}

}  // namespace mscpu
