"""Image kernels of the vision transforms. NumPy images go through OpenCV, as in MindSpore's C++ ops
(resize, warps, blur, colour conversions, histogram ops), with MindSpore's own arithmetic where its
ops compute by hand (contrast, hue, auto-contrast, gamma, posterize) and OpenCV's rounding where
NumPy would round differently (float32 factors, fused multiply-add blends, half-to-even
saturation); PIL images and the two Pillow-defined modes (``Inter.PILCUBIC``, ``Inter.ANTIALIAS``) go
through Pillow. ``tests/test_vision_reference.py`` checks the pixels against MindSpore 2.10's.

Pillow works on a few pixel layouts only (``Image.fromarray`` infers them: ``L``, ``RGB``, ``F``), so
an ``(H, W[, C])`` NumPy image handed to Pillow is split into *planes*: one ``RGB`` image for uint8
with 3 channels, one ``L`` image for uint8 with 1 channel, one ``L`` image per channel for other
uint8 images, and one 32-bit float ``F`` image per channel for every other dtype (integers are
rounded and clipped back, floats cast back).

OpenCV takes ``(H, W)`` and ``(H, W, C)`` arrays of uint8, int8, uint16, int16, int32, float32 and
float64 (other dtypes raise MindSpore's "Cannot convert ... to OpenCV type" error); it drops a
trailing channel axis of 1, which :func:`cv_out` restores.

Calling convention (as MindSpore's unified transforms): a transform takes one or more images,
NumPy arrays or PIL images. A transform that has a Pillow path (``_pil``) and gets PIL images
returns PIL images; otherwise PIL inputs are converted to arrays and arrays come out. A random
transform draws its parameters once per call, so several images in one call (an image and its
mask) get the same crop or flip.
"""
import cv2
import numpy as np
from PIL import Image, ImageEnhance

from mindspore.plugin import MSTypeError, MSValueError
from mindspore.dataset.transforms._base import TensorOperation, is_pil, runtime_error, single_or_tuple
from mindspore.dataset.vision.utils import Border, Inter

_R = Image.Resampling
RESIZE_FILTERS = {Inter.NEAREST: _R.NEAREST, Inter.BILINEAR: _R.BILINEAR, Inter.BICUBIC: _R.BICUBIC,
                  Inter.PILCUBIC: _R.BICUBIC, Inter.AREA: _R.BOX, Inter.ANTIALIAS: _R.LANCZOS}
# Pillow's geometric warps take only these three; area averaging is meaningless for a warp.
WARP_FILTERS = {Inter.NEAREST: _R.NEAREST, Inter.BILINEAR: _R.BILINEAR, Inter.BICUBIC: _R.BICUBIC,
                Inter.PILCUBIC: _R.BICUBIC, Inter.AREA: _R.BILINEAR}


def check_image(op_name, image, ranks=(2, 3)):
    """Raise MindSpore's RuntimeError unless the array image has one of ``ranks``."""
    if image.ndim not in ranks:
        shapes = {2: "<H, W>", 3: "<H, W, C>"}
        want = " or ".join(shapes.get(r, f"rank {r}") for r in ranks)
        raise runtime_error(op_name, f"the input image should be in shape of {want}, but got rank: {image.ndim}.")
    return image


def image_hw(image):
    """``(height, width)`` of an array or PIL image."""
    if is_pil(image):
        return image.size[1], image.size[0]
    return int(image.shape[0]), int(image.shape[1])


def num_channels(image):
    return 1 if image.ndim == 2 else image.shape[2]


def fill_for(fill, channels):
    """The fill value of each listed channel (OpenCV's Scalar: missing channels are 0)."""
    return tuple(int(fill[c]) if c < len(fill) else 0 for c in channels)


# ----------------------------------------------------------------------------------------------------------------
# OpenCV plumbing

CV_INTER = {Inter.NEAREST: cv2.INTER_NEAREST, Inter.BILINEAR: cv2.INTER_LINEAR, Inter.BICUBIC: cv2.INTER_CUBIC,
            Inter.AREA: cv2.INTER_AREA, Inter.PILCUBIC: cv2.INTER_CUBIC, Inter.ANTIALIAS: cv2.INTER_LINEAR}
# MindSpore 2.10's OpenCV 4.11 runs the scalar code of bicubic resizes and bilinear warps; the
# dispatched SIMD code of the opencv-python wheels rounds some pixels by up to a few levels
# differently, so the optimised paths are switched off. setUseOptimized is process-wide, but the IPP part of it
# is kept per thread (and a second setUseOptimized(False) is a no-op): cv_in switches IPP off in every other
# thread (pipeline workers), where it would otherwise stay on.
cv2.setUseOptimized(False)
# the dtypes MindSpore hands to OpenCV (int64, uint32, uint64 have no OpenCV type)
_CV_DTYPES = (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.float16, np.float32, np.float64)


def check_cv_dtype(op_name, image):
    """MindSpore's error for image dtypes OpenCV has no type for."""
    if image.dtype not in _CV_DTYPES:
        names = ", ".join(np.dtype(d).name for d in _CV_DTYPES)
        raise runtime_error(op_name, f"the data type of image tensor does not match the requirement of operator. "
                            f"Expecting tensor in type of ({names}). But got type {image.dtype}.")
    return image


def cv_in(op_name, image, ranks=(2, 3), max_channels=None):
    """``image`` as an array OpenCV takes (MindSpore's rank and dtype errors otherwise); the warps
    take at most 4 channels."""
    check_image(op_name, image, ranks)
    check_cv_dtype(op_name, image)
    if cv2.ipp.useIPP():        # a thread that has not switched IPP off yet (see above)
        cv2.ipp.setUseIPP(False)
    if max_channels is not None and image.ndim == 3 and image.shape[2] > max_channels:
        raise runtime_error(op_name, f"the channel of the input image should be at most {max_channels}, but got "
                            f"{image.shape[2]}.")
    return np.ascontiguousarray(image)


def cv_out(out, like):
    """OpenCV's result with ``like``'s rank (OpenCV drops a channel axis of 1)."""
    if like.ndim == 3 and out.ndim == 2:
        return out[:, :, None]
    return out


def cv_round(value):
    """OpenCV's ``cvRound``: round half to even."""
    return int(np.rint(value))


def fill_scalar(fill, image):
    """OpenCV's border Scalar for a per-channel ``fill`` (an RGB triple; missing channels are 0)."""
    values = [float(v) for v in fill] + [0.0] * (4 - len(fill))
    if image.ndim == 2 or image.shape[2] == 1:
        return (values[0], 0.0, 0.0, 0.0)
    return tuple(values[:4])


# ----------------------------------------------------------------------------------------------------------------
# planes: NumPy image <-> Pillow images

def to_planes(image):
    """Split an ``(H, W[, C])`` array into ``[(pil_image, channel_indices), ...]``."""
    if image.dtype == np.uint8:
        if image.ndim == 2:
            return [(Image.fromarray(np.ascontiguousarray(image)), (0,))]
        if image.shape[2] == 3:
            return [(Image.fromarray(np.ascontiguousarray(image)), (0, 1, 2))]
        return [(Image.fromarray(np.ascontiguousarray(image[:, :, c])), (c,)) for c in range(image.shape[2])]
    if image.dtype.kind not in "iuf":
        raise runtime_error("Image", f"unsupported image data type {image.dtype}.")
    floats = image.astype(np.float32)
    if floats.ndim == 2:
        return [(Image.fromarray(floats), (0,))]
    return [(Image.fromarray(np.ascontiguousarray(floats[:, :, c])), (c,)) for c in range(floats.shape[2])]


def from_planes(pils, like):
    """Reassemble Pillow planes into an array of ``like``'s dtype and layout."""
    arrays = [np.array(p) for p in pils]
    if like.ndim == 2:
        out = arrays[0]
    elif len(arrays) == 1 and arrays[0].ndim == 3:
        out = arrays[0]
    else:
        out = np.stack(arrays, axis=2)
    if out.dtype == like.dtype:
        return out
    if like.dtype.kind in "iu":
        info = np.iinfo(like.dtype)
        return np.clip(np.rint(out), info.min, info.max).astype(like.dtype)
    return out.astype(like.dtype)


def map_planes(image, fn):
    """Apply ``fn(pil_image, channel_indices) -> pil_image`` to every plane of an array image."""
    planes = to_planes(image)
    return from_planes([fn(pil, channels) for pil, channels in planes], image)


# ----------------------------------------------------------------------------------------------------------------
# geometry

def resize_np(image, height, width, interpolation):
    """Resize as MindSpore: ``cv2.resize`` for NEAREST/LINEAR/CUBIC/AREA, MindSpore's Pillow-style
    bicubic for PILCUBIC (uint8 RGB only), Pillow's Lanczos for ANTIALIAS."""
    if interpolation == Inter.PILCUBIC:
        if image.ndim != 3 or image.shape[2] != 3:
            raise runtime_error("Resize", f"Interpolation mode PILCUBIC only supports image with 3 channels, "
                                f"but got: {list(image.shape)}.")
    if interpolation in (Inter.PILCUBIC, Inter.ANTIALIAS):
        flt = RESIZE_FILTERS[interpolation]
        return map_planes(image, lambda pil, _: pil.resize((width, height), flt))
    if height > image.shape[0] * 1000 or width > image.shape[1] * 1000:
        raise runtime_error("Resize", f"the resizing width or height is too big, it's 1000 times bigger than the "
                            f"original image, got output height: {height}, width: {width}, and original image "
                            f"size:{image.shape[0]}, {image.shape[1]}.")
    src = cv_in("Resize", image)
    return cv_out(cv2.resize(src, (int(width), int(height)), interpolation=CV_INTER[interpolation]), image)


def crop_np(image, top, left, height, width):
    check_cv_dtype("Crop", image)
    return image[top:top + height, left:left + width].copy()


def pad_np(image, top, bottom, left, right, mode=Border.CONSTANT, fill=(0, 0, 0)):
    """Pad an ``(H, W[, C])`` array; CONSTANT uses ``fill`` per channel."""
    check_cv_dtype("Pad", image)
    widths = ((top, bottom), (left, right)) + (((0, 0),) if image.ndim == 3 else ())
    mode = Border(mode)
    if mode != Border.CONSTANT:
        if image.shape[0] == 0 or image.shape[1] == 0:
            raise runtime_error("Pad", "can not pad an empty image with a non-constant padding mode.")
        return np.pad(image, widths, mode=mode.value)
    height, width = image.shape[:2]
    value, cv_value = _pad_values(fill, image)
    if cv_value is not None and image.size:
        # OpenCV's copyMakeBorder (as 2.10's Pad): 20x NumPy's fill-then-copy on a 32x32 image; the fill values are
        # already of the image's dtype, so OpenCV's conversion of them is exact
        out = cv2.copyMakeBorder(np.ascontiguousarray(image), top, bottom, left, right, cv2.BORDER_CONSTANT,
                                 value=cv_value)
        return out.reshape(out.shape[:2] + image.shape[2:])
    out = np.empty((height + top + bottom, width + left + right) + image.shape[2:], dtype=image.dtype)
    out[...] = value
    out[top:top + height, left:left + width] = image
    return out


_CV_BORDER_DTYPES = frozenset(map(np.dtype, (np.uint8, np.int8, np.uint16, np.int16, np.int32, np.float32,
                                               np.float64)))
_PAD_VALUES = {}


def _pad_values(fill, image):
    """(the fill of ``image``'s pixels in its dtype, the same as OpenCV's border scalar or None where OpenCV can not
    pad the image), kept per (fill, channels, dtype): a pipeline pads every image with the same fill."""
    key = (fill if isinstance(fill, tuple) else tuple(fill), image.ndim, image.shape[2:], image.dtype)
    found = _PAD_VALUES.get(key)
    if found is None:
        value = np.asarray(fill_for(fill, range(num_channels(image))), dtype=np.float64).astype(image.dtype) \
            if image.ndim == 3 else image.dtype.type(fill[0])
        cv_value = None
        if image.dtype in _CV_BORDER_DTYPES and (image.ndim == 2 or image.shape[2] <= 4):
            cv_value = (tuple(float(v) for v in np.atleast_1d(value)) + (0.0,) * 3)[:4]
        found = (value, cv_value)
        if len(_PAD_VALUES) < 256:
            _PAD_VALUES[key] = found
    return found


def rotate_np(image, angle, interpolation, expand, center, fill):
    """Rotate counter-clockwise by ``angle`` degrees about ``center`` ((x, y), default the middle
    ``((W - 1) / 2, (H - 1) / 2)``) with ``cv2.warpAffine``; ``expand`` grows the canvas to the bounding
    box of the rotated image (OpenCV's ``RotatedRect.boundingRect2f``)."""
    src = cv_in("Rotate", image, max_channels=4)
    height, width = image.shape[:2]
    if center is None:
        cx, cy = np.float32((width - 1) / 2.0), np.float32((height - 1) / 2.0)
    else:
        cx, cy = np.float32(center[0]), np.float32(center[1])
    matrix = cv2.getRotationMatrix2D((float(cx), float(cy)), float(np.float32(angle)), 1.0)
    size = (width, height)
    if expand:
        corners = cv2.boxPoints(((float(cx), float(cy)), (float(width), float(height)), float(np.float32(angle))))
        box_w = np.float32(corners[:, 0].max() - corners[:, 0].min())
        box_h = np.float32(corners[:, 1].max() - corners[:, 1].min())
        matrix[0, 2] += float(box_w) / 2.0 - width / 2.0
        matrix[1, 2] += float(box_h) / 2.0 - height / 2.0
        size = (cv_round(box_w), cv_round(box_h))
    # MindSpore hands Rotate's fill to OpenCV as Scalar(b, g, r): channel 0 gets the third value
    fill = (fill[2], fill[1], fill[0]) if len(fill) == 3 else fill
    return cv_out(cv2.warpAffine(src, matrix, size, flags=CV_INTER[interpolation],
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=fill_scalar(fill, image)), image)


def affine_np(image, matrix, interpolation, fill, op_name="Affine"):
    """``cv2.warpAffine`` with the forward ``2 x 3`` ``matrix`` (output = matrix @ input), same size."""
    src = cv_in(op_name, image, max_channels=4)
    height, width = image.shape[:2]
    return cv_out(cv2.warpAffine(src, np.asarray(matrix, np.float64).reshape(2, 3), (width, height),
                                 flags=CV_INTER[interpolation], borderMode=cv2.BORDER_CONSTANT,
                                 borderValue=fill_scalar(fill, image)), image)


def perspective_np(image, start_points, end_points, interpolation, op_name="Perspective"):
    """Map the quadrilateral ``start_points`` onto ``end_points`` (``cv2.getPerspectiveTransform`` +
    ``cv2.warpPerspective``, zeros outside)."""
    src = cv_in(op_name, image, max_channels=4)
    height, width = image.shape[:2]
    matrix = cv2.getPerspectiveTransform(np.asarray(start_points, np.float32), np.asarray(end_points, np.float32))
    return cv_out(cv2.warpPerspective(src, matrix, (width, height), flags=CV_INTER[interpolation],
                                      borderMode=cv2.BORDER_CONSTANT), image)


def gaussian_blur_np(image, kernel, sigma):
    """``cv2.GaussianBlur`` with kernel ``(kx, ky)`` and sigmas ``(sx, sy)`` (0 derives sigma from the
    kernel size), reflect-101 borders."""
    src = cv_in("GaussianBlur", image)
    return cv_out(cv2.GaussianBlur(src, (int(kernel[0]), int(kernel[1])), float(sigma[0]), sigmaY=float(sigma[1])),
                  image)


def rotate_pil(pil, angle, interpolation, expand, center, fill):
    return pil.rotate(angle, resample=WARP_FILTERS[interpolation], expand=expand, center=center,
                      fillcolor=fill if len(fill) > 1 else fill[0])


def affine_pil(pil, matrix, interpolation, fill):
    return pil.transform(pil.size, Image.Transform.AFFINE, matrix, resample=WARP_FILTERS[interpolation],
                         fillcolor=fill if len(fill) > 1 else fill[0])


# ----------------------------------------------------------------------------------------------------------------
# colour (uint8 RGB or grayscale, through Pillow)

def as_color_pil(op_name, image):
    """A uint8 RGB/grayscale array as a PIL image (colour ops need 8-bit pixels)."""
    if image.dtype != np.uint8:
        raise runtime_error(op_name, f"the input image should be uint8, but got {image.dtype}.")
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if image.ndim == 3 and image.shape[2] != 3:
        raise runtime_error(op_name, f"the channel of the input image should be 3, but got {image.shape[2]}.")
    check_image(op_name, image)
    return Image.fromarray(np.ascontiguousarray(image))


def back_to_shape(pil, like):
    out = np.array(pil)
    return out.reshape(like.shape)


def adjust_brightness(pil, factor):
    return ImageEnhance.Brightness(pil).enhance(factor)


def adjust_contrast(pil, factor):
    return ImageEnhance.Contrast(pil).enhance(factor)


def adjust_saturation(pil, factor):
    return ImageEnhance.Color(pil).enhance(factor)


def adjust_hue(pil, factor):
    """Rotate the hue by ``factor`` of a turn (in [-0.5, 0.5]) in Pillow's 8-bit HSV space."""
    shift = int(factor * 255) % 256
    if pil.mode in ("L", "1", "I", "F"):
        return pil
    # as 2.10's Python adjust_hue: Pillow's lossy HSV round trip even for a zero shift
    hue, saturation, value = pil.convert("HSV").split()
    shifted = (np.array(hue, dtype=np.int32) + shift) % 256
    hue = Image.fromarray(shifted.astype(np.uint8))
    return Image.merge("HSV", (hue, saturation, value)).convert(pil.mode)


# ----------------------------------------------------------------------------------------------------------------
# colour on arrays (MindSpore's C++ arithmetic: OpenCV calls, float32 products, uint8 saturation)

def validate_image(op_name, image, ranks=None, channels=None, dtypes=None):
    """MindSpore's ``ValidateImage`` checks and messages (dtype, then rank, then channels)."""
    if dtypes is not None and image.dtype not in dtypes:
        names = ", ".join(np.dtype(d).name for d in dtypes)
        raise runtime_error(op_name, f"the data type of image tensor does not match the requirement of operator. "
                            f"Expecting tensor in type of ({names}). But got type {image.dtype}.")
    if ranks is not None and image.ndim not in ranks:
        shapes = {(2, 3): ", in shape of <H, W> or <H, W, C>", (2,): ", in shape of <H, W>",
                  (3,): ", in shape of <H, W, C>"}.get(tuple(ranks), "")
        raise runtime_error(op_name, f"the dimension of image tensor does not match the requirement of operator. "
                            f"Expecting tensor in dimension of ({', '.join(map(str, ranks))}){shapes}. But got "
                            f"dimension {image.ndim}.")
    if image.ndim < 2:
        raise runtime_error(op_name, "the image tensor should have at least two dimensions. You may need to perform "
                            "Decode first.")
    if channels is not None:
        channel = 1 if image.ndim == 2 else image.shape[-1]
        if channel not in channels:
            raise runtime_error(op_name, f"the channel of image tensor does not match the requirement of operator. "
                                f"Expecting tensor in channel of ({', '.join(map(str, channels))}). But got channel "
                                f"{channel}.")
    return image


def f32(value):
    """A factor as MindSpore stores it (a C++ float), widened back to a Python float."""
    return float(np.float32(value))


def saturate(values, dtype):
    """OpenCV's ``saturate_cast`` of float results to ``dtype`` (round half to even, clip)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return values.astype(dtype)
    info = np.iinfo(dtype)
    return np.clip(np.rint(values), info.min, info.max).astype(dtype)


def scale_np(image, alpha):
    """``Mat * alpha`` (``convertTo`` with a float32 scale)."""
    return saturate(image.astype(np.float32) * np.float32(alpha), image.dtype)


def blend_np(first, alpha, second, beta):
    """``cv2.addWeighted(first, alpha, second, beta, 0)`` as MindSpore's OpenCV computes it for integer
    images: ``fma(first, alpha, second * beta)`` in float32, then saturation (MindSpore's factors are
    float32, so callers pass ``f32(factor)`` and ``1.0 - f32(factor)``)."""
    if first.dtype.kind in "iu":
        alpha, beta = np.float32(alpha), np.float32(beta)
        second_part = (second.astype(np.float32) * beta).astype(np.float64)
        fused = (first.astype(np.float64) * np.float64(alpha) + second_part).astype(np.float32)  # one rounding
        return saturate(fused, first.dtype)
    return cv_out(cv2.addWeighted(np.ascontiguousarray(first), float(alpha), np.ascontiguousarray(second),
                                  float(beta), 0.0), first)


def gray_np(image):
    """``cv2.cvtColor(RGB2GRAY)`` then back to three equal channels."""
    return cv2.cvtColor(cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)


def adjust_brightness_np(image, factor):
    validate_image("AdjustBrightness", image, ranks=(2, 3), channels=(1, 3))
    return scale_np(cv_in("AdjustBrightness", image), factor)


def adjust_contrast_np(image, factor):
    validate_image("AdjustContrast", image, ranks=(3,), channels=(3,))
    image = cv_in("AdjustContrast", image)
    mean = cv2.mean(cv2.cvtColor(image, cv2.COLOR_RGB2GRAY))[0]
    if image.dtype.kind in "iu":  # integer images blend with the rounded mean gray level
        mean = int(mean + 0.5)
    flat = np.full(image.shape, mean, dtype=image.dtype)
    factor = f32(factor)
    return blend_np(flat, 1.0 - factor, image, factor)


def adjust_saturation_np(image, factor):
    validate_image("AdjustSaturation", image, ranks=(3,), channels=(3,))
    image = cv_in("AdjustSaturation", image)
    factor = f32(factor)
    return blend_np(gray_np(image), 1.0 - factor, image, factor)


def random_color_np(image, factor):
    """RandomColor's blend: ``addWeighted(image, factor, gray, 1 - factor)``, the operands in the other order
    than AdjustSaturation's, which rounds a few pixels differently."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise runtime_error("RandomColor", "image shape is not <H,W,C> or channel is not 3, got rank: "
                            f"{image.ndim}, and shape: <{','.join(map(str, image.shape))}>")
    image = cv_in("RandomColor", image)
    factor = f32(factor)
    return blend_np(image, factor, gray_np(image), np.float32(1.0) - factor)


def adjust_hue_np(image, factor):
    """Shift OpenCV's full-range 8-bit hue (``RGB2HSV_FULL``) by ``uint8(factor * 255)``, wrapping."""
    validate_image("AdjustHue", image, ranks=(3,), channels=(3,), dtypes=(np.uint8,))
    hsv = cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_RGB2HSV_FULL)
    shift = int(np.float32(factor) * np.float32(255)) % 256  # C++ float -> uint8 cast truncates, then wraps
    hsv[:, :, 0] = (hsv[:, :, 0].astype(np.int32) + shift) % 256
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB_FULL)


def adjust_gamma_np(image, gamma, gain):
    """uint8: MindSpore's lookup table ``floor(min((x/255)^gamma * (256 - 1e-3) * gain, 255))``;
    float: ``clip((x * gain)^gamma, 0, 1)``."""
    validate_image("AdjustGamma", image, channels=(1, 3))
    if image.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            out = np.power(image.astype(np.float32) * np.float32(gain), np.float32(gamma))
        return np.clip(out, 0.0, 1.0).astype(image.dtype)
    table = np.power(np.arange(256, dtype=np.float32) / np.float32(255.0), np.float32(gamma)).astype(np.float64)
    table = np.floor(np.minimum(table * (255.0 + 1 - 1e-3) * gain, 255.0)).astype(np.uint8)
    return table[image.astype(np.intp)] if image.dtype == np.uint8 else saturate(table[np.clip(image, 0, 255)
                                                                                         .astype(np.intp)], image.dtype)


def adjust_sharpness_np(image, factor):
    """Blend with the image smoothed by ``[[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13`` (borders kept)."""
    src = cv_in("AdjustSharpness", image)
    kernel = np.full((3, 3), 1.0 / 13.0, np.float32)
    kernel[1, 1] = 5.0 / 13.0
    smooth = cv_out(cv2.filter2D(src, -1, kernel), image)
    smooth[0], smooth[-1], smooth[:, 0], smooth[:, -1] = image[0], image[-1], image[:, 0], image[:, -1]
    factor = f32(factor)
    return blend_np(src, factor, smooth, 1.0 - factor)


def equalize_np(image):
    """``cv2.equalizeHist`` on each channel (uint8 only, as OpenCV)."""
    validate_image("Equalize", image, ranks=(2, 3), channels=(1, 3))
    if image.dtype != np.uint8:
        raise runtime_error("Equalize", f"the data type of the input image should be uint8, but got {image.dtype}.")
    if image.ndim == 2:
        return cv2.equalizeHist(np.ascontiguousarray(image))
    return np.stack([cv2.equalizeHist(np.ascontiguousarray(image[:, :, c])) for c in range(image.shape[2])], 2)


def auto_contrast_np(image, cutoff, ignore):
    """MindSpore's AutoContrast: per channel, drop ``int(cutoff)`` percent of the pixels at each end of
    the histogram (``ignore`` levels removed first) and stretch ``[lo, hi]`` to ``[0, 255]``."""
    validate_image("AutoContrast", image, ranks=(2, 3), channels=(1, 3))
    if image.dtype not in (np.uint8, np.int8):
        raise runtime_error("AutoContrast", f"the data type of the input image should be uint8, but got "
                            f"{image.dtype}.")
    planes = image[:, :, None] if image.ndim == 2 else image
    out = np.empty_like(planes)
    percent = int(cutoff)
    for c in range(planes.shape[2]):
        plane = planes[:, :, c].view(np.uint8)
        hist = np.bincount(plane.ravel(), minlength=256).astype(np.int64)
        for level in ignore or ():
            hist[level] = 0
        total = int(hist.sum())
        for order in (hist, hist[::-1]):  # cut from the low end, then from the high end
            cut = int(np.float32(percent / 100.0) * total)
            for index in range(256):
                if cut <= 0:
                    break
                take = min(cut, int(order[index]))
                order[index] -= take
                cut -= take
        nonzero = np.flatnonzero(hist)
        lo = int(nonzero[0]) if nonzero.size else 255
        hi = int(nonzero[-1]) if nonzero.size else -1
        lo = min(lo, 255)
        if hi <= lo:
            table = np.arange(256)
        else:
            scale = np.float32(255.0 / (hi - lo))
            offset = np.float32(-lo * scale)
            table = np.clip((np.arange(256, dtype=np.float32) * scale + offset).astype(np.int32), 0, 255)
        out[:, :, c] = table[plane].astype(np.uint8).view(image.dtype)
    return out.reshape(image.shape)


def posterize_np(image, bits):
    """Keep the ``bits`` high bits: ``x & ~(2 ** (8 - bits) - 1)`` (uint8/int8)."""
    validate_image("Posterize", image, ranks=(2, 3))
    if image.dtype not in (np.uint8, np.int8):
        raise runtime_error("Posterize", f"data type of input image should be int8 or uint8, but got {image.dtype}")
    mask = np.uint8(~((1 << (8 - bits)) - 1) & 0xFF)
    return (image.view(np.uint8) & mask).view(image.dtype)


def solarize_np(image, low, high, equal_means_above=True):
    """``255 - x`` where ``low <= x <= high`` (``low == high``: every ``x >= low`` unless
    ``equal_means_above`` is False), any numeric dtype."""
    validate_image("Solarize", image, ranks=(2, 3), channels=(1, 3))
    if low == high and equal_means_above:
        high = 255.0
    inside = (image >= low) & (image <= high)
    return np.where(inside, saturate(np.float64(255.0) - image.astype(np.float64), image.dtype), image)


def invert_np(image):
    """``255 - x`` (saturated) on an ``<H, W, 3>`` image."""
    if image.ndim != 3:
        raise runtime_error("Invert", f"input tensor is not in shape of <H,W,C>, but got rank: {image.ndim}")
    if image.shape[2] != 3:
        raise runtime_error("Invert", f"the number of channels of input tensor is not 3, but got: {image.shape[2]}")
    return saturate(np.float64(255.0) - image.astype(np.float64), image.dtype)


# ----------------------------------------------------------------------------------------------------------------
# decoding

def decode_rgb(data, op_name="Decode"):
    """Encoded image bytes (1-D uint8) to an ``(H, W, 3)`` RGB uint8 array, as MindSpore: OpenCV's
    ``imdecode`` (colour, EXIF orientation ignored); formats OpenCV cannot read (GIF) through Pillow."""
    raw = np.ascontiguousarray(data, dtype=np.uint8)
    decoded = cv2.imdecode(raw, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION) if raw.size else None
    if decoded is not None:
        return cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB)
    from mindspore.dataset.vision.utils import _decode_pil  # pylint: disable=import-outside-toplevel
    return np.array(_decode_pil(raw, op_name).convert("RGB"))


# ----------------------------------------------------------------------------------------------------------------
# base class of the vision transforms

class ImageTensorOperation(TensorOperation):
    """A vision transform: subclasses define ``_np(image, params)`` (and ``_pil`` when they have a
    Pillow path) and, when random, ``_params(first_image)``."""

    _pil = None

    def _params(self, image):  # deterministic transforms have no parameters
        return None

    def __call__(self, *images):
        name = type(self).__name__
        if not images:
            raise MSTypeError(f"{name}: the input should be a NumPy or PIL image, but got nothing.")
        values = []
        for image in images:
            if hasattr(image, "asnumpy"):
                image = image.asnumpy()
            if not (isinstance(image, np.ndarray) or is_pil(image)):
                raise MSTypeError(f"Input should be NumPy or PIL image, got {type(image)}.")
            values.append(image)
        use_pil = self._pil is not None and all(is_pil(v) for v in values)
        if not use_pil:
            values = [np.array(v) if is_pil(v) else v for v in values]
        if len(values) > 1 and self.random and len({image_hw(v) for v in values}) > 1:
            raise runtime_error(name, "the width and height of the images need to be the same size.")
        if self.__dict__.get("device_target", "CPU") == "Ascend":
            raise runtime_error(name, "device_target 'Ascend' (set by 'device') runs the transform on Ascend's DVPP, "
                                      "which this installation has no runtime for; use device('CPU').")
        params = self._params(values[0])
        run = self._pil if use_pil else self._np
        try:
            return single_or_tuple([run(v, params) for v in values])
        except cv2.error as exc:  # OpenCV's refusals (an unsupported dtype or size) in MindSpore's words
            raise runtime_error(name, str(exc).strip()) from exc


def device(self, device_target="CPU"):
    """Set the device the transform runs on: ``"CPU"`` (the default) or ``"Ascend"`` (DVPP, which needs Ascend's
    runtime: without it, running the transform raises RuntimeError, as MindSpore 2.10 does on a CPU machine).
    Returns the transform.

    Raises:
        TypeError: ``device_target`` is not a str.
        ValueError: ``device_target`` is neither ``"CPU"`` nor ``"Ascend"``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> vision.HorizontalFlip().device("CPU")(np.array([[1, 2, 3]]))
        array([[3, 2, 1]])
    """
    if not isinstance(device_target, str):
        raise MSTypeError(f"Argument device_target with value {device_target} is not of type [<class 'str'>], but "
                          f"got {type(device_target)}.")
    if device_target not in ("CPU", "Ascend"):
        raise MSValueError("Input device_target is not within the valid set of ['CPU', 'Ascend'].")
    self.device_target = device_target
    return self


#: the transforms that have ``device`` in MindSpore 2.10 (its DVPP-capable ones); vision/transforms.py gives it them
DEVICE_TRANSFORMS = (
    "AdjustBrightness", "AdjustContrast", "AdjustHue", "AdjustSaturation", "AdjustSharpness", "Affine", "AutoContrast",
    "ConvertColor", "Crop", "Decode", "Equalize", "Erase", "GaussianBlur", "HorizontalFlip", "Invert", "Normalize",
    "Pad", "Perspective", "Posterize", "Resize", "ResizedCrop", "Rotate", "Solarize", "VerticalFlip")


class PilColorOperation(ImageTensorOperation):
    """A colour transform done by Pillow on uint8 RGB/grayscale images (arrays or PIL images);
    subclasses define ``_apply(pil_image, params) -> pil_image``."""

    def _apply(self, pil, params):
        return pil

    def _pil(self, image, params):
        return self._apply(image, params)

    def _np(self, image, params):
        return back_to_shape(self._apply(as_color_pil(type(self).__name__, image), params), image)
