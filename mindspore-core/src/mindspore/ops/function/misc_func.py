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
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math
from mindspore.ops.function import reduce_func as _reduce
from mindspore.ops.function import segment_func as _seg
from mindspore.ops import _higher

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
    if isinstance(input_x, Parameter):
        _array.assign(input_x, result)
        return input_x
    return result


def _rows(indices):
    return _array.expand_dims(indices, -1)


def scatter_add(input_x, indices, updates):
    """Add ``updates`` to the rows ``indices`` of ``input_x`` (a Parameter is updated in place and returned)."""
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
    """Hamming window ``alpha - beta cos(2 pi n / N)`` (Float32 by default)."""
    return _window("hamming_window", window_length, periodic, dtype, mstype.float32, (alpha, -beta))


def is_nonzero(input):
    """Whether the single element of ``input`` is non-zero (a Python bool)."""
    _check_tensor("is_nonzero", "input", input)
    if input.size != 1:
        raise MSValueError(f"For 'is_nonzero', the 'input' must have exactly one element, but got {input.size}.")
    return bool(input.asnumpy().reshape(()) != 0)


def unique_with_pad(x, pad_num):
    """``(unique values padded with pad_num to x's length, each element's index among them)`` of 1-D ``x``."""
    _check_tensor("unique_with_pad", "x", x)
    if x.ndim != 1:
        raise MSValueError(f"For 'UniqueWithPad', the 'x' must be 1-D, but got shape {x.shape}.")
    values, idx = _array.unique(x)
    pad = x.shape[0] - values.shape[0]
    if pad:
        values = _array.concat([values, _array.full((pad,), pad_num, dtype=values.dtype)], 0)
    return values, _array.cast(idx, x.dtype) if x.dtype in (mstype.int32, mstype.int64) else idx


def intopk(x1, x2, k):
    """Whether the target class ``x2[i]`` is among the ``k`` largest of row ``x1[i]`` (ties count in)."""
    _check_tensor("InTopK", "x1", x1)
    _check_tensor("InTopK", "x2", x2)
    if x1.ndim != 2 or x2.ndim != 1 or x2.shape[0] != x1.shape[0]:
        raise MSValueError(f"For 'InTopK', 'x1' must be 2-D and 'x2' 1-D of length x1.shape[0], but got shapes "
                           f"{x1.shape} and {x2.shape}.")
    target = _array.gather_elements(x1, 1, _array.expand_dims(_array.cast(x2, mstype.int32), 1))  # (N, 1)
    larger = _reduce.sum(_array.cast(_math.gt(x1, target), mstype.int32), 1)
    return _math.logical_and(_math.lt(larger, k), _math.isfinite(_array.squeeze(target, 1)))


def approximate_equal(x, y, tolerance=1e-5):
    """``|x - y| < tolerance`` elementwise."""
    _check_tensor("ApproximateEqual", "x", x)
    return _math.lt(_math.abs(_math.sub(x, y)), tolerance)


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """Intersection over union (``'iou'``) or over the ground-truth area (``'iof'``) of (x1, y1, x2, y2) boxes,
    shape (M ground truths, N anchors); areas count the end pixel (``x2 - x1 + 1``)."""
    _check_tensor("IOU", "anchor_boxes", anchor_boxes)
    _check_tensor("IOU", "gt_boxes", gt_boxes)
    if mode not in ("iou", "iof"):
        raise MSValueError(f"For 'IOU', the 'mode' must be 'iou' or 'iof', but got {mode!r}.")
    a = _array.expand_dims(anchor_boxes, 0)  # (1, N, 4)
    g = _array.expand_dims(gt_boxes, 1)      # (M, 1, 4)

    def coord(b, i):
        return _array.squeeze(_array.narrow(b, -1, i, 1), -1)

    def area(b):
        return _math.mul(_math.add(_math.sub(coord(b, 2), coord(b, 0)), 1.0),
                         _math.add(_math.sub(coord(b, 3), coord(b, 1)), 1.0))
    w = _math.maximum(_math.add(_math.sub(_math.minimum(coord(a, 2), coord(g, 2)),
                                          _math.maximum(coord(a, 0), coord(g, 0))), 1.0), 0.0)
    h = _math.maximum(_math.add(_math.sub(_math.minimum(coord(a, 3), coord(g, 3)),
                                          _math.maximum(coord(a, 1), coord(g, 1))), 1.0), 0.0)
    inter = _math.mul(w, h)
    denom = area(g) if mode == "iof" else _math.sub(_math.add(area(a), area(g)), inter)
    return _math.div(inter, denom)


def _check_square_float(op, name, x):
    _check_tensor(op, name, x)
    if x.dtype not in _FLOATS:
        raise MSTypeError(f"For '{op}', the '{name}' must be a float tensor, but got {x.dtype}.")
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise MSValueError(f"For '{op}', the '{name}' must be square matrices (..., N, N), but got shape "
                           f"{x.shape}.")


def cholesky(input_x, upper=False):
    """Cholesky factor of each symmetric positive-definite matrix: lower ``L`` with ``A = L L^T`` (or upper
    ``U = L^T`` with ``A = U^T U`` when ``upper``)."""
    _check_square_float("Cholesky", "input_x", input_x)
    n = input_x.shape[-1]

    def entry(i, j):
        return _array.narrow(_array.narrow(input_x, -2, i, 1), -1, j, 1)  # (..., 1, 1)

    cols = {}
    for j in range(n):
        rows = {}
        s = entry(j, j)
        for k in range(j):
            s = _math.sub(s, _math.square(cols[k][j]))
        d = _math.sqrt(s)
        rows[j] = d
        for i in range(j + 1, n):
            s = entry(i, j)
            for k in range(j):
                s = _math.sub(s, _math.mul(cols[k][i], cols[k][j]))
            rows[i] = _math.div(s, d)
        cols[j] = rows
    zero = _array.zeros_like(entry(0, 0))
    lower = _array.concat([_array.concat([cols[j][i] if i >= j else zero for j in range(n)], -1)
                           for i in range(n)], -2)
    return _array.swapaxes(lower, -1, -2) if upper else lower


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
    """p-norm distances between each pair of rows of ``input`` (..., N, M): the upper triangle, row by row."""
    _check_tensor("Pdist", "input", input)
    if input.ndim < 2:
        raise MSValueError(f"For 'Pdist', the 'input' must be at least 2-D, but got shape {input.shape}.")
    n = input.shape[-2]
    i, j = _np.triu_indices(n, 1)
    if not len(i):
        return _array.zeros(tuple(input.shape[:-2]) + (0,), input.dtype)
    a = _array.gather(input, Tensor(i.astype(_np.int32)), input.ndim - 2)
    b = _array.gather(input, Tensor(j.astype(_np.int32)), input.ndim - 2)
    d = _math.abs(_math.sub(a, b))
    if p == 0:
        return _reduce.sum(_array.cast(_math.ne(d, 0), input.dtype), -1)
    if p == float("inf"):
        return _reduce.amax(d, -1)
    return _math.pow(_reduce.sum(_math.pow(d, p), -1), 1.0 / p)


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
    """Multi-class hinge loss ``sum_{i != y} max(0, margin - x[y] + x[i])^p / C`` per sample."""
    _check_tensor("MultiMarginLoss", "input", input)
    _check_tensor("MultiMarginLoss", "target", target)
    if p not in (1, 2):
        raise MSValueError(f"For 'MultiMarginLoss', the 'p' must be 1 or 2, but got {p}.")
    if input.ndim == 1:
        input = _array.expand_dims(input, 0)
        target = _array.reshape(target, (1,))
    c = input.shape[-1]
    tgt = _array.expand_dims(_array.cast(target, mstype.int32), -1)
    x_y = _array.gather_elements(input, 1, tgt)  # (N, 1)
    hinge = _math.maximum(_math.add(_math.sub(float(margin), x_y), input), 0.0)
    if p == 2:
        hinge = _math.square(hinge)
    if weight is not None:
        hinge = _math.mul(hinge, _array.expand_dims(_array.gather(weight, _array.squeeze(tgt, -1), 0), -1))
    not_target = _math.ne(_array.arange(c, dtype=mstype.int32), tgt)
    hinge = _array.where(not_target, hinge, _array.zeros_like(hinge))
    loss = _math.div(_reduce.sum(hinge, -1), float(c))
    return _reduce_loss("MultiMarginLoss", loss, reduction)



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
    """Sample ``input`` at the normalized ``grid`` locations (bilinear or nearest)."""
    return _mint_f().grid_sample(input, grid, mode, padding_mode, align_corners)


def adaptive_avg_pool3d(input, output_size):
    """Adaptive average pooling over the last three dimensions."""
    return _mint_f().adaptive_avg_pool3d(input, output_size)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of max_pool2d: the values placed at their argmax ``indices``, zeros elsewhere."""
    return _mint_f().max_unpool2d(x, indices, kernel_size, stride, padding, output_size)


def mirror_pad(input_x, paddings, mode):
    """Pad each dimension by mirroring (``'REFLECT'``: without the edge, ``'SYMMETRIC'``: with it);
    ``paddings`` is (rank, 2) of (before, after)."""
    _check_tensor("MirrorPad", "input_x", input_x)
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise MSValueError(f"For 'MirrorPad', the 'mode' must be 'REFLECT' or 'SYMMETRIC', but got {mode!r}.")
    pads = _np.asarray(paddings.asnumpy() if isinstance(paddings, Tensor) else paddings).reshape(-1, 2)
    if pads.shape[0] != input_x.ndim:
        raise MSValueError(f"For 'MirrorPad', the 'paddings' must have {input_x.ndim} rows, but got "
                           f"{pads.shape[0]}.")
    shift = 1 if mode == "REFLECT" else 0
    out = input_x
    for d, (before, after) in enumerate(pads.tolist()):
        n = out.shape[d]
        if before + shift > n or after + shift > n:
            raise MSValueError(f"For 'MirrorPad', the paddings of dimension {d} must be at most {n - shift}, but "
                               f"got {(before, after)}.")
        idx = [shift + before - 1 - i for i in range(before)] + list(range(n)) + \
            [n - 1 - shift - i for i in range(after)]
        out = _array.gather(out, Tensor(_np.asarray(idx, _np.int32)), d)
    return out


def _window_length(op, window_length):
    if isinstance(window_length, Tensor):
        if window_length.dtype not in (mstype.int32, mstype.int64) or window_length.ndim != 0:
            raise MSTypeError(f"For '{op}', the 'window_length' must be a 0-D int32 or int64 Tensor, but got "
                              f"{window_length.dtype} of shape {window_length.shape}.")
        return int(window_length.asnumpy())
    raise MSTypeError(f"For Primitive[{op}], the type of input argument[window_length] must be Tensor but got "
                      f"{type(window_length).__name__}.")


def bartlett_window(window_length, periodic=True, *, dtype=None):
    """Bartlett (triangular) window ``1 - |2 n / N - 1|`` of a 0-D int Tensor length (Float32 by default)."""
    n = _window_length("BartlettWindow", window_length)
    dtype = mstype.float32 if dtype is None else dtype
    if n <= 1:
        return _array.ones((n,), dtype)
    denom = n if periodic else n - 1
    t = _math.mul(_array.arange(n, dtype=mstype.float64), 2.0 / denom)
    return _array.cast(_math.sub(1.0, _math.abs(_math.sub(t, 1.0))), dtype)


def blackman_window(window_length, periodic=True, *, dtype=None):
    """Blackman window ``0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)`` (Float32 by default)."""
    n = _window_length("BlackmanWindow", window_length)
    return _window("BlackmanWindow", n, periodic, dtype, mstype.float32, (0.42, -0.5, 0.08))


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
    """Local response normalization over channels: ``x / (bias + alpha * sum_{|c' - c| <= r} x_c'^2) ** beta``."""
    _check_tensor("LRN", "x", x)
    if norm_region != "ACROSS_CHANNELS":
        raise MSValueError(f"For 'LRN', the 'norm_region' must be 'ACROSS_CHANNELS', but got {norm_region!r}.")
    if x.ndim != 4:
        raise MSValueError(f"For 'LRN', the 'x' must be 4-D, but got shape {x.shape}.")
    c = x.shape[1]
    band = _np.abs(_np.subtract.outer(_np.arange(c), _np.arange(c))) <= depth_radius
    sq = _math.square(x)
    sums = _math.matmul(Tensor(band.astype(_np.float32), x.dtype),
                        _array.reshape(sq, (x.shape[0], c, -1)))  # (N, C, H*W)
    sums = _array.reshape(sums, x.shape)
    return _math.div(x, _math.pow(_math.add(_math.mul(sums, alpha), bias), beta))


def _quantile(op, input, q, axis, keepdims, ignore_nan):
    _check_tensor(op, "input", input)
    if input.dtype not in (mstype.float32, mstype.float64):
        raise MSTypeError(f"For '{op}', the 'input' must be a float32 or float64 tensor, but got {input.dtype}.")
    scalar_q = not isinstance(q, Tensor)
    if scalar_q:
        if isinstance(q, bool) or not isinstance(q, (int, float)) or not 0 <= q <= 1:
            raise MSValueError(f"For '{op}', the 'q' must be a float in [0, 1] or a 1-D Tensor, but got {q}.")
        qt = Tensor([float(q)], input.dtype)
    else:
        if q.ndim > 1:
            raise MSValueError(f"For '{op}', the 'q' must be a scalar or 1-D tensor, but got shape {q.shape}.")
        qt = _array.reshape(_array.cast(q, input.dtype), (-1,))
    x = input
    if axis is None:
        x, axis_ = _array.reshape(input, (-1,)), 0
    else:
        if not isinstance(axis, int) or not -builtins.max(input.ndim, 1) <= axis < builtins.max(input.ndim, 1):
            raise MSValueError(f"For '{op}', the 'axis' must be an int in range of the input rank, but got {axis}.")
        axis_ = axis % builtins.max(input.ndim, 1)
    nan = _math.isnan(x)
    vals = _array.sort(_array.where(nan, _array.full((), float("inf"), dtype=x.dtype), x), axis_)[0]
    n = x.shape[axis_]
    if ignore_nan:
        count = _reduce.sum(_array.cast(_math.logical_not(nan), x.dtype), axis_, True)
        bad = _math.eq(count, 0.0)
    else:
        count = _array.full_like(_reduce.sum(_array.cast(nan, x.dtype), axis_, True), float(n))
        bad = _reduce.any(nan, axis_, True)
    last = _math.maximum(_math.sub(count, 1.0), 0.0)          # (..., 1, ...)
    nq = qt.shape[0]
    qb = _array.reshape(qt, (nq,) + (1,) * x.ndim)
    pos = _math.mul(_array.expand_dims(last, 0), qb)           # (Q, ..., 1, ...)
    lo = _math.floor(pos)
    hi = _math.minimum(_math.add(lo, 1.0), _array.expand_dims(last, 0))
    frac = _math.sub(pos, lo)
    v = _array.broadcast_to(_array.expand_dims(vals, 0), (nq,) + tuple(vals.shape))
    v_lo = _array.gather_elements(v, axis_ + 1, _array.cast(lo, mstype.int32))
    v_hi = _array.gather_elements(v, axis_ + 1, _array.cast(hi, mstype.int32))
    out = _math.add(v_lo, _math.mul(_math.sub(v_hi, v_lo), frac))
    out = _array.where(_array.expand_dims(bad, 0), _array.full((), float("nan"), dtype=x.dtype), out)
    if axis is None:
        out = _array.reshape(out, (nq,) + ((1,) * input.ndim if keepdims else ()))
    elif not keepdims:
        out = _array.squeeze(out, axis_ + 1)
    return _array.squeeze(out, 0) if scalar_q else out


def quantile(input, q, axis=None, keepdims=False):
    """The ``q``-th quantiles (linear interpolation) along ``axis`` (of all elements when None); a 1-D ``q``
    adds a leading dimension. NaN where the reduced slice has a NaN."""
    return _quantile("quantile", input, q, axis, keepdims, False)


def nanquantile(input, q, axis=None, keepdims=False):
    """:func:`quantile` ignoring NaN (NaN only where a slice is all NaN)."""
    return _quantile("nanquantile", input, q, axis, keepdims, True)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction="mean"):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with ``d(x, y) = ||x - y + eps||_p`` along dimension 1
    (``swap``: ``d(a, n)`` becomes ``min(d(a, n), d(p, n))``)."""
    for name, v in (("anchor", anchor), ("positive", positive), ("negative", negative)):
        _check_tensor("TripletMarginLoss", name, v)

    def dist(a, b):
        d = _math.abs(_math.add(_math.sub(a, b), eps))
        return _math.pow(_reduce.sum(_math.pow(d, p), 1), 1.0 / p)
    d_ap, d_an = dist(anchor, positive), dist(anchor, negative)
    if swap:
        d_an = _math.minimum(d_an, dist(positive, negative))
    loss = _math.maximum(_math.add(_math.sub(d_ap, d_an), margin), 0.0)
    return _reduce_loss("TripletMarginLoss", loss, reduction)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False):
    """The rows of ``weight`` at the indices ``input``."""
    return _mint_f().embedding(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq)
