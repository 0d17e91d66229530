"""Vision transforms on an image together with its bounding boxes (``(image, bboxes)`` in, the same
out), as MindSpore's C++ bounding-box ops: ``bboxes`` is a float32 ``(N, 4 + k)`` array whose first four
columns are ``x, y, width, height`` in pixels (extra columns, e.g. labels, ride along unchanged).
Re-exported by ``mindspore.dataset.vision.transforms``.
"""
import numpy as np

from mindspore.plugin import MSTypeError
from mindspore.dataset.transforms._base import (
    TensorOperation, as_hw, check_float, check_prob, check_size, op_engine, runtime_error)
from mindspore.dataset.engine import cxx_random
from mindspore.dataset.vision import _image as img
from mindspore.dataset.vision._random_transforms import RandomCrop, RandomResizedCrop
from mindspore.dataset.vision._validators import check_inter, resized_hw
from mindspore.dataset.vision.utils import Border, Inter

__all__ = ["BoundingBoxAugment", "RandomCropWithBBox", "RandomHorizontalFlipWithBBox", "RandomResizeWithBBox",
           "RandomResizedCropWithBBox", "RandomVerticalFlipWithBBox", "ResizeWithBBox"]


def _as_array(value, name, op_name):
    if hasattr(value, "asnumpy"):
        value = value.asnumpy()
    if img.is_pil(value):
        value = np.array(value)
    if not isinstance(value, np.ndarray):
        raise MSTypeError(f"{op_name}: the {name} should be a NumPy array, but got {type(value)}.")
    return value


def check_bboxes(op_name, image, bboxes):
    """MindSpore's bounding-box validation: float32 ``(N, >= 4)``, non-negative, inside the image."""
    if bboxes.ndim != 2 or bboxes.shape[1] < 4:
        raise runtime_error(op_name, f"bounding boxes should have the shape <N, 4+> (x, y, width, height, ...), but "
                            f"got shape {list(bboxes.shape)}.")
    if bboxes.dtype != np.float32:
        raise runtime_error(op_name, f"the data type of bounding boxes should be float32, but got {bboxes.dtype}.")
    img.check_image(op_name, image)
    height, width = image.shape[:2]
    boxes = bboxes[:, :4].astype(np.float64)
    if (boxes < 0).any():
        raise runtime_error(op_name, "BoundingBox: bounding boxes can not have negative values.")
    if ((boxes[:, 0] + boxes[:, 2]) > width).any() or ((boxes[:, 1] + boxes[:, 3]) > height).any():
        raise runtime_error(op_name, f"BoundingBox: bounding boxes are out of bounds of the image of height "
                            f"{height} and width {width}.")
    return bboxes


def _inputs(op_name, image, bboxes):
    image, bboxes = _as_array(image, "image", op_name), _as_array(bboxes, "bboxes", op_name)
    return image, check_bboxes(op_name, image, bboxes)


def scale_bboxes(bboxes, scale_h, scale_w):
    out = bboxes.copy()
    out[:, 0] = bboxes[:, 0] * np.float32(scale_w)
    out[:, 2] = bboxes[:, 2] * np.float32(scale_w)
    out[:, 1] = bboxes[:, 1] * np.float32(scale_h)
    out[:, 3] = bboxes[:, 3] * np.float32(scale_h)
    return out


def crop_bboxes(bboxes, top, left, height, width):
    """Boxes of a crop window: shifted, clipped to the window; boxes wholly outside are dropped."""
    x0, y0 = bboxes[:, 0] - left, bboxes[:, 1] - top
    x1, y1 = x0 + bboxes[:, 2], y0 + bboxes[:, 3]
    keep = (x1 > 0) & (y1 > 0) & (x0 < width) & (y0 < height)
    out = bboxes[keep].copy()
    cx0, cy0 = np.clip(x0[keep], 0, width), np.clip(y0[keep], 0, height)
    cx1, cy1 = np.clip(x1[keep], 0, width), np.clip(y1[keep], 0, height)
    out[:, 0], out[:, 1], out[:, 2], out[:, 3] = cx0, cy0, cx1 - cx0, cy1 - cy0
    return out.astype(np.float32)


class ResizeWithBBox(TensorOperation):
    """Resize an image (as :class:`Resize`) and scale its bounding boxes to match.

    Args:
        size (Union[int, Sequence[int]]): ``(height, width)``, or the shorter side.
        interpolation (Inter, optional): NEAREST, BILINEAR, BICUBIC, AREA or PILCUBIC. Default: ``Inter.BILINEAR``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> image, boxes = vision.ResizeWithBBox((4, 6))(np.zeros((8, 12, 3), np.uint8),
        ...                                            np.array([[2, 2, 4, 4]], np.float32))
        >>> boxes
        array([[1., 1., 2., 2.]], dtype=float32)
    """

    def __init__(self, size, interpolation=Inter.BILINEAR):
        self.size = check_size(size)
        self.interpolation = check_inter(interpolation)

    def _resize(self, image, bboxes, interpolation):
        height, width = image.shape[:2]
        out_h, out_w = resized_hw(height, width, self.size)
        out = img.resize_np(image, out_h, out_w, interpolation)
        return out, scale_bboxes(bboxes, np.float32(out_h) / np.float32(height), np.float32(out_w) / np.float32(width))

    def __call__(self, image, bboxes):
        image, bboxes = _inputs(type(self).__name__, image, bboxes)
        return self._resize(image, bboxes, self.interpolation)


class RandomResizeWithBBox(ResizeWithBBox):
    """:class:`ResizeWithBBox` with an interpolation drawn uniformly from BILINEAR, NEAREST, BICUBIC, AREA.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> image, boxes = vision.RandomResizeWithBBox(4)(np.zeros((8, 8, 3), np.uint8),
        ...                                             np.array([[0, 0, 8, 8]], np.float32))
        >>> image.shape
        (4, 4, 3)
    """

    random = True
    _MODES = (Inter.BILINEAR, Inter.NEAREST, Inter.BICUBIC, Inter.AREA)

    def __init__(self, size):
        super().__init__(size)

    def __call__(self, image, bboxes):
        image, bboxes = _inputs(type(self).__name__, image, bboxes)
        mode = self._MODES[cxx_random.std_uniform_int(op_engine(self), 0, len(self._MODES) - 1)]   # as RandomResize
        return self._resize(image, bboxes, mode)


class _RandomFlipWithBBox(TensorOperation):
    random = True
    _vertical = False

    def __init__(self, prob=0.5):
        self.prob = check_prob(prob)

    def __call__(self, image, bboxes):
        image, bboxes = _inputs(type(self).__name__, image, bboxes)
        if not cxx_random.std_bernoulli(op_engine(self), self.prob):      # 2.10: bernoulli_distribution(prob)
            return image, bboxes
        out = bboxes.copy()
        if self._vertical:
            out[:, 1] = np.float32(image.shape[0]) - bboxes[:, 1] - bboxes[:, 3]
            return image[::-1].copy(), out
        out[:, 0] = np.float32(image.shape[1]) - bboxes[:, 0] - bboxes[:, 2]
        return image[:, ::-1].copy(), out


class RandomHorizontalFlipWithBBox(_RandomFlipWithBBox):
    """Flip an image and its bounding boxes left-right with probability ``prob``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> _, boxes = vision.RandomHorizontalFlipWithBBox(1.0)(np.zeros((4, 10, 3), np.uint8),
        ...                                                   np.array([[1, 0, 3, 2]], np.float32))
        >>> boxes
        array([[6., 0., 3., 2.]], dtype=float32)
    """


class RandomVerticalFlipWithBBox(_RandomFlipWithBBox):
    """Flip an image and its bounding boxes upside down with probability ``prob``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> _, boxes = vision.RandomVerticalFlipWithBBox(1.0)(np.zeros((10, 4, 3), np.uint8),
        ...                                                 np.array([[0, 1, 2, 3]], np.float32))
        >>> boxes
        array([[0., 6., 2., 3.]], dtype=float32)
    """

    _vertical = True


class RandomCropWithBBox(TensorOperation):
    """:class:`RandomCrop` that also moves the bounding boxes, clips them to the crop and drops those
    left outside it.

    Args are those of :class:`RandomCrop`.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> image, boxes = vision.RandomCropWithBBox(4)(np.zeros((8, 8, 3), np.uint8),
        ...                                           np.array([[0, 0, 8, 8]], np.float32))
        >>> boxes
        array([[0., 0., 4., 4.]], dtype=float32)
    """

    random = True

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT):
        self._crop = RandomCrop(size, padding, pad_if_needed, fill_value, padding_mode)
        self.size, self.padding = self._crop.size, padding
        self.pad_if_needed, self.fill_value = self._crop.pad_if_needed, self._crop.fill_value
        self.padding_mode = self._crop.padding_mode

    def __call__(self, image, bboxes):
        image, bboxes = _inputs("RandomCropWithBBox", image, bboxes)
        params = self._crop._params(image, op_engine(self))  # pylint: disable=protected-access
        (top, _, left, _), y, x = params
        out = self._crop._np(image, params)  # pylint: disable=protected-access
        shifted = bboxes.copy()
        shifted[:, 0] += np.float32(left)
        shifted[:, 1] += np.float32(top)
        crop_h, crop_w = as_hw(self.size)
        return out, crop_bboxes(shifted, y, x, crop_h, crop_w)


class RandomResizedCropWithBBox(TensorOperation):
    """:class:`RandomResizedCrop` that also crops (as :class:`RandomCropWithBBox`) and scales the boxes.

    Args are those of :class:`RandomResizedCrop`.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> image, boxes = vision.RandomResizedCropWithBBox(4)(np.zeros((8, 8, 3), np.uint8),
        ...                                                  np.array([[0, 0, 8, 8]], np.float32))
        >>> image.shape
        (4, 4, 3)
    """

    random = True

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.), interpolation=Inter.BILINEAR,
                 max_attempts=10):
        self._crop = RandomResizedCrop(size, scale, ratio, interpolation, max_attempts)
        self.size, self.scale, self.ratio = self._crop.size, self._crop.scale, self._crop.ratio
        self.interpolation, self.max_attempts = self._crop.interpolation, self._crop.max_attempts

    def __call__(self, image, bboxes):
        image, bboxes = _inputs("RandomResizedCropWithBBox", image, bboxes)
        top, left, height, width = self._crop._params(image, op_engine(self))  # pylint: disable=protected-access
        out = self._crop._np(image, (top, left, height, width))  # pylint: disable=protected-access
        boxes = crop_bboxes(bboxes, top, left, height, width)
        out_h, out_w = as_hw(self.size)
        return out, scale_bboxes(boxes, np.float32(out_h) / np.float32(height), np.float32(out_w) / np.float32(width))


class BoundingBoxAugment(TensorOperation):
    """Apply ``transform`` to the image region of each bounding box with probability ``ratio`` (each region is
    cut out, transformed, resized back to the box if its size changed, and pasted in place).

    Args:
        transform (TensorOperation): an image transform.
        ratio (float, optional): probability of augmenting each box, in [0, 1]. Default: ``0.3``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> op = vision.BoundingBoxAugment(vision.Invert(), 1.0)
        >>> image, _ = op(np.zeros((4, 4, 3), np.uint8), np.array([[0, 0, 2, 2]], np.float32))
        >>> int(image[0, 0, 0]), int(image[3, 3, 0])
        (255, 0)
    """

    random = True

    def __init__(self, transform, ratio=0.3):
        if not callable(transform):
            raise MSTypeError(f"Argument transform with value {transform} is not of type [TensorOperation], "
                              f"but got {type(transform)}.")
        self.transform = transform
        self.ratio = check_float(ratio, "ratio", 0.0, 1.0)

    def __call__(self, image, bboxes):
        image, bboxes = _inputs("BoundingBoxAugment", image, bboxes)
        # 2.10's BoundingBoxAugmentOp: each box in turn is augmented when a uniform_real_distribution draw on the
        # op's engine is below ratio; later boxes see the regions already pasted
        engine = op_engine(self)
        out = image.copy()
        for index in range(bboxes.shape[0]):
            if not cxx_random.std_uniform_real(engine, 0.0, 1.0, single=True) < self.ratio:
                continue
            x, y, w, h = (int(v) for v in bboxes[index, :4])
            if w <= 0 or h <= 0:
                continue
            patch = self.transform(out[y:y + h, x:x + w].copy())
            patch = np.array(patch) if img.is_pil(patch) else np.asarray(patch)
            if patch.shape[:2] != (h, w):
                patch = img.resize_np(patch, h, w, Inter.LINEAR)
            out[y:y + h, x:x + w] = patch.reshape(out[y:y + h, x:x + w].shape).astype(out.dtype)
        return out, bboxes

