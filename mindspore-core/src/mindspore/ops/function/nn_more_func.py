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

import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import ctc as _ctc_defs
from mindspore.ops._defs import image as _image
from mindspore.ops._defs import nn_prims as _nn_prims
from mindspore.ops._defs import nn_prims_ext as _nn_prims_ext
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math
from mindspore.ops.function import nn_func as _nn
from mindspore.ops.function import nn_prims_func as _nn_prims_func
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
    _norm_axes("RmsNorm", x, gamma)
    return _nn_prims.RmsNorm(epsilon)(x, _array.cast(gamma, x.dtype))


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
def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
    """The deltas ``(dx, dy, dw, dh)`` (normalised by ``means``/``stds``) that move each anchor box
    ``(x1, y1, x2, y2)`` onto its ground-truth box (:class:`mindspore.ops.BoundingBoxEncode`).

    Examples:
        >>> out = ops.bounding_box_encode(ms.Tensor([[2.0, 2.0, 2.0, 3.0]]), ms.Tensor([[1.0, 2.0, 1.0, 4.0]]))
        >>> print(out)
        [[-1.          0.25        0.          0.40546513]]
    """
    _check_float("BoundingBoxEncode", "anchor_box", anchor_box)
    _check_float("BoundingBoxEncode", "groundtruth_box", groundtruth_box)
    return _image.BoundingBoxEncode(tuple(means), tuple(stds))(anchor_box, groundtruth_box)


def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip=0.016):
    """The boxes ``(x1, y1, x2, y2)`` the ``deltas`` make of the anchor boxes, clipped to ``[0, width]`` and
    ``[0, height]`` of ``max_shape = (height, width)``; ``|dw|, |dh|`` are clipped to ``|log(wh_ratio_clip)|``
    (:class:`mindspore.ops.BoundingBoxDecode`).

    Examples:
        >>> out = ops.bounding_box_decode(ms.Tensor([[4.0, 1.0, 2.0, 1.0]]), ms.Tensor([[3.0, 1.0, 2.0, 2.0]]),
        ...                               (768, 1280))
        >>> print(out.shape)
        (1, 4)
    """
    _check_float("BoundingBoxDecode", "anchor_box", anchor_box)
    _check_float("BoundingBoxDecode", "deltas", deltas)
    return _image.BoundingBoxDecode(max_shape, tuple(means), tuple(stds), wh_ratio_clip)(anchor_box, deltas)


def check_valid(bboxes, img_metas):
    """Whether each box ``(x1, y1, x2, y2)`` lies in the image ``img_metas = (height, width, ratio)``:
    ``x1, y1 >= 0``, ``x2 <= width * ratio - 1``, ``y2 <= height * ratio - 1`` (:class:`mindspore.ops.CheckValid`).

    Examples:
        >>> boxes = ms.Tensor([[20.0, 20.0, 50.0, 50.0], [10.0, 10.0, 100.0, 100.0]])
        >>> print(ops.check_valid(boxes, ms.Tensor([80.0, 90.0, 1.0])))
        [ True False]
    """
    _check_tensor("CheckValid", "bboxes", bboxes)
    _check_tensor("CheckValid", "img_metas", img_metas)
    return _image.CheckValid()(bboxes, img_metas)


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0):
    """Crops of the NHWC ``image`` at the normalised boxes ``(y1, x1, y2, x2)`` resized to ``crop_size``
    (``'bilinear'`` or ``'nearest'``); samples outside the image take ``extrapolation_value``
    (:class:`mindspore.ops.CropAndResize`).

    Examples:
        >>> import numpy as np
        >>> img = ms.Tensor(np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2))
        >>> out = ops.crop_and_resize(img, ms.Tensor([[0.0, 0.0, 1.0, 1.0]]), ms.Tensor([0], ms.int32), (2, 3))
        >>> print(out.shape)
        (1, 2, 3, 2)
    """
    _check_tensor("CropAndResize", "image", image)
    return _image.CropAndResize(method, float(extrapolation_value))(image, boxes, box_indices, tuple(crop_size))


# --- grids, activations, losses ----------------------------------------------------------------------------
def affine_grid(theta, size, align_corners=False):
    """The sampling grid of the affine maps ``theta`` (N, 2, 3) for ``size = (N, C, H, W)`` — (N, H, W, 2) —
    or of ``theta`` (N, 3, 4) for ``(N, C, D, H, W)`` — (N, D, H, W, 3); coordinates in [-1, 1]
    (:class:`mindspore.ops.AffineGrid`).

    Examples:
        >>> grid = ops.affine_grid(ms.Tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]), (1, 1, 2, 2))
        >>> print(grid.shape)
        (1, 2, 2, 2)
    """
    _check_float("AffineGrid", "theta", theta)
    return _image.AffineGrid(align_corners)(theta, tuple(int(s) for s in size))


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
    return _nn_prims_ext.MultilabelMarginLoss(reduction)(input, _array.cast(target, mstype.int32))[0]


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
    """Sum the sliding blocks ``input_x`` (N, C, kh*kw, L) back into images (N, C, H, W) of ``output_size``
    (:class:`mindspore.ops.Col2Im`).

    Examples:
        >>> import numpy as np
        >>> x = ms.Tensor(np.ones((1, 1, 4, 4), np.float32))
        >>> print(ops.col2im(x, ms.Tensor([3, 3], ms.int32), [2, 2], [1, 1], [0, 0], [1, 1])[0, 0])
        [[1. 2. 1.]
         [2. 4. 2.]
         [1. 2. 1.]]
    """
    _check_tensor("Col2Im", "input_x", input_x)
    return _image.Col2Im(_pair_arg("Col2Im", "kernel_size", kernel_size), _pair_arg("Col2Im", "dilation", dilation),
                         _pair_arg("Col2Im", "padding_value", padding_value),
                         _pair_arg("Col2Im", "stride", stride))(input_x, _pair_arg("Col2Im", "output_size",
                                                                                    output_size))


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
    """Partial inverse of ``max_pool3d``: the values placed at their argmax ``indices`` (flat over D*H*W)
    (:class:`mindspore.ops.MaxUnpool3D`)."""
    return _nn_prims_func.max_unpool_nd(_nn_prims.MaxUnpool3D, 3, x, indices, kernel_size, stride, padding,
                                        output_size)


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
