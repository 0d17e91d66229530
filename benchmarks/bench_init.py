"""Initial weights: seconds to draw them, ours against real MindSpore 2.10 (same seeds, same bits).

Run: ``python benchmarks/bench_init.py [--mindspore-python /path/to/python] [--rounds 7] [--threads N]``. Not a test:
numbers depend on the machine. Each round runs every workload once in a fresh subprocess per framework, the two
frameworks alternating, so slow drifts in machine load hit both alike; the tables give each one's median over the
rounds (wall-clock seconds, and CPU seconds of all threads, less sensitive to other load). Workloads:
``initializer(Normal/Uniform/TruncatedNormal, (4096, 4096)).init_data()`` (one 16.8M-value fill each, through the
public API) and building a BERT-base-sized stack (a 30522 x 768 ``nn.Embedding`` and twelve
``nn.TransformerEncoderLayer(768, 12, 3072)``, 110M parameters) after ``ms.set_seed(1)``. Ours draws with the CPU
backend's C++ fills (``mindspore_cpu/_csrc/philox_fill.cpp``, offered through the ``ms_random_fills`` plugin hook);
``--numpy`` also times core's NumPy fills (plugins disabled), the fallback without a backend.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

WORKER = r"""
import json, sys, time
import numpy as np
import mindspore as ms
from mindspore import nn
from mindspore.common.initializer import Normal, TruncatedNormal, Uniform, initializer

def timed(fn):
    t, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - t, time.process_time() - c

def fill(init):
    return timed(lambda: initializer(init, (4096, 4096), ms.float32).init_data())

def bert():
    ms.set_seed(1)
    return timed(lambda: [nn.Embedding(30522, 768)] + [nn.TransformerEncoderLayer(768, 12, 3072) for _ in range(12)])

initializer(Normal(0.02), (8,), ms.float32).init_data()   # warm-up: imports, plugin discovery
print(json.dumps({"Normal (4096, 4096)": fill(Normal(0.02)), "Uniform (4096, 4096)": fill(Uniform(0.1)),
                  "TruncatedNormal (4096, 4096)": fill(TruncatedNormal(0.02)), "BERT-base-sized stack": bert()}))
"""


def run_once(python, env_extra):
    env = dict(os.environ, **env_extra)
    out = subprocess.run([python, "-c", WORKER], cwd=tempfile.gettempdir(), env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mindspore-python", default=None, help="the interpreter of a real MindSpore install")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--numpy", action="store_true", help="also time core's NumPy fills (plugins disabled)")
    args = parser.parse_args()
    threads = {"OMP_NUM_THREADS": str(args.threads)}
    runs = {"ours": (sys.executable, threads)}
    if args.numpy:
        runs["ours, NumPy fills"] = (sys.executable, dict(threads, MINDSPORE_PLUGINS_AUTOLOAD="0"))
    if args.mindspore_python:
        runs["MindSpore 2.10"] = (args.mindspore_python, threads)
    times = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, (python, env) in runs.items():
            times[name].append(run_once(python, env))
    names = list(runs)
    for col, what in ((0, "wall-clock"), (1, "CPU (all threads)")):
        print(f"\nmedian {what} seconds of {args.rounds} rounds, {args.threads} threads")
        print("| workload | " + " | ".join(names) + " |\n" + "|---" * (len(names) + 1) + "|")
        for workload in times[names[0]][0]:
            cells = [f"{statistics.median(r[workload][col] for r in times[name]):.3f}" for name in names]
            print(f"| {workload} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
