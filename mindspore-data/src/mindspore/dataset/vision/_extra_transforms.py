"""Less common vision transforms that MindSpore implements in Python: multi-crops of PIL images,
colour-space conversion of float arrays, a linear transformation, and UniformAugment. Re-exported by
``mindspore.dataset.vision.transforms``.
"""
import numpy as np
from PIL import Image

from mindspore.plugin import MSTypeError, MSValueError
from mindspore.dataset.transforms._base import (
    TensorOperation, as_hw, check_bool, check_callable_list, check_float, check_non_neg_int, check_pos_int,
    check_sequence, check_size, check_type, is_pil, op_engine, runtime_error, single_or_tuple)
from mindspore.dataset.engine import cxx_random
from mindspore.dataset.vision import _image as img
from mindspore.dataset.vision._validators import check_fill_value
from mindspore.dataset.vision.utils import Border

__all__ = ["Erase", "FiveCrop", "HsvToRgb", "LinearTransformation", "PadToSize", "RgbToHsv", "TenCrop",
           "UniformAugment"]

_NOT_PIL = "img should be PIL image. Got {}. Use Decode() for encoded data or ToPIL() for decoded data."


def _five_crops(image, size):
    if not is_pil(image):
        raise MSTypeError(_NOT_PIL.format(type(image)))
    crop_h, crop_w = as_hw(size)
    width, height = image.size
    if crop_h > height or crop_w > width:
        raise MSValueError(f"Crop size {(crop_h, crop_w)} is larger than input image size {(height, width)}.")
    top, left = int(round((height - crop_h) / 2.0)), int(round((width - crop_w) / 2.0))
    return (image.crop((0, 0, crop_w, crop_h)), image.crop((width - crop_w, 0, width, crop_h)),
            image.crop((0, height - crop_h, crop_w, height)),
            image.crop((width - crop_w, height - crop_h, width, height)),
            image.crop((left, top, left + crop_w, top + crop_h)))


class FiveCrop(TensorOperation):
    """Crop a PIL image into its four corners and its centre (in that order).

    Args:
        size (Union[int, Sequence[int]]): ``(height, width)`` of each crop, or an int for squares.

    Raises:
        TypeError: the input is not a PIL image.
        ValueError: the crop is larger than the image.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> crops = vision.FiveCrop(2)(vision.ToPIL()(np.zeros((4, 4, 3), np.uint8)))
        >>> len(crops)
        5
    """

    def __init__(self, size):
        self.size = check_size(size)

    def __call__(self, image):
        return _five_crops(image, self.size)


class TenCrop(TensorOperation):
    """The five crops of :class:`FiveCrop`, then the five crops of the flipped image.

    Args:
        size (Union[int, Sequence[int]]): ``(height, width)`` of each crop, or an int for squares.
        use_vertical_flip (bool, optional): flip vertically instead of horizontally. Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> len(vision.TenCrop(2)(vision.ToPIL()(np.zeros((4, 4, 3), np.uint8))))
        10
    """

    def __init__(self, size, use_vertical_flip=False):
        self.size = check_size(size)
        self.use_vertical_flip = check_bool(use_vertical_flip, "use_vertical_flip")

    def __call__(self, image):
        first = _five_crops(image, self.size)
        flip = Image.Transpose.FLIP_TOP_BOTTOM if self.use_vertical_flip else Image.Transpose.FLIP_LEFT_RIGHT
        return first + _five_crops(image.transpose(flip), self.size)


def _split_channels(images, is_hwc, op_name):
    if not isinstance(images, np.ndarray):
        raise MSTypeError(f"img should be NumPy image. Got {type(images)}.")
    if images.ndim not in (3, 4):
        raise MSTypeError(f"img shape should be (H, W, C)/(N, H, W, C)/(C, H, W)/(N, C, H, W). Got {images.shape}.")
    axis = -1 if is_hwc else -3
    if images.shape[axis] != 3:
        raise MSTypeError(f"{op_name}: img should be 3 channels RGB img. Got {images.shape[axis]} channels.")
    planes = np.moveaxis(images.astype(np.float64), axis, 0)
    return planes[0], planes[1], planes[2], axis


def rgb_to_hsv(r, g, b):
    """Vectorised ``colorsys.rgb_to_hsv``."""
    maxc, minc = np.maximum(np.maximum(r, g), b), np.minimum(np.minimum(r, g), b)
    delta = maxc - minc
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(maxc > 0, delta / maxc, 0.0)
        rc, gc, bc = (maxc - r) / delta, (maxc - g) / delta, (maxc - b) / delta
        h = np.where(r == maxc, bc - gc, np.where(g == maxc, 2.0 + rc - bc, 4.0 + gc - rc))
    h = np.where(delta == 0, 0.0, (h / 6.0) % 1.0)
    s = np.where(delta == 0, 0.0, s)
    return h, s, maxc


def hsv_to_rgb(h, s, v):
    """Vectorised ``colorsys.hsv_to_rgb``."""
    i = np.floor(h * 6.0)
    f = h * 6.0 - i
    p, q, t = v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f))
    i = i.astype(np.int64) % 6
    choices = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)]
    rgb = [np.select([i == k for k in range(6)], [c[channel] for c in choices]) for channel in range(3)]
    gray = s == 0.0
    return tuple(np.where(gray, v, channel) for channel in rgb)


class RgbToHsv(TensorOperation):
    """Convert RGB arrays (values in [0, 1]) to HSV, as ``colorsys`` (float64 output).

    Args:
        is_hwc (bool, optional): ``(H, W, C)``/``(N, H, W, C)`` if True, else ``(C, H, W)``/``(N, C, H, W)``.
            Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.RgbToHsv(is_hwc=True)(np.array([[[1.0, 0.0, 0.0]]]))
        array([[[0., 1., 1.]]])
    """

    def __init__(self, is_hwc=False):
        self.is_hwc = check_bool(is_hwc, "is_hwc")

    def __call__(self, images):
        r, g, b, axis = _split_channels(images, self.is_hwc, "RgbToHsv")
        return np.stack(rgb_to_hsv(r, g, b), axis=axis)


class HsvToRgb(TensorOperation):
    """Convert HSV arrays to RGB, as ``colorsys`` (float64 output).

    Args:
        is_hwc (bool, optional): channels last if True. Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.HsvToRgb(is_hwc=True)(np.array([[[0.0, 1.0, 1.0]]]))
        array([[[1., 0., 0.]]])
    """

    def __init__(self, is_hwc=False):
        self.is_hwc = check_bool(is_hwc, "is_hwc")

    def __call__(self, images):
        h, s, v, axis = _split_channels(images, self.is_hwc, "HsvToRgb")
        return np.stack(hsv_to_rgb(h, s, v), axis=axis)


class LinearTransformation(TensorOperation):
    """Flatten a ``(C, H, W)`` array, subtract ``mean_vector``, multiply by ``transformation_matrix``
    (``D x D`` with ``D = C * H * W``) and reshape back.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> op = vision.LinearTransformation(np.eye(4), np.zeros(4))
        >>> op(np.ones((1, 2, 2))).shape
        (1, 2, 2)
    """

    def __init__(self, transformation_matrix, mean_vector):
        check_type(transformation_matrix, np.ndarray, "transformation_matrix")
        check_type(mean_vector, np.ndarray, "mean_vector")
        if transformation_matrix.ndim != 2 or transformation_matrix.shape[0] != transformation_matrix.shape[1]:
            raise MSValueError(f"transformation_matrix should be a square matrix. "
                               f"Got shape {transformation_matrix.shape} instead.")
        if mean_vector.shape != (transformation_matrix.shape[0],):
            raise MSValueError(f"mean_vector length {mean_vector.shape} should match the dimension of the "
                               f"transformation_matrix {transformation_matrix.shape}.")
        self.transformation_matrix = transformation_matrix
        self.mean_vector = mean_vector

    def __call__(self, image):
        if not isinstance(image, np.ndarray):
            raise MSTypeError(f"img should be NumPy array. Got {type(image)}.")
        if image.size != self.transformation_matrix.shape[0]:
            raise MSValueError(f"transformation_matrix shape {self.transformation_matrix.shape} not compatible "
                               f"with Numpy image shape {image.shape}.")
        flat = image.reshape(1, -1) - self.mean_vector
        return (flat @ self.transformation_matrix).reshape(image.shape)


class UniformAugment(TensorOperation):
    """Pick ``num_ops`` distinct transforms uniformly (kept in list order) and apply each with
    probability 0.5.

    Args:
        transforms (list): the candidate transforms.
        num_ops (int, optional): how many to pick, at most ``len(transforms)``. Default: ``2``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> op = vision.UniformAugment([vision.RandomHorizontalFlip(), vision.Invert()], num_ops=1)
        >>> op(np.zeros((2, 2, 3), np.uint8)).shape
        (2, 2, 3)
    """

    random = True

    def __init__(self, transforms, num_ops=2):
        check_callable_list(transforms)
        check_pos_int(num_ops, "num_ops")
        if num_ops > len(transforms):
            raise MSValueError(f"num_ops is greater than transforms list size, num_ops: {num_ops}, "
                               f"transforms size: {len(transforms)}.")
        self.transforms = transforms
        self.num_ops = num_ops

    def __call__(self, *args):
        # 2.10's UniformAugOp: std::sample picks num_ops transforms (kept in order), then each one is skipped
        # when uniform_int_distribution(0, 1) draws 1
        engine = op_engine(self)
        for index in cxx_random.std_sample(len(self.transforms), self.num_ops, engine):
            if cxx_random.std_uniform_int(engine, 0, 1):
                continue
            out = self.transforms[int(index)](*args)
            args = out if isinstance(out, tuple) else (out,)
        return single_or_tuple(args)


class Erase(img.ImageTensorOperation):
    """Set the region ``(top, left, height, width)`` of an ``(H, W, C)`` image to ``value``.

    Args:
        top (int): row of the region's top-left corner.
        left (int): column of the region's top-left corner.
        height (int): region height.
        width (int): region width.
        value (Union[float, Sequence[float]], optional): the value, or one per RGB channel. Default: ``0``.
        inplace (bool, optional): write into the input array. Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.Erase(0, 0, 1, 1, value=7)(np.ones((2, 2, 3), np.uint8))[0, 0]
        array([7, 7, 7], dtype=uint8)
    """

    def __init__(self, top, left, height, width, value=0, inplace=False):
        self.top, self.left = check_non_neg_int(top, "top"), check_non_neg_int(left, "left")
        self.height, self.width = check_pos_int(height, "height"), check_pos_int(width, "width")
        if isinstance(value, (list, tuple)):
            check_sequence(value, "value", (3,))
            value = tuple(check_float(v, "value", 0.0, 255.0) for v in value)
        else:
            value = check_float(value, "value", 0.0, 255.0)
        self.value = value
        self.inplace = check_bool(inplace, "inplace")

    def _np(self, image, _):
        img.check_image("Erase", image, (3,))
        out = image if self.inplace else image.copy()
        region = out[self.top:self.top + self.height, self.left:self.left + self.width]
        region[...] = np.asarray(self.value, dtype=np.float64).astype(image.dtype)
        return out


class PadToSize(img.ImageTensorOperation):
    """Pad an image to ``size = (height, width)``.

    Args:
        size (Union[int, Sequence[int, int]]): the target size (not smaller than the image).
        offset (Union[int, Sequence[int, int]], optional): padding ``(top, left)``; ``None`` centres the image
            (the extra pixel of an odd difference goes to the bottom/right). Default: ``None``.
        fill_value (Union[int, tuple[int, int, int]], optional): value for ``Border.CONSTANT``. Default: ``0``.
        padding_mode (Border, optional): CONSTANT, EDGE, REFLECT or SYMMETRIC. Default: ``Border.CONSTANT``.

    Raises:
        RuntimeError: the target size (minus the offset) is smaller than the image.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.PadToSize([4, 5])(np.ones((2, 2), np.uint8)).shape
        (4, 5)
    """

    def __init__(self, size, offset=None, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = check_size(size)
        if offset is not None:
            if isinstance(offset, int) and not isinstance(offset, bool):
                offset = (offset, offset)
            check_sequence(offset, "offset", (2,))
            offset = tuple(check_non_neg_int(v, "offset") for v in offset)
        self.offset = offset
        self.fill_value = check_fill_value(fill_value)
        self.padding_mode = check_type(padding_mode, Border, "padding_mode")

    def _np(self, image, _):
        img.check_image("PadToSize", image)
        (target_h, target_w), (height, width) = as_hw(self.size), image.shape[:2]
        top, left = self.offset if self.offset is not None else ((target_h - height) // 2, (target_w - width) // 2)
        bottom, right = target_h - height - top, target_w - width - left
        if min(top, left, bottom, right) < 0:
            raise runtime_error("PadToSize", f"the target size {(target_h, target_w)} with offset {(top, left)} is "
                                f"smaller than the image size {(height, width)}.")
        return img.pad_np(image, top, bottom, left, right, self.padding_mode, self.fill_value)
