"""Argument handling shared by the ``mindspore.numpy`` families.

Scalars and nested sequences become tensors the way ``mindspore.numpy.asarray`` makes them (Python
``int`` -> Int32, ``float`` -> Float32, ``bool`` -> Bool); NumPy arrays keep their dtype. Axes are
checked and normalised here, in pure Python, so the same code runs eagerly and while a graph is
compiled (shapes and dtypes are known then, values are not).
"""
import numbers

import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
import mindspore.ops as ops
from mindspore.numpy.dtypes import to_dtype

__all__ = []

_NP_DEFAULTS = {_np.dtype(_np.int64): _np.int32, _np.dtype(_np.float64): _np.float32}


def host_array(op, obj, dtype=None):
    """``obj`` (scalar, nested sequence, NumPy array) as a NumPy array with MindSpore's defaults."""
    if isinstance(obj, _np.ndarray) or isinstance(obj, _np.generic):
        arr = _np.asarray(obj)
    else:
        try:
            arr = _np.asarray(obj)
        except (TypeError, ValueError) as e:
            raise MSTypeError(f"For '{op}', the input must be int, float, bool, list, tuple, numpy.ndarray or "
                              f"Tensor, but got {type(obj).__name__}: {e}") from None
        if arr.dtype.kind not in "biufc":
            raise MSTypeError(f"For '{op}', the input must be int, float, bool, list, tuple, numpy.ndarray or "
                              f"Tensor, but got {type(obj).__name__}.")
        if arr.dtype == _np.int64 and arr.size and (arr.min() < -2 ** 31 or arr.max() >= 2 ** 31):
            pass  # does not fit Int32: stays Int64
        else:
            arr = arr.astype(_NP_DEFAULTS.get(arr.dtype, arr.dtype))
    if dtype is not None:
        arr = arr.astype(mstype.dtype_to_nptype(to_dtype(op, dtype)))
    return arr


def _flat(seq):
    for v in seq:
        if isinstance(v, (list, tuple)):
            yield from _flat(v)
        else:
            yield v


def to_tensor(x, op="asarray"):
    """``x`` as a Tensor (a Tensor is returned as is)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (list, tuple)) and any(isinstance(v, Tensor) for v in _flat(x)):
        # a nested sequence holding tensors: stacked level by level, in the promoted dtype
        items = promote(*[to_tensor(v, op) for v in x])
        return ops.stack(list(items))
    return Tensor(host_array(op, x))


def check_tensor(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")
    return x


def is_scalar(v):
    return isinstance(v, (numbers.Number, _np.generic)) and not isinstance(v, Tensor)


def check_int(op, name, v):
    if isinstance(v, bool) or not isinstance(v, (int, _np.integer)):
        raise MSTypeError(f"For '{op}', the '{name}' must be int, but got {type(v).__name__}.")
    return int(v)


def normalize_axis(op, axis, ndim, name="axis"):
    axis = check_int(op, name, axis)
    if not -ndim <= axis < max(ndim, 1) or (ndim == 0 and axis not in (0, -1)):
        raise MSValueError(f"For '{op}', the '{name}' must be in range [{-ndim}, {ndim}), but got {axis}.")
    return axis % ndim if ndim else 0


def normalize_axes(op, axis, ndim, name="axis"):
    """A sorted tuple of distinct non-negative axes (``None``: every axis)."""
    if axis is None:
        return tuple(range(ndim))
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(normalize_axis(op, a, ndim, name) for a in axes)
    if len(set(out)) != len(out):
        raise MSValueError(f"For '{op}', the '{name}' must not contain duplicate axes, but got {axis}.")
    return tuple(sorted(out))


def as_shape(op, shape):
    if isinstance(shape, (int, _np.integer)) and not isinstance(shape, bool):
        shape = (int(shape),)
    if not isinstance(shape, (tuple, list)) or not all(isinstance(s, (int, _np.integer)) and
                                                      not isinstance(s, bool) for s in shape):
        raise MSTypeError(f"For '{op}', the 'shape' must be int or a tuple of ints, but got {shape!r}.")
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise MSValueError(f"For '{op}', the 'shape' must not contain negative values, but got {shape}.")
    return shape


def is_float_dtype(t):
    return mstype.is_float(t) or mstype.is_complex(t)


def to_float(x, default=mstype.float32):
    """``x`` cast to a float dtype when it is bool or integer (floats keep theirs)."""
    return x if is_float_dtype(x.dtype) else ops.cast(x, default)


def cast_to(x, dtype):
    if dtype is None:
        return x
    dtype = to_dtype("astype", dtype)
    return x if x.dtype == dtype else ops.cast(x, dtype)


def promote(*tensors):
    """The tensors cast to their common (promoted) dtype."""
    out = tensors[0].dtype
    for t in tensors[1:]:
        out = mstype.promote_types(out, t.dtype)
    return tuple(cast_to(t, out) for t in tensors)


def const(value, dtype):
    """A constant tensor (built from Python values; no device data is read)."""
    return Tensor(_np.asarray(value, dtype=mstype.dtype_to_nptype(dtype)))
