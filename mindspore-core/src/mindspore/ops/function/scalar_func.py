"""MindSpore 2.10's functional forms of its scalar, bool, string, tuple, list and dict operations
(``ops.scalar_add``, ``ops.tuple_getitem``, ``ops.make_tuple``, ``ops.shape_mul``, ``ops.typeof``, ...).

In MindSpore these are graph-frontend primitives over compile-time values; model code (``F.tuple_getitem``,
``F.shape_mul``, ``F.make_tuple``, ``F.scalar_to_tensor``...) calls them. Here they are plain Python over
Python values: eagerly they compute at once, and under ``@ms.jit`` the graph compiler folds them on constant
arguments like any other Python function. Where MindSpore 2.10 checks an argument (``scalar_cast``'s target
type, ``tuple_div``'s divisibility, ``scalar_div`` by zero) the same error type and message are raised.
The ones that take tensors (``dyn_shape``, ``eps``, ``array_to_scalar``) call primitives.
"""
import math
import operator

from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs.array import Shape as _Shape
from mindspore.ops._defs.indexing import Slice as _Slice
from mindspore.ops._defs.math_prims import ScalarCast as _ScalarCast, TensorShape as _TensorShape
from mindspore.ops.function.array_func import fill as _fill
from mindspore.ops.function.math_func import logical_not as _logical_not

__all__ = [
    "scalar_add", "scalar_sub", "scalar_mul", "scalar_div", "scalar_floordiv", "scalar_mod", "scalar_pow",
    "scalar_eq", "scalar_ne", "scalar_gt", "scalar_ge", "scalar_lt", "scalar_le", "scalar_max", "scalar_min",
    "scalar_log", "scalar_uadd", "scalar_usub", "scalar_cast", "scalar_to_array", "bool_and", "bool_or",
    "bool_not", "bool_eq", "string_eq", "string_concat", "tuple_len", "list_len", "tuple_getitem", "list_getitem",
    "tuple_setitem", "list_setitem", "make_tuple", "make_list", "make_slice", "tuple_equal", "list_equal",
    "tuple_reversed", "tuple_div", "in_dict", "not_in_dict", "dict_getitem", "is_", "is_not", "typeof", "hastype",
    "shape_mul", "reduced_shape", "broadcast_gradient_args", "dyn_shape", "array_to_scalar", "eps", "isconstant",
    "shape_", "tensor_slice", "dict_setitem", "make_dict", "augassign_add", "augassign_sub", "augassign_mul",
    "augassign_div", "augassign_floordiv", "augassign_mod",
]


def _scalar(op, name, v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        if not isinstance(v, bool):
            raise MSTypeError(f"For '{op}', the '{name}' must be a number, but got {type(v).__name__}.")
    return v


def _pair(op, x, y):
    return _scalar(op, "x", x), _scalar(op, "y", y)


def scalar_add(x, y):
    """``x + y`` of two Python numbers."""
    x, y = _pair("ScalarAdd", x, y)
    return x + y


def scalar_sub(x, y):
    """``x - y`` of two Python numbers."""
    x, y = _pair("ScalarSub", x, y)
    return x - y


def scalar_mul(x, y):
    """``x * y`` of two Python numbers."""
    x, y = _pair("ScalarMul", x, y)
    return x * y


def scalar_div(x, y):
    """``x / y`` (true division, a float) of two Python numbers."""
    x, y = _pair("ScalarDiv", x, y)
    if y == 0:
        raise MSValueError("For 'ScalarDiv', the input 'y' can not be zero.")
    return x / y


def scalar_floordiv(x, y):
    """``x // y`` of two Python numbers."""
    x, y = _pair("ScalarFloorDiv", x, y)
    if y == 0:
        raise MSValueError("For 'ScalarFloorDiv', the input 'y' can not be zero.")
    return x // y


def scalar_mod(x, y):
    """``x % y`` of two Python numbers."""
    x, y = _pair("ScalarMod", x, y)
    if y == 0:
        raise MSValueError("For 'ScalarMod', the input 'y' can not be zero.")
    return x % y


def scalar_pow(x, y):
    """``x ** y`` of two Python numbers."""
    x, y = _pair("ScalarPow", x, y)
    return x ** y


def scalar_eq(x, y):
    """``x == y`` of two Python numbers."""
    return _scalar("ScalarEq", "x", x) == _scalar("ScalarEq", "y", y)


def scalar_ne(x, y):
    """``x != y`` of two Python numbers."""
    return _scalar("scalar_ne", "x", x) != _scalar("scalar_ne", "y", y)


def scalar_gt(x, y):
    """``x > y`` of two Python numbers."""
    return _scalar("ScalarGt", "x", x) > _scalar("ScalarGt", "y", y)


def scalar_ge(x, y):
    """``x >= y`` of two Python numbers."""
    return _scalar("ScalarGe", "x", x) >= _scalar("ScalarGe", "y", y)


def scalar_lt(x, y):
    """``x < y`` of two Python numbers."""
    return _scalar("ScalarLt", "x", x) < _scalar("ScalarLt", "y", y)


def scalar_le(x, y):
    """``x <= y`` of two Python numbers."""
    return _scalar("ScalarLe", "x", x) <= _scalar("ScalarLe", "y", y)


def scalar_max(x, y):
    """The larger of two Python numbers."""
    x, y = _pair("ScalarMax", x, y)
    return x if x >= y else y


def scalar_min(x, y):
    """The smaller of two Python numbers."""
    x, y = _pair("ScalarMin", x, y)
    return x if x <= y else y


def scalar_log(x):
    """The natural logarithm of a Python number, a float."""
    return math.log(_scalar("ScalarLog", "x", x))


def scalar_uadd(x):
    """``+x`` of a Python number."""
    return +_scalar("ScalarUadd", "x", x)


def scalar_usub(x):
    """``-x`` of a Python number."""
    return -_scalar("ScalarUsub", "x", x)


_SCALAR_CAST = _ScalarCast()     # ScalarCast's rule: int64, float64 or bool
_TENSOR_SHAPE = _TensorShape()


def scalar_cast(input_x, input_y):
    """``input_x`` as the Python scalar of the MindSpore type ``input_y`` (int64, float64 or bool).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.scalar_cast(3.7, ms.int64)
        3
    """
    return _SCALAR_CAST(input_x, input_y)


def scalar_to_array(input_x):
    """A 0-d tensor of a Python number (deprecated in MindSpore for ``ops.scalar_to_tensor``)."""
    if isinstance(input_x, bool) or not isinstance(input_x, (int, float)):
        raise MSTypeError(f"For 'ScalarToArray', the 'input_x' must be int or float, but got "
                          f"{type(input_x).__name__}.")
    return Tensor(input_x)


def bool_and(x, y):
    """``x and y`` of two Python bools."""
    return bool(x) and bool(y)


def bool_or(x, y):
    """``x or y`` of two Python bools."""
    return bool(x) or bool(y)


def bool_not(x):
    """``not x`` of a Python bool (or a one-element bool tensor)."""
    if isinstance(x, Tensor):
        return _logical_not(x)
    return not x


def bool_eq(x, y):
    """``x == y`` of two Python bools."""
    return bool(x) == bool(y)


def string_eq(x, y):
    """``x == y`` of two strings."""
    return x == y


def string_concat(x, y):
    """``x + y`` of two strings."""
    if not isinstance(x, str) or not isinstance(y, str):
        raise MSTypeError(f"For 'string_concat', the inputs must be str, but got {type(x).__name__} and "
                          f"{type(y).__name__}.")
    return x + y


def tuple_len(data):
    """The length of a tuple."""
    return len(data)


def list_len(data):
    """The length of a list."""
    return len(data)


def tuple_getitem(data, index):
    """``data[index]`` of a tuple."""
    return data[index]


def list_getitem(data, index):
    """``data[index]`` of a list."""
    return data[index]


def tuple_setitem(data, index, value):
    """A new tuple: ``data`` with ``data[index]`` replaced by ``value``."""
    items = list(data)
    items[index] = value
    return tuple(items)


def list_setitem(data, index, value):
    """A new list: ``data`` with ``data[index]`` replaced by ``value``."""
    items = list(data)
    items[index] = value
    return items


def make_tuple(*args):
    """The tuple of the arguments."""
    return tuple(args)


def make_list(*args):
    """The list of the arguments."""
    return list(args)


def make_slice(start, stop, step):
    """``slice(start, stop, step)``."""
    return slice(start, stop, step)


def tuple_equal(x, y):
    """``x == y`` of two tuples."""
    return tuple(x) == tuple(y)


def list_equal(x, y):
    """``x == y`` of two lists."""
    return list(x) == list(y)


def tuple_reversed(data):
    """The tuple in reverse order."""
    return tuple(reversed(data))


def tuple_div(x, y):
    """Elementwise ``x[i] // y[i]`` of two int tuples of one length, each division exact."""
    if len(x) != len(y):
        raise MSValueError(f"The size of inputs of 'tuple_div' operator must be the same, but the size of "
                           f"divisor tuple is {len(y)}, the size of dividend tuple is {len(x)}.")
    out = []
    for a, b in zip(x, y):
        if b == 0 or a % b != 0:
            raise MSRuntimeError(f"The inputs of 'tuple_div' operator should be divisible, but they are not "
                                 f"divisible now, the dividend is {a}, the divisor is {b}.")
        out.append(a // b)
    return tuple(out)


def in_dict(key, data):
    """``key in data`` of a dict."""
    return key in data


def not_in_dict(key, data):
    """``key not in data`` of a dict."""
    return key not in data


def dict_getitem(data, key):
    """``data[key]`` of a dict."""
    return data[key]


def dict_setitem(data, key, value):
    """A new dict: ``data`` with ``data[key] = value``."""
    out = dict(data)
    out[key] = value
    return out


def make_dict(keys, values):
    """The dict of the pairs of ``keys`` and ``values`` (two sequences of one length)."""
    if len(keys) != len(values):
        raise MSValueError(f"For 'make_dict', the keys and values must have the same length, but got {len(keys)} and "
                           f"{len(values)}.")
    return dict(zip(keys, values))


#: MindSpore's primitive instances under their functional names (``F.shape_``, ``F.tensor_slice``)
shape_ = _Shape()
tensor_slice = _Slice()


def is_(x, y):
    """``x is y``."""
    return x is y


def is_not(x, y):
    """``x is not y``."""
    return x is not y


def typeof(x):
    """The MindSpore type of ``x``: ``Tensor[Float32]`` for a float32 tensor, ``Int64`` for a Python int,
    ``Float32`` for a Python float, ``Bool``, ``String``, ``Tuple``/``List`` for sequences."""
    if isinstance(x, Tensor):
        return mstype.TensorType(x.dtype)
    if isinstance(x, bool):
        return mstype.bool_
    if isinstance(x, int):
        return mstype.int64
    if isinstance(x, float):
        return mstype.float32
    if isinstance(x, str):
        return mstype.string
    if isinstance(x, tuple):
        return mstype.tuple_
    if isinstance(x, list):
        return mstype.list_
    if x is None:
        return mstype.type_none
    raise MSTypeError(f"For 'typeof', the type of {type(x).__name__} is not supported.")


def hastype(x, t):
    """Whether ``typeof(x)`` is the type ``t`` (a float32 tensor's type is ``Tensor[Float32]``, not ``Float32``)."""
    return typeof(x) == t


def shape_mul(input_data):
    """The product of a shape tuple's sizes (the element count).

    Examples:
        >>> from mindspore import ops
        >>> ops.shape_mul((2, 3, 4))
        24
    """
    if not isinstance(input_data, tuple):
        raise MSTypeError(f"For 'shape_mul', the input should be a tuple, but got {type(input_data).__name__}.")
    return math.prod(input_data)


def reduced_shape(shape, axis):
    """``shape`` with the sizes of ``axis`` (an int or a tuple; ``()`` means all) set to 1."""
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if not axes:
        return (1,) * len(shape)
    axes = {a % len(shape) for a in axes}
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def broadcast_gradient_args(x_shape, y_shape):
    """The axes over which the gradients of ``x`` and ``y`` must be summed after broadcasting them together:
    ``(axes_x, axes_y)``, each a tuple of axes of the broadcast shape."""
    ndim = max(len(x_shape), len(y_shape))
    x = (1,) * (ndim - len(x_shape)) + tuple(x_shape)
    y = (1,) * (ndim - len(y_shape)) + tuple(y_shape)
    rx, ry = [], []
    for i, (a, b) in enumerate(zip(x, y)):
        if a == b:
            continue
        if a != 1 and b != 1:
            raise MSValueError(f"For 'BroadcastGradientArgs', the shapes {tuple(x_shape)} and {tuple(y_shape)} "
                               f"can not broadcast.")
        (rx if a == 1 else ry).append(i)
    return tuple(rx), tuple(ry)


def dyn_shape(input_x):
    """The shape of a tensor as a 1-D int64 tensor.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.dyn_shape(ms.Tensor(np.ones((2, 3)))))
        [2 3]
    """
    if not isinstance(input_x, Tensor):
        raise MSTypeError(f"For 'TensorShape', the 'input_x' must be a Tensor, but got {type(input_x).__name__}.")
    return _TENSOR_SHAPE(input_x)


def array_to_scalar(x):
    """The Python scalar of a one-element tensor."""
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For 'array_to_scalar', the input must be a Tensor, but got {type(x).__name__}.")
    return x.item()


def eps(x):
    """A tensor shaped like ``x`` filled with the machine epsilon of its float dtype (float16, float32, float64)."""
    limits = {mstype.float16: 2.0 ** -10, mstype.float32: 2.0 ** -23, mstype.float64: 2.0 ** -52}
    if not isinstance(x, Tensor) or x.dtype not in limits:
        got = x.dtype if isinstance(x, Tensor) else type(x).__name__
        raise MSTypeError(f"For 'Eps', the 'x' must be a Tensor of float16, float32 or float64, but got {got}.")
    return _fill(x.dtype, x.shape, limits[x.dtype])


def isconstant(x):
    """Whether ``x`` is a constant when a graph is compiled: True for anything but a tensor's value."""
    return True


def _augassign(name, fn):
    def op(x, y):
        return fn(x, y)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``x {name.split('_')[1]}= y``: the value an augmented assignment gives."
    return op


augassign_add = _augassign("augassign_add", operator.add)
augassign_sub = _augassign("augassign_sub", operator.sub)
augassign_mul = _augassign("augassign_mul", operator.mul)
augassign_div = _augassign("augassign_div", operator.truediv)
augassign_floordiv = _augassign("augassign_floordiv", operator.floordiv)
augassign_mod = _augassign("augassign_mod", operator.mod)
