"""Enumerations and image I/O functions of ``mindspore.dataset.vision``.

The enums have MindSpore's names and values (``Inter.BILINEAR == Inter.LINEAR == 2``, ``Border`` is a
``str`` enum). The I/O functions read and write files, decode with OpenCV (as MindSpore) and encode
JPEG and PNG through Pillow (whose libjpeg-turbo gives MindSpore's JPEG bytes); video goes through
FFmpeg (PyAV), see :mod:`mindspore.dataset.vision._video`.
"""
import io
import os
from enum import Enum, IntEnum

import numpy as np

from mindspore.plugin import MSRuntimeError, MSTypeError

__all__ = ["AutoAugmentPolicy", "Border", "ConvertMode", "ImageBatchFormat", "ImageReadMode", "Inter", "SliceMode",
           "VideoDecoder", "encode_jpeg", "encode_png", "get_image_num_channels", "get_image_size", "read_file",
           "read_image", "read_video", "read_video_timestamps", "write_file", "write_jpeg", "write_png"]


class Inter(IntEnum):
    """Interpolation modes.

    - NEAREST: nearest neighbour.
    - ANTIALIAS: antialiased (Lanczos) resampling.
    - LINEAR / BILINEAR: bilinear.
    - CUBIC / BICUBIC: bicubic.
    - AREA: pixel-area averaging.
    - PILCUBIC: bicubic as implemented in Pillow.
    """

    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = LINEAR = 2
    BICUBIC = CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(str, Enum):
    """Padding modes: CONSTANT (a fill value), EDGE (repeat the edge), REFLECT (mirror without the
    edge: ``[1,2,3,4]`` padded by 2 is ``[3,2,1,2,3,4,3,2]``), SYMMETRIC (mirror with the edge:
    ``[2,1,1,2,3,4,4,3]``)."""

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class ConvertMode(IntEnum):
    """Colour conversions of :class:`mindspore.dataset.vision.ConvertColor`."""

    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = COLOR_BGR2BGRA
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = COLOR_BGRA2BGR
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = COLOR_BGR2RGBA
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = COLOR_RGBA2BGR
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = COLOR_BGR2RGB
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = COLOR_BGRA2RGBA
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = COLOR_GRAY2BGR
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = COLOR_GRAY2BGRA
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


class ImageBatchFormat(IntEnum):
    """Layout of a batch of images: NHWC or NCHW."""

    NHWC = 0
    NCHW = 1


class ImageReadMode(IntEnum):
    """How :func:`read_image` decodes: UNCHANGED (as stored), GRAYSCALE (1 channel), COLOR (RGB)."""

    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


class SliceMode(IntEnum):
    """Whether ``SlicePatches`` pads (PAD) or drops (DROP) the remainder."""

    PAD = 0
    DROP = 1


class AutoAugmentPolicy(str, Enum):
    """AutoAugment policies learned on IMAGENET, CIFAR10 and SVHN."""

    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


def _pil():
    from PIL import Image  # pylint: disable=import-outside-toplevel
    return Image


def _check_filename(filename):
    if not isinstance(filename, (str, os.PathLike)):
        raise MSTypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")
    return os.fspath(filename)


def _image_array(image, name="image"):
    if hasattr(image, "asnumpy"):
        image = image.asnumpy()
    if not isinstance(image, np.ndarray):
        raise MSTypeError(f"Input {name} is not of type {np.ndarray} or mindspore.Tensor, but got: {type(image)}.")
    return image


def read_file(filename):
    """Read a whole file as a 1-D uint8 array.

    Args:
        filename (str): the file.

    Returns:
        numpy.ndarray, the bytes of the file.

    Raises:
        TypeError: ``filename`` is not a str.
        RuntimeError: the file does not exist or is not a regular file.

    Examples:
        >>> import mindspore.dataset.vision as vision
        >>> data = vision.read_file("/path/to/image.jpg")
    """
    path = _check_filename(filename)
    if not os.path.isfile(path):
        raise MSRuntimeError(f"ReadFile: Invalid file path, {path} does not exist or is not a regular file.")
    return np.fromfile(path, dtype=np.uint8)


def _decode_pil(data, op_name="Decode"):
    """Open encoded image bytes with Pillow (raising MindSpore's error on garbage)."""
    image_module = _pil()
    try:
        image = image_module.open(io.BytesIO(data.tobytes() if isinstance(data, np.ndarray) else bytes(data)))
        image.load()
    except (OSError, SyntaxError, ValueError) as exc:
        raise MSRuntimeError(f"{op_name}: image decode failed, the input is not a supported encoded image "
                             f"(JPEG, PNG, BMP, TIFF, GIF, WEBP): {exc}") from exc
    return image


def read_image(filename, mode=ImageReadMode.UNCHANGED):
    """Read and decode an image file into a ``(H, W, C)`` uint8 array (OpenCV's decoders, as MindSpore).

    Args:
        filename (str): the image file (JPEG, PNG, BMP, TIFF, ...).
        mode (ImageReadMode, optional): UNCHANGED keeps a grayscale image's single channel and gives
            RGB otherwise (an alpha channel is dropped, as OpenCV's ``IMREAD_ANYCOLOR``), GRAYSCALE gives one
            channel, COLOR gives RGB. Default: ``ImageReadMode.UNCHANGED``.

    Returns:
        numpy.ndarray, the image.

    Raises:
        TypeError: ``filename`` is not a str or ``mode`` is not an ImageReadMode.
        RuntimeError: the file does not exist or cannot be decoded.

    Examples:
        >>> import mindspore.dataset.vision as vision
        >>> image = vision.read_image("/path/to/image.png", vision.ImageReadMode.COLOR)
    """
    if not isinstance(mode, ImageReadMode):
        raise MSTypeError(f"Input mode is not of type {ImageReadMode}, but got: {type(mode)}.")
    data = read_file(filename)
    import cv2  # pylint: disable=import-outside-toplevel
    flag = {ImageReadMode.UNCHANGED: cv2.IMREAD_ANYCOLOR, ImageReadMode.GRAYSCALE: cv2.IMREAD_GRAYSCALE,
            ImageReadMode.COLOR: cv2.IMREAD_COLOR}[mode]
    array = cv2.imdecode(data, flag) if data.size else None
    if array is not None:
        if array.ndim == 3:
            array = cv2.cvtColor(array, cv2.COLOR_BGR2RGB)
    else:  # formats OpenCV does not read (GIF): Pillow, with the same channel rules
        image = _decode_pil(data, "ReadImage")
        if mode == ImageReadMode.GRAYSCALE or (mode == ImageReadMode.UNCHANGED and len(image.getbands()) < 3):
            image = image.convert("L")
        else:
            image = image.convert("RGB")
        array = np.array(image)
    return array[:, :, None] if array.ndim == 2 else array


def write_file(filename, data):
    """Write a 1-D uint8 array to a file.

    Args:
        filename (str): the file.
        data (Union[numpy.ndarray, mindspore.Tensor]): 1-D uint8 data.

    Raises:
        TypeError: ``filename`` is not a str or ``data`` not an array.
        RuntimeError: ``data`` is not 1-D uint8.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.write_file("/path/to/file", np.array([1, 2, 3], np.uint8))
    """
    path = _check_filename(filename)
    data = _image_array(data, "data")
    if data.dtype != np.uint8 or data.ndim != 1:
        raise MSRuntimeError(f"WriteFile: the data should be 1-D uint8, but got {data.ndim}-D {data.dtype}.")
    data.tofile(path)


def _check_encodable(image, op_name):
    image = _image_array(image)
    if image.dtype != np.uint8:
        raise MSRuntimeError(f"{op_name}: the type of the image data should be uint8, but got {image.dtype}.")
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if not (image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 3)):
        raise MSRuntimeError(f"{op_name}: the shape of the image should be <H, W>, <H, W, 1> or <H, W, 3>, "
                             f"but got {image.shape}.")
    return image


def _encode(image, fmt, **options):
    buffer = io.BytesIO()
    _pil().fromarray(image).save(buffer, format=fmt, **options)
    return np.frombuffer(buffer.getvalue(), dtype=np.uint8).copy()


def encode_jpeg(image, quality=75):
    """Encode a uint8 ``(H, W)``, ``(H, W, 1)`` or RGB ``(H, W, 3)`` image as JPEG bytes.

    Args:
        image (Union[numpy.ndarray, mindspore.Tensor]): the image.
        quality (int, optional): JPEG quality in [1, 100]. Default: ``75``.

    Returns:
        numpy.ndarray, 1-D uint8 JPEG data.

    Raises:
        TypeError: ``image`` is not an array or ``quality`` not an int.
        RuntimeError: wrong dtype or shape, or ``quality`` outside [1, 100].

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> data = vision.encode_jpeg(np.zeros((8, 8, 3), np.uint8))
    """
    if not isinstance(quality, int) or isinstance(quality, bool):
        raise MSTypeError(f"Input quality is not of type {int}, but got: {type(quality)}.")
    if not 1 <= quality <= 100:
        raise MSRuntimeError(f"EncodeJpeg: Invalid quality {quality}, should be in range of [1, 100].")
    return _encode(_check_encodable(image, "EncodeJpeg"), "JPEG", quality=quality)


def encode_png(image, compression_level=6):
    """Encode a uint8 ``(H, W)``, ``(H, W, 1)`` or RGB ``(H, W, 3)`` image as PNG bytes.

    Args:
        image (Union[numpy.ndarray, mindspore.Tensor]): the image.
        compression_level (int, optional): zlib level in [0, 9]. Default: ``6``.

    Returns:
        numpy.ndarray, 1-D uint8 PNG data.

    Raises:
        TypeError: ``image`` is not an array or ``compression_level`` not an int.
        RuntimeError: wrong dtype or shape, or ``compression_level`` outside [0, 9].

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> data = vision.encode_png(np.zeros((8, 8, 3), np.uint8))
    """
    if not isinstance(compression_level, int) or isinstance(compression_level, bool):
        raise MSTypeError(f"Input compression_level is not of type {int}, but got: {type(compression_level)}.")
    if not 0 <= compression_level <= 9:
        raise MSRuntimeError(f"EncodePng: Invalid compression_level {compression_level}, should be in range "
                             f"of [0, 9].")
    return _encode(_check_encodable(image, "EncodePng"), "PNG", compress_level=compression_level)


def write_jpeg(filename, image, quality=75):
    """Encode an image as JPEG (see :func:`encode_jpeg`) and write it to ``filename``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.write_jpeg("/path/to/file.jpg", np.zeros((8, 8, 3), np.uint8))
    """
    path = _check_filename(filename)
    write_file(path, encode_jpeg(image, quality))


def write_png(filename, image, compression_level=6):
    """Encode an image as PNG (see :func:`encode_png`) and write it to ``filename``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.write_png("/path/to/file.png", np.zeros((8, 8, 3), np.uint8))
    """
    path = _check_filename(filename)
    write_file(path, encode_png(image, compression_level))


def _is_pil(image):
    import sys  # pylint: disable=import-outside-toplevel
    module = sys.modules.get("PIL.Image")
    return module is not None and isinstance(image, module.Image)


def get_image_num_channels(image):
    """Number of channels of an image: ``C`` of ``(H, W, C)``, 1 for ``(H, W)``; bands of a PIL image.

    Raises:
        TypeError: ``image`` is neither a NumPy array nor a PIL image.
        RuntimeError: the array has fewer than 2 dimensions.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.get_image_num_channels(np.zeros((4, 5, 3)))
        3
    """
    if _is_pil(image):
        return len(image.getbands())
    if not isinstance(image, np.ndarray):
        raise MSTypeError(f"Input image is not of type {np.ndarray} or PIL.Image.Image, but got: {type(image)}.")
    if image.ndim < 2:
        raise MSRuntimeError(f"GetImageNumChannels: the dimension of image tensor should be greater than 1, "
                             f"but got {image.ndim}.")
    return 1 if image.ndim == 2 else int(image.shape[-1])


def get_image_size(image):
    """``[height, width]`` of an ``(H, W)``/``(H, W, C)`` array or a PIL image.

    Raises:
        TypeError: ``image`` is neither a NumPy array nor a PIL image.
        RuntimeError: the array has fewer than 2 dimensions.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.get_image_size(np.zeros((4, 5, 3)))
        [4, 5]
    """
    if _is_pil(image):
        return [image.size[1], image.size[0]]
    if not isinstance(image, np.ndarray):
        raise MSTypeError(f"Input image is not of type {np.ndarray} or PIL.Image.Image, but got: {type(image)}.")
    if image.ndim < 2:
        raise MSRuntimeError(f"GetImageSize: the dimension of image tensor should be greater than 1, "
                             f"but got {image.ndim}.")
    return [int(image.shape[0]), int(image.shape[1])]


# pylint: disable=wrong-import-position
from mindspore.dataset.vision._video import VideoDecoder, read_video, read_video_timestamps  # noqa: E402
