"""The functions MindSpore's ``mint`` makes public without listing them in its ``__all__`` (``mint.ones``,
``mint.linspace``, ``mint.unique``, ...): model code uses them as much as the listed ones."""
import builtins

import mindspore.ops as ops
from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.mint._functions import _dim, _i64, _to_dtype, clamp, sort, unique_consecutive

__all__ = ["addcmul", "clip", "equal", "fix", "ge", "item", "linspace", "ones", "trunc", "unique"]


def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2``."""
    return ops.add(input, ops.mul(ops.mul(tensor1, tensor2), value))


def clip(input, min=None, max=None):
    """Alias of :func:`clamp`."""
    return clamp(input, min, max)


def ge(input, other):
    """``input >= other``."""
    return ops.greater_equal(input, other)


def equal(input, other):
    """Whether the two tensors have the same shape and elements (a Python bool)."""
    if tuple(input.shape) != tuple(other.shape):
        return False
    return builtins.bool(ops.all(ops.equal(input, other)))


def fix(input):
    """Rounds toward zero (alias of ``trunc``)."""
    return ops.trunc(input)


def trunc(input):
    """Rounds toward zero."""
    return ops.trunc(input)


def item(input):
    """The value of a one-element tensor as a Python number."""
    if input.size != 1:
        raise MSValueError(f"For 'item', the 'input' must have one element, but got shape {input.shape}.")
    return input.asnumpy().reshape(()).item()


def ones(size, *, dtype=None):
    """A tensor of ones (float32 by default)."""
    return ops.ones(tuple(size) if isinstance(size, list) else size, dtype or mstype.float32)


def linspace(start, end, steps, *, dtype=None):
    """``steps`` evenly spaced values from ``start`` to ``end``."""
    out = ops.linspace(Tensor(float(start), mstype.float32) if not isinstance(start, Tensor) else start,
                       Tensor(float(end), mstype.float32) if not isinstance(end, Tensor) else end, steps)
    return _to_dtype(out, dtype)


def _lexsort_rows(rows):
    """The permutation sorting the rows of a 2-D tensor lexicographically (stable sorts, last column first)."""
    perm = ops.arange(rows.shape[0], dtype=mstype.int64)
    for col in range(rows.shape[1] - 1, -1, -1):
        key = ops.gather(ops.squeeze(ops.narrow(rows, 1, col, 1), 1), perm, 0)
        perm = ops.gather(perm, _i64(ops.argsort(key)), 0)
    return perm


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The sorted distinct elements of the flattened ``input``, or the distinct slices along ``dim`` (with the
    inverse indices and the counts)."""
    if dim is None:
        values, perm = sort(ops.reshape(input, (-1,)))
        out = unique_consecutive(values, True, True)
        inverse_shape = input.shape
    else:
        dim = _dim(dim, input.ndim)
        moved = ops.swapaxes(input, 0, dim) if dim else input
        perm = _lexsort_rows(ops.reshape(moved, (moved.shape[0], -1)))
        out = list(unique_consecutive(ops.gather(moved, perm, 0), True, True, 0))
        if dim:
            out[0] = ops.swapaxes(out[0], 0, dim)
        inverse_shape = (input.shape[dim],)
    result = [out[0]]
    if return_inverse:
        inverse = ops.tensor_scatter_elements(ops.zeros_like(out[1]), perm, out[1], 0, "none")
        result.append(ops.reshape(inverse, inverse_shape))
    if return_counts:
        result.append(out[2])
    return result[0] if len(result) == 1 else tuple(result)
