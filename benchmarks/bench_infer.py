"""Inference from exported models: ours running a loaded MindIR beside onnxruntime on the same network (not a test).

Run: ``python benchmarks/bench_infer.py [--workloads lenet resnet] [--batch 32] [--threads 2] [--iters 50]
[--rounds 5] [--json out.json]``. For each workload (the networks of ``workloads_mindspore.py``, weights from
``workloads_common.initial_params``), in evaluation mode:

1. the network is exported twice from ours: ``ms.export(..., file_format="MINDIR")`` and ``"ONNX"``;
2. ours: ``mindspore.Predictor`` on the MindIR file (the lean runtime: compiled once for the input shape,
   then the optimised graph); onnxruntime: an ``InferenceSession`` on the ONNX file with
   ``intra_op_num_threads = inter_op_num_threads`` set to ``--threads`` and sequential execution, the same
   thread count our CPU kernels get (``OMP_NUM_THREADS``);
3. each runs in its own worker process (so neither's thread pool spins on the cores the other is using); both
   are warmed up, then timed in alternating rounds of ``--iters`` calls on the same input batch (machine noise
   hits both alike); the median per-call time over all rounds is reported, with the max difference of their
   outputs and against the eager network.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import workloads_common as common  # noqa: E402 - next to this script

SHAPES = {"mlp": (784,), "lenet": (1, 32, 32), "resnet": (3, 32, 32), "transformer": (128, 256)}


def _worker(conn, kind, path, threads):
    """One framework in its own process: load ``path``, then answer ("run", x, iters) / ("stop",)."""
    common.apply_thread_env(threads)
    import numpy as np
    if kind == "ours":
        import mindspore as ms
        predictor = ms.Predictor(path)

        def call(x):
            return predictor.predict(x)
    else:
        import onnxruntime as ort
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = threads
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        name = session.get_inputs()[0].name

        def call(x):
            return session.run(None, {name: x})[0]
    while True:
        msg = conn.recv()
        if msg[0] == "stop":
            return
        _, x, iters = msg
        out = np.asarray(call(x))
        t0 = time.perf_counter()
        for _ in range(iters):
            call(x)
        conn.send(((time.perf_counter() - t0) / iters * 1e3, out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workloads", nargs="+", default=["lenet", "resnet"], choices=sorted(SHAPES))
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--iters", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json")
    args = parser.parse_args()
    threads = common.apply_thread_env(args.threads)

    import multiprocessing as mp

    import numpy as np
    import onnxruntime as ort

    import mindspore as ms
    import workloads_mindspore as workloads

    ctx = mp.get_context("spawn")
    results = []
    print(f"threads {threads}, batch {args.batch}, {args.rounds} rounds x {args.iters} calls, median ms per call "
          f"(onnxruntime {ort.__version__})")
    print(f"{'workload':<12} {'ours (MindIR)':>14} {'onnxruntime':>12} {'ratio':>6} {'max |ours-ort|':>15} "
          f"{'max |ours-eager|':>17}")
    for name in args.workloads:
        ms.set_seed(1)
        net = workloads.build(ms, name)
        workloads.set_initial_params(ms, net, name)
        net.set_train(False)
        rng = np.random.default_rng(common.INPUT_SEED)
        x = rng.standard_normal((args.batch,) + SHAPES[name]).astype(np.float32)
        eager = net(ms.Tensor(x)).asnumpy()
        with tempfile.TemporaryDirectory() as tmp:
            stem = os.path.join(tmp, name)
            ms.export(net, ms.Tensor(x), file_name=stem, file_format="MINDIR")
            ms.export(net, ms.Tensor(x), file_name=stem, file_format="ONNX")
            workers = {}
            for kind, path in (("ours", stem + ".mindir"), ("ort", stem + ".onnx")):
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=_worker, args=(child, kind, path, threads), daemon=True)
                proc.start()
                workers[kind] = (parent, proc)
            times, outs = {"ours": [], "ort": []}, {}
            for kind, (conn, _) in workers.items():       # warm-up (compilation, first-run allocations)
                conn.send(("run", x, 5))
                outs[kind] = conn.recv()[1]
            for _ in range(args.rounds):
                for kind, (conn, _) in workers.items():
                    # let the other worker's threads go idle: onnxruntime's keep spinning for about 45 ms after a
                    # run (measured: 41.8 ms of CPU in the 50 ms after a LeNet round), ours for 0.1 ms
                    time.sleep(0.3)
                    conn.send(("run", x, args.iters))
                    times[kind].append(conn.recv()[0])
            for conn, proc in workers.values():
                conn.send(("stop",))
                proc.join(timeout=30)
        row = {"workload": name, "batch": args.batch, "threads": threads,
               "ours_ms": statistics.median(times["ours"]), "ort_ms": statistics.median(times["ort"]),
               "ours_rounds_ms": times["ours"], "ort_rounds_ms": times["ort"],
               "max_diff_ort": float(np.abs(outs["ours"] - outs["ort"]).max()),
               "max_diff_eager": float(np.abs(outs["ours"] - eager).max())}
        row["ratio"] = row["ours_ms"] / row["ort_ms"]
        results.append(row)
        print(f"{name:<12} {row['ours_ms']:>14.3f} {row['ort_ms']:>12.3f} {row['ratio']:>6.2f} "
              f"{row['max_diff_ort']:>15.2e} {row['max_diff_eager']:>17.2e}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"onnxruntime": ort.__version__, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
