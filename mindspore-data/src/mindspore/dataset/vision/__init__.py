"""``mindspore.dataset.vision``: image transforms and image I/O.

Transforms take NumPy ``(H, W)``/``(H, W, C)`` arrays or PIL images and are used eagerly
(``vision.Resize(224)(image)``) or in a pipeline (``dataset.map([vision.Decode(), vision.Resize(224)],
input_columns="image")``). NumPy images go through OpenCV with MindSpore's arithmetic, so results equal
MindSpore's pixels (``tests/test_vision_reference.py``); PIL images go through Pillow.

Examples:
    >>> import numpy as np
    >>> import mindspore.dataset.vision as vision
    >>> image = np.zeros((32, 48, 3), np.uint8)
    >>> vision.HWC2CHW()(vision.Normalize([0.0] * 3, [255.0] * 3)(vision.Resize(16)(image))).shape
    (3, 16, 24)
"""
from mindspore.dataset.vision import transforms
from mindspore.dataset.vision.transforms import *  # noqa: F401,F403
from mindspore.dataset.vision.transforms import __all__ as _transforms_all
from mindspore.dataset.vision.utils import *  # noqa: F401,F403
from mindspore.dataset.vision.utils import __all__ as _utils_all

__all__ = sorted(_transforms_all) + sorted(_utils_all)
