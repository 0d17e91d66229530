// The pybind11 module of the CPU backend's C++ kernels. Each kernel family registers its
// functions from its own file through a register_<family>(py::module_&) function.
#include <pybind11/pybind11.h>
#include <omp.h>

#include <stdexcept>
#include <string>

#include "common.h"

namespace py = pybind11;

namespace mscpu {
void register_conv(py::module_& m);
void register_pool(py::module_& m);
void register_loss(py::module_& m);
void register_activation(py::module_& m);
void register_matmul(py::module_& m);
void register_batchnorm(py::module_& m);
void register_optim(py::module_& m);
void register_winograd(py::module_& m);
void register_halfcast(py::module_& m);
void register_linalg(py::module_& m);
void register_softmax(py::module_& m);
void register_layer_norm(py::module_& m);
void register_reduce(py::module_& m);
void register_philox_fill(py::module_& m);
void register_log_softmax(py::module_& m);
void register_libm_unary(py::module_& m);
void register_shuffle(py::module_& m);
void register_log_f32(py::module_& m);
void register_activation_nnacl(py::module_& m);
}  // namespace mscpu

PYBIND11_MODULE(_kernels, m) {
    m.doc() = "C++ kernels of mindspore-cpu (matrix products, convolution, pooling, fused losses, activations, "
              "batch normalisation, optimizer updates, float16/bfloat16 conversions, matrix inverse, float32 Softmax, "
              "LogSoftmax, LayerNormGrad and sums in MindSpore 2.10's orders, 2.10's random fills of initial weights)";
    m.def("num_threads", []() { return mscpu::max_threads(); }, "threads the kernels use (their team, team.h)");
    m.def(
        "set_num_threads",
        [](int n) {
            if (n < 1) throw std::invalid_argument("set_num_threads: n must be >= 1, but got " + std::to_string(n));
            mscpu::thread_setting().store(n);
        },
        py::arg("n"), "Use n threads in every kernel, whichever thread launches it.");
    mscpu::register_conv(m);
    mscpu::register_pool(m);
    mscpu::register_loss(m);
    mscpu::register_activation(m);
    mscpu::register_matmul(m);
    mscpu::register_batchnorm(m);
    mscpu::register_optim(m);
    mscpu::register_winograd(m);
    mscpu::register_halfcast(m);
    mscpu::register_linalg(m);
    mscpu::register_softmax(m);
    mscpu::register_layer_norm(m);
    mscpu::register_reduce(m);
    mscpu::register_philox_fill(m);
    mscpu::register_log_softmax(m);
    mscpu::register_libm_unary(m);
    mscpu::register_shuffle(m);
    mscpu::register_log_f32(m);
    mscpu::register_activation_nnacl(m);
}
