"""cuDNN convolutions on a real GPU (``mindspore_gpu/cudnn.py``): what is installed, whether convolutions run on it,
and how fast against the im2col path.

    python tests/gpu/cudnn_check.py [--repeat 20]

Prints cuDNN's status (version, or why it is unusable), then runs a convolution's forward and both gradients through
``ms.value_and_grad`` on the GPU target (float32, then float16) and compares them with the CPU target, then times
forward, data gradient and filter gradient of three layers on cuDNN and on im2col (the kernels with the cuDNN path
bypassed), CUDA events around ``--repeat`` calls after two warm-up calls, and a stream-captured CUDA graph of a
cached cuDNN forward (captured, replayed, equal to the plain call), and last the path's summary: per (op, rank,
dtype) the calls on cuDNN and on im2col, the known-answer checks passed, the ops turned off and why.
Exit status 1 when cuDNN is usable but a convolution did not run on it or a result differs.
"""
import argparse
import sys
import warnings


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()

    import numpy as np
    import cupy

    import mindspore as ms
    from mindspore import Tensor, ops
    from mindspore.ops._defs import conv as defs
    from mindspore_gpu import cudnn as mscudnn
    from mindspore_gpu.kernels import conv

    caught = []
    warnings.showwarning = lambda message, *a, **k: caught.append(str(message))
    path = mscudnn.for_cupy(cupy)
    status = path.status()
    print("cudnn:", path.describe_status())
    try:
        import cudnn
        print(f"frontend {cudnn.__version__} at {cudnn.__file__}; library {cudnn.backend_version_string()}")
    except Exception as exc:  # noqa: BLE001
        print(f"import cudnn: {type(exc).__name__}: {exc}")
    failed = False

    # end to end: value_and_grad of a grouped, strided, dilated convolution, GPU against CPU
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4, 8, 17, 15)).astype(np.float32)
    w = rng.normal(size=(16, 4, 3, 3)).astype(np.float32)

    def loss(a, b):
        return (ops.conv2d(a, b, pad_mode="pad", padding=1, stride=2, dilation=2, groups=2) ** 2).mean()

    results = {}
    for target in ("CPU", "GPU"):
        ms.set_context(device_target=target)
        for dtype in (np.float32, np.float16):
            value, (dx, dw) = ms.value_and_grad(loss, grad_position=(0, 1))(Tensor(x.astype(dtype)),
                                                                            Tensor(w.astype(dtype)))
            results[(target, np.dtype(dtype).name)] = [t.asnumpy().astype(np.float64) for t in (value, dx, dw)]
    for dtype, tol in (("float32", 1e-4), ("float16", 3e-2)):
        diffs = [float(np.abs(g - c).max() / max(1.0, np.abs(c).max()))
                 for g, c in zip(results[("GPU", dtype)], results[("CPU", dtype)])]
        bad = max(diffs) > tol
        failed |= bad
        print(f"value_and_grad conv2d {dtype}: GPU vs CPU largest relative difference (loss, dx, dw) "
              f"{', '.join(f'{d:.2e}' for d in diffs)}{'  MISMATCH' if bad else ''}")

    # timings: cuDNN against im2col
    layers = [("resnet 3x3", (32, 64, 56, 56), (64, 64, 3, 3), 1, 1, 1),
              ("resnet 3x3 s2", (32, 128, 28, 28), (256, 128, 3, 3), 1, 2, 1),
              ("depthwise 3x3", (32, 128, 28, 28), (128, 1, 3, 3), 1, 1, 128)]

    def timed(fn):
        for _ in range(2):
            fn()
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        for _ in range(args.repeat):
            fn()
        end.record()
        end.synchronize()
        return cupy.cuda.get_elapsed_time(start, end) / args.repeat

    for dtype in (np.float32, np.float16):
        for name, xs, ws, pad, stride, group in layers:
            kw = dict(pad_mode="pad", pad=pad, stride=stride, group=group)
            fwd = defs.Conv2D(ws[0], ws[2:], **kw)
            bin_ = defs.Conv2DBackpropInput(ws[0], ws[2:], **kw)
            bfil = defs.Conv2DBackpropFilter(ws[0], ws[2:], **kw)
            xd = cupy.asarray(rng.normal(size=xs).astype(dtype))
            wd = cupy.asarray(rng.normal(size=ws).astype(dtype))
            y = conv.KERNELS["Conv2D"](fwd, xd, wd)
            dd = cupy.asarray(rng.normal(size=y.shape).astype(dtype))
            calls = {"fprop": lambda: conv.KERNELS["Conv2D"](fwd, xd, wd),
                     "dgrad": lambda: conv.KERNELS["Conv2DBackpropInput"](bin_, dd, wd, xs),
                     "wgrad": lambda: conv.KERNELS["Conv2DBackpropFilter"](bfil, dd, xd, ws)}
            line = []
            for op, call in calls.items():
                before = path.stats[(op, 2, np.dtype(dtype).name, "cudnn")]
                on = timed(call)
                ran = path.stats[(op, 2, np.dtype(dtype).name, "cudnn")] > before
                path._local.bypass = True
                try:
                    off = timed(call)
                    want = call()
                finally:
                    path._local.bypass = False
                got = call()
                diff = float(cupy.abs(got.astype(cupy.float64) - want.astype(cupy.float64)).max()
                             / max(1.0, float(cupy.abs(want).max())))
                tol = 1e-4 if dtype == np.float32 else 3e-2
                failed |= diff > tol or (status is True and not ran)
                line.append(f"{op} {on:.3f} ms ({'cuDNN' if ran else 'im2col'}) vs im2col {off:.3f} ms, "
                            f"diff {diff:.1e}{'  MISMATCH' if diff > tol else ''}")
            print(f"{name} {np.dtype(dtype).name} x{xs} w{ws}: " + "; ".join(line))

    # a cached cuDNN forward inside a stream capture
    if status is True:
        fwd = defs.Conv2D(16, 3, pad_mode="pad", pad=1)
        xd = cupy.asarray(rng.normal(size=(8, 16, 32, 32)).astype(np.float32))
        wd = cupy.asarray(rng.normal(size=(16, 16, 3, 3)).astype(np.float32))
        want = conv.KERNELS["Conv2D"](fwd, xd, wd)
        stream = cupy.cuda.Stream(non_blocking=True)
        try:
            with stream:
                before = path.stats[("fprop", 2, "float32", "cudnn")]
                stream.begin_capture()
                y = conv.KERNELS["Conv2D"](fwd, xd, wd)
                graph = stream.end_capture()
                ran = path.stats[("fprop", 2, "float32", "cudnn")] > before
                graph.launch()
            stream.synchronize()
            diff = float(cupy.abs(y - want).max())
            failed |= diff > 1e-4 or not ran
            print(f"CUDA-graph capture of a cached cuDNN forward: {'on cuDNN' if ran else 'NOT on cuDNN'}, "
                  f"replayed, largest difference {diff:.1e}")
        except Exception as exc:  # noqa: BLE001
            failed = True
            print(f"CUDA-graph capture of a cached cuDNN forward FAILED: {type(exc).__name__}: {exc}")

    print(path.summary())
    for message in dict.fromkeys(caught):
        print("warning:", message[:300])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
