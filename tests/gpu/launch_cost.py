"""Host cost of one call, in µs, of each way the GPU backend launches work, beside PyTorch's (no GPU work to speak
of: tiny operands, so the host decides). PYNATIVE steps on a GPU are bound by this cost; it says which layer to cut.

    python tests/gpu/launch_cost.py [--calls 2000]

Each line: the median over 5 rounds of ``calls`` calls, the device synchronised after each round.
"""
import argparse
import statistics
import time

import numpy as np


def per_call(fn, calls, sync):
    fn()
    sync()
    rounds = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        rounds.append((time.perf_counter() - t) / calls * 1e6)
    return statistics.median(rounds)


def _bn_grad_prim():
    from mindspore.ops import operations as P
    return P.BatchNormGrad(is_training=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--profile", action="store_true", help="then cProfile the batch norm and convolution kernels")
    args = p.parse_args()
    import cupy
    import mindspore as ms
    from mindspore import ops
    from mindspore_gpu.kernels import families
    from mindspore_gpu import capture

    ms.set_context(device_target="GPU")
    kernels = {f.__name__.rsplit(".", 1)[-1]: f.KERNELS for f in families()}
    sync = cupy.cuda.get_current_stream().synchronize
    n = args.calls
    rows = []

    def row(name, fn, calls=n, synchronise=sync):
        try:
            rows.append((name, per_call(fn, calls, synchronise)))
        except Exception as exc:  # noqa: BLE001 - one failed measurement does not stop the others
            rows.append((name, f"failed: {type(exc).__name__}: {str(exc)[:150]}"))
        print(f"{rows[-1][0]:<58} {rows[-1][1] if isinstance(rows[-1][1], str) else '%8.2f us' % rows[-1][1]}",
              flush=True)

    a = cupy.ones(1024, cupy.float32)
    b = cupy.ones(1024, cupy.float32)
    c = cupy.empty(1024, cupy.float32)
    row("cupy.add(a, b, out=c)", lambda: cupy.add(a, b, out=c))
    row("cupy.add(a, b) (allocates)", lambda: cupy.add(a, b))
    row("a * np.float32(2) (a scalar operand)", lambda: a * np.float32(2))
    row("cupy.asarray(np.float32(2)) (host scalar upload)", lambda: cupy.asarray(np.float32(2)))
    ew = cupy.ElementwiseKernel("T x, T y", "T z", "z = x > 0 ? y : (T)0", "ms_cost_ew")
    row("ElementwiseKernel(a, b) (allocates)", lambda: ew(a, b))
    row("ElementwiseKernel(a, b, c)", lambda: ew(a, b, c))
    raw = cupy.RawKernel(r'''extern "C" __global__ void ms_cost_raw(const float* x, const float* y, float* z,
        long long n) { long long i = blockIdx.x * 256 + threadIdx.x; if (i < n) z[i] = x[i] + y[i]; }''', "ms_cost_raw")
    row("RawKernel, 4 arguments", lambda: raw((4,), (256,), (a, b, c, np.int64(1024))))
    raw12 = cupy.RawKernel(r'''extern "C" __global__ void ms_cost_raw12(const float* a0, const float* a1,
        const float* a2, const float* a3, float* o0, float* o1, float* o2, long long n, long long m, long long q,
        double e, double f) { long long i = blockIdx.x * 256 + threadIdx.x; if (i < n) o0[i] = a0[i] + a1[i]; }''',
        "ms_cost_raw12")
    row("RawKernel, 12 arguments", lambda: raw12((4,), (256,), (a, b, a, b, c, c, c, np.int64(1024), np.int64(1),
                                                                  np.int64(1), np.float64(1), np.float64(1))))
    pairs = [(cupy.empty(1024, cupy.float32), cupy.ones(1024, cupy.float32)) for _ in range(16)]
    row("capture.copy_many, 16 buffers", lambda: capture.copy_many(pairs))

    x = cupy.asarray(np.random.default_rng(0).normal(size=(8, 16, 8, 8)).astype(np.float32))
    w = cupy.asarray(np.random.default_rng(1).normal(size=(16, 16, 3, 3)).astype(np.float32))
    conv = ops.Conv2D(16, 3, pad_mode="pad", pad=1)
    row("Conv2D kernel (cuDNN fprop), (8,16,8,8)", lambda: kernels["conv"]["Conv2D"](conv, x, w, out=None))
    scale, bias = cupy.ones(16, cupy.float32), cupy.zeros(16, cupy.float32)
    mean, var = cupy.zeros(16, cupy.float32), cupy.ones(16, cupy.float32)
    bn = ops.BatchNorm(is_training=True)
    fam = next(k for k in kernels.values() if "BatchNorm" in k)
    row("BatchNorm kernel (training), (8,16,8,8)", lambda: fam["BatchNorm"](bn, x, scale, bias, mean, var, out=None))
    relu = ops.ReLU()
    row("ReLU kernel", lambda: kernels["nn"]["ReLU"](relu, x, out=None))
    bng = next(k for k in kernels.values() if "BatchNormGrad" in k)["BatchNormGrad"]
    bn_grad = _bn_grad_prim()
    saved = fam["BatchNorm"](bn, x, scale, bias, mean, var, out=None)
    row("BatchNormGrad kernel (training), (8,16,8,8)",
        lambda: bng(bn_grad, x, x, scale, saved[3], saved[4], saved[4], out=None))
    # LeNet's first Dense (32x400 by a 120x400 weight, transpose_b) and its bias gradient
    from mindspore.plugin import TensorSpec
    from mindspore_gpu import gemm
    xm = cupy.asarray(np.random.default_rng(2).normal(size=(32, 400)).astype(np.float32))
    wm = cupy.asarray(np.random.default_rng(3).normal(size=(120, 400)).astype(np.float32))
    dense = ops.MatMul(transpose_b=True)
    mm_out = TensorSpec((32, 120), ms.float32)
    row(f"MatMul kernel, 32x400 by 120x400^T (cuBLASLt: {gemm.for_cupy(cupy).status() is True})",
        lambda: kernels["math"]["MatMul"](dense, xm, wm, out=mm_out))
    row("cupy.matmul(x, w.T), the same product", lambda: cupy.matmul(xm, wm.T))
    gm = cupy.asarray(np.random.default_rng(4).normal(size=(32, 120)).astype(np.float32))
    rsum = ops.ReduceSum()
    row("ReduceSum kernel, (32,120) over axis 0", lambda: kernels["reduce"]["ReduceSum"](rsum, gm, (0,), out=None))
    row("cupy.sum(g, axis=0), the same sum", lambda: cupy.sum(gm, axis=0))
    t = ms.Tensor(np.ones(1024, np.float32))
    row("PYNATIVE ops.add(t, t)", lambda: ops.add(t, t))
    tm, tw = ms.Tensor(cupy.asnumpy(xm)), ms.Tensor(cupy.asnumpy(wm))
    row("PYNATIVE ops.MatMul(transpose_b=True)(x, w)", lambda: dense(tm, tw))
    net = ms.nn.Conv2d(16, 16, 3, pad_mode="pad", padding=1)
    tx = ms.Tensor(np.random.default_rng(0).normal(size=(8, 16, 8, 8)).astype(np.float32))
    row("PYNATIVE nn.Conv2d(16, 16, 3)(x)", lambda: net(tx))
    bnc = ms.nn.BatchNorm2d(16)
    bnc.set_train(True)
    row("PYNATIVE nn.BatchNorm2d(16)(x), training", lambda: bnc(tx))
    grad = ms.grad(lambda v: (net(v) * net(v)).sum())
    row("PYNATIVE ms.grad of conv, mul, sum (forward + backward)", lambda: grad(tx), calls=max(50, n // 10))

    if args.profile:
        import cProfile
        import io
        import pstats
        for name, fn in (("BatchNorm", lambda: fam["BatchNorm"](bn, x, scale, bias, mean, var, out=None)),
                         ("BatchNormGrad", lambda: bng(bn_grad, x, x, scale, saved[3], saved[4], saved[4], out=None)),
                         ("Conv2D", lambda: kernels["conv"]["Conv2D"](conv, x, w, out=None)),
                         ("PYNATIVE ops.add", lambda: ops.add(t, t)),
                         ("PYNATIVE nn.Conv2d", lambda: net(tx)),
                         ("PYNATIVE nn.BatchNorm2d", lambda: bnc(tx))):
            prof = cProfile.Profile()
            prof.enable()
            for _ in range(500):
                fn()
            prof.disable()
            sync()
            text = io.StringIO()
            pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(14)
            pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(12)
            print(f"-- cProfile of 500 {name} calls, by own time, then by cumulative time")
            print("\n".join(line[:170] for line in text.getvalue().splitlines() if line.strip()
                            and not line.startswith(("   Ordered", "   List"))))

    try:
        import torch
        ta = torch.ones(1024, device="cuda")
        tb = torch.ones(1024, device="cuda")
        tc = torch.empty(1024, device="cuda")
        tsync = torch.cuda.synchronize
        row("torch.add(a, b, out=c)", lambda: torch.add(ta, tb, out=tc), synchronise=tsync)
        row("torch.add(a, b) (allocates)", lambda: torch.add(ta, tb), synchronise=tsync)
        tconv = torch.nn.Conv2d(16, 16, 3, padding=1).cuda()
        txx = torch.randn(8, 16, 8, 8, device="cuda")
        with torch.no_grad():
            row("torch nn.Conv2d(16, 16, 3)(x), no grad", lambda: tconv(txx), synchronise=tsync)
        row("torch nn.Conv2d(16, 16, 3)(x)", lambda: tconv(txx), synchronise=tsync)
        tmx, tmw = torch.randn(32, 400, device="cuda"), torch.randn(120, 400, device="cuda")
        row("torch.matmul(x, w.T)", lambda: torch.matmul(tmx, tmw.T), synchronise=tsync)
        tmg = torch.randn(32, 120, device="cuda")
        row("torch.sum(g, 0)", lambda: torch.sum(tmg, 0), synchronise=tsync)
        tbn = torch.nn.BatchNorm2d(16).cuda().train()
        row("torch nn.BatchNorm2d(16)(x), training", lambda: tbn(txx), synchronise=tsync)
        txg = txx.clone().requires_grad_(True)

        def tstep():
            y = tconv(txg)
            (y * y).sum().backward()
        row("torch conv, mul, sum, backward", tstep, calls=max(50, n // 10), synchronise=tsync)
    except Exception as exc:  # noqa: BLE001 - no PyTorch: ours alone
        print(f"PyTorch: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
