// The kernels' threads: one team per launching thread, whose members spin briefly between kernels.
//
// A kernel splits its work with parallel(nt, body): body(tid, nt) runs on the calling thread (member 0)
// and nt - 1 worker threads, and parallel() returns when all have finished. It replaces OpenMP's
// parallel regions for one reason: the time a sleeping worker takes to wake up. A network runs its
// kernels a few microseconds apart; libgomp's workers either spin after each region (GOMP_SPINCOUNT,
// read once when the library loads: a long spin takes the cores from other processes even when this one
// is idle) or go to sleep and cost tens of microseconds to wake for the next kernel, about what a
// LeNet layer takes on two cores. Here a worker spins, yielding its core to any other runnable thread,
// for MS_CPU_SPIN_US microseconds (default 100) after its last task, then sleeps: while a network
// runs, its kernels find the team awake; when it stops, the workers leave the cores within 0.1 ms. On a
// machine busy with other work a spinning worker loses its core anyway and starts late; then the team
// sleeps after every task for a while (team.cpp), as libgomp's threads do. A worker the scheduler woke on
// the core of the thread that hands out its tasks moves itself to another allowed core (team.cpp).
//
// Semantics follow the OpenMP constructs they replace, so results are unchanged for a given thread
// count: static_range() is schedule(static)'s split, a parallel() nested inside a running team runs on
// its caller alone (as a nested region does), barrier() is `#pragma omp barrier`. No exception may leave
// a body (as none may leave an OpenMP region). Each launching thread has its own team (kernels launched
// concurrently from two Python threads do not share workers), and a forked child starts new ones.
#pragma once

#include <cstdint>
#include <type_traits>

namespace mscpu {
namespace team {

using Body = void (*)(void* ctx, int tid, int nt);

// Runs body(ctx, tid, nt) for tid < nt, member 0 on the calling thread; returns when all have run.
void run(int nt, Body body, void* ctx);

// Waits until every member of the current team has reached it (nothing when alone).
void barrier();

// Whether idle workers stay awake between kernels now: MS_CPU_SPIN_US is 50 or more, and no worker has
// recently found its core taken by other work (then they sleep after each task for a while, see team.cpp).
bool spinning();

struct Member {
    int tid = 0;
    int nt = 1;
};

// The calling thread's place in the team running it (tid 0 of 1 outside any).
inline thread_local Member member;

}  // namespace team

// This thread's index in its team, and the team's size (0 and 1 outside parallel()).
inline int thread_id() { return team::member.tid; }
inline int team_size() { return team::member.nt; }

// body(tid, nt) on nt threads (see above); with nt <= 1, or inside a running team, on the caller alone.
template <typename F>
void parallel(int nt, F&& body) {
    using Fn = std::remove_reference_t<F>;
    if (nt <= 1 || team::member.nt > 1) {
        const team::Member outer = team::member;
        team::member = team::Member{};
        body(0, 1);
        team::member = outer;
        return;
    }
    team::run(
        nt, [](void* ctx, int tid, int n) { (*static_cast<Fn*>(ctx))(tid, n); },
        const_cast<void*>(static_cast<const void*>(&body)));
}

// Member tid's iterations [lo, hi) of [0, n) among nt members: OpenMP's schedule(static) split
// (contiguous blocks, the first n % nt members one iteration more).
inline void static_range(int64_t n, int tid, int nt, int64_t& lo, int64_t& hi) {
    int64_t q = n / nt, r = n % nt;
    if (tid < r) {
        ++q;
        r = 0;
    }
    lo = q * tid + r;
    hi = lo + q;
}

// Inside parallel(): this member's share of body(i) for i < n (`#pragma omp for schedule(static)
// nowait`; call barrier() after it where later code reads what other members wrote).
template <typename F>
void for_static(int64_t n, F&& body) {
    int64_t lo, hi;
    static_range(n, thread_id(), team_size(), lo, hi);
    for (int64_t i = lo; i < hi; ++i) body(i);
}

// body(i) for i < n on the team's threads when par, else on the caller (`#pragma omp parallel for
// schedule(static) if (par)`); nt: the team size wanted.
template <typename F>
void parallel_for(int64_t n, bool par, int nt, F&& body) {
    parallel(par ? nt : 1, [&](int tid, int size) {
        int64_t lo, hi;
        static_range(n, tid, size, lo, hi);
        for (int64_t i = lo; i < hi; ++i) body(i);
    });
}

}  // namespace mscpu
