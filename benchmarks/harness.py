"""Cross-framework benchmark harness: our packages, real MindSpore and PyTorch on the same workloads.

Run: ``python benchmarks/harness.py [--ours-python P] [--mindspore-python P] [--torch-python P]
[--workloads mlp,lenet,...] [--skip mindspore] [--steps 30] [--warmup 5] [--rounds 1] [--threads N]``,
or ``nox -s bench`` (which builds the three venvs first). Not a test: numbers depend on the machine.

Each (framework, mode, workload) runs in its own subprocess with its venv's interpreter:
``workloads_mindspore.py`` for ours and real MindSpore (PYNATIVE and GRAPH), ``workloads_torch.py`` for
PyTorch (eager and ``torch.compile``); the dispatch workload runs in the eager modes only. Real MindSpore's
PYNATIVE also runs a second time with ``mindspore.runtime.launch_blocking()`` ("PYNATIVE blocking"): its
default asynchronous pipeline keeps more threads busy than a 2-core machine has, and synchronous execution
is several times faster there. Every run gets the
same thread count (``OMP_NUM_THREADS``, ``MKL_NUM_THREADS``, ``OPENBLAS_NUM_THREADS`` and the framework's own
setting; default: the machine's core count) and real MindSpore also ``ONEDNN_MAX_CPU_ISA=AVX2``. The runs
go workload by workload, so slow drifts in machine load hit every framework alike; with ``--rounds R`` the
whole grid runs R times and each number is the lowest of its R values (other processes only add time).

It writes ``benchmarks/RESULTS.md``: date, machine, versions, the medians side by side, our ratios to each
peer, the first-step times (compilation included) and the first-step losses of every framework with whether
they agree to 1e-4; and the raw JSON lines to ``benchmarks/results.json``. A framework whose interpreter is
missing or cannot import it is skipped, and RESULTS.md says so; a run that fails is reported, not fatal.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import workloads_common as common

TOLERANCE = 1e-4
FRAMEWORKS = {  # name: (script, modes, label of each mode, import check)
    "ours": ("workloads_mindspore.py", ("pynative", "graph"), ("ours PYNATIVE", "ours GRAPH"),
             "import mindspore, mindspore_cpu; print(mindspore.__version__)"),
    "mindspore": ("workloads_mindspore.py", ("pynative", "pynative_blocking", "graph"),
                  ("MindSpore PYNATIVE", "MindSpore PYNATIVE blocking", "MindSpore GRAPH"),
                  ("import importlib.util, mindspore; assert importlib.util.find_spec('mindspore_cpu') is None, "
                   "'this is our mindspore, not the real one'; print(mindspore.__version__)")),
    "torch": ("workloads_torch.py", ("eager", "compile"), ("torch eager", "torch.compile"),
              "import torch; print(torch.__version__)"),
}
MODE_ARGUMENTS = {"pynative_blocking": ["--mode", "pynative", "--launch-blocking"]}  # others: --mode <mode>
EAGER_MODES = ("pynative", "pynative_blocking", "eager")
COLUMNS = [(fw, mode, label) for fw, (_, modes, labels, _) in FRAMEWORKS.items() for mode, label in zip(modes, labels)]
RATIOS = [  # (numerator, denominator) column labels
    ("ours GRAPH", "torch eager"), ("ours GRAPH", "torch.compile"), ("ours GRAPH", "MindSpore GRAPH"),
    ("ours PYNATIVE", "MindSpore PYNATIVE"), ("ours PYNATIVE", "MindSpore PYNATIVE blocking"),
    ("ours PYNATIVE", "torch eager"),
]


def gpu_name():
    """The GPU's name and driver, from nvidia-smi (or why not)."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30)
        return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else "unknown GPU"
    except (OSError, subprocess.TimeoutExpired):
        return "nvidia-smi unavailable"


def default_python(venv):
    return os.path.join(ROOT, venv, "bin", "python")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ours-python", default=default_python(".venv"), help="interpreter with our packages")
    p.add_argument("--mindspore-python", default=default_python(".venv-bench-ms"),
                   help="interpreter with real mindspore==2.10.0")
    p.add_argument("--torch-python", default=default_python(".venv-bench-torch"), help="interpreter with torch")
    p.add_argument("--workloads", default=",".join(common.WORKLOADS),
                   help=f"comma-separated subset of {','.join(common.WORKLOADS)}")
    p.add_argument("--skip", default="", help="comma-separated frameworks not to run (ours, mindspore, torch)")
    p.add_argument("--threads", type=int, default=os.cpu_count(), help="threads for every framework (cores)")
    p.add_argument("--steps", type=int, default=30, help="measured steps per run (at least 30 for RESULTS.md)")
    p.add_argument("--warmup", type=int, default=5, help="unmeasured steps after the first one")
    p.add_argument("--rounds", type=int, default=1, help="run the grid this many times, keep the lowest values")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per run")
    p.add_argument("--device", choices=("CPU", "GPU"), default="CPU",
                   help="run every workload on the CPU or the GPU (MindSpore's GPU target, PyTorch's CUDA)")
    p.add_argument("--amp", choices=common.AMP_CHOICES, default="off",
                   help="mixed precision of the training workloads, passed to every framework's script (default off)")
    p.add_argument("--output", default=os.path.join(HERE, "RESULTS.md"))
    p.add_argument("--raw", default=os.path.join(HERE, "results.json"), help="where the JSON lines go")
    args = p.parse_args(argv)
    args.workloads = [w for w in args.workloads.split(",") if w]
    unknown = [w for w in args.workloads if w not in common.WORKLOADS]
    if unknown:
        p.error(f"unknown workloads {unknown}")
    args.skip = {f for f in args.skip.split(",") if f}
    if args.skip - set(FRAMEWORKS):
        p.error(f"unknown frameworks in --skip: {sorted(args.skip - set(FRAMEWORKS))}")
    return args


def run_env(framework, threads):
    env = dict(os.environ)
    for var in common.THREAD_VARIABLES:
        env[var] = str(threads)
    env["PYTHONUNBUFFERED"] = "1"
    if framework == "mindspore":
        env["ONEDNN_MAX_CPU_ISA"] = "AVX2"  # its fastest setting on this kind of machine
        env.setdefault("GLOG_v", "3")  # errors only: keep its warnings out of the captured output
    if framework == "torch":
        env["TORCHINDUCTOR_FORCE_DISABLE_CACHES"] = "1"  # the first step always includes the compilation
    return env


def probe(python, framework, threads):
    """(version, None) if ``python`` can import ``framework``, else (None, why not)."""
    if not os.path.exists(python):
        return None, f"no interpreter at {python}"
    check = FRAMEWORKS[framework][3]
    try:
        done = subprocess.run([python, "-c", check], check=False, capture_output=True, text=True, timeout=600,
                              env=run_env(framework, threads))
    except subprocess.TimeoutExpired:
        return None, f"{python} took too long to import it"
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"{python} cannot import it: {last}"
    return done.stdout.strip().splitlines()[-1], None


def run_one(python, framework, mode, workload, args):
    script = os.path.join(HERE, FRAMEWORKS[framework][0])
    command = [python, script, "--workload", workload, *MODE_ARGUMENTS.get(mode, ["--mode", mode]),
               "--steps", str(args.steps), "--warmup", str(args.warmup), "--threads", str(args.threads), "--json",
               "--device", args.device, "--amp", args.amp]
    t0 = time.perf_counter()
    try:
        done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=args.timeout,
                              cwd=ROOT, env=run_env(framework, args.threads))
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {args.timeout:.0f} s"}
    wall = time.perf_counter() - t0
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode or not lines:
        tail = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
        return {"error": f"exit {done.returncode}: " + " | ".join(tail)}
    result = json.loads(lines[-1])
    result["wall_s"] = wall
    return result


def merge(rounds):
    """The lowest first-step and median times over the rounds (the values of the first successful round)."""
    ok = [r for r in rounds if "error" not in r]
    if not ok:
        return rounds[-1]
    best = dict(ok[0])
    best["first_step_ms"] = min(r["first_step_ms"] for r in ok)
    best["median_ms"] = min(r["median_ms"] for r in ok)
    best["medians_ms"] = [r["median_ms"] for r in ok]
    if "images_per_s" in best:
        best["images_per_s"] = common.WORKLOADS["lenet_infer"][1][0] / (best["median_ms"] / 1e3)
    if "us_per_op" in best:
        best["us_per_op"] = best["median_ms"] * 1e3 / common.DISPATCH_OPS
    return best


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
    except OSError:
        return platform.processor() or "unknown", ""
    model = next((line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("model name")),
                 platform.processor() or "unknown")
    flags = next((line.split(":", 1)[1].split() for line in info.splitlines() if line.startswith("flags")), [])
    isa = [f for f in ("avx2", "fma", "avx512f", "avx512_bf16", "amx_tile") if f in flags]
    return model, ", ".join(isa)


def memory_gib():
    try:
        with open("/proc/meminfo") as f:
            kib = int(next(line for line in f if line.startswith("MemTotal")).split()[1])
        return f"{kib / 2**20:.1f} GiB"
    except (OSError, StopIteration, ValueError):
        return "unknown"


def value(result, workload):
    """The number shown in the medians table: ms per step, images/s or µs per op."""
    if workload == "lenet_infer":
        return f"{result['images_per_s']:,.0f}"
    if workload == "dispatch":
        return f"{result['us_per_op']:.2f}"
    return f"{result['median_ms']:.2f}"


UNITS = {"lenet_infer": "images/s (higher is better)", "dispatch": "µs per op"}


def render(args, runs, results, skipped, versions, started, finished, load):
    """RESULTS.md as a string. ``runs[(framework, mode, workload)]`` holds every round's JSON result,
    ``results[...]`` the merged one."""
    model, isa = cpu_model()
    label_of = {(fw, mode): label for fw, mode, label in COLUMNS}
    columns = [(fw, mode, label) for fw, mode, label in COLUMNS if fw not in skipped]
    lines = ["# Cross-framework benchmarks", "",
             ("Generated by `benchmarks/harness.py` (`nox -s bench`); do not edit by hand. Not a test: the numbers "
              "depend on the machine and on what else runs on it."), "",
             f"- Date: {started:%Y-%m-%d %H:%M} UTC (took {(finished - started).total_seconds() / 60:.1f} min)",
             (f"- Machine: {model} ({isa}), {os.cpu_count()} cores, {memory_gib()} RAM, "
              f"{platform.system()} {platform.release()}, Python {platform.python_version()}"),
             (f"- Threads: {args.threads} for every framework (OMP/MKL/OPENBLAS_NUM_THREADS, "
              "`torch.set_num_threads`, MindSpore's CPU kernel thread count); real MindSpore with "
              "`ONEDNN_MAX_CPU_ISA=AVX2`"),
             f"- Device: {args.device}" + (f" ({gpu_name()})" if args.device == "GPU" else ""),
             f"- Mixed precision: {args.amp}" + (" (MindSpore amp O2 / PyTorch autocast" +
                                                 (f", loss scale {common.AMP_LOSS_SCALE:g})" if args.amp == "float16"
                                                  else ")") if args.amp != "off" else ""),
             f"- Load average (1 min) before / after: {load[0]:.2f} / {load[1]:.2f}",
             f"- Steps: first step, then {args.warmup} warm-up steps, then the median of {args.steps} steps; "
             "every step forces its result to the host"
             + (f"; lowest of {args.rounds} rounds" if args.rounds > 1 else ""),
             "- Versions: " + "; ".join(f"{fw}: {versions[fw]}" for fw in FRAMEWORKS if fw in versions), ""]
    for fw, why in skipped.items():
        lines.append(f"- **{fw} skipped**: {why}")
    if skipped:
        lines.append("")

    lines += ["## Medians", "",
              ("Training workloads: ms per step (lower is better). GRAPH / `torch.compile` columns of `dispatch` "
               "are empty: it measures eager dispatch. \"MindSpore PYNATIVE blocking\" is real MindSpore's "
               "PYNATIVE after `mindspore.runtime.launch_blocking()` (synchronous execution): on a machine with few "
               "cores its default asynchronous pipeline is much slower, so both are shown."), ""]
    header = ["workload", "unit"] + [label for _, _, label in columns]
    lines += ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for workload in args.workloads:
        row = [workload, UNITS.get(workload, "ms per step")]
        for fw, mode, _ in columns:
            r = results.get((fw, mode, workload))
            row.append("—" if r is None else ("failed" if "error" in r else value(r, workload)))
        lines.append("| " + " | ".join(row) + " |")

    shown = {label for _, _, label in columns}
    ratios = [(a, b) for a, b in RATIOS if a in shown and b in shown]
    if ratios:
        lines += ["", "## Our ratios", "",
                  ("Time ratios of the medians (ours / peer, per step or per op; for inference the inverse ratio "
                   "of images/s): below 1 means ours is faster."), ""]
        header = ["workload"] + [f"{a} / {b}" for a, b in ratios]
        lines += ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
        by_label = {label: (fw, mode) for fw, mode, label in COLUMNS}
        for workload in args.workloads:
            row = [workload]
            for a, b in ratios:
                ra, rb = (results.get((*by_label[x], workload)) for x in (a, b))
                ok = ra and rb and "error" not in ra and "error" not in rb
                row.append(f"{ra['median_ms'] / rb['median_ms']:.2f}" if ok else "—")
            lines.append("| " + " | ".join(row) + " |")

    lines += ["", "## First step (compilation included), ms", ""]
    header = ["workload"] + [label for _, _, label in columns]
    lines += ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for workload in args.workloads:
        row = [workload]
        for fw, mode, _ in columns:
            r = results.get((fw, mode, workload))
            row.append("—" if r is None else ("failed" if "error" in r else f"{r['first_step_ms']:.1f}"))
        lines.append("| " + " | ".join(row) + " |")

    lines += agreement(args, results, columns)
    if args.rounds > 1:
        lines += spread_table(args, runs, columns)

    failures = [(key, r["error"]) for key, r in results.items() if "error" in r]
    if failures:
        lines += ["", "## Failed runs", ""]
        lines += [f"- {label_of[(fw, mode)]} `{workload}`: {error}" for (fw, mode, workload), error in failures]
    return "\n".join(lines) + "\n"


def within_families(numbers):
    """Whether the MindSpore-API runs (ours and real) agree among themselves, and the PyTorch runs too."""
    for family in (("ours", "mindspore"), ("torch",)):
        values = [v for (fw, _), v in numbers.items() if fw in family]
        if values and max(values) - min(values) > TOLERANCE:
            return False
    return True


def spread_table(args, runs, columns):
    """Max / min of the per-round medians of every configuration (how noisy the machine was)."""
    lines = ["", "## Round-to-round spread of the medians (max / min)", ""]
    header = ["workload"] + [label for _, _, label in columns]
    lines += ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for workload in args.workloads:
        row = [workload]
        for fw, mode, _ in columns:
            medians = [r["median_ms"] for r in runs.get((fw, mode, workload), []) if "error" not in r]
            row.append(f"{max(medians) / min(medians):.2f}" if len(medians) > 1 else "—")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def agreement(args, results, columns):
    """The first-step losses (and the loss after one update, and the inference checksum) of every framework."""
    lines = ["", "## Do the frameworks compute the same thing?", "",
             ("Same initial weights and inputs everywhere (seeded NumPy). \"first loss\" is the loss of the first step "
              f"(before any update); it must agree to {TOLERANCE:g} (absolute) across all frameworks and modes. "
              "\"second loss\" (after one optimizer update) also checks gradients and optimizers. For `lenet_infer` "
              "the number is the sum of the first batch's 2,560 logits (tolerance 10x). \"ours vs MindSpore\" is the "
              "largest difference between any of our modes and any of real MindSpore's."), ""]
    header = (["workload", "value"] + [label for _, _, label in columns]
              + ["max difference", f"agree to {TOLERANCE:g}", "ours vs MindSpore"])
    lines += ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    all_agree, notes = True, []
    for workload in args.workloads:
        if workload == "dispatch":
            continue
        kinds = [("first loss", lambda r: r["losses"][0]), ("second loss", lambda r: r["losses"][1])] \
            if common.WORKLOADS[workload][2] else [("logit sum", lambda r: r["first_checksum"])]
        for kind, get in kinds:
            row, numbers = [workload, kind], {}
            for fw, mode, _ in columns:
                r = results.get((fw, mode, workload))
                if r is None or "error" in r or len(r.get("losses", [0, 0])) < 2:
                    row.append("—")
                    continue
                numbers[(fw, mode)] = get(r)
                row.append(f"{numbers[(fw, mode)]:.6f}")
            values = list(numbers.values())
            spread = max(values) - min(values) if len(values) > 1 else 0.0
            tolerance = TOLERANCE if kind != "logit sum" else TOLERANCE * 10
            agree = spread <= tolerance
            if kind == "first loss":
                all_agree &= agree
            ours = [v for (fw, _), v in numbers.items() if fw == "ours"]
            real = [v for (fw, _), v in numbers.items() if fw == "mindspore"]
            versus = f"{max(abs(a - b) for a in ours for b in real):.2e}" if ours and real else "—"
            verdict = "yes" if agree else "**NO**"
            if not agree and kind == "second loss" and workload == "transformer" and within_families(numbers):
                verdict = "no: Adam's eps (below)"
                notes.append("The transformer's second loss differs between the MindSpore family and PyTorch by "
                             "design (within each family it agrees): MindSpore's Adam adds eps to the uncorrected "
                             "sqrt(v) (`p -= lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps)`), PyTorch to "
                             "the bias-corrected one, so at step 1 MindSpore's effective eps is "
                             "1e-8 / sqrt(1 - 0.999) = 3.2e-7 and parameters with tiny gradients move differently. "
                             "PyTorch with `eps=1e-8 / sqrt(1 - 0.999)` gives MindSpore's second loss to 1e-6.")
            row += [f"{spread:.2e}", verdict, versus]
            lines.append("| " + " | ".join(row) + " |")
    lines += [""] + notes + ([""] if notes else [])
    verdict = "yes" if all_agree else "NO"
    lines.append(f"First-step losses agree to {TOLERANCE:g} across all frameworks and modes: **{verdict}**.")
    return lines


def main(argv=None):
    args = parse_args(argv)
    if args.steps < 30:
        print(f"note: --steps {args.steps} < 30; RESULTS.md is meant to come from at least 30 measured steps",
              file=sys.stderr)
    started = datetime.datetime.now(datetime.UTC)
    load_before = os.getloadavg()[0]
    # an interpreter given by name ("python3") is looked up on PATH, as a shell would
    pythons = {name: shutil.which(py) or py if os.sep not in py else py
               for name, py in (("ours", args.ours_python), ("mindspore", args.mindspore_python),
                                ("torch", args.torch_python))}
    versions, skipped = {}, {}
    for fw in FRAMEWORKS:
        if fw in args.skip:
            skipped[fw] = "not run (--skip)"
            continue
        version, why = probe(pythons[fw], fw, args.threads)
        if version is None:
            skipped[fw] = why
            print(f"skipping {fw}: {why}", file=sys.stderr)
        else:
            versions[fw] = f"{version} ({pythons[fw]})"
    runs = {}
    for round_ in range(args.rounds):
        for workload in args.workloads:
            for fw, mode, label in COLUMNS:
                if fw in skipped or (workload == "dispatch" and mode not in EAGER_MODES):
                    continue
                load = os.getloadavg()[0]
                result = run_one(pythons[fw], fw, mode, workload, args)
                result.update(framework_key=fw, mode_key=mode, round=round_, load_1min_before=load)
                runs.setdefault((fw, mode, workload), []).append(result)
                if "error" in result:
                    shown = "FAILED " + result["error"]
                else:
                    shown = f"first {result['first_step_ms']:.1f} ms, median {result['median_ms']:.3f} ms"
                    if "first_loss" in result:
                        shown += f", first loss {result['first_loss']:.6f}"
                print(f"[round {round_ + 1}/{args.rounds}] {workload:12s} {label:19s} {shown}", flush=True)
    results = {key: merge(rounds) for key, rounds in runs.items()}
    finished = datetime.datetime.now(datetime.UTC)
    text = render(args, runs, results, skipped, versions, started, finished, (load_before, os.getloadavg()[0]))
    with open(args.output, "w") as f:
        f.write(text)
    with open(args.raw, "w") as f:
        for rounds in runs.values():
            for result in rounds:
                f.write(json.dumps(result) + "\n")
    print(text)
    print(f"wrote {args.output} and {args.raw}", file=sys.stderr)


if __name__ == "__main__":
    main()
