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
