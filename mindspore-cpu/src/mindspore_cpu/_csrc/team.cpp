// The kernels' thread teams (see team.h).
#include "team.h"

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MSCPU_PAUSE() _mm_pause()
#else
#define MSCPU_PAUSE() ((void)0)
#endif

namespace mscpu {
namespace team {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kSpinningNs = 50000;   // a spin this long keeps workers awake between a network's kernels

// How long an idle worker stays awake (spinning, yielding its core to other runnable threads) after its
// last task: MS_CPU_SPIN_US microseconds, 100 by default, 0 to sleep at once.
std::chrono::nanoseconds spin_time() {
    static const std::chrono::nanoseconds t = [] {
        const char* v = std::getenv("MS_CPU_SPIN_US");
        long us = 100;
        if (v != nullptr && *v != '\0') {
            char* end = nullptr;
            const long parsed = std::strtol(v, &end, 10);
            if (end != v && parsed >= 0) us = parsed;
        }
        return std::chrono::nanoseconds(static_cast<int64_t>(us) * 1000);
    }();
    return t;
}

// Bumped in a forked child: the teams of the parent have no threads there.
std::atomic<uint64_t> fork_epoch{0};

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// Spinning pays only while the cores are ours. A worker that was spinning yet starts a task late (it had
// been preempted: the machine is busy with other work) counts against spinning, by how late it was: the
// time a late start cost the caller, who waits for it, is added to a debt that each timely start lowers by
// kCreditNs (about what a worker's share of a small kernel saves). When the debt reaches kDebtLimitNs every
// worker sleeps right after its tasks for the next kBackOff, as libgomp's sleeping threads do; then spinning
// is tried again. Counting time rather than late starts matters when another process shares the cores:
// measured on the 2-core development VM with a test run taking one core, a late start cost about 2 ms (the
// other process's time slice) but came only once in twenty tasks, and a rule counting one late start in five
// never backed off (0.6-1.2 ms per LeNet batch at 2 threads; 0.52 ms sleeping). One late start alone (a
// virtual machine's hiccup of a few milliseconds, a timer interrupt) does not back off.
constexpr int64_t kLateNs = 50000;            // 50 us from handing out a task to a spinning worker starting it
constexpr int64_t kBackOffNs = 200000000;     // 0.2 s
constexpr int64_t kCreditNs = 25000;
constexpr int64_t kDebtLimitNs = 6000000;     // 6 ms
std::atomic<int64_t> sleep_until_ns{0};
std::atomic<int64_t> late_debt_ns{0};

// A spinning worker started a task ``lateness`` ns after it was handed out (see above).
void note_start(int64_t lateness, int64_t now) {
    if (lateness <= kLateNs) {
        const int64_t debt = late_debt_ns.load(std::memory_order_relaxed);
        if (debt > 0) late_debt_ns.store(std::max<int64_t>(debt - kCreditNs, 0), std::memory_order_relaxed);
        return;
    }
    if (late_debt_ns.fetch_add(lateness, std::memory_order_relaxed) + lateness >= kDebtLimitNs) {
        late_debt_ns.store(0, std::memory_order_relaxed);
        sleep_until_ns.store(now + kBackOffNs, std::memory_order_relaxed);
    }
}

// A worker woken on the core of the thread that handed out its task. Seen on the 2-core development VM: after
// the process has idled a few tenths of a second, the scheduler wakes a sleeping worker onto the caller's core
// (a virtual machine's idle core can look busy to the scheduler) and leaves it there. The worker then starts
// each task only when the caller, done with its own share, waits: every task is late by that share, the team
// runs at one thread's speed or worse, and the back-off above takes it for a busy machine. Rounds of 50 LeNet
// inferences after 0.3 s pauses ran at 0.6-0.75 ms per batch instead of 0.35-0.45. Such a worker moves itself
// off that core: its allowed CPUs without that one for a moment (the kernel migrates it at once), then its
// allowed CPUs as they were, so that nothing stays pinned. Only where the team fits the allowed CPUs, and not
// while the team backs off: on a machine busy with other work the scheduler's choice is the better one (moved
// to a busy core, the worker starts later still: 0.65-1.0 ms per LeNet batch against 0.53 staying).
int current_cpu() {
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}

bool move_off_cpu(int cpu, int team_size) {
#if defined(__linux__)
    cpu_set_t allowed;
    if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(allowed), &allowed) != 0) return false;
    if (CPU_COUNT(&allowed) < team_size || !CPU_ISSET(cpu, &allowed)) return false;
    cpu_set_t others = allowed;
    CPU_CLR(cpu, &others);
    if (sched_setaffinity(0, sizeof(others), &others) != 0) return false;
    sched_setaffinity(0, sizeof(allowed), &allowed);
    return true;
#else
    (void)cpu;
    (void)team_size;
    return false;
#endif
}

struct Team {
    explicit Team(uint64_t epoch_) : epoch(epoch_) {}
    const uint64_t epoch;
    // (task number << 16) | team size: one word, so that a worker reads a task's number and size together
    std::atomic<uint64_t> task{0};
    std::atomic<int> pending{0};           // workers still running the current task
    std::atomic<int> sleepers{0};
    std::atomic<bool> stop{false};
    std::atomic<int64_t> published_ns{0};  // when the current task was handed out
    std::atomic<int> caller_cpu{-1};       // the CPU the caller handed it out from (-1: unknown)
    Body body = nullptr;
    void* ctx = nullptr;
    int workers = 0;                       // members 1 .. workers exist
    std::mutex mu;
    std::condition_variable cv;
    std::atomic<int> arrived{0};           // barrier
    std::atomic<uint64_t> phase{0};
};

thread_local Team* current = nullptr;     // the team the calling thread is a member of (for barrier())

// Waits until ``done()``: a pause loop, then yields, then (when sleep) the condition variable.
template <typename Done>
bool wait_awake(Team& t, Done&& done, bool may_back_off = false) {
    const Clock::time_point start = Clock::now();
    const std::chrono::nanoseconds limit =
        may_back_off && !spinning() ? std::chrono::nanoseconds(0) : spin_time();
    for (int spins = 0;; ++spins) {
        if (done()) return true;
        if (spins < 64) {
            MSCPU_PAUSE();
            continue;
        }
        if ((spins & 15) == 0 && Clock::now() - start > limit) return false;
        std::this_thread::yield();
    }
    (void)t;
}

void worker(std::shared_ptr<Team> tp, int id, uint64_t seen) {
    Team& t = *tp;
    for (;;) {
        // sequentially consistent, as run()'s store of the task and load of the sleepers (no lost wake-up)
        auto fresh = [&] { return t.task.load() != seen || t.stop.load(std::memory_order_relaxed); };
        const bool was_awake = wait_awake(t, fresh, true);
        if (!was_awake) {
            std::unique_lock<std::mutex> lock(t.mu);
            t.sleepers.fetch_add(1);
            t.cv.wait(lock, fresh);
            t.sleepers.fetch_sub(1);
        }
        if (t.stop.load()) return;
        // The task this worker acts on, and its size, from one read: a worker that woke late for an earlier
        // task it had no part in may find the next one already handed out, and then takes part in that one.
        seen = t.task.load(std::memory_order_acquire);
        const int nt = static_cast<int>(seen & 0xFFFF);
        if (id < nt) {
            const int cpu = current_cpu();
            const bool moved = cpu >= 0 && cpu == t.caller_cpu.load(std::memory_order_relaxed) && spinning() &&
                               move_off_cpu(cpu, nt);
            if (was_awake && !moved) {   // a late start that sharing the caller's core explains is not counted
                const int64_t now = now_ns();
                note_start(now - t.published_ns.load(std::memory_order_relaxed), now);
            }
            member = Member{id, nt};
            current = &t;
            t.body(t.ctx, id, nt);
            current = nullptr;
            member = Member{};
            t.pending.fetch_sub(1, std::memory_order_acq_rel);
        }
    }
}

// The calling thread's team; its workers are told to stop when the thread ends.
struct Owner {
    std::shared_ptr<Team> team;
    ~Owner() { release(); }
    void release() {
        if (!team) return;
        if (team->epoch != fork_epoch.load()) {   // a forked child's copy: its mutex may be held, never touch it
            new std::shared_ptr<Team>(std::move(team));
            return;
        }
        team->stop.store(true);
        {
            std::lock_guard<std::mutex> lock(team->mu);
            team->cv.notify_all();
        }
        team.reset();
    }
};

thread_local Owner owner;

Team& team_of_caller(int workers_needed) {
    const uint64_t epoch = fork_epoch.load();
    if (!owner.team || owner.team->epoch != epoch) {
        if (owner.team && owner.team->epoch != epoch) {
            // forked: the parent's workers do not exist here; the old team is abandoned, never touched again
            new std::shared_ptr<Team>(std::move(owner.team));
        }
        owner.team = std::make_shared<Team>(epoch);
    }
    Team& t = *owner.team;
    while (t.workers < workers_needed) {
        ++t.workers;
        std::thread(worker, owner.team, t.workers, t.task.load()).detach();
    }
    return t;
}

void after_fork_in_child() { fork_epoch.fetch_add(1); }

const int registered = [] { return pthread_atfork(nullptr, nullptr, after_fork_in_child); }();

}  // namespace

bool spinning() {
    return spin_time().count() >= kSpinningNs && now_ns() >= sleep_until_ns.load(std::memory_order_relaxed);
}

void run(int nt, Body body, void* ctx) {
    (void)registered;
    nt = std::min(nt, 0xFFFF);   // the size travels in 16 bits of the task word
    Team& t = team_of_caller(nt - 1);
    t.body = body;
    t.ctx = ctx;
    t.arrived.store(0);
    t.pending.store(nt - 1, std::memory_order_relaxed);
    t.published_ns.store(now_ns(), std::memory_order_relaxed);
    t.caller_cpu.store(current_cpu(), std::memory_order_relaxed);
    // publishes the task (sequentially consistent: see the sleepers check below)
    t.task.store((((t.task.load(std::memory_order_relaxed) >> 16) + 1) << 16) | static_cast<uint64_t>(nt));
    if (t.sleepers.load() > 0) {
        std::lock_guard<std::mutex> lock(t.mu);
        t.cv.notify_all();
    }
    const Member outer = member;
    Team* outer_team = current;
    member = Member{0, nt};
    current = &t;
    body(ctx, 0, nt);
    current = outer_team;
    member = outer;
    auto finished = [&] { return t.pending.load(std::memory_order_acquire) == 0; };
    while (!wait_awake(t, finished)) {
    }
}

void barrier() {
    Team* t = current;
    const int nt = member.nt;
    if (t == nullptr || nt <= 1) return;
    const uint64_t phase = t->phase.load(std::memory_order_acquire);
    if (t->arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == nt) {
        t->arrived.store(0, std::memory_order_relaxed);
        t->phase.fetch_add(1, std::memory_order_release);
        return;
    }
    auto passed = [&] { return t->phase.load(std::memory_order_acquire) != phase; };
    while (!wait_awake(*t, passed)) {
    }
}

}  // namespace team
}  // namespace mscpu
