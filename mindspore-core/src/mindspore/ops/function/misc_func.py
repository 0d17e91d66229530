"""Further MindSpore 2.10 functional ops: the in-place ``scatter_*`` family on Parameters, window functions,
Cholesky factorization and solves, ``iou``, ``lp_pool1d/2d``, ``pdist`` and a few losses and predicates.

Compositions of existing primitives (eager, ``@ms.jit`` and autodiff alike). The ``scatter_*`` functions
compute the result with the ``tensor_scatter_*`` compositions and, when ``input_x`` is a Parameter, write it
back with ``Assign`` (MindSpore updates the Parameter and returns it); for a plain Tensor they return the
result. ``cholesky`` is the column-by-column Cholesky-Banachiewicz recurrence (differentiable through its
square roots and divisions); the solves are two triangular substitutions (``mint.linalg``'s).
"""
import builtins
import math as _pymath

import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore._core import interpreters as _interpreters
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math
from mindspore.ops.function import reduce_func as _reduce
from mindspore.ops.function import segment_func as _seg
from mindspore.ops import _higher
from mindspore.ops._defs import image as _image
from mindspore.ops._defs import math_prims as _math_prims
from mindspore.ops._defs.array import cached_prim
from mindspore.ops._defs import nn_prims as _nn_prims
from mindspore.ops._defs import nn_prims_ext as _nn_prims_ext
from mindspore.ops.function import nn_prims_func as _nn_prims_func

__all__ = [
    "scatter_add", "scatter_update", "scatter_max", "scatter_min", "scatter_mul", "scatter_div",
    "scatter_nd_add", "scatter_nd_sub", "scatter_nd_mul", "scatter_nd_div", "scatter_nd_max", "scatter_nd_min",
    "hann_window", "hamming_window", "is_nonzero", "unique_with_pad", "intopk", "approximate_equal", "iou",
    "cholesky", "cholesky_inverse", "cholesky_solve", "lp_pool1d", "lp_pool2d", "pdist", "ger",
    "multilabel_soft_margin_loss", "multi_margin_loss", "unfold", "fold", "grid_sample", "adaptive_avg_pool3d",
    "max_unpool2d", "mirror_pad", "bartlett_window", "blackman_window", "nanmedian", "lrn", "quantile",
    "nanquantile", "triplet_margin_loss", "embedding",
]

_FLOATS = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def _check_tensor(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")


def _write_back(input_x, result):
    """Write ``result`` into ``input_x`` when it is a Parameter. What the op returns then is, as in 2.10's
    PYNATIVE, a Tensor over the Parameter's updated buffer (not the Parameter: it prints as values); a graph being
    staged gets the Parameter itself."""
    if isinstance(input_x, Parameter):
        _array.assign(input_x, result)
        if _interpreters.find("staging"):
            return input_x
        return Tensor._make(input_x._data, input_x._dtype)
    return result


def _rows(indices):
    return _array.expand_dims(indices, -1)


def scatter_add(input_x, indices, updates):
    """Add ``updates`` to the rows ``indices`` of ``input_x`` (a Parameter is updated in place; its new values are returned)."""
    return _write_back(input_x, _array.tensor_scatter_add(input_x, _rows(indices), updates))


def scatter_update(input_x, indices, updates):
    """Set the rows ``indices`` of ``input_x`` to ``updates``."""
    return _write_back(input_x, _array.tensor_scatter_update(input_x, _rows(indices), updates))


def scatter_max(input_x, indices, updates):
    """``max(input_x[indices], updates)`` into the rows ``indices``."""
    return _write_back(input_x, _seg.tensor_scatter_max(input_x, _rows(indices), updates))


def scatter_min(input_x, indices, updates):
    """``min(input_x[indices], updates)`` into the rows ``indices``."""
    return _write_back(input_x, _seg.tensor_scatter_min(input_x, _rows(indices), updates))


def scatter_mul(input_x, indices, updates):
    """Multiply the rows ``indices`` of ``input_x`` by ``updates``."""
    return _write_back(input_x, _seg.tensor_scatter_mul(input_x, _rows(indices), updates))


def _int_div(x, y):
    """MindSpore's integer ScatterDiv truncates (7 / 2 = 3)."""
    return _math.truncate_div(x, y)


def scatter_div(input_x, indices, updates):
    """Divide the rows ``indices`` of ``input_x`` by ``updates`` (integer division truncates)."""
    if isinstance(input_x, Tensor) and input_x.dtype not in _FLOATS:
        flat, pos, upd, p = _seg._linear_positions("ScatterDiv", input_x, _rows(indices), updates)
        result = _array.reshape(_int_div(flat, _seg.unsorted_segment_prod(upd, pos, p)), input_x.shape)
        return _write_back(input_x, result)
    return _write_back(input_x, _seg.tensor_scatter_div(input_x, _rows(indices), updates))


def scatter_nd_add(input_x, indices, updates, use_locking=False):
    """Add ``updates`` at the index rows ``indices`` (last dimension: coordinates) of ``input_x``."""
    return _write_back(input_x, _array.tensor_scatter_add(input_x, indices, updates))


def scatter_nd_sub(input_x, indices, updates, use_locking=False):
    """Subtract ``updates`` at the index rows ``indices``."""
    return _write_back(input_x, _seg.tensor_scatter_sub(input_x, indices, updates))


def scatter_nd_mul(input_x, indices, updates, use_locking=False):
    """Multiply by ``updates`` at the index rows ``indices``."""
    return _write_back(input_x, _seg.tensor_scatter_mul(input_x, indices, updates))


def scatter_nd_div(input_x, indices, updates, use_locking=False):
    """Divide by ``updates`` at the index rows ``indices``."""
    return _write_back(input_x, _seg.tensor_scatter_div(input_x, indices, updates))


def scatter_nd_max(input_x, indices, updates, use_locking=False):
    """``max`` with ``updates`` at the index rows ``indices``."""
    return _write_back(input_x, _seg.tensor_scatter_max(input_x, indices, updates))


def scatter_nd_min(input_x, indices, updates, use_locking=False):
    """``min`` with ``updates`` at the index rows ``indices``."""
    return _write_back(input_x, _seg.tensor_scatter_min(input_x, indices, updates))


def _window(op, window_length, periodic, dtype, default, coeffs):
    if not isinstance(window_length, int) or isinstance(window_length, bool) or window_length < 0:
        raise MSValueError(f"For '{op}', the 'window_length' must be a non-negative int, but got {window_length}.")
    if not isinstance(periodic, bool):
        raise MSTypeError(f"For '{op}', the 'periodic' must be a bool, but got {type(periodic).__name__}.")
    dtype = default if dtype is None else dtype
    if dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise MSTypeError(f"For '{op}', the 'dtype' must be float16, float32 or float64, but got {dtype}.")
    if window_length <= 1:
        return _array.ones((window_length,), dtype)
    denom = window_length if periodic else window_length - 1
    t = _math.mul(_array.arange(window_length, dtype=mstype.float64), 2.0 * _pymath.pi / denom)
    out = _array.full((window_length,), coeffs[0], dtype=mstype.float64)
    for k, c in enumerate(coeffs[1:], 1):
        out = _math.add(out, _math.mul(_math.cos(_math.mul(t, float(k))), c))
    return _array.cast(out, dtype)


def hann_window(window_length, periodic=True, *, dtype=None):
    """Hann window ``0.5 - 0.5 cos(2 pi n / N)`` (Float64 by default, as MindSpore 2.10 gives)."""
    return _window("hann_window", window_length, periodic, dtype, mstype.float64, (0.5, -0.5))


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    """Hamming window ``alpha - beta cos(2 pi n / N)`` (Float32 by default; :class:`mindspore.ops.HammingWindow`)."""
    if not isinstance(window_length, int) or isinstance(window_length, bool) or window_length < 0:
        raise MSValueError(f"For 'hamming_window', the 'window_length' must be a non-negative int, but got "
                           f"{window_length}.")
    if not isinstance(periodic, bool):
        raise MSTypeError(f"For 'hamming_window', the 'periodic' must be a bool, but got {type(periodic).__name__}.")
    prim = _image.HammingWindow(periodic, float(alpha), float(beta), mstype.float32 if dtype is None else dtype)
    return prim(Tensor(_np.array([window_length], _np.int64)))


def is_nonzero(input):
    """Whether the single element of ``input`` is non-zero (a Python bool)."""
    _check_tensor("is_nonzero", "input", input)
    if input.size != 1:
        raise MSValueError(f"For 'is_nonzero', the 'input' must have exactly one element, but got {input.size}.")
    return bool(input.asnumpy().reshape(()) != 0)


def unique_with_pad(x, pad_num):
    """``(unique values in first-occurrence order padded with pad_num to x's length, each element's index among
    them)`` of 1-D ``x`` (primitive ``UniqueWithPad``)."""
    _check_tensor("unique_with_pad", "x", x)
    pad = pad_num if isinstance(pad_num, Tensor) else Tensor(pad_num, x.dtype)
    return cached_prim(_math_prims.UniqueWithPad)(x, _array.cast(pad, x.dtype))


def intopk(x1, x2, k):
    """Whether the target class ``x2[i]`` is among the ``k`` largest of row ``x1[i]`` (ties count in; primitive
    ``InTopK``)."""
    _check_tensor("InTopK", "x1", x1)
    _check_tensor("InTopK", "x2", x2)
    return cached_prim(_math_prims.InTopK, k)(x1, x2)


def approximate_equal(x, y, tolerance=1e-5):
    """``|x - y| < tolerance`` elementwise."""
    _check_tensor("ApproximateEqual", "x", x)
    return _math.lt(_math.abs(_math.sub(x, y)), tolerance)


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """Intersection over union (``'iou'``) or over the ground-truth area (``'iof'``) of (x1, y1, x2, y2) boxes,
    shape (M ground truths, N anchors); areas count the end pixel (:class:`mindspore.ops.IOU`)."""
    _check_tensor("IOU", "anchor_boxes", anchor_boxes)
    _check_tensor("IOU", "gt_boxes", gt_boxes)
    return _image.IOU(mode)(anchor_boxes, gt_boxes)


def _check_square_float(op, name, x):
    _check_tensor(op, name, x)
    if x.dtype not in _FLOATS:
        raise MSTypeError(f"For '{op}', the '{name}' must be a float tensor, but got {x.dtype}.")
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise MSValueError(f"For '{op}', the '{name}' must be square matrices (..., N, N), but got shape "
                           f"{x.shape}.")


def cholesky(input_x, upper=False):
    """Cholesky factor of each symmetric positive-definite matrix: lower ``L`` with ``A = L L^T`` (or upper
    ``U = L^T`` with ``A = U^T U`` when ``upper``): the ``Cholesky`` primitive (one kernel; composing it from
    scalar operations took O(n^3) operators, minutes to stage for the 256-wide factors of the ``thor`` optimizer)."""
    _check_square_float("Cholesky", "input_x", input_x)
    from mindspore.ops._defs.linalg_more import Cholesky
    return cached_prim(Cholesky, bool(upper))(input_x)


def _solve_chol(b, factor, upper):
    _triangular_solve = _higher.get("linalg")._triangular_solve
    if upper:   # A = U^T U: U^T y = b, U x = y
        y = _triangular_solve(b, factor, True, True, False)
        return _triangular_solve(y, factor, True, False, False)
    y = _triangular_solve(b, factor, False, False, False)  # A = L L^T: L y = b, L^T x = y
    return _triangular_solve(y, factor, False, True, False)


def cholesky_solve(input, input2, upper=False):
    """``X`` with ``A X = input`` given the Cholesky factor ``input2`` of ``A``."""
    _check_square_float("CholeskySolve", "input2", input2)
    _check_tensor("CholeskySolve", "input", input)
    return _solve_chol(input, input2, upper)


def cholesky_inverse(input_x, upper=False):
    """``A^-1`` given the Cholesky factor ``input_x`` of ``A``."""
    _check_square_float("CholeskyInverse", "input_x", input_x)
    n = input_x.shape[-1]
    eye = _array.broadcast_to(_array.eye(n, n, input_x.dtype), input_x.shape)
    return _solve_chol(eye, input_x, upper)


def _lp_pool(op, pool, x, norm_type, kernel_size, stride, ceil_mode, window):
    _check_tensor(op, "x", x)
    if isinstance(norm_type, bool) or not isinstance(norm_type, (int, float)):
        raise MSTypeError(f"For '{op}', the 'norm_type' must be an int or float, but got "
                          f"{type(norm_type).__name__}.")
    stride = kernel_size if stride is None else stride
    out = pool(_math.pow(x, norm_type) if norm_type != 1 else x, kernel_size, stride, 0, ceil_mode)
    from mindspore.ops.function import nn_func  # pylint: disable=import-outside-toplevel
    out = _math.mul(_math.mul(_math.sign(out), nn_func.relu(_math.abs(out))), float(window))
    return _math.pow(out, 1.0 / norm_type) if norm_type != 1 else out


def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling over the last dimension: ``(sum over the window of x^p)^(1/p)``."""
    from mindspore.ops.function import pooling_func  # pylint: disable=import-outside-toplevel
    return _lp_pool("lp_pool1d", pooling_func.avg_pool1d, x, norm_type, kernel_size, stride, ceil_mode,
                    kernel_size)


def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling over the last two dimensions."""
    from mindspore.ops.function import pooling_func  # pylint: disable=import-outside-toplevel
    k = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
    return _lp_pool("lp_pool2d", pooling_func.avg_pool2d, x, norm_type, kernel_size, stride, ceil_mode,
                    k[0] * k[1])


def pdist(input, p=2.0):
    """p-norm distances between each pair of rows of ``input`` (..., N, M): the upper triangle, row by row
    (primitive ``Pdist``, with its gradient ``PdistGrad``)."""
    _check_tensor("Pdist", "input", input)
    if input.ndim < 2:
        raise MSValueError(f"For 'Pdist', the 'input' must be at least 2-D, but got shape {input.shape}.")
    return cached_prim(_math_prims.Pdist, float(p))(input)


def ger(input, vec2):
    """Outer product of two 1-D tensors."""
    _check_tensor("Ger", "input", input)
    _check_tensor("Ger", "vec2", vec2)
    if input.ndim != 1 or vec2.ndim != 1:
        raise MSValueError(f"For 'Ger', the inputs must be 1-D, but got shapes {input.shape} and {vec2.shape}.")
    return _math.outer(input, vec2)


def _reduce_loss(op, loss, reduction):
    if reduction == "mean":
        return _reduce.mean(loss)
    if reduction == "sum":
        return _reduce.sum(loss)
    if reduction == "none":
        return loss
    raise MSValueError(f"For '{op}', the 'reduction' must be 'mean', 'sum' or 'none', but got {reduction!r}.")


def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    """``-mean_c(y log sigmoid(x) + (1 - y) log sigmoid(-x))`` per sample, then ``reduction``."""
    _check_tensor("MultilabelSoftMarginLoss", "input", input)
    from mindspore.ops.function import nn_func  # pylint: disable=import-outside-toplevel
    target = _array.cast(target, input.dtype)
    per = _math.add(_math.mul(target, nn_func.logsigmoid(input)),
                    _math.mul(_math.sub(1.0, target), nn_func.logsigmoid(_math.neg(input))))
    if weight is not None:
        per = _math.mul(per, weight)
    loss = _math.neg(_reduce.mean(per, -1))
    return _reduce_loss("MultilabelSoftMarginLoss", loss, reduction)


def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction="mean"):
    """Multi-class hinge loss ``sum_{i != y} weight[y] * max(0, margin - x[y] + x[i])^p / C`` per sample
    (:class:`mindspore.ops.MultiMarginLoss`); a 1-D ``input`` is one sample."""
    _check_tensor("MultiMarginLoss", "input", input)
    _check_tensor("MultiMarginLoss", "target", target)
    if p not in (1, 2) or isinstance(p, bool):
        raise MSValueError(f"For 'MultiMarginLoss', the 'p' must be 1 or 2, but got {p}.")
    if input.ndim == 1:
        input = _array.expand_dims(input, 0)
        target = _array.reshape(target, (1,))
    if weight is not None:
        weight = _array.cast(weight, input.dtype)
    prim = _nn_prims.MultiMarginLoss(p, float(margin), reduction)
    return prim(input, _array.cast(target, mstype.int64), weight)



def _mint_f():
    return _higher.get("mint_functional")


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks of a (N, C, H, W) input as columns (N, C * kh * kw, L) (im2col)."""
    return _mint_f().unfold(input, kernel_size, dilation, padding, stride)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum the columns (N, C * kh * kw, L) back into a (N, C, H, W) image (col2im); ``output_size`` may be a
    Tensor."""
    if isinstance(output_size, Tensor):
        output_size = tuple(int(v) for v in output_size.asnumpy().reshape(-1))
    return _mint_f().fold(input, output_size, kernel_size, dilation, padding, stride)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample ``input`` (N, C, H, W) or (N, C, D, H, W) at the normalized ``grid`` locations, bilinearly or from the
    nearest pixel (:class:`mindspore.ops.GridSampler2D` / :class:`mindspore.ops.GridSampler3D`)."""
    _check_tensor("grid_sample", "input", input)
    _check_tensor("grid_sample", "grid", grid)
    if input.ndim not in (4, 5):
        raise MSValueError(f"For 'grid_sample', the 'input' must be 4-D or 5-D, but got shape {input.shape}.")
    prim = _image.GridSampler2D if input.ndim == 4 else _image.GridSampler3D
    return prim(mode, padding_mode, bool(align_corners))(input, grid)


def adaptive_avg_pool3d(input, output_size):
    """Adaptive average pooling over the last three dimensions (:class:`mindspore.ops.AdaptiveAvgPool3D`)."""
    _check_tensor("AdaptiveAvgPool3D", "input", input)
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = (output_size,) * 3
    return _nn_prims.AdaptiveAvgPool3D(tuple(output_size) if isinstance(output_size, list) else output_size)(input)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of max_pool2d: the values of (N, C, H, W) or (C, H, W) ``x`` placed at their flat argmax
    ``indices``, zeros elsewhere (:class:`mindspore.ops.MaxUnpool2D`)."""
    return _nn_prims_func.max_unpool_nd(_nn_prims.MaxUnpool2D, 2, x, indices, kernel_size, stride, padding,
                                        output_size)



def mirror_pad(input_x, paddings, mode):
    """Pad each dimension by mirroring (``'REFLECT'``: without the edge, ``'SYMMETRIC'``: with it);
    ``paddings`` is (rank, 2) of (before, after) (:class:`mindspore.ops.MirrorPad`)."""
    _check_tensor("MirrorPad", "input_x", input_x)
    if not isinstance(paddings, Tensor):
        paddings = tuple(tuple(int(v) for v in row) for row in _np.asarray(paddings).reshape(-1, 2).tolist())
    return _image.MirrorPad(mode)(input_x, paddings)


def _window_length(op, window_length):
    if isinstance(window_length, Tensor):
        if window_length.dtype not in (mstype.int32, mstype.int64) or window_length.ndim != 0:
            raise MSTypeError(f"For '{op}', the 'window_length' must be a 0-D int32 or int64 Tensor, but got "
                              f"{window_length.dtype} of shape {window_length.shape}.")
        return int(window_length.asnumpy())
    raise MSTypeError(f"For Primitive[{op}], the type of input argument[window_length] must be Tensor but got "
                      f"{type(window_length).__name__}.")


def bartlett_window(window_length, periodic=True, *, dtype=None):
    """Bartlett (triangular) window ``1 - |2 n / N - 1|`` of a 0-D int Tensor length (Float32 by default;
    :class:`mindspore.ops.BartlettWindow`)."""
    _window_length("BartlettWindow", window_length)
    return _image.BartlettWindow(periodic, mstype.float32 if dtype is None else dtype)(window_length)


def blackman_window(window_length, periodic=True, *, dtype=None):
    """Blackman window ``0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)`` (Float32 by default;
    :class:`mindspore.ops.BlackmanWindow`)."""
    _window_length("BlackmanWindow", window_length)
    return _image.BlackmanWindow(periodic, mstype.float32 if dtype is None else dtype)(window_length)


def nanmedian(input, axis=-1, keepdims=False):
    """``(values, indices)``: the lower median of the non-NaN elements along ``axis`` (NaN where all are NaN)."""
    _check_tensor("nanmedian", "input", input)
    if input.dtype not in _FLOATS:
        raise MSTypeError(f"For 'nanmedian', the 'input' must be a float tensor, but got {input.dtype}.")
    if not isinstance(axis, int) or not -builtins.max(input.ndim, 1) <= axis < builtins.max(input.ndim, 1):
        raise MSValueError(f"For 'nanmedian', the 'axis' must be an int in range of the input rank, but got {axis}.")
    nan = _math.isnan(input)
    filled = _array.where(nan, _array.full((), float("inf"), dtype=input.dtype), input)
    values, order = _array.sort(filled, axis)
    count = _reduce.sum(_array.cast(_math.logical_not(nan), mstype.int32), axis, True)
    pos = _math.floor_div(_math.sub(_math.maximum(count, 1), 1), 2)
    med = _array.gather_elements(values, axis, pos)
    idx = _array.gather_elements(order, axis, pos)
    empty = _math.eq(count, 0)
    med = _array.where(empty, _array.full((), float("nan"), dtype=input.dtype), med)
    idx = _array.where(empty, _array.zeros_like(idx), idx)
    if not keepdims:
        med, idx = _array.squeeze(med, axis), _array.squeeze(idx, axis)
    return med, _array.cast(idx, mstype.int64)


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """Local response normalization over channels: ``x / (bias + alpha * sum_{|c' - c| <= r} x_c'^2) ** beta``
    (:class:`mindspore.ops.LRN`)."""
    _check_tensor("LRN", "x", x)
    return _nn_prims.LRN(depth_radius, bias, alpha, beta, norm_region)(x)


def _quantile(op, input, q, axis, keepdims, ignore_nan):
    _check_tensor(op, "input", input)
    if input.dtype not in (mstype.float32, mstype.float64):
        raise MSTypeError(f"For '{op}', the 'input' must be a float32 or float64 tensor, but got {input.dtype}.")
    if not isinstance(q, Tensor):
        if isinstance(q, bool) or not isinstance(q, (int, float)) or not 0 <= q <= 1:
            raise MSValueError(f"For '{op}', the 'q' must be a float in [0, 1] or a 1-D Tensor, but got {q}.")
        q = Tensor(float(q), input.dtype)
    elif q.ndim > 1:
        raise MSValueError(f"For '{op}', the 'q' must be a scalar or 1-D tensor, but got shape {q.shape}.")
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, int)
                             or not -builtins.max(input.ndim, 1) <= axis < builtins.max(input.ndim, 1)):
        raise MSValueError(f"For '{op}', the 'axis' must be an int in range of the input rank, but got {axis}.")
    prim = cached_prim(_math_prims.Quantile, axis, bool(keepdims), ignore_nan)
    return prim(input, _array.cast(q, input.dtype))


def quantile(input, q, axis=None, keepdims=False):
    """The ``q``-th quantiles (linear interpolation) along ``axis`` (of all elements when None); a 1-D ``q``
    adds a leading dimension. NaN where the reduced slice has a NaN."""
    return _quantile("quantile", input, q, axis, keepdims, False)


def nanquantile(input, q, axis=None, keepdims=False):
    """:func:`quantile` ignoring NaN (NaN only where a slice is all NaN)."""
    return _quantile("nanquantile", input, q, axis, keepdims, True)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction="mean"):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with ``d(x, y) = ||x - y + eps||_p`` along dimension 1
    (``swap``: ``d(a, n)`` becomes ``min(d(a, n), d(p, n))``) (:class:`mindspore.ops.TripletMarginLoss`)."""
    for name, v in (("anchor", anchor), ("positive", positive), ("negative", negative)):
        _check_tensor("TripletMarginLoss", name, v)
    if isinstance(margin, bool) or not isinstance(margin, (int, float, Tensor)):
        raise MSTypeError(f"For 'TripletMarginLoss', the 'margin' must be a float or a Tensor, but got "
                          f"{type(margin).__name__}.")
    margin = _array.cast(margin, mstype.float32) if isinstance(margin, Tensor) else Tensor(float(margin),
                                                                                           mstype.float32)
    return _nn_prims_ext.TripletMarginLoss(p, swap, eps, reduction)(anchor, positive, negative, margin)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False):
    """The rows of ``weight`` at the indices ``input``."""
    return _mint_f().embedding(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq)
