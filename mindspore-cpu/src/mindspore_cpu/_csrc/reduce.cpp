// float32 ReduceSum / ReduceMean in the orders of MindSpore 2.10's CPU kernel (reduce_cpu_kernel.cc), bit for bit.
// The caller (mindspore_cpu/kernels/reduce.py) brings the input into one of four 2-D layouts:
//
//   sum_lanes_f32(x, mean)       a 2-D input over axis 1: nnacl's ReduceSumDim2Axis1 per row (ordered_sums.h);
//   sum_columns_f32(x)           ReduceSum whose first reduced axis is 0 and whose other reduced axes have size 1:
//                                nnacl's ReduceSumDim2Axis0, each column added in order in float from 0;
//   sum_rows_f64(x, mean)        everything else, reduced values last: each row added in order to a double;
//   sum_columns_f64(x, mean)     the same with the reduced values first: each column added in order to a double.
//
// A mean divides the float sum by float(n). Rows (columns) are split among the team.
//
// No multiply-add may be fused unless written as one (FMA would change the bits): GCC contracts by default.
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#include <algorithm>
#include <vector>

#include "common.h"
#include "ordered_sums.h"

namespace mscpu {
namespace {

// The work of one value added, in common.h's visits: a sum is memory-bound (a second thread gains little below
// a few hundred thousand values, less than waking it costs on a busy machine).
constexpr double kSumWork = 0.25;

template <typename F>
void over(int64_t count, double work, F&& body) {
    if (!worth_parallel(work, kParallelVisits) || count < 2) {
        body(0, count);
        return;
    }
    parallel(max_threads(), [&](int tid, int nt) {
        int64_t lo, hi;
        static_range(count, tid, nt, lo, hi);
        if (lo < hi) body(lo, hi);
    });
}

const float* checked_2d(const std::string& where, const py::array& x) {
    check_array(where, "x", x, 2);
    if (dtype_of(x) != DType::f32) fail(where, "'x' must be float32");
    return cptr<float>(x);
}

py::array sum_lanes_f32(const py::array& x, bool mean) {
    const float* p = checked_2d("sum_lanes_f32", x);
    const int64_t rows = x.shape(0), n = x.shape(1);
    py::array_t<float> out(static_cast<py::ssize_t>(rows));
    float* o = mptr(out);
    const float div = static_cast<float>(n);
    py::gil_scoped_release release;
    over(rows, kSumWork * rows * n, [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            const float s = ordered::lane8_sum(p + r * n, n);
            o[r] = mean ? s / div : s;
        }
    });
    return std::move(out);
}

__attribute__((target_clones("avx2", "default")))
void add_rows_f32(const float* p, int64_t rows, int64_t cols, int64_t c0, int64_t c1, float* o) {
    std::fill(o + c0, o + c1, 0.0f);
    for (int64_t k = 0; k < rows; ++k) {
        const float* row = p + k * cols;
        for (int64_t c = c0; c < c1; ++c) o[c] += row[c];
    }
}

py::array sum_columns_f32(const py::array& x) {
    const float* p = checked_2d("sum_columns_f32", x);
    const int64_t rows = x.shape(0), cols = x.shape(1);
    py::array_t<float> out(static_cast<py::ssize_t>(cols));
    float* o = mptr(out);
    py::gil_scoped_release release;
    over(ceil_div(cols, 16), kSumWork * rows * cols, [&](int64_t b0, int64_t b1) {
        add_rows_f32(p, rows, cols, b0 * 16, std::min(cols, b1 * 16), o);
    });
    return std::move(out);
}

py::array sum_rows_f64(const py::array& x, bool mean) {
    const float* p = checked_2d("sum_rows_f64", x);
    const int64_t rows = x.shape(0), n = x.shape(1);
    py::array_t<float> out(static_cast<py::ssize_t>(rows));
    float* o = mptr(out);
    const float div = static_cast<float>(n);
    py::gil_scoped_release release;
    over(rows, kSumWork * rows * n, [&](int64_t r0, int64_t r1) {
        ordered::double_sums(p + r0 * n, n, r1 - r0, o + r0);
        if (mean) {
            for (int64_t r = r0; r < r1; ++r) o[r] = o[r] / div;
        }
    });
    return std::move(out);
}

void add_rows_f64(const float* p, int64_t rows, int64_t cols, int64_t c0, int64_t c1, double* acc) {
    std::fill(acc, acc + (c1 - c0), 0.0);
    for (int64_t k = 0; k < rows; ++k) {
        const float* row = p + k * cols + c0;
        for (int64_t c = 0; c < c1 - c0; ++c) acc[c] += row[c];
    }
}

#if MSCPU_ORDERED_X86
// add_rows_f64 for 32 columns [c0, c0 + 32) with their double sums in registers (8 x 4), rows in order.
__attribute__((target("avx2"))) void add_rows_f64_32(const float* p, int64_t rows, int64_t cols, int64_t c0,
                                                     double* acc) {
    __m256d a[8];
    for (int i = 0; i < 8; ++i) a[i] = _mm256_setzero_pd();
    for (int64_t k = 0; k < rows; ++k) {
        const float* row = p + k * cols + c0;
        for (int i = 0; i < 8; ++i) a[i] = _mm256_add_pd(a[i], _mm256_cvtps_pd(_mm_loadu_ps(row + 4 * i)));
    }
    for (int i = 0; i < 8; ++i) _mm256_storeu_pd(acc + 4 * i, a[i]);
}
#endif

py::array sum_columns_f64(const py::array& x, bool mean) {
    const float* p = checked_2d("sum_columns_f64", x);
    const int64_t rows = x.shape(0), cols = x.shape(1);
    py::array_t<float> out(static_cast<py::ssize_t>(cols));
    float* o = mptr(out);
    const float div = static_cast<float>(rows);
    py::gil_scoped_release release;
    over(ceil_div(cols, 16), kSumWork * rows * cols, [&](int64_t b0, int64_t b1) {
        constexpr int64_t kBlock = 512;   // columns per pass: the double accumulators stay in L1
        double acc[kBlock];
        for (int64_t c0 = b0 * 16, c1 = std::min(cols, b1 * 16); c0 < c1; c0 += kBlock) {
            const int64_t e = std::min(c1, c0 + kBlock);
            int64_t c = c0;
#if MSCPU_ORDERED_X86
            if (ordered::has_avx2()) {
                for (; c + 32 <= e; c += 32) add_rows_f64_32(p, rows, cols, c, acc + (c - c0));
            }
#endif
            if (c < e) add_rows_f64(p, rows, cols, c, e, acc + (c - c0));
            for (int64_t k = c0; k < e; ++k) {
                const float s = static_cast<float>(acc[k - c0]);
                o[k] = mean ? s / div : s;
            }
        }
    });
    return std::move(out);
}

}  // namespace

void register_reduce(py::module_& m) {
    using py::arg;
    m.def("sum_lanes_f32", &sum_lanes_f32, arg("x"), arg("mean"),
          "Row sums (means) of a 2-D float32 array in nnacl's ReduceSumDim2Axis1 order (MindSpore 2.10).");
    m.def("sum_columns_f32", &sum_columns_f32, arg("x"),
          "Column sums of a 2-D float32 array, each added in order in float32 from 0 (2.10's ReduceSumDim2Axis0).");
    m.def("sum_rows_f64", &sum_rows_f64, arg("x"), arg("mean"),
          "Row sums (means) of a 2-D float32 array, each added in order to a double and rounded once (2.10).");
    m.def("sum_columns_f64", &sum_columns_f64, arg("x"), arg("mean"),
          "Column sums (means) of a 2-D float32 array, each added in order to a double and rounded once (2.10).");
}

}  // namespace mscpu
