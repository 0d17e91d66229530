// Shared helpers of the C++ kernels: defensive argument checks and small utilities.
//
// The Python side validates shapes with the primitives' rules before calling in, so these checks
// are a second line of defence: they throw std::invalid_argument (a Python ValueError) instead of
// ever reading out of bounds. Nothing here may be called inside parallel() (team.h: no exception may
// escape a team's task).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "team.h"

namespace mscpu {

namespace py = pybind11;

using Dims3 = std::array<int64_t, 3>;

// The kernels' team size: set_num_threads() (set_context(runtime_num_threads=...)) when called, else
// OpenMP's default (OMP_NUM_THREADS, or the cores this process may run on). Every parallel() names it,
// so the setting holds for kernels launched from any thread, not only the one that made it.
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

// Work below which a kernel runs on one thread (scaled by parallel_scale()). Splitting pays only when
// the second thread's share outweighs handing it the work: a few microseconds when the idle worker is
// still awake, tens to hundreds when it sleeps and must be woken (more in a virtual machine). The
// team's workers stay awake MS_CPU_SPIN_US (default 100) microseconds after each task (team.h), longer
// than the gaps between a network's kernels, so the thresholds are a quarter of those for sleeping
// workers (LeNet's batch-32 convolutions then split: its training step went from 0.98 to 0.71 ms on 2
// cores when libgomp's threads spun as long); with MS_CPU_SPIN_US under 50 they are whole.
constexpr double kParallelFlops = 2.0e7;   // GEMM multiply-adds (a few hundred microseconds)
constexpr double kParallelVisits = 3.0e5;  // element visits of the pooling / loss loops

// 1/4 while the team's idle workers stay awake between kernels, 1 when they sleep (team::spinning()).
inline double parallel_scale() { return team::spinning() ? 0.25 : 1.0; }

inline bool worth_parallel(double work, double threshold) {
    return work >= threshold * parallel_scale() && max_threads() > 1;
}

// body(lo, hi) over [0, n) in chunks of `chunk` values, whole chunks split among the kernels' team when `work` (element
// visits) is worth waking it for: each value is computed by one thread, in the same order whatever the thread count
// (a chunk a multiple of a kernel's vector width keeps every value on the path it takes in one sequential pass).
template <typename F>
void over_chunks(int64_t n, int64_t chunk, double work, F&& body) {
    const int64_t chunks = (n + chunk - 1) / chunk;
    if (chunks < 2 || !worth_parallel(work, kParallelVisits)) {
        if (n > 0) body(int64_t{0}, n);
        return;
    }
    parallel(max_threads(), [&](int tid, int nt) {
        int64_t c0, c1;
        static_range(chunks, tid, nt, c0, c1);
        const int64_t lo = c0 * chunk, hi = n < c1 * chunk ? n : c1 * chunk;
        if (lo < hi) body(lo, hi);
    });
}

[[noreturn]] inline void fail(const std::string& where, const std::string& what) {
    throw std::invalid_argument(where + ": " + what);
}

// The clamp of a fused ReLU epilogue, branch-free (compiles to compares and blends): values above `lo`
// pass, the others become `lo`, and NaN becomes `nan_out`. With lo = 0, nan_out = 0 it is MindSpore's
// ReLU (ReLU(NaN) = 0); with lo = -inf, nan_out = NaN it changes nothing (no ReLU to fuse).
template <typename T>
inline T floor_clamp(T v, T lo, T nan_out) {
    return v > lo ? v : (v != v ? nan_out : lo);
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

// A new float32 or float64 array (dt) of `shape`, written by fill(T* data) with the GIL released: the
// one place the bindings branch on the float type. fill is generic, e.g.
//   [&](auto* y) { using T = element_of<decltype(y)>; kernel<T>(cptr<T>(x), y, n); }
template <typename P>
using element_of = std::remove_pointer_t<P>;

template <typename F>
py::array new_float_array(DType dt, const std::vector<int64_t>& shape, F&& fill) {
    auto make = [&](auto* tag) -> py::array {
        using T = element_of<decltype(tag)>;
        auto out = empty<T>(shape);
        T* data = mptr(out);
        {
            py::gil_scoped_release release;
            fill(data);
        }
        return std::move(out);
    };
    if (dt == DType::f32) return make(static_cast<float*>(nullptr));
    return make(static_cast<double*>(nullptr));
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
