"""The image, detection and window primitives against MindSpore 2.10.

``tests/fixtures/ops/image_ops_2.10.npz`` holds MindSpore 2.10's (CPU) outputs on the inputs of
``make_image_ops_fixture.CASES`` and its gradients for ``make_image_ops_fixture.GRADS``; here the same calls run
on our implementation, with shape-fixing arguments given as Tensors as MindSpore users give them. Also: the
functional forms run the primitives (one definition), MindSpore's errors, and what the conformance cases cannot
express (dynamic NMS output lengths, the grids' edge conventions).
"""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "ops"
sys.path.insert(0, str(FIXTURES))
import make_image_ops_fixture as fx  # noqa: E402

REF = np.load(FIXTURES / "image_ops_2.10.npz")
RECORDED = [c for c in fx.CASES if f"{c[0]}/out0" in REF.files]
BY_NAME = {c[0]: c for c in fx.CASES}



def _run(prim, attrs, inputs):
    return getattr(ops, prim)(**attrs)(*fx.as_args(inputs, ms.Tensor))


def test_fixture_covers_the_cpu_primitives():
    assert len(RECORDED) >= 50
    assert {c[1] for c in RECORDED} >= {"IOU", "NMSWithMask", "BoundingBoxEncode", "BoundingBoxDecode", "CheckValid",
                                        "ROIAlign", "CropAndResize", "ResizeBicubic", "GridSampler2D", "Im2Col",
                                        "Col2Im", "MirrorPad", "BartlettWindow", "BlackmanWindow", "HammingWindow"}


@pytest.mark.parametrize("name,prim,attrs,inputs", RECORDED, ids=[c[0] for c in RECORDED])
def test_outputs_match_mindspore_2_10(name, prim, attrs, inputs):
    res = _run(prim, attrs, inputs)
    res = res if isinstance(res, (tuple, list)) else (res,)
    n_ref = len([k for k in REF.files if k.startswith(name + "/out")])
    assert len(res) == n_ref
    for i, r in enumerate(res):
        expected = REF[f"{name}/out{i}"]
        got = r.asnumpy()
        assert got.dtype == expected.dtype and got.shape == expected.shape, (name, i, got.dtype, got.shape)
        if expected.dtype.kind == "f":
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=2e-5, err_msg=f"{name} output {i}")
        else:
            np.testing.assert_array_equal(got, expected, err_msg=f"{name} output {i}")


@pytest.mark.parametrize("name,positions", fx.GRADS, ids=[g[0] for g in fx.GRADS])
def test_gradients_match_mindspore_2_10(name, positions):
    _, prim, attrs, inputs = BY_NAME[name]
    args = fx.as_args(inputs, ms.Tensor)
    op = getattr(ops, prim)(**attrs)
    w = ms.Tensor(fx.grad_weight(op(*args).shape))

    def f(*xs):
        full = list(args)
        for p, x in zip(positions, xs):
            full[p] = x
        return (op(*full) * w).sum()

    grads = ms.grad(f, grad_position=tuple(range(len(positions))))(*[args[p] for p in positions])
    grads = grads if isinstance(grads, tuple) else (grads,)
    assert len(grads) == len(positions)
    for p, g in zip(positions, grads):
        key = f"{name}/grad{p}"
        np.testing.assert_allclose(g.asnumpy(), REF[key], rtol=1e-4, atol=1e-4, err_msg=key)


# --- the functional forms are the primitives --------------------------------------------------------
def _same(a, b):
    a = a if isinstance(a, (tuple, list)) else (a,)
    b = b if isinstance(b, (tuple, list)) else (b,)
    for x, y in zip(a, b):
        np.testing.assert_allclose(x.asnumpy(), y.asnumpy(), rtol=1e-6, atol=1e-6)


def test_functions_run_the_primitives():
    _, _, _, (a, g) = BY_NAME["iou_iou"]
    _same(ops.iou(ms.Tensor(a), ms.Tensor(g), "iof"), ops.IOU("iof")(ms.Tensor(a), ms.Tensor(g)))
    _, _, attrs, (a, d) = BY_NAME["bbox_decode"]
    _same(ops.bounding_box_decode(ms.Tensor(a), ms.Tensor(d), **attrs),
          ms.Tensor(REF["bbox_decode/out0"]))
    _, _, attrs, (a, g) = BY_NAME["bbox_encode"]
    _same(ops.bounding_box_encode(ms.Tensor(a), ms.Tensor(g), **attrs), ms.Tensor(REF["bbox_encode/out0"]))
    _, _, _, (b, m) = BY_NAME["check_valid"]
    _same(ops.check_valid(ms.Tensor(b), ms.Tensor(m)), ms.Tensor(REF["check_valid/out0"]))
    _, _, attrs, (img, boxes, idx, size) = BY_NAME["crop_and_resize_nearest"]
    _same(ops.crop_and_resize(ms.Tensor(img), ms.Tensor(boxes), ms.Tensor(idx), size[1], **attrs),
          ms.Tensor(REF["crop_and_resize_nearest/out0"]))
    _, _, _, (theta, size) = BY_NAME["affine_grid"]
    _same(ops.affine_grid(ms.Tensor(theta), size[1]), ms.Tensor(REF["affine_grid/out0"]))
    _, _, attrs, (cols, size) = BY_NAME["col2im"]
    _same(ops.col2im(ms.Tensor(cols), ms.Tensor(size), 2, 1, 0, 1), ms.Tensor(REF["col2im/out0"]))
    _, _, attrs, (x, pads) = BY_NAME["mirror_pad_symmetric"]
    _same(ops.mirror_pad(ms.Tensor(x), ms.Tensor(pads), "SYMMETRIC"), ms.Tensor(REF["mirror_pad_symmetric/out0"]))
    _same(ops.mirror_pad(ms.Tensor(x), pads.tolist(), "SYMMETRIC"), ms.Tensor(REF["mirror_pad_symmetric/out0"]))
    _same(ops.bartlett_window(ms.Tensor(np.array(7, np.int32))), ms.Tensor(REF["bartlett/out0"]))
    _same(ops.blackman_window(ms.Tensor(np.array(5, np.int32)), False), ms.Tensor(REF["blackman_sym/out0"]))
    _same(ops.hamming_window(6, False, 0.6, 0.3), ms.Tensor(REF["hamming_sym/out0"]))


def test_functions_keep_mindspore_window_dtypes():
    assert ops.hamming_window(4).dtype == ms.float32
    assert ops.hamming_window(4, dtype=ms.float64).dtype == ms.float64
    assert ops.BlackmanWindow(dtype=ms.float16)(ms.Tensor(5)).dtype == ms.float16
    assert ops.bartlett_window(ms.Tensor(1)).asnumpy().tolist() == [1.0]
    assert ops.bartlett_window(ms.Tensor(0)).shape == (0,)


# --- behaviour the tables do not show ----------------------------------------------------------------
def test_nms_with_mask_sorts_and_breaks_ties_like_mindspore():
    boxes = ms.Tensor(np.array([[0, 0, 2, 2, 0.5], [0, 0, 2, 2, 0.9], [5, 5, 7, 7, 0.5], [0, 0, 2.1, 2, 0.5]],
                               np.float32))
    out, idx, mask = ops.NMSWithMask(0.5)(boxes)
    # equal scores: the later box first; indices are positions in the sorted list
    np.testing.assert_array_equal(out.asnumpy()[:, 4], np.array([0.9, 0.5, 0.5, 0.5], np.float32))
    np.testing.assert_array_equal(out.asnumpy()[1:, 0], [0.0, 5.0, 0.0])
    np.testing.assert_array_equal(out.asnumpy()[1, 2], np.float32(2.1))
    np.testing.assert_array_equal(idx.asnumpy(), [0, 1, 2, 3])
    np.testing.assert_array_equal(mask.asnumpy(), [True, False, True, False])


def test_nms_v3_and_overlaps_give_dynamic_lengths():
    boxes = ms.Tensor(np.array([[0, 0, 1, 1], [0, 0, 1, 1.05], [2, 2, 3, 3], [2, 2, 3, 3.2]], np.float32))
    scores = ms.Tensor(np.array([0.9, 0.8, 0.7, 0.05], np.float32))
    keep = ops.NonMaxSuppressionV3()(boxes, scores, ms.Tensor(10), ms.Tensor(0.5), ms.Tensor(0.1))
    assert keep.dtype == ms.int32
    np.testing.assert_array_equal(keep.asnumpy(), [0, 2])
    keep = ops.NonMaxSuppressionV3()(boxes, scores, ms.Tensor(1), ms.Tensor(0.5), ms.Tensor(0.0))
    np.testing.assert_array_equal(keep.asnumpy(), [0])
    overlaps = ms.Tensor(np.array([[1, 0.7, 0], [0.7, 1, 0.2], [0, 0.2, 1]], np.float32))
    keep = ops.NonMaxSuppressionWithOverlaps()(overlaps, ms.Tensor(np.array([0.3, 0.9, 0.5], np.float32)),
                                                ms.Tensor(3, ms.int32), ms.Tensor(0.5), ms.Tensor(0.0))
    np.testing.assert_array_equal(keep.asnumpy(), [1, 2])


def test_im2col_and_col2im_are_adjoint():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(2, 3, 5, 6)).astype(np.float64)
    im2col = ops.Im2Col((2, 3), (2, 1), (1, 2), (1, 0, 2, 1))
    cols = im2col(ms.Tensor(x))
    y = rng.normal(size=cols.shape)
    back = ops.Col2Im((2, 3), (1, 2), (1, 0, 2, 1), (2, 1))(ms.Tensor(y), ms.Tensor(np.array([5, 6], np.int32)))
    np.testing.assert_allclose((cols.asnumpy() * y).sum(), (x * back.asnumpy()).sum(), rtol=1e-10)


def test_grid_sampler_is_identity_on_the_affine_identity_grid():
    rng = np.random.default_rng(4)
    x = ms.Tensor(rng.normal(size=(2, 3, 4, 5)).astype(np.float32))
    theta = ms.Tensor(np.tile(np.array([[[1, 0, 0], [0, 1, 0]]], np.float32), (2, 1, 1)))
    for align in (False, True):
        grid = ops.AffineGrid(align)(theta, (2, 3, 4, 5))
        for mode in ("bilinear", "nearest"):
            out = ops.GridSampler2D(mode, "zeros", align)(x, grid)
            np.testing.assert_allclose(out.asnumpy(), x.asnumpy(), rtol=1e-5, atol=1e-5)


def test_resizes_accept_size_tensors_and_tuples():
    x = ms.Tensor(np.random.default_rng(5).normal(size=(1, 2, 3, 4)).astype(np.float32))
    a = ops.ResizeBicubic()(x, ms.Tensor(np.array([5, 7], np.int32)))
    b = ops.ResizeBicubic()(x, (5, 7))
    assert a.shape == (1, 2, 5, 7)
    _same(a, b)
    assert ops.ResizeArea()(ms.Tensor(np.ones((1, 4, 4, 1), np.int32)), (2, 2)).dtype == ms.float32
    assert ops.CropAndResize()(ms.Tensor(np.ones((1, 4, 4, 1), np.int32)), ms.Tensor(np.ones((2, 4), np.float32)),
                               ms.Tensor(np.zeros(2, np.int32)), (3, 3)).dtype == ms.float32


def test_dilation2d_gradient_routes_to_the_maximum():
    x = np.zeros((1, 1, 3, 3), np.float32)
    x[0, 0, 1, 1] = 5.0
    f = np.zeros((1, 2, 2), np.float32)
    dx, df = ms.grad(lambda a, b: ops.Dilation2D(1, 1, "VALID")(a, b).sum(), grad_position=(0, 1))(
        ms.Tensor(x), ms.Tensor(f))
    assert dx.asnumpy()[0, 0, 1, 1] == 4.0 and dx.asnumpy().sum() == 4.0
    np.testing.assert_array_equal(df.asnumpy(), [[[1.0, 1.0], [1.0, 1.0]]])


def test_colour_round_trip_and_hue_wraps():
    rgb = np.random.default_rng(6).uniform(0, 1, (1, 4, 4, 3)).astype(np.float32)
    hsv = ops.RGBToHSV()(ms.Tensor(rgb))
    np.testing.assert_allclose(ops.HSVToRGB()(hsv).asnumpy(), rgb, rtol=1e-5, atol=1e-6)
    once = ops.AdjustHue()(ms.Tensor(rgb), ms.Tensor(0.75, ms.float32))
    twice = ops.AdjustHue()(ops.AdjustHue()(ms.Tensor(rgb), ms.Tensor(0.5, ms.float32)), ms.Tensor(0.25, ms.float32))
    np.testing.assert_allclose(once.asnumpy(), twice.asnumpy(), rtol=1e-5, atol=1e-5)


def test_data_formats():
    np.testing.assert_array_equal(ops.DataFormatDimMap()(ms.Tensor(np.array([0, 1, 2, 3], np.int32))).asnumpy(),
                                  [0, 3, 1, 2])
    np.testing.assert_array_equal(ops.DataFormatVecPermute()(ms.Tensor(np.array([10, 20, 30, 40],
                                                                                np.int32))).asnumpy(),
                                  [10, 40, 20, 30])


def test_sample_distorted_bounding_box_keeps_its_constraints_and_seeds():
    image_size = ms.Tensor(np.array([40, 60, 3], np.int32))
    boxes = ms.Tensor(np.array([[[0.1, 0.2, 0.5, 0.6], [0.6, 0.6, 0.9, 0.95]]], np.float32))
    op = ops.SampleDistortedBoundingBoxV2(seed=7, seed2=1, aspect_ratio_range=(0.5, 2.0), area_range=(0.1, 0.6))
    seen = set()
    for _ in range(20):
        begin, size, bbox = (t.asnumpy() for t in op(image_size, boxes, ms.Tensor(np.array([0.3], np.float32))))
        y, x, h, w = begin[0], begin[1], size[0], size[1]
        assert begin[2] == 0 and size[2] == -1
        assert 0 <= y and y + h <= 40 and 0 <= x and x + w <= 60
        assert 0.1 * 2400 <= h * w <= 0.6 * 2400 and 0.5 * h - 1 <= w <= 2.0 * h + 1
        np.testing.assert_allclose(bbox[0, 0], [y / 40, x / 60, (y + h) / 40, (x + w) / 60], rtol=1e-6)
        covered = []
        for by0, bx0, by1, bx1 in boxes.asnumpy()[0].astype(np.float64):    # the kernel's pixels: int(0.95 * 60) is
            # 56 from the float32 0.95 widened (0.949999988), and 57 in float32 arithmetic
            area = (int(by1 * 40) - int(by0 * 40)) * (int(bx1 * 60) - int(bx0 * 60))
            ih = max(min(y + h, int(by1 * 40)) - max(y, int(by0 * 40)), 0)
            iw = max(min(x + w, int(bx1 * 60)) - max(x, int(bx0 * 60)), 0)
            covered.append(ih * iw / area)
        assert max(covered) >= 0.3
        seen.add((y, x, h, w))
    assert len(seen) > 5     # the stream advances
    again = ops.SampleDistortedBoundingBoxV2(seed=7, seed2=1, aspect_ratio_range=(0.5, 2.0), area_range=(0.1, 0.6))
    first = op.__class__(seed=7, seed2=1, aspect_ratio_range=(0.5, 2.0), area_range=(0.1, 0.6))
    a = again(image_size, boxes, ms.Tensor(np.array([0.3], np.float32)))[0].asnumpy()
    b = first(image_size, boxes, ms.Tensor(np.array([0.3], np.float32)))[0].asnumpy()
    np.testing.assert_array_equal(a, b)
    # impossible constraints: the whole image
    whole = ops.SampleDistortedBoundingBoxV2(seed=1, area_range=(0.05, 0.06), max_attempts=3)
    begin, size, _ = whole(image_size, boxes, ms.Tensor(np.array([1.0], np.float32)))
    assert begin.asnumpy().tolist() == [0, 0, 0] and size.asnumpy().tolist() == [40, 60, -1]


def test_extract_glimpse_noise_is_drawn_from_the_image_range_and_seeded():
    x = ms.Tensor(np.random.default_rng(8).uniform(2.0, 3.0, (1, 4, 4, 1)).astype(np.float32))
    offsets = ms.Tensor(np.array([[0.9, 0.9]], np.float32))
    ms.set_seed(11)
    a = ops.ExtractGlimpse()(x, ms.Tensor(np.array([4, 4], np.int32)), offsets).asnumpy()
    ms.set_seed(11)
    b = ops.ExtractGlimpse()(x, ms.Tensor(np.array([4, 4], np.int32)), offsets).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert a.min() >= x.asnumpy().min() and a.max() <= x.asnumpy().max()
    zero = ops.ExtractGlimpse(uniform_noise=False, noise="zero")(x, ms.Tensor(np.array([4, 4], np.int32)), offsets)
    inside = zero.asnumpy() != 0
    np.testing.assert_array_equal(a[inside], zero.asnumpy()[inside])
    assert (~inside).any()


def test_empty_inputs_give_empty_outputs():
    f32 = np.float32
    assert ops.ROIAlign(2, 2, 1.0)(ms.Tensor(np.ones((1, 1, 3, 3), f32)), ms.Tensor(np.zeros((0, 5), f32))).shape == \
        (0, 1, 2, 2)
    assert ops.CropAndResize()(ms.Tensor(np.ones((1, 3, 3, 1), f32)), ms.Tensor(np.zeros((0, 4), f32)),
                               ms.Tensor(np.zeros(0, np.int32)), (2, 2)).shape == (0, 2, 2, 1)
    boxes, idx, mask = ops.NMSWithMask()(ms.Tensor(np.zeros((0, 5), f32)))
    assert boxes.shape == (0, 5) and idx.shape == (0,) and mask.shape == (0,)
    keep = ops.NonMaxSuppressionV3()(ms.Tensor(np.zeros((0, 4), f32)), ms.Tensor(np.zeros(0, f32)), ms.Tensor(3),
                                     ms.Tensor(0.5), ms.Tensor(0.0))
    assert keep.shape == (0,)
    assert ops.GridSampler2D()(ms.Tensor(np.ones((0, 1, 3, 3), f32)), ms.Tensor(np.ones((0, 2, 2, 2), f32))).shape == \
        (0, 1, 2, 2)
    x = ms.Tensor(np.ones((0, 2, 3, 3), f32))
    assert ms.grad(lambda t: ops.ResizeBicubic()(t, (2, 2)).sum())(x).shape == (0, 2, 3, 3)
    assert ops.rotated_iou(ms.Tensor(np.zeros((1, 0, 5), f32)), ms.Tensor(np.zeros((1, 2, 5), f32))).shape == (1, 0, 2)


# --- MindSpore's errors ----------------------------------------------------------------------------
F32 = np.float32


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: ops.IOU("giou"), ValueError, "For 'IOU', the 'mode' must be 'iou' or 'iof'"),
    (lambda: ops.IOU()(ms.Tensor(np.ones((2, 3), F32)), ms.Tensor(np.ones((2, 4), F32))), ValueError,
     r"For 'IOU', the 'anchor_boxes' shape must be \(N, 4\)"),
    (lambda: ops.IOU()(ms.Tensor(np.ones((2, 4), np.int32)), ms.Tensor(np.ones((2, 4), np.int32))), TypeError,
     "For 'IOU'"),
    (lambda: ops.NMSWithMask()(ms.Tensor(np.ones((2, 4), F32))), ValueError,
     r"For 'NMSWithMask', the 'bboxes' shape must be \(N, 5\)"),
    (lambda: ops.BoundingBoxDecode((4,)), ValueError, "For 'BoundingBoxDecode', the 'max_shape' must be a tuple of 2"),
    (lambda: ops.BoundingBoxEncode(means=(0.0, 0.0)), TypeError,
     "For 'BoundingBoxEncode', the 'means' must be a tuple"),
    (lambda: ops.CheckValid()(ms.Tensor(np.ones((2, 4), F32)), ms.Tensor(np.ones(2, F32))), ValueError,
     r"For 'CheckValid', the 'img_metas' shape must be \(3,\)"),
    (lambda: ops.ROIAlign(2, 2, 1.0, roi_end_mode=2), ValueError, "For 'ROIAlign', the 'roi_end_mode' must be 0 or 1"),
    (lambda: ops.CropAndResize("cubic"), ValueError, "For 'CropAndResize', the 'method' must be"),
    (lambda: ops.ResizeBicubic(True, True), ValueError, "For 'ResizeBicubic', the 'half_pixel_centers' must be False"),
    (lambda: ops.ResizeBicubic()(ms.Tensor(np.ones((1, 1, 2, 2), F32)), (0, 2)), ValueError,
     "For 'ResizeBicubic', the 'size' must be positive"),
    (lambda: ops.ResizeLinear1D("nearest"), ValueError, "For 'ResizeLinear1D', the 'coordinate_transformation_mode'"),
    (lambda: ops.GridSampler2D("bicubic"), ValueError, "For 'GridSampler2D', the 'interpolation_mode' must be"),
    (lambda: ops.GridSampler2D()(ms.Tensor(np.ones((1, 1, 2, 2), F32)), ms.Tensor(np.ones((1, 2, 2, 3), F32))),
     ValueError, r"For 'GridSampler2D', the 'grid' shape must be \(N, ..., 2\)"),
    (lambda: ops.AffineGrid()(ms.Tensor(np.ones((1, 2, 3), F32)), (1, 1, 2, 2, 2)), ValueError,
     r"For 'AffineGrid', the 'theta' must be \(N, 3, 4\)"),
    (lambda: ops.Col2Im(2)(ms.Tensor(np.ones((1, 1, 3, 4), F32)), (3, 3)), ValueError,
     r"input_x.shape\[2\] must be kernel_size\[0\] \* kernel_size\[1\] = 4"),
    (lambda: ops.MirrorPad("EDGE"), ValueError, "For 'MirrorPad', the 'mode' must be 'REFLECT' or 'SYMMETRIC'"),
    (lambda: ops.MirrorPad()(ms.Tensor(np.ones((2, 3), F32)), ms.Tensor(np.array([[2, 0], [0, 0]]))), ValueError,
     r"For 'MirrorPad', the paddings of dimension 0 must be in \[0, 1\]"),
    (lambda: ops.Dilation2D(1, 1, "FULL"), ValueError, "For 'Dilation2D', the 'pad_mode' must be 'SAME' or 'VALID'"),
    (lambda: ops.BartlettWindow()(ms.Tensor(np.array(3.0, F32))), TypeError, "For 'BartlettWindow'"),
    (lambda: ops.HammingWindow(dtype=ms.int32), TypeError, "For 'HammingWindow', the 'dtype' must be float16"),
    (lambda: ops.DataFormatDimMap("NCDHW"), ValueError, "For 'DataFormatDimMap', the 'src_format' must be"),
    (lambda: ops.DataFormatVecPermute()(ms.Tensor(np.ones(3, np.int32))), ValueError,
     r"For 'DataFormatVecPermute', the 'input_x' shape must be \(4,\)"),
    (lambda: ops.HSVToRGB()(ms.Tensor(np.ones((2, 2, 3), F32))), ValueError, "For 'HSVToRGB'"),
    (lambda: ops.RGBToHSV()(ms.Tensor(np.ones((2, 2, 4), F32))), ValueError,
     "For 'RGBToHSV', the last dimension of the input must be 3"),
    (lambda: ops.SampleDistortedBoundingBoxV2(area_range=(0.5, 1.5)), ValueError,
     "For 'SampleDistortedBoundingBoxV2', the 'area_range' must be 2 increasing positive floats at most 1"),
    (lambda: ops.SampleDistortedBoundingBoxV2()(ms.Tensor(np.array([4, 4, 3], np.int32)),
                                                ms.Tensor(np.array([[[0.5, 0.1, 0.2, 0.7]]], np.float32)),
                                                ms.Tensor(np.array([0.1], np.float32))), ValueError,
     "each bounding box must be"),
    (lambda: ops.ExtractGlimpse(uniform_noise=True, noise="zero"), ValueError,
     "For 'ExtractGlimpse', the 'noise' must be 'uniform' when 'uniform_noise' is True"),
    (lambda: ops.ScaleAndTranslate("bicubic"), ValueError, "For 'ScaleAndTranslate', the 'kernel_type' must be one of"),
    (lambda: ops.CombinedNonMaxSuppression()(ms.Tensor(np.ones((1, 3, 2, 4), F32)), ms.Tensor(np.ones((1, 3, 3), F32)),
                                             ms.Tensor(2), ms.Tensor(3), ms.Tensor(0.5), ms.Tensor(0.1)), ValueError,
     r"For 'CombinedNonMaxSuppression', the 'boxes' shape must be \(B, N, q, 4\)"),
    (lambda: ops.UpsampleTrilinear3D()(ms.Tensor(np.ones((1, 1, 2, 2, 2), F32)), (3, 3, 3), (2.0, 2.0, 2.0)),
     ValueError, "For 'UpsampleTrilinear3D', exactly one of 'output_size' and 'scales' must be given"),
])
def test_errors(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call()
