// Conversions between float32 and the 16-bit floats (IEEE float16, bfloat16), bit for bit NumPy's and
// ml_dtypes' results, NaN payloads included.
//
// Why: half-precision kernels compute in float32 (conv, matmul, batch norm, the C++ hot paths take float32 or
// float64 only), so an amp network on the CPU converts every activation twice per kernel. NumPy's float16 casts
// run one element at a time (about 0.6 G elements/s on an AVX-512 Xeon with F16C); a PYNATIVE ResNet amp step
// spent two thirds of its time in them.
//
// * float16: the F16C instructions (VCVTPH2PS / VCVTPS2PH, round to nearest even; every x86-64 CPU since 2012
//   has them; has_f16c() says whether this one does) eight lanes at a time. They quiet a signalling NaN where
//   NumPy keeps its payload bits as they are, so a block holding a NaN has those lanes redone by NumPy's rule:
//   float32 -> float16 keeps the top 10 significand bits (and sets the lowest when they are all zero, so that it
//   stays a NaN); float16 -> float32 moves them up 13 bits.
// * bfloat16: integer arithmetic the compiler vectorises (bf16 is float32's top half): widening shifts the bits
//   up; narrowing rounds to nearest even, and a NaN becomes ml_dtypes' quiet NaN of its sign (0x7fc0 | sign).
//
// One call converts a C-contiguous source into a C-contiguous destination of the same size; large arrays are
// split among the kernels' threads (the conversion is memory-bound: two threads still nearly halve it).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MSCPU_X86 1
#else
#define MSCPU_X86 0
#endif

#include "common.h"

namespace mscpu {
namespace {

// --- NumPy's and ml_dtypes' rules for the lanes the fast paths do not take ---------------------------------
inline uint16_t f32_nan_to_f16(uint32_t f) {
    uint16_t h = static_cast<uint16_t>(0x7c00u + ((f & 0x007fffffu) >> 13));
    if (h == 0x7c00u) ++h;
    return static_cast<uint16_t>(((f >> 16) & 0x8000u) | h);
}

inline uint32_t f16_nan_to_f32(uint16_t h) {
    return (static_cast<uint32_t>(h & 0x8000u) << 16) | 0x7f800000u | (static_cast<uint32_t>(h & 0x03ffu) << 13);
}

inline uint32_t bits_of(float v) {
    uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    return u;
}

inline float float_of(uint32_t u) {
    float v;
    std::memcpy(&v, &u, sizeof v);
    return v;
}

// --- float16 by F16C ---------------------------------------------------------------------------------------
#if MSCPU_X86
__attribute__((target("avx,f16c"))) void f16_to_f32_span(const uint16_t* src, float* dst, int64_t b, int64_t e) {
    int64_t i = b;
    for (; i + 8 <= e; i += 8) {
        const __m256 v = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i)));
        _mm256_storeu_ps(dst + i, v);
        if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q))) {
            for (int64_t j = i; j < i + 8; ++j) {
                if ((src[j] & 0x7c00u) == 0x7c00u && (src[j] & 0x03ffu)) dst[j] = float_of(f16_nan_to_f32(src[j]));
            }
        }
    }
    if (i < e) {  // the tail, through a block of eight
        alignas(32) uint16_t h[8] = {0};
        alignas(32) float f[8];
        std::memcpy(h, src + i, static_cast<size_t>(e - i) * sizeof(uint16_t));
        _mm256_store_ps(f, _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(h))));
        for (int64_t j = 0; j < e - i; ++j) {
            dst[i + j] = ((h[j] & 0x7c00u) == 0x7c00u && (h[j] & 0x03ffu)) ? float_of(f16_nan_to_f32(h[j])) : f[j];
        }
    }
}

__attribute__((target("avx,f16c"))) void f32_to_f16_span(const float* src, uint16_t* dst, int64_t b, int64_t e) {
    constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    int64_t i = b;
    for (; i + 8 <= e; i += 8) {
        const __m256 v = _mm256_loadu_ps(src + i);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm256_cvtps_ph(v, kRound));
        if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q))) {
            for (int64_t j = i; j < i + 8; ++j) {
                if (src[j] != src[j]) dst[j] = f32_nan_to_f16(bits_of(src[j]));
            }
        }
    }
    if (i < e) {
        alignas(32) float f[8] = {0};
        alignas(32) uint16_t h[8];
        std::memcpy(f, src + i, static_cast<size_t>(e - i) * sizeof(float));
        _mm_store_si128(reinterpret_cast<__m128i*>(h), _mm256_cvtps_ph(_mm256_load_ps(f), kRound));
        for (int64_t j = 0; j < e - i; ++j) dst[i + j] = f[j] != f[j] ? f32_nan_to_f16(bits_of(f[j])) : h[j];
    }
}

bool has_f16c() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
}
#else
void f16_to_f32_span(const uint16_t*, float*, int64_t, int64_t) {}
void f32_to_f16_span(const float*, uint16_t*, int64_t, int64_t) {}
bool has_f16c() { return false; }
#endif

// --- bfloat16 by integer arithmetic ------------------------------------------------------------------------
__attribute__((target_clones("avx512f", "avx2", "default")))
void bf16_to_f32_span(const uint16_t* __restrict src, uint32_t* __restrict dst, int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) dst[i] = static_cast<uint32_t>(src[i]) << 16;
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void f32_to_bf16_span(const uint32_t* __restrict src, uint16_t* __restrict dst, int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
        const uint32_t u = src[i];
        const bool nan = (u & 0x7fffffffu) > 0x7f800000u;
        const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
        dst[i] = static_cast<uint16_t>(nan ? (((u >> 16) & 0x8000u) | 0x7fc0u) : rounded);
    }
}

// --- the entry point ---------------------------------------------------------------------------------------
enum class Kind { f16, bf16 };

Kind kind_of(const std::string& where, const std::string& kind) {
    if (kind == "float16") return Kind::f16;
    if (kind == "bfloat16") return Kind::bf16;
    fail(where, "'kind' must be 'float16' or 'bfloat16', but got '" + kind + "'");
}

template <typename F>
void split_span(int64_t n, F&& body) {
    if (!worth_parallel(static_cast<double>(n), kParallelVisits)) {
        body(0, n);
        return;
    }
    parallel(max_threads(), [&](int tid, int nt) {
        int64_t b, e;
        static_range(n, tid, nt, b, e);
        if (b < e) body(b, e);
    });
}

// src -> dst, one of them float32 and the other 16-bit (``kind``), both C-contiguous and of one size.
void convert(const py::array& src, py::array& dst, const std::string& kind_name) {
    const std::string where = "convert_half";
    check_array(where, "src", src, -1);
    check_array(where, "dst", dst, -1);
    const Kind kind = kind_of(where, kind_name);
    if (src.size() != dst.size()) fail(where, "'src' " + shape_str(src) + " and 'dst' " + shape_str(dst) + " differ");
    if (!dst.writeable()) fail(where, "'dst' must be writeable");
    const bool widen = src.itemsize() == 2 && dtype_of(dst) == DType::f32;
    const bool narrow = dtype_of(src) == DType::f32 && dst.itemsize() == 2;
    if (!widen && !narrow) fail(where, "one of 'src' and 'dst' must be float32 and the other 16-bit");
    if (kind == Kind::f16 && !has_f16c()) fail(where, "float16 needs a CPU with F16C (has_f16c() is False)");
    const int64_t n = src.size();
    const void* in = src.data();
    void* out = dst.mutable_data();
    py::gil_scoped_release release;
    split_span(n, [&](int64_t b, int64_t e) {
        if (kind == Kind::f16) {
            if (widen) f16_to_f32_span(static_cast<const uint16_t*>(in), static_cast<float*>(out), b, e);
            else f32_to_f16_span(static_cast<const float*>(in), static_cast<uint16_t*>(out), b, e);
        } else {
            if (widen) bf16_to_f32_span(static_cast<const uint16_t*>(in), static_cast<uint32_t*>(out), b, e);
            else f32_to_bf16_span(static_cast<const uint32_t*>(in), static_cast<uint16_t*>(out), b, e);
        }
    });
}

}  // namespace

void register_halfcast(py::module_& m) {
    using py::arg;
    m.def("has_f16c", &has_f16c, "Whether this CPU converts float16 in hardware (F16C), which convert_half needs.");
    m.def("convert_half", &convert, arg("src"), arg("dst"), arg("kind"),
          "Convert src into dst, float32 <-> the 16-bit 'kind' ('float16' or 'bfloat16'), both C-contiguous and "
          "of one size, with NumPy's (float16) and ml_dtypes' (bfloat16) rounding and NaN bits.");
}

}  // namespace mscpu
