"""Image kernels of the vision transforms: NumPy for layout work (crop, pad, flip, cast), Pillow for
resampling (resize, rotate, affine warps) and colour (enhance, HSV), and the base class that gives
every vision transform MindSpore's calling convention.

Pillow works on a few pixel layouts only (``Image.fromarray`` infers them: ``L``, ``RGB``, ``F``), so
an ``(H, W[, C])`` NumPy image is split into *planes* Pillow resamples exactly: one ``RGB`` image
for uint8 with 3 channels, one ``L`` image for uint8 with 1 channel, one ``L`` image per channel for
other uint8 images, and one 32-bit float ``F`` image per channel for every other dtype (integers
are rounded and clipped back, floats cast back). RGBA is never handed to Pillow as such: its
resize premultiplies alpha, which would change colours.

Calling convention (as MindSpore's unified transforms): a transform takes one or more images,
NumPy arrays or PIL images. A transform that has a Pillow path (``_pil``) and gets PIL images
returns PIL images; otherwise PIL inputs are converted to arrays and arrays come out. A random
transform draws its parameters once per call, so several images in one call (an image and its
mask) get the same crop or flip.
"""
import numpy as np
from PIL import Image, ImageEnhance

from mindspore.plugin import MSTypeError
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
    flt = RESIZE_FILTERS[interpolation]
    return map_planes(image, lambda pil, _: pil.resize((width, height), flt))


def crop_np(image, top, left, height, width):
    return image[top:top + height, left:left + width].copy()


def pad_np(image, top, bottom, left, right, mode=Border.CONSTANT, fill=(0, 0, 0)):
    """Pad an ``(H, W[, C])`` array; CONSTANT uses ``fill`` per channel."""
    widths = ((top, bottom), (left, right)) + (((0, 0),) if image.ndim == 3 else ())
    mode = Border(mode)
    if mode != Border.CONSTANT:
        if image.shape[0] == 0 or image.shape[1] == 0:
            raise runtime_error("Pad", "can not pad an empty image with a non-constant padding mode.")
        return np.pad(image, widths, mode=mode.value)
    height, width = image.shape[:2]
    out = np.empty((height + top + bottom, width + left + right) + image.shape[2:], dtype=image.dtype)
    out[...] = np.asarray(fill_for(fill, range(num_channels(image))), dtype=np.float64).astype(image.dtype) \
        if image.ndim == 3 else image.dtype.type(fill[0])
    out[top:top + height, left:left + width] = image
    return out


def rotate_pil(pil, angle, interpolation, expand, center, fill):
    return pil.rotate(angle, resample=WARP_FILTERS[interpolation], expand=expand, center=center,
                      fillcolor=fill if len(fill) > 1 else fill[0])


def rotate_np(image, angle, interpolation, expand, center, fill):
    """Rotate counter-clockwise by ``angle`` degrees about ``center`` ((x, y), default the middle)."""
    def one(pil, channels):
        values = fill_for(fill, channels)
        if pil.mode == "F":
            values = tuple(float(v) for v in values)
        return rotate_pil(pil, angle, interpolation, expand, center, values)
    return map_planes(image, one)


def affine_pil(pil, matrix, interpolation, fill):
    return pil.transform(pil.size, Image.Transform.AFFINE, matrix, resample=WARP_FILTERS[interpolation],
                         fillcolor=fill if len(fill) > 1 else fill[0])


def affine_np(image, matrix, interpolation, fill):
    def one(pil, channels):
        values = fill_for(fill, channels)
        if pil.mode == "F":
            values = tuple(float(v) for v in values)
        return affine_pil(pil, matrix, interpolation, values)
    return map_planes(image, one)


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
    if pil.mode != "RGB" or shift == 0:  # no shift: skip Pillow's lossy RGB->HSV->RGB round trip
        return pil
    hue, saturation, value = pil.convert("HSV").split()
    shifted = (np.array(hue, dtype=np.int32) + shift) % 256
    hue = Image.fromarray(shifted.astype(np.uint8))
    return Image.merge("HSV", (hue, saturation, value)).convert("RGB")


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
        params = self._params(values[0])
        run = self._pil if use_pil else self._np
        return single_or_tuple([run(v, params) for v in values])


class PilColorOperation(ImageTensorOperation):
    """A colour transform done by Pillow on uint8 RGB/grayscale images (arrays or PIL images);
    subclasses define ``_apply(pil_image, params) -> pil_image``."""

    def _apply(self, pil, params):
        return pil

    def _pil(self, image, params):
        return self._apply(image, params)

    def _np(self, image, params):
        return back_to_shape(self._apply(as_color_pil(type(self).__name__, image), params), image)
