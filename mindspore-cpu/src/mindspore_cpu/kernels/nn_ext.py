"""CPU kernels of the nn family, second half: element-wise losses and image resizing.

Resizing is separable: one 1-D pass along H, one along W, each a gather of at most two source
indices with weights. The gradients run the same passes in reverse, scattering with
``np.add.reduceat`` over the sorted source indices (no per-element Python loop).
"""
import numpy as np

from mindspore_cpu.kernels._out import fits_out

BCE_EPS = 1e-12


def _wide(x):
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _reduce(loss, reduction):
    if reduction == "mean":
        return np.asarray(np.mean(loss))
    if reduction == "sum":
        return np.asarray(np.sum(loss))
    return np.asarray(loss)


def _softplus(x):
    return np.logaddexp(0, x)


# --- losses ---------------------------------------------------------------------------------
def _sigmoid_ce(prim, logits, label, out=None):
    x, z = _wide(logits), _wide(label)
    return np.asarray(np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x))))


def _bce_with_logits(prim, logits, label, weight, pos_weight, out=None):
    x, y = _wide(logits), _wide(label)
    pos = y if pos_weight is None else _wide(pos_weight) * y
    loss = pos * _softplus(-x) + (1 - y) * _softplus(x)
    if weight is not None:
        loss = loss * _wide(weight)
    return _reduce(loss, prim.reduction)


def _binary_cross_entropy(prim, logits, labels, weight=None, out=None):
    x, y = _wide(logits), _wide(labels)
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = -(y * np.log(np.maximum(x, BCE_EPS)) + (1 - y) * np.log(np.maximum(1 - x, BCE_EPS)))
    if weight is not None:
        loss = loss * _wide(weight)
    return _reduce(loss, prim.reduction)


def _nll_loss(prim, logits, labels, weight, out=None):
    x = _wide(logits)
    x2 = x.reshape(-1, x.shape[-1])
    t = labels.reshape(-1).astype(np.int64)
    valid = t != prim.ignore_index
    safe = np.where(valid, t, 0)
    if np.any((safe < 0) | (safe >= x2.shape[1])):
        raise ValueError(f"For 'NLLLoss', the 'labels' must be in [0, {x2.shape[1]}) or equal to ignore_index "
                         f"{prim.ignore_index}, but got {t[(safe < 0) | (safe >= x2.shape[1])][:5].tolist()}.")
    w = np.where(valid, _wide(weight)[safe], 0)
    loss = -w * x2[np.arange(x2.shape[0]), safe]
    total = np.asarray(np.sum(w), dtype=weight.dtype)
    if prim.reduction == "none":
        res = loss.reshape(labels.shape) if logits.ndim == 2 else loss.reshape(())
    elif prim.reduction == "sum":
        res = np.asarray(np.sum(loss))
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            res = np.asarray(np.sum(loss) / np.sum(w))
    return np.asarray(res), total


def _smooth_l1(prim, logits, labels, out=None):
    d = np.abs(_wide(logits) - _wide(labels))
    beta = prim.beta
    return _reduce(np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), prim.reduction)


@fits_out
def _kl_div(prim, logits, labels, out=None):
    x, y = _wide(logits), _wide(labels)
    with np.errstate(divide="ignore", invalid="ignore"):
        ylogy = np.where(y > 0, y * np.log(np.where(y > 0, y, 1)), np.where(y == 0, 0, np.nan))
    loss = ylogy - y * x
    if prim.reduction == "batchmean":
        return np.asarray(np.sum(loss) / (x.shape[0] if x.ndim else 1))
    return _reduce(loss, prim.reduction)


# --- resize ---------------------------------------------------------------------------------
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


def _along(v, axis, ndim):
    shape = [1] * ndim
    shape[axis] = v.size
    return v.reshape(shape)


def interp_axis(x, axis, lo, hi, lam):
    """Linear interpolation along ``axis`` (nearest when ``lo == hi``)."""
    a = np.take(x, lo, axis=axis)
    if lam is None:
        return a
    w = _along(lam.astype(x.dtype), axis, x.ndim)
    return a + (np.take(x, hi, axis=axis) - a) * w


def scatter_axis(g, axis, idx, n):
    """The adjoint of ``np.take(x, idx, axis)`` for an ``x`` with ``n`` entries on ``axis``."""
    if np.any(idx[1:] < idx[:-1]):  # resize indices are monotonic; sort only if someone passes others
        order = np.argsort(idx, kind="stable")
        idx = idx[order]
        g = np.take(g, order, axis=axis)
    uniq, start = np.unique(idx, return_index=True)
    summed = np.add.reduceat(g, start, axis=axis)
    if uniq.size == n:  # every source index is hit (upsampling): already in place
        return summed
    shape = list(g.shape)
    shape[axis] = n
    out = np.zeros(shape, g.dtype)
    index = [slice(None)] * g.ndim
    index[axis] = uniq
    out[tuple(index)] = summed
    return out


def interp_axis_adjoint(g, axis, lo, hi, lam, n):
    if lam is None:
        return scatter_axis(g, axis, lo, n)
    w = _along(lam.astype(g.dtype), axis, g.ndim)
    return scatter_axis(g * (1 - w), axis, lo, n) + scatter_axis(g * w, axis, hi, n)


def _resize_nearest(prim, x, out=None):
    h, w = prim.size
    ih = nearest_index(x.shape[2], h, prim.align_corners)
    iw = nearest_index(x.shape[3], w, prim.align_corners)
    return np.asarray(np.take(np.take(x, ih, axis=2), iw, axis=3), order="C")


def _resize_nearest_grad(prim, g, size, out=None):
    h, w = size
    ih = nearest_index(h, g.shape[2], prim.align_corners)
    iw = nearest_index(w, g.shape[3], prim.align_corners)
    return scatter_axis(scatter_axis(g, 3, iw, w), 2, ih, h)


def _bilinear_coords(prim, in_hw, out_hw):
    return [linear_coords(i, o, prim.align_corners, prim.half_pixel_centers) for i, o in zip(in_hw, out_hw)]


@fits_out
def _resize_bilinear(prim, x, size, out=None):
    x = _wide(x)
    (lo_h, hi_h, lam_h), (lo_w, hi_w, lam_w) = _bilinear_coords(prim, x.shape[2:], size)
    return interp_axis(interp_axis(x, 2, lo_h, hi_h, lam_h), 3, lo_w, hi_w, lam_w)


def _resize_bilinear_grad(prim, g, size, out=None):
    g = _wide(g)
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
