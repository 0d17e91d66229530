"""Deterministic vision transforms against independent Pillow/NumPy oracles written here."""
import colorsys
import io

import cv2
import numpy as np
import pytest
from PIL import Image

import mindspore as ms
import mindspore.dataset.vision as vision
from mindspore.dataset.vision import Border, ConvertMode, ImageReadMode, Inter

RNG = np.random.default_rng(0)


def rand_image(h, w, c=3, dtype=np.uint8):
    shape = (h, w) if c is None else (h, w, c)
    if dtype == np.uint8:
        return RNG.integers(0, 256, shape, dtype=np.uint8)
    return RNG.random(shape).astype(dtype) * 255


def encode(array, fmt, mode=None):
    buffer = io.BytesIO()
    Image.fromarray(array, mode).save(buffer, format=fmt)
    return np.frombuffer(buffer.getvalue(), dtype=np.uint8)


# ---------------------------------------------------------------------------------------------------- Decode

@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "BMP"])
def test_decode_matches_pillow(fmt):
    data = encode(rand_image(9, 13), fmt)
    expected = np.array(Image.open(io.BytesIO(data.tobytes())).convert("RGB"))
    out = vision.Decode()(data)
    assert out.dtype == np.uint8 and out.shape == (9, 13, 3)
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(vision.Decode()(data.tobytes()), expected)


def test_decode_grayscale_and_rgba_give_rgb():
    gray = rand_image(5, 6, None)
    out = vision.Decode()(encode(gray, "PNG"))
    np.testing.assert_array_equal(out, np.repeat(gray[:, :, None], 3, axis=2))
    rgba = rand_image(5, 6, 4)
    np.testing.assert_array_equal(vision.Decode()(encode(rgba, "PNG")), rgba[:, :, :3])


def test_decode_to_pil():
    image = rand_image(4, 7)
    out = vision.Decode(to_pil=True)(encode(image, "PNG"))
    assert isinstance(out, Image.Image) and out.mode == "RGB" and out.size == (7, 4)
    np.testing.assert_array_equal(np.array(out), image)


def test_decode_errors():
    with pytest.raises(TypeError):
        vision.Decode()(np.zeros((2, 2), np.uint8))
    with pytest.raises(TypeError):
        vision.Decode()(np.array(["abc"]))
    with pytest.raises(TypeError):
        vision.Decode(to_pil=1)
    with pytest.raises(RuntimeError, match="Decode"):
        vision.Decode()(np.arange(50, dtype=np.uint8))


# ---------------------------------------------------------------------------------------------------- Resize

def c_lround(x):
    return int(np.floor(x + 0.5))


@pytest.mark.parametrize("hw, size, expected", [
    ((7, 10), 5, (5, c_lround(10 / 7 * 5))),
    ((10, 7), 5, (c_lround(10 / 7 * 5), 5)),
    ((9, 9), 4, (4, 4)),
    ((3, 5), 6, (6, 10)),
    ((6, 8), (3, 11), (3, 11)),
    ((6, 8), [4], (4, c_lround(8 / 6 * 4))),
])
def test_resize_output_size(hw, size, expected):
    out = vision.Resize(size)(rand_image(*hw))
    assert out.shape == expected + (3,)


CV_FLAG = {Inter.NEAREST: cv2.INTER_NEAREST, Inter.BILINEAR: cv2.INTER_LINEAR, Inter.BICUBIC: cv2.INTER_CUBIC,
           Inter.AREA: cv2.INTER_AREA}
PIL_FILTER = {Inter.PILCUBIC: Image.BICUBIC, Inter.ANTIALIAS: Image.LANCZOS}


@pytest.mark.parametrize("inter", list(CV_FLAG))
def test_resize_matches_opencv(inter):
    image = rand_image(11, 17)
    out = vision.Resize((6, 9), inter)(image)
    np.testing.assert_array_equal(out, cv2.resize(image, (9, 6), interpolation=CV_FLAG[inter]))


@pytest.mark.parametrize("inter", list(PIL_FILTER))
def test_resize_pillow_modes_match_pillow(inter):
    image = rand_image(11, 17)
    out = vision.Resize((6, 9), inter)(image)
    expected = np.array(Image.fromarray(image).resize((9, 6), PIL_FILTER[inter]))
    np.testing.assert_array_equal(out, expected)
    if inter == Inter.PILCUBIC:  # MindSpore's Pillow-style bicubic is for 3-channel images only
        with pytest.raises(RuntimeError, match="PILCUBIC"):
            vision.Resize((6, 9), inter)(rand_image(11, 17, None))


def test_resize_linear_alias_and_default():
    image = rand_image(8, 8)
    assert Inter.LINEAR is Inter.BILINEAR and Inter.CUBIC is Inter.BICUBIC and int(Inter.BILINEAR) == 2
    np.testing.assert_array_equal(vision.Resize(5)(image), vision.Resize(5, Inter.BILINEAR)(image))


def test_resize_grayscale_and_channel_layouts():
    gray = rand_image(10, 12, None)
    expected = cv2.resize(gray, (5, 4), interpolation=cv2.INTER_LINEAR)
    np.testing.assert_array_equal(vision.Resize((4, 5))(gray), expected)
    np.testing.assert_array_equal(vision.Resize((4, 5))(gray[:, :, None]), expected[:, :, None])
    four = rand_image(10, 12, 4)
    planes = [cv2.resize(np.ascontiguousarray(four[:, :, c]), (5, 4), interpolation=cv2.INTER_LINEAR)
              for c in range(4)]
    np.testing.assert_array_equal(vision.Resize((4, 5))(four), np.stack(planes, 2))


def test_resize_float_image_per_channel():
    image = rand_image(10, 12, 3, np.float32)
    out = vision.Resize((7, 5), Inter.BICUBIC)(image)
    planes = [cv2.resize(np.ascontiguousarray(image[:, :, c]), (5, 7), interpolation=cv2.INTER_CUBIC)
              for c in range(3)]
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.stack(planes, 2), rtol=1e-5)


def test_resize_pil_input_keeps_pil_and_truncates():
    pil = Image.fromarray(rand_image(7, 10))
    out = vision.Resize(5)(pil)
    assert isinstance(out, Image.Image)
    assert out.size == (int(5 * 10 / 7), 5)
    np.testing.assert_array_equal(np.array(out), np.array(pil.resize((7, 5), Image.BILINEAR)))


def test_resize_errors():
    with pytest.raises(ValueError):
        vision.Resize(0)
    with pytest.raises(TypeError):
        vision.Resize(3.5)
    with pytest.raises(TypeError):
        vision.Resize(4, interpolation="bilinear")
    with pytest.raises(RuntimeError):
        vision.Resize(4)(np.zeros((2, 3, 4, 5), np.uint8))
    with pytest.raises(TypeError):
        vision.Resize(4)([[1, 2], [3, 4]])


# ------------------------------------------------------------------------------------ Rescale / Normalize / HWC2CHW

def test_rescale_float32():
    image = rand_image(3, 4)
    out = vision.Rescale(1.0 / 255.0, -1.0)(image)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, image.astype(np.float64) / 255.0 - 1.0, atol=1e-6)
    assert vision.Rescale(2, 1)(np.array([[1.5]], np.float64)).dtype == np.float32


@pytest.mark.parametrize("layout", ["hwc", "chw", "2d"])
def test_normalize(layout):
    mean, std = [121.0, 115.0, 100.0], [70.0, 68.0, 71.0]
    if layout == "hwc":
        image = rand_image(4, 5)
        expected = (image - np.array(mean)) / np.array(std)
        out = vision.Normalize(mean, std)(image)
    elif layout == "chw":
        image = rand_image(4, 5).transpose(2, 0, 1)
        expected = (image - np.array(mean)[:, None, None]) / np.array(std)[:, None, None]
        out = vision.Normalize(mean, std, is_hwc=False)(image)
    else:
        image = rand_image(4, 5, None)
        expected = (image - 10.0) / 20.0
        out = vision.Normalize([10.0], [20.0])(image)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_normalize_single_mean_broadcasts_and_errors():
    image = rand_image(2, 2)
    np.testing.assert_allclose(vision.Normalize([100.0], [2.0])(image), (image - 100.0) / 2.0, rtol=1e-6)
    with pytest.raises(RuntimeError):
        vision.Normalize([1.0, 2.0], [1.0, 1.0])(image)
    with pytest.raises(ValueError):
        vision.Normalize([300.0], [1.0])
    with pytest.raises(ValueError):
        vision.Normalize([1.0], [0.0])
    with pytest.raises(ValueError):
        vision.Normalize([1.0, 2.0], [1.0])
    with pytest.raises(TypeError):
        vision.Normalize([1.0], [1.0], is_hwc=1)


def test_normalize_pad():
    image = rand_image(3, 4)
    out = vision.NormalizePad([10.0, 20.0, 30.0], [2.0, 4.0, 8.0])(image)
    assert out.shape == (3, 4, 4) and out.dtype == np.float32
    np.testing.assert_allclose(out[:, :, :3], (image - np.array([10., 20., 30.])) / np.array([2., 4., 8.]), rtol=1e-5)
    assert not out[:, :, 3].any()
    assert vision.NormalizePad([0.0] * 3, [1.0] * 3, "float16")(image).dtype == np.float16


def test_hwc2chw():
    image = rand_image(4, 5)
    out = vision.HWC2CHW()(image)
    assert out.shape == (3, 4, 5) and out.flags.c_contiguous
    np.testing.assert_array_equal(out, np.transpose(image, (2, 0, 1)))
    gray = rand_image(4, 5, None)
    np.testing.assert_array_equal(vision.HWC2CHW()(gray), gray)
    with pytest.raises(RuntimeError):
        vision.HWC2CHW()(np.zeros((1, 2, 3, 4)))
    assert vision.HWC2CHW()(Image.fromarray(image)).shape == (3, 4, 5)


# ---------------------------------------------------------------------------------------------------- crops and pads

@pytest.mark.parametrize("hw, size", [((9, 11), 4), ((10, 10), (3, 6)), ((8, 9), (8, 9)), ((5, 7), (2, 2))])
def test_center_crop_inside(hw, size):
    image = rand_image(*hw)
    crop_h, crop_w = (size, size) if isinstance(size, int) else size
    top, left = (hw[0] - crop_h) // 2, (hw[1] - crop_w) // 2
    np.testing.assert_array_equal(vision.CenterCrop(size)(image), image[top:top + crop_h, left:left + crop_w])


def test_center_crop_pads_when_larger():
    image = rand_image(3, 4, None)
    out = vision.CenterCrop((6, 5))(image)
    expected = np.zeros((6, 5), np.uint8)
    expected[2:5, 1:5] = image  # 3 rows missing: 2 on top, 1 below; 1 column missing: on the left
    np.testing.assert_array_equal(out, expected)


def test_center_crop_pil_rounds():
    image = rand_image(9, 11)
    out = vision.CenterCrop(4)(Image.fromarray(image))
    top, left = int(round(5 / 2.0)), int(round(7 / 2.0))
    assert isinstance(out, Image.Image)
    np.testing.assert_array_equal(np.array(out), image[top:top + 4, left:left + 4])


def test_crop_and_resized_crop():
    image = rand_image(8, 9)
    np.testing.assert_array_equal(vision.Crop((2, 3), (4, 5))(image), image[2:6, 3:8])
    with pytest.raises(RuntimeError):
        vision.Crop((6, 0), 4)(image)
    with pytest.raises(ValueError):
        vision.Crop((-1, 0), 4)
    out = vision.ResizedCrop(1, 2, 5, 6, (3, 4), Inter.BICUBIC)(image)
    expected = cv2.resize(image[1:6, 2:8], (4, 3), interpolation=cv2.INTER_CUBIC)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("mode", [Border.EDGE, Border.REFLECT, Border.SYMMETRIC])
def test_pad_modes_match_numpy(mode):
    image = rand_image(5, 6)
    out = vision.Pad([1, 2, 3, 4], padding_mode=mode)(image)
    np.testing.assert_array_equal(out, np.pad(image, ((2, 4), (1, 3), (0, 0)), mode=mode.value))


def test_pad_constant_fill_and_two_values():
    image = rand_image(3, 4)
    out = vision.Pad([1, 2], fill_value=(10, 20, 30))(image)
    assert out.shape == (3 + 4, 4 + 2, 3)
    np.testing.assert_array_equal(out[2:5, 1:5], image)
    np.testing.assert_array_equal(out[0, 0], [10, 20, 30])
    gray = rand_image(3, 4, None)
    out = vision.Pad(2, fill_value=7)(gray)
    expected = np.full((7, 8), 7, np.uint8)
    expected[2:5, 2:6] = gray
    np.testing.assert_array_equal(out, expected)


def test_pad_pil_and_errors():
    image = rand_image(3, 4)
    out = vision.Pad(1, fill_value=(1, 2, 3))(Image.fromarray(image))
    assert isinstance(out, Image.Image) and out.size == (6, 5)
    np.testing.assert_array_equal(np.array(out)[1:4, 1:5], image)
    np.testing.assert_array_equal(np.array(out)[0, 0], [1, 2, 3])
    out = vision.Pad(2, padding_mode=Border.REFLECT)(Image.fromarray(image))
    np.testing.assert_array_equal(np.array(out), np.pad(image, ((2, 2), (2, 2), (0, 0)), "reflect"))
    with pytest.raises(ValueError):
        vision.Pad(-1)
    with pytest.raises(ValueError):
        vision.Pad([1, 2, 3])
    with pytest.raises(ValueError):
        vision.Pad(1, fill_value=256)
    with pytest.raises(TypeError):
        vision.Pad(1, padding_mode="edge")


def test_flips():
    image = rand_image(3, 5)
    np.testing.assert_array_equal(vision.HorizontalFlip()(image), image[:, ::-1])
    np.testing.assert_array_equal(vision.VerticalFlip()(image), image[::-1])
    gray = rand_image(3, 5, None)
    np.testing.assert_array_equal(vision.HorizontalFlip()(gray), np.fliplr(gray))


def test_rotate():
    image = rand_image(6, 6)
    np.testing.assert_array_equal(vision.Rotate(90)(image), np.rot90(image, 1))
    np.testing.assert_array_equal(vision.Rotate(-90)(image), np.rot90(image, -1))
    np.testing.assert_array_equal(vision.Rotate(450)(image), np.rot90(image, 1))
    out = vision.Rotate(30, Inter.BILINEAR, expand=True, fill_value=(1, 2, 3))(image)
    assert out.shape == (8, 8, 3)  # the bounding box of a 6x6 square turned by 30 degrees: 8.2 -> 8
    # MindSpore hands the fill to OpenCV as Scalar(b, g, r): the first channel gets the last value
    assert out[0, 0].tolist() == [3, 2, 1]
    gray = rand_image(5, 7, None)
    matrix = cv2.getRotationMatrix2D((1.0, 2.0), 20, 1.0)
    expected = cv2.warpAffine(gray, matrix, (7, 5), flags=cv2.INTER_NEAREST, borderValue=9)
    np.testing.assert_array_equal(vision.Rotate(20, center=(1, 2), fill_value=9)(gray), expected)


# ---------------------------------------------------------------------------------------------------- conversions

def test_to_tensor():
    image = rand_image(4, 5)
    out = vision.ToTensor()(image)
    assert out.dtype == np.float32 and out.shape == (3, 4, 5)
    np.testing.assert_allclose(out, np.transpose(image, (2, 0, 1)) / 255.0, rtol=1e-6)
    np.testing.assert_array_equal(vision.ToTensor()(Image.fromarray(image)), out)
    gray = rand_image(4, 5, None)
    assert vision.ToTensor()(gray).shape == (1, 4, 5)
    assert vision.ToTensor(np.float16)(image).dtype == np.float16
    out64 = vision.ToTensor(ms.float64)(image)
    assert out64.dtype == np.float64
    # MindSpore 2.10 scales in float32 (x * float32(1/255)), also for a float64 output
    want = np.transpose(image, (2, 0, 1)).astype(np.float32) * np.float32(1 / 255)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(out64, want.astype(np.float64))
    every = vision.ToTensor()(np.arange(256, dtype=np.uint8).reshape(16, 16, 1)).reshape(-1)
    np.testing.assert_array_equal(every, np.arange(256, dtype=np.float32) * np.float32(1 / 255))


def test_to_pil_and_to_numpy():
    image = rand_image(4, 5)
    pil = vision.ToPIL()(image)
    assert isinstance(pil, Image.Image) and pil.mode == "RGB"
    assert vision.ToPIL()(pil) is pil
    assert vision.ToPIL()(rand_image(4, 5, 1)).mode == "L"
    assert vision.ToPIL()(rand_image(4, 5, 4)).mode == "RGBA"
    assert vision.ToPIL()(np.zeros((4, 5), np.float32)).mode == "F"
    np.testing.assert_array_equal(vision.ToNumpy()(pil), image)
    with pytest.raises(ValueError):
        vision.ToPIL()(np.zeros((2, 2, 5), np.uint8))
    with pytest.raises(TypeError):
        vision.ToPIL()(np.zeros((2, 2, 3), np.float32))
    with pytest.raises(TypeError):
        vision.ToPIL()([1, 2])


def test_to_type():
    out = vision.ToType(np.int16)(np.array([[1.9, -2.5]]))
    assert out.dtype == np.int16
    np.testing.assert_array_equal(out, [[1, -2]])
    assert vision.ToType(ms.float16)(rand_image(2, 2)).dtype == np.float16


def test_grayscale():
    image = rand_image(4, 5)
    expected = np.array(Image.fromarray(image).convert("L"))
    np.testing.assert_array_equal(vision.Grayscale()(image), expected)
    three = vision.Grayscale(3)(image)
    assert three.shape == (4, 5, 3)
    for c in range(3):
        np.testing.assert_array_equal(three[:, :, c], expected)
    assert vision.Grayscale()(Image.fromarray(image)).mode == "L"
    with pytest.raises(ValueError):
        vision.Grayscale(2)


def test_convert_color():
    image = rand_image(4, 5)
    np.testing.assert_array_equal(vision.ConvertColor(ConvertMode.COLOR_RGB2BGR)(image), image[:, :, ::-1])
    gray = vision.ConvertColor(ConvertMode.COLOR_RGB2GRAY)(image)
    oracle = image[:, :, 0] * 0.299 + image[:, :, 1] * 0.587 + image[:, :, 2] * 0.114
    assert gray.shape == (4, 5) and gray.dtype == np.uint8
    assert np.abs(gray.astype(int) - np.round(oracle)).max() <= 1
    bgr_gray = vision.ConvertColor(ConvertMode.COLOR_BGR2GRAY)(image[:, :, ::-1])
    np.testing.assert_array_equal(bgr_gray, gray)
    rgba = vision.ConvertColor(ConvertMode.COLOR_RGB2RGBA)(image)
    assert rgba.shape == (4, 5, 4) and (rgba[:, :, 3] == 255).all()
    np.testing.assert_array_equal(vision.ConvertColor(ConvertMode.COLOR_RGBA2RGB)(rgba), image)
    np.testing.assert_array_equal(vision.ConvertColor(ConvertMode.COLOR_RGBA2BGR)(rgba), image[:, :, ::-1])
    g = rand_image(4, 5, None)
    np.testing.assert_array_equal(vision.ConvertColor(ConvertMode.COLOR_GRAY2RGB)(g), np.stack([g] * 3, 2))
    with pytest.raises(RuntimeError):
        vision.ConvertColor(ConvertMode.COLOR_RGBA2RGB)(image)


# ---------------------------------------------------------------------------------------------------- colour

def c_round(values):
    return np.clip(np.rint(values), 0, 255)


def test_enhance_ops_follow_mindspore_formulas():
    """MindSpore's colour arithmetic (float32 factors; OpenCV rounds halves to even): brightness
    scales, contrast blends with the rounded mean gray level, saturation with the gray image,
    sharpness with the image smoothed by [[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13 (borders kept)."""
    image = rand_image(6, 7)
    pixels = image.astype(np.float64)
    f32 = lambda v: float(np.float32(v))  # noqa: E731
    gray = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY).astype(np.float64)
    cases = [
        (vision.AdjustBrightness(1.7), c_round(pixels * f32(1.7))),
        (vision.AdjustContrast(0.4), c_round(np.floor(gray.mean() + 0.5) * (1 - f32(0.4)) + pixels * f32(0.4))),
        (vision.AdjustSaturation(1.9), c_round(gray[:, :, None] * (1 - f32(1.9)) + pixels * f32(1.9))),
    ]
    smooth = pixels.copy()
    kernel = np.ones((3, 3)) / 13.0
    kernel[1, 1] = 5 / 13.0
    for y in range(1, 5):
        for x in range(1, 6):
            smooth[y, x] = np.rint((pixels[y - 1:y + 2, x - 1:x + 2] * kernel[:, :, None]).sum(axis=(0, 1)))
    cases.append((vision.AdjustSharpness(0.3), c_round(pixels * f32(0.3) + smooth * (1 - f32(0.3)))))
    for op, expected in cases:
        out = op(image)
        assert out.dtype == np.uint8 and out.shape == image.shape
        diff = np.abs(out.astype(np.float64) - expected)
        assert diff.max() <= 1 and (diff > 0).mean() < 0.1, type(op).__name__  # halves: float32 rounding
        assert isinstance(op(Image.fromarray(image)), Image.Image)  # PIL images keep the Pillow path


def test_adjust_hue():
    image = rand_image(6, 7)
    # a zero shift is OpenCV's 8-bit RGB -> HSV -> RGB round trip, off by a few levels at most
    assert np.abs(vision.AdjustHue(0.0)(image).astype(int) - image).max() <= 8
    red = np.zeros((1, 1, 3), np.uint8)
    red[..., 0] = 255
    out = vision.AdjustHue(0.5)(red)[0, 0] / 255.0
    hue = colorsys.rgb_to_hsv(*out)[0]
    assert abs(hue - 0.5) < 0.01
    with pytest.raises(ValueError):
        vision.AdjustHue(0.6)


def test_adjust_gamma_invert_posterize_solarize():
    image = rand_image(5, 6)
    expected = np.clip((255 + 1 - 1e-3) * 1.0 * (image / 255.0) ** 2.0, 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(vision.AdjustGamma(2.0)(image), expected)
    np.testing.assert_array_equal(vision.Invert()(image), 255 - image)
    np.testing.assert_array_equal(vision.Posterize(3)(image), image & 0b11100000)
    np.testing.assert_array_equal(vision.Solarize((50, 150))(image),
                                  np.where((image >= 50) & (image <= 150), 255 - image, image))
    np.testing.assert_array_equal(vision.Solarize(128)(image), np.where(image >= 128, 255 - image, image))


def test_auto_contrast_and_equalize():
    image = (rand_image(6, 7) // 2 + 30).astype(np.uint8)
    expected = np.empty_like(image)
    for c in range(3):
        lo, hi = int(image[:, :, c].min()), int(image[:, :, c].max())
        scale = np.float32(255.0 / (hi - lo))
        table = np.clip((np.arange(256, dtype=np.float32) * scale + np.float32(-lo * scale)).astype(np.int32), 0, 255)
        expected[:, :, c] = table[image[:, :, c]]
    np.testing.assert_array_equal(vision.AutoContrast()(image), expected)
    # cutoff: int(cutoff) percent of the counted pixels dropped at each end (ignored levels not counted)
    flat = np.repeat(np.arange(100, 200, dtype=np.uint8), 2).reshape(20, 10)  # 2 pixels per level 100..199
    out = vision.AutoContrast(5.9, ignore=199)(flat)
    # 5% of 198 pixels = 9: levels 100..103 and one pixel of 104 go, likewise 198..195 and one of 194
    lo, hi = 104, 194
    scale = np.float32(255.0 / (hi - lo))
    table = np.clip((np.arange(256, dtype=np.float32) * scale + np.float32(-lo * scale)).astype(np.int32), 0, 255)
    np.testing.assert_array_equal(out, table[flat])
    equalized = np.stack([cv2.equalizeHist(np.ascontiguousarray(image[:, :, c])) for c in range(3)], 2)
    np.testing.assert_array_equal(vision.Equalize()(image), equalized)
    gray = rand_image(6, 7, None)
    np.testing.assert_array_equal(vision.Equalize()(gray), cv2.equalizeHist(gray))


def test_color_ops_need_uint8():
    with pytest.raises(RuntimeError, match="Equalize"):
        vision.Equalize()(rand_image(3, 3, 3, np.float32))
    with pytest.raises(RuntimeError, match="Posterize"):
        vision.Posterize(2)(rand_image(3, 3, 3, np.float32))
    with pytest.raises(RuntimeError, match="Invert"):
        vision.Invert()(rand_image(3, 3, 4))
    with pytest.raises(RuntimeError, match="AdjustContrast"):
        vision.AdjustContrast(0.5)(rand_image(3, 3, None))
    # float images are computed in float, as MindSpore does
    floats = rand_image(3, 3, 3, np.float32)
    np.testing.assert_allclose(vision.AdjustBrightness(1.5)(floats), floats * np.float32(1.5), rtol=1e-6)


# ---------------------------------------------------------------------------------------------------- I/O utils

def test_file_io_roundtrip(tmp_path):
    data = np.arange(10, dtype=np.uint8)
    path = str(tmp_path / "f.bin")
    vision.write_file(path, data)
    np.testing.assert_array_equal(vision.read_file(path), data)
    with pytest.raises(RuntimeError):
        vision.read_file(str(tmp_path / "missing"))
    with pytest.raises(TypeError):
        vision.read_file(3)


def test_encode_and_read_image(tmp_path):
    image = rand_image(6, 8)
    png = vision.encode_png(image)
    np.testing.assert_array_equal(vision.Decode()(png), image)
    jpeg = vision.encode_jpeg(image, quality=95)
    expected = np.array(Image.open(io.BytesIO(jpeg.tobytes())).convert("RGB"))
    np.testing.assert_array_equal(vision.Decode()(jpeg), expected)
    path = str(tmp_path / "a.png")
    vision.write_png(path, image)
    np.testing.assert_array_equal(vision.read_image(path), image)
    gray = vision.read_image(path, ImageReadMode.GRAYSCALE)
    assert gray.shape == (6, 8, 1)
    # OpenCV's grayscale decoding (libpng's RGB -> gray), as MindSpore
    np.testing.assert_array_equal(gray[:, :, 0], cv2.imdecode(np.fromfile(path, np.uint8), cv2.IMREAD_GRAYSCALE))
    assert np.abs(gray[:, :, 0].astype(int) - np.array(Image.fromarray(image).convert("L"))).max() <= 1
    vision.write_png(path, image[:, :, 0])
    assert vision.read_image(path).shape == (6, 8, 1)
    assert vision.read_image(path, ImageReadMode.COLOR).shape == (6, 8, 3)
    with pytest.raises(RuntimeError):
        vision.encode_jpeg(image.astype(np.float32))
    with pytest.raises(RuntimeError):
        vision.encode_jpeg(image, quality=0)


def test_image_size_and_channels():
    assert vision.get_image_size(np.zeros((4, 5, 3))) == [4, 5]
    assert vision.get_image_num_channels(np.zeros((4, 5, 3))) == 3
    assert vision.get_image_num_channels(np.zeros((4, 5))) == 1
    pil = Image.fromarray(rand_image(4, 5))
    assert vision.get_image_size(pil) == [4, 5] and vision.get_image_num_channels(pil) == 3
    with pytest.raises(TypeError):
        vision.get_image_size([1])


def test_tensor_input_accepted():
    image = rand_image(4, 6)
    out = vision.HWC2CHW()(ms.Tensor(image))
    np.testing.assert_array_equal(out, np.transpose(image, (2, 0, 1)))
