// float32 Log bit for bit as MindSpore 2.10's CPU computes it.
//
// 2.10's Log kernel hands the whole tensor (one chunk: its thread search starts with a single block) to nnacl's
// ElementLog, which runs its SIMD log over the blocks of 16, 8 and 4 values and glibc's logf over the last n % 4
// values (the same split whatever the vector width: 16 and 8 are multiples of 4). nnacl's SIMD log of x = 2^e m,
// m in [1, 2) taken from the bits (the sign bit kept in m, which does not matter: negatives become NaN):
//   z = (m - 1) / (m + 1),  s = z^2,
//   r = (((s/11 + 1/9) s + 1/7) s + 1/5) s + 1/3,  p = s r + 1,
//   log x = (z p) 2 + e ln2,   every "a b + c" one fused multiply-add, e ln2 one rounded product,
// with ln2 = 0.693147003650665 (0x3f317215), the reciprocals rounded to float. Then x = 0 gives -inf, +inf gives +inf,
// NaN and x < 0 give NaN (the canonical quiet NaN, sign clear).
// If a value <= 0 falls in the logf tail, ElementLog reports an error and the kernel recomputes the whole chunk as
// float(log(double(x))). A subnormal x is taken as it is (2.10's kernel threads do not flush them): its exponent
// field reads as e = -127.
// The AVX2+FMA path computes exactly these operations with FMA instructions; elsewhere std::fma (exact in software),
// so the results do not depend on the CPU. (From its 6th call in a process, 2.10's kernel splits the tensor among
// its threads by a timing search, so that chunk ends move the logf tails; the first calls' single chunk is kept.)
//
// The family's other float32 kernels that 2.10 computes with the C library per value: glibc's logf
// (glibc_logf_f32: KLDivLoss; bce_f32: BinaryCrossEntropy), lgammaf (Lgamma), 2.10's float psi (Digamma), and the
// in-order row sums of L2Normalize and LpNorm.
//
// No multiply-add may be fused unless written as one (FMA would change the bits): GCC contracts by default.
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
#define MSCPU_LOG_X86 1
#else
#define MSCPU_LOG_X86 0
#endif

#include "common.h"
#include "ordered_sums.h"

namespace mscpu {
namespace {

using ordered::bits_of_float;
using ordered::float_of_bits;

constexpr uint32_t kExpMask = 0x7f800000u;
constexpr uint32_t kOneBits = 0x3f800000u;
constexpr uint32_t kNanBits = 0x7fc00000u;

// nnacl's coefficients as rounded in its tables (1/11, 1/9, 1/7, 1/5, 1/3 and its ln2)
const float kC11 = float_of_bits(0x3dba2e8cu), kC9 = float_of_bits(0x3de38e39u);
const float kC7 = float_of_bits(0x3e124925u), kC5 = float_of_bits(0x3e4ccccdu);
const float kC3 = float_of_bits(0x3eaaaaabu), kLn2 = float_of_bits(0x3f317215u);

// One value of nnacl's SIMD log.
inline float nnacl_log(float x) {
    const uint32_t b = bits_of_float(x);
    const uint32_t ebits = b & kExpMask;
    if (x == 0.f) return -std::numeric_limits<float>::infinity();
    if (b == kExpMask) return x;
    if (x != x || x < 0.f) return float_of_bits(kNanBits);
    const float m = float_of_bits((b & ~kExpMask) | kOneBits);
    const float e = static_cast<float>(static_cast<int32_t>(ebits >> 23) - 127) * kLn2;
    const float z = (m + -1.f) / (m + 1.f);
    const float s = z * z;
    float r = std::fma(s, kC11, kC9);
    r = std::fma(r, s, kC7);
    r = std::fma(r, s, kC5);
    r = std::fma(r, s, kC3);
    const float p = std::fma(s, r, 1.f);
    return std::fma(z * p, 2.f, e);
}

void log_block_portable(const float* x, float* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = nnacl_log(x[i]);
}

#if MSCPU_LOG_X86
__attribute__((target("avx2,fma"))) void log_block_avx2(const float* x, float* y, int64_t n) {
    const __m256i emask = _mm256_set1_epi32(static_cast<int>(kExpMask));
    const __m256i one_bits = _mm256_set1_epi32(static_cast<int>(kOneBits));
    const __m256 one = _mm256_set1_ps(1.f), minus_one = _mm256_set1_ps(-1.f), two = _mm256_set1_ps(2.f);
    const __m256 c11 = _mm256_set1_ps(kC11), c9 = _mm256_set1_ps(kC9), c7 = _mm256_set1_ps(kC7);
    const __m256 c5 = _mm256_set1_ps(kC5), c3 = _mm256_set1_ps(kC3), ln2 = _mm256_set1_ps(kLn2);
    const __m256 ninf = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
    const __m256 nan = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(kNanBits)));
    const __m256 zero = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        const __m256i b = _mm256_castps_si256(v);
        const __m256i eb = _mm256_and_si256(b, emask);
        const __m256 m = _mm256_castsi256_ps(_mm256_or_si256(_mm256_andnot_si256(emask, b), one_bits));
        const __m256 e = _mm256_mul_ps(
            _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_srli_epi32(eb, 23), _mm256_set1_epi32(127))), ln2);
        const __m256 z = _mm256_div_ps(_mm256_add_ps(m, minus_one), _mm256_add_ps(m, one));
        const __m256 s = _mm256_mul_ps(z, z);
        __m256 r = _mm256_fmadd_ps(s, c11, c9);
        r = _mm256_fmadd_ps(r, s, c7);
        r = _mm256_fmadd_ps(r, s, c5);
        r = _mm256_fmadd_ps(r, s, c3);
        const __m256 p = _mm256_fmadd_ps(s, r, one);
        __m256 res = _mm256_fmadd_ps(_mm256_mul_ps(z, p), two, e);
        const __m256 is_zero = _mm256_cmp_ps(v, zero, _CMP_EQ_OQ);
        const __m256 is_inf = _mm256_castsi256_ps(_mm256_cmpeq_epi32(b, emask));
        const __m256 is_bad = _mm256_or_ps(_mm256_cmp_ps(v, zero, _CMP_UNORD_Q), _mm256_cmp_ps(v, zero, _CMP_LT_OQ));
        res = _mm256_blendv_ps(res, ninf, is_zero);
        res = _mm256_blendv_ps(res, v, is_inf);
        res = _mm256_blendv_ps(res, nan, is_bad);
        _mm256_storeu_ps(y + i, res);
    }
    for (; i < n; ++i) y[i] = nnacl_log(x[i]);
}

#endif

using BlockFn = void (*)(const float*, float*, int64_t);

constexpr int64_t kChunk = 4096;   // the values (or rows) a member of the team takes at a time

BlockFn log_block_fn() {
#if MSCPU_LOG_X86
    if (ordered::has_avx2_fma()) return log_block_avx2;
#endif
    return log_block_portable;
}

py::array log_f32(const py::array& x) {
    const std::string where = "log_f32";
    check_array(where, "x", x, -1);
    if (dtype_of(x) != DType::f32) fail(where, "'x' must be float32");
    const int64_t n = x.size();
    py::array_t<float> y(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    py::gil_scoped_release release;
    const int64_t body = n - n % 4;
    bool fallback = false;
    for (int64_t i = body; i < n; ++i) fallback = fallback || px[i] <= 0.f;   // (a NaN passes)
    if (fallback) {   // ElementLog failed: the whole chunk in double
        over_chunks(n, kChunk, 20.0 * n, [&](int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i) py_[i] = static_cast<float>(std::log(static_cast<double>(px[i])));
        });
        return std::move(y);
    }
    const BlockFn block = log_block_fn();
    over_chunks(body, kChunk, 10.0 * body, [&](int64_t lo, int64_t hi) { block(px + lo, py_ + lo, hi - lo); });
    for (int64_t i = body; i < n; ++i) py_[i] = std::log(px[i]);   // glibc's logf, as nnacl's tail
    return std::move(y);
}

// glibc's logf of every value: 2.10's float32 kernels that call std::log per value (BinaryCrossEntropy, KLDivLoss).
py::array glibc_logf_f32(const py::array& x) {
    const std::string where = "glibc_logf_f32";
    check_array(where, "x", x, -1);
    if (dtype_of(x) != DType::f32) fail(where, "'x' must be float32");
    const int64_t n = x.size();
    py::array_t<float> y(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    py::gil_scoped_release release;
    over_chunks(n, kChunk, 20.0 * n, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) py_[i] = std::log(px[i]);
    });
    return std::move(y);
}

// glibc's lgammaf of every value (its reentrant form: the sign of Gamma goes to a local), as 2.10's float32 Lgamma.
py::array glibc_lgammaf_f32(const py::array& x) {
    const std::string where = "glibc_lgammaf_f32";
    check_array(where, "x", x, -1);
    if (dtype_of(x) != DType::f32) fail(where, "'x' must be float32");
    const int64_t n = x.size();
    py::array_t<float> y(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    py::gil_scoped_release release;
    over_chunks(n, kChunk, 40.0 * n, [&](int64_t lo, int64_t hi) {
#ifdef __GLIBC__
        int sign = 0;
        for (int64_t i = lo; i < hi; ++i) py_[i] = ::lgammaf_r(px[i], &sign);
#else
        for (int64_t i = lo; i < hi; ++i) py_[i] = std::lgamma(px[i]);
#endif
    });
    return std::move(y);
}

// psi(x) as 2.10's float32 Digamma computes it: the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10 (exactly 10:
// psi(10)), then log(x) - 1/(2x) - z P(z) with z = 1/x^2 (the square in float, its reciprocal in double) and P the
// asymptotic series' coefficients rounded to float, log glibc's logf; a negative non-integer by the reflection
// psi(1 - x) - pi / tan(pi r) in double (r the fractional part of x), rounded once; 0 gives -inf (-0: +inf),
// negative integers NaN.
float digamma_2_10(float x) {
    static const float kSeries[7] = {8.33333333333333333333E-2f,  -2.10927960927960927961E-2f,
                                     7.57575757575757575758E-3f,  -4.16666666666666666667E-3f,
                                     3.96825396825396825397E-3f,  -8.33333333333333333333E-3f,
                                     8.33333333333333333333E-2f};
    const float kPi = 3.14159265358979323846f;
    if (x == 0.f) return std::copysign(std::numeric_limits<float>::infinity(), -x);
    if (x < 0.f) {
        if (x == std::trunc(x)) return std::numeric_limits<float>::quiet_NaN();
        double whole;
        const double r = std::modf(static_cast<double>(x), &whole);
        return static_cast<float>(static_cast<double>(digamma_2_10(1.f - x)) -
                                  static_cast<double>(kPi) / std::tan(static_cast<double>(kPi) * r));
    }
    float acc = 0.f;
    while (x < 10.f) {   // (a NaN skips it)
        acc -= 1.f / x;
        x += 1.f;
    }
    if (x == 10.f) return acc + 2.25175258906672110764f;
    float tail = 0.f;
    if (static_cast<double>(x) < 1.0e17) {
        const float z = static_cast<float>(1.0 / static_cast<double>(x * x));
        float poly = 0.f;
        for (float a : kSeries) poly = poly * z + a;
        tail = z * poly;
    }
    return acc + std::log(x) - 0.5f / x - tail;
}

py::array digamma_f32(const py::array& x) {
    const std::string where = "digamma_f32";
    check_array(where, "x", x, -1);
    if (dtype_of(x) != DType::f32) fail(where, "'x' must be float32");
    const int64_t n = x.size();
    py::array_t<float> y(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    const float* px = cptr<float>(x);
    float* py_ = mptr(y);
    py::gil_scoped_release release;
    over_chunks(n, kChunk, 60.0 * n, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) py_[i] = digamma_2_10(px[i]);
    });
    return std::move(y);
}

// Each row of a 2-D float32 array added left to right in float from its first value (2.10's L2Normalize and LpNorm
// over their axis).
py::array row_sums_in_order_f32(const py::array& x) {
    const std::string where = "row_sums_in_order_f32";
    check_array(where, "x", x, 2);
    if (dtype_of(x) != DType::f32) fail(where, "'x' must be float32");
    const int64_t rows = x.shape(0), n = x.shape(1);
    py::array_t<float> out(static_cast<py::ssize_t>(rows));
    const float* p = cptr<float>(x);
    float* o = mptr(out);
    py::gil_scoped_release release;
    over_chunks(rows, kChunk, 1.0 * rows * n, [&](int64_t r0, int64_t r1) {
        int64_t r = r0;
        for (; r + 8 <= r1; r += 8) {   // eight rows at a time: eight independent chains of additions
            float t[8];
            for (int k = 0; k < 8; ++k) t[k] = n ? p[(r + k) * n] : 0.f;
            for (int64_t j = 1; j < n; ++j) {
                for (int k = 0; k < 8; ++k) t[k] += p[(r + k) * n + j];
            }
            for (int k = 0; k < 8; ++k) o[r + k] = t[k];
        }
        for (; r < r1; ++r) {
            const float* row = p + r * n;
            float t = n ? row[0] : 0.f;
            for (int64_t j = 1; j < n; ++j) t += row[j];
            o[r] = t;
        }
    });
    return std::move(out);
}

// 2.10's float32 BinaryCrossEntropy before its reduction: -(y log(x + 1e-12) + (1 - y) log(1 - x + 1e-12)), times
// the weight when there is one (2.10 writes -w (...): the same bits), each log glibc's logf, no operation fused.
py::array bce_f32(const py::array& x, const py::array& y, const py::object& weight) {
    const std::string where = "bce_f32";
    check_array(where, "x", x, -1);
    check_array(where, "y", y, -1);
    const bool weighted = !weight.is_none();
    py::array w = weighted ? py::array(weight) : x;
    if (weighted) check_array(where, "weight", w, -1);
    for (const py::array* a : std::initializer_list<const py::array*>{&x, &y, &w}) {
        if (dtype_of(*a) != DType::f32) fail(where, "all inputs must be float32");
        if (a->size() != x.size()) fail(where, "all inputs must have " + std::to_string(x.size()) + " values");
    }
    const int64_t n = x.size();
    py::array_t<float> out(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    const float *px = cptr<float>(x), *py_ = cptr<float>(y), *pw = cptr<float>(w);
    float* po = mptr(out);
    py::gil_scoped_release release;
    const float eps = 1e-12f, one = 1.f;
    over_chunks(n, kChunk, 40.0 * n, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) {
            const float a = py_[i] * std::log(px[i] + eps);
            const float b = (one - py_[i]) * std::log(one - px[i] + eps);
            po[i] = weighted ? -pw[i] * (a + b) : -(a + b);
        }
    });
    return std::move(out);
}

}  // namespace

void register_log_f32(py::module_& m) {
    m.def("log_f32", &log_f32, py::arg("x"),
          "float32 Log as MindSpore 2.10's CPU computes it, bit for bit: nnacl's SIMD log over the first n - n % 4 "
          "values, glibc's logf over the rest (or, when one of those is <= 0, float(log(double(x))) throughout).");
    m.def("glibc_logf_f32", &glibc_logf_f32, py::arg("x"),
          "float32 log of every value by the C library's logf, as 2.10's per-value float32 kernels "
          "(BinaryCrossEntropy, KLDivLoss) compute it.");
    m.def("glibc_lgammaf_f32", &glibc_lgammaf_f32, py::arg("x"),
          "float32 log|Gamma(x)| of every value by the C library's lgammaf, as MindSpore 2.10's CPU Lgamma "
          "computes it.");
    m.def("digamma_f32", &digamma_f32, py::arg("x"),
          "float32 Digamma as MindSpore 2.10's CPU computes it, bit for bit (its float psi, glibc's logf).");
    m.def("row_sums_in_order_f32", &row_sums_in_order_f32, py::arg("x"),
          "Each row of a 2-D float32 array added left to right in float (2.10's L2Normalize and LpNorm order).");
    m.def("bce_f32", &bce_f32, py::arg("x"), py::arg("y"), py::arg("weight") = py::none(),
          "float32 BinaryCrossEntropy's per-value losses (weighted when a weight is given) as MindSpore 2.10's CPU "
          "computes them, bit for bit (glibc's logf).");
}

}  // namespace mscpu
