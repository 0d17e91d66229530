"""How long a training step's first call takes, and how much of it is CUDA kernels compiling (CuPy's on-disk cache).

    python tests/gpu/first_step.py [--workloads lenet,resnet] [--modes pynative,graph] [--amp off,float16]
                                   [--device GPU]

Each (workload, mode, amp) runs in a fresh process twice: first with an empty CuPy kernel cache (``CUPY_CACHE_DIR``
a new folder: every ElementwiseKernel, ReductionKernel and RawModule is compiled by NVRTC), then with the cache the
first run filled. Per run it prints the ms of building the network and its step, of the first step, and of the
second, and how many compiled kernels the cache holds afterwards: a first step that is slow cold and fast warm
spends its time compiling kernels (the benchmark's first float16 LeNet step took 10 s on an H200, unexplained).
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent


def _child(workload, mode, amp, device):
    t0 = time.perf_counter()
    import mindspore as ms
    sys.path.insert(0, str(HERE))
    from profile_step import train_step
    ms.set_context(device_target=device, mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    step = train_step(ms, workload, amp=amp)
    t1 = time.perf_counter()
    step()
    t2 = time.perf_counter()
    step()
    t3 = time.perf_counter()
    print(json.dumps({"build_ms": (t1 - t0) * 1e3, "first_ms": (t2 - t1) * 1e3, "second_ms": (t3 - t2) * 1e3}))


def _cached(folder):
    return sum(1 for p in pathlib.Path(folder).rglob("*") if p.is_file())


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workloads", default="lenet,resnet")
    p.add_argument("--modes", default="pynative,graph")
    p.add_argument("--amp", default="off,float16")
    p.add_argument("--device", default="GPU")
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        _child(*args.child, args.device)
        return
    print(f"{'workload':12s} {'mode':9s} {'amp':8s} {'cache':6s} {'build ms':>9s} {'first ms':>9s} {'second ms':>9s} "
          f"{'kernels cached':>14s}")
    for workload in args.workloads.split(","):
        for mode in args.modes.split(","):
            for amp in args.amp.split(","):
                with tempfile.TemporaryDirectory(prefix="cupy-cache-") as cache:
                    env = dict(os.environ, CUPY_CACHE_DIR=cache)
                    for state in ("cold", "warm"):
                        done = subprocess.run([sys.executable, __file__, "--device", args.device, "--child", workload,
                                               mode, amp], env=env, capture_output=True, text=True)
                        if done.returncode:
                            tail = (done.stderr.strip().splitlines() or ["?"])[-1]
                            print(f"{workload:12s} {mode:9s} {amp:8s} {state:6s} failed: {tail[:200]}")
                            break
                        r = json.loads(done.stdout.strip().splitlines()[-1])
                        print(f"{workload:12s} {mode:9s} {amp:8s} {state:6s} {r['build_ms']:9.0f} {r['first_ms']:9.0f} "
                              f"{r['second_ms']:9.1f} {_cached(cache):14d}")


if __name__ == "__main__":
    main()
