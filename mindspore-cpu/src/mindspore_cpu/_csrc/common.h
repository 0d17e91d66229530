// Shared helpers of the C++ kernels: defensive argument checks and small utilities.
//
// The Python side validates shapes with the primitives' rules before calling in, so these checks
// are a second line of defence: they throw std::invalid_argument (a Python ValueError) instead of
// ever reading out of bounds. Nothing here may be called inside an OpenMP region (no exceptions
// may escape one).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace mscpu {

namespace py = pybind11;

using Dims3 = std::array<int64_t, 3>;

// The kernels' team size: set_num_threads() (set_context(runtime_num_threads=...)) when called,
// else OpenMP's default. Every parallel region names it (num_threads(max_threads())), so the setting
// holds for kernels launched from any thread, not only the one that made it (omp_set_num_threads is
// per thread).
inline std::atomic<int>& thread_setting() {
    static std::atomic<int> n{0};
    return n;
}

inline int max_threads() {
#ifdef _OPENMP
    const int n = thread_setting().load(std::memory_order_relaxed);
    return n > 0 ? n : omp_get_max_threads();
#else
    return 1;
#endif
}

// Threads of the current team (1 outside a parallel region or in a serialised one).
inline int team_size() {
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

// Work below which a kernel runs on one thread. mindspore-cpu loads this extension with libgomp's
// passive wait policy (kernels/_native.py): idle OpenMP threads sleep instead of spinning, because
// spinning threads and NumPy's OpenBLAS threads (which spin after every matmul) starve each other
// on small machines, turning sub-millisecond ops into multi-millisecond stalls. Waking a sleeping
// team costs up to a few hundred microseconds, so only work worth more than that is split.
constexpr double kParallelFlops = 2.0e7;   // GEMM multiply-adds (a few hundred microseconds)
constexpr double kParallelVisits = 3.0e5;  // element visits of the pooling / loss loops

inline bool worth_parallel(double work, double threshold) { return work >= threshold && max_threads() > 1; }

inline int thread_id() {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

[[noreturn]] inline void fail(const std::string& where, const std::string& what) {
    throw std::invalid_argument(where + ": " + what);
}

inline std::string shape_str(const py::array& a) {
    std::string s = "(";
    for (py::ssize_t i = 0; i < a.ndim(); ++i) {
        if (i) s += ", ";
        s += std::to_string(a.shape(i));
    }
    if (a.ndim() == 1) s += ",";
    return s + ")";
}

enum class DType { f32, f64, i32, i64, other };

// By type number and byte order, not by identity: equal dtypes need not be the same object (an
// unpickled or file-loaded array carries its own descriptor).
inline DType dtype_of(const py::array& a) {
    const py::dtype dt = a.dtype();
    const char order = dt.byteorder();
    const char host = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? '<' : '>';
    const bool native = order == '=' || order == '|' || order == host;
    if (!native) return DType::other;
    const int num = dt.num();
    if (num == py::dtype::of<float>().num()) return DType::f32;
    if (num == py::dtype::of<double>().num()) return DType::f64;
    if (num == py::dtype::of<int32_t>().num()) return DType::i32;
    if (num == py::dtype::of<int64_t>().num()) return DType::i64;
    return DType::other;
}

// A C-contiguous array of rank ``ndim`` (any rank when ndim < 0), or a ValueError naming the argument.
inline void check_array(const std::string& where, const char* name, const py::array& a, int ndim) {
    if (ndim >= 0 && a.ndim() != ndim) {
        fail(where, std::string("'") + name + "' must be a " + std::to_string(ndim) + "-D array, but got shape " +
                        shape_str(a));
    }
    if (!(a.flags() & py::array::c_style)) {
        fail(where, std::string("'") + name + "' must be C-contiguous");
    }
}

// The floating dtype shared by all ``arrays`` (float32 or float64), or a ValueError.
inline DType common_float(const std::string& where, std::initializer_list<const py::array*> arrays) {
    DType d = DType::other;
    for (const py::array* a : arrays) {
        const DType t = dtype_of(*a);
        if (t != DType::f32 && t != DType::f64) {
            fail(where, "only float32 and float64 arrays are supported, but got " +
                            std::string(py::str(a->dtype())));
        }
        if (d != DType::other && t != d) fail(where, "all floating inputs must have the same dtype");
        d = t;
    }
    return d;
}

template <typename T>
inline const T* cptr(const py::array& a) {
    return static_cast<const T*>(a.data());
}

template <typename T>
inline py::array_t<T> empty(const std::vector<int64_t>& shape) {
    std::vector<py::ssize_t> s(shape.begin(), shape.end());
    return py::array_t<T>(s);
}

template <typename T>
inline T* mptr(py::array_t<T>& a) {
    return static_cast<T*>(a.mutable_data());
}

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

inline void check_positive(const std::string& where, const char* name, const Dims3& v, int64_t min_value = 1) {
    for (int64_t x : v) {
        if (x < min_value) {
            fail(where, std::string("'") + name + "' must be >= " + std::to_string(min_value) + ", but got " +
                            std::to_string(x));
        }
    }
}

}  // namespace mscpu
