"""Padding layers: ``ConstantPad1d/2d/3d``, ``ZeroPad2d``, ``ReflectionPad1d/2d/3d``, ``ReplicationPad1d/2d/3d``.

``padding`` is an int (every side) or a tuple of 2, 4 or 6 ints ordered from the last axis backwards:
(left, right), (left, right, top, bottom), (left, right, top, bottom, front, back). A tuple may be shorter
than the layer's rank (only the last axes are padded).
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad2d", "ReflectionPad1d", "ReflectionPad2d",
           "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d"]


class _PadNd(Cell):
    """Pads the last ``_nd`` axes of a batched or unbatched input."""

    _nd = 1
    _mode = "constant"

    def __init__(self, padding, value=None):
        super().__init__()
        op, nd = type(self).__name__, self._nd
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * (2 * nd)
        if not isinstance(padding, tuple):
            raise MSTypeError(f"For '{op}', the 'padding' must be an int or a tuple, but got "
                              f"{type(padding).__name__}.")
        if len(padding) % 2 or not 0 < len(padding) <= 2 * nd:
            raise MSValueError(f"For '{op}', the length of 'padding' must be an even number no greater than "
                               f"{2 * nd}, but got {len(padding)}.")
        for p in padding:
            chk.check_int(op, "padding", p)
        self.padding = padding
        self.value = value

    def construct(self, x):
        op = type(self).__name__
        if self._mode == "replicate":
            chk.check_rank(op, "x", x, (self._nd + 1, self._nd + 2))
        else:
            # 2.10 pads the last axes of any rank in constant mode, of up to 5-D inputs in reflect mode
            chk.check_tensor(op, "x", x)
            if x.ndim < self._nd or (self._mode == "reflect" and x.ndim > 5):
                want = f"{self._nd}-D to 5-D" if self._mode == "reflect" else f"at least {self._nd}-D"
                raise MSValueError(f"For '{op}', the 'x' must be a {want} tensor, but got shape {tuple(x.shape)}.")
        if self._mode == "reflect":
            pairs = zip(self.padding[::2], self.padding[1::2])
            for i, (before, after) in enumerate(pairs):
                size = x.shape[-1 - i]
                if before >= size or after >= size:
                    raise MSValueError(f"For '{op}', each padding must be less than the input size {size} of the "
                                       f"padded axis, but got {(before, after)}.")
        if self._mode == "constant":
            return ops.pad(x, self.padding, mode="constant", value=self.value)
        return ops.pad(x, self.padding, mode=self._mode)


class ConstantPad1d(_PadNd):
    """Pads the last axis with ``value``; ``padding`` an int or (left, right)."""

    def __init__(self, padding, value):
        chk.check_number("ConstantPad1d", "value", value, types=(int, float))
        super().__init__(padding, value)


class ConstantPad2d(_PadNd):
    """Pads the last two axes with ``value``; ``padding`` an int or (left, right, top, bottom)."""

    _nd = 2

    def __init__(self, padding, value):
        chk.check_number("ConstantPad2d", "value", value, types=(int, float))
        super().__init__(padding, value)


class ConstantPad3d(_PadNd):
    """Pads the last three axes with ``value``; ``padding`` an int or 6 ints."""

    _nd = 3

    def __init__(self, padding, value):
        chk.check_number("ConstantPad3d", "value", value, types=(int, float))
        super().__init__(padding, value)


class ZeroPad2d(_PadNd):
    """Pads the last two axes with zeros; ``padding`` an int or (left, right, top, bottom)."""

    _nd = 2

    def __init__(self, padding):
        super().__init__(padding, 0)


class ReflectionPad1d(_PadNd):
    """Mirrors the last axis without repeating the edge; ``padding`` an int or (left, right)."""

    _mode = "reflect"


class ReflectionPad2d(_PadNd):
    """Mirrors the last two axes without repeating the edge."""

    _nd = 2
    _mode = "reflect"


class ReflectionPad3d(_PadNd):
    """Mirrors the last three axes without repeating the edge."""

    _nd = 3
    _mode = "reflect"


class ReplicationPad1d(_PadNd):
    """Repeats the edge values of the last axis."""

    _mode = "replicate"


class ReplicationPad2d(_PadNd):
    """Repeats the edge values of the last two axes."""

    _nd = 2
    _mode = "replicate"


class ReplicationPad3d(_PadNd):
    """Repeats the edge values of the last three axes."""

    _nd = 3
    _mode = "replicate"
