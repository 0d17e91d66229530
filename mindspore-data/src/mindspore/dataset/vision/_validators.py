"""Argument checks and small numeric rules shared by the vision transforms."""
import numbers

import numpy as np
from PIL import Image

from mindspore.dataset.transforms._base import (
    check_float, check_int, check_non_neg_int, check_sequence, check_type)
from mindspore.dataset.vision.utils import Inter


def check_inter(value, name="interpolation"):
    return check_type(value, Inter, name)


def check_fill_value(value, name="fill_value"):
    """An int in [0, 255] or a 3-tuple of them; returned as a 3-tuple."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        check_int(value, name, 0, 255)
        return (int(value),) * 3
    check_sequence(value, name, (3,), types=tuple)
    for item in value:
        check_int(item, name, 0, 255)
    return tuple(int(v) for v in value)


def parse_padding(padding, name="padding"):
    """``(left, top, right, bottom)`` from an int, ``(left/right, top/bottom)`` or a 4-sequence."""
    if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
        check_non_neg_int(padding, name)
        return (int(padding),) * 4
    check_sequence(padding, name, (2, 4))
    for item in padding:
        check_non_neg_int(item, name)
    if len(padding) == 2:
        return int(padding[0]), int(padding[1]), int(padding[0]), int(padding[1])
    return tuple(int(p) for p in padding)


def round_half_away(value):
    """C's ``lround``/``std::round`` for non-negative values (Python's round is banker's)."""
    return int(np.floor(value + 0.5))


def pil_from_array(array):
    """An array back as a PIL image (``(H, W, 1)`` as a single-band image)."""
    if array.ndim == 3 and array.shape[2] == 1:
        array = array[:, :, 0]
    return Image.fromarray(np.ascontiguousarray(array))


def resized_hw(height, width, size):
    """Output ``(h, w)`` of Resize on an array: an int resizes the shorter side, the longer one is
    ``floor(long / short * size)`` in float32 (MindSpore 2.10 truncates: ``(10, 19)`` to 4 gives ``(4, 7)``)."""
    if isinstance(size, numbers.Integral) or len(size) == 1:
        target = np.float32(size if isinstance(size, numbers.Integral) else size[0])
        if height < width:
            return int(target), int(np.floor(np.float32(width) / np.float32(height) * target))
        return int(np.floor(np.float32(height) / np.float32(width) * target)), int(target)
    return int(size[0]), int(size[1])


def check_center(center):
    if center is None:
        return None
    check_sequence(center, "center", (2,))
    for value in center:
        check_float(value, "center")
    return tuple(float(v) for v in center)
