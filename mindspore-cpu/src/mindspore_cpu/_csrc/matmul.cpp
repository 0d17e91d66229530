// Matrix products on the packed GEMM of gemm.h, parallelised with the kernels' own thread team (team.h).
//
// Why not NumPy's matmul: its OpenBLAS keeps a second thread pool whose idle workers spin for about
// 0.1 s after every call. A training step alternates matmuls with convolutions and pooling, which
// run on the kernels' team; on a machine with few cores those spinning workers take the cores the
// next kernels need (a LeNet convolution ran at half speed for 0.1 s after each Dense layer). With
// every product here, one team of threads does all the work.
//
//   matmul(a, b, transpose_a, transpose_b)   a (..., M, K) or (..., K, M) if transposed, the same
//                                             for b; leading (batch) dims must be equal (the Python
//                                             side broadcasts); float32 or float64.
//
// Parallel split: with at least as many batch items as threads, whole items per thread; otherwise
// every product is cut into a grid of blocks, one or more per thread, along the larger of M and N
// (blocks stay multiples of the micro-tile so that no thread computes a ragged edge it need not).
// Each element of the output is computed by one thread with one fixed summation order, so results
// do not depend on the thread count.
#include <algorithm>
#include <optional>
#include <vector>

#include "common.h"
#include "gemm.h"

namespace mscpu {
namespace {

struct Product {
    int64_t batch, M, N, K;
    int64_t rsa, csa, rsb, csb;  // element strides of A(i, k) and B(k, j) inside one batch item
    int64_t sa, sb;              // batch strides
};

// A product with few columns (a classifier's logits: N = 10) wastes most of each NR-wide register
// tile; computed as C^T = B^T A^T the narrow side becomes the (short) rows of the tile instead.
constexpr int64_t kNarrow = 16;

template <typename T>
void gemm_item(const T* a, const T* b, T* c, const Product& p, std::vector<T>& scratch) {
    if (p.N < kNarrow && p.M >= 4 * p.N) {
        scratch.resize(static_cast<size_t>(p.M * p.N));
        T* ct = scratch.data();
        gemm<T>(p.N, p.M, p.K, b, p.csb, p.rsb, a, p.csa, p.rsa, ct, p.M, false);
        for (int64_t i = 0; i < p.M; ++i) {
            for (int64_t j = 0; j < p.N; ++j) c[i * p.N + j] = ct[j * p.M + i];
        }
        return;
    }
    gemm<T>(p.M, p.N, p.K, a, p.rsa, p.csa, b, p.rsb, p.csb, c, p.N, false);
}

// No epilogue (a plain MatMul).
struct NoEpilogue {
    template <typename T>
    void operator()(T*, int64_t, int64_t, int64_t, int64_t) const {}
};

// Dense's epilogue: c[r][j] = c[r][j] + bias[col0 + j], then (relu) MindSpore's ReLU, for a block of rows x
// cols at row stride ldc, right after the block is computed (the same roundings as BiasAdd then ReLU).
template <typename T>
struct BiasRelu {
    const T* bias;
    bool relu;
    void operator()(T* c, int64_t rows, int64_t col0, int64_t cols, int64_t ldc) const {
        for (int64_t r = 0; r < rows; ++r) {
            T* cr = c + r * ldc;
            const T* br = bias ? bias + col0 : nullptr;
            if (br && relu) {
                for (int64_t j = 0; j < cols; ++j) cr[j] = floor_clamp<T>(cr[j] + br[j], T(0), T(0));
            } else if (br) {
                for (int64_t j = 0; j < cols; ++j) cr[j] = cr[j] + br[j];
            } else if (relu) {
                for (int64_t j = 0; j < cols; ++j) cr[j] = floor_clamp<T>(cr[j], T(0), T(0));
            }
        }
    }
};

template <typename T, typename Epi = NoEpilogue>
void run(const T* a, const T* b, T* c, const Product& p, const Epi& epi = Epi()) {
    const int64_t MN = p.M * p.N;
    const double work = static_cast<double>(p.batch) * MN * p.K;
    const bool par = worth_parallel(work, kParallelFlops / 5);
    const int nt = par ? max_threads() : 1;
    if (!par || p.batch >= nt) {
        parallel(par ? max_threads() : 1, [&](int, int) {
            std::vector<T> scratch;
            for_static(p.batch, [&](int64_t t) {
                gemm_item(a + t * p.sa, b + t * p.sb, c + t * MN, p, scratch);
                epi(c + t * MN, p.M, 0, p.N, p.N);
            });
        });
        return;
    }
    // Blocks of one product: split the larger dimension into `nt` parts (aligned to 16 rows or 64
    // columns); every thread takes its part of every batch item.
    const bool split_n = p.N >= p.M;
    const int64_t total = split_n ? p.N : p.M;
    const int64_t align = split_n ? 64 : 16;
    const int64_t chunk = ceil_div(ceil_div(total, nt), align) * align;
    const int64_t parts = ceil_div(total, chunk);
    parallel_for(p.batch * parts, true, max_threads(), [&](int64_t task) {   // (batch item, part), as collapse(2)
        const int64_t t = task / parts, i = task % parts;
        const int64_t lo = i * chunk, hi = std::min(total, lo + chunk);
        const T* at = a + t * p.sa;
        const T* bt = b + t * p.sb;
        T* ct = c + t * MN;
        if (split_n) {
            gemm<T>(p.M, hi - lo, p.K, at, p.rsa, p.csa, bt + lo * p.csb, p.rsb, p.csb, ct + lo, p.N, false);
            epi(ct + lo, p.M, lo, hi - lo, p.N);
        } else {
            gemm<T>(hi - lo, p.N, p.K, at + lo * p.rsa, p.rsa, p.csa, bt, p.rsb, p.csb, ct + lo * p.N, p.N, false);
            epi(ct + lo * p.N, hi - lo, 0, p.N, p.N);
        }
    });
}

py::array matmul(const py::array& a, const py::array& b, bool transpose_a, bool transpose_b) {
    const std::string where = "matmul";
    check_array(where, "a", a, -1);
    check_array(where, "b", b, -1);
    const DType dt = common_float(where, {&a, &b});
    if (a.ndim() < 2 || a.ndim() != b.ndim()) {
        fail(where, "'a' and 'b' must have the same rank >= 2, but got shapes " + shape_str(a) + " and " +
                        shape_str(b));
    }
    const int nd = static_cast<int>(a.ndim());
    int64_t batch = 1;
    std::vector<int64_t> shape;
    for (int i = 0; i < nd - 2; ++i) {
        if (a.shape(i) != b.shape(i)) {
            fail(where, "the batch dimensions of " + shape_str(a) + " and " + shape_str(b) + " differ");
        }
        batch *= a.shape(i);
        shape.push_back(a.shape(i));
    }
    const int64_t ar = a.shape(nd - 2), ac = a.shape(nd - 1), br = b.shape(nd - 2), bc = b.shape(nd - 1);
    const int64_t M = transpose_a ? ac : ar, K = transpose_a ? ar : ac;
    const int64_t Kb = transpose_b ? bc : br, N = transpose_b ? br : bc;
    if (K != Kb) {
        fail(where, "the inner dimensions of " + shape_str(a) + " and " + shape_str(b) + " (transpose_a=" +
                        std::to_string(transpose_a) + ", transpose_b=" + std::to_string(transpose_b) + ") differ");
    }
    Product p{batch, M, N, K, transpose_a ? 1 : ac, transpose_a ? ac : 1, transpose_b ? 1 : bc,
              transpose_b ? bc : 1, ar * ac, br * bc};
    shape.push_back(M);
    shape.push_back(N);
    return new_float_array(dt, shape, [&](auto* c) {
        using T = element_of<decltype(c)>;
        run<T>(cptr<T>(a), cptr<T>(b), c, p);
    });
}

// Dense: a (M, K) times w (N, K) transposed (or (K, N) with transpose_b false), + bias (N,) when given, then
// ReLU when asked, each block finished by the thread that computed it while it is in its cache. The product
// is MatMul's (same splits, same summation order: bitwise equal), the epilogue BiasAdd's and ReLU's.
py::array dense(const py::array& a, const py::array& w, const std::optional<py::array>& bias, bool transpose_b,
                bool relu) {
    const std::string where = "dense";
    check_array(where, "a", a, 2);
    check_array(where, "w", w, 2);
    if (bias) check_array(where, "bias", *bias, 1);
    const DType dt = bias ? common_float(where, {&a, &w, &*bias}) : common_float(where, {&a, &w});
    const int64_t M = a.shape(0), K = a.shape(1);
    const int64_t Kw = transpose_b ? w.shape(1) : w.shape(0), N = transpose_b ? w.shape(0) : w.shape(1);
    if (K != Kw) {
        fail(where, "the inner dimensions of " + shape_str(a) + " and " + shape_str(w) + " (transpose_b=" +
                        std::to_string(transpose_b) + ") differ");
    }
    if (bias && bias->shape(0) != N) {
        fail(where, "'bias' must have " + std::to_string(N) + " elements, but got shape " + shape_str(*bias));
    }
    Product p{1, M, N, K, K, 1, transpose_b ? 1 : N, transpose_b ? K : 1, M * K, K * N};
    return new_float_array(dt, {M, N}, [&](auto* c) {
        using T = element_of<decltype(c)>;
        run<T>(cptr<T>(a), cptr<T>(w), c, p, BiasRelu<T>{bias ? cptr<T>(*bias) : nullptr, relu});
    });
}

}  // namespace

void register_matmul(py::module_& m) {
    using py::arg;
    m.def("matmul", &matmul, arg("a"), arg("b"), arg("transpose_a") = false, arg("transpose_b") = false,
          "a @ b over the last two axes (either operand transposed for free); equal leading batch axes; "
          "float32 or float64, C-contiguous.");
    m.def("dense", &dense, arg("a"), arg("w"), arg("bias") = py::none(), arg("transpose_b") = true,
          arg("relu") = false,
          "nn.Dense's MatMul + BiasAdd (+ ReLU) in one kernel: a (M, K) @ w^T (w (N, K); (K, N) without "
          "transpose_b) + bias (N,), ReLU(NaN) = 0; the product bitwise equal to matmul's; float32 or float64.");
}

}  // namespace mscpu
