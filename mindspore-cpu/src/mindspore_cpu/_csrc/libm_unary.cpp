// MindSpore 2.10's CPU trigonometric, hyperbolic, error-function, log1p/expm1, atan2 and float32 pow kernels, bit
// for bit (pow: see its section below).
//
// What 2.10 computes (its arithmetic_self, arithmetic, log1p and expm1 CPU kernels): for float32 most functions
// widen the value to double, call the C library's double function and round the result to float32 once
// (sin, cos, tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh, erfc, atan2); erf calls the C library's
// float32 erff; log1p is logf(x + 1) and expm1 is expf(x) - 1, each step in float32 (so log1p(1e-8) is 0 and
// expm1 near 0 carries expf's absolute error: thousands of ulps from the exact expm1 there). For float64 the same
// expressions run in double. NumPy's float32 functions are SIMD approximations a few ulps off (2,000-8,000 of
// 20,000 values differed); its float64 ones differ from glibc's in the last bit now and then.
//
// Why a loop over the C library here: those are the functions 2.10 calls, so the user's own C library gives both
// the same bits; they do not depend on the CPU's ISA (no SIMD, no FMA contraction: the loops call out). The
// values split among the kernels' team (team.h) in fixed chunks, so the bits never depend on the thread count.
// Speed is 2.10's (its loops are these calls), some 20-60x NumPy's float32 approximations.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common.h"

// Pow's float32 steps are two roundings each (2.10's SSE2 build has no FMA): never contract a * b + c. Not
// trapping lets the compiler compute both arms of a select, so that Pow's loops vectorise (values unchanged).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off", "no-trapping-math")
#endif

namespace mscpu {
namespace {

using F32 = float (*)(float);
using F64 = double (*)(double);

template <F64 f>
float widened(float v) {
    return static_cast<float>(f(static_cast<double>(v)));
}

// Named wrappers: taking the address of a <cmath> overload set is ambiguous.
double c_sin(double v) { return std::sin(v); }
double c_cos(double v) { return std::cos(v); }
double c_tan(double v) { return std::tan(v); }
double c_asin(double v) { return std::asin(v); }
double c_acos(double v) { return std::acos(v); }
double c_atan(double v) { return std::atan(v); }
double c_sinh(double v) { return std::sinh(v); }
double c_cosh(double v) { return std::cosh(v); }
double c_asinh(double v) { return std::asinh(v); }
double c_acosh(double v) { return std::acosh(v); }
double c_atanh(double v) { return std::atanh(v); }
double c_erf(double v) { return std::erf(v); }
double c_erfc(double v) { return std::erfc(v); }
double c_log1p(double v) { return std::log(v + 1.0); }  // 2.10's Log1p: log(x + 1), not log1p
double c_expm1(double v) { return std::exp(v) - 1.0; }  // 2.10's Expm1: exp(x) - 1, not expm1
float c_erff(float v) { return std::erf(v); }
float c_log1pf(float v) { return std::log(v + 1.0f); }
float c_expm1f(float v) { return std::exp(v) - 1.0f; }

struct Entry {
    const char* name;
    F32 f32;
    F64 f64;
};

const Entry kTable[] = {
    {"sin", widened<c_sin>, c_sin},       {"cos", widened<c_cos>, c_cos},       {"tan", widened<c_tan>, c_tan},
    {"asin", widened<c_asin>, c_asin},    {"acos", widened<c_acos>, c_acos},    {"atan", widened<c_atan>, c_atan},
    {"sinh", widened<c_sinh>, c_sinh},    {"cosh", widened<c_cosh>, c_cosh},    {"asinh", widened<c_asinh>, c_asinh},
    {"acosh", widened<c_acosh>, c_acosh}, {"atanh", widened<c_atanh>, c_atanh}, {"erf", c_erff, c_erf},
    {"erfc", widened<c_erfc>, c_erfc},    {"log1p", c_log1pf, c_log1p},         {"expm1", c_expm1f, c_expm1},
};

const Entry& lookup(const std::string& name) {
    for (const Entry& e : kTable) {
        if (name == e.name) return e;
    }
    std::string known;
    for (const Entry& e : kTable) known += std::string(known.empty() ? "" : ", ") + e.name;
    fail("libm_unary", "unknown function '" + name + "' (known: " + known + ")");
}

// A libm call costs some 10-20 element visits; Pow's chunks are whole packets of 4 (each value takes the path it takes
// in one 2.10 task).
constexpr int64_t kLibmChunk = 2048, kPacketChunk = 2048;

template <typename T>
py::array like(const py::array& x) {
    return py::array_t<T>(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
}

py::array libm_unary(const py::array& x, const std::string& name) {
    const std::string where = "libm_unary";
    const Entry& e = lookup(name);
    check_array(where, "x", x, -1);
    const DType dt = dtype_of(x);
    if (dt != DType::f32 && dt != DType::f64) fail(where, "'x' must be float32 or float64");
    const int64_t n = x.size();
    py::array y = dt == DType::f32 ? like<float>(x) : like<double>(x);
    const void* src = x.data();
    void* dst = y.mutable_data();
    py::gil_scoped_release release;
    if (dt == DType::f32) {
        const float* px = static_cast<const float*>(src);
        float* py_ = static_cast<float*>(dst);
        over_chunks(n, kLibmChunk, 15.0 * n, [&](int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i) py_[i] = e.f32(px[i]);
        });
    } else {
        const double* px = static_cast<const double*>(src);
        double* py_ = static_cast<double*>(dst);
        over_chunks(n, kLibmChunk, 15.0 * n, [&](int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i) py_[i] = e.f64(px[i]);
        });
    }
    return y;
}

// atan2 of two C-contiguous arrays of one shape and dtype (the caller broadcasts), in double as 2.10's Atan2.
py::array atan2_libm(const py::array& a, const py::array& b) {
    const std::string where = "atan2_libm";
    check_array(where, "y", a, -1);
    check_array(where, "x", b, -1);
    const DType dt = dtype_of(a);
    if ((dt != DType::f32 && dt != DType::f64) || dtype_of(b) != dt) {
        fail(where, "'y' and 'x' must both be float32 or both float64");
    }
    if (a.ndim() != b.ndim() || !std::equal(a.shape(), a.shape() + a.ndim(), b.shape())) {
        fail(where, "'y' and 'x' must have one shape, but got " + shape_str(a) + " and " + shape_str(b));
    }
    const int64_t n = a.size();
    py::array y = dt == DType::f32 ? like<float>(a) : like<double>(a);
    const void* pa = a.data();
    const void* pb = b.data();
    void* dst = y.mutable_data();
    py::gil_scoped_release release;
    if (dt == DType::f32) {
        const float* u = static_cast<const float*>(pa);
        const float* v = static_cast<const float*>(pb);
        float* w = static_cast<float*>(dst);
        over_chunks(n, kLibmChunk, 15.0 * n, [&](int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i) {
                w[i] = static_cast<float>(std::atan2(static_cast<double>(u[i]), static_cast<double>(v[i])));
            }
        });
    } else {
        const double* u = static_cast<const double*>(pa);
        const double* v = static_cast<const double*>(pb);
        double* w = static_cast<double*>(dst);
        over_chunks(n, kLibmChunk, 15.0 * n, [&](int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i) w[i] = std::atan2(u[i], v[i]);
        });
    }
    return y;
}

// --- Pow ------------------------------------------------------------------------------------------------------
// 2.10's float32 Pow runs Eigen's (3.4.90, late 2024) vectorised pow over four-value SSE packets (no FMA) and the C
// library's powf on the values left over after the last whole packet; a broadcast that is not "one exponent for
// every value" computes in double. Integer exponents in [-3, 7] of one value square repeatedly (1/x first when
// negative). Below, the packet algorithm, step for step in float32 (found from the constants in 2.10's binary and
// checked against 2.10 on 1.2M pairs, special values included; our own code):
// x = m 2^e with m in [sqrt(1/2), sqrt(2)); log2(m) as a double-word (hi + lo) from a degree-10 polynomial whose
// last three steps run in double-word arithmetic (Dekker's products with Veltkamp's 4097 split, as without FMA);
// f = y e + y log2(m) in double-word; f = n + r with n an integer and |r| <= 1/2; 2^r = exp(ln2 r) by Eigen's
// float exp (Cephes reduction, degree-6 polynomial) corrected by (1 + the product's low part); then 2^r scaled by
// 2^n exactly (one rounding where the result is subnormal, as Eigen's two ldexp versions both give). Special
// values follow its selects (C's pow rules, with NaN for a negative base and a non-integer exponent). 2.10's own
// thread split (tuned by timing) can put a few more powf values at its split points, and some of its calls flush
// subnormals; neither is modelled (see tests/api/test_float32_trig_2_10.py).
// Double-word arithmetic (Dekker's products, Veltkamp's split: no FMA), on a float or a double, alone or in a
// vector; the float32 and float64 Pow steps below share it.
namespace dw {

#define PW_INLINE inline __attribute__((always_inline))

typedef float V4 __attribute__((vector_size(16)));
typedef double D2 __attribute__((vector_size(16)));

// Veltkamp's constant 2^ceil(p / 2) + 1 for a p-bit significand
PW_INLINE float veltkamp(float) { return 4097.0f; }
PW_INLINE float veltkamp(V4) { return 4097.0f; }
PW_INLINE double veltkamp(double) { return 134217729.0; }
PW_INLINE double veltkamp(D2) { return 134217729.0; }

template <typename T> PW_INLINE void split(T a, T& hi, T& lo) {
    const T g = veltkamp(a) * a;
    const T r = a - g;
    hi = r + g;
    lo = a - hi;
}

template <typename T> PW_INLINE void two_prod(T x, T y, T& hi, T& lo) {
    T xh, xl, yh, yl;
    split(x, xh, xl);
    split(y, yh, yl);
    hi = x * y;
    lo = xh * yh + (-hi);
    lo = xh * yl + lo;
    lo = xl * yh + lo;
    lo = xl * yl + lo;
}

template <typename T> PW_INLINE void fast_two_sum(T x, T y, T& hi, T& lo) {
    hi = x + y;
    const T t = hi - x;
    lo = y - t;
}

// (xh + xl) + (yh + yl), |x| >= |y|.
template <typename T> PW_INLINE void dw_add(T xh, T xl, T yh, T yl, T& hi, T& lo) {
    T rh, rl;
    fast_two_sum(xh, yh, rh, rl);
    const T s = (yl + rl) + xl;
    fast_two_sum(rh, s, hi, lo);
}

// (xh + xl) * y.
template <typename T> PW_INLINE void dw_mul(T xh, T xl, T y, T& hi, T& lo) {
    T ch, cl1;
    two_prod(xh, y, ch, cl1);
    const T cl2 = xl * y;
    T th, tl1;
    fast_two_sum(ch, cl2, th, tl1);
    const T tl2 = tl1 + cl1;
    fast_two_sum(th, tl2, hi, lo);
}

}  // namespace dw

namespace pw {

// The packet steps are written once for a float and for four floats in a GCC/Clang vector (SSE2 on x86-64, plain
// scalar code elsewhere): the same float32 operations in the same order, so the two give the same bits; the loops
// run four values per vector, as 2.10's packets do, and never contract a * b + c (pragma above).
using dw::V4;
typedef int32_t I4 __attribute__((vector_size(16)));
typedef uint32_t U4 __attribute__((vector_size(16)));

template <typename T> struct Ty;
template <> struct Ty<float> { using I = int32_t; using U = uint32_t; using M = bool; };
template <> struct Ty<V4> { using I = I4; using U = U4; using M = I4; };
template <typename T> using I_ = typename Ty<T>::I;
template <typename T> using U_ = typename Ty<T>::U;
template <typename T> using M_ = typename Ty<T>::M;
using dw::dw_add;
using dw::dw_mul;
using dw::fast_two_sum;
using dw::split;
using dw::two_prod;


template <typename T> PW_INLINE T cst(float c) { return T{} + c; }
PW_INLINE bool not_(bool m) { return !m; }
PW_INLINE I4 not_(I4 m) { return ~m; }
PW_INLINE uint32_t bits(float v) { return __builtin_bit_cast(uint32_t, v); }
PW_INLINE U4 bits(V4 v) { return __builtin_bit_cast(U4, v); }
PW_INLINE float from_bits(uint32_t u) { return __builtin_bit_cast(float, u); }
PW_INLINE V4 from_bits(U4 u) { return __builtin_bit_cast(V4, u); }
PW_INLINE int32_t to_int(float v) { return static_cast<int32_t>(v); }
PW_INLINE I4 to_int(V4 v) { return __builtin_convertvector(v, I4); }
PW_INLINE float to_float(int32_t v) { return static_cast<float>(v); }
PW_INLINE V4 to_float(I4 v) { return __builtin_convertvector(v, V4); }
PW_INLINE uint32_t as_u(int32_t v) { return static_cast<uint32_t>(v); }
PW_INLINE U4 as_u(I4 v) { return __builtin_bit_cast(U4, v); }
PW_INLINE int32_t as_i(uint32_t v) { return static_cast<int32_t>(v); }
PW_INLINE I4 as_i(U4 v) { return __builtin_bit_cast(I4, v); }
template <typename T> PW_INLINE T abs_(T v) { return from_bits(bits(v) & 0x7FFFFFFFu); }

// floor and round-half-away-from-zero (exact: |v| < 2^23 goes through an int32; larger values are integers, and
// NaN comes back as itself).
template <typename T> PW_INLINE T floor_f(T v) {
    const M_<T> small = abs_(v) < 8388608.0f;
    const T vs = small ? v : cst<T>(0.0f);
    const T t = to_float(to_int(vs));
    const T f = t > vs ? t - 1.0f : t;
    return small ? f : v;
}

template <typename T> PW_INLINE T round_f(T v) {
    const M_<T> small = abs_(v) < 8388608.0f;
    const T vs = small ? v : cst<T>(0.0f);
    const T t = to_float(to_int(vs));   // towards zero
    const T d = vs - t;                  // exact
    const T r = d >= 0.5f ? t + 1.0f : (d <= -0.5f ? t - 1.0f : t);
    return small ? r : v;
}

// v * 2^k for an integral k (NaN: k = 0), one rounding as ldexp gives it: k clamped to [-278, 278] (beyond, every
// float32 result is 0 or inf) and applied as 2^b 2^b 2^b 2^(k - 3b) with b = floor(k / 4), each a normal float
// and every partial product normal until the last whenever the result is not 0.
template <typename T> PW_INLINE T scale2(T v, T k) {
    T kc = k > -278.0f ? k : cst<T>(-278.0f);
    kc = kc < 278.0f ? kc : cst<T>(278.0f);
    kc = k == k ? kc : cst<T>(0.0f);
    const I_<T> ki = to_int(kc);
    const I_<T> b = ki >> 2;
    const T c1 = from_bits(as_u(b + 127) << 23);
    const T c2 = from_bits(as_u(ki - 3 * b + 127) << 23);
    return v * c1 * c1 * c1 * c2;
}

// Mantissa in [1/2, 1) with its sign, and exponent (subnormals scaled by 2^24 first; 0, inf, NaN: itself and 0).
template <typename T> PW_INLINE T frexp_like(T a, T& e) {
    const M_<T> sub = abs_(a) < std::numeric_limits<float>::min();
    const T na = sub ? a * 16777216.0f : a;
    const T biased = to_float(as_i((bits(na) & 0x7FFFFFFFu) >> 23));
    const M_<T> keep = (a == 0.0f) | (biased == 255.0f);
    e = keep ? cst<T>(0.0f) : biased + (sub ? cst<T>(-150.0f) : cst<T>(-126.0f));
    return keep ? a : from_bits((bits(na) & 0x807FFFFFu) | 0x3F000000u);
}

constexpr double kC0 = 1.442695041742110273474963832995854318141937255859375e+00;
constexpr double kC1 = -7.2134751588268664068692714863573201000690460205078125e-01;
constexpr float kC0Hi = static_cast<float>(kC0);
constexpr float kC0Lo = static_cast<float>(kC0 - static_cast<double>(kC0Hi));
constexpr float kC1Hi = static_cast<float>(kC1);
constexpr float kC1Lo = static_cast<float>(kC1 - static_cast<double>(kC1Hi));
constexpr float kLog2Poly[] = {9.7010828554630279541015625e-02f,  -1.6896486282348632812500000e-01f,
                               1.7200836539268493652343750e-01f,  -1.7892272770404815673828125e-01f,
                               2.0505344867706298828125000e-01f,  -2.4046677350997924804687500e-01f,
                               2.8857553005218505859375000e-01f,  -3.6067414283752441406250000e-01f,
                               4.8089790344238281250000000e-01f};

// log2(z) for z in [sqrt(1/2), sqrt(2)) as hi + lo.
template <typename T> PW_INLINE void log2_dw(T z, T& hi, T& lo) {
    const T x = z - 1.0f;
    T p = cst<T>(kLog2Poly[0]);
    for (int k = 1; k < 9; ++k) p = p * x + kLog2Poly[k];
    T ph, pl;
    two_prod(x, p, ph, pl);
    dw_add(cst<T>(kC1Hi), cst<T>(kC1Lo), ph, pl, ph, pl);
    dw_mul(ph, pl, x, ph, pl);
    dw_add(cst<T>(kC0Hi), cst<T>(kC0Lo), ph, pl, ph, pl);
    dw_mul(ph, pl, x, hi, lo);
}

// Eigen's float exp for |x| <= 87 (the only range pow reaches): 2^m exp(r), m = floor(x log2(e) + 1/2).
template <typename T> PW_INLINE T exp_small(T x) {
    const T m = floor_f(x * 1.44269504088896341f + 0.5f);
    T r = m * -0.693359375f + x;
    r = m * 2.12194440e-4f + r;
    const T r2 = r * r;
    T even = r2 * 1.37449637986719608306884765625e-3f + 4.166965186595916748046875e-2f;
    const T odd = r2 * 8.36894474923610687255859375e-3f + 0.16666518151760101318359375f;
    even = r2 * even + 0.49999988079071044921875f;
    const T low = r + 1.0f;
    T y = r * odd + even;
    y = r2 * y + low;
    return scale2(y, m);
}

// 2^r for |r| <= 1/2 (clamped as Eigen clamps, to [-151, 129]).
template <typename T> PW_INLINE T exp2_small(T r) {
    T x = r < 129.0f ? r : cst<T>(129.0f);
    x = x > -151.0f ? x : cst<T>(-151.0f);
    T hi, lo;
    two_prod(cst<T>(0.693147180559945309417f), x, hi, lo);
    return exp_small(hi) * (1.0f + lo);
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// pow(x, y) for x > 0 (NaN in, NaN out; other x give values the callers replace).
template <typename T> PW_INLINE T pow_core(T x, T y) {
    T ex;
    T m = frexp_like(x, ex);
    const M_<T> low = m < 0.70710678118654752440f;
    m = low ? 2.0f * m : m;
    ex = low ? ex - 1.0f : ex;
    T rh, rl;
    log2_dw(m, rh, rl);
    T f1h, f1l, f2h, f2l, fh, fl;
    two_prod(ex, y, f1h, f1l);
    dw_mul(rh, rl, y, f2h, f2l);
    dw_add(f1h, f1l, f2h, f2l, fh, fl);
    T n = round_f(fh);
    T r = fh - n;
    r = r + fl;
    const T nr = round_f(r);
    r = r - nr;
    n = n + nr;
    const T p = scale2(exp2_small(r), n);
    return ((x != x) | (y != y)) ? cst<T>(kNaN) : p;
}

// The |y| from which (1 + eps)^y overflows: Eigen's 128 ln2 / eps in float32.
constexpr float kHugeExponent = (128.0f * 0.693147180559945309417f) / std::numeric_limits<float>::epsilon();

// Eigen's packet pow(x, y), special values included.
template <typename T> PW_INLINE T pow_packet(T x, T y) {
    const T ax = abs_(x);
    T p = pow_core(ax, y);
    const M_<T> x_neg = x < 0.0f, x_zero = x == 0.0f, x_one = x == 1.0f;
    const M_<T> x_sign = as_i(bits(x)) < 0;
    const M_<T> ax_gt_one = 1.0f < ax, ax_inf = ax == kInf;
    const T ay = abs_(y);
    const M_<T> ay_inf = ay == kInf, y_neg = y < 0.0f, y_zero = y == 0.0f, y_one = y == 1.0f;
    const M_<T> y_int = (floor_f(y) == y) & not_(ay_inf);
    const T half_y = y * 0.5f;
    const M_<T> y_even = round_f(half_y) == half_y;
    const M_<T> y_odd_int = y_int & not_(y_even);
    p = (x_neg & not_(y_int)) ? cst<T>(kNaN) : p;
    p = x_zero ? (y_neg ? cst<T>(kInf) : cst<T>(0.0f)) : p;
    p = (x_sign & y_odd_int) ? -p : p;
    T huge = ((y_neg & x_zero) | (y_neg ^ ax_gt_one)) ? cst<T>(kInf) : cst<T>(0.0f);
    huge = x == -1.0f ? cst<T>(1.0f) : huge;
    p = kHugeExponent <= ay ? huge : p;
    const T pos_inf_x = y_neg ? cst<T>(0.0f) : cst<T>(kInf);
    p = ax_inf ? ((x_neg & y_odd_int) ? -pos_inf_x : pos_inf_x) : p;
    p = ((x != x) | (y != y)) ? cst<T>(kNaN) : p;
    return y_one ? x : ((x_one | y_zero) ? cst<T>(1.0f) : p);
}

// Eigen's pow of x by one non-integer exponent e (as the packet and the tail both finish it): NaN for x < 0.
template <typename T> PW_INLINE T nonint_fixups(T x, T p, float e) {
    const bool e_fin = std::fabs(e) < kInf, e_neg = e < 0.0f, e_pos = e > 0.0f;
    const bool e_inf = !e_fin && (e_neg || e_pos), e_nan = !e_fin && !(e_neg || e_pos);
    const M_<T> x_le0 = x <= 0.0f, x_ge0 = 0.0f <= x, x_zero = x_le0 & x_ge0;
    const T ax = abs_(x);
    const M_<T> ax_le1 = ax <= 1.0f, ax_ge1 = 1.0f <= ax, ax_inf = ax == kInf, ax_one = ax_le1 & ax_ge1;
    const M_<T> inf_if_neg = e_inf ? (x_zero | ax_le1) : x_zero;
    const M_<T> inf_if_pos = e_inf ? (ax_inf | ax_ge1) : ax_inf;
    p = x_le0 ? cst<T>(kNaN) : p;
    p = inf_if_neg ? cst<T>(e_neg ? kInf : 0.0f) : p;
    p = inf_if_pos ? cst<T>(e_pos ? kInf : 0.0f) : p;
    p = e_nan ? cst<T>(kNaN) : p;
    return (e_inf ? ax_one : (ax_one & x_ge0)) ? cst<T>(1.0f) : p;
}

PW_INLINE V4 load4(const float* p) {
    V4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

PW_INLINE void store4(float* p, V4 v) { std::memcpy(p, &v, sizeof v); }

// x^e for an integer e by repeated squaring (1/x first when e < 0).
PW_INLINE float int_pow(float x, int e) {
    if (e == 0) return 1.0f;
    float base = e < 0 ? 1.0f / x : x;
    float acc = 1.0f;
    for (int m = e < 0 ? -e : e; m > 1; m >>= 1) {
        if (m & 1) acc = acc * base;
        base = base * base;
    }
    return acc * base;
}

enum class ScalarKind { int_squaring, generic, nonint };

PW_INLINE ScalarKind kind_of(float e) {
    if (std::isfinite(e) && std::round(e) == e) {
        return (e <= 7.0f && e >= -3.0f) ? ScalarKind::int_squaring : ScalarKind::generic;
    }
    return ScalarKind::nonint;
}

// One exponent e for every value: whole packets by Eigen's algorithm, the last n % 4 values as Eigen's scalar
// path (powf, finished by the non-integer fix-ups for a non-integer e).
void pow_scalar_range(const float* x, float e, float* y, int64_t lo, int64_t hi, int64_t packed_end) {
    const ScalarKind kind = kind_of(e);
    const int64_t mid = std::min(hi, std::max(lo, packed_end));   // lo and packed_end are multiples of 4
    if (kind == ScalarKind::int_squaring) {   // (Eigen's scalar path for the leftover values is powf here too)
        const int k = static_cast<int>(e);
        for (int64_t i = lo; i < mid; ++i) y[i] = int_pow(x[i], k);
        for (int64_t i = mid; i < hi; ++i) y[i] = std::pow(x[i], e);
        return;
    }
    const V4 ev = cst<V4>(e);
    if (kind == ScalarKind::generic) {
        for (int64_t i = lo; i < mid; i += 4) store4(y + i, pow_packet(load4(x + i), ev));
        for (int64_t i = mid; i < hi; ++i) y[i] = std::pow(x[i], e);
    } else {
        for (int64_t i = lo; i < mid; i += 4) {
            const V4 v = load4(x + i);
            store4(y + i, nonint_fixups(v, pow_core(v, ev), e));
        }
        for (int64_t i = mid; i < hi; ++i) y[i] = nonint_fixups(x[i], std::pow(x[i], e), e);
    }
}

void pow_pair_range(const float* x, const float* e, float* y, int64_t lo, int64_t hi, int64_t packed_end) {
    const int64_t mid = std::min(hi, std::max(lo, packed_end));
    for (int64_t i = lo; i < mid; i += 4) store4(y + i, pow_packet(load4(x + i), load4(e + i)));
    for (int64_t i = mid; i < hi; ++i) y[i] = std::pow(x[i], e[i]);
}


}  // namespace pw

// float64 Pow: the same Eigen algorithm on two-double packets, with its double pieces: log2(m) from
// r = 2 log2(e) (m - 1) / (m + 1) by an odd polynomial (a degree-12 one in r^2 plus double-word steps), exp by
// Cephes' rational approximation, Veltkamp's split at 2^27 + 1. Written once for a double and for two doubles in a
// vector, as the float32 steps are.
namespace pwd {

using dw::D2;
typedef int64_t L2 __attribute__((vector_size(16)));
typedef uint64_t UL2 __attribute__((vector_size(16)));

template <typename T> struct Ty;
template <> struct Ty<double> { using I = int64_t; using M = bool; };
template <> struct Ty<D2> { using I = L2; using M = L2; };
template <typename T> using I_ = typename Ty<T>::I;
template <typename T> using M_ = typename Ty<T>::M;
using dw::dw_add;
using dw::dw_mul;
using dw::fast_two_sum;
using dw::split;
using dw::two_prod;


template <typename T> PW_INLINE T cst(double c) { return T{} + c; }
PW_INLINE bool not_(bool m) { return !m; }
PW_INLINE L2 not_(L2 m) { return ~m; }
PW_INLINE uint64_t bits(double v) { return __builtin_bit_cast(uint64_t, v); }
PW_INLINE UL2 bits(D2 v) { return __builtin_bit_cast(UL2, v); }
PW_INLINE double from_bits(uint64_t u) { return __builtin_bit_cast(double, u); }
PW_INLINE D2 from_bits(UL2 u) { return __builtin_bit_cast(D2, u); }
PW_INLINE int64_t to_int(double v) { return static_cast<int64_t>(v); }
PW_INLINE L2 to_int(D2 v) { return __builtin_convertvector(v, L2); }
PW_INLINE double to_float(int64_t v) { return static_cast<double>(v); }
PW_INLINE D2 to_float(L2 v) { return __builtin_convertvector(v, D2); }
PW_INLINE uint64_t as_u(int64_t v) { return static_cast<uint64_t>(v); }
PW_INLINE UL2 as_u(L2 v) { return __builtin_bit_cast(UL2, v); }
PW_INLINE int64_t as_i(uint64_t v) { return static_cast<int64_t>(v); }
PW_INLINE L2 as_i(UL2 v) { return __builtin_bit_cast(L2, v); }
template <typename T> PW_INLINE T abs_(T v) { return from_bits(bits(v) & 0x7FFFFFFFFFFFFFFFull); }

template <typename T> PW_INLINE void fp_add_dw(T x, T yh, T yl, T& hi, T& lo) {
    T rh, rl;
    fast_two_sum(x, yh, rh, rl);
    const T s = yl + rl;
    fast_two_sum(rh, s, hi, lo);
}

template <typename T> PW_INLINE void dw_mul_dw(T xh, T xl, T yh, T yl, T& hi, T& lo) {
    T a, b, c, d;
    dw_mul(xh, xl, yh, a, b);
    dw_mul(xh, xl, yl, c, d);
    dw_add(a, b, c, d, hi, lo);
}

template <typename T> PW_INLINE void dw_div(T xh, T xl, T y, T& hi, T& lo) {
    const T th = xh / y;
    T ph, pl;
    two_prod(th, y, ph, pl);
    const T dh = xh - ph;
    const T dt = dh - pl;
    const T d = dt + xl;
    const T tl = d / y;
    fast_two_sum(th, tl, hi, lo);
}

// floor and round-half-away-from-zero (exact: |v| < 2^52 goes through an int64; NaN comes back as itself).
template <typename T> PW_INLINE T floor_d(T v) {
    const M_<T> small = abs_(v) < 4503599627370496.0;
    const T vs = small ? v : cst<T>(0.0);
    const T t = to_float(to_int(vs));
    const T f = t > vs ? t - 1.0 : t;
    return small ? f : v;
}

template <typename T> PW_INLINE T round_d(T v) {
    const M_<T> small = abs_(v) < 4503599627370496.0;
    const T vs = small ? v : cst<T>(0.0);
    const T t = to_float(to_int(vs));
    const T d = vs - t;
    const T r = d >= 0.5 ? t + 1.0 : (d <= -0.5 ? t - 1.0 : t);
    return small ? r : v;
}

// v * 2^k (k integral, NaN: 0) in one rounding: k clamped to [-2200, 2200], applied as 2^b 2^b 2^b 2^(k - 3b) with
// b = floor(k / 4), each normal and every partial product normal until the last whenever the result is not 0.
template <typename T> PW_INLINE T scale2(T v, T k) {
    T kc = k > -2200.0 ? k : cst<T>(-2200.0);
    kc = kc < 2200.0 ? kc : cst<T>(2200.0);
    kc = k == k ? kc : cst<T>(0.0);
    const I_<T> ki = to_int(kc);
    const I_<T> b = ki >> 2;
    const T c1 = from_bits(as_u(b + 1023) << 52);
    const T c2 = from_bits(as_u(ki - 3 * b + 1023) << 52);
    return v * c1 * c1 * c1 * c2;
}

template <typename T> PW_INLINE T frexp_like(T a, T& e) {
    const M_<T> sub = abs_(a) < std::numeric_limits<double>::min();
    const T na = sub ? a * 9007199254740992.0 : a;   // 2^53
    const T biased = to_float(as_i((bits(na) & 0x7FFFFFFFFFFFFFFFull) >> 52));
    const M_<T> keep = (a == 0.0) | (biased == 2047.0);
    e = keep ? cst<T>(0.0) : biased + (sub ? cst<T>(-1075.0) : cst<T>(-1022.0));
    return keep ? a : from_bits((bits(na) & 0x800FFFFFFFFFFFFFull) | 0x3FE0000000000000ull);
}

template <typename T> PW_INLINE void log2_dw(T x, T& hi, T& lo) {
    T th, tl, rh, rl, r2h, r2l, r4h, r4l;
    dw_mul(cst<T>(2.88539008177792677), cst<T>(4.07660016854549667e-17), x - 1.0, th, tl);
    dw_div(th, tl, x + 1.0, rh, rl);
    dw_mul_dw(rh, rl, rh, rl, r2h, r2l);
    dw_mul_dw(r2h, r2l, r2h, r2l, r4h, r4l);
    T q_even = 2.87074255468000586e-9 * r4h + 2.31032094540014656e-7;
    T q_odd = 2.38957980901884082e-8 * r4h + 2.27279857398537278e-6;
    q_even = q_even * r4h + 2.31271023278625638e-5;
    q_odd = q_odd * r4h + 2.47556738444535513e-4;
    q_even = q_even * r4h + 2.88543873228900172e-3;
    const T q = q_odd * r2h + q_even;
    T ph, pl, p1h, p1l, p2h, p2l, p3h, p3l;
    dw_mul(r2h, r2l, q, ph, pl);
    dw_add(cst<T>(0.0400377511598501157), cst<T>(-4.77726582251425391e-19), ph, pl, p1h, p1l);
    dw_mul_dw(r2h, r2l, p1h, p1l, p2h, p2l);
    fp_add_dw(cst<T>(1.0), p2h, p2l, p3h, p3l);
    dw_mul_dw(p3h, p3l, rh, rl, hi, lo);
}

// Cephes' exp for the |x| <= ln2 / 2 that pow reaches.
template <typename T> PW_INLINE T exp_small(T x0) {
    const T fx = floor_d(1.4426950408889634073599 * x0 + 0.5);
    T x = x0 - fx * 0.693145751953125;
    x = x - fx * 1.42860682030941723212e-6;
    const T x2 = x * x;
    T px = cst<T>(1.26177193074810590878e-4);
    px = px * x2 + 3.02994407707441961300e-2;
    px = px * x2 + 9.99999999999999999910e-1;
    px = px * x;
    T qx = cst<T>(3.00198505138664455042e-6);
    qx = qx * x2 + 2.52448340349684104192e-3;
    qx = qx * x2 + 2.27265548208155028766e-1;
    qx = qx * x2 + 2.00000000000000000009e0;
    x = px / (qx - px);
    x = 2.0 * x + 1.0;
    return scale2(x, fx);
}

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kHugeExponent = (1024.0 * 0.69314718055994530942) / std::numeric_limits<double>::epsilon();

template <typename T> PW_INLINE T pow_core(T x, T y) {
    T ex;
    T m = frexp_like(x, ex);
    const M_<T> low = m < 0.70710678118654752440;
    m = low ? 2.0 * m : m;
    ex = low ? ex - 1.0 : ex;
    T rh, rl, f1h, f1l, f2h, f2l, fh, fl;
    log2_dw(m, rh, rl);
    two_prod(ex, y, f1h, f1l);
    dw_mul(rh, rl, y, f2h, f2l);
    dw_add(f1h, f1l, f2h, f2l, fh, fl);
    T n = round_d(fh);
    T r = fh - n;
    r = r + fl;
    const T nr = round_d(r);
    r = r - nr;
    n = n + nr;
    T rc = r < 1025.0 ? r : cst<T>(1025.0);
    rc = rc > -1076.0 ? rc : cst<T>(-1076.0);
    T ph, pl;
    two_prod(cst<T>(0.69314718055994530942), rc, ph, pl);
    const T p = scale2(exp_small(ph) * (1.0 + pl), n);
    return ((x != x) | (y != y) | (r != r)) ? cst<T>(kNaN) : p;
}

template <typename T> PW_INLINE T pow_packet(T x, T y) {
    const T ax = abs_(x);
    T p = pow_core(ax, y);
    const M_<T> x_neg = x < 0.0, x_zero = x == 0.0, x_one = x == 1.0, x_sign = as_i(bits(x)) < 0;
    const M_<T> ax_gt_one = 1.0 < ax, ax_inf = ax == kInf;
    const T ay = abs_(y);
    const M_<T> ay_inf = ay == kInf, y_neg = y < 0.0, y_zero = y == 0.0, y_one = y == 1.0;
    const M_<T> y_int = (floor_d(y) == y) & not_(ay_inf);
    const T half_y = y * 0.5;
    const M_<T> y_even = round_d(half_y) == half_y;
    const M_<T> y_odd_int = y_int & not_(y_even);
    p = (x_neg & not_(y_int)) ? cst<T>(kNaN) : p;
    p = x_zero ? (y_neg ? cst<T>(kInf) : cst<T>(0.0)) : p;
    p = (x_sign & y_odd_int) ? -p : p;
    T huge = ((y_neg & x_zero) | (y_neg ^ ax_gt_one)) ? cst<T>(kInf) : cst<T>(0.0);
    huge = x == -1.0 ? cst<T>(1.0) : huge;
    p = kHugeExponent <= ay ? huge : p;
    const T pos_inf_x = y_neg ? cst<T>(0.0) : cst<T>(kInf);
    p = ax_inf ? ((x_neg & y_odd_int) ? -pos_inf_x : pos_inf_x) : p;
    p = ((x != x) | (y != y)) ? cst<T>(kNaN) : p;
    return y_one ? x : ((x_one | y_zero) ? cst<T>(1.0) : p);
}

template <typename T> PW_INLINE T nonint_fixups(T x, T p, double e) {
    const bool e_fin = std::fabs(e) < kInf, e_neg = e < 0.0, e_pos = e > 0.0;
    const bool e_inf = !e_fin && (e_neg || e_pos), e_nan = !e_fin && !(e_neg || e_pos);
    const M_<T> x_le0 = x <= 0.0, x_ge0 = 0.0 <= x, x_zero = x_le0 & x_ge0;
    const T ax = abs_(x);
    const M_<T> ax_le1 = ax <= 1.0, ax_ge1 = 1.0 <= ax, ax_inf = ax == kInf, ax_one = ax_le1 & ax_ge1;
    const M_<T> inf_if_neg = e_inf ? (x_zero | ax_le1) : x_zero;
    const M_<T> inf_if_pos = e_inf ? (ax_inf | ax_ge1) : ax_inf;
    p = x_le0 ? cst<T>(kNaN) : p;
    p = inf_if_neg ? cst<T>(e_neg ? kInf : 0.0) : p;
    p = inf_if_pos ? cst<T>(e_pos ? kInf : 0.0) : p;
    p = e_nan ? cst<T>(kNaN) : p;
    return (e_inf ? ax_one : (ax_one & x_ge0)) ? cst<T>(1.0) : p;
}

PW_INLINE D2 load2(const double* p) {
    D2 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

PW_INLINE void store2(double* p, D2 v) { std::memcpy(p, &v, sizeof v); }

PW_INLINE double int_pow(double x, int e) {
    if (e == 0) return 1.0;
    double base = e < 0 ? 1.0 / x : x;
    double acc = 1.0;
    for (int m = e < 0 ? -e : e; m > 1; m >>= 1) {
        if (m & 1) acc = acc * base;
        base = base * base;
    }
    return acc * base;
}

#undef PW_INLINE

// Values [lo, hi) of x ** e (one exponent when `one`): packets of two up to packed_end, the C library's pow after.
void pow_range(const double* x, const double* e, bool one, double* y, int64_t lo, int64_t hi, int64_t packed_end) {
    const int64_t mid = std::min(hi, std::max(lo, packed_end));   // lo and packed_end are even
    if (!one) {
        for (int64_t i = lo; i < mid; i += 2) store2(y + i, pow_packet(load2(x + i), load2(e + i)));
        for (int64_t i = mid; i < hi; ++i) y[i] = std::pow(x[i], e[i]);
        return;
    }
    const double ev = e[0];
    const bool is_int = std::fabs(ev) < kInf && std::nearbyint(ev) == ev;
    if (is_int && ev <= 7.0 && ev >= -3.0) {
        const int k = static_cast<int>(ev);
        for (int64_t i = lo; i < mid; ++i) y[i] = int_pow(x[i], k);
        for (int64_t i = mid; i < hi; ++i) y[i] = std::pow(x[i], ev);
        return;
    }
    const D2 evv = cst<D2>(ev);
    if (is_int) {
        for (int64_t i = lo; i < mid; i += 2) store2(y + i, pow_packet(load2(x + i), evv));
        for (int64_t i = mid; i < hi; ++i) y[i] = std::pow(x[i], ev);
    } else {
        for (int64_t i = lo; i < mid; i += 2) {
            const D2 v = load2(x + i);
            store2(y + i, nonint_fixups(v, pow_core(v, evv), ev));
        }
        for (int64_t i = mid; i < hi; ++i) y[i] = nonint_fixups(x[i], std::pow(x[i], ev), ev);
    }
}

}  // namespace pwd

py::array pow_f32(const py::array& x, const py::array& e) {
    const std::string where = "pow_f32";
    check_array(where, "x", x, -1);
    check_array(where, "exponent", e, -1);
    if (dtype_of(x) != DType::f32 || dtype_of(e) != DType::f32) fail(where, "'x' and 'exponent' must be float32");
    const bool one = e.size() == 1;
    if (!one && (x.ndim() != e.ndim() || !std::equal(x.shape(), x.shape() + x.ndim(), e.shape()))) {
        fail(where, "'exponent' must have one value or x's shape " + shape_str(x) + ", but got " + shape_str(e));
    }
    const int64_t n = x.size();
    py::array y = like<float>(x);
    const float* px = static_cast<const float*>(x.data());
    const float* pe = static_cast<const float*>(e.data());
    float* py_ = static_cast<float*>(y.mutable_data());
    const int64_t packed_end = n - n % 4;
    py::gil_scoped_release release;
    if (one) {
        const float ev = pe[0];
        over_chunks(n, kPacketChunk, 40.0 * n,
                    [&](int64_t lo, int64_t hi) { pw::pow_scalar_range(px, ev, py_, lo, hi, packed_end); });
    } else {
        over_chunks(n, kPacketChunk, 40.0 * n,
                    [&](int64_t lo, int64_t hi) { pw::pow_pair_range(px, pe, py_, lo, hi, packed_end); });
    }
    return y;
}

// Broadcast operands (the caller expands them to one shape): 2.10's double pow, rounded once.
py::array pow_f64(const py::array& x, const py::array& e) {
    const std::string where = "pow_f64";
    check_array(where, "x", x, -1);
    check_array(where, "exponent", e, -1);
    if (dtype_of(x) != DType::f64 || dtype_of(e) != DType::f64) fail(where, "'x' and 'exponent' must be float64");
    const bool one = e.size() == 1;
    if (!one && (x.ndim() != e.ndim() || !std::equal(x.shape(), x.shape() + x.ndim(), e.shape()))) {
        fail(where, "'exponent' must have one value or x's shape " + shape_str(x) + ", but got " + shape_str(e));
    }
    const int64_t n = x.size();
    py::array y = like<double>(x);
    const double* px = static_cast<const double*>(x.data());
    const double* pe = static_cast<const double*>(e.data());
    double* py_ = static_cast<double*>(y.mutable_data());
    const int64_t packed_end = n - n % 2;
    py::gil_scoped_release release;
    over_chunks(n, kPacketChunk, 40.0 * n,
                [&](int64_t lo, int64_t hi) { pwd::pow_range(px, pe, one, py_, lo, hi, packed_end); });
    return y;
}

py::array pow_f32_double(const py::array& x, const py::array& e) {
    const std::string where = "pow_f32_double";
    check_array(where, "x", x, -1);
    check_array(where, "exponent", e, -1);
    if (dtype_of(x) != DType::f32 || dtype_of(e) != DType::f32) fail(where, "'x' and 'exponent' must be float32");
    if (x.ndim() != e.ndim() || !std::equal(x.shape(), x.shape() + x.ndim(), e.shape())) {
        fail(where, "'x' and 'exponent' must have one shape, but got " + shape_str(x) + " and " + shape_str(e));
    }
    const int64_t n = x.size();
    py::array y = like<float>(x);
    const float* px = static_cast<const float*>(x.data());
    const float* pe = static_cast<const float*>(e.data());
    float* py_ = static_cast<float*>(y.mutable_data());
    py::gil_scoped_release release;
    over_chunks(n, kLibmChunk, 15.0 * n, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) {
            py_[i] = static_cast<float>(std::pow(static_cast<double>(px[i]), static_cast<double>(pe[i])));
        }
    });
    return y;
}

}  // namespace

void register_libm_unary(py::module_& m) {
    m.def("libm_unary", &libm_unary, py::arg("x"), py::arg("name"),
          "MindSpore 2.10's CPU function `name` (sin, cos, tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh, "
          "erf, erfc, log1p, expm1) of each value of a C-contiguous float32 or float64 array, bit for bit: the C "
          "library's double function rounded once for float32 (erf: erff; log1p: logf(x + 1); expm1: expf(x) - 1).");
    m.def("pow_f32", &pow_f32, py::arg("x"), py::arg("exponent"),
          "MindSpore 2.10's CPU float32 Pow of x by an exponent of x's shape or of one value, bit for bit (Eigen's "
          "vectorised pow on whole four-value packets, powf on the last x.size % 4 values).");
    m.def("pow_f64", &pow_f64, py::arg("x"), py::arg("exponent"),
          "MindSpore 2.10's CPU float64 Pow of x by an exponent of x's shape or of one value, bit for bit (Eigen's "
          "pow on two-value packets, pow on the last x.size % 2 values).");
    m.def("pow_f32_double", &pow_f32_double, py::arg("x"), py::arg("exponent"),
          "MindSpore 2.10's CPU float32 Pow of broadcast operands (expanded to one shape): double pow, rounded once.");
    m.def("atan2_libm", &atan2_libm, py::arg("y"), py::arg("x"),
          "MindSpore 2.10's CPU Atan2 of two C-contiguous arrays of one shape and dtype (float32 or float64): the C "
          "library's double atan2, rounded once for float32.");
}

}  // namespace mscpu
