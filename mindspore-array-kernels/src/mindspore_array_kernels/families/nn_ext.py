"""The kernels of ``mindspore/ops/_defs/nn_ext.py``: the element-wise losses (``SigmoidCrossEntropyWithLogits``,
``BCEWithLogitsLoss``, ``BinaryCrossEntropy``, ``NLLLoss``, ``SmoothL1Loss``, ``KLDivLoss``) and image resizing
(``ResizeNearestNeighbor``, ``ResizeBilinearV2`` and their gradients), bound (:func:`mindspore_array_kernels.bind`)
with:

* ``xp``, the array library, and two movers: ``dev`` (an operand, or host indices and weights, as an ``xp`` array)
  and ``host`` (an array as NumPy: the labels an out-of-range message names);
* ``wide(x)``, ``x`` in the precision the losses and the bilinear resize compute in (float16 as float32);
* ``add_at(target, index, values)``, ``target[index] += values`` in place, repeated indices summed (in order on
  NumPy): the resize gradients' scatter.

Resizing is separable: one 1-D pass along W, then one along H (2.10's order: the top and bottom rows are
interpolated first, then between them), each a gather of at most two source indices with weights. The source indices
and weights depend only on the sizes, so they are computed on the host in float32 arithmetic (TensorFlow/MindSpore's
conventions) and moved over once per call. The gradients add each gradient value to its source pixel (nearest) or
its four source pixels (bilinear, with the weights ``(1 - ly)(1 - lx)``, ``(1 - ly) lx``, ``ly (1 - lx)``, ``ly lx``),
pixel by pixel in row-major order, as 2.10's CPU kernels do (the order of the additions decides the last bits).
"""
import numpy as np

from mindspore_array_kernels.common import fit, fits_out

BOUND = ("xp", "dev", "host", "wide", "add_at")

BCE_EPS = 1e-12


def _reduce(loss, reduction):
    if reduction == "mean":
        return xp.asarray(xp.mean(loss))
    if reduction == "sum":
        return xp.asarray(xp.sum(loss))
    return xp.asarray(loss)


def _softplus(x):
    return xp.logaddexp(0, x)


# --- losses ---------------------------------------------------------------------------------
def _sigmoid_ce(prim, logits, label, out=None):
    x, z = wide(dev(logits)), wide(dev(label))
    return fit(xp.asarray(xp.maximum(x, 0) - x * z + xp.log1p(xp.exp(-xp.abs(x)))), out)


def _bce_with_logits(prim, logits, label, weight, pos_weight, out=None):
    x, y = wide(dev(logits)), wide(dev(label))
    pos = y if pos_weight is None else wide(dev(pos_weight)) * y
    loss = pos * _softplus(-x) + (1 - y) * _softplus(x)
    if weight is not None:
        loss = loss * wide(dev(weight))
    return fit(_reduce(loss, prim.reduction), out)


def _binary_cross_entropy(prim, logits, labels, weight=None, out=None):
    x, y = wide(dev(logits)), wide(dev(labels))
    with np.errstate(divide="ignore", invalid="ignore"):
        # MindSpore's kernel adds the epsilon (it does not clamp): -log(1e-13 + 1e-12), not -log(1e-12)
        loss = -(y * xp.log(x + BCE_EPS) + (1 - y) * xp.log(1 - x + BCE_EPS))
    if weight is not None:
        loss = loss * wide(dev(weight))
    return fit(_reduce(loss, prim.reduction), out)


def _nll_loss(prim, logits, labels, weight, out=None):
    x, labels, weight = wide(dev(logits)), dev(labels), dev(weight)
    x2 = x.reshape(-1, x.shape[-1])
    t = labels.reshape(-1).astype(np.int64)
    valid = t != prim.ignore_index
    safe = xp.where(valid, t, 0)
    bad = (safe < 0) | (safe >= x2.shape[1])
    if bool(bad.any()):
        raise ValueError(f"For 'NLLLoss', the 'labels' must be in [0, {x2.shape[1]}) or equal to ignore_index "
                         f"{prim.ignore_index}, but got {host(t[bad][:5]).tolist()}.")
    w = xp.where(valid, wide(weight)[safe], 0)
    loss = -w * x2[xp.arange(x2.shape[0]), safe]
    total = xp.asarray(xp.sum(w), dtype=weight.dtype)
    if prim.reduction == "none":
        res = loss.reshape(labels.shape) if logits.ndim == 2 else loss.reshape(())
    elif prim.reduction == "sum":
        res = xp.asarray(xp.sum(loss))
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            res = xp.asarray(xp.sum(loss) / xp.sum(w))
    return fit((xp.asarray(res), total), out)


def _smooth_l1(prim, logits, labels, out=None):
    d = xp.abs(wide(dev(logits)) - wide(dev(labels)))
    beta = prim.beta
    return fit(_reduce(xp.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), prim.reduction), out)


@fits_out
def _kl_div(prim, logits, labels, out=None):
    x, y = wide(dev(logits)), wide(dev(labels))
    with np.errstate(divide="ignore", invalid="ignore"):
        ylogy = xp.where(y > 0, y * xp.log(xp.where(y > 0, y, 1)), xp.where(y == 0, 0, np.nan))
    loss = ylogy - y * x
    if prim.reduction == "batchmean":
        return xp.asarray(xp.sum(loss) / (x.shape[0] if x.ndim else 1))
    return _reduce(loss, prim.reduction)


# --- resize: source coordinates (host, float32 arithmetic) --------------------------------------
def _scale(in_size, out_size, align_corners):
    if align_corners and out_size > 1:
        return np.float32(in_size - 1) / np.float32(out_size - 1)
    return np.float32(in_size) / np.float32(out_size)


def nearest_index(in_size, out_size, align_corners):
    """Source index of each output position (TensorFlow/MindSpore convention, float32 arithmetic)."""
    src = np.arange(out_size, dtype=np.float32) * _scale(in_size, out_size, align_corners)
    src = np.floor(src + np.float32(0.5)) if align_corners else np.floor(src)
    return np.minimum(src.astype(np.int64), in_size - 1)


def linear_coords(in_size, out_size, align_corners, half_pixel_centers):
    """(lower index, upper index, weight of the upper) of each output position."""
    scale = _scale(in_size, out_size, align_corners)
    i = np.arange(out_size, dtype=np.float32)
    src = (i + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel_centers else i * scale
    floor = np.floor(src)
    lo = np.maximum(floor.astype(np.int64), 0)
    hi = np.minimum(np.ceil(src).astype(np.int64), in_size - 1)
    return lo, hi, (src - floor).astype(np.float64)


# --- resize: the passes ---------------------------------------------------------------------------
def _along(v, axis, ndim):
    shape = [1] * ndim
    shape[axis] = v.size
    return v.reshape(shape)


def interp_axis(x, axis, lo, hi, lam):
    """Linear interpolation along ``axis`` (nearest when ``lam`` is None); indices and weights on the host."""
    a = xp.take(x, dev(lo), axis=axis)
    if lam is None:
        return a
    w = _along(dev(lam.astype(x.dtype)), axis, x.ndim)
    return a + (xp.take(x, dev(hi), axis=axis) - a) * w


def _size(size):
    """The (h, w) a gradient or ``ResizeBilinearV2`` is given, as Python ints."""
    return tuple(int(s) for s in size)


def _resize_nearest(prim, x, out=None):
    x = dev(x)
    h, w = prim.size
    ih = nearest_index(x.shape[2], h, prim.align_corners)
    iw = nearest_index(x.shape[3], w, prim.align_corners)
    return xp.asarray(interp_axis(interp_axis(x, 2, ih, None, None), 3, iw, None, None), order="C")


def _resize_nearest_grad(prim, g, size, out=None):
    g = dev(g)
    h, w = _size(size)
    ih = nearest_index(h, g.shape[2], prim.align_corners)
    iw = nearest_index(w, g.shape[3], prim.align_corners)
    planes = g.shape[0] * g.shape[1]
    res = xp.zeros((planes, h * w), g.dtype)
    # each gradient value onto its source pixel, pixel by pixel in row-major order (2.10's order of the additions)
    add_at(res, (dev(np.arange(planes)[:, None]), dev(np.add.outer(ih * w, iw).reshape(1, -1))),
           g.reshape(planes, -1))
    return fit(res.reshape(g.shape[:2] + (h, w)), out)


def _bilinear_coords(prim, in_hw, out_hw):
    return [linear_coords(i, o, prim.align_corners, prim.half_pixel_centers) for i, o in zip(in_hw, out_hw)]


@fits_out
def _resize_bilinear(prim, x, size, out=None):
    x = wide(dev(x))
    (lo_h, hi_h, lam_h), (lo_w, hi_w, lam_w) = _bilinear_coords(prim, x.shape[2:], _size(size))
    return interp_axis(interp_axis(x, 3, lo_w, hi_w, lam_w), 2, lo_h, hi_h, lam_h)


def _resize_bilinear_grad(prim, g, size, out=None):
    g = wide(dev(g))
    h, w = _size(size)
    (lo_h, hi_h, lam_h), (lo_w, hi_w, lam_w) = _bilinear_coords(prim, (h, w), g.shape[2:])
    t = g.dtype
    ly, lx = lam_h.astype(t), lam_w.astype(t)
    iy, ix = (1 - lam_h).astype(t), (1 - lam_w).astype(t)   # (1 - lerp rounded once, as 2.10's 1.0 - lerp)
    weights = np.stack([np.outer(iy, ix), np.outer(iy, lx), np.outer(ly, ix), np.outer(ly, lx)], axis=-1)
    corners = np.stack([np.add.outer(lo_h * w, lo_w), np.add.outer(lo_h * w, hi_w),
                        np.add.outer(hi_h * w, lo_w), np.add.outer(hi_h * w, hi_w)], axis=-1).reshape(1, -1)
    planes = g.shape[0] * g.shape[1]
    values = (g[..., None] * dev(weights)).reshape(planes, -1)
    res = xp.zeros((planes, h * w), t)
    add_at(res, (dev(np.arange(planes)[:, None]), dev(corners)), values)
    return fit(res.reshape(g.shape[:2] + (h, w)), out)


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
