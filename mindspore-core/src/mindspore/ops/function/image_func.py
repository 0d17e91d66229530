"""Functional image and detection ops of MindSpore 2.10 that have no other home: ``ops.rotated_iou``.

Each function checks its arguments in MindSpore's words and runs one primitive of ``ops/_defs/image.py``; the
other image functions (``ops.iou``, ``ops.bounding_box_encode``/``decode``, ``ops.check_valid``,
``ops.crop_and_resize``, ``ops.affine_grid``, ``ops.grid_sample``, ``ops.col2im``, ``ops.mirror_pad`` and the
windows) live with their families and run the same primitives.
"""
from mindspore._errors import MSTypeError
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import image as _image

__all__ = ["rotated_iou"]


def rotated_iou(boxes, query_boxes, trans=False, mode=0, is_cross=True, v_threshold=0.0, e_threshold=0.0):
    """The overlap of rotated rectangles over their union (``mode=0``) or over the area of ``boxes``
    (``mode=1``) (:class:`mindspore.ops.RotatedIou`): ``boxes`` (B, N, 5) and ``query_boxes`` (B, K, 5) are
    ``(x, y, w, h, angle)`` (``trans``: ``(x1, y1, x2, y2, angle)``), angles in degrees; the result is (B, N, K),
    or (B, N) pair by pair when not ``is_cross``.

    Examples:
        >>> import numpy as np
        >>> box = ms.Tensor(np.array([[[0.0, 0.0, 2.0, 2.0, 45.0]]], np.float32))
        >>> print(ops.rotated_iou(box, box))
        [[[1.]]]
    """
    for name, v in (("boxes", boxes), ("query_boxes", query_boxes)):
        if not isinstance(v, Tensor):
            raise MSTypeError(f"For 'rotated_iou', the '{name}' must be a Tensor, but got {type(v).__name__}.")
    return _image.RotatedIou(trans, mode, is_cross, float(v_threshold), float(e_threshold))(boxes, query_boxes)


# MindSpore cuts mindspore.ops into its own families: a function imported from its `image_func` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.ops")
