// libstdc++'s std::shuffle of 0..n-1, as 2.10's seeded RandomShuffle, Randperm(V2) and RandomChoiceWithMask
// kernels make it, over words an engine already drew (the random kernels, kernels/random.py, own the engines).
//
// uniform_int_distribution as 2.10's build has it: a draw in [0, high] is the next word if high is the engine's
// range, else words at or past (high + 1) * scaling are rejected (scaling = range / (high + 1)) and the kept word
// is divided by scaling. std::shuffle places two elements with one draw when n * n fits the range (an even n
// first swaps element 1 alone), else one per element. The Python loop this replaces took about 1 us an element.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace py = pybind11;

namespace mscpu {
namespace {

// The words of one draw source: word() is false once they run out (the caller draws more and starts again).
struct Words {
    const int64_t* w;
    int64_t n, pos = 0;
    bool word(uint64_t& out) {
        if (pos == n) return false;
        out = static_cast<uint64_t>(w[pos++]);
        return true;
    }
    // A uniform integer in [0, high] of words in [0, range].
    bool below_or_at(uint64_t high, uint64_t range, uint64_t& out) {
        if (high == range) return word(out);
        const uint64_t span = high + 1, scaling = range / span, past = span * scaling;
        uint64_t v;
        do {
            if (!word(v)) return false;
        } while (v >= past);
        out = v / scaling;
        return true;
    }
};

// (permutation, words used), or (None, -1) when ``words`` ran out first.
py::tuple shuffle_words(const py::array_t<int64_t, py::array::c_style | py::array::forcecast>& words, int64_t n,
                        int64_t range) {
    if (n < 0 || range <= 0) {
        throw std::invalid_argument("shuffle_words: n must be >= 0 and range > 0, but got n=" + std::to_string(n) +
                                    ", range=" + std::to_string(range));
    }
    py::array_t<int64_t> perm(n);
    int64_t* p = perm.mutable_data();
    std::iota(p, p + n, int64_t{0});
    Words src{words.data(), static_cast<int64_t>(words.size())};
    const uint64_t r = static_cast<uint64_t>(range), un = static_cast<uint64_t>(n);
    bool ok = true;
    {
        py::gil_scoped_release release;
        if (n > 1 && r / un >= un) {
            int64_t i = 1;
            uint64_t v;
            if (n % 2 == 0) {
                ok = src.below_or_at(1, r, v);
                if (ok) std::swap(p[1], p[v]);
                i = 2;
            }
            for (; ok && i < n; i += 2) {
                const uint64_t bound = static_cast<uint64_t>(i) + 1;
                ok = src.below_or_at(bound * (bound + 1) - 1, r, v);
                if (!ok) break;
                std::swap(p[i], p[v / (bound + 1)]);
                std::swap(p[i + 1], p[v % (bound + 1)]);
            }
        } else {
            for (int64_t i = 1; ok && i < n; ++i) {
                uint64_t v;
                ok = src.below_or_at(static_cast<uint64_t>(i), r, v);
                if (ok) std::swap(p[i], p[v]);
            }
        }
    }
    if (!ok) return py::make_tuple(py::none(), -1);
    return py::make_tuple(perm, src.pos);
}

}  // namespace

void register_shuffle(py::module_& m) {
    m.def("shuffle_words", &shuffle_words, py::arg("words"), py::arg("n"), py::arg("range"),
          "libstdc++'s std::shuffle of 0..n-1 drawing from `words` (each in [0, range]): (permutation, words used), "
          "or (None, -1) when they ran out");
}

}  // namespace mscpu
