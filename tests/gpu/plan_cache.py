"""What keeping cuDNN's plans on disk (``mindspore_gpu.plans``) saves a first call, measured in fresh processes.

    python tests/gpu/plan_cache.py [--cases conv,attention] [--runs 3]

Per case, ``--runs`` fresh processes share one new, empty ``MS_GPU_CACHE_DIR`` (CuPy's kernel cache is left as it
is: warm it with a run first, so that NVRTC compiles none of the cold run's time): the first process builds and checks
everything and keeps what it can, the second loads the plans kept (and checks each once), the later ones load them
with the checks remembered. Each process prints the ms of its first call (building, loading, checking: what a
first step pays) and of its second, what the plans did (``stored``, ``loaded``, ``not serializable``, ``discarded``)
and whether its results equal the first process's.

* ``conv``: ``ms.grad`` of a PYNATIVE ReLU(Conv2d) chain over (8, 16, 32, 32), 3x3 convolutions 16 -> 32 -> 32, the
  second with stride 2, float32 (the forward, data and filter gradients on cuDNN: five graphs);
* ``attention``: ``ops.flash_attention_score`` (BNSD, float16, B 2, N 4, S 128, D 64) and its gradient (two
  runtime-compiled graphs, about half a second each to build on an H200).

``--child CASE FOLDER`` runs one process's part (results saved in FOLDER, the first run's kept for the others);
``mindspore-gpu/tests/test_gpu_plugin.py::test_cudnn_plans_kept_and_loaded`` runs it on a GPU.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

CASES = ("conv", "attention")


def _conv_case(ms):
    import numpy as np
    from mindspore import nn, ops
    rng = np.random.default_rng(0)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = nn.Conv2d(16, 32, 3, pad_mode="pad", padding=1, has_bias=False)
            self.b = nn.Conv2d(32, 32, 3, stride=2, pad_mode="pad", padding=1, has_bias=False)

        def construct(self, x):
            return ops.sum(ops.relu(self.b(ops.relu(self.a(x)))))
    net = Net()
    for p in net.trainable_params():
        p.set_data(ms.Tensor(rng.standard_normal(p.shape).astype(np.float32) * 0.1))
    x = ms.Tensor(rng.standard_normal((8, 16, 32, 32)).astype(np.float32))
    step = ms.grad(net, grad_position=0, weights=net.trainable_params())
    return lambda: _flat(step(x))


def _attention_case(ms):
    import numpy as np
    from mindspore import ops
    rng = np.random.default_rng(1)
    q, k, v = (ms.Tensor(rng.standard_normal((2, 4, 128, 64)).astype(np.float16)) for _ in range(3))

    def loss(q, k, v):
        out = ops.flash_attention_score(q, k, v, head_num=4, scalar_value=0.125, input_layout="BNSD")
        return ops.sum(out.astype(ms.float32))
    grad = ms.grad(loss, grad_position=(0, 1, 2))
    return lambda: _flat(grad(q, k, v))


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in _flat(o)]
    return [out.asnumpy()]


def _child(case, folder, device="GPU"):
    import numpy as np
    import mindspore as ms
    ms.set_context(device_target=device, mode=ms.PYNATIVE_MODE)
    run = {"conv": _conv_case, "attention": _attention_case}[case](ms)
    t0 = time.perf_counter()
    first = run()
    t1 = time.perf_counter()
    run()
    t2 = time.perf_counter()
    reference = pathlib.Path(folder) / f"{case}.npz"
    if reference.exists():
        kept = np.load(reference)
        same = all(np.array_equal(kept[f"a{i}"], a) for i, a in enumerate(first)) and len(kept.files) == len(first)
        close = all(np.allclose(kept[f"a{i}"].astype(np.float64), a.astype(np.float64), rtol=1e-3, atol=1e-3)
                    for i, a in enumerate(first))
    else:
        np.savez(reference, **{f"a{i}": a for i, a in enumerate(first)})
        same = close = None
    plans, summary = {}, ""
    if device == "GPU":
        import cupy
        from mindspore_gpu import cudnn
        plans, summary = dict(cudnn.PLANS.stats), cudnn.for_cupy(cupy).summary()
    print(json.dumps({"first_ms": (t1 - t0) * 1e3, "second_ms": (t2 - t1) * 1e3, "plans": plans, "same": same,
                      "close": close, "summary": summary}))


def measure(case, runs=3, env=None, device="GPU"):
    """The :func:`_child` reports of ``runs`` fresh processes sharing a new cache folder."""
    reports = []
    with tempfile.TemporaryDirectory(prefix="plan-cache-") as folder:
        env = dict(env or os.environ, MS_GPU_CACHE_DIR=os.path.join(folder, "cache"))
        env.pop("MS_GPU_CUDNN_PLAN_CACHE", None)
        for _ in range(runs):
            done = subprocess.run([sys.executable, __file__, "--device", device, "--child", case, folder], env=env,
                                  capture_output=True, text=True)
            if done.returncode:
                raise RuntimeError(f"{case}: the child failed:\n{done.stderr[-3000:]}")
            reports.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return reports


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", default=",".join(CASES))
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--device", default="GPU", help="GPU; CPU runs the same calls (no cuDNN: a check of the script)")
    p.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        _child(*args.child, args.device)
        return
    print(f"{'case':10s} {'run':>3s} {'first ms':>9s} {'second ms':>9s}  plans; results against run 1")
    for case in args.cases.split(","):
        for i, r in enumerate(measure(case, args.runs, device=args.device), 1):
            same = "" if r["same"] is None else "equal" if r["same"] else "close" if r["close"] else "DIFFERENT"
            print(f"{case:10s} {i:3d} {r['first_ms']:9.1f} {r['second_ms']:9.2f}  {r['plans']}; {same}")
        print("    " + r["summary"].replace("\n", "\n    "))


if __name__ == "__main__":
    main()
