// The CUDA execution model on the host, for the CuPy stand-in's RawModule (tests/cupy_sim.py): a kernel's CUDA C
// source, with this header in front, compiles with g++ and runs on NumPy buffers, so a hand-written CUDA kernel is
// checked for real without a GPU.
//
// What it offers: threadIdx, blockIdx, blockDim, gridDim; __syncthreads() (a barrier of the block's threads);
// __shared__ (one array per kernel, shared by the block's threads: blocks run one after another); __global__,
// __device__, __forceinline__, __restrict__; rsqrt/rsqrtf and the <cmath> functions. What it does not: warp
// functions (__shfl_*), atomics, dynamic shared memory, cooperative groups: a kernel that uses one does not compile.
//
// How: the blocks of a grid run in order; the threads of a block are fibers (ucontext) on one OS thread, run in turn
// until each reaches its next __syncthreads() or its end, so that every barrier is met by all of them before any
// goes on (CUDA requires every thread of a block to reach the same barriers; a kernel breaking that is undefined
// there and runs on here).
#pragma once
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

namespace ms_emu {

constexpr std::size_t kStack = 64 * 1024;

struct Block {
    std::vector<ucontext_t> fibers;
    std::vector<char> stacks;
    std::vector<unsigned char> finished;
    ucontext_t scheduler;
    unsigned current = 0;
    const std::function<void()>* body = nullptr;
};

static Block block;

static void fiber_entry() {
    (*block.body)();
    block.finished[block.current] = 1;
}   // returns to uc_link: the scheduler

inline void sync() { swapcontext(&block.fibers[block.current], &block.scheduler); }

static void set_thread(unsigned t) {
    threadIdx.x = t % blockDim.x;
    threadIdx.y = (t / blockDim.x) % blockDim.y;
    threadIdx.z = t / (blockDim.x * blockDim.y);
}

// Runs ``body`` (the kernel called with its arguments) over the grid.
inline void run(dim3 grid, dim3 threads, const std::function<void()>& body) {
    gridDim = grid;
    blockDim = threads;
    const unsigned n = threads.x * threads.y * threads.z;
    if (n == 0 || n > 1024) throw std::runtime_error("invalid configuration argument (block size)");
    block.fibers.resize(n);
    block.stacks.resize(n * kStack);
    block.finished.assign(n, 0);
    block.body = &body;
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                blockIdx = dim3{bx, by, bz};
                std::fill(block.finished.begin(), block.finished.end(), 0);
                for (unsigned t = 0; t < n; ++t) {
                    ucontext_t& f = block.fibers[t];
                    getcontext(&f);
                    f.uc_stack.ss_sp = block.stacks.data() + t * kStack;
                    f.uc_stack.ss_size = kStack;
                    f.uc_link = &block.scheduler;
                    makecontext(&f, fiber_entry, 0);
                }
                unsigned live = n;
                while (live) {   // one round: every unfinished thread runs to its next barrier or its end
                    live = 0;
                    for (unsigned t = 0; t < n; ++t) {
                        if (block.finished[t]) continue;
                        block.current = t;
                        set_thread(t);
                        swapcontext(&block.scheduler, &block.fibers[t]);
                        if (!block.finished[t]) ++live;
                    }
                }
            }
}

}  // namespace ms_emu

#define __syncthreads() ms_emu::sync()
