// MatrixInverse by LU decomposition with complete pivoting, MindSpore's CPU semantics.
//
//   matrix_inverse(x, adjoint) -> (inverse, rank)   x: (..., n, n) C-contiguous float32/float64/complex64/complex128;
//                                                   rank: int64 (...), each matrix's rank as the kernel counts it
//
// MindSpore 2.10's CPU kernel maps each row-major matrix as a column-major one (so it factors the transpose,
// or for adjoint=True the conjugate) with complete pivoting and writes the inverse back through the same
// map. A matrix that is not invertible is not an error there: the decomposition stops at the first zero
// corner, the rank counts the pivots above |largest pivot| * epsilon * n, and the solve of each unit column
// keeps the components of that many pivots and sets the others to zero. So [[1, 2], [2, 4]] gives
// [[0, 0], [0, 0.25]], a matrix holding NaN or infinity gives zeros, and a float32 pivot below 2.4e-7 of the
// largest (n = 2) counts as zero. This file does the same steps in the same order:
//
//   1. w = the matrix as a column-major array (the input's bytes; the conjugate transpose for adjoint);
//   2. for k = 0..n-1: the largest |w(i, j)| over i, j >= k (first in column-major order on ties; NaN never
//      wins, a NaN at (k, k) is kept), stop when it is 0; swap rows and columns to bring it to (k, k); divide
//      column k below the pivot by it; subtract the outer product from the trailing block;
//   3. rank = #{i : |w(i, i)| > max pivot * epsilon * n};
//   4. each column of the row-permuted identity: forward substitution with the unit-lower factor, back
//      substitution with the upper factor's top-left rank x rank block (multiplying by the pivot's
//      reciprocal), the first rank components moved to their columns' places, the others zero;
//   5. the result written column-major (so row-major, it is the transpose of the solution: the inverse).
//
// Batches are split across the thread team; a lone large matrix splits its trailing updates and its columns.
#include <complex>
#include <limits>
#include <numeric>

#include "common.h"

namespace mscpu {
namespace {

constexpr double kParallelWork = 2.0e6;   // multiply-adds of a batch or a solve below which one thread does them
constexpr double kParallelStep = 2.0e5;   // of one elimination step's trailing update

template <typename T>
struct Real {
    using type = T;
};
template <typename T>
struct Real<std::complex<T>> {
    using type = T;
};

template <typename T>
inline T conj_of(T v) {
    return v;
}
template <typename T>
inline std::complex<T> conj_of(std::complex<T> v) {
    return std::conj(v);
}

// One n x n matrix: `in` row-major, `out` row-major; `w` and `c` are n * n scratch, `perm` 3 * n. Returns the rank.
template <typename T>
int64_t invert_one(const T* in, T* out, int64_t n, bool adjoint, T* w, T* c, int64_t* perm, int nt) {
    using R = typename Real<T>::type;
    auto W = [&](int64_t i, int64_t j) -> T& { return w[i + j * n]; };   // column-major, as the map is
    auto C = [&](int64_t i, int64_t j) -> T& { return c[i + j * n]; };
    if (adjoint) {
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j) W(i, j) = conj_of(in[i * n + j]);
    } else {
        std::copy(in, in + n * n, w);
    }
    int64_t* rows = perm;        // the row taken into place k
    int64_t* cols = perm + n;    // the column taken into place k
    int64_t* order = perm + 2 * n;
    int64_t nonzero = n;
    R max_pivot = 0;
    for (int64_t k = 0; k < n; ++k) {
        R best = std::abs(W(k, k));
        int64_t br = k, bc = k;
        for (int64_t j = k; j < n; ++j) {
            for (int64_t i = (j == k ? k + 1 : k); i < n; ++i) {
                const R v = std::abs(W(i, j));
                if (v > best) {
                    best = v;
                    br = i;
                    bc = j;
                }
            }
        }
        if (best == R(0)) {
            nonzero = k;
            for (int64_t i = k; i < n; ++i) rows[i] = cols[i] = i;
            break;
        }
        if (best > max_pivot) max_pivot = best;
        rows[k] = br;
        cols[k] = bc;
        if (br != k)
            for (int64_t j = 0; j < n; ++j) std::swap(W(k, j), W(br, j));
        if (bc != k)
            for (int64_t i = 0; i < n; ++i) std::swap(W(i, k), W(i, bc));
        if (k + 1 < n) {
            const T pivot = W(k, k);
            for (int64_t i = k + 1; i < n; ++i) W(i, k) /= pivot;
            const int64_t m = n - k - 1;
            const bool par = nt > 1 && worth_parallel(static_cast<double>(m) * m, kParallelStep);
            parallel_for(m, par, nt, [&](int64_t jj) {
                const int64_t j = k + 1 + jj;
                const T u = W(k, j);
                T* col = &W(0, j);
                const T* l = &W(0, k);
                for (int64_t i = k + 1; i < n; ++i) col[i] -= l[i] * u;
            });
        }
    }
    const R threshold = max_pivot * (std::numeric_limits<R>::epsilon() * static_cast<R>(n));
    int64_t rank = 0;
    for (int64_t i = 0; i < nonzero; ++i) rank += std::abs(W(i, i)) > threshold ? 1 : 0;
    if (rank == 0) {
        std::fill(out, out + n * n, T(0));
        return 0;
    }
    // The row permutation: place k holds the original row order[k]; the identity's columns permuted so.
    std::iota(order, order + n, int64_t(0));
    for (int64_t k = 0; k < n; ++k) std::swap(order[k], order[rows[k]]);
    std::fill(c, c + n * n, T(0));
    for (int64_t k = 0; k < n; ++k) C(k, order[k]) = T(1);
    const bool par = nt > 1 && worth_parallel(static_cast<double>(n) * n * n, kParallelWork);
    parallel_for(n, par, nt, [&](int64_t j) {
        T* x = &C(0, j);
        for (int64_t i = 0; i < n; ++i) {          // unit lower: x(i+1:) -= x(i) * L(i+1:, i)
            const T b = x[i];
            const T* l = &W(0, i);
            for (int64_t r = i + 1; r < n; ++r) x[r] -= b * l[r];
        }
        for (int64_t i = rank - 1; i >= 0; --i) {  // upper, top-left rank x rank: x(i) *= 1 / U(i, i)
            const T b = (x[i] *= T(1) / W(i, i));
            const T* u = &W(0, i);
            for (int64_t r = 0; r < i; ++r) x[r] -= b * u[r];
        }
    });
    // The column permutation: place i holds the original column order[i]; solution row order[i] = c row i.
    std::iota(order, order + n, int64_t(0));
    for (int64_t k = 0; k < n; ++k) std::swap(order[k], order[cols[k]]);
    // out (row-major) = the column-major solution's bytes: out[i + j * n] = X(i, j).
    for (int64_t i = 0; i < n; ++i) {
        const int64_t row = order[i];
        for (int64_t j = 0; j < n; ++j) out[row + j * n] = i < rank ? C(i, j) : T(0);
    }
    return rank;
}

template <typename T>
void invert_batch(const T* in, T* out, int64_t* ranks, int64_t batch, int64_t n, bool adjoint) {
    const int nt = max_threads();
    const bool across = batch > 1 && worth_parallel(static_cast<double>(batch) * n * n * n, kParallelWork);
    const int per_matrix_threads = across ? 1 : nt;
    const int teams = across ? nt : 1;
    std::vector<T> scratch(static_cast<size_t>(teams) * 2 * n * n);
    std::vector<int64_t> perm(static_cast<size_t>(teams) * 3 * n);
    parallel(teams, [&](int tid, int size) {
        int64_t lo, hi;
        static_range(batch, tid, size, lo, hi);
        T* w = scratch.data() + static_cast<size_t>(tid) * 2 * n * n;
        for (int64_t b = lo; b < hi; ++b) {
            ranks[b] = invert_one<T>(in + b * n * n, out + b * n * n, n, adjoint, w, w + n * n,
                                     perm.data() + static_cast<size_t>(tid) * 3 * n, per_matrix_threads);
        }
    });
}

template <typename T>
py::tuple run(const py::array& x, int64_t batch, int64_t n, bool adjoint) {
    auto out = py::array_t<T>(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    auto rank = py::array_t<int64_t>(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim() - 2));
    const T* in = static_cast<const T*>(x.data());
    T* o = static_cast<T*>(out.mutable_data());
    int64_t* r = static_cast<int64_t*>(rank.mutable_data());
    {
        py::gil_scoped_release release;
        invert_batch<T>(in, o, r, batch, n, adjoint);
    }
    return py::make_tuple(std::move(out), std::move(rank));
}

py::tuple matrix_inverse(const py::array& x, bool adjoint) {
    const std::string where = "matrix_inverse";
    check_array(where, "x", x, -1);
    if (x.ndim() < 2 || x.shape(x.ndim() - 1) != x.shape(x.ndim() - 2)) {
        fail(where, "'x' must be square matrices (..., n, n), but got shape " + shape_str(x));
    }
    const int64_t n = x.shape(x.ndim() - 1);
    int64_t batch = 1;
    for (py::ssize_t d = 0; d + 2 < x.ndim(); ++d) batch *= x.shape(d);
    const int num = x.dtype().num();
    const char order = x.dtype().byteorder();
    if (order == '>') fail(where, "'x' must be in native byte order");
    if (num == py::dtype::of<float>().num()) return run<float>(x, batch, n, adjoint);
    if (num == py::dtype::of<double>().num()) return run<double>(x, batch, n, adjoint);
    if (num == py::dtype::of<std::complex<float>>().num()) return run<std::complex<float>>(x, batch, n, adjoint);
    if (num == py::dtype::of<std::complex<double>>().num()) return run<std::complex<double>>(x, batch, n, adjoint);
    fail(where, "'x' must be float32, float64, complex64 or complex128, but got " + std::string(py::str(x.dtype())));
}

}  // namespace

void register_linalg(py::module_& m) {
    using py::arg;
    m.def("matrix_inverse", &matrix_inverse, arg("x"), arg("adjoint") = false,
          "Inverse of each C-contiguous n x n matrix of x (..., n, n) by LU with complete pivoting, as MindSpore's "
          "CPU kernel: the conjugate transpose's for adjoint; a singular matrix's rank-limited solution, not an "
          "error. Returns (inverse, rank) with rank int64 of shape x.shape[:-2].");
}

}  // namespace mscpu
