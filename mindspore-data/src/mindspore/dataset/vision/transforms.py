"""The deterministic image transforms of ``mindspore.dataset.vision`` (decode, resize, crop, pad,
normalise, layout and type conversions, colour adjustments); the random ones live in
:mod:`mindspore.dataset.vision._random_transforms` and are re-exported here, so
``mindspore.dataset.vision.transforms`` holds every transform class, as in MindSpore.

Images are NumPy ``(H, W)`` or ``(H, W, C)`` arrays (uint8 from ``Decode``) or PIL images; see
:mod:`mindspore.dataset.vision._image` for the calling convention and the Pillow kernels.
"""
import numbers

import cv2
import numpy as np
from PIL import Image, ImageEnhance, ImageOps

from mindspore.plugin import MSTypeError, MSValueError
from mindspore.dataset.transforms._base import (
    TensorOperation, as_hw, check_bool, check_float, check_int, check_non_neg_int, check_sequence, check_size,
    check_type, runtime_error, to_array)
from mindspore.dataset.transforms.transforms import TypeCast, not_random, to_numpy_dtype
from mindspore.dataset.vision import _image as img
from mindspore.dataset.vision._validators import (
    check_center, check_fill_value, check_inter, parse_padding, pil_from_array, resized_hw)
from mindspore.dataset.vision.utils import Border, ConvertMode, Inter, _decode_pil

__all__ = ["AdjustBrightness", "AdjustContrast", "AdjustGamma", "AdjustHue", "AdjustSaturation", "AdjustSharpness",
           "AutoContrast", "CenterCrop", "ConvertColor", "Crop", "Decode", "Equalize", "Grayscale", "HWC2CHW",
           "HorizontalFlip", "Invert", "Normalize", "NormalizePad", "Pad", "Posterize", "Rescale", "Resize",
           "ResizedCrop", "Rotate", "Solarize", "ToNumpy", "ToPIL", "ToTensor", "ToType", "VerticalFlip", "not_random"]


class Decode(img.ImageTensorOperation):
    """Decode an encoded image (JPEG, PNG, BMP, TIFF, GIF, WEBP; 1-D uint8 bytes) into RGB, with OpenCV
    (Pillow when ``to_pil``).

    Args:
        to_pil (bool, optional): return a PIL image instead of a ``(H, W, 3)`` uint8 array.
            Default: ``False``.

    Raises:
        TypeError: ``to_pil`` is not a bool; the input is not 1-D bytes.
        RuntimeError: the bytes are not a supported encoded image.

    Examples:
        >>> import mindspore.dataset.vision as vision
        >>> image = vision.Decode()(vision.read_file("/path/to/image.jpg"))
    """

    def __init__(self, to_pil=False):
        self.to_pil = check_bool(to_pil, "to_pil")

    def __call__(self, data):
        if isinstance(data, (bytes, bytearray)):
            data = np.frombuffer(data, dtype=np.uint8)
        if hasattr(data, "asnumpy"):
            data = data.asnumpy()
        data = encoded_bytes_array(data)
        if not isinstance(data, np.ndarray):
            raise MSTypeError(f"The type of the encoded image should be {np.ndarray}, but got {type(data)}.")
        if data.dtype.kind in ("U", "S", "O"):
            raise MSTypeError(f"The data type of the encoded image can not be {data.dtype.type}.")
        if data.ndim != 1:
            raise MSTypeError(f"The number of array dimensions of the encoded image should be 1, but got {data.ndim}.")
        if self.to_pil:  # MindSpore decodes with Pillow when a PIL image is asked for
            image = _decode_pil(data)
            return image if image.mode == "RGB" else image.convert("RGB")
        return img.decode_rgb(data)


def encoded_bytes_array(data):
    """A ``bytes`` column as MindDataset returns it (a one-element ``numpy.bytes_`` array) as 1-D uint8."""
    if isinstance(data, np.ndarray) and data.dtype.kind == "S" and data.size == 1:
        return np.frombuffer(data.reshape(()).item(), dtype=np.uint8)
    return data


class Resize(img.ImageTensorOperation):
    """Resize an image.

    Args:
        size (Union[int, Sequence[int]]): ``(height, width)``, or an int: the shorter side becomes
            ``size`` and the aspect ratio is kept (the longer side is rounded).
        interpolation (Inter, optional): NEAREST, BILINEAR (= LINEAR), BICUBIC (= CUBIC), AREA,
            PILCUBIC or ANTIALIAS. Default: ``Inter.LINEAR``.

    Raises:
        TypeError: ``size`` is not an int or a sequence of ints, or ``interpolation`` not an Inter.
        ValueError: ``size`` is not positive.
        RuntimeError: the image is not ``<H, W>`` or ``<H, W, C>``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.Resize(4)(np.zeros((8, 16, 3), np.uint8)).shape
        (4, 8, 3)
    """

    def __init__(self, size, interpolation=Inter.LINEAR):
        self.size = check_size(size)
        self.interpolation = check_inter(interpolation)

    def _np(self, image, _):
        img.check_image("Resize", image)
        height, width = resized_hw(image.shape[0], image.shape[1], self.size)
        if (height, width) == image.shape[:2]:
            return image.copy()
        return img.resize_np(image, height, width, self.interpolation)

    def _pil(self, image, _):
        width, height = image.size
        if isinstance(self.size, numbers.Integral) or len(self.size) == 1:
            target = self.size if isinstance(self.size, numbers.Integral) else self.size[0]
            if min(width, height) == target:
                return image
            if width < height:
                out = (target, int(target * height / width))
            else:
                out = (int(target * width / height), target)
        else:
            out = (self.size[1], self.size[0])
        return image.resize(out, img.RESIZE_FILTERS[self.interpolation])


class Rescale(img.ImageTensorOperation):
    """``output = image * rescale + shift`` in float32.

    Args:
        rescale (float): the scale factor.
        shift (float): the shift.

    Raises:
        TypeError: ``rescale`` or ``shift`` is not a number.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.Rescale(1.0 / 255.0, -1.0)(np.array([[255]], np.uint8))
        array([[0.]], dtype=float32)
    """

    def __init__(self, rescale, shift):
        self.rescale = check_float(rescale, "rescale")
        self.shift = check_float(shift, "shift")

    def _np(self, image, _):
        if image.dtype.kind not in "biuf":
            raise runtime_error("Rescale", f"the input should be numeric, but got {image.dtype}.")
        img.check_cv_dtype("Rescale", image)
        return image.astype(np.float32) * np.float32(self.rescale) + np.float32(self.shift)


def _check_mean_std(mean, std):
    check_sequence(mean, "mean")
    check_sequence(std, "std")
    if len(mean) != len(std):
        raise MSValueError("Length of mean and std must be equal.")
    if not mean:
        raise MSValueError("mean and std can not be empty.")
    for value in mean:
        check_float(value, "mean value", 0.0, 255.0)
    for value in std:
        check_float(value, "std value", 0.0, 255.0, left_open=True)


def _normalize(op_name, image, mean, std, is_hwc):
    if image.ndim < 2:
        raise runtime_error(op_name, f"the input should be <H, W> or <..., H, W, C>, but got rank {image.ndim}.")
    if image.dtype.kind not in "biuf":
        raise runtime_error(op_name, f"the input should be numeric, but got {image.dtype}.")
    channels = 1 if image.ndim == 2 else (image.shape[-1] if is_hwc else image.shape[-3])
    if len(mean) not in (1, channels):
        raise runtime_error(op_name, f"the number of channels ({channels}) does not match the size of mean and "
                            f"std ({len(mean)}).")
    shape = (-1,) if is_hwc or image.ndim == 2 else (-1, 1, 1)
    mean_arr = np.asarray(mean, dtype=np.float32).reshape(shape)
    std_arr = np.asarray(std, dtype=np.float32).reshape(shape)
    return (image.astype(np.float32) - mean_arr) / std_arr


class Normalize(img.ImageTensorOperation):
    """``output[c] = (image[c] - mean[c]) / std[c]`` in float32, over the channel axis.

    Args:
        mean (sequence): per-channel means in [0, 255] (one value is used for every channel).
        std (sequence): per-channel standard deviations in (0, 255].
        is_hwc (bool, optional): channels last (``True``) or ``(C, H, W)`` (``False``). Default: ``True``.

    Raises:
        TypeError: ``mean``/``std`` are not sequences of numbers, ``is_hwc`` not a bool.
        ValueError: values out of range or different lengths.
        RuntimeError: the number of channels differs from ``len(mean)``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.Normalize([100.0], [50.0])(np.array([[200]], np.uint8))
        array([[2.]], dtype=float32)
    """

    def __init__(self, mean, std, is_hwc=True):
        _check_mean_std(mean, std)
        self.mean = list(mean)
        self.std = list(std)
        self.is_hwc = check_bool(is_hwc, "is_hwc")

    def _np(self, image, _):
        return _normalize("Normalize", image, self.mean, self.std, self.is_hwc)


class NormalizePad(img.ImageTensorOperation):
    """Normalize (see :class:`Normalize`) and append one channel of zeros.

    Args:
        mean (sequence): per-channel means in [0, 255].
        std (sequence): per-channel standard deviations in (0, 255].
        dtype (str, optional): ``"float32"`` or ``"float16"``. Default: ``"float32"``.
        is_hwc (bool, optional): channels last. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.NormalizePad([0.0] * 3, [1.0] * 3)(np.zeros((2, 2, 3), np.uint8)).shape
        (2, 2, 4)
    """

    def __init__(self, mean, std, dtype="float32", is_hwc=True):
        _check_mean_std(mean, std)
        check_type(dtype, str, "dtype")
        if dtype not in ("float32", "float16"):
            raise MSValueError(f"dtype only supports float32 or float16, but got {dtype}.")
        self.mean, self.std, self.dtype = list(mean), list(std), dtype
        self.is_hwc = check_bool(is_hwc, "is_hwc")

    def _np(self, image, _):
        out = _normalize("NormalizePad", image, self.mean, self.std, self.is_hwc)
        if out.ndim == 2:
            out = out[:, :, None] if self.is_hwc else out[None]
        axis = -1 if self.is_hwc else -3
        zero_shape = list(out.shape)
        zero_shape[axis] = 1
        return np.concatenate([out, np.zeros(zero_shape, np.float32)], axis=axis).astype(self.dtype)


class HWC2CHW(img.ImageTensorOperation):
    """Transpose an ``(H, W, C)`` image to ``(C, H, W)``; an ``(H, W)`` image is returned unchanged.

    Raises:
        RuntimeError: the image is not ``<H, W>`` or ``<H, W, C>``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.HWC2CHW()(np.zeros((4, 5, 3))).shape
        (3, 4, 5)
    """

    def _np(self, image, _):
        img.check_image("HWC2CHW", image)
        if image.ndim == 2:
            return image.copy()
        return np.ascontiguousarray(image.transpose(2, 0, 1))


class CenterCrop(img.ImageTensorOperation):
    """Crop the centre of an image; an image smaller than ``size`` is first padded with zeros.

    Args:
        size (Union[int, Sequence[int]]): ``(height, width)`` of the crop, or an int for a square.

    Raises:
        TypeError: ``size`` is not an int or a sequence of ints.
        ValueError: ``size`` is not positive.
        RuntimeError: the image is not ``<H, W>`` or ``<H, W, C>``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.CenterCrop((2, 3))(np.zeros((5, 7, 3))).shape
        (2, 3, 3)
    """

    def __init__(self, size):
        self.size = check_size(size)

    def _np(self, image, _):
        img.check_image("CenterCrop", image)
        crop_h, crop_w = as_hw(self.size)
        pad_h, pad_w = crop_h - image.shape[0], crop_w - image.shape[1]
        if pad_h > 0 or pad_w > 0:
            pad_h, pad_w = max(pad_h, 0), max(pad_w, 0)
            image = img.pad_np(image, pad_h - pad_h // 2, pad_h // 2, pad_w - pad_w // 2, pad_w // 2)
        top, left = (image.shape[0] - crop_h) // 2, (image.shape[1] - crop_w) // 2
        return img.crop_np(image, top, left, crop_h, crop_w)

    def _pil(self, image, _):
        crop_h, crop_w = as_hw(self.size)
        width, height = image.size
        top, left = int(round((height - crop_h) / 2.0)), int(round((width - crop_w) / 2.0))
        return image.crop((left, top, left + crop_w, top + crop_h))


class Crop(img.ImageTensorOperation):
    """Crop a region whose top-left corner is ``coordinates = (top, left)``.

    Args:
        coordinates (sequence): ``(top, left)``, non-negative.
        size (Union[int, Sequence[int]]): ``(height, width)``, or an int for a square.

    Raises:
        TypeError: wrong argument types.
        ValueError: negative coordinates or non-positive size.
        RuntimeError: the region goes beyond the image.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.Crop((1, 2), 2)(np.arange(25).reshape(5, 5))
        array([[ 7,  8],
               [12, 13]])
    """

    def __init__(self, coordinates, size):
        check_sequence(coordinates, "coordinates", (2,))
        for value in coordinates:
            check_non_neg_int(value, "coordinates")
        self.coordinates = tuple(coordinates)
        self.size = check_size(size)

    def _np(self, image, _):
        img.check_image("Crop", image)
        (top, left), (height, width) = self.coordinates, as_hw(self.size)
        for side, end, size in (("height", top + height, image.shape[0]), ("width", left + width, image.shape[1])):
            if end > size:
                raise runtime_error("Crop", f"Crop {side} dimension: {end} exceeds image {side}: {size} (the crop box "
                                    f"top={top}, left={left}, height={height}, width={width}; the image "
                                    f"{image.shape[0]}x{image.shape[1]}).")
        return img.crop_np(image, top, left, height, width)


class Pad(img.ImageTensorOperation):
    """Pad the borders of an image.

    Args:
        padding (Union[int, Sequence[int]]): pixels to add: an int for every border, two values for
            (left and right, top and bottom), or four for (left, top, right, bottom).
        fill_value (Union[int, tuple[int, int, int]], optional): the value of added pixels for
            ``Border.CONSTANT`` (per RGB channel when a 3-tuple). Default: ``0``.
        padding_mode (Border, optional): CONSTANT, EDGE, REFLECT or SYMMETRIC. Default: ``Border.CONSTANT``.

    Raises:
        TypeError: wrong argument types.
        ValueError: negative padding or a fill value outside [0, 255].
        RuntimeError: the image is not ``<H, W>`` or ``<H, W, C>``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.Pad([1, 2])(np.zeros((4, 4, 3), np.uint8)).shape
        (8, 6, 3)
    """

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = parse_padding(padding)
        self.fill_value = check_fill_value(fill_value)
        self.padding_mode = check_type(padding_mode, Border, "padding_mode")

    def _np(self, image, _):
        img.check_image("Pad", image)
        left, top, right, bottom = self.padding
        return img.pad_np(image, top, bottom, left, right, self.padding_mode, self.fill_value)

    def _pil(self, image, _):
        if self.padding_mode == Border.CONSTANT and image.mode in ("L", "RGB"):
            fill = self.fill_value if image.mode == "RGB" else self.fill_value[0]
            return ImageOps.expand(image, border=self.padding, fill=fill)
        return pil_from_array(self._np(np.array(image), None))


class HorizontalFlip(img.ImageTensorOperation):
    """Flip an image left-right.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.HorizontalFlip()(np.array([[1, 2, 3]]))
        array([[3, 2, 1]])
    """

    def _np(self, image, _):
        img.check_image("HorizontalFlip", image)
        img.check_cv_dtype("HorizontalFlip", image)
        return image[:, ::-1].copy()


class VerticalFlip(img.ImageTensorOperation):
    """Flip an image upside down.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.VerticalFlip()(np.array([[1], [2]]))
        array([[2],
               [1]])
    """

    def _np(self, image, _):
        img.check_image("VerticalFlip", image)
        img.check_cv_dtype("VerticalFlip", image)
        return image[::-1].copy()


class Rotate(img.ImageTensorOperation):
    """Rotate an image counter-clockwise by ``degrees``.

    Args:
        degrees (Union[int, float]): the angle.
        resample (Inter, optional): NEAREST, BILINEAR or BICUBIC. Default: ``Inter.NEAREST``.
        expand (bool, optional): grow the output to hold the whole rotated image. Default: ``False``.
        center (tuple, optional): ``(x, y)`` of the rotation centre; ``None`` is the image centre.
        fill_value (Union[int, tuple[int, int, int]], optional): value of pixels outside the image. Default: ``0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.Rotate(90)(np.array([[1, 2], [3, 4]], np.uint8))
        array([[2, 4],
               [1, 3]], dtype=uint8)
    """

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        self.degrees = check_float(degrees, "degrees") % 360
        self.resample = check_inter(resample, "resample")
        self.expand = check_bool(expand, "expand")
        self.center = check_center(center)
        self.fill_value = check_fill_value(fill_value)

    def _np(self, image, _):
        img.check_image("Rotate", image)
        return img.rotate_np(image, self.degrees, self.resample, self.expand, self.center, self.fill_value)


class ToTensor(img.ImageTensorOperation):
    """Convert an ``(H, W, C)`` image (array or PIL) with values in [0, 255] to a ``(C, H, W)`` array
    with values in [0, 1] (``(H, W)`` gives ``(1, H, W)``).

    Args:
        output_type (Union[mindspore.dtype, numpy.dtype], optional): dtype of the result.
            Default: ``numpy.float32``.

    Raises:
        TypeError: ``output_type`` is not a data type.
        RuntimeError: the image is not ``<H, W>`` or ``<H, W, C>``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.ToTensor()(np.full((2, 2, 3), 255, np.uint8)).shape
        (3, 2, 2)
    """

    def __init__(self, output_type=np.float32):
        self.output_type = output_type
        self._np_dtype = to_numpy_dtype(output_type, "output_type")

    def _np(self, image, _):
        img.check_image("ToTensor", image)
        if image.ndim == 2:
            image = image[:, :, None]
        # as MindSpore 2.10 (OpenCV's convertTo to CV_32F with scale 1/255): a float32 multiply by float32(1/255),
        # then the cast to output_type (a float64 output is the float32 result widened)
        scaled = image.astype(np.float32) * np.float32(1.0 / 255.0)
        return np.ascontiguousarray(scaled.transpose(2, 0, 1)).astype(self._np_dtype, copy=False)


class ToPIL(TensorOperation):
    """Convert a decoded ``(H, W[, C])`` array to a PIL image (mode chosen by ``PIL.Image.fromarray``).

    Raises:
        TypeError: the input is neither an array nor a PIL image, or its dtype has no PIL mode.
        ValueError: the array is not 2-D/3-D or has more than 4 channels.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.ToPIL()(np.zeros((4, 4, 3), np.uint8)).mode
        'RGB'
    """

    def __call__(self, image):
        if img.is_pil(image):
            return image
        if hasattr(image, "asnumpy"):
            image = image.asnumpy()
        if not isinstance(image, np.ndarray):
            raise MSTypeError(f"The input image should be of type numpy.ndarray or PIL.Image.Image. "
                              f"Got {type(image)}.")
        if image.ndim not in (2, 3):
            raise MSValueError(f"The dimension of input image should be 2 or 3. Got {image.ndim}.")
        if image.ndim == 3 and image.shape[2] > 4:
            raise MSValueError(f"The channel of input image should not exceed 4. Got {image.shape[2]}.")
        if image.ndim == 2 or image.shape[2] == 1:
            plane = image if image.ndim == 2 else image[:, :, 0]
            if plane.dtype not in (np.bool_, np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32,
                                   np.float32, np.float64):
                raise MSTypeError(f"The input image type {image.dtype} is not supported when image shape is "
                                  f"[H, W] or [H, W, 1].")
            return Image.fromarray(np.ascontiguousarray(plane))
        if image.dtype != np.uint8:
            raise MSTypeError(f"The input image type {image.dtype} is not supported when image shape is "
                              f"[H, W, 2], [H, W, 3] or [H, W, 4].")
        return Image.fromarray(np.ascontiguousarray(image))


class ToNumpy(TensorOperation):
    """Convert a PIL image to a NumPy array (arrays pass through).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.ToNumpy()(vision.ToPIL()(np.zeros((2, 2), np.uint8))).shape
        (2, 2)
    """

    def __call__(self, image):
        return np.array(image) if img.is_pil(image) else to_array(image, "ToNumpy")


class ToType(TypeCast):
    """Cast an image to a MindSpore or NumPy data type (same as :class:`mindspore.dataset.transforms.TypeCast`).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.ToType(np.float32)(np.zeros((2, 2), np.uint8)).dtype
        dtype('float32')
    """


class Grayscale(img.ImageTensorOperation):
    """Convert an RGB image to grayscale with 1 or 3 (identical) channels (Pillow's ``L`` conversion).

    Args:
        num_output_channels (int, optional): 1 or 3. Default: ``1``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.Grayscale(3)(np.zeros((2, 2, 3), np.uint8)).shape
        (2, 2, 3)
    """

    def __init__(self, num_output_channels=1):
        check_int(num_output_channels, "num_output_channels")
        if num_output_channels not in (1, 3):
            raise MSValueError(f"Number of channels of the output grayscale image should be either 1 or 3. "
                               f"Got {num_output_channels}.")
        self.num_output_channels = num_output_channels

    def _pil(self, image, _):
        gray = image.convert("L")
        return gray if self.num_output_channels == 1 else Image.merge("RGB", (gray, gray, gray))

    def _np(self, image, _):
        return np.array(self._pil(img.as_color_pil("Grayscale", image), None))


_CONVERT_CHANNELS = {  # mode -> channels the input must have
    ConvertMode.COLOR_BGR2BGRA: 3, ConvertMode.COLOR_BGRA2BGR: 4, ConvertMode.COLOR_BGR2RGBA: 3,
    ConvertMode.COLOR_RGBA2BGR: 4, ConvertMode.COLOR_BGR2RGB: 3, ConvertMode.COLOR_BGRA2RGBA: 4,
    ConvertMode.COLOR_BGR2GRAY: 3, ConvertMode.COLOR_RGB2GRAY: 3, ConvertMode.COLOR_GRAY2BGR: 1,
    ConvertMode.COLOR_GRAY2BGRA: 1, ConvertMode.COLOR_BGRA2GRAY: 4, ConvertMode.COLOR_RGBA2GRAY: 4,
}


class ConvertColor(img.ImageTensorOperation):
    """Change the colour space of an image (channel order, alpha channel, grayscale as OpenCV).

    Grayscale results are ``(H, W)``; an alpha channel added is opaque (255).

    Args:
        convert_mode (ConvertMode): the conversion.

    Raises:
        TypeError: ``convert_mode`` is not a ConvertMode.
        RuntimeError: the image does not have the channels the conversion expects.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.ConvertColor(vision.ConvertMode.COLOR_RGB2BGR)(np.zeros((2, 2, 3), np.uint8))
    """

    def __init__(self, convert_mode):
        self.convert_mode = check_type(convert_mode, ConvertMode, "convert_mode")

    def _np(self, image, _):
        array = img.cv_in("ConvertColor", image)
        channels = _CONVERT_CHANNELS[self.convert_mode]
        got = 1 if array.ndim == 2 else array.shape[2]
        if got != channels:
            raise runtime_error("ConvertColor", f"{self.convert_mode.name} expects an image with {channels} "
                                f"channel(s), but got {got}.")
        if array.ndim == 3 and got == 1:
            array = array[:, :, 0]
        return cv2.cvtColor(array, getattr(cv2, self.convert_mode.name))


class AdjustBrightness(img.PilColorOperation):
    """Multiply the brightness by ``brightness_factor`` (0 gives black, 1 the original).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.AdjustBrightness(2.0)(np.full((1, 1, 3), 10, np.uint8))
        array([[[20, 20, 20]]], dtype=uint8)
    """

    def __init__(self, brightness_factor):
        self.brightness_factor = check_float(brightness_factor, "brightness_factor", 0.0)

    def _apply(self, pil, _):
        return img.adjust_brightness(pil, self.brightness_factor)

    def _np(self, image, _):
        return img.adjust_brightness_np(image, self.brightness_factor)


class AdjustContrast(img.PilColorOperation):
    """Scale the contrast by ``contrast_factor`` about the mean gray level (0 gives flat gray).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.AdjustContrast(0.5)(np.zeros((2, 2, 3), np.uint8))
    """

    def __init__(self, contrast_factor):
        self.contrast_factor = check_float(contrast_factor, "contrast_factor", 0.0)

    def _apply(self, pil, _):
        return img.adjust_contrast(pil, self.contrast_factor)

    def _np(self, image, _):
        return img.adjust_contrast_np(image, self.contrast_factor)


class AdjustSaturation(img.PilColorOperation):
    """Scale the saturation by ``saturation_factor`` (0 gives grayscale).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.AdjustSaturation(0.0)(np.zeros((2, 2, 3), np.uint8))
    """

    def __init__(self, saturation_factor):
        self.saturation_factor = check_float(saturation_factor, "saturation_factor", 0.0)

    def _apply(self, pil, _):
        return img.adjust_saturation(pil, self.saturation_factor)

    def _np(self, image, _):
        return img.adjust_saturation_np(image, self.saturation_factor)


class AdjustHue(img.PilColorOperation):
    """Rotate the hue by ``hue_factor`` of a full turn, in [-0.5, 0.5].

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.AdjustHue(0.25)(np.zeros((2, 2, 3), np.uint8))
    """

    def __init__(self, hue_factor):
        self.hue_factor = check_float(hue_factor, "hue_factor", -0.5, 0.5)

    def _apply(self, pil, _):
        return img.adjust_hue(pil, self.hue_factor)

    def _np(self, image, _):
        return img.adjust_hue_np(image, self.hue_factor)


class AdjustSharpness(img.PilColorOperation):
    """Adjust the sharpness (0 blurs, 1 keeps, 2 sharpens).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.AdjustSharpness(2.0)(np.zeros((4, 4, 3), np.uint8))
    """

    def __init__(self, sharpness_factor):
        self.sharpness_factor = check_float(sharpness_factor, "sharpness_factor", 0.0)

    def _apply(self, pil, _):
        return ImageEnhance.Sharpness(pil).enhance(self.sharpness_factor)

    def _np(self, image, _):
        return img.adjust_sharpness_np(image, self.sharpness_factor)


class AdjustGamma(img.PilColorOperation):
    """Gamma correction: ``255 * gain * (x / 255) ** gamma``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.AdjustGamma(2.0)(np.zeros((2, 2, 3), np.uint8))
    """

    def __init__(self, gamma, gain=1.0):
        self.gamma = check_float(gamma, "gamma", 0.0)
        self.gain = check_float(gain, "gain")

    def _apply(self, pil, _):
        table = [int(min(255, max(0, (255 + 1 - 1e-3) * self.gain * pow(x / 255.0, self.gamma))))
                 for x in range(256)]
        return pil.point(table * len(pil.getbands()))

    def _np(self, image, _):
        return img.adjust_gamma_np(image, self.gamma, self.gain)


class AutoContrast(img.PilColorOperation):
    """Stretch the histogram so the darkest pixels become 0 and the lightest 255 (Pillow's autocontrast).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.AutoContrast()(np.zeros((2, 2, 3), np.uint8))
    """

    def __init__(self, cutoff=0.0, ignore=None):
        self.cutoff = check_float(cutoff, "cutoff", 0.0, 50.0, right_open=True)
        if isinstance(ignore, numbers.Integral):
            ignore = [ignore]
        if ignore is not None:
            check_sequence(ignore, "ignore")
            for value in ignore:
                check_int(value, "ignore", 0, 255)
        self.ignore = ignore

    def _apply(self, pil, _):
        return ImageOps.autocontrast(pil, self.cutoff, self.ignore)

    def _np(self, image, _):
        return img.auto_contrast_np(image, self.cutoff, self.ignore)


class Equalize(img.PilColorOperation):
    """Equalize the histogram (Pillow's equalize).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.Equalize()(np.zeros((2, 2, 3), np.uint8))
    """

    def _apply(self, pil, _):
        return ImageOps.equalize(pil)

    def _np(self, image, _):
        return img.equalize_np(image)


class Invert(img.PilColorOperation):
    """Replace every pixel ``x`` by ``255 - x``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.Invert()(np.zeros((1, 1, 3), np.uint8))
        array([[[255, 255, 255]]], dtype=uint8)
    """

    def _apply(self, pil, _):
        return ImageOps.invert(pil)

    def _np(self, image, _):
        return img.invert_np(image)


class Posterize(img.PilColorOperation):
    """Keep only the ``bits`` most significant bits of every channel.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.Posterize(1)(np.full((1, 1, 3), 200, np.uint8))
        array([[[128, 128, 128]]], dtype=uint8)
    """

    def __init__(self, bits):
        self.bits = check_int(bits, "bits", 0, 8)

    def _apply(self, pil, _):
        return ImageOps.posterize(pil, self.bits)

    def _np(self, image, _):
        return img.posterize_np(image, self.bits)


class Solarize(img.PilColorOperation):
    """Invert (``255 - x``) the pixels whose value lies in ``threshold = (min, max)``; a single number
    ``t``, or ``min == max``, inverts every pixel of value at least ``t``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.Solarize((100, 255))(np.full((1, 1, 3), 200, np.uint8))
        array([[[55, 55, 55]]], dtype=uint8)
    """

    def __init__(self, threshold):
        if isinstance(threshold, (numbers.Number,)) and not isinstance(threshold, bool):
            threshold = (threshold, threshold)
        check_sequence(threshold, "threshold", (2,))
        for value in threshold:
            check_float(value, "threshold", 0.0, 255.0)
        if threshold[0] > threshold[1]:
            raise MSValueError("threshold must be in order of (min, max).")
        self.threshold = tuple(float(v) for v in threshold)

    def _np(self, image, _):
        return img.solarize_np(image, *self.threshold)

    def _apply(self, pil, _):
        low, high = self.threshold
        if low == high:
            high = 255.0
        table = [255 - x if low <= x <= high else x for x in range(256)]
        return pil.point(table * len(pil.getbands()))


class ResizedCrop(img.ImageTensorOperation):
    """Crop the region ``(top, left, height, width)`` and resize it to ``size``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.ResizedCrop(0, 0, 4, 4, (2, 2))(np.zeros((8, 8, 3), np.uint8)).shape
        (2, 2, 3)
    """

    def __init__(self, top, left, height, width, size, interpolation=Inter.BILINEAR):
        self.top, self.left = check_non_neg_int(top, "top"), check_non_neg_int(left, "left")
        self.height, self.width = check_int(height, "height", 1), check_int(width, "width", 1)
        self.size = check_size(size)
        self.interpolation = check_inter(interpolation)

    def _np(self, image, _):
        img.check_image("ResizedCrop", image)
        if self.top + self.height > image.shape[0] or self.left + self.width > image.shape[1]:
            raise runtime_error("ResizedCrop", f"the crop box goes beyond the image of size {image.shape[:2]}.")
        crop = img.crop_np(image, self.top, self.left, self.height, self.width)
        return img.resize_np(crop, *as_hw(self.size), self.interpolation)


# pylint: disable=wrong-import-position
from mindspore.dataset.vision._extra_transforms import *  # noqa: E402,F401,F403
from mindspore.dataset.vision._extra_transforms import __all__ as _extra_all  # noqa: E402
from mindspore.dataset.vision._random_transforms import *  # noqa: E402,F401,F403
from mindspore.dataset.vision._random_transforms import __all__ as _random_all  # noqa: E402
from mindspore.dataset.vision._cv_transforms import *  # noqa: E402,F401,F403
from mindspore.dataset.vision._cv_transforms import __all__ as _cv_all  # noqa: E402
from mindspore.dataset.vision._bbox_transforms import *  # noqa: E402,F401,F403
from mindspore.dataset.vision._bbox_transforms import __all__ as _bbox_all  # noqa: E402
from mindspore.dataset.vision._batch_transforms import *  # noqa: E402,F401,F403
from mindspore.dataset.vision._batch_transforms import __all__ as _batch_all  # noqa: E402
from mindspore.dataset.vision._augment_policies import *  # noqa: E402,F401,F403
from mindspore.dataset.vision._augment_policies import __all__ as _policy_all  # noqa: E402
from mindspore.dataset.vision._video import DecodeVideo  # noqa: E402

__all__ += _extra_all + _random_all + _cv_all + _bbox_all + _batch_all + _policy_all + ["DecodeVideo"]

for _name in img.DEVICE_TRANSFORMS:
    globals()[_name].device = img.device
del _name
