// Winograd convolution F(2x2, 3x3) for inference: 3x3 kernels, unit strides and dilations, one group, float32
// and float64, with the forward's epilogue (+ bias, + residual, ReLU).
//
// Each 2x2 block of outputs ("tile") of a channel comes from a 4x4 patch d of each input channel:
//
//   Y = A^T [ sum over c of (G g G^T) (.) (B^T d B) ] A       ((.): elementwise, 16 products per (o, c, tile))
//
// with g the 3x3 filter, B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1], G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2;
// 0 0 1], A^T = [1 1 1 0; 0 1 -1 -1]: 16 multiply-adds per (o, c, tile) instead of the 36 of four direct
// outputs. The sum over c is 16 matrix products, one per element e of the 4x4 transform, M[e] (tiles x O) =
// V[e] (tiles x C) U[e] (C x O), run straight on the GEMM micro-kernel (gemm.h): U = G g G^T is computed once
// per filter and packed as the micro-kernel's B panels (winograd_f23_filter: a Predictor's weights are
// constants); V is transformed tile by tile and transposed into its A panels, per call.
//
// The sums are not the direct convolution's: each output is rounded differently (about as accurate: the
// transforms only add, subtract and halve). So this runs only where weights are frozen (mindspore.Predictor:
// the CPU backend's fusion pass chooses it, passes.py and kernels/conv.py), never in training.
//
// A task is one batch item: its input laid out channels-last, its tiles in slices (a multiple of the
// micro-kernel's rows) whose V and M stay in L2, then its output transposed back to channels-first with the
// epilogue. Every transform is a loop over channels (input or output), the same arithmetic for each, which the
// compiler vectorises whatever the map's size (8x8 maps have only 4x4 tiles).
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "common.h"
#include "gemm.h"

namespace mscpu {
namespace {

struct WinoGeometry {
    int64_t N, C, H, W, O, OH, OW, ph, pw;
    int64_t th() const { return (OH + 1) / 2; }
    int64_t tw() const { return (OW + 1) / 2; }
};

// The filters' transforms (G g G^T)[e] for w (O, C, 3, 3), laid out as the GEMM micro-kernel's B panels
// (gemm.h): u[((e * panels + q) * C + c) * NR + j] = (G g G^T)[e] of filter q * NR + j, channel c (zero past O).
template <typename T>
void filter_transform(const T* w, T* u, int64_t O, int64_t C, int64_t NR) {
    const T h = T(0.5);
    const int64_t panels = (O + NR - 1) / NR;
    std::fill(u, u + 16 * panels * C * NR, T(0));
    for (int64_t o = 0; o < O; ++o) {
        for (int64_t c = 0; c < C; ++c) {
            const T* g = w + (o * C + c) * 9;
            T t[4][3];   // G g
            for (int j = 0; j < 3; ++j) {
                t[0][j] = g[j];
                t[1][j] = h * (g[j] + g[3 + j] + g[6 + j]);
                t[2][j] = h * (g[j] - g[3 + j] + g[6 + j]);
                t[3][j] = g[6 + j];
            }
            for (int i = 0; i < 4; ++i) {   // (G g) G^T
                const T v[4] = {t[i][0], h * (t[i][0] + t[i][1] + t[i][2]), h * (t[i][0] - t[i][1] + t[i][2]),
                                t[i][2]};
                for (int j = 0; j < 4; ++j) {
                    u[(((i * 4 + j) * panels + o / NR) * C + c) * NR + o % NR] = v[j];
                }
            }
        }
    }
}

// V[e][t][c] = (B^T d B)[e] for the tiles [t0, t0 + n) of one item (tile t: rows 2 ty - ph .., columns 2 tx -
// pw ..), all channels, read from the channels-last input xt (``zeros``: C zeros, for the patch elements outside
// the input); V's e blocks are ldv apart.
template <typename T>
__attribute__((always_inline)) inline void input_tiles_body(const T* xt, const WinoGeometry& g, int64_t t0,
                                                            int64_t n, T* v, int64_t ldv, const T* zeros) {
    const int64_t C = g.C, tw = g.tw();
    for (int64_t t = t0; t < t0 + n; ++t) {
        const int64_t ty = t / tw, tx = t % tw;
        const T* p[16];   // the patch element (r, k), channels-last
        for (int r = 0; r < 4; ++r) {
            const int64_t iy = 2 * ty - g.ph + r;
            for (int k = 0; k < 4; ++k) {
                const int64_t ix = 2 * tx - g.pw + k;
                p[r * 4 + k] = iy >= 0 && iy < g.H && ix >= 0 && ix < g.W ? xt + (iy * g.W + ix) * C : zeros;
            }
        }
        T* vt = v + (t - t0) * C;
        T* out[16];
        for (int e = 0; e < 16; ++e) out[e] = vt + e * ldv;
#pragma GCC ivdep
        for (int64_t c = 0; c < C; ++c) {   // per channel: columns (d B), then rows (B^T .)
            T q[4][4];
            for (int r = 0; r < 4; ++r) {
                const T x0 = p[r * 4][c], x1 = p[r * 4 + 1][c], x2 = p[r * 4 + 2][c], x3 = p[r * 4 + 3][c];
                q[r][0] = x0 - x2;
                q[r][1] = x1 + x2;
                q[r][2] = x2 - x1;
                q[r][3] = x1 - x3;
            }
            for (int j = 0; j < 4; ++j) {
                out[0 * 4 + j][c] = q[0][j] - q[2][j];
                out[1 * 4 + j][c] = q[1][j] + q[2][j];
                out[2 * 4 + j][c] = q[2][j] - q[1][j];
                out[3 * 4 + j][c] = q[1][j] - q[3][j];
            }
        }
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void input_tiles(const float* xt, const WinoGeometry& g, int64_t t0, int64_t n, float* v, int64_t ldv,
                 const float* d) {
    input_tiles_body(xt, g, t0, n, v, ldv, d);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void input_tiles(const double* xt, const WinoGeometry& g, int64_t t0, int64_t n, double* v, int64_t ldv,
                 const double* d) {
    input_tiles_body(xt, g, t0, n, v, ldv, d);
}

// Y = A^T m A for the tiles [t0, t0 + n) of one item, all output channels, m[e][t][o] (rows ldm apart), into
// the item's channels-last output yt[(oy * 2 tw + ox) * O + o], whole tiles (an odd map's last row and column
// are computed and left out later).
template <typename T>
__attribute__((always_inline)) inline void output_tiles_body(const T* m, int64_t ldm, int64_t ldr,
                                                             const WinoGeometry& g, int64_t t0, int64_t n, T* yt) {
    const int64_t O = g.O, tw = g.tw();
    for (int64_t t = t0; t < t0 + n; ++t) {
        const int64_t ty = t / tw, tx = t % tw;
        const T* mt = m + (t - t0) * ldr;
        T* y00 = yt + (2 * ty * 2 * tw + 2 * tx) * O;
        T* y01 = y00 + O;
        T* y10 = y00 + 2 * tw * O;
        T* y11 = y10 + O;
#pragma GCC ivdep
        for (int64_t o = 0; o < O; ++o) {
            T s[2][4];
            for (int j = 0; j < 4; ++j) {
                const T m0 = mt[(0 * 4 + j) * ldm + o], m1 = mt[(1 * 4 + j) * ldm + o];
                const T m2 = mt[(2 * 4 + j) * ldm + o], m3 = mt[(3 * 4 + j) * ldm + o];
                s[0][j] = m0 + m1 + m2;
                s[1][j] = m1 - m2 - m3;
            }
            y00[o] = s[0][0] + s[0][1] + s[0][2];
            y01[o] = s[0][1] - s[0][2] - s[0][3];
            y10[o] = s[1][0] + s[1][1] + s[1][2];
            y11[o] = s[1][1] - s[1][2] - s[1][3];
        }
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void output_tiles(const float* m, int64_t ldm, int64_t ldr, const WinoGeometry& g, int64_t t0, int64_t n,
                  float* yt) {
    output_tiles_body(m, ldm, ldr, g, t0, n, yt);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void output_tiles(const double* m, int64_t ldm, int64_t ldr, const WinoGeometry& g, int64_t t0, int64_t n,
                  double* yt) {
    output_tiles_body(m, ldm, ldr, g, t0, n, yt);
}

// y[o][q] = clamp((y[o][q] + bias[o]) + z[o][q]) over one item's output channels (Q positions each), rounded
// as the separate BiasAdd, Add and ReLU kernels round.
template <typename T>
__attribute__((always_inline)) inline void epilogue_body(T* y, int64_t O, int64_t Q, const T* bias, const T* z, T lo,
                                                         T nan_out) {
    for (int64_t o = 0; o < O; ++o) {
        T* yr = y + o * Q;
        const T* zr = z != nullptr ? z + o * Q : nullptr;
        const T b = bias != nullptr ? bias[o] : T(0);
        if (bias != nullptr) {
            for (int64_t q = 0; q < Q; ++q) yr[q] += b;
        }
        if (zr != nullptr) {
            for (int64_t q = 0; q < Q; ++q) yr[q] += zr[q];
        }
        for (int64_t q = 0; q < Q; ++q) yr[q] = floor_clamp(yr[q], lo, nan_out);
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void epilogue(float* y, int64_t O, int64_t Q, const float* bias, const float* z, float lo, float nan_out) {
    epilogue_body(y, O, Q, bias, z, lo, nan_out);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void epilogue(double* y, int64_t O, int64_t Q, const double* bias, const double* z, double lo, double nan_out) {
    epilogue_body(y, O, Q, bias, z, lo, nan_out);
}


// d[j * ld + i] = s[i * ss + j] for i < R, j < K: a transposition, in 8 x 8 blocks of floats turned in registers
// (three rounds of two-vector shuffles, GCC's vector extensions: AVX2/AVX-512 permutes on those targets).
typedef float tr_f32x8 __attribute__((vector_size(32)));
typedef int32_t tr_i32x8 __attribute__((vector_size(32)));

__attribute__((always_inline)) inline void transpose8x8(const float* s, int64_t ss, float* d, int64_t ld) {
    tr_f32x8 r[8], a[8], b[8];
    for (int i = 0; i < 8; ++i) std::memcpy(&r[i], s + i * ss, sizeof(tr_f32x8));
    const tr_i32x8 lo = {0, 8, 1, 9, 4, 12, 5, 13}, hi = {2, 10, 3, 11, 6, 14, 7, 15};
    const tr_i32x8 lo2 = {0, 1, 8, 9, 4, 5, 12, 13}, hi2 = {2, 3, 10, 11, 6, 7, 14, 15};
    const tr_i32x8 lo4 = {0, 1, 2, 3, 8, 9, 10, 11}, hi4 = {4, 5, 6, 7, 12, 13, 14, 15};
    for (int i = 0; i < 8; i += 2) {
        a[i] = __builtin_shuffle(r[i], r[i + 1], lo);
        a[i + 1] = __builtin_shuffle(r[i], r[i + 1], hi);
    }
    for (int h = 0; h < 8; h += 4) {   // rows h .. h + 3: columns 0/4, 1/5, 2/6, 3/7
        b[h] = __builtin_shuffle(a[h], a[h + 2], lo2);
        b[h + 1] = __builtin_shuffle(a[h], a[h + 2], hi2);
        b[h + 2] = __builtin_shuffle(a[h + 1], a[h + 3], lo2);
        b[h + 3] = __builtin_shuffle(a[h + 1], a[h + 3], hi2);
    }
    for (int j = 0; j < 4; ++j) {
        const tr_f32x8 c0 = __builtin_shuffle(b[j], b[4 + j], lo4), c1 = __builtin_shuffle(b[j], b[4 + j], hi4);
        std::memcpy(d + j * ld, &c0, sizeof(tr_f32x8));
        std::memcpy(d + (j + 4) * ld, &c1, sizeof(tr_f32x8));
    }
}

template <typename T>
__attribute__((always_inline)) inline void transpose_body(const T* s, int64_t R, int64_t K, int64_t ss, T* d,
                                                          int64_t ld) {
    int64_t i0 = 0;
    if constexpr (std::is_same_v<T, float>) {
        for (; i0 + 8 <= R; i0 += 8) {
            int64_t j0 = 0;
            for (; j0 + 8 <= K; j0 += 8) transpose8x8(s + i0 * ss + j0, ss, d + j0 * ld + i0, ld);
            for (int64_t j = j0; j < K; ++j) {
                for (int64_t i = i0; i < i0 + 8; ++i) d[j * ld + i] = s[i * ss + j];
            }
        }
    }
    for (int64_t i = i0; i < R; ++i) {
        for (int64_t j = 0; j < K; ++j) d[j * ld + i] = s[i * ss + j];
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void transpose(const float* s, int64_t R, int64_t K, int64_t ss, float* d, int64_t ld) {
    transpose_body(s, R, K, ss, d, ld);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void transpose(const double* s, int64_t R, int64_t K, int64_t ss, double* d, int64_t ld) {
    transpose_body(s, R, K, ss, d, ld);
}

template <typename T>
void forward(const T* x, const T* u, T* y, const WinoGeometry& g, const T* bias, const T* z, bool relu) {
    const MicroKernel<T>& uk = micro_kernel<T>();
    const int64_t MR = uk.mr, NR = uk.nr, panels = ceil_div(g.O, NR), Op = panels * NR;
    const int64_t TI = g.th() * g.tw(), S = g.H * g.W, Q = g.OH * g.OW;
    // tiles per slice (a multiple of MR): a slice's V and M (16 x tiles x (C + Op)) within about 512 KiB of L2
    const int64_t per_tile = 16 * (g.C + Op) * static_cast<int64_t>(sizeof(T));
    const int64_t Tb = std::max<int64_t>(MR, std::min<int64_t>(ceil_div(TI, MR), (512 * 1024) / (per_tile * MR)) * MR);
    const T lo = relu ? T(0) : -std::numeric_limits<T>::infinity();
    const T nan_out = relu ? T(0) : std::numeric_limits<T>::quiet_NaN();
    const double work = 16.0 * g.C * g.O * TI * g.N;
    parallel(worth_parallel(work, kParallelFlops / 4) ? max_threads() : 1, [&](int, int) {
        std::vector<T> xt(static_cast<size_t>(S * g.C)), yt(static_cast<size_t>(4 * TI * g.O));
        // tmp[e][i][c]: one panel's transforms, tile by tile; v[e]: the slice's A panels (gemm.h), v[e][p][c][i]
        std::vector<T> tmp(static_cast<size_t>(16 * MR * g.C)), v(static_cast<size_t>(16 * Tb * g.C));
        std::vector<T> m(static_cast<size_t>(16 * Tb * Op)), zeros(static_cast<size_t>(g.C));
        for_static(g.N, [&](int64_t n) {   // a task per item: its input channels-last, its tiles in slices
            transpose(x + n * g.C * S, g.C, S, S, xt.data(), g.C);
            for (int64_t t0 = 0; t0 < TI; t0 += Tb) {
                const int64_t nt = std::min(Tb, TI - t0);
                for (int64_t p0 = 0; p0 < nt; p0 += MR) {   // the slice's tiles, MR at a time, into A panels
                    const int64_t np = std::min(MR, nt - p0);
                    if (np < MR) std::fill(tmp.begin(), tmp.end(), T(0));
                    input_tiles(xt.data(), g, t0 + p0, np, tmp.data(), MR * g.C, zeros.data());
                    for (int e = 0; e < 16; ++e) {
                        transpose(tmp.data() + e * MR * g.C, MR, g.C, g.C, v.data() + (e * Tb + p0) * g.C, MR);
                    }
                }
                for (int e = 0; e < 16; ++e) {   // M[e] (tiles x Op) = V[e] (tiles x C) U[e] (C x Op), tile by tile
                    const T* ve = v.data() + e * Tb * g.C;
                    const T* ue = u + e * panels * g.C * NR;
                    T* me = m.data() + e * Tb * Op;
                    for (int64_t p0 = 0; p0 < nt; p0 += MR) {
                        for (int64_t q = 0; q < panels; ++q) {
                            uk.fn(g.C, ve + p0 * g.C, ue + q * g.C * NR, me + p0 * Op + q * NR, Op, false);
                        }
                    }
                }
                output_tiles(m.data(), Tb * Op, Op, g, t0, nt, yt.data());
            }
            T* yn = y + n * g.O * Q;
            for (int64_t oy = 0; oy < g.OH; ++oy) {   // the map's positions of the whole-tile output, channels first
                transpose(yt.data() + oy * 2 * g.tw() * g.O, g.OW, g.O, g.O, yn + oy * g.OW, Q);
            }
            epilogue(yn, g.O, Q, bias, z != nullptr ? z + n * g.O * Q : nullptr, lo, nan_out);
        });
    });
}

py::array winograd_f23_filter(const py::array& w) {
    const std::string where = "winograd_f23_filter";
    check_array(where, "weight", w, 4);
    const DType dt = common_float(where, {&w});
    if (w.shape(2) != 3 || w.shape(3) != 3) fail(where, "the filter must be (O, C, 3, 3), but got " + shape_str(w));
    const int64_t O = w.shape(0), C = w.shape(1);
    const int64_t NR = dt == DType::f32 ? micro_kernel<float>().nr : micro_kernel<double>().nr;
    return new_float_array(dt, {16, ceil_div(O, NR), C, NR}, [&](auto* u) {
        using T = element_of<decltype(u)>;
        filter_transform<T>(cptr<T>(w), u, O, C, NR);
    });
}

py::array winograd_f23_forward(const py::array& x, const py::array& u, const std::array<int64_t, 2>& pad,
                               const std::array<int64_t, 2>& out, int64_t out_channels,
                               const std::optional<py::array>& bias, bool relu, const std::optional<py::array>& residual) {
    const std::string where = "winograd_f23_forward";
    check_array(where, "x", x, 4);
    check_array(where, "filter", u, 4);
    const DType dt = common_float(where, {&x, &u});
    WinoGeometry g{x.shape(0), x.shape(1), x.shape(2), x.shape(3), out_channels, out[0], out[1], pad[0], pad[1]};
    const int64_t NR = dt == DType::f32 ? micro_kernel<float>().nr : micro_kernel<double>().nr;
    if (u.shape(0) != 16 || u.shape(2) != g.C || u.shape(3) != NR || g.O < 1 || u.shape(1) != ceil_div(g.O, NR)) {
        fail(where, "the transformed filter " + shape_str(u) + " is not winograd_f23_filter's for " +
                        std::to_string(g.O) + " filters on input " + shape_str(x));
    }
    if (g.OH < 1 || g.OW < 1 || g.ph < 0 || g.pw < 0) {   // windows past the input read zeros, as in conv3d_forward
        fail(where, "output size (" + std::to_string(g.OH) + ", " + std::to_string(g.OW) + ") must be positive and "
                        "the padding (" + std::to_string(g.ph) + ", " + std::to_string(g.pw) + ") not negative");
    }
    const std::vector<int64_t> shape{g.N, g.O, g.OH, g.OW};
    if (bias) {
        check_array(where, "bias", *bias, 1);
        if (common_float(where, {&x, &*bias}) != dt || bias->shape(0) != g.O) {
            fail(where, "bias " + shape_str(*bias) + " must be (" + std::to_string(g.O) + ",) of the input's dtype");
        }
    }
    if (residual) {
        check_array(where, "residual", *residual, 4);
        bool same = common_float(where, {&x, &*residual}) == dt;
        for (int a = 0; a < 4; ++a) same = same && residual->shape(a) == shape[a];
        if (!same) fail(where, "residual " + shape_str(*residual) + " must have the output's shape and dtype");
    }
    return new_float_array(dt, shape, [&](auto* y) {
        using T = element_of<decltype(y)>;
        if (g.N == 0 || g.O == 0) return;
        forward<T>(cptr<T>(x), cptr<T>(u), y, g, bias ? cptr<T>(*bias) : nullptr,
                   residual ? cptr<T>(*residual) : nullptr, relu);
    });
}

}  // namespace

void register_winograd(py::module_& m) {
    using py::arg;
    m.def("winograd_f23_filter", &winograd_f23_filter, arg("weight"),
          "The Winograd F(2x2, 3x3) transform of 3x3 filters (O, C, 3, 3), packed for this CPU's GEMM micro-kernel.");
    m.def("winograd_f23_forward", &winograd_f23_forward, arg("x"), arg("filter"), arg("pad"), arg("out_size"),
          arg("out_channels"), arg("bias") = py::none(), arg("relu") = false, arg("residual") = py::none(),
          "3x3 convolution of x (N, C, H, W), unit strides, one group, by Winograd F(2x2, 3x3) with a filter from "
          "winograd_f23_filter; pad = zero padding before each axis, out_size = (OH, OW); optionally + bias, + "
          "residual, then ReLU.");
}

}  // namespace mscpu
