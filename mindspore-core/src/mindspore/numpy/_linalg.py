"""Linear algebra of :mod:`mindspore.numpy.math_ops` (which re-exports it): products (``dot``, ``matmul``,
``tensordot``, ``kron``...), norms and the cross product, all reshapes and transposes around one matmul.
"""
import builtins
import math as _math

import numpy as _np

from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
import mindspore.ops as ops
from mindspore.numpy.array_ops import moveaxis, ravel
from mindspore.numpy.utils import cast_to, normalize_axis, promote, to_float, to_tensor

__all__ = ["dot", "inner", "outer", "matmul", "tensordot", "kron", "multi_dot", "norm", "cross"]

def _int_matmul(fn, a, b):
    a, b = promote(a, b)
    if a.dtype == mstype.bool_:
        return ops.cast(fn(ops.cast(a, mstype.int32), ops.cast(b, mstype.int32)), mstype.bool_)
    return fn(a, b)


def matmul(x1, x2, dtype=None):
    """The matrix product (batched over leading axes; 1-D inputs are promoted and squeezed back).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.matmul(np.ones((2, 3)), np.ones((3,))))
        [3. 3.]
    """
    a, b = to_tensor(x1, "matmul"), to_tensor(x2, "matmul")
    if a.ndim == 0 or b.ndim == 0:
        raise MSValueError("For 'matmul', the inputs can not be scalars.")
    if a.shape[-1] != b.shape[-2 if b.ndim > 1 else 0]:
        raise MSValueError(f"For 'matmul', the last axis of 'x1' must match the second-to-last of 'x2', but got "
                           f"shapes {a.shape} and {b.shape}.")
    return cast_to(_int_matmul(ops.matmul, a, b), dtype)


def dot(a, b):
    """The dot product: matmul for up to 2-D, else a sum over the last axis of ``a`` and the
    second-to-last of ``b``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.dot(np.array([1., 2.]), np.array([3., 4.])))
        11.0
    """
    a, b = to_tensor(a, "dot"), to_tensor(b, "dot")
    if a.ndim == 0 or b.ndim == 0:
        return ops.mul(*promote(a, b))
    if a.ndim <= 2 and b.ndim <= 2:
        return matmul(a, b)
    return tensordot(a, b, ((a.ndim - 1,), (builtins.max(b.ndim - 2, 0),)))


def inner(a, b):
    """The sum product over the last axes.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.inner(np.array([1., 2.]), np.array([3., 4.])))
        11.0
    """
    a, b = to_tensor(a, "inner"), to_tensor(b, "inner")
    if a.ndim == 0 or b.ndim == 0:
        return ops.mul(*promote(a, b))
    return tensordot(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


def outer(a, b):
    """The outer product of the flattened inputs.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.outer(np.array([1, 2]), np.array([3, 4, 5])))
        [[ 3  4  5]
         [ 6  8 10]]
    """
    a, b = ravel(to_tensor(a, "outer")), ravel(to_tensor(b, "outer"))
    return ops.mul(*promote(ops.reshape(a, (-1, 1)), ops.reshape(b, (1, -1))))


def tensordot(a, b, axes=2):
    """The sum of products over the given axes (an int ``N``: the last ``N`` of ``a`` and first ``N`` of ``b``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.tensordot(np.ones((3, 4, 5)), np.ones((4, 3, 2)), ([1, 0], [0, 1])).shape)
        (5, 2)
    """
    a, b = promote(to_tensor(a, "tensordot"), to_tensor(b, "tensordot"))
    if isinstance(axes, (int, _np.integer)):
        n = int(axes)
        axes_a, axes_b = tuple(range(a.ndim - n, a.ndim)), tuple(range(n))
    else:
        axes_a, axes_b = axes
        axes_a = (axes_a,) if isinstance(axes_a, (int, _np.integer)) else tuple(axes_a)
        axes_b = (axes_b,) if isinstance(axes_b, (int, _np.integer)) else tuple(axes_b)
    axes_a = tuple(normalize_axis("tensordot", x, a.ndim, "axes") for x in axes_a)
    axes_b = tuple(normalize_axis("tensordot", x, b.ndim, "axes") for x in axes_b)
    if len(axes_a) != len(axes_b) or builtins.any(a.shape[i] != b.shape[j] for i, j in zip(axes_a, axes_b)):
        raise MSValueError(f"For 'tensordot', the summed axes must have the same lengths, but got shapes "
                           f"{a.shape} and {b.shape} with axes {axes_a} and {axes_b}.")
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [i for i in range(b.ndim) if i not in axes_b]
    k = int(_np.prod([a.shape[i] for i in axes_a])) if axes_a else 1
    a2 = ops.reshape(ops.transpose(a, tuple(free_a) + axes_a), (-1, k))
    b2 = ops.reshape(ops.transpose(b, axes_b + tuple(free_b)), (k, -1))
    out = _int_matmul(ops.matmul, a2, b2)
    return ops.reshape(out, tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b))


def kron(a, b):
    """The Kronecker product.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.kron(np.array([1, 10]), np.array([5, 6])))
        [ 5  6 50 60]
    """
    a, b = promote(to_tensor(a, "kron"), to_tensor(b, "kron"))
    ndim = builtins.max(a.ndim, b.ndim)
    a = ops.reshape(a, (1,) * (ndim - a.ndim) + tuple(a.shape))
    b = ops.reshape(b, (1,) * (ndim - b.ndim) + tuple(b.shape))
    inter_a = []
    inter_b = []
    for sa, sb in zip(a.shape, b.shape):
        inter_a += [sa, 1]
        inter_b += [1, sb]
    out = ops.reshape(a, tuple(inter_a)) * ops.reshape(b, tuple(inter_b))
    return ops.reshape(out, tuple(sa * sb for sa, sb in zip(a.shape, b.shape)))


def multi_dot(arrays):
    """The chained dot product of two or more tensors (first may be 1-D: a row; last 1-D: a column).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.multi_dot([np.ones((2, 3)), np.ones((3, 4)), np.ones((4,))]))
        [12. 12.]
    """
    if len(arrays) < 2:
        raise MSValueError(f"For 'multi_dot', at least 2 arrays are required, but got {len(arrays)}.")
    tensors = [to_tensor(t, "multi_dot") for t in arrays]
    out = tensors[0]
    for t in tensors[1:]:
        out = dot(out, t)
    return out


def norm(x, ord=None, axis=None, keepdims=False):  # pylint: disable=redefined-builtin
    """Vector or matrix norms (``ord`` as in NumPy; matrix 'nuc'/2/-2 need singular values, not
    available here).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.norm(np.array([3., 4.])))
        5.0
    """
    x = to_float(to_tensor(x, "norm"))
    if axis is None:
        if ord is None:
            out = ops.sqrt(ops.reduce_sum(ops.square(x)))
            return ops.reshape(out, (1,) * x.ndim) if keepdims else out
        axis = tuple(range(x.ndim))
    axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    axes = tuple(normalize_axis("norm", ax, x.ndim) for ax in axes)
    if len(axes) == 1:
        return _vector_norm(x, ord, axes[0], keepdims)
    if len(axes) == 2:
        return _matrix_norm(x, ord, axes, keepdims)
    raise MSValueError(f"For 'norm', improper number of dimensions to norm: {len(axes)}.")


def _vector_norm(x, ord, axis, keepdims):  # pylint: disable=redefined-builtin
    ax = ops.abs(x)
    if ord is None or ord == 2:
        return ops.sqrt(ops.reduce_sum(ops.square(x), (axis,), keepdims))
    if ord == _math.inf:
        return ops.amax(ax, (axis,), keepdims)
    if ord == -_math.inf:
        return ops.amin(ax, (axis,), keepdims)
    if ord == 0:
        return ops.reduce_sum(ops.cast(ops.not_equal(x, 0), x.dtype), (axis,), keepdims)
    if ord == 1:
        return ops.reduce_sum(ax, (axis,), keepdims)
    if isinstance(ord, str):
        raise MSValueError(f"For 'norm', invalid norm order '{ord}' for vectors.")
    return ops.pow(ops.reduce_sum(ops.pow(ax, float(ord)), (axis,), keepdims), 1.0 / ord)


def _matrix_norm(x, ord, axes, keepdims):  # pylint: disable=redefined-builtin
    r, c = axes
    if r == c:
        raise MSValueError("For 'norm', duplicate axes given.")
    ax = ops.abs(x)
    if ord is None or ord == "fro":
        out = ops.sqrt(ops.reduce_sum(ops.square(x), axes, False))
    elif ord in (1, -1):
        col = ops.reduce_sum(ax, (r,), False)
        out = (ops.amax if ord == 1 else ops.amin)(col, (c - 1 if c > r else c,), False)
    elif ord in (_math.inf, -_math.inf):
        row = ops.reduce_sum(ax, (c,), False)
        out = (ops.amax if ord > 0 else ops.amin)(row, (r - 1 if r > c else r,), False)
    else:
        raise MSValueError(f"For 'norm', the matrix 'ord' must be one of None, 'fro', 1, -1, inf, -inf, but got "
                           f"{ord!r}.")
    if keepdims:
        out = ops.reshape(out, tuple(1 if i in axes else s for i, s in enumerate(x.shape)))
    return out


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (2-vectors get a zero third component).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.cross(np.array([1., 0., 0.]), np.array([0., 1., 0.])))
        [0. 0. 1.]
    """
    a, b = promote(to_tensor(a, "cross"), to_tensor(b, "cross"))
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(a, axisa, -1)
    b = moveaxis(b, axisb, -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise MSValueError(f"For 'cross', incompatible dimensions for cross product (dimension must be 2 or 3), "
                           f"but got {a.shape[-1]} and {b.shape[-1]}.")
    two = a.shape[-1] == 2 and b.shape[-1] == 2
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    a2 = a[..., 2] if a.shape[-1] == 3 else ops.zeros_like(a0)
    b2 = b[..., 2] if b.shape[-1] == 3 else ops.zeros_like(b0)
    c2 = a0 * b1 - a1 * b0
    if two:
        return c2
    out = ops.stack(list(ops.broadcast_to(t, c2.shape) for t in (a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, c2)), -1)
    return moveaxis(out, -1, axisc)
