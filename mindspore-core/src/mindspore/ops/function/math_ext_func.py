"""More of MindSpore 2.10's functional API (``ops.det``, ``ops.cross``, ``ops.nansum``, ``ops.diag_embed``, ...).

Every function here is a composition of existing primitives (so it runs eagerly, under ``@ms.jit`` and is
differentiated by the primitives' bprops), or reuses the ``mindspore.mint``/``mindspore.numpy`` function with the
same meaning under ``ops``' signature (imported lazily: ``mint`` and ``numpy`` import ``ops``).
``det``/``slogdet``/``inverse`` call the ``MatrixDeterminant``/``LogMatrixDeterminant``/``MatrixInverse``
primitives (``ops/_defs/linalg.py``); for the dtypes those have no kernel for (bfloat16 for the
determinants, float16 for the inverse) they eliminate with a composition (Gaussian elimination with
partial pivoting, in the style of ``mint.linalg.inv``).
"""
import builtins

import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import complex_ops as _complex_defs
from mindspore.ops._defs import linalg as _linalg_defs
from mindspore.ops._defs import linalg_more as _linalg_more_defs
from mindspore.ops._defs import math_more as _more_defs
from mindspore.ops._defs import math_prims as _math_prims
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math
from mindspore.ops.function import reduce_func as _reduce
from mindspore.ops import _higher

__all__ = [
    "dense", "cross", "det", "slogdet", "logdet", "inverse", "matrix_power", "adjoint", "mv", "addmm", "addbmm",
    "addmv", "addr", "baddbmm", "trace", "cdist", "dist", "vecdot", "nansum", "nanmean", "bincount", "histc",
    "diag_embed", "diagflat", "unique_consecutive", "diff", "tril_indices", "triu_indices", "fliplr", "flipud",
    "rot90", "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack", "row_stack", "column_stack", "dstack",
    "tensor_split", "hsplit", "vsplit", "dsplit", "block_diag", "cartesian_prod", "vander", "xdivy", "logit",
    "ldexp", "logspace", "logcumsumexp", "msort", "is_tensor", "is_floating_point", "is_complex", "isposinf",
    "isneginf", "isreal", "sgn", "trapz", "cov", "renorm", "type_as", "view_as", "expand", "top_k",
    "inv", "bitwise_left_shift", "bitwise_right_shift", "matrix_determinant", "log_matrix_determinant",
    "matrix_norm", "vector_norm", "isnan_ext", "pows", "clip_by_norm", "deepcopy", "tensor_mul", "tensor_sub",
    "tensor_div", "tensor_gt", "tensor_ge", "tensor_lt", "tensor_le", "tensor_pow", "tensor_mod", "tensor_floordiv",
    "tensor_exp", "tensor_expm1", "tensor_range", "tensor_muls",
]

_det = _linalg_defs.MatrixDeterminant()
_slogdet = _linalg_defs.LogMatrixDeterminant()
_matrix_inverse = _linalg_defs.MatrixInverse()
_matrix_power_inverse = _linalg_more_defs.MatrixPower(-1)
_xdivy = _more_defs.Xdivy()
_inv = _more_defs.Inv()
_left_shift = _more_defs.LeftShift()
_right_shift = _more_defs.RightShift()

_FLOATS = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def _mint():
    return _higher.get("mint")


def _check_tensor(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")


def _check_square(op, x, complex_ok=False):
    _check_tensor(op, "input", x)
    if x.dtype not in _FLOATS and not (complex_ok and x.dtype in (mstype.complex64, mstype.complex128)):
        kinds = "a float or complex" if complex_ok else "a float"
        raise MSTypeError(f"For '{op}', the 'input' must be {kinds} tensor, but got {x.dtype}.")
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise MSValueError(f"For '{op}', the 'input' must be square matrices of shape (..., M, M), but got "
                           f"shape {x.shape}.")


def dense(input, weight, bias=None):
    """``input @ weight.T + bias`` (weight (out, in), bias (out,)).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.dense(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0, 1.0], [0.0, 1.0]]), ms.Tensor([0.5, 0.0])))
        [[3.5 2. ]]
    """
    _check_tensor("dense", "input", input)
    _check_tensor("dense", "weight", weight)
    if weight.ndim not in (1, 2):
        raise MSValueError(f"For 'Dense', the dim of 'w' must be 1 or 2, but got {weight.ndim}.")
    out = _math.matmul(input, _array.swapaxes(weight, -1, -2) if weight.ndim == 2 else weight)
    if bias is not None:
        out = _math.add(out, bias)
    return out


def cross(input, other, dim=None):
    """Cross product of 3-vectors along ``dim`` (default: the first dimension of size 3)."""
    return _mint().cross(input, other, dim)


def _lu_pivots(op, x):
    """Gaussian elimination with partial pivoting: the pivots (..., n) and the permutation's sign (...)."""
    _check_square(op, x)
    n = x.shape[-1]
    dtype = x.dtype
    a = x
    sign = _array.ones(x.shape[:-2], dtype)
    rows = _array.arange(n, dtype=mstype.int32)
    pivots = []
    one, zero = Tensor(1, dtype), Tensor(0, dtype)
    for k in range(n):
        col = _array.squeeze(_array.narrow(a, -1, k, 1), -1)  # (..., n)
        score = _array.where(_math.ge(rows, k), _math.abs(col), _array.full(col.shape, -1.0, dtype=dtype))
        p = _array.cast(_reduce.argmax(score, -1), mstype.int32)  # (...)
        e_p = _array.one_hot(p, n, one, zero)  # (..., n)
        e_k = _array.one_hot(_array.full(p.shape, k, dtype=mstype.int32), n, one, zero)
        sign = _array.where(_math.eq(p, k), sign, _math.neg(sign))
        # swap rows k and p: a <- P a with P = I - e_k e_k^T - e_p e_p^T + e_k e_p^T + e_p e_k^T
        row_k = _math.matmul(_array.expand_dims(e_k, -2), a)  # (..., 1, n)
        row_p = _math.matmul(_array.expand_dims(e_p, -2), a)
        ek, ep = _array.expand_dims(e_k, -1), _array.expand_dims(e_p, -1)
        a = _math.add(_math.sub(a, _math.add(_math.mul(ek, row_k), _math.mul(ep, row_p))),
                      _math.add(_math.mul(ek, row_p), _math.mul(ep, row_k)))
        pivot = _array.narrow(_array.narrow(a, -2, k, 1), -1, k, 1)  # (..., 1, 1)
        pivots.append(_array.reshape(pivot, x.shape[:-2] + (1,)))
        if k + 1 < n:
            safe = _array.where(_math.eq(pivot, 0), _array.ones_like(pivot), pivot)
            below = _array.narrow(a, -2, k + 1, n - k - 1)  # (..., n-k-1, n)
            factor = _math.div(_array.narrow(below, -1, k, 1), safe)
            below = _math.sub(below, _math.mul(factor, _array.narrow(a, -2, k, 1)))
            a = _array.concat([_array.narrow(a, -2, 0, k + 1), below], -2)
    return _array.concat(pivots, -1), sign


def det(input):
    """Determinant of each square matrix in the last two dimensions.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.det(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])))
        -2.0
    """
    _check_square("MatrixDeterminant", input, complex_ok=True)
    if input.dtype == mstype.bfloat16:   # no kernel dtype: eliminate with the composition
        pivots, sign = _lu_pivots("MatrixDeterminant", input)
        return _math.mul(sign, _reduce.prod(pivots, -1))
    return _det(input)


def slogdet(input):
    """``(sign, log|det|)`` of each square matrix (``log|det| = -inf`` for a singular one)."""
    _check_square("LogMatrixDeterminant", input, complex_ok=True)
    if input.dtype == mstype.bfloat16:   # no kernel dtype: eliminate with the composition
        pivots, sign = _lu_pivots("LogMatrixDeterminant", input)
        sign = _math.mul(sign, _reduce.prod(_math.sign(pivots), -1))
        return sign, _reduce.sum(_math.log(_math.abs(pivots)), -1)
    return _slogdet(input)


def logdet(input):
    """``log(det(input))`` (NaN where the determinant is negative; of complex input the complex logarithm, as
    MindSpore 2.10)."""
    sign, logabs = slogdet(input)
    if mstype.is_complex(input.dtype):
        return _math.add(logabs, _math.log(sign))
    return _array.where(_math.lt(sign, 0), _array.full_like(logabs, float("nan")), logabs)


def inverse(input):
    """Inverse of each square matrix in the last two dimensions (MindSpore's rank-limited solution for one that is
    not invertible, see ``MatrixInverse``)."""
    _check_square("MatrixInverse", input, complex_ok=True)
    if input.dtype in (mstype.float32, mstype.float64, mstype.complex64, mstype.complex128):
        return _matrix_inverse(input)
    if input.dtype == mstype.bfloat16:
        raise MSTypeError("For 'MatrixInverse', the 'input' must be a Float16, Float32 or Float64 tensor, but got "
                          "BFloat16.")
    return _mint().linalg.inv(input)  # float16: Gauss-Jordan as a composition


def matrix_power(input, n):
    """``input`` raised to the integer power ``n`` (negative ``n``: powers of the inverse)."""
    _check_tensor("MatrixPower", "input", input)
    if not isinstance(n, int) or isinstance(n, bool):
        raise MSTypeError(f"For 'MatrixPower', the 'n' must be an int, but got {type(n).__name__}.")
    if input.ndim < 2 or input.shape[-1] != input.shape[-2]:
        raise MSValueError(f"For 'MatrixPower', the 'x' must be square matrices (..., M, M), but got shape "
                           f"{input.shape}.")
    if n < 0 and input.dtype in (mstype.float16, mstype.float32, mstype.float64):
        # MatrixPower's inverse refuses a matrix that is not invertible, as MindSpore 2.10's does
        m = input.shape[-1]
        input = _array.reshape(_matrix_power_inverse(_array.reshape(input, (-1, m, m))), input.shape)
        n = -n
    elif n < 0:
        input, n = inverse(input), -n
    result = None
    base = input
    while True:
        if n & 1:
            result = base if result is None else _math.matmul(result, base)
        n >>= 1
        if not n:
            break
        base = _math.matmul(base, base)
    if result is None:
        m = input.shape[-1]
        return _array.broadcast_to(_array.eye(m, m, input.dtype), input.shape)
    return result


def adjoint(x):
    """Conjugate transpose of the last two dimensions."""
    _check_tensor("adjoint", "x", x)
    if mstype.is_complex(x.dtype):
        x = _array.cached_prim(_complex_defs.Conj)(x)
    return _array.swapaxes(x, -1, -2)


def mv(mat, vec):
    """Matrix-vector product."""
    return _mint().mv(mat, vec)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``."""
    return _mint().addmm(input, mat1, mat2, beta=beta, alpha=alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    return _mint().addbmm(input, batch1, batch2, beta=beta, alpha=alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)``."""
    return _mint().addmv(input, mat, vec, beta=beta, alpha=alpha)


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """``beta * x + alpha * outer(vec1, vec2)``."""
    _check_tensor("Addr", "x", x)
    out = _math.outer(vec1, vec2)
    if alpha != 1:
        out = _math.mul(out, alpha)
    return _math.add(_math.mul(x, beta) if beta != 1 else x, out)


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)`` batched."""
    return _mint().baddbmm(input, batch1, batch2, beta=beta, alpha=alpha)


def trace(input):
    """Sum of the main diagonal of a 2-D tensor."""
    return _mint().trace(input)


def cdist(x1, x2, p=2.0):
    """p-norm distance between each pair of row vectors of ``x1`` (..., P, M) and ``x2`` (..., R, M)."""
    return _mint().cdist(x1, x2, p)


def dist(input, other, p=2):
    """p-norm of ``input - other`` (as a flat vector)."""
    _check_tensor("dist", "input", input)
    _check_tensor("dist", "other", other)
    return _mint().linalg.vector_norm(_math.sub(input, other), p)


def vecdot(x, y, *, axis=-1):
    """Dot product of vectors along ``axis`` (broadcasting the others)."""
    _check_tensor("vecdot", "x", x)
    _check_tensor("vecdot", "y", y)
    return _reduce.sum(_math.mul(x, y), axis)


def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """Sum treating NaN as zero."""
    _check_tensor("nansum", "input", input)
    return _mint().nansum(input, axis, keepdims, dtype=dtype)


def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """Mean over the non-NaN elements."""
    _check_tensor("nanmean", "input", input)
    if input.dtype not in _FLOATS:
        raise MSTypeError(f"For 'nanmean', the 'input' must be a float tensor, but got {input.dtype}.")
    total = _mint().nansum(input, axis, keepdims)
    count = _reduce.sum(_array.cast(_math.logical_not(_math.isnan(input)), input.dtype), axis, keepdims)
    out = _math.div(total, count)
    return _array.cast(out, dtype) if dtype is not None else out


def bincount(input, weights=None, minlength=0):
    """Count (or sum ``weights`` of) each non-negative integer of the 1-D ``input`` (Float32, as MindSpore's)."""
    _check_tensor("bincount", "input", input)
    return _array.cast(_mint().bincount(input, weights, minlength), mstype.float32)


def histc(input, bins=100, min=0.0, max=0.0):  # pylint: disable=redefined-builtin
    """Histogram of ``input`` with ``bins`` equal bins over ``[min, max]`` (the data range when both are 0)."""
    return _mint().histc(input, bins, min, max)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Tensor whose (``dim1``, ``dim2``) diagonals at ``offset`` are the last dimension of ``input``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.diag_embed(ms.Tensor([1.0, 2.0])))
        [[1. 0.]
         [0. 2.]]
    """
    _check_tensor("diag_embed", "input", input)
    out_ndim = input.ndim + 1
    d1, d2 = dim1 % out_ndim if -out_ndim <= dim1 < out_ndim else None, \
        dim2 % out_ndim if -out_ndim <= dim2 < out_ndim else None
    if d1 is None or d2 is None:
        raise MSValueError(f"For 'diag_embed', 'dim1' and 'dim2' must be in range [{-out_ndim}, {out_ndim}), "
                           f"but got dim1={dim1}, dim2={dim2}.")
    if d1 == d2:
        raise MSValueError(f"For 'diag_embed', 'dim1' must not be equal to 'dim2', but got {dim1} and {dim2}.")
    n = input.shape[-1]
    m = n + builtins.abs(offset)
    rows = _np.zeros((m, n), _np.float32)
    cols = _np.zeros((n, m), _np.float32)
    for k in range(n):
        i, j = (k, k + offset) if offset >= 0 else (k - offset, k)
        rows[i, k] = 1.0
        cols[k, j] = 1.0
    dtype = input.dtype
    x = input if dtype != mstype.bool_ else _array.cast(input, mstype.float32)
    diag = _math.mul(_array.expand_dims(x, -2), _array.eye(n, n, x.dtype))  # (..., n, n)
    out = _math.matmul(_math.matmul(Tensor(rows, x.dtype), diag), Tensor(cols, x.dtype))  # (..., m, m)
    out = _array.cast(out, dtype) if dtype != out.dtype else out
    if d1 > d2:
        out = _array.swapaxes(out, -1, -2)
        d1, d2 = d2, d1
    return _array.movedim(out, (-2, -1), (d1, d2))


def diagflat(input, offset=0):
    """2-D tensor with the flattened ``input`` on the ``offset`` diagonal."""
    _check_tensor("diagflat", "input", input)
    return diag_embed(_array.reshape(input, (-1,)), offset)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal consecutive elements (slices along ``dim``)."""
    _check_tensor("unique_consecutive", "input", input)
    return _mint().unique_consecutive(input, return_inverse, return_counts, dim)


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """n-th forward difference along ``axis``."""
    _check_tensor("diff", "x", x)
    return _mint().diff(x, n, axis, prepend, append)


def _tri_indices(op, row, col, offset, dtype, lower):
    for name, v in (("row", row), ("col", col), ("offset", offset)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise MSTypeError(f"For '{op}', the '{name}' must be an int, but got {type(v).__name__}.")
    if row < 0 or col < 0:
        raise MSValueError(f"For '{op}', 'row' and 'col' must be non-negative, but got row={row}, col={col}.")
    if dtype not in (mstype.int32, mstype.int64):
        raise MSTypeError(f"For '{op}', the 'dtype' must be int32 or int64, but got {dtype}.")
    r, c = _np.indices((row, col))
    mask = (c - r <= offset) if lower else (c - r >= offset)
    return Tensor(_np.stack([r[mask], c[mask]]), dtype)


def tril_indices(row, col, offset=0, *, dtype=mstype.int64):
    """The (2, N) coordinates of the lower triangle of a ``row x col`` matrix (diagonal ``offset``)."""
    return _tri_indices("TrilIndices", row, col, offset, dtype, True)


def triu_indices(row, col, offset=0, *, dtype=mstype.int64):
    """The (2, N) coordinates of the upper triangle of a ``row x col`` matrix (diagonal ``offset``)."""
    return _tri_indices("TriuIndices", row, col, offset, dtype, False)


def fliplr(input):
    """Reverse the second dimension."""
    _check_tensor("fliplr", "input", input)
    if input.ndim < 2:
        raise MSValueError(f"For 'fliplr', the dimension of 'input' must be at least 2, but got {input.ndim}.")
    return _array.flip(input, (1,))


def flipud(input):
    """Reverse the first dimension."""
    _check_tensor("flipud", "input", input)
    if input.ndim < 1:
        raise MSValueError(f"For 'flipud', the dimension of 'input' must be at least 1, but got {input.ndim}.")
    return _array.flip(input, (0,))


def rot90(input, k, dims):
    """Rotate by 90 degrees ``k`` times in the plane ``dims`` (from the first towards the second axis)."""
    _check_tensor("rot90", "input", input)
    if not isinstance(k, int) or isinstance(k, bool):
        raise MSTypeError(f"For 'rot90', the 'k' must be an int, but got {type(k).__name__}.")
    if len(dims) != 2:
        raise MSValueError(f"For 'rot90', the length of 'dims' must be 2, but got {len(dims)}.")
    d0, d1 = dims[0] % input.ndim, dims[1] % input.ndim
    if d0 == d1:
        raise MSValueError(f"For 'rot90', the 'dims' must be different, but got {tuple(dims)}.")
    k %= 4
    if k == 0:
        return input
    if k == 2:
        return _array.flip(input, (d0, d1))
    if k == 1:
        return _array.swapaxes(_array.flip(input, (d1,)), d0, d1)
    return _array.flip(_array.swapaxes(input, d0, d1), (d1,))


def _atleast(op, inputs, nd):
    def one(x):
        _check_tensor(op, "inputs", x)
        if x.ndim >= nd:
            return x
        if x.ndim == 0:
            return _array.reshape(x, (1,) * nd)
        if x.ndim == 1:
            return _array.reshape(x, (1, x.shape[0], 1)[:nd] if nd == 3 else (1, x.shape[0]))
        return _array.expand_dims(x, -1)  # 2-D to 3-D
    if isinstance(inputs, (list, tuple)):
        return tuple(one(x) for x in inputs)    # a tuple for a list too, as 2.10
    return one(inputs)


def atleast_1d(inputs):
    """View a Tensor (or each of a list/tuple of them) with at least 1 dimension."""
    return _atleast("atleast_1d", inputs, 1)


def atleast_2d(inputs):
    """View with at least 2 dimensions (a 1-D ``(N,)`` becomes ``(1, N)``)."""
    return _atleast("atleast_2d", inputs, 2)


def atleast_3d(inputs):
    """View with at least 3 dimensions (``(N,)`` -> ``(1, N, 1)``, ``(M, N)`` -> ``(M, N, 1)``)."""
    return _atleast("atleast_3d", inputs, 3)


def _tensors(op, tensors):
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise MSTypeError(f"For '{op}', the 'tensors' must be a non-empty list or tuple of Tensors, but got "
                          f"{type(tensors).__name__}.")
    for t in tensors:
        _check_tensor(op, "tensors", t)
    return list(tensors)


def hstack(tensors):
    """Concatenate along the second dimension (the first for 1-D tensors)."""
    ts = atleast_1d(_tensors("hstack", tensors))
    return _array.concat(ts, 0 if ts[0].ndim == 1 else 1)


def vstack(inputs):
    """Concatenate along the first dimension (1-D tensors become rows)."""
    return _array.concat(atleast_2d(_tensors("vstack", inputs)), 0)


def row_stack(tensors):
    """Alias of :func:`vstack`."""
    return _array.concat(atleast_2d(_tensors("row_stack", tensors)), 0)


def column_stack(tensors):
    """Stack 1-D tensors as columns (others are concatenated along the second dimension)."""
    ts = [_array.reshape(t, (-1, 1)) if t.ndim < 2 else t for t in _tensors("column_stack", tensors)]
    return _array.concat(ts, 1)


def dstack(tensors):
    """Concatenate along the third dimension."""
    return _array.concat(atleast_3d(_tensors("dstack", tensors)), 2)


def tensor_split(input, indices_or_sections, axis=0):
    """Split into ``indices_or_sections`` near-equal parts, or at the given indices, along ``axis``."""
    _check_tensor("tensor_split", "input", input)
    if not isinstance(axis, int) or not -input.ndim <= axis < builtins.max(input.ndim, 1):
        raise MSValueError(f"For 'tensor_split', the 'axis' must be an int in [{-input.ndim}, {input.ndim}), "
                           f"but got {axis}.")
    axis %= input.ndim
    size = input.shape[axis]
    if isinstance(indices_or_sections, int) and not isinstance(indices_or_sections, bool):
        n = indices_or_sections
        if n <= 0:
            raise MSValueError(f"For 'tensor_split', the 'indices_or_sections' must be greater than 0, but got "
                               f"{n}.")
        q, r = divmod(size, n)
        bounds = [0]
        for i in range(n):
            bounds.append(bounds[-1] + q + (1 if i < r else 0))
    elif isinstance(indices_or_sections, (list, tuple)):
        bounds = [0] + [builtins.min(builtins.max(int(i) if i >= 0 else int(i) + size, 0), size)
                        for i in indices_or_sections] + [size]
    else:
        raise MSTypeError(f"For 'tensor_split', the 'indices_or_sections' must be an int, a list or a tuple, but "
                          f"got {type(indices_or_sections).__name__}.")
    return tuple(_array.narrow(input, axis, lo, builtins.max(hi, lo) - lo) for lo, hi in zip(bounds, bounds[1:]))


def _split_n(op, input, indices_or_sections, axis, min_ndim):
    _check_tensor(op, "input", input)
    if input.ndim < min_ndim:
        raise MSValueError(f"For '{op}', the dimension of 'input' must be at least {min_ndim}, but got "
                           f"{input.ndim}.")
    if isinstance(indices_or_sections, int) and input.shape[axis] % indices_or_sections:
        raise MSValueError(f"For '{op}', the size {input.shape[axis]} of dimension {axis} must be divisible by "
                           f"'indices_or_sections' {indices_or_sections}.")
    return tensor_split(input, indices_or_sections, axis)


def hsplit(input, indices_or_sections):
    """Split along the second dimension (the first for 1-D)."""
    return _split_n("hsplit", input, indices_or_sections, 1 if isinstance(input, Tensor) and input.ndim > 1 else 0, 1)


def vsplit(input, indices_or_sections):
    """Split along the first dimension (input at least 2-D)."""
    return _split_n("vsplit", input, indices_or_sections, 0, 2)


def dsplit(input, indices_or_sections):
    """Split along the third dimension (input at least 3-D)."""
    return _split_n("dsplit", input, indices_or_sections, 2, 3)


def block_diag(*inputs):
    """Block-diagonal matrix from 0-, 1- or 2-D tensors (a k-D block is viewed as 2-D)."""
    blocks = [_atleast("block_diag", x, 2) for x in inputs]
    if not blocks:
        raise MSValueError("For 'block_diag', at least one input is required.")
    dtype = blocks[0].dtype
    for b in blocks:
        if b.ndim != 2:
            raise MSValueError(f"For 'block_diag', each input must have at most 2 dimensions, but got {b.ndim}.")
        if b.dtype != dtype:
            dtype = _math.add(_array.zeros((), dtype), _array.zeros((), b.dtype)).dtype
    cols = builtins.sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        parts = [_array.zeros((b.shape[0], left), dtype), _array.cast(b, dtype),
                 _array.zeros((b.shape[0], cols - left - b.shape[1]), dtype)]
        rows.append(_array.concat(parts, 1))
        left += b.shape[1]
    return _array.concat(rows, 0)


def cartesian_prod(*inputs):
    """Cartesian product of 1-D tensors, shape (N1 * N2 * ..., len(inputs)) (1-D for a single input)."""
    for x in inputs:
        _check_tensor("cartesian_prod", "inputs", x)
        if x.ndim != 1:
            raise MSValueError(f"For 'cartesian_prod', each input must be 1-D, but got shape {x.shape}.")
    if len(inputs) == 1:
        return inputs[0]
    grids = _array.meshgrid(*inputs, indexing="ij")
    return _array.stack([_array.reshape(g, (-1,)) for g in grids], 1)


def vander(x, N=None):
    """Vandermonde matrix with decreasing powers ``x ** (N - 1), ..., x ** 0`` as columns."""
    _check_tensor("vander", "x", x)
    if x.ndim != 1:
        raise MSValueError(f"For 'vander', the 'x' must be 1-D, but got shape {x.shape}.")
    n = x.shape[0] if N is None else N
    if not isinstance(n, int) or n < 0:
        raise MSValueError(f"For 'vander', the 'N' must be a non-negative int, but got {N}.")
    if n == 0:
        return _array.zeros((x.shape[0], 0), x.dtype)
    cols = [_array.ones_like(x)]
    for _ in range(n - 1):
        cols.append(_math.mul(cols[-1], x))
    return _array.stack(cols[::-1], 1)


def xdivy(x, y):
    """``x / y``, and 0 where ``x == 0`` (float or complex inputs)."""
    return _xdivy(x, y)


def inv(x):
    """``1 / x`` keeping ``x``'s dtype (Int32/Int64: truncated)."""
    return _inv(x)


def _shift(op, prim, input, other):
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise MSTypeError(f"For '{op}', at least one of 'input' and 'other' must be a Tensor, but got "
                          f"{type(input).__name__} and {type(other).__name__}.")
    if not isinstance(input, Tensor):
        input = _array.full((), input, dtype=other.dtype)
    if not isinstance(other, Tensor):
        other = _array.full((), other, dtype=input.dtype)
    return prim(input, other)


def bitwise_left_shift(input, other):
    """``input << other`` elementwise (integer tensors; a Python int takes the other operand's dtype)."""
    return _shift("bitwise_left_shift", _left_shift, input, other)


def bitwise_right_shift(input, other):
    """``input >> other`` elementwise (arithmetic shift for signed integers)."""
    return _shift("bitwise_right_shift", _right_shift, input, other)


def logit(input, eps=None):
    """``log(p / (1 - p))``, with ``p`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given."""
    _check_tensor("logit", "input", input)
    p = input if eps is None else _math.clip_by_value(input, eps, 1.0 - eps)
    return _math.log(_math.div(p, _math.sub(1.0, p)))


def ldexp(x, other):
    """``x * 2 ** other``."""
    return _math.mul(x, _math.pow(2.0, _array.cast(other, mstype.float32) if isinstance(other, Tensor) and
                                  other.dtype not in _FLOATS else other))


def logspace(start, end, steps, base=10, *, dtype=mstype.float32):
    """``steps`` points ``base ** t`` with ``t`` evenly spaced from ``start`` to ``end``."""
    if not isinstance(steps, int) or steps < 0:
        raise MSValueError(f"For 'LogSpace', the 'steps' must be a non-negative int, but got {steps}.")
    if dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise MSTypeError(f"For 'LogSpace', the 'dtype' should be one of [mindspore.float16, mindspore.float32, "
                          f"mindspore.float64], but got '{dtype}'.")
    if isinstance(start, Tensor):
        start = start.asnumpy().item()
    if isinstance(end, Tensor):
        end = end.asnumpy().item()
    t = _array.linspace(Tensor(float(start), mstype.float32), Tensor(float(end), mstype.float32), steps)
    return _array.cast(_math.pow(float(base), t), dtype)


def logcumsumexp(input, axis):
    """``log(cumsum(exp(input)))`` along ``axis``, computed stably."""
    _check_tensor("logcumsumexp", "input", input)
    if input.dtype not in _FLOATS:
        raise MSTypeError(f"For 'CumulativeLogsumexp', the 'input' must be a float tensor, but got {input.dtype}.")
    m = _array.stop_gradient(_reduce.amax(input, axis, True))
    m = _array.where(_math.isfinite(m), m, _array.zeros_like(m))
    return _math.add(_math.log(_math.cumsum(_math.exp(_math.sub(input, m)), axis)), m)


def msort(input):
    """Sort along the first dimension (ascending values)."""
    _check_tensor("msort", "input", input)
    return _array.sort(input, 0)[0]


def is_tensor(obj):
    """Whether ``obj`` is a Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input):
    """Whether ``input``'s dtype is a floating-point one."""
    _check_tensor("is_floating_point", "input", input)
    return input.dtype in _FLOATS


def is_complex(input):
    """Whether ``input``'s dtype is complex."""
    _check_tensor("is_complex", "input", input)
    return input.dtype in (mstype.complex64, mstype.complex128)


def isposinf(input):
    """Elementwise ``input == +inf``."""
    _check_tensor("isposinf", "input", input)
    return _math.logical_and(_math.isinf(input), _math.gt(input, 0))


def isneginf(input):
    """Elementwise ``input == -inf``."""
    _check_tensor("isneginf", "input", input)
    return _math.logical_and(_math.isinf(input), _math.lt(input, 0))


def isreal(input):
    """Elementwise: is the imaginary part zero (always True for real dtypes)."""
    _check_tensor("isreal", "input", input)
    if is_complex(input):
        return _math.eq(_mint().imag(input), 0)
    return _array.ones(input.shape, mstype.bool_)


def sgn(input):
    """Sign (``x / |x|`` for complex input, 0 at 0)."""
    _check_tensor("sgn", "input", input)
    if is_complex(input):
        a = _math.abs(input)
        return _array.where(_math.eq(a, 0), _array.zeros_like(input), _math.div(input, a))
    return _math.sign(input)


def trapz(y, x=None, *, dx=1.0, dim=-1):
    """Integral of ``y`` along ``dim`` by the trapezoidal rule (sample points ``x`` or spacing ``dx``)."""
    _check_tensor("trapz", "y", y)
    mnp = _higher.get("numpy")
    return mnp.trapz(y, x, dx, dim)


def cov(input, *, correction=1, fweights=None, aweights=None):
    """Covariance matrix of the variables in the rows of ``input`` (observations in the columns)."""
    _check_tensor("cov", "input", input)
    if input.ndim > 2:
        raise MSValueError(f"For 'cov', the 'input' must have at most 2 dimensions, but got {input.ndim}.")
    mnp = _higher.get("numpy")
    return mnp.cov(input, ddof=correction, fweights=fweights, aweights=aweights)


def renorm(input, p, axis, maxnorm):
    """Rescale each sub-tensor along ``axis`` whose ``p``-norm exceeds ``maxnorm`` to norm ``maxnorm``."""
    _check_tensor("Renorm", "input", input)
    if not isinstance(p, int) or p <= 0:
        raise MSValueError(f"For 'Renorm', the 'p' must be a positive int, but got {p}.")
    axis %= input.ndim
    others = tuple(i for i in range(input.ndim) if i != axis)
    norm = _math.pow(_reduce.sum(_math.pow(_math.abs(input), p), others, True), 1.0 / p)
    scale = _array.where(_math.gt(norm, maxnorm), _math.div(maxnorm, _math.add(norm, 1e-7)),
                         _array.ones_like(norm))
    return _math.mul(input, scale)


def type_as(input, other):
    """``input`` cast to ``other``'s dtype."""
    _check_tensor("type_as", "other", other)
    return _array.cast(input, other.dtype)


def view_as(input, other):
    """``input`` reshaped to ``other``'s shape."""
    _check_tensor("view_as", "other", other)
    return _array.reshape(input, other.shape)


def expand(input_x, size):
    """Broadcast ``input_x`` to ``size`` (a Tensor or a tuple; -1 keeps a dimension; primitive ``Expand``)."""
    _check_tensor("expand", "input_x", input_x)
    if isinstance(size, Tensor):
        size = tuple(int(v) for v in size.asnumpy().reshape(-1))
    return _array.cached_prim(_math_prims.Expand)(input_x, tuple(int(s) for s in size))


def top_k(input_x, k, sorted=True):  # pylint: disable=redefined-builtin
    """The ``k`` largest values along the last dimension and their indices."""
    return _array.topk(input_x, k, -1, True, sorted)




# --- MindSpore's aliases and thin forms ------------------------------------------------------
def matrix_determinant(input):
    """Alias of :func:`det`."""
    return det(input)


def log_matrix_determinant(input):
    """Alias of :func:`slogdet`."""
    return slogdet(input)


def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):  # pylint: disable=redefined-builtin
    """Matrix norm over the two dimensions ``axis`` (``'fro'``, ``'nuc'``, ``inf``, ``-inf``, 1, -1, 2, -2)."""
    return _mint().linalg.matrix_norm(A, ord, axis, keepdims, dtype=dtype)


def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):  # pylint: disable=redefined-builtin
    """Vector ``ord``-norm over ``axis`` (all elements when None)."""
    return _mint().linalg.vector_norm(x, ord, axis, keepdims, dtype=dtype)


def isnan_ext(tensor):
    """Alias of :func:`mindspore.ops.isnan`."""
    return _math.isnan(tensor)


def pows(input, exponent):
    """Alias of :func:`mindspore.ops.pow`."""
    return _math.pow(input, exponent)


def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale ``x`` (a Tensor, or a list/tuple of them taken as one vector) so that its ``norm_type``-norm is at
    most ``max_norm``: multiplied by ``min(max_norm / (norm + 1e-6), 1)``."""
    tensors = list(x) if isinstance(x, (list, tuple)) else [x]
    for t in tensors:
        _check_tensor("clip_by_norm", "x", t)
    p = float(norm_type)
    if p == float("inf"):
        total = _reduce.amax(_array.stack([_reduce.amax(_math.abs(t)) for t in tensors]))
    else:
        total = _math.pow(_math.addn([_reduce.sum(_math.pow(_math.abs(t), p)) for t in tensors]), 1.0 / p)
    if error_if_nonfinite and not bool(_math.isfinite(total).asnumpy()):
        raise MSValueError(f"For 'clip_by_norm', the total norm of order {norm_type} is non-finite.")
    coef = _math.minimum(_math.div(max_norm, _math.add(total, 1e-6)), 1.0)
    out = [_math.mul(t, _array.cast(coef, t.dtype)) for t in tensors]
    return tuple(out) if isinstance(x, (list, tuple)) else out[0]


def deepcopy(input_x):
    """A copy of ``input_x``."""
    _check_tensor("deepcopy", "input_x", input_x)
    return _array.identity(input_x)


def tensor_mul(input, other):
    """Alias of :func:`mindspore.ops.mul`."""
    return _math.mul(input, other)


def tensor_sub(*args):
    """Alias of :func:`mindspore.ops.sub`."""
    return _math.sub(*args)


def tensor_div(x, y):
    """Alias of :func:`mindspore.ops.div`."""
    return _math.div(x, y)


def tensor_gt(input, other):
    """Alias of :func:`mindspore.ops.gt`."""
    return _math.gt(input, other)


def tensor_ge(input, other):
    """Alias of :func:`mindspore.ops.ge`."""
    return _math.ge(input, other)


def tensor_lt(*args, **kwargs):
    """Alias of :func:`mindspore.ops.lt`."""
    return _math.lt(*args, **kwargs)


def tensor_le(input, other):
    """Alias of :func:`mindspore.ops.le`."""
    return _math.le(input, other)


def tensor_pow(input, exponent):
    """Alias of :func:`mindspore.ops.pow`."""
    return _math.pow(input, exponent)


def tensor_mod(x, y):
    """Alias of :func:`mindspore.ops.floor_mod`."""
    return _math.floor_mod(x, y)


def tensor_floordiv(input, other):
    """Alias of :func:`mindspore.ops.floor_divide`."""
    return _math.floor_divide(input, other)


def tensor_exp(input):
    """Alias of :func:`mindspore.ops.exp`."""
    return _math.exp(input)


def tensor_expm1(input):
    """Alias of :func:`mindspore.ops.expm1`."""
    return _math.expm1(input)


def tensor_range(start, end, step):
    """Alias of :func:`mindspore.ops.range`."""
    return _array.range(start, end, step)


def tensor_muls(input, other):
    """Alias of :func:`mindspore.ops.mul` (a tensor times a number)."""
    return _math.mul(input, other)
