"""Automatic augmentation policies: AutoAugment (the learned ImageNet/CIFAR10/SVHN sub-policies),
RandAugment and TrivialAugmentWide, on uint8 ``<H, W, 3>`` images. Each operation reuses the kernels of
the deterministic transforms (Affine for shears and translations, Rotate, the colour adjustments,
Posterize, Solarize, AutoContrast, Equalize, Invert); magnitudes follow the published policies.
Re-exported by ``mindspore.dataset.vision.transforms``.
"""
import math

import numpy as np

from mindspore.dataset.engine import cxx_random
from mindspore.dataset.transforms._base import TensorOperation, check_int, check_type, op_engine
from mindspore.dataset.vision import _image as img
from mindspore.dataset.vision._cv_transforms import affine_matrix
from mindspore.dataset.vision._validators import check_fill_value, check_inter
from mindspore.dataset.vision.utils import AutoAugmentPolicy, Inter

__all__ = ["AutoAugment", "RandAugment", "TrivialAugmentWide"]

_INT_MAX = 16777216


def _affine(image, interpolation, fill, translate=(0.0, 0.0), shear=(0.0, 0.0), degrees=0.0):
    height, width = image.shape[:2]
    matrix = affine_matrix(height, width, degrees, translate, 1.0, shear)
    return img.affine_np(image, matrix, interpolation, fill)


def _plus_one(magnitude):
    """2.10's ``1 + magnitude`` in float (the factor of the colour and sharpness adjustments)."""
    return float(np.float32(1) + np.float32(magnitude))


def apply_op(image, name, magnitude, interpolation, fill):
    """One augmentation ``name`` with ``magnitude`` (signed where the operation has a direction)."""
    # 2.10's ApplyAugment: the shear angle is magnitude * 180 / pi degrees (no arctan); a translation is
    # int(magnitude) given to AffineOp, which takes it as a fraction of the image size (so any |magnitude| >= 1
    # moves the image out of the frame)
    if name in ("ShearX", "ShearY"):
        angle = float(np.float32(float(np.float32(magnitude) * np.float32(180)) / math.pi))
        return _affine(image, interpolation, fill, shear=(angle, 0.0) if name == "ShearX" else (0.0, angle))
    if name == "TranslateX":
        shift = float(np.float32(int(magnitude)) * np.float32(image.shape[1]))
        return _affine(image, interpolation, fill, translate=(shift, 0.0))
    if name == "TranslateY":
        shift = float(np.float32(int(magnitude)) * np.float32(image.shape[0]))
        return _affine(image, interpolation, fill, translate=(0.0, shift))
    if name == "Rotate":
        return img.rotate_np(image, magnitude, interpolation, False, None, fill)
    if name == "Brightness":
        return img.adjust_brightness_np(image, _plus_one(magnitude))
    if name == "Color":
        return img.adjust_saturation_np(image, _plus_one(magnitude))
    if name == "Contrast":
        return img.adjust_contrast_np(image, _plus_one(magnitude))
    if name == "Sharpness":
        return img.adjust_sharpness_np(image, _plus_one(magnitude))
    if name == "Posterize":
        return img.posterize_np(image, int(magnitude))
    if name == "Solarize":
        return img.solarize_np(image, float(magnitude), 255.0)
    if name == "AutoContrast":
        return img.auto_contrast_np(image, 0.0, None)
    if name == "Equalize":
        return img.equalize_np(image)
    if name == "Invert":
        return img.invert_np(image)
    return image  # Identity


def _linspace(start, end, num, scale=1.0, offset=0.0, rounded=False):
    """2.10's ``Linspace`` in float: ``(start + i * step) * scale + offset``, ``step = (end - start) / (num - 1)``,
    optionally rounded half to even."""
    f32 = np.float32
    step = f32(0) if num == 1 else (f32(end) - f32(start)) / f32(num - 1)
    values = (f32(start) + np.arange(num, dtype=f32) * step) * f32(scale) + f32(offset)
    return np.rint(values).astype(f32) if rounded else values.astype(f32)


def _space(num_bins, height, width, wide):
    """``{name: (magnitudes, signed)}`` of RandAugment (``wide=False``) or TrivialAugmentWide, in float as 2.10."""
    def lin(stop):
        return _linspace(0.0, stop, num_bins)
    f32 = np.float32
    bits = 6 if wide else 4
    posterize = _linspace(0.0, num_bins - 1.0, num_bins, f32(-bits) / (f32(num_bins) - f32(1)), 8.0, True)
    return {
        "Identity": (np.zeros(num_bins), False),
        "ShearX": (lin(0.99 if wide else 0.3), True),
        "ShearY": (lin(0.99 if wide else 0.3), True),
        "TranslateX": (lin(32.0 if wide else f32(150.0) / f32(331) * f32(width)), True),
        "TranslateY": (lin(32.0 if wide else f32(150.0) / f32(331) * f32(height)), True),
        "Rotate": (lin(135.0 if wide else 30.0), True),
        "Brightness": (lin(0.99 if wide else 0.9), True),
        "Color": (lin(0.99 if wide else 0.9), True),
        "Contrast": (lin(0.99 if wide else 0.9), True),
        "Sharpness": (lin(0.99 if wide else 0.9), True),
        "Posterize": (posterize, False),
        "Solarize": (_linspace(255.0, 0.0, num_bins), False),
        "AutoContrast": (np.zeros(num_bins), False),
        "Equalize": (np.zeros(num_bins), False),
    }


# operations 2.10 gives a single magnitude (so draws no magnitude bin for them)
_NO_MAGNITUDE = ("Identity", "AutoContrast", "Equalize", "Invert")


def _rand_int(engine, low, high):
    """2.10's ``RandInt`` of RandAugment / TrivialAugmentWide: ``uniform_int_distribution(low, high)`` (``high``
    included) taken modulo ``high - low``, plus ``low``."""
    return cxx_random.std_uniform_int(engine, low, high) % (high - low) + low


def _check_rgb(op_name, image):
    if hasattr(image, "asnumpy"):
        image = image.asnumpy()
    image = np.array(image) if img.is_pil(image) else image
    img.validate_image(op_name, image, ranks=(3,), channels=(3,), dtypes=(np.uint8,))
    return image


class _Augment(TensorOperation):
    random = True

    def __init__(self, interpolation, fill_value):
        self.interpolation = check_inter(interpolation)
        self.fill_value = check_fill_value(fill_value)

    def _op(self, image, name, magnitude):
        return apply_op(image, name, magnitude, self.interpolation, self.fill_value)


class RandAugment(_Augment):
    """RandAugment: ``num_ops`` operations drawn uniformly from 14 (identity, shears, translations,
    rotation, colour, posterize, solarize, auto-contrast, equalize), all at ``magnitude`` out of
    ``num_magnitude_bins`` (direction drawn at random).

    Args:
        num_ops (int, optional): operations per image. Default: ``2``.
        magnitude (int, optional): in [0, num_magnitude_bins). Default: ``9``.
        num_magnitude_bins (int, optional): at least 2. Default: ``31``.
        interpolation (Inter, optional): for the geometric operations. Default: ``Inter.NEAREST``.
        fill_value (Union[int, tuple[int, int, int]], optional): value outside the image. Default: ``0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.RandAugment()(np.zeros((8, 8, 3), np.uint8)).shape
        (8, 8, 3)
    """

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        self.num_ops = check_int(num_ops, "num_ops", 0, _INT_MAX)
        self.num_magnitude_bins = check_int(num_magnitude_bins, "num_magnitude_bins", 2, _INT_MAX)
        self.magnitude = check_int(magnitude, "magnitude", 0, self.num_magnitude_bins - 1)
        super().__init__(interpolation, fill_value)

    def __call__(self, image):
        image = _check_rgb("RandAugment", image)
        space = _space(self.num_magnitude_bins, image.shape[0], image.shape[1], wide=False)
        # 2.10 keeps its space in a std::map: the operations are drawn by index in name order; the sign is drawn
        # for every operation
        names = sorted(space)
        engine = op_engine(self)
        for _ in range(self.num_ops):
            name = names[_rand_int(engine, 0, len(names))]
            values, signed = space[name]
            magnitude = 0.0 if name in _NO_MAGNITUDE else float(values[self.magnitude])
            if _rand_int(engine, 0, 2) and signed:
                magnitude = -magnitude
            image = self._op(image, name, magnitude)
        return image


class TrivialAugmentWide(_Augment):
    """TrivialAugment Wide: one operation and one magnitude bin, both drawn uniformly, per image.

    Args:
        num_magnitude_bins (int, optional): at least 2. Default: ``31``.
        interpolation (Inter, optional): for the geometric operations. Default: ``Inter.NEAREST``.
        fill_value (Union[int, tuple[int, int, int]], optional): value outside the image. Default: ``0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.TrivialAugmentWide()(np.zeros((8, 8, 3), np.uint8)).shape
        (8, 8, 3)
    """

    def __init__(self, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        self.num_magnitude_bins = check_int(num_magnitude_bins, "num_magnitude_bins", 2, _INT_MAX)
        super().__init__(interpolation, fill_value)

    def __call__(self, image):
        image = _check_rgb("TrivialAugmentWide", image)
        space = _space(self.num_magnitude_bins, image.shape[0], image.shape[1], wide=True)
        # as RandAugment: operation by index in name order, then a magnitude bin (for operations with magnitudes),
        # then the sign, always drawn
        names = sorted(space)
        engine = op_engine(self)
        name = names[_rand_int(engine, 0, len(names))]
        values, signed = space[name]
        magnitude = 0.0
        if name not in _NO_MAGNITUDE:
            magnitude = float(values[_rand_int(engine, 0, len(values))])
        if _rand_int(engine, 0, 2) and signed:
            magnitude = -magnitude
        return self._op(image, name, magnitude)


# (operation, probability, magnitude bin of 10) pairs of the learned policies (Cubuk et al., 2019)
_POLICIES = {
    AutoAugmentPolicy.IMAGENET: [
        (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
        (("Equalize", 0.8, None), ("Equalize", 0.6, None)), (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
        (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Equalize", 0.4, None), ("Rotate", 0.8, 8)),
        (("Solarize", 0.6, 3), ("Equalize", 0.6, None)), (("Posterize", 0.8, 5), ("Equalize", 1.0, None)),
        (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)), (("Equalize", 0.6, None), ("Posterize", 0.4, 6)),
        (("Rotate", 0.8, 8), ("Color", 0.4, 0)), (("Rotate", 0.4, 9), ("Equalize", 0.6, None)),
        (("Equalize", 0.0, None), ("Equalize", 0.8, None)), (("Invert", 0.6, None), ("Equalize", 1.0, None)),
        (("Color", 0.6, 4), ("Contrast", 1.0, 8)), (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
        (("Color", 0.8, 8), ("Solarize", 0.8, 7)), (("Sharpness", 0.4, 7), ("Invert", 0.6, None)),
        (("ShearX", 0.6, 5), ("Equalize", 1.0, None)), (("Color", 0.4, 0), ("Equalize", 0.6, None)),
        (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
        (("Invert", 0.6, None), ("Equalize", 1.0, None)), (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
        (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
    ],
    AutoAugmentPolicy.CIFAR10: [
        (("Invert", 0.1, None), ("Contrast", 0.2, 6)), (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9)),
        (("Sharpness", 0.8, 1), ("Sharpness", 0.9, 3)), (("ShearY", 0.5, 8), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.5, None), ("Equalize", 0.9, None)), (("ShearY", 0.2, 7), ("Posterize", 0.3, 7)),
        (("Color", 0.4, 3), ("Brightness", 0.6, 7)), (("Sharpness", 0.3, 9), ("Brightness", 0.7, 9)),
        (("Equalize", 0.6, None), ("Equalize", 0.5, None)), (("Contrast", 0.6, 7), ("Sharpness", 0.6, 5)),
        (("Color", 0.7, 7), ("TranslateX", 0.5, 8)), (("Equalize", 0.3, None), ("AutoContrast", 0.4, None)),
        (("TranslateY", 0.4, 3), ("Sharpness", 0.2, 6)), (("Brightness", 0.9, 6), ("Color", 0.2, 8)),
        (("Solarize", 0.5, 2), ("Invert", 0.0, None)), (("Equalize", 0.2, None), ("AutoContrast", 0.6, None)),
        (("Equalize", 0.2, None), ("Equalize", 0.6, None)), (("Color", 0.9, 9), ("Equalize", 0.6, None)),
        (("AutoContrast", 0.8, None), ("Solarize", 0.2, 8)), (("Brightness", 0.1, 3), ("Color", 0.7, 0)),
        (("Solarize", 0.4, 5), ("AutoContrast", 0.9, None)), (("TranslateY", 0.9, 9), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.9, None), ("Solarize", 0.8, 3)), (("Equalize", 0.8, None), ("Invert", 0.1, None)),
        (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, None)),
    ],
    AutoAugmentPolicy.SVHN: [
        (("ShearX", 0.9, 4), ("Invert", 0.2, None)), (("ShearY", 0.9, 8), ("Invert", 0.7, None)),
        (("Equalize", 0.6, None), ("Solarize", 0.6, 6)), (("Invert", 0.9, None), ("Equalize", 0.6, None)),
        (("Equalize", 0.6, None), ("Rotate", 0.9, 3)), (("ShearX", 0.9, 4), ("AutoContrast", 0.8, None)),
        (("ShearY", 0.9, 8), ("Invert", 0.4, None)), (("ShearY", 0.9, 5), ("Solarize", 0.2, 6)),
        (("Invert", 0.9, None), ("AutoContrast", 0.8, None)), (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
        (("ShearX", 0.9, 4), ("Solarize", 0.3, 3)), (("ShearY", 0.8, 8), ("Invert", 0.7, None)),
        (("Equalize", 0.9, None), ("TranslateY", 0.6, 6)), (("Invert", 0.9, None), ("Equalize", 0.6, None)),
        (("Contrast", 0.3, 3), ("Rotate", 0.8, 4)), (("Invert", 0.8, None), ("TranslateY", 0.0, 2)),
        (("ShearY", 0.7, 6), ("Solarize", 0.4, 8)), (("Invert", 0.6, None), ("Rotate", 0.8, 4)),
        (("ShearY", 0.3, 7), ("TranslateX", 0.9, 3)), (("ShearX", 0.1, 6), ("Invert", 0.6, None)),
        (("Solarize", 0.7, 2), ("TranslateY", 0.6, 7)), (("ShearY", 0.8, 4), ("Invert", 0.8, None)),
        (("ShearX", 0.7, 9), ("TranslateY", 0.8, 3)), (("ShearY", 0.8, 5), ("AutoContrast", 0.7, None)),
        (("ShearX", 0.7, 2), ("Invert", 0.1, None)),
    ],
}


class AutoAugment(_Augment):
    """AutoAugment: apply one of the 25 learned sub-policies of ``policy`` (drawn uniformly); each of its
    two operations runs with its own probability at its magnitude bin (of 10; direction drawn at random).

    Args:
        policy (AutoAugmentPolicy, optional): IMAGENET, CIFAR10 or SVHN. Default: ``AutoAugmentPolicy.IMAGENET``.
        interpolation (Inter, optional): for the geometric operations. Default: ``Inter.NEAREST``.
        fill_value (Union[int, tuple[int, int, int]], optional): value outside the image. Default: ``0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.AutoAugment()(np.zeros((8, 8, 3), np.uint8)).shape
        (8, 8, 3)
    """

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST, fill_value=0):
        self.policy = check_type(policy, AutoAugmentPolicy, "policy")
        super().__init__(interpolation, fill_value)

    def __call__(self, image):
        image = _check_rgb("AutoAugment", image)
        space = _space(10, image.shape[0], image.shape[1], wide=False)
        space["Invert"] = (np.zeros(10), False)
        space["Solarize"] = (_linspace(256.0, 0.0, 10), False)    # 2.10's AutoAugment space: from 256
        # 2.10's GetParams: the sub-policy (uniform_int_distribution), two uniform_real_distribution<float>
        # draws for the steps' probabilities, two uniform_int_distribution(0, 1) signs (0 negates)
        engine = op_engine(self)
        policies = _POLICIES[self.policy]
        chosen = policies[cxx_random.std_uniform_int(engine, 0, len(policies) - 1)]
        probs = [cxx_random.std_uniform_real(engine, 0.0, 1.0, single=True) for _ in range(2)]
        signs = [cxx_random.std_uniform_int(engine, 0, 1) for _ in range(2)]
        for (name, prob, level), drawn, sign in zip(chosen, probs, signs):
            if drawn > np.float32(prob):
                continue
            values, signed = space[name]
            magnitude = float(values[level]) if level is not None else 0.0
            if signed and sign == 0:
                magnitude = -magnitude
            image = self._op(image, name, magnitude)
        return image

