"""The vision transforms added with the OpenCV kernels: bounding-box ops, batch mixing, automatic
augmentation policies, RandomLighting, RandomPerspective, and argument errors in MindSpore's words.
Pixel values of the deterministic ones are compared with MindSpore in test_vision_reference.py."""
import numpy as np
import pytest
from PIL import Image

import mindspore.dataset as ds
import mindspore.dataset.vision as vision
from mindspore.dataset import config
from mindspore.dataset.engine import cxx_random
from mindspore.dataset.vision import AutoAugmentPolicy, ImageBatchFormat, Inter, SliceMode

RNG = np.random.default_rng(7)


def rand_image(h, w, c=3):
    return RNG.integers(0, 256, (h, w, c) if c else (h, w), dtype=np.uint8)


@pytest.fixture
def fixed_rng(monkeypatch):
    """Make every random operation draw from one known ``std::mt19937`` stream (returns a factory for its twin)."""
    def install(seed):
        engine = cxx_random.MT19937Stream(seed)
        monkeypatch.setattr(config, "_op_engine", lambda op: engine)
        return cxx_random.MT19937Stream(seed)
    return install


BOXES = np.array([[2, 3, 6, 5, 7], [0, 0, 4, 4, 1]], dtype=np.float32)  # x, y, w, h, label
APART = np.array([[2, 3, 6, 5, 7], [10, 10, 4, 4, 1]], dtype=np.float32)  # boxes that do not overlap


# ---------------------------------------------------------------------------------------------------- bounding boxes

def test_resize_with_bbox_scales_boxes_and_keeps_extra_columns():
    image = rand_image(20, 24)
    out, boxes = vision.ResizeWithBBox((10, 36))(image, BOXES)
    np.testing.assert_array_equal(out, vision.Resize((10, 36))(image))
    np.testing.assert_array_equal(boxes, [[3, 1.5, 9, 2.5, 7], [0, 0, 6, 2, 1]])
    assert boxes.dtype == np.float32


def test_bbox_errors():
    image = rand_image(10, 10)
    with pytest.raises(RuntimeError, match="out of bounds"):
        vision.ResizeWithBBox(5)(image, np.array([[5, 5, 6, 1]], np.float32))
    with pytest.raises(RuntimeError, match="negative"):
        vision.RandomHorizontalFlipWithBBox(1.0)(image, np.array([[-1, 0, 2, 2]], np.float32))
    with pytest.raises(RuntimeError, match="float32"):
        vision.ResizeWithBBox(5)(image, np.array([[1, 1, 2, 2]], np.uint32))
    with pytest.raises(RuntimeError, match="shape"):
        vision.ResizeWithBBox(5)(image, np.array([1, 1, 2, 2], np.float32))
    with pytest.raises(ValueError):
        vision.ResizeWithBBox(0)
    with pytest.raises(ValueError):
        vision.BoundingBoxAugment(vision.Invert(), 2.0)


def test_flips_with_bbox(fixed_rng):
    image = rand_image(20, 24)
    out, boxes = vision.RandomHorizontalFlipWithBBox(1.0)(image, BOXES)
    np.testing.assert_array_equal(out, image[:, ::-1])
    np.testing.assert_array_equal(boxes[:, 0], [24 - 2 - 6, 24 - 0 - 4])
    np.testing.assert_array_equal(boxes[:, 1:], BOXES[:, 1:])
    out, boxes = vision.RandomVerticalFlipWithBBox(1.0)(image, BOXES)
    np.testing.assert_array_equal(out, image[::-1])
    np.testing.assert_array_equal(boxes[:, 1], [20 - 3 - 5, 20 - 0 - 4])
    out, boxes = vision.RandomVerticalFlipWithBBox(0.0)(image, BOXES)
    np.testing.assert_array_equal(out, image)
    np.testing.assert_array_equal(boxes, BOXES)


def test_random_crop_with_bbox_clips_and_drops(fixed_rng):
    image = rand_image(20, 24)
    twin = fixed_rng(4)
    out, boxes = vision.RandomCropWithBBox((8, 10))(image, BOXES)
    x = cxx_random.std_uniform_int(twin, 0, 24 - 10)
    y = cxx_random.std_uniform_int(twin, 0, 20 - 8)
    np.testing.assert_array_equal(out, image[y:y + 8, x:x + 10])
    expected = []
    for bx, by, bw, bh, label in BOXES:
        x0, y0, x1, y1 = bx - x, by - y, bx - x + bw, by - y + bh
        if x1 > 0 and y1 > 0 and x0 < 10 and y0 < 8:
            cx0, cy0, cx1, cy1 = np.clip([x0, y0, x1, y1], 0, [10, 8, 10, 8])
            expected.append([cx0, cy0, cx1 - cx0, cy1 - cy0, label])
    np.testing.assert_array_equal(boxes, np.array(expected, np.float32).reshape(-1, 5))


def test_random_crop_with_bbox_padding_shifts_boxes(fixed_rng):
    image = rand_image(6, 6)
    boxes = np.array([[1, 1, 2, 2]], np.float32)
    _, out = vision.RandomCropWithBBox(10, padding=2)(image, boxes)  # the crop is the whole padded image
    np.testing.assert_array_equal(out, [[3, 3, 2, 2]])


def test_random_resize_and_resized_crop_with_bbox(fixed_rng):
    image = rand_image(20, 24)
    out, boxes = vision.RandomResizeWithBBox((10, 12))(image, BOXES)
    assert any(np.array_equal(out, vision.Resize((10, 12), m)(image))
               for m in (Inter.LINEAR, Inter.NEAREST, Inter.CUBIC, Inter.AREA))
    np.testing.assert_array_equal(boxes[:, :4], BOXES[:, :4] / 2)
    out, boxes = vision.RandomResizedCropWithBBox((10, 12), scale=(1.0, 1.0), ratio=(1.2, 1.2))(image, BOXES)
    np.testing.assert_array_equal(out, vision.Resize((10, 12))(image))
    np.testing.assert_array_equal(boxes[:, :4], BOXES[:, :4] / 2)


def test_bounding_box_augment_changes_only_chosen_boxes(fixed_rng):
    image = rand_image(20, 24)
    out, boxes = vision.BoundingBoxAugment(vision.Invert(), 1.0)(image, APART)
    np.testing.assert_array_equal(boxes, APART)
    mask = np.zeros((20, 24), bool)
    mask[3:8, 2:8] = mask[10:14, 10:14] = True
    np.testing.assert_array_equal(out[mask], 255 - image[mask])
    np.testing.assert_array_equal(out[~mask], image[~mask])
    out, _ = vision.BoundingBoxAugment(vision.Invert(), 0.0)(image, APART)
    np.testing.assert_array_equal(out, image)
    twin = fixed_rng(4)
    for _ in range(4):      # each box with probability 0.5 (one float draw per box)
        out, _ = vision.BoundingBoxAugment(vision.Invert(), 0.5)(image, APART)
        chosen = [cxx_random.std_uniform_real(twin, 0.0, 1.0, single=True) < 0.5 for _ in range(2)]
        assert (out[3:8, 2:8] == 255 - image[3:8, 2:8]).all() == chosen[0]
        assert (out[10:14, 10:14] == 255 - image[10:14, 10:14]).all() == chosen[1]
    # a transform that changes the size: the result is resized back into the box
    out, _ = vision.BoundingBoxAugment(vision.Resize((2, 2)), 1.0)(image, BOXES[1:])
    assert out.shape == image.shape


def test_bbox_ops_in_a_pipeline():
    images = [rand_image(20, 24) for _ in range(3)]
    data = ds.NumpySlicesDataset({"image": np.stack(images), "bbox": np.stack([BOXES] * 3)}, shuffle=False)
    data = data.map(vision.ResizeWithBBox((10, 12)), input_columns=["image", "bbox"])
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert len(rows) == 3
    np.testing.assert_array_equal(rows[0][0], vision.Resize((10, 12))(images[0]))
    np.testing.assert_array_equal(rows[0][1][:, :4], BOXES[:, :4] / 2)


# ---------------------------------------------------------------------------------------------------- batch mixing

def test_mix_up_batch(fixed_rng):
    images = RNG.integers(0, 256, (4, 5, 6, 3), dtype=np.uint8)
    labels = np.eye(4, dtype=np.float32)
    twin = fixed_rng(2)
    out, mixed = vision.MixUpBatch(0.5)(images, labels)
    # 2.10: x1 and x2 from two gamma_distribution<float> objects, then std::shuffle of the indices
    x1, x2 = cxx_random.GammaFloat(0.5)(twin), cxx_random.GammaFloat(0.5)(twin)
    lam = np.float32(x1 / (x1 + x2))
    perm = cxx_random.std_shuffle(np.arange(4), twin)
    expected = lam * images.astype(np.float32) + (np.float32(1) - lam) * images[perm].astype(np.float32)
    np.testing.assert_array_equal(out, np.clip(np.rint(expected), 0, 255).astype(np.uint8))     # OpenCV rounds
    np.testing.assert_allclose(mixed, lam * labels + (1 - lam) * labels[perm], rtol=1e-6)
    np.testing.assert_allclose(mixed.sum(axis=1), 1.0, rtol=1e-6)
    with pytest.raises(ValueError, match="alpha"):
        vision.MixUpBatch(0)
    with pytest.raises(RuntimeError):
        vision.MixUpBatch()(images[0], labels)
    with pytest.raises(RuntimeError):
        vision.MixUpBatch()(images, np.arange(4))


@pytest.mark.parametrize("fmt", [ImageBatchFormat.NHWC, ImageBatchFormat.NCHW])
def test_cut_mix_batch_pastes_boxes_and_mixes_labels_by_area(fmt):
    ones = np.ones((2, 8, 10, 3), np.uint8)
    images = np.concatenate([ones * 10, ones * 200])
    if fmt == ImageBatchFormat.NCHW:
        images = images.transpose(0, 3, 1, 2)
    labels = np.eye(4, dtype=np.float32)
    ds.config.set_seed(3)
    checked = 0
    for _ in range(10):
        out, mixed = vision.CutMixBatch(fmt, 1.0, 1.0)(images, labels)
        assert out.shape == images.shape
        for i in range(4):
            np.testing.assert_allclose(mixed[i].sum(), 1.0, rtol=1e-6)
            changed = (out[i] != images[i]).any(axis=0 if fmt == ImageBatchFormat.NCHW else 2).mean()
            donors = [k for k in range(4) if k != i and mixed[i, k] > 0]
            if donors and images[donors[0]].flat[0] != images[i].flat[0]:
                # the label moved to the donor is the fraction of the image pasted from it
                np.testing.assert_allclose(mixed[i, donors[0]], changed, rtol=1e-5)
                checked += 1
    assert checked > 0
    out, mixed = vision.CutMixBatch(fmt, 1.0, 0.0)(images, labels)
    np.testing.assert_array_equal(out, images)
    np.testing.assert_array_equal(mixed, labels)
    with pytest.raises(TypeError):
        vision.CutMixBatch("NHWC")
    with pytest.raises(ValueError):
        vision.CutMixBatch(fmt, prob=2)


def test_mix_up_single_and_across_batches(fixed_rng):
    images = RNG.random((3, 4, 4, 3))
    labels = np.eye(3)
    np.random.seed(9)       # 2.10's MixUp is a Python transform on NumPy's global generator
    out, mixed = vision.MixUp(3, 0.4)(images, labels)
    np.random.seed(9)
    lam = np.random.beta(0.4, 0.4, 3)
    shift = [1, 2, 0]
    np.testing.assert_allclose(out, lam[:, None, None, None] * images + (1 - lam[:, None, None, None]) * images[shift])
    np.testing.assert_allclose(mixed, lam[:, None] * labels + (1 - lam[:, None]) * labels[shift])
    across = vision.MixUp(3, 0.4, is_single=False)
    first, first_labels = across(images, labels)
    np.testing.assert_array_equal(first, images)  # the first batch has nothing to mix with
    second, _ = across(images * 0, labels)
    assert np.abs(second).sum() > 0  # mixed with the previous batch
    with pytest.raises(ValueError):
        vision.MixUp(0, 1.0)
    with pytest.raises(ValueError):
        vision.MixUp(2, 0.0)


# ---------------------------------------------------------------------------------------------------- policies

@pytest.mark.parametrize("policy", list(AutoAugmentPolicy))
def test_auto_augment_applies_known_operations(policy):
    image = rand_image(16, 20)
    ds.config.set_seed(11)
    outs = [vision.AutoAugment(policy)(image) for _ in range(30)]
    assert all(o.shape == image.shape and o.dtype == np.uint8 for o in outs)
    assert any(not np.array_equal(o, image) for o in outs)


def test_rand_augment_magnitude_zero_identity_like_ops_keep_shape():
    image = rand_image(16, 20)
    ds.config.set_seed(5)
    outs = [vision.RandAugment(num_ops=3, magnitude=30, fill_value=(1, 2, 3))(image) for _ in range(30)]
    assert all(o.shape == image.shape for o in outs)
    assert any(not np.array_equal(o, image) for o in outs)
    np.testing.assert_array_equal(vision.RandAugment(num_ops=0)(image), image)
    with pytest.raises(ValueError):
        vision.RandAugment(magnitude=31)
    with pytest.raises(ValueError):
        vision.RandAugment(num_ops=-1)
    with pytest.raises(RuntimeError):
        vision.RandAugment()(rand_image(4, 4, None))


def test_trivial_augment_wide_and_policy_operations():
    from mindspore.dataset.vision._augment_policies import apply_op  # pylint: disable=import-outside-toplevel
    image = rand_image(16, 20)
    ds.config.set_seed(8)
    assert all(vision.TrivialAugmentWide()(image).shape == image.shape for _ in range(30))
    with pytest.raises(ValueError):
        vision.TrivialAugmentWide(1)
    # every operation matches the deterministic transform it stands for
    np.testing.assert_array_equal(apply_op(image, "Rotate", 30.0, Inter.NEAREST, (0, 0, 0)),
                                  vision.Rotate(30)(image))
    np.testing.assert_array_equal(apply_op(image, "Brightness", 0.5, Inter.NEAREST, (0, 0, 0)),
                                  vision.AdjustBrightness(1.5)(image))
    np.testing.assert_array_equal(apply_op(image, "Posterize", 3, Inter.NEAREST, (0, 0, 0)),
                                  vision.Posterize(3)(image))
    np.testing.assert_array_equal(apply_op(image, "Solarize", 100.0, Inter.NEAREST, (0, 0, 0)),
                                  np.where(image >= 100, 255 - image, image))
    # 2.10's ApplyAugment: a shear of magnitude * 180 / pi degrees (no arctan), and a translation of
    # int(magnitude) image sizes (AffineOp takes it as a fraction): any |magnitude| >= 1 leaves only the fill
    shear = float(np.float32(float(np.float32(0.3) * np.float32(180)) / np.pi))
    np.testing.assert_array_equal(apply_op(image, "ShearX", 0.3, Inter.LINEAR, (0, 0, 0)),
                                  vision.Affine(0, [0, 0], 1.0, [shear, 0.0], Inter.LINEAR)(image))
    shifted = apply_op(image, "TranslateX", 5.0, Inter.NEAREST, (9, 9, 9))
    assert (shifted == 9).all()
    np.testing.assert_array_equal(apply_op(image, "TranslateY", 0.7, Inter.NEAREST, (9, 9, 9)), image)
    np.testing.assert_array_equal(apply_op(image, "Identity", 0.0, Inter.NEAREST, (0, 0, 0)), image)


# ---------------------------------------------------------------------------------------------------- others

def test_random_lighting(fixed_rng):
    image = rand_image(5, 6)
    twin = fixed_rng(1)
    out = vision.RandomLighting(0.1)(image)
    normal = cxx_random.NormalFloat(0.0, 0.1)       # 2.10: a std::normal_distribution<float> member
    draws = np.array([normal(twin) for _ in range(3)], np.float32)
    eig = np.array([[55.46 * -0.5675, 4.794 * 0.7192, 1.148 * 0.4009],
                    [55.46 * -0.5808, 4.794 * -0.0045, 1.148 * -0.8140],
                    [55.46 * -0.5836, 4.794 * -0.6948, 1.148 * 0.4203]])
    expected = np.clip(np.rint(image + eig @ draws), 0, 255)
    assert np.abs(out.astype(int) - expected).max() <= 1
    np.testing.assert_array_equal(vision.RandomLighting(0.0)(image), image)
    with pytest.raises(RuntimeError):
        vision.RandomLighting()(rand_image(4, 4, None))
    with pytest.raises(ValueError):
        vision.RandomLighting(-1)


def test_random_perspective_is_for_pil_images(fixed_rng):
    pil = Image.fromarray(rand_image(12, 16))
    assert vision.RandomPerspective(prob=0.0)(pil) is pil
    out = vision.RandomPerspective(0.6, prob=1.0)(pil)
    assert isinstance(out, Image.Image) and out.size == pil.size
    with pytest.raises(ValueError, match="Pillow"):
        vision.RandomPerspective()(np.array(pil))
    with pytest.raises(ValueError):
        vision.RandomPerspective(1.5)


def test_perspective_identity_and_affine_identity():
    image = rand_image(9, 11)
    corners = [[0, 0], [10, 0], [10, 8], [0, 8]]
    np.testing.assert_array_equal(vision.Perspective(corners, corners, Inter.NEAREST)(image), image)
    np.testing.assert_array_equal(vision.Affine(0, [0, 0], 1.0, 0.0)(image), image)
    np.testing.assert_array_equal(vision.Affine(90, [0, 0], 1.0, 0.0)(rand_image(6, 6)).shape, (6, 6, 3))


def test_new_argument_errors():
    with pytest.raises(ValueError, match="translate"):
        vision.Affine(30, [2, 0], 1.0, 0)
    with pytest.raises(TypeError, match="degrees"):
        vision.Affine("a", [0, 0], 1.0, 0)
    with pytest.raises(ValueError, match="scale"):
        vision.Affine(30, [0, 0], -1.0, 0)
    with pytest.raises(ValueError, match="shear"):
        vision.Affine(30, [0, 0], 1.0, 200)
    with pytest.raises(TypeError, match="length of translate"):
        vision.Affine(30, [0, 0, 0], 1.0, 0)
    with pytest.raises(TypeError, match="start_points"):
        vision.Perspective([[0, 0], [1, 0], [1, 1]], [[0, 0], [1, 0], [1, 1], [0, 1]])
    with pytest.raises(ValueError, match="odd"):
        vision.GaussianBlur(4)
    with pytest.raises(ValueError, match="sigma"):
        vision.GaussianBlur(3, -1)
    with pytest.raises(TypeError, match="Kernel size"):
        vision.GaussianBlur((3, 3, 3))
    with pytest.raises(ValueError, match="num_height"):
        vision.SlicePatches(0)
    with pytest.raises(TypeError, match="slice_mode"):
        vision.SlicePatches(2, 2, "a")
    with pytest.raises(ValueError, match="fill_value"):
        vision.SlicePatches(2, 2, SliceMode.PAD, 256)
    with pytest.raises(RuntimeError, match="SlicePatches"):
        vision.SlicePatches(5, 1)(rand_image(3, 3))


def test_slice_patches_reassemble():
    image = rand_image(7, 9)
    patches = vision.SlicePatches(2, 3, SliceMode.PAD, 5)(image)
    assert len(patches) == 6 and all(p.shape == (4, 3, 3) for p in patches)
    rows = [np.concatenate(patches[r * 3:(r + 1) * 3], axis=1) for r in range(2)]
    whole = np.concatenate(rows, axis=0)
    np.testing.assert_array_equal(whole[:7, :9], image)
    assert (whole[7:] == 5).all()
    dropped = vision.SlicePatches(2, 2, SliceMode.DROP)(image)
    assert [p.shape for p in dropped] == [(3, 4, 3)] * 4
    assert vision.SlicePatches()(image) is image     # 1 x 1: the image itself, as MindSpore returns it


def test_slice_patches_map_output_columns():
    """In a map, each patch is its own output column (MindSpore returns a tuple); before, ours returned a list,
    which the map took for one column: "... the number of columns returned in 'map' operations: 1, the number of
    'output_columns': 4". The CHW image of the dataset_slice sample is cut as HWC: (1, 28, 28) -> 4 x (1, 7, 28)."""
    images = np.arange(2 * 28 * 28, dtype=np.float32).reshape(2, 1, 28, 28)
    data = ds.NumpySlicesDataset({"image": images, "label": np.array([3, 4], np.int32)}, shuffle=False)
    cols = [f"img{i}" for i in range(4)]
    data = data.map(operations=vision.SlicePatches(1, 4), input_columns="image", output_columns=cols)
    assert data.get_col_names() == cols + ["label"]
    rows = list(data.create_tuple_iterator(output_numpy=True))
    for row, image in zip(rows, images):
        assert all(p.shape == (1, 7, 28) for p in row[:4])
        np.testing.assert_array_equal(np.concatenate(row[:4], axis=1), image)
    data = ds.NumpySlicesDataset({"image": images}, shuffle=False).map(vision.SlicePatches(), "image", "image")
    assert next(data.create_tuple_iterator(output_numpy=True))[0].shape == (1, 28, 28)
