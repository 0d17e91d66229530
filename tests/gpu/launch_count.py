"""How many CUDA kernel launches a PYNATIVE training step takes on the GPU backend, counted without a GPU.

    python tests/gpu/launch_count.py [--workloads mlp,lenet,resnet,transformer] [--batch N] [--top 20] [--capture]
                                     [--amp float16|bfloat16] [--mode graph]

On a GPU a small PYNATIVE step is bound by the host: each CuPy kernel launch costs about 10 us of Python (measured on
an H200), so the number of launches per step is what to reduce. This runs the benchmark's training steps
(``benchmarks/workloads_mindspore.py``'s networks and seeded weights, the ``TrainOneStepCell`` of
``profile_step.train_step``; the inputs cut to ``--batch`` rows, which changes no count unless a kernel loops over
the batch in Python) on the CuPy stand-in (``mindspore-gpu/tests/cupy_sim.py``) with ``ElementwiseKernel`` offered,
so the GPU kernels take their fused paths as on a real GPU, and counts the stand-in's launches
(``cupy_sim.LAUNCHES``: ufuncs and operators, reductions, computing ``cupy.*`` functions, casts and copies,
ElementwiseKernel calls, gathers/scatters, host<->device copies; views count none). Each launch is attributed to
the primitive whose kernel ran it (forward and bprop primitives alike; launches outside any kernel, such as
uploading the inputs, go to ``<outside kernels>``). It prints, per workload, the launches per step and the top
primitives with their launches per step, calls per step and the launch kinds they use most. ``--amp`` counts the
benchmark's amp O2 step instead (float16: its loss-scaled step). ``--mode graph`` counts the GRAPH_MODE step (the GPU
backend's passes applied; a fused apply's launches go to ``<outside kernels>``).
"""
import argparse
import collections
import os
import pathlib
import sys
import types

REPO = pathlib.Path(__file__).resolve().parents[2]
TARGET = "GPULAUNCH"
OUTSIDE = "<outside kernels>"
WORKLOADS = ("mlp", "lenet", "resnet", "transformer")


def _sim():
    path = str(REPO / "mindspore-gpu" / "tests")
    if path not in sys.path:
        sys.path.insert(0, path)
    import cupy_sim
    return cupy_sim


class Attribution:
    """Launches by primitive (the outermost kernel running) and, per primitive, by launch kind."""

    def __init__(self):
        self.stack = []
        self.launches = collections.Counter()
        self.calls = collections.Counter()
        self.kinds = collections.defaultdict(collections.Counter)

    def on_launch(self, kind):
        name = self.stack[0] if self.stack else OUTSIDE
        self.launches[name] += 1
        self.kinds[name][kind] += 1

    def reset(self):
        self.launches.clear()
        self.calls.clear()
        self.kinds.clear()

    def wrap(self, name, fn):
        def kernel(prim, *inputs, out=None):
            if not self.stack:
                self.calls[name] += 1
            self.stack.append(name)
            try:
                return fn(prim, *inputs, out=out)
            finally:
                self.stack.pop()
        kernel.__name__ = kernel.__qualname__ = getattr(fn, "__name__", name)
        kernel.__module__ = getattr(fn, "__module__", __name__)
        return kernel


_STATE = {}


def install(ms):
    """Register (once per process) the ``GPULAUNCH`` target: the GPU kernel tables on the stand-in with
    ``ElementwiseKernel`` (and the GPU backend's passes, as the GPU target has them), every kernel wrapped so that
    its launches are attributed to its primitive. Returns (the target, the :class:`Attribution`, the counter)."""
    if "attribution" not in _STATE:
        cupy_sim = _sim()
        graph = cupy_sim.load_graph_modules()
        graph.capture.GEMM_FACTORY["make"] = cupy_sim.SimCublasGemm    # (captured matrix products, as on a GPU)
        attribution = Attribution()
        families = [types.SimpleNamespace(__name__=f.__name__,
                                          KERNELS={n: attribution.wrap(n, fn) for n, fn in f.KERNELS.items()})
                    for f in graph.families]
        ms.plugin.register_plugin(cupy_sim.make_plugin(TARGET, families, graph=graph), TARGET.lower())
        _STATE.update(attribution=attribution, counter=cupy_sim.LAUNCHES)
    return TARGET, _STATE["attribution"], _STATE["counter"]


def uninstall(ms):
    """Unregister the ``GPULAUNCH`` target (if :func:`install` registered it)."""
    if _STATE.pop("attribution", None) is not None:
        _STATE.clear()
        ms.plugin.unregister_plugin(TARGET.lower())


def run_on(ms, target, thunk):
    """``thunk()`` (a tensor or a list of them) run with ``target`` as the device, as NumPy arrays."""
    before = ms.get_context("device_target_requested")
    ms.set_context(device_target=target)
    try:
        outs = thunk()
        return [o.asnumpy() for o in (outs if isinstance(outs, (tuple, list)) else (outs,))]
    finally:
        ms.context.store("device_target", before)
        from mindspore import _generation
        _generation.bump()


def kinds_of(ms, thunk, primitive):
    """The launch kinds of ``primitive``'s kernels in a second run of ``thunk`` on the :func:`install`-ed target."""
    target, attribution, counter = install(ms)
    run_on(ms, target, thunk)
    kinds = []

    def listen(kind):
        if attribution.stack and attribution.stack[0] == primitive:
            kinds.append(kind)
    prev, counter.listener = counter.listener, listen
    try:
        run_on(ms, target, thunk)
    finally:
        counter.listener = prev
    return kinds


def train_step(ms, workload, batch=None, amp="off"):
    """The benchmark's PYNATIVE training step of ``workload`` (``profile_step.train_step``, this folder's), inputs
    cut to ``batch`` rows, its amp O2 network with ``amp`` ``float16`` or ``bfloat16``."""
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    from profile_step import train_step as step
    return step(ms, workload, batch, amp=amp)


def measure(workload, batch=4, steps=2, warmup=1, capture=False, amp="off", mode="pynative"):
    """(launches per step, {primitive: launches per step}, {primitive: calls per step}, {primitive: Counter of
    launch kinds per step}, the last step's loss) of ``workload``'s PYNATIVE step on the stand-in. With ``capture``,
    CUDA-graph capture is on as on a GPU (the optimizer's compiled update is captured at its third call: at least
    three warm-up steps), and a replayed graph counts one launch, ``graph launch``, outside any kernel."""
    import mindspore as ms

    target, attribution, counter = install(ms)
    if capture:
        warmup = max(warmup, 3)
        cupy_sim = _sim()
        launch = cupy_sim.Graph.launch

        def counted(graph, stream=None):
            counter.add("graph launch")
            counter.nested += 1
            try:
                return launch(graph, stream)
            finally:
                counter.nested -= 1
        before = os.environ.get("MS_GPU_GRAPH_CAPTURE")
        os.environ["MS_GPU_GRAPH_CAPTURE"] = "1"
        cupy_sim.Graph.launch = counted
        try:
            return measure(workload, batch, steps, warmup, amp=amp, mode=mode)
        finally:
            cupy_sim.Graph.launch = launch
            if before is None:
                os.environ.pop("MS_GPU_GRAPH_CAPTURE")
            else:
                os.environ["MS_GPU_GRAPH_CAPTURE"] = before
    from mindspore import _generation

    prev_target, prev_mode = ms.get_context("device_target_requested"), ms.get_context("mode")
    ms.set_context(device_target=target, mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    prev_listener = counter.listener
    try:
        step = train_step(ms, workload, batch, amp)
        for _ in range(warmup):
            step()
        counter.listener = attribution.on_launch
        attribution.reset()
        start = counter.total
        for _ in range(steps):
            loss = step()
        total = counter.total - start
    finally:
        counter.listener = prev_listener
        ms.set_context(mode=prev_mode)
        ms.context.store("device_target", prev_target)
        _generation.bump(plugins=False)
    per = {k: v / steps for k, v in attribution.launches.items()}
    calls = {k: v / steps for k, v in attribution.calls.items()}
    kinds = {k: collections.Counter({kk: vv / steps for kk, vv in v.items()}) for k, v in attribution.kinds.items()}
    return total / steps, per, calls, kinds, loss


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workloads", default=",".join(WORKLOADS))
    p.add_argument("--batch", type=int, default=4, help="input rows (0: the benchmark's batch)")
    p.add_argument("--steps", type=int, default=2)
    p.add_argument("--top", type=int, default=20)
    p.add_argument("--kinds", type=int, default=4, help="launch kinds shown per primitive")
    p.add_argument("--amp", default="off", choices=("off", "float16", "bfloat16"))
    p.add_argument("--capture", action="store_true",
                   help="CUDA-graph capture on, as on a GPU (the optimizer's compiled update is then one graph launch)")
    p.add_argument("--mode", default="pynative", choices=("pynative", "graph"))
    args = p.parse_args()
    os.environ.setdefault("MS_GPU_GRAPH_CAPTURE", "0")
    import warnings
    warnings.simplefilter("ignore", RuntimeWarning)
    summary = []
    for workload in args.workloads.split(","):
        total, per, calls, kinds, _ = measure(workload, args.batch or None, args.steps, capture=args.capture,
                                              amp=args.amp, mode=args.mode)
        summary.append((workload, total))
        amp = "" if args.amp == "off" else " amp O2 " + args.amp
        print(f"## {workload} {args.mode.upper()}{amp}: {total:.0f} launches per step (batch "
              f"{args.batch or 'of the benchmark'}{', capture on' if args.capture else ''})")
        print(f"  {'primitive':32s} {'launches':>8s} {'calls':>6s} {'per call':>8s}  top kinds")
        for name, n in sorted(per.items(), key=lambda kv: -kv[1])[:args.top]:
            c = calls.get(name, 0)
            top = ", ".join(f"{k} {v:g}" for k, v in kinds[name].most_common(args.kinds))
            print(f"  {name:32s} {n:8.0f} {c:6.0f} {n / c if c else 0:8.1f}  {top}")
    print("## launches per step: " + ", ".join(f"{w} {t:.0f}" for w, t in summary))


if __name__ == "__main__":
    main()
