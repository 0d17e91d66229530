"""Where a training step's time goes on the GPU: per primitive, and per Python function.

    python tests/gpu/profile_step.py [--workloads mlp,lenet,resnet,transformer] [--mode graph|pynative] [--amp float16]

For every workload (the benchmark's networks, seeded weights and inputs) it runs the training step and prints

* the median ms per step (nothing hooked), and the host's time to issue a step beside the time until the device
  finished the same steps (equal: the step is bound by the host; the second larger: by the device);
* GRAPH_MODE only: every kernel of three steps timed with the device synchronised before and after it (so the
  numbers are launch + GPU time, the sum larger than a step), summed per primitive, the largest first;
* PYNATIVE only: the host time of each primitive call (dispatch and kernel, nothing waiting for the device) summed per
  primitive, beside the host time outside the primitive calls;
* the functions where a profiled step spends its own time (``cProfile``, sorted by ``tottime``), which shows host
  overhead: kernel compilation or module loading, host round trips, Python dispatch; then the backend's kernel functions
  sorted by cumulative time: the kernels that cost most, waits for the device included.

GRAPH_MODE runs with ``MS_GPU_GRAPH_CAPTURE=0`` unless it is set (a replayed CUDA graph runs no kernel to time);
PYNATIVE keeps capture on, as the benchmark runs it (the optimizer's compiled update replays as one graph), and the
capture counters are printed.
"""
import argparse
import cProfile
import io
import os
import pathlib
import pstats
import statistics
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[2]


def train_step(ms, workload, batch=None, amp="off"):
    """The benchmark's training step of ``workload`` (its inputs cut to ``batch`` rows when given; with ``amp``
    ``float16`` or ``bfloat16``, the benchmark's amp O2 network, the float16 one in its fixed loss-scaled step)."""
    import numpy as np
    from mindspore import nn

    if str(REPO / "benchmarks") not in sys.path:
        sys.path.insert(0, str(REPO / "benchmarks"))
    import workloads_common as common
    import workloads_mindspore as wm

    net = wm.build(ms, workload)
    wm.set_initial_params(ms, net, workload)
    x_np, labels_np = common.inputs(workload)
    if batch:
        x_np, labels_np = x_np[:batch], labels_np[:batch]
    x, labels = ms.Tensor(x_np), ms.Tensor(labels_np.astype(np.int32))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Adam(net.trainable_params(), learning_rate=1e-3) if workload == "transformer" else \
        nn.Momentum(net.trainable_params(), 0.01, 0.9)
    if amp != "off":
        net = ms.amp.auto_mixed_precision(net, "O2", dtype=getattr(ms, amp))
    if amp == "float16":
        scale = ms.Tensor(np.float32(common.AMP_LOSS_SCALE))
        train = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, loss), optimizer, scale_sense=scale)
        train.set_train()
        raw = lambda: train(x, labels)[0]      # noqa: E731
    else:
        train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer)
        train.set_train()
        raw = lambda: train(x, labels)         # noqa: E731

    def step():
        return raw().asnumpy()
    step.raw = raw       # the step without reading the loss back (nothing waits for the device)
    return step


def step_times(step, steps):
    """ms of each of ``steps`` calls of ``step``."""
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        step()
        times.append((time.perf_counter() - t0) * 1e3)
    return times


def kernel_host_time(ms, step, steps, top):
    """PYNATIVE: the host time of each primitive call (the eager dispatch and its kernel, nothing waiting for the
    device), summed per primitive over ``steps`` issued steps, beside the time outside them (the tape, the cells, the
    optimizer's replay)."""
    from mindspore._runtime import dispatch
    per, depth = {}, [0]
    plain = dispatch.Eager.apply

    def timed(self, prim, args):
        depth[0] += 1
        t0 = time.perf_counter()
        try:
            return plain(self, prim, args)
        finally:
            depth[0] -= 1
            if depth[0] == 0:         # (a kernel calling primitives counts once, in its caller)
                entry = per.setdefault(prim.name, [0, 0.0])
                entry[0] += 1
                entry[1] += time.perf_counter() - t0
    ms.runtime.synchronize()
    dispatch.Eager.apply = timed
    try:
        t0 = time.perf_counter()
        for _ in range(steps):
            step.raw()
        total = (time.perf_counter() - t0) / steps
    finally:
        dispatch.Eager.apply = plain
    ms.runtime.synchronize()
    inside = sum(t for _, t in per.values()) / steps
    calls = sum(c for c, _ in per.values()) / steps
    print(f"host time per issued step: {total * 1e3:.3f} ms, {inside * 1e3:.3f} ms of it in {calls:.0f} primitive "
          f"calls, {(total - inside) * 1e3:.3f} ms outside them")
    for name, (count, t) in sorted(per.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"  {name:36s} {count / steps:5.1f} x {t / count * 1e6:7.1f} us = {t / steps * 1e6:7.1f} us per step")


def profile(workload, mode, steps, top, device="GPU", profile_steps=3, amp="off"):
    import mindspore as ms
    from mindspore._runtime import executor

    ms.set_context(device_target=device, mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    step = train_step(ms, workload, amp=amp)
    for _ in range(5):
        step()
    times = step_times(step, steps)
    label = f"{workload} {mode}" + ("" if amp == "off" else f" amp O2 {amp}")
    print(f"## {label}: {statistics.median(times):.2f} ms per step (median of {steps})")
    # host-bound or device-bound: the host's time to issue a step (nothing read back, the device may lag behind)
    # beside the time per step of the same steps run to completion
    ms.runtime.synchronize()
    t0 = time.perf_counter()
    for _ in range(steps):
        step.raw()
    issued = time.perf_counter()
    ms.runtime.synchronize()
    done = time.perf_counter()
    print(f"issuing a step: {(issued - t0) / steps * 1e3:.2f} ms on the host; {(done - t0) / steps * 1e3:.2f} ms per "
          f"step until the device finished ({steps} steps, no loss read back)")
    if device == "GPU":
        from mindspore_gpu import capture     # (PYNATIVE: the optimizer's compiled update is captured, or why not)
        print(f"CUDA graphs so far: {capture.STATS}")
    if mode == "pynative":
        kernel_host_time(ms, step, steps, top)

    if mode == "graph":
        per = {}
        sync = ms.runtime.synchronize

        def hook(prim, kernel, args, out):
            sync()
            t0 = time.perf_counter()
            result = kernel(prim, *args, out=out)
            sync()
            name = getattr(prim, "name", type(prim).__name__)
            entry = per.setdefault(name, [0, 0.0])
            entry[0] += 1
            entry[1] += time.perf_counter() - t0
            return result
        executor.set_kernel_hook(hook)
        try:
            for _ in range(3):
                step()
        finally:
            executor.set_kernel_hook(None)
        total = sum(t for _, t in per.values())
        print(f"kernels, synchronised (3 steps, per step): {total / 3 * 1e3:.2f} ms in {sum(c for c, _ in per.values()) // 3}"
              " kernels")
        for name, (count, t) in sorted(per.items(), key=lambda kv: -kv[1][1])[:top]:
            print(f"  {name:32s} {count // 3:4d} x  {t / 3 * 1e3:8.3f} ms  ({t / count * 1e6:8.1f} us each)")

    prof = cProfile.Profile()
    prof.enable()
    for _ in range(profile_steps):
        step()
    prof.disable()
    for key, title, where in (("tottime", "own time", ()), ("cumulative", "cumulative time, kernels only",
                                                           (r"kernels[/\\]|cudnn",))):
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats(key).print_stats(*where, top)
        lines = [ln for ln in buf.getvalue().splitlines() if ln.strip()]
        start = next((i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls")), 0)
        print(f"cProfile, {profile_steps} steps, by {title}:")
        for ln in lines[start:start + top + 1]:
            print("  " + ln.replace(str(REPO), "").replace(sys.prefix, "<venv>")[:200])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workloads", default="mlp,lenet,resnet,transformer")
    p.add_argument("--mode", default="graph", choices=("graph", "pynative"))
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--top", type=int, default=18)
    p.add_argument("--profile-steps", type=int, default=3, help="steps run under cProfile")
    p.add_argument("--device", default="GPU", help="the device target (CPU: to try this script without a GPU)")
    p.add_argument("--amp", default="off", choices=("off", "float16", "bfloat16"),
                   help="the benchmark's amp O2 network (float16: in its loss-scaled step)")
    args = p.parse_args()
    if args.mode == "graph":    # a replayed CUDA graph runs no kernel of ours to time (PYNATIVE keeps capture: its
        os.environ.setdefault("MS_GPU_GRAPH_CAPTURE", "0")    # optimizer's compiled update is captured, as benchmarked)
    for workload in args.workloads.split(","):
        try:
            profile(workload, args.mode, args.steps, args.top, args.device, args.profile_steps, args.amp)
        except Exception as exc:  # one workload's failure must not hide the others' profiles
            print(f"## {workload} {args.mode}: FAILED {type(exc).__name__}: {str(exc)[:600]}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
