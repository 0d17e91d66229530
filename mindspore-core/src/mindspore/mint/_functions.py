"""The functions of ``mindspore.mint``: PyTorch-style names and arguments (``dim``, ``keepdim``) over ``ops``.

Each function is a thin composition of ``mindspore.ops`` functions and primitives, so it is differentiable,
runs in PYNATIVE mode and is staged like any library function when called inside ``construct`` or ``@jit``.
Where MindSpore's ``mint`` differs from ``ops`` (argument names, int64 indices, ``(values, indices)`` pairs,
Bessel-corrected ``std``/``var``) the wrapper says so.
"""
import builtins
import functools
import numbers

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.generator import drawing_from
from mindspore.common.tensor import Tensor
from mindspore.ops.function.math_func import _refuse_overloads

# --- elementwise functions shared verbatim with ops ---------------------------------------------------------
from mindspore.ops import (abs, acos, acosh, arccos, arccosh, arcsinh, arctan, arctan2, arctanh,  # noqa: F401
                           asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_or, bitwise_xor, broadcast_to,
                           ceil, cos, cosh, dot, einsum, erf, erfc, erfinv, exp, exp2, expm1, flip,
                           float_power, floor, floor_divide, fmod, gcd, greater, greater_equal, gt, isclose,
                           isfinite, isinf, le, lerp, less, less_equal, log, log10, log1p, log2, logaddexp,
                           logaddexp2, logical_and, logical_not, logical_or, logical_xor, logsumexp, lt,
                           masked_select, matmul, maximum, minimum, mm, mul, ne, neg, negative, nonzero,
                           not_equal, outer, pow, ravel, reciprocal, remainder, roll, round, rsqrt, sigmoid, sign,
                           sin, sinc, sinh, square, swapaxes, tan, tanh, tile, tril, triu, unbind, unsqueeze,
                           zeros_like, ones_like, full, full_like, eye, arange, divide, div)

__all__ = [
    "abs", "acos", "acosh", "add", "addbmm", "addcdiv", "addmm", "addmv", "addr_", "all", "allclose", "amax",
    "amin", "any", "arange", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "argmax",
    "argmin", "argsort", "asin", "asinh", "atan", "atan2", "atanh", "baddbmm", "batch_norm_elemt",
    "batch_norm_gather_stats_with_counts", "batch_norm_stats", "bernoulli", "bincount", "bitwise_and",
    "bitwise_not", "bitwise_or", "bitwise_xor", "bmm", "broadcast_to", "cat", "cdist", "ceil", "chunk", "clamp",
    "clone", "concat", "conv2d", "conv_tbc", "cos", "cosh", "count_nonzero", "cross", "cummax", "cummin", "cumprod",
    "cumsum", "diag", "diff", "div", "divide", "dot", "dstack", "einsum", "empty", "empty_like", "eq", "erf",
    "erfc", "erfinv", "exp", "exp2", "expm1", "eye", "flatten", "flip", "float_power", "floor", "floor_divide",
    "fmod", "frac", "full", "full_like", "gather", "gcd", "greater", "greater_equal", "gt", "histc", "hstack",
    "imag", "index_add", "index_select", "inverse", "isclose", "isfinite", "isinf", "isnan", "isneginf", "kthvalue",
    "le", "lerp", "less", "less_equal", "log", "log10", "log1p", "log2", "logaddexp", "logaddexp2", "logical_and",
    "logical_not", "logical_or", "logical_xor", "logsumexp", "lt", "masked_select", "matmul", "max", "maximum",
    "mean", "median", "meshgrid", "min", "minimum", "mm", "mul", "multinomial", "mv", "nan_to_num", "nansum",
    "narrow", "ne", "neg", "negative", "nonzero", "norm", "normal", "not_equal", "npu_gelu", "ones_like", "outer",
    "permute", "polar", "pow", "prod", "rand", "rand_like", "randint", "randint_like", "randn", "randn_like",
    "randperm", "ravel", "real", "reciprocal", "remainder", "repeat_interleave", "reshape", "roll", "round",
    "rsqrt", "scatter", "scatter_add", "searchsorted", "select", "sigmoid", "sign", "sin", "sinc", "sinh",
    "softmax", "sort", "split", "sqrt", "square", "squeeze", "stack", "std", "std_mean", "sub", "sum", "swapaxes",
    "t", "take", "tan", "tanh", "tile", "topk", "trace", "transpose", "triangular_solve", "tril", "triu", "unbind",
    "unique_consecutive", "unsqueeze", "var", "var_mean", "vdot", "where", "xlogy", "zeros", "zeros_like",
]


def _tensor(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _i64(x):
    return x if x.dtype == mstype.int64 else ops.cast(x, mstype.int64)


def _dim(d, ndim):
    return d + ndim if d < 0 else d


def _to_dtype(x, dtype):
    return x if dtype is None or x.dtype == dtype else ops.cast(x, dtype)


# --- arithmetic ----------------------------------------------------------------------------------------------
def arcsin(x):
    """Alias of :func:`asin` (MindSpore names its argument ``x``)."""
    return ops.asin(x)


def sqrt(input):
    """Elementwise square root."""
    return ops.sqrt(input)


def eq(input, other):
    """``input == other`` (Bool); ``input`` must be a Tensor (2.10's ``mint.eq(2, x)`` fails overload resolution,
    with another message than ``ops.equal``'s)."""
    if isinstance(input, numbers.Number):
        _refuse_overloads("eq", (input, other), ((("Number",), "Number", "number"),
                                                 (("Number", "Tensor"), "Number, Tensor", "number,Tensor")))
    return ops.equal(input, other)


def xlogy(input, other):
    """``input * log(other)``, and 0 where ``input`` is 0. As in 2.10, PYNATIVE refuses a Python number as ``input``
    (its signature conversion has no number overload there; ``ops.xlogy`` converts it); ``other`` may be one."""
    from mindspore.ops._defs.math import _staging
    if isinstance(input, numbers.Number) and not _staging():
        raise MSTypeError(f'Failed calling Xlogy with "Xlogy()(input={type(input).__name__}, other='
                          f'{"Tensor" if isinstance(other, Tensor) else type(other).__name__})".\n'
                          'The valid calling should be: \n"Xlogy()(input=<Tensor>, other=<Tensor>)".')
    return ops.xlogy(input, other)


def isnan(tensor):
    """Whether each element is NaN."""
    return ops.isnan(tensor)


def frac(input):
    """The fractional part ``input - trunc(input)``."""
    return ops.frac(input)


def isneginf(input):
    """Whether each element is ``-inf``."""
    return ops.logical_and(ops.isinf(input), ops.lt(input, 0))


def add(input, other, *, alpha=1):
    """``input + alpha * other``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import mint
        >>> print(mint.add(ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 1.0]), alpha=2))
        [3. 4.]
    """
    return ops.add(input, other if alpha == 1 else ops.mul(other, alpha))


def sub(input, other, *, alpha=1):
    """``input - alpha * other``."""
    return ops.sub(input, other if alpha == 1 else ops.mul(other, alpha))


def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2``."""
    return ops.add(input, ops.mul(ops.div(tensor1, tensor2), value))


def _scaled(beta, input, alpha, product):
    if beta == 0:
        return product if alpha == 1 else ops.mul(product, alpha)
    left = input if beta == 1 else ops.mul(input, beta)
    return ops.add(left, product if alpha == 1 else ops.mul(product, alpha))


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``."""
    return _scaled(beta, input, alpha, ops.matmul(mat1, mat2))


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_i(batch1[i] @ batch2[i])``."""
    return _scaled(beta, input, alpha, ops.sum(ops.bmm(batch1, batch2), 0))


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)`` for each batch."""
    return _scaled(beta, input, alpha, ops.bmm(batch1, batch2))


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)``."""
    return _scaled(beta, input, alpha, mv(mat, vec))


def addr_(input, vec1, vec2, beta=1, alpha=1):
    """In place: ``input = beta * input + alpha * outer(vec1, vec2)``; returns ``input``."""
    ops.assign(input, _scaled(beta, input, alpha, ops.outer(vec1, vec2)))
    return input


def bmm(input, mat2):
    """Batched matrix product (b, n, m) x (b, m, p) -> (b, n, p)."""
    return ops.bmm(input, mat2)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 1-D tensors; ``indexing`` ``'ij'`` (the default) or ``'xy'``."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    return ops.meshgrid(*tensors, indexing="ij" if indexing is None else indexing)


def mv(input, vec):
    """Matrix-vector product ``input @ vec``: (n, m) x (m,) -> (n,)."""
    _tensor("mv", "input", input)
    if input.ndim != 2 or vec.ndim != 1:
        raise MSValueError(f"For 'mv', the 'input' must be a 2-D tensor and 'vec' a 1-D tensor, but got shapes "
                           f"{input.shape} and {vec.shape}.")
    return ops.matmul(input, vec)


def vdot(input, other):
    """Dot product of two 1-D tensors (the first conjugated: real tensors here)."""
    if input.ndim != 1 or other.ndim != 1:
        raise MSValueError(f"For 'vdot', the inputs must be 1-D tensors, but got shapes {input.shape} and "
                           f"{other.shape}.")
    return ops.sum(ops.mul(input, other))


def clamp(input, min=None, max=None):
    """Clamps each element into ``[min, max]`` (either may be None, a number or a Tensor)."""
    if min is None and max is None:
        raise MSValueError("For 'clamp', at least one of 'min' or 'max' must not be None.")
    if input.dtype in mstype.int_type + mstype.uint_type and builtins.any(
            isinstance(b, float) or (isinstance(b, Tensor) and b.dtype in mstype.float_type) for b in (min, max)):
        input = ops.cast(input, mstype.float32)  # float bounds make the result float, as in MindSpore
    return ops.clamp(input, min, max)


def bitwise_not(input):
    """Bitwise NOT (logical NOT for bool)."""
    return ops.bitwise_not(input)


def nan_to_num(input, nan=None, posinf=None, neginf=None):
    """Replaces NaN (default 0), +inf and -inf (default: the dtype's largest and smallest values)."""
    return ops.nan_to_num(input, 0.0 if nan is None else nan, posinf, neginf)


def trace(input):
    """The sum of the main diagonal of a 2-D tensor."""
    if input.ndim != 2:
        raise MSValueError(f"For 'trace', the 'input' must be a 2-D tensor, but got shape {input.shape}.")
    n, m = input.shape
    mask = ops.eye(n, m, mstype.bool_)
    return ops.sum(ops.where(mask, input, ops.zeros_like(input)))


def cross(input, other, dim=None):
    """The cross product of 3-vectors along ``dim`` (default: the first dimension of size 3)."""
    if dim is None:
        dims = [i for i, s in enumerate(input.shape) if s == 3]
        if not dims:
            raise MSValueError(f"For 'cross', no dimension of size 3 in 'input' of shape {input.shape}.")
        dim = dims[0]
    dim = _dim(dim, input.ndim)
    if input.shape[dim] != 3:
        raise MSValueError(f"For 'cross', the size of 'input' at dim {dim} must be 3, but got {input.shape[dim]}.")
    a = [ops.narrow(input, dim, i, 1) for i in range(3)]
    b = [ops.narrow(other, dim, i, 1) for i in range(3)]
    parts = [ops.sub(ops.mul(a[1], b[2]), ops.mul(a[2], b[1])), ops.sub(ops.mul(a[2], b[0]), ops.mul(a[0], b[2])),
             ops.sub(ops.mul(a[0], b[1]), ops.mul(a[1], b[0]))]
    return ops.cat(parts, dim)


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim`` (after concatenating ``prepend``/``append``)."""
    pieces = [t for t in (prepend, input, append) if t is not None]
    x = ops.cat(pieces, dim) if len(pieces) > 1 else input
    dim = _dim(dim, x.ndim)
    for _ in range(n):
        size = x.shape[dim]
        if size == 0:
            break
        x = ops.sub(ops.narrow(x, dim, 1, size - 1), ops.narrow(x, dim, 0, size - 1))
    return x


_COMPLEX_OF = {mstype.float64: mstype.complex128}


def _complex_unit(dtype, value):
    """The complex scalar tensor ``value`` (e.g. ``-1j``) of ``dtype``."""
    return Tensor(value, dtype)


def polar(abs, angle):
    """The complex tensor ``abs * (cos(angle) + i sin(angle))`` (complex64; complex128 for float64 inputs)."""
    ctype = _COMPLEX_OF.get(abs.dtype, mstype.complex64)
    re = ops.cast(ops.mul(abs, ops.cos(angle)), ctype)
    im = ops.cast(ops.mul(abs, ops.sin(angle)), ctype)
    return ops.add(re, ops.mul(im, _complex_unit(ctype, 1j)))


def _real_dtype(dtype):
    return mstype.float64 if dtype == mstype.complex128 else mstype.float32


def real(input):
    """The real part (the input itself for a real tensor)."""
    if input.dtype in (mstype.complex64, mstype.complex128):
        return ops.cast(input, _real_dtype(input.dtype))  # a complex -> real cast keeps the real part
    return input


def imag(input):
    """The imaginary part of a complex tensor."""
    if input.dtype not in (mstype.complex64, mstype.complex128):
        raise MSTypeError(f"For 'imag', the 'input' must be a complex tensor, but got {input.dtype}.")
    return ops.cast(ops.mul(input, _complex_unit(input.dtype, -1j)), _real_dtype(input.dtype))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of ``input`` is close to ``other`` (a Python bool)."""
    return builtins.bool(ops.all(ops.isclose(input, other, rtol, atol, equal_nan)))


# --- reductions -------------------------------------------------------------------------------------------
def _axis(dim):
    if dim is None:
        return None
    if isinstance(dim, list):
        return tuple(dim)
    return dim


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over ``dim`` (all dimensions when None); ``dtype`` casts the input first."""
    return ops.sum(input, _axis(dim), keepdim, dtype=dtype)


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum over ``dim`` treating NaN as zero."""
    if input.dtype in mstype.float_type:
        return ops.sum(ops.where(ops.isnan(input), ops.zeros_like(input), input), _axis(dim), keepdim, dtype=dtype)
    # MindSpore keeps an integer input's dtype here (unlike sum's promotion to int64)
    return ops.sum(input, _axis(dim), keepdim, dtype=dtype or input.dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """Mean over ``dim`` (all dimensions when None)."""
    return ops.mean(_to_dtype(input, dtype), _axis(dim), keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    """Product over ``dim`` (all dimensions when None)."""
    return ops.prod(_to_dtype(input, dtype), _axis(dim), keepdim)


def all(input, dim=None, keepdim=False):
    """Logical AND over ``dim``."""
    return ops.all(input, _axis(dim), keepdim)


def any(input, dim=None, keepdim=False):
    """Logical OR over ``dim``."""
    return ops.any(input, _axis(dim), keepdim)


def amax(input, dim=(), keepdim=False):
    """Maximum over ``dim`` (``()``: all dimensions)."""
    return ops.amax(input, None if dim == () else _axis(dim), keepdim)


def amin(input, dim=(), keepdim=False):
    """Minimum over ``dim`` (``()``: all dimensions)."""
    return ops.amin(input, None if dim == () else _axis(dim), keepdim)


def max(input, dim=None, keepdim=False):
    """``max(input)``: the largest element; ``max(input, dim, keepdim=False)``: ``(values, indices)`` along
    ``dim``; ``max(input, other)``: the elementwise maximum."""
    if dim is None:
        return ops.amax(input)
    if isinstance(dim, Tensor):
        return ops.maximum(input, dim)
    values, indices = ops.max(input, dim, keepdim)
    return values, _i64(indices)


def min(input, dim=None, keepdim=False):
    """``min(input)``, ``min(input, dim, keepdim=False) -> (values, indices)`` or ``min(input, other)``."""
    if dim is None:
        return ops.amin(input)
    if isinstance(dim, Tensor):
        return ops.minimum(input, dim)
    values, indices = ops.min(input, dim, keepdim)
    return values, _i64(indices)


def argmax(input, dim=None, keepdim=False):
    """Index (int64) of the largest element over ``dim`` (of the flattened input when None)."""
    return _i64(ops.argmax(input, dim, keepdim))


def argmin(input, dim=None, keepdim=False):
    """Index (int64) of the smallest element over ``dim`` (of the flattened input when None)."""
    if dim is None:
        return _i64(ops.argmin(ops.reshape(input, (-1,)), 0, False))
    return _i64(ops.argmin(input, dim, keepdim))


def median(input, dim=None, keepdim=False):
    """The lower median: of all elements when ``dim`` is None, else ``(values, indices)`` along ``dim``."""
    if dim is None:
        flat = ops.sort(ops.reshape(input, (-1,)))[0]
        return flat[(flat.shape[0] - 1) // 2]
    values, indices = ops.median(input, dim, keepdim)
    return values, _i64(indices)


def kthvalue(input, k, dim=-1, keepdim=False):
    """The ``k``-th smallest element along ``dim``: ``(values, indices)``."""
    dim = _dim(dim, input.ndim)
    if not 1 <= k <= (input.shape[dim] if input.ndim else 1):
        raise MSValueError(f"For 'kthvalue', 'k' must be in [1, {input.shape[dim]}], but got {k}.")
    values, indices = sort(input, dim=dim)
    values = ops.narrow(values, dim, k - 1, 1)
    indices = ops.narrow(indices, dim, k - 1, 1)
    if not keepdim:
        values, indices = ops.squeeze(values, dim), ops.squeeze(indices, dim)
    return values, indices


def _correction(op, correction):
    if isinstance(correction, bool) or not isinstance(correction, numbers.Number):
        raise MSTypeError(f"For '{op}', the 'correction' must be a number, but got {type(correction).__name__}.")
    return correction


def var(input, dim=None, *, correction=1, keepdim=False):
    """Variance over ``dim`` with ``correction`` (1: Bessel's)."""
    return ops.var(input, _axis(dim), _correction("var", correction), keepdim)


def std(input, dim=None, *, correction=1, keepdim=False):
    """Standard deviation over ``dim`` with ``correction``."""
    return ops.std(input, _axis(dim), _correction("std", correction), keepdim)


def var_mean(input, dim=None, *, correction=1, keepdim=False):
    """``(var, mean)`` over ``dim``."""
    return ops.var_mean(input, _axis(dim), _correction("var_mean", correction), keepdim)


def std_mean(input, dim=None, *, correction=1, keepdim=False):
    """``(std, mean)`` over ``dim``."""
    return ops.std_mean(input, _axis(dim), _correction("std_mean", correction), keepdim)


def count_nonzero(input, dim=None):
    """Number of non-zero elements over ``dim`` (int64)."""
    return ops.count_nonzero(input, () if dim is None else _axis(dim), False, mstype.int64)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """Matrix or vector norm: ``p`` in ``'fro'``, ``'nuc'``, a number, ``inf`` or ``-inf``."""
    x = _to_dtype(input, dtype)
    if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) != 2):
        p = 2
    if p in ("fro", "nuc"):
        from mindspore.mint.linalg import matrix_norm
        return matrix_norm(x, p, (-2, -1) if dim is None else tuple(dim), keepdim)
    if dim is None:
        x, dim = ops.reshape(x, (-1,)), 0
        if keepdim:
            return ops.reshape(ops.norm(x, p, dim), (1,) * input.ndim)
    return ops.norm(x, p, _axis(dim), keepdim)


def cumsum(input, dim, dtype=None):
    """Cumulative sum along ``dim``."""
    return ops.cumsum(input, dim, dtype)


def cumprod(input, dim, dtype=None):
    """Cumulative product along ``dim``."""
    return ops.cumprod(input, dim, dtype)


def cummax(input, dim):
    """Cumulative maximum along ``dim``: ``(values, indices)``."""
    values, indices = ops.cummax(input, dim)
    return values, _i64(indices)


def cummin(input, dim):
    """Cumulative minimum along ``dim``: ``(values, indices)``."""
    values, indices = ops.cummin(input, dim)
    return values, _i64(indices)


def histc(input, bins=100, min=0, max=0):
    """Histogram of ``bins`` equal bins over ``[min, max]`` (the data's range when both are 0)."""
    x = ops.cast(ops.reshape(input, (-1,)), mstype.float32)
    if min == 0 and max == 0:
        lo, hi = ops.amin(x), ops.amax(x)
    else:
        if min > max:
            raise MSValueError(f"For 'histc', 'max' must be larger than 'min', but got min {min}, max {max}.")
        lo, hi = ops.scalar_to_tensor(float(min)), ops.scalar_to_tensor(float(max))
    width = ops.sub(hi, lo)
    width = ops.where(ops.equal(width, 0), ops.ones_like(width), width)
    idx = ops.floor(ops.mul(ops.div(ops.sub(x, lo), width), bins))
    idx = ops.cast(ops.clamp(idx, 0, bins - 1), mstype.int32)
    inside = ops.cast(ops.logical_and(ops.ge(x, lo), ops.le(x, hi)), mstype.float32)
    counts = ops.sum(ops.mul(ops.one_hot(idx, bins, 1.0, 0.0), ops.expand_dims(inside, 1)), 0)
    return ops.cast(counts, input.dtype)


def bincount(input, weights=None, minlength=0):
    """Counts of each non-negative integer in a 1-D ``input`` (summing ``weights`` when given)."""
    if input.ndim != 1 or input.dtype not in mstype.int_type + mstype.uint_type:
        raise MSValueError(f"For 'bincount', the 'input' must be a 1-D integer tensor, but got {input.dtype} of "
                           f"shape {input.shape}.")
    if input.shape[0] and builtins.int(ops.amin(input)) < 0:
        raise MSValueError("For 'bincount', the 'input' must be non-negative.")
    # the length of the result depends on the data: read its maximum (PYNATIVE; dynamic in graphs as in MindSpore)
    length = builtins.max(builtins.int(ops.amax(input)) + 1 if input.shape[0] else 0, minlength)
    hot = ops.one_hot(ops.cast(input, mstype.int32), length, 1.0, 0.0)
    if weights is None:
        return ops.cast(ops.sum(hot, 0), mstype.int64)
    return ops.sum(ops.mul(hot, ops.expand_dims(ops.cast(weights, mstype.float32), 1)), 0)


# --- shape and indexing --------------------------------------------------------------------------------------
def reshape(input, shape):
    """``input`` with a new ``shape`` (one entry may be -1)."""
    return ops.reshape(input, shape)


def flatten(input, start_dim=0, end_dim=-1):
    """Flattens dimensions ``start_dim`` .. ``end_dim`` into one."""
    return ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def squeeze(input, dim=None):
    """Removes dimensions of size 1 (only ``dim`` when given: an int or a tuple)."""
    if dim is None:
        return ops.squeeze(input)
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    keep = tuple(d for d in (_dim(d, input.ndim) for d in dims) if input.shape[d] == 1)
    return ops.squeeze(input, keep) if keep else input


def t(input):
    """Transpose of a tensor with at most 2 dimensions."""
    return ops.t(input)


def transpose(input, dim0, dim1):
    """Swaps dimensions ``dim0`` and ``dim1``."""
    return ops.swapaxes(input, dim0, dim1)


def permute(input, dims):
    """Reorders the dimensions."""
    return ops.permute(input, tuple(dims))


def cat(tensors, dim=0):
    """Concatenates along ``dim``."""
    return ops.cat(tensors, dim)


def concat(tensors, dim=0):
    """Alias of :func:`cat`."""
    return ops.cat(tensors, dim)


def stack(tensors, dim=0):
    """Stacks along a new ``dim``."""
    return ops.stack(tensors, dim)


def hstack(tensors):
    """Concatenates along dim 1 (dim 0 for 1-D tensors)."""
    return ops.cat(tensors, 0 if tensors[0].ndim == 1 else 1)


def dstack(tensors):
    """Concatenates along dim 2 after making each tensor at least 3-D."""
    shaped = []
    for x in tensors:
        if x.ndim == 0:
            x = ops.reshape(x, (1, 1, 1))
        elif x.ndim == 1:
            x = ops.reshape(x, (1, x.shape[0], 1))
        elif x.ndim == 2:
            x = ops.expand_dims(x, 2)
        shaped.append(x)
    return ops.cat(shaped, 2)


def split(tensor, split_size_or_sections, dim=0):
    """Splits into chunks of ``split_size_or_sections`` (an int or a list of sizes) along ``dim``."""
    return ops.split(tensor, split_size_or_sections, dim)


def chunk(input, chunks, dim=0):
    """Splits into ``chunks`` nearly equal pieces along ``dim``."""
    return ops.chunk(input, chunks, dim)


def narrow(input, dim, start, length):
    """``length`` elements from ``start`` along ``dim``."""
    return ops.narrow(input, dim, start, length)


def select(input, dim, index):
    """The slice at ``index`` along ``dim`` (that dimension removed)."""
    dim = _dim(dim, input.ndim)
    size = input.shape[dim]
    if not -size <= index < size:
        raise MSValueError(f"For 'select', 'index' must be in [{-size}, {size}), but got {index}.")
    return ops.squeeze(ops.narrow(input, dim, index % size, 1), dim)


def gather(input, dim, index):
    """``out[i][j] = input[index[i][j]][j]`` (dim 0) and likewise: PyTorch's gather."""
    return ops.gather_elements(input, dim, index)


def index_select(input, dim, index):
    """The entries of ``input`` at the 1-D ``index`` along ``dim``."""
    return ops.index_select(input, dim, index)


def take(input, index):
    """The elements of the flattened ``input`` at ``index``."""
    return ops.reshape(ops.gather(ops.reshape(input, (-1,)), ops.reshape(index, (-1,)), 0), index.shape)


def scatter(input, dim, index, src):
    """A copy of ``input`` with ``src`` written at ``index`` along ``dim`` (``src`` may be a number)."""
    if not isinstance(src, Tensor):
        src = ops.full(index.shape, src, dtype=input.dtype)
    return ops.tensor_scatter_elements(input, index, _sliced_like(src, index), dim, "none")


def scatter_add(input, dim, index, src):
    """A copy of ``input`` with ``src`` added at ``index`` along ``dim``."""
    return ops.tensor_scatter_elements(input, index, _sliced_like(src, index), dim, "add")


def _sliced_like(src, index):
    if src.shape == index.shape:
        return src
    for d, size in enumerate(index.shape):
        src = ops.narrow(src, d, 0, size)
    return src


def index_add(input, dim, index, source, *, alpha=1):
    """``input`` with ``alpha * source`` added at the 1-D ``index`` along ``dim``."""
    dim = _dim(dim, input.ndim)
    shape = [1] * source.ndim
    shape[dim] = index.shape[0]
    full_index = ops.broadcast_to(ops.reshape(_i64(index), tuple(shape)), source.shape)
    return ops.tensor_scatter_elements(input, full_index, source if alpha == 1 else ops.mul(source, alpha), dim,
                                       "add")


def where(condition, input=None, other=None):
    """``where(condition, input, other)`` picks elementwise; ``where(condition)`` is ``nonzero(as_tuple=True)``."""
    if input is None and other is None:
        return ops.nonzero(condition, as_tuple=True)
    return ops.where(condition, input, other)


def repeat_interleave(input, repeats, dim=None, *, output_size=None):
    """Repeats each element ``repeats`` times (an int or a 1-D tensor/list of counts) along ``dim``."""
    if isinstance(repeats, Tensor):
        repeats = [builtins.int(r) for r in repeats.asnumpy().reshape(-1)] if repeats.ndim else builtins.int(repeats)
    if isinstance(repeats, (list, tuple)) and len(repeats) == 1:
        repeats = repeats[0]
    return ops.repeat_interleave(input, repeats, dim)


def sort(input, *, dim=-1, descending=False, stable=False):
    """Sorted values and their int64 indices along ``dim``."""
    values, indices = ops.sort(input, dim, descending)
    return values, _i64(indices)


def argsort(input, dim=-1, descending=False, stable=False):
    """int64 indices that sort ``input`` along ``dim``."""
    return _i64(ops.argsort(input, dim, descending))


def topk(input, k, dim=-1, largest=True, sorted=True):
    """The ``k`` largest (or smallest) elements along ``dim`` and their int64 indices."""
    values, indices = ops.topk(input, k, dim, largest, sorted)
    return values, _i64(indices)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    """Insertion points of ``values`` in the last dimension of ``sorted_sequence``."""
    if side is not None:
        if side not in ("left", "right"):
            raise MSValueError(f"For 'searchsorted', 'side' must be 'left' or 'right', but got {side!r}.")
        right = side == "right"
    seq = sorted_sequence
    if sorter is not None:
        seq = ops.gather_elements(seq, seq.ndim - 1, sorter)
    scalar = not isinstance(values, Tensor)
    v = Tensor([values], seq.dtype) if scalar else values
    if seq.ndim == 1:
        cmp = (ops.le if right else ops.lt)(ops.reshape(seq, (1,) * v.ndim + seq.shape), ops.expand_dims(v, -1))
    else:
        cmp = (ops.le if right else ops.lt)(ops.expand_dims(seq, -2), ops.expand_dims(v, -1))
    out = ops.sum(ops.cast(cmp, mstype.int32), -1)
    out = out if out_int32 else ops.cast(out, mstype.int64)
    return out[0] if scalar else out


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapses runs of equal consecutive elements (of the flattened input, or of slices along ``dim``)."""
    if dim is None:
        x = ops.reshape(input, (-1,))
        changed = ops.not_equal(x[1:], x[:-1]) if x.shape[0] > 1 else None
        values_of = x
    else:
        dim = _dim(dim, input.ndim)
        x = ops.swapaxes(input, 0, dim) if dim else input
        flat = ops.reshape(x, (x.shape[0], -1))
        changed = ops.any(ops.not_equal(flat[1:], flat[:-1]), 1) if x.shape[0] > 1 else None
        values_of = x
    n = values_of.shape[0]
    first = ops.ones((1,), mstype.bool_)
    starts = first if changed is None else ops.cat((first, changed), 0)
    positions = ops.reshape(ops.nonzero(starts), (-1,))
    output = ops.gather(values_of, positions, 0)
    if dim is not None and dim:
        output = ops.swapaxes(output, 0, dim)
    result = [output]
    if return_inverse:
        inverse = ops.sub(ops.cumsum(ops.cast(starts, mstype.int64), 0), 1)
        result.append(ops.reshape(inverse, input.shape) if dim is None else inverse)
    if return_counts:
        # a run ends where the next one starts (or at the last element): no branching on the dynamic run count
        last = ops.ones((1,), mstype.bool_)
        ends = last if n == 1 else ops.cat((ops.narrow(starts, 0, 1, n - 1), last), 0)
        end_positions = ops.reshape(ops.nonzero(ends), (-1,))
        result.append(_i64(ops.add(ops.sub(end_positions, positions), 1)))
    return result[0] if len(result) == 1 else tuple(result)


def diag(input, diagonal=0):
    """A 2-D tensor with the 1-D ``input`` on diagonal ``diagonal``, or the diagonal of a 2-D ``input``."""
    if input.ndim == 1:
        n = input.shape[0] + builtins.abs(diagonal)
        base = ops.diag(input)
        if diagonal == 0:
            return base
        pad = (diagonal, 0, 0, diagonal) if diagonal > 0 else (0, -diagonal, -diagonal, 0)
        out = ops.pad(base, pad)
        return ops.reshape(out, (n, n))
    if input.ndim != 2:
        raise MSValueError(f"For 'diag', the 'input' must be a 1-D or 2-D tensor, but got shape {input.shape}.")
    rows, cols = input.shape
    r0, c0 = (0, diagonal) if diagonal >= 0 else (-diagonal, 0)
    length = builtins.max(0, builtins.min(rows - r0, cols - c0))
    flat = ops.reshape(input, (-1,))
    index = Tensor([(r0 + i) * cols + c0 + i for i in range(length)], mstype.int64)
    return ops.gather(flat, index, 0)


def clone(input):
    """A copy of ``input``."""
    return ops.identity(input)


# --- creation and random --------------------------------------------------------------------------------------
def _size_tuple(op, size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if isinstance(s, bool) or not isinstance(s, numbers.Integral) or s < 0:
            raise MSTypeError(f"For '{op}', the 'size' must be non-negative ints, but got {size}.")
    return tuple(builtins.int(s) for s in size)


def zeros(size, *, dtype=None):
    """A tensor of zeros (float32 by default)."""
    return ops.zeros(tuple(size) if isinstance(size, list) else size, dtype or mstype.float32)


def empty(*size, dtype=None, device=None, pin_memory=False):
    """A new tensor of ``size`` (filled with zeros here: its values are unspecified in MindSpore)."""
    return ops.zeros(_size_tuple("empty", size), dtype or mstype.float32)


def empty_like(input, *, dtype=None, device=None, pin_memory=False):
    """A new tensor shaped like ``input`` (values unspecified; zeros here)."""
    return ops.zeros(input.shape, dtype or input.dtype)


def rand(*size, generator=None, dtype=None, device=None):
    """Uniform samples in [0, 1)."""
    with drawing_from("rand", generator):
        return ops.rand(*_size_tuple("rand", size), dtype=dtype)


def rand_like(input, *, dtype=None, device=None):
    """Uniform samples in [0, 1) shaped like ``input``."""
    with drawing_from("rand_like", None):
        return ops.rand_like(input, dtype=dtype)


def randn(*size, generator=None, dtype=None, device=None):
    """Standard normal samples."""
    with drawing_from("randn", generator):
        return ops.randn(*_size_tuple("randn", size), dtype=dtype)


def randn_like(input, *, dtype=None, device=None):
    """Standard normal samples shaped like ``input``."""
    with drawing_from("randn_like", None):
        return ops.randn_like(input, dtype=dtype)


def randint(*args, generator=None, dtype=None, device=None):
    """``randint(high, size)`` or ``randint(low, high, size)``: integers in ``[low, high)`` (int64 default)."""
    if len(args) == 2:
        low, (high, size) = 0, args
    elif len(args) == 3:
        low, high, size = args
    else:
        raise MSTypeError(f"For 'randint', expected (high, size) or (low, high, size), but got {len(args)} "
                          f"positional arguments.")
    with drawing_from("randint", generator):
        return ops.randint(low, high, tuple(size), dtype=dtype or mstype.int64)


def randint_like(*args, dtype=None, device=None):
    """``randint_like(input, high)`` or ``randint_like(input, low, high)``."""
    if len(args) == 2:
        input, low, high = args[0], 0, args[1]
    elif len(args) == 3:
        input, low, high = args
    else:
        raise MSTypeError(f"For 'randint_like', expected (input, high) or (input, low, high), but got {len(args)} "
                          f"positional arguments.")
    with drawing_from("randint_like", None):
        out = ops.randint(low, high, input.shape, dtype=mstype.int64)
    return _to_dtype(out, dtype or input.dtype)


def randperm(n, *, generator=None, dtype=mstype.int64):
    """A random permutation of ``0 .. n-1``."""
    with drawing_from("randperm", generator):
        return ops.cast(ops.argsort(ops.rand(n)), dtype)


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Normal samples with ``mean`` and ``std`` (tensors broadcast together; two numbers need ``size``)."""
    if size is not None:
        shape = tuple(size)
    elif isinstance(mean, Tensor) or isinstance(std, Tensor):
        shape = ops.add(mean, std).shape
    else:
        raise MSValueError("For 'normal', 'size' is needed when 'mean' and 'std' are both numbers.")
    with drawing_from("normal", generator):
        return ops.add(ops.mul(ops.standard_normal(shape), std), mean)


def bernoulli(input, *, generator=None):
    """0/1 samples with probabilities ``input``."""
    with drawing_from("bernoulli", generator):
        draws = ops.rand_like(input, dtype=mstype.float32)
    return ops.cast(ops.lt(draws, ops.cast(input, mstype.float32)), input.dtype)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """``num_samples`` category indices per row drawn with weights ``input`` (int64)."""
    with drawing_from("multinomial", generator):
        return _i64(ops.multinomial(input, num_samples, replacement))


# --- matmul family --------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _cdist_prim(p):
    from mindspore.ops._defs.math_misc import Cdist
    return Cdist(p)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The ``p``-norm distance between each row of ``x1`` and each row of ``x2``: (B, P, M) x (B, R, M) -> (B, P, R)."""
    if x1.ndim < 2 or x2.ndim < 2 or x1.shape[-1] != x2.shape[-1]:
        raise MSValueError(f"For 'cdist', 'x1' and 'x2' must be at least 2-D with the same last dimension, but got "
                           f"shapes {x1.shape} and {x2.shape}.")
    if x1.ndim == x2.ndim and x1.ndim in (2, 3) and x1.shape[:-2] == x2.shape[:-2] and x1.dtype == x2.dtype \
            and x1.dtype in (mstype.float32, mstype.float64) and not isinstance(p, bool) and p >= 0:
        return _cdist_prim(float(p))(x1, x2)       # 2.10's Cdist kernel (its order of additions: its last bits)
    diff_ = ops.abs(ops.sub(ops.expand_dims(x1, -2), ops.expand_dims(x2, -3)))
    if p == 0:
        return ops.sum(ops.cast(ops.ne(diff_, 0), x1.dtype), -1)
    if p == float("inf"):
        return ops.amax(diff_, -1)
    if p == 1:
        return ops.sum(diff_, -1)
    if p == 2:
        return ops.sqrt(ops.sum(ops.mul(diff_, diff_), -1))
    return ops.pow(ops.sum(ops.pow(diff_, p), -1), 1.0 / p)


def softmax(input, dim, *, dtype=None):
    """Softmax along ``dim``."""
    return ops.softmax(_to_dtype(input, dtype), dim)


def npu_gelu(input, approximate="none"):
    """GELU (the Ascend-named entry; the same result on every backend)."""
    return ops.gelu(input, approximate)


def inverse(input):
    """The inverse of each square matrix in the last two dimensions."""
    from mindspore.mint.linalg import inv
    return inv(input)


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """Solves ``A X = b`` for triangular ``A``: ``(X, A)``."""
    from mindspore.mint.linalg import _triangular_solve
    return _triangular_solve(b, A, upper, transpose, unitriangular), A


# --- batch norm statistics (SyncBatchNorm's building blocks) -------------------------------------------------
def batch_norm_stats(input, eps):
    """``(mean, invstd)`` over every dimension but 1."""
    axes = (0,) + tuple(range(2, input.ndim))
    m = ops.mean(input, axes)
    v = ops.mean(ops.square(ops.sub(input, ops.reshape(m, (1, -1) + (1,) * (input.ndim - 2)))), axes)
    return m, ops.rsqrt(ops.add(v, eps))


def batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean=None, running_var=None, momentum=0.1,
                                        eps=1e-05, counts=None):
    """Combines per-device ``mean``/``invstd`` (rows) weighted by ``counts`` into global ``(mean, invstd)``;
    updates ``running_mean``/``running_var`` in place."""
    counts = ops.reshape(ops.cast(counts, mean.dtype), (-1, 1))
    total = ops.sum(counts)
    g_mean = ops.div(ops.sum(ops.mul(mean, counts), 0), total)
    var_i = ops.sub(ops.reciprocal(ops.square(invstd)), eps)
    g_var = ops.div(ops.sum(ops.mul(ops.add(var_i, ops.square(ops.sub(mean, g_mean))), counts), 0), total)
    if running_mean is not None:
        ops.assign(running_mean, ops.add(ops.mul(running_mean, 1 - momentum), ops.mul(g_mean, momentum)))
    if running_var is not None:
        unbiased = ops.mul(g_var, ops.div(total, ops.sub(total, 1)))
        ops.assign(running_var, ops.add(ops.mul(running_var, 1 - momentum), ops.mul(unbiased, momentum)))
    return g_mean, ops.rsqrt(ops.add(g_var, eps))


def batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None, eps=1e-05):
    """``(input - mean) * invstd * weight + bias`` with per-channel (dim 1) vectors."""
    shape = (1, -1) + (1,) * (input.ndim - 2)
    out = ops.mul(ops.sub(input, ops.reshape(mean, shape)), ops.reshape(invstd, shape))
    if weight is not None:
        out = ops.mul(out, ops.reshape(weight, shape))
    if bias is not None:
        out = ops.add(out, ops.reshape(bias, shape))
    return out


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution (``padding``: an int, a pair, ``'valid'`` or ``'same'``)."""
    from mindspore.mint.nn.functional import conv2d as _conv2d
    return _conv2d(input, weight, bias, stride, padding, dilation, groups)


def conv_tbc(input, weight, bias, pad=0):
    """1-D convolution of a (time, batch, channel) input with a (kernel, in, out) weight."""
    x = ops.transpose(input, (1, 2, 0))
    w = ops.transpose(weight, (2, 1, 0))
    out = ops.conv1d(x, w, bias, 1, "pad", pad)
    return ops.transpose(out, (2, 0, 1))

