// A blocked, packed GEMM (BLIS-style loop nest) for float and double, with register-tiled
// micro-kernels for AVX-512, AVX2+FMA and SSE2 chosen once at run time from the CPU's features (the
// library is built for the baseline ISA, so the wheel runs on any x86-64 CPU), and a portable
// fallback elsewhere.
//
// C (M x N, row stride ldc) = [C +] A (M x K) * B (K x N). A and B are addressed through element
// strides, A(i, k) = A[i * rsa + k * csa], so transposed operands cost nothing but the packing.
// The routine is serial: callers parallelise over independent output blocks.
#pragma once

#include <cstdint>

namespace mscpu {

template <typename T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa, const T* B, int64_t rsb,
          int64_t csb, T* C, int64_t ldc, bool accumulate);

// The register-tile kernel gemm() runs on this CPU, for callers that pack their own operands (the
// convolutions gather input windows straight into packed B panels): C[MR x NR] (row stride ldc)
// = [C +] sum over kc of a packed A panel (a[k * MR + i]) times a packed B panel (b[k * NR + j]);
// ``rows`` reads B's rows in place instead, row k being the NR values at b + off[k].
template <typename T>
struct MicroKernel {
    void (*fn)(int64_t kc, const T* a, const T* b, T* c, int64_t ldc, bool acc);
    void (*rows)(int64_t kc, const T* a, const T* b, const int64_t* off, T* c, int64_t ldc, bool acc);
    int mr;
    int nr;
};

template <typename T>
const MicroKernel<T>& micro_kernel();

// The inner-product tile for this CPU: c[i * ldc + j] = [c +] sum over nseg segments s and q < len of
// a[i][s * sa + q] * b[j][s * sb + q], for MO rows a[i] and NJ rows b[j] read in place (see
// gemm_ukr.h). ``lanes``: the vector width; a len that is a multiple of it has no scalar tail.
template <typename T>
struct DotKernel {
    void (*fn)(int64_t len, int64_t nseg, int64_t sa, int64_t sb, const T* const* a, const T* const* b, T* c,
               int64_t ldc, bool acc);
    int mo;
    int nj;
    int lanes;
};

template <typename T>
const DotKernel<T>& dot_kernel();

// One register tile of a convolution's forward (conv.cpp), epilogue included: rows i < MR (output channels)
// by ``nv`` vectors of W lanes, vector v being up to W consecutive outputs (``len[v]`` of them; 0: none):
//
//   acc[i][v] = sum over k < kc of a[k * MR + i] * (the len[v] values at b[v] + off[k])
//   c[v] + i * ldc  <-  [c +] acc, then, when ``last``: + bias[i], + the residual at z[v] + i * ldc, ReLU
//
// in that order, each rounded as the separate kernels (BiasAdd, Add, ReLU) round; only rows i < ``rows`` and
// the first len[v] lanes are read (b, c, z) or written. ``acc``: c holds the sums of earlier slices of k.
template <typename T>
struct ConvTile {
    static constexpr int kMaxVectors = 2;
    int64_t kc = 0;
    const T* a = nullptr;
    const int64_t* off = nullptr;
    const T* b[kMaxVectors] = {};
    T* c[kMaxVectors] = {};
    const T* z[kMaxVectors] = {};
    int len[kMaxVectors] = {};
    int64_t ldc = 0;
    int rows = 0;
    bool acc = false;
    bool last = true;
    const T* bias = nullptr;
    bool relu = false;
};

// A packed panel for ConvTile (the outputs of a vector spread over rows): for k < kc and vector v,
// dst[k * ld + v * w + j] = b[v][q[v][j] + off[k]] for lanes j < len[v] (the lanes past len[v] are left
// as they are); q[v] ascending.
template <typename T>
struct ConvPack {
    static constexpr int kMaxVectors = ConvTile<T>::kMaxVectors;
    int64_t kc = 0;
    const int64_t* off = nullptr;
    const T* b[kMaxVectors] = {};
    const int64_t* q[kMaxVectors] = {};
    int len[kMaxVectors] = {};
    T* dst = nullptr;
    int64_t ld = 0;
};

// The convolution tile for this CPU (``tile``) and its panel packing (``pack``).
template <typename T>
struct ConvKernel {
    void (*tile)(const ConvTile<T>& t);
    void (*pack)(const ConvPack<T>& p);
    int mr;   // rows of a tile (as MicroKernel::mr: the packed weights' panel height)
    int w;    // lanes of a vector
    int nv;   // vectors of a tile
    // A shorter tile (mr_short rows; none: nullptr), for layers whose output channels per group fill its
    // rows better (LeNet's 6 channels: 8-row tiles would compute 2 rows for nothing)
    void (*tile_short)(const ConvTile<T>& t) = nullptr;
    int mr_short = 0;

    // The tile height for a layer of og output channels per group: the tile computing fewer padding rows
    // (ceil(og / rows) * rows), the taller one where both compute as many; tile_of(rows) is that tile.
    int mr_for(int64_t og) const {
        const auto padded = [og](int m) { return (og + m - 1) / m * m; };
        return tile_short != nullptr && padded(mr_short) < padded(mr) ? mr_short : mr;
    }
    using TileFn = void (*)(const ConvTile<T>& t);
    TileFn tile_of(int rows) const { return rows == mr ? tile : tile_short; }
};

template <typename T>
const ConvKernel<T>& conv_kernel();

// Packs A[i0 : i0 + mc, p0 : p0 + kc] (A(i, k) = A[i * rsa + k * csa]) into MR-tall panels,
// dst[panel * MR * kc + k * MR + r], zero-padding the last panel.
template <typename T>
void pack_a(const T* A, int64_t rsa, int64_t csa, int64_t i0, int64_t p0, int64_t mc, int64_t kc, int MR, T* dst);

// d[q * ld + i] = rows[i][q] for i < nrows, q < len: rows written as columns (a transposition), eight at a
// time with the permutes AVX-512/AVX2 have (about 4x faster than strided scalar passes).
template <typename T>
void interleave(const T* const* rows, int64_t nrows, int64_t len, int64_t ld, T* d);

// The instruction set the micro-kernels use on this CPU: "avx512", "avx2", "sse2" or "portable".
const char* gemm_isa();

}  // namespace mscpu
