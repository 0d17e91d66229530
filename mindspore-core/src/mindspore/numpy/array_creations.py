"""Array creation: ``array``, ``zeros``, ``arange``, ``linspace``, ``eye``, ``tri``, ``pad``, windows, grids.

Arrays made from Python numbers are built on the host and become constant tensors (no device data
is read); functions of tensors (``linspace`` of tensor bounds, ``tril``, ``diagonal``, ``pad``...)
are compositions of ``mindspore.ops``, so they are differentiable and usable in GRAPH_MODE.
Defaults are MindSpore's: Python ints give Int32, Python floats Float32.
"""
import math as _math

import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
import mindspore.ops as ops
from mindspore.numpy.dtypes import to_dtype
from mindspore.numpy.utils import (as_shape, cast_to, check_int, check_tensor, const, host_array, is_scalar,
                                   normalize_axis, to_float, to_tensor)

__all__ = ["array", "asarray", "asfarray", "ones", "zeros", "full", "empty", "ones_like", "zeros_like", "full_like",
           "empty_like", "arange", "linspace", "logspace", "geomspace", "eye", "identity", "tri", "tril", "triu",
           "diag", "diagflat", "diagonal", "trace", "indices", "ix_", "meshgrid", "mgrid", "ogrid", "diag_indices",
           "tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from", "vander", "bartlett",
           "blackman", "hamming", "hanning", "histogram_bin_edges", "pad", "rand", "randn", "randint"]


def array(obj, dtype=None, copy=True, ndmin=0):
    """Creates a tensor from ``obj`` (scalar, nested list/tuple, NumPy array or Tensor).

    Args:
        obj: The input data.
        dtype (Union[mindspore.dtype, str], optional): The result dtype; inferred when ``None``
            (Python int -> Int32, float -> Float32).
        copy (bool): Whether a Tensor input is copied. Default: ``True``.
        ndmin (int): Minimum number of dimensions (ones are prepended). Default: ``0``.

    Returns:
        Tensor.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.array([1, 2, 3]))
        [1 2 3]
    """
    if isinstance(obj, Tensor):
        out = cast_to(obj, dtype)
        if copy and out is obj:
            out = ops.identity(obj)
    elif isinstance(obj, (list, tuple)) and any(isinstance(v, Tensor) for v in _flatten(obj)):
        out = cast_to(to_tensor(obj, "array"), dtype)
    else:
        out = Tensor(host_array("array", obj, dtype))
    ndmin = check_int("array", "ndmin", ndmin)
    if out.ndim < ndmin:
        out = ops.reshape(out, (1,) * (ndmin - out.ndim) + tuple(out.shape))
    return out


def _flatten(seq):
    for v in seq:
        if isinstance(v, (list, tuple)):
            yield from _flatten(v)
        else:
            yield v


def asarray(a, dtype=None):
    """Converts ``a`` to a tensor (a Tensor of the same dtype is returned as is).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.asarray([1.0, 2.0]))
        [1. 2.]
    """
    return array(a, dtype, copy=False)


def asfarray(a, dtype=mstype.float32):
    """Converts ``a`` to a float tensor (``dtype`` must be a float type; an integer one gives Float32).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.asfarray([1, 2]))
        [1. 2.]
    """
    dtype = to_dtype("asfarray", dtype)
    if not mstype.is_float(dtype):
        dtype = mstype.float32
    return asarray(a, dtype)


def _filled(op, shape, value, dtype):
    shape = as_shape(op, shape)
    if isinstance(value, Tensor):
        dtype = value.dtype if dtype is None else to_dtype(op, dtype)
        return ops.broadcast_to(cast_to(value, dtype), shape)
    dtype = host_array(op, value).dtype if dtype is None else mstype.dtype_to_nptype(to_dtype(op, dtype))
    return Tensor(_np.full(shape, value, dtype=dtype))


def ones(shape, dtype=mstype.float32):
    """A tensor of ``shape`` filled with ones (default Float32).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.ones((2, 2)))
        [[1. 1.]
         [1. 1.]]
    """
    return _filled("ones", shape, 1, dtype)


def zeros(shape, dtype=mstype.float32):
    """A tensor of ``shape`` filled with zeros (default Float32).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.zeros((2,)))
        [0. 0.]
    """
    return _filled("zeros", shape, 0, dtype)


def full(shape, fill_value, dtype=None):
    """A tensor of ``shape`` filled with ``fill_value`` (dtype inferred from it when ``None``).

    ``fill_value`` may be a Tensor broadcastable to ``shape``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.full((2,), 3))
        [3 3]
    """
    if isinstance(fill_value, (list, tuple)):
        fill_value = to_tensor(fill_value, "full")
    return _filled("full", shape, fill_value, dtype)


def empty(shape, dtype=mstype.float32):
    """A new tensor of ``shape`` (MindSpore initialises it; here with zeros).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.empty((2,)).shape)
        (2,)
    """
    return _filled("empty", shape, 0, dtype)


def _like(op, a, value, dtype, shape):
    a = to_tensor(a, op)
    dtype = a.dtype if dtype is None else to_dtype(op, dtype)
    shape = tuple(a.shape) if shape is None else as_shape(op, shape)
    if isinstance(value, Tensor):
        return ops.broadcast_to(cast_to(value, dtype), shape)
    return Tensor(_np.full(shape, value, dtype=mstype.dtype_to_nptype(dtype)))


def ones_like(a, dtype=None, shape=None):
    """Ones with the shape and dtype of ``a`` (either overridden).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.ones_like(np.zeros((2,), np.int32)))
        [1 1]
    """
    return _like("ones_like", a, 1, dtype, shape)


def zeros_like(a, dtype=None, shape=None):
    """Zeros with the shape and dtype of ``a`` (either overridden).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.zeros_like(np.ones((2, 2))))
        [[0. 0.]
         [0. 0.]]
    """
    return _like("zeros_like", a, 0, dtype, shape)


def empty_like(prototype, dtype=None, shape=None):
    """A new tensor with the shape and dtype of ``prototype`` (initialised with zeros).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.empty_like(np.ones((2,))).shape)
        (2,)
    """
    return _like("empty_like", prototype, 0, dtype, shape)


def full_like(a, fill_value, dtype=None, shape=None):
    """A tensor like ``a`` filled with ``fill_value``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.full_like(np.ones((2,)), 0.5))
        [0.5 0.5]
    """
    if isinstance(fill_value, (list, tuple)):
        fill_value = to_tensor(fill_value, "full_like")
    return _like("full_like", a, fill_value, dtype, shape)


def _number(op, name, v):
    if isinstance(v, Tensor):
        if v.ndim != 0:
            raise MSValueError(f"For '{op}', the '{name}' must be a scalar, but got a Tensor of shape {v.shape}.")
        return v.item()
    if not is_scalar(v):
        raise MSTypeError(f"For '{op}', the '{name}' must be int or float, but got {type(v).__name__}.")
    return v


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in ``[start, stop)`` with ``step``.

    The default dtype is Int32 when every argument is an int, Float32 otherwise.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.arange(0, 5, 1))
        [0 1 2 3 4]
    """
    start = _number("arange", "start", start)
    if stop is None:
        start, stop = 0, start
    stop = _number("arange", "stop", stop)
    step = 1 if step is None else _number("arange", "step", step)
    if step == 0:
        raise MSValueError("For 'arange', the 'step' must not be 0.")
    values = (start, stop, step)
    if dtype is None:
        dtype = mstype.int32 if all(isinstance(v, (int, _np.integer)) for v in values) else mstype.float32
    dtype = mstype.dtype_to_nptype(to_dtype("arange", dtype))
    n = max(0, _math.ceil((stop - start) / step))
    return Tensor((start + step * _np.arange(n, dtype=_np.float64)).astype(dtype)
                  if not _np.issubdtype(dtype, _np.integer) else _np.arange(start, stop, step).astype(dtype))


def _axis_spaced(values, axis, ndim):
    # values has the sample axis first; move it to `axis`
    if axis == 0 or ndim <= 1:
        return values
    return ops.moveaxis(values, 0, axis)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced samples from ``start`` to ``stop`` (Tensor bounds broadcast: result is
    ``(num,) + shape`` with the samples on ``axis``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.linspace(0, 5, 6))
        [0. 1. 2. 3. 4. 5.]
    """
    num = check_int("linspace", "num", num)
    if num < 0:
        raise MSValueError(f"For 'linspace', the 'num' must be non-negative, but got {num}.")
    start, stop = to_float(to_tensor(start, "linspace")), to_float(to_tensor(stop, "linspace"))
    if start.dtype != stop.dtype:
        common = mstype.promote_types(start.dtype, stop.dtype)
        start, stop = cast_to(start, common), cast_to(stop, common)
    div = (num - 1) if endpoint else num
    delta = stop - start
    steps = const(_np.arange(num), start.dtype)
    bshape = (num,) + (1,) * max(start.ndim, stop.ndim)
    steps = ops.reshape(steps, bshape)
    if div > 0:
        step = delta / div
        out = steps * step + start
        if endpoint and num > 1:
            out = ops.concat((out[:-1], ops.expand_dims(stop + start * 0, 0)), 0)
    else:
        step = delta * _math.nan
        out = steps * delta + start
    out = _axis_spaced(out, normalize_axis("linspace", axis, out.ndim) if out.ndim > 1 else 0, out.ndim)
    out = cast_to(out, dtype)
    return (out, step) if retstep else out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``base ** linspace(start, stop, num)``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.logspace(0, 2, 3))
        [  1.  10. 100.]
    """
    exponents = linspace(start, stop, num, endpoint, False, None, axis)
    out = ops.pow(to_tensor(base, "logspace") if not is_scalar(base) else float(base), exponents)
    return cast_to(out, dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Samples evenly spaced on a log scale from ``start`` to ``stop``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.geomspace(1, 100, 3))
        [  1.  10. 100.]
    """
    start, stop = to_float(to_tensor(start, "geomspace")), to_float(to_tensor(stop, "geomspace"))
    out_dtype = mstype.promote_types(start.dtype, stop.dtype) if dtype is None else to_dtype("geomspace", dtype)
    # in float64, so that 1 -> 100 passes through 10 exactly after rounding back, as NumPy's does
    start, stop = ops.cast(start, mstype.float64), ops.cast(stop, mstype.float64)
    # both bounds negative: the mirror image of the positive sequence (NumPy's rule)
    sign = ops.cast(ops.less(start, 0), mstype.float64) * -2 + 1
    exponents = linspace(ops.log(start * sign), ops.log(stop * sign), num, endpoint, False, None, axis)
    signs = linspace(sign, sign, num, endpoint, False, None, axis)  # laid out like the samples
    return cast_to(ops.exp(exponents) * signs, out_dtype)


def eye(N, M=None, k=0, dtype=mstype.float32):
    """A 2-D tensor with ones on the ``k``-th diagonal.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.eye(2, 2))
        [[1. 0.]
         [0. 1.]]
    """
    n = check_int("eye", "N", N)
    m = n if M is None else check_int("eye", "M", M)
    return Tensor(_np.eye(n, m, check_int("eye", "k", k), dtype=mstype.dtype_to_nptype(to_dtype("eye", dtype))))


def identity(n, dtype=mstype.float32):
    """The ``n`` x ``n`` identity matrix.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.identity(2))
        [[1. 0.]
         [0. 1.]]
    """
    return eye(n, n, 0, dtype)


def tri(N, M=None, k=0, dtype=mstype.float32):
    """Ones at and below the ``k``-th diagonal, zeros elsewhere.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.tri(3, 3, -1))
        [[0. 0. 0.]
         [1. 0. 0.]
         [1. 1. 0.]]
    """
    n = check_int("tri", "N", N)
    m = n if M is None else check_int("tri", "M", M)
    return Tensor(_np.tri(n, m, check_int("tri", "k", k), dtype=mstype.dtype_to_nptype(to_dtype("tri", dtype))))


def _tri_mask(x, k, lower):
    n, m = x.shape[-2:]
    mask = _np.tri(n, m, k, dtype=bool) if lower else ~_np.tri(n, m, k - 1, dtype=bool)
    return ops.where(Tensor(mask), x, ops.zeros_like(x))


def tril(m, k=0):
    """The lower triangle (at and below diagonal ``k``) of the last two axes; a 1-D input is
    broadcast to a square first.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.tril(np.ones((3, 3)), -1))
        [[0. 0. 0.]
         [1. 0. 0.]
         [1. 1. 0.]]
    """
    m = to_tensor(m, "tril")
    if m.ndim < 2:
        m = ops.broadcast_to(m, (m.shape[-1] if m.ndim else 1,) * 2)
    return _tri_mask(m, check_int("tril", "k", k), True)


def triu(m, k=0):
    """The upper triangle (at and above diagonal ``k``) of the last two axes.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.triu(np.ones((3, 3)), 1))
        [[0. 1. 1.]
         [0. 0. 1.]
         [0. 0. 0.]]
    """
    m = to_tensor(m, "triu")
    if m.ndim < 2:
        m = ops.broadcast_to(m, (m.shape[-1] if m.ndim else 1,) * 2)
    return _tri_mask(m, check_int("triu", "k", k), False)


def _diag_rows(n, m, k):
    length = max(0, min(n, m - k) if k >= 0 else min(n + k, m))
    first = 0 if k >= 0 else -k
    return first, length


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal ``offset`` of the ``axis1``/``axis2`` plane, as the last axis of the result.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.diagonal(np.arange(4).reshape(2, 2)))
        [0 3]
    """
    a = to_tensor(a, "diagonal")
    if a.ndim < 2:
        raise MSValueError(f"For 'diagonal', the input must have at least 2 dimensions, but got {a.ndim}.")
    offset = check_int("diagonal", "offset", offset)
    ax1 = normalize_axis("diagonal", axis1, a.ndim, "axis1")
    ax2 = normalize_axis("diagonal", axis2, a.ndim, "axis2")
    if ax1 == ax2:
        raise MSValueError("For 'diagonal', the 'axis1' and 'axis2' must be different.")
    a = ops.moveaxis(a, (ax1, ax2), (-2, -1))
    n, m = a.shape[-2:]
    first, length = _diag_rows(n, m, offset)
    rows = Tensor(_np.arange(first, first + length, dtype=_np.int32))
    cols = Tensor(_np.arange(first + offset, first + offset + length, dtype=_np.int32))
    return a[..., rows, cols]


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """The sum along a diagonal.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.trace(np.eye(3)))
        3.0
    """
    d = diagonal(a, offset, axis1, axis2)
    if dtype is None and d.dtype in (mstype.bool_, mstype.int8, mstype.int16, mstype.int32, mstype.uint8,
                                      mstype.uint16, mstype.uint32):
        dtype = mstype.int64
    d = cast_to(d, dtype)
    if d.shape[-1] == 0:
        return ops.zeros(d.shape[:-1], d.dtype)
    return ops.reduce_sum(d, -1)


def diag(v, k=0):
    """The ``k``-th diagonal of a 2-D input, or a 2-D tensor with a 1-D input on that diagonal.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.diag(np.array([1, 2])))
        [[1 0]
         [0 2]]
    """
    v = to_tensor(v, "diag")
    k = check_int("diag", "k", k)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        mask = Tensor(_np.eye(n, n, k, dtype=bool))
        # the value at (i, i + k) is v[i] (k >= 0: constant along a row) or v[j] (k < 0: along a column)
        padded = ops.concat((v, ops.zeros((abs(k),), v.dtype)), 0) if k else v
        spread = ops.broadcast_to(ops.reshape(padded, (n, 1) if k >= 0 else (1, n)), (n, n))
        return ops.where(mask, spread, ops.zeros_like(spread))
    if v.ndim == 2:
        return diagonal(v, k)
    raise MSValueError(f"For 'diag', the input must be 1-D or 2-D, but got {v.ndim}-D.")


def diagflat(v, k=0):
    """A 2-D tensor with the flattened input on diagonal ``k``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.diagflat(np.array([[1, 2], [3, 4]])))
        [[1 0 0 0]
         [0 2 0 0]
         [0 0 3 0]
         [0 0 0 4]]
    """
    v = to_tensor(v, "diagflat")
    return diag(ops.reshape(v, (-1,)), k)


def indices(dimensions, dtype=mstype.int32, sparse=False):
    """The indices of a grid of shape ``dimensions``: a list of one tensor per axis (as MindSpore 2.10;
    NumPy stacks them), each of the full shape or, with ``sparse``, broadcastable to it.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.indices((2, 3))[0])
        [[0 0 0]
         [1 1 1]]
    """
    dims = tuple(check_int("indices", "dimensions", d) for d in
                 (dimensions if isinstance(dimensions, (tuple, list)) else (dimensions,)))
    np_dtype = mstype.dtype_to_nptype(to_dtype("indices", dtype))
    grids = _np.indices(dims, dtype=np_dtype, sparse=sparse)
    return [Tensor(_np.ascontiguousarray(g)) for g in grids]


def ix_(*args):
    """Open-mesh index tensors from 1-D sequences (each reshaped to be broadcastable along one axis).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.ix_(np.array([0, 1]), np.array([2, 4]))[1].shape)
        (1, 2)
    """
    out = []
    n = len(args)
    for i, a in enumerate(args):
        a = to_tensor(a, "ix_")
        if a.ndim != 1:
            raise MSValueError(f"For 'ix_', every input must be 1-D, but got {a.ndim}-D.")
        out.append(ops.reshape(a, (1,) * i + (-1,) + (1,) * (n - i - 1)))
    return tuple(out)


def meshgrid(*xi, sparse=False, indexing="xy"):
    """Coordinate tensors from 1-D coordinate vectors (``'xy'`` Cartesian or ``'ij'`` matrix indexing).

    Examples:
        >>> import mindspore.numpy as np
        >>> xv, yv = np.meshgrid(np.arange(3), np.arange(2))
        >>> print(xv.shape)
        (2, 3)
    """
    if indexing not in ("xy", "ij"):
        raise MSValueError(f"For 'meshgrid', the 'indexing' must be 'xy' or 'ij', but got '{indexing}'.")
    xs = [ops.reshape(to_tensor(x, "meshgrid"), (-1,)) for x in xi]
    n = len(xs)
    if n == 0:
        return ()
    shapes = [[1] * n for _ in xs]
    for i, x in enumerate(xs):
        shapes[i][i] = x.shape[0]
    if indexing == "xy" and n > 1:
        shapes[0][0], shapes[0][1] = 1, xs[0].shape[0]
        shapes[1][0], shapes[1][1] = xs[1].shape[0], 1
    out = [ops.reshape(x, tuple(s)) for x, s in zip(xs, shapes)]
    if sparse:
        return tuple(out)
    full_shape = [max(s[d] for s in shapes) for d in range(n)]
    return tuple(ops.broadcast_to(o, tuple(full_shape)) for o in out)


class _Grid:
    """``mgrid``/``ogrid``: index with slices; a complex step ``5j`` means 5 points, stop included."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, keys):
        single = not isinstance(keys, tuple)
        keys = (keys,) if single else keys
        axes = []
        for key in keys:
            if not isinstance(key, slice):
                raise MSTypeError(f"For 'mgrid', the index must be a slice, but got {type(key).__name__}.")
            start = 0 if key.start is None else key.start
            step = 1 if key.step is None else key.step
            if isinstance(step, complex):
                axes.append(linspace(start, key.stop, int(abs(step))))
            else:
                axes.append(arange(start, key.stop, step))
        if single:
            return axes[0]
        if not self.sparse and any(a.dtype == mstype.float32 for a in axes):
            axes = [cast_to(a, mstype.float32) for a in axes]
        grids = meshgrid(*axes, sparse=self.sparse, indexing="ij")
        return list(grids) if self.sparse else ops.stack(grids)    # ogrid: a list, as 2.10


mgrid = _Grid(False)
ogrid = _Grid(True)


def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an ``n`` x ... x ``n`` array (``ndim`` Int32 tensors).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.diag_indices(3)[0])
        [0 1 2]
    """
    idx = Tensor(_np.arange(check_int("diag_indices", "n", n), dtype=_np.int32))
    return (idx,) * check_int("diag_indices", "ndim", ndim)


def tril_indices(n, k=0, m=None):
    """The row and column indices of the lower triangle of an ``n`` x ``m`` array.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.tril_indices(2))
        (Tensor(shape=[3], dtype=Int32, value= [0, 1, 1]), Tensor(shape=[3], dtype=Int32, value= [0, 0, 1]))
    """
    rows, cols = _np.tril_indices(check_int("tril_indices", "n", n), check_int("tril_indices", "k", k),
                                  None if m is None else check_int("tril_indices", "m", m))
    return Tensor(rows.astype(_np.int32)), Tensor(cols.astype(_np.int32))


def triu_indices(n, k=0, m=None):
    """The row and column indices of the upper triangle of an ``n`` x ``m`` array.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.triu_indices(2))
        (Tensor(shape=[3], dtype=Int32, value= [0, 0, 1]), Tensor(shape=[3], dtype=Int32, value= [0, 1, 1]))
    """
    rows, cols = _np.triu_indices(check_int("triu_indices", "n", n), check_int("triu_indices", "k", k),
                                  None if m is None else check_int("triu_indices", "m", m))
    return Tensor(rows.astype(_np.int32)), Tensor(cols.astype(_np.int32))


def _check_2d(op, arr):
    arr = check_tensor(op, "arr", arr)
    if arr.ndim != 2:
        raise MSValueError(f"For '{op}', the input must be 2-D, but got {arr.ndim}-D.")
    return arr


def tril_indices_from(arr, k=0):
    """:func:`tril_indices` for the shape of a 2-D tensor.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.tril_indices_from(np.ones((2, 2)))[1])
        [0 0 1]
    """
    arr = _check_2d("tril_indices_from", arr)
    return tril_indices(arr.shape[0], k, arr.shape[1])


def triu_indices_from(arr, k=0):
    """:func:`triu_indices` for the shape of a 2-D tensor.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.triu_indices_from(np.ones((2, 2)))[1])
        [0 1 1]
    """
    arr = _check_2d("triu_indices_from", arr)
    return triu_indices(arr.shape[0], k, arr.shape[1])


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix: columns are powers of ``x`` (decreasing unless ``increasing``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.vander(np.array([1, 2, 3]), 3))
        [[1 1 1]
         [4 2 1]
         [9 3 1]]
    """
    x = to_tensor(x, "vander")
    if x.ndim != 1:
        raise MSValueError(f"For 'vander', the input must be 1-D, but got {x.ndim}-D.")
    n = x.shape[0] if N is None else check_int("vander", "N", N)
    powers = _np.arange(n) if increasing else _np.arange(n - 1, -1, -1)
    if n == 0:
        return ops.zeros((x.shape[0], 0), x.dtype)
    cols = [ops.ones_like(x) if p == 0 else x if p == 1 else ops.pow(x, int(p)) for p in powers]
    return cast_to(ops.stack(cols, 1), x.dtype)


def _window(op, M, fn):
    M = check_int(op, "M", M)
    if M < 1:
        return Tensor(_np.zeros((0,), _np.float32))
    if M == 1:
        return Tensor(_np.ones((1,), _np.float32))
    n = _np.arange(M, dtype=_np.float64)
    return Tensor(fn(n, M).astype(_np.float32))


def bartlett(M):
    """The Bartlett (triangular) window of ``M`` points (Float32).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.bartlett(5))
        [0.  0.5 1.  0.5 0. ]
    """
    return _window("bartlett", M, lambda n, M: 1 - _np.abs(2 * n / (M - 1) - 1))


def blackman(M):
    """The Blackman window of ``M`` points (Float32).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.blackman(3))
        [-1.3877788e-17  1.0000000e+00 -1.3877788e-17]
    """
    return _window("blackman", M, lambda n, M: 0.42 - 0.5 * _np.cos(2 * _np.pi * n / (M - 1))
                   + 0.08 * _np.cos(4 * _np.pi * n / (M - 1)))


def hamming(M):
    """The Hamming window of ``M`` points (Float32).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.hamming(3))
        [0.08 1.   0.08]
    """
    return _window("hamming", M, lambda n, M: 0.54 - 0.46 * _np.cos(2 * _np.pi * n / (M - 1)))


def hanning(M):
    """The Hann window of ``M`` points (Float32).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.hanning(3))
        [0. 1. 0.]
    """
    return _window("hanning", M, lambda n, M: 0.5 - 0.5 * _np.cos(2 * _np.pi * n / (M - 1)))


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # pylint: disable=redefined-builtin
    """The edges of the bins :func:`histogram` uses.

    ``bins`` is a number of equal-width bins over ``range`` (default: the data's min and max) or a
    1-D sequence/tensor of monotonically increasing edges.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.histogram_bin_edges(np.array([0., 0.5, 2.]), bins=4))
        [0.  0.5 1.  1.5 2. ]
    """
    a = to_float(to_tensor(a, "histogram_bin_edges"))
    if weights is not None:
        weights = to_tensor(weights, "histogram_bin_edges")
        if tuple(weights.shape) != tuple(a.shape):
            raise MSValueError("For 'histogram_bin_edges', the 'weights' must have the shape of 'a', but got "
                               f"{weights.shape} and {a.shape}.")
    if not isinstance(bins, (int, _np.integer)) or isinstance(bins, bool):
        edges = to_tensor(bins, "histogram_bin_edges")     # given edges keep their dtype (Int32 ones too), as 2.10
        if edges.ndim != 1:
            raise MSValueError(f"For 'histogram_bin_edges', the 'bins' must be 1-D, but got {edges.ndim}-D.")
        return edges
    if bins < 1:
        raise MSValueError(f"For 'histogram_bin_edges', the 'bins' must be positive, but got {bins}.")
    if range is None:
        flat = ops.reshape(a, (-1,))
        lo, hi = (ops.amin(flat), ops.amax(flat)) if flat.shape[0] else (const(0, a.dtype), const(1, a.dtype))
    else:
        if len(range) != 2 or range[0] > range[1]:
            raise MSValueError(f"For 'histogram_bin_edges', the 'range' must be (min, max) with min <= max, "
                               f"but got {range}.")
        lo, hi = const(range[0], a.dtype), const(range[1], a.dtype)
    same = ops.cast(ops.equal(lo, hi), a.dtype)
    lo, hi = lo - 0.5 * same, hi + 0.5 * same
    return linspace(lo, hi, bins + 1)


# --- pad --------------------------------------------------------------------------------------------------
def _pairs(op, name, value, ndim):
    """NumPy's ``((before, after),) * ndim`` from an int, a pair or one pair per axis."""
    arr = _np.asarray(value.asnumpy() if isinstance(value, Tensor) else value, dtype=object)
    arr = _np.broadcast_to(arr, (ndim, 2)) if arr.ndim <= 1 and arr.size in (1, 2) or arr.ndim == 2 else None
    if arr is None:
        raise MSValueError(f"For '{op}', the '{name}' must be a scalar, a pair or one pair per axis, but got "
                           f"{value!r}.")
    return [(arr[i, 0], arr[i, 1]) for i in range(ndim)]


def _take_axis(x, axis, start, stop, step=1):
    key = [slice(None)] * x.ndim
    key[axis] = slice(start, stop, step)
    return x[tuple(key)]


def _pad_axis_fill(x, axis, before, after, left, right):
    parts = []
    if before:
        parts.append(left)
    parts.append(x)
    if after:
        parts.append(right)
    return ops.concat(parts, axis) if len(parts) > 1 else x


def _edge_block(x, axis, count, at_end, fn):
    shape = list(x.shape)
    shape[axis] = count
    return ops.broadcast_to(fn(x, at_end), tuple(shape))


def _pad_reflect(x, axis, before, after, symmetric, odd):
    n = x.shape[axis]
    while before or after:
        # at most one period per round, like NumPy
        period = n if symmetric else n - 1
        if period <= 0:
            edge = _take_axis(x, axis, 0, 1)
            return _pad_axis_fill(x, axis, before, after, ops.concat([edge] * before, axis) if before else None,
                                  ops.concat([_take_axis(x, axis, -1, None)] * after, axis) if after else None)
        b, a = min(before, period), min(after, period)
        cur = x.shape[axis]
        left = right = None
        if b:
            src = _take_axis(x, axis, 0 if symmetric else 1, (0 if symmetric else 1) + b)
            left = ops.flip(src, (axis,))
            if odd:
                left = 2 * _take_axis(x, axis, 0, 1) - left
        if a:
            stop = cur if symmetric else cur - 1
            right = ops.flip(_take_axis(x, axis, stop - a, stop), (axis,))
            if odd:
                right = 2 * _take_axis(x, axis, cur - 1, cur) - right
        x = _pad_axis_fill(x, axis, b, a, left, right)
        before, after = before - b, after - a
        n = x.shape[axis]
    return x


def _pad_wrap(x, axis, before, after):
    n = x.shape[axis]
    reps = (before + after) // n + 2
    tiled = ops.concat([x] * (2 * reps + 1), axis)
    start = reps * n - before
    return _take_axis(tiled, axis, start, start + n + before + after)


def _stat(fn, x, axis, count, at_end):
    n = x.shape[axis]
    count = n if count is None else max(1, min(int(count), n))
    part = _take_axis(x, axis, n - count, n) if at_end else _take_axis(x, axis, 0, count)
    return fn(part, axis)


_STATS = {"maximum": lambda p, ax: ops.amax(p, ax, True), "minimum": lambda p, ax: ops.amin(p, ax, True),
          "mean": lambda p, ax: ops.mean(to_float(p), ax, True),
          "median": lambda p, ax: _median(to_float(p), ax)}


def _median(x, axis):
    """NumPy's median (the mean of the two middle values for an even count), keeping ``axis``."""
    ordered = ops.sort(x, axis)[0]
    n = x.shape[axis]
    lo = _take_axis(ordered, axis, (n - 1) // 2, (n - 1) // 2 + 1)
    hi = _take_axis(ordered, axis, n // 2, n // 2 + 1)
    return (lo + hi) / 2


def pad(arr, pad_width, mode="constant", stat_length=None, constant_values=0, end_values=0, reflect_type="even",
        **kwargs):
    """Pads a tensor (NumPy modes: ``'constant'``, ``'edge'``, ``'linear_ramp'``, ``'maximum'``,
    ``'mean'``, ``'median'``, ``'minimum'``, ``'reflect'``, ``'symmetric'``, ``'wrap'``, ``'empty'``,
    or a function ``fn(vector, iaxis_pad_width, iaxis, kwargs)`` applied to host copies).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.pad(np.array([1., 2., 3.]), (1, 2)))
        [0. 1. 2. 3. 0. 0.]
    """
    arr = to_tensor(arr, "pad")
    widths = [(int(b), int(a)) for b, a in _pairs("pad", "pad_width", pad_width, arr.ndim)]
    if any(b < 0 or a < 0 for b, a in widths):
        raise MSValueError(f"For 'pad', the 'pad_width' must be non-negative, but got {pad_width!r}.")
    if callable(mode):
        host = _np.pad(arr.asnumpy(), widths, mode, **kwargs)
        return Tensor(host)
    if reflect_type not in ("even", "odd"):
        raise MSValueError(f"For 'pad', the 'reflect_type' must be 'even' or 'odd', but got '{reflect_type}'.")
    modes = ("constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect", "symmetric",
             "wrap", "empty")
    if mode not in modes:
        raise MSValueError(f"For 'pad', the 'mode' must be one of {modes}, but got '{mode}'.")
    out = arr
    consts = _pairs("pad", "constant_values", constant_values, arr.ndim)
    ends = _pairs("pad", "end_values", end_values, arr.ndim)
    stats = ([(None, None)] * arr.ndim if stat_length is None
             else _pairs("pad", "stat_length", stat_length, arr.ndim))
    for axis, (b, a) in enumerate(widths):
        if not b and not a:
            continue
        if mode in ("constant", "empty"):
            cb, ca = consts[axis] if mode == "constant" else (0, 0)
            left = _edge_block(out, axis, b, False, lambda x, e, v=cb: ops.cast(ops.fill(x.dtype, (), v), x.dtype))
            right = _edge_block(out, axis, a, True, lambda x, e, v=ca: ops.cast(ops.fill(x.dtype, (), v), x.dtype))
            out = _pad_axis_fill(out, axis, b, a, left, right)
        elif out.shape[axis] == 0:
            raise MSValueError(f"For 'pad', can not pad an empty axis in mode '{mode}'.")
        elif mode == "edge":
            left = _edge_block(out, axis, b, False, lambda x, e: _take_axis(x, axis, 0, 1))
            right = _edge_block(out, axis, a, True, lambda x, e: _take_axis(x, axis, -1, None))
            out = _pad_axis_fill(out, axis, b, a, left, right)
        elif mode == "linear_ramp":
            out = _pad_ramp(out, axis, b, a, ends[axis])
        elif mode in _STATS:
            sb, sa = stats[axis]
            fn = _STATS[mode]
            left = _edge_block(out, axis, b, False, lambda x, e: cast_to(_stat(fn, x, axis, sb, e), x.dtype))
            right = _edge_block(out, axis, a, True, lambda x, e: cast_to(_stat(fn, x, axis, sa, e), x.dtype))
            out = _pad_axis_fill(out, axis, b, a, left, right)
        elif mode == "wrap":
            out = _pad_wrap(out, axis, b, a)
        else:
            out = _pad_reflect(out, axis, b, a, mode == "symmetric", reflect_type == "odd")
    return out


def _ramp(x, axis, count, edge, end, at_end):
    # NumPy: linspace(end, edge, count, endpoint=False) before; reversed after
    t = const(_np.arange(count) / count, mstype.float32 if not mstype.is_float(x.dtype) else x.dtype)
    shape = [1] * x.ndim
    shape[axis] = count
    t = ops.reshape(t, tuple(shape))
    edge = to_float(edge) if not mstype.is_float(x.dtype) else edge
    vals = end + (edge - end) * t
    if at_end:
        vals = ops.flip(vals, (axis,))
    if not mstype.is_float(x.dtype):
        vals = ops.round(vals)
    return cast_to(vals, x.dtype)


def _pad_ramp(x, axis, before, after, ends):
    left = right = None
    if before:
        left = _ramp(x, axis, before, _take_axis(x, axis, 0, 1), float(ends[0]), False)
    if after:
        right = _ramp(x, axis, after, _take_axis(x, axis, -1, None), float(ends[1]), True)
    return _pad_axis_fill(x, axis, before, after, left, right)


def rand(*shape, dtype=mstype.float32):
    """Samples from U[0, 1) of the given shape.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.rand((2, 3)).shape)
        (2, 3)
    """
    shape = _shape_args("rand", shape)
    dtype = to_dtype("rand", dtype)
    if not mstype.is_float(dtype):
        raise MSTypeError(f"For 'rand', the 'dtype' must be a float type, but got {dtype}.")
    return ops.rand(*shape, dtype=dtype)


def randn(*shape, dtype=mstype.float32):
    """Samples from the standard normal distribution of the given shape.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.randn(2, 3).shape)
        (2, 3)
    """
    shape = _shape_args("randn", shape)
    dtype = to_dtype("randn", dtype)
    if not mstype.is_float(dtype):
        raise MSTypeError(f"For 'randn', the 'dtype' must be a float type, but got {dtype}.")
    return ops.randn(*shape, dtype=dtype)


def randint(minval, maxval=None, shape=None, dtype=mstype.int32):
    """Random integers in ``[minval, maxval)`` (``[0, minval)`` when ``maxval`` is ``None``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.randint(1, 10, (2, 3)).dtype)
        Int32
    """
    if maxval is None:
        minval, maxval = 0, minval
    minval, maxval = check_int("randint", "minval", minval), check_int("randint", "maxval", maxval)
    if minval >= maxval:
        raise MSValueError(f"For 'randint', the 'minval' must be less than 'maxval', but got {minval} and {maxval}.")
    dtype = to_dtype("randint", dtype)
    if not mstype.is_int(dtype):
        raise MSTypeError(f"For 'randint', the 'dtype' must be an int type, but got {dtype}.")
    shape = () if shape is None else as_shape("randint", shape)
    return ops.randint(minval, maxval, shape, dtype=dtype)


def _shape_args(op, shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return as_shape(op, tuple(shape))
