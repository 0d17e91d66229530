"""Functional reductions: ``ops.sum``, ``ops.mean``, ``ops.max``, ``ops.argmax``, ``ops.norm``, ``ops.std``, ...

Compositions of the reduce primitives (``ops/_defs/reduce.py``) with a few elementwise ops. Several
names here (``sum``, ``max``, ``min``, ``all``, ``any``) shadow Python builtins, as in MindSpore, so
this module reaches the builtins through :mod:`builtins`.
"""
import builtins
import math as _pymath
import numbers

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs import complex_ops as _complex_defs
from mindspore.ops._defs import linalg_more as _linalg_more_defs
from mindspore.ops._defs import math_prims as _math_prims
from mindspore.ops._defs import reduce as reduce_defs
from mindspore.ops._defs._lazy import functional as fops

__all__ = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "sum", "mean", "max", "min", "amax", "amin",
           "aminmax", "prod", "all", "any", "argmax", "argmin", "logsumexp", "norm", "std", "var", "std_mean",
           "var_mean", "count_nonzero", "cummax", "cummin", "median"]

_cache = {}


def _prim(cls, *args):
    """One primitive instance per (class, attributes), so eager caches are reused across calls."""
    key = (cls, args)
    p = _cache.get(key)
    if p is None:
        p = _cache[key] = cls(*args)
    return p


def _check_tensor(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the input '{name}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _axis_arg(axis):
    """The functional ``axis``/``dim`` in the primitives' form: None -> () (every axis), lists -> tuples."""
    if axis is None:
        return ()
    if isinstance(axis, list):
        return tuple(axis)
    if isinstance(axis, Tensor):
        return tuple(int(a) for a in axis.asnumpy().reshape(-1))
    return axis


def _keep(op, keep_dims, name="keep_dims"):
    return rules.check_bool(op, name, keep_dims)


# --- Reduce<Op> wrappers ----------------------------------------------------------------------
def reduce_sum(input, axis=(), keep_dims=False):
    """Sum of ``input`` over ``axis`` (every axis when empty)."""
    return _prim(reduce_defs.ReduceSum, _keep("reduce_sum", keep_dims))(input, _axis_arg(axis))


def reduce_mean(input, axis=(), keep_dims=False):
    """Mean of ``input`` over ``axis`` (every axis when empty)."""
    return _prim(reduce_defs.ReduceMean, _keep("reduce_mean", keep_dims))(input, _axis_arg(axis))


def reduce_max(input, axis=(), keep_dims=False):
    """Maximum of ``input`` over ``axis`` (every axis when empty)."""
    return _prim(reduce_defs.ReduceMax, _keep("reduce_max", keep_dims))(input, _axis_arg(axis))


def reduce_min(input, axis=(), keep_dims=False):
    """Minimum of ``input`` over ``axis`` (every axis when empty)."""
    return _prim(reduce_defs.ReduceMin, _keep("reduce_min", keep_dims))(input, _axis_arg(axis))


def _accumulate_in(input, dtype):
    """``input`` in the dtype ``sum``/``prod`` accumulate in: ``dtype`` when given, else int64 for integer and
    bool inputs (MindSpore's: a uint8 image sums to its true total, not modulo 256), the input's own otherwise."""
    if dtype is not None:
        return fops.cast(input, dtype)
    if input.dtype is mstype.bool_ or (mstype.is_int(input.dtype) and input.dtype is not mstype.int64):
        return fops.cast(input, mstype.int64)
    return input


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum of ``input`` over ``dim`` (every dimension when None).

    Args:
        input (Tensor): The input.
        dim (Union[None, int, tuple(int), list(int)]): Dimensions to reduce. Default ``None``: all.
        keepdim (bool): Keep the reduced dimensions with size 1. Default ``False``.
        dtype (mindspore.dtype, optional): Cast ``input`` to this dtype first. Default: ``None``: integer and
            bool inputs are summed in (and return) int64, others in their own dtype.

    Returns:
        Tensor.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.sum(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), dim=1))
        [3. 7.]
    """
    _check_tensor("sum", "input", input)
    input = _accumulate_in(input, dtype)
    return _prim(reduce_defs.ReduceSum, _keep("sum", keepdim, "keepdim"))(input, _axis_arg(dim))


def mean(x, axis=None, keep_dims=False):
    """Mean of ``x`` over ``axis`` (every axis when None).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.mean(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0))
        [2. 3.]
    """
    _check_tensor("mean", "x", x)
    return _prim(reduce_defs.ReduceMean, _keep("mean", keep_dims))(x, _axis_arg(axis))


def _initial_and_where(op, input, initial, where, combine):
    if initial is not None:
        if isinstance(initial, bool) or not isinstance(initial, (numbers.Number, Tensor)):
            raise MSTypeError(f"For '{op}', the 'initial' must be a scalar, but got {type(initial).__name__}.")
        input = combine(input, initial)
    if where is not None:
        if initial is None:
            raise MSValueError(f"For '{op}', the 'initial' must be given when 'where' is given.")
        fill = fops.fill(input.dtype, (), initial)
        input = fops.select(fops.broadcast_to(where, input.shape), input,
                            fops.broadcast_to(fill, input.shape))
    return input


def _extremum_with_index(op, cls, reduce_cls, input, axis, keepdims, initial, where, combine):
    _check_tensor(op, "input", input)
    _keep(op, keepdims, "keepdims")
    if axis is None:
        return _prim(reduce_cls, False)(input, ()), Tensor(0, mstype.int64)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise MSTypeError(f"For '{op}', the 'axis' must be an int, but got {type(axis).__name__}.")
    input = _initial_and_where(op, input, initial, where, combine)
    index, values = _prim(cls, axis, keepdims)(input)
    return values, index


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Maximum of ``input`` along ``axis`` and its index: returns ``(values, indices)``.

    With ``axis=None`` the maximum of every element is returned with index ``0``. Ties give the
    first index.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> values, index = ops.max(ms.Tensor([[1.0, 5.0], [4.0, 2.0]]), axis=1)
        >>> print(values, index)
        [5. 4.] [1 0]
    """
    return _extremum_with_index("max", reduce_defs.ArgMaxWithValue, reduce_defs.ReduceMax, input, axis, keepdims,
                                initial, where, lambda a, b: fops.maximum(a, b))


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Minimum of ``input`` along ``axis`` and its index: returns ``(values, indices)``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> values, index = ops.min(ms.Tensor([[1.0, 5.0], [4.0, 2.0]]), axis=1)
        >>> print(values, index)
        [1. 2.] [0 1]
    """
    return _extremum_with_index("min", reduce_defs.ArgMinWithValue, reduce_defs.ReduceMin, input, axis, keepdims,
                                initial, where, lambda a, b: fops.minimum(a, b))


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Maximum of ``input`` over ``axis`` (every axis when None); the gradient splits between ties.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.amax(ms.Tensor([[1.0, 5.0], [4.0, 2.0]]), axis=0))
        [4. 5.]
    """
    _check_tensor("amax", "input", input)
    input = _initial_and_where("amax", input, initial, where, lambda a, b: fops.maximum(a, b))
    return _prim(reduce_defs.ReduceMax, _keep("amax", keepdims, "keepdims"))(input, _axis_arg(axis))


def amin(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Minimum of ``input`` over ``axis`` (every axis when None)."""
    _check_tensor("amin", "input", input)
    input = _initial_and_where("amin", input, initial, where, lambda a, b: fops.minimum(a, b))
    return _prim(reduce_defs.ReduceMin, _keep("amin", keepdims, "keepdims"))(input, _axis_arg(axis))


def aminmax(input, *, axis=0, keepdims=False):
    """``(amin, amax)`` of ``input`` along ``axis`` (every axis when None)."""
    return amin(input, axis, keepdims), amax(input, axis, keepdims)


def prod(input, axis=None, keep_dims=False, dtype=None):
    """Product of ``input`` over ``axis`` (every axis when None), optionally cast to ``dtype`` first.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.prod(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), axis=1))
        [ 2. 12.]
    """
    _check_tensor("prod", "input", input)
    input = _accumulate_in(input, dtype)
    return _prim(reduce_defs.ReduceProd, _keep("prod", keep_dims))(input, _axis_arg(axis))


def _as_bool(input):
    return input if input.dtype is mstype.bool_ else fops.cast(input, mstype.bool_)


def all(input, axis=None, keep_dims=False):
    """Whether every element over ``axis`` is true (non-bool inputs are compared with 0).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.all(ms.Tensor([[True, False], [True, True]]), axis=1))
        [False  True]
    """
    _check_tensor("all", "input", input)
    return _prim(reduce_defs.ReduceAll, _keep("all", keep_dims))(_as_bool(input), _axis_arg(axis))


def any(input, axis=None, keep_dims=False):
    """Whether some element over ``axis`` is true (non-bool inputs are compared with 0)."""
    _check_tensor("any", "input", input)
    return _prim(reduce_defs.ReduceAny, _keep("any", keep_dims))(_as_bool(input), _axis_arg(axis))


def _arg_extremum(op, cls, input, axis, keep, out_type):
    _check_tensor(op, "input", input)
    if op == "argmin" and isinstance(keep, int) and not isinstance(keep, bool):
        keep = bool(keep)  # MindSpore 2.10's ops.argmin (not argmax) takes an int 0/1 as keepdims
    rules.check_bool(op, "keepdim", keep)
    if input.dtype is mstype.bool_:
        input = fops.cast(input, mstype.int32)
    if axis is None:
        return _prim(cls, 0, out_type)(fops.reshape(input, (-1,)))
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise MSTypeError(f"For '{op}', the 'axis' must be an int, but got {type(axis).__name__}.")
    out = _prim(cls, axis, out_type)(input)
    if keep and input.ndim:
        out = fops.reshape(out, reduce_defs.kept_shape(input.shape, axis))
    return out


def argmax(input, dim=None, keepdim=False):
    """Index of the maximum of ``input`` along ``dim`` (of the flattened input when None), as Int64.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.argmax(ms.Tensor([[1.0, 5.0], [4.0, 2.0]]), dim=1))
        [1 0]
    """
    return _arg_extremum("argmax", reduce_defs.Argmax, input, dim, keepdim, mstype.int64)


def argmin(input, axis=None, keepdims=False):
    """Index of the minimum of ``input`` along ``axis`` (of the flattened input when None), as Int32."""
    return _arg_extremum("argmin", reduce_defs.Argmin, input, axis, keepdims, mstype.int32)


def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(input), dim))``, computed stably (the maximum is factored out).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.logsumexp(ms.Tensor([0.0, 0.0]), 0))
        0.6931472
    """
    _check_tensor("logsumexp", "input", input)
    rules.check_bool("logsumexp", "keepdim", keepdim)
    axis = _axis_arg(dim)
    peak = _prim(reduce_defs.ReduceMax, True)(input, axis)   # (its gradient flows, as in 2.10: not exactly 0)
    total = _prim(reduce_defs.ReduceSum, True)(fops.exp(fops.sub(input, peak)), axis)
    out = fops.add(fops.log(total), peak)
    if not keepdim:
        out = fops.reshape(out, rules.reduce_shape("logsumexp", input.shape, axis, False))
    return out


# --- norms ------------------------------------------------------------------------------------
def _root_sum_squares(A, dim, keepdim):
    """The default (``ord=None``/'fro') norm as MindSpore 2.10 composes it: Sqrt(ReduceSum(Square(A))), its bits;
    ``ord=2`` runs the LpNorm kernel instead (another order of the sums). At a zero sum Sqrt's gradient is 0/0, NaN in
    2.10: ours is 0 there (the sum's zeros are taken apart before the Sqrt, the values unchanged)."""
    total = _prim(reduce_defs.ReduceSum, keepdim)(fops.square(A), dim)
    zero = fops.equal(total, 0)
    root = fops.sqrt(fops.select(zero, fops.ones_like(total), total))
    return fops.select(zero, fops.zeros_like(total), root)


def _vector_norm(A, ord, dim, keepdim):
    if ord is None:
        return _root_sum_squares(A, dim, keepdim)
    if ord == 2:
        return _prim(reduce_defs.LpNorm, dim, 2, keepdim)(A)
    if ord == float("inf"):
        return amax(fops.abs(A), dim, keepdim)
    if ord == float("-inf"):
        return amin(fops.abs(A), dim, keepdim)
    if isinstance(ord, int) and ord >= 0:
        return _prim(reduce_defs.LpNorm, dim, ord, keepdim)(A)
    total = sum(fops.pow(fops.abs(A), ord), dim, keepdim)
    return fops.pow(total, 1.0 / ord)


def _matrix_norm(A, ord, dim, keepdim):
    rows, cols = dim
    if ord is None or ord == "fro":
        return _root_sum_squares(A, dim, keepdim)
    if ord in (1, -1, float("inf"), float("-inf")):
        inner, outer = (rows, cols) if ord in (1, -1) else (cols, rows)
        pick = amax if ord in (1, float("inf")) else amin
        out = pick(sum(fops.abs(A), inner, True), outer, True)
        if not keepdim:
            out = fops.reshape(out, rules.reduce_shape("norm", A.shape, dim, False))
        return out
    if ord in ("nuc", 2, -2):
        return _singular_value_norm(A, ord, (rows, cols), keepdim)
    raise MSValueError(f"For 'norm', the matrix 'ord' must be one of None, 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, "
                       f"but got {ord!r}.")


def _singular_value_norm(A, ord, dim, keepdim):
    """The nuclear norm (the sum of the singular values) or the 2/-2 norm (the largest/smallest) over the two
    dimensions ``dim``, from the ``Svd`` primitive; of complex ``A``, in its real dtype (as MindSpore 2.10)."""
    d0, d1 = (d % A.ndim for d in dim)
    if d0 == d1:
        raise MSValueError(f"For 'norm', the 'dim' must name two different dimensions, but got {dim}.")
    rest = [i for i in builtins.range(A.ndim) if i not in (d0, d1)]
    moved = fops.transpose(A, tuple(rest + [d0, d1]))
    half = A.dtype in (mstype.float16, mstype.bfloat16)        # (Svd takes float32/64: half computes in float32)
    sv = _prim(_linalg_more_defs.Svd, False, False)(fops.cast(moved, mstype.float32) if half else moved)[0]
    if mstype.is_complex(sv.dtype):
        sv = _prim(_complex_defs.Real)(sv)
    if ord == "nuc":
        out = _prim(reduce_defs.ReduceSum, False)(sv, -1)
    elif ord == 2:
        out = _prim(reduce_defs.ReduceMax, False)(sv, -1)
    else:
        out = _prim(reduce_defs.ReduceMin, False)(sv, -1)
    if half:
        out = fops.cast(out, A.dtype)
    if keepdim:
        shape = list(A.shape)
        shape[d0] = shape[d1] = 1
        out = fops.reshape(out, tuple(shape))
    return out


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Vector or matrix norm of ``A``.

    With ``dim=None`` and ``ord=None`` this is the 2-norm of the flattened input. ``dim`` an int (or
    a 1-D input) gives a vector norm: ``ord`` in {None/2, inf, -inf, 0, p}; a 2-tuple ``dim`` (or a
    2-D input with ``ord`` given) gives a matrix norm: ``ord`` in {None/'fro', 1, -1, inf, -inf}.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.norm(ms.Tensor([3.0, 4.0])))
        5.0
    """
    _check_tensor("norm", "A", A)
    if dtype is not None:
        A = fops.cast(A, dtype)
    elif A.dtype == mstype.bool_ or mstype.is_int(A.dtype):
        A = fops.cast(A, mstype.float32)  # MindSpore 2.10 takes integer tensors, with a Float32 norm
    if mstype.is_complex(A.dtype):
        matrix = isinstance(dim, (tuple, list)) and len(dim) == 2 or dim is None and ord is not None and A.ndim == 2
        if matrix and ord in ("nuc", 2, -2):
            return _singular_value_norm(A, ord, tuple(dim) if dim is not None else (0, 1), keepdim)
        # MindSpore 2.10: the norm of the magnitudes, the 2-norm and Frobenius norm given in the complex dtype
        out = norm(_prim(_complex_defs.ComplexAbs)(A), ord, dim, keepdim)
        return fops.cast(out, A.dtype) if ord in (None, 2, "fro") else out
    rules.check_dtype_in("norm", "A", A.dtype, (mstype.float16, mstype.float32, mstype.float64))
    rules.check_bool("norm", "keepdim", keepdim)
    if dim is None:
        if ord is None:
            return _root_sum_squares(A, tuple(builtins.range(A.ndim)), keepdim)
        if A.ndim not in (1, 2):
            raise MSValueError(f"For 'norm', the input must be 1-D or 2-D when 'ord' is given and 'dim' is None, "
                               f"but got shape {A.shape}.")
        dim = tuple(builtins.range(A.ndim))
    dim = rules.check_int_tuple("norm", "dim", dim)
    if len(dim) == 1:
        if isinstance(ord, str):
            raise MSValueError(f"For 'norm', the 'ord' of a vector norm must be a number, but got {ord!r}.")
        return _vector_norm(A, ord, dim, keepdim)
    if len(dim) == 2:
        return _matrix_norm(A, ord, dim, keepdim)
    raise MSValueError(f"For 'norm', the 'dim' must have 1 or 2 elements, but got {dim}.")


# --- moments ----------------------------------------------------------------------------------
def _check_ddof(op, ddof):
    if isinstance(ddof, bool):
        return int(ddof)
    return rules.check_int(op, "ddof", ddof)


def _moments(op, input, axis, ddof, keepdims):
    _check_tensor(op, "input", input)
    rules.check_bool(op, "keepdims", keepdims)
    ddof = _check_ddof(op, ddof)
    axis = _axis_arg(axis)
    n = reduce_defs.reduced_count(input.shape, axis)
    m = _prim(reduce_defs.ReduceMean, True)(input, axis)
    centred = fops.sub(input, m)
    var = fops.div(_prim(reduce_defs.ReduceSum, keepdims)(fops.mul(centred, centred), axis), builtins.max(n - ddof, 0))
    if not keepdims:
        m = fops.reshape(m, rules.reduce_shape(op, input.shape, axis, False))
    return var, m


def var(input, axis=None, ddof=0, keepdims=False):
    """Variance of ``input`` over ``axis`` with ``N - ddof`` in the denominator (``ddof=True`` means 1)."""
    return _moments("var", input, axis, ddof, keepdims)[0]


def var_mean(input, axis=None, ddof=0, keepdims=False):
    """``(variance, mean)`` of ``input`` over ``axis``."""
    return _moments("var_mean", input, axis, ddof, keepdims)


def _std_mean(op, input, axis, ddof, keepdims):
    _check_tensor(op, "input", input)
    rules.check_bool(op, "keepdims", keepdims)
    ddof = _check_ddof(op, ddof)
    axis = _axis_arg(axis)
    rules.check_dtype_in(op, "input", input.dtype, (mstype.float16, mstype.float32, mstype.float64))
    std, m = _prim(reduce_defs.ReduceStd, axis, ddof == 1, keepdims)(input)
    if ddof not in (0, 1):
        n = reduce_defs.reduced_count(input.shape, axis)
        # N - ddof of 0 divides by zero (inf; NaN for a zero sum), a negative one gives NaN, as in MindSpore 2.10
        scale = _pymath.sqrt(n / (n - ddof)) if n > ddof else float("inf") if n == ddof else float("nan")
        std = fops.mul(std, scale)
    return std, m


def std(input, axis=None, ddof=0, keepdims=False):
    """Standard deviation of ``input`` over ``axis`` with ``N - ddof`` in the denominator.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.std(ms.Tensor([1.0, 3.0])))
        1.0
    """
    return _std_mean("std", input, axis, ddof, keepdims)[0]


def std_mean(input, axis=None, ddof=0, keepdims=False):
    """``(standard deviation, mean)`` of ``input`` over ``axis``."""
    return _std_mean("std_mean", input, axis, ddof, keepdims)


def count_nonzero(x, axis=(), keep_dims=False, dtype=mstype.int32):
    """Number of non-zero elements of ``x`` over ``axis`` (every axis when empty), as ``dtype``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.count_nonzero(ms.Tensor([[0, 1], [2, 0]]), axis=1))
        [1 1]
    """
    _check_tensor("count_nonzero", "x", x)
    axes = _axis_arg(axis)
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    out = _prim(_math_prims.CountNonZero, axes if axes else None)(x)
    if keep_dims:
        kept = rules.normalize_axes("count_nonzero", axes, x.ndim) if axes else tuple(range(x.ndim))
        out = fops.reshape(out, tuple(1 if i in kept else s for i, s in enumerate(x.shape)))
    return fops.cast(out, dtype)


def cummax(input, axis):
    """Running maximum of ``input`` along ``axis`` and where it was reached: ``(values, indices)``."""
    _check_tensor("cummax", "input", input)
    return _prim(reduce_defs.Cummax, axis)(input)


def cummin(input, axis):
    """Running minimum of ``input`` along ``axis`` and where it was reached: ``(values, indices)``."""
    _check_tensor("cummin", "input", input)
    return _prim(reduce_defs.Cummin, axis)(input)


def median(input, axis=-1, keepdims=False):
    """Median of ``input`` along ``axis`` (the lower middle value for even counts) and its index.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> values, index = ops.median(ms.Tensor([[1.0, 7.0, 3.0]]), axis=1)
        >>> print(values, index)
        [3.] [2]
    """
    _check_tensor("median", "input", input)
    return _prim(reduce_defs.Median, False, axis, keepdims, False)(input)
