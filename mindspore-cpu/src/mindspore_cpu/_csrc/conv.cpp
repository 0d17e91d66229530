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
    parallel_for(channels, par, max_threads(), [&](int64_t ch) {
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
    });
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
// ReLU), in that order and in T, exactly as the separate kernels round; a ReLU makes NaN 0, as MindSpore's
// ReLU kernel does.
//
// Branch-free on the value: a data-dependent branch per output (half of a ReLU's inputs are negative)
// mispredicts so often that it cost more than the convolution. The clamp is floor_clamp(v, floor,
// nan_out) (common.h) with floor = 0 and nan_out = 0 for a ReLU, floor = -inf and nan_out = NaN for none.
template <typename T>
struct Epilogue {
    const T* bias = nullptr;      // (O,) or none
    const T* residual = nullptr;  // shaped as the output (an Add after the BiasAdd), or none
    bool relu = false;
    bool any() const { return bias != nullptr || residual != nullptr || relu; }
    T floor() const { return relu ? T(0) : -std::numeric_limits<T>::infinity(); }
    T nan_out() const { return relu ? T(0) : std::numeric_limits<T>::quiet_NaN(); }
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

// --- forward: register tiles that read the input in place and write the outputs ----------------
//
// Y[o, p] = sum_k W[o, k] x[p + offset(k)] over the (polyphase, padded) copy of the wide rows above: a
// tile (ConvTile, gemm.h) is MR output channels by two vectors of W lanes, each vector up to W
// consecutive outputs (a "segment"), and it stores its outputs straight into Y, epilogue applied, as
// they leave the registers: no panel of partial sums, no copy back, no wide positions that are not
// outputs computed. A segment lies either
//
// * in one output row ("rows" mode): its W inputs of tap k are W consecutive elements of the copy,
//   read in place by the tile, masked past the segment's end; a row of OW outputs is ceil(OW / W)
//   segments (ResNet's 32- and 16-wide maps fill every lane), or
// * anywhere in the item ("packed" mode, for narrow maps: 8x8, LeNet's 10x10): W consecutive outputs
//   over several rows, whose inputs are gathered per tap into a packed panel (one masked vector per
//   row run) that the tile then reads as rows; the gathering is shared by the Og / MR tiles.
//
// The copy (padding, stride phases) is made per task, of one batch item's channels, into the thread's
// own buffer, while the item is computed from it (cache-warm, and its zero padding written once per
// thread); with fewer items than threads it is made once for all and the tasks are pairs of segments.
// Where no copy is needed (no padding, unit strides) the input is read where it is.
//
// Every output is summed in one fixed order (k in order within slices of kSlice, the slices added in
// order), so results do not depend on the thread count or the mode.
struct Segment {
    int64_t q;                // wide position of its first output
    int64_t p;                // output index of its first output
    int len;                  // outputs (<= W)
};

struct SegmentPlan {
    bool packed = false;
    std::vector<Segment> segs;   // of one batch item
    std::vector<int64_t> lanes;  // packed: lane j of segment s reads wide position segs[s].q + lanes[s * W + j]
};

// The segments of one item and the mode: packed where gathering costs less than the lanes the rows
// mode would leave empty (per tap and vector, a tile row costs an FMA, the gathering about two).
inline SegmentPlan segment_plan(const Geometry& g, const Wide& w, int64_t W, int64_t MR) {
    const int64_t OD = g.out[0], OH = g.out[1], OW = g.out[2], P = g.P();
    const int64_t rows_segs = OD * OH * ceil_div(OW, W), packed_segs = ceil_div(P, W);
    const int64_t tile_rows = ceil_div(g.Og(), MR) * MR;
    SegmentPlan plan;
    plan.packed = OW < W && packed_segs * (tile_rows + 2.0) < static_cast<double>(rows_segs) * tile_rows;
    auto wide_pos = [&](int64_t p) {
        const int64_t ox = p % OW, oy = (p / OW) % OH, oz = p / (OW * OH);
        return (oz * w.pdim[1] + oy) * w.pdim[2] + ox;
    };
    if (!plan.packed) {
        for (int64_t r = 0; r < OD * OH; ++r) {
            for (int64_t x0 = 0; x0 < OW; x0 += W) {
                const int64_t p = r * OW + x0;
                plan.segs.push_back(Segment{wide_pos(p), p, static_cast<int>(std::min(W, OW - x0))});
            }
        }
        return plan;
    }
    plan.lanes.assign(static_cast<size_t>(packed_segs * W), 0);
    for (int64_t p0 = 0; p0 < P; p0 += W) {
        const Segment s{wide_pos(p0), p0, static_cast<int>(std::min(W, P - p0))};
        for (int64_t j = 0; j < s.len; ++j) plan.lanes[plan.segs.size() * W + j] = wide_pos(p0 + j) - s.q;
        plan.segs.push_back(s);
    }
    return plan;
}

#define MSCPU_DW_INLINE __attribute__((always_inline)) inline

// 64-byte vectors (one AVX-512 register, two AVX2 or four SSE2 ones): the copies' unit, and the lanes
// of the filter gradient's partial sums (the same on every instruction set).
typedef float dw_f32x16 __attribute__((vector_size(64)));
typedef double dw_f64x8 __attribute__((vector_size(64)));
typedef int32_t dw_i32x16 __attribute__((vector_size(64)));
typedef int64_t dw_i64x8 __attribute__((vector_size(64)));

template <typename T>
struct DwVec;
template <>
struct DwVec<float> {
    using vec = dw_f32x16;
    using mask = dw_i32x16;
    static constexpr int lanes = 16;
    static constexpr mask even = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30};
    static constexpr mask odd = {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31};
    static constexpr mask zip_lo = {0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23};
    static constexpr mask zip_hi = {8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31};
};
template <>
struct DwVec<double> {
    using vec = dw_f64x8;
    using mask = dw_i64x8;
    static constexpr int lanes = 8;
    static constexpr mask even = {0, 2, 4, 6, 8, 10, 12, 14};
    static constexpr mask odd = {1, 3, 5, 7, 9, 11, 13, 15};
    static constexpr mask zip_lo = {0, 8, 1, 9, 2, 10, 3, 11};
    static constexpr mask zip_hi = {4, 12, 5, 13, 6, 14, 7, 15};
};

template <typename T>
MSCPU_DW_INLINE void dw_load(typename DwVec<T>::vec& v, const T* p) {
    std::memcpy(&v, p, sizeof(v));
}

template <typename T>
MSCPU_DW_INLINE void dw_store_vec(T* p, const typename DwVec<T>::vec& v) {
    std::memcpy(p, &v, sizeof(v));
}

// d[i] = s[i], i < n, in whole vectors (the last one overlapping the one before).
template <typename T>
MSCPU_DW_INLINE void dw_copy(T* d, const T* s, int64_t n) {
    constexpr int V = DwVec<T>::lanes;
    if (n < V) {
        for (int64_t i = 0; i < n; ++i) d[i] = s[i];
        return;
    }
    int64_t i = 0;
    typename DwVec<T>::vec v;
    for (; i + V <= n; i += V) {
        dw_load(v, s + i);
        dw_store_vec(d + i, v);
    }
    if (i < n) {
        dw_load(v, s + n - V);
        dw_store_vec(d + n - V, v);
    }
}

// e[u] = s[2 u] and o[u] = s[2 u + 1], u < n: a row split into its even and odd elements.
template <typename T>
MSCPU_DW_INLINE void dw_split2(T* e, T* o, const T* s, int64_t n) {
    using W = DwVec<T>;
    constexpr int V = W::lanes;
    if (n < V / 2) {
        for (int64_t u = 0; u < n; ++u) {
            e[u] = s[2 * u];
            o[u] = s[2 * u + 1];
        }
        return;
    }
    if (n < V) {   // half vectors (ResNet's 8-wide phase rows): V inputs give V / 2 evens and odds
        auto half = [&](int64_t u) {
            typename W::vec a;
            dw_load(a, s + 2 * u);
            const typename W::vec ev = __builtin_shuffle(a, a, W::even), od = __builtin_shuffle(a, a, W::odd);
            std::memcpy(e + u, &ev, sizeof(T) * (V / 2));
            std::memcpy(o + u, &od, sizeof(T) * (V / 2));
        };
        int64_t u = 0;
        for (; u + V / 2 <= n; u += V / 2) half(u);
        if (u < n) half(n - V / 2);
        return;
    }
    auto block = [&](int64_t u) {
        typename W::vec a, b;
        dw_load(a, s + 2 * u);
        dw_load(b, s + 2 * u + V);
        dw_store_vec(e + u, typename W::vec(__builtin_shuffle(a, b, W::even)));
        dw_store_vec(o + u, typename W::vec(__builtin_shuffle(a, b, W::odd)));
    };
    int64_t u = 0;
    for (; u + V <= n; u += V) block(u);
    if (u < n) block(n - V);
}

// Channels [gi * Cg, (gi + 1) * Cg) of one item into its copy ``dst`` (``channels`` planes of w.Cs()
// elements) whose padding is zero already: only the input's elements are written. Each input row is read
// once for all its x phases; plain loops (no calls per row: rows are short), vectorised per instruction set.
template <typename T>
__attribute__((always_inline)) inline void fill_copy_body(const T* x, const Geometry& g, const Wide& w,
                                                          int64_t channels, T* dst) {
    const int64_t D = g.in[0], H = g.in[1], W = g.in[2], S = g.S();
    const int64_t s0 = g.stride[0], s1 = g.stride[1], s2 = g.stride[2];
    // f(input row iz, iy (from its first element), row (vz, vy) of a phase plane) for the rows of phases (pz, py)
    // that lie inside the input
    auto rows = [&](const T* src, int64_t pz, int64_t py, auto&& f) {
        for (int64_t vz = 0; vz < w.pdim[0]; ++vz) {
            const int64_t iz = vz * s0 + pz - g.pad[0];
            if (iz < 0 || iz >= D) continue;
            for (int64_t vy = 0; vy < w.pdim[1]; ++vy) {
                const int64_t iy = vy * s1 + py - g.pad[1];
                if (iy >= 0 && iy < H) f(src + (iz * H + iy) * W, (vz * w.pdim[1] + vy) * w.pdim[2]);
            }
        }
    };
    for (int64_t c = 0; c < channels; ++c) {
        const T* src = x + c * S;
        for (int64_t pz = 0; pz < s0; ++pz) {
            for (int64_t py = 0; py < s1; ++py) {
                if (s2 == 2) {
                    const int64_t slot0 = w.slot[(pz * s1 + py) * 2], slot1 = w.slot[(pz * s1 + py) * 2 + 1];
                    if (slot0 >= 0 && slot1 >= 0) {
                        // both x phases of a row at once: phase px, index v reads input x = 2 v + px - pad
                        // (r[2 v + px], r = row - pad): one pass deinterleaving the row into the two planes
                        const int64_t pad = g.pad[2], Wp = w.pdim[2];
                        int64_t lo = 0, hi = Wp;   // v where both phases read inside the input
                        while (lo < hi && 2 * lo - pad < 0) ++lo;
                        while (hi > lo && 2 * (hi - 1) + 1 - pad >= W) --hi;
                        T* plane0 = dst + c * w.Cs() + slot0 * w.Sp;
                        T* plane1 = dst + c * w.Cs() + slot1 * w.Sp;
                        rows(src, pz, py, [&](const T* in, int64_t at) {
                            const T* __restrict r = in - pad;
                            T* __restrict d0 = plane0 + at;
                            T* __restrict d1 = plane1 + at;
                            dw_split2(d0 + lo, d1 + lo, r + 2 * lo, hi - lo);
                            for (int64_t v = 0; v < Wp; ++v) {   // the ends: one phase inside, the other not
                                if (v >= lo && v < hi) { v = hi - 1; continue; }
                                const int64_t x0 = 2 * v - pad, x1 = x0 + 1;
                                if (x0 >= 0 && x0 < W) d0[v] = r[2 * v];
                                if (x1 >= 0 && x1 < W) d1[v] = r[2 * v + 1];
                            }
                        });
                        continue;
                    }
                }
                for (int64_t px = 0; px < s2; ++px) {
                    const int64_t slot = w.slot[(pz * s1 + py) * s2 + px];
                    if (slot < 0) continue;
                    int64_t xlo = 0, xhi = w.pdim[2];
                    while (xlo < xhi && xlo * s2 + px - g.pad[2] < 0) ++xlo;
                    while (xhi > xlo && (xhi - 1) * s2 + px - g.pad[2] >= W) --xhi;
                    if (xhi <= xlo) continue;
                    T* plane = dst + c * w.Cs() + slot * w.Sp;
                    rows(src, pz, py, [&](const T* in, int64_t at) {
                        const T* __restrict row = in + px - g.pad[2];
                        T* __restrict d = plane + at;
                        if (s2 == 1) {
                            dw_copy(d + xlo, row + xlo, xhi - xlo);
                        } else if (s2 == 2) {
                            for (int64_t v = xlo; v < xhi; ++v) d[v] = row[2 * v];
                        } else {
                            for (int64_t v = xlo; v < xhi; ++v) d[v] = row[v * s2];
                        }
                    });
                }
            }
        }
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void fill_copy(const float* x, const Geometry& g, const Wide& w, int64_t channels, float* dst) {
    fill_copy_body(x, g, w, channels, dst);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void fill_copy(const double* x, const Geometry& g, const Wide& w, int64_t channels, double* dst) {
    fill_copy_body(x, g, w, channels, dst);
}

// What a task needs to compute tiles: the packed weights, tap offsets, segments, the output and the
// Epilogue (bias, residual, ReLU).
template <typename T>
struct ForwardJob {
    const Geometry& g;
    const Wide& w;
    const SegmentPlan& plan;
    const T* wp;                  // packed weights: (G, slices of kSlice, Mp / MR panels, kc, MR)
    int64_t Mp;
    int64_t MR;                   // the tile's rows (ConvKernel::mr_for)
    void (*tile)(const ConvTile<T>& t);
    const int64_t* taps;          // offset of tap k from a wide position, in a group's copy
    const int64_t* poff;          // k * NR: the rows of a packed panel
    T* y;
    const Epilogue<T>& ep;
};

// One tile-row sweep: the segments seg[v] (of items n[v]; nullptr: none) whose inputs start at xg[v]
// (that item's group in the copy), all output channels of group gi. ``bp``: the thread's panel.
template <typename T>
void forward_panel(const ForwardJob<T>& j, int64_t gi, const Segment* const* seg, const int64_t* n,
                   const T* const* xg, T* bp) {
    const ConvKernel<T>& ck = conv_kernel<T>();
    const Geometry& g = j.g;
    const int64_t MR = j.MR, W = ck.w, NV = ck.nv, NR = W * NV;
    const int64_t Og = g.Og(), Kg = g.Kg(), P = g.P();
    ConvTile<T> t;
    t.ldc = P;
    t.relu = j.ep.relu;
    for (int64_t v = 0; v < NV; ++v) t.len[v] = seg[v] ? seg[v]->len : 0;
    // The outputs (and residual) of the panel into L2 while the tiles compute: an output channel's rows
    // lie P apart, so the hardware prefetchers see Og separate streams and the tiles' stores and residual
    // loads would otherwise wait for L3 (a residual took as long to read as the convolution took to compute).
    for (int64_t v = 0; v < NV; ++v) {
        if (!seg[v]) continue;
        const int64_t at = (n[v] * g.O + gi * Og) * P + seg[v]->p, last = seg[v]->len - 1;
        for (int64_t o = 0; o < Og; ++o) {
            __builtin_prefetch(j.y + at + o * P, 1, 2);
            __builtin_prefetch(j.y + at + o * P + last, 1, 2);
            if (j.ep.residual) {
                __builtin_prefetch(j.ep.residual + at + o * P, 0, 2);
                __builtin_prefetch(j.ep.residual + at + o * P + last, 0, 2);
            }
        }
    }
    for (int64_t k0 = 0; k0 < Kg; k0 += kSlice) {
        const int64_t kc = std::min(kSlice, Kg - k0);
        if (j.plan.packed) {
            ConvPack<T> pk;
            pk.kc = kc;
            pk.off = j.taps + k0;
            pk.dst = bp;
            pk.ld = NR;
            for (int64_t v = 0; v < NV; ++v) {
                t.b[v] = bp + v * W;
                if (!seg[v]) continue;
                pk.b[v] = xg[v] + seg[v]->q;
                pk.q[v] = j.plan.lanes.data() + (seg[v] - j.plan.segs.data()) * W;
                pk.len[v] = seg[v]->len;
            }
            ck.pack(pk);
            t.off = j.poff;
        } else {
            for (int64_t v = 0; v < NV; ++v) t.b[v] = seg[v] ? xg[v] + seg[v]->q : xg[0];
            t.off = j.taps + k0;
        }
        t.kc = kc;
        t.acc = k0 > 0;
        t.last = k0 + kc == Kg;
        const T* wk = j.wp + gi * j.Mp * Kg + k0 * j.Mp;
        for (int64_t i = 0; i < Og; i += MR) {
            const int64_t o = gi * Og + i;
            t.a = wk + i * kc;
            t.rows = static_cast<int>(std::min(MR, Og - i));
            t.bias = j.ep.bias ? j.ep.bias + o : nullptr;
            for (int64_t v = 0; v < NV; ++v) {
                const int64_t at = seg[v] ? (n[v] * g.O + o) * P + seg[v]->p : 0;
                t.c[v] = j.y + at;
                t.z[v] = j.ep.residual && seg[v] ? j.ep.residual + at : nullptr;
            }
            j.tile(t);
        }
    }
}

template <typename T>
void forward_tiles(const T* x, const T* wp, T* y, const Geometry& g, int64_t Mp, int64_t MR, bool par,
                   const Epilogue<T>& ep) {
    const ConvKernel<T>& ck = conv_kernel<T>();
    const int64_t W = ck.w, NV = ck.nv, NR = W * NV, Cg = g.Cg();
    const Wide w = wide_of(g);
    const SegmentPlan plan = segment_plan(g, w, W, MR);
    const std::vector<int64_t> taps = wide_taps(g, w);
    std::vector<int64_t> poff(static_cast<size_t>(kSlice));
    for (int64_t k = 0; k < kSlice; ++k) poff[k] = k * NR;
    const ForwardJob<T> job{g, w, plan, wp, Mp, MR, ck.tile_of(static_cast<int>(MR)), taps.data(), poff.data(), y,
                            ep};
    const int64_t nseg = static_cast<int64_t>(plan.segs.size()), items = g.N * g.G;
    const size_t panel = plan.packed ? static_cast<size_t>(kSlice * NR) : 0;
    const int nt = par ? max_threads() : 1;
    if (w.copy && items >= 2 * nt) {   // a task per (item, group), each copied by its thread
        parallel((par) ? nt : 1, [&](int, int) {
            std::vector<T> copy(static_cast<size_t>(Cg * w.Cs()), T(0));
            std::vector<T> bp(panel);
            const Segment* seg[ConvTile<T>::kMaxVectors];
            int64_t n[ConvTile<T>::kMaxVectors];
            const T* xg[ConvTile<T>::kMaxVectors];
            for_static(items, [&](int64_t task) {
                const int64_t ni = task / g.G, gi = task % g.G;
                fill_copy(x + (ni * g.C + gi * Cg) * g.S(), g, w, Cg, copy.data());
                for (int64_t s0 = 0; s0 < nseg; s0 += NV) {
                    for (int64_t v = 0; v < NV; ++v) {
                        seg[v] = s0 + v < nseg ? &plan.segs[s0 + v] : nullptr;
                        n[v] = ni;
                        xg[v] = copy.data();
                    }
                    forward_panel(job, gi, seg, n, xg, bp.data());
                }
            });
        });
        return;
    }
    // one copy for all (or none): tasks are (group, NV consecutive segments of the whole batch)
    std::unique_ptr<T[]> buf;
    const T* xp = padded_input(x, g, w, 0, buf, par);
    const int64_t cs = w.Cs(), panels = ceil_div(g.N * nseg, NV), tasks = g.G * panels;
    parallel((par) ? nt : 1, [&](int, int) {
        std::vector<T> bp(panel);
        const Segment* seg[ConvTile<T>::kMaxVectors];
        int64_t n[ConvTile<T>::kMaxVectors];
        const T* xg[ConvTile<T>::kMaxVectors];
        for_static(tasks, [&](int64_t task) {
            const int64_t gi = task / panels, s0 = (task % panels) * NV;
            for (int64_t v = 0; v < NV; ++v) {
                const int64_t s = s0 + v;
                seg[v] = s < g.N * nseg ? &plan.segs[s % nseg] : nullptr;
                n[v] = s < g.N * nseg ? s / nseg : 0;
                xg[v] = xp + (n[v] * g.C + gi * Cg) * cs;
            }
            forward_panel(job, gi, seg, n, xg, bp.data());
        });
    });
}

// backward-filter on wide rows: dW[o, k] = sum over batch items and positions p of dY[o, p] x[p +
// offset(k)], a dot product along a dY row and a shifted input row, both contiguous: the
// inner-product tile (gemm.h) reads them in place, with no transposition. dY is first laid out on the
// wide positions (zeros at the positions that are not outputs), each row padded with zeros to a
// multiple of the vector width so that no scalar tail remains; the input copy gets the same margin
// at its end. Those zero dY entries meet real input values (the row's wrap-around), so an infinite
// input there turns the gradient NaN where the exact sum would skip it: backward_filter then runs the
// gather path instead (see there).
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
    parallel_for(items * Og, par, max_threads(), [&](int64_t r) {
        const T* src = dy + r * P;   // (n, gi, o) rows are consecutive in dY as in dyw
        T* row = dyw.get() + r * Pr;
        std::fill(row, row + Pr, T(0));
        for (const Span& sp : spans) std::memcpy(row + sp.col, src + sp.out, sizeof(T) * sp.len);
    });
    // items whose rows are summed at once: about 8192 positions (fewer horizontal reductions; the chunk of
    // a 32x32 map still fits L2), in equal chunks
    const int64_t chunks = ceil_div(g.N, std::max<int64_t>(1, 8192 / Pr)), per_chunk = ceil_div(g.N, chunks);
    const int64_t oblocks = ceil_div(Og, MO), jblocks = ceil_div(Kg, NJ);
    const int64_t tasks = chunks * g.G * oblocks * jblocks;
    const int nt = par ? max_threads() : 1;
    std::vector<std::vector<T>> partial(static_cast<size_t>(nt));
    parallel((par) ? nt : 1, [&](int, int) {
        std::vector<T>& acc = partial[thread_id()];
        acc.assign(static_cast<size_t>(wsize), T(0));
        std::vector<T> tile(static_cast<size_t>(MO * NJ));
        std::vector<const T*> arows(static_cast<size_t>(MO)), brows(static_cast<size_t>(NJ));
        for_static(tasks, [&](int64_t t) {
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
        });
    });
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
    parallel((par) ? max_threads() : 1, [&](int, int) {
        std::vector<const T*> rows(static_cast<size_t>(Cg));
        std::vector<T> gathered(g.stride[2] == 1 ? 0 : static_cast<size_t>(Cg * w.pdim[2]));
        for_static(fills, [&](int64_t f) {
            const int64_t gi = f / (nphase * g.N), ph = (f / g.N) % nphase, n = f % g.N;
            if (w.slot[ph] < 0) return;   // a phase no tap reads
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
        });
    });
    // A: dY on the wide positions in MR-tall panels, (G, panel, Q, MR); positions past Pw are never read
    const std::vector<int64_t> targets = wide_targets(g, w);
    std::vector<Span> spans;
    spans_of(targets.data(), w.Pw, spans);
    std::unique_ptr<T[]> ap(new T[static_cast<size_t>(g.G * nop * Q * MR)]);
    const std::vector<T> zeros(static_cast<size_t>(P), T(0));   // the rows of a last panel past Og
    parallel_for(g.G * nop * g.N, par, max_threads(), [&](int64_t f) {
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
    });
    // the products
    const int64_t qslices = ceil_div(w.Pw, kSlice), tasks = g.G * g.N * qslices, part = g.G * Mp * width;
    std::vector<int64_t> offs(static_cast<size_t>(kSlice));
    for (int64_t k = 0; k < kSlice; ++k) offs[k] = k * Cg;
    const int nt = par ? max_threads() : 1;
    std::vector<std::vector<T>> partial(static_cast<size_t>(nt));
    parallel((par) ? nt : 1, [&](int, int) {
        std::vector<T>& acc = partial[thread_id()];
        acc.assign(static_cast<size_t>(part), T(0));
        for_static(tasks, [&](int64_t t) {
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
        });
    });
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

// --- depthwise convolutions ---------------------------------------------------------------------
//
// groups == C > 1, one input channel per group (MobileNet's depthwise layers; Og = O / G output
// channels per group, the channel multiplier; any strides, dilations, padding, 3-D). A single input
// channel (LeNet's first layer, C == G == 1) stays on the GEMM path: there Og is large enough to fill
// tiles, and it measured faster (LeNet conv1, batch 32, 2 cores: filter grad 0.114 -> 0.086 ms,
// data grad 0.16 -> 0.13 ms). A group's GEMM would be
// Og (usually 1) rows tall, so that the micro-kernel's 8-row tiles would waste 7/8 of their work:
// these run directly instead, one (batch item, channel) plane at a time, vectorised along the
// positions in 64-byte vectors (an AVX-512 register; two AVX2 or four SSE2 ones in the other clones).
//
// forward          The plane is copied as in the wide-row path (zeros where padding is, one phase
//                  plane per stride phase a tap reads), so that every tap of every output reads the
//                  copy at a fixed offset from the output's position: an output row is
//                  sum_t w[t] * copy[p + offset(t)], up to 9 taps per pass. The copy is a window of
//                  rows that slides down the plane with blocks of output rows and stays in L1 (3-D:
//                  the whole plane, filled as the blocks reach its rows); it is skipped where it would
//                  equal the input (unit strides, no padding). Long rows are summed straight into y,
//                  short ones as one run of wide positions (their ends included) into a buffer, then
//                  copied. The Epilogue (bias, ReLU) is applied as rows are stored.
// backward-data    The gather form, split by stride phase: dX elements j * s + q of phase q receive
//                  the taps k with (q + pad - k * dil) % s == 0, from dY at j + (q + pad - k * dil) / s,
//                  so that each phase is a unit-stride correlation of a zero-padded copy of dY (again
//                  a sliding window) with part of the kernel, computed like the forward; a strided
//                  layer's phases are then interleaved into dX's rows.
// backward-filter  dW[o, t] = sum over batch items and outputs of dY[o, p] * copy[p + offset(t)], on
//                  the forward's copy: per output row, dot products of the dY row with the taps'
//                  rows, kept as vectors of lane partial sums (the compiler does not vectorise a
//                  reduction without reassociating it), over real outputs only (a row's last partial
//                  vector is masked), reduced lane by lane at the end.
//
// These layers move far more data than they compute on: each thread prefetches its next plane into
// L2 a share per block, so that memory streams while the blocks compute.
//
// Tasks: forward and backward-data take (batch item, channel, block of rows) tasks, the filter
// gradient (channel, run of batch items) tasks whose partials are added in a fixed order. Blocks and
// runs are set by the problem, not by the thread count, and each element is summed in one order
// whatever its block (passes of up to 9 taps, each in three chains, taps t % 3, added at the end; not
// the GEMM path's order), so results do not depend on the thread count.

inline bool depthwise(const Geometry& g) { return g.G == g.C && g.Cg() == 1 && g.C > 1; }

constexpr int64_t kDwWindowBytes = 24576;  // a block's copied rows and its outputs: half of L1
constexpr int64_t kDwTasks = 16;           // fewer planes (channels) than this are split into blocks (runs)

// Taps in the next pass: ``left`` taps in passes of at most ``most``, balanced (9 taps: 5 + 4).
inline int64_t dw_pass_size(int64_t left, int64_t most) { return ceil_div(left, ceil_div(left, most)); }

// Row blocks per plane: one when there are enough planes to share out, else enough for about
// kDwTasks tasks (never more blocks than rows).
inline int64_t dw_blocks(int64_t planes, int64_t rows) {
    if (planes >= kDwTasks) return 1;
    return std::max<int64_t>(1, std::min(rows, ceil_div(kDwTasks, planes)));
}

// Rows per block when a block of R rows keeps copies * (R + reach) + outs * R rows of ``width``.
inline int64_t dw_block_rows(int64_t width, int64_t bytes, int64_t copies, int64_t outs, int64_t reach) {
    const int64_t fit = kDwWindowBytes / (width * bytes) - copies * reach;
    return std::max<int64_t>(1, fit / (copies + outs));
}

// [lo, hi): the elements v < ext of a phase line whose input index v * s + phase - pad is inside [0, n).
inline void dw_inside(int64_t phase, int64_t s, int64_t pad, int64_t n, int64_t ext, int64_t& lo, int64_t& hi) {
    lo = pad > phase ? ceil_div(pad - phase, s) : 0;
    hi = n - 1 + pad - phase >= 0 ? std::min(ext, (n - 1 + pad - phase) / s + 1) : 0;
    lo = std::min(lo, ext);
    hi = std::max(hi, lo);
}

// The forward's copy of one channel: per axis, kernel offset a * dil reads phase (a * dil) % s at
// shift (a * dil) / s; phase line element v is input element v * s + phase - pad (zero outside). The
// phase planes all have extent ext = out + the largest shift, so a tap of every output stays inside.
// In the copy, rows are ``ld`` apart, a whole number of vectors, and element v of an x phase sits at
// column lead + v, so that the copy's stores of input rows are aligned (as are the loads of the taps
// whose column is a whole number of vectors).
struct DwPlanes {
    Dims3 ext;                                    // (Dp, Hp, Wp)
    int64_t ld = 0;                               // row stride (Wp where there is no copy)
    int64_t Sp = 0, nslot = 0;                    // elements of one phase plane (Dp * Hp * ld), phase planes
    std::array<std::vector<int64_t>, 3> phases;   // per axis: the phases read, in slot order
    std::vector<int64_t> lead;                    // per x phase: the column of its element 0
    std::vector<int64_t> slot, row, col;          // per tap (kz, ky, kx): phase plane, row shift, column
    int64_t reach = 0;                            // the largest row shift
    bool copy = false;                            // false: the copy would equal the input plane
    // offset of tap t from a position, in a copy whose phase planes are ``stride`` apart
    int64_t off(int64_t t, int64_t stride) const { return slot[t] * stride + row[t] * ld + col[t]; }
};

// ``always_copy``: as if the copy were needed (the filter gradient's reads go past rows' ends).
inline DwPlanes dw_planes(const Geometry& g, int64_t lanes, bool always_copy = false) {
    DwPlanes L;
    L.copy = always_copy;
    std::array<std::vector<int64_t>, 3> idx, shift;
    for (int a = 0; a < 3; ++a) {
        int64_t most = 0;
        for (int64_t k = 0; k < g.k[a]; ++k) {
            const int64_t u = k * g.dil[a], ph = u % g.stride[a];
            auto it = std::find(L.phases[a].begin(), L.phases[a].end(), ph);
            if (it == L.phases[a].end()) it = L.phases[a].insert(L.phases[a].end(), ph);
            idx[a].push_back(it - L.phases[a].begin());
            shift[a].push_back(u / g.stride[a]);
            most = std::max(most, u / g.stride[a]);
        }
        L.ext[a] = g.out[a] + most;
        L.copy = L.copy || g.stride[a] != 1 || g.pad[a] != 0 || L.ext[a] != g.in[a];
    }
    const int64_t ny = static_cast<int64_t>(L.phases[1].size()), nx = static_cast<int64_t>(L.phases[2].size());
    L.ld = L.ext[2];
    L.lead.assign(static_cast<size_t>(nx), 0);
    if (L.copy) {
        int64_t width = 0;
        for (int64_t i = 0; i < nx; ++i) {
            int64_t lo, hi;
            dw_inside(L.phases[2][i], g.stride[2], g.pad[2], g.in[2], L.ext[2], lo, hi);
            L.lead[i] = (lanes - lo % lanes) % lanes;
            width = std::max(width, L.lead[i] + L.ext[2]);
        }
        L.ld = ceil_div(width, lanes) * lanes;
    }
    L.Sp = L.ext[0] * L.ext[1] * L.ld;
    L.nslot = static_cast<int64_t>(L.phases[0].size()) * ny * nx;
    for (int64_t kz = 0; kz < g.k[0]; ++kz) {
        for (int64_t ky = 0; ky < g.k[1]; ++ky) {
            for (int64_t kx = 0; kx < g.k[2]; ++kx) {
                L.slot.push_back((idx[0][kz] * ny + idx[1][ky]) * nx + idx[2][kx]);
                L.row.push_back(shift[0][kz] * L.ext[1] + shift[1][ky]);
                L.col.push_back(L.lead[idx[2][kx]] + shift[2][kx]);
                L.reach = std::max(L.reach, L.row.back());
            }
        }
    }
    return L;
}

// ``n`` elements, the first 64-byte aligned, in ``buf`` (zeros).
template <typename T>
T* dw_aligned(std::vector<T>& buf, int64_t n) {
    buf.assign(static_cast<size_t>(n) + 64 / sizeof(T), T(0));
    const uintptr_t p = reinterpret_cast<uintptr_t>(buf.data());
    return buf.data() + ((64 - p % 64) % 64) / sizeof(T);
}

// A window of rows [lo, hi) held at the front of ``count`` buffers ``stride`` apart (rows ``width``
// long) moves to [nlo, nhi) (never backwards): the rows both hold move to the front. Returns the
// first row still to fill.
template <typename T>
int64_t dw_slide(T* buf, int64_t count, int64_t stride, int64_t width, int64_t& lo, int64_t& hi, int64_t nlo,
                 int64_t nhi) {
    int64_t from = nlo;
    if (nlo >= lo && nlo < hi) {
        const int64_t keep = std::min(hi, nhi) - nlo;
        if (nlo > lo) {
            for (int64_t i = 0; i < count; ++i) {
                T* b = buf + i * stride;
                std::memmove(b, b + (nlo - lo) * width, sizeof(T) * keep * width);
            }
        }
        from = nlo + keep;
    }
    lo = nlo;
    hi = nhi;
    return from;
}

// Input rows row0 + i * ld (i < rows) into their phase rows dst[p] + i * ldd (phase line element v =
// input element v * s + phase[p] - pad, for v in [lo[p], hi[p]); the padding around is zero already
// and stays so). Stride 2 with both phases (a 3x3 kernel's) splits each row into its even and odd
// elements in one pass.
template <typename T>
MSCPU_DW_INLINE void dw_fill_rows_body(const T* row0, int64_t ld, int64_t rows, T* const* dst, const int64_t* phase,
                                       const int64_t* lo, const int64_t* hi, int64_t nph, int64_t s, int64_t pad,
                                       int64_t ldd) {
    int64_t p0 = 0;   // phases copied by the two-phase split
    if (s == 2 && nph == 2 && phase[0] != phase[1]) {
        // phase p holds input elements 2 v + phase[p] - pad = 2 u + e, e in {0, 1}: v = u + k[p]; the
        // split covers the u both phases hold, [ua, ub), the rest (if any) is copied element by element
        int64_t k[2], e[2], ua = 0, ub = std::numeric_limits<int64_t>::max();
        for (int p = 0; p < 2; ++p) {
            const int64_t a = phase[p] - pad;
            e[p] = ((a % 2) + 2) % 2;
            k[p] = -(a - e[p]) / 2;
            ua = std::max(ua, lo[p] - k[p]);
            ub = std::min(ub, hi[p] - k[p]);
        }
        ub = std::max(ua, ub);
        const int ev = e[0] == 0 ? 0 : 1;
        T* de = dst[ev] + k[ev] + ua;
        T* dd = dst[1 - ev] + k[1 - ev] + ua;
        const T* src = row0 + 2 * ua;
        for (int64_t i = 0; i < rows; ++i) dw_split2(de + i * ldd, dd + i * ldd, src + i * ld, ub - ua);
        for (int p = 0; p < 2; ++p) {
            const int64_t a = std::min(hi[p], std::max(lo[p], ua + k[p])), b = std::max(a, ub + k[p]);
            if (a == lo[p] && b == hi[p]) continue;
            for (int64_t i = 0; i < rows; ++i) {
                T* d = dst[p] + i * ldd;
                const T* r = row0 + i * ld + phase[p] - pad;
                for (int64_t v = lo[p]; v < a; ++v) d[v] = r[2 * v];
                for (int64_t v = b; v < hi[p]; ++v) d[v] = r[2 * v];
            }
        }
        p0 = 2;
    }
    for (int64_t p = p0; p < nph; ++p) {
        T* d = dst[p] + lo[p];
        const T* r = row0 + lo[p] * s + phase[p] - pad;
        const int64_t n = hi[p] - lo[p];
        for (int64_t i = 0; i < rows; ++i) {
            if (s == 1) {
                dw_copy(d + i * ldd, r + i * ld, n);
            } else {
                for (int64_t v = 0; v < n; ++v) d[i * ldd + v] = r[i * ld + v * s];
            }
        }
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void dw_fill_rows(const float* row0, int64_t ld, int64_t rows, float* const* dst, const int64_t* phase,
                  const int64_t* lo, const int64_t* hi, int64_t nph, int64_t s, int64_t pad, int64_t ldd) {
    dw_fill_rows_body(row0, ld, rows, dst, phase, lo, hi, nph, s, pad, ldd);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void dw_fill_rows(const double* row0, int64_t ld, int64_t rows, double* const* dst, const int64_t* phase,
                  const int64_t* lo, const int64_t* hi, int64_t nph, int64_t s, int64_t pad, int64_t ldd) {
    dw_fill_rows_body(row0, ld, rows, dst, phase, lo, hi, nph, s, pad, ldd);
}

// Rows [r0, r1) (r = vz * Hp + vy) of every phase plane of channel plane ``x``, row r at row r - base
// of phase planes ``stride`` apart in ``B`` (rows L.ld apart, elements from L.lead on). ``scratch``
// and ``dst`` are the caller's, reused.
template <typename T>
void dw_fill(const T* x, const Geometry& g, const DwPlanes& L, int64_t r0, int64_t r1, T* B, int64_t stride,
             int64_t base, std::vector<int64_t>& scratch, std::vector<T*>& dst) {
    const int64_t D = g.in[0], H = g.in[1], W = g.in[2], Hp = L.ext[1], Wp = L.ext[2], ld = L.ld;
    const int64_t nx = static_cast<int64_t>(L.phases[2].size()), sy = g.stride[1];
    scratch.resize(static_cast<size_t>(3 * nx));
    dst.resize(static_cast<size_t>(nx));
    int64_t* lo = scratch.data();
    int64_t* hi = lo + nx;
    int64_t* ph = hi + nx;
    for (int64_t i = 0; i < nx; ++i) {
        ph[i] = L.phases[2][i];
        dw_inside(ph[i], g.stride[2], g.pad[2], W, Wp, lo[i], hi[i]);
    }
    for (int64_t r = r0; r < r1;) {   // runs of rows of one depth slice vz
        const int64_t vz = r / Hp, vy0 = r % Hp, vy1 = std::min(Hp, vy0 + (r1 - r));
        int64_t slot = 0;
        for (int64_t pz : L.phases[0]) {
            const int64_t iz = vz * g.stride[0] + pz - g.pad[0];
            for (int64_t py : L.phases[1]) {
                // rows vy of the run whose input row vy * sy + py - pad is inside: [va, vb)
                int64_t va = vy0, vb = vy0;
                if (iz >= 0 && iz < D) {
                    int64_t ilo, ihi;
                    dw_inside(py, sy, g.pad[1], H, Hp, ilo, ihi);
                    va = std::min(vy1, std::max(vy0, ilo));
                    vb = std::max(va, std::min(vy1, ihi));
                }
                for (int64_t i = 0; i < nx; ++i) {
                    T* plane = B + (slot + i) * stride + (vz * Hp - base) * ld;
                    std::fill(plane + vy0 * ld, plane + va * ld, T(0));
                    std::fill(plane + vb * ld, plane + vy1 * ld, T(0));
                    dst[i] = plane + va * ld + L.lead[i];
                }
                slot += nx;
                if (vb > va) {
                    dw_fill_rows(x + (iz * H + va * sy + py - g.pad[1]) * W, sy * W, vb - va, dst.data(), ph, lo, hi,
                                 nx, g.stride[2], g.pad[2], ld);
                }
            }
        }
        r += vy1 - vy0;
    }
}

// Prefetches (into L2) the part of [p, p + n) from element ``from`` up to ``to``: the next task's
// input, a share per block of the current one, so that the memory stays busy while the blocks compute.
template <typename T>
inline void dw_prefetch(const T* p, int64_t from, int64_t to) {
    constexpr int64_t line = 64 / static_cast<int64_t>(sizeof(T));
    for (int64_t k = from - from % line; k < to; k += line) __builtin_prefetch(p + k, 0, 2);
}

// The NT taps' sum at position i in chains: tap t is added to chain t % 3 in tap order, and the
// chains are added in order ((a0 + a1) + a2): short dependency chains, and a fixed order.
template <typename T, int NT>
MSCPU_DW_INLINE T dw_taps_at(const T* const* s, const T* c, int64_t i) {
    constexpr int NC = NT < 3 ? NT : 3;
    T a[NC];
    for (int j = 0; j < NC; ++j) a[j] = c[j] * s[j][i];
    for (int t = NC; t < NT; ++t) a[t % NC] += c[t] * s[t][i];
    T r = a[0];
    for (int j = 1; j < NC; ++j) r += a[j];
    return r;
}

template <typename T, int NT>
MSCPU_DW_INLINE void dw_taps_vec(typename DwVec<T>::vec& r, const T* const* s, const typename DwVec<T>::vec* c,
                                 int64_t i) {
    constexpr int NC = NT < 3 ? NT : 3;
    typename DwVec<T>::vec a[NC], v;
    for (int j = 0; j < NC; ++j) {
        dw_load(v, s[j] + i);
        a[j] = c[j] * v;
    }
    for (int t = NC; t < NT; ++t) {
        dw_load(v, s[t] + i);
        a[t % NC] += c[t] * v;
    }
    r = a[0];
    for (int j = 1; j < NC; ++j) r += a[j];
}

// y[r * ldy + i] (first: =, else +=) the sum of w[t] * src[t][r * lds + i] over NT taps, for rows
// r < rows and i < n, whole vectors at a time (a first pass's last vector overlaps the one before;
// later passes finish element by element, with the same arithmetic).
template <typename T, int NT>
MSCPU_DW_INLINE void dw_pass(T* y, int64_t ldy, const T* const* src, int64_t lds, const T* w, int64_t rows, int64_t n,
                             bool first) {
    using vec = typename DwVec<T>::vec;
    constexpr int V = DwVec<T>::lanes;
    const T* s[NT];
    T cs[NT];
    vec c[NT];
    for (int t = 0; t < NT; ++t) {
        cs[t] = w[t];
        c[t] = vec{} + w[t];
    }
    vec r, v;
    for (int64_t row = 0; row < rows; ++row) {
        T* yr = y + row * ldy;
        for (int t = 0; t < NT; ++t) s[t] = src[t] + row * lds;
        int64_t i = 0;
        if (first) {
            for (; i + V <= n; i += V) {
                dw_taps_vec<T, NT>(r, s, c, i);
                dw_store_vec(yr + i, r);
            }
            if (i < n && n >= V) {
                dw_taps_vec<T, NT>(r, s, c, n - V);
                dw_store_vec(yr + n - V, r);
                i = n;
            }
            for (; i < n; ++i) yr[i] = dw_taps_at<T, NT>(s, cs, i);
        } else {
            for (; i + V <= n; i += V) {
                dw_taps_vec<T, NT>(r, s, c, i);
                dw_load(v, yr + i);
                dw_store_vec(yr + i, v + r);
            }
            for (; i < n; ++i) yr[i] += dw_taps_at<T, NT>(s, cs, i);
        }
    }
}

// y[r * ldy + i] = the sum over the taps (in passes of at most 9) of w[t] * src[t][r * lds + i], for
// rows r < rows and i < n (zeros without taps).
template <typename T>
MSCPU_DW_INLINE void dw_taps_body(T* y, int64_t ldy, const T* const* src, int64_t lds, const T* w, int64_t ntaps,
                                  int64_t rows, int64_t n) {
    if (ntaps == 0) {
        for (int64_t r = 0; r < rows; ++r) std::fill(y + r * ldy, y + r * ldy + n, T(0));
    }
    for (int64_t t = 0; t < ntaps;) {
        const int64_t m = dw_pass_size(ntaps - t, 9);
        switch (m) {
            case 1: dw_pass<T, 1>(y, ldy, src + t, lds, w + t, rows, n, t == 0); break;
            case 2: dw_pass<T, 2>(y, ldy, src + t, lds, w + t, rows, n, t == 0); break;
            case 3: dw_pass<T, 3>(y, ldy, src + t, lds, w + t, rows, n, t == 0); break;
            case 4: dw_pass<T, 4>(y, ldy, src + t, lds, w + t, rows, n, t == 0); break;
            case 5: dw_pass<T, 5>(y, ldy, src + t, lds, w + t, rows, n, t == 0); break;
            case 6: dw_pass<T, 6>(y, ldy, src + t, lds, w + t, rows, n, t == 0); break;
            case 7: dw_pass<T, 7>(y, ldy, src + t, lds, w + t, rows, n, t == 0); break;
            case 8: dw_pass<T, 8>(y, ldy, src + t, lds, w + t, rows, n, t == 0); break;
            default: dw_pass<T, 9>(y, ldy, src + t, lds, w + t, rows, n, t == 0); break;
        }
        t += m;
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void dw_taps(float* y, int64_t ldy, const float* const* src, int64_t lds, const float* w, int64_t ntaps, int64_t rows,
             int64_t n) {
    dw_taps_body(y, ldy, src, lds, w, ntaps, rows, n);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void dw_taps(double* y, int64_t ldy, const double* const* src, int64_t lds, const double* w, int64_t ntaps,
             int64_t rows, int64_t n) {
    dw_taps_body(y, ldy, src, lds, w, ntaps, rows, n);
}

// y[r * ldy + i] = max(a[r * lda + i] + shift, lo) (without the shift when there is no bias), r < rows,
// i < n: the forward's Epilogue, branch-free as in write_row (in place when a == y).
template <typename T>
MSCPU_DW_INLINE void dw_store_body(const T* a, int64_t lda, T* y, int64_t ldy, int64_t rows, int64_t n, T shift,
                                   T lo, T nan_out, bool has_shift) {
    for (int64_t r = 0; r < rows; ++r) {
        const T* ar = a + r * lda;
        T* yr = y + r * ldy;
        if (has_shift) {
            for (int64_t i = 0; i < n; ++i) {
                const T v = ar[i] + shift;
                yr[i] = floor_clamp(v, lo, nan_out);
            }
        } else {
            for (int64_t i = 0; i < n; ++i) {
                const T v = ar[i];
                yr[i] = floor_clamp(v, lo, nan_out);
            }
        }
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void dw_store(const float* a, int64_t lda, float* y, int64_t ldy, int64_t rows, int64_t n, float shift, float lo,
              float nan_out, bool has_shift) {
    dw_store_body(a, lda, y, ldy, rows, n, shift, lo, nan_out, has_shift);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void dw_store(const double* a, int64_t lda, double* y, int64_t ldy, int64_t rows, int64_t n, double shift, double lo,
              double nan_out, bool has_shift) {
    dw_store_body(a, lda, y, ldy, rows, n, shift, lo, nan_out, has_shift);
}

// d[r * ldd + j * s + q] = a[q * ps + r * lda + j] for j < len[q], q < s, r < rows: the stride phases of
// dX's rows interleaved (s = 2, a strided layer's, in whole vectors, the last overlapping the one
// before).
template <typename T>
MSCPU_DW_INLINE void dw_interleave_body(T* d, int64_t ldd, const T* a, int64_t lda, int64_t ps, const int64_t* len,
                                        int64_t s, int64_t rows) {
    using W = DwVec<T>;
    constexpr int V = W::lanes;
    for (int64_t r = 0; r < rows; ++r) {
        T* dr = d + r * ldd;
        const T* ar = a + r * lda;
        if (s == 1) {
            dw_copy(dr, ar, len[0]);
        } else if (s == 2) {
            const T* a0 = ar;
            const T* a1 = ar + ps;
            const int64_t n = len[1];
            auto block = [&](int64_t j) {
                typename W::vec u, v;
                dw_load(u, a0 + j);
                dw_load(v, a1 + j);
                dw_store_vec(dr + 2 * j, typename W::vec(__builtin_shuffle(u, v, W::zip_lo)));
                dw_store_vec(dr + 2 * j + V, typename W::vec(__builtin_shuffle(u, v, W::zip_hi)));
            };
            int64_t j = 0;
            if (n >= V) {
                for (; j + V <= n; j += V) block(j);
                if (j < n) block(n - V);
            } else {
                for (; j < n; ++j) {
                    dr[2 * j] = a0[j];
                    dr[2 * j + 1] = a1[j];
                }
            }
            if (len[0] > n) dr[2 * n] = a0[n];
        } else {
            for (int64_t q = 0; q < s; ++q) {
                for (int64_t j = 0; j < len[q]; ++j) dr[j * s + q] = ar[q * ps + j];
            }
        }
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void dw_interleave(float* d, int64_t ldd, const float* a, int64_t lda, int64_t ps, const int64_t* len, int64_t s,
                   int64_t rows) {
    dw_interleave_body(d, ldd, a, lda, ps, len, s, rows);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void dw_interleave(double* d, int64_t ldd, const double* a, int64_t lda, int64_t ps, const int64_t* len, int64_t s,
                   int64_t rows) {
    dw_interleave_body(d, ldd, a, lda, ps, len, s, rows);
}

// acc[t][l] += the products d[r][i] * src[t][r][i] over rows r < rows and i < n with i % lanes == l, for
// NT taps: rows ldd apart in d (zeros past n where n is not a whole number of vectors), ld apart in
// every src[t]. A row's last, partial vector masks src to zero past n, so that no value beyond the
// row enters (0 * inf); it reads up to a vector past the row, which the caller's copy has room for.
// With few taps, alternate rows go to two partial sums (two dependency chains), added at the end.
template <typename T, int NT>
MSCPU_DW_INLINE void dw_dots_n(const T* d, int64_t ldd, const T* const* src, int64_t ld, int64_t rows, int64_t n,
                               T* acc) {
    using vec = typename DwVec<T>::vec;
    using mask = typename DwVec<T>::mask;
    constexpr int V = DwVec<T>::lanes;
    constexpr bool two = NT <= 4;
    vec a[NT], b[NT], dv, sv;
    const T* s[NT];
    for (int t = 0; t < NT; ++t) {
        dw_load(a[t], acc + t * V);
        b[t] = vec{};
        s[t] = src[t];
    }
    const int64_t rem = n % V, full = n - rem;
    mask keep;
    for (int l = 0; l < V; ++l) keep[l] = l < rem ? -1 : 0;
    auto row = [&](int64_t r, vec(&c)[NT]) {
        const int64_t o = r * ld;
        const T* dr = d + r * ldd;
        for (int64_t i = 0; i < full; i += V) {
            dw_load(dv, dr + i);
            for (int t = 0; t < NT; ++t) {
                dw_load(sv, s[t] + o + i);
                c[t] += dv * sv;
            }
        }
        if (rem != 0) {
            dw_load(dv, dr + full);
            for (int t = 0; t < NT; ++t) {
                dw_load(sv, s[t] + o + full);
                sv = reinterpret_cast<vec>(reinterpret_cast<mask>(sv) & keep);
                c[t] += dv * sv;
            }
        }
    };
    for (int64_t r = 0; r < rows; ++r) {
        if (two && (r & 1)) {
            row(r, b);
        } else {
            row(r, a);
        }
    }
    for (int t = 0; t < NT; ++t) dw_store_vec(acc + t * V, two ? vec(a[t] + b[t]) : a[t]);
}

template <typename T>
MSCPU_DW_INLINE void dw_dots_body(const T* d, int64_t ldd, const T* const* src, int64_t ld, int64_t rows, int64_t n,
                                  int64_t ntaps, T* acc) {
    constexpr int V = DwVec<T>::lanes;
    for (int64_t t = 0; t < ntaps;) {
        const int64_t m = dw_pass_size(ntaps - t, 9);
        T* at = acc + t * V;
        switch (m) {
            case 1: dw_dots_n<T, 1>(d, ldd, src + t, ld, rows, n, at); break;
            case 2: dw_dots_n<T, 2>(d, ldd, src + t, ld, rows, n, at); break;
            case 3: dw_dots_n<T, 3>(d, ldd, src + t, ld, rows, n, at); break;
            case 4: dw_dots_n<T, 4>(d, ldd, src + t, ld, rows, n, at); break;
            case 5: dw_dots_n<T, 5>(d, ldd, src + t, ld, rows, n, at); break;
            case 6: dw_dots_n<T, 6>(d, ldd, src + t, ld, rows, n, at); break;
            case 7: dw_dots_n<T, 7>(d, ldd, src + t, ld, rows, n, at); break;
            case 8: dw_dots_n<T, 8>(d, ldd, src + t, ld, rows, n, at); break;
            default: dw_dots_n<T, 9>(d, ldd, src + t, ld, rows, n, at); break;
        }
        t += m;
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void dw_dots(const float* d, int64_t ldd, const float* const* src, int64_t ld, int64_t rows, int64_t n,
             int64_t ntaps, float* acc) {
    dw_dots_body(d, ldd, src, ld, rows, n, ntaps, acc);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void dw_dots(const double* d, int64_t ldd, const double* const* src, int64_t ld, int64_t rows, int64_t n,
             int64_t ntaps, double* acc) {
    dw_dots_body(d, ldd, src, ld, rows, n, ntaps, acc);
}

#undef MSCPU_DW_INLINE

// The rows a block reads from a copy: a window of rows that slides down the plane with the blocks
// (2-D), or the whole plane, filled as the blocks first reach its rows (3-D, where a block's rows
// lie in several depth slices).
struct DwWindow {
    bool whole = false;
    int64_t lo = 0, hi = 0;   // the rows held (whole: [0, hi) are filled)
    void reset() { lo = hi = 0; }
    // Makes rows [r0, r1) available; returns the first row to fill and sets ``base`` (the row held at
    // the copy's first row).
    template <typename T>
    int64_t need(T* buf, int64_t count, int64_t stride, int64_t width, int64_t r0, int64_t r1, int64_t& base) {
        if (whole) {
            base = 0;
            const int64_t from = std::max(r0, hi);
            hi = std::max(hi, r1);
            return from;
        }
        base = r0;
        return dw_slide(buf, count, stride, width, lo, hi, r0, r1);
    }
};

// The window over the copy of planes L (forward and filter gradient): whole planes in 3-D, else
// ``brows`` output rows per block with the copied rows they read; ``stride`` elements between its
// phase planes.
template <typename T>
DwWindow dw_window(const DwPlanes& L, int64_t& brows, int64_t& stride) {
    DwWindow win;
    win.whole = L.ext[0] > 1;
    const int64_t bytes = sizeof(T);
    brows = win.whole ? std::max<int64_t>(1, kDwWindowBytes / (L.ld * bytes))
                      : dw_block_rows(L.ld, bytes, L.copy ? L.nslot : 0, 1, L.reach);
    stride = win.whole || !L.copy ? L.Sp : (brows + L.reach) * L.ld;
    return win;
}

template <typename T>
void depthwise_forward(const T* x, const T* w, T* y, const Geometry& g, const Epilogue<T>& ep) {
    const int64_t P = g.P(), S = g.S(), Og = g.Og(), kk = g.ksize();
    if (g.N == 0 || g.O == 0 || P == 0) return;
    const DwPlanes L = dw_planes(g, DwVec<T>::lanes);
    const int64_t OD = g.out[0], OH = g.out[1], OW = g.out[2], Hp = L.ext[1], ld = L.ld;
    const int64_t total = L.ext[0] * Hp;
    int64_t brows = 0, stride = 0;
    const DwWindow win0 = dw_window<T>(L, brows, stride);
    const int64_t planes = g.N * g.C, blocks = dw_blocks(planes, OD * OH), tasks = planes * blocks;
    // rows of four vectors or more are summed row by row straight into y; shorter ones as one run of
    // wide positions (their ends included) into a buffer, then copied (faster where rows are short)
    const bool by_rows = OW >= 4 * DwVec<T>::lanes;
    const bool par = worth_parallel(static_cast<double>(g.N) * g.O * kk * P, kParallelFlops / 4);
    parallel((par) ? max_threads() : 1, [&](int, int) {
        std::vector<T> copy_buf, acc_buf;
        T* copy = dw_aligned(copy_buf, L.copy ? L.nslot * stride : 0);
        T* acc = dw_aligned(acc_buf, brows * ld);
        std::vector<const T*> src(static_cast<size_t>(kk));
        std::vector<int64_t> scratch;
        std::vector<T*> dst;
        DwWindow win = win0;
        for_static(tasks, [&](int64_t task) {
            const int64_t plane = task / blocks, n = plane / g.C, c = plane % g.C;
            int64_t Q0, Q1;   // output rows (oz, oy), numbered oz * OH + oy
            split(OD * OH, static_cast<int>(blocks), static_cast<int>(task % blocks), 1, Q0, Q1);
            const T* xc = x + plane * S;
            // whole planes: the next one is prefetched a share per block
            const T* next = blocks == 1 && task + 1 < tasks ? xc + S : nullptr;
            int64_t fetched = 0;
            win.reset();
            for (int64_t q = Q0; q < Q1;) {
                const int64_t oz = q / OH, oy0 = q % OH, oy1 = std::min(OH, oy0 + std::min(brows, Q1 - q));
                q += oy1 - oy0;
                if (next) {
                    const int64_t to = S * (q - Q0) / (Q1 - Q0);
                    dw_prefetch(next, fetched, to);
                    fetched = to;
                }
                const int64_t r0 = oz * Hp + oy0, rows = oy1 - oy0;   // wide rows [r0, r0 + rows)
                const T* B = xc;
                int64_t base = 0;   // the plane's row at the copy's first row
                if (L.copy) {
                    const int64_t end = std::min(r0 + rows + L.reach, total);
                    const int64_t from = win.need(copy, L.nslot, stride, ld, r0, end, base);
                    dw_fill(xc, g, L, from, end, copy, stride, base, scratch, dst);
                    B = copy;
                }
                for (int64_t t = 0; t < kk; ++t) src[t] = B + L.off(t, stride) + (r0 - base) * ld;
                for (int64_t m = 0; m < Og; ++m) {
                    const int64_t o = c * Og + m;
                    T* yr = y + (n * g.O + o) * P + (oz * OH + oy0) * OW;
                    if (by_rows) {   // straight into y's rows
                        dw_taps(yr, OW, src.data(), ld, w + o * kk, kk, rows, OW);
                        if (ep.any()) dw_store(yr, OW, yr, OW, rows, OW, ep.shift(o), ep.floor(), ep.nan_out(),
                                               ep.bias != nullptr);
                        continue;
                    }
                    dw_taps(acc, 0, src.data(), 0, w + o * kk, kk, 1, (rows - 1) * ld + OW);
                    if (ep.any()) {
                        dw_store(acc, ld, yr, OW, rows, OW, ep.shift(o), ep.floor(), ep.nan_out(),
                                               ep.bias != nullptr);
                    } else {
                        for (int64_t i = 0; i < rows; ++i) std::memcpy(yr + i * OW, acc + i * ld, sizeof(T) * OW);
                    }
                }
            }
        });
    });
}

// The depthwise forward with an Epilogue that may hold a residual: the kernel adds the bias, then the
// residual is added and the ReLU applied in one pass over the output (the order of the separate kernels).
template <typename T>
void depthwise_forward_with_residual(const T* x, const T* w, T* y, const Geometry& g, const Epilogue<T>& ep) {
    if (ep.residual == nullptr) {
        depthwise_forward(x, w, y, g, ep);
        return;
    }
    Epilogue<T> first;
    first.bias = ep.bias;
    depthwise_forward(x, w, y, g, first);
    const int64_t n = g.N * g.O * g.P();
    const T lo = ep.floor(), nan_out = ep.nan_out();
    for (int64_t i = 0; i < n; ++i) y[i] = floor_clamp(y[i] + ep.residual[i], lo, nan_out);
}

// backward-data geometry along one axis: dX index j * s + q (phase q) receives kernel offset k where
// (q + pad - k * dil) % s == 0, from dY index j + (q + pad - k * dil) / s, read from a copy of dY
// with ``lead`` zeros before it, ``ext`` long in all.
struct DwBackAxis {
    int64_t lead = 0, ext = 0, most = 0;                    // most: the longest phase
    std::vector<int64_t> len;                               // per phase: its dX indices j < len[q]
    std::vector<std::vector<std::array<int64_t, 2>>> taps;  // per phase: (k, offset of j in the copy)
};

inline DwBackAxis dw_back_axis(int64_t in, int64_t out, int64_t k, int64_t s, int64_t pad, int64_t dil) {
    DwBackAxis A;
    A.len.assign(static_cast<size_t>(s), 0);
    A.taps.resize(static_cast<size_t>(s));
    int64_t lo = 0, hi = out;
    for (int64_t q = 0; q < s; ++q) {
        A.len[q] = in > q ? ceil_div(in - q, s) : 0;
        A.most = std::max(A.most, A.len[q]);
        if (A.len[q] == 0) continue;
        for (int64_t a = 0; a < k; ++a) {
            const int64_t num = q + pad - a * dil;
            if (num % s != 0) continue;
            A.taps[q].push_back({a, num / s});
            lo = std::min(lo, num / s);
            hi = std::max(hi, A.len[q] + num / s);
        }
    }
    A.lead = -lo;
    A.ext = hi - lo;
    for (auto& list : A.taps) {
        for (auto& t : list) t[1] += A.lead;
    }
    return A;
}

struct DwBackTap {
    int64_t m, t, row, col;   // channel multiplier index, kernel tap (kz, ky, kx), shift in the copy
};

template <typename T>
void depthwise_backward_input(const T* dy, const T* w, T* dx, const Geometry& g) {
    const int64_t P = g.P(), S = g.S(), Og = g.Og(), kk = g.ksize();
    if (g.N == 0 || S == 0) return;
    if (P == 0 || g.O == 0) {
        std::fill(dx, dx + g.N * g.C * S, T(0));
        return;
    }
    std::array<DwBackAxis, 3> A;
    for (int a = 0; a < 3; ++a) A[a] = dw_back_axis(g.in[a], g.out[a], g.k[a], g.stride[a], g.pad[a], g.dil[a]);
    const int64_t sz = g.stride[0], sy = g.stride[1], sx = g.stride[2];
    constexpr int64_t V = DwVec<T>::lanes;
    // rows of the copies ld apart, a whole number of vectors, dY's elements from an aligned column on
    const int64_t EY = A[1].ext, total = A[0].ext * EY, shift = (V - A[2].lead % V) % V;
    const int64_t ld = ceil_div(A[2].ext + shift, V) * V, lead = A[2].lead + shift;
    const int64_t H = g.in[1], W = g.in[2], OD = g.out[0], OH = g.out[1], OW = g.out[2];
    // the taps of each phase (qz, qy, qx), channel multiplier outermost, and the rows they reach
    std::vector<std::vector<DwBackTap>> taps(static_cast<size_t>(sz * sy * sx));
    int64_t rlo = std::numeric_limits<int64_t>::max(), rhi = 0;
    for (int64_t qz = 0; qz < sz; ++qz) {
        for (int64_t qy = 0; qy < sy; ++qy) {
            for (int64_t qx = 0; qx < sx; ++qx) {
                auto& list = taps[(qz * sy + qy) * sx + qx];
                for (int64_t m = 0; m < Og; ++m) {
                    for (const auto& tz : A[0].taps[qz]) {
                        for (const auto& ty : A[1].taps[qy]) {
                            for (const auto& tx : A[2].taps[qx]) {
                                const int64_t row = tz[1] * EY + ty[1];
                                list.push_back({m, (tz[0] * g.k[1] + ty[0]) * g.k[2] + tx[0], row, tx[1] + shift});
                                rlo = std::min(rlo, row);
                                rhi = std::max(rhi, row);
                            }
                        }
                    }
                }
            }
        }
    }
    if (rlo > rhi) rlo = rhi = 0;
    // the phases' common grid of rows (jz, jy), jz < MZ, jy < MY; grid row r = jz * EY + jy
    const int64_t MZ = A[0].most, MY = A[1].most;
    DwWindow win0;
    win0.whole = A[0].ext > 1;
    const int64_t bytes = sizeof(T);
    const int64_t brows = win0.whole ? std::max<int64_t>(1, kDwWindowBytes / (ld * bytes * sx))
                                     : std::max<int64_t>(8, dw_block_rows(ld, bytes, Og, sx, rhi - rlo));
    const int64_t stride = win0.whole ? total * ld : (brows + rhi - rlo) * ld;   // between the Og copies
    const int64_t planes = g.N * g.C, blocks = dw_blocks(planes, MZ * MY), tasks = planes * blocks;
    // unit x stride and rows of four vectors or more: summed straight into dX's rows, as the forward
    const bool by_rows = sx == 1 && W >= 4 * V;
    const bool par = worth_parallel(static_cast<double>(g.N) * g.O * kk * P, kParallelFlops / 4);
    parallel((par) ? max_threads() : 1, [&](int, int) {
        std::vector<T> copy_buf, acc_buf;
        T* copy = dw_aligned(copy_buf, Og * stride);
        T* acc = dw_aligned(acc_buf, sx * brows * ld);
        std::vector<const T*> src(static_cast<size_t>(Og * kk));
        std::vector<T> wts(static_cast<size_t>(Og * kk));
        DwWindow win = win0;
        for_static(tasks, [&](int64_t task) {
            const int64_t plane = task / blocks, n = plane / g.C, c = plane % g.C;
            int64_t Q0, Q1;   // grid rows (jz, jy), numbered jz * MY + jy
            split(MZ * MY, static_cast<int>(blocks), static_cast<int>(task % blocks), 1, Q0, Q1);
            T* dxp = dx + plane * S;
            // whole planes: the next one's dY planes are prefetched a share per block
            const int64_t np = plane + 1;
            const T* next = blocks == 1 && task + 1 < tasks ? dy + (np / g.C * g.O + np % g.C * Og) * P : nullptr;
            int64_t fetched = 0;
            win.reset();
            for (int64_t q = Q0; q < Q1;) {
                const int64_t jz = q / MY, jy0 = q % MY, jy1 = std::min(MY, jy0 + std::min(brows, Q1 - q));
                q += jy1 - jy0;
                if (next) {
                    const int64_t to = Og * P * (q - Q0) / (Q1 - Q0);
                    dw_prefetch(next, fetched, to);
                    fetched = to;
                }
                const int64_t r0 = jz * EY + jy0;
                // the zero-padded copies of the Og dY planes: the rows this block reads
                const int64_t end = std::min(r0 + (jy1 - jy0) - 1 + rhi + 1, total);
                int64_t base;
                const int64_t from = win.need(copy, Og, stride, ld, r0 + rlo, end, base);
                for (int64_t m = 0; m < Og; ++m) {
                    const T* dyo = dy + (n * g.O + c * Og + m) * P;
                    int64_t uz = from / EY - A[0].lead, uy = from % EY - A[1].lead;
                    T* d = copy + m * stride + (from - base) * ld;
                    for (int64_t r = from; r < end; ++r, d += ld) {   // the zeros around dY's rows stay put
                        if (uz < 0 || uz >= OD || uy < 0 || uy >= OH) {
                            std::fill(d, d + ld, T(0));
                        } else {
                            std::memcpy(d + lead, dyo + (uz * OH + uy) * OW, sizeof(T) * OW);
                        }
                        if (++uy == EY - A[1].lead) {
                            uy = -A[1].lead;
                            ++uz;
                        }
                    }
                }
                for (int64_t qz = 0; qz < sz; ++qz) {
                    if (jz >= A[0].len[qz]) continue;
                    for (int64_t qy = 0; qy < sy; ++qy) {
                        const int64_t e = std::min(jy1, A[1].len[qy]);   // this phase's rows: [jy0, e)
                        if (e <= jy0) continue;
                        for (int64_t qx = 0; qx < sx; ++qx) {
                            if (A[2].len[qx] == 0) continue;
                            const auto& list = taps[(qz * sy + qy) * sx + qx];
                            const int64_t nt = static_cast<int64_t>(list.size());
                            for (int64_t i = 0; i < nt; ++i) {
                                const DwBackTap& t = list[i];
                                src[i] = copy + t.m * stride + (t.row + r0 - base) * ld + t.col;
                                wts[i] = w[(c * Og + t.m) * kk + t.t];
                            }
                            if (by_rows) {   // unit x stride: straight into dX's rows of this phase
                                dw_taps(dxp + (jz * sz + qz) * H * W + (jy0 * sy + qy) * W, sy * W, src.data(), ld,
                                        wts.data(), nt, e - jy0, W);
                            } else {
                                dw_taps(acc + qx * brows * ld, 0, src.data(), 0, wts.data(), nt, 1,
                                        (e - jy0 - 1) * ld + A[2].len[qx]);
                            }
                        }
                        if (by_rows) continue;
                        dw_interleave(dxp + (jz * sz + qz) * H * W + (jy0 * sy + qy) * W, sy * W, acc, ld, brows * ld,
                                      A[2].len.data(), sx, e - jy0);
                    }
                }
            }
        });
    });
}

// The filter gradient: per block of output rows, dY's rows are dotted with the taps' rows of the
// copy; rows that end in a partial vector are first copied ld apart with zeros after each (safe to
// read a whole vector at a time). Tasks are (channel, run of batch items): the runs are set by the
// problem (a few channels get several), each task sums its own lane partials, and these are added
// in a fixed order at the end: results do not depend on the thread count.
template <typename T>
void depthwise_backward_filter(const T* dy, const T* x, T* dw, const Geometry& g) {
    const int64_t P = g.P(), S = g.S(), Og = g.Og(), kk = g.ksize();
    if (g.N == 0 || P == 0) {
        std::fill(dw, dw + g.O * kk, T(0));
        return;
    }
    constexpr int64_t V = DwVec<T>::lanes;
    const DwPlanes L = dw_planes(g, V, true);
    const int64_t OD = g.out[0], OH = g.out[1], OW = g.out[2], Hp = L.ext[1], ld = L.ld;
    const int64_t total = L.ext[0] * Hp;
    int64_t brows = 0, stride = 0;
    const DwWindow win0 = dw_window<T>(L, brows, stride);
    const int64_t runs = std::min(g.N, ceil_div(kDwTasks, g.C)), tasks = g.C * runs;
    const int64_t part = Og * kk * V;   // a task's lane partials
    std::vector<T> partial(static_cast<size_t>(tasks * part));
    const bool par = worth_parallel(static_cast<double>(g.N) * g.O * kk * P, kParallelFlops / 4);
    parallel((par) ? max_threads() : 1, [&](int, int) {
        // the copy has a vector's room past its end: a row's last partial vector reads past the row
        std::vector<T> copy_buf, dyw_buf;
        T* copy = dw_aligned(copy_buf, L.nslot * stride + V);
        T* dyw = dw_aligned(dyw_buf, brows * ld);
        std::vector<const T*> src(static_cast<size_t>(kk));
        std::vector<int64_t> scratch;
        std::vector<T*> dst;
        DwWindow win = win0;
        for_static(tasks, [&](int64_t task) {
            const int64_t c = task / runs;
            int64_t n0, n1;
            split(g.N, static_cast<int>(runs), static_cast<int>(task % runs), 1, n0, n1);
            T* acc = partial.data() + task * part;
            for (int64_t n = n0; n < n1; ++n) {
                const T* xc = x + (n * g.C + c) * S;
                const T* dyc = dy + (n * g.O + c * Og) * P;
                // the next batch item's planes are prefetched a share per block
                const T* nx = n + 1 < n1 ? xc + g.C * S : nullptr;
                const T* ndy = dyc + g.O * P;
                int64_t fetched = 0;
                win.reset();
                for (int64_t oz = 0; oz < OD; ++oz) {
                    for (int64_t oy0 = 0; oy0 < OH; oy0 += brows) {
                        const int64_t rows = std::min(brows, OH - oy0), r0 = oz * Hp + oy0;
                        if (nx) {
                            const int64_t to = (oz * OH + oy0 + rows);
                            dw_prefetch(nx, fetched * S / (OD * OH), to * S / (OD * OH));
                            dw_prefetch(ndy, fetched * Og * P / (OD * OH), to * Og * P / (OD * OH));
                            fetched = to;
                        }
                        const int64_t end = std::min(r0 + rows + L.reach, total);
                        int64_t base;
                        const int64_t from = win.need(copy, L.nslot, stride, ld, r0, end, base);
                        dw_fill(xc, g, L, from, end, copy, stride, base, scratch, dst);
                        for (int64_t t = 0; t < kk; ++t) src[t] = copy + L.off(t, stride) + (r0 - base) * ld;
                        for (int64_t m = 0; m < Og; ++m) {
                            const T* d = dyc + m * P + (oz * OH + oy0) * OW;
                            if (OW % V != 0) {   // rows end in a partial vector: read from a copy zero past them
                                for (int64_t i = 0; i < rows; ++i) {
                                    std::memcpy(dyw + i * ld, d + i * OW, sizeof(T) * OW);
                                }
                                dw_dots(dyw, ld, src.data(), ld, rows, OW, kk, acc + m * kk * V);
                            } else {
                                dw_dots(d, OW, src.data(), ld, rows, OW, kk, acc + m * kk * V);
                            }
                        }
                    }
                }
            }
        });
        team::barrier();   // every run's partial sums are written before they are added
        // dW[o, t]: the lanes of the runs' partials, added in order
        for_static(g.O, [&](int64_t o) {
            const int64_t c = o / Og, m = o % Og;
            for (int64_t t = 0; t < kk; ++t) {
                T s = T(0);
                for (int64_t r = 0; r < runs; ++r) {
                    const T* a = partial.data() + (c * runs + r) * part + (m * kk + t) * V;
                    for (int64_t l = 0; l < V; ++l) s += a[l];
                }
                dw[o * kk + t] = s;
            }
        });
    });
}

// forward: Y[o, p] = sum_k W[o, k] col[k, p], by register tiles (forward_tiles); depthwise layers by
// their own kernels. The weights are packed once per call, in slices of kSlice taps.
template <typename T>
void forward(const T* x, const T* w, T* y, const Geometry& g, const Epilogue<T>& ep = Epilogue<T>()) {
    if (depthwise(g)) {
        depthwise_forward_with_residual(x, w, y, g, ep);
        return;
    }
    const int64_t Og = g.Og(), Kg = g.Kg(), P = g.P();
    const int64_t MR = conv_kernel<T>().mr_for(Og);
    const int64_t Mp = ceil_div(Og, MR) * MR;   // rows of the packed weights of one group
    std::vector<T> wp(static_cast<size_t>(g.G * Mp * Kg));
    for (int64_t gi = 0; gi < g.G; ++gi) {
        for (int64_t k0 = 0; k0 < Kg; k0 += kSlice) {
            pack_a(w + gi * Og * Kg, Kg, 1, 0, k0, Og, std::min(kSlice, Kg - k0), static_cast<int>(MR),
                   wp.data() + gi * Mp * Kg + k0 * Mp);
        }
    }
    const bool par = worth_parallel(static_cast<double>(g.N) * g.O * Kg * P, kParallelFlops / 4);
    forward_tiles(x, wp.data(), y, g, Mp, MR, par, ep);
}

// backward-filter by gathering (the wide rows' fallback, and exact for non-finite inputs):
// dW[o, k] = sum over (batch item, position q) of dY[o, q] col[k, q]: a GEMM with
// the positions as its long inner dimension, cut into slices of one batch item. A = dY (packed per
// slice), B = col^T, gathered per NR kernel offsets. Threads take whole slices and sum into their
// own filter gradient; those are added in thread order (deterministic for a given thread count).
template <typename T>
void backward_filter_gather(const T* dy, const T* x, T* dw, const Geometry& g, bool par) {
    const MicroKernel<T>& uk = micro_kernel<T>();
    const int64_t MR = uk.mr, NR = uk.nr;
    const int64_t Cg = g.Cg(), Og = g.Og(), Kg = g.Kg(), P = g.P(), S = g.S();
    const int64_t wsize = g.O * Kg;
    const int64_t Mp = ceil_div(Og, MR) * MR;
    const int64_t nslices = ceil_div(P, kSlice), qlen = ceil_div(P, nslices);  // balanced slices
    const int64_t tasks = g.N * g.G * nslices;
    const int nt = par ? max_threads() : 1;
    std::vector<std::vector<T>> partial(static_cast<size_t>(nt));
    parallel((par) ? nt : 1, [&](int, int) {
        std::vector<T>& acc = partial[thread_id()];
        acc.assign(static_cast<size_t>(wsize), T(0));
        std::vector<T> ap(static_cast<size_t>(Mp * qlen)), bp(static_cast<size_t>(qlen * NR));
        std::vector<T> scratch(static_cast<size_t>(MR * NR));
        std::vector<Run> runs;
        std::vector<Tap> taps(static_cast<size_t>(Kg));
        for (int64_t k = 0; k < Kg; ++k) taps[k] = tap_of(g, k);
        for_static(tasks, [&](int64_t t) {
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
        });
    });
    sum_partials(partial, dw, wsize);
}

template <typename T>
bool any_nan(const T* v, int64_t n) {
    bool nan = false;
    for (int64_t i = 0; i < n; ++i) nan |= v[i] != v[i];
    return nan;
}

// The wide-row paths also multiply the zero dY of the positions that are not outputs by the input
// values a row's wrap-around meets (its first and last columns): an infinite one there gives NaN
// (0 * inf) in taps whose true windows never read it. Only a NaN can come of that, so a NaN in their
// result (checked over dW, small) sends the filter gradient to the gather path, which reads exactly
// the windows: non-finite inputs then give the reference's NaN / inf pattern, finite ones never pay.
template <typename T>
void backward_filter(const T* dy, const T* x, T* dw, const Geometry& g) {
    if (depthwise(g)) { depthwise_backward_filter(dy, x, dw, g); return; }
    const MicroKernel<T>& uk = micro_kernel<T>();
    const bool par = worth_parallel(static_cast<double>(g.N) * g.O * g.Kg() * g.P(), kParallelFlops / 4);
    const Wide wide = wide_of(g);
    if (use_wide(g, wide)) {
        if (uk.mr <= 64 && channels_last_pays(g, wide, uk.nr)) {
            backward_filter_cl(dy, x, dw, g, wide, par);
        } else {
            backward_filter_wide(dy, x, dw, g, wide, par);
        }
        if (!any_nan(dw, g.O * g.Kg())) return;
    }
    backward_filter_gather(dy, x, dw, g, par);
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
    if (depthwise(g)) { depthwise_backward_input(dy, w, dx, g); return; }
    if (backward_input_as_conv(dy, w, dx, g)) return;
    const int64_t Cg = g.Cg(), Og = g.Og(), Kg = g.Kg(), P = g.P(), S = g.S();
    const int64_t tasks = g.N * g.G;
    const bool direct = g.direct();
    const int nt = max_threads();
    const bool par = worth_parallel(static_cast<double>(tasks) * Og * Kg * P, kParallelFlops);
    if (!par || tasks >= nt) {
        parallel((par) ? max_threads() : 1, [&](int, int) {
            std::vector<T> col(direct ? 0 : static_cast<size_t>(Kg * P));
            for_static(tasks, [&](int64_t t) {
                const int64_t n = t / g.G, gi = t % g.G;
                T* dxg = dx + (n * g.C + gi * Cg) * S;
                T* C = direct ? dxg : col.data();
                gemm<T>(Kg, P, Og, w + gi * Og * Kg, 1, Kg, dy + (n * g.O + gi * Og) * P, P, 1, C, P, false);
                if (!direct) {
                    std::fill(dxg, dxg + Cg * S, T(0));
                    col2im(col.data(), g, dxg, 0, Cg);
                }
            });
        });
        return;
    }
    std::vector<T> col(direct ? 0 : static_cast<size_t>(Kg * P));
    for (int64_t t = 0; t < tasks; ++t) {
        const int64_t n = t / g.G, gi = t % g.G;
        T* dxg = dx + (n * g.C + gi * Cg) * S;
        T* C = direct ? dxg : col.data();
        const T* dyg = dy + (n * g.O + gi * Og) * P;
        parallel(max_threads(), [&](int, int) {
            int64_t p0, p1;
            split(P, team_size(), thread_id(), 64, p0, p1);
            if (p1 > p0) gemm<T>(Kg, p1 - p0, Og, w + gi * Og * Kg, 1, Kg, dyg + p0, P, 1, C + p0, P, false);
            if (!direct) {
                team::barrier();   // every column block of dcol is written before col2im reads them
                for_static(Cg, [&](int64_t c) {
                    std::fill(dxg + c * S, dxg + (c + 1) * S, T(0));
                    col2im(col.data(), g, dxg, c, c + 1);
                });
            }
        });
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
                         bool relu, const std::optional<py::array>& residual) {
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
    if (residual) {
        check_array(where, "residual", *residual, 5);
        bool same = common_float(where, {&x, &*residual}) == dt;
        for (int a = 0; a < 5; ++a) same = same && residual->shape(a) == shape[a];
        if (!same) fail(where, "residual " + shape_str(*residual) + " must have the output's shape and dtype");
    }
    return new_float_array(dt, shape, [&](auto* y) {
        using T = element_of<decltype(y)>;
        Epilogue<T> ep;
        ep.bias = bias ? cptr<T>(*bias) : nullptr;
        ep.residual = residual ? cptr<T>(*residual) : nullptr;
        ep.relu = relu;
        forward<T>(cptr<T>(x), cptr<T>(w), y, g, ep);
    });
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
    return new_float_array(dt, shape, [&](auto* dx) {
        using T = element_of<decltype(dx)>;
        backward_input<T>(cptr<T>(dy), cptr<T>(w), dx, g);
    });
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
    return new_float_array(dt, shape, [&](auto* dw) {
        using T = element_of<decltype(dw)>;
        backward_filter<T>(cptr<T>(dy), cptr<T>(x), dw, g);
    });
}

}  // namespace

void register_conv(py::module_& m) {
    using py::arg;
    m.def("conv3d_forward", &conv3d_forward, arg("x"), arg("weight"), arg("stride"), arg("pad"), arg("dilation"),
          arg("out_size"), arg("groups"), arg("bias") = py::none(), arg("relu") = false,
          arg("residual") = py::none(),
          "Convolution (cross-correlation) of x (N, C, D, H, W) with weight (O, C/groups, kd, kh, kw); "
          "pad = zero padding before each spatial axis, out_size = output (D, H, W); optionally + bias (O,), "
          "+ residual (the output's shape), then ReLU, applied in that order as each output is written.");
    m.def("conv3d_backward_input", &conv3d_backward_input, arg("dout"), arg("weight"), arg("in_size"),
          arg("stride"), arg("pad"), arg("dilation"), arg("groups"),
          "Gradient of conv3d_forward with respect to x, of spatial size in_size.");
    m.def("conv3d_backward_filter", &conv3d_backward_filter, arg("dout"), arg("x"), arg("kernel_size"),
          arg("stride"), arg("pad"), arg("dilation"), arg("groups"),
          "Gradient of conv3d_forward with respect to the weight.");
    m.def("gemm_isa", []() { return std::string(gemm_isa()); }, "Instruction set of the GEMM micro-kernels.");
}

}  // namespace mscpu
