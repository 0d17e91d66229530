"""The random image transforms of ``mindspore.dataset.vision`` (re-exported by ``vision.transforms``).

Each one draws its parameters in ``_params`` — once per call, so every image of a call (an image and its
mask) gets the same crop, flip or angle — and then applies a deterministic kernel. The draws are 2.10's: the
C++ operations' libstdc++ distributions on the op's own ``std::mt19937`` (:func:`op_engine`, see
``engine/cxx_random.py`` and ``config._op_engine``), and Python's global generator for the transforms 2.10
implements in Python (RandomErasing, RandomGrayscale) and for every transform given a PIL image. Sampling
follows MindSpore's C++ ops: RandomCrop pads then draws ``x`` then ``y``; RandomResizedCrop draws a scale and a
log-uniform aspect ratio up to ``max_attempts`` times, then falls back to a centre crop clamped to the ratio
range; RandomColorAdjust applies brightness, contrast, saturation and hue in a random order, skipping the ones
whose range is the identity.
"""
import math
import numbers
import random

import numpy as np
from PIL import Image, ImageEnhance, ImageOps

from mindspore.plugin import MSTypeError, MSValueError
from mindspore.dataset.engine import cxx_random
from mindspore.dataset.transforms._base import (
    TensorOperation, as_hw, check_bool, check_float, check_int, check_min_max, check_pos_int, check_prob,
    check_sequence, check_size, check_type, op_engine, runtime_error, single_or_tuple)
from mindspore.dataset.vision import _image as img
from mindspore.dataset.vision._validators import (
    check_center, check_fill_value, check_inter, parse_padding, pil_from_array, resized_hw, round_half_away)
from mindspore.dataset.vision._cv_transforms import affine_matrix as cv_affine_matrix
from mindspore.dataset.vision.utils import Border, Inter

__all__ = ["CutOut", "RandomAdjustSharpness", "RandomAffine", "RandomAutoContrast", "RandomColor",
           "RandomColorAdjust", "RandomCrop", "RandomCropDecodeResize", "RandomEqualize", "RandomErasing",
           "RandomGrayscale", "RandomHorizontalFlip", "RandomInvert", "RandomPosterize", "RandomResize",
           "RandomResizedCrop", "RandomRotation", "RandomSelectSubpolicy", "RandomSharpness", "RandomSolarize",
           "RandomVerticalFlip"]


class _RandomFlip(img.ImageTensorOperation):
    random = True
    _axis = 1

    def __init__(self, prob=0.5):
        self.prob = check_prob(prob)

    def _params(self, image):
        if img.is_pil(image):       # 2.10's Python path for PIL images: Python's global generator
            return self.prob > random.random()
        # 2.10: std::bernoulli_distribution(prob) on the op's engine
        return cxx_random.std_bernoulli(op_engine(self), self.prob)

    def _np(self, image, flip):
        img.check_image(type(self).__name__, image)
        img.check_cv_dtype(type(self).__name__, image)
        if not flip:
            return image
        return image[:, ::-1].copy() if self._axis == 1 else image[::-1].copy()

    def _pil(self, image, flip):
        if not flip:
            return image
        method = Image.Transpose.FLIP_LEFT_RIGHT if self._axis == 1 else Image.Transpose.FLIP_TOP_BOTTOM
        return image.transpose(method)


class RandomHorizontalFlip(_RandomFlip):
    """Flip an image left-right with probability ``prob``.

    Args:
        prob (float, optional): probability of flipping, in [0, 1]. Default: ``0.5``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.RandomHorizontalFlip(1.0)(np.array([[1, 2]]))
        array([[2, 1]])
    """


class RandomVerticalFlip(_RandomFlip):
    """Flip an image upside down with probability ``prob``.

    Args:
        prob (float, optional): probability of flipping, in [0, 1]. Default: ``0.5``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.RandomVerticalFlip(1.0)(np.array([[1], [2]]))
        array([[2],
               [1]])
    """

    _axis = 0


class RandomCrop(img.ImageTensorOperation):
    """Crop an image at a random position, after optional padding.

    Args:
        size (Union[int, Sequence[int]]): ``(height, width)`` of the crop, or an int for a square.
        padding (Union[int, Sequence[int]], optional): padding added first: an int for every border,
            (left and right, top and bottom), or (left, top, right, bottom). Default: ``None``.
        pad_if_needed (bool, optional): pad both sides of a dimension smaller than the crop by the
            missing amount. Default: ``False``.
        fill_value (Union[int, tuple[int, int, int]], optional): value of padded pixels for
            ``Border.CONSTANT``. Default: ``0``.
        padding_mode (Border, optional): CONSTANT, EDGE, REFLECT or SYMMETRIC. Default: ``Border.CONSTANT``.

    Raises:
        RuntimeError: the (padded) image is smaller than the crop.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.RandomCrop(4, padding=2)(np.zeros((6, 6, 3), np.uint8)).shape
        (4, 4, 3)
    """

    random = True

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = check_size(size)
        self.padding = (0, 0, 0, 0) if padding is None else parse_padding(padding)
        self.pad_if_needed = check_bool(pad_if_needed, "pad_if_needed")
        self.fill_value = check_fill_value(fill_value)
        self.padding_mode = check_type(padding_mode, Border, "padding_mode")

    def _params(self, image, engine=None):
        """The padding and the crop's top-left corner (``engine``: the stream to draw from, the op's own when
        None; the ``...WithBBox`` variants pass theirs)."""
        height, width = img.image_hw(image)
        left, top, right, bottom = self.padding
        crop_h, crop_w = as_hw(self.size)
        padded_h, padded_w = height + top + bottom, width + left + right
        if engine is None and img.is_pil(image):
            return self._pil_params(padded_h, padded_w, (top, bottom, left, right))
        extra_h = extra_w = 0
        if (padded_h, padded_w) == (crop_h, crop_w):
            return (top, bottom, left, right), 0, 0         # 2.10 draws nothing when the padded image fits
        if self.pad_if_needed:
            extra_h, extra_w = max(crop_h - padded_h, 0), max(crop_w - padded_w, 0)
        padded_h, padded_w = padded_h + 2 * extra_h, padded_w + 2 * extra_w
        if padded_h < crop_h or padded_w < crop_w:
            raise runtime_error("RandomCrop", f"invalid crop size, crop size is bigger than the image dimensions, "
                                f"got crop height: {crop_h}, crop width: {crop_w}, image size: "
                                f"({padded_h}, {padded_w}).")
        engine = engine or op_engine(self)      # 2.10: uniform_int_distribution<int> for x, then for y
        x = cxx_random.std_uniform_int(engine, 0, padded_w - crop_w)
        y = cxx_random.std_uniform_int(engine, 0, padded_h - crop_h)
        return (top + extra_h, bottom + extra_h, left + extra_w, right + extra_w), y, x

    def _pil_params(self, padded_h, padded_w, padding):
        """2.10's Python path (PIL images): pad, pad both sides of a short dimension when ``pad_if_needed``, then
        ``random.randint`` for the top, then the left (nothing drawn when the image is the crop's size)."""
        top, bottom, left, right = padding
        crop_h, crop_w = as_hw(self.size)
        extra_w = crop_w - padded_w if self.pad_if_needed and padded_w < crop_w else 0
        extra_h = crop_h - padded_h if self.pad_if_needed and padded_h < crop_h else 0
        padded_h, padded_w = padded_h + 2 * extra_h, padded_w + 2 * extra_w
        if padded_h < crop_h or padded_w < crop_w:
            raise MSValueError(f"Crop size {(crop_h, crop_w)} is larger than input image size "
                               f"{(padded_h, padded_w)}.")
        y = x = 0
        if (padded_h, padded_w) != (crop_h, crop_w):
            y = random.randint(0, padded_h - crop_h)
            x = random.randint(0, padded_w - crop_w)
        return (top + extra_h, bottom + extra_h, left + extra_w, right + extra_w), y, x

    def _np(self, image, params):
        img.check_image("RandomCrop", image)
        (top, bottom, left, right), y, x = params
        if top or bottom or left or right:
            image = img.pad_np(image, top, bottom, left, right, self.padding_mode, self.fill_value)
        return img.crop_np(image, y, x, *as_hw(self.size))

    def _pil(self, image, params):
        return pil_from_array(self._np(np.array(image), params))


def _check_scale_ratio(scale, ratio):
    scale = check_min_max(scale, "scale")
    ratio = check_min_max(ratio, "ratio")
    if ratio[0] <= 0:
        raise MSValueError("Input ratio is not within the required interval of (0, 16777216].")
    return scale, ratio


class RandomResizedCrop(img.ImageTensorOperation):
    """Crop a random region (random area fraction and aspect ratio) and resize it to ``size``.

    Args:
        size (Union[int, Sequence[int]]): output ``(height, width)``, or an int for a square.
        scale (Union[list, tuple], optional): range of the crop's area as a fraction of the image's.
            Default: ``(0.08, 1.0)``.
        ratio (Union[list, tuple], optional): range of the crop's aspect ratio (width / height),
            sampled log-uniformly. Default: ``(3. / 4., 4. / 3.)``.
        interpolation (Inter, optional): resize interpolation. Default: ``Inter.BILINEAR``.
        max_attempts (int, optional): attempts at a crop inside the image before falling back to a
            centre crop. Default: ``10``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.RandomResizedCrop(8)(np.zeros((20, 30, 3), np.uint8)).shape
        (8, 8, 3)
    """

    random = True

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.), interpolation=Inter.BILINEAR,
                 max_attempts=10):
        self.size = check_size(size)
        self.scale, self.ratio = _check_scale_ratio(scale, ratio)
        self.interpolation = check_inter(interpolation)
        self.max_attempts = check_pos_int(max_attempts, "max_attempts")

    def _params(self, image, engine=None):
        """The crop box ``(top, left, height, width)``, as MindSpore's GetCropBox (``engine`` as RandomCrop's)."""
        height, width = img.image_hw(image)
        if height == 0 or width == 0:
            raise runtime_error(type(self).__name__, "the input image can not be empty.")
        if engine is None and img.is_pil(image):
            return self._pil_params(height, width)
        # 2.10's GetCropBox: float scale and log-aspect draws (uniform_real_distribution<float>, bounds in float),
        # then uniform_int_distribution x, y; the fallback uses the float ratio bounds
        engine = engine or op_engine(self)
        scale_lo, scale_hi = (np.float32(v) for v in self.scale)
        ratio_lo, ratio_hi = (float(np.float32(v)) for v in self.ratio)
        log_lo, log_hi = np.float32(math.log(ratio_lo)), np.float32(math.log(ratio_hi))
        for _ in range(self.max_attempts):
            scale = cxx_random.std_uniform_real(engine, scale_lo, scale_hi, single=True)
            aspect = math.exp(cxx_random.std_uniform_real(engine, log_lo, log_hi, single=True))
            crop_w = max(round_half_away(math.sqrt(height * width * scale * aspect)), 1)
            crop_h = max(round_half_away(crop_w / aspect), 1)
            if crop_w <= width and crop_h <= height:
                x = cxx_random.std_uniform_int(engine, 0, width - crop_w)
                y = cxx_random.std_uniform_int(engine, 0, height - crop_h)
                return y, x, crop_h, crop_w
        image_ratio = width / height
        crop_h, crop_w = height, width
        if image_ratio < ratio_lo:
            crop_h = max(round_half_away(width / ratio_lo), 1)
        elif image_ratio > ratio_hi:
            crop_w = max(round_half_away(height * ratio_hi), 1)
        return round_half_away((height - crop_h) / 2.0), round_half_away((width - crop_w) / 2.0), crop_h, crop_w

    def _pil_params(self, height, width):
        """2.10's Python path (PIL images): ``random.uniform`` area and log-ratio draws, ``random.randint`` top and
        left; Python's rounding."""
        area = width * height
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.max_attempts):
            crop_area = random.uniform(self.scale[0], self.scale[1]) * area
            aspect = math.exp(random.uniform(*log_ratio))
            crop_w = int(round(math.sqrt(crop_area * aspect)))
            crop_h = int(round(crop_w / aspect))
            if 0 < crop_w <= width and 0 < crop_h <= height:
                top = random.randint(0, height - crop_h)
                left = random.randint(0, width - crop_w)
                return top, left, crop_h, crop_w
        image_ratio = width / height
        crop_h, crop_w = height, width
        if image_ratio < self.ratio[0]:
            crop_h = int(round(width / self.ratio[0]))
        elif image_ratio > self.ratio[1]:
            crop_w = int(round(height * self.ratio[1]))
        return int(round((height - crop_h) / 2.)), int(round((width - crop_w) / 2.)), crop_h, crop_w

    def _np(self, image, box):
        img.check_image(type(self).__name__, image)
        return img.resize_np(img.crop_np(image, *box), *as_hw(self.size), self.interpolation)

    def _pil(self, image, box):
        top, left, height, width = box
        out_h, out_w = as_hw(self.size)
        crop = image.crop((left, top, left + width, top + height))
        return crop.resize((out_w, out_h), img.RESIZE_FILTERS[self.interpolation])


class RandomCropDecodeResize(RandomResizedCrop):
    """Decode an encoded image (1-D uint8 bytes) to RGB, then apply :class:`RandomResizedCrop`.

    Args are those of :class:`RandomResizedCrop`.

    Raises:
        TypeError: the input is not a 1-D uint8 array.
        RuntimeError: the bytes are not a supported encoded image.

    Examples:
        >>> import mindspore.dataset.vision as vision
        >>> op = vision.RandomCropDecodeResize(224)
    """

    def __call__(self, data):
        if isinstance(data, (bytes, bytearray)):
            data = np.frombuffer(data, dtype=np.uint8)
        from mindspore.dataset.vision.transforms import encoded_bytes_array
        data = encoded_bytes_array(data)
        if not isinstance(data, np.ndarray):
            raise MSTypeError(f"Input should be an encoded image in 1-D NumPy format, got {type(data)}.")
        if data.ndim != 1 or data.dtype != np.uint8:
            raise MSTypeError(f"Input should be an encoded image with uint8 type in 1-D NumPy format, "
                              f"got format:{type(data)}, dtype:{data.dtype.type}.")
        return super().__call__(img.decode_rgb(data, "RandomCropDecodeResize"))


def _factor_range(value, name, center=1.0, bound=(0.0, 16777216.0), non_negative=True):
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        check_float(value, name, 0.0, bound[1] if non_negative else bound[1] - center)
        low = center - value
        return (max(0.0, low) if non_negative else low), center + value
    return check_min_max(value, name, *bound)


_COLOR_STEPS = (img.adjust_brightness, img.adjust_contrast, img.adjust_saturation, img.adjust_hue)
_COLOR_STEPS_NP = (img.adjust_brightness_np, img.adjust_contrast_np, img.adjust_saturation_np, img.adjust_hue_np)


class RandomColorAdjust(img.ImageTensorOperation):
    """Randomly adjust brightness, contrast, saturation and hue, in a random order.

    Args:
        brightness (Union[float, Sequence[float]], optional): a factor range ``[min, max]``, or a
            number ``b`` for ``[max(0, 1 - b), 1 + b]``. Default: ``(1, 1)`` (unchanged).
        contrast (Union[float, Sequence[float]], optional): as ``brightness``. Default: ``(1, 1)``.
        saturation (Union[float, Sequence[float]], optional): as ``brightness``. Default: ``(1, 1)``.
        hue (Union[float, Sequence[float]], optional): a range inside [-0.5, 0.5], or a number ``h``
            in [0, 0.5] for ``[-h, h]``. Default: ``(0, 0)`` (unchanged).

    Raises:
        RuntimeError: an adjustment is requested on an image that is not uint8 RGB/grayscale.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> op = vision.RandomColorAdjust(brightness=0.4, contrast=0.4, saturation=0.4, hue=0.1)
        >>> op(np.zeros((4, 4, 3), np.uint8)).shape
        (4, 4, 3)
    """

    random = True

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.brightness = _factor_range(brightness, "brightness")
        self.contrast = _factor_range(contrast, "contrast")
        self.saturation = _factor_range(saturation, "saturation")
        self.hue = _factor_range(hue, "hue", 0.0, (-0.5, 0.5), non_negative=False)

    def _params(self, image):
        ranges = (self.brightness, self.contrast, self.saturation, self.hue)
        if img.is_pil(image):
            # 2.10's Python path: random.uniform factors for all four, then random.shuffle of the four steps
            factors = [random.uniform(low, high) for low, high in ranges]
            order = [0, 1, 2, 3]
            random.shuffle(order)
            return [(index, factors[index]) for index in order]
        # 2.10's RandomColorAdjustOp: std::shuffle of (brightness, contrast, saturation, hue), then one
        # uniform_real_distribution<float> draw for each adjustment whose range is not the identity
        engine = op_engine(self)
        steps = []
        for index in cxx_random.std_shuffle(np.arange(4), engine).tolist():
            low, high = (np.float32(v) for v in ranges[index])
            identity = 0.0 if index == 3 else 1.0
            if low == high == identity:
                continue
            steps.append((index, cxx_random.std_uniform_real(engine, low, high, single=True)))
        return steps

    def _pil(self, image, steps):
        for index, factor in steps:
            image = _COLOR_STEPS[index](image, factor)
        return image

    def _np(self, image, steps):
        for index, factor in steps:
            image = _COLOR_STEPS_NP[index](image, factor)
        return image.copy() if not steps else image


def _degree_range(degrees, name="degrees"):
    if isinstance(degrees, numbers.Number) and not isinstance(degrees, bool):
        check_float(degrees, name, 0.0)
        return -float(degrees), float(degrees)
    check_sequence(degrees, name, (2,))
    for value in degrees:
        check_float(value, name)
    if degrees[0] > degrees[1]:
        raise MSValueError(f"{name} should be in (min,max) format. Got (max,min).")
    return float(degrees[0]), float(degrees[1])


class RandomRotation(img.ImageTensorOperation):
    """Rotate an image counter-clockwise by a random angle.

    Args:
        degrees (Union[int, float, Sequence]): the angle range ``(min, max)``, or a number ``d`` for
            ``(-d, d)``.
        resample (Inter, optional): NEAREST, BILINEAR or BICUBIC. Default: ``Inter.NEAREST``.
        expand (bool, optional): grow the output to hold the whole rotated image. Default: ``False``.
        center (tuple, optional): ``(x, y)`` of the centre; ``None`` is the image centre. Default: ``None``.
        fill_value (Union[int, tuple[int, int, int]], optional): value of pixels outside the image.
            Default: ``0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.RandomRotation(30)(np.zeros((8, 8, 3), np.uint8)).shape
        (8, 8, 3)
    """

    random = True

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        low, high = _degree_range(degrees)
        if not isinstance(degrees, numbers.Number):
            if high - low >= 360:
                low, high = -180.0, 180.0
            else:
                low, high = low % 360, high % 360
                if low > high:
                    high += 360
        else:
            high = high % 360
            low = -high
        self.degrees = (low, high)
        self.resample = check_inter(resample, "resample")
        self.expand = check_bool(expand, "expand")
        self.center = check_center(center)
        self.fill_value = check_fill_value(fill_value)

    def _params(self, image):
        if img.is_pil(image):       # 2.10's Python path: random.uniform over the degrees
            return random.uniform(*self.degrees)
        # 2.10's RandomRotationOp: r = uniform_real_distribution<float>(-1, 1), then mid + r * half-range in float
        low, high = (np.float32(v) for v in self.degrees)
        r = np.float32(cxx_random.std_uniform_real(op_engine(self), -1.0, 1.0, single=True))
        return float((high + low) / np.float32(2) + r * ((high - low) / np.float32(2)))

    def _np(self, image, angle):
        img.check_image("RandomRotation", image)
        return img.rotate_np(image, angle, self.resample, self.expand, self.center, self.fill_value)

    def _pil(self, image, angle):
        fill = img.fill_for(self.fill_value, range(len(image.getbands())))
        return img.rotate_pil(image, angle, self.resample, self.expand, self.center, fill)


class CutOut(img.ImageTensorOperation):
    """Set ``num_patches`` random ``length x length`` squares of an image to 0 (squares near the
    border are clipped).

    Args:
        length (int): side of each square.
        num_patches (int, optional): number of squares. Default: ``1``.
        is_hwc (bool, optional): the image is ``(H, W, C)`` (else ``(C, H, W)``). Default: ``True``.

    Raises:
        RuntimeError: ``length`` is larger than the image.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> bool(vision.CutOut(2)(np.ones((8, 8, 3), np.uint8)).sum() >= 8 * 8 * 3 - 12)
        True
    """

    random = True

    def __init__(self, length, num_patches=1, is_hwc=True):
        self.length = check_pos_int(length, "length")
        self.num_patches = check_pos_int(num_patches, "num_patches")
        self.is_hwc = check_bool(is_hwc, "is_hwc")

    def _hw(self, image):
        if image.ndim == 3 and not self.is_hwc:
            return image.shape[1], image.shape[2]
        return image.shape[0], image.shape[1]

    def _params(self, image):
        img.check_image("CutOut", image)
        height, width = self._hw(image)
        if self.length > height or self.length > width:
            raise runtime_error("CutOut", f"box size is too large for image erase, got box height: {self.length}, "
                                f"box width: {self.length}, and image height: {height}, image width: {width}.")
        engine = op_engine(self)        # 2.10's CutOut: uniform_int_distribution for the top, then the left
        starts = []
        for _ in range(self.num_patches):
            top = cxx_random.std_uniform_int(engine, 0, height + self.length) - self.length
            left = cxx_random.std_uniform_int(engine, 0, width + self.length) - self.length
            starts.append((max(top, 0), min(top + self.length, height), max(left, 0), min(left + self.length, width)))
        return starts

    def _np(self, image, boxes):
        out = image.copy()
        for y0, y1, x0, x1 in boxes:
            if image.ndim == 3 and not self.is_hwc:
                out[:, y0:y1, x0:x1] = 0
            else:
                out[y0:y1, x0:x1] = 0
        return out


def _optional_range(value, name, lengths, low, high):
    check_sequence(value, name, lengths)
    for item in value:
        check_float(item, name, low, high)
    return tuple(float(v) for v in value)


class RandomAffine(img.ImageTensorOperation):
    """Random affine transformation about the image centre: rotation (clockwise degrees), translation,
    scale and shear.

    Args:
        degrees (Union[int, float, Sequence]): rotation range ``(min, max)``, or ``d`` for ``(-d, d)``.
        translate (Sequence, optional): ``(tx_min, tx_max)`` or ``(tx_min, tx_max, ty_min, ty_max)``,
            fractions of the width/height in [-1, 1]. Default: ``None`` (no translation).
        scale (Sequence, optional): scale range ``(min, max)``. Default: ``None`` (no scaling).
        shear (Union[float, Sequence], optional): shear angle range(s) in degrees: ``s`` for X shear in
            ``(-s, s)``, ``(min, max)`` for X, or four values for X then Y. Default: ``None``.
        resample (Inter, optional): NEAREST, BILINEAR or BICUBIC. Default: ``Inter.NEAREST``.
        fill_value (Union[int, tuple[int, int, int]], optional): value outside the image. Default: ``0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> op = vision.RandomAffine(degrees=15, translate=(-0.1, 0.1, 0, 0), scale=(0.9, 1.1))
        >>> op(np.zeros((8, 8, 3), np.uint8)).shape
        (8, 8, 3)
    """

    random = True

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST, fill_value=0):
        self.degrees = _degree_range(degrees)
        if translate is not None:
            translate = _optional_range(translate, "translate", (2, 4), -1.0, 1.0)
        self.translate = (0.0, 0.0, 0.0, 0.0) if translate is None else (translate + (0.0, 0.0))[:4]
        self._py_translate = translate or (0.0, 0.0)    # as given: 2.10's Python path reads its first two
        self.scale = (1.0, 1.0) if scale is None else check_min_max(scale, "scale")
        if shear is None:
            shear = (0.0, 0.0, 0.0, 0.0)
        elif isinstance(shear, numbers.Number) and not isinstance(shear, bool):
            check_float(shear, "shear", 0.0)
            shear = (-float(shear), float(shear), 0.0, 0.0)
        else:
            shear = (_optional_range(shear, "shear", (2, 4), -180.0, 180.0) + (0.0, 0.0))[:4]
        self.shear = shear
        self.resample = check_inter(resample, "resample")
        self.fill_value = check_fill_value(fill_value)

    def _params(self, image):
        height, width = img.image_hw(image)
        if img.is_pil(image):
            # 2.10's Python path: random.uniform for the angle, the x and y translations (within +-translate[0] of
            # the width, +-translate[1] of the height, rounded half to even), the scale, the x and y shears
            angle = random.uniform(*self.degrees)
            max_dx, max_dy = self._py_translate[0] * width, self._py_translate[1] * height
            tx = float(np.round(random.uniform(-max_dx, max_dx)))
            ty = float(np.round(random.uniform(-max_dy, max_dy)))
            scale = random.uniform(*self.scale)
            shear_x, shear_y = random.uniform(*self.shear[:2]), random.uniform(*self.shear[2:])
            return angle, (tx, ty), scale, (shear_x, shear_y)
        # 2.10's RandomAffineOp: six uniform_real_distribution<float> draws (translation bounds scaled by the
        # image size in float): angle, x and y translation, scale, x and y shear
        engine = op_engine(self)
        f32 = np.float32
        t0, t1, t2, t3 = (f32(v) for v in self.translate)

        def draw(low, high):
            return cxx_random.std_uniform_real(engine, f32(low), f32(high), single=True)

        angle = draw(*self.degrees)
        tx = draw(t0 * f32(width), t1 * f32(width))        # in pixels, not rounded (the Python path rounds)
        ty = draw(t2 * f32(height), t3 * f32(height))
        scale = draw(*self.scale)
        shear_x, shear_y = draw(*self.shear[:2]), draw(*self.shear[2:])
        return angle, (tx, ty), scale, (shear_x, shear_y)

    def _np(self, image, params):
        img.check_image("RandomAffine", image)
        angle, translate, scale, shear = params
        height, width = image.shape[:2]
        matrix = cv_affine_matrix(height, width, angle, translate, scale, shear)
        return img.affine_np(image, matrix, self.resample, self.fill_value, "RandomAffine")

    def _pil(self, image, params):
        angle, translate, scale, shear = params
        matrix = _py_affine_data(image.size[0], image.size[1], angle, translate, scale, shear)
        fill = img.fill_for(self.fill_value, range(len(image.getbands())))
        if Image.__version__ < "5":
            # 2.10 passes the fill to Pillow only when ``Image.__version__ >= '5'``, compared as strings: Pillow
            # 10 and later ('1...') get no fill, and the outside stays black
            fill = (0,) * len(fill)
        return img.affine_pil(image, matrix, self.resample, fill)


def _py_affine_data(width, height, angle, translate, scale, shear):
    """2.10's Python ``random_affine`` data for Pillow (output -> input): the inverse of rotation by ``angle``
    with the shears added to it (degrees), over ``scale``, about the centre ``(W / 2 + 0.5, H / 2 + 0.5)``, after
    ``translate``."""
    cx, cy = width * 0.5 + 0.5, height * 0.5 + 0.5
    theta, sx, sy = math.radians(angle), math.radians(shear[0]), math.radians(shear[1])
    inverse_scale = 1.0 / scale
    det = math.cos(theta + sx) * math.cos(theta + sy) + math.sin(theta + sx) * math.sin(theta + sy)
    data = [math.cos(theta + sx), math.sin(theta + sx), 0, -math.sin(theta + sy), math.cos(theta + sy), 0]
    data = [inverse_scale / det * m for m in data]
    data[2] += data[0] * (-cx - translate[0]) + data[1] * (-cy - translate[1])
    data[5] += data[3] * (-cx - translate[0]) + data[4] * (-cy - translate[1])
    data[2] += cx
    data[5] += cy
    return tuple(data)


def affine_matrix(width, height, angle, translate, scale, shear):
    """Pillow's AFFINE data (output -> input pixel mapping) for a forward transform
    ``T(centre + translate) R(angle, clockwise) ShearX ShearY Scale T(-centre)``."""
    cx, cy = width * 0.5, height * 0.5
    theta, sx, sy = math.radians(angle), math.radians(shear[0]), math.radians(shear[1])
    rotate = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    linear = rotate @ np.array([[1.0, math.tan(sx)], [0.0, 1.0]]) @ np.array([[1.0, 0.0], [math.tan(sy), 1.0]])
    linear = linear * scale
    forward = np.eye(3)
    forward[:2, :2] = linear
    forward[:2, 2] = np.array([cx + translate[0], cy + translate[1]]) - linear @ np.array([cx, cy])
    inverse = np.linalg.inv(forward)
    return tuple(float(v) for v in inverse[:2].reshape(-1))


class RandomErasing(img.ImageTensorOperation):
    """Erase a random rectangle of a ``(C, H, W)`` array with probability ``prob``.

    Args:
        prob (float, optional): probability of erasing. Default: ``0.5``.
        scale (Sequence[float, float], optional): area range as a fraction of the image. Default: ``(0.02, 0.33)``.
        ratio (Sequence[float, float], optional): aspect-ratio range. Default: ``(0.3, 3.3)``.
        value (Union[int, str, Sequence[int, int, int]], optional): the fill: a number, one per channel,
            or ``'random'`` for standard normal noise. Default: ``0``.
        inplace (bool, optional): erase in the input array. Default: ``False``.
        max_attempts (int, optional): attempts to find a rectangle inside the image. Default: ``10``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.RandomErasing(prob=1.0)(np.ones((3, 8, 8), np.float32)).shape
        (3, 8, 8)
    """

    random = True

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False, max_attempts=10):
        self.prob = check_prob(prob)
        self.scale, self.ratio = _check_scale_ratio(scale, ratio)
        if isinstance(value, str):
            if value != "random":
                raise MSValueError(f"The value for erasing should be a number, a sequence of 3 numbers or "
                                   f"'random', but got {value!r}.")
        elif isinstance(value, numbers.Number) and not isinstance(value, bool):
            check_float(value, "value", 0.0, 255.0)
        else:
            _optional_range(value, "value", (3,), 0.0, 255.0)
        self.value = value
        self.inplace = check_bool(inplace, "inplace")
        self.max_attempts = check_pos_int(max_attempts, "max_attempts")

    def _params(self, image):
        if image.ndim != 3:
            raise MSTypeError(f"RandomErasing: the image should be of shape (C, H, W), but got {image.shape}.")
        # 2.10's RandomErasing is a Python transform: Python's global generator (and NumPy's for 'random' values),
        # both seeded by ds.config.set_seed, drawn in its order
        if not self.prob > random.random():
            return None
        channels, height, width = image.shape
        for _ in range(self.max_attempts):
            area = random.uniform(*self.scale) * (height * width)
            aspect = random.uniform(*self.ratio)
            erase_w = int(round(math.sqrt(area * aspect)))
            erase_h = int(round(erase_w / aspect))
            if erase_h < height and erase_w < width:
                top = random.randint(0, height - erase_h)
                left = random.randint(0, width - erase_w)
                noise = None
                if self.value == "random":
                    noise = np.random.normal(loc=0.0, scale=1.0, size=(channels, erase_h, erase_w))
                return top, left, erase_h, erase_w, noise
        return None

    def _np(self, image, params):
        if params is None:
            return image
        top, left, height, width, noise = params
        out = image if self.inplace else image.copy()
        if noise is not None:
            value = noise
        elif isinstance(self.value, numbers.Number):
            value = self.value
        else:
            value = np.asarray(self.value, dtype=np.float64)[:, None, None]
        out[:, top:top + height, left:left + width] = value
        return out


class _RandomPilColor(img.PilColorOperation):
    random = True

    def __init__(self, prob=0.5):
        self.prob = check_prob(prob)

    def _params(self, image):
        # 2.10: std::bernoulli_distribution(prob) on the op's engine
        return cxx_random.std_bernoulli(op_engine(self), self.prob)

    def _apply(self, pil, apply):
        return self._change(pil) if apply else pil

    def _np(self, image, apply):
        return self._change_np(image) if apply else image

    def _change_np(self, image):
        return super()._np(image, True)


class RandomInvert(_RandomPilColor):
    """Invert (``255 - x``) an image with probability ``prob`` (default 0.5).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.RandomInvert(1.0)(np.zeros((1, 1, 3), np.uint8))
        array([[[255, 255, 255]]], dtype=uint8)
    """

    @staticmethod
    def _change(pil):
        return ImageOps.invert(pil)

    @staticmethod
    def _change_np(image):
        return img.invert_np(image)


class RandomEqualize(_RandomPilColor):
    """Equalize the histogram with probability ``prob`` (default 0.5).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.RandomEqualize(1.0)(np.zeros((2, 2, 3), np.uint8))
    """

    @staticmethod
    def _change(pil):
        return ImageOps.equalize(pil)

    @staticmethod
    def _change_np(image):
        return img.equalize_np(image)


class RandomGrayscale(_RandomPilColor):
    """Convert to grayscale with probability ``prob`` (default 0.1), keeping the number of channels.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.RandomGrayscale(1.0)(np.zeros((2, 2, 3), np.uint8)).shape
        (2, 2, 3)
    """

    def __init__(self, prob=0.1):
        super().__init__(prob)

    def _params(self, image):
        # 2.10's RandomGrayscale is a Python transform: Python's global generator (seeded by ds.config.set_seed)
        return self.prob > random.random()

    @staticmethod
    def _change(pil):
        gray = pil.convert("L")
        return gray if pil.mode == "L" else Image.merge("RGB", (gray, gray, gray))


class RandomAutoContrast(_RandomPilColor):
    """Apply :class:`AutoContrast` with probability ``prob``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.RandomAutoContrast(prob=1.0)(np.zeros((2, 2, 3), np.uint8))
    """

    def __init__(self, cutoff=0.0, ignore=None, prob=0.5):
        super().__init__(prob)
        self.cutoff = check_float(cutoff, "cutoff", 0.0, 50.0, right_open=True)
        if isinstance(ignore, numbers.Integral):
            ignore = [ignore]
        if ignore is not None:
            check_sequence(ignore, "ignore")
            for value in ignore:
                check_int(value, "ignore", 0, 255)
        self.ignore = ignore

    def _change(self, pil):
        return ImageOps.autocontrast(pil, self.cutoff, self.ignore)

    def _change_np(self, image):
        return img.auto_contrast_np(image, self.cutoff, self.ignore)


class RandomAdjustSharpness(_RandomPilColor):
    """Adjust the sharpness by ``degree`` with probability ``prob``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.RandomAdjustSharpness(2.0, prob=1.0)(np.zeros((4, 4, 3), np.uint8))
    """

    def __init__(self, degree, prob=0.5):
        super().__init__(prob)
        self.degree = check_float(degree, "degree", 0.0)

    def _change(self, pil):
        return ImageEnhance.Sharpness(pil).enhance(self.degree)

    def _change_np(self, image):
        return img.adjust_sharpness_np(image, self.degree)


class _RandomEnhance(img.PilColorOperation):
    random = True
    _enhancer = ImageEnhance.Sharpness

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = check_min_max(degrees, "degrees")

    def _params(self, image):
        if img.is_pil(image):       # 2.10's Python path: (max - min) * random.random() + min
            return (self.degrees[1] - self.degrees[0]) * random.random() + self.degrees[0]
        # 2.10's RandomSharpnessOp: r = uniform_real_distribution<float>(-1, 1), mid + r * half-range in float
        low, high = (np.float32(v) for v in self.degrees)
        r = np.float32(cxx_random.std_uniform_real(op_engine(self), -1.0, 1.0, single=True))
        return float((high + low) / np.float32(2) + r * ((high - low) / np.float32(2)))

    def _apply(self, pil, factor):
        return self._enhancer(pil).enhance(factor)

    def _np(self, image, factor):
        return type(self)._kernel(image, factor)


class RandomSharpness(_RandomEnhance):
    """Adjust the sharpness by a factor drawn from ``degrees`` (default ``(0.1, 1.9)``).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.RandomSharpness()(np.zeros((4, 4, 3), np.uint8))
    """

    _kernel = staticmethod(img.adjust_sharpness_np)


class RandomColor(_RandomEnhance):
    """Adjust the colour saturation by a factor drawn from ``degrees`` (default ``(0.1, 1.9)``).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.RandomColor()(np.zeros((4, 4, 3), np.uint8))
    """

    _enhancer = ImageEnhance.Color
    _kernel = staticmethod(img.random_color_np)

    def _params(self, image):
        if img.is_pil(image):       # 2.10's Python path: (max - min) * random.random() + min
            return (self.degrees[1] - self.degrees[0]) * random.random() + self.degrees[0]
        # 2.10's RandomColorOp: the factor is uniform_real_distribution<float>(low, high)
        return cxx_random.std_uniform_real(op_engine(self), *self.degrees, single=True)


class RandomSolarize(img.PilColorOperation):
    """Invert the pixels inside a random sub-range of ``threshold`` (both ends drawn as integers).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.RandomSolarize((10, 100))(np.zeros((2, 2, 3), np.uint8))
    """

    random = True

    def __init__(self, threshold=(0, 255)):
        check_sequence(threshold, "threshold", (2,))
        for value in threshold:
            check_int(value, "threshold", 0, 255)
        if threshold[0] > threshold[1]:
            raise MSValueError("threshold must be in order of (min, max).")
        self.threshold = tuple(threshold)

    def _params(self, image):
        engine = op_engine(self)        # 2.10: two uniform_int_distribution draws, then ordered
        low, high = (cxx_random.std_uniform_int(engine, *self.threshold) for _ in range(2))
        return min(low, high), max(low, high)

    def _apply(self, pil, bounds):
        low, high = bounds
        table = [255 - x if low <= x <= high else x for x in range(256)]
        return pil.point(table * len(pil.getbands()))

    def _np(self, image, bounds):
        low, high = bounds
        return img.solarize_np(image, float(low), float(high), equal_means_above=False)


class RandomPosterize(img.PilColorOperation):
    """Keep a random number of bits (drawn from ``bits``, an int or ``(min, max)`` in [1, 8]).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> out = vision.RandomPosterize((4, 8))(np.zeros((2, 2, 3), np.uint8))
    """

    random = True

    def __init__(self, bits=(8, 8)):
        if isinstance(bits, numbers.Integral) and not isinstance(bits, bool):
            check_int(bits, "bits", 1, 8)
            bits = (bits, bits)
        check_sequence(bits, "bits", (2,))
        for value in bits:
            check_int(value, "bits", 1, 8)
        if bits[0] > bits[1]:
            raise MSValueError("bits must be in order of (min, max).")
        self.bits = tuple(bits)

    def _params(self, image):
        if self.bits[0] == self.bits[1]:
            return self.bits[0]         # 2.10 draws nothing for a single value
        return cxx_random.std_uniform_int(op_engine(self), *self.bits)

    def _apply(self, pil, bits):
        return ImageOps.posterize(pil, bits)

    def _np(self, image, bits):
        return img.posterize_np(image, bits)


class RandomResize(img.ImageTensorOperation):
    """Resize (as :class:`Resize`) with an interpolation drawn uniformly from BILINEAR, NEAREST, BICUBIC, AREA.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.RandomResize((4, 6))(np.zeros((8, 8, 3), np.uint8)).shape
        (4, 6, 3)
    """

    random = True
    _MODES = (Inter.BILINEAR, Inter.NEAREST, Inter.BICUBIC, Inter.AREA)

    def __init__(self, size):
        self.size = check_size(size)

    def _params(self, image):
        # 2.10's RandomResizeOp: uniform_int_distribution(0, 3) over its InterpolationMode enum (this order)
        return self._MODES[cxx_random.std_uniform_int(op_engine(self), 0, len(self._MODES) - 1)]

    def _np(self, image, interpolation):
        img.check_image("RandomResize", image)
        height, width = resized_hw(image.shape[0], image.shape[1], self.size)
        return img.resize_np(image, height, width, interpolation)


class RandomSelectSubpolicy(TensorOperation):
    """Pick one sub-policy uniformly; apply each of its ``(transform, prob)`` pairs with its probability.

    Args:
        policy (list[list[tuple[Callable, float]]]): the sub-policies.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> policy = [[(vision.Invert(), 1.0)], [(vision.HorizontalFlip(), 0.5), (vision.Invert(), 0.5)]]
        >>> vision.RandomSelectSubpolicy(policy)(np.zeros((2, 2, 3), np.uint8)).shape
        (2, 2, 3)
    """

    random = True

    def __init__(self, policy):
        check_type(policy, list, "policy")
        if not policy:
            raise MSValueError("policy can not be empty.")
        for sub_policy in policy:
            check_type(sub_policy, list, "sub_policy")
            if not sub_policy:
                raise MSValueError("sub_policy can not be empty.")
            for item in sub_policy:
                check_sequence(item, "policy item", (2,), types=(list, tuple))
                if not callable(item[0]):
                    raise MSTypeError(f"op of (op, prob) in sub_policy should be callable, but got {type(item[0])}.")
                check_prob(item[1], "prob of (op, prob)")
        self.policy = policy

    def __call__(self, *args):
        # 2.10's RandomSelectSubpolicyOp: uniform_int_distribution(0, n - 1) picks the sub-policy, then one
        # uniform_real_distribution<double>(0, 1) draw per step, which runs when the draw is <= its prob
        engine = op_engine(self)
        for op, prob in self.policy[cxx_random.std_uniform_int(engine, 0, len(self.policy) - 1)]:
            if cxx_random.std_uniform_real(engine, 0.0, 1.0) <= prob:
                out = op(*args)
                args = out if isinstance(out, tuple) else (out,)
        return single_or_tuple(args)
