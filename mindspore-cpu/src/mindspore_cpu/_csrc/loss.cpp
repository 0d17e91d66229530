// Fused softmax cross-entropy kernels (float32 and float64): one pass per row computes the max,
// the log-sum-exp, the loss and the gradient, never materialising log-softmax.
//
//   lse_i  = m_i + log(sum_j exp(x_ij - m_i)),  m_i = max_j x_ij
//   dense:  loss_i = sum_j labels_ij * (lse_i - x_ij),  backprop_ij = softmax_ij - labels_ij
//   sparse: loss = mean_i (lse_i - x_i,label_i),        grad_ij = (softmax_ij - [j == label_i]) / N
//
// Terms with a zero label are skipped, so a -inf logit with label 0 does not turn the loss into
// NaN. Rows are independent and split across OpenMP threads; the sparse mean is summed per row in
// double and reduced in row order (deterministic).
#include <algorithm>
#include <cmath>
#include <limits>

#include "common.h"

namespace mscpu {
namespace {

// Writes exp(x - max) into e and returns (max, sum of e).
template <typename T>
inline void row_softmax_parts(const T* x, int64_t C, T* e, T& mx, T& sum) {
    mx = -std::numeric_limits<T>::infinity();
    for (int64_t j = 0; j < C; ++j) mx = std::max(mx, x[j]);
    // A row that is all -inf or holds +inf has no finite shift; NaNs propagate through exp anyway.
    sum = T(0);
    const T m = std::isfinite(mx) ? mx : T(0);
    for (int64_t j = 0; j < C; ++j) {
        e[j] = std::exp(x[j] - m);
        sum += e[j];
    }
    mx = m;
}

template <typename T>
void dense(const T* x, const T* labels, T* loss, T* backprop, int64_t N, int64_t C) {
    parallel_for(N, worth_parallel(4.0 * N * C, kParallelVisits), max_threads(), [&](int64_t i) {
        const T* xr = x + i * C;
        const T* lr = labels + i * C;
        T* br = backprop + i * C;
        T mx, sum;
        row_softmax_parts(xr, C, br, mx, sum);
        const T lse = mx + std::log(sum);
        const T inv = T(1) / sum;
        T l = T(0);
        for (int64_t j = 0; j < C; ++j) {
            br[j] = br[j] * inv - lr[j];
            if (lr[j] != T(0)) l += lr[j] * (lse - xr[j]);
        }
        loss[i] = l;
    });
}

template <typename T, typename L>
void sparse(const T* x, const L* labels, T* out, int64_t N, int64_t C, bool is_grad) {
    if (is_grad) {
        const T scale = N > 0 ? T(1) / static_cast<T>(N) : T(0);
        parallel_for(N, worth_parallel(4.0 * N * C, kParallelVisits), max_threads(), [&](int64_t i) {
            const T* xr = x + i * C;
            T* gr = out + i * C;
            T mx, sum;
            row_softmax_parts(xr, C, gr, mx, sum);
            const T inv = T(1) / sum;
            for (int64_t j = 0; j < C; ++j) gr[j] = gr[j] * inv * scale;
            gr[labels[i]] -= scale;
        });
        return;
    }
    std::vector<double> row_loss(static_cast<size_t>(N));
    parallel((worth_parallel(3.0 * N * C, kParallelVisits)) ? max_threads() : 1, [&](int, int) {
        std::vector<T> e(static_cast<size_t>(C));
        for_static(N, [&](int64_t i) {
            const T* xr = x + i * C;
            T mx, sum;
            row_softmax_parts(xr, C, e.data(), mx, sum);
            row_loss[i] = static_cast<double>(mx + std::log(sum) - xr[labels[i]]);
        });
    });
    double total = 0.0;
    for (double v : row_loss) total += v;
    out[0] = N > 0 ? static_cast<T>(total / static_cast<double>(N)) : std::numeric_limits<T>::quiet_NaN();
}

py::tuple softmax_cross_entropy(const py::array& logits, const py::array& labels) {
    const std::string where = "softmax_cross_entropy";
    check_array(where, "logits", logits, 2);
    check_array(where, "labels", labels, 2);
    const DType dt = common_float(where, {&logits, &labels});
    if (logits.shape(0) != labels.shape(0) || logits.shape(1) != labels.shape(1)) {
        fail(where, "logits " + shape_str(logits) + " and labels " + shape_str(labels) + " must have the same shape");
    }
    const int64_t N = logits.shape(0), C = logits.shape(1);
    auto run = [&](auto tag) {
        using T = decltype(tag);
        auto loss = empty<T>({N});
        auto backprop = empty<T>({N, C});
        T* lp = mptr(loss);
        T* bp = mptr(backprop);
        {
            py::gil_scoped_release release;
            dense<T>(cptr<T>(logits), cptr<T>(labels), lp, bp, N, C);
        }
        return py::make_tuple(loss, backprop);
    };
    if (dt == DType::f32) return run(float());
    return run(double());
}

template <typename L>
void check_labels(const std::string& where, const L* labels, int64_t N, int64_t C) {
    for (int64_t i = 0; i < N; ++i) {
        if (labels[i] < 0 || labels[i] >= C) {
            fail(where, "the label " + std::to_string(static_cast<int64_t>(labels[i])) + " at index " +
                            std::to_string(i) + " is out of range [0, " + std::to_string(C) + ")");
        }
    }
}

py::array sparse_softmax_cross_entropy(const py::array& logits, const py::array& labels, bool is_grad) {
    const std::string where = "sparse_softmax_cross_entropy";
    check_array(where, "logits", logits, 2);
    check_array(where, "labels", labels, 1);
    const DType dt = common_float(where, {&logits});
    const DType lt = dtype_of(labels);
    if (lt != DType::i32 && lt != DType::i64) fail(where, "'labels' must be an int32 or int64 array");
    const int64_t N = logits.shape(0), C = logits.shape(1);
    if (labels.shape(0) != N) {
        fail(where, "labels " + shape_str(labels) + " must have one entry per row of logits " + shape_str(logits));
    }
    if (lt == DType::i32) check_labels(where, cptr<int32_t>(labels), N, C);
    else check_labels(where, cptr<int64_t>(labels), N, C);
    auto run = [&](auto tag) -> py::array {
        using T = decltype(tag);
        auto out = is_grad ? empty<T>({N, C}) : empty<T>({});
        T* op = mptr(out);
        py::gil_scoped_release release;
        if (lt == DType::i32) sparse<T, int32_t>(cptr<T>(logits), cptr<int32_t>(labels), op, N, C, is_grad);
        else sparse<T, int64_t>(cptr<T>(logits), cptr<int64_t>(labels), op, N, C, is_grad);
        return std::move(out);
    };
    if (dt == DType::f32) return run(float());
    return run(double());
}

}  // namespace

void register_loss(py::module_& m) {
    using py::arg;
    m.def("softmax_cross_entropy", &softmax_cross_entropy, arg("logits"), arg("labels"),
          "Fused softmax cross-entropy of logits (N, C) with dense labels (N, C): returns (loss (N,), "
          "backprop (N, C) = softmax(logits) - labels).");
    m.def("sparse_softmax_cross_entropy", &sparse_softmax_cross_entropy, arg("logits"), arg("labels"),
          arg("is_grad"),
          "Fused softmax cross-entropy with class indices (N,): the mean loss (0-d), or with is_grad the "
          "gradient (softmax(logits) - one_hot(labels)) / N.");
}

}  // namespace mscpu
