"""Shape manipulation, joining/splitting, indexing and selection (``reshape``, ``concatenate``, ``split``,
``take``, ``where``, ``choose``, ``unique``...), as compositions of ``mindspore.ops``.

Index arithmetic that depends only on shapes is done in Python at trace time, so these functions
work in GRAPH_MODE; the ones whose output shape depends on values (``unique``, ``argwhere``,
one-argument ``where``, ``intersect1d``) run in PYNATIVE mode, as in MindSpore.
"""
import builtins

import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
import mindspore.ops as ops
from mindspore.numpy.utils import (as_shape, cast_to, check_int, check_tensor, normalize_axes, normalize_axis,
                                   promote, to_tensor)

__all__ = ["transpose", "reshape", "ravel", "swapaxes", "moveaxis", "rollaxis", "expand_dims", "squeeze", "flip",
           "fliplr", "flipud", "rot90", "roll", "tile", "repeat", "broadcast_to", "broadcast_arrays", "concatenate",
           "stack", "hstack", "vstack", "dstack", "column_stack", "split", "array_split", "hsplit", "vsplit",
           "dsplit", "atleast_1d", "atleast_2d", "atleast_3d", "append", "where", "argwhere", "take",
           "take_along_axis", "choose", "select", "piecewise", "unique", "unravel_index", "apply_along_axis",
           "apply_over_axes", "size", "array_str", "intersect1d"]


def transpose(a, axes=None):
    """Permutes the axes (reversed when ``axes`` is ``None``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.transpose(np.ones((1, 2, 3))).shape)
        (3, 2, 1)
    """
    a = to_tensor(a, "transpose")
    if axes is None:
        axes = tuple(range(a.ndim - 1, -1, -1))
    axes = tuple(normalize_axis("transpose", ax, a.ndim, "axes") for ax in axes)
    if sorted(axes) != list(range(a.ndim)):
        raise MSValueError(f"For 'transpose', the 'axes' must be a permutation of the dimensions, but got {axes}.")
    return ops.transpose(a, axes)


def reshape(x, new_shape):
    """Gives a new shape (one entry may be -1) to the tensor.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.reshape(np.arange(6), (2, -1)).shape)
        (2, 3)
    """
    x = to_tensor(x, "reshape")
    if isinstance(new_shape, (int, _np.integer)):
        new_shape = (int(new_shape),)
    return ops.reshape(x, tuple(int(s) for s in new_shape))


def ravel(x):
    """The flattened (1-D) tensor.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.ravel(np.ones((2, 3))).shape)
        (6,)
    """
    return ops.reshape(to_tensor(x, "ravel"), (-1,))


def swapaxes(x, axis1, axis2):
    """Interchanges two axes.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.swapaxes(np.ones((1, 2, 3)), 0, 2).shape)
        (3, 2, 1)
    """
    x = to_tensor(x, "swapaxes")
    a1, a2 = normalize_axis("swapaxes", axis1, x.ndim, "axis1"), normalize_axis("swapaxes", axis2, x.ndim, "axis2")
    perm = list(range(x.ndim))
    perm[a1], perm[a2] = perm[a2], perm[a1]
    return ops.transpose(x, tuple(perm))


def moveaxis(a, source, destination):
    """Moves axes to new positions; the others keep their order.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.moveaxis(np.zeros((3, 4, 5)), 0, -1).shape)
        (4, 5, 3)
    """
    a = to_tensor(a, "moveaxis")
    src = source if isinstance(source, (tuple, list)) else (source,)
    dst = destination if isinstance(destination, (tuple, list)) else (destination,)
    if len(src) != len(dst):
        raise MSValueError("For 'moveaxis', the 'source' and 'destination' must have the same number of elements.")
    src = [normalize_axis("moveaxis", s, a.ndim, "source") for s in src]
    dst = [normalize_axis("moveaxis", d, a.ndim, "destination") for d in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise MSValueError("For 'moveaxis', repeated axes are not allowed.")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return ops.transpose(a, tuple(order))


def rollaxis(x, axis, start=0):
    """Rolls ``axis`` backwards until it lies before position ``start``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.rollaxis(np.ones((3, 4, 5, 6)), 3, 1).shape)
        (3, 6, 4, 5)
    """
    x = to_tensor(x, "rollaxis")
    axis = normalize_axis("rollaxis", axis, x.ndim)
    start = check_int("rollaxis", "start", start)
    if not -x.ndim <= start <= x.ndim:
        raise MSValueError(f"For 'rollaxis', the 'start' must be in range [{-x.ndim}, {x.ndim}], but got {start}.")
    start = start % (x.ndim + 1) if start < 0 else start
    if axis < start:
        start -= 1
    if axis == start:
        return x
    return moveaxis(x, axis, start)


def expand_dims(a, axis):
    """Inserts new axes of length one at ``axis`` (an int or a tuple of ints).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.expand_dims(np.ones((2, 2)), 0).shape)
        (1, 2, 2)
    """
    a = to_tensor(a, "expand_dims")
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out_ndim = a.ndim + len(axes)
    axes = sorted(normalize_axis("expand_dims", ax, out_ndim) for ax in axes)
    shape = list(a.shape)
    for ax in axes:
        shape.insert(ax, 1)
    return ops.reshape(a, tuple(shape))


def squeeze(a, axis=None):
    """Removes axes of length one (all of them, or those in ``axis``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.squeeze(np.ones((1, 2, 1))).shape)
        (2,)
    """
    a = to_tensor(a, "squeeze")
    axes = normalize_axes("squeeze", axis, a.ndim) if axis is not None else tuple(
        i for i, s in enumerate(a.shape) if s == 1)
    for ax in axes:
        if a.shape[ax] != 1:
            raise MSValueError(f"For 'squeeze', can not select an axis to squeeze out which has size not equal to "
                               f"one, but got axis {ax} of size {a.shape[ax]}.")
    return ops.reshape(a, tuple(s for i, s in enumerate(a.shape) if i not in axes))


def flip(m, axis=None):
    """Reverses the order of elements along ``axis`` (all axes when ``None``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.flip(np.array([[1, 2], [3, 4]])))
        [[4 3]
         [2 1]]
    """
    m = to_tensor(m, "flip")
    axes = normalize_axes("flip", axis, m.ndim)
    return ops.flip(m, axes) if axes else m


def fliplr(m):
    """Flips along axis 1 (left/right).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.fliplr(np.array([[1, 2], [3, 4]])))
        [[2 1]
         [4 3]]
    """
    m = to_tensor(m, "fliplr")
    if m.ndim < 2:
        raise MSValueError(f"For 'fliplr', the input must be at least 2-D, but got {m.ndim}-D.")
    return flip(m, 1)


def flipud(m):
    """Flips along axis 0 (up/down).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.flipud(np.array([[1, 2], [3, 4]])))
        [[3 4]
         [1 2]]
    """
    m = to_tensor(m, "flipud")
    if m.ndim < 1:
        raise MSValueError("For 'flipud', the input must be at least 1-D, but got 0-D.")
    return flip(m, 0)


def rot90(a, k=1, axes=(0, 1)):
    """Rotates by 90 degrees ``k`` times in the plane of ``axes`` (from the first towards the second).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.rot90(np.array([[1, 2], [3, 4]])))
        [[2 4]
         [1 3]]
    """
    a = to_tensor(a, "rot90")
    k = check_int("rot90", "k", k) % 4
    if len(axes) != 2:
        raise MSValueError(f"For 'rot90', the 'axes' must have 2 elements, but got {axes}.")
    a0, a1 = normalize_axis("rot90", axes[0], a.ndim, "axes"), normalize_axis("rot90", axes[1], a.ndim, "axes")
    if a0 == a1:
        raise MSValueError("For 'rot90', the 'axes' must be different.")
    if k == 0:
        return a
    if k == 2:
        return ops.flip(a, (a0, a1))
    perm = list(range(a.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return ops.transpose(ops.flip(a, (a1,)), tuple(perm))
    return ops.flip(ops.transpose(a, tuple(perm)), (a1,))


def roll(a, shift, axis=None):
    """Rolls elements along ``axis`` (on the flattened tensor when ``None``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.roll(np.arange(5), 2))
        [3 4 0 1 2]
    """
    a = to_tensor(a, "roll")
    if axis is None:
        return ops.reshape(roll(ops.reshape(a, (-1,)), shift, 0), a.shape)
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    shifts, axes = _np.broadcast_arrays(_np.asarray(shifts), _np.asarray(axes))
    out = a
    for s, ax in zip(shifts.ravel(), axes.ravel()):
        ax = normalize_axis("roll", int(ax), a.ndim)
        n = a.shape[ax]
        if n == 0:
            continue
        s = int(s) % n
        if s:
            key_lo = [slice(None)] * a.ndim
            key_hi = [slice(None)] * a.ndim
            key_lo[ax], key_hi[ax] = slice(n - s, None), slice(0, n - s)
            out = ops.concat((out[tuple(key_lo)], out[tuple(key_hi)]), ax)
    return out


def tile(a, reps):
    """Repeats the whole tensor ``reps`` times along each axis.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.tile(np.array([0, 1]), 2))
        [0 1 0 1]
    """
    a = to_tensor(a, "tile")
    reps = (reps,) if isinstance(reps, (int, _np.integer)) else tuple(reps)
    reps = tuple(check_int("tile", "reps", r) for r in reps)
    ndim = builtins.max(a.ndim, len(reps))
    a = ops.reshape(a, (1,) * (ndim - a.ndim) + tuple(a.shape))
    reps = (1,) * (ndim - len(reps)) + reps
    if any(r == 0 for r in reps) or 0 in a.shape:
        return ops.zeros(tuple(s * r for s, r in zip(a.shape, reps)), a.dtype)
    return ops.tile(a, reps)


def repeat(a, repeats, axis=None):
    """Repeats each element ``repeats`` times (an int, or one count per element along ``axis``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.repeat(np.array([[1, 2], [3, 4]]), 2, axis=1))
        [[1 1 2 2]
         [3 3 4 4]]
    """
    a = to_tensor(a, "repeat")
    if axis is None:
        a = ops.reshape(a, (-1,))
        axis = 0
    axis = normalize_axis("repeat", axis, a.ndim)
    if isinstance(repeats, Tensor):
        repeats = [int(r) for r in repeats.asnumpy().reshape(-1)]
    reps = [repeats] * a.shape[axis] if isinstance(repeats, (int, _np.integer)) else list(repeats)
    if len(reps) == 1:
        reps = reps * a.shape[axis]
    if len(reps) != a.shape[axis]:
        raise MSValueError(f"For 'repeat', the 'repeats' must have one count per element of the axis "
                           f"({a.shape[axis]}), but got {len(reps)}.")
    if any(r < 0 for r in reps):
        raise MSValueError(f"For 'repeat', the 'repeats' must be non-negative, but got {reps}.")
    index = _np.repeat(_np.arange(a.shape[axis]), reps).astype(_np.int32)
    if index.size == 0:
        shape = list(a.shape)
        shape[axis] = 0
        return ops.zeros(tuple(shape), a.dtype)
    return ops.gather(a, Tensor(index), axis)


def broadcast_to(array, shape):
    """Broadcasts ``array`` to ``shape``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.broadcast_to(np.array([1, 2, 3]), (2, 3)))
        [[1 2 3]
         [1 2 3]]
    """
    return ops.broadcast_to(to_tensor(array, "broadcast_to"), as_shape("broadcast_to", shape))


def broadcast_arrays(*args):
    """Broadcasts the inputs against each other (returns a list, like MindSpore).

    Examples:
        >>> import mindspore.numpy as np
        >>> print([t.shape for t in np.broadcast_arrays(np.ones((2, 1)), np.ones((3,)))])
        [(2, 3), (2, 3)]
    """
    tensors = [to_tensor(a, "broadcast_arrays") for a in args]
    shape = _np.broadcast_shapes(*(tuple(t.shape) for t in tensors)) if tensors else ()
    return [ops.broadcast_to(t, shape) if tuple(t.shape) != shape else t for t in tensors]


def _sequence(op, arrays):
    if isinstance(arrays, Tensor):
        return [arrays[i] for i in range(arrays.shape[0])]
    if not isinstance(arrays, (tuple, list)) or not arrays:
        raise MSTypeError(f"For '{op}', the input must be a non-empty tuple or list of Tensors.")
    return list(promote(*[to_tensor(a, op) for a in arrays]))


def concatenate(arrays, axis=0):
    """Joins tensors along an existing axis (``axis=None`` flattens them first).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.concatenate((np.ones((1, 2)), np.zeros((1, 2)))).shape)
        (2, 2)
    """
    if isinstance(arrays, Tensor):
        if axis is None:
            return ops.reshape(arrays, (-1,))
        return concatenate(_sequence("concatenate", arrays), axis)
    tensors = _sequence("concatenate", arrays)
    if axis is None:
        tensors = [ops.reshape(t, (-1,)) for t in tensors]
        axis = 0
    axis = normalize_axis("concatenate", axis, tensors[0].ndim)
    return ops.concat(tensors, axis) if len(tensors) > 1 else tensors[0]


def stack(arrays, axis=0):
    """Joins tensors of one shape along a new axis.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.stack((np.ones(2), np.zeros(2)), axis=1))
        [[1. 0.]
         [1. 0.]]
    """
    tensors = _sequence("stack", arrays)
    axis = normalize_axis("stack", axis, tensors[0].ndim + 1)
    return ops.stack(tensors, axis)


def atleast_1d(*arys):
    """Views the inputs with at least one dimension.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.atleast_1d(np.array(1.0)))
        [1.]
    """
    return _atleast("atleast_1d", arys, lambda s: s if len(s) >= 1 else (1,))


def atleast_2d(*arys):
    """Views the inputs with at least two dimensions (a 1-D input becomes a row).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.atleast_2d(np.ones(3)).shape)
        (1, 3)
    """
    return _atleast("atleast_2d", arys, lambda s: s if len(s) >= 2 else (1,) * (2 - len(s)) + s)


def atleast_3d(*arys):
    """Views the inputs with at least three dimensions ((N,) -> (1, N, 1), (M, N) -> (M, N, 1)).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.atleast_3d(np.ones((2, 3))).shape)
        (2, 3, 1)
    """
    def shape3(s):
        if len(s) >= 3:
            return s
        return {0: (1, 1, 1), 1: (1,) + s + (1,), 2: s + (1,)}[len(s)]
    return _atleast("atleast_3d", arys, shape3)


def _atleast(op, arys, rule):
    out = []
    for a in arys:
        a = to_tensor(a, op)
        shape = rule(tuple(a.shape))
        out.append(a if shape == tuple(a.shape) else ops.reshape(a, shape))
    return out[0] if len(out) == 1 else out


def hstack(tup):
    """Stacks horizontally (along axis 1; axis 0 for 1-D inputs).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.hstack((np.array([1, 2]), np.array([3]))))
        [1 2 3]
    """
    tensors = _sequence("hstack", tup)
    tensors = [atleast_1d(t) for t in tensors]
    return ops.concat(tensors, 0 if tensors[0].ndim == 1 else 1)


def vstack(tup):
    """Stacks vertically (along axis 0, after making inputs at least 2-D).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.vstack((np.array([1, 2]), np.array([3, 4]))))
        [[1 2]
         [3 4]]
    """
    tensors = [atleast_2d(t) for t in _sequence("vstack", tup)]
    return ops.concat(tensors, 0)


def dstack(tup):
    """Stacks along the third axis (after making inputs at least 3-D).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.dstack((np.array([1, 2]), np.array([3, 4]))).shape)
        (1, 2, 2)
    """
    tensors = [atleast_3d(t) for t in _sequence("dstack", tup)]
    return ops.concat(tensors, 2)


def column_stack(tup):
    """Stacks 1-D inputs as columns of a 2-D tensor (2-D inputs as they are).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.column_stack((np.array([1, 2]), np.array([3, 4]))))
        [[1 3]
         [2 4]]
    """
    tensors = _sequence("column_stack", tup)
    cols = [ops.reshape(t, (-1, 1)) if t.ndim < 2 else t for t in tensors]
    return ops.concat(cols, 1)


def _split_points(op, n, indices_or_sections, exact):
    if isinstance(indices_or_sections, Tensor):
        indices_or_sections = [int(v) for v in indices_or_sections.asnumpy().reshape(-1)]
    if isinstance(indices_or_sections, (int, _np.integer)) and not isinstance(indices_or_sections, bool):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise MSValueError(f"For '{op}', the number of sections must be positive, but got {sections}.")
        if exact and n % sections:
            raise MSValueError(f"For '{op}', array split does not result in an equal division: {n} into {sections}.")
        each, extra = divmod(n, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        return list(_np.cumsum([0] + sizes))
    if not isinstance(indices_or_sections, (tuple, list)):
        raise MSTypeError(f"For '{op}', the 'indices_or_sections' must be int, tuple or list, but got "
                          f"{type(indices_or_sections).__name__}.")
    return [0] + [int(i) for i in indices_or_sections] + [n]


def _split(op, x, indices_or_sections, axis, exact):
    x = to_tensor(x, op)
    axis = normalize_axis(op, axis, x.ndim)
    n = x.shape[axis]
    points = _split_points(op, n, indices_or_sections, exact)
    out = []
    for lo, hi in zip(points[:-1], points[1:]):
        lo, hi = _np.clip(lo + n if lo < 0 else lo, 0, n), _np.clip(hi + n if hi < 0 else hi, 0, n)
        key = [slice(None)] * x.ndim
        key[axis] = slice(int(lo), int(builtins.max(lo, hi)))
        out.append(x[tuple(key)])
    return tuple(out)


def split(x, indices_or_sections, axis=0):
    """Splits into equal sections, or at the given indices, along ``axis``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print([t.shape for t in np.split(np.arange(6), 3)])
        [(2,), (2,), (2,)]
    """
    return _split("split", x, indices_or_sections, axis, True)


def array_split(x, indices_or_sections, axis=0):
    """Like :func:`split`, but the sections need not be equal.

    Examples:
        >>> import mindspore.numpy as np
        >>> print([t.shape for t in np.array_split(np.arange(8), 3)])
        [(3,), (3,), (2,)]
    """
    return _split("array_split", x, indices_or_sections, axis, False)


def hsplit(x, indices_or_sections):
    """Splits along axis 1 (axis 0 for 1-D).

    Examples:
        >>> import mindspore.numpy as np
        >>> print([t.shape for t in np.hsplit(np.ones((2, 4)), 2)])
        [(2, 2), (2, 2)]
    """
    x = to_tensor(x, "hsplit")
    if x.ndim == 0:
        raise MSValueError("For 'hsplit', the input must be at least 1-D.")
    return _split("hsplit", x, indices_or_sections, 1 if x.ndim > 1 else 0, True)


def vsplit(x, indices_or_sections):
    """Splits along axis 0 (inputs at least 2-D).

    Examples:
        >>> import mindspore.numpy as np
        >>> print([t.shape for t in np.vsplit(np.ones((4, 2)), 2)])
        [(2, 2), (2, 2)]
    """
    x = to_tensor(x, "vsplit")
    if x.ndim < 2:
        raise MSValueError(f"For 'vsplit', the input must be at least 2-D, but got {x.ndim}-D.")
    return _split("vsplit", x, indices_or_sections, 0, True)


def dsplit(x, indices_or_sections):
    """Splits along axis 2 (inputs at least 3-D).

    Examples:
        >>> import mindspore.numpy as np
        >>> print([t.shape for t in np.dsplit(np.ones((1, 2, 4)), 2)])
        [(1, 2, 2), (1, 2, 2)]
    """
    x = to_tensor(x, "dsplit")
    if x.ndim < 3:
        raise MSValueError(f"For 'dsplit', the input must be at least 3-D, but got {x.ndim}-D.")
    return _split("dsplit", x, indices_or_sections, 2, True)


def append(arr, values, axis=None):
    """Appends ``values`` to ``arr`` (both flattened when ``axis`` is ``None``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.append(np.array([1, 2]), np.array([[3, 4]])))
        [1 2 3 4]
    """
    arr, values = promote(to_tensor(arr, "append"), to_tensor(values, "append"))
    if axis is None:
        return ops.concat((ops.reshape(arr, (-1,)), ops.reshape(values, (-1,))), 0)
    axis = normalize_axis("append", axis, arr.ndim)
    if values.ndim != arr.ndim:
        raise MSValueError(f"For 'append', the 'values' must have {arr.ndim} dimensions, but got {values.ndim}.")
    return ops.concat((arr, values), axis)


def where(condition, x=None, y=None):
    """Elements of ``x`` where ``condition`` holds, of ``y`` elsewhere (broadcast, promoted); with
    ``condition`` alone, the indices of its non-zero elements (one tensor per axis).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.where(np.array([True, False]), 1, 2))
        [1 2]
    """
    condition = to_tensor(condition, "where")
    if x is None and y is None:
        nz = ops.nonzero(condition)
        return tuple(ops.unstack(nz, 1)) if condition.ndim > 1 else (ops.reshape(nz, (-1,)),)
    if x is None or y is None:
        raise MSValueError("For 'where', either both or neither of 'x' and 'y' should be given.")
    x, y = promote(to_tensor(x, "where"), to_tensor(y, "where"))
    if condition.dtype != mstype.bool_:
        condition = ops.not_equal(condition, 0)
    shape = _np.broadcast_shapes(tuple(condition.shape), tuple(x.shape), tuple(y.shape))
    b = lambda t: t if tuple(t.shape) == shape else ops.broadcast_to(t, shape)  # noqa: E731
    return ops.where(b(condition), b(x), b(y))


def argwhere(a):
    """The indices of the non-zero elements, one row each (Int64).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.argwhere(np.array([[0, 1], [2, 0]])))
        [[0 1]
         [1 0]]
    """
    a = to_tensor(a, "argwhere")
    return cast_to(ops.nonzero(a), mstype.int64)


def _wrap_indices(op, indices, n, mode):
    if mode == "wrap":
        return ops.floor_mod(indices, n) if n else indices
    if mode == "clip":
        return ops.clip_by_value(indices, 0, builtins.max(n - 1, 0))
    if mode == "raise":
        host = indices.asnumpy()
        if host.size and (host.min() < -n or host.max() >= n):
            raise MSValueError(f"For '{op}', the indices must be in range [{-n}, {n}), but got values in "
                               f"[{host.min()}, {host.max()}].")
        return ops.floor_mod(indices, n) if n else indices
    raise MSValueError(f"For '{op}', the 'mode' must be 'raise', 'wrap' or 'clip', but got '{mode}'.")


def take(a, indices, axis=None, mode="clip"):
    """Elements of ``a`` at ``indices`` along ``axis`` (flattened when ``None``); out-of-range
    indices are clipped, wrapped or (``'raise'``, PYNATIVE only) rejected.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.take(np.array([4, 3, 5]), np.array([0, 5])))
        [4 5]
    """
    a = to_tensor(a, "take")
    indices = to_tensor(indices, "take")
    if indices.dtype not in (mstype.int32, mstype.int64):
        indices = cast_to(indices, mstype.int32)
    if axis is None:
        a, axis = ops.reshape(a, (-1,)), 0
    axis = normalize_axis("take", axis, a.ndim)
    indices = _wrap_indices("take", indices, a.shape[axis], mode)
    if indices.ndim == 0:  # a 1-element gather, then the axis dropped: the same result, one code path
        return ops.squeeze(ops.gather(a, ops.reshape(indices, (1,)), axis), axis)
    return ops.gather(a, indices, axis)


def take_along_axis(arr, indices, axis):
    """Values of ``arr`` at ``indices`` along ``axis`` (``indices`` broadcast against ``arr``).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.take_along_axis(np.array([[10, 30, 20]]), np.array([[0, 2]]), 1))
        [[10 20]]
    """
    arr = to_tensor(arr, "take_along_axis")
    indices = cast_to(to_tensor(indices, "take_along_axis"), mstype.int32)
    if axis is None:
        arr, axis = ops.reshape(arr, (-1,)), 0
    axis = normalize_axis("take_along_axis", axis, arr.ndim)
    if indices.ndim != arr.ndim:
        raise MSValueError(f"For 'take_along_axis', the 'indices' and 'arr' must have the same number of "
                           f"dimensions, but got {indices.ndim} and {arr.ndim}.")
    n = arr.shape[axis]
    indices = ops.clip_by_value(ops.floor_mod(indices, n) if n else indices, 0, builtins.max(n - 1, 0))
    shape_arr = list(_np.broadcast_shapes(tuple(s if i != axis else 1 for i, s in enumerate(arr.shape)),
                                          tuple(s if i != axis else 1 for i, s in enumerate(indices.shape))))
    shape_idx = list(shape_arr)
    shape_arr[axis], shape_idx[axis] = n, indices.shape[axis]
    if tuple(arr.shape) != tuple(shape_arr):
        arr = ops.broadcast_to(arr, tuple(shape_arr))
    if tuple(indices.shape) != tuple(shape_idx):
        indices = ops.broadcast_to(indices, tuple(shape_idx))
    return ops.gather_elements(arr, axis, indices)


def choose(a, choices, mode="clip"):
    """Builds a tensor from an index tensor ``a`` and a sequence of choices (all broadcast together).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.choose(np.array([0, 1]), [np.array([1, 2]), np.array([3, 4])]))
        [1 4]
    """
    a = cast_to(to_tensor(a, "choose"), mstype.int32)
    tensors = list(promote(*[to_tensor(c, "choose") for c in choices])) if not isinstance(choices, Tensor) \
        else [choices[i] for i in range(choices.shape[0])]
    n = len(tensors)
    a = _wrap_indices("choose", a, n, mode)
    shape = _np.broadcast_shapes(tuple(a.shape), *(tuple(t.shape) for t in tensors))
    stacked = ops.stack([ops.broadcast_to(t, shape) for t in tensors], 0)
    index = ops.expand_dims(ops.broadcast_to(a, shape), 0)
    return ops.squeeze(ops.gather_elements(stacked, 0, index), 0)


def select(condlist, choicelist, default=0):
    """Elements of the first choice whose condition holds (``default`` where none does).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.select([np.arange(5) < 2, np.arange(5) > 3], [np.arange(5), np.arange(5) ** 2], -1))
        [ 0  1 -1 -1 16]
    """
    if len(condlist) != len(choicelist):
        raise MSValueError(f"For 'select', the 'condlist' and 'choicelist' must have the same length, but got "
                           f"{len(condlist)} and {len(choicelist)}.")
    if not len(condlist):
        raise MSValueError("For 'select', the 'condlist' must not be empty.")
    choices = list(promote(*[to_tensor(c, "select") for c in choicelist], to_tensor(default, "select")))
    conds = [cast_to(to_tensor(c, "select"), mstype.bool_) for c in condlist]
    out = choices[-1]
    for cond, choice in reversed(list(zip(conds, choices[:-1]))):
        out = where(cond, choice, out)
    return out


def piecewise(x, condlist, funclist, *args, **kw):
    """Evaluates ``funclist[i]`` (a function or a constant) where ``condlist[i]`` holds; one extra
    function is the default for elements no condition selects.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.piecewise(np.array([-1., 0., 2.]), [np.array([-1., 0., 2.]) < 0], [-1., 1.]))
        [-1.  1.  1.]
    """
    x = to_tensor(x, "piecewise")
    if isinstance(condlist, Tensor) and condlist.dtype == mstype.bool_ and condlist.shape == x.shape:
        condlist = [condlist]
    conds = [cast_to(to_tensor(c, "piecewise"), mstype.bool_) for c in condlist]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise MSValueError(f"For 'piecewise', the 'funclist' must have {n} or {n + 1} entries, but got "
                           f"{len(funclist)}.")
    if len(funclist) == n + 1:
        rest = ops.logical_not(_any_of(conds, x))
        conds.append(rest)
    out = ops.zeros_like(x)
    for cond, fn in zip(conds, funclist):
        value = fn(x, *args, **kw) if callable(fn) else fn
        out = where(cond, cast_to(to_tensor(value, "piecewise"), x.dtype), out)
    return out


def _any_of(conds, like):
    acc = ops.zeros(like.shape, mstype.bool_)
    for c in conds:
        acc = ops.logical_or(acc, c)
    return acc


def unique(x, return_inverse=False):
    """The sorted unique elements of the flattened input (and, optionally, the indices that rebuild it).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.unique(np.array([3, 1, 1, 2])))
        [1 2 3]
    """
    x = ops.reshape(to_tensor(x, "unique"), (-1,))
    values, inverse = ops.unique(x)
    # sort explicitly: the operator's order of first occurrence is not part of its contract
    order = ops.argsort(values)
    values = ops.gather(values, order, 0)
    inverse = ops.gather(ops.argsort(order), inverse, 0)
    return (values, cast_to(inverse, mstype.int32)) if return_inverse else values


def unravel_index(indices, shape, order="C"):
    """Flat indices as a tuple of coordinate tensors for ``shape`` (C or Fortran order); out-of-range
    indices wrap.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.unravel_index(np.array([5, 7]), (3, 4)))
        (Tensor(shape=[2], dtype=Int32, value= [1, 1]), Tensor(shape=[2], dtype=Int32, value= [1, 3]))
    """
    indices = to_tensor(indices, "unravel_index")
    shape = as_shape("unravel_index", shape)
    if order not in ("C", "F"):
        raise MSValueError(f"For 'unravel_index', the 'order' must be 'C' or 'F', but got '{order}'.")
    total = int(_np.prod(shape)) if shape else 1
    indices = ops.floor_mod(indices, total) if total else indices
    dims = list(shape) if order == "F" else list(reversed(shape))
    out = []
    for d in dims:
        out.append(ops.floor_mod(indices, d))
        indices = ops.floor_div(indices, d)
    return tuple(out if order == "F" else reversed(out))


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Applies ``func1d`` to every 1-D slice of ``arr`` along ``axis``.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.apply_along_axis(np.sum, 0, np.ones((2, 3))))
        [2. 2. 2.]
    """
    arr = to_tensor(arr, "apply_along_axis")
    axis = normalize_axis("apply_along_axis", axis, arr.ndim)
    moved = ops.moveaxis(arr, axis, -1)
    outer = tuple(moved.shape[:-1])
    flat = ops.reshape(moved, (-1, moved.shape[-1]))
    results = [to_tensor(func1d(flat[i], *args, **kwargs), "apply_along_axis") for i in range(flat.shape[0])]
    res = ops.stack(results, 0)
    res = ops.reshape(res, outer + tuple(res.shape[1:]))
    if res.ndim == len(outer):
        return res
    # the function's output axes take the place of the consumed axis
    nout = res.ndim - len(outer)
    return ops.moveaxis(res, tuple(range(len(outer), res.ndim)), tuple(range(axis, axis + nout)))


def apply_over_axes(func, a, axes):
    """Applies ``func(a, axis)`` repeatedly over ``axes``, keeping the number of dimensions.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.apply_over_axes(np.sum, np.ones((2, 3, 4)), [0, 2]).shape)
        (1, 3, 1)
    """
    a = to_tensor(a, "apply_over_axes")
    axes = axes if isinstance(axes, (tuple, list)) else (axes,)
    out = a
    for ax in axes:
        ax = normalize_axis("apply_over_axes", ax, a.ndim)
        res = to_tensor(func(out, ax), "apply_over_axes")
        if res.ndim == out.ndim - 1:
            res = ops.expand_dims(res, ax)
        elif res.ndim != out.ndim:
            raise MSValueError("For 'apply_over_axes', the function must return an array of the same or one "
                               "fewer dimensions.")
        out = res
    return out


def size(a, axis=None):
    """The number of elements (along ``axis`` when given).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.size(np.ones((2, 3)), 1))
        3
    """
    a = to_tensor(a, "size")
    if axis is None:
        return int(_np.prod(a.shape)) if a.ndim else 1
    return a.shape[normalize_axis("size", axis, a.ndim)]


def array_str(a):
    """The string of a tensor's data, as NumPy prints it.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.array_str(np.array([1, 2, 3])))
        [1 2 3]
    """
    return _np.array_str(check_tensor("array_str", "a", a).asnumpy())


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted unique values in both inputs (with their first indices in each if asked).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.intersect1d(np.array([1, 3, 4, 3]), np.array([3, 1, 2, 1])))
        [1 3]
    """
    a = ops.reshape(to_tensor(ar1, "intersect1d"), (-1,))
    b = ops.reshape(to_tensor(ar2, "intersect1d"), (-1,))
    a, b = promote(a, b)
    ua = unique(a) if not assume_unique else a
    ub = unique(b) if not assume_unique else b
    hit = ops.reduce_sum(ops.cast(ops.equal(ops.expand_dims(ua, 1), ops.expand_dims(ub, 0)), mstype.int32), 1) > 0
    common = ops.masked_select(ua, hit)
    if assume_unique:
        common = unique(common)
    if not return_indices:
        return common
    first = []
    for arr in (a, b):
        eq = ops.equal(ops.expand_dims(common, 1), ops.expand_dims(arr, 0))
        first.append(cast_to(ops.argmax(ops.cast(eq, mstype.int32), 1), mstype.int32))
    return common, first[0], first[1]
