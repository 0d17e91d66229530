// BatchNorm (channel-first layouts) and its gradient, float32 and float64.
//
// Arrays arrive as (N, C, S) views: NC is (N, C, 1), NCHW is (N, C, H*W), NCDHW is (N, C, D*H*W). For
// channel c, over its n = N * S values:
//
//   training forward   mean = sum x / n,   var = sum (x - mean)^2 / n          (biased, two passes)
//   inference forward  mean, var are given (the moving statistics)
//   both               y = (x - mean) a + bias,      a = scale rstd,  rstd = 1 / sqrt(var + epsilon)
//   backward           dbias = B = sum dy,  dscale = D = rstd sum dy (x - mean)  (one pass), then
//                      training:  dx = a (dy - B / n - (x - mean) rstd D / n)    (a second pass)
//                      inference: dx = a dy, in the same pass as the sums (the statistics are inputs,
//                      not functions of x)
//
// Why two passes for the variance: sum x^2 - n mean^2 cancels catastrophically when |mean| >> std. The
// second pass re-reads a channel the first has just brought into cache (a channel of a ResNet activation
// is a few hundred KiB at most), so it costs little. Sums are accumulated in double (float32 data too) in
// `omp simd` reductions, which let the compiler keep one partial sum per vector lane: one serial chain
// would bound every pass at one add per floating-point latency, and without -ffast-math (which the build
// does not use) the compiler may not split a chain on its own.
//
// Work is split by channel: with spatial planes (S > 1) a channel is N planes of S contiguous values and
// one thread does all passes of a channel; with S == 1 (an (N, C) batch) a channel is a strided column,
// so rows are walked with one accumulator per column and each thread owns a block of columns. Either
// way each value is computed by one thread in a fixed order: results do not depend on the thread count.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common.h"

namespace mscpu {
namespace {

constexpr int64_t kColumnAlign = 16;  // column blocks of the row path end on cache-line boundaries

#define MSCPU_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#define MSCPU_INLINE __attribute__((always_inline)) inline

// An (N, C, S) problem: the arrays of the kernel being run (unused ones null) and its epsilon.
template <typename T>
struct Problem {
    int64_t N, C, S;
    const T* x;
    const T* dy;
    const T* scale;
    const T* bias;
    const T* mean;   // inference forward and backward: the statistics to use
    const T* var;
    T* y;            // forward: y; backward: dx
    T* out1;         // per-channel outputs: training forward mean and variance, backward dscale and dbias
    T* out2;
    double eps;
    // forward: outputs below this are raised to it and NaN becomes nan_out (floor_clamp, common.h): 0 and 0
    // fuse a following ReLU (MindSpore's, NaN -> 0), -inf and NaN (no ReLU) change nothing. Branch-free.
    T floor = -std::numeric_limits<T>::infinity();
    T nan_out = std::numeric_limits<T>::quiet_NaN();
    double count() const { return static_cast<double>(N) * static_cast<double>(S); }
};

// sum of x over channel c's planes, or of (x - shift)^2 when Squares.
template <bool Squares, typename T>
MSCPU_INLINE double channel_sum(const Problem<T>& p, const T* x, double shift) {
    double s = 0.0;
    for (int64_t n = 0; n < p.N; ++n) {
        const T* row = x + n * p.C * p.S;
#pragma omp simd reduction(+ : s)
        for (int64_t i = 0; i < p.S; ++i) {
            const double v = static_cast<double>(row[i]) - shift;
            s += Squares ? v * v : v;
        }
    }
    return s;
}

// y = (x - m) a + b over channel c's planes (x and y offset to the channel).
template <typename T>
MSCPU_INLINE void channel_affine(const Problem<T>& p, const T* x, T* y, T m, T a, T b) {
    for (int64_t n = 0; n < p.N; ++n) {
        const T* xr = x + n * p.C * p.S;
        T* yr = y + n * p.C * p.S;
        const T lo = p.floor, nan_out = p.nan_out;
        for (int64_t i = 0; i < p.S; ++i) {
            const T v = (xr[i] - m) * a + b;
            yr[i] = floor_clamp(v, lo, nan_out);
        }
    }
}

// Forward, one channel per step, channels [c0, c1) of a problem with spatial planes.
template <typename T>
MSCPU_CLONES void forward_planes(const Problem<T>& p, bool training, int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
        const T* x = p.x + c * p.S;
        double mean, var;
        if (training) {
            mean = channel_sum<false>(p, x, 0.0) / p.count();
            var = channel_sum<true>(p, x, mean) / p.count();
            p.out1[c] = static_cast<T>(mean);
            p.out2[c] = static_cast<T>(var);
        } else {
            mean = static_cast<double>(p.mean[c]);
            var = static_cast<double>(p.var[c]);
        }
        const double a = static_cast<double>(p.scale[c]) / std::sqrt(var + p.eps);
        channel_affine(p, x, p.y + c * p.S, static_cast<T>(mean), static_cast<T>(a), p.bias[c]);
    }
}

// sum dy and sum dy (x - mean) over channel c's planes; with WriteDx also dx = a dy (inference).
template <bool WriteDx, typename T>
MSCPU_INLINE void channel_grad_sums(const Problem<T>& p, const T* x, const T* dy, T* dx, double mean, T a,
                                    double& sum_dy, double& sum_q) {
    double b = 0.0, q = 0.0;
    for (int64_t n = 0; n < p.N; ++n) {
        const T* xr = x + n * p.C * p.S;
        const T* gr = dy + n * p.C * p.S;
        T* out = dx + n * p.C * p.S;
#pragma omp simd reduction(+ : b, q)
        for (int64_t i = 0; i < p.S; ++i) {
            const double g = static_cast<double>(gr[i]);
            b += g;
            q += g * (static_cast<double>(xr[i]) - mean);
            if (WriteDx) out[i] = a * gr[i];
        }
    }
    sum_dy = b;
    sum_q = q;
}

// Backward, channels [c0, c1) of a problem with spatial planes.
template <typename T>
MSCPU_CLONES void backward_planes(const Problem<T>& p, bool training, int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
        const T* x = p.x + c * p.S;
        const T* dy = p.dy + c * p.S;
        T* dx = p.y + c * p.S;
        const double mean = static_cast<double>(p.mean[c]);
        const double rstd = 1.0 / std::sqrt(static_cast<double>(p.var[c]) + p.eps);
        const T a = static_cast<T>(static_cast<double>(p.scale[c]) * rstd);
        double sum_dy, sum_q;
        if (training) channel_grad_sums<false>(p, x, dy, dx, mean, a, sum_dy, sum_q);
        else channel_grad_sums<true>(p, x, dy, dx, mean, a, sum_dy, sum_q);
        const double dscale = sum_q * rstd;
        p.out1[c] = static_cast<T>(dscale);
        p.out2[c] = static_cast<T>(sum_dy);
        if (!training) continue;
        const double a_d = static_cast<double>(a);
        const T k_x = static_cast<T>(-a_d * rstd * dscale / p.count());
        const T k_0 = static_cast<T>(-a_d * sum_dy / p.count());
        const T m = static_cast<T>(mean);
        for (int64_t n = 0; n < p.N; ++n) {
            const int64_t off = n * p.C * p.S;
            for (int64_t i = 0; i < p.S; ++i) dx[off + i] = a * dy[off + i] + k_x * (x[off + i] - m) + k_0;
        }
    }
}

// Per-column scratch of the row path: double sums, then the coefficients of the final pass.
template <typename T>
struct Columns {
    std::vector<double> s0, s1;
    std::vector<T> m, a, k_x, k_0;
    explicit Columns(int64_t C)
        : s0(static_cast<size_t>(C)), s1(s0.size()), m(s0.size()), a(s0.size()), k_x(s0.size()), k_0(s0.size()) {}
};

// Forward, columns [c0, c1) of an (N, C) problem, rows walked in order.
template <typename T>
MSCPU_CLONES void forward_rows(const Problem<T>& p, bool training, Columns<T>& col, int64_t c0, int64_t c1) {
    double* mean = col.s0.data();
    double* var = col.s1.data();
    if (training) {
        std::fill(mean + c0, mean + c1, 0.0);
        std::fill(var + c0, var + c1, 0.0);
        for (int64_t n = 0; n < p.N; ++n) {
            const T* row = p.x + n * p.C;
            for (int64_t c = c0; c < c1; ++c) mean[c] += static_cast<double>(row[c]);
        }
        for (int64_t c = c0; c < c1; ++c) mean[c] /= p.count();
        for (int64_t n = 0; n < p.N; ++n) {
            const T* row = p.x + n * p.C;
            for (int64_t c = c0; c < c1; ++c) {
                const double d = static_cast<double>(row[c]) - mean[c];
                var[c] += d * d;
            }
        }
        for (int64_t c = c0; c < c1; ++c) {
            var[c] /= p.count();
            p.out1[c] = static_cast<T>(mean[c]);
            p.out2[c] = static_cast<T>(var[c]);
        }
    } else {
        for (int64_t c = c0; c < c1; ++c) {
            mean[c] = static_cast<double>(p.mean[c]);
            var[c] = static_cast<double>(p.var[c]);
        }
    }
    T* m = col.m.data();
    T* a = col.a.data();
    for (int64_t c = c0; c < c1; ++c) {
        m[c] = static_cast<T>(mean[c]);
        a[c] = static_cast<T>(static_cast<double>(p.scale[c]) / std::sqrt(var[c] + p.eps));
    }
    for (int64_t n = 0; n < p.N; ++n) {
        const T* row = p.x + n * p.C;
        T* out = p.y + n * p.C;
        for (int64_t c = c0; c < c1; ++c) {
            const T v = (row[c] - m[c]) * a[c] + p.bias[c];
            out[c] = floor_clamp(v, p.floor, p.nan_out);
        }
    }
}

// Backward, columns [c0, c1) of an (N, C) problem.
template <typename T>
MSCPU_CLONES void backward_rows(const Problem<T>& p, bool training, Columns<T>& col, int64_t c0, int64_t c1) {
    double* sum_dy = col.s0.data();
    double* sum_q = col.s1.data();
    std::fill(sum_dy + c0, sum_dy + c1, 0.0);
    std::fill(sum_q + c0, sum_q + c1, 0.0);
    for (int64_t n = 0; n < p.N; ++n) {
        const T* xr = p.x + n * p.C;
        const T* gr = p.dy + n * p.C;
        for (int64_t c = c0; c < c1; ++c) {
            const double g = static_cast<double>(gr[c]);
            sum_dy[c] += g;
            sum_q[c] += g * (static_cast<double>(xr[c]) - static_cast<double>(p.mean[c]));
        }
    }
    T* a = col.a.data();
    T* k_x = col.k_x.data();
    T* k_0 = col.k_0.data();
    for (int64_t c = c0; c < c1; ++c) {
        const double rstd = 1.0 / std::sqrt(static_cast<double>(p.var[c]) + p.eps);
        const double dscale = sum_q[c] * rstd;
        p.out1[c] = static_cast<T>(dscale);
        p.out2[c] = static_cast<T>(sum_dy[c]);
        a[c] = static_cast<T>(static_cast<double>(p.scale[c]) * rstd);
        const double a_d = static_cast<double>(a[c]);
        k_x[c] = training ? static_cast<T>(-a_d * rstd * dscale / p.count()) : T(0);
        k_0[c] = training ? static_cast<T>(-a_d * sum_dy[c] / p.count()) : T(0);
    }
    for (int64_t n = 0; n < p.N; ++n) {
        const T* xr = p.x + n * p.C;
        const T* gr = p.dy + n * p.C;
        T* dx = p.y + n * p.C;
        if (!training) {
            for (int64_t c = c0; c < c1; ++c) dx[c] = a[c] * gr[c];
            continue;
        }
        for (int64_t c = c0; c < c1; ++c) dx[c] = a[c] * gr[c] + k_x[c] * (xr[c] - p.mean[c]) + k_0[c];
    }
}

// Values per call below which one thread is faster (scaled by parallel_scale(), common.h). Each pass
// does a few vectorised flops per value, so a second thread must get enough of them to repay handing
// it the work and fetching a share of data that the previous kernel left in the first core's cache.
// Measured on 2 cores: with sleeping threads one thread wins up to 2^19 values and two win by 2x from
// 2^21; with spinning threads (the default, threshold 2^16) two halve the time of every BatchNorm of
// a CIFAR ResNet at batch 32, from 2^17 values up (0.051 -> 0.029 ms, 0.109 -> 0.059 ms for the gradient).
constexpr double kParallelValues = 1 << 18;

// Calls body(c0, c1) on contiguous channel blocks, one per thread when the problem is big enough (block
// edges multiples of `align` channels, except the last).
template <typename F>
void split_channels(int64_t C, int64_t align, double values, F&& body) {
    const int64_t units = ceil_div(C, align);
    if (units < 2 || !worth_parallel(values, kParallelValues)) {
        body(0, C);
        return;
    }
    parallel(max_threads(), [&](int, int) {
        const int64_t teams = team_size(), id = thread_id();
        const int64_t per = ceil_div(units, teams);
        const int64_t b = std::min(C, id * per * align), e = std::min(C, (id + 1) * per * align);
        if (b < e) body(b, e);
    });
}

// Runs the forward (backward when Backward) over the whole problem.
template <bool Backward, typename T>
void run(const Problem<T>& p, bool training) {
    const double values = static_cast<double>(p.N) * static_cast<double>(p.C) * static_cast<double>(p.S);
    if (p.S == 1) {
        Columns<T> col(p.C);
        split_channels(p.C, kColumnAlign, values, [&](int64_t c0, int64_t c1) {
            if constexpr (Backward) backward_rows(p, training, col, c0, c1);
            else forward_rows(p, training, col, c0, c1);
        });
        return;
    }
    split_channels(p.C, 1, values, [&](int64_t c0, int64_t c1) {
        if constexpr (Backward) backward_planes(p, training, c0, c1);
        else forward_planes(p, training, c0, c1);
    });
}

// --- Python entry points --------------------------------------------------------------------------
void check_channels(const std::string& where, std::initializer_list<std::pair<const char*, const py::array*>> arrays,
                    int64_t C) {
    for (const auto& [name, a] : arrays) {
        check_array(where, name, *a, 1);
        if (a->shape(0) != C) {
            fail(where, std::string("'") + name + "' must have one value per channel (" + std::to_string(C) +
                            "), but got shape " + shape_str(*a));
        }
    }
}

template <typename T>
Problem<T> problem_of(const py::array& x, double eps) {
    Problem<T> p{};
    p.N = x.shape(0);
    p.C = x.shape(1);
    p.S = x.shape(2);
    p.x = cptr<T>(x);
    p.eps = eps;
    return p;
}

py::array like(const py::array& a) {
    return py::array(a.dtype(), std::vector<py::ssize_t>(a.shape(), a.shape() + a.ndim()));
}

py::tuple batch_norm_training(const py::array& x, const py::array& scale, const py::array& bias, double epsilon,
                              bool relu) {
    const std::string where = "batch_norm_training";
    check_array(where, "x", x, 3);
    const DType dt = common_float(where, {&x, &scale, &bias});
    check_channels(where, {{"scale", &scale}, {"bias", &bias}}, x.shape(1));
    py::array y = like(x), mean = like(scale), var = like(scale);
    auto go = [&](auto tag) {
        using T = decltype(tag);
        Problem<T> p = problem_of<T>(x, epsilon);
        p.scale = cptr<T>(scale);
        p.bias = cptr<T>(bias);
        p.y = static_cast<T*>(y.mutable_data());
        p.out1 = static_cast<T*>(mean.mutable_data());
        p.out2 = static_cast<T*>(var.mutable_data());
        if (relu) p.floor = p.nan_out = T(0);
        py::gil_scoped_release release;
        run<false>(p, true);
    };
    if (dt == DType::f32) go(float());
    else go(double());
    return py::make_tuple(y, mean, var);
}

py::array batch_norm_inference(const py::array& x, const py::array& scale, const py::array& bias,
                               const py::array& mean, const py::array& var, double epsilon, bool relu) {
    const std::string where = "batch_norm_inference";
    check_array(where, "x", x, 3);
    const DType dt = common_float(where, {&x, &scale, &bias, &mean, &var});
    check_channels(where, {{"scale", &scale}, {"bias", &bias}, {"mean", &mean}, {"variance", &var}}, x.shape(1));
    py::array y = like(x);
    auto go = [&](auto tag) {
        using T = decltype(tag);
        Problem<T> p = problem_of<T>(x, epsilon);
        p.scale = cptr<T>(scale);
        p.bias = cptr<T>(bias);
        p.mean = cptr<T>(mean);
        p.var = cptr<T>(var);
        p.y = static_cast<T*>(y.mutable_data());
        if (relu) p.floor = p.nan_out = T(0);
        py::gil_scoped_release release;
        run<false>(p, false);
    };
    if (dt == DType::f32) go(float());
    else go(double());
    return y;
}

py::tuple batch_norm_grad(const py::array& dy, const py::array& x, const py::array& scale, const py::array& mean,
                          const py::array& var, double epsilon, bool is_training) {
    const std::string where = "batch_norm_grad";
    check_array(where, "dy", dy, 3);
    check_array(where, "x", x, 3);
    const DType dt = common_float(where, {&dy, &x, &scale, &mean, &var});
    for (int i = 0; i < 3; ++i) {
        if (dy.shape(i) != x.shape(i)) fail(where, "'dy' " + shape_str(dy) + " and 'x' " + shape_str(x) + " differ");
    }
    check_channels(where, {{"scale", &scale}, {"mean", &mean}, {"variance", &var}}, x.shape(1));
    py::array dx = like(x), dscale = like(scale), dbias = like(scale);
    auto go = [&](auto tag) {
        using T = decltype(tag);
        Problem<T> p = problem_of<T>(x, epsilon);
        p.dy = cptr<T>(dy);
        p.scale = cptr<T>(scale);
        p.mean = cptr<T>(mean);
        p.var = cptr<T>(var);
        p.y = static_cast<T*>(dx.mutable_data());
        p.out1 = static_cast<T*>(dscale.mutable_data());
        p.out2 = static_cast<T*>(dbias.mutable_data());
        py::gil_scoped_release release;
        run<true>(p, is_training);
    };
    if (dt == DType::f32) go(float());
    else go(double());
    return py::make_tuple(dx, dscale, dbias);
}

#undef MSCPU_CLONES
#undef MSCPU_INLINE

}  // namespace

void register_batchnorm(py::module_& m) {
    using py::arg;
    m.def("batch_norm_training", &batch_norm_training, arg("x"), arg("scale"), arg("bias"), arg("epsilon"),
          arg("relu") = false,
          "BatchNorm of x (N, C, S) with its batch statistics: returns (y, mean, biased variance); relu: y is "
          "max(y, 0).");
    m.def("batch_norm_inference", &batch_norm_inference, arg("x"), arg("scale"), arg("bias"), arg("mean"),
          arg("variance"), arg("epsilon"), arg("relu") = false,
          "BatchNorm of x (N, C, S) with the given statistics: returns y (max(y, 0) with relu).");
    m.def("batch_norm_grad", &batch_norm_grad, arg("dy"), arg("x"), arg("scale"), arg("mean"), arg("variance"),
          arg("epsilon"), arg("is_training"),
          "Gradient of BatchNorm over x (N, C, S) given the statistics it used: returns (dx, dscale, dbias).");
}

}  // namespace mscpu
