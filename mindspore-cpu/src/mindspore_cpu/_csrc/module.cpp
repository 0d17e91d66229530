// The pybind11 module of the CPU backend's C++ kernels. Each kernel family registers its
// functions from its own file through a register_<family>(py::module_&) function.
#include <pybind11/pybind11.h>
#include <omp.h>

namespace py = pybind11;

namespace mscpu {
void register_conv(py::module_& m);
void register_pool(py::module_& m);
void register_loss(py::module_& m);
void register_activation(py::module_& m);
void register_matmul(py::module_& m);
void register_batchnorm(py::module_& m);
}  // namespace mscpu

PYBIND11_MODULE(_kernels, m) {
    m.doc() = "C++ kernels of mindspore-cpu (matrix products, convolution, pooling, fused losses, activations, "
              "batch normalisation)";
    m.def("num_threads", []() { return omp_get_max_threads(); }, "OpenMP threads the kernels use");
    mscpu::register_conv(m);
    mscpu::register_pool(m);
    mscpu::register_loss(m);
    mscpu::register_activation(m);
    mscpu::register_matmul(m);
    mscpu::register_batchnorm(m);
}
