"""All-reduce bandwidth on 2 ranks: ours (``ops.AllReduce`` and ``comm_func.all_reduce`` on Tensors) beside raw
mpi4py ``Allreduce`` and ``torch.distributed`` (gloo), float32, 1 MB to 256 MB, in the same run.

Run: ``python benchmarks/bench_allreduce.py [--torch-python .venv-bench-torch/bin/python] [--write]``. Not a test:
numbers depend on the machine and on what else runs on it.

Ours and mpi4py run in the same ``mpiexec -n 2`` job, interleaved size by size and round by round, so background
load hits both alike; torch runs afterwards as its own 2-process gloo group from the interpreter given by
``--torch-python`` (skipped, with a message, when there is none). For each size: a warm-up call, then ``ROUNDS``
rounds in which every variant runs enough calls to take about ``--budget / ROUNDS`` seconds, one variant after the
other (so load that comes and goes hits them alike); a round's time is the slowest rank's (all-reduced max) and
each variant's best round counts. Bandwidth is the algorithm bandwidth, bytes of one rank's tensor / seconds per call.

Also measured: the cost of our mismatch check (one 112-byte allgather of shape/dtype metadata before each collective)
as microseconds per call, and ours with the check off (``MS_COMM_CHECK=0``) at each size.

``--write`` writes this run's table to ``benchmarks/RESULTS_allreduce.md`` (its own file: ``harness.py`` rewrites
``RESULTS.md`` whole).
"""
import argparse
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
SIZES_MB = (1, 4, 16, 64, 256)
ROUNDS = 15
SECTION = "## All-reduce bandwidth"


# --- the MPI job: ours and mpi4py ----------------------------------------------------------------------------
def _calls_for(fn, budget, comm):
    """How many calls of ``fn`` take about ``budget`` seconds (after a warm-up call)."""
    from mpi4py import MPI
    fn()
    comm.Barrier()
    t0 = time.perf_counter()
    fn()
    one = comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)
    return max(1, min(50, int(budget / max(one, 1e-6))))


def _interleaved(fns, budget, comm):
    """Seconds per call of each of ``fns`` (name -> fn), per round, over ROUNDS rounds; within a round the variants
    run one after the other, so load that comes and goes hits them alike. A round's time is the slowest rank's."""
    from mpi4py import MPI
    calls = {name: _calls_for(fn, budget, comm) for name, fn in fns.items()}
    times = {name: [] for name in fns}
    for _ in range(ROUNDS):
        for name, fn in fns.items():
            comm.Barrier()
            t0 = time.perf_counter()
            for _ in range(calls[name]):
                fn()
            times[name].append(comm.allreduce((time.perf_counter() - t0) / calls[name], op=MPI.MAX))
    return times


def mpi_worker(sizes, budget):
    import numpy as np
    from mpi4py import MPI

    import mindspore as ms
    from mindspore import ops
    from mindspore.communication import _mpi, comm_func, init
    from mindspore.communication.management import group_communicator

    init()
    comm = MPI.COMM_WORLD
    world = group_communicator()
    allreduce = ops.AllReduce()
    results = []
    for mb in sizes:
        n = mb * 2 ** 20 // 4
        a = np.full(n, comm.rank + 1, np.float32)
        b = np.empty_like(a)
        x = ms.Tensor(a)
        expect = float(sum(range(1, comm.size + 1)))
        assert float(allreduce(x).asnumpy()[-1]) == expect
        row = {"mb": mb}

        def raw():
            comm.Allreduce(a, b, op=MPI.SUM)

        def raw_alloc():
            comm.Allreduce(a, np.empty_like(a), op=MPI.SUM)

        def ours():
            allreduce(x)

        def ours_func():
            comm_func.all_reduce(x)

        def ours_unchecked():
            _mpi.CHECK = False
            try:
                allreduce(x)
            finally:
                _mpi.CHECK = True

        times = _interleaved({"mpi4py": raw, "ops.AllReduce": ours, "comm_func.all_reduce": ours_func,
                              "ops.AllReduce, check off": ours_unchecked, "mpi4py, new output": raw_alloc},
                             budget / ROUNDS, comm)
        row.update({name: min(t) for name, t in times.items()})
        # the same round's two times side by side: robust to load that changes from round to round
        row["paired"] = statistics.median(r / o for r, o in zip(times["mpi4py"], times["ops.AllReduce"]))
        results.append(row)
    small = np.ones(4, np.float32)
    check = min(_interleaved({"check": lambda: world.check("AllReduce", (small,), "op=sum")}, 0.05, comm)["check"])
    if comm.rank == 0:
        print("RESULT " + json.dumps({"rows": results, "check_us": check * 1e6, "ranks": comm.size}), flush=True)


# --- torch.distributed (gloo) ------------------------------------------------------------------------------
TORCH_WORKER = r'''
import json, os, sys, time
import torch, torch.distributed as dist
rank, size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
torch.set_num_threads(1)
dist.init_process_group("gloo", rank=rank, world_size=size)
sizes, budget, rounds = json.loads(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
rows = []
for mb in sizes:
    t = torch.full((mb * 2 ** 20 // 4,), float(rank + 1))
    dist.all_reduce(t)
    def timed(calls):
        dist.barrier()
        t0 = time.perf_counter()
        for _ in range(calls):
            dist.all_reduce(t)
        el = torch.tensor([(time.perf_counter() - t0) / calls], dtype=torch.float64)
        dist.all_reduce(el, op=dist.ReduceOp.MAX)
        return float(el)
    calls = max(1, min(50, int(budget / max(timed(1), 1e-6))))
    rows.append({"mb": mb, "torch gloo": min(timed(calls) for _ in range(rounds))})
if rank == 0:
    print("RESULT " + json.dumps(rows), flush=True)
dist.destroy_process_group()
'''


def run_torch(python, sizes, budget, env):
    with tempfile.TemporaryDirectory() as tmp:
        script = pathlib.Path(tmp) / "torch_allreduce.py"
        script.write_text(TORCH_WORKER)
        port = str(29500 + os.getpid() % 1000)
        procs = []
        for rank in range(2):
            penv = dict(env, RANK=str(rank), WORLD_SIZE="2", MASTER_ADDR="127.0.0.1", MASTER_PORT=port)
            cmd = [python, str(script), json.dumps(list(sizes)), str(budget / ROUNDS), str(ROUNDS)]
            procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=penv))
        outs = [p.communicate(timeout=1800) for p in procs]
    for p, (out, err) in zip(procs, outs):
        if p.returncode:
            raise RuntimeError(f"torch worker failed:\n{err[-3000:]}")
    line = next(ln for ln in outs[0][0].splitlines() if ln.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


# --- the driver --------------------------------------------------------------------------------------------
def _mpiexec():
    here = pathlib.Path(sys.executable).parent / "mpiexec"
    if here.exists():
        return str(here)
    import shutil
    return shutil.which("mpiexec")


def _env():
    env = {k: v for k, v in os.environ.items() if k not in ("PMI_SIZE", "PMI_RANK", "OMPI_COMM_WORLD_SIZE")}
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return env


def table(ours, torch_rows, meta):
    torch_by = {r["mb"]: r["torch gloo"] for r in torch_rows or ()}
    cols = ["mpi4py", "ops.AllReduce", "comm_func.all_reduce", "ops.AllReduce, check off", "mpi4py, new output"]
    lines = [SECTION, "",
             f"Generated by `benchmarks/bench_allreduce.py` ({meta['date']}; {meta['machine']}). float32 all-reduce "
             f"(sum) of one tensor per rank on {meta['ranks']} ranks, one rank per core (not oversubscribed), MPICH "
             f"over shared memory; algorithm bandwidth in GB/s (tensor bytes / seconds per call), best of "
             f"{ROUNDS} rounds, each round the slowest rank's time. \"mpi4py\" is `comm.Allreduce(a, b)` into a "
             f"preallocated `b`; \"new output\" allocates `b` at every call, as a functional op must. \"check off\" "
             f"is ours without the cross-rank shape/dtype check (`MS_COMM_CHECK=0`); the check alone costs "
             f"{meta['check_us']:.1f} µs per collective. The ratio is ours / mpi4py in bandwidth: of the best rounds, "
             f"and the median over rounds of the two times measured back to back in the same round.", "",
             "| size | " + " | ".join(cols) + " | torch gloo | ops.AllReduce / mpi4py (best) | (median of rounds) |",
             "| --- |" + " --- |" * (len(cols) + 3)]
    for row in ours:
        nbytes = row["mb"] * 2 ** 20
        gbs = [nbytes / row[c] / 1e9 for c in cols]
        tg = torch_by.get(row["mb"])
        torch_cell = f"{nbytes / tg / 1e9:.2f}" if tg is not None else "—"
        lines.append(f"| {row['mb']} MB | " + " | ".join(f"{v:.2f}" for v in gbs)
                     + f" | {torch_cell} | {row['mpi4py'] / row['ops.AllReduce']:.2f} | {row['paired']:.2f} |")
    if not torch_rows:
        lines += ["", f"torch: {meta['torch_note']}"]
    return "\n".join(lines) + "\n"


#: The section of RESULTS_allreduce.md that --write keeps: NCCL's numbers come from a GPU machine
#: (``tests/gpu/nccl_check.py``, run by ``tests/gpu/run.sh``), not from this script.
GPU_SECTION = "\n## NCCL on a GPU"


def write_results(text):
    path = HERE / "RESULTS_allreduce.md"
    old = path.read_text() if path.exists() else ""
    kept = old[old.index(GPU_SECTION):] if GPU_SECTION in old else ""
    path.write_text("# Benchmark results: collectives\n\n" + text.rstrip("\n") + "\n" + kept)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES_MB)), help="sizes in MB, comma-separated")
    parser.add_argument("--budget", type=float, default=3.0, help="seconds per variant and size (about)")
    parser.add_argument("--torch-python", default=str(HERE.parent / ".venv-bench-torch" / "bin" / "python"),
                        help="an interpreter with torch installed (skipped when absent)")
    parser.add_argument("--write", action="store_true", help="write the table into benchmarks/RESULTS_allreduce.md")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.worker:
        mpi_worker(sizes, args.budget)
        return
    launcher = _mpiexec()
    if launcher is None:
        sys.exit("bench_allreduce needs mpiexec and mpi4py: pip install mindspore-parallel[mpi]")
    env = _env()
    started = time.time()
    out = subprocess.run([launcher, "-n", "2", sys.executable, __file__, "--worker", "--sizes", args.sizes,
                          "--budget", str(args.budget)], capture_output=True, text=True, env=env, timeout=3600)
    if out.returncode:
        sys.exit(f"the MPI job failed:\n{out.stderr[-4000:]}")
    ours = json.loads(next(ln for ln in out.stdout.splitlines() if ln.startswith("RESULT "))[len("RESULT "):])
    torch_rows, note = None, ""
    if args.torch_python and pathlib.Path(args.torch_python).exists():
        torch_rows = run_torch(args.torch_python, sizes, args.budget, env)
    else:
        note = f"skipped: no interpreter with torch at {args.torch_python!r} (give one with --torch-python)"
        print(f"torch.distributed: {note}", file=sys.stderr)
    meta = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(started)), "ranks": ours["ranks"],
            "machine": f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, load "
                       f"average {os.getloadavg()[0]:.2f}", "check_us": ours["check_us"], "torch_note": note}
    text = table(ours["rows"], torch_rows, meta)
    print(text)
    if args.write:
        write_results(text)


if __name__ == "__main__":
    main()
