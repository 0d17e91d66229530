"""CPU kernels of the conv family: the convolutions (C++, ``mindspore_cpu._kernels``) and, from
:mod:`.pooling`, the pooling kernels.

The C++ functions are 3-D; 2-D convolutions are passed as 3-D ones with unit depth (a free reshape).
Inputs are made C-contiguous in float32 or float64 (float16/bfloat16 compute in float32, and the
result is cast to the inferred ``out`` dtype). Output sizes and padding come from the
primitive's own geometry (:meth:`geometry_for`), the same the shape rule used.
"""
import numpy as np

from mindspore_cpu.kernels._half import as_c
from mindspore_cpu.kernels._out import fits_out
from mindspore_cpu.kernels._native import _kernels
from mindspore_cpu.kernels import pooling

_NATIVE = (np.dtype(np.float32), np.dtype(np.float64))


def compute_dtype(*arrays):
    """float32/float64 as given; any other float (float16, bfloat16) computes in float32."""
    dt = np.result_type(*arrays)
    return dt if dt in _NATIVE else np.dtype(np.float32)


def as_5d(a, dtype):
    """``a`` (N, C, [D,] H, W) as a C-contiguous (N, C, D, H, W) array of ``dtype``."""
    a = as_c(a, dtype)
    return a.reshape(a.shape[:2] + (1,) + a.shape[2:]) if a.ndim == 4 else a


def lift(values, fill):
    """A 2-tuple of spatial parameters as the 3-tuple of a unit-depth 3-D op."""
    values = tuple(int(v) for v in values)
    return (fill,) + values if len(values) == 2 else values


_LIFTED = {}


def lifted_geometry(prim, x_shape):
    """``(stride, padding before, dilation, output size, window)`` of ``prim`` over an input of ``x_shape``, each
    as the 3-tuple the C++ kernels take, computed once per geometry and shape (a kernel runs every step)."""
    key = (prim._geometry, tuple(x_shape))
    hit = _LIFTED.get(key)
    if hit is None:
        _, stride, dilation, win = prim.geometry_for(x_shape)
        hit = (lift(stride, 1), lift(win.before, 0), lift(dilation, 1), lift(win.out, 1), win)
        if len(_LIFTED) >= 4096:
            _LIFTED.clear()
        _LIFTED[key] = hit
    return hit


# --- convolutions with few output positions, as matrix products ---------------------------------------------
# A convolution whose output map has few positions per item (a VGG/FCN "fc6" 7x7 convolution over a 7x7 or 1x1
# map, the deep layers of a ResNet on small images, a DCGAN generator's first transposed convolution) is a
# product of its (few) input windows with the whole weight: the direct kernel packs the weight on every call and
# fills its vector lanes with one or two positions. Here the windows are gathered (N * P rows of C * k values, in
# the weight's order) and multiplied by the weight with the team's matmul, which streams the weight once.
# Measured on this 2-core machine (float32, forward / data gradient / filter gradient): 512 -> 4096 channels, 7x7
# kernel over a 1x1 map, batch 2: 837 / 1112 / 1776 ms direct, 78 / 116 / 205 ms here; 512 -> 512, 3x3 over
# 2x2, batch 8: 24 / 22 / 26 ms against 4.7 / 6.7 / 5.5 ms; at 4x4 (16 positions) still 1.3-3x faster; at 7x7
# (49) about even, so the direct kernel keeps those.
FEW_POSITIONS = 16


def few_positions(group, out_size):
    """Whether a convolution with ``out_size`` output positions per item runs as a matrix product."""
    return group == 1 and int(np.prod(out_size)) <= FEW_POSITIONS


def _windows(size, stride, k, dil):
    """Per output position (in C order), the slices of its input window in the padded input."""
    return [tuple(slice(o * s, o * s + (kk - 1) * d + 1, d) for o, s, kk, d in zip(pos, stride, k, dil))
            for pos in np.ndindex(*size)]


def _reach(size, stride, k, dil):
    """How far the windows reach along each axis of the padded input."""
    return [(o - 1) * s + (kk - 1) * d + 1 for o, s, kk, d in zip(size, stride, k, dil)]


def _window_rows(x5, k, stride, before, dil, size):
    """(N * P, C * prod(k)): row n * P + p holds the window of output position p of item n (zeros past the input)."""
    pads = [(0, 0), (0, 0)] + [(b, max(0, r - b - n)) for b, r, n in zip(before, _reach(size, stride, k, dil),
                                                                          x5.shape[2:])]
    xp = np.pad(x5, pads) if any(p != (0, 0) for p in pads) else x5
    wins = _windows(size, stride, k, dil)
    rows = np.empty((x5.shape[0], len(wins), x5.shape[1]) + tuple(k), x5.dtype)
    for p, window in enumerate(wins):
        rows[:, p] = xp[(slice(None), slice(None)) + window]
    return rows.reshape(x5.shape[0] * len(wins), -1)


def _positions_as_rows(dy5):
    """(N, O, *size) -> (N * P, O)."""
    n, o = dy5.shape[:2]
    return np.ascontiguousarray(dy5.reshape(n, o, -1).transpose(0, 2, 1)).reshape(-1, o)


def _forward_few(x5, w5, stride, before, dilation, size, bias, relu, residual):
    n, o = x5.shape[0], w5.shape[0]
    rows = _window_rows(x5, w5.shape[2:], stride, before, dilation, size)
    y = _kernels.matmul(rows, w5.reshape(o, -1), False, True)
    y = np.ascontiguousarray(y.reshape(n, -1, o).transpose(0, 2, 1)).reshape((n, o) + tuple(size))
    # the epilogue in the fused kernel's order and roundings: + bias, + residual, then ReLU (NaN -> 0, as ReLU)
    if bias is not None:
        y += bias.reshape((1, o) + (1,) * len(size))
    if residual is not None:
        y += residual
    if relu:
        y = np.where(y > 0, y, y.dtype.type(0))
    return y


def _backward_input_few(dy5, w5, in_size, stride, before, dilation):
    n, o = dy5.shape[:2]
    size, k, c = dy5.shape[2:], w5.shape[2:], w5.shape[1]
    dcol = _kernels.matmul(_positions_as_rows(dy5), w5.reshape(o, -1), False, False)
    dcol = dcol.reshape((n, -1, c) + tuple(k))
    full = [max(b + i, r) for b, i, r in zip(before, in_size, _reach(size, stride, k, dilation))]
    dxp = np.zeros((n, c) + tuple(full), dy5.dtype)
    for p, window in enumerate(_windows(size, stride, k, dilation)):
        dxp[(slice(None), slice(None)) + window] += dcol[:, p]
    inside = tuple(slice(b, b + i) for b, i in zip(before, in_size))
    return np.ascontiguousarray(dxp[(slice(None), slice(None)) + inside])


def _backward_filter_few(dy5, x5, k, stride, before, dilation):
    o, c = dy5.shape[1], x5.shape[1]
    rows = _window_rows(x5, k, stride, before, dilation, dy5.shape[2:])
    return _kernels.matmul(_positions_as_rows(dy5), rows, True, False).reshape((o, c) + tuple(k))


# Winograd F(2x2, 3x3) (winograd.cpp) pays from this many input and output channels: measured on one core of a
# Zen 4 (batch 32, against the direct kernel): 64 -> 64 on 8x8 maps 1.8x faster, 32 -> 32 on 16x16 1.19x, but
# 16 -> 16 on 32x32 0.59x (the GEMM's 32-wide tiles half empty, the transforms and transpositions dominate).
WINOGRAD_MIN_CHANNELS = 32


def winograd_filter(prim, w):
    """The transformed filter of a frozen 3x3 weight ``w`` (O, C, 3, 3) for :func:`winograd_forward`, or None
    where Winograd does not apply or pay (groups, kernel size, fewer than WINOGRAD_MIN_CHANNELS channels)."""
    w = np.asarray(w)
    if w.ndim != 4 or w.shape[2:] != (3, 3) or prim.group != 1 or \
            min(w.shape[0], w.shape[1]) < WINOGRAD_MIN_CHANNELS or w.dtype not in _NATIVE:
        return None
    return _kernels.winograd_f23_filter(np.ascontiguousarray(w))


def winograd_forward(prim, x, filt, out_channels, bias=None, relu=False, residual=None):
    """``forward_with_epilogue`` by Winograd F(2x2, 3x3) with ``filt`` from :func:`winograd_filter`, or None
    where this call's geometry is not a unit-stride, undilated 2-D one in the filter's dtype, or where the batch
    has fewer items than the kernels have threads (the Winograd kernel splits the batch's items among them; the
    direct one also splits an item's positions). Its sums are rounded differently from the direct kernel's
    (about as accurately): only for frozen weights (inference)."""
    if x.ndim != 4 or compute_dtype(x) != filt.dtype or x.shape[0] < _kernels.num_threads():
        return None
    stride, before, dilation, size, win = lifted_geometry(prim, x.shape)
    if stride != (1, 1, 1) or dilation != (1, 1, 1):
        return None
    dt = filt.dtype
    y = _kernels.winograd_f23_forward(np.asarray(x, dt, order="C"), filt, before[1:], size[1:], out_channels,
                                      None if bias is None else np.asarray(bias, dt, order="C"), relu,
                                      None if residual is None else np.asarray(residual, dt, order="C"))
    return y


@fits_out
def _forward(prim, x, w, out=None):
    return forward_with_epilogue(prim, x, w)


def forward_with_epilogue(prim, x, w, bias=None, relu=False, residual=None):
    """The convolution, then optionally + bias (per output channel), + residual (an array of the output's
    shape) and ReLU, in that order, as each output is written (the CPU backend's GRAPH_MODE pass fuses
    Conv2D -> BiasAdd -> Add -> ReLU into this)."""
    dt = compute_dtype(x, w)
    stride, before, dilation, size, win = lifted_geometry(prim, x.shape)
    if few_positions(prim.group, size) and x.shape[0] > 0:
        y = _forward_few(as_5d(x, dt), as_5d(w, dt), stride, before, dilation, size,
                         None if bias is None else np.asarray(bias, dt), relu,
                         None if residual is None else as_5d(residual, dt))
        return y.reshape((x.shape[0], w.shape[0]) + win.out)
    y = _kernels.conv3d_forward(as_5d(x, dt), as_5d(w, dt), stride, before, dilation, size, prim.group,
                                None if bias is None else np.asarray(bias, dt, order="C"), relu,
                                None if residual is None else as_5d(residual, dt))
    return y.reshape((x.shape[0], w.shape[0]) + win.out)


@fits_out
def _backward_input(prim, dout, w, input_size, out=None):
    dt = compute_dtype(dout, w)
    input_size = tuple(input_size)
    if dout.size == 0 or w.size == 0:   # an empty batch (or kernel): nothing flows back (the C++ kernel divides by it)
        return np.zeros(input_size, dt)
    kernel, stride, dilation, win = prim.geometry_for(input_size)
    if few_positions(prim.group, dout.shape[2:]):
        return _backward_input_few(as_5d(dout, dt), as_5d(w, dt), lift(input_size[2:], 1), lift(stride, 1),
                                   lift(win.before, 0), lift(dilation, 1)).reshape(input_size)
    dx = _kernels.conv3d_backward_input(as_5d(dout, dt), as_5d(w, dt), lift(input_size[2:], 1), lift(stride, 1),
                                        lift(win.before, 0), lift(dilation, 1), prim.group)
    return dx.reshape(input_size)


@fits_out
def _backward_filter(prim, dout, x, filter_size, out=None):
    dt = compute_dtype(dout, x)
    filter_size = tuple(filter_size)
    if dout.size == 0 or x.size == 0:   # an empty batch: the filter gets no gradient
        return np.zeros(filter_size, dt)
    kernel, stride, dilation, win = prim.geometry_for(x.shape)
    if few_positions(prim.group, dout.shape[2:]):
        return _backward_filter_few(as_5d(dout, dt), as_5d(x, dt), lift(kernel, 1), lift(stride, 1),
                                    lift(win.before, 0), lift(dilation, 1)).reshape(filter_size)
    dw = _kernels.conv3d_backward_filter(as_5d(dout, dt), as_5d(x, dt), lift(kernel, 1), lift(stride, 1),
                                         lift(win.before, 0), lift(dilation, 1), prim.group)
    return dw.reshape(filter_size)


KERNELS = {
    "Conv2D": _forward,
    "Conv2DBackpropInput": _backward_input,
    "Conv2DTranspose": _backward_input,
    "Conv2DBackpropFilter": _backward_filter,
    "Conv3D": _forward,
    "Conv3DBackpropInput": lambda prim, w, dout, input_size, out=None: _backward_input(prim, dout, w, input_size,
                                                                                       out=out),
    "Conv3DBackpropFilter": lambda prim, x, dout, w_size, out=None: _backward_filter(prim, dout, x, w_size, out=out),
    **pooling.KERNELS,
}
