// MindSpore 2.10's host random fills of initial weights (uniform, normal, truncated normal), bit for bit.
//
// What: a float32 buffer is filled from the Philox4x32-10 stream of one 64-bit seed. The key is the seed's two
// 32-bit halves and block j (four uint32 words) is the cipher of the counter (j_lo, j_hi, seed_lo, seed_hi);
// element i reads word i (uniform, truncated normal) and the Box-Muller pair of elements 2k, 2k+1 reads words 2k,
// 2k+1 (normal). The transforms run in double with float32 constants widened to double, then round to float32,
// step for step as 2.10 does (and as core's NumPy fallback, mindspore.common._philox, repeats; its docstrings say
// where each constant comes from).
//
// Why here: core's NumPy version makes many passes over uint64 arrays per round and was 3-5x slower than 2.10
// (a BERT-base-sized model took 4 s to initialise against 2.10's 2 s on 2 cores). Here the stream is made a batch
// of 128 blocks at a time in L1 (vectorised rounds), each transform runs over the batch, and the buffer splits
// among the kernels' team (team.h) by whole blocks, each member making its blocks from their counters, so the
// bits never depend on the thread count. CPU time per value (one core): uniform 2.4 ns, normal 19 ns (the libm
// calls), truncated normal 33 ns; 2.10: 5-6, 26-30 and 105 ns.
//
// Exactness: no FMA contraction (neither the baseline ISA nor the avx2/avx512f clones have FMA; fp-contract off
// below if built for one that has), libm's double log/sqrt/sincos/erfc as 2.10's C++ calls them (glibc; checked
// equal to 2.10 on 63M values of every kind), and Boost's erf_inv rational approximations evaluated by Horner's
// rule from the highest coefficient.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common.h"

#if defined(__FMA__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")  // built for an ISA with FMA (-march): keep a * b + c two roundings
#endif

namespace mscpu {
namespace {

constexpr uint32_t kM0 = 0xD2511F53u;
constexpr uint32_t kM1 = 0xCD9E8D57u;
constexpr uint32_t kStep0 = 0x9E3779B9u;
constexpr uint32_t kStep1 = 0xBB67AE85u;

// Blocks per batch: the stream is made a batch at a time into arrays that stay in L1.
constexpr int64_t kBatch = 128;

// The words of blocks j0 .. j0 + nb - 1 (nb <= kBatch) of the stream keyed by (lo, hi), block i's four words at
// w[4i .. 4i + 3]. The rounds run over the whole batch lane by lane, which the compiler vectorises (32 x 32 -> 64
// bit products, vpmuludq): integer arithmetic, so every clone gives the same words.
__attribute__((target_clones("avx512f", "avx2", "default")))
void philox_batch(uint64_t j0, int64_t nb, uint32_t lo, uint32_t hi, uint32_t* __restrict w) {
    alignas(64) uint32_t c0[kBatch], c1[kBatch], c2[kBatch], c3[kBatch];
    for (int64_t i = 0; i < nb; ++i) {
        const uint64_t j = j0 + static_cast<uint64_t>(i);
        c0[i] = static_cast<uint32_t>(j);
        c1[i] = static_cast<uint32_t>(j >> 32);
        c2[i] = lo;
        c3[i] = hi;
    }
    uint32_t k0 = lo, k1 = hi;
    for (int r = 0; r < 10; ++r) {
        for (int64_t i = 0; i < nb; ++i) {
            const uint64_t p0 = static_cast<uint64_t>(kM0) * c0[i];
            const uint64_t p1 = static_cast<uint64_t>(kM1) * c2[i];
            c0[i] = static_cast<uint32_t>(p1 >> 32) ^ c1[i] ^ k0;
            c1[i] = static_cast<uint32_t>(p1);
            c2[i] = static_cast<uint32_t>(p0 >> 32) ^ c3[i] ^ k1;
            c3[i] = static_cast<uint32_t>(p0);
        }
        k0 += kStep0;
        k1 += kStep1;
    }
    for (int64_t i = 0; i < nb; ++i) {
        w[4 * i] = c0[i];
        w[4 * i + 1] = c1[i];
        w[4 * i + 2] = c2[i];
        w[4 * i + 3] = c3[i];
    }
}

inline double widen(double v) { return static_cast<double>(static_cast<float>(v)); }

inline double unit(uint32_t w) { return static_cast<double>(w) / 4294967296.0; }

// A word's low 23 bits as the float32 1.m minus one, widened.
inline double mantissa_unit(uint32_t w) {
    const uint32_t bits = (w & 0x7FFFFFu) | (127u << 23);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return static_cast<double>(f - 1.0f);
}

template <int N>
inline double horner(const double (&c)[N], double x) {
    double acc = c[N - 1];
    for (int i = N - 2; i >= 0; --i) acc = acc * x + c[i];
    return acc;
}

// Boost.Math's erf_inv coefficients (lowest degree first) and its float32 Y constants.
const double kSmallP[] = {-0.000508781949658280665617, -0.00836874819741736770379, 0.0334806625409744615033,
                          -0.0126926147662974029034,   -0.0365637971411762664006,  0.0219878681111168899165,
                          0.00822687874676915743155,   -0.00538772965071242932965};
const double kSmallQ[] = {1.0,
                          -0.970005043303290640362,
                          -1.56574558234175846809,
                          1.56221558398423026363,
                          0.662328840472002992063,
                          -0.71228902341542847553,
                          -0.0527396382340099713954,
                          0.0795283687341571680018,
                          -0.00233393759374190016776,
                          0.000886216390456424707504};
const double kMidP[] = {-0.202433508355938759655, 0.105264680699391713268, 8.37050328343119927838,
                        17.6447298408374015486,   -18.8510648058714251895, -44.6382324441786960818,
                        17.445385985570866523,    21.1294655448340526258,  -3.67192254707729348546};
const double kMidQ[] = {1.0,
                        6.24264124854247537712,
                        3.9713437953343869095,
                        -28.6608180499800029974,
                        -20.1432634680485188801,
                        48.5609213108739935468,
                        10.8268667355460159008,
                        -22.6436933413139721736,
                        1.72114765761200282724};
const double kT1P[] = {-0.131102781679951906451, -0.163794047193317060787, 0.117030156341995252019,
                       0.387079738972604337464,  0.337785538912035898924,  0.142869534408157156766,
                       0.0290157910005329060432, 0.00214558995388805277169, -0.679465575181126350155e-6,
                       0.285225331782217055858e-7, -0.681149956853776992068e-9};
const double kT1Q[] = {1.0,
                       3.46625407242567245975,
                       5.38168345707006855425,
                       4.77846592945843778382,
                       2.59301921623620271374,
                       0.848854343457902036425,
                       0.152264338295331783612,
                       0.01105924229346489121};
const double kT2P[] = {-0.0350353787183177984712, -0.00222426529213447927281, 0.0185573306514231072324,
                       0.00950804701325919603619, 0.00187123492819559223345,  0.000157544617424960554631,
                       0.460469890584317994083e-5, -0.230404776911882601748e-9, 0.266339227425782031962e-11};
const double kT2Q[] = {1.0,
                       1.3653349817554063097,
                       0.762059164553623404043,
                       0.220091105764131249824,
                       0.0341589143670947727934,
                       0.00263861676657015992959,
                       0.764675292302794483503e-4};
const double kT3P[] = {-0.0167431005076633737133, -0.00112951438745580278863, 0.00105628862152492910091,
                       0.000209386317487588078668, 0.149624783758342370182e-4, 0.449696789927706453732e-6,
                       0.462596163522878599135e-8, -0.281128735628831791805e-13, 0.99055709973310326855e-16};
const double kT3Q[] = {1.0,
                       0.591429344886417493481,
                       0.138151865749083321638,
                       0.0160746087093676504695,
                       0.000964011807005165528527,
                       0.275335474764726041141e-4,
                       0.282243172016108031869e-6};
const double kT4P[] = {-0.0024978212791898131227, -0.779190719229053954292e-5, 0.254723037413027451751e-4,
                       0.162397777342510920873e-5, 0.396341011304801168516e-7,  0.411632831190944208473e-9,
                       0.145596286718675035587e-11, -0.116765012397184275695e-17};
const double kT4Q[] = {1.0,
                       0.207123112214422517181,
                       0.0169410838120975906478,
                       0.000690538265622684595676,
                       0.145007359818232637924e-4,
                       0.144437756628144157666e-6,
                       0.509761276599778486139e-9};
const double kT5P[] = {-0.000539042911019078575891, -0.28398759004727721098e-6, 0.899465114892291446442e-6,
                       0.229345859265920864296e-7,  0.225561444863500149219e-9, 0.947846627503022684216e-12,
                       0.135880130108924861008e-14, -0.348890393399948882918e-21};
const double kT5Q[] = {1.0,
                       0.0845746234001899436914,
                       0.00282092984726264681981,
                       0.468292921940894236786e-4,
                       0.399968812193862100054e-6,
                       0.161809290887904476097e-8,
                       0.231558608310259605225e-11};

// erf_inv(p) given q = 1 - p (p >= 0), interval by interval.
inline double erf_inv(double p, double q) {
    if (p <= 0.5) {
        const double y = widen(0.0891314744949340820313);
        const double g = p * (p + 10.0);
        const double r = horner(kSmallP, p) / horner(kSmallQ, p);
        return g * y + g * r;
    }
    if (q >= 0.25) {
        const double y = widen(2.249481201171875);
        const double g = std::sqrt(-2.0 * std::log(q));
        const double xs = q - 0.25;
        return g / (y + horner(kMidP, xs) / horner(kMidQ, xs));
    }
    const double x = std::sqrt(-std::log(q));
    double y, r;
    if (x < 3.0) {
        const double xs = x - 1.125;
        y = widen(0.807220458984375);
        r = horner(kT1P, xs) / horner(kT1Q, xs);
    } else if (x < 6.0) {
        const double xs = x - 3.0;
        y = widen(0.93995571136474609375);
        r = horner(kT2P, xs) / horner(kT2Q, xs);
    } else if (x < 18.0) {
        const double xs = x - 6.0;
        y = widen(0.98362827301025390625);
        r = horner(kT3P, xs) / horner(kT3Q, xs);
    } else if (x < 44.0) {
        const double xs = x - 18.0;
        y = widen(0.99714565277099609375);
        r = horner(kT4P, xs) / horner(kT4Q, xs);
    } else {
        const double xs = x - 44.0;
        y = widen(0.99941349029541015625);
        r = horner(kT5P, xs) / horner(kT5Q, xs);
    }
    return y * x + r * x;
}

// Runs fill(first_block, blocks, words) for each batch of the blocks covering n values (words: the batch's
// 4 * blocks words), the batches split among the team by whole blocks: each member makes its blocks from their
// counters, so the values do not depend on the thread count.
template <typename F>
void over_batches(int64_t n, uint32_t lo, uint32_t hi, F&& fill) {
    const int64_t blocks = (n + 3) / 4;
    const int nt = n >= 16384 ? max_threads() : 1;
    parallel(static_cast<int>(std::min<int64_t>(nt, blocks)), [&](int tid, int size) {
        int64_t b0, b1;
        static_range(blocks, tid, size, b0, b1);
        alignas(64) uint32_t w[4 * kBatch];
        for (int64_t j0 = b0; j0 < b1; j0 += kBatch) {
            const int64_t nb = std::min(kBatch, b1 - j0);
            philox_batch(static_cast<uint64_t>(j0), nb, lo, hi, w);
            fill(j0, nb, w);
        }
    });
}

// dst[k] = (b - a) * (w[k] / 2**32) + a for k < m, rounded to float32 (vectorised; no FMA in any clone).
__attribute__((target_clones("avx512f", "avx2", "default")))
void uniform_words(const uint32_t* __restrict w, int64_t m, double width, double a, float* __restrict dst) {
    for (int64_t k = 0; k < m; ++k) dst[k] = static_cast<float>(width * unit(w[k]) + a);
}

// The float32 buffer a fill writes: C-contiguous and writable, of any shape.
float* float32_buffer(py::array& out, const char* who, int64_t& n) {
    if (!py::isinstance<py::array_t<float>>(out))
        fail(who, "the buffer must be a float32 array, but got dtype " + std::string(py::str(out.dtype())) + ".");
    if (!(out.flags() & py::array::c_style)) fail(who, "the buffer must be C-contiguous.");
    if (!out.writeable()) fail(who, "the buffer must be writable.");
    n = static_cast<int64_t>(out.size());
    return static_cast<float*>(out.mutable_data());
}

void fill_uniform(uint64_t seed, py::array out, double a, double b) {
    int64_t n;
    float* dst = float32_buffer(out, "philox_uniform", n);
    a = widen(a);
    b = widen(b);
    py::gil_scoped_release nogil;
    over_batches(n, static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                 [&](int64_t j0, int64_t nb, const uint32_t* w) {
                     uniform_words(w, std::min(4 * nb, n - 4 * j0), b - a, a, dst + 4 * j0);
                 });
}

void fill_normal(uint64_t seed, py::array out, double mean, double sigma) {
    int64_t n;
    float* dst = float32_buffer(out, "philox_normal", n);
    mean = widen(mean);
    sigma = widen(sigma);
    const double pi = widen(3.1415926), threshold = widen(1.0e-7);
    py::gil_scoped_release nogil;
    // each libm function over the whole batch: the calls do not wait on each other (about a fifth faster than
    // log, sqrt and sincos one pair after another)
    over_batches(n, static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                 [&](int64_t j0, int64_t nb, const uint32_t* w) {
                     alignas(64) double r[2 * kBatch], y[2 * kBatch], v[4 * kBatch];
                     for (int64_t p = 0; p < 2 * nb; ++p) {
                         const double u0 = std::max(mantissa_unit(w[2 * p]), threshold);
                         r[p] = std::sqrt(-2.0 * std::log(u0)) * sigma;
                         y[p] = (2.0 * pi) * std::max(mantissa_unit(w[2 * p + 1]), threshold);
                     }
                     for (int64_t p = 0; p < 2 * nb; ++p) {
                         v[2 * p] = mean + r[p] * std::cos(y[p]);
                         v[2 * p + 1] = mean + r[p] * std::sin(y[p]);
                     }
                     const int64_t m = std::min(4 * nb, n - 4 * j0);
                     for (int64_t k = 0; k < m; ++k) dst[4 * j0 + k] = static_cast<float>(v[k]);
                 });
}

void fill_truncated_normal(uint64_t seed, py::array out, double a, double b, double mean, double sigma) {
    int64_t n;
    float* dst = float32_buffer(out, "philox_truncated_normal", n);
    a = widen(a);
    b = widen(b);
    mean = widen(mean);
    sigma = widen(sigma);
    if (sigma <= 0) {  // 2.10's check and wording (a C++ stream's number: "0", not "0.0")
        std::ostringstream msg;
        msg << "TruncatedNormal: invalid sigma " << sigma << ".";
        throw std::runtime_error(msg.str());
    }
    const double root_two = widen(1.4142135);
    const double alpha = (a - mean) / sigma, beta = (b - mean) / sigma;
    const double cdf_a = std::erfc(-(alpha / root_two)) / 2.0;
    const double cdf_b = std::erfc(-(beta / root_two)) / 2.0;
    const double z_min = static_cast<double>(std::numeric_limits<float>::denorm_min());
    const double z_max = static_cast<double>(std::nextafter(2.0f, 0.0f));
    py::gil_scoped_release nogil;
    over_batches(n, static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                 [&](int64_t j0, int64_t nb, const uint32_t* w) {
                     const int64_t m = std::min(4 * nb, n - 4 * j0);
                     for (int64_t k = 0; k < m; ++k) {
                         double z = 2.0 * (cdf_a + unit(w[k]) * (cdf_b - cdf_a));
                         if (z <= 0.0) {
                             z = z_min;
                         } else if (z >= 2.0) {
                             z = z_max;
                         }
                         const bool upper = z > 1.0;  // erfc_inv(z) = -erfc_inv(2 - z)
                         const double q = upper ? 2.0 - z : z;
                         double x = erf_inv(1.0 - q, q);
                         if (upper) x = -x;
                         dst[4 * j0 + k] = static_cast<float>(mean + (-x * root_two) * sigma);
                     }
                 });
}

// The C library's float32 function fn of each value of the C-contiguous float32 array x: what 2.10's random kernels
// call (libstdc++'s normal_distribution<float> its logf, RandomCategorical its expf), which neither NumPy's float32
// functions nor the rounded double ones equal; through ctypes from Python it cost 0.3 us a value.
py::array libm_f32(const py::array& x, float (*fn)(float), const char* where) {
    if (!py::isinstance<py::array_t<float>>(x) || !(x.flags() & py::array::c_style)) {
        throw std::invalid_argument(std::string("For '") + where + "', 'x' must be a C-contiguous float32 array.");
    }
    py::array_t<float> y(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    const float* src = static_cast<const float*>(x.data());
    float* dst = y.mutable_data();
    const int64_t n = x.size();
    py::gil_scoped_release nogil;
    for (int64_t i = 0; i < n; ++i) dst[i] = fn(src[i]);
    return std::move(y);
}

float c_logf(float v) { return ::logf(v); }
float c_expf(float v) { return ::expf(v); }

}  // namespace

void register_philox_fill(py::module_& m) {
    m.def("philox_uniform", &fill_uniform, py::arg("seed"), py::arg("out"), py::arg("a"), py::arg("b"),
          "Fill the C-contiguous float32 array out with MindSpore 2.10's U[a, b) draws of the 64-bit seed.");
    m.def("philox_normal", &fill_normal, py::arg("seed"), py::arg("out"), py::arg("mean"), py::arg("sigma"),
          "Fill out with MindSpore 2.10's N(mean, sigma^2) draws (Box-Muller on word pairs) of the seed.");
    m.def("philox_truncated_normal", &fill_truncated_normal, py::arg("seed"), py::arg("out"), py::arg("a"),
          py::arg("b"), py::arg("mean"), py::arg("sigma"),
          "Fill out with MindSpore 2.10's truncated normal draws (inverse CDF, no clipping) of the seed.");
    m.def("libm_logf", [](const py::array& x) { return libm_f32(x, c_logf, "libm_logf"); }, py::arg("x"),
          "The C library's logf of each value of a C-contiguous float32 array (2.10's random kernels' log).");
    m.def("libm_expf", [](const py::array& x) { return libm_f32(x, c_expf, "libm_expf"); }, py::arg("x"),
          "The C library's expf of each value of a C-contiguous float32 array (2.10's random kernels' exp).");
}

}  // namespace mscpu
