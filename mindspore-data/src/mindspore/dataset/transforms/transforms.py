"""General data transforms, as ``mindspore.dataset.transforms``: type casts, one-hot labels,
composition and random application of transforms, and tensor editing (fill, pad, slice, mask, ...).

Each transform is a plain callable object (see :mod:`mindspore.dataset.transforms._base`). Data
errors (a label out of range, a rank the op does not take) are ``RuntimeError``; argument errors
at construction are ``TypeError``/``ValueError`` with MindSpore's messages.
"""
import numbers
import random
from enum import IntEnum

import numpy as np

from mindspore.common import dtype as mstype
from mindspore.dataset.transforms._base import (
    TensorOperation, check_callable_list, check_float, check_int, check_pos_int, check_prob, check_type,
    is_pil, op_engine, runtime_error, single_or_tuple, to_array)
from mindspore.dataset.engine import cxx_random
from mindspore.dataset.transforms._plugin import Plugin
from mindspore.plugin import MSTypeError, MSValueError

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "Mask", "OneHot", "PadEnd", "Plugin", "RandomApply",
           "RandomChoice", "RandomOrder", "Relational", "Slice", "TypeCast", "Unique", "not_random"]


def not_random(function):
    """Mark a Python function as deterministic (MindSpore caches only such functions).

    Examples:
        >>> from mindspore.dataset.transforms import not_random
        >>> @not_random
        ... def add_one(x):
        ...     return x + 1
        >>> add_one.random
        False
    """
    function.random = False
    return function


def to_numpy_dtype(data_type, name="data_type"):
    """The NumPy dtype for a MindSpore dtype (``mstype.string`` is NumPy's ``str_``) or a NumPy type."""
    if isinstance(data_type, mstype.Type):
        if data_type == mstype.string:
            return np.dtype(np.str_)
        try:
            return np.dtype(mstype.dtype_to_nptype(data_type))
        except TypeError as exc:
            raise MSTypeError(f"Argument {name} with value {data_type} is not a data type the dataset "
                              f"supports.") from exc
    if isinstance(data_type, (type, np.dtype, str)):
        try:
            return np.dtype(data_type)
        except TypeError as exc:
            raise MSTypeError(f"Argument {name} with value {data_type!r} is not of type "
                              f"[mindspore.dtype, numpy.dtype], but got {type(data_type)}.") from exc
    raise MSTypeError(f"Argument {name} with value {data_type!r} is not of type [mindspore.dtype, numpy.dtype], "
                      f"but got {type(data_type)}.")


def _is_string(array):
    return array.dtype.kind in ("U", "S", "O")


def _as_str_array(array):
    if array.dtype.kind == "S":
        return np.char.decode(array, "utf-8")
    if array.dtype.kind == "O":
        return array.astype(np.str_)
    return array


class TypeCast(TensorOperation):
    """Cast the input to a MindSpore or NumPy data type.

    Args:
        data_type (Union[mindspore.dtype, numpy.dtype]): the type to cast to, e.g. ``mstype.int32`` or
            ``np.float32``.

    Raises:
        TypeError: ``data_type`` is not a MindSpore or NumPy data type.
        RuntimeError: the input holds strings and the target type is numeric.

    Examples:
        >>> import numpy as np
        >>> from mindspore import dtype as mstype
        >>> import mindspore.dataset.transforms as transforms
        >>> transforms.TypeCast(mstype.int32)(np.array([1.7, 2.2])).dtype
        dtype('int32')
    """

    def __init__(self, data_type):
        self.data_type = data_type
        self._np_dtype = to_numpy_dtype(data_type)

    def _cast(self, value):
        array = to_array(value, "TypeCast")
        target = self._np_dtype
        if target.kind == "U":
            return _as_str_array(array).astype(np.str_) if _is_string(array) else array.astype(np.str_)
        if _is_string(array):
            raise runtime_error("TypeCast", f"TypeCast does not support casting strings to {target}; "
                                "use text.ToNumber to parse strings.")
        with np.errstate(invalid="ignore", over="ignore"):
            return array.astype(target)

    def __call__(self, *inputs):
        return single_or_tuple([self._cast(value) for value in inputs])


class OneHot(TensorOperation):
    """Apply one-hot encoding to labels: a scalar label gives shape ``(num_classes,)``, ``n`` labels
    give ``(n, num_classes)`` (size-1 dimensions are squeezed, as in MindSpore).

    Without smoothing the output keeps the label's integer dtype; with ``smoothing_rate`` ``s`` the
    output is float32 ``(1 - s) * one_hot + s / num_classes``.

    Args:
        num_classes (int): number of classes, larger than every label.
        smoothing_rate (float, optional): label smoothing in ``[0.0, 1.0]``. Default: ``0.0``.

    Raises:
        TypeError: ``num_classes`` is not an int, or ``smoothing_rate`` is not a float.
        ValueError: ``smoothing_rate`` is outside ``[0.0, 1.0]``.
        RuntimeError: a label is not an integer, has rank > 1, or is out of ``[0, num_classes)``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.transforms as transforms
        >>> transforms.OneHot(4)(np.array([1, 3]))
        array([[0, 1, 0, 0],
               [0, 0, 0, 1]])
    """

    def __init__(self, num_classes, smoothing_rate=0.0):
        check_pos_int(num_classes, "num_classes")
        check_float(smoothing_rate, "smoothing_rate", 0.0, 1.0)
        self.num_classes = num_classes
        self.smoothing_rate = smoothing_rate

    def __call__(self, label):
        labels = np.squeeze(to_array(label, "OneHot"))
        if labels.ndim > 1:
            raise runtime_error("OneHot", f"OneHot only supports scalars or 1D input, got rank: {labels.ndim}.")
        if labels.dtype.kind not in "iu":
            raise runtime_error("OneHot", f"OneHot only supports input of int type, but got {labels.dtype}.")
        flat = labels.reshape(-1)
        if flat.size and (flat.max() >= self.num_classes or flat.min() < 0):
            bad = flat[(flat >= self.num_classes) | (flat < 0)][0]
            raise runtime_error("OneHot", f"index values should be in [0, {self.num_classes}), but got: {bad}.")
        hot = np.zeros((flat.size, self.num_classes), dtype=labels.dtype)
        hot[np.arange(flat.size), flat] = 1
        if self.smoothing_rate:
            rate = self.smoothing_rate
            hot = ((1.0 - rate) * hot + rate / self.num_classes).astype(np.float32)
        return np.squeeze(hot)


class Compose(TensorOperation):
    """Compose a list of transforms (transform objects or Python callables) into one.

    The outputs of one transform are the inputs of the next (a tuple is spread over several
    arguments). Nested ``Compose`` objects are flattened.

    Args:
        transforms (list): the transforms, in order.

    Raises:
        TypeError: ``transforms`` is not a list, or an element is not callable.
        ValueError: ``transforms`` is empty.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.transforms as transforms
        >>> import mindspore.dataset.vision as vision
        >>> op = transforms.Compose([vision.Rescale(1.0 / 255.0, 0.0), vision.HWC2CHW()])
        >>> op(np.zeros((4, 5, 3), np.uint8)).shape
        (3, 4, 5)
    """

    def __init__(self, transforms):
        check_callable_list(transforms)
        self.transforms = Compose.decompose(transforms)
        self.random = any(getattr(op, "random", True) for op in self.transforms)

    @staticmethod
    def decompose(operations):
        """The operations with every nested ``Compose`` replaced by its own operations."""
        flat = []
        for op in operations:
            if isinstance(op, Compose):
                flat.extend(Compose.decompose(op.transforms))
            else:
                flat.append(op)
        return flat

    def __call__(self, *args):
        for op in self.transforms:
            out = op(*args)
            args = out if isinstance(out, tuple) else (out,)
        return single_or_tuple(args)


class RandomApply(TensorOperation):
    """Apply a list of transforms, all of them with probability ``prob``, else none.

    Args:
        transforms (list): the transforms, in order.
        prob (float, optional): probability of applying them. Default: ``0.5``.

    Raises:
        TypeError: ``transforms`` is not a list of callables, or ``prob`` is not a number.
        ValueError: ``transforms`` is empty, or ``prob`` is outside ``[0, 1]``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.transforms as transforms
        >>> op = transforms.RandomApply([lambda x: x + 1], prob=1.0)
        >>> op(np.array([1]))
        array([2])
    """

    random = True

    def __init__(self, transforms, prob=0.5):
        check_callable_list(transforms)
        check_prob(prob)
        self.transforms = transforms
        self.prob = prob

    def __call__(self, *args):
        if len(args) == 1 and is_pil(args[0]):
            # 2.10's Python path for a PIL image: skipped when prob < random.random()
            if self.prob < random.random():
                return args[0]
            return Compose(self.transforms)(*args)
        # 2.10's RandomApplyOp: uniform_real_distribution<double>(0, 1) on its own engine, applied when <= prob
        if cxx_random.std_uniform_real(op_engine(self), 0.0, 1.0) > self.prob:
            return single_or_tuple(args)
        return Compose(self.transforms)(*args)


class RandomChoice(TensorOperation):
    """Apply one transform chosen uniformly at random from a list.

    Args:
        transforms (list): the transforms to choose from.

    Raises:
        TypeError: ``transforms`` is not a list of callables.
        ValueError: ``transforms`` is empty.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.transforms as transforms
        >>> out = transforms.RandomChoice([lambda x: x + 1, lambda x: x - 1])(np.array([1]))
    """

    random = True

    def __init__(self, transforms):
        check_callable_list(transforms)
        self.transforms = transforms

    def __call__(self, *args):
        if len(args) == 1 and is_pil(args[0]):      # 2.10's Python path for a PIL image: random.choice
            return random.choice(self.transforms)(*args)
        # 2.10's RandomChoiceOp: uniform_int_distribution(0, n - 1) on its own engine
        op = self.transforms[cxx_random.std_uniform_int(op_engine(self), 0, len(self.transforms) - 1)]
        return op(*args)


class RandomOrder(TensorOperation):
    """Apply every transform of a list, in a random order.

    Args:
        transforms (list): the transforms to apply.

    Raises:
        TypeError: ``transforms`` is not a list of callables.
        ValueError: ``transforms`` is empty.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.transforms as transforms
        >>> out = transforms.RandomOrder([lambda x: x + 1, lambda x: x * 2])(np.array([1]))
    """

    random = True

    def __init__(self, transforms):
        check_callable_list(transforms)
        self.transforms = transforms

    def __call__(self, *args):
        # 2.10's RandomOrder is a Python transform: random.shuffle of its own list (in place, so the order carries
        # over to the next call) with Python's global generator, which ds.config.set_seed seeds
        random.shuffle(self.transforms)
        return Compose(self.transforms)(*args)


class Duplicate(TensorOperation):
    """Output the input twice (the second output is a copy).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.transforms as transforms
        >>> x, y = transforms.Duplicate()(np.array([1, 2]))
    """

    def __call__(self, value):
        array = to_array(value, "Duplicate")
        return array, array.copy()


def _check_scalar_fill(value, name):
    check_type(value, (str, bytes, int, float, bool, np.number, np.bool_), name)
    return value


class Fill(TensorOperation):
    """Fill every element of the input with a scalar (cast to the input's dtype); shape and dtype are kept.

    Args:
        fill_value (Union[str, bytes, int, float, bool]): the value.

    Raises:
        TypeError: ``fill_value`` is not a scalar of those types.
        RuntimeError: a string value for a numeric input, or a number for a string input.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.transforms as transforms
        >>> transforms.Fill(3)(np.array([1.5, 2.5]))
        array([3., 3.])
    """

    def __init__(self, fill_value):
        self.fill_value = _check_scalar_fill(fill_value, "fill_value")

    def __call__(self, value):
        array = to_array(value, "Fill")
        fill_is_str = isinstance(self.fill_value, (str, bytes))
        if _is_string(array):
            if not fill_is_str:
                raise runtime_error("Fill", "fill datatype is not string but the input datatype is string.")
            text = self.fill_value.decode("utf-8") if isinstance(self.fill_value, bytes) else self.fill_value
            return np.full(array.shape, text, dtype=np.str_)
        if fill_is_str:
            raise runtime_error("Fill", "fill datatype is string but the input datatype is not string.")
        with np.errstate(invalid="ignore", over="ignore"):
            fill = np.asarray(self.fill_value).astype(array.dtype)
        return np.full(array.shape, fill, dtype=array.dtype)


class PadEnd(TensorOperation):
    """Pad (or truncate) the input at the end of each dimension to ``pad_shape``.

    Args:
        pad_shape (list[int]): the output shape; a ``None`` dimension keeps the input's size.
        pad_value (Union[str, bytes, int, float, bool], optional): the padding value. Default: ``None``
            (0 for numbers, the empty string for strings).

    Raises:
        TypeError: ``pad_shape`` is not a list of ints, or ``pad_value`` is not a scalar.
        ValueError: a dimension of ``pad_shape`` is not positive.
        RuntimeError: the input's rank differs from ``len(pad_shape)``, or the value's type does not
            match the input's (string vs number).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.transforms as transforms
        >>> transforms.PadEnd([4], pad_value=10)(np.array([1, 2, 3]))
        array([ 1,  2,  3, 10])
    """

    def __init__(self, pad_shape, pad_value=None):
        check_type(pad_shape, list, "pad_shape")
        for dim in pad_shape:
            if dim is not None:
                check_pos_int(dim, "pad_shape")
        if pad_value is not None:
            _check_scalar_fill(pad_value, "pad_value")
        self.pad_shape = pad_shape
        self.pad_value = pad_value

    def __call__(self, value):
        array = to_array(value, "PadEnd")
        if array.ndim == 0:
            return array
        if array.ndim != len(self.pad_shape):
            raise runtime_error("PadEnd", f"invalid pad shape, as rank of input is: {array.ndim}, and rank of "
                                f"pad value: {len(self.pad_shape)}.")
        shape = tuple(size if want is None else want for size, want in zip(array.shape, self.pad_shape))
        is_str = _is_string(array)
        if self.pad_value is not None and is_str != isinstance(self.pad_value, (str, bytes)):
            raise runtime_error("PadEnd", "pad_value and item of dataset are not of the same type.")
        if is_str:
            array = _as_str_array(array)
            fill = self.pad_value.decode("utf-8") if isinstance(self.pad_value, bytes) else (self.pad_value or "")
            out = np.full(shape, fill, dtype=np.result_type(array.dtype, np.array(fill).dtype))
        else:
            with np.errstate(invalid="ignore", over="ignore"):
                fill = np.asarray(0 if self.pad_value is None else self.pad_value).astype(array.dtype)
            out = np.full(shape, fill, dtype=array.dtype)
        common = tuple(slice(0, min(a, b)) for a, b in zip(array.shape, shape))
        out[common] = array[common]
        return out


class Concatenate(TensorOperation):
    """Concatenate the 1-D inputs (all input columns), with optional arrays before and after.

    Args:
        axis (int, optional): the axis, 0 or -1 (inputs are 1-D). Default: ``0``.
        prepend (numpy.ndarray, optional): put before the inputs. Default: ``None``.
        append (numpy.ndarray, optional): put after the inputs. Default: ``None``.

    Raises:
        TypeError: ``axis`` is not an int, or ``prepend``/``append`` is not an array.
        RuntimeError: an input is not 1-D, or the inputs' types differ.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.transforms as transforms
        >>> transforms.Concatenate(0, np.array([0]), np.array([9]))(np.array([1, 2]))
        array([0, 1, 2, 9])
    """

    def __init__(self, axis=0, prepend=None, append=None):
        check_int(axis, "axis")
        if prepend is not None:
            check_type(prepend, np.ndarray, "prepend")
        if append is not None:
            check_type(append, np.ndarray, "append")
        self.axis = axis
        self.prepend = prepend
        self.append = append

    def __call__(self, *inputs):
        parts = [to_array(value, "Concatenate") for value in inputs]
        if self.prepend is not None:
            parts.insert(0, self.prepend)
        if self.append is not None:
            parts.append(self.append)
        if self.axis not in (0, -1):
            raise runtime_error("Concatenate", f"only 1D input supported, axis should be 0 or -1, got {self.axis}.")
        for part in parts:
            if part.ndim != 1:
                raise runtime_error("Concatenate", f"only 1D input supported, but got rank {part.ndim}.")
        if any(_is_string(p) for p in parts):
            if not all(_is_string(p) for p in parts):
                raise runtime_error("Concatenate", "input datatypes are not the same: string and numeric.")
            return np.concatenate([_as_str_array(p) for p in parts])
        if len({p.dtype for p in parts}) > 1:
            names = ", ".join(sorted({str(p.dtype) for p in parts}))
            raise runtime_error("Concatenate", f"input datatypes are not the same, got {names}.")
        return np.concatenate(parts)


class Relational(IntEnum):
    """Relational operators of :class:`Mask`: EQ, NE, GT, GE, LT, LE."""

    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_COMPARE = {Relational.EQ: np.equal, Relational.NE: np.not_equal, Relational.GT: np.greater,
            Relational.GE: np.greater_equal, Relational.LT: np.less, Relational.LE: np.less_equal}


class Mask(TensorOperation):
    """Compare every element with a constant; the result is a mask of type ``dtype``.

    Args:
        operator (Relational): the comparison.
        constant (Union[str, int, float, bool]): the value compared against (cast to the input's type).
        dtype (mindspore.dtype, optional): type of the mask. Default: ``mstype.bool_``.

    Raises:
        TypeError: ``operator`` is not a Relational, ``constant`` is not a scalar, or ``dtype`` is not a
            MindSpore dtype.
        RuntimeError: a string constant for a numeric input (or the reverse).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.transforms as transforms
        >>> transforms.Mask(transforms.Relational.EQ, 2)(np.array([1, 2, 3]))
        array([False,  True, False])
    """

    def __init__(self, operator, constant, dtype=mstype.bool_):
        check_type(operator, Relational, "operator")
        check_type(constant, (str, bytes, int, float, bool), "constant")
        check_type(dtype, mstype.Type, "dtype")
        self.operator = operator
        self.constant = constant
        self.dtype = dtype
        self._np_dtype = to_numpy_dtype(dtype, "dtype")

    def __call__(self, value):
        array = to_array(value, "Mask")
        is_str = isinstance(self.constant, (str, bytes))
        if _is_string(array) != is_str:
            raise runtime_error("Mask", "input datatype does not match the type of the constant.")
        if is_str:
            constant = self.constant.decode("utf-8") if isinstance(self.constant, bytes) else self.constant
            result = _COMPARE[self.operator](_as_str_array(array), constant)
        else:
            with np.errstate(invalid="ignore", over="ignore"):
                constant = np.asarray(self.constant).astype(array.dtype)
            result = _COMPARE[self.operator](array, constant)
        return np.asarray(result).astype(self._np_dtype)


def _check_slice_option(option):
    if option is None or option is Ellipsis or option is True or isinstance(option, slice):
        return option
    if isinstance(option, numbers.Integral) and not isinstance(option, bool):
        return [int(option)]
    if isinstance(option, list) and all(isinstance(i, numbers.Integral) and not isinstance(i, bool)
                                        for i in option):
        return [int(i) for i in option]
    raise MSTypeError(f"Argument slice_option with value {option!r} is not of type [int, list[int], slice, "
                      f"None, Ellipsis, True], but got {type(option)}.")


class Slice(TensorOperation):
    """Slice the input, one option per leading dimension (like NumPy indexing, but an int keeps the
    dimension and lists index each dimension independently).

    Args:
        *slices (Union[int, list[int], slice, None, Ellipsis]): an int or a list selects those indices
            (negative ones count from the end), a slice selects its range, None or Ellipsis selects all.

    Raises:
        TypeError: an option is not of those types.
        ValueError: no option is given.
        RuntimeError: more options than dimensions, or an index out of range.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.transforms as transforms
        >>> transforms.Slice(slice(1, 3))(np.array([1, 2, 3]))
        array([2, 3])
    """

    def __init__(self, *slices):
        if not slices:
            raise MSValueError("Slice: the number of slice options should be greater than 0.")
        self.slices = [_check_slice_option(option) for option in slices]

    def __call__(self, value):
        array = to_array(value, "Slice")
        if len(self.slices) > array.ndim:
            raise runtime_error("Slice", f"too many slice options ({len(self.slices)}) for an input of rank "
                                f"{array.ndim}.")
        out = array
        for axis, option in enumerate(self.slices):
            if option is None or option is Ellipsis or option is True:
                continue
            if isinstance(option, slice):
                out = out[(slice(None),) * axis + (option,)]
                continue
            size = array.shape[axis]
            for index in option:
                if not -size <= index < size:
                    raise runtime_error("Slice", f"index {index} is out of bounds for dimension {axis} of size "
                                        f"{size}.")
            out = np.take(out, option, axis=axis)
        return np.ascontiguousarray(out)


class Unique(TensorOperation):
    """Unique elements of the (flattened) input in order of first appearance, the index of every
    input element in that list (int32) and each unique element's count (int32).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.transforms as transforms
        >>> out, idx, cnt = transforms.Unique()(np.array([[0, 1, 2], [1, 2, 3]]))
        >>> out, idx, cnt
        (array([0, 1, 2, 3]), array([0, 1, 2, 1, 2, 3], dtype=int32), array([1, 2, 2, 1], dtype=int32))
    """

    def __call__(self, value):
        flat = to_array(value, "Unique").reshape(-1)
        values, first, inverse, counts = np.unique(flat, return_index=True, return_inverse=True, return_counts=True)
        order = np.argsort(first, kind="stable")
        position = np.empty_like(order)
        position[order] = np.arange(order.size)
        return (values[order], position[inverse.reshape(-1)].astype(np.int32), counts[order].astype(np.int32))
