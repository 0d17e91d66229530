// Blocked GEMM with run-time ISA dispatch (see gemm.h).
//
// Loop nest (Goto/BLIS): jc over NC-wide column blocks of B/C, pc over KC-deep slices of K (B's
// slice packed into NR-wide panels), ic over MC-tall row blocks of A (packed into MR-tall panels),
// then jr/ir over the register tiles, each computed by a micro-kernel. Edge tiles are computed into
// a scratch tile and copied, so the micro-kernels only ever see full tiles. Packing pads with zeros.
//
// The micro-kernels are compiled for AVX-512, AVX2+FMA and SSE2 inside `#pragma GCC target`
// regions; which one runs is decided once from __builtin_cpu_supports, so the extension is built
// for the baseline x86-64 ISA and still uses the wide units where the CPU has them.
#include "gemm.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#define MSCPU_X86_DISPATCH 1
#include <immintrin.h>
#endif

namespace mscpu {
namespace {

// Portable micro-kernel (any architecture); the compiler vectorises the inner loop. B rows are packed
// (b[k * NR + j]) or, with ``off``, read in place at b + off[k].
template <typename T, int MR, int NR>
void ukr_portable_any(int64_t kc, const T* a, const T* b, const int64_t* off, T* c, int64_t ldc, bool acc) {
    T r[MR][NR] = {};
    for (int64_t k = 0; k < kc; ++k) {
        const T* bk = off ? b + off[k] : b + k * NR;
        for (int i = 0; i < MR; ++i) {
            const T av = a[k * MR + i];
            for (int j = 0; j < NR; ++j) r[i][j] += av * bk[j];
        }
    }
    for (int i = 0; i < MR; ++i) {
        for (int j = 0; j < NR; ++j) c[i * ldc + j] = acc ? c[i * ldc + j] + r[i][j] : r[i][j];
    }
}

template <typename T, int MR, int NR>
void ukr_portable(int64_t kc, const T* a, const T* b, T* c, int64_t ldc, bool acc) {
    ukr_portable_any<T, MR, NR>(kc, a, b, nullptr, c, ldc, acc);
}

template <typename T, int MR, int NR>
void ukr_portable_rows(int64_t kc, const T* a, const T* b, const int64_t* off, T* c, int64_t ldc, bool acc) {
    ukr_portable_any<T, MR, NR>(kc, a, b, off, c, ldc, acc);
}

// Portable inner-product tile (see dot in gemm_ukr.h).
template <typename T, int MO, int NJ>
void dot_portable(int64_t len, int64_t nseg, int64_t sa, int64_t sb, const T* const* a, const T* const* b, T* c,
                  int64_t ldc, bool acc) {
    for (int i = 0; i < MO; ++i) {
        for (int j = 0; j < NJ; ++j) {
            T s = T(0);
            for (int64_t sg = 0; sg < nseg; ++sg) {
                for (int64_t q = 0; q < len; ++q) s += a[i][sg * sa + q] * b[j][sg * sb + q];
            }
            c[i * ldc + j] = acc ? c[i * ldc + j] + s : s;
        }
    }
}

// Portable convolution tile (see ConvTile in gemm.h): W lanes per vector, two vectors.
template <typename T, int MR, int W>
void conv_portable(const ConvTile<T>& t) {
    constexpr int NV = ConvTile<T>::kMaxVectors;
    T r[MR][NV][W] = {};
    for (int64_t k = 0; k < t.kc; ++k) {
        for (int v = 0; v < NV; ++v) {
            const T* bk = t.b[v] + t.off[k];
            for (int i = 0; i < MR; ++i) {
                const T av = t.a[k * MR + i];
                for (int j = 0; j < t.len[v]; ++j) r[i][v][j] += av * bk[j];
            }
        }
    }
    for (int i = 0; i < t.rows; ++i) {
        for (int v = 0; v < NV; ++v) {
            T* p = t.c[v] + i * t.ldc;
            for (int j = 0; j < t.len[v]; ++j) {
                T x = r[i][v][j];
                if (t.acc) x = p[j] + x;
                if (t.last) {
                    if (t.bias) x = x + t.bias[i];
                    if (t.z[v]) x = x + t.z[v][i * t.ldc + j];
                    if (t.relu) x = x > T(0) ? x : T(0);
                }
                p[j] = x;
            }
        }
    }
}

template <typename T, int W>
void pack_portable(const ConvPack<T>& p) {
    for (int v = 0; v < ConvPack<T>::kMaxVectors; ++v) {
        for (int64_t k = 0; k < p.kc; ++k) {
            T* d = p.dst + k * p.ld + v * W;
            for (int j = 0; j < p.len[v]; ++j) d[j] = p.b[v][p.q[v][j] + p.off[k]];
        }
    }
}

}  // namespace

#ifdef MSCPU_X86_DISPATCH

#pragma GCC push_options
#pragma GCC target("avx512f")
namespace isa_avx512 {
struct F32 {
    using T = float;
    using V = __m512;
    static constexpr int W = 16;
    static inline V zero() { return _mm512_setzero_ps(); }
    static inline V load(const T* p) { return _mm512_loadu_ps(p); }
    static inline void store(T* p, V v) { _mm512_storeu_ps(p, v); }
    static inline V set1(T x) { return _mm512_set1_ps(x); }
    static inline V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
    static inline V add(V a, V b) { return _mm512_add_ps(a, b); }
    static inline V max(V a, V b) { return _mm512_max_ps(a, b); }
    using M = __mmask16;
    static inline M mask(int n) { return static_cast<M>((1u << n) - 1u); }
    static inline V loadm(const T* p, M m) { return _mm512_maskz_loadu_ps(m, p); }
    static inline void storem(T* p, V v, M m) { _mm512_mask_storeu_ps(p, m, v); }
    static constexpr bool kPermute = true;
    using I = __m512i;
    static inline I index(const int64_t* q, int n) {
        alignas(64) int32_t idx[W] = {};
        for (int j = 0; j < n; ++j) idx[j] = static_cast<int32_t>(q[j] - q[0]);
        return _mm512_load_si512(idx);
    }
    static inline V permute2(V a, I idx, V b) { return _mm512_permutex2var_ps(a, idx, b); }
};
struct F64 {
    using T = double;
    using V = __m512d;
    static constexpr int W = 8;
    static inline V zero() { return _mm512_setzero_pd(); }
    static inline V load(const T* p) { return _mm512_loadu_pd(p); }
    static inline void store(T* p, V v) { _mm512_storeu_pd(p, v); }
    static inline V set1(T x) { return _mm512_set1_pd(x); }
    static inline V fma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
    static inline V add(V a, V b) { return _mm512_add_pd(a, b); }
    static inline V max(V a, V b) { return _mm512_max_pd(a, b); }
    using M = __mmask8;
    static inline M mask(int n) { return static_cast<M>((1u << n) - 1u); }
    static inline V loadm(const T* p, M m) { return _mm512_maskz_loadu_pd(m, p); }
    static inline void storem(T* p, V v, M m) { _mm512_mask_storeu_pd(p, m, v); }
    static constexpr bool kPermute = true;
    using I = __m512i;
    static inline I index(const int64_t* q, int n) {
        alignas(64) int64_t idx[W] = {};
        for (int j = 0; j < n; ++j) idx[j] = q[j] - q[0];
        return _mm512_load_si512(idx);
    }
    static inline V permute2(V a, I idx, V b) { return _mm512_permutex2var_pd(a, idx, b); }
};
#include "gemm_ukr.h"
void f32(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, bool acc) {
    ukr<F32, 8, 2>(kc, a, b, c, ldc, acc);
}
void f64(int64_t kc, const double* a, const double* b, double* c, int64_t ldc, bool acc) {
    ukr<F64, 8, 2>(kc, a, b, c, ldc, acc);
}
void f32_rows(int64_t kc, const float* a, const float* b, const int64_t* off, float* c, int64_t ldc, bool acc) {
    ukr_rows<F32, 8, 2>(kc, a, b, off, c, ldc, acc);
}
void f64_rows(int64_t kc, const double* a, const double* b, const int64_t* off, double* c, int64_t ldc, bool acc) {
    ukr_rows<F64, 8, 2>(kc, a, b, off, c, ldc, acc);
}
void dot_f32(int64_t len, int64_t nseg, int64_t sa, int64_t sb, const float* const* a, const float* const* b,
             float* c, int64_t ldc, bool acc) {
    dot<F32, 4, 6>(len, nseg, sa, sb, a, b, c, ldc, acc);
}
void dot_f64(int64_t len, int64_t nseg, int64_t sa, int64_t sb, const double* const* a, const double* const* b,
             double* c, int64_t ldc, bool acc) {
    dot<F64, 4, 6>(len, nseg, sa, sb, a, b, c, ldc, acc);
}
void conv_f32(const ConvTile<float>& t) { conv_tile<F32, 8, 2>(t); }
void conv_f64(const ConvTile<double>& t) { conv_tile<F64, 8, 2>(t); }
void conv6_f32(const ConvTile<float>& t) { conv_tile<F32, 6, 2>(t); }
void conv6_f64(const ConvTile<double>& t) { conv_tile<F64, 6, 2>(t); }
void pack_f32(const ConvPack<float>& p) { conv_pack<F32>(p); }
void pack_f64(const ConvPack<double>& p) { conv_pack<F64>(p); }
}  // namespace isa_avx512
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,fma")
namespace isa_avx2 {
struct F32 {
    using T = float;
    using V = __m256;
    static constexpr int W = 8;
    static inline V zero() { return _mm256_setzero_ps(); }
    static inline V load(const T* p) { return _mm256_loadu_ps(p); }
    static inline void store(T* p, V v) { _mm256_storeu_ps(p, v); }
    static inline V set1(T x) { return _mm256_set1_ps(x); }
    static inline V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
    static inline V add(V a, V b) { return _mm256_add_ps(a, b); }
    static inline V max(V a, V b) { return _mm256_max_ps(a, b); }
    using M = __m256i;
    static inline M mask(int n) { return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)); }
    static inline V loadm(const T* p, M m) { return _mm256_maskload_ps(p, m); }
    static inline void storem(T* p, V v, M m) { _mm256_maskstore_ps(p, m, v); }    static constexpr bool kPermute = false;
    using I = int;
    static inline I index(const int64_t*, int) { return 0; }
    static inline V permute2(V a, I, V) { return a; }
};
struct F64 {
    using T = double;
    using V = __m256d;
    static constexpr int W = 4;
    static inline V zero() { return _mm256_setzero_pd(); }
    static inline V load(const T* p) { return _mm256_loadu_pd(p); }
    static inline void store(T* p, V v) { _mm256_storeu_pd(p, v); }
    static inline V set1(T x) { return _mm256_set1_pd(x); }
    static inline V fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
    static inline V add(V a, V b) { return _mm256_add_pd(a, b); }
    static inline V max(V a, V b) { return _mm256_max_pd(a, b); }
    using M = __m256i;
    static inline M mask(int n) { return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3)); }
    static inline V loadm(const T* p, M m) { return _mm256_maskload_pd(p, m); }
    static inline void storem(T* p, V v, M m) { _mm256_maskstore_pd(p, m, v); }    static constexpr bool kPermute = false;
    using I = int;
    static inline I index(const int64_t*, int) { return 0; }
    static inline V permute2(V a, I, V) { return a; }
};
#include "gemm_ukr.h"
void f32(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, bool acc) {
    ukr<F32, 6, 2>(kc, a, b, c, ldc, acc);
}
void f64(int64_t kc, const double* a, const double* b, double* c, int64_t ldc, bool acc) {
    ukr<F64, 6, 2>(kc, a, b, c, ldc, acc);
}
void f32_rows(int64_t kc, const float* a, const float* b, const int64_t* off, float* c, int64_t ldc, bool acc) {
    ukr_rows<F32, 6, 2>(kc, a, b, off, c, ldc, acc);
}
void f64_rows(int64_t kc, const double* a, const double* b, const int64_t* off, double* c, int64_t ldc, bool acc) {
    ukr_rows<F64, 6, 2>(kc, a, b, off, c, ldc, acc);
}
void dot_f32(int64_t len, int64_t nseg, int64_t sa, int64_t sb, const float* const* a, const float* const* b,
             float* c, int64_t ldc, bool acc) {
    dot<F32, 3, 4>(len, nseg, sa, sb, a, b, c, ldc, acc);
}
void dot_f64(int64_t len, int64_t nseg, int64_t sa, int64_t sb, const double* const* a, const double* const* b,
             double* c, int64_t ldc, bool acc) {
    dot<F64, 3, 4>(len, nseg, sa, sb, a, b, c, ldc, acc);
}
void conv_f32(const ConvTile<float>& t) { conv_tile<F32, 6, 2>(t); }
void conv_f64(const ConvTile<double>& t) { conv_tile<F64, 6, 2>(t); }
void pack_f32(const ConvPack<float>& p) { conv_pack<F32>(p); }
void pack_f64(const ConvPack<double>& p) { conv_pack<F64>(p); }
}  // namespace isa_avx2
#pragma GCC pop_options

namespace isa_sse2 {
struct F32 {
    using T = float;
    using V = __m128;
    static constexpr int W = 4;
    static inline V zero() { return _mm_setzero_ps(); }
    static inline V load(const T* p) { return _mm_loadu_ps(p); }
    static inline void store(T* p, V v) { _mm_storeu_ps(p, v); }
    static inline V set1(T x) { return _mm_set1_ps(x); }
    static inline V fma(V a, V b, V c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }
    static inline V add(V a, V b) { return _mm_add_ps(a, b); }
    static inline V max(V a, V b) { return _mm_max_ps(a, b); }
    using M = int;
    static inline M mask(int n) { return n; }
    static inline V loadm(const T* p, M n) {
        if (n == W) return load(p);
        alignas(16) T tmp[W] = {};
        for (int i = 0; i < n; ++i) tmp[i] = p[i];
        return load(tmp);
    }
    static inline void storem(T* p, V v, M n) {
        if (n == W) return store(p, v);
        alignas(16) T tmp[W];
        store(tmp, v);
        for (int i = 0; i < n; ++i) p[i] = tmp[i];
    }
    static constexpr bool kPermute = false;
    using I = int;
    static inline I index(const int64_t*, int) { return 0; }
    static inline V permute2(V a, I, V) { return a; }
};
struct F64 {
    using T = double;
    using V = __m128d;
    static constexpr int W = 2;
    static inline V zero() { return _mm_setzero_pd(); }
    static inline V load(const T* p) { return _mm_loadu_pd(p); }
    static inline void store(T* p, V v) { _mm_storeu_pd(p, v); }
    static inline V set1(T x) { return _mm_set1_pd(x); }
    static inline V fma(V a, V b, V c) { return _mm_add_pd(_mm_mul_pd(a, b), c); }
    static inline V add(V a, V b) { return _mm_add_pd(a, b); }
    static inline V max(V a, V b) { return _mm_max_pd(a, b); }
    using M = int;
    static inline M mask(int n) { return n; }
    static inline V loadm(const T* p, M n) {
        if (n == W) return load(p);
        alignas(16) T tmp[W] = {};
        for (int i = 0; i < n; ++i) tmp[i] = p[i];
        return load(tmp);
    }
    static inline void storem(T* p, V v, M n) {
        if (n == W) return store(p, v);
        alignas(16) T tmp[W];
        store(tmp, v);
        for (int i = 0; i < n; ++i) p[i] = tmp[i];
    }
    static constexpr bool kPermute = false;
    using I = int;
    static inline I index(const int64_t*, int) { return 0; }
    static inline V permute2(V a, I, V) { return a; }
};
#include "gemm_ukr.h"
void f32(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, bool acc) {
    ukr<F32, 4, 2>(kc, a, b, c, ldc, acc);
}
void f64(int64_t kc, const double* a, const double* b, double* c, int64_t ldc, bool acc) {
    ukr<F64, 4, 2>(kc, a, b, c, ldc, acc);
}
void f32_rows(int64_t kc, const float* a, const float* b, const int64_t* off, float* c, int64_t ldc, bool acc) {
    ukr_rows<F32, 4, 2>(kc, a, b, off, c, ldc, acc);
}
void f64_rows(int64_t kc, const double* a, const double* b, const int64_t* off, double* c, int64_t ldc, bool acc) {
    ukr_rows<F64, 4, 2>(kc, a, b, off, c, ldc, acc);
}
void dot_f32(int64_t len, int64_t nseg, int64_t sa, int64_t sb, const float* const* a, const float* const* b,
             float* c, int64_t ldc, bool acc) {
    dot<F32, 2, 4>(len, nseg, sa, sb, a, b, c, ldc, acc);
}
void dot_f64(int64_t len, int64_t nseg, int64_t sa, int64_t sb, const double* const* a, const double* const* b,
             double* c, int64_t ldc, bool acc) {
    dot<F64, 2, 4>(len, nseg, sa, sb, a, b, c, ldc, acc);
}
void conv_f32(const ConvTile<float>& t) { conv_tile<F32, 4, 2>(t); }
void conv_f64(const ConvTile<double>& t) { conv_tile<F64, 4, 2>(t); }
void pack_f32(const ConvPack<float>& p) { conv_pack<F32>(p); }
void pack_f64(const ConvPack<double>& p) { conv_pack<F64>(p); }
}  // namespace isa_sse2

#endif  // MSCPU_X86_DISPATCH

namespace {

enum class Isa { avx512, avx2, sse2, portable };

// The widest instruction set the CPU has, lowered by MINDSPORE_CPU_GEMM_ISA (avx512, avx2, sse2 or
// portable) so that tests can run every micro-kernel on one machine; it is never raised.
Isa detect_isa() {
#ifdef MSCPU_X86_DISPATCH
    __builtin_cpu_init();
    Isa best = Isa::sse2;
    if (__builtin_cpu_supports("avx512f")) best = Isa::avx512;
    else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) best = Isa::avx2;
#else
    Isa best = Isa::portable;
#endif
    const char* env = std::getenv("MINDSPORE_CPU_GEMM_ISA");
    if (env == nullptr) return best;
    const std::string want(env);
    const Isa order[] = {Isa::avx512, Isa::avx2, Isa::sse2, Isa::portable};
    const char* names[] = {"avx512", "avx2", "sse2", "portable"};
    bool reached = false;
    for (int i = 0; i < 4; ++i) {
        reached = reached || order[i] == best;
        if (reached && want == names[i]) return order[i];
    }
    return best;
}

const Isa kIsa = detect_isa();

template <typename T>
MicroKernel<T> select_kernel();

template <>
MicroKernel<float> select_kernel<float>() {
    switch (kIsa) {
#ifdef MSCPU_X86_DISPATCH
        case Isa::avx512: return {isa_avx512::f32, isa_avx512::f32_rows, 8, 32};
        case Isa::avx2: return {isa_avx2::f32, isa_avx2::f32_rows, 6, 16};
        case Isa::sse2: return {isa_sse2::f32, isa_sse2::f32_rows, 4, 8};
#endif
        default: return {ukr_portable<float, 4, 8>, ukr_portable_rows<float, 4, 8>, 4, 8};
    }
}

template <>
MicroKernel<double> select_kernel<double>() {
    switch (kIsa) {
#ifdef MSCPU_X86_DISPATCH
        case Isa::avx512: return {isa_avx512::f64, isa_avx512::f64_rows, 8, 16};
        case Isa::avx2: return {isa_avx2::f64, isa_avx2::f64_rows, 6, 8};
        case Isa::sse2: return {isa_sse2::f64, isa_sse2::f64_rows, 4, 4};
#endif
        default: return {ukr_portable<double, 4, 4>, ukr_portable_rows<double, 4, 4>, 4, 4};
    }
}

template <typename T>
DotKernel<T> select_dot();

template <>
DotKernel<float> select_dot<float>() {
    switch (kIsa) {
#ifdef MSCPU_X86_DISPATCH
        case Isa::avx512: return {isa_avx512::dot_f32, 4, 6, 16};
        case Isa::avx2: return {isa_avx2::dot_f32, 3, 4, 8};
        case Isa::sse2: return {isa_sse2::dot_f32, 2, 4, 4};
#endif
        default: return {dot_portable<float, 2, 2>, 2, 2, 1};
    }
}

template <>
DotKernel<double> select_dot<double>() {
    switch (kIsa) {
#ifdef MSCPU_X86_DISPATCH
        case Isa::avx512: return {isa_avx512::dot_f64, 4, 6, 8};
        case Isa::avx2: return {isa_avx2::dot_f64, 3, 4, 4};
        case Isa::sse2: return {isa_sse2::dot_f64, 2, 4, 2};
#endif
        default: return {dot_portable<double, 2, 2>, 2, 2, 1};
    }
}

template <typename T>
ConvKernel<T> select_conv();

template <>
ConvKernel<float> select_conv<float>() {
    switch (kIsa) {
#ifdef MSCPU_X86_DISPATCH
        case Isa::avx512: return {isa_avx512::conv_f32, isa_avx512::pack_f32, 8, 16, 2, isa_avx512::conv6_f32, 6};
        case Isa::avx2: return {isa_avx2::conv_f32, isa_avx2::pack_f32, 6, 8, 2};
        case Isa::sse2: return {isa_sse2::conv_f32, isa_sse2::pack_f32, 4, 4, 2};
#endif
        default: return {conv_portable<float, 4, 4>, pack_portable<float, 4>, 4, 4, 2};
    }
}

template <>
ConvKernel<double> select_conv<double>() {
    switch (kIsa) {
#ifdef MSCPU_X86_DISPATCH
        case Isa::avx512: return {isa_avx512::conv_f64, isa_avx512::pack_f64, 8, 8, 2, isa_avx512::conv6_f64, 6};
        case Isa::avx2: return {isa_avx2::conv_f64, isa_avx2::pack_f64, 6, 4, 2};
        case Isa::sse2: return {isa_sse2::conv_f64, isa_sse2::pack_f64, 4, 2, 2};
#endif
        default: return {conv_portable<double, 4, 2>, pack_portable<double, 2>, 4, 2, 2};
    }
}

inline int64_t ceil_div_size(int64_t a, int64_t b) { return (a + b - 1) / b; }

constexpr int64_t kKC = 256;   // depth of a packed slice: an A panel plus a B panel stay in L1
constexpr int64_t kNC = 2048;  // columns of a packed B block (L2/L3 resident)
constexpr int64_t kMCPanels = 16;  // row panels per packed A block (L2 resident)
constexpr int64_t kInPlaceRowPanels = 4;  // up to this many row panels of A, B's rows are read in place
constexpr int kMaxPanelWidth = 64;        // NR of every micro-kernel is at most this

}  // namespace

// d[q * ld + i] = rows[i][q] for i < 8, q < len: eight rows written as columns (a transposition), with
// the permutes AVX-512/AVX2 have, about 4x faster than eight strided scalar passes.
template <typename T>
inline void interleave8_body(const T* const* rows, int64_t len, int64_t ld, T* __restrict d) {
    const T* __restrict r0 = rows[0];
    const T* __restrict r1 = rows[1];
    const T* __restrict r2 = rows[2];
    const T* __restrict r3 = rows[3];
    const T* __restrict r4 = rows[4];
    const T* __restrict r5 = rows[5];
    const T* __restrict r6 = rows[6];
    const T* __restrict r7 = rows[7];
    for (int64_t q = 0; q < len; ++q) {
        T* o = d + q * ld;
        o[0] = r0[q];
        o[1] = r1[q];
        o[2] = r2[q];
        o[3] = r3[q];
        o[4] = r4[q];
        o[5] = r5[q];
        o[6] = r6[q];
        o[7] = r7[q];
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void interleave8(const float* const* rows, int64_t len, int64_t ld, float* d) { interleave8_body(rows, len, ld, d); }

__attribute__((target_clones("avx512f", "avx2", "default")))
void interleave8(const double* const* rows, int64_t len, int64_t ld, double* d) { interleave8_body(rows, len, ld, d); }

// d[q * ld + i] = rows[i][q] for i < nrows, q < len.
template <typename T>
void interleave(const T* const* rows, int64_t nrows, int64_t len, int64_t ld, T* d) {
    int64_t i = 0;
    for (; i + 8 <= nrows; i += 8) interleave8(rows + i, len, ld, d + i);
    for (; i < nrows; ++i) {
        const T* r = rows[i];
        for (int64_t q = 0; q < len; ++q) d[q * ld + i] = r[q];
    }
}

template void interleave<float>(const float* const*, int64_t, int64_t, int64_t, float*);
template void interleave<double>(const double* const*, int64_t, int64_t, int64_t, double*);

// Packs A[i0 : i0 + mc, p0 : p0 + kc] into MR-tall panels: dst[panel][k * MR + r].
template <typename T>
void pack_a(const T* A, int64_t rsa, int64_t csa, int64_t i0, int64_t p0, int64_t mc, int64_t kc, int MR, T* dst) {
    for (int64_t ip = 0; ip < mc; ip += MR) {
        const int64_t mr = std::min<int64_t>(MR, mc - ip);
        T* d = dst + ip * kc;
        if (csa == 1) {
            for (int64_t r = 0; r < mr; ++r) {
                const T* src = A + (i0 + ip + r) * rsa + p0;
                for (int64_t k = 0; k < kc; ++k) d[k * MR + r] = src[k];
            }
        } else if (rsa == 1) {
            for (int64_t k = 0; k < kc; ++k) {
                const T* src = A + (i0 + ip) + (p0 + k) * csa;
                for (int64_t r = 0; r < mr; ++r) d[k * MR + r] = src[r];
            }
        } else {
            for (int64_t k = 0; k < kc; ++k) {
                for (int64_t r = 0; r < mr; ++r) d[k * MR + r] = A[(i0 + ip + r) * rsa + (p0 + k) * csa];
            }
        }
        for (int64_t r = mr; r < MR; ++r) {
            for (int64_t k = 0; k < kc; ++k) d[k * MR + r] = T(0);
        }
    }
}

template void pack_a<float>(const float*, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, float*);
template void pack_a<double>(const double*, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, double*);

namespace {

// Packs B[p0 : p0 + kc, j0 : j0 + nc] into NR-wide panels: dst[panel][k * NR + c].
template <typename T>
void pack_b(const T* B, int64_t rsb, int64_t csb, int64_t p0, int64_t j0, int64_t kc, int64_t nc, int NR, T* dst) {
    for (int64_t jp = 0; jp < nc; jp += NR) {
        const int64_t nr = std::min<int64_t>(NR, nc - jp);
        T* d = dst + jp * kc;
        if (csb == 1) {
            for (int64_t k = 0; k < kc; ++k) {
                const T* src = B + (p0 + k) * rsb + j0 + jp;
                T* dk = d + k * NR;
                std::memcpy(dk, src, sizeof(T) * nr);
                for (int64_t c = nr; c < NR; ++c) dk[c] = T(0);
            }
        } else if (rsb == 1) {
            // B's columns are contiguous (a transposed operand: Dense's weight): a transposition of nr rows
            const T* rows[kMaxPanelWidth];
            for (int64_t c = 0; c < nr; ++c) rows[c] = B + (j0 + jp + c) * csb + p0;
            interleave(rows, nr, kc, NR, d);
            for (int64_t c = nr; c < NR; ++c) {
                for (int64_t k = 0; k < kc; ++k) d[k * NR + c] = T(0);
            }
        } else {
            for (int64_t c = 0; c < nr; ++c) {
                const T* src = B + (j0 + jp + c) * csb + p0 * rsb;
                for (int64_t k = 0; k < kc; ++k) d[k * NR + c] = src[k * rsb];
            }
            for (int64_t c = nr; c < NR; ++c) {
                for (int64_t k = 0; k < kc; ++k) d[k * NR + c] = T(0);
            }
        }
    }
}

template <typename T>
struct Scratch {
    std::vector<T> a, b, tile;
    std::vector<int64_t> off;
};

template <typename T>
Scratch<T>& scratch() {
    static thread_local Scratch<T> s;
    return s;
}

}  // namespace

template <typename T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa, const T* B, int64_t rsb,
          int64_t csb, T* C, int64_t ldc, bool accumulate) {
    if (M <= 0 || N <= 0) return;
    if (K <= 0) {
        if (!accumulate) {
            for (int64_t i = 0; i < M; ++i) std::fill(C + i * ldc, C + i * ldc + N, T(0));
        }
        return;
    }
    const MicroKernel<T>& kernel = micro_kernel<T>();
    const int MR = kernel.mr, NR = kernel.nr;
    const int64_t MC = MR * kMCPanels;
    Scratch<T>& s = scratch<T>();
    const int64_t kc_max = std::min(K, kKC);
    const int64_t nc_max = std::min(N, kNC);
    const int64_t mc_max = std::min(M, MC);
    // Few rows of A (a classifier's batch, a matrix-vector product) and rows of B contiguous: packing B
    // would cost more than the product, which reuses each panel only ceil(M / MR) times. The micro-kernel
    // then reads B's rows in place (its ``rows`` form, the same arithmetic in the same order: results are
    // identical to the packed path); only a last, partial panel is packed, so nothing is read past B's end.
    const bool b_in_place = csb == 1 && M <= kInPlaceRowPanels * MR && kernel.rows != nullptr;
    s.a.resize(static_cast<size_t>(ceil_div_size(mc_max, MR) * MR * kc_max));
    s.b.resize(static_cast<size_t>((b_in_place ? 1 : ceil_div_size(nc_max, NR)) * NR * kc_max));
    s.tile.resize(static_cast<size_t>(MR * NR));
    if (b_in_place) s.off.resize(static_cast<size_t>(kc_max));
    T* ap = s.a.data();
    T* bp = s.b.data();
    T* tile = s.tile.data();

    for (int64_t jc = 0; jc < N; jc += kNC) {
        const int64_t nc = std::min(kNC, N - jc);
        const int64_t whole = b_in_place ? nc / NR * NR : 0;   // columns read in place
        for (int64_t pc = 0; pc < K; pc += kKC) {
            const int64_t kc = std::min(kKC, K - pc);
            const bool acc = accumulate || pc > 0;
            if (b_in_place) {
                for (int64_t k = 0; k < kc; ++k) s.off[static_cast<size_t>(k)] = (pc + k) * rsb;
                if (whole < nc) pack_b(B, rsb, csb, pc, jc + whole, kc, nc - whole, NR, bp);
            } else {
                pack_b(B, rsb, csb, pc, jc, kc, nc, NR, bp);
            }
            for (int64_t ic = 0; ic < M; ic += MC) {
                const int64_t mc = std::min(MC, M - ic);
                pack_a(A, rsa, csa, ic, pc, mc, kc, MR, ap);
                for (int64_t jr = 0; jr < nc; jr += NR) {
                    const int64_t nr = std::min<int64_t>(NR, nc - jr);
                    const bool rows = jr < whole;
                    const T* bj = b_in_place ? (rows ? B + jc + jr : bp) : bp + jr * kc;
                    for (int64_t ir = 0; ir < mc; ir += MR) {
                        const int64_t mr = std::min<int64_t>(MR, mc - ir);
                        T* c = C + (ic + ir) * ldc + jc + jr;
                        const T* ai = ap + ir * kc;
                        if (mr == MR && nr == NR) {
                            if (rows) {
                                kernel.rows(kc, ai, bj, s.off.data(), c, ldc, acc);
                            } else {
                                kernel.fn(kc, ai, bj, c, ldc, acc);
                            }
                        } else {
                            if (rows) {
                                kernel.rows(kc, ai, bj, s.off.data(), tile, NR, false);
                            } else {
                                kernel.fn(kc, ai, bj, tile, NR, false);
                            }
                            for (int64_t i = 0; i < mr; ++i) {
                                for (int64_t j = 0; j < nr; ++j) {
                                    c[i * ldc + j] = acc ? c[i * ldc + j] + tile[i * NR + j] : tile[i * NR + j];
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

template void gemm<float>(int64_t, int64_t, int64_t, const float*, int64_t, int64_t, const float*, int64_t, int64_t,
                          float*, int64_t, bool);
template void gemm<double>(int64_t, int64_t, int64_t, const double*, int64_t, int64_t, const double*, int64_t,
                           int64_t, double*, int64_t, bool);

template <typename T>
const MicroKernel<T>& micro_kernel() {
    static const MicroKernel<T> kernel = select_kernel<T>();
    return kernel;
}

template const MicroKernel<float>& micro_kernel<float>();
template const MicroKernel<double>& micro_kernel<double>();

template <typename T>
const DotKernel<T>& dot_kernel() {
    static const DotKernel<T> kernel = select_dot<T>();
    return kernel;
}

template const DotKernel<float>& dot_kernel<float>();
template const DotKernel<double>& dot_kernel<double>();

template <typename T>
const ConvKernel<T>& conv_kernel() {
    static const ConvKernel<T> kernel = select_conv<T>();
    return kernel;
}

template const ConvKernel<float>& conv_kernel<float>();
template const ConvKernel<double>& conv_kernel<double>();

const char* gemm_isa() {
    switch (kIsa) {
        case Isa::avx512: return "avx512";
        case Isa::avx2: return "avx2";
        case Isa::sse2: return "sse2";
        default: return "portable";
    }
}

}  // namespace mscpu
