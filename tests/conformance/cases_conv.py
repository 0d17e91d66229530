"""Conformance cases of the conv family: convolutions (2-D, 1-D, 3-D, transposed, the gradient primitives).

The oracles are written from the definitions with NumPy: zero-pad, take one strided slice of the
input per kernel offset, contract channels with einsum. Transposed convolutions scatter the same
slices. Padding for 'same' is derived here independently (TensorFlow rule: the odd element after).
The pooling cases (second half) use sliding windows over
padded copies: -inf padding for max, and for average pooling explicit masks of the cells that count
towards each window's divisor.
"""
import numpy as np

import mindspore as ms
from mindspore import ops

from case import Case, rand

CONV_TOL = dict(rtol=1e-5, atol=1e-5)


# --- oracles --------------------------------------------------------------------------------
def same_pads(sizes, kernel, stride, dilation):
    pads = []
    for n, k, s, d in zip(sizes, kernel, stride, dilation):
        out = -(-n // s)
        total = max(0, (out - 1) * s + d * (k - 1) + 1 - n)
        pads.append((total // 2, total - total // 2))
    return pads


def _slices(offset, out, stride, dilation):
    return tuple(slice(o * d, o * d + (n - 1) * s + 1, s) for o, n, s, d in zip(offset, out, stride, dilation))


def np_conv(x, w, stride, pads, dilation, groups=1):
    """Cross-correlation of x (N, C, *S) with w (O, C / groups, *K); pads = [(before, after)] per axis."""
    nd = x.ndim - 2
    xp = np.pad(x, [(0, 0), (0, 0)] + list(pads))
    kernel = w.shape[2:]
    out = [(xp.shape[2 + i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1 for i in range(nd)]
    o, cg = w.shape[:2]
    og = o // groups
    y = np.zeros((x.shape[0], o) + tuple(out), dtype=np.float64)
    for off in np.ndindex(*kernel):
        win = xp[(slice(None), slice(None)) + _slices(off, out, stride, dilation)]
        for g in range(groups):
            wk = w[(slice(g * og, (g + 1) * og), slice(None)) + off]
            y[:, g * og:(g + 1) * og] += np.einsum("nc...,oc->no...", win[:, g * cg:(g + 1) * cg], wk)
    return y


def np_conv_input_grad(dy, w, in_size, stride, pads, dilation, groups=1):
    """The adjoint of np_conv with respect to x: scatter dy through every kernel offset, then crop the pads."""
    kernel = w.shape[2:]
    o, cg = w.shape[:2]
    og = o // groups
    full = [n + b + a for n, (b, a) in zip(in_size, pads)]
    dxp = np.zeros((dy.shape[0], cg * groups) + tuple(full))
    for off in np.ndindex(*kernel):
        win = dxp[(slice(None), slice(None)) + _slices(off, dy.shape[2:], stride, dilation)]
        for g in range(groups):
            wk = w[(slice(g * og, (g + 1) * og), slice(None)) + off]
            win[:, g * cg:(g + 1) * cg] += np.einsum("no...,oc->nc...", dy[:, g * og:(g + 1) * og], wk)
    return dxp[(slice(None), slice(None)) + tuple(slice(b, b + n) for n, (b, _) in zip(in_size, pads))]


def np_conv_filter_grad(dy, x, kernel, stride, pads, dilation, groups=1):
    xp = np.pad(x, [(0, 0), (0, 0)] + list(pads))
    o = dy.shape[1]
    cg, og = x.shape[1] // groups, o // groups
    dw = np.zeros((o, cg) + tuple(kernel))
    for off in np.ndindex(*kernel):
        win = xp[(slice(None), slice(None)) + _slices(off, dy.shape[2:], stride, dilation)]
        for g in range(groups):
            d = dy[:, g * og:(g + 1) * og].reshape(dy.shape[0], og, -1)
            v = win[:, g * cg:(g + 1) * cg].reshape(dy.shape[0], cg, -1)
            dw[(slice(g * og, (g + 1) * og), slice(None)) + off] = np.einsum("nop,ncp->oc", d, v)
    return dw


def np_conv_transpose(x, w, stride, padding, output_padding, dilation, groups=1):
    """torch-style transposed convolution: x (N, C_in, H, W), w (C_in, C_out / groups, kh, kw)."""
    cin, cog = w.shape[:2]
    cig = cin // groups
    kernel = w.shape[2:]
    full = [(n - 1) * s + d * (k - 1) + 1 + op
            for n, s, d, k, op in zip(x.shape[2:], stride, dilation, kernel, output_padding)]
    y = np.zeros((x.shape[0], cog * groups) + tuple(full))
    for off in np.ndindex(*kernel):
        win = y[(slice(None), slice(None)) + _slices(off, x.shape[2:], stride, dilation)]
        for g in range(groups):
            wk = w[(slice(g * cig, (g + 1) * cig), slice(None)) + off]
            win[:, g * cog:(g + 1) * cog] += np.einsum("nc...,co->no...", x[:, g * cig:(g + 1) * cig], wk)
    return y[(slice(None), slice(None)) + tuple(slice(p, f - p) for p, f in zip(padding, full))]


# --- inputs ---------------------------------------------------------------------------------
X = rand(2, 3, 7, 7, seed=1)
W = rand(4, 3, 3, 3, seed=2)
X_ODD = rand(1, 2, 6, 7, seed=3)
W_ODD = rand(3, 2, 3, 3, seed=4)
X_G = rand(1, 4, 5, 6, seed=5)
W_G = rand(6, 2, 3, 2, seed=6)
B4 = rand(4, seed=7)
X1 = rand(2, 3, 11, seed=8)
W1 = rand(4, 3, 3, seed=9)
X3 = rand(1, 2, 4, 5, 4, seed=10)
W3 = rand(3, 2, 2, 3, 2, seed=11)
DW = rand(3, 2, 3, 2, seed=12)   # Conv2DBackpropInput/Transpose weight: (C_out of the conv, C_in, kh, kw)
DOUT = rand(1, 3, 3, 4, seed=13)
XT = rand(2, 4, 3, 4, seed=14)
WT = rand(4, 3, 3, 2, seed=15)   # conv_transpose2d weight (C_in, C_out / groups, kh, kw)
BT = rand(6, seed=16)


def _conv2d_bpi(dout, w):
    return ops.Conv2DBackpropInput(3, (3, 2), pad_mode="pad", pad=(1, 0, 0, 1), stride=2)(dout, w, (1, 2, 6, 7))


def _conv2d_bpf(dout, x):
    return ops.Conv2DBackpropFilter(3, (3, 2), pad_mode="pad", pad=(1, 0, 0, 1), stride=(2, 2))(dout, x,
                                                                                                (3, 2, 3, 2))


def _conv3d_bpi(w, dout):
    return ops.Conv3DBackpropInput(3, (2, 3, 2), pad_mode="same", stride=(1, 2, 2))(w, dout, (1, 2, 4, 5, 4))


def _conv3d_bpf(x, dout):
    return ops.Conv3DBackpropFilter(3, (2, 3, 2), pad_mode="same", stride=(1, 2, 2))(x, dout, (3, 2, 2, 3, 2))


def _conv_grad_of_grad(x, w):
    """d/dx sum(conv(x, w)^2) = 2 * BackpropInput(conv(x, w), w): its gradient is a second-order one."""
    conv = ops.Conv2D(3, 3, pad_mode="pad", pad=(1, 1, 0, 1), stride=(2, 1))
    return ms.grad(lambda a, b: ops.reduce_sum(ops.mul(conv(a, b), conv(a, b))))(x, w)


SAME3 = same_pads((4, 5, 4), (2, 3, 2), (1, 2, 2), (1, 1, 1))
DOUT3 = rand(1, 3, 4, 3, 2, seed=17)

_HUGE = 2 ** 32   # a stride far past the input: one output position, computed without buffers sized by it


CASES = [
    Case("conv_and_pool_huge_stride",
         lambda x, w, v, u: (ops.conv2d(x, w, stride=(_HUGE, _HUGE)), ops.conv3d(v, u, stride=_HUGE),
                             ops.max_pool2d(x, 2, stride=_HUGE), ops.avg_pool2d(x, 2, stride=20000)),
         [rand(1, 1, 5, 5), rand(1, 1, 2, 2, seed=1), rand(1, 1, 3, 4, 4, seed=2), rand(1, 1, 2, 2, 2, seed=3)],
         oracle=lambda x, w, v, u: ((x[..., :2, :2] * w).sum().reshape(1, 1, 1, 1),
                                    (v[..., :2, :2, :2] * u).sum().reshape(1, 1, 1, 1, 1),
                                    x[..., :2, :2].max().reshape(1, 1, 1, 1), x[..., :2, :2].mean().reshape(1, 1, 1, 1)),
         prims=["Conv2D", "Conv3D", "MaxPoolWithArgmaxV2", "AvgPool"], grad=True, grad_inputs=[0, 1, 2, 3]),
    Case("conv2d_valid", lambda x, w: ops.Conv2D(4, 3)(x, w), [X, W],
         oracle=lambda x, w: np_conv(x, w, (1, 1), [(0, 0)] * 2, (1, 1)), prims=["Conv2D"], grad=True,
         dtypes=(np.float32, np.float64, np.float16), **CONV_TOL),
    Case("conv2d_same_stride2", lambda x, w: ops.Conv2D(3, 3, pad_mode="same", stride=2)(x, w), [X_ODD, W_ODD],
         oracle=lambda x, w: np_conv(x, w, (2, 2), same_pads((6, 7), (3, 3), (2, 2), (1, 1)), (1, 1)),
         prims=["Conv2D"], grad=True, **CONV_TOL),
    Case("conv2d_pad_tuple_dilation",
         lambda x, w: ops.Conv2D(3, 3, pad_mode="pad", pad=(1, 0, 2, 1), dilation=2, stride=(1, 2))(x, w),
         [X_ODD, W_ODD], oracle=lambda x, w: np_conv(x, w, (1, 2), [(1, 0), (2, 1)], (2, 2)), prims=["Conv2D"],
         grad=True, **CONV_TOL),
    Case("conv2d_group", lambda x, w: ops.Conv2D(6, (3, 2), group=2, pad_mode="same")(x, w), [X_G, W_G],
         oracle=lambda x, w: np_conv(x, w, (1, 1), same_pads((5, 6), (3, 2), (1, 1), (1, 1)), (1, 1), groups=2),
         prims=["Conv2D"], grad=True, **CONV_TOL),
    Case("conv2d_depthwise", lambda x, w: ops.Conv2D(4, 3, group=4, pad_mode="pad", pad=1)(x, w),
         [X_G, rand(4, 1, 3, 3, seed=18)],
         oracle=lambda x, w: np_conv(x, w, (1, 1), [(1, 1), (1, 1)], (1, 1), groups=4), prims=["Conv2D"],
         grad=True, **CONV_TOL),
    Case("conv2d_functional_bias", lambda x, w, b: ops.conv2d(x, w, b, stride=(1, 2), pad_mode="pad", padding=1),
         [X, W, B4],
         oracle=lambda x, w, b: np_conv(x, w, (1, 2), [(1, 1), (1, 1)], (1, 1)) + b.reshape(1, -1, 1, 1),
         prims=["Conv2D"], grad=True, **CONV_TOL),
    Case("conv2d_1x1", lambda x, w: ops.conv2d(x, w), [X, rand(5, 3, 1, 1, seed=19)],
         oracle=lambda x, w: np_conv(x, w, (1, 1), [(0, 0)] * 2, (1, 1)), prims=["Conv2D"], grad=True, **CONV_TOL),
    Case("conv1d_functional", lambda x, w: ops.conv1d(x, w, stride=2, pad_mode="pad", padding=(2, 1), dilation=2),
         [X1, W1], oracle=lambda x, w: np_conv(x, w, (2,), [(2, 1)], (2,)), prims=["Conv2D"], grad=True,
         **CONV_TOL),
    Case("conv1d_same", lambda x, w, b: ops.conv1d(x, w, b, pad_mode="same"), [X1, W1, B4],
         oracle=lambda x, w, b: np_conv(x, w, (1,), [(1, 1)], (1,)) + b.reshape(1, -1, 1), prims=["Conv2D"],
         grad=True, **CONV_TOL),
    Case("conv3d_same", lambda x, w: ops.Conv3D(3, (2, 3, 2), pad_mode="same", stride=(1, 2, 2))(x, w), [X3, W3],
         oracle=lambda x, w: np_conv(x, w, (1, 2, 2), SAME3, (1, 1, 1)), prims=["Conv3D"], grad=True, **CONV_TOL),
    Case("conv3d_functional_pad", lambda x, w: ops.conv3d(x, w, pad_mode="pad", padding=(1, 0, 0, 1, 1, 0),
                                                          dilation=(1, 2, 1)),
         [X3, W3], oracle=lambda x, w: np_conv(x, w, (1, 1, 1), [(1, 0), (0, 1), (1, 0)], (1, 2, 1)),
         prims=["Conv3D"], grad=True, **CONV_TOL),
    Case("conv2d_backprop_input", _conv2d_bpi, [DOUT, DW],
         oracle=lambda d, w: np_conv_input_grad(d, w, (6, 7), (2, 2), [(1, 0), (0, 1)], (1, 1)),
         prims=["Conv2DBackpropInput"], grad=True, **CONV_TOL),
    Case("conv2d_transpose_prim",
         lambda d, w: ops.Conv2DTranspose(3, (3, 2), pad_mode="pad", pad=(1, 0, 0, 1), stride=2)(d, w, (1, 2, 6, 7)),
         [DOUT, DW], oracle=lambda d, w: np_conv_input_grad(d, w, (6, 7), (2, 2), [(1, 0), (0, 1)], (1, 1)),
         prims=["Conv2DTranspose"], grad=True, **CONV_TOL),
    Case("conv2d_backprop_filter", _conv2d_bpf, [DOUT, X_ODD],
         oracle=lambda d, x: np_conv_filter_grad(d, x, (3, 2), (2, 2), [(1, 0), (0, 1)], (1, 1)),
         prims=["Conv2DBackpropFilter"], grad=True, **CONV_TOL),
    Case("conv_transpose2d_functional",
         lambda x, w, b: ops.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1, groups=2),
         [XT, WT, BT],
         oracle=lambda x, w, b: np_conv_transpose(x, w, (2, 2), (1, 1), (1, 1), (1, 1), groups=2)
         + b.reshape(1, -1, 1, 1), prims=["Conv2DTranspose"], grad=True, **CONV_TOL),
    Case("conv_transpose2d_dilation", lambda x, w: ops.conv_transpose2d(x, w, dilation=(2, 1), stride=(1, 2)),
         [XT, rand(4, 2, 2, 3, seed=20)],
         oracle=lambda x, w: np_conv_transpose(x, w, (1, 2), (0, 0), (0, 0), (2, 1)), prims=["Conv2DTranspose"],
         grad=True, **CONV_TOL),
    Case("conv3d_backprop_input", _conv3d_bpi, [W3, DOUT3],
         oracle=lambda w, d: np_conv_input_grad(d, w, (4, 5, 4), (1, 2, 2), SAME3, (1, 1, 1)),
         prims=["Conv3DBackpropInput"], grad=True, **CONV_TOL),
    Case("conv3d_backprop_filter", _conv3d_bpf, [X3, DOUT3],
         oracle=lambda x, d: np_conv_filter_grad(d, x, (2, 3, 2), (1, 2, 2), SAME3, (1, 1, 1)),
         prims=["Conv3DBackpropFilter"], grad=True, **CONV_TOL),
    Case("conv2d_grad_of_grad", _conv_grad_of_grad, [X_ODD, W_ODD],
         oracle=lambda x, w: 2 * np_conv_input_grad(np_conv(x, w, (2, 1), [(1, 1), (0, 1)], (1, 1)), w, (6, 7),
                                                    (2, 1), [(1, 1), (0, 1)], (1, 1)),
         prims=["Conv2D", "Conv2DBackpropInput"], grad=True, **CONV_TOL),
    Case("conv2d_float16_out_dtype", lambda x, w: ops.Conv2D(4, 3)(x, w), [X, W], prims=["Conv2D"],
         dtypes=(np.float16,), out_dtype=ms.float16),
]


# --- pooling oracles --------------------------------------------------------------------------
def pool_out(n, k, s, before, after, d=1, ceil=False):
    span = n + before + after - d * (k - 1) - 1
    if not ceil:
        return span // s + 1
    o = -(-span // s) + 1
    return o - 1 if (o - 1) * s >= n + before else o


def _pool_windows(x, kernel, stride, pads, dilation, ceil, fill, nd):
    """Padded windows of the last ``nd`` axes stacked on a new last axis, and the output size."""
    sizes = x.shape[-nd:]
    out = [pool_out(n, k, s, b, a, d, ceil) for n, k, s, (b, a), d in zip(sizes, kernel, stride, pads, dilation)]
    extra = [max(0, (o - 1) * s + d * (k - 1) + 1 - (n + b + a))
             for o, n, k, s, (b, a), d in zip(out, sizes, kernel, stride, pads, dilation)]
    widths = [(0, 0)] * (x.ndim - nd) + [(b, a + e) for (b, a), e in zip(pads, extra)]
    xp = np.pad(x, widths, constant_values=fill)
    wins = [xp[(Ellipsis,) + _slices(off, out, stride, dilation)] for off in np.ndindex(*kernel)]
    return np.stack(wins, axis=-1), out, widths


def np_max_pool(x, kernel, stride, pads, dilation=None, ceil=False):
    """(output, argmax): argmax is the flat index into each input plane."""
    nd = len(kernel)
    dilation = dilation or (1,) * nd
    wins, out, widths = _pool_windows(x, kernel, stride, pads, dilation, ceil, -np.inf, nd)
    sizes = x.shape[-nd:]
    index = np.broadcast_to(np.arange(int(np.prod(sizes))).reshape(sizes), x.shape)
    iwins, _, _ = _pool_windows(index, kernel, stride, pads, dilation, ceil, -1, nd)
    am = wins.argmax(axis=-1)[..., None]
    return np.take_along_axis(wins, am, -1)[..., 0], np.take_along_axis(iwins, am, -1)[..., 0]


def np_avg_pool(x, kernel, stride, pads, ceil=False, include_pad=True, divisor=0):
    nd = len(kernel)
    ones = (1,) * nd
    wins, out, widths = _pool_windows(x, kernel, stride, pads, ones, ceil, 0.0, nd)
    sizes = x.shape[-nd:]
    inside, _, _ = _pool_windows(np.ones(sizes), kernel, stride, pads, ones, ceil, 0.0, nd)
    region = np.pad(np.ones(sizes), list(pads), constant_values=1.0)
    region = np.pad(region, [(0, w[1] - a) for w, (_, a) in zip(widths[-nd:], pads)])
    counted = np.stack([region[_slices(off, out, stride, ones)] for off in np.ndindex(*kernel)], -1)
    div = divisor if divisor else (counted.sum(-1) if include_pad else inside.sum(-1))
    return wins.sum(-1) / div


def np_adaptive(x, out, reduce):
    h, w = x.shape[-2:]
    res = np.zeros(x.shape[:-2] + tuple(out))
    idx = np.zeros(x.shape[:-2] + tuple(out), np.int64)
    for i in range(out[0]):
        h0, h1 = i * h // out[0], -(-(i + 1) * h // out[0])
        for j in range(out[1]):
            w0, w1 = j * w // out[1], -(-(j + 1) * w // out[1])
            win = x[..., h0:h1, w0:w1].reshape(x.shape[:-2] + (-1,))
            res[..., i, j] = reduce(win, axis=-1)
            k = win.argmax(axis=-1)
            idx[..., i, j] = (h0 + k // (w1 - w0)) * w + w0 + k % (w1 - w0)
    return res, idx


def np_scatter(g, idx, x_shape):
    """dx with dx.flat_plane[idx] += g (summing repeats), per plane."""
    planes = int(np.prod(idx.shape[:-2 if len(x_shape) < 5 else -3]))
    gf, jf = g.reshape(planes, -1), idx.reshape(planes, -1)
    dx = np.zeros((planes, int(np.prod(x_shape)) // planes))
    np.add.at(dx, (np.arange(planes)[:, None], jf), gf)
    return dx.reshape(x_shape)


def np_gather(g, idx):
    planes = int(np.prod(idx.shape[:-2 if idx.ndim < 5 else -3]))
    return np.take_along_axis(g.reshape(planes, -1), idx.reshape(planes, -1), 1).reshape(idx.shape)


def np_adjoint(forward, x_shape, g, nd):
    """A^T g for a linear per-plane pooling ``forward`` (A is built column by column from a basis)."""
    sizes = tuple(x_shape[-nd:])
    s = int(np.prod(sizes))
    cols = forward(np.eye(s).reshape((s, 1) + sizes)).reshape(s, -1)    # (S, Q) = A^T
    return (g.reshape(-1, cols.shape[1]) @ cols.T).reshape(x_shape)


XP = rand(2, 3, 7, 8, seed=21)
XP3 = rand(1, 2, 5, 6, 5, seed=22)
SAME_P = same_pads((7, 8), (3, 3), (2, 2), (1, 1))
SAME_P3 = same_pads((5, 6, 5), (3, 3, 3), (2, 2, 2), (1, 1, 1))
P11 = [(1, 1), (1, 1)]
P111 = [(1, 1)] * 3


def _maxpool_same(x):
    return ops.MaxPool(3, 2, "same")(x)


def _v2(x):
    return ops.max_pool2d(x, 3, 2, padding=1, dilation=(1, 2), ceil_mode=True, return_indices=True)


def _mp3d(x):
    return ops.MaxPool3D(kernel_size=(2, 3, 2), strides=2, pad_mode="pad", pad_list=1, ceil_mode=True)(x)


def _mp3d_argmax(x):
    return ops.max_pool3d(x, (2, 3, 2), 2, padding=1, dilation=(1, 1, 2), return_indices=True)


def _v2_oracle(x):
    return np_max_pool(x, (3, 3), (2, 2), P11, (1, 2), True)


def _mp3d_oracle(x):
    return np_max_pool(x, (2, 3, 2), (2, 2, 2), P111, None, True)


def _mp3d_argmax_oracle(x):
    return np_max_pool(x, (2, 3, 2), (2, 2, 2), P111, (1, 1, 2))


def _avg3d_grad(g):
    grad = ops.AvgPool3DGrad(kernel_size=(2, 3, 2), strides=2, pad_mode="pad", pad=1, ceil_mode=True)
    return grad((1, 2, 5, 6, 5), g)


def _avg3d_fwd_oracle(x):
    return np_avg_pool(x, (2, 3, 2), (2, 2, 2), P111, ceil=True)


def _channel_argmax(x, y, argmax):
    plane = x.shape[-2] * x.shape[-1]
    return np.asarray(y), np.asarray(argmax) + (np.arange(x.shape[-3]) * plane).reshape(-1, 1, 1)


POOL_CASES = [
    Case("maxpool_valid", lambda x: ops.MaxPool(2, 2)(x), [XP],
         oracle=lambda x: np_max_pool(x, (2, 2), (2, 2), [(0, 0)] * 2)[0], prims=["MaxPool"], grad=True,
         dtypes=(np.float32, np.float64, np.float16)),
    Case("maxpool_same", _maxpool_same, [XP], oracle=lambda x: np_max_pool(x, (3, 3), (2, 2), SAME_P)[0],
         prims=["MaxPool"], grad=True),
    Case("maxpool_grad", lambda x, g: ops.MaxPoolGrad(3, 2, "SAME")(x, _maxpool_same(x), g),
         [XP, rand(2, 3, 4, 4, seed=23)],
         oracle=lambda x, g: np_scatter(g, np_max_pool(x, (3, 3), (2, 2), SAME_P)[1], x.shape),
         prims=["MaxPoolGrad"], grad=True),
    Case("maxpool_grad_grad", lambda x, g: ops.MaxPoolGradGrad(3, 2, "SAME")(x, _maxpool_same(x), g),
         [XP, rand(2, 3, 7, 8, seed=24)], oracle=lambda x, g: np_gather(g, np_max_pool(x, (3, 3), (2, 2), SAME_P)[1]),
         prims=["MaxPoolGradGrad"], grad=True),
    Case("maxpool_grad_of_grad", lambda x: ms.grad(lambda a: ops.reduce_sum(ops.mul(_maxpool_same(a),
                                                                                  _maxpool_same(a))))(x),
         [XP], oracle=lambda x: np_scatter(2 * np_max_pool(x, (3, 3), (2, 2), SAME_P)[0],
                                           np_max_pool(x, (3, 3), (2, 2), SAME_P)[1], x.shape),
         prims=["MaxPool", "MaxPoolGrad"], grad=True),
    Case("avgpool_valid", lambda x: ops.AvgPool(3, 2)(x), [XP],
         oracle=lambda x: np_avg_pool(x, (3, 3), (2, 2), [(0, 0)] * 2), prims=["AvgPool"], grad=True,
         dtypes=(np.float32, np.float64, np.float16)),
    Case("avgpool_same", lambda x: ops.AvgPool(3, 2, "same")(x), [XP],
         oracle=lambda x: np_avg_pool(x, (3, 3), (2, 2), SAME_P, include_pad=False), prims=["AvgPool"], grad=True),
    Case("avgpool_grad", lambda x, g: ops.AvgPoolGrad(3, 2, "SAME")(x, ops.AvgPool(3, 2, "same")(x), g),
         [XP, rand(2, 3, 4, 4, seed=25)],
         oracle=lambda x, g: np_adjoint(lambda b: np_avg_pool(b, (3, 3), (2, 2), SAME_P, include_pad=False),
                                        x.shape, g, 2),
         prims=["AvgPoolGrad"], grad=True),
    # MindSpore 2.10's argmax counts over the item's (C, H, W): channel * H * W added to the index in the plane
    Case("maxpool_with_argmax", lambda x: ops.MaxPoolWithArgmax(3, 2, "same")(x), [XP],
         oracle=lambda x: _channel_argmax(x, *np_max_pool(x, (3, 3), (2, 2), SAME_P)),
         prims=["MaxPoolWithArgmax"], grad=True),
    Case("maxpool_grad_with_argmax",
         lambda x, g: ops.MaxPoolGradWithArgmax(3, 2, "same")(x, g, ops.MaxPoolWithArgmax(3, 2, "same")(x)[1]),
         [XP, rand(2, 3, 4, 4, seed=26)],
         oracle=lambda x, g: np_scatter(g, np_max_pool(x, (3, 3), (2, 2), SAME_P)[1], x.shape),
         prims=["MaxPoolGradWithArgmax"], grad=True),
    Case("maxpool_grad_grad_with_argmax",
         lambda x, g: ops.MaxPoolGradGradWithArgmax()(x, g, ops.MaxPoolWithArgmax(3, 2, "same")(x)[1]),
         [XP, rand(2, 3, 7, 8, seed=27)], oracle=lambda x, g: np_gather(g, np_max_pool(x, (3, 3), (2, 2), SAME_P)[1]),
         prims=["MaxPoolGradGradWithArgmax"], grad=True),
    Case("max_pool2d_pad_dilation_ceil", _v2, [XP], oracle=_v2_oracle, prims=["MaxPoolWithArgmaxV2"], grad=True),
    Case("max_pool2d_default_stride", lambda x: ops.max_pool2d(x, (2, 3)), [XP],
         oracle=lambda x: np_max_pool(x, (2, 3), (2, 3), [(0, 0)] * 2)[0], prims=["MaxPoolWithArgmaxV2"], grad=True),
    Case("max_pool2d_grad_v2",
         lambda x, g: ops.MaxPoolGradWithArgmaxV2(3, 2, 1, (1, 2), True)(x, g, _v2(x)[1]),
         [XP, rand(*_v2_oracle(XP)[0].shape, seed=28)], oracle=lambda x, g: np_scatter(g, _v2_oracle(x)[1], x.shape),
         prims=["MaxPoolGradWithArgmaxV2"], grad=True),
    Case("maxpool3d_pad_ceil", _mp3d, [XP3], oracle=lambda x: _mp3d_oracle(x)[0], prims=["MaxPool3D"], grad=True),
    Case("maxpool3d_same", lambda x: ops.MaxPool3D(3, 2, "SAME")(x), [XP3],
         oracle=lambda x: np_max_pool(x, (3, 3, 3), (2, 2, 2), SAME_P3)[0], prims=["MaxPool3D"], grad=True),
    Case("maxpool3d_grad", lambda x, g: ops.MaxPool3DGrad((2, 3, 2), 2, "PAD", 1)(x, _mp3d(x), g),
         [XP3, rand(*_mp3d_oracle(XP3)[0].shape, seed=29)],
         oracle=lambda x, g: np_scatter(g, _mp3d_oracle(x)[1], x.shape),
         prims=["MaxPool3DGrad"], grad=True),
    Case("maxpool3d_grad_grad", lambda x, g: ops.MaxPool3DGradGrad((2, 3, 2), 2, "PAD", 1)(x, _mp3d(x), g),
         [XP3, rand(1, 2, 5, 6, 5, seed=30)], oracle=lambda x, g: np_gather(g, _mp3d_oracle(x)[1]),
         prims=["MaxPool3DGradGrad"], grad=True),
    Case("max_pool3d_functional", _mp3d_argmax, [XP3], oracle=_mp3d_argmax_oracle, prims=["MaxPool3DWithArgmax"],
         grad=True),
    Case("max_pool3d_grad_with_argmax",
         lambda x, g: ops.MaxPool3DGradWithArgmax((2, 3, 2), 2, 1, (1, 1, 2))(x, g, _mp3d_argmax(x)[1]),
         [XP3, rand(*_mp3d_argmax_oracle(XP3)[0].shape, seed=31)],
         oracle=lambda x, g: np_scatter(g, _mp3d_argmax_oracle(x)[1], x.shape),
         prims=["MaxPool3DGradWithArgmax"], grad=True),
    Case("avg_pool2d_pad_ceil", lambda x: ops.avg_pool2d(x, 3, 2, padding=1, ceil_mode=True), [XP],
         oracle=lambda x: np_avg_pool(x, (3, 3), (2, 2), P11, ceil=True), prims=["AvgPool3D"], grad=True),
    Case("avg_pool2d_exclude_pad", lambda x: ops.avg_pool2d(x, (3, 2), (2, 1), padding=(1, 0),
                                                            count_include_pad=False),
         [XP], oracle=lambda x: np_avg_pool(x, (3, 2), (2, 1), [(1, 1), (0, 0)], include_pad=False),
         prims=["AvgPool3D"], grad=True),
    Case("avg_pool2d_divisor", lambda x: ops.avg_pool2d(x, 2, 2, padding=(1, 0, 0, 1), divisor_override=3), [XP],
         oracle=lambda x: np_avg_pool(x, (2, 2), (2, 2), [(1, 0), (0, 1)], divisor=3), prims=["AvgPool3D"],
         grad=True),
    Case("avg_pool1d", lambda x: ops.avg_pool1d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False), [X1],
         oracle=lambda x: np_avg_pool(x, (3,), (2,), [(1, 1)], ceil=True, include_pad=False), prims=["AvgPool3D"],
         grad=True),
    Case("avg_pool3d", lambda x: ops.avg_pool3d(x, (2, 3, 2), 2, padding=1, ceil_mode=True), [XP3],
         oracle=_avg3d_fwd_oracle, prims=["AvgPool3D"], grad=True),
    Case("avgpool3d_same", lambda x: ops.AvgPool3D(3, 2, "same", count_include_pad=False)(x), [XP3],
         oracle=lambda x: np_avg_pool(x, (3, 3, 3), (2, 2, 2), SAME_P3, include_pad=False), prims=["AvgPool3D"],
         grad=True),
    Case("avgpool3d_grad", _avg3d_grad, [rand(*_avg3d_fwd_oracle(XP3).shape, seed=32)],
         oracle=lambda g: np_adjoint(_avg3d_fwd_oracle, (1, 2, 5, 6, 5), g, 3), prims=["AvgPool3DGrad"], grad=True),
    Case("adaptive_avg_pool2d", lambda x: ops.adaptive_avg_pool2d(x, (3, 5)), [XP],
         oracle=lambda x: np_adaptive(x, (3, 5), np.mean)[0], prims=["AdaptiveAvgPool2D"], grad=True),
    Case("adaptive_avg_pool2d_3d_none", lambda x: ops.adaptive_avg_pool2d(x, (2, None)), [XP[0]],
         oracle=lambda x: np_adaptive(x, (2, 8), np.mean)[0], prims=["AdaptiveAvgPool2D"], grad=True),
    Case("adaptive_avg_pool2d_grad", lambda g: ops.AdaptiveAvgPool2DGrad()(g, (2, 3, 7, 8)),
         [rand(2, 3, 3, 5, seed=33)],
         oracle=lambda g: np_adjoint(lambda b: np_adaptive(b, (3, 5), np.mean)[0], (2, 3, 7, 8), g, 2),
         prims=["AdaptiveAvgPool2DGrad"], grad=True),
    Case("adaptive_max_pool2d", lambda x: ops.adaptive_max_pool2d(x, (3, 5), return_indices=True), [XP],
         oracle=lambda x: np_adaptive(x, (3, 5), np.max), prims=["AdaptiveMaxPool2D"], grad=True),
    Case("adaptive_max_pool2d_grad",
         lambda g, x: ops.AdaptiveMaxPool2DGrad()(g, x, ops.AdaptiveMaxPool2D((3, 5))(x)[1]),
         [rand(2, 3, 3, 5, seed=34), XP],
         oracle=lambda g, x: np_scatter(g, np_adaptive(x, (3, 5), np.max)[1], x.shape),
         prims=["AdaptiveMaxPool2DGrad"], grad=True),
    Case("adaptive_avg_pool1d", lambda x: ops.adaptive_avg_pool1d(x, 4), [X1],
         oracle=lambda x: np_adaptive(x[:, :, None], (1, 4), np.mean)[0][:, :, 0], prims=["AdaptiveAvgPool2D"],
         grad=True),
    Case("adaptive_max_pool1d", lambda x: ops.adaptive_max_pool1d(x, 4), [X1],
         oracle=lambda x: np_adaptive(x[:, :, None], (1, 4), np.max)[0][:, :, 0], prims=["AdaptiveMaxPool2D"],
         grad=True),
]

CASES += POOL_CASES
