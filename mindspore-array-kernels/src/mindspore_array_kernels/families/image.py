"""The kernels of ``mindspore/ops/_defs/image.py`` (detection, colour, resizing, sampling, patches, windows), bound by
mindspore-cpu to NumPy and by mindspore-gpu to CuPy (:func:`mindspore_array_kernels.bind`): ``xp``, the array
library, and ``scatter_add(target, idx, vals)``, an unbuffered add of ``vals`` at the flat positions ``idx`` of
``target`` (NumPy's ``add.at``; on CuPy an atomic add), returning ``target``.

Every linear image op (``ROIAlign``, ``CropAndResize``, the resizes and 3-D upsamplings, the grid samplers,
``Im2Col``/``Col2Im``, ``MirrorPad``, ``ExtractImagePatches``/``ExtractVolumePatches``, ``ScaleAndTranslate``)
is one *taps* function:
for each output element, the flat input positions it reads and their weights. The forward kernel gathers and
sums; its gradient kernel scatters ``dout * weight`` back to the same positions, so an op and its adjoint come
from one definition. Taps index the input viewed as ``(N, C, S)`` (``S`` its flattened spatial part) and give
``idx``/``w`` of shape ``(M, T, K)``: output ``(M, C, T)``, each element the sum of ``K`` weighted reads of
``x[:, c].reshape(-1)`` (the batch is part of the flat index, ``n * S + s``). Separable ops (the resizes,
upsamplings and ``ScaleAndTranslate``) give per-axis taps instead, applied one axis after the other. Half
precision computes in float32; results are cast once to the inferred dtype. The sequential parts (greedy NMS,
the crop sampler of ``SampleDistortedBoundingBoxV2``, the polygon clipping of ``RotatedIou``) run on the host in
Python; random draws come from the primitive's seeded stream (``prim.generator()``). On a GPU the
taps are built on the device and the greedy NMS loops read the (small) overlap matrix on the host.
"""
import math

from mindspore.plugin import MSValueError
from mindspore_array_kernels.common import fit

BOUND = ("xp", "scatter_add")


def _host(v):
    return xp.asarray(v)


def _compute(x):
    x = xp.asarray(x)
    return x.astype(xp.float64 if x.dtype == xp.float64 else xp.float32)


def _ints(v):
    if isinstance(v, (tuple, list)):
        return tuple(int(a) for a in v)
    return tuple(int(a) for a in xp.asarray(v).reshape(-1).tolist())


# --- the taps machinery ------------------------------------------------------------------------
def _planes(x):
    """NC(spatial) ``x`` as (C, N*S): each channel's values over the batch, flattened."""
    n, c = x.shape[:2]
    s = int(math.prod(x.shape[2:]))
    return x.reshape(n, c, s).transpose(1, 0, 2).reshape(c, n * s)


def _gather(xf, idx, w):
    """``xf`` (C, N*S); ``idx``/``w`` (M, T, K) -> (M, C, T)."""
    got = xf[:, idx.reshape(-1)].reshape((xf.shape[0],) + idx.shape)
    return xp.moveaxis((got * w[None]).sum(-1), 0, 1)


def _adjoint(dout, idx, w, nc, total):
    """``dout`` (M, C, T) scattered back through the taps: (C, N*S)."""
    vals = xp.moveaxis(dout, 1, 0)[..., None] * w[None]
    vals = vals.reshape(nc, int(math.prod(vals.shape[1:])))
    acc = scatter_add(xp.zeros((total, nc), vals.dtype), idx.reshape(-1), vals.T)
    return acc.T


class _AxisTaps(tuple):
    """The taps of a separable op: per spatial axis, ``(idx (O_a, K_a), w (O_a, K_a))``, applied axis by axis
    (no product of the axes' taps is ever formed)."""


def _along_axes(xc, axes):
    for d, (idx, w) in enumerate(axes):
        moved = xp.moveaxis(xc, 2 + d, -1)
        xc = xp.moveaxis((moved[..., idx] * w.astype(xc.dtype)).sum(-1), -1, 2 + d)
    return xc


def _along_axes_adjoint(d, axes, x_shape):
    for a in range(len(axes) - 1, -1, -1):
        idx, w = axes[a]
        n_in = x_shape[2 + a]
        moved = xp.moveaxis(d, 2 + a, -1)                               # (..., O)
        lead = moved.shape[:-1]
        rows = int(math.prod(lead))
        vals = (moved[..., None] * w.astype(d.dtype)).reshape(rows, idx.size)
        acc = scatter_add(xp.zeros((n_in, rows), d.dtype), idx.reshape(-1), vals.T)
        d = xp.moveaxis(acc.T.reshape(lead + (n_in,)), -1, 2 + a)
    return d


def _batched(idx, w, n, s):
    """The same (T, K) taps for each of ``n`` batches: (n, T, K) with the batch offset in the index."""
    return idx[None] + (xp.arange(n) * s)[:, None, None], xp.broadcast_to(w[None], (n,) + w.shape)


def _apply(x, taps, out_spatial, extra=None):
    """Run taps over NC(spatial) ``x``: ``taps`` gives (idx, w) of shape (N, T, K) or (M, T, K)."""
    xc = _compute(x)
    if isinstance(taps, _AxisTaps):
        return _along_axes(xc, taps)
    n, c = xc.shape[:2]
    idx, w = taps
    res = _gather(_planes(xc), idx, w.astype(xc.dtype))
    if extra is not None:
        res = res + extra[:, None, :].astype(xc.dtype)
    return res.reshape((idx.shape[0], c) + tuple(out_spatial))


def _apply_adjoint(dout, taps, x_shape):
    d = _compute(dout)
    if isinstance(taps, _AxisTaps):
        return _along_axes_adjoint(d, taps, tuple(x_shape))
    m, c = d.shape[:2]
    idx, w = taps
    n = x_shape[0]
    s = int(math.prod(x_shape[2:]))
    acc = _adjoint(d.reshape(m, c, idx.shape[1]), idx, w.astype(d.dtype), c, n * s)
    return acc.reshape(c, n, s).transpose(1, 0, 2).reshape(x_shape)


# --- resizing taps (TensorFlow's and PyTorch's coordinate conventions) ----------------------------
def _tf_scale(n_in, n_out, align_corners):
    if align_corners and n_out > 1:
        return (n_in - 1) / (n_out - 1)
    return n_in / n_out


def _cubic_axis(n_in, n_out, align_corners, half_pixel):
    scale = _tf_scale(n_in, n_out, align_corners)
    i = xp.arange(n_out, dtype=xp.float64)
    x = (i + 0.5) * scale - 0.5 if half_pixel else i * scale
    x0 = xp.floor(x)
    t = (xp.rint((x - x0) * 1024.0) / 1024.0)[:, None]    # TensorFlow's 1024-entry coefficient table
    a = -0.5 if half_pixel else -0.75
    d = xp.concatenate([t + 1.0, t, 1.0 - t, 2.0 - t], 1)
    near = ((a + 2.0) * d - (a + 3.0)) * d * d + 1.0
    far = ((a * d - 5.0 * a) * d + 8.0 * a) * d - 4.0 * a
    w = xp.where(xp.array([False, True, True, False])[None], near, far)
    idx = x0.astype(xp.int64)[:, None] + xp.arange(-1, 3)[None]
    if half_pixel:
        inside = (idx >= 0) & (idx < n_in)
        w = xp.where(inside, w, 0.0)
        w = w / w.sum(1, keepdims=True)
    return xp.clip(idx, 0, n_in - 1), w


def _nearest_tf_axis(n_in, n_out, align_corners, half_pixel):
    scale = _tf_scale(n_in, n_out, align_corners)
    i = xp.arange(n_out, dtype=xp.float64)
    x = (i + 0.5) * scale if half_pixel else i * scale
    idx = xp.floor(x + 0.5) if align_corners else xp.floor(x)
    return xp.clip(idx.astype(xp.int64), 0, n_in - 1)[:, None], xp.ones((n_out, 1))


def _linear_axis(x, n_in):
    x0 = xp.floor(x)
    t = x - x0
    i0 = xp.clip(x0.astype(xp.int64), 0, n_in - 1)
    i1 = xp.clip(x0.astype(xp.int64) + 1, 0, n_in - 1)
    return xp.stack([i0, i1], 1), xp.stack([1.0 - t, t], 1)


def _torch_src(n_in, n_out, align_corners, scale=None):
    i = xp.arange(n_out, dtype=xp.float64)
    if align_corners:
        return i * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
    ratio = 1.0 / scale if scale else n_in / n_out
    return xp.maximum((i + 0.5) * ratio - 0.5, 0.0)


def _nearest_torch_axis(n_in, n_out, scale=None):
    ratio = 1.0 / scale if scale else n_in / n_out
    idx = xp.floor(xp.arange(n_out, dtype=xp.float64) * ratio).astype(xp.int64)
    return xp.minimum(idx, n_in - 1)[:, None], xp.ones((n_out, 1))


def _area_axis(n_in, n_out, align_corners):
    scale = _tf_scale(n_in, n_out, align_corners)
    k = int(math.ceil(scale)) + 2
    i = xp.arange(n_out, dtype=xp.float64)[:, None]
    lo, hi = i * scale, (i + 1) * scale
    j = xp.floor(lo) + xp.arange(k)[None]
    w = xp.clip(xp.minimum(j + 1.0, hi) - xp.maximum(j, lo), 0.0, None)
    return xp.clip(j.astype(xp.int64), 0, n_in - 1), w / scale


def _resize_taps(prim, x_shape, size):
    name = prim.name
    sp = tuple(x_shape[2:])
    if name in ("ResizeBicubic", "ResizeBicubicGrad"):
        axes = [_cubic_axis(i, o, prim.align_corners, prim.half_pixel_centers) for i, o in zip(sp, size)]
    elif name in ("ResizeNearestNeighborV2", "ResizeNearestNeighborV2Grad"):
        axes = [_nearest_tf_axis(i, o, prim.align_corners, prim.half_pixel_centers) for i, o in zip(sp, size)]
    elif name in ("ResizeLinear1D", "ResizeLinear1DGrad"):
        n_in, n_out = sp[0], size[0]
        if prim.coordinate_transformation_mode == "align_corners":
            x = _torch_src(n_in, n_out, True)
        elif prim.coordinate_transformation_mode == "half_pixel":
            x = _torch_src(n_in, n_out, False)
        else:   # asymmetric
            x = xp.arange(n_out, dtype=xp.float64) * (n_in / n_out)
        axes = [_linear_axis(x, n_in)]
    elif name in ("ResizeArea",):
        axes = [_area_axis(i, o, prim.align_corners) for i, o in zip(sp, size)]
    elif name in ("UpsampleNearest3D", "UpsampleNearest3DGrad"):
        scales = size[1] or (None,) * 3
        axes = [_nearest_torch_axis(i, o, s) for i, o, s in zip(sp, size[0], scales)]
    else:   # UpsampleTrilinear3D(Grad)
        scales = size[1] or (None,) * 3
        axes = [_linear_axis(_torch_src(i, o, prim.align_corners, s), i) for i, o, s in zip(sp, size[0], scales)]
    return _AxisTaps(axes)


def _upsample_size(x_shape, output_size, scales):
    if output_size is not None:
        return _ints(output_size), None
    scales = tuple(float(s) for s in scales)
    return tuple(int(math.floor(d * s)) for d, s in zip(x_shape[2:], scales)), scales


def _resize(prim, x, size, out=None):
    x = xp.asarray(x)
    size = _ints(size)
    return fit(_apply(x, _resize_taps(prim, x.shape, size), size), out)


def _resize_grad(prim, dout, x_shape, size, out=None):
    return fit(_apply_adjoint(dout, _resize_taps(prim, tuple(x_shape), _ints(size)), tuple(x_shape)), out)


def _resize_area(prim, x, size, out=None):
    x = xp.asarray(x)   # NHWC
    size = _ints(size)
    nchw = xp.moveaxis(x, -1, 1)
    res = _apply(nchw, _resize_taps(prim, nchw.shape, size), size)
    return fit(xp.ascontiguousarray(xp.moveaxis(res, 1, -1)), out)


def _upsample(prim, x, output_size, scales, out=None):
    x = xp.asarray(x)
    size, sc = _upsample_size(x.shape, output_size, scales)
    return fit(_apply(x, _resize_taps(prim, x.shape, (size, sc)), size), out)


def _upsample_grad(prim, dout, x_shape, output_size, scales, out=None):
    x_shape = tuple(x_shape)
    size, sc = _upsample_size(x_shape, output_size, scales)
    return fit(_apply_adjoint(dout, _resize_taps(prim, x_shape, (size, sc)), x_shape), out)


# --- ROIAlign -----------------------------------------------------------------------------------
def _roi_taps(prim, x_shape, rois):
    _, _, height, width = x_shape
    rois = _host(rois).astype(xp.float64)
    ph, pw = prim.pooled_height, prim.pooled_width
    scale, end = prim.spatial_scale, prim.roi_end_mode
    batch = rois[:, 0].astype(xp.int64)
    x1, y1 = rois[:, 1] * scale, rois[:, 2] * scale
    x2, y2 = (rois[:, 3] + end) * scale, (rois[:, 4] + end) * scale
    rw, rh = x2 - x1, y2 - y1
    if end == 0:    # as 2.10 (CPU and GPU): only roi_end_mode 0 stretches a box under a pixel to 1 x 1
        rw, rh = xp.maximum(rw, 1.0), xp.maximum(rh, 1.0)
    if prim.sample_num > 0:
        gh = xp.full(rois.shape[0], prim.sample_num)
        gw = gh
    else:
        gh = xp.floor(rh / ph).astype(xp.int64)     # MindSpore truncates (a bin may get no sample: 0)
        gw = xp.floor(rw / pw).astype(xp.int64)
    kh = max(int(gh.max()), 1) if gh.size else 1
    kw = max(int(gw.max()), 1) if gw.size else 1
    r = rois.shape[0]
    iy = xp.arange(kh)[None, :]
    ix = xp.arange(kw)[None, :]
    # sample coordinates: (R, ph, kh) and (R, pw, kw)
    ys = (y1[:, None, None] + xp.arange(ph)[None, :, None] * (rh / ph)[:, None, None]
          + (iy[:, None] + 0.5) * (rh / ph / xp.maximum(gh, 1))[:, None, None])
    xs = (x1[:, None, None] + xp.arange(pw)[None, :, None] * (rw / pw)[:, None, None]
          + (ix[:, None] + 0.5) * (rw / pw / xp.maximum(gw, 1))[:, None, None])
    vy = iy[:, None] < gh[:, None, None]
    vx = ix[:, None] < gw[:, None, None]

    def axis(c, size, valid):
        inside = valid & (c >= -1.0) & (c <= size)
        c = xp.maximum(c, 0.0)
        lo = xp.floor(c).astype(xp.int64)
        top = lo >= size - 1
        lo = xp.where(top, size - 1, lo)
        hi = xp.where(top, size - 1, lo + 1)
        c = xp.where(top, lo.astype(xp.float64), c)
        t = c - lo
        return lo, hi, xp.where(inside, 1.0 - t, 0.0), xp.where(inside, t, 0.0)

    ylo, yhi, wy0, wy1 = axis(ys, height, vy)
    xlo, xhi, wx0, wx1 = axis(xs, width, vx)
    count = xp.maximum(gh * gw, 1).astype(xp.float64)[:, None, None, None, None]

    def pair(a, b):   # (R, ph, kh) x (R, pw, kw) -> (R, ph, pw, kh, kw)
        return a[:, :, None, :, None], b[:, None, :, None, :]

    parts_i, parts_w = [], []
    for yi, wy in ((ylo, wy0), (yhi, wy1)):
        for xi, wx in ((xlo, wx0), (xhi, wx1)):
            a, b = pair(yi, xi)
            parts_i.append(a * width + b + (batch * height * width)[:, None, None, None, None])
            a, b = pair(wy, wx)
            parts_w.append(a * b / count)
    k = kh * kw * 4
    idx = xp.stack([xp.broadcast_to(p, (r, ph, pw, kh, kw)) for p in parts_i], -1).reshape(r, ph * pw, k)
    w = xp.stack([xp.broadcast_to(p, (r, ph, pw, kh, kw)) for p in parts_w], -1).reshape(r, ph * pw, k)
    return idx, w


def _roi_align(prim, features, rois, out=None):
    features = xp.asarray(features)
    return fit(_apply(features, _roi_taps(prim, features.shape, rois), (prim.pooled_height, prim.pooled_width)),
               out)


def _roi_align_grad(prim, dout, rois, x_shape, out=None):
    x_shape = tuple(x_shape)
    return fit(_apply_adjoint(dout, _roi_taps(prim, x_shape, rois), x_shape), out)


# --- CropAndResize ------------------------------------------------------------------------------
def _crop_taps(prim, x_shape, boxes, box_index, crop_size):
    _, _, height, width = x_shape          # the image moved to NCHW
    boxes = _host(boxes)
    ct = boxes.dtype if boxes.dtype == xp.float64 else xp.dtype(xp.float32)   # TensorFlow computes in float
    boxes = boxes.astype(ct)
    bi = _host(box_index).astype(xp.int64)
    ch, cw = crop_size

    def coords(lo, hi, size, n):
        if n > 1:
            scale = (hi - lo) * ct.type(size - 1) / ct.type(n - 1)
            return lo[:, None] * ct.type(size - 1) + xp.arange(n, dtype=ct)[None] * scale[:, None]
        return (ct.type(0.5) * (lo + hi) * ct.type(size - 1))[:, None]

    ys = coords(boxes[:, 0], boxes[:, 2], height, ch).astype(xp.float64)
    xs = coords(boxes[:, 1], boxes[:, 3], width, cw).astype(xp.float64)
    inside = (((ys >= 0) & (ys <= height - 1))[:, :, None] & ((xs >= 0) & (xs <= width - 1))[:, None, :])
    base = (bi * height * width)[:, None, None, None]
    if prim.method == "nearest":
        yi = xp.clip(xp.floor(xp.abs(ys) + 0.5) * xp.sign(ys), 0, height - 1).astype(xp.int64)
        xi = xp.clip(xp.floor(xp.abs(xs) + 0.5) * xp.sign(xs), 0, width - 1).astype(xp.int64)
        idx = (yi[:, :, None] * width + xi[:, None, :])[..., None] + base
        w = xp.ones(idx.shape)
    else:
        y0, x0 = xp.floor(ys), xp.floor(xs)
        ty, tx = (ys - y0)[:, :, None], (xs - x0)[:, None, :]
        y0i, x0i = xp.clip(y0, 0, height - 1).astype(xp.int64), xp.clip(x0, 0, width - 1).astype(xp.int64)
        y1i = xp.clip(xp.ceil(ys), 0, height - 1).astype(xp.int64)
        x1i = xp.clip(xp.ceil(xs), 0, width - 1).astype(xp.int64)
        idx = xp.stack([y0i[:, :, None] * width + x0i[:, None, :], y0i[:, :, None] * width + x1i[:, None, :],
                        y1i[:, :, None] * width + x0i[:, None, :], y1i[:, :, None] * width + x1i[:, None, :]], -1)
        idx = idx + base
        w = xp.stack([(1 - ty) * (1 - tx), (1 - ty) * tx, ty * (1 - tx), ty * tx], -1)
    w = w * inside[..., None]
    n = boxes.shape[0]
    extra = (~inside).reshape(n, ch * cw).astype(xp.float64) * float(prim.extrapolation_value)
    k = idx.shape[-1]
    return (idx.reshape(n, ch * cw, k), w.reshape(n, ch * cw, k)), extra


def _crop_and_resize(prim, image, boxes, box_index, crop_size, out=None):
    image = xp.asarray(image)
    crop_size = _ints(crop_size)
    nchw = xp.moveaxis(image, -1, 1)
    taps, extra = _crop_taps(prim, nchw.shape, boxes, box_index, crop_size)
    res = _apply(nchw, taps, crop_size, extra)
    return fit(xp.ascontiguousarray(xp.moveaxis(res, 1, -1)), out)


def _crop_and_resize_grad_image(prim, grads, boxes, box_index, image_size, out=None):
    n, h, w, c = _ints(image_size)
    grads = xp.asarray(grads)
    taps, _ = _crop_taps(prim, (n, c, h, w), boxes, box_index, grads.shape[1:3])
    res = _apply_adjoint(xp.moveaxis(grads, -1, 1), taps, (n, c, h, w))
    return fit(xp.ascontiguousarray(xp.moveaxis(res, 1, -1)), out)


def _crop_and_resize_grad_boxes(prim, grads, image, boxes, box_index, out=None):
    image = _compute(image)                      # (B, H, W, C)
    g = _compute(grads)                          # (N, ch, cw, C)
    _, height, width, _ = image.shape
    n, ch, cw, _ = g.shape
    bx = _host(boxes)
    ct = bx.dtype if bx.dtype == xp.float64 else xp.dtype(xp.float32)
    bx = bx.astype(ct)
    res = xp.zeros((n, 4), g.dtype)
    if prim.method == "nearest" or n == 0:
        return fit(res, out)
    bi = _host(box_index).astype(xp.int64)

    def coords(lo, hi, size, k):
        if k > 1:
            scale = (hi - lo) * ct.type(size - 1) / ct.type(k - 1)
            c = lo[:, None] * ct.type(size - 1) + xp.arange(k, dtype=ct)[None] * scale[:, None]
            t = xp.arange(k, dtype=xp.float64)[None] / (k - 1)
            return c.astype(xp.float64), (size - 1) * (1.0 - t), (size - 1) * t   # d c / d lo, d c / d hi
        c = (ct.type(0.5) * (lo + hi) * ct.type(size - 1))[:, None]
        half = xp.full((1, 1), 0.5 * (size - 1))
        return c.astype(xp.float64), half, half

    ys, dy_lo, dy_hi = coords(bx[:, 0], bx[:, 2], height, ch)
    xs, dx_lo, dx_hi = coords(bx[:, 1], bx[:, 3], width, cw)
    inside = (((ys >= 0) & (ys <= height - 1))[:, :, None] & ((xs >= 0) & (xs <= width - 1))[:, None, :])
    y0 = xp.clip(xp.floor(ys), 0, height - 1).astype(xp.int64)
    y1 = xp.clip(xp.ceil(ys), 0, height - 1).astype(xp.int64)
    x0 = xp.clip(xp.floor(xs), 0, width - 1).astype(xp.int64)
    x1 = xp.clip(xp.ceil(xs), 0, width - 1).astype(xp.int64)
    ty = (ys - xp.floor(ys))[:, :, None, None]
    tx = (xs - xp.floor(xs))[:, None, :, None]
    b = bi[:, None, None]

    def px(yi, xi):
        return image[b, yi[:, :, None], xi[:, None, :]]           # (N, ch, cw, C)
    tl, tr, bl, br = px(y0, x0), px(y0, x1), px(y1, x0), px(y1, x1)
    top, bottom = tl + (tr - tl) * tx, bl + (br - bl) * tx
    slope_y = ((bottom - top) * g).sum(-1) * inside                # d out / d y, summed over channels
    slope_x = (((tr - tl) * (1 - ty) + (br - bl) * ty) * g).sum(-1) * inside
    sy, sx = slope_y.sum(2), slope_x.sum(1)                        # (N, ch), (N, cw)
    res = xp.stack([(sy * dy_lo).sum(1), (sx * dx_lo).sum(1), (sy * dy_hi).sum(1), (sx * dx_hi).sum(1)], 1)
    return fit(res, out)


# --- grid samplers (PyTorch's conventions) ------------------------------------------------------
def _reflect(c, lo, hi):
    span = hi - lo
    if span <= 0:
        return xp.zeros_like(c), xp.zeros_like(c)
    d = xp.abs(c - lo)
    flips = xp.floor(d / span)
    extra = d - flips * span
    even = (flips % 2) == 0
    out = xp.where(even, lo + extra, hi - extra)
    sign = xp.where(c >= lo, 1.0, -1.0) * xp.where(even, 1.0, -1.0)
    return out, sign


def _grid_coords(prim, g, size):
    """Unnormalised source coordinates of one grid component and d(coordinate)/d(grid)."""
    if prim.align_corners:
        c, dc = (g + 1.0) * 0.5 * (size - 1), xp.full(g.shape, 0.5 * (size - 1))
    else:
        c, dc = ((g + 1.0) * size - 1.0) * 0.5, xp.full(g.shape, 0.5 * size)
    if prim.padding_mode == "border":
        inside = (c > 0) & (c < size - 1)
        return xp.clip(c, 0, size - 1), xp.where(inside, dc, 0.0)
    if prim.padding_mode == "reflection":
        if prim.align_corners:
            c, s = _reflect(c, 0.0, float(size - 1))
        else:
            c, s = _reflect(c, -0.5, size - 0.5)
        inside = (c > 0) & (c < size - 1)
        return xp.clip(c, 0, size - 1), xp.where(inside, dc * s, 0.0)
    return c, dc


def _grid_taps(prim, x_shape, grid):
    """Taps (M=N, T, K) of the grid sampler and the weights' derivatives (N, T, K, D) w.r.t. the grid."""
    n = x_shape[0]
    sp = tuple(x_shape[2:])
    dims = len(sp)
    grid = _host(grid).astype(xp.float64)
    t = int(math.prod(grid.shape[1:-1]))
    grid = grid.reshape(n, t, dims)   # last axis: x, y(, z)
    strides = [int(math.prod(sp[i + 1:])) for i in range(dims)]
    coords = []
    for d in range(dims):      # spatial axis d (D, H, W order) reads grid component dims - 1 - d
        coords.append(_grid_coords(prim, grid[..., dims - 1 - d], sp[d]))
    base = (xp.arange(n) * int(math.prod(sp)))[:, None, None]
    if prim.interpolation_mode == "nearest":
        flat = xp.zeros((n, t), xp.int64)
        ok = xp.ones((n, t), bool)
        for d, (c, _) in enumerate(coords):
            r = xp.round(c)
            ok &= (r >= 0) & (r <= sp[d] - 1)
            flat = flat + xp.clip(r, 0, sp[d] - 1).astype(xp.int64) * strides[d]
        w = ok.astype(xp.float64)[..., None]
        return flat[..., None] + base, w, xp.zeros(w.shape + (dims,))
    lows = [xp.floor(c) for c, _ in coords]
    idx_parts, w_parts, dw_parts = [], [], []
    for corner in range(2 ** dims):
        flat = xp.zeros((n, t), xp.int64)
        ok = xp.ones((n, t), bool)
        ws = []
        for d in range(dims):
            hi = (corner >> (dims - 1 - d)) & 1
            pos = lows[d] + hi
            frac = coords[d][0] - lows[d]
            ws.append(frac if hi else 1.0 - frac)
            ok &= (pos >= 0) & (pos <= sp[d] - 1)
            flat = flat + xp.clip(pos, 0, sp[d] - 1).astype(xp.int64) * strides[d]
        weight = xp.ones((n, t))
        for v in ws:
            weight = weight * v
        derivs = []
        for d in range(dims):
            hi = (corner >> (dims - 1 - d)) & 1
            part = xp.full((n, t), 1.0 if hi else -1.0) * coords[d][1]
            for e in range(dims):
                if e != d:
                    part = part * ws[e]
            derivs.append(part)
        okf = ok.astype(xp.float64)
        idx_parts.append(flat)
        w_parts.append(weight * okf)
        # derivative w.r.t. grid components (x, y, z) order: spatial axis d is component dims - 1 - d
        dw_parts.append(xp.stack([derivs[dims - 1 - comp] * okf for comp in range(dims)], -1))
    return xp.stack(idx_parts, -1) + base, xp.stack(w_parts, -1), xp.stack(dw_parts, -2)


def _grid_sampler(prim, x, grid, out=None):
    x = xp.asarray(x)
    idx, w, _ = _grid_taps(prim, x.shape, grid)
    return fit(_apply(x, (idx, w), tuple(xp.asarray(grid).shape[1:-1])), out)


def _grid_sampler_grad(prim, dout, x, grid, out=None):
    x = xp.asarray(x)
    grid = xp.asarray(grid)
    idx, w, dw = _grid_taps(prim, x.shape, grid)
    dx = _apply_adjoint(dout, (idx, w), x.shape)
    xc = _compute(x)
    n, c = x.shape[:2]
    xf = _planes(xc)
    got = xf[:, idx.reshape(-1)].reshape((c,) + idx.shape)          # (C, N, T, K)
    d = _compute(dout).reshape(n, c, idx.shape[1])                  # (N, C, T)
    sens = (got * xp.moveaxis(d, 1, 0)[..., None]).sum(0)           # (N, T, K)
    dgrid = (sens[..., None] * dw.astype(sens.dtype)).sum(-2).reshape(grid.shape)
    return fit((dx, dgrid), out)


# --- patches: Im2Col / Col2Im / ExtractImagePatches / ExtractVolumePatches / MirrorPad ------------
def _window_positions(size, k, stride, dil, pad_lo, n_out):
    """Input positions (n_out, k) of each window tap along one axis, and whether they are inside."""
    pos = (xp.arange(n_out) * stride)[:, None] - pad_lo + (xp.arange(k) * dil)[None]
    return xp.clip(pos, 0, size - 1), (pos >= 0) & (pos < size)


def _window_axis(size, k, stride, dil, same):
    """:func:`_window_positions` of a 'SAME' (padded evenly, the extra after) or 'VALID' window along one axis, and
    the number of windows."""
    eff = (k - 1) * dil + 1
    if same:
        n_out = -(-size // stride)
        pad = max((n_out - 1) * stride + eff - size, 0) // 2
    else:
        n_out = (size - eff) // stride + 1
        pad = 0
    return _window_positions(size, k, stride, dil, pad, n_out), n_out


def _im2col_taps(x_shape, ks, strides, dils, pads):
    n, _, h, w = x_shape
    oh = (h + pads[0] + pads[1] - dils[0] * (ks[0] - 1) - 1) // strides[0] + 1
    ow = (w + pads[2] + pads[3] - dils[1] * (ks[1] - 1) - 1) // strides[1] + 1
    ph, okh = _window_positions(h, ks[0], strides[0], dils[0], pads[0], oh)    # (oh, kh)
    pw, okw = _window_positions(w, ks[1], strides[1], dils[1], pads[2], ow)    # (ow, kw)
    # output element (kh, kw, oh, ow)
    idx = ph.T[:, None, :, None] * w + pw.T[None, :, None, :]
    ok = okh.T[:, None, :, None] & okw.T[None, :, None, :]
    idx, ok = idx.reshape(-1, 1), ok.reshape(-1, 1).astype(xp.float64)
    return _batched(idx, ok, n, h * w), (oh, ow)


def _pads4(pads):
    pads = tuple(pads)
    if len(pads) == 1:
        return pads * 4
    if len(pads) == 2:
        return (pads[0], pads[0], pads[1], pads[1])
    return pads


def _im2col(prim, x, out=None):
    x = xp.asarray(x)
    ks, st, dl = prim.ksizes, prim.strides, prim.dilations
    taps, (oh, ow) = _im2col_taps(x.shape, ks, st, dl, _pads4(prim.pads))
    return fit(_apply(x, taps, (ks[0] * ks[1], oh * ow)), out)


def _col2im(prim, x, output_size, out=None):
    x = xp.asarray(x)
    h, w = _ints(output_size)
    n, c = x.shape[:2]
    taps, _ = _im2col_taps((n, c, h, w), prim.kernel_size, prim.stride, prim.dilation, _pads4(prim.padding))
    return fit(_apply_adjoint(x, taps, (n, c, h, w)), out)


def _patch_taps(x_shape, ks, strides, rates, same):
    """ExtractImagePatches/ExtractVolumePatches on N C spatial...: output (N, C*prod(k), out...) with the depth
    ordered (kernel position, channel) as TensorFlow's (channel fastest)."""
    n, c = x_shape[:2]
    sp = tuple(x_shape[2:])
    axes, outs = [], []
    for size, k, s, r in zip(sp, ks, strides, rates):
        positions, o = _window_axis(size, k, s, r, same)
        axes.append(positions)
        outs.append(o)
    dims = len(sp)
    strides_flat = [int(math.prod(sp[i + 1:])) for i in range(dims)]
    s_total = int(math.prod(sp))
    # index over (k_1..k_d, C, o_1..o_d) of the per-sample flattened (C, S) input
    shape = tuple(ks) + (c,) + tuple(outs)
    idx = xp.zeros(shape, xp.int64)
    ok = xp.ones(shape, bool)
    for d, (pos, inside) in enumerate(axes):
        view = [1] * len(shape)
        view[d] = ks[d]
        view[dims + 1 + d] = outs[d]
        idx = idx + pos.T.reshape(view) * strides_flat[d]
        ok = ok & inside.T.reshape(view)
    cview = [1] * len(shape)
    cview[dims] = c
    idx = idx + (xp.arange(c) * s_total).reshape(cview)
    idx = idx.reshape(-1, 1)
    w = ok.reshape(-1, 1).astype(xp.float64)
    return _batched(idx, w, n, c * s_total), (int(math.prod(ks)) * c,) + tuple(outs)


def _extract_patches(prim, x, out=None):
    x = xp.asarray(x)
    nd = x.ndim - 2
    if prim.name == "ExtractImagePatches":
        ks, st, rt = prim.ksizes[-nd:], prim.strides[-nd:], prim.rates[-nd:]
    else:
        ks, st, rt = prim.kernel_size[-nd:], prim.strides[-nd:], (1,) * nd
    taps, shape = _patch_taps(x.shape, ks, st, rt, prim.padding.upper() == "SAME")
    flat = x.reshape((x.shape[0], 1, int(math.prod(x.shape[1:]))))
    return fit(_apply(flat, taps, shape)[:, 0], out)


def _extract_patches_grad(prim, dout, x_shape, out=None):
    x_shape = tuple(x_shape)
    nd = len(x_shape) - 2
    taps, _ = _patch_taps(x_shape, prim.ksizes[-nd:], prim.strides[-nd:], prim.rates[-nd:], prim.padding == "SAME")
    d = xp.asarray(dout)
    per_sample = (x_shape[0], 1, int(math.prod(x_shape[1:])))
    flat = _apply_adjoint(d.reshape(d.shape[0], 1, int(math.prod(d.shape[1:]))), taps, per_sample)
    return fit(flat.reshape(x_shape), out)


def _mirror_taps(shape, paddings, mode):
    shift = 1 if mode == "REFLECT" else 0
    idx = xp.zeros((1,), xp.int64)
    stride = 1
    for d in range(len(shape) - 1, -1, -1):
        before, after = int(paddings[d][0]), int(paddings[d][1])
        n = shape[d]
        pos = xp.arange(-before, n + after)
        pos = xp.where(pos < 0, -pos - 1 + shift, pos)
        pos = xp.where(pos >= n, 2 * n - 1 - pos - shift, pos)
        idx = (pos[:, None] * stride + idx[None, :]).reshape(-1)
        stride *= n
    return idx.reshape(1, -1, 1), xp.ones((1, idx.shape[0], 1))


def _mirror_pad(prim, x, paddings, out=None):
    x = xp.asarray(x)
    pads = _host(paddings).reshape(-1, 2).tolist()
    out_shape = tuple(s + int(a) + int(b) for s, (a, b) in zip(x.shape, pads))
    res = _apply(x.reshape(1, 1, -1), _mirror_taps(x.shape, pads, prim.mode), (int(math.prod(out_shape)),))
    return fit(res.reshape(out_shape), out)


def _mirror_pad_grad(prim, dout, paddings, out=None):
    dout = xp.asarray(dout)
    pads = _host(paddings).reshape(-1, 2).tolist()
    shape = tuple(s - int(a) - int(b) for s, (a, b) in zip(dout.shape, pads))
    res = _apply_adjoint(dout.reshape(1, 1, -1), _mirror_taps(shape, pads, prim.mode), (1, 1, int(math.prod(shape))))
    return fit(res.reshape(shape), out)


# --- Dilation2D ---------------------------------------------------------------------------------
def _dilation_geometry(prim, x_shape, f_shape):
    _, _, h, w = x_shape
    _, kh, kw = f_shape
    sh, sw = prim.stride[-2:]
    rh, rw = prim.dilation[-2:]
    same = prim.pad_mode.upper() == "SAME"
    return [_window_axis(size, k, s, r, same)[0] for size, k, s, r in ((h, kh, sh, rh), (w, kw, sw, rw))]


def _dilation_values(prim, x, f):
    (py, oky), (px, okx) = _dilation_geometry(prim, x.shape, f.shape)
    xc, fc = _compute(x), _compute(f)
    # (N, C, oh, ow, kh, kw)
    vals = xc[:, :, py[:, None, :, None], px[None, :, None, :]] + fc[None, :, None, None, :, :]
    ok = oky[:, None, :, None] & okx[None, :, None, :]
    return xp.where(ok[None, None], vals, -xp.inf), (py, px)


def _dilation2d(prim, x, f, out=None):
    vals, _ = _dilation_values(prim, xp.asarray(x), xp.asarray(f))
    return fit(vals.max(axis=(-2, -1)), out)


def _dilation2d_grad(prim, dout, x, f, out=None):
    x, f = xp.asarray(x), xp.asarray(f)
    vals, (py, px) = _dilation_values(prim, x, f)
    n, c, oh, ow, kh, kw = vals.shape
    arg = vals.reshape(n, c, oh, ow, kh * kw).argmax(-1)            # first maximum
    ki, kj = arg // kw, arg % kw
    oi = xp.arange(oh)[None, None, :, None]
    oj = xp.arange(ow)[None, None, None, :]
    rows = py[xp.broadcast_to(oi, arg.shape), ki]
    cols = px[xp.broadcast_to(oj, arg.shape), kj]
    d = _compute(dout)
    dx = xp.zeros((n, c, x.shape[2] * x.shape[3]), d.dtype)
    flat = rows * x.shape[3] + cols
    nn_ = xp.broadcast_to(xp.arange(n)[:, None, None, None], arg.shape)
    cc = xp.broadcast_to(xp.arange(c)[None, :, None, None], arg.shape)
    dx = scatter_add(dx.reshape(-1), ((nn_ * c + cc) * dx.shape[2] + flat).reshape(-1), d.reshape(-1))
    df = scatter_add(xp.zeros(c * kh * kw, d.dtype), (cc * kh * kw + arg).reshape(-1), d.reshape(-1))
    return fit((dx.reshape(x.shape), df.reshape(f.shape)), out)


# --- detection ----------------------------------------------------------------------------------
def _iou(prim, anchor_boxes, gt_boxes, out=None):
    a = _compute(anchor_boxes)[None]
    g = _compute(gt_boxes)[:, None]
    w = xp.maximum(xp.minimum(a[..., 2], g[..., 2]) - xp.maximum(a[..., 0], g[..., 0]) + 1.0, 0.0)
    h = xp.maximum(xp.minimum(a[..., 3], g[..., 3]) - xp.maximum(a[..., 1], g[..., 1]) + 1.0, 0.0)
    inter = w * h

    def area(b):
        return (b[..., 2] - b[..., 0] + 1.0) * (b[..., 3] - b[..., 1] + 1.0)
    denom = area(g) if prim.mode == "iof" else area(a) + area(g) - inter
    return fit(inter / denom, out)


def _pair_iou(b, corners_sorted=True):
    """IoU matrix of (x1, y1, x2, y2) boxes, areas without the end pixel."""
    if not corners_sorted:
        lo = xp.minimum(b[:, :2], b[:, 2:4])
        hi = xp.maximum(b[:, :2], b[:, 2:4])
        b = xp.concatenate([lo, hi], 1)
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    w = xp.maximum(xp.minimum(b[:, None, 2], b[None, :, 2]) - xp.maximum(b[:, None, 0], b[None, :, 0]), 0.0)
    h = xp.maximum(xp.minimum(b[:, None, 3], b[None, :, 3]) - xp.maximum(b[:, None, 1], b[None, :, 1]), 0.0)
    inter = w * h
    union = area[:, None] + area[None, :] - inter
    return xp.where(union > 0, inter / xp.where(union > 0, union, 1.0), 0.0)


def _greedy(order, overlap, threshold, limit=None):
    """Greedy NMS on the host over candidates in ``order``: a candidate is dropped when its overlap with a
    kept one exceeds ``threshold``."""
    keep = []
    for i in order:
        if limit is not None and len(keep) >= limit:
            break
        if all(overlap[i][j] <= threshold for j in keep):
            keep.append(int(i))
    return keep


def _stable_desc(scores):
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


def _nms_with_mask(prim, bboxes, out=None):
    b = xp.asarray(bboxes)
    host = _host(b).astype(xp.float64)
    scores = host[:, 4].tolist()
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], -i))   # equal scores: the later box first
    sorted_boxes = host[xp.asarray(order, dtype=xp.int64)]
    ov = _pair_iou(sorted_boxes[:, :4]).tolist()
    keep = set(_greedy(range(len(order)), ov, prim.iou_threshold))
    mask = xp.asarray([i in keep for i in range(len(order))], dtype=bool)
    return fit((xp.asarray(sorted_boxes), xp.arange(len(order), dtype=xp.int32), mask), out)


def _nms_v3(prim, boxes, scores, max_output_size, iou_threshold, score_threshold, out=None):
    b = _host(boxes).astype(xp.float64)
    s = _host(scores).astype(xp.float64).reshape(-1)
    # boxes are (y1, x1, y2, x2) in either corner order
    ov = _pair_iou(b[:, [1, 0, 3, 2]], corners_sorted=False).tolist()
    thr = float(_host(score_threshold).reshape(()))
    order = [i for i in _stable_desc(s.tolist()) if s[i] > thr]
    keep = _greedy(order, ov, float(_host(iou_threshold).reshape(())), int(_host(max_output_size).reshape(())))
    return fit(xp.asarray(keep, dtype=xp.int32).reshape(-1), out)


def _nms_overlaps(prim, overlaps, scores, max_output_size, overlap_threshold, score_threshold, out=None):
    ov = _host(overlaps).astype(xp.float64).tolist()
    s = _host(scores).astype(xp.float64).reshape(-1)
    thr = float(_host(score_threshold).reshape(()))
    order = [i for i in _stable_desc(s.tolist()) if s[i] > thr]
    keep = _greedy(order, ov, float(_host(overlap_threshold).reshape(())),
                   int(_host(max_output_size).reshape(())))
    return fit(xp.asarray(keep, dtype=xp.int32).reshape(-1), out)


def _box_parts(b):
    w = b[:, 2] - b[:, 0] + 1.0
    h = b[:, 3] - b[:, 1] + 1.0
    return b[:, 0] + 0.5 * (w - 1.0), b[:, 1] + 0.5 * (h - 1.0), w, h


def _bbox_encode(prim, anchor_box, groundtruth_box, out=None):
    px, py, pw, ph = _box_parts(_compute(anchor_box))
    gx, gy, gw, gh = _box_parts(_compute(groundtruth_box))
    d = xp.stack([(gx - px) / pw, (gy - py) / ph, xp.log(gw / pw), xp.log(gh / ph)], 1)
    return fit((d - xp.asarray(prim.means, d.dtype)) / xp.asarray(prim.stds, d.dtype), out)


def _bbox_decode(prim, anchor_box, deltas, out=None):
    a = _compute(anchor_box)
    d = _compute(deltas) * xp.asarray(prim.stds, a.dtype) + xp.asarray(prim.means, a.dtype)
    limit = abs(math.log(prim.wh_ratio_clip))
    dw, dh = xp.clip(d[:, 2], -limit, limit), xp.clip(d[:, 3], -limit, limit)
    px, py, pw, ph = _box_parts(a)
    gw, gh = pw * xp.exp(dw), ph * xp.exp(dh)
    gx, gy = px + pw * d[:, 0], py + ph * d[:, 1]
    hmax, wmax = float(prim.max_shape[0]), float(prim.max_shape[1])
    res = xp.stack([xp.clip(gx - 0.5 * gw + 0.5, 0.0, wmax), xp.clip(gy - 0.5 * gh + 0.5, 0.0, hmax),
                    xp.clip(gx + 0.5 * gw - 0.5, 0.0, wmax), xp.clip(gy + 0.5 * gh - 0.5, 0.0, hmax)], 1)
    return fit(res, out)


def _check_valid(prim, bboxes, img_metas, out=None):
    b = _compute(bboxes)
    m = _compute(img_metas).reshape(-1)
    ok = (b[:, 0] >= 0) & (b[:, 1] >= 0)
    ok = ok & (b[:, 2] <= m[1] * m[2] - 1) & (b[:, 3] <= m[0] * m[2] - 1)
    return fit(ok, out)


# --- ScaleAndTranslate (TensorFlow's sampling kernels) -------------------------------------------
def _lanczos(radius):
    def f(x):
        x = xp.abs(x)
        safe = xp.where(x <= 1e-3, 1.0, x)
        v = radius * xp.sin(math.pi * safe) * xp.sin(math.pi * safe / radius) / (math.pi * math.pi * safe * safe)
        return xp.where(x > radius, 0.0, xp.where(x <= 1e-3, 1.0, v))
    return f, float(radius)


def _gaussian(x):      # radius 1.5, sigma = radius / 3
    x = xp.abs(x)
    return xp.where(x >= 1.5, 0.0, xp.exp(-x * x / (2.0 * 0.5 * 0.5)))


def _box(x):
    x = xp.abs(x)
    return xp.where(x < 0.5, 1.0, xp.where(x == 0.5, 0.5, 0.0))


def _triangle(x):
    x = xp.abs(x)
    return xp.where(x < 1.0, 1.0 - x, 0.0)


def _keys_cubic(x):
    x = xp.abs(x)
    return xp.where(x >= 2.0, 0.0, xp.where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0,
                                            (1.5 * x - 2.5) * x * x + 1.0))


def _mitchell_cubic(x):
    x = xp.abs(x)
    return xp.where(x >= 2.0, 0.0, xp.where(x >= 1.0, ((-7.0 / 18.0 * x + 2.0) * x - 10.0 / 3.0) * x + 16.0 / 9.0,
                                            (7.0 / 6.0 * x - 2.0) * x * x + 8.0 / 9.0))


def _sampling_kernel(name):
    if name.startswith("lanczos"):
        return _lanczos(int(name[len("lanczos"):]))
    return {"gaussian": (_gaussian, 1.5), "box": (_box, 1.0), "triangle": (_triangle, 1.0),
            "keyscubic": (_keys_cubic, 2.0), "mitchellcubic": (_mitchell_cubic, 2.0)}[name]


def _span_axis(n_in, n_out, scale, translate, kernel, antialias):
    """Per-axis taps of TensorFlow's ScaleAndTranslate, whose sample positions are float32 arithmetic."""
    fn, radius = kernel
    f32 = xp.float32
    inv_scale = f32(1.0) / f32(scale)
    kscale = max(float(inv_scale), 1.0) if antialias else 1.0
    k = min(2 * int(math.ceil(radius * kscale)) + 1, n_in) + 1
    sample = (xp.arange(n_out, dtype=f32) + f32(0.5)) * inv_scale + (-inv_scale * f32(translate))
    reach = f32(radius * kscale)
    start = xp.clip(xp.ceil(sample - reach - f32(0.5)), 0, n_in - 1)
    end = xp.clip(xp.floor(sample + reach - f32(0.5)), 0, n_in - 1) + 1
    src = start[:, None] + xp.arange(k, dtype=f32)[None]
    w = fn(((src + f32(0.5) - sample[:, None]) * f32(1.0 / kscale)).astype(xp.float64))
    w = xp.where(src < end[:, None], w, 0.0)
    total = w.sum(1, keepdims=True)
    w = xp.where(xp.abs(total) >= 1000.0 * float(xp.finfo(xp.float32).tiny), w / xp.where(total == 0, 1.0, total), w)
    outside = (sample < 0) | (sample > n_in)
    w = xp.where(outside[:, None], 0.0, w)
    return xp.clip(src, 0, n_in - 1).astype(xp.int64), w


def _scale_translate_taps(prim, x_shape, size, scale, translation):
    """Taps over NCHW (the image moved from NHWC)."""
    sp = tuple(x_shape[2:])
    scale = [float(v) for v in _host(scale).reshape(-1).tolist()]
    translation = [float(v) for v in _host(translation).reshape(-1).tolist()]
    kernel = _sampling_kernel(prim.kernel_type)
    return _AxisTaps(_span_axis(i, o, s, t, kernel, prim.antialias)
                     for i, o, s, t in zip(sp, size, scale, translation))


def _scale_and_translate(prim, images, size, scale, translation, out=None):
    images = xp.asarray(images)
    size = _ints(size)
    nchw = xp.moveaxis(images, -1, 1)
    res = _apply(nchw.astype(xp.float32) if nchw.dtype.kind != "f" else nchw,
                 _scale_translate_taps(prim, nchw.shape, size, scale, translation), size)
    return fit(xp.ascontiguousarray(xp.moveaxis(res, 1, -1)), out)


def _scale_and_translate_grad(prim, grads, original_image, scale, translation, out=None):
    grads = xp.asarray(grads)
    img_shape = tuple(xp.asarray(original_image).shape)
    nchw_shape = (img_shape[0], img_shape[3], img_shape[1], img_shape[2])
    taps = _scale_translate_taps(prim, nchw_shape, grads.shape[1:3], scale, translation)
    res = _apply_adjoint(xp.moveaxis(grads, -1, 1), taps, nchw_shape)
    return fit(xp.ascontiguousarray(xp.moveaxis(res, 1, -1)), out)


# --- ExtractGlimpse -----------------------------------------------------------------------------
def _extract_glimpse(prim, x, size, offsets, out=None):
    x = _compute(x)
    n, h, w, c = x.shape
    gh, gw = _ints(size)
    offs = [[float(v) for v in row] for row in _host(offsets).astype(xp.float64).reshape(-1, 2).tolist()]
    res = xp.zeros((n, gh, gw, c), x.dtype)
    for i in range(n):
        y, xo = offs[i]
        if prim.normalized:
            y, xo = y * h, xo * w
        if prim.centered:
            y, xo = y / 2.0 + h / 2.0, xo / 2.0 + w / 2.0
        y0, x0 = int(y - gh / 2.0), int(xo - gw / 2.0)      # truncation toward zero, as TensorFlow
        rows = xp.arange(gh) + y0
        cols = xp.arange(gw) + x0
        ok = ((rows >= 0) & (rows < h))[:, None] & ((cols >= 0) & (cols < w))[None, :]
        patch = x[i][xp.clip(rows, 0, h - 1)[:, None], xp.clip(cols, 0, w - 1)[None, :]]
        noise = prim.noise if not prim.uniform_noise else "uniform"
        if noise == "zero":
            fill = xp.zeros(patch.shape, x.dtype)
        elif noise == "uniform":       # host draws from the instance's stream
            fill = xp.asarray(prim.generator().uniform(float(x[i].min()), float(x[i].max()), patch.shape))
        else:
            fill = xp.asarray(prim.generator().normal(float(x[i].mean()), float(x[i].std()), patch.shape))
        fill = fill.astype(x.dtype)
        res[i] = xp.where(ok[..., None], patch, fill)
    return fit(res, out)


# --- CombinedNonMaxSuppression ------------------------------------------------------------------
def _combined_nms(prim, boxes, scores, max_per_class, max_total, iou_threshold, score_threshold, out=None):
    b = _host(boxes).astype(xp.float64)
    sc = _host(scores).astype(xp.float64)
    per_class = int(_host(max_per_class).reshape(()))
    total = int(_host(max_total).reshape(()))
    iou_thr = float(_host(iou_threshold).reshape(()))
    score_thr = float(_host(score_threshold).reshape(()))
    batch, _, q, _ = b.shape
    classes = sc.shape[2]
    size = min(total, per_class * classes) if prim.pad_per_class else total
    out_boxes = xp.zeros((batch, size, 4))
    out_scores = xp.zeros((batch, size))
    out_classes = xp.zeros((batch, size))
    valid = []
    for i in range(batch):
        found = []
        for k in range(classes):
            bk = b[i, :, k if q > 1 else 0, :]
            s_list = sc[i, :, k].tolist()
            ov = _pair_iou(bk[:, [1, 0, 3, 2]], corners_sorted=False).tolist()
            order = [j for j in _stable_desc(s_list) if s_list[j] > score_thr]
            for j in _greedy(order, ov, iou_thr, per_class):
                found.append((s_list[j], k, j))
        found.sort(key=lambda t: (-t[0], t[1], t[2]))
        found = found[:size]
        valid.append(len(found))
        if found:
            kk = xp.asarray([t[1] for t in found], dtype=xp.int64)
            jj = xp.asarray([t[2] for t in found], dtype=xp.int64)
            sel = b[i][jj, kk if q > 1 else 0 * kk]
            if prim.clip_boxes:
                sel = xp.clip(sel, 0.0, 1.0)
            out_boxes[i, :len(found)] = sel
            out_scores[i, :len(found)] = xp.asarray([t[0] for t in found])
            out_classes[i, :len(found)] = kk.astype(xp.float64)
    return fit((out_boxes, out_scores, out_classes, xp.asarray(valid, dtype=xp.int32)), out)


# --- SampleDistortedBoundingBoxV2 (TensorFlow's crop sampler, on the host) ------------------------
def _rint(v):
    return int(round(v))       # lrintf: round half to even, as Python's round


def _random_crop(rng, width, height, ratio, min_area, max_area):
    min_h = _rint(math.sqrt(min_area / ratio))
    max_h = _rint(math.sqrt(max_area / ratio))
    if _rint(max_h * ratio) > width:
        max_h = int((width + 0.5 - 1e-7) / ratio)
        if _rint(max_h * ratio) > width:
            max_h -= 1
    max_h = min(max_h, height)
    min_h = min(min_h, max_h)
    h = min_h + int(rng.integers(0, max_h - min_h + 1)) if max_h > min_h else min_h
    w = _rint(h * ratio)
    if w * h < min_area:
        h += 1
        w = _rint(h * ratio)
    if w * h > max_area:
        h -= 1
        w = _rint(h * ratio)
    if w * h < min_area or w * h > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = int(rng.integers(0, height - h)) if h < height else 0
    x = int(rng.integers(0, width - w)) if w < width else 0
    return x, y, w, h


def _covers(crop, boxes, min_covered):
    x, y, w, h = crop
    if w * h < 1:
        return False
    for bx0, by0, bx1, by1 in boxes:
        area = (bx1 - bx0) * (by1 - by0)
        if area < 1:
            continue
        iw = max(min(x + w, bx1) - max(x, bx0), 0)
        ih = max(min(y + h, by1) - max(y, by0), 0)
        if iw * ih / area >= min_covered:
            return True
    return False


def _sample_distorted_bbox(prim, image_size, bounding_boxes, min_object_covered, out=None):
    height, width = (int(v) for v in _host(image_size).reshape(-1).tolist()[:2])
    boxes = [[float(v) for v in b] for b in _host(bounding_boxes).astype(xp.float64).reshape(-1, 4).tolist()]
    min_covered = float(_host(min_object_covered).reshape(-1)[0])
    for b in boxes:
        if not (0.0 <= b[0] < b[2] <= 1.0 and 0.0 <= b[1] < b[3] <= 1.0):
            raise MSValueError(f"For '{prim.name}', each bounding box must be (y_min, x_min, y_max, x_max) in [0, 1] "
                               f"with min < max, but got {b}.")
    if not boxes:
        if not prim.use_image_if_no_bounding_boxes:
            raise MSValueError(f"For '{prim.name}', no bounding boxes were given; set "
                               f"'use_image_if_no_bounding_boxes' to use the whole image.")
        boxes = [[0.0, 0.0, 1.0, 1.0]]
    pixel_boxes = [(int(b[1] * width), int(b[0] * height), int(b[3] * width), int(b[2] * height)) for b in boxes]
    rng = prim.generator()
    lo_ar, hi_ar = prim.aspect_ratio_range
    area = float(height * width)
    crop = None
    for _ in range(prim.max_attempts):
        ratio = float(rng.uniform(lo_ar, hi_ar))
        cand = _random_crop(rng, width, height, ratio, prim.area_range[0] * area, prim.area_range[1] * area)
        if cand is not None and _covers(cand, pixel_boxes, min_covered):
            crop = cand
            break
    x, y, w, h = crop if crop is not None else (0, 0, width, height)
    dt = _host(image_size).dtype
    bbox = xp.asarray([[[y / height, x / width, (y + h) / height, (x + w) / width]]], dtype=xp.float32)
    return fit((xp.asarray([y, x, 0], dtype=dt), xp.asarray([h, w, -1], dtype=dt), bbox), out)


# --- RotatedIou (polygon clipping on the host) --------------------------------------------------
def _corners(box, trans):
    if trans:
        x1, y1, x2, y2, t = box
        cx, cy, w, h = (x1 + x2) / 2.0, (y1 + y2) / 2.0, x2 - x1, y2 - y1
    else:
        cx, cy, w, h, t = box
    c, s = math.cos(math.radians(t)), math.sin(math.radians(t))
    pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return [(cx + px * c - py * s, cy + px * s + py * c) for px, py in pts], w * h


def _clip(poly, edge_a, edge_b):
    """The part of convex ``poly`` left of the directed edge a -> b (Sutherland-Hodgman)."""
    def side(p):
        return (edge_b[0] - edge_a[0]) * (p[1] - edge_a[1]) - (edge_b[1] - edge_a[1]) * (p[0] - edge_a[0])
    res = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        sp, sq = side(p), side(q)
        if sp >= 0:
            res.append(p)
        if (sp >= 0) != (sq >= 0) and sp != sq:
            t = sp / (sp - sq)
            res.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return res


def _poly_area(poly):
    return abs(sum(poly[i][0] * poly[(i + 1) % len(poly)][1] - poly[(i + 1) % len(poly)][0] * poly[i][1]
                   for i in range(len(poly)))) / 2.0


def _rotated_overlap(a, b, trans, mode):
    pa, area_a = _corners(a, trans)
    pb, area_b = _corners(b, trans)
    if area_a <= 0 or area_b <= 0:
        return 0.0
    inter = pa
    for i in range(4):           # corners run counter-clockwise for positive w, h
        inter = _clip(inter, pb[i], pb[(i + 1) % 4])
        if not inter:
            return 0.0
    overlap = _poly_area(inter)
    if mode == 1:
        return overlap / (area_a + 1e-6)
    union = area_a + area_b - overlap
    return overlap / (union + 1e-6) if union > 0 else 0.0


def _rotated_iou(prim, boxes, query_boxes, out=None):
    a = _host(boxes).astype(xp.float64).tolist()
    b = _host(query_boxes).astype(xp.float64).tolist()
    if prim.is_cross:
        res = [[[_rotated_overlap(p, q, prim.trans, prim.mode) for q in qb] for p in pb] for pb, qb in zip(a, b)]
    else:
        res = [[_rotated_overlap(p, q, prim.trans, prim.mode) for p, q in zip(pb, qb)] for pb, qb in zip(a, b)]
    shape = (len(a), len(a[0]) if a else 0) + ((len(b[0]) if b else 0,) if prim.is_cross else ())
    return fit(xp.asarray(res, dtype=xp.float64).reshape(shape), out)


# --- colour -------------------------------------------------------------------------------------
def _rgb_to_hsv_arr(x):
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = xp.maximum(xp.maximum(r, g), b)
    rng = v - xp.minimum(xp.minimum(r, g), b)
    s = xp.where(v > 0, rng / xp.where(v > 0, v, 1.0), 0.0)
    safe = xp.where(rng > 0, rng, 1.0)
    h = xp.where(v == r, (g - b) / safe, xp.where(v == g, 2.0 + (b - r) / safe, 4.0 + (r - g) / safe)) / 6.0
    h = xp.where(rng > 0, h, 0.0)
    h = xp.where(h < 0, h + 1.0, h)
    return xp.stack([h, s, v], -1)


def _hsv_to_rgb_arr(x):
    h, s, v = x[..., 0], x[..., 1], x[..., 2]
    c = s * v
    m = v - c
    dh = h * 6.0
    fmodu = dh - 2.0 * xp.floor(dh / 2.0)
    xx = c * (1.0 - xp.abs(fmodu - 1.0))
    z = xp.zeros_like(c)
    sector = xp.clip(xp.floor(dh), 0, 5)          # TensorFlow: dh < 1 is the first sector, dh >= 5 the last
    conds = [sector == k for k in range(6)]
    r = xp.select(conds, [c, xx, z, z, xx, c], 0.0)     # CuPy's select takes a scalar default only
    g = xp.select(conds, [xx, c, c, xx, z, z], 0.0)
    b = xp.select(conds, [z, z, xx, c, c, xx], 0.0)
    return xp.stack([r + m, g + m, b + m], -1)


def _rgb_to_hsv(prim, x, out=None):
    return fit(_rgb_to_hsv_arr(_compute(x)), out)


def _hsv_to_rgb(prim, x, out=None):
    return fit(_hsv_to_rgb_arr(_compute(x)), out)


def _adjust_hue(prim, image, delta, out=None):
    hsv = _rgb_to_hsv_arr(_compute(image))
    h = hsv[..., 0] + _compute(delta).reshape(())
    h = h - xp.floor(h)
    return fit(_hsv_to_rgb_arr(xp.stack([h, hsv[..., 1], hsv[..., 2]], -1)), out)


def _adjust_saturation(prim, image, scale, out=None):
    hsv = _rgb_to_hsv_arr(_compute(image))
    s = xp.clip(hsv[..., 1] * _compute(scale).reshape(()), 0.0, 1.0)
    return fit(_hsv_to_rgb_arr(xp.stack([hsv[..., 0], s, hsv[..., 2]], -1)), out)


# --- affine grid, windows, data formats ---------------------------------------------------------
def _base_coords(n, align_corners):
    if align_corners:
        return xp.linspace(-1.0, 1.0, n) if n > 1 else xp.zeros(1)
    return (2.0 * xp.arange(n) + 1.0) / n - 1.0


def _affine_base(size, align_corners):
    spatial = len(size) - 2
    axes = [_base_coords(n, align_corners) for n in size[2:]]
    mesh = xp.meshgrid(*axes, indexing="ij")
    coords = [mesh[i] for i in range(spatial - 1, -1, -1)]
    return xp.stack(coords + [xp.ones_like(mesh[0])], -1).reshape(-1, spatial + 1)


def _affine_grid(prim, theta, output_size, out=None):
    size = _ints(output_size)
    th = _compute(theta)
    base = _affine_base(size, prim.align_corners).astype(th.dtype)
    grid = xp.matmul(base[None], xp.swapaxes(th, 1, 2))
    return fit(grid.reshape((size[0],) + size[2:] + (len(size) - 2,)), out)


def _affine_grid_grad(prim, dout, output_size, out=None):
    size = _ints(output_size)
    d = _compute(dout)
    spatial = len(size) - 2
    base = _affine_base(size, prim.align_corners).astype(d.dtype)
    return fit(xp.matmul(xp.swapaxes(d.reshape(size[0], -1, spatial), 1, 2), base[None]), out)


def _window_len(v):
    return int(_host(v).reshape(-1)[0])


def _cosine_window(n, periodic, coeffs):
    if n <= 1:
        return xp.ones(n)
    t = 2.0 * math.pi * xp.arange(n, dtype=xp.float64) / (n if periodic else n - 1)
    res = xp.full(n, float(coeffs[0]))
    for k, c in enumerate(coeffs[1:], 1):
        res = res + c * xp.cos(k * t)
    return res


def _bartlett(prim, window_length, out=None):
    n = _window_len(window_length)
    if n <= 1:
        return fit(xp.ones(n), out)
    t = xp.arange(n, dtype=xp.float64) * (2.0 / (n if prim.periodic else n - 1))
    return fit(1.0 - xp.abs(t - 1.0), out)


def _blackman(prim, window_length, out=None):
    return fit(_cosine_window(_window_len(window_length), prim.periodic, (0.42, -0.5, 0.08)), out)


def _hamming(prim, length, out=None):
    return fit(_cosine_window(_window_len(length), prim.periodic, (prim.alpha, -prim.beta)), out)


def _dim_map(prim, x, out=None):
    x = xp.asarray(x)
    table = xp.asarray([prim.src_format.index(ch) for ch in prim.dst_format], dtype=x.dtype)
    return fit(table[x % len(prim.src_format)], out)


def _vec_permute(prim, x, out=None):
    x = xp.asarray(x)
    src, dst = prim.src_format, prim.dst_format
    if x.shape[0] == 2:   # the spatial part only
        src = "".join(ch for ch in src if ch not in "NC")
        dst = "".join(ch for ch in dst if ch not in "NC")
    order = xp.asarray([src.index(ch) for ch in dst])
    return fit(x[order], out)


KERNELS = {
    "IOU": _iou, "NMSWithMask": _nms_with_mask, "BoundingBoxEncode": _bbox_encode, "BoundingBoxDecode": _bbox_decode,
    "CheckValid": _check_valid, "ROIAlign": _roi_align, "ROIAlignGrad": _roi_align_grad,
    "CropAndResize": _crop_and_resize, "CropAndResizeGradImage": _crop_and_resize_grad_image,
    "CropAndResizeGradBoxes": _crop_and_resize_grad_boxes,
    "NonMaxSuppressionV3": _nms_v3, "NonMaxSuppressionWithOverlaps": _nms_overlaps,
    "RGBToHSV": _rgb_to_hsv, "HSVToRGB": _hsv_to_rgb, "AdjustHue": _adjust_hue, "AdjustSaturation": _adjust_saturation,
    "ResizeBicubic": _resize, "ResizeBicubicGrad": _resize_grad, "ResizeNearestNeighborV2": _resize,
    "ResizeNearestNeighborV2Grad": _resize_grad, "ResizeLinear1D": _resize, "ResizeLinear1DGrad": _resize_grad,
    "ResizeArea": _resize_area, "UpsampleNearest3D": _upsample, "UpsampleNearest3DGrad": _upsample_grad,
    "UpsampleTrilinear3D": _upsample, "UpsampleTrilinear3DGrad": _upsample_grad,
    "GridSampler2D": _grid_sampler, "GridSampler2DGrad": _grid_sampler_grad, "GridSampler3D": _grid_sampler,
    "GridSampler3DGrad": _grid_sampler_grad, "AffineGrid": _affine_grid, "AffineGridGrad": _affine_grid_grad,
    "Im2Col": _im2col, "Col2Im": _col2im, "ExtractImagePatches": _extract_patches,
    "ExtractVolumePatches": _extract_patches,
    "ExtractPatchesGrad": _extract_patches_grad, "MirrorPad": _mirror_pad, "MirrorPadGrad": _mirror_pad_grad,
    "Dilation2D": _dilation2d, "Dilation2DGrad": _dilation2d_grad,
    "BartlettWindow": _bartlett, "BlackmanWindow": _blackman, "HammingWindow": _hamming,
    "DataFormatDimMap": _dim_map, "DataFormatVecPermute": _vec_permute,
    "ScaleAndTranslate": _scale_and_translate, "ScaleAndTranslateGrad": _scale_and_translate_grad,
    "ExtractGlimpse": _extract_glimpse, "CombinedNonMaxSuppression": _combined_nms,
    "SampleDistortedBoundingBoxV2": _sample_distorted_bbox, "RotatedIou": _rotated_iou,
}
