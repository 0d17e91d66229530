"""Shared pieces of shape and dtype rules: pure functions, MindSpore-style errors.

Every check takes the primitive's name first so that errors read ``For 'Op', ...``. Nothing here
touches device data or imports a backend.
"""
from __future__ import annotations

import numbers

import numpy as np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype

__all__ = [
    "is_shape", "broadcast_shapes", "binary_dtype", "check_axis", "normalize_axes", "check_rank",
    "check_dtype_in", "check_int", "check_bool", "check_positive_int", "check_int_tuple", "is_scalar",
    "reduce_shape", "check_float", "NUMBER_TYPES", "FLOAT_TYPES", "INT_TYPES", "ALL_TYPES", "COMPLEX_TYPES", "scalar_shape",
    "check_same_shape", "check_same_dtype", "check_written_dtype",
]

FLOAT_TYPES = mstype.float_type
INT_TYPES = mstype.int_type + mstype.uint_type
NUMBER_TYPES = mstype.number_type
ALL_TYPES = mstype.all_types
COMPLEX_TYPES = mstype.complex_type


def is_scalar(v):
    """A Python or NumPy number (not a ``fractions.Fraction`` or ``decimal.Decimal``: MindSpore refuses those)."""
    return isinstance(v, (bool, int, float, complex, np.number, np.bool_)) and not isinstance(v, mstype.Type)


def is_shape(v):
    return isinstance(v, tuple) and all(isinstance(s, int) for s in v)


def scalar_shape(v):
    """A constant scalar broadcasts like a 0-d tensor."""
    return () if is_scalar(v) else v


def same_shape(a, b):
    """Shapes equal, a dimension of -1 (known only when a graph runs) matching any size."""
    a, b = tuple(a), tuple(b)
    return len(a) == len(b) and all(x == y or x == -1 or y == -1 for x, y in zip(a, b))


def broadcast_shapes(op, *shapes, names=None):
    """NumPy broadcasting of shapes (scalars count as ``()``), raising MindSpore's ValueError.

    A dimension of -1 (dynamic: known only when a graph runs) broadcasts with anything; a known size wins.
    """
    shapes = [scalar_shape(s) for s in shapes]
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(-ndim, 0):
        dim = 1
        for s in shapes:
            if len(s) >= -i:
                d = s[i]
                if d == 1:
                    continue
                if d == -1 or dim == -1:   # a dimension known only at run time (graph mode): it must match then
                    dim = d if dim in (1, -1) else dim
                    continue
                if dim != 1 and d != dim:
                    a, b = shapes[0], shapes[1] if len(shapes) > 1 else shapes[0]
                    raise MSValueError(
                        f"For '{op}', x.shape and y.shape need to broadcast. The value of x.shape[{i}] or "
                        f"y.shape[{i}] must be 1 or -1 when they are not the same, but got x.shape = {a} "
                        f"and y.shape = {b}.")
                dim = d
        out.append(dim)
    return tuple(out)


def binary_dtype(op, x, y, allowed=None):
    """Result dtype of a binary op: tensor/tensor or tensor/scalar promotion (see ``common.dtype``)."""
    xt, yt = isinstance(x, mstype.Type), isinstance(y, mstype.Type)
    if xt and yt:
        out = mstype.promote_types(x, y)
    elif xt:
        _check_number(op, "y", y)
        out = mstype.promote_with_scalar(x, y)
    elif yt:
        _check_number(op, "x", x)
        out = mstype.promote_with_scalar(y, x)
    else:
        _check_number(op, "x", x)
        _check_number(op, "y", y)
        out = mstype.promote_types(mstype.default_scalar_dtype(x), mstype.default_scalar_dtype(y))
    if allowed is not None and out not in allowed:
        raise MSTypeError(f"For '{op}', the type of the result must be in {[str(t) for t in allowed]}, "
                          f"but got {out}.")
    return out


def _check_number(op, name, v):
    if not is_scalar(v):
        raise MSTypeError(f"For '{op}', the input '{name}' must be a Tensor, int, float or bool, "
                          f"but got {type(v).__name__}.")


def check_dtype_in(op, name, dtype, allowed):
    if not isinstance(dtype, mstype.Type):
        raise MSTypeError(f"For '{op}', the input '{name}' must be a Tensor, but got {type(dtype).__name__}.")
    if dtype not in allowed:
        raise MSTypeError(f"For '{op}', the type of '{name}' must be in {[str(t) for t in allowed]}, "
                          f"but got {dtype}.")
    return dtype


def check_float(op, name, dtype):
    return check_dtype_in(op, name, dtype, FLOAT_TYPES)


def check_same_dtype(op, names, dtypes):
    if any(d != dtypes[0] for d in dtypes):
        shown = ", ".join(f"'{n}': {d}" for n, d in zip(names, dtypes))
        raise MSTypeError(f"For '{op}', the inputs must have the same dtype, but got {shown}.")
    return dtypes[0]


def check_written_dtype(op, names, dtypes):
    """The dtype of an in-place op's written input ``dtypes[0]``: as MindSpore, the other inputs of its dtype group
    are converted to it, but the written input itself (a Parameter) never is, so it must be their promoted type."""
    target = dtypes[0]
    for dtype in dtypes[1:]:
        promoted = mstype.promote_types(target, dtype)
        if promoted != target:
            raise MSTypeError(f"Data type conversion is not supported for a 'Parameter', nor for the input tensor of "
                              f"an in-place operator, the argument[{names[0]}]'s data type of primitive[{op}] is "
                              f"{target}, which cannot be converted to data type {promoted} automatically.")
    return target


def check_same_shape(op, names, shapes):
    if any(tuple(s) != tuple(shapes[0]) for s in shapes):
        shown = ", ".join(f"'{n}' shape {tuple(s)}" for n, s in zip(names, shapes))
        raise MSValueError(f"For '{op}', the inputs must have the same shape, but got {shown}.")
    return tuple(shapes[0])


def check_rank(op, name, shape, ranks):
    ranks = (ranks,) if isinstance(ranks, int) else tuple(ranks)
    if not is_shape(shape):
        raise MSTypeError(f"For '{op}', the input '{name}' must be a Tensor, but got {type(shape).__name__}.")
    if len(shape) not in ranks:
        want = " or ".join(f"{r}-D" for r in ranks)
        raise MSValueError(f"For '{op}', the '{name}' must be a {want} tensor, but got shape {tuple(shape)}.")
    return shape


def check_int(op, name, v):
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise MSTypeError(f"For '{op}', the '{name}' must be an int, but got {type(v).__name__}.")
    return int(v)


def check_bool(op, name, v):
    if not isinstance(v, bool):
        raise MSTypeError(f"For '{op}', the '{name}' must be a bool, but got {type(v).__name__}.")
    return v


def check_positive_int(op, name, v):
    v = check_int(op, name, v)
    if v <= 0:
        raise MSValueError(f"For '{op}', the '{name}' must be a positive int, but got {v}.")
    return v


def check_int_tuple(op, name, v, length=None):
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):
        v = (int(v),)
    if not isinstance(v, (tuple, list)) or not all(isinstance(x, numbers.Integral) and not isinstance(x, bool)
                                                   for x in v):
        raise MSTypeError(f"For '{op}', the '{name}' must be a tuple of int, but got {v!r}.")
    if length is not None and len(v) != length:
        raise MSValueError(f"For '{op}', the length of '{name}' must be {length}, but got {len(v)}.")
    return tuple(int(x) for x in v)


def check_axis(op, axis, ndim, name="axis"):
    """Normalise one axis into ``[0, ndim)``; MindSpore's ValueError when out of range."""
    axis = check_int(op, name, axis)
    lo, hi = -max(ndim, 1), max(ndim, 1)
    if not lo <= axis < hi:
        raise MSValueError(f"For '{op}', the '{name}' must be in range [{lo}, {hi}), but got {axis}.")
    return axis % max(ndim, 1)


def normalize_axes(op, axis, ndim, name="axis"):
    """Normalise ``axis`` (None, int, tuple/list) into a sorted tuple; ``()``/None mean every axis."""
    if axis is None or axis == () or axis == []:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(check_axis(op, a, ndim, name) for a in axis)
    else:
        axes = (check_axis(op, axis, ndim, name),)
    if len(set(axes)) != len(axes):
        raise MSValueError(f"For '{op}', the '{name}' must not contain duplicate axes, but got {axis}.")
    return tuple(sorted(axes))


def reduce_shape(op, shape, axis, keep_dims):
    axes = normalize_axes(op, axis, len(shape))
    if keep_dims:
        return tuple(1 if i in axes else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in axes)
