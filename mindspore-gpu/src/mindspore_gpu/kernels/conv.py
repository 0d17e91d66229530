"""GPU kernels of the conv family: 2-D and 3-D convolutions and both their gradients, by im2col and
cuBLAS (``cupy.matmul``) — a cuDNN path is to come.

Shapes follow the primitives: x (N, C, [D,] H, W), weight (C_out, C_in / group, [kd,] kh, kw),
cross-correlation. Output sizes and padding come from the primitive's own geometry
(:meth:`geometry_for`), the same the shape rule used. For each kernel offset (row-major), the strided
view of the zero-padded input it reads is one slice (:func:`windows`); all of them are one strided view
(:func:`window_view`), whose copy is the columns (one kernel), and one batched product per group gives
the output. The gradient with respect to the input is the same construction on the gradient (spread
``stride`` apart) with the kernel flipped, the one with respect to the weight is one product per group
with the batch folded in. float16 computes in float32. The pooling kernels (:mod:`.pooling`) share
:func:`windows`.
"""
import itertools
import math

import cupy
from cupy.lib.stride_tricks import as_strided

from mindspore_gpu.kernels._common import compute_dtype, fits_out

_dev = cupy.asarray  # no copy for a CuPy array already on the current device


def span(out, k, s, d):
    """How far the windows of ``out`` outputs reach into the padded input along one axis."""
    return (out - 1) * s + (k - 1) * d + 1 if out > 0 else 0


def pad_after(sizes, before, out, kernel, stride, dilation):
    """The padding after each spatial axis that the windows actually reach (never negative)."""
    return tuple(max(0, span(o, k, s, d) - b - n)
                 for n, b, o, k, s, d in zip(sizes, before, out, kernel, stride, dilation))


def pad_spatial(x, before, after, value=0):
    """``x`` padded with ``value`` by ``before``/``after`` on its trailing ``len(before)`` axes: a fill and one
    copy, nothing from the host (a stream capturing a CUDA graph refuses host transfers)."""
    if not any(before) and not any(after):
        return x
    nd = len(before)
    sizes = x.shape[-nd:]
    xp = cupy.full(x.shape[:-nd] + tuple(b + n + a for b, n, a in zip(before, sizes, after)), value, x.dtype)
    xp[(Ellipsis,) + tuple(slice(b, b + n) for b, n in zip(before, sizes))] = x
    return xp


def windows(xp, out, kernel, stride, dilation):
    """For each kernel offset, in row-major order: ``(offset, view)`` where ``view[..., o]`` is the
    element of the padded ``xp`` that offset reads for output ``o`` (trailing axes spatial)."""
    for offset in itertools.product(*(range(k) for k in kernel)):
        index = tuple(slice(j * d, j * d + (o - 1) * s + 1, s)
                      for j, d, o, s in zip(offset, dilation, out, stride))
        yield offset, xp[(Ellipsis,) + index]


def window_view(xp, out, kernel, stride, dilation):
    """All windows of the padded ``xp`` as one strided view, shaped ``(*lead, *kernel, *out)``: element
    ``[..., j, o]`` is what kernel offset ``j`` reads for output ``o`` (the views of :func:`windows`, stacked
    without a copy)."""
    nd = len(kernel)
    steps = xp.strides[-nd:]
    return as_strided(xp, xp.shape[:-nd] + tuple(kernel) + tuple(out),
                      xp.strides[:-nd] + tuple(t * d for t, d in zip(steps, dilation))
                      + tuple(t * s for t, s in zip(steps, stride)))


def _columns(prim, x, dt, transposed=False):
    """(columns (N, group, C/group * K, L), window geometry) of input ``x``: im2col as one copy of the
    windows' strided view. ``transposed``: the columns as (group, N * L, C/group * K) instead, made by that same
    one copy (the filter's gradient multiplies them so)."""
    kernel, stride, dilation, win = prim.geometry_for(x.shape)
    xp = pad_spatial(x.astype(dt, copy=False), win.before,
                     pad_after(x.shape[2:], win.before, win.out, kernel, stride, dilation))
    n, c, g = x.shape[0], x.shape[1], prim.group
    view = window_view(xp, win.out, kernel, stride, dilation)                 # (N, C, *K, *out)
    ck, length = (c // g) * math.prod(kernel), math.prod(win.out)
    if transposed:
        nd = len(kernel)
        split = view.reshape((n, g, c // g) + view.shape[2:])                  # a view: the channel axis split
        order = (1, 0) + tuple(range(3 + nd, 3 + 2 * nd)) + (2,) + tuple(range(3, 3 + nd))
        cols = cupy.ascontiguousarray(split.transpose(order))                 # (g, N, *out, C/g, *K)
        return cols.reshape(g, n * length, ck), (kernel, stride, dilation, win)
    cols = cupy.ascontiguousarray(view)
    return cols.reshape(n, g, ck, length), (kernel, stride, dilation, win)


def _weight_matrix(w, g, dt):
    """The weight (C_out, C_in / g, *K) as (g, C_out / g, C_in / g * K)."""
    return w.astype(dt, copy=False).reshape(g, w.shape[0] // g, -1)


@fits_out
def _forward(prim, x, w, *, out=None):
    x, w = _dev(x), _dev(w)
    dt = compute_dtype(x, w)
    cols, (_, _, _, win) = _columns(prim, x, dt)
    y = cupy.matmul(_weight_matrix(w, prim.group, dt), cols)          # (N, g, C_out / g, L)
    return y.reshape((x.shape[0], w.shape[0]) + win.out)


@fits_out
def _backward_input(prim, dout, w, input_size, *, out=None):
    """dx as a correlation of the gradient with the flipped kernel (one im2col and one product per group,
    deterministic): with ``dd`` the gradient spread ``stride`` apart (zeros between) behind ``(k - 1) * d``
    zeros, ``dx[h] = sum_j W[k - 1 - j] dd[before + h + j * d]`` on each spatial axis."""
    dout, w = _dev(dout), _dev(w)
    dt = compute_dtype(dout, w)
    input_size = tuple(int(s) for s in input_size)
    kernel, stride, dilation, win = prim.geometry_for(input_size)
    n, g = input_size[0], prim.group
    spatial, outs = input_size[2:], dout.shape[2:]
    lead = tuple((k - 1) * d for k, d in zip(kernel, dilation))
    spread = tuple((o - 1) * s + 1 if o else 0 for o, s in zip(outs, stride))
    tail = tuple(max(0, b + h - m) for b, h, m in zip(win.before, spatial, spread))
    dd = cupy.zeros(dout.shape[:2] + tuple(a + m + t for a, m, t in zip(lead, spread, tail)), dt)
    dd[(slice(None), slice(None)) + tuple(slice(a, a + m, s) for a, m, s in zip(lead, spread, stride))] = dout
    view = dd[(slice(None), slice(None)) + tuple(slice(b, None) for b in win.before)]
    cols = cupy.ascontiguousarray(window_view(view, spatial, kernel, (1,) * len(kernel), dilation))
    o_g, c_g = w.shape[0] // g, w.shape[1]
    nd = len(kernel)
    flipped = w.astype(dt, copy=False).reshape((g, o_g, c_g) + tuple(kernel))[
        (slice(None),) * 3 + (slice(None, None, -1),) * nd]
    wm = cupy.ascontiguousarray(flipped.transpose((0, 2, 1) + tuple(range(3, 3 + nd)))).reshape(g, c_g, -1)
    dx = cupy.matmul(wm, cols.reshape(n, g, o_g * math.prod(kernel), math.prod(spatial)))   # (N, g, C_in / g, L)
    return dx.reshape(input_size)


@fits_out
def _backward_filter(prim, dout, x, filter_size, *, out=None):
    dout, x = _dev(dout), _dev(x)
    dt = compute_dtype(dout, x)
    cols, (_, _, _, win) = _columns(prim, x, dt, transposed=True)      # (g, N * L, C_in / g * K)
    g, n, length = prim.group, x.shape[0], math.prod(win.out)
    o_g = dout.shape[1] // g
    d = dout.astype(dt, copy=False).reshape(n, g, o_g, length).transpose(1, 2, 0, 3).reshape(g, o_g, n * length)
    return cupy.matmul(d, cols).reshape(tuple(int(s) for s in filter_size))


KERNELS = {
    "Conv2D": _forward,
    "Conv2DBackpropInput": _backward_input,
    "Conv2DTranspose": _backward_input,
    "Conv2DBackpropFilter": _backward_filter,
    "Conv3D": _forward,
    "Conv3DBackpropInput": lambda prim, w, dout, input_size, *, out: _backward_input(prim, dout, w, input_size,
                                                                                      out=out),
    "Conv3DBackpropFilter": lambda prim, x, dout, w_size, *, out: _backward_filter(prim, dout, x, w_size, out=out),
}
