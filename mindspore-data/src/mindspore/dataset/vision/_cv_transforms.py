"""Vision transforms that MindSpore implements with OpenCV only (no Pillow counterpart): Affine,
Perspective, GaussianBlur, SlicePatches and their random forms (RandomPerspective), and
RandomLighting (AlexNet's PCA lighting noise). Re-exported by ``mindspore.dataset.vision.transforms``.
"""
import math
import numbers
import random

import numpy as np
from PIL import Image

from mindspore.plugin import MSTypeError, MSValueError
from mindspore.dataset.transforms._base import (
    check_float, check_int, check_sequence, check_type, op_engine, runtime_error)
from mindspore.dataset.engine import cxx_random
from mindspore.dataset.vision import _image as img
from mindspore.dataset.vision._validators import check_fill_value, check_inter
from mindspore.dataset.vision.utils import Inter, SliceMode

__all__ = ["Affine", "GaussianBlur", "Perspective", "RandomLighting", "RandomPerspective", "SlicePatches"]

_INT_MAX = 2147483647
_FLOAT_MAX = 16777216.0


def affine_matrix(height, width, degrees, translate, scale, shear):
    """MindSpore's forward affine matrix ``T * C * RSS * C^-1`` (row-major ``2 x 3``, float32 entries):
    rotation by ``degrees`` (clockwise on screen: y points down), ``scale``, shears ``(sx, sy)`` in degrees, a
    translation in pixels, all about the centre ``((W - 1) / 2, (H - 1) / 2)``."""
    f32 = np.float32
    angle = f32(math.pi * degrees / 180.0)
    shear_x = f32(math.pi * shear[0] / 180.0)
    shear_y = f32(math.pi * -shear[1] / 180.0)
    cx, cy = f32((width - 1) / 2.0), f32((height - 1) / 2.0)
    a, sx, sy = float(angle), float(shear_x), float(shear_y)
    m0 = f32(scale * math.cos(a + sy) / math.cos(sy))
    m1 = f32(scale * (-math.cos(a + sy) * math.tan(sx) / math.cos(sy) - math.sin(a)))
    m3 = f32(scale * math.sin(a + sy) / math.cos(sy))
    m4 = f32(scale * (-math.sin(a + sy) * math.tan(sx) / math.cos(sy) + math.cos(a)))
    m2 = (f32(1) - m0) * cx - m1 * cy + f32(translate[0])
    m5 = (f32(1) - m4) * cy - m3 * cx + f32(translate[1])
    return np.array([[m0, m1, m2], [m3, m4, m5]], dtype=np.float64)


def _check_shear(shear):
    if isinstance(shear, numbers.Number) and not isinstance(shear, bool):
        check_float(shear, "shear", -180.0, 180.0)
        return float(shear), 0.0
    check_sequence(shear, "shear", (2,))
    for value in shear:
        check_float(value, "shear", -180.0, 180.0)
    return float(shear[0]), float(shear[1])


class Affine(img.ImageTensorOperation):
    """Apply an affine transformation about the image centre, keeping the image size (``cv2.warpAffine``).

    Args:
        degrees (Union[int, float]): rotation angle in degrees, clockwise.
        translate (Sequence[float]): ``(tx, ty)``, fractions of the width and height in [-1, 1].
        scale (float): scale factor, positive.
        shear (Union[float, Sequence[float]]): shear angles in degrees in [-180, 180]: one number for the
            X axis, or ``(sx, sy)``.
        resample (Inter, optional): NEAREST, BILINEAR, BICUBIC or AREA. Default: ``Inter.NEAREST``.
        fill_value (Union[int, tuple[int, int, int]], optional): value of pixels outside the image.
            Default: ``0``.

    Raises:
        TypeError: wrong argument types; ``translate`` not of length 2.
        ValueError: ``translate`` outside [-1, 1], ``scale`` not positive, ``shear`` outside [-180, 180].
        RuntimeError: the image is not ``<H, W>`` or ``<H, W, C>``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.Affine(30, [0.1, 0.0], 1.2, 0.0)(np.zeros((8, 10, 3), np.uint8)).shape
        (8, 10, 3)
    """

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0):
        check_type(degrees, (int, float), "degrees")
        self.degrees = float(degrees)
        check_type(translate, (list, tuple), "translate")
        if len(translate) != 2:
            raise MSTypeError("The length of translate should be 2.")
        for index, value in enumerate(translate):
            check_float(value, f"translate[{index}]", -1.0, 1.0)
        self.translate = [float(v) for v in translate]
        check_type(scale, (int, float), "scale")
        if scale <= 0:
            raise MSValueError("Input scale must be greater than 0.")
        self.scale = float(scale)
        self.shear = _check_shear(shear)
        self.resample = check_inter(resample, "resample")
        self.fill_value = check_fill_value(fill_value)

    def _np(self, image, _):
        img.check_image("Affine", image)
        height, width = image.shape[:2]
        translate = (np.float32(self.translate[0]) * np.float32(width),
                     np.float32(self.translate[1]) * np.float32(height))
        matrix = affine_matrix(height, width, self.degrees, translate, self.scale, self.shear)
        return img.affine_np(image, matrix, self.resample, self.fill_value)


def _check_points(points, name):
    if not isinstance(points, (list, tuple)) or len(points) != 4:
        raise MSTypeError(f"{name} should be a list or tuple of length 4.")
    out = []
    for i, point in enumerate(points):
        if not isinstance(point, (list, tuple)) or len(point) != 2:
            raise MSTypeError(f"{name}[{i}] should be a list or tuple of length 2.")
        for j, value in enumerate(point):
            check_int(value, f"{name}[{i}][{j}]", -_INT_MAX - 1, _INT_MAX)
        out.append((int(point[0]), int(point[1])))
    return out


class Perspective(img.ImageTensorOperation):
    """Warp the image so that the quadrilateral ``start_points`` lands on ``end_points``
    (``cv2.getPerspectiveTransform`` + ``cv2.warpPerspective``; zeros outside).

    Args:
        start_points (Sequence[Sequence[int, int]]): the four corners ``[x, y]`` of the source quadrilateral.
        end_points (Sequence[Sequence[int, int]]): where they go.
        interpolation (Inter, optional): NEAREST, BILINEAR, BICUBIC or AREA. Default: ``Inter.BILINEAR``.

    Raises:
        TypeError: the points are not 4 pairs of ints, or ``interpolation`` is not an Inter.
        RuntimeError: the image is not ``<H, W>`` or ``<H, W, C>``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> op = vision.Perspective([[0, 0], [9, 0], [9, 7], [0, 7]], [[1, 1], [8, 0], [9, 7], [0, 6]])
        >>> op(np.zeros((8, 10, 3), np.uint8)).shape
        (8, 10, 3)
    """

    def __init__(self, start_points, end_points, interpolation=Inter.BILINEAR):
        self.start_points = _check_points(start_points, "start_points")
        self.end_points = _check_points(end_points, "end_points")
        self.interpolation = check_inter(interpolation)

    def _np(self, image, _):
        img.check_image("Perspective", image)
        return img.perspective_np(image, self.start_points, self.end_points, self.interpolation)


def perspective_coeffs(start_points, end_points):
    """Pillow's PERSPECTIVE data (output -> input mapping) sending ``start_points`` to ``end_points``."""
    rows = []
    for (x1, y1), (x0, y0) in zip(end_points, start_points):
        rows.append([x1, y1, 1, 0, 0, 0, -x0 * x1, -x0 * y1])
        rows.append([0, 0, 0, x1, y1, 1, -y0 * x1, -y0 * y1])
    target = np.array(start_points, dtype=float).reshape(8)
    return np.linalg.lstsq(np.array(rows, dtype=float), target, rcond=None)[0].tolist()


class RandomPerspective(img.ImageTensorOperation):
    """With probability ``prob``, move each corner of a PIL image inwards by a random amount (up to
    ``distortion_scale`` of half the width/height) and warp the image accordingly (Pillow's perspective
    transform, as MindSpore's Python implementation; NumPy images are refused, as there).

    Args:
        distortion_scale (float, optional): in [0, 1]. Default: ``0.5``.
        prob (float, optional): probability of the warp, in [0, 1]. Default: ``0.5``.
        interpolation (Inter, optional): NEAREST, BILINEAR or BICUBIC. Default: ``Inter.BICUBIC``.

    Raises:
        ValueError: the image is not a PIL image.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> pil = vision.ToPIL()(np.zeros((8, 10, 3), np.uint8))
        >>> vision.RandomPerspective(prob=1.0)(pil).size
        (10, 8)
    """

    random = True

    def __init__(self, distortion_scale=0.5, prob=0.5, interpolation=Inter.BICUBIC):
        self.distortion_scale = check_float(distortion_scale, "distortion_scale", 0.0, 1.0)
        self.prob = check_float(prob, "prob", 0.0, 1.0)
        self.interpolation = check_inter(interpolation)

    def _params(self, image):
        if not img.is_pil(image):
            raise MSValueError("Input image should be a Pillow image.")
        # 2.10's RandomPerspective is a Python transform: Python's global generator (seeded by ds.config.set_seed)
        if not self.prob > random.random():
            return None
        width, height = image.size
        half_w, half_h = int(width / 2 * self.distortion_scale), int(height / 2 * self.distortion_scale)
        draw = random.randint
        top_left = (draw(0, half_w), draw(0, half_h))
        top_right = (draw(width - half_w - 1, width - 1), draw(0, half_h))
        bottom_right = (draw(width - half_w - 1, width - 1), draw(height - half_h - 1, height - 1))
        bottom_left = (draw(0, half_w), draw(height - half_h - 1, height - 1))
        start = [(0, 0), (width - 1, 0), (width - 1, height - 1), (0, height - 1)]
        return start, [top_left, top_right, bottom_right, bottom_left]

    def _pil(self, image, points):
        if points is None:
            return image
        return image.transform(image.size, Image.Transform.PERSPECTIVE, perspective_coeffs(*points),
                               img.WARP_FILTERS[self.interpolation])

    def _np(self, image, points):
        raise MSValueError("Input image should be a Pillow image.")


def _pair(value, name, message, check):
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        check(value, name)
        return (value,)
    if not isinstance(value, (list, tuple)) or len(value) not in (1, 2):
        raise MSTypeError(message)
    for item in value:
        check(item, name)
    return tuple(value)


def _odd_kernel(value, name):
    check_int(value, name, 1, _INT_MAX)
    if value % 2 == 0:
        raise MSValueError(f"Input {name} is not an odd value.")


class GaussianBlur(img.ImageTensorOperation):
    """Blur with a Gaussian kernel (``cv2.GaussianBlur``, reflect-101 borders).

    Args:
        kernel_size (Union[int, Sequence[int]]): odd positive kernel size, or ``(width, height)``.
        sigma (Union[float, Sequence[float]], optional): standard deviation, or ``(sigma_x, sigma_y)``;
            ``None`` (or 0) derives it from the kernel size: ``0.3 * ((k - 1) * 0.5 - 1) + 0.8``.
            Default: ``None``.

    Raises:
        TypeError: wrong argument types or lengths.
        ValueError: an even or non-positive kernel size, a negative sigma.
        RuntimeError: the image is not ``<H, W>`` or ``<H, W, C>``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.GaussianBlur(3, 1.0)(np.zeros((8, 10, 3), np.uint8)).shape
        (8, 10, 3)
    """

    def __init__(self, kernel_size, sigma=None):
        self.kernel_size = _pair(kernel_size, "kernel_size", "Kernel size should be a single integer or a list/tuple "
                                 "(kernel_width, kernel_height) of length 2.", _odd_kernel)
        if sigma is None:
            sigma = (0,)
        self.sigma = _pair(sigma, "sigma", "Sigma should be a single number or a list/tuple of length 2 for width "
                           "and height.", lambda v, n: check_float(v, n, 0.0, _FLOAT_MAX))

    def _np(self, image, _):
        kernel = self.kernel_size * 2 if len(self.kernel_size) == 1 else self.kernel_size
        sigma = self.sigma * 2 if len(self.sigma) == 1 else self.sigma
        # a zero sigma is derived here, as MindSpore does, rather than by OpenCV (whose fixed tables
        # for kernels up to 7 differ from the formula)
        sigma = tuple(float(np.float32(s if s > 0 else ((k - 1) * 0.5 - 1) * 0.3 + 0.8)) for s, k in zip(sigma, kernel))
        return img.gaussian_blur_np(image, kernel, sigma)


class SlicePatches(img.ImageTensorOperation):
    """Cut an image into ``num_height x num_width`` patches (row by row). When the size does not divide
    evenly, ``SliceMode.PAD`` pads the right and bottom with ``fill_value`` so that every patch has the
    rounded-up size, and ``SliceMode.DROP`` drops the remainder.

    Args:
        num_height (int, optional): patches along the height. Default: ``1``.
        num_width (int, optional): patches along the width. Default: ``1``.
        slice_mode (SliceMode, optional): PAD or DROP. Default: ``SliceMode.PAD``.
        fill_value (int, optional): padding value in [0, 255]. Default: ``0``.

    Returns:
        tuple of numpy.ndarray, the patches (one column each in a ``map``); for ``1 x 1`` the image itself.

    Raises:
        RuntimeError: more patches than pixels along an axis.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> [p.shape for p in vision.SlicePatches(2, 2)(np.zeros((5, 4, 3), np.uint8))]
        [(3, 2, 3), (3, 2, 3), (3, 2, 3), (3, 2, 3)]
        >>> # in a map, one output column per patch
        >>> import mindspore.dataset as ds
        >>> data = ds.NumpySlicesDataset({"image": np.zeros((1, 5, 4, 3), np.uint8)}, shuffle=False)
        >>> data = data.map(vision.SlicePatches(1, 2), "image", ["p0", "p1"])
        >>> [c.shape for c in next(data.create_tuple_iterator(output_numpy=True))]
        [(5, 2, 3), (5, 2, 3)]
    """

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        self.num_height = check_int(num_height, "num_height", 1, _INT_MAX)
        self.num_width = check_int(num_width, "num_width", 1, _INT_MAX)
        self.slice_mode = check_type(slice_mode, SliceMode, "slice_mode")
        self.fill_value = check_int(fill_value, "fill_value", 0, 255)

    def __call__(self, image):
        if hasattr(image, "asnumpy"):
            image = image.asnumpy()
        image = np.array(image) if img.is_pil(image) else image
        if not isinstance(image, np.ndarray):
            raise MSTypeError(f"Input should be NumPy or PIL image, got {type(image)}.")
        return self._slice(image)

    def _slice(self, image):
        img.check_image("SlicePatches", image)
        if self.num_height == 1 and self.num_width == 1:
            return image
        height, width = image.shape[:2]
        for count, size, axis in ((self.num_height, height, "height"), (self.num_width, width, "width")):
            if count > size:
                raise runtime_error("SlicePatches", f"The number of patches on {axis} axis equals 0 or is greater "
                                    f"than {axis}, got number of patches:{count}")
        pad = self.slice_mode == SliceMode.PAD
        patch_h = height // self.num_height + (1 if pad and height % self.num_height else 0)
        patch_w = width // self.num_width + (1 if pad and width % self.num_width else 0)
        if pad:
            canvas = np.full((patch_h * self.num_height, patch_w * self.num_width) + image.shape[2:], self.fill_value,
                             dtype=image.dtype)
            canvas[:height, :width] = image
        else:
            canvas = image
        # a tuple, as MindSpore returns it: a map gives each patch its own output column
        return tuple(canvas[i * patch_h:(i + 1) * patch_h, j * patch_w:(j + 1) * patch_w].copy()
                     for i in range(self.num_height) for j in range(self.num_width))


# AlexNet's ImageNet RGB eigenvalues times eigenvectors (the columns scale the three noise draws)
_PCA = np.array([[55.46 * -0.5675, 4.794 * 0.7192, 1.148 * 0.4009],
                 [55.46 * -0.5808, 4.794 * -0.0045, 1.148 * -0.8140],
                 [55.46 * -0.5836, 4.794 * -0.6948, 1.148 * 0.4203]], dtype=np.float32)


class RandomLighting(img.ImageTensorOperation):
    """AlexNet-style PCA lighting noise: add ``eig @ (N(0, alpha) draws)`` to the R, G, B channels.

    Args:
        alpha (float, optional): standard deviation of the three draws, non-negative. Default: ``0.05``.

    Raises:
        RuntimeError: the image is not ``<H, W, 3>``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.RandomLighting(0.1)(np.zeros((4, 4, 3), np.uint8)).shape
        (4, 4, 3)
    """

    random = True

    def __init__(self, alpha=0.05):
        self.alpha = check_float(alpha, "alpha", 0.0, _FLOAT_MAX)

    def _params(self, image):
        if self.alpha == 0:
            return None
        # 2.10's RandomLightingOp: three draws of its member std::normal_distribution<float>(0, alpha)
        engine = op_engine(self)
        return np.array([cxx_random.std_normal_float(engine, 0.0, self.alpha) for _ in range(3)], np.float32)

    def _np(self, image, draws):
        if image.ndim != 3 or image.shape[2] != 3:
            raise runtime_error("RandomLighting", f"input tensor is not in shape of <H,W,C> or channel is not 3, got "
                                f"rank: {image.ndim}, and channel: {image.shape[-1] if image.ndim else 0}")
        if draws is None:
            return image.copy()
        # float arithmetic, left to right, as 2.10's RandomLighting
        shift = (_PCA[:, 0] * draws[0] + _PCA[:, 1] * draws[1]) + _PCA[:, 2] * draws[2]
        return img.saturate(image.astype(np.float32) + shift.astype(np.float32), image.dtype)
