"""The dtypes and constants ``mindspore.numpy`` exports, and NumPy-style dtype promotion.

``int_``/``float_`` are MindSpore's defaults (Int32, Float32), not NumPy's 64-bit ones. Promotion is
MindSpore's (:func:`mindspore.common.dtype.promote_types`): a float of any width beats any int
(``int32`` with ``float16`` gives ``Float16``), within a kind the wider wins, bool loses to all.
"""
import math as _math

import numpy as _np

from mindspore._errors import MSTypeError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor

__all__ = ["int_", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float_",
           "float16", "float32", "float64", "bool_", "inf", "nan", "pi", "PINF", "NINF", "promote_types",
           "result_type"]

int_ = mstype.int32
int8 = mstype.int8
int16 = mstype.int16
int32 = mstype.int32
int64 = mstype.int64
uint = mstype.uint32
uint8 = mstype.uint8
uint16 = mstype.uint16
uint32 = mstype.uint32
uint64 = mstype.uint64
float_ = mstype.float32
float16 = mstype.float16
float32 = mstype.float32
float64 = mstype.float64
bool_ = mstype.bool_

inf = float("inf")
PINF = float("inf")
NINF = float("-inf")
nan = float("nan")
pi = _math.pi

_NAMES = {"bool": mstype.bool_, "bool_": mstype.bool_, "int": mstype.int32, "int_": mstype.int32,
          "float": mstype.float32, "float_": mstype.float32, "uint": mstype.uint32}


def to_dtype(op, dtype):
    """A MindSpore dtype from a MindSpore dtype, a NumPy dtype, a Python type or a name."""
    if isinstance(dtype, mstype.Type):
        return dtype
    if dtype is bool:
        return mstype.bool_
    if dtype is int:
        return mstype.int32
    if dtype is float:
        return mstype.float32
    if isinstance(dtype, str) and dtype in _NAMES:
        return _NAMES[dtype]
    try:
        return mstype.to_ms_dtype(dtype)
    except TypeError:
        pass
    try:
        return mstype.to_ms_dtype(_np.dtype(dtype))
    except TypeError:
        raise MSTypeError(f"For '{op}', the 'dtype' must be a MindSpore or NumPy dtype, but got {dtype!r}.") from None


def promote_types(type1, type2):
    """The dtype to which two dtypes are both safely cast (MindSpore's promotion).

    Args:
        type1 (Union[mindspore.dtype, str]): First data type.
        type2 (Union[mindspore.dtype, str]): Second data type.

    Returns:
        The promoted data type.

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.promote_types(np.float32, np.float64))
        Float64
    """
    return mstype.promote_types(to_dtype("promote_types", type1), to_dtype("promote_types", type2))


def _kind_dtype(v):
    if isinstance(v, Tensor):
        return v.dtype
    if isinstance(v, bool):
        return mstype.bool_
    if isinstance(v, int):
        return mstype.int32
    if isinstance(v, float):
        return mstype.float32
    if isinstance(v, complex):
        return mstype.complex64
    return to_dtype("result_type", v)


def result_type(*arrays_and_dtypes):
    """The dtype of applying MindSpore's promotion to the arguments (tensors, scalars or dtypes).

    Python ``int``/``float`` count as ``int32``/``float32`` (MindSpore's defaults).

    Examples:
        >>> import mindspore.numpy as np
        >>> print(np.result_type('i2', np.float32, True))
        Float32
    """
    if not arrays_and_dtypes:
        raise MSTypeError("For 'result_type', at least one array or dtype is required, but got none.")
    out = _kind_dtype(arrays_and_dtypes[0])
    for v in arrays_and_dtypes[1:]:
        out = mstype.promote_types(out, _kind_dtype(v))
    return out
