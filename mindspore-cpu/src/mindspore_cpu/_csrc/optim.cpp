// Optimizer updates in one pass over their tensors, in place.
//
//   apply_momentum(variable, accumulation, lr, gradient, momentum, use_nesterov, gradient_scale)
//       a = a * momentum + g * gradient_scale
//       v -= lr * a                                   (use_nesterov = false)
//       v -= g * lr + a * momentum * lr               (use_nesterov = true)
//
// in the variable's dtype and in that order of operations, so the results are those of the
// separate NumPy operations (the same roundings; no fused multiply-add: this file is built for the
// baseline instruction set). Large tensors are split across the kernels' thread team (team.h).
#include "common.h"

namespace mscpu {
namespace {

constexpr double kParallelElements = 2.0e5;   // memory-bound: below this one thread is as fast

template <typename T>
void momentum(T* v, T* a, const T* g, int64_t n, T lr, T mu, T scale, bool nesterov) {
    const bool scaled = scale != T(1);
    parallel_for(n, worth_parallel(static_cast<double>(n), kParallelElements), max_threads(), [&](int64_t i) {
        const T gi = scaled ? g[i] * scale : g[i];
        const T ai = a[i] * mu + gi;
        a[i] = ai;
        v[i] = nesterov ? v[i] - (gi * lr + ai * mu * lr) : v[i] - ai * lr;
    });
}

void apply_momentum(py::array& variable, py::array& accumulation, double lr, const py::array& gradient,
                    double mu, bool nesterov, double gradient_scale) {
    const std::string where = "apply_momentum";
    check_array(where, "variable", variable, -1);
    check_array(where, "accumulation", accumulation, -1);
    check_array(where, "gradient", gradient, -1);
    const DType dt = common_float(where, {&variable, &accumulation, &gradient});
    if (accumulation.size() != variable.size() || gradient.size() != variable.size()) {
        fail(where, "variable " + shape_str(variable) + ", accumulation " + shape_str(accumulation) +
                        " and gradient " + shape_str(gradient) + " must have the same size");
    }
    if (!variable.writeable() || !accumulation.writeable()) fail(where, "variable and accumulation must be writeable");
    const int64_t n = variable.size();
    if (dt == DType::f32) {
        float* v = static_cast<float*>(variable.mutable_data());
        float* a = static_cast<float*>(accumulation.mutable_data());
        const float* g = cptr<float>(gradient);
        py::gil_scoped_release release;
        momentum<float>(v, a, g, n, static_cast<float>(lr), static_cast<float>(mu), static_cast<float>(gradient_scale),
                        nesterov);
        return;
    }
    double* v = static_cast<double*>(variable.mutable_data());
    double* a = static_cast<double*>(accumulation.mutable_data());
    const double* g = cptr<double>(gradient);
    py::gil_scoped_release release;
    momentum<double>(v, a, g, n, lr, mu, gradient_scale, nesterov);
}

}  // namespace

void register_optim(py::module_& m) {
    using py::arg;
    m.def("apply_momentum", &apply_momentum, arg("variable"), arg("accumulation"), arg("lr"), arg("gradient"),
          arg("momentum"), arg("use_nesterov") = false, arg("gradient_scale") = 1.0,
          "ApplyMomentum in place on C-contiguous float32/float64 arrays of one dtype (lr and momentum are "
          "rounded to that dtype first).");
}

}  // namespace mscpu
