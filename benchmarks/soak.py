"""Soak test: many LeNet5 training steps in each mode, with the process's memory and open files sampled.

Run: ``python benchmarks/soak.py [--steps 10000] [--modes pynative,graph] [--every 250] [--output FILE]``.
Not a test (it takes minutes): it answers whether a long run leaks. Each mode runs in its own process, so
one mode's allocations do not show in the other's numbers. Every ``--every`` steps it reads the resident
set size (``VmRSS`` in ``/proc/self/status``) and the number of open file descriptors, and at the end it
reports RSS at the start, after the warm-up (the first sample at or after 10% of the steps), at the end
and at its peak, the growth from warm-up to end, and the least-squares slope of RSS over the post-warm-up
samples (bytes per 1,000 steps). Linux only (``/proc``).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def rss_bytes():
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def open_fds():
    return len(os.listdir("/proc/self/fd"))


def run_mode(mode, steps, every):
    """One mode in this process: the samples as (step, rss bytes, fds, seconds since start)."""
    sys.path.insert(0, HERE)
    import numpy as np

    import mindspore as ms
    from mindspore import nn

    import workloads_common as common
    import workloads_mindspore as workloads

    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    net = workloads.build(ms, "lenet")
    workloads.set_initial_params(ms, net, "lenet")
    x_np, labels_np = common.inputs("lenet")
    x, labels = ms.Tensor(x_np), ms.Tensor(labels_np.astype(np.int32))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    train.set_train()
    samples = []
    start = time.perf_counter()
    last = None
    for step in range(steps + 1):
        if step % every == 0:
            samples.append((step, rss_bytes(), open_fds(), time.perf_counter() - start))
        if step < steps:
            last = float(train(x, labels).asnumpy())
    return {"mode": mode, "samples": samples, "final_loss": last}


def summarize(result):
    samples = result["samples"]
    steps = samples[-1][0]
    warm = next(s for s in samples if s[0] >= steps // 10)
    after = [s for s in samples if s[0] >= warm[0]]
    n = len(after)
    mean_x = sum(s[0] for s in after) / n
    mean_y = sum(s[1] for s in after) / n
    var = sum((s[0] - mean_x) ** 2 for s in after)
    slope = sum((s[0] - mean_x) * (s[1] - mean_y) for s in after) / var if var else 0.0
    return {
        "mode": result["mode"], "steps": steps, "seconds": samples[-1][3],
        "rss_start_mib": samples[0][1] / 2**20, "rss_warm_mib": warm[1] / 2**20, "warm_step": warm[0],
        "rss_end_mib": samples[-1][1] / 2**20, "rss_peak_mib": max(s[1] for s in samples) / 2**20,
        "growth_after_warm_mib": (samples[-1][1] - warm[1]) / 2**20,
        "slope_kib_per_1000_steps": slope * 1000 / 1024,
        "fds_start": samples[0][2], "fds_end": samples[-1][2], "fds_max": max(s[2] for s in samples),
        "final_loss": result["final_loss"],
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=10000)
    p.add_argument("--modes", default="pynative,graph")
    p.add_argument("--every", type=int, default=250, help="sample every this many steps")
    p.add_argument("--output", default=None, help="also write the report (Markdown) here")
    p.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        print(json.dumps(run_mode(args.child, args.steps, args.every)))
        return
    rows = []
    for mode in args.modes.split(","):
        out = subprocess.run([sys.executable, __file__, "--child", mode, "--steps", str(args.steps), "--every",
                              str(args.every)], capture_output=True, text=True, check=True)
        rows.append(summarize(json.loads(out.stdout.strip().splitlines()[-1])))
    lines = [f"LeNet5 training, {args.steps} steps per mode, batch 32, RSS and open files sampled every {args.every} "
             "steps", "",
             "| mode | seconds | RSS start MiB | RSS after warm-up MiB (step) | RSS end MiB | peak MiB | growth after "
             "warm-up MiB | slope KiB / 1000 steps | fds start / end / max |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| {r['mode']} | {r['seconds']:.1f} | {r['rss_start_mib']:.1f} | {r['rss_warm_mib']:.1f} "
                     f"({r['warm_step']}) | {r['rss_end_mib']:.1f} | {r['rss_peak_mib']:.1f} | "
                     f"{r['growth_after_warm_mib']:+.2f} | {r['slope_kib_per_1000_steps']:+.1f} | "
                     f"{r['fds_start']} / {r['fds_end']} / {r['fds_max']} |")
    report = "\n".join(lines)
    print(report)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(report + "\n")


if __name__ == "__main__":
    main()
