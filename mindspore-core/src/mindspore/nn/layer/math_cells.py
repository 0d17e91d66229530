"""Small math Cells of ``mindspore.nn``: ``Tril``, ``Triu``, ``Roll``, ``Range``, ``Moments``,
``ReduceLogSumExp`` and ``MatInverse``, each a thin Cell over the matching ``ops``/``mint`` function (so they
differentiate and trace under ``@jit`` as those do). Defaults and argument checks follow MindSpore 2.10:
``Moments(keep_dims=None)`` means ``False`` and its variance is the biased one; ``Range(start)`` alone counts
from 0 and yields int32 for int arguments, float32 otherwise.
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore.ops import _higher
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk

__all__ = ["Tril", "Triu", "Roll", "Range", "Moments", "ReduceLogSumExp", "MatInverse", "MatrixDiag", "MatrixDiagPart",
           "MatrixSetDiag"]


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class Tril(Cell):
    """The lower triangle of ``x`` (last two axes): elements above diagonal ``k`` are zeroed.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> float(nn.Tril()(ms.Tensor(np.ones((3, 3), np.float32)), 1).asnumpy().sum())
        8.0
    """

    def __init__(self):
        super().__init__()

    def construct(self, x, k=0):
        return ops.tril(x, k)


class Triu(Cell):
    """The upper triangle of ``x`` (last two axes): elements below diagonal ``k`` are zeroed.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> float(nn.Triu()(ms.Tensor(np.ones((3, 3), np.float32))).asnumpy().sum())
        6.0
    """

    def __init__(self):
        super().__init__()

    def construct(self, x, k=0):
        return ops.triu(x, k)


class Roll(Cell):
    """Rolls ``input_x`` by ``shift`` places along ``axis`` (ints, or tuples/lists of the same length).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.Roll(2, 0)(ms.Tensor(np.arange(5, dtype=np.float32))).asnumpy().tolist()
        [3.0, 4.0, 0.0, 1.0, 2.0]
    """

    def __init__(self, shift, axis):
        super().__init__()
        for name, value in (("shift", shift), ("axis", axis)):
            items = value if isinstance(value, (tuple, list)) else (value,)
            if not items or not all(_is_int(v) for v in items):
                raise MSTypeError(f"For 'Roll', the type of '{name}' must be int, tuple(int) or list(int), but got "
                                  f"{value}.")
        shifts = tuple(shift) if isinstance(shift, (tuple, list)) else (shift,)
        axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        if len(shifts) != len(axes):
            if len(shifts) == 1:
                shifts = shifts * len(axes)
            else:
                raise MSValueError(f"For 'Roll', the shape of 'shift' and the shape of 'axis' must be the same, but "
                                   f"got the length of 'shift' {len(shifts)} and the length of 'axis' {len(axes)}.")
        self.shift, self.axis = shifts, axes

    def construct(self, input_x):
        return ops.roll(input_x, self.shift, self.axis)


class Range(Cell):
    """The sequence ``start, start + delta, ...`` below ``limit`` (``Range(n)``: ``0 .. n-1``) as a 1-D Tensor:
    int32 when every argument is an int, else float32. ``construct`` takes no input.

    Examples:
        >>> from mindspore import nn
        >>> nn.Range(1, 8, 2)().asnumpy().tolist()
        [1, 3, 5, 7]
    """

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        for name, value in (("start", start), ("limit", limit), ("delta", delta)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise MSTypeError(f"For 'Range', the type of '{name}' must be int or float, but got "
                                  f"{type(value).__name__}.")
        if delta == 0:
            raise MSValueError("For 'Range', the 'delta' can not be zero.")
        if limit is None:
            start, limit = 0, start
        self.dtype = mstype.int32 if all(_is_int(v) for v in (start, limit, delta)) else mstype.float32
        if (limit - start) * delta <= 0:
            raise MSValueError(f"For 'Range', 'delta' must move 'start' towards 'limit', but got 'start': {start}, "
                               f"'limit': {limit} and 'delta': {delta}.")
        self.start, self.limit, self.delta = start, limit, delta

    def construct(self):
        return ops.range(Tensor(self.start, self.dtype), Tensor(self.limit, self.dtype), Tensor(self.delta, self.dtype))


class Moments(Cell):
    """The mean and the (biased) variance of ``x`` over ``axis`` (all axes when ``None``).

    Args:
        axis (Union[int, tuple[int], None]): Default: ``None``.
        keep_dims (Union[bool, None]): keep reduced axes with length 1; ``None`` means ``False``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> mean, var = nn.Moments()(ms.Tensor(np.arange(6, dtype=np.float32)))
        >>> float(mean), round(float(var), 4)
        (2.5, 2.9167)
    """

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        if axis is not None and not _is_int(axis) and not (isinstance(axis, tuple) and all(_is_int(a) for a in axis)):
            raise MSTypeError(f"For 'Moments', the type of 'axis' must be int, tuple(int) or None, but got {axis}.")
        if keep_dims is None:
            keep_dims = False
        self.axis = axis
        self.keep_dims = chk.check_bool("Moments", "keep_dims", keep_dims)

    def construct(self, x):
        chk.check_tensor("Moments", "x", x)
        axis = self.axis if self.axis is not None else ()
        mean = ops.mean(x, axis, True)
        variance = ops.mean(ops.square(x - mean), axis, self.keep_dims)
        if not self.keep_dims:
            mean = ops.mean(x, axis, False)
        return mean, variance


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x)))`` over ``axis``, computed stably.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> round(float(nn.ReduceLogSumExp(0)(ms.Tensor(np.zeros(4, np.float32)))), 4)
        1.3863
    """

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        if not _is_int(axis) and not (isinstance(axis, (tuple, list)) and all(_is_int(a) for a in axis)):
            raise MSTypeError(f"For 'ReduceLogSumExp', the type of 'axis' must be int, tuple(int) or list(int), but "
                              f"got {axis}.")
        self.axis = tuple(axis) if isinstance(axis, list) else axis
        self.keep_dims = chk.check_bool("ReduceLogSumExp", "keep_dims", keep_dims)

    def construct(self, x):
        return ops.logsumexp(x, self.axis, self.keep_dims)


class MatInverse(Cell):
    """The inverse of the square matrices ``a`` (..., n, n) (``mint.linalg.inv``).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.MatInverse()(ms.Tensor(np.array([[2., 0.], [0., 4.]], np.float32))).asnumpy().tolist()
        [[0.5, 0.0], [0.0, 0.25]]
    """

    def __init__(self):
        super().__init__()

    def construct(self, a):
        return _higher.get("linalg").inv(a)   # mint.linalg sits above nn: import mindspore hands it down


def _eye_like(x, rows, cols):
    return ops.cast(ops.eye(rows, cols, mstype.float32), x.dtype)


class MatrixDiag(Cell):
    """(..., n) -> (..., n, n): matrices with ``input_x`` on the diagonal.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.MatrixDiag()(ms.Tensor(np.array([1., 2.], np.float32))).asnumpy().tolist()
        [[1.0, 0.0], [0.0, 2.0]]
    """

    def __init__(self):
        super().__init__()

    def construct(self, input_x):
        n = input_x.shape[-1]
        return ops.expand_dims(input_x, -1) * _eye_like(input_x, n, n)


class MatrixDiagPart(Cell):
    """(..., m, n) -> (..., min(m, n)): the main diagonals.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.MatrixDiagPart()(ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))).asnumpy().tolist()
        [0.0, 4.0]
    """

    def __init__(self):
        super().__init__()

    def construct(self, input_x):
        chk.check_rank("MatrixDiagPart", "input_x", input_x, tuple(range(2, 9)))
        m, n = input_x.shape[-2], input_x.shape[-1]
        k = min(m, n)
        return ops.sum(input_x[..., :k, :k] * _eye_like(input_x, k, k), -1)


class MatrixSetDiag(Cell):
    """``input_x`` (..., m, n) with its main diagonal replaced by ``diagonal`` (..., min(m, n)).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.ones((2, 3), np.float32))
        >>> nn.MatrixSetDiag()(x, ms.Tensor(np.array([5., 6.], np.float32))).asnumpy().tolist()
        [[5.0, 1.0, 1.0], [1.0, 6.0, 1.0]]
    """

    def __init__(self):
        super().__init__()

    def construct(self, input_x, diagonal):
        chk.check_rank("MatrixSetDiag", "input_x", input_x, tuple(range(2, 9)))
        m, n = input_x.shape[-2], input_x.shape[-1]
        if diagonal.shape != input_x.shape[:-2] + (min(m, n),):
            raise MSValueError(f"For 'MatrixSetDiag', the shape of 'diagonal' must be "
                               f"{input_x.shape[:-2] + (min(m, n),)}, but got {diagonal.shape}.")
        eye = _eye_like(input_x, m, n)
        diagonal = ops.cast(diagonal, input_x.dtype)
        placed = ops.expand_dims(diagonal, -1) if m <= n else ops.expand_dims(diagonal, -2)
        return input_x * (1 - eye) + placed * eye
