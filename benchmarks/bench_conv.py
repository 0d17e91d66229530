"""C++ convolution and pooling kernels of mindspore-cpu against a pure-NumPy im2col reference.

Run: ``python benchmarks/bench_conv.py [--repeats N] [--quick]``. Not a test: numbers depend on the
machine. For LeNet- and ResNet-sized layers it times, in milliseconds (best of ``--repeats``):

* convolution forward, backward-data and backward-filter: ``mindspore_cpu._kernels`` (im2col +
  packed GEMM, OpenMP) against NumPy (``sliding_window_view`` im2col + ``matmul``, col2im by
  strided-slice accumulation, the filter gradient by ``tensordot``);
* max / average pooling forward and backward against NumPy sliding windows.

Every pair is also checked for agreement (max |difference| / max |reference|), so a fast wrong
kernel cannot hide in the table. Both sides use all cores: the kernels' thread team in the C++ kernels,
the BLAS threads in NumPy's ``matmul``.

OpenBLAS worker threads busy-wait for a while (about 0.1 s) after each NumPy matmul; C++ kernels
timed inside that window share the cores with them and run up to 3x slower on a 2-core machine.
So each C++ timing starts after a short pause (``--settle``), measuring the kernels themselves;
``--settle 0`` shows the contended numbers. (The C++ side's idle workers spin at most 0.1 ms, yielding
their core, ``MS_CPU_SPIN_US``, so they do not slow NumPy down in the same way.)
"""
import argparse
import time

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from mindspore_cpu.kernels._native import _kernels  # with the runtime's OpenMP settings

# name, N, C_in, C_out, H (= W), kernel, stride, pad
CONVS = [
    ("LeNet conv1 5x5", 32, 1, 6, 32, 5, 1, 0),
    ("LeNet conv2 5x5", 32, 6, 16, 14, 5, 1, 0),
    ("ResNet 3x3 s1 (56x56x64)", 8, 64, 64, 56, 3, 1, 1),
    ("ResNet 3x3 s2 (28x28x128->256)", 8, 128, 256, 28, 3, 2, 1),
    ("ResNet 1x1 (56x56x256->64)", 8, 256, 64, 56, 1, 1, 0),
]
# name, N, C, H (= W), kernel, stride, pad, kind
POOLS = [
    ("LeNet max 2x2 s2", 32, 6, 28, 2, 2, 0, "max"),
    ("ResNet stem max 3x3 s2 p1", 8, 64, 112, 3, 2, 1, "max"),
    ("avg 2x2 s2", 32, 16, 28, 2, 2, 0, "avg"),
    ("ResNet global avg 7x7", 8, 2048, 7, 7, 1, 0, "avg"),
]


# --- NumPy reference ----------------------------------------------------------------------------
def np_im2col(x, k, s, p):
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p))) if p else x
    win = sliding_window_view(xp, (k, k), axis=(2, 3))[:, :, ::s, ::s]   # N, C, OH, OW, k, k
    n, c, oh, ow = win.shape[:4]
    return np.ascontiguousarray(win.transpose(0, 1, 4, 5, 2, 3)).reshape(n, c * k * k, oh * ow), oh, ow


def np_conv_forward(x, w, s, p):
    cols, oh, ow = np_im2col(x, w.shape[2], s, p)
    return np.matmul(w.reshape(w.shape[0], -1), cols).reshape(x.shape[0], w.shape[0], oh, ow)


def np_conv_backward_input(dy, w, x_shape, s, p):
    n, c, h, wd = x_shape
    k = w.shape[2]
    oh, ow = dy.shape[2:]
    dcols = np.matmul(w.reshape(w.shape[0], -1).T, dy.reshape(n, w.shape[0], -1)).reshape(n, c, k, k, oh, ow)
    dxp = np.zeros((n, c, h + 2 * p, wd + 2 * p), dy.dtype)
    for i in range(k):
        for j in range(k):
            dxp[:, :, i:i + s * (oh - 1) + 1:s, j:j + s * (ow - 1) + 1:s] += dcols[:, :, i, j]
    return dxp[:, :, p:p + h, p:p + wd]


def np_conv_backward_filter(dy, x, k, s, p):
    cols, _, _ = np_im2col(x, k, s, p)
    dw = np.tensordot(dy.reshape(dy.shape[0], dy.shape[1], -1), cols, axes=([0, 2], [0, 2]))
    return dw.reshape(dy.shape[1], x.shape[1], k, k)


def np_pool_windows(x, k, s, p, fill):
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), constant_values=fill) if p else x
    return sliding_window_view(xp, (k, k), axis=(2, 3))[:, :, ::s, ::s]


def np_max_pool(x, k, s, p):
    win = np_pool_windows(x, k, s, p, -np.inf)
    flat = win.reshape(win.shape[:4] + (-1,))
    am = flat.argmax(axis=-1)
    return np.take_along_axis(flat, am[..., None], -1)[..., 0], am


def np_max_pool_backward(dy, am, x_shape, k, s, p):
    n, c, h, w = x_shape
    oh, ow = dy.shape[2:]
    rows = np.arange(oh)[:, None] * s - p + am // k
    cols = np.arange(ow)[None, :] * s - p + am % k
    dx = np.zeros((n * c, h * w), dy.dtype)
    plane = np.arange(n * c).reshape(n, c, 1, 1)
    np.add.at(dx, (np.broadcast_to(plane, am.shape), rows * w + cols), dy)
    return dx.reshape(x_shape)


def np_avg_pool(x, k, s, p):
    return np_pool_windows(x, k, s, p, 0.0).mean(axis=(-2, -1))


def np_avg_pool_backward(dy, x_shape, k, s, p):
    n, c, h, w = x_shape
    oh, ow = dy.shape[2:]
    dxp = np.zeros((n, c, h + 2 * p, w + 2 * p), dy.dtype)
    g = dy / (k * k)
    for i in range(k):
        for j in range(k):
            dxp[:, :, i:i + s * (oh - 1) + 1:s, j:j + s * (ow - 1) + 1:s] += g
    return dxp[:, :, p:p + h, p:p + w]


# --- C++ wrappers (2-D as unit-depth 3-D) --------------------------------------------------------
def _5d(a):
    return a.reshape(a.shape[:2] + (1,) + a.shape[2:])


def cxx_conv_forward(x, w, s, p, out):
    return _kernels.conv3d_forward(_5d(x), _5d(w), (1, s, s), (0, p, p), (1, 1, 1), (1, out, out), 1)[:, :, 0]


def cxx_conv_backward_input(dy, w, x_shape, s, p):
    return _kernels.conv3d_backward_input(_5d(dy), _5d(w), (1,) + x_shape[2:], (1, s, s), (0, p, p), (1, 1, 1),
                                          1)[:, :, 0]


def cxx_conv_backward_filter(dy, x, k, s, p):
    return _kernels.conv3d_backward_filter(_5d(dy), _5d(x), (1, k, k), (1, s, s), (0, p, p), (1, 1, 1), 1)[:, :, 0]


# --- timing ------------------------------------------------------------------------------------
def best_ms(fn, repeats):
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) * 1e3


def rel_err(a, b):
    return float(np.max(np.abs(a.astype(np.float64) - b)) / max(np.max(np.abs(b)), 1e-30))


SETTLE = 0.3


def row(name, op, cxx_fn, np_fn, repeats):
    got, want = cxx_fn(), np_fn()
    time.sleep(SETTLE)
    t_cxx = best_ms(cxx_fn, repeats)
    t_np = best_ms(np_fn, repeats)
    return (name, op, t_cxx, t_np, t_np / t_cxx, rel_err(got, want))


def conv_rows(cfg, repeats, rng):
    name, n, c, o, h, k, s, p = cfg
    x = rng.standard_normal((n, c, h, h), dtype=np.float32)
    w = rng.standard_normal((o, c, k, k), dtype=np.float32)
    out = (h + 2 * p - k) // s + 1
    dy = rng.standard_normal((n, o, out, out), dtype=np.float32)
    return [
        row(name, "conv fwd", lambda: cxx_conv_forward(x, w, s, p, out), lambda: np_conv_forward(x, w, s, p), repeats),
        row(name, "conv bwd-data", lambda: cxx_conv_backward_input(dy, w, x.shape, s, p),
            lambda: np_conv_backward_input(dy, w, x.shape, s, p), repeats),
        row(name, "conv bwd-filter", lambda: cxx_conv_backward_filter(dy, x, k, s, p),
            lambda: np_conv_backward_filter(dy, x, k, s, p), repeats),
    ]


def pool_rows(cfg, repeats, rng):
    name, n, c, h, k, s, p, kind = cfg
    x = rng.standard_normal((n, c, h, h), dtype=np.float32)
    out = (h + 2 * p - k) // s + 1
    dy = rng.standard_normal((n, c, out, out), dtype=np.float32)
    geo = dict(k=(1, k, k), s=(1, s, s), p=(0, p, p), o=(1, out, out))
    if kind == "max":
        def fwd():
            return _kernels.max_pool3d(_5d(x), geo["k"], geo["s"], geo["p"], (1, 1, 1), geo["o"])

        def bwd():
            _, idx = fwd()
            dx = _kernels.argmax_scatter(dy.reshape(n, c, -1), idx.reshape(n, c, -1), h * h)
            return dx.reshape(x.shape)

        def np_bwd():
            return np_max_pool_backward(dy, np_max_pool(x, k, s, p)[1], x.shape, k, s, p)
        return [row(name, "maxpool fwd", lambda: fwd()[0][:, :, 0], lambda: np_max_pool(x, k, s, p)[0], repeats),
                row(name, "maxpool bwd", bwd, np_bwd, repeats)]

    def avg_fwd():
        return _kernels.avg_pool3d(_5d(x), geo["k"], geo["s"], geo["p"], geo["p"], geo["o"], True, 0)[:, :, 0]

    def avg_bwd():
        return _kernels.avg_pool3d_backward(_5d(dy), (1, h, h), geo["k"], geo["s"], geo["p"], geo["p"], True,
                                            0)[:, :, 0]
    return [row(name, "avgpool fwd", avg_fwd, lambda: np_avg_pool(x, k, s, p), repeats),
            row(name, "avgpool bwd", avg_bwd, lambda: np_avg_pool_backward(dy, x.shape, k, s, p), repeats)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="only the first conv and pool configuration")
    parser.add_argument("--settle", type=float, default=SETTLE,
                        help="seconds to let OpenBLAS threads go idle before timing C++ (default %(default)s)")
    args = parser.parse_args()
    globals()["SETTLE"] = args.settle
    rng = np.random.default_rng(0)
    convs, pools = (CONVS[:1], POOLS[:1]) if args.quick else (CONVS, POOLS)
    rows = [r for cfg in convs for r in conv_rows(cfg, args.repeats, rng)]
    rows += [r for cfg in pools for r in pool_rows(cfg, args.repeats, rng)]
    print(f"float32, C++ kernels: {_kernels.num_threads()} threads (their own team), GEMM micro-kernels: {_kernels.gemm_isa()}; "
          f"best of {args.repeats}")
    header = f"| {'layer':<31} | {'op':<15} | {'C++ ms':>8} | {'NumPy ms':>9} | {'speedup':>7} | {'rel err':>8} |"
    print(header)
    print("|" + "|".join("-" * (len(c)) for c in header.split("|")[1:-1]) + "|")
    for name, op, t_cxx, t_np, speedup, err in rows:
        print(f"| {name:<31} | {op:<15} | {t_cxx:8.2f} | {t_np:9.2f} | {speedup:6.1f}x | {err:8.1e} |")


if __name__ == "__main__":
    main()
