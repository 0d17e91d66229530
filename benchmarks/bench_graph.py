"""GRAPH_MODE against PYNATIVE: compile time and step time of training steps (not a test).

Run: ``python benchmarks/bench_graph.py [--steps N] [--rounds R]``. Workloads (one
``TrainOneStepCell`` step each, ``SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')`` and
``Momentum(0.01, 0.9)``, results forced to the host every step):

* ``mlp``: 784-512-512-10 with ReLU, batch 128;
* ``lenet``: LeNet5 on 32x1x32x32 (the networks of ``workloads_mindspore.py``).

For each workload, both modes get networks with the same initial weights. The first PYNATIVE step
runs first (it also warms the backend: kernel libraries, thread pools), then the first GRAPH step,
which includes the compilation: "compile" is the compiler's own time (parse, inference with autodiff,
passes, schedule), "first step" the whole first call. Steady state: the modes alternate in rounds of
``--steps`` steps (so machine noise hits both alike); the median over all rounds is reported, with the
two modes' first-step losses to show they compute the same thing.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import nn
from mindspore.plugin import compile_statistics

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import workloads_mindspore as workloads  # noqa: E402 - the benchmark networks, shared with the harness


WORKLOADS = {"mlp": (128, 784), "lenet": (32, 1, 32, 32)}   # the networks of workloads_mindspore.py


def _train_step(name, seed):
    ms.set_seed(seed)
    net = workloads.build(ms, name)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    return step


def _timed(step, x, y, mode):
    ms.set_context(mode=mode)
    t0 = time.perf_counter()
    loss = step(x, y).asnumpy()
    return time.perf_counter() - t0, float(loss)


def bench(name, steps, rounds):
    shape = WORKLOADS[name]
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal(shape).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, shape[0]).astype(np.int32))
    eager, graph = _train_step(name, 1), _train_step(name, 1)
    first_eager, loss_eager = _timed(eager, x, y, ms.PYNATIVE_MODE)
    first_graph, loss_graph = _timed(graph, x, y, ms.GRAPH_MODE)
    compile_s = compile_statistics()["last_compile_s"]
    times = {ms.PYNATIVE_MODE: [], ms.GRAPH_MODE: []}
    for _ in range(rounds):
        for mode, step in ((ms.GRAPH_MODE, graph), (ms.PYNATIVE_MODE, eager)):
            for _ in range(steps):
                times[mode].append(_timed(step, x, y, mode)[0])
    ms.set_context(mode=ms.PYNATIVE_MODE)
    med_e = statistics.median(times[ms.PYNATIVE_MODE]) * 1e3
    med_g = statistics.median(times[ms.GRAPH_MODE]) * 1e3
    return dict(name=name, compile_ms=compile_s * 1e3, first_graph_ms=first_graph * 1e3,
                first_eager_ms=first_eager * 1e3, step_graph_ms=med_g, step_eager_ms=med_e,
                speedup=med_e / med_g, loss_eager=loss_eager, loss_graph=loss_graph)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    args = parser.parse_args()
    print("| workload | compile ms | first step GRAPH ms | first step PYNATIVE ms | step GRAPH ms | "
          "step PYNATIVE ms | PYNATIVE/GRAPH | first loss GRAPH / PYNATIVE |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in args.workloads.split(","):
        r = bench(name, args.steps, args.rounds)
        print(f"| {r['name']} | {r['compile_ms']:.1f} | {r['first_graph_ms']:.1f} | {r['first_eager_ms']:.1f} | "
              f"{r['step_graph_ms']:.2f} | {r['step_eager_ms']:.2f} | {r['speedup']:.2f}x | "
              f"{r['loss_graph']:.6f} / {r['loss_eager']:.6f} |")


if __name__ == "__main__":
    main()
