"""``mindspore.dataset.vision.py_transforms_util``: the NumPy/PIL helper functions behind the Python
transforms, which outside code (MindArmour's natural perturbations, model zoo scripts) imports directly.

The array helpers keep MindSpore's contracts: ``hwc_to_chw`` transposes a 3-D ``(H, W, C)`` array to a
contiguous ``(C, H, W)`` copy and leaves a 2-D array as it is; ``to_tensor`` scales a PIL image or
array to ``(C, H, W)`` in [0, 1]; ``normalize`` works on that ``(C, H, W)`` float array. Inputs of the
wrong kind raise ``TypeError`` with MindSpore's messages.

Examples:
    >>> import numpy as np
    >>> from mindspore.dataset.vision.py_transforms_util import hwc_to_chw, is_numpy
    >>> is_numpy(np.zeros(2)), hwc_to_chw(np.zeros((4, 5, 3))).shape
    (True, (3, 4, 5))
"""
import numpy as np

from mindspore.plugin import MSRuntimeError, MSTypeError, MSValueError
from mindspore.dataset.transforms._base import is_pil

__all__ = ["crop", "horizontal_flip", "hwc_to_chw", "is_numpy", "is_pil", "normalize", "to_pil", "to_tensor",
           "to_type", "vertical_flip"]

_NOT_PIL = "img should be PIL image. Got {}. Use Decode() for encoded data or ToPIL() for decoded data."


def is_numpy(img):
    """Whether ``img`` is a NumPy array."""
    return isinstance(img, np.ndarray)


def hwc_to_chw(img):
    """``img`` (a NumPy array of shape (H, W, C)) as a contiguous (C, H, W) copy; a 2-D (H, W) array is returned
    unchanged."""
    if not is_numpy(img):
        raise MSTypeError(f"img should be NumPy array. Got {type(img)}.")
    if img.ndim not in (2, 3):
        raise MSTypeError(f"img dimension should be 2 or 3. Got {img.ndim}.")
    if img.ndim == 2:
        return img
    return img.transpose(2, 0, 1).copy()


def to_type(img, output_type):
    """The NumPy image ``img`` cast to ``output_type``."""
    if not is_numpy(img):
        raise MSTypeError(f"img should be NumPy image. Got {type(img)}.")
    try:
        return img.astype(output_type)
    except TypeError as exc:
        raise MSRuntimeError(f"output_type: {output_type} is not a valid datatype.") from exc


def to_tensor(img, output_type):
    """A PIL image or (H, W[, C]) array as a (C, H, W) array of ``output_type``, divided by 255."""
    if not (is_pil(img) or is_numpy(img)):
        raise MSTypeError(f"The input image should be of type numpy.ndarray or PIL.Image.Image. Got {type(img)}.")
    img = np.asarray(img)
    if img.ndim not in (2, 3):
        raise MSTypeError(f"The dimension of input image should be 2 or 3. Got {img.ndim}.")
    if img.ndim == 2:
        img = img[:, :, None]
    return to_type(hwc_to_chw(img) / 255., output_type)


def to_pil(img):
    """A (H, W[, C]) array as a PIL image (a PIL image is returned as it is)."""
    if is_pil(img):
        return img
    if not is_numpy(img):
        raise MSTypeError(f"The input image should be of type numpy.ndarray or PIL.Image.Image. Got {type(img)}.")
    if img.ndim not in (2, 3):
        raise MSValueError(f"The dimension of input image should be 2 or 3. Got {img.ndim}.")
    if img.ndim == 3 and img.shape[-1] > 4:
        raise MSValueError(f"The channel of input image should not exceed 4. Got {img.shape[-1]}.")
    if img.ndim == 3 and img.shape[-1] == 1:
        img = img[:, :, 0]
    if img.ndim == 3 and img.dtype != np.uint8:
        raise MSTypeError(f"The input image type {img.dtype} is not supported when "
                          f"image shape is [H, W, 2], [H, W, 3] or [H, W, 4].")
    from PIL import Image  # pylint: disable=import-outside-toplevel
    return Image.fromarray(img)


def normalize(img, mean, std, pad_channel=False, dtype="float32"):
    """``(img - mean) / std`` per channel of the (C, H, W) float array ``img``; with ``pad_channel`` a zero channel
    is appended (and the result cast to float16 when ``dtype`` is ``"float16"``)."""
    if not is_numpy(img):
        raise MSTypeError(f"img should be NumPy image. Got {type(img)}.")
    if img.ndim != 3:
        raise MSTypeError(f"img dimension should be 3. Got {img.ndim}.")
    if np.issubdtype(img.dtype, np.integer):
        raise MSTypeError(f"Unsupported image datatype: [{img.dtype}], pls execute [ToTensor] before [Normalize].")
    if len(mean) != len(std):
        raise MSValueError("Length of mean and std must be equal.")
    channels = img.shape[0]
    if len(mean) == 1:
        mean, std = [mean[0]] * channels, [std[0]] * channels
    elif len(mean) != channels:
        raise MSValueError(f"Length of mean and std must both be 1 or equal to the number of channels({channels}).")
    mean = np.array(mean, dtype=img.dtype)[:, None, None]
    std = np.array(std, dtype=img.dtype)[:, None, None]
    image = (img - mean) / std
    if pad_channel:
        image = np.concatenate((image, np.zeros((1,) + image.shape[1:], np.float32)), axis=0)
        if dtype == "float16":
            image = image.astype(np.float16)
    return image


def horizontal_flip(img):
    """The PIL image ``img`` mirrored left to right."""
    if not is_pil(img):
        raise MSTypeError(_NOT_PIL.format(type(img)))
    from PIL import Image  # pylint: disable=import-outside-toplevel
    return img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)


def vertical_flip(img):
    """The PIL image ``img`` mirrored top to bottom."""
    if not is_pil(img):
        raise MSTypeError(_NOT_PIL.format(type(img)))
    from PIL import Image  # pylint: disable=import-outside-toplevel
    return img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)


def crop(img, top, left, height, width):
    """The ``height`` x ``width`` window of the PIL image ``img`` whose upper left corner is (``top``, ``left``)."""
    if not is_pil(img):
        raise MSTypeError(_NOT_PIL.format(type(img)))
    return img.crop((left, top, left + width, top + height))
