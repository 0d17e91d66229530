// float32 LayerNorm and LayerNormGrad bit for bit as MindSpore 2.10's CPU kernels (layer_norm_cpu_kernel.cc,
// layer_norm_grad_cpu_kernel.cc) compute them.
//
// LayerNorm, per row: sum and sum of squares added in order in double; mean = sum / n; var = float(sum_sq / n -
// mean^2), 0 if negative; y = (x - float(mean)) / sqrtf(var + eps) * gamma + beta in float.
//
// LayerNormGrad:
// x and dy are `rows` rows of n values (the normalised axes), gamma has pn values and is indexed by the flat index
// modulo pn (pn divides neither n nor n divides pn in general: begin_params_axis may differ from begin_norm_axis).
// With r = powf(var + eps, -0.5) per row, all in float32 and every operation rounded (no FMA):
//   per row, added in order:  s1 = sum(dyg * (x - mean)),  s2 = sum(dyg),  s3 = sum(x - mean),  dyg = dy * gamma
//   s1 *= -0.5 * powf(var + eps, -1.5);  s3 *= -2
//   dx = (dyg * r + (x - mean) * ((2 * s1) * (1/n))) + ((-1 * r) * s2 + ((1/n) * s1) * s3) * (1/n)
//   dgamma[p] = sum over the flat indices j = p (mod pn), in order, of (dy * r) * (x - mean);  dbeta[p] = sum of dy
// s3 centres x - mean on its own row sum: 0 up to rounding when mean is x's mean (LayerNorm's gradient), not for an
// independent mean. Rows are split among the team (eight at a time, so that 24 chains of additions run side by
// side, each still in order); dgamma/dbeta split by parameter.
//
// No multiply-add may be fused unless written as one (FMA would change the bits): GCC contracts by default.
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#include <algorithm>
#include <cmath>
#include <vector>

#include "common.h"
#include "ordered_sums.h"

namespace mscpu {
namespace {

struct LnGrad {
    const float *x, *dy, *var, *mean, *gamma;
    float eps;
    int64_t rows, n, pn;
    float *dx, *dg, *db;
};

// --- LayerNorm ---
struct LnFwd {
    const float *x, *gamma, *beta;
    float eps;
    int64_t rows, n, pn;
    float *y, *mean, *var;
};

#if MSCPU_ORDERED_X86
__attribute__((target("avx2"))) void moments8_avx2(const float* x, int64_t n, double* sum, double* sq) {
    __m256d s_lo = _mm256_setzero_pd(), s_hi = _mm256_setzero_pd();
    __m256d q_lo = _mm256_setzero_pd(), q_hi = _mm256_setzero_pd();
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256 r[8];
        for (int l = 0; l < 8; ++l) r[l] = _mm256_loadu_ps(x + l * n + j);
        ordered::transpose8(r);
        for (int k = 0; k < 8; ++k) {
            const __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(r[k]));
            const __m256d hi = _mm256_cvtps_pd(_mm256_extractf128_ps(r[k], 1));
            s_lo = _mm256_add_pd(s_lo, lo);
            s_hi = _mm256_add_pd(s_hi, hi);
            q_lo = _mm256_add_pd(q_lo, _mm256_mul_pd(lo, lo));
            q_hi = _mm256_add_pd(q_hi, _mm256_mul_pd(hi, hi));
        }
    }
    _mm256_storeu_pd(sum, s_lo);
    _mm256_storeu_pd(sum + 4, s_hi);
    _mm256_storeu_pd(sq, q_lo);
    _mm256_storeu_pd(sq + 4, q_hi);
    for (int l = 0; l < 8; ++l) {
        for (int64_t k = j; k < n; ++k) {
            const double v = x[l * n + k];
            sum[l] += v;
            sq[l] += v * v;
        }
    }
}
#endif

// The double sum and sum of squares of rows r .. r + count - 1 (each in order; eight rows at a time with AVX2).
void moments(const float* x, int64_t n, int64_t count, double* sum, double* sq) {
    int64_t r = 0;
#if MSCPU_ORDERED_X86
    if (ordered::has_avx2()) {
        for (; r + 8 <= count; r += 8) moments8_avx2(x + r * n, n, sum + r, sq + r);
    }
#endif
    for (; r < count; ++r) {
        double s = 0.0, q = 0.0;
        for (int64_t j = 0; j < n; ++j) {
            const double v = x[r * n + j];
            s += v;
            q += v * v;
        }
        sum[r] = s;
        sq[r] = q;
    }
}

__attribute__((target_clones("avx2", "default")))
void y_row(const float* x, const float* g, const float* b, float mean, float std, int64_t n, float* y) {
    for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - mean) / std * g[j] + b[j];
}

// gamma for the n values of row r: grow[j] = gamma[(r n + j) mod pn].
void gamma_row(const LnGrad& a, int64_t r, float* grow) {
    int64_t p = (r * a.n) % a.pn;
    for (int64_t j = 0; j < a.n; ++j) {
        grow[j] = a.gamma[p];
        if (++p == a.pn) p = 0;
    }
}

void ln_rows(const LnFwd& a, int64_t r0, int64_t r1) {
    const int64_t n = a.n;
    const bool shared = n % a.pn == 0;
    std::vector<float> grow(static_cast<size_t>(n)), brow(static_cast<size_t>(n));
    auto params = [&](int64_t r) {
        int64_t p = (r * n) % a.pn;
        for (int64_t j = 0; j < n; ++j) {
            grow[j] = a.gamma[p];
            brow[j] = a.beta[p];
            if (++p == a.pn) p = 0;
        }
    };
    if (shared) params(0);
    constexpr int64_t kChunk = 64;
    double sum[kChunk], sq[kChunk];
    for (int64_t r = r0; r < r1; r += kChunk) {
        const int64_t count = std::min(kChunk, r1 - r);
        moments(a.x + r * n, n, count, sum, sq);
        for (int64_t i = 0; i < count; ++i) {
            const double mean = sum[i] / static_cast<double>(n);
            float var = static_cast<float>(sq[i] / static_cast<double>(n) - mean * mean);
            if (var < 0) var = 0;
            const float std = std::sqrt(var + a.eps);
            if (!shared) params(r + i);
            y_row(a.x + (r + i) * n, grow.data(), brow.data(), static_cast<float>(mean), std, n, a.y + (r + i) * n);
            a.mean[r + i] = static_cast<float>(mean);
            a.var[r + i] = var;
        }
    }
}

// s1, s2, s3 of rows r .. r + 7, sharing the gamma row g.
void sums8_portable(const float* x, const float* dy, const float* g, const float* mean, int64_t n, float* s1, float* s2,
           float* s3) {
    float a1[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
    float a2[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
    float a3[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
    float mu[8];
    for (int l = 0; l < 8; ++l) mu[l] = mean[l];
    for (int64_t j = 0; j < n; ++j) {
        const float gj = g[j];
        for (int l = 0; l < 8; ++l) {
            const float dxm = x[l * n + j] - mu[l];
            const float dyg = dy[l * n + j] * gj;
            a1[l] += dyg * dxm;
            a2[l] += dyg;
            a3[l] += dxm;
        }
    }
    for (int l = 0; l < 8; ++l) {
        s1[l] = a1[l];
        s2[l] = a2[l];
        s3[l] = a3[l];
    }
}

#if MSCPU_ORDERED_X86
// sums8 with the eight rows as the lanes of AVX registers (8 x 8 blocks transposed), each lane adding in order.
__attribute__((target("avx2"))) void sums8_avx2(const float* x, const float* dy, const float* g, const float* mean,
                                                int64_t n, float* s1, float* s2, float* s3) {
    const __m256 mu = _mm256_loadu_ps(mean);
    __m256 a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256 xs[8], ds[8];
        for (int l = 0; l < 8; ++l) {
            xs[l] = _mm256_loadu_ps(x + l * n + j);
            ds[l] = _mm256_loadu_ps(dy + l * n + j);
        }
        ordered::transpose8(xs);
        ordered::transpose8(ds);
        for (int k = 0; k < 8; ++k) {
            const __m256 dxm = _mm256_sub_ps(xs[k], mu);
            const __m256 dyg = _mm256_mul_ps(ds[k], _mm256_set1_ps(g[j + k]));
            a1 = _mm256_add_ps(a1, _mm256_mul_ps(dyg, dxm));
            a2 = _mm256_add_ps(a2, dyg);
            a3 = _mm256_add_ps(a3, dxm);
        }
    }
    _mm256_storeu_ps(s1, a1);
    _mm256_storeu_ps(s2, a2);
    _mm256_storeu_ps(s3, a3);
    for (int l = 0; l < 8; ++l) {
        for (int64_t k = j; k < n; ++k) {
            const float dxm = x[l * n + k] - mean[l];
            const float dyg = dy[l * n + k] * g[k];
            s1[l] += dyg * dxm;
            s2[l] += dyg;
            s3[l] += dxm;
        }
    }
}
#endif

void sums8(const float* x, const float* dy, const float* g, const float* mean, int64_t n, float* s1, float* s2,
           float* s3) {
#if MSCPU_ORDERED_X86
    if (ordered::has_avx2()) return sums8_avx2(x, dy, g, mean, n, s1, s2, s3);
#endif
    sums8_portable(x, dy, g, mean, n, s1, s2, s3);
}

void sums1(const float* x, const float* dy, const float* g, float mean, int64_t n, float* s1, float* s2, float* s3) {
    float a1 = 0.f, a2 = 0.f, a3 = 0.f;
    for (int64_t j = 0; j < n; ++j) {
        const float dxm = x[j] - mean;
        const float dyg = dy[j] * g[j];
        a1 += dyg * dxm;
        a2 += dyg;
        a3 += dxm;
    }
    *s1 = a1;
    *s2 = a2;
    *s3 = a3;
}

__attribute__((target_clones("avx2", "default")))
void dx_row(const float* x, const float* dy, const float* g, float mean, float r, float dx4, float dx5, int64_t n,
            float* dx) {
    for (int64_t j = 0; j < n; ++j) {
        const float dyg = dy[j] * g[j];
        const float dxm = x[j] - mean;
        dx[j] = dyg * r + dxm * dx4 + dx5;
    }
}

void dx_rows(const LnGrad& a, int64_t r0, int64_t r1) {
    const int64_t n = a.n;
    const bool shared = n % a.pn == 0;     // every row sees the same gamma values
    std::vector<float> grow(static_cast<size_t>(n));
    if (shared) gamma_row(a, 0, grow.data());
    float s1[8], s2[8], s3[8];
    const float inv = 1.0f / static_cast<float>(n);
    for (int64_t r = r0; r < r1;) {
        const int64_t count = shared && r + 8 <= r1 ? 8 : 1;
        if (!shared) gamma_row(a, r, grow.data());
        if (count == 8) {
            sums8(a.x + r * n, a.dy + r * n, grow.data(), a.mean + r, n, s1, s2, s3);
        } else {
            sums1(a.x + r * n, a.dy + r * n, grow.data(), a.mean[r], n, s1, s2, s3);
        }
        for (int64_t l = 0; l < count; ++l, ++r) {
            const float shifted = a.var[r] + a.eps;
            const float t1 = s1[l] * (-0.5f * std::pow(shifted, -1.5f));
            const float t3 = s3[l] * -2.0f;
            const float rs = std::pow(shifted, -0.5f);
            const float dx4 = 2.0f * t1 * inv;
            const float dx5 = (-1.0f * rs * s2[l] + inv * t1 * t3) * inv;
            dx_row(a.x + r * n, a.dy + r * n, grow.data(), a.mean[r], rs, dx4, dx5, n, a.dx + r * n);
        }
    }
}

__attribute__((target_clones("avx2", "default")))
void param_span(const float* x, const float* dy, float r, float mean, int64_t len, float* dg, float* db) {
    for (int64_t p = 0; p < len; ++p) {
        dg[p] += dy[p] * r * (x[p] - mean);
        db[p] += dy[p];
    }
}

// dgamma / dbeta for the parameters [p0, p1): the flat rows of pn values in order; within one, the stretches
// sharing a normalised row (and so r and mean).
void param_sums(const LnGrad& a, const float* rs, int64_t p0, int64_t p1) {
    std::fill(a.dg + p0, a.dg + p1, 0.0f);
    std::fill(a.db + p0, a.db + p1, 0.0f);
    const int64_t total = a.rows * a.n;
    for (int64_t base = 0; base < total; base += a.pn) {
        int64_t p = p0;
        while (p < p1) {
            const int64_t row = (base + p) / a.n;
            const int64_t end = std::min(p1, (row + 1) * a.n - base);
            param_span(a.x + base + p, a.dy + base + p, rs[row], a.mean[row], end - p, a.dg + p, a.db + p);
            p = end;
        }
    }
}

py::tuple layer_norm_grad_f32(const py::array& x, const py::array& dy, const py::array& var, const py::array& mean,
                              const py::array& gamma, float eps) {
    const std::string where = "layer_norm_grad_f32";
    check_array(where, "x", x, 2);
    check_array(where, "dy", dy, 2);
    check_array(where, "variance", var, 1);
    check_array(where, "mean", mean, 1);
    check_array(where, "gamma", gamma, 1);
    for (const py::array* p : {&x, &dy, &var, &mean, &gamma}) {
        if (dtype_of(*p) != DType::f32) fail(where, "all arrays must be float32");
    }
    const int64_t rows = x.shape(0), n = x.shape(1), pn = gamma.shape(0);
    if (dy.shape(0) != rows || dy.shape(1) != n || var.shape(0) != rows || mean.shape(0) != rows || n < 1 || pn < 1 ||
        (rows * n) % pn != 0) {
        fail(where, "inconsistent shapes: x " + shape_str(x) + ", dy " + shape_str(dy) + ", variance " +
                        shape_str(var) + ", mean " + shape_str(mean) + ", gamma " + shape_str(gamma));
    }
    py::array_t<float> dx({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(n)});
    py::array_t<float> dg(static_cast<py::ssize_t>(pn)), db(static_cast<py::ssize_t>(pn));
    LnGrad a{cptr<float>(x), cptr<float>(dy), cptr<float>(var), cptr<float>(mean), cptr<float>(gamma), eps,
             rows, n, pn, mptr(dx), mptr(dg), mptr(db)};
    {
        py::gil_scoped_release release;
        std::vector<float> rs(static_cast<size_t>(rows));
        for (int64_t r = 0; r < rows; ++r) rs[r] = std::pow(a.var[r] + a.eps, -0.5f);
        const bool par = worth_parallel(8.0 * rows * n, kParallelVisits);
        parallel(par ? max_threads() : 1, [&](int tid, int nt) {
            int64_t lo, hi;
            // rows in blocks of 8 per member, so that each keeps the interleaved sums
            static_range(ceil_div(rows, 8), tid, nt, lo, hi);
            if (lo * 8 < rows) dx_rows(a, lo * 8, std::min(rows, hi * 8));
            // parameters in blocks of 16 (whole vectors)
            static_range(ceil_div(pn, 16), tid, nt, lo, hi);
            if (lo * 16 < pn) param_sums(a, rs.data(), lo * 16, std::min(pn, hi * 16));
        });
    }
    return py::make_tuple(dx, dg, db);
}

py::tuple layer_norm_f32(const py::array& x, const py::array& gamma, const py::array& beta, float eps) {
    const std::string where = "layer_norm_f32";
    check_array(where, "x", x, 2);
    check_array(where, "gamma", gamma, 1);
    check_array(where, "beta", beta, 1);
    for (const py::array* p : {&x, &gamma, &beta}) {
        if (dtype_of(*p) != DType::f32) fail(where, "all arrays must be float32");
    }
    const int64_t rows = x.shape(0), n = x.shape(1), pn = gamma.shape(0);
    if (beta.shape(0) != pn || n < 1 || pn < 1 || (rows * n) % pn != 0) {
        fail(where, "inconsistent shapes: x " + shape_str(x) + ", gamma " + shape_str(gamma) + ", beta " +
                        shape_str(beta));
    }
    py::array_t<float> y({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(n)});
    py::array_t<float> mean(static_cast<py::ssize_t>(rows)), var(static_cast<py::ssize_t>(rows));
    LnFwd a{cptr<float>(x), cptr<float>(gamma), cptr<float>(beta), eps, rows, n, pn, mptr(y), mptr(mean), mptr(var)};
    {
        py::gil_scoped_release release;
        const bool par = worth_parallel(6.0 * rows * n, kParallelVisits);
        parallel(par ? max_threads() : 1, [&](int tid, int nt) {
            int64_t lo, hi;
            static_range(ceil_div(rows, 8), tid, nt, lo, hi);
            if (lo * 8 < rows) ln_rows(a, lo * 8, std::min(rows, hi * 8));
        });
    }
    return py::make_tuple(y, mean, var);
}

}  // namespace

void register_layer_norm(py::module_& m) {
    using py::arg;
    m.def("layer_norm_f32", &layer_norm_f32, arg("x"), arg("gamma"), arg("beta"), arg("epsilon"),
          "float32 LayerNorm of (rows, n) x with gamma and beta of pn values (indexed by the flat index mod pn) as "
          "MindSpore 2.10's CPU kernel computes it, bit for bit: (y, mean, variance), the last two of `rows` values.");
    m.def("layer_norm_grad_f32", &layer_norm_grad_f32, arg("x"), arg("dy"), arg("variance"), arg("mean"),
          arg("gamma"), arg("epsilon"),
          "float32 LayerNormGrad of (rows, n) x and dy, per-row variance and mean, gamma of pn values (indexed by "
          "the flat index mod pn) as MindSpore 2.10's CPU kernel computes it, bit for bit: (dx, dgamma, dbeta).");
}

}  // namespace mscpu
