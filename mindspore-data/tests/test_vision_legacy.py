"""Legacy import paths model-zoo code uses: vision.c_transforms / vision.py_transforms, and the
Python-implemented vision ops (multi-crops, HSV conversion, LinearTransformation, UniformAugment)."""
import colorsys
import io

import numpy as np
import pytest
from PIL import Image

import mindspore.dataset.vision as vision
import mindspore.dataset.vision.c_transforms as c_vision
import mindspore.dataset.vision.py_transforms as py_vision
from mindspore.dataset.transforms.py_transforms import Compose
from mindspore.dataset.vision import Inter

RNG = np.random.default_rng(2)


def rand_image(h, w, c=3):
    return RNG.integers(0, 256, (h, w, c), dtype=np.uint8)


def png(image):
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="PNG")
    return np.frombuffer(buffer.getvalue(), dtype=np.uint8)


def test_c_transforms_reexports_unified_classes():
    for name in ["Resize", "RandomCrop", "RandomHorizontalFlip", "Normalize", "HWC2CHW", "CenterCrop", "Rescale",
                 "RandomResizedCrop", "RandomCropDecodeResize", "RandomColorAdjust", "RandomRotation", "CutOut",
                 "Pad", "ConvertColor", "Inter", "Border", "ImageBatchFormat"]:
        assert getattr(c_vision, name) is getattr(vision, name), name
    image = rand_image(6, 8)
    np.testing.assert_array_equal(c_vision.HWC2CHW()(c_vision.Resize((3, 4), c_vision.Inter.LINEAR)(image)),
                                  vision.HWC2CHW()(vision.Resize((3, 4))(image)))


def test_c_transforms_decode_rgb_flag():
    image = rand_image(4, 5)
    np.testing.assert_array_equal(c_vision.Decode()(png(image)), image)
    np.testing.assert_array_equal(c_vision.Decode(rgb=False)(png(image)), image[:, :, ::-1])


def test_py_transforms_imagenet_style_pipeline():
    image = rand_image(20, 30)
    mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
    op = Compose([py_vision.Decode(), py_vision.Resize(10), py_vision.CenterCrop(8), py_vision.ToTensor(),
                  py_vision.Normalize(mean, std)])
    out = op(png(image))
    pil = Image.fromarray(image).resize((15, 10), Image.BILINEAR)
    top, left = int(round((10 - 8) / 2.0)), int(round((15 - 8) / 2.0))
    crop = np.array(pil)[top:top + 8, left:left + 8]
    expected = (crop.transpose(2, 0, 1) / 255.0 - np.array(mean)[:, None, None]) / np.array(std)[:, None, None]
    assert out.shape == (3, 8, 8) and out.dtype == np.float32
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_py_transforms_require_pil():
    image = rand_image(4, 5)
    for op in [py_vision.Resize(3), py_vision.CenterCrop(2), py_vision.RandomHorizontalFlip(),
               py_vision.RandomCrop(2), py_vision.RandomResizedCrop(2), py_vision.RandomColorAdjust(),
               py_vision.RandomRotation(5), py_vision.Grayscale(), py_vision.Pad(1)]:
        with pytest.raises(TypeError, match="PIL"):
            op(image)
        assert isinstance(op(Image.fromarray(image)), Image.Image)


def test_py_transforms_augmentations_on_pil():
    image = rand_image(6, 7)
    pil = Image.fromarray(image)
    np.testing.assert_array_equal(np.array(py_vision.RandomHorizontalFlip(1.0)(pil)), image[:, ::-1])
    np.testing.assert_array_equal(np.array(py_vision.RandomVerticalFlip(1.0)(pil)), image[::-1])
    np.testing.assert_array_equal(np.array(py_vision.Invert()(pil)), 255 - image)
    gray = py_vision.Grayscale(3)(pil)
    assert gray.mode == "RGB"
    np.testing.assert_array_equal(np.array(gray)[:, :, 1], np.array(pil.convert("L")))
    out = py_vision.Resize((3, 4), Inter.NEAREST)(pil)
    np.testing.assert_array_equal(np.array(out), np.array(pil.resize((4, 3), Image.NEAREST)))


def test_py_normalize_and_normalize_pad():
    chw = RNG.random((3, 4, 5)).astype(np.float32)
    out = py_vision.Normalize([0.5, 0.4, 0.3], [0.2, 0.2, 0.2])(chw)
    np.testing.assert_allclose(out, (chw - np.array([0.5, 0.4, 0.3], np.float32)[:, None, None]) / 0.2, rtol=1e-6)
    assert out.dtype == np.float32
    np.testing.assert_allclose(py_vision.Normalize([0.5], [0.5])(chw), (chw - 0.5) / 0.5, rtol=1e-6)
    padded = py_vision.NormalizePad([0.5] * 3, [0.5] * 3)(chw)
    assert padded.shape == (4, 4, 5) and not padded[3].any()
    with pytest.raises(TypeError):
        py_vision.Normalize([0.5], [0.5])(rand_image(2, 2).transpose(2, 0, 1))
    with pytest.raises(ValueError):
        py_vision.Normalize([2.0], [0.5])
    with pytest.raises(ValueError):
        py_vision.Normalize([0.5, 0.5], [0.5, 0.5])(chw)


def test_py_cutout_and_hwc2chw():
    chw = np.ones((3, 10, 12), np.float32)
    out = py_vision.Cutout(4, num_patches=3)(chw)
    zero = (out == 0).all(axis=0)
    assert zero.sum() <= 3 * 16 and (out[:, ~zero] == 1).all()
    np.testing.assert_array_equal(py_vision.Cutout(12)(chw), chw)
    image = rand_image(3, 4)
    np.testing.assert_array_equal(py_vision.HWC2CHW()(image), image.transpose(2, 0, 1))


def test_five_and_ten_crop():
    image = rand_image(6, 8)
    crops = py_vision.FiveCrop((2, 3))(Image.fromarray(image))
    expected = [image[:2, :3], image[:2, 5:], image[4:, :3], image[4:, 5:], image[2:4, 2:5]]
    for crop, want in zip(crops, expected):
        np.testing.assert_array_equal(np.array(crop), want)
    ten = vision.TenCrop(2, use_vertical_flip=True)(Image.fromarray(image))
    assert len(ten) == 10
    np.testing.assert_array_equal(np.array(ten[5]), image[::-1][:2, :2])
    with pytest.raises(ValueError):
        vision.FiveCrop(7)(Image.fromarray(image))
    with pytest.raises(TypeError):
        vision.FiveCrop(2)(image)


def test_rgb_hsv_round_trip_matches_colorsys():
    rgb = RNG.random((4, 5, 3))
    rgb[0, 0] = [0.5, 0.5, 0.5]
    rgb[0, 1] = [0.0, 0.0, 0.0]
    hsv = vision.RgbToHsv(is_hwc=True)(rgb)
    expected = np.array([[colorsys.rgb_to_hsv(*px) for px in row] for row in rgb])
    np.testing.assert_allclose(hsv, expected, atol=1e-12)
    back = vision.HsvToRgb(is_hwc=True)(hsv)
    np.testing.assert_allclose(back, rgb, atol=1e-12)
    chw = rgb.transpose(2, 0, 1)[None]
    np.testing.assert_allclose(vision.RgbToHsv()(chw)[0], expected.transpose(2, 0, 1), atol=1e-12)
    with pytest.raises(TypeError):
        vision.RgbToHsv()(np.zeros((4, 2, 2)))


def test_linear_transformation_and_uniform_augment():
    image = RNG.random((1, 2, 3))
    matrix, mean = RNG.random((6, 6)), RNG.random(6)
    out = vision.LinearTransformation(matrix, mean)(image)
    np.testing.assert_allclose(out, ((image.reshape(-1) - mean) @ matrix).reshape(1, 2, 3))
    img = rand_image(4, 4)
    op = vision.UniformAugment([vision.Invert(), vision.HorizontalFlip()], num_ops=2)
    options = [img, 255 - img, img[:, ::-1], (255 - img)[:, ::-1]]
    seen = set()
    for _ in range(60):
        out = op(img)
        index = [i for i, o in enumerate(options) if np.array_equal(out, o)]
        assert index
        seen.add(index[0])
    assert seen == {0, 1, 2, 3}
    with pytest.raises(ValueError):
        vision.UniformAugment([vision.Invert()], num_ops=2)


def test_erase_and_pad_to_size():
    image = rand_image(5, 6)
    out = vision.Erase(1, 2, 2, 3, value=(1, 2, 3))(image)
    expected = image.copy()
    expected[1:3, 2:5] = [1, 2, 3]
    np.testing.assert_array_equal(out, expected)
    assert not np.array_equal(image, out)  # not in place by default
    vision.Erase(0, 0, 1, 1, value=9, inplace=True)(image)
    assert (image[0, 0] == 9).all()
    gray = rand_image(3, 4)[:, :, 0]
    out = vision.PadToSize((6, 7), fill_value=5)(gray)
    expected = np.full((6, 7), 5, np.uint8)
    expected[1:4, 1:5] = gray  # 3 missing rows: 1 above, 2 below; 3 missing columns: 1 left, 2 right
    np.testing.assert_array_equal(out, expected)
    out = vision.PadToSize(6, offset=(0, 2), padding_mode=vision.Border.EDGE)(gray)
    np.testing.assert_array_equal(out, np.pad(gray, ((0, 3), (2, 0)), mode="edge"))
    with pytest.raises(RuntimeError):
        vision.PadToSize(2)(gray)


def test_random_resize_and_random_select_subpolicy():
    image = rand_image(8, 10)
    options = [vision.Resize((4, 5), inter)(image)
               for inter in (Inter.BILINEAR, Inter.NEAREST, Inter.BICUBIC, Inter.AREA)]
    seen = set()
    for _ in range(40):
        out = vision.RandomResize((4, 5))(image)
        index = [i for i, o in enumerate(options) if np.array_equal(out, o)]
        assert index
        seen.update(index)
    assert len(seen) >= 3
    policy = [[(vision.Invert(), 1.0)], [(vision.HorizontalFlip(), 1.0), (vision.Invert(), 0.0)]]
    outs = {vision.RandomSelectSubpolicy(policy)(image).tobytes() for _ in range(30)}
    assert outs == {(255 - image).tobytes(), image[:, ::-1].tobytes()}
    with pytest.raises(ValueError):
        vision.RandomSelectSubpolicy([[(vision.Invert(), 1.5)]])
