"""MindSpore 2.10's embedding-cache operators that compute something on their own: ``MapUniform``.

``MapUniform()(input, per_group_size, group_num)`` spreads keys over groups: ``key % group_num * per_group_size +
key // group_num`` with C's truncating ``%`` and ``//`` (2.10's CPU kernel: ``-3`` over 2 groups of 4 gives ``-5``),
and refuses an output not below ``per_group_size * group_num``, as that kernel does. The parameter-server and
hash-map operators of the same family (``Pull``, ``Push``, ``MapCacheIdx``) need the Ascend parameter server and
cache and are not provided.
"""
from mindspore._core.primitive import prim_attr_register
from mindspore._errors import MSRuntimeError, MSTypeError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs.control_prims import _CallOnly
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math

__all__ = []

_INTS = (mstype.int8, mstype.int16, mstype.int32, mstype.int64)


class MapUniform(_CallOnly):
    """``MapUniform()(input, per_group_size, group_num)``: ``input % group_num * per_group_size + input // group_num``
    (truncating, as C), in `input`'s dtype and shape; every output must be below ``per_group_size * group_num``.

    Examples:
        >>> ops.MapUniform()(ms.Tensor(np.arange(8), ms.int32), 4, 2)    # [0 4 1 5 2 6 3 7]
    """

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input, per_group_size, group_num):  # noqa: A002 - MindSpore's input name
        if not isinstance(input, Tensor) or input.dtype not in _INTS:
            got = f"Tensor[{input.dtype}]" if isinstance(input, Tensor) else type(input).__name__
            raise MSTypeError(f"For primitive[MapUniform], the input argument[input] must be a type of "
                              f"{{Tensor[Int16], Tensor[Int32], Tensor[Int64], Tensor[Int8]}}, but got {got}.")
        for name, value in (("per_group_size", per_group_size), ("group_num", group_num)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise MSTypeError(f"For 'MapUniform', the '{name}' must be an int, but got {type(value).__name__}.")
        out = _math.truncate_mod(input, group_num) * per_group_size + _math.truncate_div(input, group_num)
        out = _array.cast(out, input.dtype)
        bound = per_group_size * group_num
        if out.size:
            top = int(out.max().asnumpy())
            if top >= bound:
                raise MSRuntimeError(f"For 'MapUniform', all elements in output must be less than {bound}, but got "
                                     f"{top}")
        return out
