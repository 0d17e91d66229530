"""Legacy ``mindspore.dataset.vision.py_transforms`` (removed in MindSpore 2.x, still imported by model
zoo code): the Pillow-based transforms.

They keep their old contracts: augmentations take and return PIL images (an array raises
``TypeError``: use ``Decode()`` or ``ToPIL()`` first); ``ToTensor`` turns a PIL image into a
``(C, H, W)`` float array in [0, 1]; ``Normalize``, ``NormalizePad``, ``Cutout`` and
``RandomErasing`` then work on that ``(C, H, W)`` float array (``Normalize``'s mean and std are in
[0, 1]).

Examples:
    >>> import numpy as np
    >>> import mindspore.dataset.vision.py_transforms as py_vision
    >>> from mindspore.dataset.transforms.py_transforms import Compose
    >>> op = Compose([py_vision.ToPIL(), py_vision.Resize(4), py_vision.ToTensor(),
    ...               py_vision.Normalize([0.5, 0.5, 0.5], [0.5, 0.5, 0.5])])
    >>> op(np.zeros((8, 8, 3), np.uint8)).shape
    (3, 4, 4)
"""
import numpy as np

from mindspore.plugin import MSTypeError, MSValueError
from mindspore.dataset.transforms._base import (
    TensorOperation, check_float, check_pos_int, check_sequence, check_type, is_pil, transform_rng)
from mindspore.dataset.vision import transforms as _unified
from mindspore.dataset.vision.transforms import (  # noqa: F401  (same contract in both APIs)
    FiveCrop, HsvToRgb, HWC2CHW, LinearTransformation, RandomErasing, RgbToHsv, TenCrop, ToPIL, ToTensor, ToType,
    UniformAugment)
from mindspore.dataset.vision.utils import Border, Inter  # noqa: F401

__all__ = ["AutoContrast", "CenterCrop", "Cutout", "Decode", "Equalize", "FiveCrop", "Grayscale", "HWC2CHW",
           "HsvToRgb", "Invert", "LinearTransformation", "Normalize", "NormalizePad", "Pad", "RandomAffine",
           "RandomColor", "RandomColorAdjust", "RandomCrop", "RandomErasing", "RandomGrayscale",
           "RandomHorizontalFlip", "RandomResizedCrop", "RandomRotation", "RandomSharpness", "RandomVerticalFlip",
           "Resize", "RgbToHsv", "TenCrop", "ToPIL", "ToTensor", "ToType", "UniformAugment"]

_NOT_PIL = "img should be PIL image. Got {}. Use Decode() for encoded data or ToPIL() for decoded data."


class _PilOnly:
    """Mixin: the legacy augmentation accepts one PIL image and returns a PIL image."""

    def __call__(self, image):
        if not is_pil(image):
            raise MSTypeError(_NOT_PIL.format(type(image)))
        return super().__call__(image)


class Decode(_unified.Decode):
    """Decode encoded image bytes into an RGB PIL image.

    Examples:
        >>> import mindspore.dataset.vision.py_transforms as py_vision
        >>> op = py_vision.Decode()
    """

    def __init__(self):
        super().__init__(to_pil=True)


class Resize(_PilOnly, _unified.Resize):
    """Resize a PIL image (an int ``size`` sets the shorter side; the longer one is truncated)."""

    def __init__(self, size, interpolation=Inter.BILINEAR):
        super().__init__(size, interpolation)


class CenterCrop(_PilOnly, _unified.CenterCrop):
    """Crop the centre of a PIL image (zero-filled where the crop leaves the image)."""


class RandomCrop(_PilOnly, _unified.RandomCrop):
    """Crop a PIL image at a random position, after optional padding."""


class RandomHorizontalFlip(_PilOnly, _unified.RandomHorizontalFlip):
    """Flip a PIL image left-right with probability ``prob``."""


class RandomVerticalFlip(_PilOnly, _unified.RandomVerticalFlip):
    """Flip a PIL image upside down with probability ``prob``."""


class RandomResizedCrop(_PilOnly, _unified.RandomResizedCrop):
    """Crop a random region of a PIL image and resize it."""


class RandomColorAdjust(_PilOnly, _unified.RandomColorAdjust):
    """Randomly adjust brightness, contrast, saturation and hue of a PIL image."""


class RandomRotation(_PilOnly, _unified.RandomRotation):
    """Rotate a PIL image counter-clockwise by a random angle."""


class RandomAffine(_PilOnly, _unified.RandomAffine):
    """Random affine transformation of a PIL image."""


class Grayscale(_PilOnly, _unified.Grayscale):
    """Convert a PIL image to grayscale with 1 or 3 channels."""


class RandomGrayscale(_PilOnly, _unified.RandomGrayscale):
    """Convert a PIL image to grayscale with probability ``prob`` (default 0.1)."""


class Pad(_PilOnly, _unified.Pad):
    """Pad the borders of a PIL image."""


class Invert(_PilOnly, _unified.Invert):
    """Invert the colours of a PIL image."""


class Equalize(_PilOnly, _unified.Equalize):
    """Equalize the histogram of a PIL image."""


class AutoContrast(_PilOnly, _unified.AutoContrast):
    """Maximise the contrast of a PIL image."""


class RandomSharpness(_PilOnly, _unified.RandomSharpness):
    """Adjust the sharpness of a PIL image by a random factor in ``degrees``."""


class RandomColor(_PilOnly, _unified.RandomColor):
    """Adjust the colour of a PIL image by a random factor in ``degrees``."""


def _chw_float(image, op_name):
    if not isinstance(image, np.ndarray):
        raise MSTypeError(f"img should be NumPy image. Got {type(image)}.")
    if image.ndim != 3:
        raise MSTypeError(f"img dimension should be 3. Got {image.ndim}.")
    if np.issubdtype(image.dtype, np.integer):
        raise MSTypeError(f"{op_name}: unsupported image datatype: [{image.dtype}], pls execute [ToTensor] before "
                          f"[{op_name}].")
    return image


def _check_unit_mean_std(mean, std):
    check_sequence(mean, "mean")
    check_sequence(std, "std")
    if len(mean) != len(std):
        raise MSValueError("Length of mean and std must be equal.")
    for value in mean:
        check_float(value, "mean value", 0.0, 1.0)
    for value in std:
        check_float(value, "std value", 0.0, 1.0, left_open=True)


def _normalize_chw(image, mean, std, op_name):
    image = _chw_float(image, op_name)
    channels = image.shape[0]
    if len(mean) == 1:
        mean, std = list(mean) * channels, list(std) * channels
    elif len(mean) != channels:
        raise MSValueError(f"Length of mean and std must both be 1 or equal to the number of channels({channels}).")
    mean_arr = np.asarray(mean, dtype=image.dtype)[:, None, None]
    std_arr = np.asarray(std, dtype=image.dtype)[:, None, None]
    return (image - mean_arr) / std_arr


class Normalize(TensorOperation):
    """Normalize a ``(C, H, W)`` float array (from :class:`ToTensor`): ``(image - mean) / std`` per channel.

    Args:
        mean (sequence): per-channel means in [0, 1].
        std (sequence): per-channel standard deviations in (0, 1].

    Raises:
        TypeError: the input is not a 3-D float array.
        ValueError: wrong lengths or values.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision.py_transforms as py_vision
        >>> py_vision.Normalize([0.5], [0.5])(np.ones((1, 1, 1), np.float32))
        array([[[1.]]], dtype=float32)
    """

    def __init__(self, mean, std):
        _check_unit_mean_std(mean, std)
        self.mean, self.std = list(mean), list(std)

    def __call__(self, image):
        return _normalize_chw(image, self.mean, self.std, "Normalize")


class NormalizePad(TensorOperation):
    """Normalize a ``(C, H, W)`` float array and append a channel of zeros.

    Args:
        mean (sequence): per-channel means in [0, 1].
        std (sequence): per-channel standard deviations in (0, 1].
        dtype (str, optional): ``"float32"`` or ``"float16"``. Default: ``"float32"``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision.py_transforms as py_vision
        >>> py_vision.NormalizePad([0.5] * 3, [0.5] * 3)(np.ones((3, 2, 2), np.float32)).shape
        (4, 2, 2)
    """

    def __init__(self, mean, std, dtype="float32"):
        _check_unit_mean_std(mean, std)
        check_type(dtype, str, "dtype")
        if dtype not in ("float32", "float16"):
            raise MSValueError(f"dtype only supports float32 or float16, but got {dtype}.")
        self.mean, self.std, self.dtype = list(mean), list(std), dtype

    def __call__(self, image):
        out = _normalize_chw(image, self.mean, self.std, "NormalizePad")
        zeros = np.zeros((1,) + out.shape[1:], dtype=np.float32)
        return np.concatenate([out, zeros], axis=0).astype(self.dtype)


class Cutout(TensorOperation):
    """Zero ``num_patches`` random squares of a ``(C, H, W)`` array: each square is centred on a random
    pixel, spans ``2 * (length // 2)`` pixels and is clipped at the borders (no-op if ``length`` is
    not smaller than both sides).

    Args:
        length (int): side of each square.
        num_patches (int, optional): number of squares. Default: ``1``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision.py_transforms as py_vision
        >>> py_vision.Cutout(2)(np.ones((3, 8, 8), np.float32)).shape
        (3, 8, 8)
    """

    random = True

    def __init__(self, length, num_patches=1):
        self.length = check_pos_int(length, "length")
        self.num_patches = check_pos_int(num_patches, "num_patches")

    def __call__(self, image):
        if not isinstance(image, np.ndarray):
            raise MSTypeError(f"img should be NumPy array. Got {type(image)}.")
        if image.ndim != 3:
            raise MSTypeError(f"img shape should be (C, H, W). Got {image.shape}.")
        _, height, width = image.shape
        out = image.copy()
        if self.length >= height or self.length >= width:
            return out
        rng = transform_rng()
        half = self.length // 2
        for _ in range(self.num_patches):
            x, y = int(rng.integers(0, width + 1)), int(rng.integers(0, height + 1))
            out[:, max(y - half, 0):min(y + half, height), max(x - half, 0):min(x + half, width)] = 0
        return out
