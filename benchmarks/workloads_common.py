"""What the cross-framework benchmark scripts share: workloads, initial weights, inputs, timing, the CLI.

Imported by ``workloads_mindspore.py`` and ``workloads_torch.py`` (which lie next to it); it needs only NumPy,
so it runs in every benchmark venv. Not meant to be run on its own.

Initial weights: every workload has a fixed list of parameters (canonical names, as PyTorch would spell
them, with explicit shapes). ``initial_params`` walks that list in order and draws each array from one
``numpy.random.default_rng(SEED)``: weights and biases uniform in ±1/sqrt(fan_in) (PyTorch's default
bound), normalization scales 1, shifts 0, running means 0, running variances 1. Each framework script
maps its parameter names onto the canonical ones and sets every array into its network, checking that
names and shapes match one to one, so all frameworks start from identical weights. Inputs and labels
come from the same kind of generator (``inputs``).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time

import numpy as np

SEED = 1234
INPUT_SEED = 5678
NUM_CLASSES = 10
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")

# workload: (what it measures, input shape or None, training?)
WORKLOADS = {
    "mlp": ("MLP 784-512-512-10 training step, batch 128", (128, 784), True),
    "lenet": ("LeNet5 training step, 32x1x32x32", (32, 1, 32, 32), True),
    "resnet": ("CIFAR ResNet (3x2 BasicBlocks, 16/32/64) training step, 32x3x32x32", (32, 3, 32, 32), True),
    "transformer": ("Transformer encoder layer (d 256, 4 heads, FFN 1024) training step, 8x128", (8, 128, 256), True),
    "lenet_infer": ("LeNet5 inference, batch 256", (256, 1, 32, 32), False),
    "dispatch": ("eager dispatch: 10,000 chained adds on 1-element tensors", None, False),
}
DISPATCH_OPS = 10_000

# Transformer sizes
D_MODEL, HEADS, D_FF = 256, 4, 1024

# ResNet stages: (output channels, stride of the first block)
RESNET_STAGES = ((16, 1), (32, 2), (64, 2))
RESNET_BLOCKS = 2


def _dense(name, n_in, n_out, bias=True):
    specs = [(f"{name}.weight", (n_out, n_in), "uniform", n_in)]
    if bias:
        specs.append((f"{name}.bias", (n_out,), "uniform", n_in))
    return specs


def _conv(name, c_in, c_out, k):
    return [(f"{name}.weight", (c_out, c_in, k, k), "uniform", c_in * k * k)]


def _norm(name, c, running=False):
    specs = [(f"{name}.weight", (c,), "ones", 0), (f"{name}.bias", (c,), "zeros", 0)]
    if running:
        specs += [(f"{name}.running_mean", (c,), "zeros", 0), (f"{name}.running_var", (c,), "ones", 0)]
    return specs


def param_specs(workload):
    """The parameters of ``workload``'s network in generation order: (canonical name, shape, kind, fan_in)."""
    if workload == "mlp":
        return _dense("fc1", 784, 512) + _dense("fc2", 512, 512) + _dense("fc3", 512, NUM_CLASSES)
    if workload in ("lenet", "lenet_infer"):
        return (_conv("conv1", 1, 6, 5) + _conv("conv2", 6, 16, 5) + _dense("fc1", 16 * 5 * 5, 120)
                + _dense("fc2", 120, 84) + _dense("fc3", 84, NUM_CLASSES))
    if workload == "resnet":
        specs = _conv("conv1", 3, 16, 3) + _norm("bn1", 16, running=True)
        c_in = 16
        for stage, (c_out, stride) in enumerate(RESNET_STAGES, start=1):
            for block in range(RESNET_BLOCKS):
                prefix = f"layer{stage}.{block}"
                first_in = c_in if block == 0 else c_out
                specs += _conv(f"{prefix}.conv1", first_in, c_out, 3) + _norm(f"{prefix}.bn1", c_out, running=True)
                specs += _conv(f"{prefix}.conv2", c_out, c_out, 3) + _norm(f"{prefix}.bn2", c_out, running=True)
                if block == 0 and (stride != 1 or c_in != c_out):
                    specs += _conv(f"{prefix}.down_conv", c_in, c_out, 1)
                    specs += _norm(f"{prefix}.down_bn", c_out, running=True)
            c_in = c_out
        return specs + _dense("fc", 64, NUM_CLASSES)
    if workload == "transformer":
        return (_dense("wq", D_MODEL, D_MODEL) + _dense("wk", D_MODEL, D_MODEL) + _dense("wv", D_MODEL, D_MODEL)
                + _dense("wo", D_MODEL, D_MODEL) + _norm("ln1", D_MODEL) + _dense("ff1", D_MODEL, D_FF)
                + _dense("ff2", D_FF, D_MODEL) + _norm("ln2", D_MODEL) + _dense("head", D_MODEL, NUM_CLASSES))
    raise ValueError(f"workload {workload!r} has no parameters")


def initial_params(workload):
    """Canonical name -> float32 array, drawn in ``param_specs`` order from one seeded generator."""
    rng = np.random.default_rng(SEED)
    params = {}
    for name, shape, kind, fan_in in param_specs(workload):
        if kind == "uniform":
            bound = 1.0 / np.sqrt(fan_in)
            params[name] = rng.uniform(-bound, bound, shape).astype(np.float32)
        elif kind == "ones":
            params[name] = np.ones(shape, np.float32)
        else:
            params[name] = np.zeros(shape, np.float32)
    return params


def inputs(workload):
    """(x float32, labels int64) for ``workload``; labels are None for inference and dispatch."""
    shape = WORKLOADS[workload][1]
    rng = np.random.default_rng(INPUT_SEED)
    x = rng.standard_normal(shape).astype(np.float32)
    labels = rng.integers(0, NUM_CLASSES, shape[0]).astype(np.int64)
    return x, labels


def match_params(workload, named_arrays_setters):
    """Set the initial arrays through ``{canonical name: (shape, setter)}``; names and shapes must match 1:1."""
    params = initial_params(workload)
    missing = sorted(set(params) - set(named_arrays_setters))
    extra = sorted(set(named_arrays_setters) - set(params))
    if missing or extra:
        raise RuntimeError(f"{workload}: parameters do not match the spec: missing {missing}, unexpected {extra}")
    for name, (shape, setter) in named_arrays_setters.items():
        if tuple(shape) != params[name].shape:
            raise RuntimeError(f"{workload}: {name} has shape {tuple(shape)}, the spec says {params[name].shape}")
        setter(params[name])
    return len(params)


def apply_thread_env(threads):
    """Export the thread-count variables before a framework is imported (``None``: leave them as they are)."""
    if threads:
        for var in THREAD_VARIABLES:
            os.environ[var] = str(threads)
    return int(os.environ.get("OMP_NUM_THREADS", os.cpu_count() or 1))


#: ``--amp`` choices, and the loss scale of float16 training.
AMP_CHOICES = ("off", "float16", "bfloat16")
AMP_LOSS_SCALE = 1024.0


def parser(description, modes):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--workload", choices=tuple(WORKLOADS), required=True)
    p.add_argument("--mode", choices=modes, default=modes[0])
    p.add_argument("--steps", type=int, default=30, help="measured steps after the warm-up (default 30)")
    p.add_argument("--warmup", type=int, default=5, help="steps after the first one that are not measured")
    p.add_argument("--threads", type=int, default=None,
                   help="export OMP/MKL/OPENBLAS_NUM_THREADS and set the framework's thread count")
    p.add_argument("--json", action="store_true", help="print one JSON line (default: a readable line)")
    p.add_argument("--device", choices=("CPU", "GPU"), default="CPU",
                   help="where the workload runs (GPU: MindSpore's GPU target, PyTorch's CUDA device)")
    p.add_argument("--amp", choices=AMP_CHOICES, default="off",
                   help="mixed precision for the training workloads: 'float16' (MindSpore's amp level O2 with a static "
                        f"loss scale of {AMP_LOSS_SCALE:g}; PyTorch's autocast with a GradScaler starting there) or "
                        "'bfloat16' (O2 / autocast in bfloat16, no loss scale); default off")
    return p


def measure(step, steps, warmup):
    """Time ``step()`` (which must force its result to the host and return a float or None).

    Returns (first step ms, median ms over ``steps`` steps after ``warmup`` unmeasured ones, the values
    returned by the first three calls)."""
    values = []
    t0 = time.perf_counter()
    values.append(step())
    first_ms = (time.perf_counter() - t0) * 1e3
    for _ in range(warmup):
        value = step()
        if len(values) < 3:
            values.append(value)
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        value = step()
        times.append((time.perf_counter() - t0) * 1e3)
        if len(values) < 3:
            values.append(value)
    return first_ms, statistics.median(times), times, values


def report(args, framework, version, threads, first_ms, median_ms, times, values, extra=None):
    """Print the result line; the unit of ``median`` depends on the workload (ms, images/s or µs/op)."""
    result = {"framework": framework, "version": version, "mode": args.mode, "workload": args.workload,
              "threads": threads, "steps": args.steps, "warmup": args.warmup, "first_step_ms": first_ms,
              "median_ms": median_ms, "min_ms": min(times), "max_ms": max(times),
              "python": platform.python_version()}
    if WORKLOADS[args.workload][2]:
        result["first_loss"] = values[0]
        result["losses"] = values
    if args.workload == "lenet_infer":
        result["images_per_s"] = WORKLOADS["lenet_infer"][1][0] / (median_ms / 1e3)
        result["first_checksum"] = values[0]
    if args.workload == "dispatch":
        result["us_per_op"] = median_ms * 1e3 / DISPATCH_OPS
        result["first_us_per_op"] = first_ms * 1e3 / DISPATCH_OPS
    result.update(extra or {})
    if args.json:
        print(json.dumps(result), flush=True)
    else:
        loss = f", first loss {result['first_loss']:.6f}" if "first_loss" in result else ""
        unit = (f", {result['images_per_s']:.0f} images/s" if "images_per_s" in result else
                f", {result['us_per_op']:.2f} us/op" if "us_per_op" in result else "")
        print(f"{framework} {version} {args.mode} {args.workload}: first step {first_ms:.1f} ms, "
              f"median {median_ms:.3f} ms{unit}{loss} ({threads} threads)", flush=True)
