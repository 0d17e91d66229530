"""Graph-compatible constant helpers of ``mindspore.scipy``: argument checks evaluated while compiling
(``constexpr``), raising MindSpore 2.10's messages in PYNATIVE and GRAPH_MODE alike.

Every check is a pure function of Python values (types, shapes, dtypes), never of tensor contents, so a
compiled graph folds it away.
"""
from types import FunctionType

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import CSRTensor, Tensor
from mindspore.common import dtype as mstype
from mindspore.ops.primitive import constexpr


@constexpr
def _raise_value_error(*info):
    """Raise ValueError (both modes) with ``info``'s objects concatenated as the message."""
    raise MSValueError("".join(f"{obj}" for obj in info))


@constexpr
def _raise_type_error(*info):
    """Raise TypeError (both modes) with ``info``'s objects concatenated as the message."""
    raise MSTypeError("".join(f"{obj}" for obj in info))


@constexpr
def _type_convert(new_type, obj):
    return new_type(obj)


@constexpr
def pack(*args):
    """The arguments as one tuple constant."""
    return args


class StringDict:
    """A registry choosing an object by its string key."""

    def __init__(self):
        self.data = {}

    def register(self, obj_str, obj):
        """Register ``obj`` under ``obj_str``."""
        if not isinstance(obj_str, str):
            raise TypeError("key for Registry class must be string.")
        self.data[obj_str] = obj

    def get(self, obj_str):
        """The object registered under ``obj_str`` (None when none)."""
        if not isinstance(obj_str, str):
            raise TypeError("key for Registry class must be string.")
        return self.data.get(obj_str)


def mstype_to_pytype(type_):
    """The Python class of a MindSpore type (``TensorType`` -> ``Tensor``, ...), None for others."""
    return {mstype.TensorType: Tensor, mstype.CSRTensorType: CSRTensor, mstype.FunctionType: FunctionType}.get(type_)


def _dtype_names(dtypes):
    return "[" + ", ".join(repr(d) for d in dtypes) + "]"


@constexpr
def _check_bool(func_name, value, arg_name):
    """``value`` must be a bool (exactly: an int is refused)."""
    if type(value) is not bool:  # pylint: disable=unidiomatic-typecheck
        raise MSTypeError(f"For '{func_name}', the type of '{arg_name}' should be bool, but got '{value}' with type "
                          f"{type(value).__name__}.")
    return value


@constexpr
def _check_int(func_name, value, arg_name):
    if type(value) is not int:  # pylint: disable=unidiomatic-typecheck
        raise MSTypeError(f"For '{func_name}', the type of '{arg_name}' should be int, but got '{value}' with type "
                          f"{type(value).__name__}.")
    return value


def _check_tensor(func_name, value, arg_name="a"):
    """``value`` must be a Tensor (a Python-level check: graph mode only ever passes tensors here)."""
    if not isinstance(value, Tensor):
        raise MSTypeError(f"For '{func_name}', the type of '{arg_name}' should be Tensor, but got '{value}' with type "
                          f"{type(value).__name__}.")
    return value


@constexpr
def _check_dtype(func_name, dtype, valid, arg_name="a"):
    if dtype not in valid:
        raise MSTypeError(f"For '{func_name}', the data type of '{arg_name}' should be one of {_dtype_names(valid)}, "
                          f"but got {dtype}.")
    return dtype


@constexpr
def _check_ndim(func_name, ndim, valid, arg_name="a"):
    valid = valid if isinstance(valid, tuple) else (valid,)
    if ndim not in valid:
        want = f"one of {valid}" if len(valid) > 1 else f"{valid[0]}"
        raise MSValueError(f"For '{func_name}', the dimension of '{arg_name}' should be {want}, but got {ndim}.")
    return ndim


@constexpr
def _check_square(func_name, shape, arg_name="a"):
    """A 2-D square matrix (N, N)."""
    _check_ndim(func_name, len(shape), 2, arg_name)
    if shape[0] != shape[1]:
        raise MSValueError(f"For '{func_name}', the matrix '{arg_name}' should be a square matrix like (N, N), but "
                           f"got {tuple(shape)}.")
    return shape


@constexpr
def _check_solve_shapes(func_name, a_shape, b_shape, a_name, b_name):
    """``a`` (N, N) against a right-hand side ``b`` (N,) or (N, M)."""
    _check_square(func_name, a_shape, a_name)
    _check_ndim(func_name, len(b_shape), (1, 2), b_name)
    if a_shape[1] != b_shape[0]:
        raise MSValueError(f"For '{func_name}', the last two dimensions of '{a_name}' and '{b_name}' should be "
                           f"matched, but got shape of {tuple(a_shape)} and {tuple(b_shape)}. Please make sure that "
                           f"the shape of '{a_name}' and '{b_name}' be like (N, N) X (N, M) or (N, N) X (N).")
    return b_shape


@constexpr
def _check_same_dtype(func_name, a_dtype, b_dtype, a_name, b_name):
    if a_dtype != b_dtype:
        raise MSTypeError(f"For '{func_name}', the data type of '{a_name}' and '{b_name}' should be the same, but got "
                          f"the data type of '{a_name}' is {a_dtype} and the data type of '{b_name}' is {b_dtype}.")
    return a_dtype


def _check_not_implemented(func_name, value, arg_name):
    """Only ``arg_name=None`` is implemented (``value`` may be a Tensor: a plain ``is None`` test, which graph
    mode folds as well)."""
    if value is not None:
        raise MSValueError(f"For '{func_name}', currently only case {arg_name}=None of '{func_name}' is "
                           f"implemented.")
    return value
