// Pooling kernels: max / average pooling (with padding, dilation, ceil-mode windows and the
// different average divisors), adaptive pooling, the fused max-pooling gradient, and the argmax
// scatter/gather the other max-pooling gradients use. float32 and float64.
//
// Like the convolutions, everything is 3-D: x is (planes, D, H, W) where a plane is one (batch,
// channel) pair; 2-D pooling is 3-D pooling with unit depth. Planes are independent, so OpenMP
// splits them across threads and no two threads ever write the same element.
//
// Max pooling's NaN rule is chosen per call (``rule``, see "MindSpore 2.10's NaN rules"); by default
// it propagates NaN (a window holding NaN yields NaN, like NumPy's max); argmax is the
// flat index of the chosen element inside its input plane (D * H * W), -1 for a window that lies
// entirely in the padding (its output is -inf). Average pooling's divisor for the window starting
// at ``start`` (which may be negative) along each axis:
//   divisor_override > 0  -> that value;
//   count_include_pad     -> product over axes of (min(start + k, size + pad_after) - start);
//   otherwise             -> the number of window elements inside the input.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common.h"

namespace mscpu {
namespace {

struct PoolGeometry {
    int64_t planes;
    Dims3 in, out, k, stride, pad, dil;  // pad = padding before each axis
    Dims3 pad_after;
    int64_t in_size() const { return in[0] * in[1] * in[2]; }
    int64_t out_size() const { return out[0] * out[1] * out[2]; }
    double visits() const { return static_cast<double>(planes) * out_size() * k[0] * k[1] * k[2]; }
};

// Output columns [lo, hi) whose input column ox * s + off lies inside [0, W).
inline void col_range(int64_t off, int64_t s, int64_t W, int64_t OW, int64_t& lo, int64_t& hi) {
    lo = off >= 0 ? 0 : ceil_div(-off, s);
    hi = off > W - 1 ? 0 : std::min(OW, (W - 1 - off) / s + 1);
    if (lo > OW) lo = OW;
    if (hi < lo) hi = lo;
}

// For each kernel column kx: the input offset kx * dilation - pad and its valid output columns.
struct ColRanges {
    std::vector<int64_t> off, lo, hi;
    ColRanges(const PoolGeometry& g) : off(g.k[2]), lo(g.k[2]), hi(g.k[2]) {
        for (int64_t kx = 0; kx < g.k[2]; ++kx) {
            off[kx] = kx * g.dil[2] - g.pad[2];
            col_range(off[kx], g.stride[2], g.in[2], g.out[2], lo[kx], hi[kx]);
        }
    }
};

// --- max pooling -------------------------------------------------------------------------------
// Every max-pooling loop visits a window in scan order (row-major over kz, ky, kx) with one rule:
// the first element is taken, and a later one replaces the best so far only when strictly larger,
// or NaN over a number (``beats``). A window's result is therefore its FIRST maximal element under
// "NaN above every number, numbers by value" (a tie, -0 against +0 included, keeps the earlier
// element). Picking the first maximum is associative as long as the left-to-right order is kept,
// which the fast path relies on: all its variants give bit-identical results to the generic loops.
//
// Generic path (any kernel, stride, padding, dilation, depth): one output row at a time, kernel
// offsets outside and output columns inside (fold_max), the winning kernel offset kept per column.
// For small kernels with a large stride (2x2/2: rows of 5 or 14 outputs in LeNet) that is K * K
// short passes per row plus the kernel-offset row, so the loops are overhead-bound.
//
// Fast path (no dilation, depth kernel 1, a square K x K kernel and column stride S known at
// compile time: 2x2/2, 3x3/2, 3x3/1): each output element is reduced in registers, all K * K
// loads unrolled in one loop over the output row that the compiler vectorises. Windows cut by the
// padding (or by ceil mode) reuse that fold with each missing row or column replaced by a copy of
// the nearest valid one: a copy placed after its original never wins (it only ties it), and a
// winner on a copy placed before is its original's element, so the winner's row and column are
// clamped back into the valid range. Each plane is first scanned for NaN: without one, beats is
// the plain v > best (one max instruction instead of two compares and a blend).
//
// MaxPoolGrad is fused (max_pool_backward): dx gets dout at each window's winner, found as in the
// forward but never stored, in one pass and one parallel region instead of recomputing an int64
// argmax tensor and scattering it. When fast-path windows cannot overlap (column stride == K, row
// stride >= K: 2x2/2), each input row belongs to at most one output row and each column to at most
// one window, so dx rows are written whole (dout at the winner, 0 elsewhere) without a zero pass;
// otherwise the plane is zeroed and dout accumulated at each winner.

// Written as a select, not as (v > best) | (isnan(v) & !isnan(best)): GCC vectorises that bool
// arithmetic on floats only next to an int32 operand (as in fold_max), the select always.
template <typename T>
__attribute__((always_inline)) inline bool beats(T v, T best) {
    return best == best ? !(v <= best) : false;
}

// Folds one kernel offset into a row of running maxima: for output columns [lo, hi), input
// element r[ox * stride]. ``kr`` holds the winning kernel-offset id per column (-1: none yet).
// Same-width float/int32 lanes and a compile-time stride let this vectorise.
template <typename T, int kStride>
inline void fold_max(const T* __restrict r, T* __restrict yr, int32_t* __restrict kr, int64_t lo, int64_t hi,
                     int64_t stride, int32_t kid) {
    const int64_t st = kStride > 0 ? kStride : stride;
    for (int64_t ox = lo; ox < hi; ++ox) {
        const T v = r[ox * st];
        const T b = yr[ox];
        const bool t = (v > b) | (kr[ox] < 0) | ((v != v) & (b == b));  // beats(v, b) or none yet
        yr[ox] = t ? v : b;
        kr[ox] = t ? kid : kr[ox];
    }
}

// Generic path: output row (oz, oy) of the plane xp into yr and, unless ar is null, its flat argmax
// into ar. kr: scratch of OW kernel-offset ids.
template <typename T>
void generic_max_row(const T* xp, int64_t oz, int64_t oy, const PoolGeometry& g, const ColRanges& cols, T* yr,
                     int32_t* kr, int64_t* ar) {
    const int64_t D = g.in[0], H = g.in[1], W = g.in[2], OW = g.out[2], sx = g.stride[2];
    const int64_t KH = g.k[1], KW = g.k[2];
    std::fill(yr, yr + OW, -std::numeric_limits<T>::infinity());
    std::fill(kr, kr + OW, int32_t(-1));
    for (int64_t kz = 0; kz < g.k[0]; ++kz) {
        const int64_t iz = oz * g.stride[0] - g.pad[0] + kz * g.dil[0];
        if (iz < 0 || iz >= D) continue;
        for (int64_t ky = 0; ky < KH; ++ky) {
            const int64_t iy = oy * g.stride[1] - g.pad[1] + ky * g.dil[1];
            if (iy < 0 || iy >= H) continue;
            for (int64_t kx = 0; kx < KW; ++kx) {
                const int64_t lo = cols.lo[kx], hi = cols.hi[kx];
                const T* r = xp + (iz * H + iy) * W + cols.off[kx];
                const int32_t id = static_cast<int32_t>((kz * KH + ky) * KW + kx);
                if (sx == 1) fold_max<T, 1>(r, yr, kr, lo, hi, sx, id);
                else if (sx == 2) fold_max<T, 2>(r, yr, kr, lo, hi, sx, id);
                else fold_max<T, 0>(r, yr, kr, lo, hi, sx, id);
            }
        }
    }
    if (!ar) return;
    for (int64_t ox = 0; ox < OW; ++ox) {
        const int64_t id = kr[ox];
        if (id < 0) {
            ar[ox] = -1;
            continue;
        }
        const int64_t kz = id / (KH * KW), ky = (id / KW) % KH, kx = id % KW;
        const int64_t iz = oz * g.stride[0] - g.pad[0] + kz * g.dil[0];
        const int64_t iy = oy * g.stride[1] - g.pad[1] + ky * g.dil[1];
        ar[ox] = (iz * H + iy) * W + ox * sx - g.pad[2] + kx * g.dil[2];
    }
}

// The fast path's winner inside a window, ky * K + kx (-1: none), held in T itself (small integers
// are exact): selects between values and winners then share the vector lanes and masks, and the
// loops vectorise for float64 too (SSE2, the baseline ISA, has no 64-bit integer compare).
template <typename T>
using Slot = T;

// Whether n elements hold a NaN (the fast path's scan of each plane; without NaN the winner is
// also the first element equal to the maximum). An unordered compare covers two elements and a
// select two compares, so the loop-carried select, which bounds the loop, runs once per four.
template <typename T>
bool has_nan(const T* p, int64_t n) {
    const int64_t q = n / 4;
    T seen = 0;  // a select, not a bool OR: vectorises for float64 too
    for (int64_t i = 0; i < q; ++i) {
        const bool u = __builtin_isunordered(p[i], p[q + i]) | __builtin_isunordered(p[2 * q + i], p[3 * q + i]);
        seen = u ? T(1) : seen;
    }
    bool nan = seen != 0;
    for (int64_t i = 4 * q; i < n; ++i) nan |= p[i] != p[i];
    return nan;
}

// Whether n elements hold a zero (either sign); branch-free like has_nan.
template <typename T>
bool has_zero(const T* p, int64_t n) {
    T seen = 0;
    for (int64_t i = 0; i < n; ++i) seen = p[i] == T(0) ? T(1) : seen;
    return seen != 0;
}

// kNaN (the fast path's mode): 1, beats(v, best); 0, on a plane without NaN its equivalent v > best (the first
// of equal values wins); 2, on a plane without NaN v >= best (the last of equal values: the value of rule 1's
// fold, m = (m > v) ? m : v, for the forward without argmax).
constexpr int kLastTie = 2;

template <int kNaN, typename T>
__attribute__((always_inline)) inline bool wins(T v, T best) {
    if constexpr (kNaN == 1) return beats(v, best);
    if constexpr (kNaN == kLastTie) return v >= best;
    return v > best;
}

// Folds elements J, J + 1, ... of a window (J = ky * K + kx > 0; get(ky, kx) reads one) into
// best / at: unrolled at compile time, and always inlined (like beats) because GCC if-converts,
// and so vectorises, the loops below only when every select sits in the loop body.
template <typename T, int K, bool kSlot, int kNaN, int J, typename Get>
__attribute__((always_inline)) inline void fold_window(const Get& get, T& best, Slot<T>& at) {
    if constexpr (J < K * K) {
        const T v = get(J / K, J % K);
        const bool t = wins<kNaN>(v, best);
        best = t ? v : best;
        if constexpr (kSlot) at = t ? Slot<T>(J) : at;
        fold_window<T, K, kSlot, kNaN, J + 1>(get, best, at);
    }
}

// n windows: window i covers columns i * S + [0, K) of rows r0, r1 (and r2 when K == 3). Maximum
// into y and, with kSlot, its position ky * K + kx into slot. Rows are scalars, not an array: the
// vectoriser cannot use pointers loaded from memory inside the loop.
template <typename T, int K, int S, bool kSlot, int kNaN>
inline void max_windows(const T* r0, const T* r1, const T* r2, int64_t n, T* __restrict y, Slot<T>* __restrict slot) {
    static_assert(K >= 2 && K <= 3, "windows of two or three rows");
    for (int64_t i = 0; i < n; ++i) {
        auto get = [&](int ky, int kx) __attribute__((always_inline)) {
            return (ky == 0 ? r0 : ky == 1 ? r1 : r2)[i * S + kx];
        };
        T best = r0[i * S];
        Slot<T> at = 0;
        fold_window<T, K, kSlot, kNaN, 1>(get, best, at);
        y[i] = best;
        if (kSlot) slot[i] = at;
    }
}

// The fast path's row geometry within one input slice (H x W).
struct FastRow {
    int64_t H, W, OW, sy, py, px;
    int64_t cx0, cx1;  // output columns [cx0, cx1) have their window inside [0, W)
};

FastRow fast_row(const PoolGeometry& g, int64_t K, int64_t S) {
    FastRow f{g.in[1], g.in[2], g.out[2], g.stride[1], g.pad[1], g.pad[2], 0, 0};
    f.cx0 = std::min(f.OW, ceil_div(f.px, S));
    const int64_t last = f.W - K + f.px;  // start + px of the last window start inside the row
    f.cx1 = std::max(f.cx0, last < 0 ? int64_t(0) : std::min(f.OW, last / S + 1));
    return f;
}

// Fast path: output row oy of the input slice xs, maxima into y and, with kSlot, each window's
// winner ky * K + kx into slot (-1 for a window entirely in the padding, whose maximum is -inf).
// Rows and columns cut by the padding are replaced by copies of the nearest valid one (see the
// section comment), and the winner's row and column clamped back into the valid range.
template <typename T, int K, int S, bool kSlot, int kNaN>
void fast_max_row(const T* xs, int64_t oy, const FastRow& f, T* y, Slot<T>* slot) {
    const int64_t y0 = oy * f.sy - f.py;
    const int64_t ky0 = std::max<int64_t>(0, -y0), ky1 = std::min<int64_t>(K, f.H - y0);
    if (ky0 >= ky1) {
        std::fill(y, y + f.OW, -std::numeric_limits<T>::infinity());
        if (kSlot) std::fill(slot, slot + f.OW, Slot<T>(-1));
        return;
    }
    const T* r[3];
    for (int ky = 0; ky < 3; ++ky) r[ky] = xs + (y0 + std::clamp<int64_t>(std::min(ky, K - 1), ky0, ky1 - 1)) * f.W;
    if (f.cx1 > f.cx0) {
        const int64_t off = f.cx0 * S - f.px;
        max_windows<T, K, S, kSlot, kNaN>(r[0] + off, r[1] + off, r[2] + off, f.cx1 - f.cx0, y + f.cx0,
                                          kSlot ? slot + f.cx0 : nullptr);
    }
    auto cut = [&](int64_t ox) {
        const int64_t x0 = ox * S - f.px;
        const int64_t kx0 = std::max<int64_t>(0, -x0), kx1 = std::min<int64_t>(K, f.W - x0);
        if (kx0 >= kx1) {
            y[ox] = -std::numeric_limits<T>::infinity();
            if (kSlot) slot[ox] = Slot<T>(-1);
            return;
        }
        int64_t c[K];
        for (int kx = 0; kx < K; ++kx) c[kx] = x0 + std::clamp<int64_t>(kx, kx0, kx1 - 1);
        auto get = [&](int ky, int kx) { return r[ky][c[kx]]; };
        T best = get(0, 0);
        Slot<T> at = 0;
        fold_window<T, K, kSlot, kNaN, 1>(get, best, at);
        y[ox] = best;
        if (kSlot) {
            const int64_t a = static_cast<int64_t>(at);
            slot[ox] = static_cast<Slot<T>>(a / K * K + std::clamp<int64_t>(a % K, kx0, kx1 - 1));
        }
    };
    for (int64_t ox = 0; ox < f.cx0; ++ox) cut(ox);
    for (int64_t ox = f.cx1; ox < f.OW; ++ox) cut(ox);
    if (kSlot && (ky0 > 0 || ky1 < K)) {
        for (int64_t ox = 0; ox < f.OW; ++ox) {
            const int64_t a = static_cast<int64_t>(slot[ox]);
            if (a >= 0) slot[ox] = static_cast<Slot<T>>(std::clamp<int64_t>(a / K, ky0, ky1 - 1) * K + a % K);
        }
    }
}

// Fast path, forward of one plane: y (OD, OH, OW) and, unless ap is null, the flat argmax.
template <typename T, int K, int S, int kNaN>
void fast_max_plane(const T* xp, T* yp, int64_t* ap, const PoolGeometry& g, const FastRow& f, Slot<T>* slot) {
    const int64_t HW = f.H * f.W, OH = g.out[1], OW = f.OW;
    for (int64_t oz = 0; oz < g.out[0]; ++oz) {
        const int64_t iz = oz * g.stride[0] - g.pad[0];
        T* ys = yp + oz * OH * OW;
        int64_t* as = ap ? ap + oz * OH * OW : nullptr;
        if (iz < 0 || iz >= g.in[0]) {
            std::fill(ys, ys + OH * OW, -std::numeric_limits<T>::infinity());
            if (as) std::fill(as, as + OH * OW, int64_t(-1));
            continue;
        }
        const T* xs = xp + iz * HW;
        for (int64_t oy = 0; oy < OH; ++oy) {
            T* yr = ys + oy * OW;
            if (!as) {
                const int64_t y0 = oy * f.sy - f.py;
                if (y0 >= 0 && y0 + K <= f.H && f.cx0 == 0 && f.cx1 == OW) {  // no padding: straight to the fold
                    const T* r = xs + y0 * f.W;
                    max_windows<T, K, S, false, kNaN>(r, r + f.W, r + (K - 1) * f.W, OW, yr, nullptr);
                } else {
                    fast_max_row<T, K, S, false, kNaN>(xs, oy, f, yr, nullptr);
                }
                continue;
            }
            fast_max_row<T, K, S, true, kNaN>(xs, oy, f, yr, slot);
            int64_t* ar = as + oy * OW;
            const int64_t base = iz * HW + (oy * f.sy - f.py) * f.W - f.px;
            for (int64_t ox = 0; ox < OW; ++ox) {
                const int64_t s = static_cast<int64_t>(slot[ox]);
                ar[ox] = s < 0 ? -1 : base + (s / K) * f.W + ox * S + s % K;
            }
        }
    }
}

// Fast path, gradient of one plane when windows overlap (or leave gaps): zero dx, then add dout at
// each window's winner. ys: scratch row of OW values.
template <typename T, int K, int S, bool kNaN>
void fast_max_plane_backward_add(const T* xp, const T* gp, T* dp, const PoolGeometry& g, const FastRow& f, T* ys,
                                 Slot<T>* slot) {
    const int64_t HW = f.H * f.W, OH = g.out[1], OW = f.OW;
    std::fill(dp, dp + g.in[0] * HW, T(0));
    for (int64_t oz = 0; oz < g.out[0]; ++oz) {
        const int64_t iz = oz * g.stride[0] - g.pad[0];
        if (iz < 0 || iz >= g.in[0]) continue;
        for (int64_t oy = 0; oy < OH; ++oy) {
            fast_max_row<T, K, S, true, kNaN>(xp + iz * HW, oy, f, ys, slot);
            const T* gr = gp + (oz * OH + oy) * OW;
            const int64_t base = iz * HW + (oy * f.sy - f.py) * f.W - f.px;
            for (int64_t ox = 0; ox < OW; ++ox) {
                const int64_t s = static_cast<int64_t>(slot[ox]);
                if (s >= 0) dp[base + (s / K) * f.W + ox * S + s % K] += gr[ox];
            }
        }
    }
}

// Fast path, dx row ky of the windows of one output row when windows tile (S == K): dout at the
// window's winner, 0 elsewhere (also in columns no window covers).
template <typename T, int K>
void tile_row(T* d, int64_t ky, const T* gr, const Slot<T>* slot, const FastRow& f) {
    const Slot<T> first = static_cast<Slot<T>>(ky * K);
    // Columns [c0, c1) are covered by the windows of columns [cx0, cx1), each K wide.
    const int64_t n = f.cx1 - f.cx0, c0 = n > 0 ? f.cx0 * K - f.px : f.W, c1 = n > 0 ? f.cx1 * K - f.px : f.W;
    T* __restrict db = d + std::min(c0, f.W);
    const T* __restrict gb = gr + f.cx0;
    const Slot<T>* __restrict sb = slot + f.cx0;
    for (int64_t i = 0; i < n; ++i) {
        const T gv = gb[i] + T(0), at = sb[i];  // + 0 as in a zeroed dx: -0 gives +0
        for (int kx = 0; kx < K; ++kx) db[i * K + kx] = at == first + Slot<T>(kx) ? gv : T(0);
    }
    auto cell = [&](int64_t ix) {
        const int64_t q = ix + f.px, ox = q / K;
        d[ix] = ox < f.OW && slot[ox] == first + static_cast<Slot<T>>(q % K) ? gr[ox] + T(0) : T(0);
    };
    for (int64_t ix = 0; ix < c0; ++ix) cell(ix);
    for (int64_t ix = c1; ix < f.W; ++ix) cell(ix);
}

// n windows tiling K rows (S == K) of a plane without NaN: window i covers columns i * K + [0, K)
// of K input rows from r and of K dx rows from d (rows W apart). Its maximum is found with plain
// max selects, then g[i] is carried along the window in scan order and dropped at the first
// element equal to the maximum (the first maximum; -0 == +0 keeps this exact), 0 written elsewhere.
template <typename T, int K>
inline void tile_windows(const T* __restrict r, T* __restrict d, const T* __restrict g, int64_t W, int64_t n) {
    const T* __restrict r1 = r + W;
    const T* __restrict r2 = r + (K - 1) * W;
    for (int64_t i = 0; i < n; ++i) {
        auto get = [&](int ky, int kx) __attribute__((always_inline)) {
            return (ky == 0 ? r : ky == 1 ? r1 : r2)[i * K + kx];
        };
        T best = get(0, 0);
        for (int j = 1; j < K * K; ++j) {
            const T v = get(j / K, j % K);
            best = v > best ? v : best;
        }
        T rest = g[i] + T(0);  // + 0 as in a zeroed dx: -0 gives +0
        for (int j = 0; j < K * K; ++j) {
            const bool w = get(j / K, j % K) == best;
            d[(j / K) * W + i * K + j % K] = w ? rest : T(0);
            rest = w ? T(0) : rest;
        }
    }
}

// Fast path, gradient of one plane when windows tile (S == K, row stride >= K, depth kernel 1):
// every dx element is written once, dout at its window's winner and 0 elsewhere. Output rows whose
// windows all lie inside the input (no padding) of planes without NaN take tile_windows; the others
// find their winners with fast_max_row and write each dx row with tile_row.
template <typename T, int K, bool kNaN>
void fast_max_plane_backward_tiles(const T* xp, const T* gp, T* dp, const PoolGeometry& g, const FastRow& f, T* ys,
                                   Slot<T>* slot) {
    const int64_t D = g.in[0], H = f.H, W = f.W, HW = H * W, OH = g.out[1], OW = f.OW;
    int64_t zdone = 0;  // dx slices [0, zdone) are written
    for (int64_t oz = 0; oz < g.out[0]; ++oz) {
        const int64_t iz = oz * g.stride[0] - g.pad[0];
        if (iz < 0) continue;
        if (iz >= D) break;
        std::fill(dp + zdone * HW, dp + iz * HW, T(0));
        zdone = iz + 1;
        T* ds = dp + iz * HW;
        int64_t ydone = 0;  // rows [0, ydone) of the slice are written
        for (int64_t oy = 0; oy < OH; ++oy) {
            const int64_t y0 = oy * f.sy - f.py;
            const int64_t lo = std::max<int64_t>(y0, 0), hi = std::min<int64_t>(y0 + K, H);
            if (lo >= hi) continue;
            std::fill(ds + ydone * W, ds + lo * W, T(0));
            ydone = hi;
            const T* gr = gp + (oz * OH + oy) * OW;
            if (!kNaN && hi - lo == K && f.cx0 == 0 && f.cx1 == OW) {
                T* d = ds + y0 * W;
                tile_windows<T, K>(xp + iz * HW + y0 * W, d, gr, W, OW);
                for (int64_t ky = 0; ky < K; ++ky) std::fill(d + ky * W + OW * K, d + (ky + 1) * W, T(0));
                continue;
            }
            fast_max_row<T, K, K, true, kNaN>(xp + iz * HW, oy, f, ys, slot);
            for (int64_t iy = lo; iy < hi; ++iy) tile_row<T, K>(ds + iy * W, iy - y0, gr, slot, f);
        }
        std::fill(ds + ydone * W, ds + HW, T(0));
    }
    std::fill(dp + zdone * HW, dp + D * HW, T(0));
}

// --- MindSpore 2.10's NaN rules ----------------------------------------------------------------
// The primitives do not share one NaN rule in MindSpore 2.10 (CPU); ``rule`` picks one per call:
//   kRuleIEEE    first maximal element, NaN above every number (the section comment above);
//   kRuleFold    MaxPool / MaxPool3D: m = floor, then m = (m > v) ? m : v over the window's elements
//                inside the input in scan order (x86 ``maxps``): a NaN is replaced by the next element,
//                so the value is the maximum of what follows the window's last NaN (NaN when the window
//                ends with one), never below ``floor`` (float32's lowest in the input dtype) when the
//                window has no NaN. Its winner (for the gradient) is the first element equal to that
//                value after the last NaN, the last NaN itself when nothing follows it, and the first
//                element of the window when the value is ``floor`` from the start;
//   kRuleGreater MaxPoolWithArgmaxV2: m = floor (the dtype's lowest), winner = the first element; an
//                element replaces it only when strictly larger, so NaN never wins;
//   kRuleFirst   MaxPoolWithArgmax, AdaptiveMaxPool2D: m = the first element, replaced only by a
//                strictly larger one (a leading NaN is kept, any other NaN skipped).
//   kRuleLastNaN MaxPool3DWithArgmax: NaN propagates as in kRuleIEEE, but its index is the window's LAST
//                NaN (the first element, then a NaN or a strictly larger number replaces it).
// Planes holding NaN or a value <= floor run the scalar fold below (rule_plane); the others give the
// same winners as kRuleIEEE's first maximum, so they keep the fast paths (the NaN scan of the plane
// becomes this one), with only a window entirely in the padding (value -inf there) set to floor
// (``clamp_plane``).
enum PoolRule : int { kRuleIEEE = 0, kRuleFold = 1, kRuleGreater = 2, kRuleFirst = 3, kRuleLastNaN = 4 };

// Whether n elements hold a NaN or a value <= floor; branch-free like has_nan so that it vectorises.
template <typename T>
bool needs_rule_plane(const T* p, int64_t n, T floor) {
    const int64_t q = n / 4;
    T seen = 0;
    for (int64_t i = 0; i < q; ++i) {
        const bool u = !(p[i] > floor) | !(p[q + i] > floor) | !(p[2 * q + i] > floor) | !(p[3 * q + i] > floor);
        seen = u ? T(1) : seen;
    }
    bool low = seen != 0;
    for (int64_t i = 4 * q; i < n; ++i) low |= !(p[i] > floor);
    return low;
}

// One plane under ``rule``: y and argmax (each may be null) and/or dx += dy at each winner.
template <typename T>
void rule_plane(const T* xp, T* yp, int64_t* ap, const T* gp, T* dp, const PoolGeometry& g, int rule, T floor) {
    const int64_t D = g.in[0], H = g.in[1], W = g.in[2];
    int64_t q = 0;
    for (int64_t oz = 0; oz < g.out[0]; ++oz) {
        for (int64_t oy = 0; oy < g.out[1]; ++oy) {
            for (int64_t ox = 0; ox < g.out[2]; ++ox, ++q) {
                T m = floor, fold = floor;  // fold: the kRuleFold value
                int64_t a = -1;
                bool any = false;
                for (int64_t kz = 0; kz < g.k[0]; ++kz) {
                    const int64_t iz = oz * g.stride[0] - g.pad[0] + kz * g.dil[0];
                    if (iz < 0 || iz >= D) continue;
                    for (int64_t ky = 0; ky < g.k[1]; ++ky) {
                        const int64_t iy = oy * g.stride[1] - g.pad[1] + ky * g.dil[1];
                        if (iy < 0 || iy >= H) continue;
                        for (int64_t kx = 0; kx < g.k[2]; ++kx) {
                            const int64_t ix = ox * g.stride[2] - g.pad[2] + kx * g.dil[2];
                            if (ix < 0 || ix >= W) continue;
                            const int64_t i = (iz * H + iy) * W + ix;
                            const T v = xp[i];
                            if (rule == kRuleFold) {
                                fold = (fold > v) ? fold : v;
                                if (v != v || m != m || v > m) {
                                    m = v;
                                    a = i;
                                } else if (a < 0) {
                                    a = i;
                                }
                            } else if (rule == kRuleFirst && !any) {
                                m = v;
                                a = i;
                            } else if (rule == kRuleLastNaN) {
                                if (!any || v != v || v > m) {
                                    m = v;
                                    a = i;
                                }
                            } else if (v > m) {
                                m = v;
                                a = i;
                            } else if (a < 0) {
                                a = i;
                            }
                            any = true;
                        }
                    }
                }
                if (rule == kRuleFold) m = fold;
                if (!any) m = (rule == kRuleFirst || rule == kRuleLastNaN) ? -std::numeric_limits<T>::infinity() : floor;
                if (yp) yp[q] = m;
                if (ap) ap[q] = a;
                if (dp && a >= 0) dp[a] += gp[q];
            }
        }
    }
}

// Outputs of a plane without NaN or values <= floor under kRuleFold / kRuleGreater: only windows entirely
// in the padding (-inf) are below floor.
template <typename T>
inline void clamp_plane(T* yp, int64_t Q, int rule, T floor) {
    if (rule != kRuleFold && rule != kRuleGreater) return;
    for (int64_t q = 0; q < Q; ++q) yp[q] = yp[q] > floor ? yp[q] : floor;
}

// --- 2x2 windows, stride 2, no padding, even H and W: the flat path (forward without argmax) ------
//
// Window (oy, ox) of a plane reads rows 2oy and 2oy + 1, columns 2ox and 2ox + 1, and no element is read
// twice or left out. Per plane: t = the larger of each column pair, over the whole plane at once (W even:
// a pair never straddles two rows, so the loop is long and contiguous), then y = the larger of rows 2oy and
// 2oy + 1 of t, compiled for AVX-512, AVX2 and the baseline. Along each row first, then across the two rows,
// is the scan order; each step keeps the first of equal values (-0 before +0, as the general path does), or
// under rule 1 the last (MaxPool's fold, m = (m > v) ? m : v, ends on the last of equal values). Both steps
// carry a NaN through, so y holds a NaN exactly when the plane does; such a plane is done again by the
// general path (which orders NaN by the rule). Without NaN that maximum is every rule's result, rules 1 and
// 2 (from ``floor``) clamped to floor.
// The larger of u and v, u when they are equal (kLast: v), a NaN on either side carried on.
template <bool kLast, typename T>
__attribute__((always_inline)) inline T larger(T u, T v) {
    if constexpr (kLast) {
        const bool take = (v >= u) | (v != v);   // | not ||: no branch in the loops' scalar tails
        return take ? v : u;
    }
    const bool keep = (u >= v) | (u != u);
    return keep ? u : v;
}

// larger() on Bytes-byte vectors (GCC's vector extensions: one register where the target has it, else split).
template <typename T, int Bytes>
struct RowVec {
    typedef T vec __attribute__((vector_size(Bytes)));
    static constexpr int lanes = Bytes / static_cast<int>(sizeof(T));
};

template <bool kLast, typename T, int Bytes>
__attribute__((always_inline)) inline void larger_vec(const T* a, const T* b, T* y) {
    using V = typename RowVec<T, Bytes>::vec;
    V u, v;
    std::memcpy(&u, a, sizeof(V));
    std::memcpy(&v, b, sizeof(V));
    V r;
    if constexpr (kLast) {
        r = ((v >= u) | (v != v)) ? v : u;
    } else {
        r = ((u >= v) | (u != u)) ? u : v;
    }
    std::memcpy(y, &r, sizeof(V));
}

// y[x] = larger(a[x], b[x]) for x < n, in vectors (the last one overlapping the one before: a short row
// (LeNet's 14- and 5-wide pooled rows) is one or two vectors, not a scalar tail).
template <bool kLast, typename T>
__attribute__((always_inline)) inline void larger_row(const T* a, const T* b, T* y, int64_t n) {
    constexpr int L = RowVec<T, 32>::lanes, H = RowVec<T, 16>::lanes;
    if (n >= L) {
        int64_t x = 0;
        for (; x + L <= n; x += L) larger_vec<kLast, T, 32>(a + x, b + x, y + x);
        if (x < n) larger_vec<kLast, T, 32>(a + n - L, b + n - L, y + n - L);
    } else if (n >= H) {
        larger_vec<kLast, T, 16>(a, b, y);
        larger_vec<kLast, T, 16>(a + n - H, b + n - H, y + n - H);
    } else {
        for (int64_t x = 0; x < n; ++x) y[x] = larger<kLast>(a[x], b[x]);
    }
}

template <bool kLast, typename T>
inline void max2x2_plane_body(const T* __restrict xp, T* __restrict yp, T* __restrict t, int64_t OH, int64_t W) {
    const int64_t OW = W / 2, half = 2 * OH * OW;   // t: one value per row and column pair
    for (int64_t i = 0; i < half; ++i) t[i] = larger<kLast>(xp[2 * i], xp[2 * i + 1]);
    for (int64_t oy = 0; oy < OH; ++oy) {
        const T* a = t + 2 * oy * OW;
        larger_row<kLast>(a, a + OW, yp + oy * OW, OW);
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void max2x2_plane(const float* xp, float* yp, float* t, int64_t OH, int64_t W, bool last) {
    if (last) {
        max2x2_plane_body<true>(xp, yp, t, OH, W);
    } else {
        max2x2_plane_body<false>(xp, yp, t, OH, W);
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void max2x2_plane(const double* xp, double* yp, double* t, int64_t OH, int64_t W, bool last) {
    if (last) {
        max2x2_plane_body<true>(xp, yp, t, OH, W);
    } else {
        max2x2_plane_body<false>(xp, yp, t, OH, W);
    }
}

inline bool flat_2x2(const PoolGeometry& g) {
    return g.k == Dims3{1, 2, 2} && g.stride == Dims3{1, 2, 2} && g.dil == Dims3{1, 1, 1} &&
           g.pad == Dims3{0, 0, 0} && g.in[1] % 2 == 0 && g.in[2] % 2 == 0 && g.out[0] == g.in[0] &&
           g.out[1] == g.in[1] / 2 && g.out[2] == g.in[2] / 2;
}

// Element visits from which the flat path splits planes across threads (its visits cost a tenth of a
// nanosecond or so: LeNet's 32x6x28x28 pool, 1.5e5 visits, takes about 10 us on one core).
constexpr double kParallelFlat = 4.0e5;
constexpr int64_t kFlatBlock = 4096;

// Calls f(integral_constant K, integral_constant S) and returns true when g takes the fast path.
template <typename F>
bool fast_dispatch(const PoolGeometry& g, F&& f) {
    if (g.k[0] != 1 || g.dil != Dims3{1, 1, 1} || g.k[1] != g.k[2]) return false;
    using C1 = std::integral_constant<int, 1>;
    using C2 = std::integral_constant<int, 2>;
    using C3 = std::integral_constant<int, 3>;
    const int64_t K = g.k[1], S = g.stride[2];
    if (K == 2 && S == 2) f(C2(), C2());
    else if (K == 3 && S == 2) f(C3(), C2());
    else if (K == 3 && S == 1) f(C3(), C1());
    else return false;
    return true;
}

// Work from which the fast path splits planes across threads: window element visits (forward),
// plus dx elements (gradient). A visit costs a fraction of a nanosecond there, a quarter of the
// generic loops', so more must be at stake than kParallelVisits before waking the sleeping OpenMP
// team (see common.h) pays. Measured on 2 cores: the forward ties at 1.2e6 visits (256x6x28x28
// 2x2/2) and gains from 2.4e6 (64x16x32x32 3x3/2: 0.34 -> 0.25 ms); the gradient loses at 4e5
// (8x16x32x32 3x3/2) and gains from 8e5 (256x16x10x10 2x2/2: 0.34 -> 0.20 ms).
constexpr double kParallelFastForward = 1.5e6;
constexpr double kParallelFastBackward = 8.0e5;

template <typename T>
void max_pool(const T* x, T* y, int64_t* argmax, const PoolGeometry& g, int rule, T floor) {
    const int64_t S = g.in_size(), Q = g.out_size(), OW = g.out[2];
    if (!argmax && flat_2x2(g) && (rule == kRuleIEEE || rule == kRuleFold || rule == kRuleGreater)) {
        const FastRow f = fast_row(g, 2, 2);
        const bool clamp = rule != kRuleIEEE;
        // Whole planes in blocks of about kFlatBlock input elements: a block's slices are one tall plane
        // (H even: every window stays inside its slice), so small planes (10 x 10) make long loops too.
        const int64_t per = std::max<int64_t>(1, kFlatBlock / S), blocks = ceil_div(g.planes, per);
        parallel((worth_parallel(g.visits(), kParallelFlat)) ? max_threads() : 1, [&](int, int) {
            std::vector<T> t(static_cast<size_t>(per * S / 2));
            for_static(blocks, [&](int64_t b) {
                const int64_t p0 = b * per, np = std::min(per, g.planes - p0);
                max2x2_plane(x + p0 * S, y + p0 * Q, t.data(), np * g.in[0] * g.out[1], g.in[2], rule == kRuleFold);
                if (!has_nan(y + p0 * Q, np * Q)) {   // the usual case: no plane of the block has a NaN
                    if (clamp) clamp_plane(y + p0 * Q, np * Q, rule, floor);
                    return;
                }
                for (int64_t pl = p0; pl < p0 + np; ++pl) {
                    const T* xp = x + pl * S;
                    T* yp = y + pl * Q;
                    if (!has_nan(yp, Q)) {
                        if (clamp) clamp_plane(yp, Q, rule, floor);
                    } else if (rule != kRuleIEEE) {
                        rule_plane<T>(xp, yp, nullptr, nullptr, nullptr, g, rule, floor);
                    } else {
                        fast_max_plane<T, 2, 2, true>(xp, yp, nullptr, g, f, nullptr);
                    }
                }
            });
        });
        return;
    }
    const bool fast = fast_dispatch(g, [&](auto k, auto s) {
        constexpr int K = decltype(k)::value, St = decltype(s)::value;
        const FastRow f = fast_row(g, K, St);
        parallel((worth_parallel(g.visits(), kParallelFastForward)) ? max_threads() : 1, [&](int, int) {
            std::vector<Slot<T>> slot(argmax ? static_cast<size_t>(OW) : 0);
            for_static(g.planes, [&](int64_t pl) {
                const T* xp = x + pl * S;
                int64_t* ap = argmax ? argmax + pl * Q : nullptr;
                if (rule != kRuleIEEE) {
                    if (needs_rule_plane(xp, S, floor)) {
                        rule_plane<T>(xp, y + pl * Q, ap, nullptr, nullptr, g, rule, floor);
                    } else {
                        if (rule == kRuleFold && !ap) {
                            fast_max_plane<T, K, St, kLastTie>(xp, y + pl * Q, ap, g, f, slot.data());
                        } else {
                            fast_max_plane<T, K, St, 0>(xp, y + pl * Q, ap, g, f, slot.data());
                        }
                        clamp_plane(y + pl * Q, Q, rule, floor);
                    }
                } else if (has_nan(xp, S)) {
                    fast_max_plane<T, K, St, true>(xp, y + pl * Q, ap, g, f, slot.data());
                } else {
                    fast_max_plane<T, K, St, false>(xp, y + pl * Q, ap, g, f, slot.data());
                }
            });
        });
    });
    if (fast) return;
    const ColRanges cols(g);
    parallel((worth_parallel(g.visits(), kParallelVisits)) ? max_threads() : 1, [&](int, int) {
        std::vector<int32_t> kid(static_cast<size_t>(OW));
        for_static(g.planes, [&](int64_t pl) {
            // rule 1's value keeps the last of equal values, generic_max_row the first: they differ for -0 / +0
            const bool zero_ties = rule == kRuleFold && !argmax && has_zero(x + pl * S, S);
            if (rule != kRuleIEEE && (zero_ties || needs_rule_plane(x + pl * S, S, floor))) {
                rule_plane<T>(x + pl * S, y + pl * Q, argmax ? argmax + pl * Q : nullptr, nullptr, nullptr, g, rule,
                              floor);
                return;   // this plane is done
            }
            for (int64_t oz = 0; oz < g.out[0]; ++oz) {
                for (int64_t oy = 0; oy < g.out[1]; ++oy) {
                    const int64_t q0 = (oz * g.out[1] + oy) * OW;
                    generic_max_row(x + pl * S, oz, oy, g, cols, y + pl * Q + q0, kid.data(),
                                    argmax ? argmax + pl * Q + q0 : nullptr);
                }
            }
            clamp_plane(y + pl * Q, Q, rule, floor);
        });
    });
}

// dx of max pooling: dx[winner of each window] += dy (see the section comment).
template <typename T>
void max_pool_backward(const T* x, const T* dy, T* dx, const PoolGeometry& g, int rule, T floor) {
    const int64_t S = g.in_size(), Q = g.out_size(), OW = g.out[2];
    const double work = g.visits() + static_cast<double>(g.planes) * S;
    const bool fast = fast_dispatch(g, [&](auto k, auto s) {
        constexpr int K = decltype(k)::value, St = decltype(s)::value;
        const FastRow f = fast_row(g, K, St);
        const bool tiles = St == K && f.sy >= K;
        parallel((worth_parallel(work, kParallelFastBackward)) ? max_threads() : 1, [&](int, int) {
            std::vector<T> ys(static_cast<size_t>(OW));
            std::vector<Slot<T>> slot(static_cast<size_t>(OW));
            for_static(g.planes, [&](int64_t pl) {
                const T *xp = x + pl * S, *gp = dy + pl * Q;
                T* dp = dx + pl * S;
                auto plane = [&](auto nan) {
                    constexpr bool kNaN = decltype(nan)::value;
                    if (tiles) fast_max_plane_backward_tiles<T, K, kNaN>(xp, gp, dp, g, f, ys.data(), slot.data());
                    else fast_max_plane_backward_add<T, K, St, kNaN>(xp, gp, dp, g, f, ys.data(), slot.data());
                };
                if (rule != kRuleIEEE) {
                    if (needs_rule_plane(xp, S, floor)) {
                        std::fill(dp, dp + S, T(0));
                        rule_plane<T>(xp, nullptr, nullptr, gp, dp, g, rule, floor);
                    } else {
                        plane(std::false_type());
                    }
                } else if (has_nan(xp, S)) {
                    plane(std::true_type());
                } else {
                    plane(std::false_type());
                }
            });
        });
    });
    if (fast) return;
    const ColRanges cols(g);
    parallel((worth_parallel(work, kParallelVisits)) ? max_threads() : 1, [&](int, int) {
        std::vector<T> ys(static_cast<size_t>(OW));
        std::vector<int32_t> kid(static_cast<size_t>(OW));
        std::vector<int64_t> arg(static_cast<size_t>(OW));
        for_static(g.planes, [&](int64_t pl) {
            T* dp = dx + pl * S;
            std::fill(dp, dp + S, T(0));
            if (rule != kRuleIEEE && needs_rule_plane(x + pl * S, S, floor)) {
                rule_plane<T>(x + pl * S, nullptr, nullptr, dy + pl * Q, dp, g, rule, floor);
                return;   // this plane is done
            }
            for (int64_t oz = 0; oz < g.out[0]; ++oz) {
                for (int64_t oy = 0; oy < g.out[1]; ++oy) {
                    const int64_t q0 = (oz * g.out[1] + oy) * OW;
                    generic_max_row(x + pl * S, oz, oy, g, cols, ys.data(), kid.data(), arg.data());
                    const T* gr = dy + pl * Q + q0;
                    for (int64_t ox = 0; ox < OW; ++ox) {
                        if (arg[ox] >= 0) dp[arg[ox]] += gr[ox];
                    }
                }
            }
        });
    });
}

// dx[argmax] += dy per plane; out-of-range indices (other than -1) set ``bad``.
template <typename T>
void scatter(const T* dy, const int64_t* argmax, T* dx, int64_t planes, int64_t S, int64_t Q, std::atomic<bool>& bad) {
    const bool par = worth_parallel(static_cast<double>(planes) * (S + Q), kParallelVisits);
    parallel_for(planes, par, max_threads(), [&](int64_t pl) {
        T* dp = dx + pl * S;
        std::fill(dp, dp + S, T(0));
        const T* gp = dy + pl * Q;
        const int64_t* ap = argmax + pl * Q;
        for (int64_t q = 0; q < Q; ++q) {
            const int64_t i = ap[q];
            if (i >= 0 && i < S) {
                dp[i] += gp[q];
            } else if (i != -1) {
                bad.store(true, std::memory_order_relaxed);
            }
        }
    });
}

template <typename T>
void gather(const T* g, const int64_t* argmax, T* out, int64_t planes, int64_t S, int64_t Q, std::atomic<bool>& bad) {
    const bool par = worth_parallel(static_cast<double>(planes) * Q, kParallelVisits);
    parallel_for(planes, par, max_threads(), [&](int64_t pl) {
        const T* gp = g + pl * S;
        const int64_t* ap = argmax + pl * Q;
        T* op = out + pl * Q;
        for (int64_t q = 0; q < Q; ++q) {
            const int64_t i = ap[q];
            if (i >= 0 && i < S) {
                op[q] = gp[i];
            } else {
                op[q] = T(0);
                if (i != -1) bad.store(true, std::memory_order_relaxed);
            }
        }
    });
}

struct Window {
    int64_t lo, hi;  // clipped to the input
    int64_t padded;  // extent counted when padding is included
};

inline Window window(int64_t o, int64_t axis, const PoolGeometry& g) {
    const int64_t start = o * g.stride[axis] - g.pad[axis];
    const int64_t end = std::min(start + g.k[axis], g.in[axis] + g.pad_after[axis]);
    return Window{std::max<int64_t>(start, 0), std::min(end, g.in[axis]), end - start};
}

inline double divisor(const Window& z, const Window& y, const Window& x, bool include_pad, int64_t override_) {
    if (override_ > 0) return static_cast<double>(override_);
    if (include_pad) return static_cast<double>(z.padded * y.padded * x.padded);
    return static_cast<double>(std::max<int64_t>(z.hi - z.lo, 0) * std::max<int64_t>(y.hi - y.lo, 0) *
                               std::max<int64_t>(x.hi - x.lo, 0));
}

template <typename T>
void avg_pool(const T* x, T* y, const PoolGeometry& g, bool include_pad, int64_t override_) {
    const int64_t S = g.in_size(), Q = g.out_size(), H = g.in[1], W = g.in[2], OW = g.out[2], sx = g.stride[2];
    const ColRanges cols(g);
    parallel_for(g.planes, worth_parallel(g.visits(), kParallelVisits), max_threads(), [&](int64_t pl) {
        const T* xp = x + pl * S;
        for (int64_t oz = 0; oz < g.out[0]; ++oz) {
            const Window wz = window(oz, 0, g);
            for (int64_t oy = 0; oy < g.out[1]; ++oy) {
                const Window wy = window(oy, 1, g);
                T* yr = y + pl * Q + (oz * g.out[1] + oy) * OW;
                std::fill(yr, yr + OW, T(0));
                for (int64_t iz = wz.lo; iz < wz.hi; ++iz) {
                    for (int64_t iy = wy.lo; iy < wy.hi; ++iy) {
                        const T* xr = xp + (iz * H + iy) * W;
                        if (OW < g.k[2]) {  // few wide windows (global pooling): sum each window's run
                            for (int64_t ox = 0; ox < OW; ++ox) {
                                const Window wx = window(ox, 2, g);
                                T acc = T(0);
                                for (int64_t ix = wx.lo; ix < wx.hi; ++ix) acc += xr[ix];
                                yr[ox] += acc;
                            }
                            continue;
                        }
                        for (int64_t kx = 0; kx < g.k[2]; ++kx) {
                            const T* r = xr + cols.off[kx];
                            for (int64_t ox = cols.lo[kx]; ox < cols.hi[kx]; ++ox) yr[ox] += r[ox * sx];
                        }
                    }
                }
                for (int64_t ox = 0; ox < OW; ++ox) {
                    const double d = divisor(wz, wy, window(ox, 2, g), include_pad, override_);
                    yr[ox] = d > 0 ? static_cast<T>(yr[ox] / d) : T(0);
                }
            }
        }
    });
}

template <typename T>
void avg_pool_backward(const T* dy, T* dx, const PoolGeometry& g, bool include_pad, int64_t override_) {
    const int64_t S = g.in_size(), Q = g.out_size(), H = g.in[1], W = g.in[2], OW = g.out[2], sx = g.stride[2];
    const bool par = worth_parallel(g.visits() + static_cast<double>(g.planes) * S, kParallelVisits);
    const ColRanges cols(g);
    parallel((par) ? max_threads() : 1, [&](int, int) {
        std::vector<T> share(static_cast<size_t>(OW));
        for_static(g.planes, [&](int64_t pl) {
            T* dp = dx + pl * S;
            std::fill(dp, dp + S, T(0));
            for (int64_t oz = 0; oz < g.out[0]; ++oz) {
                const Window wz = window(oz, 0, g);
                for (int64_t oy = 0; oy < g.out[1]; ++oy) {
                    const Window wy = window(oy, 1, g);
                    const T* gr = dy + pl * Q + (oz * g.out[1] + oy) * OW;
                    for (int64_t ox = 0; ox < OW; ++ox) {
                        const double d = divisor(wz, wy, window(ox, 2, g), include_pad, override_);
                        share[ox] = d > 0 ? static_cast<T>(gr[ox] / d) : T(0);
                    }
                    for (int64_t iz = wz.lo; iz < wz.hi; ++iz) {
                        for (int64_t iy = wy.lo; iy < wy.hi; ++iy) {
                            if (OW < g.k[2]) {
                                T* dr = dp + (iz * H + iy) * W;
                                for (int64_t ox = 0; ox < OW; ++ox) {
                                    const Window wx = window(ox, 2, g);
                                    for (int64_t ix = wx.lo; ix < wx.hi; ++ix) dr[ix] += share[ox];
                                }
                                continue;
                            }
                            for (int64_t kx = 0; kx < g.k[2]; ++kx) {
                                T* r = dp + (iz * H + iy) * W + cols.off[kx];
                                for (int64_t ox = cols.lo[kx]; ox < cols.hi[kx]; ++ox) r[ox * sx] += share[ox];
                            }
                        }
                    }
                }
            }
        });
    });
}

// Adaptive pooling windows: [floor(o * in / out), ceil((o + 1) * in / out)).
inline int64_t ad_lo(int64_t o, int64_t in, int64_t out) { return (o * in) / out; }
inline int64_t ad_hi(int64_t o, int64_t in, int64_t out) { return ((o + 1) * in + out - 1) / out; }

// mode 0: average, 1: max (with argmax), 2: backward of the average (y is dx, x is dy). The average and its
// backward add in double and round once, as 2.10's CPU kernels do (its float32 bits: a window's sum, or each input's
// share dy / count of every window holding it, in window order).
template <typename T>
void adaptive(const T* x, T* y, int64_t* argmax, int64_t planes, const Dims3& in, const Dims3& out, int mode) {
    const int64_t S = in[0] * in[1] * in[2], Q = out[0] * out[1] * out[2], H = in[1], W = in[2];
    const bool par = worth_parallel(static_cast<double>(planes) * (S + Q), kParallelVisits);
    parallel_for(planes, par, max_threads(), [&](int64_t pl) {
        const T* xp = x + pl * (mode == 2 ? Q : S);
        T* yp = y + pl * (mode == 2 ? S : Q);
        std::vector<double> grad(mode == 2 ? static_cast<size_t>(S) : 0, 0.0);
        int64_t q = 0;
        for (int64_t oz = 0; oz < out[0]; ++oz) {
            const int64_t z0 = ad_lo(oz, in[0], out[0]), z1 = ad_hi(oz, in[0], out[0]);
            for (int64_t oy = 0; oy < out[1]; ++oy) {
                const int64_t y0 = ad_lo(oy, H, out[1]), y1 = ad_hi(oy, H, out[1]);
                for (int64_t ox = 0; ox < out[2]; ++ox, ++q) {
                    const int64_t x0 = ad_lo(ox, W, out[2]), x1 = ad_hi(ox, W, out[2]);
                    const double count = static_cast<double>((z1 - z0) * (y1 - y0) * (x1 - x0));
                    if (mode == 2) {
                        const double v = static_cast<double>(xp[q]) / count;
                        for (int64_t iz = z0; iz < z1; ++iz)
                            for (int64_t iy = y0; iy < y1; ++iy)
                                for (int64_t ix = x0; ix < x1; ++ix) grad[(iz * H + iy) * W + ix] += v;
                        continue;
                    }
                    double sum = 0.0;
                    T acc = -std::numeric_limits<T>::infinity();
                    int64_t bi = -1;
                    for (int64_t iz = z0; iz < z1; ++iz) {
                        for (int64_t iy = y0; iy < y1; ++iy) {
                            for (int64_t ix = x0; ix < x1; ++ix) {
                                const int64_t i = (iz * H + iy) * W + ix;
                                const T v = xp[i];
                                if (mode == 0) {
                                    sum += static_cast<double>(v);
                                } else if (bi < 0 || v > acc) {  // first, then strictly greater (2.10)
                                    acc = v;
                                    bi = i;
                                }
                            }
                        }
                    }
                    if (mode == 0) {
                        yp[q] = static_cast<T>(sum / count);
                    } else {
                        yp[q] = acc;
                        argmax[pl * Q + q] = bi;
                    }
                }
            }
        }
        if (mode == 2) {
            for (int64_t i = 0; i < S; ++i) yp[i] = static_cast<T>(grad[i]);
        }
    });
}


// --- Python bindings ------------------------------------------------------------------------
PoolGeometry pool_geometry(const std::string& where, int64_t planes, const Dims3& in, const Dims3& out, const Dims3& k,
                           const Dims3& stride, const Dims3& pad, const Dims3& dil, const Dims3& pad_after) {
    check_positive(where, "kernel_size", k);
    check_positive(where, "stride", stride);
    check_positive(where, "dilation", dil);
    check_positive(where, "input size", in, 0);
    check_positive(where, "output size", out, 0);
    check_positive(where, "pad", pad, 0);
    check_positive(where, "pad_after", pad_after, 0);
    if (k[0] * k[1] * k[2] > INT32_MAX) fail(where, "the kernel volume must fit in int32");
    return PoolGeometry{planes, in, out, k, stride, pad, dil, pad_after};
}

inline Dims3 spatial(const py::array& a) { return Dims3{a.shape(2), a.shape(3), a.shape(4)}; }

inline std::vector<int64_t> shape5(const py::array& a, const Dims3& s) {
    return {a.shape(0), a.shape(1), s[0], s[1], s[2]};
}

template <typename F>
py::object by_dtype(DType dt, F&& f) {
    if (dt == DType::f32) return f(float());
    return f(double());
}

py::object max_pool3d(const py::array& x, const Dims3& k, const Dims3& stride, const Dims3& pad, const Dims3& dil,
                      const Dims3& out, bool with_argmax, int rule, double floor) {
    const std::string where = "max_pool3d";
    check_array(where, "x", x, 5);
    const DType dt = common_float(where, {&x});
    const PoolGeometry g =
        pool_geometry(where, x.shape(0) * x.shape(1), spatial(x), out, k, stride, pad, dil, {0, 0, 0});
    auto idx = empty<int64_t>(shape5(x, with_argmax ? out : Dims3{0, 0, 0}));
    int64_t* ip = with_argmax ? mptr(idx) : nullptr;
    py::object y = by_dtype(dt, [&](auto tag) -> py::object {
        using T = decltype(tag);
        auto r = empty<T>(shape5(x, out));
        T* rp = mptr(r);
        py::gil_scoped_release release;
        max_pool<T>(cptr<T>(x), rp, ip, g, rule, static_cast<T>(floor));
        return std::move(r);
    });
    if (!with_argmax) return y;
    return py::make_tuple(y, idx);
}

py::array max_pool3d_backward(const py::array& x, const py::array& dy, const Dims3& k, const Dims3& stride,
                              const Dims3& pad, const Dims3& dil, int rule, double floor) {
    const std::string where = "max_pool3d_backward";
    check_array(where, "x", x, 5);
    check_array(where, "dout", dy, 5);
    const DType dt = common_float(where, {&x, &dy});
    if (dy.shape(0) != x.shape(0) || dy.shape(1) != x.shape(1)) {
        fail(where, "'dout' " + shape_str(dy) + " does not match x " + shape_str(x));
    }
    const PoolGeometry g =
        pool_geometry(where, x.shape(0) * x.shape(1), spatial(x), spatial(dy), k, stride, pad, dil, {0, 0, 0});
    return by_dtype(dt, [&](auto tag) -> py::object {
        using T = decltype(tag);
        auto r = empty<T>(shape5(x, spatial(x)));
        T* rp = mptr(r);
        py::gil_scoped_release release;
        max_pool_backward<T>(cptr<T>(x), cptr<T>(dy), rp, g, rule, static_cast<T>(floor));
        return std::move(r);
    });
}

py::array avg_pool3d(const py::array& x, const Dims3& k, const Dims3& stride, const Dims3& pad, const Dims3& pad_after,
                     const Dims3& out, bool count_include_pad, int64_t divisor_override) {
    const std::string where = "avg_pool3d";
    check_array(where, "x", x, 5);
    const DType dt = common_float(where, {&x});
    const PoolGeometry g = pool_geometry(where, x.shape(0) * x.shape(1), spatial(x), out, k, stride, pad, {1, 1, 1},
                                         pad_after);
    return by_dtype(dt, [&](auto tag) -> py::object {
        using T = decltype(tag);
        auto r = empty<T>(shape5(x, out));
        T* rp = mptr(r);
        py::gil_scoped_release release;
        avg_pool<T>(cptr<T>(x), rp, g, count_include_pad, divisor_override);
        return std::move(r);
    });
}

py::array avg_pool3d_backward(const py::array& dy, const Dims3& in, const Dims3& k, const Dims3& stride,
                              const Dims3& pad, const Dims3& pad_after, bool count_include_pad,
                              int64_t divisor_override) {
    const std::string where = "avg_pool3d_backward";
    check_array(where, "dout", dy, 5);
    const DType dt = common_float(where, {&dy});
    const PoolGeometry g = pool_geometry(where, dy.shape(0) * dy.shape(1), in, spatial(dy), k, stride, pad, {1, 1, 1},
                                         pad_after);
    return by_dtype(dt, [&](auto tag) -> py::object {
        using T = decltype(tag);
        auto r = empty<T>(shape5(dy, in));
        T* rp = mptr(r);
        py::gil_scoped_release release;
        avg_pool_backward<T>(cptr<T>(dy), rp, g, count_include_pad, divisor_override);
        return std::move(r);
    });
}

// argmax: int64 array of dout's shape (planes first), values index the input plane of size in_size.
void check_argmax(const std::string& where, const py::array& a, const py::array& argmax) {
    check_array(where, "argmax", argmax, a.ndim());
    if (dtype_of(argmax) != DType::i64) fail(where, "'argmax' must be an int64 array");
    for (py::ssize_t i = 0; i < a.ndim(); ++i) {
        if (a.shape(i) != argmax.shape(i)) fail(where, "'argmax' " + shape_str(argmax) + " must match " + shape_str(a));
    }
}

py::array argmax_scatter(const py::array& dy, const py::array& argmax, int64_t in_size) {
    const std::string where = "argmax_scatter";
    check_array(where, "dout", dy, 3);
    check_argmax(where, dy, argmax);
    const DType dt = common_float(where, {&dy});
    if (in_size < 0) fail(where, "negative input size");
    std::atomic<bool> bad{false};
    py::object r = by_dtype(dt, [&](auto tag) -> py::object {
        using T = decltype(tag);
        auto out = empty<T>({dy.shape(0), dy.shape(1), in_size});
        T* op = mptr(out);
        py::gil_scoped_release release;
        scatter<T>(cptr<T>(dy), cptr<int64_t>(argmax), op, dy.shape(0) * dy.shape(1), in_size, dy.shape(2), bad);
        return std::move(out);
    });
    if (bad) fail(where, "an argmax index is out of range [0, " + std::to_string(in_size) + ")");
    return r;
}

py::array argmax_gather(const py::array& g, const py::array& argmax) {
    const std::string where = "argmax_gather";
    check_array(where, "grad", g, 3);
    check_array(where, "argmax", argmax, 3);
    if (dtype_of(argmax) != DType::i64) fail(where, "'argmax' must be an int64 array");
    if (argmax.shape(0) != g.shape(0) || argmax.shape(1) != g.shape(1)) {
        fail(where, "'argmax' " + shape_str(argmax) + " does not match grad " + shape_str(g));
    }
    const DType dt = common_float(where, {&g});
    std::atomic<bool> bad{false};
    py::object r = by_dtype(dt, [&](auto tag) -> py::object {
        using T = decltype(tag);
        auto out = empty<T>({argmax.shape(0), argmax.shape(1), argmax.shape(2)});
        T* op = mptr(out);
        py::gil_scoped_release release;
        gather<T>(cptr<T>(g), cptr<int64_t>(argmax), op, g.shape(0) * g.shape(1), g.shape(2), argmax.shape(2), bad);
        return std::move(out);
    });
    if (bad) fail(where, "an argmax index is out of range [0, " + std::to_string(g.shape(2)) + ")");
    return r;
}

py::object adaptive_pool3d(const py::array& x, const Dims3& out, bool is_max) {
    const std::string where = "adaptive_pool3d";
    check_array(where, "x", x, 5);
    const DType dt = common_float(where, {&x});
    check_positive(where, "output_size", out);
    const Dims3 in = spatial(x);
    check_positive(where, "input size", in);
    py::array_t<int64_t> idx = empty<int64_t>(shape5(x, is_max ? out : Dims3{0, 0, 0}));
    int64_t* ip = mptr(idx);
    py::object y = by_dtype(dt, [&](auto tag) -> py::object {
        using T = decltype(tag);
        auto r = empty<T>(shape5(x, out));
        T* rp = mptr(r);
        py::gil_scoped_release release;
        adaptive<T>(cptr<T>(x), rp, is_max ? ip : nullptr, x.shape(0) * x.shape(1), in, out, is_max ? 1 : 0);
        return std::move(r);
    });
    if (is_max) return py::make_tuple(y, idx);
    return y;
}

py::array adaptive_avg_pool3d_backward(const py::array& dy, const Dims3& in) {
    const std::string where = "adaptive_avg_pool3d_backward";
    check_array(where, "dout", dy, 5);
    const DType dt = common_float(where, {&dy});
    check_positive(where, "input size", in);
    const Dims3 out = spatial(dy);
    check_positive(where, "output size", out);
    return by_dtype(dt, [&](auto tag) -> py::object {
        using T = decltype(tag);
        auto r = empty<T>(shape5(dy, in));
        T* rp = mptr(r);
        py::gil_scoped_release release;
        adaptive<T>(cptr<T>(dy), rp, nullptr, dy.shape(0) * dy.shape(1), in, out, 2);
        return std::move(r);
    });
}

}  // namespace

void register_pool(py::module_& m) {
    using py::arg;
    m.def("max_pool3d", &max_pool3d, arg("x"), arg("kernel_size"), arg("stride"), arg("pad"), arg("dilation"),
          arg("out_size"), arg("with_argmax") = true, arg("rule") = 0, arg("floor") = 0.0,
          "Max pooling of x (N, C, D, H, W): (y, argmax) with int64 flat indices into each input plane "
          "(-1 for a window entirely in the padding), or y alone without with_argmax. rule: the NaN rule "
          "(0 IEEE first maximum, 1 MaxPool's maxps fold, 2 MaxPoolWithArgmaxV2's strict greater from floor, "
          "3 first element then strictly greater, 4 NaN first with the last NaN's index); floor: the start value "
          "of rules 1 and 2.");
    m.def("max_pool3d_backward", &max_pool3d_backward, arg("x"), arg("dout"), arg("kernel_size"), arg("stride"),
          arg("pad"), arg("dilation"), arg("rule") = 0, arg("floor") = 0.0,
          "Gradient of max pooling with respect to x (N, C, D, H, W): dout (N, C, OD, OH, OW) added at each "
          "window's winner under ``rule`` (as in max_pool3d), as max_pool3d's argmax would place it.");
    m.def("avg_pool3d", &avg_pool3d, arg("x"), arg("kernel_size"), arg("stride"), arg("pad"), arg("pad_after"),
          arg("out_size"), arg("count_include_pad"), arg("divisor_override"), "Average pooling of x (N, C, D, H, W).");
    m.def("avg_pool3d_backward", &avg_pool3d_backward, arg("dout"), arg("in_size"), arg("kernel_size"),
          arg("stride"), arg("pad"), arg("pad_after"), arg("count_include_pad"), arg("divisor_override"),
          "Gradient of avg_pool3d with respect to x.");
    m.def("argmax_scatter", &argmax_scatter, arg("dout"), arg("argmax"), arg("in_size"),
          "dx (N, C, in_size) with dx[n, c, argmax[n, c, q]] += dout[n, c, q].");
    m.def("argmax_gather", &argmax_gather, arg("grad"), arg("argmax"),
          "out[n, c, q] = grad[n, c, argmax[n, c, q]] (0 where argmax is -1).");
    m.def("adaptive_pool3d", &adaptive_pool3d, arg("x"), arg("out_size"), arg("is_max"),
          "Adaptive average pooling, or adaptive max pooling returning (y, argmax).");
    m.def("adaptive_avg_pool3d_backward", &adaptive_avg_pool3d_backward, arg("dout"), arg("in_size"),
          "Gradient of adaptive average pooling with respect to x.");
}

}  // namespace mscpu
