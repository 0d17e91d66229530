"""How long a training step's first call takes, and how much of it is CUDA kernels compiling (CuPy's on-disk cache).

    python tests/gpu/first_step.py [--workloads lenet,resnet] [--modes pynative,graph] [--amp off,float16]
                                   [--device GPU] [--cache cold,warm] [--profile]

Each (workload, mode, amp) runs in a fresh process twice: first with an empty CuPy kernel cache (``CUPY_CACHE_DIR``
a new folder: every ElementwiseKernel, ReductionKernel and RawModule is compiled by NVRTC) and no cuDNN check or plan
remembered (``MS_GPU_CACHE_DIR`` a new folder too), then with the caches the first run filled. Per run it prints the ms
of building the network and its step, of the first step, and of the second, and how many compiled kernels the cache
holds afterwards: a first step that is slow cold and fast warm spends its time compiling kernels (the benchmark's
first float16 LeNet step took 10 s on an H200, unexplained).

``--profile`` runs each first step under ``cProfile`` and prints the ms spent (cumulative, so a phase includes what
it calls) in each of :data:`PHASES`: compiling the network's program, NVRTC compiling kernels, building cuDNN graphs
(convolutions, attention), loading and storing their plans (``mindspore_gpu.plans``) and checking them against im2col,
capturing CUDA graphs. (cProfile slows Python code about twofold: compare phases with each other, not with the
unprofiled first step.)
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

#: What ``--profile`` reports of a first step: a phase name -> (the end of the file's path, the function's name).
PHASES = {
    "program compile (core)": ("mindspore/_pipeline/compiler.py", "compile_callable"),
    "NVRTC (CuPy's kernel compiles)": ("cupy/cuda/compiler.py", "_compile_with_cache_cuda"),
    "cuDNN conv graph builds": ("mindspore_gpu/cudnn.py", "build"),
    "cuDNN plans loaded from disk (conv + attention)": ("mindspore_gpu/plans.py", "restore"),
    "cuDNN plans serialized and stored": ("mindspore_gpu/plans.py", "keep"),
    "cuDNN conv known-answer checks": ("mindspore_gpu/cudnn.py", "_known_answer"),
    "cuDNN conv per-case checks": ("mindspore_gpu/cudnn.py", "_case_check"),
    "cuDNN attention graphs (build + check)": ("mindspore_gpu/cudnn_attention.py", "_build"),
    "CUDA-graph captures": ("mindspore_gpu/capture.py", "_capture"),
}


def _phases(prof):
    """ms per :data:`PHASES` entry in ``prof`` (a ``cProfile.Profile``), the entries found."""
    import pstats
    stats = pstats.Stats(prof).stats
    found = {}
    for phase, (tail, name) in PHASES.items():
        total = sum(v[3] for (path, _, func), v in stats.items()
                    if func == name and path.replace("\\", "/").endswith(tail))
        if total:
            found[phase] = total * 1e3
    return found


def _child(workload, mode, amp, device, profile=False):
    import cProfile
    prof = cProfile.Profile() if profile else None
    t0 = time.perf_counter()
    import mindspore as ms
    sys.path.insert(0, str(HERE))
    from profile_step import train_step
    ms.set_context(device_target=device, mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    step = train_step(ms, workload, amp=amp)
    t1 = time.perf_counter()
    if prof is not None:
        prof.enable()
    step()
    if prof is not None:
        prof.disable()
    t2 = time.perf_counter()
    step()
    t3 = time.perf_counter()
    print(json.dumps({"build_ms": (t1 - t0) * 1e3, "first_ms": (t2 - t1) * 1e3, "second_ms": (t3 - t2) * 1e3,
                      "phases": _phases(prof) if prof is not None else {}}))


def _cached(folder):
    return sum(1 for p in pathlib.Path(folder).rglob("*") if p.is_file())


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workloads", default="lenet,resnet")
    p.add_argument("--modes", default="pynative,graph")
    p.add_argument("--amp", default="off,float16")
    p.add_argument("--device", default="GPU")
    p.add_argument("--cache", default="cold,warm", help="the kernel cache states reported (warm: as a cold run left "
                                                         "it, which runs first, reported or not)")
    p.add_argument("--profile", action="store_true", help="where each first step's time goes (see the docstring)")
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        _child(*args.child, args.device, args.profile)
        return
    print(f"{'workload':12s} {'mode':9s} {'amp':8s} {'cache':6s} {'build ms':>9s} {'first ms':>9s} {'second ms':>9s} "
          f"{'kernels cached':>14s}")
    for workload in args.workloads.split(","):
        for mode in args.modes.split(","):
            for amp in args.amp.split(","):
                with tempfile.TemporaryDirectory(prefix="gpu-caches-") as caches:
                    # a cold machine: CuPy's kernel cache and ours (the cuDNN checks passed) both empty
                    cache = os.path.join(caches, "cupy")
                    env = dict(os.environ, CUPY_CACHE_DIR=cache, MS_GPU_CACHE_DIR=os.path.join(caches, "mindspore"))
                    for state in ("cold", "warm"):        # (the cold run fills the cache, reported or not)
                        shown = state in args.cache.split(",")
                        if not shown and state == "warm":
                            break
                        done = subprocess.run([sys.executable, __file__, "--device", args.device, "--child", workload,
                                               mode, amp] + (["--profile"] if args.profile and shown else []),
                                              env=env, capture_output=True, text=True)
                        if done.returncode:
                            tail = (done.stderr.strip().splitlines() or ["?"])[-1]
                            print(f"{workload:12s} {mode:9s} {amp:8s} {state:6s} failed: {tail[:200]}")
                            break
                        if not shown:
                            continue
                        r = json.loads(done.stdout.strip().splitlines()[-1])
                        print(f"{workload:12s} {mode:9s} {amp:8s} {state:6s} {r['build_ms']:9.0f} {r['first_ms']:9.0f} "
                              f"{r['second_ms']:9.1f} {_cached(cache):14d}")
                        for phase, ms in sorted(r["phases"].items(), key=lambda kv: -kv[1]):
                            print(f"    {phase:40s} {ms:9.0f} ms (profiled)")


if __name__ == "__main__":
    main()
