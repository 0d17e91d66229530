"""Max pooling's fast path (2x2/2, 3x3/2, 3x3/1 windows) and fused gradient (max_pool3d_backward).

The reference below is written from the definition, one window element at a time in scan order:
the first element is taken and a later one wins only when strictly larger or NaN over a number, so
a window yields its first maximum (first NaN if any); a window entirely in the padding yields -inf
and argmax -1. The kernels must agree bit for bit, signed zeros and NaN payloads included: values
are compared as raw bytes, and the gradient against an in-order scatter in the same dtype.
Planes with and without NaN take different loops in the fast path, so the data mixes both.
"""
import numpy as np
import pytest

k = pytest.importorskip("mindspore_cpu._kernels")

RNG = np.random.default_rng(1)


def windows(x, kernel, stride, pad, dil, out):
    """For each kernel offset in scan order: (valid, idx, v) over every plane and output, v the input value at
    flat index idx of its plane where valid."""
    n, c = x.shape[:2]
    ins = x.shape[2:]
    flat = x.reshape(n * c, -1)
    grids = np.meshgrid(*[np.arange(o) for o in out], indexing="ij")
    for off in np.ndindex(*kernel):
        pos = [g * s - p + o * d for g, s, p, o, d in zip(grids, stride, pad, off, dil)]
        valid = np.ones(out, bool)
        for q, size in zip(pos, ins):
            valid &= (q >= 0) & (q < size)
        idx = (np.clip(pos[0], 0, None) * ins[1] + np.clip(pos[1], 0, None)) * ins[2] + np.clip(pos[2], 0, None)
        yield valid, idx, flat[:, np.where(valid, idx, 0)]


def ref_max_pool(x, kernel, stride, pad, dil, out):
    """(y, argmax) of x (N, C, D, H, W), vectorised over planes and outputs, looping over offsets."""
    n, c = x.shape[:2]
    best = np.full((n * c,) + tuple(out), -np.inf, x.dtype)
    arg = np.full((n * c,) + tuple(out), -1, np.int64)
    for valid, idx, v in windows(x, kernel, stride, pad, dil, out):
        wins = valid & ((arg < 0) | (v > best) | (np.isnan(v) & ~np.isnan(best)))
        best = np.where(wins, v, best)
        arg = np.where(wins, idx, arg)
    return best.reshape((n, c) + tuple(out)), arg.reshape((n, c) + tuple(out))


def ref_backward(x, dy, arg):
    """dx: dy added at each argmax, in output order (np.add.at), in dy's dtype."""
    n, c = x.shape[:2]
    dx = np.zeros((n * c, int(np.prod(x.shape[2:]))), dy.dtype)
    a, g = arg.reshape(n * c, -1), dy.reshape(n * c, -1)
    for p in range(n * c):
        keep = a[p] >= 0
        np.add.at(dx[p], a[p][keep], g[p][keep])
    return dx.reshape(x.shape)


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))


def data(shape, dtype, special=True):
    """Ties (small integers), and in every other plane NaN (several payloads), +-inf and -0."""
    x = RNG.integers(-2, 3, size=shape).astype(dtype)
    if not special:
        return x
    planes = x.reshape(shape[0] * shape[1], -1)
    m = RNG.random(planes.shape)
    odd = (np.arange(planes.shape[0]) % 2 == 1)[:, None]
    planes[(m < 0.2) & odd] = -0.0
    planes[(m > 0.97) & odd] = -np.inf
    planes[(m > 0.2) & (m < 0.23)] = np.inf
    nan = (m > 0.5) & (m < 0.56) & odd
    planes[nan] = np.nan
    bits = planes.view(np.uint32 if dtype == np.float32 else np.uint64)
    bits[nan] |= RNG.integers(1, 64, size=int(nan.sum())).astype(bits.dtype)
    return x


def out_size(ins, kernel, stride, pad, dil, extra):
    return tuple((i + 2 * p - d * (kk - 1) - 1) // s + 1 + e
                 for i, kk, s, p, d, e in zip(ins, kernel, stride, pad, dil, extra))


def check(x, kernel, stride, pad, dil, out):
    y, idx = k.max_pool3d(x, kernel, stride, pad, dil, out)
    want_y, want_idx = ref_max_pool(x, kernel, stride, pad, dil, out)
    np.testing.assert_array_equal(idx, want_idx)
    assert same_bits(y, want_y)
    assert same_bits(k.max_pool3d(x, kernel, stride, pad, dil, out, False), want_y)
    dy = RNG.standard_normal(y.shape).astype(x.dtype)
    dy.reshape(-1)[::7] = -0.0  # a -0 gradient lands as +0, as in a zeroed dx
    assert same_bits(k.max_pool3d_backward(x, dy, kernel, stride, pad, dil), ref_backward(x, dy, want_idx))


# (input D, H, W), kernel, stride, pad, extra output cells (ceil mode, or windows entirely in padding)
FAST_CASES = [
    ((1, 8, 8), (1, 2, 2), (1, 2, 2), (0, 0, 0), (0, 0, 0)),      # 2x2/2: windows tile
    ((1, 7, 9), (1, 2, 2), (1, 2, 2), (0, 0, 0), (0, 0, 0)),      # odd sizes: last row/column dropped
    ((1, 7, 9), (1, 2, 2), (1, 2, 2), (0, 0, 0), (0, 1, 1)),      # ceil mode: cut windows at the end
    ((1, 9, 7), (1, 2, 2), (1, 2, 2), (0, 1, 1), (0, 0, 0)),      # padding before
    ((1, 6, 6), (1, 2, 2), (1, 2, 2), (0, 1, 0), (0, 2, 0)),      # output rows entirely in the padding
    ((1, 10, 10), (1, 2, 2), (1, 3, 2), (0, 0, 0), (0, 0, 0)),    # row stride > kernel: rows in no window
    ((3, 8, 6), (1, 2, 2), (2, 2, 2), (0, 0, 0), (1, 0, 0)),      # depth stride 2, a slice past the end
    ((1, 8, 8), (1, 3, 3), (1, 2, 2), (0, 1, 1), (0, 0, 0)),      # 3x3/2 pad 1 (ResNet)
    ((1, 7, 9), (1, 3, 3), (1, 2, 2), (0, 1, 1), (0, 1, 1)),      # ... odd sizes, ceil mode
    ((1, 2, 2), (1, 3, 3), (1, 2, 2), (0, 1, 1), (0, 0, 0)),      # every window cut
    ((1, 7, 9), (1, 3, 3), (1, 1, 1), (0, 1, 1), (0, 0, 0)),      # 3x3/1 pad 1 ('same')
    ((1, 5, 16), (1, 3, 3), (1, 1, 1), (0, 0, 0), (0, 0, 0)),     # 3x3/1 valid
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ins,kernel,stride,pad,extra", FAST_CASES)
def test_fast_path_matches_reference(ins, kernel, stride, pad, extra, dtype):
    x = data((2, 4) + ins, dtype)
    check(x, kernel, stride, pad, (1, 1, 1), out_size(ins, kernel, stride, pad, (1, 1, 1), extra))


# Geometries outside the fast path: the generic loops, and the fused gradient's accumulating form.
GENERIC_CASES = [
    ((3, 9, 5), (2, 3, 2), (1, 2, 1), (1, 1, 0), (1, 2, 1)),
    ((1, 9, 9), (1, 2, 2), (1, 2, 2), (0, 1, 1), (1, 2, 2)),      # dilated
    ((1, 8, 10), (1, 2, 3), (1, 2, 2), (0, 1, 1), (1, 1, 1)),     # not square
    ((1, 9, 9), (1, 3, 3), (1, 3, 3), (0, 0, 0), (1, 1, 1)),      # stride 3
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ins,kernel,stride,pad,dil", GENERIC_CASES)
def test_generic_path_and_fused_gradient(ins, kernel, stride, pad, dil, dtype):
    x = data((2, 3) + ins, dtype)
    check(x, kernel, stride, pad, dil, out_size(ins, kernel, stride, pad, dil, (0, 0, 0)))


@pytest.mark.parametrize("shape,kernel,stride,pad", [
    ((256, 16, 1, 10, 10), (1, 2, 2), (1, 2, 2), (0, 0, 0)),      # gradient on two threads
    ((64, 16, 1, 32, 32), (1, 3, 3), (1, 2, 2), (0, 1, 1)),       # forward and gradient on two threads
])
def test_fast_path_at_parallel_sizes(shape, kernel, stride, pad):
    x = RNG.standard_normal(shape).astype(np.float32)
    x.reshape(shape[0] * shape[1], -1)[5, 17] = np.nan  # one plane through the NaN-aware loops
    check(x, kernel, stride, pad, (1, 1, 1), out_size(shape[2:], kernel, stride, pad, (1, 1, 1), (0, 0, 0)))


def test_selection_rules():
    x = np.array([[1, np.nan, 7, 7, -0.0, 0.0],
                  [np.nan, 3, 7, 7, 0.0, -0.0],
                  [-np.inf, -np.inf, 1, 2, 5, 5],
                  [-np.inf, -np.inf, 3, 4, 5, 5]], np.float32).reshape(1, 1, 1, 4, 6)
    y, idx = k.max_pool3d(x, (1, 2, 2), (1, 2, 2), (0, 0, 0), (1, 1, 1), (1, 2, 3))
    assert np.isnan(y[0, 0, 0, 0, 0]) and idx[0, 0, 0, 0, 0] == 1    # NaN wins, the first one
    assert y[0, 0, 0, 0, 1] == 7 and idx[0, 0, 0, 0, 1] == 2         # ties: the first in scan order
    assert np.signbit(y[0, 0, 0, 0, 2]) and idx[0, 0, 0, 0, 2] == 4  # -0 before +0 stays -0
    assert y[0, 0, 0, 1, 0] == -np.inf and idx[0, 0, 0, 1, 0] == 12  # all -inf: its first element
    assert y[0, 0, 0, 1, 2] == 5 and idx[0, 0, 0, 1, 2] == 16
    # A window entirely in the padding: -inf, argmax -1, no gradient.
    y, idx = k.max_pool3d(x, (1, 2, 2), (1, 2, 2), (0, 1, 0), (1, 1, 1), (1, 4, 3))
    assert np.all(y[0, 0, 0, 3] == -np.inf) and np.all(idx[0, 0, 0, 3] == -1)
    dx = k.max_pool3d_backward(x, np.ones(y.shape, np.float32), (1, 2, 2), (1, 2, 2), (0, 1, 0), (1, 1, 1))
    assert dx.sum() == 9 and dx.reshape(-1)[1] == 1 and dx.reshape(-1)[4] == 1


@pytest.mark.parametrize("ins,kernel,stride,pad", [
    ((1, 7, 9), (1, 2, 2), (1, 2, 2), (0, 0, 0)),
    ((1, 5, 7), (1, 3, 3), (1, 2, 2), (0, 1, 1)),
])
def test_a_single_nan_anywhere_is_seen(ins, kernel, stride, pad):
    """The fast path scans each plane for NaN (by quarters, then the remainder) to pick its loops."""
    out = out_size(ins, kernel, stride, pad, (1, 1, 1), (0, 0, 0))
    size = int(np.prod(ins))
    x = np.repeat(RNG.standard_normal((1, 1) + ins).astype(np.float32), size, axis=1)
    x.reshape(size, size)[np.arange(size), np.arange(size)] = np.nan  # plane i: NaN at element i
    check(x, kernel, stride, pad, (1, 1, 1), out)


def ref_rule_2x2(x, rule, floor):
    """MaxPool 2x2/2 under the NaN rules of pool.cpp, from their definitions, window elements in scan order:
    rule 1 (MaxPool's fold) m = floor, then m = (m > v) ? m : v; rule 2 m = floor, then m = v where v > m."""
    n, c, d, h, w = x.shape
    win = x.reshape(n, c, d, h // 2, 2, w // 2, 2).transpose(0, 1, 2, 3, 5, 4, 6).reshape(n, c, d, h // 2, w // 2, 4)
    m = np.full(win.shape[:-1], floor, x.dtype)
    for j in range(4):
        v = win[..., j]
        m = np.where(m > v, m, v) if rule == 1 else np.where(v > m, v, m)
    return m


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("rule", [0, 1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(2, 3, 1, 4, 6), (64, 6, 1, 28, 28), (8, 16, 2, 10, 10), (3, 2, 1, 6, 32),
                                   (3, 2, 1, 4, 34), (4, 3, 1, 2, 4)])
def test_flat_2x2_path_follows_each_rule(shape, dtype, rule, threads):
    """2x2/2 windows over even planes without argmax take the flat path (pool.cpp); planes with NaN (and the
    +-inf and -0 of ``data``) go back to the general path. Bit for bit against each rule's definition, signed
    zeros included (rule 1's fold keeps the last of equal values), on one thread and split over two."""
    x = data(shape, dtype)
    if rule == 0:
        floor = -np.inf
    else:
        floor = float(np.finfo(np.float32).min if rule == 1 else np.finfo(dtype).min)
    out = (shape[2], shape[3] // 2, shape[4] // 2)
    before = k.num_threads()
    k.set_num_threads(threads)
    try:
        got = k.max_pool3d(x, (1, 2, 2), (1, 2, 2), (0, 0, 0), (1, 1, 1), out, False, rule, floor)
    finally:
        k.set_num_threads(before)
    if rule == 0:
        want = ref_max_pool(x, (1, 2, 2), (1, 2, 2), (0, 0, 0), (1, 1, 1), out)[0]
    else:
        want = ref_rule_2x2(x, rule, dtype(floor))
    assert same_bits(got, want)


def ref_fold(x, kernel, stride, pad, dil, out, floor):
    """Rule 1 (MaxPool's fold) from its definition: m = floor, then m = (m > v) ? m : v over the window's
    elements in scan order (the last of equal values stays; a NaN restarts the fold)."""
    n, c = x.shape[:2]
    m = np.full((n * c,) + tuple(out), floor, x.dtype)
    for valid, _, v in windows(x, kernel, stride, pad, dil, out):
        m = np.where(valid, np.where(m > v, m, v), m)
    return m.reshape((n, c) + tuple(out))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ins,kernel,stride,pad,dil", [
    ((1, 8, 8), (1, 2, 2), (1, 2, 2), (0, 0, 0), (1, 1, 1)),      # flat path
    ((1, 9, 9), (1, 3, 3), (1, 2, 2), (0, 1, 1), (1, 1, 1)),      # fast path (ResNet's)
    ((1, 9, 9), (1, 2, 2), (1, 1, 1), (0, 0, 0), (1, 1, 1)),      # 2x2/1: the general path
    ((1, 9, 9), (1, 3, 3), (1, 1, 1), (0, 0, 0), (1, 2, 2)),      # dilation: the general path
])
def test_rule_1_value_is_the_fold_on_every_path(ins, kernel, stride, pad, dil, dtype):
    """MaxPool's value (rule 1, no argmax) is its fold on every path, signed zeros included: MindSpore 2.10's
    MaxPool gives +0 for the window [-0, +0, +0, +0] and -0 for [+0, -0, -0, -0] (measured on 2.10, 2x2 and 3x3)."""
    x = data((4, 6) + ins, dtype)
    zeros = x == 0          # zeros of both signs in every plane (data() gives -0 only where NaN is too)
    x[zeros] = np.where(RNG.random(int(zeros.sum())) < 0.5, -0.0, 0.0)
    floor = float(np.finfo(np.float32).min)
    out = out_size(ins, kernel, stride, pad, dil, (0, 0, 0))
    got = k.max_pool3d(x, kernel, stride, pad, dil, out, False, 1, floor)
    assert same_bits(got, ref_fold(x, kernel, stride, pad, dil, out, dtype(floor)))
    for window, negative in (([-0.0, 0.0, 0.0, 0.0], False), ([0.0, -0.0, -0.0, -0.0], True)):
        w = np.array(window, dtype).reshape(1, 1, 1, 2, 2)
        y = k.max_pool3d(w, (1, 2, 2), (1, 2, 2), (0, 0, 0), (1, 1, 1), (1, 1, 1), False, 1, floor)
        assert bool(np.signbit(y).all()) is negative


def test_flat_2x2_path_sees_a_single_nan_anywhere():
    ins = (1, 6, 8)
    size = int(np.prod(ins))
    x = np.repeat(RNG.standard_normal((1, 1) + ins).astype(np.float32), size, axis=1)
    x.reshape(size, size)[np.arange(size), np.arange(size)] = np.nan  # plane i: NaN at element i
    out = (1, 3, 4)
    got = k.max_pool3d(x, (1, 2, 2), (1, 2, 2), (0, 0, 0), (1, 1, 1), out, False)
    assert same_bits(got, ref_max_pool(x, (1, 2, 2), (1, 2, 2), (0, 0, 0), (1, 1, 1), out)[0])
    assert np.isnan(got).reshape(size, -1).sum(axis=1).tolist() == [1] * size


def test_max_pool_grad_kernel_matches_argmax_scatter():
    """pooling.py's MaxPoolGrad / MaxPool3DGrad kernels against MaxPoolWithArgmax + scatter."""
    ops = pytest.importorskip("mindspore.ops")
    from mindspore_cpu.kernels import pooling
    cases = [
        (ops.MaxPool(2, 2), ops.MaxPoolGrad(2, 2), (4, 6, 28, 28)),
        (ops.MaxPool(3, 2, "same"), ops.MaxPoolGrad(3, 2, "same"), (2, 3, 15, 16)),
        (ops.MaxPool3D((1, 3, 3), (1, 2, 2), "pad", (0, 0, 1, 1, 1, 1)),
         ops.MaxPool3DGrad((1, 3, 3), (1, 2, 2), "pad", (0, 0, 1, 1, 1, 1)), (2, 3, 1, 16, 16)),
        (ops.MaxPool3D(2, 2, ceil_mode=True, pad_mode="pad"), ops.MaxPool3DGrad(2, 2, "pad"), (2, 2, 5, 7, 7)),
    ]
    for fwd, grad, shape in cases:
        for dtype in (np.float32, np.float64):
            x = data(shape, dtype)
            out, idx = pooling._max_pool(fwd, x)
            dout = RNG.standard_normal(out.shape).astype(dtype)
            dx = pooling.KERNELS[type(grad).__name__](grad, x, out, dout)
            assert same_bits(dx, pooling._scatter(dout, idx, x.shape, np.dtype(dtype)))


def test_backward_rejects_bad_arguments():
    x = np.zeros((1, 2, 1, 4, 4), np.float32)
    dy = np.zeros((1, 2, 1, 2, 2), np.float32)
    geo = ((1, 2, 2), (1, 2, 2), (0, 0, 0), (1, 1, 1))
    with pytest.raises(ValueError, match="5-D"):
        k.max_pool3d_backward(x[0], dy, *geo)
    with pytest.raises(ValueError, match="same dtype"):
        k.max_pool3d_backward(x, dy.astype(np.float64), *geo)
    with pytest.raises(ValueError, match="float32 and float64"):
        k.max_pool3d_backward(x.astype(np.int32), dy.astype(np.int32), *geo)
    with pytest.raises(ValueError, match="C-contiguous"):
        k.max_pool3d_backward(np.zeros((1, 2, 1, 4, 8), np.float32)[..., ::2], dy, *geo)
    with pytest.raises(ValueError, match="does not match"):
        k.max_pool3d_backward(x, np.zeros((1, 3, 1, 2, 2), np.float32), *geo)
    with pytest.raises(ValueError, match="stride"):
        k.max_pool3d_backward(x, dy, (1, 2, 2), (1, 0, 2), (0, 0, 0), (1, 1, 1))
    with pytest.raises(ValueError, match="dilation"):
        k.max_pool3d_backward(x, dy, (1, 2, 2), (1, 2, 2), (0, 0, 0), (1, 1, 0))
