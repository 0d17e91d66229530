"""``mindspore.dataset.vision.py_transforms_util``: the helpers outside code imports directly (MindArmour's natural
perturbations: ``is_numpy``, ``hwc_to_chw``), with MindSpore 2.10's results and errors."""
import numpy as np
import pytest

from mindspore.dataset.vision import py_transforms_util as util


def test_is_numpy_and_hwc_to_chw():
    img = np.arange(24, dtype=np.uint8).reshape(2, 4, 3)
    assert util.is_numpy(img) and not util.is_numpy([1, 2])
    chw = util.hwc_to_chw(img)
    assert chw.shape == (3, 2, 4) and chw.flags.c_contiguous
    np.testing.assert_array_equal(chw, img.transpose(2, 0, 1))
    gray = np.zeros((2, 4), np.float32)
    assert util.hwc_to_chw(gray) is gray
    with pytest.raises(TypeError, match="img should be NumPy array"):
        util.hwc_to_chw([[1]])
    with pytest.raises(TypeError, match="img dimension should be 2 or 3. Got 4"):
        util.hwc_to_chw(np.zeros((1, 2, 3, 4)))


def test_to_tensor_normalize_and_to_type():
    img = np.full((2, 2, 3), 255, np.uint8)
    chw = util.to_tensor(img, np.float32)
    assert chw.shape == (3, 2, 2) and chw.dtype == np.float32 and np.all(chw == 1.0)
    out = util.normalize(chw, [0.5, 0.5, 0.5], [0.25, 0.25, 0.25])
    assert np.all(out == 2.0)
    padded = util.normalize(chw, [0.5], [0.5], pad_channel=True, dtype="float16")
    assert padded.shape == (4, 2, 2) and padded.dtype == np.float16 and np.all(padded[3] == 0)
    # 2.10 raises NotImplementedError here (an integer image); ours a TypeError with 2.10's message
    with pytest.raises(TypeError, match="pls execute \\[ToTensor\\] before \\[Normalize\\]"):
        util.normalize(img.transpose(2, 0, 1), [0.5], [0.5])
    with pytest.raises(ValueError, match="Length of mean and std must both be 1 or equal to the number of channels"):
        util.normalize(chw, [0.5, 0.5], [0.5, 0.5])
    assert util.to_type(chw, np.int32).dtype == np.int32


def test_pil_helpers():
    from PIL import Image
    img = util.to_pil(np.arange(12, dtype=np.uint8).reshape(2, 2, 3))
    assert util.is_pil(img) and img.size == (2, 2)
    np.testing.assert_array_equal(np.asarray(util.horizontal_flip(img)), np.asarray(img)[:, ::-1])
    np.testing.assert_array_equal(np.asarray(util.vertical_flip(img)), np.asarray(img)[::-1])
    assert util.crop(img, 0, 1, 2, 1).size == (1, 2)
    assert isinstance(util.to_pil(np.zeros((2, 2), np.float32)), Image.Image)
    with pytest.raises(TypeError, match="img should be PIL image"):
        util.horizontal_flip(np.zeros((2, 2, 3), np.uint8))
