"""GPU kernels of the nn family, second half: element-wise losses and image resizing.

Resizing is separable: one 1-D pass along H, one along W, each a gather of at most two source
indices with weights. The source indices and weights depend only on the sizes, so they are computed
on the host (in the CPU kernels' float32 arithmetic, bit for bit) and moved to the device once per
call. The gradients run the same passes in reverse, scattering with CUDA's atomic add.
"""
import cupy
import numpy

from mindspore_gpu.kernels._common import fit, fits_out, scalar_of, scatter_add, wide, dev

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)

BCE_EPS = 1e-12


def _reduce(loss, reduction):
    if reduction == "mean":
        return cupy.mean(loss)
    if reduction == "sum":
        return cupy.sum(loss)
    return loss


def _softplus(x):
    return cupy.logaddexp(0, x)


def _opt(v):
    return None if v is None else wide(_dev(v))


# --- losses ---------------------------------------------------------------------------------
def _sigmoid_ce(prim, logits, label, *, out):
    x, z = wide(_dev(logits)), wide(_dev(label))
    return fit(cupy.maximum(x, 0) - x * z + cupy.log1p(cupy.exp(-cupy.abs(x))), out)


def _bce_with_logits(prim, logits, label, weight, pos_weight, *, out):
    x, y = wide(_dev(logits)), wide(_dev(label))
    pos = y if pos_weight is None else _opt(pos_weight) * y
    loss = pos * _softplus(-x) + (1 - y) * _softplus(x)
    if weight is not None:
        loss = loss * _opt(weight)
    return fit(_reduce(loss, prim.reduction), out)


def _binary_cross_entropy(prim, logits, labels, weight=None, *, out):
    x, y = wide(_dev(logits)), wide(_dev(labels))
    loss = -(y * cupy.log(cupy.maximum(x, BCE_EPS)) + (1 - y) * cupy.log(cupy.maximum(1 - x, BCE_EPS)))
    if weight is not None:
        loss = loss * _opt(weight)
    return fit(_reduce(loss, prim.reduction), out)


@fits_out
def _nll_loss(prim, logits, labels, weight, *, out=None):
    x, labels, weight = wide(_dev(logits)), _dev(labels), _dev(weight)
    x2 = x.reshape(-1, x.shape[-1])
    t = labels.reshape(-1).astype(numpy.int64)
    valid = t != prim.ignore_index
    safe = cupy.where(valid, t, 0)
    bad = (safe < 0) | (safe >= x2.shape[1])
    if bool(bad.any()):
        raise ValueError(f"For 'NLLLoss', the 'labels' must be in [0, {x2.shape[1]}) or equal to ignore_index "
                         f"{prim.ignore_index}, but got {cupy.asnumpy(t[bad][:5]).tolist()}.")
    w = cupy.where(valid, wide(weight)[safe], 0)
    loss = -w * x2[cupy.arange(x2.shape[0]), safe]
    total = cupy.sum(w).astype(weight.dtype)
    if prim.reduction == "none":
        r = loss.reshape(labels.shape) if logits.ndim == 2 else loss.reshape(())
    elif prim.reduction == "sum":
        r = cupy.sum(loss)
    else:
        r = cupy.sum(loss) / cupy.sum(w)
    return r, total


def _smooth_l1(prim, logits, labels, *, out):
    d = cupy.abs(wide(_dev(logits)) - wide(_dev(labels)))
    beta = prim.beta
    return fit(_reduce(cupy.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), prim.reduction), out)


@fits_out
def _kl_div(prim, logits, labels, *, out=None):
    x, y = wide(_dev(logits)), wide(_dev(labels))
    ylogy = cupy.where(y > 0, y * cupy.log(cupy.where(y > 0, y, 1)), cupy.where(y == 0, 0, numpy.nan))
    loss = ylogy - y * x
    if prim.reduction == "batchmean":
        return cupy.sum(loss) / (x.shape[0] if x.ndim else 1)
    return _reduce(loss, prim.reduction)


# --- resize: source coordinates (host, float32 arithmetic as the CPU kernels) --------------------
def _scale(in_size, out_size, align_corners):
    if align_corners and out_size > 1:
        return numpy.float32(in_size - 1) / numpy.float32(out_size - 1)
    return numpy.float32(in_size) / numpy.float32(out_size)


def nearest_index(in_size, out_size, align_corners):
    """Source index of each output position (TensorFlow/MindSpore convention, float32 arithmetic)."""
    src = numpy.arange(out_size, dtype=numpy.float32) * _scale(in_size, out_size, align_corners)
    src = numpy.floor(src + numpy.float32(0.5)) if align_corners else numpy.floor(src)
    return numpy.minimum(src.astype(numpy.int64), in_size - 1)


def linear_coords(in_size, out_size, align_corners, half_pixel_centers):
    """(lower index, upper index, weight of the upper) of each output position."""
    scale = _scale(in_size, out_size, align_corners)
    i = numpy.arange(out_size, dtype=numpy.float32)
    src = (i + numpy.float32(0.5)) * scale - numpy.float32(0.5) if half_pixel_centers else i * scale
    floor = numpy.floor(src)
    lo = numpy.maximum(floor.astype(numpy.int64), 0)
    hi = numpy.minimum(numpy.ceil(src).astype(numpy.int64), in_size - 1)
    return lo, hi, (src - floor).astype(numpy.float64)


def _along(v, axis, ndim):
    shape = [1] * ndim
    shape[axis] = v.size
    return v.reshape(shape)


def interp_axis(x, axis, lo, hi, lam):
    """Linear interpolation along ``axis`` (nearest when ``lam`` is None); indices and weights on the host."""
    a = cupy.take(x, cupy.asarray(lo), axis=axis)
    if lam is None:
        return a
    w = _along(cupy.asarray(lam.astype(x.dtype)), axis, x.ndim)
    return a + (cupy.take(x, cupy.asarray(hi), axis=axis) - a) * w


def scatter_axis(g, axis, idx, n):
    """The adjoint of ``take(x, idx, axis)`` for an ``x`` with ``n`` entries on ``axis``."""
    shape = list(g.shape)
    shape[axis] = n
    r = cupy.zeros(shape, g.dtype)
    scatter_add(r, (slice(None),) * axis + (cupy.asarray(idx),), g)
    return r


def interp_axis_adjoint(g, axis, lo, hi, lam, n):
    if lam is None:
        return scatter_axis(g, axis, lo, n)
    w = _along(cupy.asarray(lam.astype(g.dtype)), axis, g.ndim)
    return scatter_axis(g * (1 - w), axis, lo, n) + scatter_axis(g * w, axis, hi, n)


def _size(size):
    return tuple(int(scalar_of(s)) for s in size)


def _resize_nearest(prim, x, *, out):
    x = _dev(x)
    h, w = prim.size
    ih = nearest_index(x.shape[2], h, prim.align_corners)
    iw = nearest_index(x.shape[3], w, prim.align_corners)
    return cupy.asarray(interp_axis(interp_axis(x, 2, ih, None, None), 3, iw, None, None), order="C")


def _resize_nearest_grad(prim, g, size, *, out):
    g = _dev(g)
    h, w = _size(size)
    ih = nearest_index(h, g.shape[2], prim.align_corners)
    iw = nearest_index(w, g.shape[3], prim.align_corners)
    return fit(scatter_axis(scatter_axis(g, 3, iw, w), 2, ih, h), out)


def _bilinear_coords(prim, in_hw, out_hw):
    return [linear_coords(i, o, prim.align_corners, prim.half_pixel_centers) for i, o in zip(in_hw, out_hw)]


@fits_out
def _resize_bilinear(prim, x, size, *, out=None):
    x = wide(_dev(x))
    (lo_h, hi_h, lam_h), (lo_w, hi_w, lam_w) = _bilinear_coords(prim, x.shape[2:], _size(size))
    return interp_axis(interp_axis(x, 2, lo_h, hi_h, lam_h), 3, lo_w, hi_w, lam_w)


@fits_out
def _resize_bilinear_grad(prim, g, size, *, out=None):
    g = wide(_dev(g))
    size = _size(size)
    (lo_h, hi_h, lam_h), (lo_w, hi_w, lam_w) = _bilinear_coords(prim, size, g.shape[2:])
    gw = interp_axis_adjoint(g, 3, lo_w, hi_w, lam_w, size[1])
    return interp_axis_adjoint(gw, 2, lo_h, hi_h, lam_h, size[0])


KERNELS = {
    "SigmoidCrossEntropyWithLogits": _sigmoid_ce,
    "BCEWithLogitsLoss": _bce_with_logits,
    "BinaryCrossEntropy": _binary_cross_entropy,
    "NLLLoss": _nll_loss,
    "SmoothL1Loss": _smooth_l1,
    "KLDivLoss": _kl_div,
    "ResizeNearestNeighbor": _resize_nearest,
    "ResizeNearestNeighborGrad": _resize_nearest_grad,
    "ResizeBilinearV2": _resize_bilinear,
    "ResizeBilinearGrad": _resize_bilinear_grad,
}
