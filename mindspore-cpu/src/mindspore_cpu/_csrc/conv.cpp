// Convolution kernels: forward, backward-data and backward-filter, in float32 and float64.
//
// Everything is 3-D (N, C, D, H, W); the Python side views 1-D and 2-D convolutions as 3-D ones
// with unit depth (and height), which costs nothing. With k running over (c, kz, ky, kx) of one
// group and p over the output positions:
//
//   forward          Y[o, p]  = sum_k W[o, k] * col(X)[k, p]
//   backward-filter  dW[o, k] = sum over batch items and p of dY[o, p] * col(X)[k, p]
//   backward-data    dX       = col2im(W^T dY), or, with unit strides, a convolution of dY
//
// The column matrix col(X) is never written out whole (see "implicit GEMM" below). Convolutions number
// their outputs along the padded input's rows ("wide rows"; strided ones on a polyphase copy of the
// input), so that a row of a packed GEMM panel is a row of the input, read in place by the micro-kernel
// (gemm.h). The filter gradient runs as dot products of contiguous rows, or, with many channels, as a
// GEMM over a channels-last copy of the input. Wide kernels on small maps, where the wide rows would
// waste more than they save, gather row runs instead. Backward-data with strides, or where a
// transposed convolution would cost more, is GEMM + col2im: running it as one convolution per phase of
// the strides was measured slower on ResNet's downsampling layers (8x8 phases fill few panels).
//
// Parallelism (OpenMP): tasks are (batch item, group, block of positions or of kernel offsets),
// split statically. Every output element is summed in one fixed order, except the filter
// gradient, which each thread sums over its own batch items and then adds in thread order: results
// are deterministic for a given thread count. Padding is given as the amount before each axis; the
// amount after is implied by the output size (positions outside the input read as zero).
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>

#include "common.h"
#include "gemm.h"

namespace mscpu {
namespace {

struct Geometry {
    int64_t N, C, O, G;       // batch, input channels, output channels, groups
    Dims3 in, out, k;         // input size, output size, kernel size (D, H, W)
    Dims3 stride, pad, dil;   // pad = padding before each axis
    int64_t Cg() const { return C / G; }
    int64_t Og() const { return O / G; }
    int64_t ksize() const { return k[0] * k[1] * k[2]; }
    int64_t Kg() const { return Cg() * ksize(); }
    int64_t P() const { return out[0] * out[1] * out[2]; }
    int64_t S() const { return in[0] * in[1] * in[2]; }
    bool direct() const {
        return k[0] == 1 && k[1] == 1 && k[2] == 1 && stride[0] == 1 && stride[1] == 1 && stride[2] == 1 &&
               pad[0] == 0 && pad[1] == 0 && pad[2] == 0 && out == in;
    }
};

// Valid output range [lo, hi) along one axis for kernel offset ``off`` (input index = o * s + off).
inline void valid_range(int64_t off, int64_t s, int64_t in, int64_t out, int64_t& lo, int64_t& hi) {
    lo = off >= 0 ? 0 : ceil_div(-off, s);
    hi = off > in - 1 ? 0 : std::min(out, (in - 1 - off) / s + 1);
    if (lo > out) lo = out;
    if (hi < lo) hi = lo;
}

// dx[c] += col2im(col) for channels [c0, c1) of one slice (dx must be zeroed by the caller).
template <typename T>
void col2im(const T* col, const Geometry& g, T* dx, int64_t c0, int64_t c1) {
    const int64_t D = g.in[0], H = g.in[1], W = g.in[2];
    const int64_t OD = g.out[0], OH = g.out[1], OW = g.out[2], P = g.P();
    for (int64_t c = c0; c < c1; ++c) {
        T* xc = dx + c * D * H * W;
        for (int64_t kz = 0; kz < g.k[0]; ++kz) {
            for (int64_t ky = 0; ky < g.k[1]; ++ky) {
                for (int64_t kx = 0; kx < g.k[2]; ++kx) {
                    const T* row = col + (((c * g.k[0] + kz) * g.k[1] + ky) * g.k[2] + kx) * P;
                    const int64_t offx = kx * g.dil[2] - g.pad[2];
                    int64_t lo, hi;
                    valid_range(offx, g.stride[2], W, OW, lo, hi);
                    for (int64_t oz = 0; oz < OD; ++oz) {
                        const int64_t iz = oz * g.stride[0] - g.pad[0] + kz * g.dil[0];
                        if (iz < 0 || iz >= D) continue;
                        for (int64_t oy = 0; oy < OH; ++oy) {
                            const int64_t iy = oy * g.stride[1] - g.pad[1] + ky * g.dil[1];
                            if (iy < 0 || iy >= H) continue;
                            const T* r = row + (oz * OH + oy) * OW;
                            T* xr = xc + (iz * H + iy) * W + offx;
                            const int64_t s = g.stride[2];
                            for (int64_t ox = lo; ox < hi; ++ox) xr[ox * s] += r[ox];
                        }
                    }
                }
            }
        }
    }
}

// [begin, end) of part ``i`` of ``n`` of the range [0, total), in multiples of ``align``.
inline void split(int64_t total, int parts, int i, int64_t align, int64_t& begin, int64_t& end) {
    const int64_t chunk = ceil_div(ceil_div(total, parts), align) * align;
    begin = std::min(total, i * chunk);
    end = std::min(total, begin + chunk);
}

// --- implicit GEMM: input windows gathered straight into packed panels ----------------------
//
// The GEMM micro-kernel (gemm.h) multiplies an MR-tall packed panel of one operand by an NR-wide
// packed panel of the other. An explicit im2col writes the whole column matrix and the GEMM then
// reads it back to pack it: with the few output channels of small networks (6 to 64) that copying
// costs more than the arithmetic. Here each NR-wide panel of the column matrix is gathered from
// the input directly in packed order, used at once while it sits in L1, and never stored whole.

constexpr int64_t kSlice = 256;  // depth of one packed slice (as gemm.cpp's KC): both panels stay in L1

// A run of consecutive output positions on one output row: positions [p, p + len) are output
// (oz, oy, ox0 ... ox0 + len - 1) and land in panel columns [col, col + len).
struct Run {
    int64_t oz, oy, ox0, len, col;
};

// The rows of output positions [p0, p0 + n).
inline void runs_of(const Geometry& g, int64_t p0, int64_t n, std::vector<Run>& runs) {
    runs.clear();
    const int64_t OH = g.out[1], OW = g.out[2];
    for (int64_t p = p0; p < p0 + n;) {
        const int64_t oz = p / (OH * OW), oy = (p / OW) % OH, ox = p % OW;
        const int64_t len = std::min(OW - ox, p0 + n - p);
        runs.push_back(Run{oz, oy, ox, len, p - p0});
        p += len;
    }
}

// Kernel offset k = (c, kz, ky, kx) of one group's column matrix, as the input element it reads for
// output (oz, oy, ox): x[c][oz * s0 + rz][oy * s1 + ry][ox * s2 + rx] (r = offset - padding).
struct Tap {
    int64_t c, rz, ry, rx, lo, hi;  // [lo, hi): the output columns whose input column is inside the row
};

inline Tap tap_of(const Geometry& g, int64_t k) {
    const int64_t kk = g.ksize(), kx = k % g.k[2], ky = (k / g.k[2]) % g.k[1], kz = (k % kk) / (g.k[1] * g.k[2]);
    Tap t{k / kk, kz * g.dil[0] - g.pad[0], ky * g.dil[1] - g.pad[1], kx * g.dil[2] - g.pad[2], 0, 0};
    valid_range(t.rx, g.stride[2], g.in[2], g.out[2], t.lo, t.hi);
    return t;
}

// Copies tap ``t`` of one output run into dst[0], dst[step], ... (zeros outside the input).
template <typename T>
inline void gather_run(const T* xg, const Geometry& g, const Tap& t, const Run& r, T* dst, int64_t step) {
    const int64_t iz = r.oz * g.stride[0] + t.rz, iy = r.oy * g.stride[1] + t.ry;
    const int64_t end = r.ox0 + r.len;
    int64_t a = std::max(r.ox0, t.lo), b = std::min(end, t.hi);
    if (iz < 0 || iz >= g.in[0] || iy < 0 || iy >= g.in[1] || a >= b) a = b = end;  // all zeros
    const int64_t s = g.stride[2];
    const T* xr = xg + ((t.c * g.in[0] + iz) * g.in[1] + iy) * g.in[2] + t.rx;
    T* d = dst - r.ox0 * step;
    for (int64_t ox = r.ox0; ox < a; ++ox) d[ox * step] = T(0);
    if (step == 1 && s == 1) {
        std::memcpy(d + a, xr + a, sizeof(T) * (b - a));
    } else {
        for (int64_t ox = a; ox < b; ++ox) d[ox * step] = xr[ox * s];
    }
    for (int64_t ox = b; ox < end; ++ox) d[ox * step] = T(0);
}

// dw = the sum of the threads' partial filter gradients, in thread order (deterministic for a given
// thread count); threads that took no task left theirs empty.
template <typename T>
void sum_partials(const std::vector<std::vector<T>>& partial, T* dw, int64_t wsize) {
    std::fill(dw, dw + wsize, T(0));
    for (const std::vector<T>& acc : partial) {
        if (acc.empty()) continue;
        for (int64_t i = 0; i < wsize; ++i) dw[i] += acc[i];
    }
}

// One register tile: rows [0, mr) x columns [0, nr) of C (row stride ldc), through a scratch tile
// when the tile is partial.
template <typename T>
inline void tile(const MicroKernel<T>& uk, int64_t kc, const T* a, const T* b, T* c, int64_t ldc, int64_t mr,
                 int64_t nr, bool acc, T* scratch) {
    if (mr == uk.mr && nr == uk.nr) {
        uk.fn(kc, a, b, c, ldc, acc);
        return;
    }
    uk.fn(kc, a, b, scratch, uk.nr, false);
    for (int64_t i = 0; i < mr; ++i) {
        for (int64_t j = 0; j < nr; ++j) c[i * ldc + j] = acc ? c[i * ldc + j] + scratch[i * uk.nr + j] : scratch[i * uk.nr + j];
    }
}

// --- convolutions on "wide" rows ---------------------------------------------------------------
//
// With unit strides, output (oz, oy, ox) reads input (oz + az, oy + ay, ox + ax) for kernel offset
// a. Number the outputs over the (padded) input's row width instead of the output's, p = (oz * Hp +
// oy) * Wp + ox: then the tap at offset a reads input element p + (az * Hp + ay) * Wp + ax, so NR
// consecutive outputs read NR consecutive inputs: a packed panel row is a row of the input, read in
// place, whatever the output width (LeNet's 10-wide rows cost as little as ResNet's 32-wide ones). The
// price is the Wp - OW positions per row that are not outputs: computed and dropped (a few percent for
// 3x3 kernels, 40% for 5x5 on 14-wide maps, still far cheaper than short copies).
//
// Strided convolutions become unit-stride ones on a polyphase copy of the input: along an axis of
// stride s, padded input index u = o * s + a * d splits into phase u % s and index u / s, and every
// tap of the kernel reads one phase plane at a fixed shift, (a * d) / s. Each channel keeps the phase
// planes its taps read (a 3x3 kernel of stride 2 reads all four, a 1x1 only one), all of one extent
// (Dp, Hp, Wp), so the tap offsets and wide positions work as with unit strides, and the copy costs
// what the padded copy costs. Padding is made explicit in the same copy (zeros).
struct Wide {
    Dims3 pdim;               // extent of a phase plane (Dp, Hp, Wp): every tap of every output lies inside
    int64_t Sp;               // Dp * Hp * Wp
    int64_t nslot;            // phase planes kept per channel
    std::vector<int64_t> slot;  // plane of each phase (pz * s1 + py) * s2 + px, -1 where no tap reads it
    int64_t Pw;               // wide positions: up to the last output, (OD - 1, OH - 1, OW - 1), inclusive
    bool copy;                // whether the input needs a copy (padding or strides)
    int64_t Cs() const { return nslot * Sp; }   // elements per channel
};

inline Wide wide_of(const Geometry& g) {
    Wide w{};
    w.copy = false;
    for (int a = 0; a < 3; ++a) {
        w.pdim[a] = g.out[a] + g.dil[a] * (g.k[a] - 1) / g.stride[a];
        if (g.stride[a] == 1) w.pdim[a] = std::max(w.pdim[a], g.in[a] + g.pad[a]);
        w.copy = w.copy || g.pad[a] != 0 || g.stride[a] != 1 || w.pdim[a] != g.in[a];
    }
    w.Sp = w.pdim[0] * w.pdim[1] * w.pdim[2];
    w.slot.assign(static_cast<size_t>(g.stride[0] * g.stride[1] * g.stride[2]), -1);
    w.nslot = 0;
    for (int64_t kz = 0; kz < g.k[0]; ++kz) {
        for (int64_t ky = 0; ky < g.k[1]; ++ky) {
            for (int64_t kx = 0; kx < g.k[2]; ++kx) {
                const int64_t ph = ((kz * g.dil[0] % g.stride[0]) * g.stride[1] + ky * g.dil[1] % g.stride[1]) *
                                       g.stride[2] + kx * g.dil[2] % g.stride[2];
                if (w.slot[ph] < 0) w.slot[ph] = w.nslot++;
            }
        }
    }
    w.Pw = ((g.out[0] - 1) * w.pdim[1] + (g.out[1] - 1)) * w.pdim[2] + g.out[2];
    return w;
}

inline bool unit_stride(const Geometry& g) { return g.stride[0] == 1 && g.stride[1] == 1 && g.stride[2] == 1; }

// Whether the wide form pays: always with unit strides; with strides, unless the positions that are
// not outputs would add more than half (a wide kernel on a small map).
inline bool use_wide(const Geometry& g, const Wide& w) {
    return unit_stride(g) || 2 * w.Pw <= 3 * g.P();
}

// d[i] = src[i * s] for i < n; stride 2 (a downsampling layer's phases) vectorises with permutes where
// the CPU has AVX-512 or AVX2.
template <typename T>
inline void strided_copy_body(T* __restrict d, const T* __restrict src, int64_t n, int64_t s) {
    if (s == 2) {
        for (int64_t i = 0; i < n; ++i) d[i] = src[2 * i];
    } else {
        for (int64_t i = 0; i < n; ++i) d[i] = src[i * s];
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void strided_copy(float* d, const float* src, int64_t n, int64_t s) { strided_copy_body(d, src, n, s); }

__attribute__((target_clones("avx512f", "avx2", "default")))
void strided_copy(double* d, const double* src, int64_t n, int64_t s) { strided_copy_body(d, src, n, s); }

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

// The input as (N, C, phase planes, Dp, Hp, Wp) with zeros where padding is, followed by ``tail``
// zeros (or the input itself when it needs no copy and no tail). ``buf`` is left uninitialised by the
// allocation: every plane is zeroed and filled by the thread that copies it, while it sits in that
// thread's cache.
template <typename T>
const T* padded_input(const T* x, const Geometry& g, const Wide& w, int64_t tail, std::unique_ptr<T[]>& buf,
                      bool par) {
    if (!w.copy && tail == 0) return x;
    const int64_t channels = g.N * g.C, D = g.in[0], H = g.in[1], W = g.in[2];
    const int64_t s0 = g.stride[0], s1 = g.stride[1], s2 = g.stride[2];
    buf.reset(new T[static_cast<size_t>(channels * w.Cs() + tail)]);
    T* xp = buf.get();
#pragma omp parallel for num_threads(max_threads()) schedule(static) if (par)
    for (int64_t ch = 0; ch < channels; ++ch) {
        const T* src = x + ch * D * H * W;
        for (int64_t ph = 0; ph < static_cast<int64_t>(w.slot.size()); ++ph) {
            if (w.slot[ph] < 0) continue;
            T* plane = xp + ch * w.Cs() + w.slot[ph] * w.Sp;
            if (w.copy) std::fill(plane, plane + w.Sp, T(0));
            const int64_t pz = ph / (s1 * s2), py = (ph / s2) % s1, px = ph % s2;
            // phase index v reads input index v * s + phase - pad: the valid v along x
            int64_t xlo = 0, xhi = w.pdim[2];
            while (xlo < xhi && xlo * s2 + px - g.pad[2] < 0) ++xlo;
            while (xhi > xlo && (xhi - 1) * s2 + px - g.pad[2] >= W) --xhi;
            for (int64_t vz = 0; vz < w.pdim[0]; ++vz) {
                const int64_t iz = vz * s0 + pz - g.pad[0];
                if (iz < 0 || iz >= D) continue;
                for (int64_t vy = 0; vy < w.pdim[1]; ++vy) {
                    const int64_t iy = vy * s1 + py - g.pad[1];
                    if (iy < 0 || iy >= H) continue;
                    const T* row = src + (iz * H + iy) * W + px - g.pad[2];
                    T* dst = plane + (vz * w.pdim[1] + vy) * w.pdim[2];
                    if (s2 == 1) {
                        std::memcpy(dst + xlo, row + xlo, sizeof(T) * (xhi - xlo));
                    } else if (xhi > xlo) {
                        strided_copy(dst + xlo, row + xlo * s2, xhi - xlo, s2);
                    }
                }
            }
        }
    }
    std::fill(xp + channels * w.Cs(), xp + channels * w.Cs() + tail, T(0));
    return xp;
}

// Offset of kernel tap k = (c, kz, ky, kx) from a wide position, inside one group's (polyphase) input.
inline std::vector<int64_t> wide_taps(const Geometry& g, const Wide& w) {
    std::vector<int64_t> off(static_cast<size_t>(g.Kg()));
    const int64_t kk = g.ksize();
    for (int64_t k = 0; k < g.Kg(); ++k) {
        const int64_t kx = k % g.k[2], ky = (k / g.k[2]) % g.k[1], kz = (k % kk) / (g.k[1] * g.k[2]);
        const int64_t az = kz * g.dil[0], ay = ky * g.dil[1], ax = kx * g.dil[2];
        const int64_t ph = ((az % g.stride[0]) * g.stride[1] + ay % g.stride[1]) * g.stride[2] + ax % g.stride[2];
        off[k] = (k / kk) * w.Cs() + w.slot[ph] * w.Sp +
                 ((az / g.stride[0]) * w.pdim[1] + ay / g.stride[1]) * w.pdim[2] + ax / g.stride[2];
    }
    return off;
}

// Output index of each wide position, -1 for positions that are not outputs.
inline std::vector<int64_t> wide_targets(const Geometry& g, const Wide& w) {
    std::vector<int64_t> target(static_cast<size_t>(w.Pw));
    for (int64_t p = 0; p < w.Pw; ++p) {
        const int64_t ox = p % w.pdim[2], oy = (p / w.pdim[2]) % w.pdim[1], oz = p / (w.pdim[1] * w.pdim[2]);
        target[p] = ox >= g.out[2] || oy >= g.out[1] ? -1 : (oz * g.out[1] + oy) * g.out[2] + ox;
    }
    return target;
}

// What the forward applies to each output on its way out: + bias[o] (a BiasAdd), then max(v, 0) (a
// ReLU), in that order and in T, exactly as the separate kernels round. NaN passes a ReLU, as NumPy's
// maximum lets it.
//
// Branch-free on the value: a data-dependent branch per output (half of a ReLU's inputs are negative)
// mispredicts so often that it cost more than the convolution. The clamp is max(v, floor) with
// floor = 0 (ReLU) or -inf (none), written as v < floor ? floor : v so that NaN and -0 pass unchanged.
template <typename T>
struct Epilogue {
    const T* bias = nullptr;  // (O,) or none
    bool relu = false;
    bool any() const { return bias != nullptr || relu; }
    T floor() const { return relu ? T(0) : -std::numeric_limits<T>::infinity(); }
    T shift(int64_t o) const { return bias ? bias[o] : T(0); }
};

// A run of panel columns [col, col + len) whose outputs are consecutive, from y[out] on.
struct Span {
    int64_t col, len, out;
};

// The spans of the first n columns of a panel (target: each column's output, -1 for none).
inline void spans_of(const int64_t* target, int64_t n, std::vector<Span>& spans) {
    spans.clear();
    for (int64_t j = 0; j < n;) {
        if (target[j] < 0) {
            ++j;
            continue;
        }
        int64_t e = j + 1;
        while (e < n && target[e] == target[e - 1] + 1) ++e;
        spans.push_back(Span{j, e - j, target[j]});
        j = e;
    }
}

// y[s.out + q] = clamp(a[s.col + q] + shift) over the spans: contiguous loops the compiler vectorises.
template <typename T>
inline void write_row(const T* a, const std::vector<Span>& spans, T* y, T shift, T lo, bool has_shift) {
    for (const Span& s : spans) {
        const T* src = a + s.col;
        T* dst = y + s.out;
        for (int64_t q = 0; q < s.len; ++q) {
            T v = has_shift ? src[q] + shift : src[q];
            dst[q] = v < lo ? lo : v;
        }
    }
}

template <typename T>
void forward_wide(const T* x, const T* wp, T* y, const Geometry& g, const Wide& w, int64_t Mp, bool par,
                  const Epilogue<T>& ep) {
    const MicroKernel<T>& uk = micro_kernel<T>();
    const int64_t MR = uk.mr, NR = uk.nr;
    const int64_t Cg = g.Cg(), Og = g.Og(), Kg = g.Kg(), P = g.P();
    std::unique_ptr<T[]> buf;
    const T* xp = padded_input(x, g, w, 0, buf, par);
    const std::vector<int64_t> taps = wide_taps(g, w), targets = wide_targets(g, w);
    const int64_t panels = ceil_div(w.Pw, NR), tasks = g.N * g.G * panels;
#pragma omp parallel num_threads(max_threads()) if (par)
    {
        std::vector<T> bp(static_cast<size_t>(kSlice * NR)), acc(static_cast<size_t>(Mp * NR));
        std::vector<Span> spans;
#pragma omp for schedule(static)
        for (int64_t t = 0; t < tasks; ++t) {
            const int64_t n = t / (g.G * panels), gi = (t / panels) % g.G, p0 = (t % panels) * NR;
            const int64_t nr = std::min(NR, w.Pw - p0);
            const T* xg = xp + (n * g.C + gi * Cg) * w.Cs() + p0;
            for (int64_t k0 = 0; k0 < Kg; k0 += kSlice) {
                const int64_t kc = std::min(kSlice, Kg - k0);
                const T* wk = wp + gi * Mp * Kg + k0 * Mp;
                if (nr == NR) {   // a full panel: its rows are read in place, no copy at all
                    for (int64_t i = 0; i < Og; i += MR) {
                        uk.rows(kc, wk + i * kc, xg, taps.data() + k0, acc.data() + i * NR, NR, k0 > 0);
                    }
                    continue;
                }
                for (int64_t kk = 0; kk < kc; ++kk) {   // the last, partial panel: copied, zero-filled
                    T* row = bp.data() + kk * NR;
                    std::memcpy(row, xg + taps[k0 + kk], sizeof(T) * nr);
                    std::fill(row + nr, row + NR, T(0));
                }
                for (int64_t i = 0; i < Og; i += MR) uk.fn(kc, wk + i * kc, bp.data(), acc.data() + i * NR, NR, k0 > 0);
            }
            spans_of(targets.data() + p0, nr, spans);
            T* yg = y + (n * g.O + gi * Og) * P;
            for (int64_t o = 0; o < Og; ++o) {
                write_row(acc.data() + o * NR, spans, yg + o * P, ep.shift(gi * Og + o), ep.floor(), ep.bias != nullptr);
            }
        }
    }
}

// backward-filter on wide rows: dW[o, k] = sum over batch items and positions p of dY[o, p] x[p +
// offset(k)], a dot product along a dY row and a shifted input row, both contiguous: the
// inner-product tile (gemm.h) reads them in place, with no transposition. dY is first laid out on the
// wide positions (zeros at the positions that are not outputs), each row padded with zeros to a
// multiple of the vector width so that no scalar tail remains; the input copy gets the same margin
// at its end. Those zero dY entries meet real input values (the row's wrap-around), so an infinite
// input there turns the gradient NaN where the exact sum would skip it; a non-finite input already
// makes the loss non-finite.
//
// Tasks: (chunk of batch items, block of output channels, block of kernel offsets). A chunk's rows
// are summed in registers before one horizontal reduction, and the chunk is sized so its dY and
// input stay in L2 while every block of it is computed. Each thread sums into its own filter
// gradient; those are added in thread order (deterministic for a given thread count).
template <typename T>
void backward_filter_wide(const T* dy, const T* x, T* dw, const Geometry& g, const Wide& w, bool par) {
    const DotKernel<T>& dk = dot_kernel<T>();
    const int64_t MO = dk.mo, NJ = dk.nj;
    const int64_t Cg = g.Cg(), Og = g.Og(), Kg = g.Kg(), P = g.P(), wsize = g.O * Kg;
    const int64_t Pr = ceil_div(w.Pw, dk.lanes) * dk.lanes;
    std::unique_ptr<T[]> buf;
    const T* xp = padded_input(x, g, w, Pr, buf, par);   // the rows are read up to Pr past the last position
    const std::vector<int64_t> taps = wide_taps(g, w), targets = wide_targets(g, w);
    std::vector<Span> spans;
    spans_of(targets.data(), w.Pw, spans);
    // dY on wide positions: (N, G, Og, Pr)
    const int64_t items = g.N * g.G;
    std::unique_ptr<T[]> dyw(new T[static_cast<size_t>(items * Og * Pr)]);
#pragma omp parallel for num_threads(max_threads()) schedule(static) if (par)
    for (int64_t r = 0; r < items * Og; ++r) {
        const T* src = dy + r * P;   // (n, gi, o) rows are consecutive in dY as in dyw
        T* row = dyw.get() + r * Pr;
        std::fill(row, row + Pr, T(0));
        for (const Span& sp : spans) std::memcpy(row + sp.col, src + sp.out, sizeof(T) * sp.len);
    }
    // items whose rows are summed at once: about 8192 positions (fewer horizontal reductions; the chunk of
    // a 32x32 map still fits L2), in equal chunks
    const int64_t chunks = ceil_div(g.N, std::max<int64_t>(1, 8192 / Pr)), per_chunk = ceil_div(g.N, chunks);
    const int64_t oblocks = ceil_div(Og, MO), jblocks = ceil_div(Kg, NJ);
    const int64_t tasks = chunks * g.G * oblocks * jblocks;
    const int nt = par ? max_threads() : 1;
    std::vector<std::vector<T>> partial(static_cast<size_t>(nt));
#pragma omp parallel num_threads(nt) if (par)
    {
        std::vector<T>& acc = partial[thread_id()];
        acc.assign(static_cast<size_t>(wsize), T(0));
        std::vector<T> tile(static_cast<size_t>(MO * NJ));
        std::vector<const T*> arows(static_cast<size_t>(MO)), brows(static_cast<size_t>(NJ));
#pragma omp for schedule(static)
        for (int64_t t = 0; t < tasks; ++t) {
            const int64_t jb = t % jblocks, ob = (t / jblocks) % oblocks, gi = (t / (jblocks * oblocks)) % g.G;
            const int64_t n0 = (t / (jblocks * oblocks * g.G)) * per_chunk, ns = std::min(per_chunk, g.N - n0);
            const int64_t o0 = ob * MO, mo = std::min(MO, Og - o0), j0 = jb * NJ, nj = std::min(NJ, Kg - j0);
            const T* dyg = dyw.get() + (n0 * g.G + gi) * Og * Pr;
            const T* xg = xp + (n0 * g.C + gi * Cg) * w.Cs();
            // partial blocks repeat their last real row (it steps through the items like the others);
            // those results are dropped
            for (int64_t i = 0; i < MO; ++i) arows[i] = dyg + (o0 + std::min(i, mo - 1)) * Pr;
            for (int64_t j = 0; j < NJ; ++j) brows[j] = xg + taps[j0 + std::min(j, nj - 1)];
            dk.fn(Pr, ns, g.G * Og * Pr, g.C * w.Cs(), arows.data(), brows.data(), tile.data(), NJ, false);
            T* dwg = acc.data() + gi * Og * Kg;
            for (int64_t i = 0; i < mo; ++i) {
                for (int64_t j = 0; j < nj; ++j) dwg[(o0 + i) * Kg + j0 + j] += tile[i * NJ + j];
            }
        }
    }
    sum_partials(partial, dw, wsize);
}

// backward-filter on wide rows, channels last: the outer-product (GEMM micro-kernel) form, for
// layers with many channels, where the dot products above have short rows (8x8 maps) and read ten
// rows per 24 multiply-add vectors. With the input copied channels-last, Xt[q][c] (q a wide position,
// polyphase planes one after the other), kernel taps that differ only in their x shift read
// neighbouring rows of Xt, so for fixed (phase, z and y shifts) the columns (x shift, c) of the
// column matrix at position q are one contiguous run of Xt: a "line". Then
//
//   dW[o, line column j] = sum over q of dY[o, q] * Xt[line row + q][j]
//
// is a GEMM whose B rows are read in place (the micro-kernel's row form, row k at k * Cg) and whose A
// is dY packed once in MR-tall panels (a transposition of dY onto the wide positions, zeros where a
// position is not an output). Items are concatenated along q (each keeps its whole phase planes, so
// a tap reads the same item); only each item's first Pw positions are summed. Tasks are (group, batch
// item, slice of positions); each thread sums into its own (padded) filter gradient, added in thread
// order at the end (deterministic for a given thread count).
struct Line {
    int64_t row;                // row offset in Xt from a position (phase plane, z/y/x shift)
    int64_t len;                // columns: taps * Cg
    int64_t col;                // first column in the padded gradient (multiple of NR)
    std::vector<int64_t> taps;  // spatial tap (kz, ky, kx) of each Cg-wide part of the line
};

// The lines of a kernel, and the total of their widths rounded up to NR each.
inline std::vector<Line> lines_of(const Geometry& g, const Wide& w, int64_t NR, int64_t& width) {
    std::vector<Line> lines;
    const int64_t Q = g.N * w.Sp;   // rows of one phase plane's block (all items)
    for (int64_t kz = 0; kz < g.k[0]; ++kz) {
        for (int64_t ky = 0; ky < g.k[1]; ++ky) {
            const int64_t az = kz * g.dil[0], ay = ky * g.dil[1];
            for (int64_t px = 0; px < g.stride[2]; ++px) {   // taps of one x phase, in order of x shift
                int64_t last = -2;
                for (int64_t kx = 0; kx < g.k[2]; ++kx) {
                    const int64_t ax = kx * g.dil[2];
                    if (ax % g.stride[2] != px) continue;
                    const int64_t ph = ((az % g.stride[0]) * g.stride[1] + ay % g.stride[1]) * g.stride[2] + px;
                    const int64_t shx = ax / g.stride[2];
                    if (shx != last + 1) {
                        const int64_t row = w.slot[ph] * Q + ((az / g.stride[0]) * w.pdim[1] + ay / g.stride[1]) * w.pdim[2] + shx;
                        lines.push_back(Line{row, 0, 0, {}});
                    }
                    lines.back().len += g.Cg();
                    lines.back().taps.push_back((kz * g.k[1] + ky) * g.k[2] + kx);
                    last = shx;
                }
            }
        }
    }
    width = 0;
    for (Line& ln : lines) {
        ln.col = width;
        width += ceil_div(ln.len, NR) * NR;
    }
    return lines;
}

// Whether the channels-last form pays: its lines waste little of the NR-wide tiles (many channels).
inline bool channels_last_pays(const Geometry& g, const Wide& w, int64_t NR) {
    int64_t width = 0;
    lines_of(g, w, NR, width);
    return 8 * width <= 9 * g.Kg();
}

template <typename T>
void backward_filter_cl(const T* dy, const T* x, T* dw, const Geometry& g, const Wide& w, bool par) {
    const MicroKernel<T>& uk = micro_kernel<T>();
    const int64_t MR = uk.mr, NR = uk.nr;
    const int64_t Cg = g.Cg(), Og = g.Og(), Kg = g.Kg(), P = g.P(), kk = g.ksize();
    const int64_t D = g.in[0], H = g.in[1], W = g.in[2], S = g.S();
    const int64_t Q = g.N * w.Sp, nop = ceil_div(Og, MR), Mp = nop * MR;
    int64_t width = 0;
    const std::vector<Line> lines = lines_of(g, w, NR, width);
    const int64_t nphase = static_cast<int64_t>(w.slot.size());
    // Xt: (G, phase planes, N, Dp, Hp, Wp, Cg), then NR zeros (tiles read up to NR past a line's end)
    const int64_t xblock = w.nslot * Q * Cg;
    std::unique_ptr<T[]> xt(new T[static_cast<size_t>(g.G * xblock + NR)]);
    std::fill(xt.get() + g.G * xblock, xt.get() + g.G * xblock + NR, T(0));
    const int64_t fills = g.G * nphase * g.N;
#pragma omp parallel num_threads(max_threads()) if (par)
    {
        std::vector<const T*> rows(static_cast<size_t>(Cg));
        std::vector<T> gathered(g.stride[2] == 1 ? 0 : static_cast<size_t>(Cg * w.pdim[2]));
#pragma omp for schedule(static)
        for (int64_t f = 0; f < fills; ++f) {
            const int64_t gi = f / (nphase * g.N), ph = (f / g.N) % nphase, n = f % g.N;
            if (w.slot[ph] < 0) continue;
            const int64_t pz = ph / (g.stride[1] * g.stride[2]), py = (ph / g.stride[2]) % g.stride[1];
            const int64_t px = ph % g.stride[2], s2 = g.stride[2];
            T* plane = xt.get() + gi * xblock + (w.slot[ph] * Q + n * w.Sp) * Cg;
            const T* xn = x + (n * g.C + gi * Cg) * S;
            // the phase indices vx that read the input (ix = vx * s2 + px - pad inside [0, W))
            int64_t xlo = 0, xhi = w.pdim[2];
            while (xlo < xhi && xlo * s2 + px - g.pad[2] < 0) ++xlo;
            while (xhi > xlo && (xhi - 1) * s2 + px - g.pad[2] >= W) --xhi;
            for (int64_t vz = 0; vz < w.pdim[0]; ++vz) {
                const int64_t iz = vz * g.stride[0] + pz - g.pad[0];
                for (int64_t vy = 0; vy < w.pdim[1]; ++vy) {
                    const int64_t iy = vy * g.stride[1] + py - g.pad[1];
                    T* dst = plane + (vz * w.pdim[1] + vy) * w.pdim[2] * Cg;
                    if (iz < 0 || iz >= D || iy < 0 || iy >= H || xlo >= xhi) {
                        std::fill(dst, dst + w.pdim[2] * Cg, T(0));
                        continue;
                    }
                    std::fill(dst, dst + xlo * Cg, T(0));
                    std::fill(dst + xhi * Cg, dst + w.pdim[2] * Cg, T(0));
                    for (int64_t c = 0; c < Cg; ++c) {
                        const T* src = xn + c * S + (iz * H + iy) * W + xlo * s2 + px - g.pad[2];
                        if (s2 == 1) {
                            rows[c] = src;
                        } else {   // a contiguous copy of the phase's columns first
                            strided_copy(gathered.data() + c * w.pdim[2], src, xhi - xlo, s2);
                            rows[c] = gathered.data() + c * w.pdim[2];
                        }
                    }
                    interleave(rows.data(), Cg, xhi - xlo, Cg, dst + xlo * Cg);
                }
            }
        }
    }
    // A: dY on the wide positions in MR-tall panels, (G, panel, Q, MR); positions past Pw are never read
    const std::vector<int64_t> targets = wide_targets(g, w);
    std::vector<Span> spans;
    spans_of(targets.data(), w.Pw, spans);
    std::unique_ptr<T[]> ap(new T[static_cast<size_t>(g.G * nop * Q * MR)]);
    const std::vector<T> zeros(static_cast<size_t>(P), T(0));   // the rows of a last panel past Og
#pragma omp parallel for num_threads(max_threads()) schedule(static) if (par)
    for (int64_t f = 0; f < g.G * nop * g.N; ++f) {
        const int64_t gi = f / (nop * g.N), op = (f / g.N) % nop, n = f % g.N;
        T* dst = ap.get() + ((gi * nop + op) * Q + n * w.Sp) * MR;
        const T* rows[64];
        for (int64_t i = 0; i < MR; ++i) {
            const int64_t o = op * MR + i;
            rows[i] = o < Og ? dy + (n * g.O + gi * Og + o) * P : zeros.data();
        }
        int64_t done = 0;   // positions [0, done) written
        for (const Span& sp : spans) {
            std::fill(dst + done * MR, dst + sp.col * MR, T(0));   // positions that are not outputs
            const T* at[64];
            for (int64_t i = 0; i < MR; ++i) at[i] = rows[i] + sp.out;
            interleave(at, MR, sp.len, MR, dst + sp.col * MR);
            done = sp.col + sp.len;
        }
        std::fill(dst + done * MR, dst + w.Pw * MR, T(0));
    }
    // the products
    const int64_t qslices = ceil_div(w.Pw, kSlice), tasks = g.G * g.N * qslices, part = g.G * Mp * width;
    std::vector<int64_t> offs(static_cast<size_t>(kSlice));
    for (int64_t k = 0; k < kSlice; ++k) offs[k] = k * Cg;
    const int nt = par ? max_threads() : 1;
    std::vector<std::vector<T>> partial(static_cast<size_t>(nt));
#pragma omp parallel num_threads(nt) if (par)
    {
        std::vector<T>& acc = partial[thread_id()];
        acc.assign(static_cast<size_t>(part), T(0));
#pragma omp for schedule(static)
        for (int64_t t = 0; t < tasks; ++t) {
            const int64_t gi = t / (g.N * qslices), n = (t / qslices) % g.N, q0 = (t % qslices) * kSlice;
            const int64_t kc = std::min(kSlice, w.Pw - q0), q = n * w.Sp + q0;
            const T* xg = xt.get() + gi * xblock;
            for (const Line& ln : lines) {
                for (int64_t j0 = 0; j0 < ln.len; j0 += NR) {
                    const T* b = xg + (ln.row + q) * Cg + j0;
                    for (int64_t op = 0; op < nop; ++op) {
                        T* c = acc.data() + (gi * Mp + op * MR) * width + ln.col + j0;
                        uk.rows(kc, ap.get() + ((gi * nop + op) * Q + q) * MR, b, offs.data(), c, width, true);
                    }
                }
            }
        }
    }
    std::vector<T> sum(static_cast<size_t>(part), T(0));
    for (const std::vector<T>& a : partial) {
        if (a.empty()) continue;
        for (int64_t i = 0; i < part; ++i) sum[i] += a[i];
    }
    for (int64_t gi = 0; gi < g.G; ++gi) {
        for (int64_t o = 0; o < Og; ++o) {
            const T* row = sum.data() + (gi * Mp + o) * width;
            T* dwo = dw + (gi * Og + o) * Kg;
            for (const Line& ln : lines) {
                for (size_t m = 0; m < ln.taps.size(); ++m) {
                    for (int64_t c = 0; c < Cg; ++c) dwo[c * kk + ln.taps[m]] = row[ln.col + m * Cg + c];
                }
            }
        }
    }
}

// forward: Y[o, p] = sum_k W[o, k] col[k, p]. Tasks are (batch item, group, NR output positions);
// the weights are packed once. Each output element is summed in one fixed order (slice by slice),
// so results do not depend on the thread count.
template <typename T>
void forward(const T* x, const T* w, T* y, const Geometry& g, const Epilogue<T>& ep = Epilogue<T>()) {
    const MicroKernel<T>& uk = micro_kernel<T>();
    const int64_t MR = uk.mr, NR = uk.nr;
    const int64_t Cg = g.Cg(), Og = g.Og(), Kg = g.Kg(), P = g.P(), S = g.S();
    const int64_t Mp = ceil_div(Og, MR) * MR;   // rows of the packed weights of one group
    std::vector<T> wp(static_cast<size_t>(g.G * Mp * Kg));
    for (int64_t gi = 0; gi < g.G; ++gi) {
        for (int64_t k0 = 0; k0 < Kg; k0 += kSlice) {
            pack_a(w + gi * Og * Kg, Kg, 1, 0, k0, Og, std::min(kSlice, Kg - k0), static_cast<int>(MR),
                   wp.data() + gi * Mp * Kg + k0 * Mp);
        }
    }
    const bool par = worth_parallel(static_cast<double>(g.N) * g.O * Kg * P, kParallelFlops / 4);
    const Wide wide = wide_of(g);
    if (use_wide(g, wide)) {
        forward_wide(x, wp.data(), y, g, wide, Mp, par, ep);
        return;
    }
    const int64_t panels = ceil_div(P, NR), tasks = g.N * g.G * panels;
#pragma omp parallel num_threads(max_threads()) if (par)
    {
        std::vector<T> bp(static_cast<size_t>(kSlice * NR)), scratch(static_cast<size_t>(MR * NR));
        std::vector<Run> runs;
        std::vector<Tap> taps(static_cast<size_t>(Kg));
        for (int64_t k = 0; k < Kg; ++k) taps[k] = tap_of(g, k);
#pragma omp for schedule(static)
        for (int64_t t = 0; t < tasks; ++t) {
            const int64_t n = t / (g.G * panels), gi = (t / panels) % g.G, p0 = (t % panels) * NR;
            const int64_t nr = std::min(NR, P - p0);
            const T* xg = x + (n * g.C + gi * Cg) * S;
            T* yg = y + (n * g.O + gi * Og) * P + p0;
            runs_of(g, p0, nr, runs);
            for (int64_t k0 = 0; k0 < Kg; k0 += kSlice) {
                const int64_t kc = std::min(kSlice, Kg - k0);
                for (int64_t kk = 0; kk < kc; ++kk) {
                    T* row = bp.data() + kk * NR;
                    for (const Run& r : runs) gather_run(xg, g, taps[k0 + kk], r, row + r.col, 1);
                    std::fill(row + nr, row + NR, T(0));
                }
                const T* wk = wp.data() + gi * Mp * Kg + k0 * Mp;
                for (int64_t i = 0; i < Og; i += MR) {
                    tile(uk, kc, wk + i * kc, bp.data(), yg + i * P, P, std::min(MR, Og - i), nr, k0 > 0,
                         scratch.data());
                }
            }
            if (ep.any()) {
                for (int64_t o = 0; o < Og; ++o) {
                    T* row = yg + o * P;
                    const T shift = ep.shift(gi * Og + o), lo = ep.floor();
                    for (int64_t j = 0; j < nr; ++j) {
                        const T v = ep.bias ? row[j] + shift : row[j];
                        row[j] = v < lo ? lo : v;
                    }
                }
            }
        }
    }
}

// backward-filter: dW[o, k] = sum over (batch item, position q) of dY[o, q] col[k, q]: a GEMM with
// the positions as its long inner dimension, cut into slices of one batch item. A = dY (packed per
// slice), B = col^T, gathered per NR kernel offsets. Threads take whole slices and sum into their
// own filter gradient; those are added in thread order (deterministic for a given thread count).
template <typename T>
void backward_filter(const T* dy, const T* x, T* dw, const Geometry& g) {
    const MicroKernel<T>& uk = micro_kernel<T>();
    const int64_t MR = uk.mr, NR = uk.nr;
    const int64_t Cg = g.Cg(), Og = g.Og(), Kg = g.Kg(), P = g.P(), S = g.S();
    const int64_t wsize = g.O * Kg;
    const int64_t Mp = ceil_div(Og, MR) * MR;
    const bool par = worth_parallel(static_cast<double>(g.N) * g.O * Kg * P, kParallelFlops / 4);
    const Wide wide = wide_of(g);
    if (use_wide(g, wide)) {
        if (MR <= 64 && channels_last_pays(g, wide, NR)) {
            backward_filter_cl(dy, x, dw, g, wide, par);
        } else {
            backward_filter_wide(dy, x, dw, g, wide, par);
        }
        return;
    }
    const int64_t nslices = ceil_div(P, kSlice), qlen = ceil_div(P, nslices);  // balanced slices
    const int64_t tasks = g.N * g.G * nslices;
    const int nt = par ? max_threads() : 1;
    std::vector<std::vector<T>> partial(static_cast<size_t>(nt));
#pragma omp parallel num_threads(nt) if (par)
    {
        std::vector<T>& acc = partial[thread_id()];
        acc.assign(static_cast<size_t>(wsize), T(0));
        std::vector<T> ap(static_cast<size_t>(Mp * qlen)), bp(static_cast<size_t>(qlen * NR));
        std::vector<T> scratch(static_cast<size_t>(MR * NR));
        std::vector<Run> runs;
        std::vector<Tap> taps(static_cast<size_t>(Kg));
        for (int64_t k = 0; k < Kg; ++k) taps[k] = tap_of(g, k);
#pragma omp for schedule(static)
        for (int64_t t = 0; t < tasks; ++t) {
            const int64_t n = t / (g.G * nslices), gi = (t / nslices) % g.G, q0 = (t % nslices) * qlen;
            const int64_t qc = std::min(qlen, P - q0);
            const T* xg = x + (n * g.C + gi * Cg) * S;
            pack_a(dy + (n * g.O + gi * Og) * P, P, 1, 0, q0, Og, qc, static_cast<int>(MR), ap.data());
            runs_of(g, q0, qc, runs);
            T* dwg = acc.data() + gi * Og * Kg;
            for (int64_t j0 = 0; j0 < Kg; j0 += NR) {
                const int64_t nr = std::min(NR, Kg - j0);
                for (int64_t jj = 0; jj < NR; ++jj) {
                    T* col = bp.data() + jj;
                    if (jj >= nr) {
                        for (int64_t q = 0; q < qc; ++q) col[q * NR] = T(0);
                        continue;
                    }
                    for (const Run& r : runs) gather_run(xg, g, taps[j0 + jj], r, col + r.col * NR, NR);
                }
                for (int64_t i = 0; i < Og; i += MR) {
                    tile(uk, qc, ap.data() + i * qc, bp.data(), dwg + i * Kg + j0, Kg, std::min(MR, Og - i), nr, true,
                         scratch.data());
                }
            }
        }
    }
    sum_partials(partial, dw, wsize);
}

// backward-data with unit strides is itself a convolution: of dY, padded by dilation * (k - 1) - pad,
// with the weights flipped in space and their two channel axes swapped (per group). Returns false
// when that padding would be negative (padding wider than the kernel) or the convolution would
// cost more than GEMM + col2im, which the caller then uses.
template <typename T>
bool backward_input_as_conv(const T* dy, const T* w, T* dx, const Geometry& g) {
    if (g.stride[0] != 1 || g.stride[1] != 1 || g.stride[2] != 1) return false;
    Dims3 pad;
    for (int a = 0; a < 3; ++a) {
        pad[a] = g.dil[a] * (g.k[a] - 1) - g.pad[a];
        if (pad[a] < 0) return false;
    }
    const int64_t Cg = g.Cg(), Og = g.Og(), kk = g.ksize();
    const Geometry t{g.N, g.O, g.C, g.G, g.out, g.in, g.k, g.stride, pad, g.dil};
    // Work of each way, in multiply-adds including the padding the micro-tiles compute: the
    // convolution runs over wide positions with Cg rounded up to MR rows; GEMM + col2im over Kg x P
    // (a small Cg, like LeNet's 6 channels behind 4-wide padding, favours the latter).
    const MicroKernel<T>& uk = micro_kernel<T>();
    const double as_conv = static_cast<double>(ceil_div(Cg, uk.mr) * uk.mr) * wide_of(t).Pw * Og * kk;
    const double as_gemm = static_cast<double>(ceil_div(g.Kg(), uk.mr) * uk.mr) * ceil_div(g.P(), uk.nr) * uk.nr *
                           (Og + 2);
    if (as_conv > 1.25 * as_gemm) return false;
    std::vector<T> wf(static_cast<size_t>(g.C * Og * kk));   // (C, Og, kz, ky, kx), flipped
    for (int64_t gi = 0; gi < g.G; ++gi) {
        for (int64_t o = 0; o < Og; ++o) {
            for (int64_t c = 0; c < Cg; ++c) {
                const T* src = w + ((gi * Og + o) * Cg + c) * kk;
                T* dst = wf.data() + ((gi * Cg + c) * Og + o) * kk;
                for (int64_t i = 0; i < kk; ++i) dst[kk - 1 - i] = src[i];
            }
        }
    }
    forward(dy, wf.data(), dx, t);
    return true;
}

// backward-data in general: dcol = W^T dY per (batch item, group) and dX = col2im(dcol).
template <typename T>
void backward_input(const T* dy, const T* w, T* dx, const Geometry& g) {
    if (backward_input_as_conv(dy, w, dx, g)) return;
    const int64_t Cg = g.Cg(), Og = g.Og(), Kg = g.Kg(), P = g.P(), S = g.S();
    const int64_t tasks = g.N * g.G;
    const bool direct = g.direct();
    const int nt = max_threads();
    const bool par = worth_parallel(static_cast<double>(tasks) * Og * Kg * P, kParallelFlops);
    if (!par || tasks >= nt) {
#pragma omp parallel num_threads(max_threads()) if (par)
        {
            std::vector<T> col(direct ? 0 : static_cast<size_t>(Kg * P));
#pragma omp for schedule(static)
            for (int64_t t = 0; t < tasks; ++t) {
                const int64_t n = t / g.G, gi = t % g.G;
                T* dxg = dx + (n * g.C + gi * Cg) * S;
                T* C = direct ? dxg : col.data();
                gemm<T>(Kg, P, Og, w + gi * Og * Kg, 1, Kg, dy + (n * g.O + gi * Og) * P, P, 1, C, P, false);
                if (!direct) {
                    std::fill(dxg, dxg + Cg * S, T(0));
                    col2im(col.data(), g, dxg, 0, Cg);
                }
            }
        }
        return;
    }
    std::vector<T> col(direct ? 0 : static_cast<size_t>(Kg * P));
    for (int64_t t = 0; t < tasks; ++t) {
        const int64_t n = t / g.G, gi = t % g.G;
        T* dxg = dx + (n * g.C + gi * Cg) * S;
        T* C = direct ? dxg : col.data();
        const T* dyg = dy + (n * g.O + gi * Og) * P;
#pragma omp parallel num_threads(max_threads())
        {
            int64_t p0, p1;
            split(P, team_size(), thread_id(), 64, p0, p1);
            if (p1 > p0) gemm<T>(Kg, p1 - p0, Og, w + gi * Og * Kg, 1, Kg, dyg + p0, P, 1, C + p0, P, false);
            if (!direct) {
#pragma omp barrier
#pragma omp for schedule(static)
                for (int64_t c = 0; c < Cg; ++c) {
                    std::fill(dxg + c * S, dxg + (c + 1) * S, T(0));
                    col2im(col.data(), g, dxg, c, c + 1);
                }
            }
        }
    }
}

// --- Python bindings ------------------------------------------------------------------------
Geometry make_geometry(const std::string& where, int64_t N, int64_t C, int64_t O, int64_t G, const Dims3& in,
                       const Dims3& out, const Dims3& k, const Dims3& stride, const Dims3& pad, const Dims3& dil) {
    if (G < 1) fail(where, "'groups' must be >= 1, but got " + std::to_string(G));
    if (C % G != 0 || O % G != 0) {
        fail(where, "the channel counts (" + std::to_string(C) + ", " + std::to_string(O) +
                        ") must be divisible by groups (" + std::to_string(G) + ")");
    }
    check_positive(where, "kernel_size", k);
    check_positive(where, "stride", stride);
    check_positive(where, "dilation", dil);
    check_positive(where, "input size", in, 0);
    check_positive(where, "output size", out, 0);
    check_positive(where, "pad", pad, 0);
    if (N < 0) fail(where, "negative batch size");
    return Geometry{N, C, O, G, in, out, k, stride, pad, dil};
}

py::array conv3d_forward(const py::array& x, const py::array& w, const Dims3& stride, const Dims3& pad,
                         const Dims3& dil, const Dims3& out, int64_t groups, const std::optional<py::array>& bias,
                         bool relu) {
    const std::string where = "conv3d_forward";
    check_array(where, "x", x, 5);
    check_array(where, "weight", w, 5);
    const DType dt = common_float(where, {&x, &w});
    const Dims3 in{x.shape(2), x.shape(3), x.shape(4)}, k{w.shape(2), w.shape(3), w.shape(4)};
    const Geometry g = make_geometry(where, x.shape(0), x.shape(1), w.shape(0), groups, in, out, k, stride, pad, dil);
    if (w.shape(1) * groups != g.C) {
        fail(where, "weight " + shape_str(w) + " does not match input " + shape_str(x) + " with groups " +
                        std::to_string(groups));
    }
    if (bias) {
        check_array(where, "bias", *bias, 1);
        if (common_float(where, {&x, &*bias}) != dt || bias->shape(0) != g.O) {
            fail(where, "bias " + shape_str(*bias) + " must be (" + std::to_string(g.O) + ",) of the input's dtype");
        }
    }
    const std::vector<int64_t> shape{g.N, g.O, out[0], out[1], out[2]};
    if (dt == DType::f32) {
        auto y = empty<float>(shape);
        float* yp = mptr(y);
        Epilogue<float> ep;
        ep.bias = bias ? cptr<float>(*bias) : nullptr;
        ep.relu = relu;
        py::gil_scoped_release release;
        forward<float>(cptr<float>(x), cptr<float>(w), yp, g, ep);
        return std::move(y);
    }
    auto y = empty<double>(shape);
    double* yp = mptr(y);
    Epilogue<double> ep;
    ep.bias = bias ? cptr<double>(*bias) : nullptr;
    ep.relu = relu;
    py::gil_scoped_release release;
    forward<double>(cptr<double>(x), cptr<double>(w), yp, g, ep);
    return std::move(y);
}

py::array conv3d_backward_input(const py::array& dy, const py::array& w, const Dims3& in, const Dims3& stride,
                                const Dims3& pad, const Dims3& dil, int64_t groups) {
    const std::string where = "conv3d_backward_input";
    check_array(where, "dout", dy, 5);
    check_array(where, "weight", w, 5);
    const DType dt = common_float(where, {&dy, &w});
    const Dims3 out{dy.shape(2), dy.shape(3), dy.shape(4)}, k{w.shape(2), w.shape(3), w.shape(4)};
    const int64_t C = w.shape(1) * groups;
    const Geometry g = make_geometry(where, dy.shape(0), C, w.shape(0), groups, in, out, k, stride, pad, dil);
    if (dy.shape(1) != g.O) fail(where, "dout " + shape_str(dy) + " does not match weight " + shape_str(w));
    const std::vector<int64_t> shape{g.N, C, in[0], in[1], in[2]};
    if (dt == DType::f32) {
        auto dx = empty<float>(shape);
        float* p = mptr(dx);
        py::gil_scoped_release release;
        backward_input<float>(cptr<float>(dy), cptr<float>(w), p, g);
        return std::move(dx);
    }
    auto dx = empty<double>(shape);
    double* p = mptr(dx);
    py::gil_scoped_release release;
    backward_input<double>(cptr<double>(dy), cptr<double>(w), p, g);
    return std::move(dx);
}

py::array conv3d_backward_filter(const py::array& dy, const py::array& x, const Dims3& k, const Dims3& stride,
                                 const Dims3& pad, const Dims3& dil, int64_t groups) {
    const std::string where = "conv3d_backward_filter";
    check_array(where, "dout", dy, 5);
    check_array(where, "x", x, 5);
    const DType dt = common_float(where, {&dy, &x});
    const Dims3 in{x.shape(2), x.shape(3), x.shape(4)}, out{dy.shape(2), dy.shape(3), dy.shape(4)};
    const Geometry g = make_geometry(where, x.shape(0), x.shape(1), dy.shape(1), groups, in, out, k, stride, pad, dil);
    if (dy.shape(0) != g.N) fail(where, "dout " + shape_str(dy) + " does not match x " + shape_str(x));
    const std::vector<int64_t> shape{g.O, g.Cg(), k[0], k[1], k[2]};
    if (dt == DType::f32) {
        auto dw = empty<float>(shape);
        float* p = mptr(dw);
        py::gil_scoped_release release;
        backward_filter<float>(cptr<float>(dy), cptr<float>(x), p, g);
        return std::move(dw);
    }
    auto dw = empty<double>(shape);
    double* p = mptr(dw);
    py::gil_scoped_release release;
    backward_filter<double>(cptr<double>(dy), cptr<double>(x), p, g);
    return std::move(dw);
}

}  // namespace

void register_conv(py::module_& m) {
    using py::arg;
    m.def("conv3d_forward", &conv3d_forward, arg("x"), arg("weight"), arg("stride"), arg("pad"), arg("dilation"),
          arg("out_size"), arg("groups"), arg("bias") = py::none(), arg("relu") = false,
          "Convolution (cross-correlation) of x (N, C, D, H, W) with weight (O, C/groups, kd, kh, kw); "
          "pad = zero padding before each spatial axis, out_size = output (D, H, W); optionally + bias (O,) "
          "then ReLU, applied as each output is written.");
    m.def("conv3d_backward_input", &conv3d_backward_input, arg("dout"), arg("weight"), arg("in_size"),
          arg("stride"), arg("pad"), arg("dilation"), arg("groups"),
          "Gradient of conv3d_forward with respect to x, of spatial size in_size.");
    m.def("conv3d_backward_filter", &conv3d_backward_filter, arg("dout"), arg("x"), arg("kernel_size"),
          arg("stride"), arg("pad"), arg("dilation"), arg("groups"),
          "Gradient of conv3d_forward with respect to the weight.");
    m.def("gemm_isa", []() { return std::string(gemm_isa()); }, "Instruction set of the GEMM micro-kernels.");
}

}  // namespace mscpu
