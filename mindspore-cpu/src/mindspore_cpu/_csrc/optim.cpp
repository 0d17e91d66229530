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
//
//   adam_f32, adam_weight_decay_f32, rmsprop_f32, proximal_adagrad_f32: MindSpore 2.10's float32 CPU kernels'
//   orders (nnacl's loops with their FMAs and double tails, below). Those are written with std::fma: compiled
//   under target("avx2,fma") on CPUs with FMA, an exact software fma elsewhere, the same bits either way.
#include "common.h"
#include "ordered_sums.h"

#include <algorithm>
#include <cmath>
#include <thread>

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

// ---- float32 Adam and AdamWeightDecay as MindSpore 2.10's CPU kernels compute them --------------------------------
// 2.10 runs nnacl's AdamFp32 / AdamWeightDecayFp32 (libnnacl.so is built with -mfma, so its multiply-adds are
// contracted into FMA instructions; std::fma below is the same single rounding, an instruction under target("fma")
// and exact in software elsewhere). Per chunk [s, e) of its thread split:
//   AdamFp32, lanes of 8 from s:  m = fma(g - m, 1 - b1, m);  v = fma(fma(g, g, -v), 1 - b2, v);
//       var -= (lr * m) / (sqrt(v) + eps)                      nesterov: num = fma(g, 1 - b1, m * b1)
//     the last (e - s) % 8 elements: m, v the same; then in double: var = var - (lr * m) / (sqrt(v) + eps)
//       (lr * m, nesterov lr * fma(m, b1, (1 - b1) * g), rounded to float first)
//   AdamWeightDecayFp32: m, v as AdamFp32's; var = fma(-lr, m / (sqrt(v) + eps) + decay * var, var) in double
//       (decay * var rounded to float first). Its AVX-512 branch never runs in 2.10: nnacl's X86_Avx512_Support()
//       reads a flag that only IntelX86CpuInfoInit sets, and nothing in 2.10's CPU backend calls it (measured: the
//       flag stays 0 after an nn.AdamWeightDecay step on an AVX-512 CPU; 2.10's results are the scalar order's).
// AdamFp32's chunks are ParallelLaunch's (blocks of 1000 over the runtime's kernel threads, see ms_kernel_threads).
struct AdamF32 {
    float lr, b1, b2, eps, decay;
    bool nesterov;
};

#define MSCPU_ADAM_MV                                                                   \
    const float gi = g[i];                                                              \
    const float mi = std::fma(gi - m[i], c1, m[i]);                                     \
    const float vi = std::fma(std::fma(gi, gi, -v[i]), c2, v[i]);                       \
    m[i] = mi;                                                                          \
    v[i] = vi;

#define MSCPU_ADAM_CHUNK_BODY                                                           \
    const float c1 = 1.0f - a.b1, c2 = 1.0f - a.b2;                                     \
    const int64_t vend = s + ((e - s) / 8) * 8;                                         \
    for (int64_t i = s; i < vend; ++i) {                                                \
        MSCPU_ADAM_MV                                                                   \
        const float num = a.nesterov ? a.lr * std::fma(gi, c1, mi * a.b1) : a.lr * mi;  \
        var[i] = var[i] - num / (std::sqrt(vi) + a.eps);                                \
    }                                                                                   \
    for (int64_t i = vend; i < e; ++i) {                                                \
        MSCPU_ADAM_MV                                                                   \
        const float num = a.nesterov ? a.lr * std::fma(mi, a.b1, c1 * gi) : a.lr * mi;  \
        const double q = static_cast<double>(num) /                                     \
                         (std::sqrt(static_cast<double>(vi)) + static_cast<double>(a.eps)); \
        var[i] = static_cast<float>(static_cast<double>(var[i]) - q);                   \
    }

#define MSCPU_ADAMW_SCALAR(i)                                                                          \
    {                                                                                                  \
        MSCPU_ADAM_MV                                                                                  \
        const double q = static_cast<double>(mi) /                                                     \
                         (std::sqrt(static_cast<double>(vi)) + static_cast<double>(a.eps));            \
        const double u = q + static_cast<double>(a.decay * var[i]);                                    \
        var[i] = static_cast<float>(std::fma(-static_cast<double>(a.lr), u, static_cast<double>(var[i]))); \
    }

#define MSCPU_ADAMW_CHUNK_BODY                                                          \
    const float c1 = 1.0f - a.b1, c2 = 1.0f - a.b2;                                     \
    for (int64_t i = s; i < e; ++i) MSCPU_ADAMW_SCALAR(i)

void adam_chunk_portable(float* var, float* m, float* v, const float* g, int64_t s, int64_t e, const AdamF32& a) {
    MSCPU_ADAM_CHUNK_BODY
}
void adamw_chunk_portable(float* var, float* m, float* v, const float* g, int64_t s, int64_t e, const AdamF32& a) {
    MSCPU_ADAMW_CHUNK_BODY
}
#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2,fma"))) void adam_chunk_fma(float* var, float* m, float* v, const float* g, int64_t s,
                                                        int64_t e, const AdamF32& a) {
    MSCPU_ADAM_CHUNK_BODY
}
__attribute__((target("avx2,fma"))) void adamw_chunk_fma(float* var, float* m, float* v, const float* g, int64_t s,
                                                         int64_t e, const AdamF32& a) {
    MSCPU_ADAMW_CHUNK_BODY
}
// (MINDSPORE_CPU_ORDERED_ISA=portable: the std::fma (software) path, for testing it on this machine)
bool has_fma() { return ordered::has_avx2_fma(); }
#else
bool has_fma() { return false; }
#endif
#undef MSCPU_ADAM_MV
#undef MSCPU_ADAM_CHUNK_BODY
#undef MSCPU_ADAMW_SCALAR
#undef MSCPU_ADAMW_CHUNK_BODY

void check_adam_arrays(const std::string& where, py::array& var, py::array& m, py::array& v, const py::array& grad) {
    check_array(where, "var", var, -1);
    check_array(where, "m", m, -1);
    check_array(where, "v", v, -1);
    check_array(where, "gradient", grad, -1);
    const DType dt = common_float(where, {&var, &m, &v, &grad});
    if (dt != DType::f32) fail(where, "var, m, v and gradient must be float32");
    if (m.size() != var.size() || v.size() != var.size() || grad.size() != var.size()) {
        fail(where, "var " + shape_str(var) + ", m " + shape_str(m) + ", v " + shape_str(v) + " and gradient " +
                        shape_str(grad) + " must have the same size");
    }
    if (!var.writeable() || !m.writeable() || !v.writeable()) fail(where, "var, m and v must be writeable");
}

// ---- float32 ApplyRMSProp and ApplyProximalAdagrad as 2.10's CPU kernels compute them ----------------------------
// (nnacl, FMA-contracted, one chunk: 2.10 splits them with an auto-searched, timing dependent block size)
//   RMSPropUnuseCenterFp32, lanes of 8:  ms = fma(fma(g, g, -ms), 1 - decay, ms);
//       mom = fma(momentum, mom, (g * lr) / (sqrt(ms) + eps));  var -= mom
//     the last n % 8 (note: eps inside the root there, as its scalar C loop has it):
//       ms = fma(fma(g, g, -ms), 1.0 - decay, ms) in double; mom = (lr * g) / sqrt(ms + eps) + momentum * mom
//       in double (the products and ms + eps rounded to float first); var -= mom
//   ApplyProximalAdagradOpt, lanes of 8 then of 4:  acc = fma(g, g, acc); rate = lr / sqrt(acc);
//       prox = fma(-g, rate, var); den = fma(l2, rate, 1); var = l1 > 0 ? max(fma(-rate, l1, |prox|), 0) / den *
//       sign(prox) : prox / den
//     the last n % 4: rate = lr / sqrt(acc) in double, rounded; l1 > 0: var = sign(prox) * max(|prox| - rate * l1,
//       0) / den in double (rate * l1 rounded to float first)
#define MSCPU_RMSPROP_BODY                                                                           \
    const float c = 1.0f - decay;                                                                    \
    const double cd = 1.0 - static_cast<double>(decay);                                              \
    const int64_t vend = (n / 8) * 8;                                                                \
    for (int64_t i = 0; i < vend; ++i) {                                                             \
        const float gi = g[i];                                                                       \
        const float msi = std::fma(std::fma(gi, gi, -ms[i]), c, ms[i]);                              \
        ms[i] = msi;                                                                                 \
        const float mi = std::fma(momentum, mom[i], (gi * lr) / (std::sqrt(msi) + eps));             \
        mom[i] = mi;                                                                                 \
        var[i] = var[i] - mi;                                                                        \
    }                                                                                                \
    for (int64_t i = vend; i < n; ++i) {                                                             \
        const float gi = g[i];                                                                       \
        const float x = std::fma(gi, gi, -ms[i]);                                                    \
        const float msi = static_cast<float>(std::fma(static_cast<double>(x), cd, static_cast<double>(ms[i]))); \
        ms[i] = msi;                                                                                 \
        const double root = std::sqrt(static_cast<double>(msi + eps));                               \
        const float mi = static_cast<float>(static_cast<double>(lr * gi) / root +                    \
                                            static_cast<double>(momentum * mom[i]));                 \
        mom[i] = mi;                                                                                 \
        var[i] = var[i] - mi;                                                                        \
    }

#define MSCPU_PROX_BODY                                                                              \
    const int64_t vend = n >= 8 ? ((n - 8) / 8 + 1) * 8 : 0;                                         \
    const int64_t send = n - vend >= 4 ? vend + ((n - vend - 4) / 4 + 1) * 4 : vend;                 \
    for (int64_t i = 0; i < send; ++i) {                                                             \
        const float gi = g[i];                                                                       \
        const float ai = std::fma(gi, gi, acc[i]);                                                   \
        acc[i] = ai;                                                                                 \
        const float rate = lr / std::sqrt(ai);                                                       \
        const float prox = std::fma(-gi, rate, var[i]);                                              \
        const float den = std::fma(l2, rate, 1.0f);                                                  \
        if (l1 > 0.0f) {                                                                             \
            const float sg = prox > 0.0f ? 1.0f : (prox < 0.0f ? -1.0f : 0.0f);                      \
            var[i] = std::max(std::fma(-rate, l1, std::fabs(prox)), 0.0f) / den * sg;                \
        } else {                                                                                     \
            var[i] = prox / den;                                                                     \
        }                                                                                            \
    }                                                                                                \
    for (int64_t i = send; i < n; ++i) {                                                             \
        const float gi = g[i];                                                                       \
        const float ai = std::fma(gi, gi, acc[i]);                                                   \
        acc[i] = ai;                                                                                 \
        const float rate = static_cast<float>(static_cast<double>(lr) / std::sqrt(static_cast<double>(ai))); \
        const float prox = std::fma(-gi, rate, var[i]);                                              \
        const float den = std::fma(rate, l2, 1.0f);                                                  \
        if (l1 > 0.0f) {                                                                             \
            const double sg = prox > 0.0f ? 1.0 : (prox < 0.0f ? -1.0 : 0.0);                        \
            const double t = std::fmax(static_cast<double>(std::fabs(prox)) - static_cast<double>(rate * l1), 0.0); \
            var[i] = static_cast<float>(sg * t / static_cast<double>(den));                          \
        } else {                                                                                     \
            var[i] = prox / den;                                                                     \
        }                                                                                            \
    }

void rmsprop_portable(float* var, float* ms, float* mom, const float* g, int64_t n, float momentum, float lr,
                      float decay, float eps) {
    MSCPU_RMSPROP_BODY
}
void prox_adagrad_portable(float* var, float* acc, const float* g, int64_t n, float lr, float l1, float l2) {
    MSCPU_PROX_BODY
}
#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2,fma"))) void rmsprop_fma(float* var, float* ms, float* mom, const float* g, int64_t n,
                                                     float momentum, float lr, float decay, float eps) {
    MSCPU_RMSPROP_BODY
}
__attribute__((target("avx2,fma"))) void prox_adagrad_fma(float* var, float* acc, const float* g, int64_t n, float lr,
                                                          float l1, float l2) {
    MSCPU_PROX_BODY
}
#endif
#undef MSCPU_RMSPROP_BODY
#undef MSCPU_PROX_BODY

void rmsprop_f32(py::array& var, py::array& ms, py::array& mom, const py::array& grad, double lr, double decay,
                 double momentum, double epsilon) {
    check_adam_arrays("rmsprop_f32", var, ms, mom, grad);
    const int64_t n = var.size();
    float* pv = static_cast<float*>(var.mutable_data());
    float* pms = static_cast<float*>(ms.mutable_data());
    float* pmo = static_cast<float*>(mom.mutable_data());
    const float* pg = cptr<float>(grad);
    const float flr = static_cast<float>(lr), fdecay = static_cast<float>(decay);
    const float fmom = static_cast<float>(momentum), feps = static_cast<float>(epsilon);
    const bool fma_isa = has_fma();
    py::gil_scoped_release release;
#if defined(__x86_64__) || defined(__i386__)
    if (fma_isa) return rmsprop_fma(pv, pms, pmo, pg, n, fmom, flr, fdecay, feps);
#endif
    (void)fma_isa;
    rmsprop_portable(pv, pms, pmo, pg, n, fmom, flr, fdecay, feps);
}

void proximal_adagrad_f32(py::array& var, py::array& accum, const py::array& grad, double lr, double l1, double l2) {
    const std::string where = "proximal_adagrad_f32";
    check_array(where, "var", var, -1);
    check_array(where, "accum", accum, -1);
    check_array(where, "gradient", grad, -1);
    if (common_float(where, {&var, &accum, &grad}) != DType::f32) fail(where, "var, accum and gradient must be float32");
    if (accum.size() != var.size() || grad.size() != var.size()) {
        fail(where, "var " + shape_str(var) + ", accum " + shape_str(accum) + " and gradient " + shape_str(grad) +
                        " must have the same size");
    }
    if (!var.writeable() || !accum.writeable()) fail(where, "var and accum must be writeable");
    const int64_t n = var.size();
    float* pv = static_cast<float*>(var.mutable_data());
    float* pa = static_cast<float*>(accum.mutable_data());
    const float* pg = cptr<float>(grad);
    const float flr = static_cast<float>(lr), fl1 = static_cast<float>(l1), fl2 = static_cast<float>(l2);
    const bool fma_isa = has_fma();
    py::gil_scoped_release release;
#if defined(__x86_64__) || defined(__i386__)
    if (fma_isa) return prox_adagrad_fma(pv, pa, pg, n, flr, fl1, fl2);
#endif
    (void)fma_isa;
    prox_adagrad_portable(pv, pa, pg, n, flr, fl1, fl2);
}

// The kernel threads of 2.10's runtime pool: runtime_num_threads (default 30) capped at the cores, less its actor
// threads (18%, at least 1); at least one.
int64_t ms_kernel_threads() {
    int64_t cores = static_cast<int64_t>(std::thread::hardware_concurrency());
    if (cores < 1) cores = 1;
    const int setting = thread_setting().load(std::memory_order_relaxed);
    const int64_t rt = std::min<int64_t>(setting > 0 ? setting : 30, cores);
    const int64_t actors = std::max<int64_t>(static_cast<int64_t>(std::floor(static_cast<double>(rt) * 0.18)), 1);
    const int64_t total = rt > actors ? rt : actors + 1;
    return std::max<int64_t>(total - actors, 1);
}

void adam_f32(py::array& var, py::array& m, py::array& v, const py::array& grad, double lr, double beta1,
              double beta2, double epsilon, bool nesterov, int64_t chunks) {
    check_adam_arrays("adam_f32", var, m, v, grad);
    const int64_t n = var.size();
    float* pv = static_cast<float*>(var.mutable_data());
    float* pm = static_cast<float*>(m.mutable_data());
    float* pw = static_cast<float*>(v.mutable_data());
    const float* pg = cptr<float>(grad);
    const AdamF32 a{static_cast<float>(lr), static_cast<float>(beta1), static_cast<float>(beta2),
                    static_cast<float>(epsilon), 0.0f, nesterov};
    if (n == 0) return;
    // ParallelLaunch(task, n, 1000): ceil(n / 1000) chunks below 1000 * threads, else one per thread.
    const int64_t k = chunks > 0 ? chunks : ms_kernel_threads();
    const int64_t parts = n < 1000 * k ? (n + 999) / 1000 : k;
    const int64_t once = (n + parts - 1) / parts;
    const int64_t tasks = (n + once - 1) / once;
    const bool fma_isa = has_fma();
    py::gil_scoped_release release;
    parallel_for(tasks, worth_parallel(static_cast<double>(n), kParallelElements) && tasks > 1, max_threads(),
                 [&](int64_t t) {
                     const int64_t s = t * once, e = std::min(n, s + once);
#if defined(__x86_64__) || defined(__i386__)
                     if (fma_isa) return adam_chunk_fma(pv, pm, pw, pg, s, e, a);
#endif
                     (void)fma_isa;
                     adam_chunk_portable(pv, pm, pw, pg, s, e, a);
                 });
}

void adam_weight_decay_f32(py::array& var, py::array& m, py::array& v, const py::array& grad, double lr,
                           double beta1, double beta2, double epsilon, double decay) {
    check_adam_arrays("adam_weight_decay_f32", var, m, v, grad);
    const int64_t n = var.size();
    float* pv = static_cast<float*>(var.mutable_data());
    float* pm = static_cast<float*>(m.mutable_data());
    float* pw = static_cast<float*>(v.mutable_data());
    const float* pg = cptr<float>(grad);
    const AdamF32 a{static_cast<float>(lr), static_cast<float>(beta1), static_cast<float>(beta2),
                    static_cast<float>(epsilon), static_cast<float>(decay), false};
    const bool fma_isa = has_fma();
    py::gil_scoped_release release;
#if defined(__x86_64__) || defined(__i386__)
    if (fma_isa) return adamw_chunk_fma(pv, pm, pw, pg, 0, n, a);
#endif
    (void)fma_isa;
    adamw_chunk_portable(pv, pm, pw, pg, 0, n, a);
}

}  // namespace

void register_optim(py::module_& m) {
    using py::arg;
    m.def("apply_momentum", &apply_momentum, arg("variable"), arg("accumulation"), arg("lr"), arg("gradient"),
          arg("momentum"), arg("use_nesterov") = false, arg("gradient_scale") = 1.0,
          "ApplyMomentum in place on C-contiguous float32/float64 arrays of one dtype (lr and momentum are "
          "rounded to that dtype first).");
    m.def("adam_f32", &adam_f32, arg("var"), arg("m"), arg("v"), arg("gradient"), arg("lr"), arg("beta1"),
          arg("beta2"), arg("epsilon"), arg("use_nesterov") = false, arg("chunks") = 0,
          "MindSpore 2.10's float32 Adam update (nnacl AdamFp32) in place; lr is the bias-corrected rate; chunks: "
          "the runtime's kernel threads (0: as 2.10 would count them here).");
    m.def("adam_weight_decay_f32", &adam_weight_decay_f32, arg("var"), arg("m"), arg("v"), arg("gradient"), arg("lr"),
          arg("beta1"), arg("beta2"), arg("epsilon"), arg("decay"),
          "MindSpore 2.10's float32 AdamWeightDecay update (nnacl AdamWeightDecayFp32's scalar order) in place.");
    m.def("rmsprop_f32", &rmsprop_f32, arg("var"), arg("mean_square"), arg("moment"), arg("gradient"), arg("lr"),
          arg("decay"), arg("momentum"), arg("epsilon"),
          "MindSpore 2.10's float32 ApplyRMSProp update (nnacl RMSPropUnuseCenterFp32) in place.");
    m.def("proximal_adagrad_f32", &proximal_adagrad_f32, arg("var"), arg("accum"), arg("gradient"), arg("lr"),
          arg("l1"), arg("l2"),
          "MindSpore 2.10's float32 ApplyProximalAdagrad update (nnacl ApplyProximalAdagradOpt) in place.");
}

}  // namespace mscpu
