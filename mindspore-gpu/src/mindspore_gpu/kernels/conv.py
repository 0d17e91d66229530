"""GPU kernels of the conv family: 2-D and 3-D convolutions and both their gradients, on cuDNN where
:mod:`mindspore_gpu.cudnn` takes the case (``_CUDNN``, asked first), else by im2col and cuBLAS (``cupy.matmul``).

Shapes follow the primitives: x (N, C, [D,] H, W), weight (C_out, C_in / group, [kd,] kh, kw),
cross-correlation. Output sizes and padding come from the primitive's own geometry
(:meth:`geometry_for`), the same the shape rule used. For each kernel offset (row-major), the strided
view of the zero-padded input it reads is one slice (:func:`windows`); all of them are one strided view
(:func:`window_view`), whose copy is the columns (one kernel), and one batched product per group gives
the output. The gradient with respect to the input is the same construction on the gradient (spread
``stride`` apart) with the kernel flipped, the one with respect to the weight is one product per group
with the batch folded in. float16 computes in float32. The pooling kernels (:mod:`.pooling`) share
:func:`windows`.

With fusion on (float32/float64, :class:`._common.Fused`), the columns are gathered by one generated
``ElementwiseKernel`` (:func:`_gather`) straight from the unpadded input: each element computes where it reads
from and writes 0 where that is in the padding, so a convolution is two launches and its filter gradient three
(the columns, the gradient in the product's layout, the product), whatever the padding; the columns are the plain
path's numbers, so those results are the same bits. The input gradient is two launches: the product of the
transposed weight (a view) with the gradient gives dx's columns, and one kernel generated per kernel size
(:func:`_col2im`, offsets unrolled) sums them back into dx, offset by offset; its sums are associated otherwise
than the plain path's single product, so it agrees up to rounding. Kernels of more than ``_UNROLL`` offsets gather
the columns of the spread gradient instead (three launches, the plain path's bits).
"""
import itertools
import math

import cupy
import numpy
from cupy.lib.stride_tricks import as_strided

from mindspore_gpu import cudnn as _cudnn
from mindspore_gpu.kernels._common import Fused, compute_dtype, fits_out, dev

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)
_CUDNN = _cudnn.for_cupy(cupy)  # cuDNN first where usable (mindspore_gpu/cudnn.py); None from it: im2col below


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


# --- the columns in one kernel -----------------------------------------------------------------------
_GATHERS = {}


def _gather(nd, spread=False, transposed=False):
    """The ``ElementwiseKernel`` (a :class:`Fused`) writing the columns of an ``nd``-D convolution, one element each,
    from the raw source ``x`` (N, C, *S) with int32 geometry parameters, named as :func:`_gather_args` fills them.

    Each output element splits its flat index ``i`` into (n, c, k..., o...) (``transposed``: (g, n, o..., cc, k...)
    with c = g * cgn + cc), in the layout of the contiguous output. Windows (``spread`` off): it reads
    ``x[n, c, o * s + k * d - b]`` per axis, 0 outside the input (the padding). ``spread``: the source is the
    output gradient as if spread ``s`` apart behind a border: it reads ``x[n, c, q / s]`` with ``q = o + k * d + b``
    where ``q`` is a multiple of ``s`` inside the spread, 0 elsewhere (``b``: the padding before less the flipped
    kernel's reach). A read outside the source never happens: its index is 0 there."""
    key = (nd, spread, transposed)
    if key in _GATHERS:
        return _GATHERS[key]
    axes = range(nd)
    if transposed:
        order = [("g", "gn"), ("n", "nn")] + [(f"o{a}", f"on{a}") for a in axes] + [("cc", "cgn")] + [
            (f"k{a}", f"kn{a}") for a in axes]
    else:
        order = [("n", "nn"), ("c", "cn")] + [(f"k{a}", f"kn{a}") for a in axes] + [(f"o{a}", f"on{a}") for a in axes]
    body = ["ptrdiff_t r = i;"]
    for name, extent in reversed(order[1:]):
        body.append(f"ptrdiff_t {name} = r % {extent}; r = r / {extent};")
    body.append(f"ptrdiff_t {order[0][0]} = r;")
    if transposed:
        body.append("ptrdiff_t c = g * cgn + cc;")
    inside, src = [], "n * cn + c"
    for a in axes:
        if spread:
            body.append(f"ptrdiff_t q{a} = o{a} + k{a} * d{a} + b{a};")
            inside.append(f"q{a} >= 0 && q{a} % s{a} == 0 && q{a} / s{a} < sn{a}")
            src = f"({src}) * sn{a} + q{a} / s{a}"
        else:
            body.append(f"ptrdiff_t p{a} = o{a} * s{a} + k{a} * d{a} - b{a};")
            inside.append(f"p{a} >= 0 && p{a} < sn{a}")
            src = f"({src}) * sn{a} + p{a}"
    body.append(f"bool inside = {' && '.join(inside)};")
    body.append(f"ptrdiff_t src = inside ? {src} : 0;")
    body.append("col = inside ? x[src] : (T)0;")
    names = [extent for _, extent in order] + (["cn"] if transposed else []) + [
        f"{p}{a}" for p in ("sn", "s", "d", "b") for a in axes]
    params = "raw T x, " + ", ".join(f"int32 {p}" for p in names)
    kind = ("spread" if spread else "window") + ("_t" if transposed else "")
    fused = Fused(f"ms_conv_cols_{kind}_{nd}d", params, "T col", " ".join(body))
    fused.params = names
    _GATHERS[key] = fused
    return fused


_COL2IM = {}
_UNROLL = 64     # kernel offsets at most in a generated col2im kernel (larger kernels take the gather path)


def _col2im(kernel):
    """The ``ElementwiseKernel`` (a :class:`Fused`) summing the data gradient's columns back into dx, generated for
    one kernel size (its offsets unrolled): raw ``dc`` (N, group, C_in / group * K, L_out) (the transposed weight
    times the gradient), int32 ``cn``/``cgn``/``gn``/``ln`` (channels, per group, groups, outputs) and per axis
    ``on``/``hn``/``s``/``d``/``b`` (gradient and input extents, stride, dilation, padding before); output dx
    (N, C_in, *S). Each element adds, offset by offset in scan order, the column entry of the output its position
    feeds: ``o = (h + b - k * d) / s`` where that divides and lies inside the output."""
    key = tuple(kernel)
    if key in _COL2IM:
        return _COL2IM[key]
    nd, count = len(kernel), math.prod(kernel)
    body = ["ptrdiff_t r = i;"]
    for a in reversed(range(nd)):
        body.append(f"ptrdiff_t h{a} = r % hn{a}; r = r / hn{a};")
    body.append("ptrdiff_t c = r % cn; ptrdiff_t n = r / cn; ptrdiff_t g = c / cgn; ptrdiff_t cc = c % cgn;")
    body.append(f"ptrdiff_t base = ((n * gn + g) * cgn + cc) * {count} * ln;")
    body.append("T acc = (T)0;")
    for j, offset in enumerate(itertools.product(*(range(k) for k in kernel))):
        inside, flat = [], "0"
        for a, k in enumerate(offset):
            body.append(f"ptrdiff_t q{a}_{j} = h{a} + b{a} - {k} * d{a};")
            inside.append(f"q{a}_{j} >= 0 && q{a}_{j} % s{a} == 0 && q{a}_{j} / s{a} < on{a}")
            flat = f"({flat}) * on{a} + q{a}_{j} / s{a}"
        body.append(f"bool ok{j} = {' && '.join(inside)};")
        body.append(f"ptrdiff_t l{j} = ok{j} ? {flat} : 0;")
        body.append(f"T v{j} = dc[base + {j} * ln + l{j}];")
        body.append(f"acc = ok{j} ? acc + v{j} : acc;")
    body.append("dx = acc;")
    names = ["cn", "cgn", "gn", "ln"] + [f"{p}{a}" for p in ("on", "hn", "s", "d", "b") for a in range(nd)]
    fused = Fused(f"ms_conv_col2im_{'x'.join(str(k) for k in kernel)}",
                  "raw T dc, " + ", ".join(f"int32 {p}" for p in names), "T dx", " ".join(body))
    fused.params = names
    _COL2IM[key] = fused
    return fused


def _gather_args(kernel_, values):
    """The gather's int32 parameters in its declared order, from ``values`` (name -> int)."""
    return [numpy.int32(values[p]) for p in kernel_.params]


def _axis_values(prefix, seq):
    return {f"{prefix}{a}": v for a, v in enumerate(seq)}


def _columns(prim, x, dt, transposed=False):
    """(columns (N, group, C/group * K, L), window geometry) of input ``x``: im2col as one copy of the
    windows' strided view (fusion on: one gather kernel, no padded copy). ``transposed``: the columns as
    (group, N * L, C/group * K) instead, made by that same one copy (the filter's gradient multiplies them so)."""
    kernel, stride, dilation, win = prim.geometry_for(x.shape)
    n, c, g = x.shape[0], x.shape[1], prim.group
    ck, length = (c // g) * math.prod(kernel), math.prod(win.out)
    x = x.astype(dt, copy=False)
    nd = len(kernel)
    gather = _gather(nd, transposed=transposed)
    if x.size and gather.usable(x):
        values = dict(nn=n, cn=c, gn=g, cgn=c // g, **_axis_values("kn", kernel), **_axis_values("on", win.out),
                      **_axis_values("sn", x.shape[2:]), **_axis_values("s", stride), **_axis_values("d", dilation),
                      **_axis_values("b", win.before))
        shape = ((g, n) + tuple(win.out) + (c // g,) + tuple(kernel) if transposed
                 else (n, c) + tuple(kernel) + tuple(win.out))
        cols = cupy.empty(shape, dt)
        gather(x, *_gather_args(gather, values), cols)
        if transposed:
            return cols.reshape(g, n * length, ck), (kernel, stride, dilation, win)
        return cols.reshape(n, g, ck, length), (kernel, stride, dilation, win)
    xp = pad_spatial(x, win.before, pad_after(x.shape[2:], win.before, win.out, kernel, stride, dilation))
    view = window_view(xp, win.out, kernel, stride, dilation)                 # (N, C, *K, *out)
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
    y = _CUDNN.forward(prim, x, w, _forward)
    if y is not None:
        return y
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
    dx = _CUDNN.backward_input(prim, dout, w, input_size, _backward_input)
    if dx is not None:
        return dx
    dt = compute_dtype(dout, w)
    input_size = tuple(int(s) for s in input_size)
    kernel, stride, dilation, win = prim.geometry_for(input_size)
    n, g = input_size[0], prim.group
    spatial, outs = input_size[2:], dout.shape[2:]
    lead = tuple((k - 1) * d for k, d in zip(kernel, dilation))
    dout = dout.astype(dt, copy=False)
    o_g, c_g = w.shape[0] // g, w.shape[1]
    if dout.size and math.prod(input_size) and math.prod(kernel) <= _UNROLL:
        col2im = _col2im(kernel)
        wd = w.astype(dt, copy=False)
        if col2im.usable(dout, wd):
            # (fusion on: the columns of dx by one product with the transposed weight, a view cuBLAS takes as it
            # is, summed back into dx by one kernel: two launches)
            length = math.prod(outs)
            dc = cupy.matmul(wd.reshape(g, o_g, -1).transpose(0, 2, 1), dout.reshape(n, g, o_g, length))
            values = dict(cn=input_size[1], cgn=c_g, gn=g, ln=length, **_axis_values("on", outs),
                          **_axis_values("hn", spatial), **_axis_values("s", stride), **_axis_values("d", dilation),
                          **_axis_values("b", win.before))
            dx = cupy.empty(input_size, dt)
            col2im(dc, *_gather_args(col2im, values), dx)
            return dx
    gather = _gather(len(kernel), spread=True)
    if dout.size and gather.usable(dout):
        # (the columns of the spread, padded gradient below, read straight from dout)
        values = dict(nn=n, cn=dout.shape[1], **_axis_values("kn", kernel), **_axis_values("on", spatial),
                      **_axis_values("sn", outs), **_axis_values("s", stride), **_axis_values("d", dilation),
                      **_axis_values("b", (b - a for b, a in zip(win.before, lead))))
        cols = cupy.empty((n, dout.shape[1]) + tuple(kernel) + tuple(spatial), dt)
        gather(dout, *_gather_args(gather, values), cols)
    else:
        spread = tuple((o - 1) * s + 1 if o else 0 for o, s in zip(outs, stride))
        tail = tuple(max(0, b + h - m) for b, h, m in zip(win.before, spatial, spread))
        dd = cupy.zeros(dout.shape[:2] + tuple(a + m + t for a, m, t in zip(lead, spread, tail)), dt)
        dd[(slice(None), slice(None)) + tuple(slice(a, a + m, s) for a, m, s in zip(lead, spread, stride))] = dout
        view = dd[(slice(None), slice(None)) + tuple(slice(b, None) for b in win.before)]
        cols = cupy.ascontiguousarray(window_view(view, spatial, kernel, (1,) * len(kernel), dilation))
    nd = len(kernel)
    flipped = w.astype(dt, copy=False).reshape((g, o_g, c_g) + tuple(kernel))[
        (slice(None),) * 3 + (slice(None, None, -1),) * nd]
    wm = cupy.ascontiguousarray(flipped.transpose((0, 2, 1) + tuple(range(3, 3 + nd)))).reshape(g, c_g, -1)
    dx = cupy.matmul(wm, cols.reshape(n, g, o_g * math.prod(kernel), math.prod(spatial)))   # (N, g, C_in / g, L)
    return dx.reshape(input_size)


@fits_out
def _backward_filter(prim, dout, x, filter_size, *, out=None):
    dout, x = _dev(dout), _dev(x)
    dw = _CUDNN.backward_filter(prim, dout, x, filter_size, _backward_filter)
    if dw is not None:
        return dw
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
