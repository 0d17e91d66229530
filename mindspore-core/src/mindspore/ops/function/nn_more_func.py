"""More of MindSpore 2.10's neural-network functions, as compositions of existing primitives: the LLM
building blocks ``ops.rms_norm``/``add_rms_norm``/``add_layer_norm``/``swiglu``/``rotary_position_embedding``
(Ascend-only kernels in MindSpore, with the same outputs here on every backend), detection helpers
``ops.bounding_box_encode``/``bounding_box_decode``/``check_valid``/``crop_and_resize``, ``ops.affine_grid``,
``ops.rrelu``, ``ops.gumbel_softmax``, ``ops.multilabel_margin_loss``, ``ops.col2im``, ``ops.max_unpool1d``/
``max_unpool3d``, ``ops.kaiser_window``, and ``ops.ctc_loss``/``ctc_greedy_decoder`` over the primitives of
``ops/_defs/ctc.py``.

Everything here differentiates through the primitives it is made of. The random ones (``rrelu``,
``gumbel_softmax``) draw from the seeded ``UniformReal`` stream, so ``mindspore.set_seed`` makes them
reproducible; their draws cannot equal MindSpore's (a different generator), only their distribution.
"""
import math as _pymath

import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops import _higher
from mindspore.ops._defs import ctc as _ctc_defs
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math
from mindspore.ops.function import nn_func as _nn
from mindspore.ops.function import random_func as _random
from mindspore.ops.function import reduce_func as _reduce
from mindspore.ops.function import special_func as _special

__all__ = [
    "rms_norm", "add_rms_norm", "add_layer_norm", "swiglu", "rotary_position_embedding", "bounding_box_encode",
    "bounding_box_decode", "check_valid", "crop_and_resize", "affine_grid", "rrelu", "gumbel_softmax",
    "multilabel_margin_loss", "col2im", "max_unpool1d", "max_unpool3d", "kaiser_window", "ctc_loss",
    "ctc_greedy_decoder",
]

_FLOATS = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def _check_tensor(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")


def _check_float(op, name, x):
    _check_tensor(op, name, x)
    if x.dtype not in _FLOATS:
        raise MSTypeError(f"For '{op}', the '{name}' must be a float tensor, but got {x.dtype}.")


# --- normalisation blocks of LLMs --------------------------------------------------------------------------
def _norm_axes(op, x, gamma):
    if gamma.ndim > x.ndim or tuple(x.shape[x.ndim - gamma.ndim:]) != tuple(gamma.shape):
        raise MSValueError(f"For '{op}', the shape of 'gamma' {gamma.shape} must be the trailing dimensions of x's "
                           f"{x.shape}.")
    return tuple(range(x.ndim - gamma.ndim, x.ndim))


def rms_norm(x, gamma, epsilon=1e-6):
    """Root-mean-square normalisation over ``gamma``'s trailing dimensions: ``(y, rstd)`` with
    ``rstd = 1 / sqrt(mean(x**2) + epsilon)`` (those dimensions kept as 1) and ``y = x * rstd * gamma``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> y, rstd = ops.rms_norm(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), ms.Tensor([1.0, 1.0]))
        >>> print(rstd.shape)
        (2, 1)
    """
    _check_float("RmsNorm", "x", x)
    _check_tensor("RmsNorm", "gamma", gamma)
    if not 0 < epsilon <= 1:
        raise MSValueError(f"For 'RmsNorm', the 'epsilon' must be in (0, 1], but got {epsilon}.")
    axes = _norm_axes("RmsNorm", x, gamma)
    wide = _array.cast(x, mstype.float32) if x.dtype in (mstype.float16, mstype.bfloat16) else x
    rstd = _math.rsqrt(_math.add(_reduce.reduce_mean(_math.square(wide), axes, True), epsilon))
    y = _math.mul(_math.mul(wide, rstd), _array.cast(gamma, wide.dtype))
    return _array.cast(y, x.dtype), rstd


def add_rms_norm(x1, x2, gamma, epsilon=1e-6):
    """``rms_norm(x1 + x2, gamma, epsilon)`` and the sum: ``(y, rstd, x1 + x2)``."""
    x = _math.add(x1, x2)
    y, rstd = rms_norm(x, gamma, epsilon)
    return y, rstd, x


def add_layer_norm(x1, x2, gamma, beta, epsilon=1e-5, additional_output=False):
    """Layer normalisation of ``x = x1 + x2`` over ``gamma``'s trailing dimensions: ``(y, mean, rstd, x)``
    (``mean``/``rstd`` keep those dimensions as 1)."""
    x = _math.add(x1, x2)
    _check_float("AddLayerNorm", "x1", x)
    axes = _norm_axes("AddLayerNorm", x, gamma)
    wide = _array.cast(x, mstype.float32) if x.dtype in (mstype.float16, mstype.bfloat16) else x
    mean = _reduce.reduce_mean(wide, axes, True)
    centred = _math.sub(wide, mean)
    rstd = _math.rsqrt(_math.add(_reduce.reduce_mean(_math.square(centred), axes, True), epsilon))
    y = _math.add(_math.mul(_math.mul(centred, rstd), _array.cast(gamma, wide.dtype)), _array.cast(beta, wide.dtype))
    return _array.cast(y, x.dtype), mean, rstd, x


def swiglu(input, dim=-1):
    """``swish(a) * b`` where ``a, b`` are ``input``'s halves along ``dim`` (``swish(a) = a * sigmoid(a)``).

    Examples:
        >>> print(ops.swiglu(ms.Tensor([[1.0, 2.0]])))
        [[1.4621172]]
    """
    _check_float("Swiglu", "input", input)
    axis = dim % input.ndim if input.ndim else 0
    if input.ndim == 0 or input.shape[axis] % 2:
        raise MSValueError(f"For 'Swiglu', the size of 'input' along 'dim' must be even, but got shape {input.shape}.")
    a, b = _array.split(input, input.shape[axis] // 2, axis)
    return _math.mul(_math.mul(a, _nn.sigmoid(a)), b)


def rotary_position_embedding(x, cos, sin, mode=0):
    """Rotary position embedding ``x * cos + rotate(x) * sin``: ``mode`` 0 rotates halves
    (``rotate(x) = concat(-x2, x1)``), ``mode`` 1 rotates interleaved pairs (``(x0, x1) -> (-x1, x0)``).

    Examples:
        >>> out = ops.rotary_position_embedding(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0, 1.0]]),
        ...                                     ms.Tensor([[0.0, 0.0]]))
        >>> print(out)
        [[1. 2.]]
    """
    _check_float("RotaryPositionEmbedding", "x", x)
    if mode not in (0, 1):
        raise MSValueError(f"For 'RotaryPositionEmbedding', the 'mode' must be 0 or 1, but got {mode}.")
    d = x.shape[-1]
    if d % 2:
        raise MSValueError(f"For 'RotaryPositionEmbedding', the last dimension of 'x' must be even, but got {d}.")
    if mode == 0:
        x1, x2 = _array.split(x, d // 2, -1)
        rotated = _array.concat((_math.neg(x2), x1), -1)
    else:
        pairs = _array.reshape(x, tuple(x.shape[:-1]) + (d // 2, 2))
        even, odd = _array.split(pairs, 1, -1)
        rotated = _array.reshape(_array.concat((_math.neg(odd), even), -1), x.shape)
    return _math.add(_math.mul(x, cos), _math.mul(rotated, sin))


# --- detection helpers -------------------------------------------------------------------------------------
def _boxes(b):
    x1, y1, x2, y2 = _array.split(b, 1, -1)
    w = _math.add(_math.sub(x2, x1), 1.0)
    h = _math.add(_math.sub(y2, y1), 1.0)
    return _math.add(x1, _math.mul(_math.sub(w, 1.0), 0.5)), _math.add(y1, _math.mul(_math.sub(h, 1.0), 0.5)), w, h


def _quad(op, name, v):
    if not isinstance(v, (tuple, list)) or len(v) != 4:
        raise MSTypeError(f"For '{op}', the '{name}' must be a tuple of 4 floats, but got {v}.")
    return Tensor(_np.asarray(v, _np.float32))


def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
    """The deltas ``(dx, dy, dw, dh)`` (normalised by ``means``/``stds``) that move each anchor box
    ``(x1, y1, x2, y2)`` onto its ground-truth box.

    Examples:
        >>> out = ops.bounding_box_encode(ms.Tensor([[2.0, 2.0, 2.0, 3.0]]), ms.Tensor([[1.0, 2.0, 1.0, 4.0]]))
        >>> print(out)
        [[-1.          0.25        0.          0.40546513]]
    """
    _check_float("BoundingBoxEncode", "anchor_box", anchor_box)
    _check_float("BoundingBoxEncode", "groundtruth_box", groundtruth_box)
    m, s = _quad("BoundingBoxEncode", "means", means), _quad("BoundingBoxEncode", "stds", stds)
    px, py, pw, ph = _boxes(anchor_box)
    gx, gy, gw, gh = _boxes(groundtruth_box)
    deltas = _array.concat((_math.div(_math.sub(gx, px), pw), _math.div(_math.sub(gy, py), ph),
                            _math.log(_math.div(gw, pw)), _math.log(_math.div(gh, ph))), -1)
    return _math.div(_math.sub(deltas, _array.cast(m, deltas.dtype)), _array.cast(s, deltas.dtype))


def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip=0.016):
    """The boxes ``(x1, y1, x2, y2)`` the ``deltas`` make of the anchor boxes, clipped to the image
    ``max_shape = (height, width)``; ``|dw|, |dh|`` are clipped to ``|log(wh_ratio_clip)|``.

    Examples:
        >>> out = ops.bounding_box_decode(ms.Tensor([[4.0, 1.0, 2.0, 1.0]]), ms.Tensor([[3.0, 1.0, 2.0, 2.0]]),
        ...                               (768, 1280))
        >>> print(out.shape)
        (1, 4)
    """
    _check_float("BoundingBoxDecode", "anchor_box", anchor_box)
    _check_float("BoundingBoxDecode", "deltas", deltas)
    if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2:
        raise MSValueError(f"For 'BoundingBoxDecode', the 'max_shape' must be (height, width), but got {max_shape}.")
    m, s = _quad("BoundingBoxDecode", "means", means), _quad("BoundingBoxDecode", "stds", stds)
    d = _math.add(_math.mul(deltas, _array.cast(s, deltas.dtype)), _array.cast(m, deltas.dtype))
    dx, dy, dw, dh = _array.split(d, 1, -1)
    limit = abs(_pymath.log(wh_ratio_clip))
    dw, dh = _math.clamp(dw, -limit, limit), _math.clamp(dh, -limit, limit)
    px, py, pw, ph = _boxes(anchor_box)
    gw, gh = _math.mul(pw, _math.exp(dw)), _math.mul(ph, _math.exp(dh))
    gx, gy = _math.add(px, _math.mul(pw, dx)), _math.add(py, _math.mul(ph, dy))
    half_w, half_h = _math.mul(gw, 0.5), _math.mul(gh, 0.5)
    x1 = _math.clamp(_math.add(_math.sub(gx, half_w), 0.5), 0.0, float(max_shape[1] - 1))
    y1 = _math.clamp(_math.add(_math.sub(gy, half_h), 0.5), 0.0, float(max_shape[0] - 1))
    x2 = _math.clamp(_math.sub(_math.add(gx, half_w), 0.5), 0.0, float(max_shape[1] - 1))
    y2 = _math.clamp(_math.sub(_math.add(gy, half_h), 0.5), 0.0, float(max_shape[0] - 1))
    return _array.concat((x1, y1, x2, y2), -1)


def check_valid(bboxes, img_metas):
    """Whether each box ``(x1, y1, x2, y2)`` lies in the image ``img_metas = (height, width, ratio)``:
    ``x1, y1 >= 0``, ``x2 <= width * ratio - 1``, ``y2 <= height * ratio - 1``.

    Examples:
        >>> boxes = ms.Tensor([[20.0, 20.0, 50.0, 50.0], [10.0, 10.0, 100.0, 100.0]])
        >>> print(ops.check_valid(boxes, ms.Tensor([80.0, 90.0, 1.0])))
        [ True False]
    """
    _check_tensor("CheckValid", "bboxes", bboxes)
    _check_tensor("CheckValid", "img_metas", img_metas)
    if bboxes.ndim != 2 or bboxes.shape[1] != 4 or tuple(img_metas.shape) != (3,):
        raise MSValueError(f"For 'CheckValid', 'bboxes' must be (N, 4) and 'img_metas' (3,), but got {bboxes.shape} "
                           f"and {img_metas.shape}.")
    b = _array.cast(bboxes, mstype.float32)
    meta = _array.cast(img_metas, mstype.float32)
    height, width, ratio = _array.split(meta, 1, 0)
    x1, y1, x2, y2 = (_array.squeeze(t, 1) for t in _array.split(b, 1, 1))
    ok = _math.logical_and(_math.greater_equal(x1, 0.0), _math.greater_equal(y1, 0.0))
    ok = _math.logical_and(ok, _math.less_equal(x2, _math.sub(_math.mul(width, ratio), 1.0)))
    return _math.logical_and(ok, _math.less_equal(y2, _math.sub(_math.mul(height, ratio), 1.0)))


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0):
    """Crops of the NHWC ``image`` at the normalised boxes ``(y1, x1, y2, x2)`` resized to ``crop_size``
    (``'bilinear'`` or ``'nearest'``); samples outside the image take ``extrapolation_value``.

    Examples:
        >>> import numpy as np
        >>> img = ms.Tensor(np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2))
        >>> out = ops.crop_and_resize(img, ms.Tensor([[0.0, 0.0, 1.0, 1.0]]), ms.Tensor([0], ms.int32), (2, 3))
        >>> print(out.shape)
        (1, 2, 3, 2)
    """
    _check_tensor("CropAndResize", "image", image)
    if method not in ("bilinear", "nearest", "bilinear_v2"):
        raise MSValueError(f"For 'CropAndResize', the 'method' must be 'bilinear', 'nearest' or 'bilinear_v2', but "
                           f"got {method!r}.")
    if image.ndim != 4 or boxes.ndim != 2 or boxes.shape[1] != 4:
        raise MSValueError(f"For 'CropAndResize', 'image' must be 4-D and 'boxes' (N, 4), but got {image.shape} and "
                           f"{boxes.shape}.")
    ch, cw = (int(v) for v in crop_size)
    _, height, width, _ = image.shape
    b = _array.cast(boxes, mstype.float32)
    y1, x1, y2, x2 = _array.split(b, 1, 1)                       # (N, 1) each
    steps_h = Tensor(_np.arange(ch, dtype=_np.float32)[None, :])
    steps_w = Tensor(_np.arange(cw, dtype=_np.float32)[None, :])

    def coords(lo, hi, size, steps, n):
        if n > 1:
            return _math.add(_math.mul(lo, size - 1.0), _math.mul(steps, _math.mul(_math.sub(hi, lo),
                                                                                   (size - 1.0) / (n - 1))))
        return _math.mul(_math.add(lo, hi), 0.5 * (size - 1.0))

    ys, xs = coords(y1, y2, height, steps_h, ch), coords(x1, x2, width, steps_w, cw)   # (N, ch), (N, cw)
    inside = _math.logical_and(
        _array.expand_dims(_math.logical_and(_math.greater_equal(ys, 0.0), _math.less_equal(ys, height - 1.0)), 2),
        _array.expand_dims(_math.logical_and(_math.greater_equal(xs, 0.0), _math.less_equal(xs, width - 1.0)), 1))
    img = _array.cast(image, mstype.float32)
    batch = _array.cast(box_indices, mstype.int32)

    def sample(yi, xi):
        """image[box_index, yi, xi, :] for integer grids yi (N, ch), xi (N, cw): (N, ch, cw, C)."""
        yi = _math.clamp(yi, 0, height - 1)
        xi = _math.clamp(xi, 0, width - 1)
        flat = _math.add(_math.mul(_array.expand_dims(yi, 2), width), _array.expand_dims(xi, 1))
        per_box = _array.gather(_array.reshape(img, (img.shape[0], height * width, img.shape[3])), batch, 0)
        idx = _array.reshape(flat, (flat.shape[0], ch * cw, 1))
        got = _array.gather_elements(per_box, 1, _array.broadcast_to(idx, (flat.shape[0], ch * cw, img.shape[3])))
        return _array.reshape(got, (flat.shape[0], ch, cw, img.shape[3]))

    if method == "nearest":
        out = sample(_array.cast(_math.round(ys), mstype.int32), _array.cast(_math.round(xs), mstype.int32))
    else:
        y0, x0 = _math.floor(ys), _math.floor(xs)
        dy = _array.expand_dims(_array.expand_dims(_math.sub(ys, y0), 2), 3)
        dx = _array.expand_dims(_array.expand_dims(_math.sub(xs, x0), 1), 3)
        y0i, x0i = _array.cast(y0, mstype.int32), _array.cast(x0, mstype.int32)
        top = _math.add(sample(y0i, x0i), _math.mul(_math.sub(sample(y0i, x0i + 1), sample(y0i, x0i)), dx))
        bottom = _math.add(sample(y0i + 1, x0i),
                           _math.mul(_math.sub(sample(y0i + 1, x0i + 1), sample(y0i + 1, x0i)), dx))
        out = _math.add(top, _math.mul(_math.sub(bottom, top), dy))
    fill = _array.fill(mstype.float32, out.shape, float(extrapolation_value))
    return _array.select(_array.broadcast_to(_array.expand_dims(inside, 3), out.shape), out, fill)


# --- grids, activations, losses ----------------------------------------------------------------------------
def _base_coords(n, align_corners):
    if align_corners:
        return _np.linspace(-1.0, 1.0, n) if n > 1 else _np.zeros(1)
    return (2.0 * _np.arange(n) + 1.0) / n - 1.0


def affine_grid(theta, size, align_corners=False):
    """The sampling grid of the affine maps ``theta`` (N, 2, 3) for ``size = (N, C, H, W)`` — (N, H, W, 2) —
    or of ``theta`` (N, 3, 4) for ``(N, C, D, H, W)`` — (N, D, H, W, 3); coordinates in [-1, 1].

    Examples:
        >>> grid = ops.affine_grid(ms.Tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]), (1, 1, 2, 2))
        >>> print(grid.shape)
        (1, 2, 2, 2)
    """
    _check_float("AffineGrid", "theta", theta)
    size = tuple(int(s) for s in size)
    spatial = len(size) - 2
    if spatial not in (2, 3) or tuple(theta.shape) != (size[0], spatial, spatial + 1):
        raise MSValueError(f"For 'AffineGrid', 'theta' must be (N, {spatial}, {spatial + 1}) for size {size}, but "
                           f"got {theta.shape}.")
    axes = [_base_coords(n, align_corners) for n in size[2:]]
    mesh = _np.meshgrid(*axes, indexing="ij")       # per spatial dim (D,) H, W
    coords = [mesh[i] for i in range(spatial - 1, -1, -1)]    # x first, then y (then z)
    base = _np.stack(coords + [_np.ones_like(mesh[0])], -1).reshape(-1, spatial + 1)
    base_t = _array.cast(Tensor(base.astype(_np.float32)), theta.dtype)
    grid = _math.matmul(_array.broadcast_to(base_t, (size[0],) + tuple(base.shape)), _array.swapaxes(theta, 1, 2))
    return _array.reshape(grid, (size[0],) + size[2:] + (spatial,))


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):
    """Randomized leaky ReLU: negative elements times a slope drawn uniformly from ``[lower, upper]``.

    Examples:
        >>> print(ops.rrelu(ms.Tensor([-1.0, 2.0]), 0.25, 0.25))
        [-0.25  2.  ]
    """
    _check_float("RReLU", "input", input)
    if lower > upper:
        raise MSValueError(f"For 'rrelu', the 'upper' must be greater than or equal to 'lower', but got "
                           f"lower {lower} and upper {upper}.")
    slope = _random.uniform(tuple(input.shape), Tensor(float(lower), mstype.float32),
                            Tensor(float(upper), mstype.float32))
    scaled = _math.mul(input, _array.cast(slope, input.dtype))
    return _array.select(_math.greater_equal(input, 0), input, scaled)


def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1):
    """A sample of the Gumbel-softmax distribution ``softmax((logits + g) / tau)`` (``g`` Gumbel noise);
    ``hard``: the one-hot of its argmax with the soft sample's gradient (straight-through).

    Examples:
        >>> out = ops.gumbel_softmax(ms.Tensor([[0.1, 0.5, 2.0]]), 1.0, True)
        >>> print(out.sum())
        1.0
    """
    _check_float("gumbel_softmax", "logits", logits)
    if tau <= 0:
        raise MSValueError(f"For 'gumbel_softmax', the 'tau' must be greater than 0, but got {tau}.")
    u = _random.uniform(tuple(logits.shape), Tensor(1e-10, mstype.float32), Tensor(1.0, mstype.float32))
    gumbel = _math.neg(_math.log(_math.neg(_math.log(_array.cast(u, logits.dtype)))))
    soft = _nn.softmax(_math.div(_math.add(logits, gumbel), tau), dim)
    if not hard:
        return soft
    index = _reduce.argmax(soft, dim, True)
    one_hot = _array.tensor_scatter_elements(_array.zeros_like(soft), index, _array.ones_like(index, dtype=soft.dtype),
                                             dim % soft.ndim)
    return _math.add(_math.sub(one_hot, _array.stop_gradient(soft)), soft)


def multilabel_margin_loss(input, target, reduction="mean"):
    """Multi-class multi-label hinge loss: per sample, ``sum_{j in targets, i not in targets} max(0, 1 -
    (x[j] - x[i])) / C``; ``target`` lists class indices, ended by the first -1.

    Examples:
        >>> x = ms.Tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> print(ops.multilabel_margin_loss(x, ms.Tensor([[3, 0, -1, 1]], ms.int32)))
        0.85
    """
    _check_float("MultilabelMarginLoss", "input", input)
    _check_tensor("MultilabelMarginLoss", "target", target)
    if reduction not in ("none", "mean", "sum"):
        raise MSValueError(f"For 'MultilabelMarginLoss', the 'reduction' must be 'none', 'mean' or 'sum', but got "
                           f"{reduction!r}.")
    if tuple(input.shape) != tuple(target.shape) or input.ndim not in (1, 2):
        raise MSValueError(f"For 'MultilabelMarginLoss', 'input' and 'target' must have one shape (C,) or (N, C), "
                           f"but got {input.shape} and {target.shape}.")
    x = input if input.ndim == 2 else _array.expand_dims(input, 0)
    t = _array.cast(target if target.ndim == 2 else _array.expand_dims(target, 0), mstype.int32)
    n_classes = x.shape[1]
    valid = _array.cast(_reduce.cummin(_array.cast(_math.not_equal(t, -1), mstype.int32), 1)[0], x.dtype)  # (N, C)
    safe_t = _array.select(_math.greater_equal(t, 0), t, _array.zeros_like(t))
    hot = _math.mul(_array.one_hot(safe_t, n_classes, 1.0, 0.0), _array.expand_dims(valid, 2))   # (N, T, C)
    is_target = _reduce.reduce_max(hot, 1)                                                      # (N, C)
    x_t = _array.gather_elements(x, 1, safe_t)                                                  # (N, T)
    margins = _nn.relu(_math.add(_math.sub(1.0, _array.expand_dims(x_t, 2)), _array.expand_dims(x, 1)))
    weight = _math.mul(_array.expand_dims(valid, 2), _array.expand_dims(_math.sub(1.0, is_target), 1))
    loss = _math.div(_reduce.reduce_sum(_math.mul(margins, _array.cast(weight, x.dtype)), (1, 2)), float(n_classes))
    if input.ndim == 1:
        loss = _array.squeeze(loss, 0)
    if reduction == "mean":
        return _reduce.reduce_mean(loss)
    if reduction == "sum":
        return _reduce.reduce_sum(loss)
    return loss


def _pair_arg(op, name, v):
    if isinstance(v, Tensor):
        v = v.asnumpy().reshape(-1).tolist()
    v = [v, v] if isinstance(v, int) else list(v)
    if len(v) == 1:
        v = v * 2
    if len(v) != 2:
        raise MSValueError(f"For '{op}', the '{name}' must be an int or a pair of ints, but got {v}.")
    return tuple(int(a) for a in v)


def col2im(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """Sum the sliding blocks ``input_x`` (N, C, kh*kw, L) back into images (N, C, H, W) of ``output_size``.

    Examples:
        >>> import numpy as np
        >>> x = ms.Tensor(np.ones((1, 1, 4, 4), np.float32))
        >>> print(ops.col2im(x, ms.Tensor([3, 3], ms.int32), [2, 2], [1, 1], [0, 0], [1, 1])[0, 0])
        [[1. 2. 1.]
         [2. 4. 2.]
         [1. 2. 1.]]
    """
    _check_tensor("Col2Im", "input_x", input_x)
    if input_x.ndim != 4:
        raise MSValueError(f"For 'Col2Im', the 'input_x' must be 4-D (N, C, kh*kw, L), but got {input_x.shape}.")
    size = _pair_arg("Col2Im", "output_size", output_size)
    kernel = _pair_arg("Col2Im", "kernel_size", kernel_size)
    if input_x.shape[2] != kernel[0] * kernel[1]:
        raise MSValueError(f"For 'Col2Im', input_x.shape[2] must be kernel_size[0] * kernel_size[1] = "
                           f"{kernel[0] * kernel[1]}, but got {input_x.shape[2]}.")
    n, c, kk, length = input_x.shape
    folded = _array.reshape(input_x, (n, c * kk, length))
    return _higher.get("mint_functional").fold(folded, size, kernel, _pair_arg("Col2Im", "dilation", dilation),
                                               _pair_arg("Col2Im", "padding_value", padding_value),
                                               _pair_arg("Col2Im", "stride", stride))


def _max_unpool_nd(op, spatial, x, indices, kernel_size, stride, padding, output_size):
    _check_tensor(op, "x", x)
    _check_tensor(op, "indices", indices)
    if x.ndim not in (spatial + 1, spatial + 2) or tuple(indices.shape) != tuple(x.shape):
        raise MSValueError(f"For '{op}', 'x' must be {spatial + 1}-D or {spatial + 2}-D and 'indices' of its shape, "
                           f"but got {x.shape} and {indices.shape}.")

    def tup(v, default):
        v = default if v is None else v
        return (v,) * spatial if isinstance(v, int) else tuple(v)
    k = tup(kernel_size, None)
    s = tup(stride, kernel_size)
    p = tup(padding, 0)
    sizes = x.shape[-spatial:]
    if output_size is None or len(output_size) == 0:
        out = tuple((sizes[i] - 1) * s[i] - 2 * p[i] + k[i] for i in range(spatial))
    else:
        out = tuple(int(v) for v in tuple(output_size)[-spatial:])
    lead = tuple(x.shape[:-spatial])
    total = int(_np.prod(out))
    flat_x = _array.reshape(x, lead + (-1,))
    flat_i = _array.reshape(_array.cast(indices, mstype.int32), lead + (-1,))
    zeros = _array.zeros(lead + (total,), x.dtype)
    res = _array.tensor_scatter_elements(zeros, flat_i, flat_x, len(lead))
    return _array.reshape(res, lead + out)


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of ``max_pool1d``: the values placed at their argmax ``indices``, zeros elsewhere.

    Examples:
        >>> x = ms.Tensor([[[2.0, 4.0, 6.0]]])
        >>> print(ops.max_unpool1d(x, ms.Tensor([[[1, 3, 4]]], ms.int64), 2))
        [[[0. 2. 0. 4. 6. 0.]]]
    """
    return _max_unpool_nd("MaxUnpool1D", 1, x, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of ``max_pool3d``: the values placed at their argmax ``indices`` (flat over D*H*W)."""
    return _max_unpool_nd("MaxUnpool3D", 3, x, indices, kernel_size, stride, padding, output_size)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    """The Kaiser window ``I0(beta * sqrt(1 - (2n/(N-1) - 1)^2)) / I0(beta)`` (``periodic``: of length
    ``window_length + 1`` without its last point); float64 unless ``dtype`` says otherwise, as MindSpore 2.10.

    Examples:
        >>> print(ops.kaiser_window(3, False, 0.0))
        [1. 1. 1.]
    """
    if isinstance(window_length, bool) or not isinstance(window_length, int) or window_length < 0:
        raise MSValueError(f"For 'kaiser_window', the 'window_length' must be a non-negative int, but got "
                           f"{window_length}.")
    dtype = mstype.float64 if dtype is None else dtype
    if dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise MSTypeError(f"For 'kaiser_window', the 'dtype' must be float16, float32 or float64, but got {dtype}.")
    if window_length <= 1:
        return _array.ones((window_length,), dtype)
    n = window_length + 1 if periodic else window_length
    ratio = 2.0 * _np.arange(n) / (n - 1) - 1.0
    arg = Tensor(float(beta) * _np.sqrt(_np.maximum(0.0, 1.0 - ratio * ratio)), mstype.float64)
    window = _math.div(_special.bessel_i0(arg), _special.bessel_i0(Tensor(float(beta), mstype.float64)))
    if periodic:
        window = _array.narrow(window, 0, 0, window_length)
    return _array.cast(window, dtype)


# --- CTC -------------------------------------------------------------------------------------------------------
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """The CTC loss of ``log_probs`` (T, N, C) against the padded ``targets`` (N, S): ``(loss, log_alpha)``;
    ``'mean'`` averages each sample's loss divided by its target length (at least 1).

    Examples:
        >>> import numpy as np
        >>> lp = ms.Tensor(np.log(np.full((3, 1, 3), 1 / 3, np.float32)))
        >>> loss, _ = ops.ctc_loss(lp, ms.Tensor([[1]], ms.int32), ms.Tensor([3], ms.int32), ms.Tensor([1], ms.int32))
        >>> print(loss.shape)
        ()
    """
    _check_float("CTCLossV2", "log_probs", log_probs)
    if reduction not in ("none", "mean", "sum"):
        raise MSValueError(f"For 'ctc_loss', the 'reduction' must be 'none', 'mean' or 'sum', but got {reduction!r}.")
    loss, log_alpha = _ctc_defs.CTCLossV2(blank, "none", zero_infinity)(log_probs, targets, input_lengths,
                                                                         target_lengths)
    if reduction == "sum":
        return _reduce.reduce_sum(loss), log_alpha
    if reduction == "mean":
        lengths = _math.clamp(_array.cast(target_lengths, loss.dtype), 1.0)
        return _reduce.reduce_mean(_math.div(loss, lengths)), log_alpha
    return loss, log_alpha


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True):
    """Greedy (best-path) CTC decoding of ``inputs`` (T, N, C), blank = C - 1: ``(decoded_indices,
    decoded_values, decoded_shape, log_probability)`` (a sparse tensor and the path scores).

    Examples:
        >>> import numpy as np
        >>> x = ms.Tensor(np.log(np.array([[[0.1, 0.8, 0.1]], [[0.7, 0.2, 0.1]]], np.float32)))
        >>> out = ops.ctc_greedy_decoder(x, ms.Tensor([2], ms.int32))
        >>> print(out[1])
        [1 0]
    """
    return _ctc_defs.CTCGreedyDecoder(merge_repeated)(inputs, sequence_length)
