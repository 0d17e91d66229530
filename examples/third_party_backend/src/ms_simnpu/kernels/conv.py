"""SimNPU kernels of the conv family: 2-D convolution by im2col, its two gradients, and max pooling.

Geometry comes from the primitive itself: ``prim.geometry_for(x_shape)`` gives ``(kernel, stride,
dilation, window)``, the same numbers core's shape rule used (``window.out`` the output size,
``window.before`` the padding in front of each spatial axis). Layout is NCHW, the weight is
(C_out, C_in / group, kh, kw), and convolution is cross-correlation, as in MindSpore.

im2col: every kernel tap ``(i, j)`` reads a strided slice of the zero-padded input, one value per
output position. Stacking the taps gives ``cols`` of shape (N, C * kh * kw, out_h * out_w), so the
convolution is one matrix product per group, and its gradients are the transposed products
(col2im adds the taps' slices back into the padded input).
"""
import numpy as np

from ms_simnpu.kernels._util import compute_dtype, device_array, new_buffer


def _taps(kernel, stride, dilation, out):
    """``(i, j, (row slice, column slice))`` of the padded input that kernel tap ``(i, j)`` reads."""
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            rows = slice(i * dilation[0], i * dilation[0] + (out[0] - 1) * stride[0] + 1, stride[0])
            cols = slice(j * dilation[1], j * dilation[1] + (out[1] - 1) * stride[1] + 1, stride[1])
            yield i, j, (Ellipsis, rows, cols)


def _padding(shape, kernel, stride, dilation, window):
    """NumPy pad widths for the input: ``window.before`` in front, and behind what the last window reads."""
    widths = [(0, 0)] * (len(shape) - 2)
    for n, o, k, s, d, b in zip(shape[-2:], window.out, kernel, stride, dilation, window.before):
        reach = (o - 1) * s + (k - 1) * d + 1
        widths.append((b, max(0, reach - n - b)))
    return widths


def _im2col(x, kernel, stride, dilation, window):
    """(N, C * kh * kw, oh * ow) columns of ``x`` (N, C, H, W), ordered (C, kh, kw) like the weight."""
    xp = np.pad(x, _padding(x.shape, kernel, stride, dilation, window))
    n, c = x.shape[:2]
    cols = np.empty((n, c, kernel[0], kernel[1]) + window.out, x.dtype)
    for i, j, where in _taps(kernel, stride, dilation, window.out):
        cols[:, :, i, j] = xp[where]
    return cols.reshape(n, c * kernel[0] * kernel[1], -1)


def _col2im(cols, x_shape, kernel, stride, dilation, window):
    """The adjoint of :func:`_im2col`: columns summed back into an input-shaped array."""
    widths = _padding(x_shape, kernel, stride, dilation, window)
    padded = tuple(s + b + a for s, (b, a) in zip(x_shape, widths))
    xp = np.zeros(padded, cols.dtype)
    n, c = x_shape[:2]
    cols = cols.reshape((n, c, kernel[0], kernel[1]) + window.out)
    for i, j, where in _taps(kernel, stride, dilation, window.out):
        xp[where] += cols[:, :, i, j]
    (top, _), (left, _) = widths[2:]
    return xp[:, :, top:top + x_shape[2], left:left + x_shape[3]]


def _grouped(a, group):
    """(N, G * R, P) -> (N, G, R, P): the rows of each convolution group."""
    return a.reshape(a.shape[0], group, a.shape[1] // group, a.shape[2])


def conv2d(prim, x, w, *, out):
    dt = compute_dtype(out)
    xa, wa = device_array(x).astype(dt, copy=False), device_array(w).astype(dt, copy=False)
    kernel, stride, dilation, window = prim.geometry_for(xa.shape)
    g = prim.group
    cols = _grouped(_im2col(xa, kernel, stride, dilation, window), g)       # (N, G, K, P)
    weights = wa.reshape(g, wa.shape[0] // g, -1)                            # (G, O/G, K)
    y = np.matmul(weights[None], cols)                                      # (N, G, O/G, P)
    return new_buffer(y.reshape(out.shape), out)


def conv2d_backprop_input(prim, dout, w, input_size, *, out):
    """dx = col2im(W^T @ dout), per group."""
    dt = compute_dtype(out)
    d, wa = device_array(dout).astype(dt, copy=False), device_array(w).astype(dt, copy=False)
    x_shape = tuple(input_size)
    kernel, stride, dilation, window = prim.geometry_for(x_shape)
    g = prim.group
    weights = wa.reshape(g, wa.shape[0] // g, -1)                            # (G, O/G, K)
    dy = _grouped(d.reshape(d.shape[0], d.shape[1], -1), g)                  # (N, G, O/G, P)
    cols = np.matmul(np.swapaxes(weights, -1, -2)[None], dy)                # (N, G, K, P)
    return new_buffer(_col2im(cols.reshape(d.shape[0], -1, cols.shape[-1]), x_shape, kernel, stride, dilation,
                              window), out)


def conv2d_backprop_filter(prim, dout, x, filter_size, *, out):
    """dW = sum over the batch of dout @ cols^T, per group."""
    dt = compute_dtype(out)
    d, xa = device_array(dout).astype(dt, copy=False), device_array(x).astype(dt, copy=False)
    kernel, stride, dilation, window = prim.geometry_for(xa.shape)
    g = prim.group
    cols = _grouped(_im2col(xa, kernel, stride, dilation, window), g)       # (N, G, K, P)
    dy = _grouped(d.reshape(d.shape[0], d.shape[1], -1), g)                  # (N, G, O/G, P)
    dw = np.matmul(dy, np.swapaxes(cols, -1, -2)).sum(axis=0)               # (G, O/G, K)
    return new_buffer(dw.reshape(tuple(filter_size)), out)


def _pool_windows(prim, x):
    """(taps, window-major stack of every tap's values (T, ..., oh, ow)) of max pooling over ``x``."""
    kernel, stride, dilation, window = prim.geometry_for(x.shape)
    xp = np.pad(x, _padding(x.shape, kernel, stride, dilation, window), constant_values=-np.inf)
    taps = list(_taps(kernel, stride, dilation, window.out))
    return taps, np.stack([xp[where] for _, _, where in taps]), (kernel, stride, dilation, window)


def max_pool(prim, x, *, out):
    _, stacked, _ = _pool_windows(prim, device_array(x).astype(compute_dtype(out), copy=False))
    return new_buffer(stacked.max(axis=0), out)


def max_pool_grad(prim, x, y, dout, *, out):
    """``dout`` added at each window's maximum (the first one on ties), recomputed from ``x``."""
    dt = compute_dtype(out)
    xa, d = device_array(x).astype(dt, copy=False), device_array(dout).astype(dt, copy=False)
    taps, stacked, (kernel, stride, dilation, window) = _pool_windows(prim, xa)
    winner = stacked.argmax(axis=0)
    widths = _padding(xa.shape, kernel, stride, dilation, window)
    dxp = np.zeros(tuple(s + b + a for s, (b, a) in zip(xa.shape, widths)), dt)
    for t, (_, _, where) in enumerate(taps):
        dxp[where] += np.where(winner == t, d, 0)
    (top, _), (left, _) = widths[-2:]
    return new_buffer(dxp[..., top:top + xa.shape[-2], left:left + xa.shape[-1]], out)


KERNELS = {
    "Conv2D": conv2d,
    "Conv2DBackpropInput": conv2d_backprop_input,
    "Conv2DBackpropFilter": conv2d_backprop_filter,
    "MaxPool": max_pool,
    "MaxPoolGrad": max_pool_grad,
}
