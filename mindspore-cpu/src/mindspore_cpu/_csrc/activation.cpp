// GELU (tanh approximation, MindSpore's GeLU primitive) and its derivative, and ReLU's derivative
// (ReluGrad), float32 and float64.
//
//   u = k (x + c x^3),  t = tanh(u),  k = sqrt(2/pi),  c = 0.044715
//   gelu(x)   = 0.5 x (1 + t)
//   gelu'(x)  = 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3 c x^2)
//
// One pass over the data with no temporaries (NumPy needs eight array-sized ones); float32 evaluates
// tanh with a rational approximation (within 4e-7) so that the loop vectorises. ``gelu`` takes an
// optional bias added along the last axis first (a Dense layer's bias-add fused with its activation)
// and an optional output array (which may be the input: the computation is elementwise). Elements are
// split across OpenMP threads above a size worth waking them for.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "common.h"

namespace mscpu {
namespace {

constexpr double kGeluK = 0.7978845608028654;  // sqrt(2 / pi)
constexpr double kGeluC = 0.044715;

// float32 tanh as a rational function of x (odd numerator of degree 13, even denominator of degree 6),
// clamped where tanh rounds to +-1: within 4e-7 of tanh everywhere, and free of libm calls, so the
// loops below vectorise. float64 uses std::tanh.
inline float tanh_f32(float v) {
    const float hi = 7.99881172180175781f;
    const float x = v > hi ? hi : (v < -hi ? -hi : v);
    const float x2 = x * x;
    float p = -2.76076847742355e-16f;
    p = p * x2 + 2.00018790482477e-13f;
    p = p * x2 + -8.60467152213735e-11f;
    p = p * x2 + 5.12229709037114e-08f;
    p = p * x2 + 1.48572235717979e-05f;
    p = p * x2 + 6.37261928875436e-04f;
    p = p * x2 + 4.89352455891786e-03f;
    float q = 1.19825839466702e-06f;
    q = q * x2 + 1.18534705686654e-04f;
    q = q * x2 + 2.26843463243900e-03f;
    q = q * x2 + 4.89352518554385e-03f;
    const float t = x * p / q;
    return v >= hi ? 1.0f : (v <= -hi ? -1.0f : t);   // exactly +-1 beyond, as tanh rounds there
}

inline double tanh_of(double x) { return std::tanh(x); }
inline float tanh_of(float x) { return tanh_f32(x); }

template <typename T>
inline T gelu_value(T x) {
    const T k = static_cast<T>(kGeluK), c = static_cast<T>(kGeluC);
    return T(0.5) * x * (T(1) + tanh_of(k * (x + c * x * x * x)));
}

template <typename T>
inline T gelu_slope(T x) {
    const T k = static_cast<T>(kGeluK), c = static_cast<T>(kGeluC);
    const T x2 = x * x;
    const T t = tanh_of(k * x * (T(1) + c * x2));
    return T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * k * (T(1) + T(3) * c * x2);
}

// The inner loops, compiled for AVX-512, AVX2 and the baseline, picked at run time (like the GEMM).
__attribute__((target_clones("avx512f", "avx2", "default")))
void gelu_rows_f32(const float* __restrict x, const float* __restrict bias, int64_t cols, float* y, int64_t row0,
                   int64_t row1) {
    for (int64_t r = row0; r < row1; ++r) {
        const float* xr = x + r * cols;
        float* yr = y + r * cols;
        if (bias) {
            for (int64_t j = 0; j < cols; ++j) yr[j] = gelu_value(xr[j] + bias[j]);
        } else {
            for (int64_t j = 0; j < cols; ++j) yr[j] = gelu_value(xr[j]);
        }
    }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void gelu_grad_span_f32(const float* __restrict dy, const float* __restrict x, float* __restrict dx, int64_t begin,
                        int64_t end) {
    for (int64_t i = begin; i < end; ++i) dx[i] = dy[i] * gelu_slope(x[i]);
}

void gelu_rows_f64(const double* x, const double* bias, int64_t cols, double* y, int64_t row0, int64_t row1) {
    for (int64_t r = row0; r < row1; ++r) {
        for (int64_t j = 0; j < cols; ++j) {
            y[r * cols + j] = gelu_value(x[r * cols + j] + (bias ? bias[j] : 0.0));
        }
    }
}

void gelu_grad_span_f64(const double* dy, const double* x, double* dx, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) dx[i] = dy[i] * gelu_slope(x[i]);
}

// Splits [0, n) into one contiguous span per thread when the work is worth it.
template <typename F>
void split(int64_t n, double work, F&& body) {
    if (!worth_parallel(work, kParallelVisits)) {
        body(0, n);
        return;
    }
    parallel(max_threads(), [&](int, int) {
        const int64_t teams = team_size(), id = thread_id();
        const int64_t chunk = ceil_div(n, teams);
        const int64_t b = std::min(n, id * chunk), e = std::min(n, b + chunk);
        if (b < e) body(b, e);
    });
}

template <typename T>
void gelu_loop(const T* x, const T* bias, int64_t cols, T* y, int64_t n) {
    const int64_t rows = cols ? n / cols : 0;
    split(rows, 20.0 * n, [&](int64_t r0, int64_t r1) {
        if constexpr (std::is_same_v<T, float>) gelu_rows_f32(x, bias, cols, y, r0, r1);
        else gelu_rows_f64(x, bias, cols, y, r0, r1);
    });
}

template <typename T>
void gelu_grad_loop(const T* dy, const T* x, T* dx, int64_t n) {
    split(n, 25.0 * n, [&](int64_t b, int64_t e) {
        if constexpr (std::is_same_v<T, float>) gelu_grad_span_f32(dy, x, dx, b, e);
        else gelu_grad_span_f64(dy, x, dx, b, e);
    });
}

py::array gelu(const py::array& x, const py::object& bias, const py::object& out) {
    const std::string where = "gelu";
    check_array(where, "x", x, -1);
    const DType dt = common_float(where, {&x});
    py::array b;
    int64_t channels = 1;
    if (!bias.is_none()) {
        b = py::reinterpret_borrow<py::array>(bias);
        check_array(where, "bias", b, 1);
        if (common_float(where, {&x, &b}) != dt || x.ndim() < 1 || b.shape(0) != x.shape(x.ndim() - 1)) {
            fail(where, "the bias must have the size of the last axis of 'x', but got bias " + shape_str(b) +
                            " for x " + shape_str(x));
        }
        channels = b.shape(0);
    }
    py::array y;
    if (out.is_none()) {
        y = py::array(x.dtype(), std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    } else {
        y = py::reinterpret_borrow<py::array>(out);
        check_array(where, "out", y, static_cast<int>(x.ndim()));
        if (!y.dtype().is(x.dtype()) || y.size() != x.size() || !y.writeable()) {
            fail(where, "'out' must be a writeable array of the shape and dtype of 'x'");
        }
    }
    const int64_t n = x.size();
    const int64_t cols = bias.is_none() ? (x.ndim() ? x.shape(x.ndim() - 1) : 1) : channels;
    py::gil_scoped_release release;
    if (n == 0) return y;
    if (dt == DType::f32) {
        gelu_loop(cptr<float>(x), bias.is_none() ? nullptr : cptr<float>(b), cols,
                  static_cast<float*>(y.mutable_data()), n);
    } else {
        gelu_loop(cptr<double>(x), bias.is_none() ? nullptr : cptr<double>(b), cols,
                  static_cast<double*>(y.mutable_data()), n);
    }
    return y;
}

py::array gelu_grad(const py::array& dy, const py::array& x) {
    const std::string where = "gelu_grad";
    check_array(where, "dy", dy, -1);
    check_array(where, "x", x, -1);
    const DType dt = common_float(where, {&dy, &x});
    if (dy.size() != x.size()) fail(where, "'dy' " + shape_str(dy) + " and 'x' " + shape_str(x) + " differ");
    py::array dx(x.dtype(), std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    const int64_t n = x.size();
    py::gil_scoped_release release;
    if (dt == DType::f32) {
        gelu_grad_loop(cptr<float>(dy), cptr<float>(x), static_cast<float*>(dx.mutable_data()), n);
    } else {
        gelu_grad_loop(cptr<double>(dy), cptr<double>(x), static_cast<double*>(dx.mutable_data()), n);
    }
    return dx;
}

// ReluGrad: dx = y > 0 ? dy : 0, with y the ReLU's output (or input: same sign). A select, as
// MindSpore's and PyTorch's kernels compute it: a NaN or infinite dy where y <= 0 gives 0. Branch-free
// so that it vectorises; ``out`` may be dy itself.
template <typename T>
void relu_grad_span(const T* dy, const T* y, T* dx, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) dx[i] = y[i] > T(0) ? dy[i] : T(0);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void relu_grad_span_f32(const float* dy, const float* y, float* dx, int64_t begin, int64_t end) {
    relu_grad_span(dy, y, dx, begin, end);
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void relu_grad_span_f64(const double* dy, const double* y, double* dx, int64_t begin, int64_t end) {
    relu_grad_span(dy, y, dx, begin, end);
}

// The 16-bit floats (float16, bfloat16) on their bits: y > 0 exactly when y lies in [1, +inf's bits] (the sign
// clear, not zero, not NaN), so the select needs no conversion.
__attribute__((target_clones("avx512f", "avx2", "default")))
void relu_grad_span_u16(const uint16_t* dy, const uint16_t* y, uint16_t* dx, uint16_t inf, int64_t begin,
                        int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
        dx[i] = static_cast<uint16_t>(y[i] - 1u) < inf ? dy[i] : static_cast<uint16_t>(0);
    }
}

py::array relu_grad16(const py::array& dy, const py::array& y, const std::string& kind) {
    const std::string where = "relu_grad16";
    check_array(where, "dy", dy, -1);
    check_array(where, "y", y, -1);
    if (dy.itemsize() != 2 || y.itemsize() != 2 || !dy.dtype().is(y.dtype())) {
        fail(where, "'dy' and 'y' must be 16-bit floats of one dtype");
    }
    if (kind != "float16" && kind != "bfloat16") fail(where, "'kind' must be 'float16' or 'bfloat16'");
    if (dy.size() != y.size()) fail(where, "'dy' " + shape_str(dy) + " and 'y' " + shape_str(y) + " differ");
    const uint16_t inf = kind == "float16" ? 0x7c00u : 0x7f80u;
    py::array dx(dy.dtype(), std::vector<py::ssize_t>(dy.shape(), dy.shape() + dy.ndim()));
    const int64_t n = dy.size();
    const auto* pdy = static_cast<const uint16_t*>(dy.data());
    const auto* py_ = static_cast<const uint16_t*>(y.data());
    auto* pdx = static_cast<uint16_t*>(dx.mutable_data());
    py::gil_scoped_release release;
    split(n, 2.0 * n, [&](int64_t b, int64_t e) { relu_grad_span_u16(pdy, py_, pdx, inf, b, e); });
    return dx;
}

py::array relu_grad(const py::array& dy, const py::array& y, const py::object& out) {
    const std::string where = "relu_grad";
    check_array(where, "dy", dy, -1);
    check_array(where, "y", y, -1);
    const DType dt = common_float(where, {&dy, &y});
    if (dy.size() != y.size()) fail(where, "'dy' " + shape_str(dy) + " and 'y' " + shape_str(y) + " differ");
    py::array dx;
    if (out.is_none()) {
        dx = py::array(dy.dtype(), std::vector<py::ssize_t>(dy.shape(), dy.shape() + dy.ndim()));
    } else {
        dx = py::reinterpret_borrow<py::array>(out);
        check_array(where, "out", dx, -1);
        if (!dx.dtype().is(dy.dtype()) || dx.size() != dy.size() || !dx.writeable()) {
            fail(where, "'out' must be a writeable array of the size and dtype of 'dy'");
        }
    }
    const int64_t n = dy.size();
    py::gil_scoped_release release;
    split(n, 2.0 * n, [&](int64_t b, int64_t e) {
        if (dt == DType::f32) {
            relu_grad_span_f32(cptr<float>(dy), cptr<float>(y), static_cast<float*>(dx.mutable_data()), b, e);
        } else {
            relu_grad_span_f64(cptr<double>(dy), cptr<double>(y), static_cast<double*>(dx.mutable_data()), b, e);
        }
    });
    return dx;
}

}  // namespace

void register_activation(py::module_& m) {
    using py::arg;
    m.def("gelu", &gelu, arg("x"), arg("bias") = py::none(), arg("out") = py::none(),
          "GELU (tanh approximation) of x (+ bias along the last axis), into 'out' when given.");
    m.def("gelu_grad", &gelu_grad, arg("dy"), arg("x"), "dy * GELU'(x) (tanh approximation).");
    m.def("relu_grad", &relu_grad, arg("dy"), arg("y"), arg("out") = py::none(),
          "y > 0 ? dy : 0 (ReLU's gradient from its output y), into 'out' when given (it may be dy).");
    m.def("relu_grad16", &relu_grad16, arg("dy"), arg("y"), arg("kind"),
          "relu_grad of 16-bit floats ('float16' or 'bfloat16' bits), computed on the bits.");
}

}  // namespace mscpu
