// The CUDA execution model on the host, for the CuPy stand-in's RawModule (tests/cupy_sim.py): a kernel's CUDA C
// source, with this header in front, compiles with g++ and runs on NumPy buffers, so a hand-written CUDA kernel is
// checked for real without a GPU.
//
// What it offers: threadIdx, blockIdx, blockDim, gridDim; __syncthreads() (a barrier of the block's threads);
// __shared__ (one array per kernel, shared by the block's threads: blocks run one after another); __global__,
// __device__, __forceinline__, __restrict__; rsqrt/rsqrtf, __float_as_uint/__uint_as_float and the <cmath>
// functions. What it does not: warp functions (__shfl_*), atomics, dynamic shared memory, cooperative groups: a kernel
// that uses one does not compile.
//
// How: the blocks of a grid run in order; the threads of a block are fibers on one OS thread, run in turn until each
// reaches its next __syncthreads() or its end, so that every barrier is met by all of them before any goes on (CUDA
// requires every thread of a block to reach the same barriers; a kernel breaking that is undefined there and runs on
// here). A fiber is started once (ucontext: makecontext, one swapcontext) and serves every block of every launch with
// as many threads; switching between fibers and the scheduler is _setjmp/_longjmp, which, unlike swapcontext, makes
// no system call (compile with _FORTIFY_SOURCE off: its longjmp check refuses jumps between stacks).
#pragma once
#include <setjmp.h>
#include <ucontext.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <vector>

// (CUDA overloads the math functions for float; <cmath>'s std:: ones are the host's overloads)
using std::abs;
using std::ceil;
using std::cos;
using std::erf;
using std::exp;
using std::expm1;
using std::fabs;
using std::floor;
using std::fma;
using std::fmax;
using std::fmin;
using std::hypot;
using std::isfinite;
using std::isinf;
using std::isnan;
using std::log;
using std::log1p;
using std::max;
using std::min;
using std::pow;
using std::sin;
using std::sqrt;
using std::tanh;

struct dim3 {
    unsigned x, y, z;
};

static dim3 threadIdx{0, 0, 0}, blockIdx{0, 0, 0}, blockDim{1, 1, 1}, gridDim{1, 1, 1};

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static

static inline float rsqrtf(float v) { return 1.0f / std::sqrt(v); }
static inline float rsqrt(float v) { return 1.0f / std::sqrt(v); }
static inline double rsqrt(double v) { return 1.0 / std::sqrt(v); }
static inline unsigned int __float_as_uint(float v) {
    unsigned int u;
    std::memcpy(&u, &v, sizeof u);
    return u;
}
static inline float __uint_as_float(unsigned int u) {
    float v;
    std::memcpy(&v, &u, sizeof v);
    return v;
}

namespace ms_emu {

constexpr std::size_t kStack = 64 * 1024;

struct Fiber {
    ucontext_t start;
    jmp_buf at;
    bool finished;
};

static std::vector<Fiber> fibers;
static std::vector<char> stacks;
static jmp_buf scheduler;
static ucontext_t creator;
static unsigned current = 0;
static const std::function<void()>* body = nullptr;

static void set_thread(unsigned t) {
    threadIdx.x = t % blockDim.x;
    threadIdx.y = (t / blockDim.x) % blockDim.y;
    threadIdx.z = t / (blockDim.x * blockDim.y);
}

// Back to the scheduler; resumed by it later (at the next round or block).
inline void yield() {
    if (_setjmp(fibers[current].at) == 0) _longjmp(scheduler, 1);
}

inline void sync() { yield(); }

// A fiber's life: started by run() and back to it at once; then, each time the scheduler resumes it for a block, the
// body of the kernel being launched, then "finished" and a wait for the next block (of this launch or a later one).
// It never returns: fibers started again for another block size abandon the old ones.
static void fiber_main() {
    yield();
    for (;;) {
        (*body)();
        fibers[current].finished = true;
        yield();
    }
}

static void start_fibers(unsigned n) {
    for (unsigned t = 0; t < n; ++t) {
        Fiber& f = fibers[t];
        getcontext(&f.start);
        f.start.uc_stack.ss_sp = stacks.data() + t * kStack;
        f.start.uc_stack.ss_size = kStack;
        f.start.uc_link = nullptr;
        makecontext(&f.start, fiber_main, 0);
        current = t;
        if (_setjmp(scheduler) == 0) swapcontext(&creator, &f.start);
    }
}

// Runs ``kernel`` (the kernel called with its arguments) over the grid.
inline void run(dim3 grid, dim3 threads, const std::function<void()>& kernel) {
    gridDim = grid;
    blockDim = threads;
    const unsigned n = threads.x * threads.y * threads.z;
    if (n == 0 || n > 1024) throw std::runtime_error("invalid configuration argument (block size)");
    body = &kernel;
    // the fibers of the previous launch wait for their next block if it had as many threads (they call the new
    // kernel then); else start n fibers: each comes back at once, waiting for its first block
    static unsigned started = 0;
    if (started != n) {
        if (fibers.size() < n) {
            fibers.resize(n);
            stacks.resize(n * kStack);
        }
        start_fibers(n);
        started = n;
    }
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                blockIdx = dim3{bx, by, bz};
                for (unsigned t = 0; t < n; ++t) fibers[t].finished = false;
                for (bool live = true; live;) {   // a round: every unfinished thread runs to its next barrier or end
                    live = false;
                    for (unsigned t = 0; t < n; ++t) {
                        if (fibers[t].finished) continue;
                        current = t;
                        set_thread(t);
                        if (_setjmp(scheduler) == 0) _longjmp(fibers[t].at, 1);
                        if (!fibers[t].finished) live = true;
                    }
                }
            }
}

}  // namespace ms_emu

#define __syncthreads() ms_emu::sync()
