"""Eager dispatch overhead: 10,000 chained ``ops.add`` on 1-element float32 tensors (µs per op).

Run: ``python benchmarks/bench_dispatch.py``. Not a test: numbers depend on the machine.
Also times the same chain under an active gradient tape, and a NumPy baseline for reference.
"""
import statistics
import time

import numpy as np

import mindspore as ms
from mindspore import ops

N = 10_000
REPEATS = 7


def chain(n):
    x = ms.Tensor(np.ones(1, np.float32))
    y = ms.Tensor(np.ones(1, np.float32))
    t0 = time.perf_counter()
    for _ in range(n):
        x = ops.add(x, y)
    x.asnumpy()
    return (time.perf_counter() - t0) / n * 1e6


def chain_recorded(n):
    def f(x):
        y = ms.Tensor(np.ones(1, np.float32))
        for _ in range(n):
            x = ops.add(x, y)
        return x
    x = ms.Tensor(np.ones(1, np.float32))
    t0 = time.perf_counter()
    ms.grad(f)(x)
    return (time.perf_counter() - t0) / n * 1e6


def numpy_chain(n):
    x = np.ones(1, np.float32)
    y = np.ones(1, np.float32)
    t0 = time.perf_counter()
    for _ in range(n):
        x = np.add(x, y)
    return (time.perf_counter() - t0) / n * 1e6


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.set_device("CPU")
    chain(1000)  # warm-up: plugin discovery, kernel cache
    rows = [
        ("ops.add eager", statistics.median(chain(N) for _ in range(REPEATS))),
        ("ops.add under grad (forward + backward)", statistics.median(chain_recorded(N) for _ in range(3))),
        ("numpy.add (baseline)", statistics.median(numpy_chain(N) for _ in range(REPEATS))),
    ]
    print(f"{N} chained adds on 1-element float32 tensors, median of runs")
    print("| what | µs per op |\n| --- | --- |")
    for name, us in rows:
        print(f"| {name} | {us:.2f} |")


if __name__ == "__main__":
    main()
