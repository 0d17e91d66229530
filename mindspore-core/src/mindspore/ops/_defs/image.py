"""Image, detection and window primitives of MindSpore 2.10.

* detection: ``IOU``, ``NMSWithMask`` (boxes sorted by score, equal scores the later box first, and the indices
  ``0..N-1`` of that sorted list, as MindSpore 2.10's CPU kernel gives), ``BoundingBoxEncode``/
  ``BoundingBoxDecode`` (clipped to ``[0, width]``/``[0, height]``), ``CheckValid``, ``ROIAlign`` (Caffe2's
  RoIAlign: ``rois`` rows ``(batch, x1, y1, x2, y2)``, ``roi_end_mode=1`` adds one pixel to the end corner,
  ``sample_num=0`` samples ``floor(roi_size / pooled_size)`` points per bin axis, as MindSpore 2.10's CPU kernel
  does), ``CropAndResize`` (TensorFlow's, NHWC, Float32 out, coordinates in float32), ``NonMaxSuppressionV3``,
  ``NonMaxSuppressionWithOverlaps`` (TensorFlow's greedy NMS: a box is dropped when its overlap with a kept one
  exceeds the threshold; equal scores keep the lower index first), ``CombinedNonMaxSuppression`` (per class, then
  over classes), ``RotatedIou`` (rotated rectangles, behind ``ops.rotated_iou``);
* colour: ``RGBToHSV``, ``HSVToRGB``, ``AdjustHue``, ``AdjustSaturation`` (TensorFlow's, last axis 3);
* resizing and crops: ``ResizeBicubic`` (TensorFlow's: Keys cubic with a = -0.75, or -0.5 with
  ``half_pixel_centers``, over its 1024-entry coefficient table), ``ResizeNearestNeighborV2``, ``ResizeLinear1D``,
  ``ResizeArea`` (NHWC), ``ScaleAndTranslate`` (TensorFlow's sampling kernels), ``ExtractGlimpse``,
  ``SampleDistortedBoundingBoxV2`` (seeded stream), ``UpsampleNearest3D``, ``UpsampleTrilinear3D`` (PyTorch's);
* sampling: ``GridSampler2D``/``GridSampler3D`` (PyTorch's ``grid_sample``: bilinear/nearest, zeros/border/
  reflection padding), ``AffineGrid``;
* patches: ``Im2Col``/``Col2Im`` (each the other's adjoint), ``ExtractImagePatches``/``ExtractVolumePatches``
  (depth ordered kernel position first, channel fastest), ``MirrorPad``, ``Dilation2D`` (grayscale dilation);
* ``BartlettWindow``, ``BlackmanWindow``, ``HammingWindow``; ``DataFormatDimMap``, ``DataFormatVecPermute``.

Arguments that fix an output shape (``size`` of the resizes, ``output_size`` of ``Col2Im``, ``paddings`` of
``MirrorPad``, ``crop_size``, the sizes of ``CombinedNonMaxSuppression``) may be Tensors, as in MindSpore;
``__call__`` reads them as constants (a window's length is read by the kernel: the output length is known when it
runs). Each linear op's gradient is its adjoint (a ``...Grad`` primitive run by the same kernel definition, see
the backends' ``kernels/image.py``). ``IOU``, ``CheckValid`` and ``BoundingBoxDecode`` pass no gradient (zeros, or
no bprop, in MindSpore 2.10), nor do NMS, the colour ops, ``ResizeArea``, ``ExtractGlimpse``, the windows and the
format maps; ``CropAndResize`` differentiates for the image and the boxes, ``ROIAlign`` for the features (zeros
for the rois, as MindSpore's), ``ScaleAndTranslate`` for the image, the grid samplers for the input and the grid;
``BoundingBoxEncode`` has the true gradient (MindSpore 2.10 has no bprop for it).
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops._defs.random import _RandomOp, _combined_seed, check_seed
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)
_F1632 = (mstype.float16, mstype.float32)
_INDEX = (mstype.int32, mstype.int64)


def _const(v):
    """A Tensor argument that fixes a shape, as Python ints (lists for 2-D)."""
    if isinstance(v, Tensor):
        return tuple(tuple(r) if isinstance(r, list) else r for r in v.asnumpy().tolist()) if v.ndim else \
            v.asnumpy().item()
    return v


def _float_tuple(op, name, v, n):
    if not isinstance(v, (tuple, list)) or len(v) != n or not all(
            isinstance(a, (int, float)) and not isinstance(a, bool) for a in v):
        raise MSTypeError(f"For '{op}', the '{name}' must be a tuple of {n} floats, but got {v}.")
    return tuple(float(a) for a in v)


def _shape_of(op, name, v, n=None):
    if isinstance(v, int) and not isinstance(v, bool):
        v = (v,)
    if not isinstance(v, (tuple, list)) or not all(isinstance(a, int) and not isinstance(a, bool) for a in v):
        raise MSTypeError(f"For '{op}', the '{name}' must be a tuple of ints or an int Tensor, but got {v}.")
    if n is not None and len(v) != n:
        raise MSValueError(f"For '{op}', the length of '{name}' must be {n}, but got {len(v)}.")
    if any(a <= 0 for a in v):
        raise MSValueError(f"For '{op}', the '{name}' must be positive, but got {tuple(v)}.")
    return tuple(v)


def _check_format(op, name, v):
    if v not in ("NHWC", "NCHW"):
        raise MSValueError(f"For '{op}', the '{name}' must be 'NHWC' or 'NCHW', but got {v!r}.")


def _check_boxes(op, name, shape, cols=4):
    rules.check_rank(op, name, shape, 2)
    if shape[1] != cols and shape[1] != -1:
        raise MSValueError(f"For '{op}', the '{name}' shape must be (N, {cols}), but got {tuple(shape)}.")


# --- IOU / box coders / CheckValid ------------------------------------------------------------
class IOU(Primitive):
    """``IOU(mode='iou')(anchor_boxes (N, 4), gt_boxes (M, 4))``: (M, N) intersection over union (``'iof'``:
    over the ground-truth area); areas count the end pixel."""

    @prim_attr_register
    def __init__(self, mode="iou"):
        if mode not in ("iou", "iof"):
            raise MSValueError(f"For '{self.name}', the 'mode' must be 'iou' or 'iof', but got {mode!r}.")

    def infer_shape(self, anchor_boxes, gt_boxes):
        _check_boxes(self.name, "anchor_boxes", anchor_boxes)
        _check_boxes(self.name, "gt_boxes", gt_boxes)
        return (gt_boxes[0], anchor_boxes[0])

    def infer_dtype(self, anchor_boxes, gt_boxes):
        rules.check_dtype_in(self.name, "anchor_boxes", anchor_boxes, _FLOATS)
        return rules.check_same_dtype(self.name, ("anchor_boxes", "gt_boxes"), (anchor_boxes, gt_boxes))

    bprop = NON_DIFFERENTIABLE   # MindSpore's bprop gives zeros


class BoundingBoxEncode(Primitive):
    """``BoundingBoxEncode(means, stds)(anchor_box (N, 4), groundtruth_box (N, 4))``: deltas (N, 4)."""

    @prim_attr_register
    def __init__(self, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
        self.add_prim_attr("means", _float_tuple(self.name, "means", means, 4))
        self.add_prim_attr("stds", _float_tuple(self.name, "stds", stds, 4))

    def infer_shape(self, anchor_box, groundtruth_box):
        _check_boxes(self.name, "anchor_box", anchor_box)
        _check_boxes(self.name, "groundtruth_box", groundtruth_box)
        if anchor_box[0] != groundtruth_box[0]:
            raise MSValueError(f"For '{self.name}', 'anchor_box' and 'groundtruth_box' must have the same number of "
                               f"boxes, but got {anchor_box[0]} and {groundtruth_box[0]}.")
        return tuple(anchor_box)

    def infer_dtype(self, anchor_box, groundtruth_box):
        rules.check_dtype_in(self.name, "anchor_box", anchor_box, _FLOATS)
        return rules.check_same_dtype(self.name, ("anchor_box", "groundtruth_box"), (anchor_box, groundtruth_box))

    def bprop(self, anchor_box, groundtruth_box, out, dout):
        # MindSpore 2.10 has none (grad raises); the derivative of the deltas through the box centres and sizes
        gdx, gdy, gdw, gdh = (fops.div(d, s) for d, s in zip(fops.split(dout, 1, 1), self.stds))
        grads = []
        px, py, pw, ph = _centres(anchor_box)
        gx, gy, gw, gh = _centres(groundtruth_box)
        d_pc = (fops.neg(fops.div(gdx, pw)), fops.neg(fops.div(gdy, ph)))
        d_ps = (fops.neg(fops.div(fops.add(fops.div(fops.mul(gdx, fops.sub(gx, px)), pw), gdw), pw)),
                fops.neg(fops.div(fops.add(fops.div(fops.mul(gdy, fops.sub(gy, py)), ph), gdh), ph)))
        d_gc = (fops.div(gdx, pw), fops.div(gdy, ph))
        d_gs = (fops.div(gdw, gw), fops.div(gdh, gh))
        for dc, ds in ((d_pc, d_ps), (d_gc, d_gs)):
            grads.append(fops.concat((fops.sub(fops.mul(dc[0], 0.5), ds[0]), fops.sub(fops.mul(dc[1], 0.5), ds[1]),
                                      fops.add(fops.mul(dc[0], 0.5), ds[0]), fops.add(fops.mul(dc[1], 0.5), ds[1])),
                                     1))
        return tuple(grads)


def _centres(b):
    """Centres and sizes (N, 1) of (x1, y1, x2, y2) boxes whose sizes count the end pixel."""
    x1, y1, x2, y2 = fops.split(b, 1, 1)
    w, h = fops.add(fops.sub(x2, x1), 1.0), fops.add(fops.sub(y2, y1), 1.0)
    return fops.mul(fops.add(x1, x2), 0.5), fops.mul(fops.add(y1, y2), 0.5), w, h


class BoundingBoxDecode(Primitive):
    """``BoundingBoxDecode(max_shape, means, stds, wh_ratio_clip=0.016)(anchor_box (N, 4), deltas (N, 4))``:
    boxes clipped to the image ``max_shape = (height, width)``."""

    @prim_attr_register
    def __init__(self, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
        if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2:
            raise MSValueError(f"For '{self.name}', the 'max_shape' must be a tuple of 2 ints, but got {max_shape}.")
        self.add_prim_attr("max_shape", tuple(max_shape))
        self.add_prim_attr("means", _float_tuple(self.name, "means", means, 4))
        self.add_prim_attr("stds", _float_tuple(self.name, "stds", stds, 4))
        if isinstance(wh_ratio_clip, bool) or not isinstance(wh_ratio_clip, (int, float)) or wh_ratio_clip <= 0:
            raise MSValueError(f"For '{self.name}', the 'wh_ratio_clip' must be a positive float, but got "
                               f"{wh_ratio_clip}.")

    def infer_shape(self, anchor_box, deltas):
        _check_boxes(self.name, "anchor_box", anchor_box)
        _check_boxes(self.name, "deltas", deltas)
        if anchor_box[0] != deltas[0]:
            raise MSValueError(f"For '{self.name}', 'anchor_box' and 'deltas' must have the same number of boxes, "
                               f"but got {anchor_box[0]} and {deltas[0]}.")
        return tuple(anchor_box)

    def infer_dtype(self, anchor_box, deltas):
        rules.check_dtype_in(self.name, "anchor_box", anchor_box, _F1632)
        return rules.check_same_dtype(self.name, ("anchor_box", "deltas"), (anchor_box, deltas))

    bprop = NON_DIFFERENTIABLE   # as MindSpore 2.10 (no bprop)


class CheckValid(Primitive):
    """``CheckValid()(bboxes (N, 4), img_metas (3,))``: whether each box lies inside the image
    ``(height, width, ratio)``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, bboxes, img_metas):
        _check_boxes(self.name, "bboxes", bboxes)
        if tuple(img_metas) != (3,):
            raise MSValueError(f"For '{self.name}', the 'img_metas' shape must be (3,), but got {tuple(img_metas)}.")
        return (bboxes[0],)

    def infer_dtype(self, bboxes, img_metas):
        allowed = (mstype.float16, mstype.float32, mstype.int16, mstype.uint8)
        rules.check_dtype_in(self.name, "bboxes", bboxes, allowed)
        rules.check_dtype_in(self.name, "img_metas", img_metas, allowed)
        return mstype.bool_

    bprop = NON_DIFFERENTIABLE   # MindSpore's bprop gives zeros


# --- NMS --------------------------------------------------------------------------------------
class NMSWithMask(Primitive):
    """``NMSWithMask(iou_threshold=0.5)(bboxes (N, 5))``: the boxes ``(x1, y1, x2, y2, score)`` sorted by
    decreasing score (equal scores: the later box first), the Int32 indices ``0..N-1`` of that sorted list (what
    MindSpore 2.10's CPU kernel gives) and whether each sorted box survives greedy NMS (IoU without the end pixel
    greater than ``iou_threshold`` suppresses)."""

    @prim_attr_register
    def __init__(self, iou_threshold=0.5):
        if isinstance(iou_threshold, bool) or not isinstance(iou_threshold, (int, float)):
            raise MSTypeError(f"For '{self.name}', the 'iou_threshold' must be a float, but got "
                              f"{type(iou_threshold).__name__}.")

    def infer_shape(self, bboxes):
        _check_boxes(self.name, "bboxes", bboxes, 5)
        return tuple(bboxes), (bboxes[0],), (bboxes[0],)

    def infer_dtype(self, bboxes):
        rules.check_dtype_in(self.name, "bboxes", bboxes, _F1632)
        return bboxes, mstype.int32, mstype.bool_

    bprop = NON_DIFFERENTIABLE


class NonMaxSuppressionV3(Primitive):
    """``NonMaxSuppressionV3()(boxes (N, 4), scores (N,), max_output_size, iou_threshold, score_threshold)``:
    the Int32 indices of the boxes greedy NMS keeps (at most ``max_output_size``, scores above
    ``score_threshold``), in decreasing score."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, boxes, scores, max_output_size, iou_threshold, score_threshold):
        _check_boxes(self.name, "boxes", boxes)
        rules.check_rank(self.name, "scores", scores, 1)
        if scores[0] != boxes[0]:
            raise MSValueError(f"For '{self.name}', the length of 'scores' must be boxes.shape[0] = {boxes[0]}, but "
                               f"got {scores[0]}.")
        return (-1,)

    def infer_dtype(self, boxes, scores, max_output_size, iou_threshold, score_threshold):
        rules.check_dtype_in(self.name, "boxes", boxes, _F1632)
        rules.check_dtype_in(self.name, "scores", scores, _F1632)
        rules.check_dtype_in(self.name, "max_output_size", max_output_size, (mstype.int8, mstype.int16) + _INDEX)
        return mstype.int32

    bprop = NON_DIFFERENTIABLE


class NonMaxSuppressionWithOverlaps(Primitive):
    """``NonMaxSuppressionWithOverlaps()(overlaps (N, N), scores (N,), max_output_size, overlap_threshold,
    score_threshold)``: greedy NMS on a given overlap matrix, Int32 indices."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, overlaps, scores, max_output_size, overlap_threshold, score_threshold):
        rules.check_rank(self.name, "overlaps", overlaps, 2)
        if overlaps[0] != overlaps[1] or tuple(scores) != (overlaps[0],):
            raise MSValueError(f"For '{self.name}', 'overlaps' must be (N, N) and 'scores' (N,), but got "
                               f"{tuple(overlaps)} and {tuple(scores)}.")
        return (-1,)

    def infer_dtype(self, overlaps, scores, max_output_size, overlap_threshold, score_threshold):
        rules.check_dtype_in(self.name, "overlaps", overlaps, _FLOATS)
        rules.check_dtype_in(self.name, "scores", scores, _FLOATS)
        rules.check_dtype_in(self.name, "max_output_size", max_output_size, (mstype.int32,))
        return mstype.int32

    bprop = NON_DIFFERENTIABLE


class CombinedNonMaxSuppression(Primitive):
    """``CombinedNonMaxSuppression(pad_per_class=False, clip_boxes=True)(boxes (B, N, q, 4), scores (B, N, C),
    max_output_size_per_class, max_total_size, iou_threshold, score_threshold)``: per image, greedy NMS per class
    (at most ``max_output_size_per_class`` each), then the best ``max_total_size`` over all classes:
    ``(nmsed_boxes (B, T, 4), nmsed_scores (B, T), nmsed_classes (B, T), valid_detections (B,))``, zero-padded;
    ``T`` is ``max_total_size`` (``pad_per_class``: at most ``max_output_size_per_class * C``)."""

    @prim_attr_register
    def __init__(self, pad_per_class=False, clip_boxes=True):
        rules.check_bool(self.name, "pad_per_class", pad_per_class)
        rules.check_bool(self.name, "clip_boxes", clip_boxes)

    def __call__(self, boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold):
        return super().__call__(boxes, scores, _const(max_output_size_per_class), _const(max_total_size),
                                iou_threshold, score_threshold)

    def infer_shape(self, boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold):
        rules.check_rank(self.name, "boxes", boxes, 4)
        rules.check_rank(self.name, "scores", scores, 3)
        if boxes[3] != 4 or boxes[2] not in (1, scores[2]) or tuple(boxes[:2]) != tuple(scores[:2]):
            raise MSValueError(f"For '{self.name}', the 'boxes' shape must be (B, N, q, 4) with q 1 or the class count "
                               f"of 'scores' (B, N, C), but got {tuple(boxes)} and {tuple(scores)}.")
        per_class = _int_value(self.name, "max_output_size_per_class", max_output_size_per_class)
        total = _int_value(self.name, "max_total_size", max_total_size)
        size = min(total, per_class * scores[2]) if self.pad_per_class else total
        return (boxes[0], size, 4), (boxes[0], size), (boxes[0], size), (boxes[0],)

    def infer_dtype(self, boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold):
        rules.check_dtype_in(self.name, "boxes", boxes, (mstype.float32,))
        rules.check_dtype_in(self.name, "scores", scores, (mstype.float32,))
        return mstype.float32, mstype.float32, mstype.float32, mstype.int32

    bprop = NON_DIFFERENTIABLE


def _int_value(op, name, v):
    if isinstance(v, tuple) and len(v) == 1:
        v = v[0]
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        raise MSValueError(f"For '{op}', the '{name}' must be a positive int (or a 0-D int Tensor), but got {v}.")
    return v


class RotatedIou(Primitive):
    """``RotatedIou(trans=False, mode=0, is_cross=True, v_threshold=0.0, e_threshold=0.0)(boxes (B, N, 5),
    query_boxes (B, K, 5))``: the overlap of rotated rectangles ``(x, y, w, h, angle)`` (``trans``:
    ``(x1, y1, x2, y2, angle)``; angles in degrees, counter-clockwise) over their union (``mode=0``) or over the
    area of ``boxes`` (``mode=1``), plus 1e-6 in the denominator as Ascend's kernel: (B, N, K), or (B, N) pair by
    pair when not ``is_cross``. Boxes of no area overlap nothing. (MindSpore runs it on Ascend only.)"""

    @prim_attr_register
    def __init__(self, trans=False, mode=0, is_cross=True, v_threshold=0.0, e_threshold=0.0):
        rules.check_bool(self.name, "trans", trans)
        if mode not in (0, 1):
            raise MSValueError(f"For '{self.name}', the 'mode' must be 0 (iou) or 1 (iof), but got {mode}.")
        rules.check_bool(self.name, "is_cross", is_cross)

    def infer_shape(self, boxes, query_boxes):
        rules.check_rank(self.name, "boxes", boxes, 3)
        rules.check_rank(self.name, "query_boxes", query_boxes, 3)
        if boxes[2] != 5 or query_boxes[2] != 5:
            raise MSValueError(f"For '{self.name}', the third dimension of 'boxes' and 'query_boxes' must be 5, but "
                               f"got {tuple(boxes)} and {tuple(query_boxes)}.")
        if boxes[0] != query_boxes[0]:
            raise MSValueError(f"For '{self.name}', 'boxes' and 'query_boxes' must have the same first dimension, but "
                               f"got {boxes[0]} and {query_boxes[0]}.")
        if not self.is_cross:
            if boxes[1] != query_boxes[1]:
                raise MSValueError(f"For '{self.name}', one-to-one calculation needs as many 'query_boxes' as 'boxes', "
                                   f"but got {query_boxes[1]} and {boxes[1]}.")
            return tuple(boxes[:2])
        return (boxes[0], boxes[1], query_boxes[1])

    def infer_dtype(self, boxes, query_boxes):
        rules.check_dtype_in(self.name, "boxes", boxes, (mstype.float16, mstype.float32, mstype.bfloat16))
        return rules.check_same_dtype(self.name, ("boxes", "query_boxes"), (boxes, query_boxes))

    bprop = NON_DIFFERENTIABLE


# --- ROIAlign ---------------------------------------------------------------------------------
class ROIAlign(Primitive):
    """``ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1)(features (N, C, H, W),
    rois (R, 5))``: (R, C, pooled_height, pooled_width), each bin the mean of bilinear samples."""

    @prim_attr_register
    def __init__(self, pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1):
        rules.check_int(self.name, "pooled_height", pooled_height)
        rules.check_int(self.name, "pooled_width", pooled_width)
        if isinstance(spatial_scale, bool) or not isinstance(spatial_scale, (int, float)):
            raise MSTypeError(f"For '{self.name}', the 'spatial_scale' must be a float, but got "
                              f"{type(spatial_scale).__name__}.")
        rules.check_int(self.name, "sample_num", sample_num)
        if roi_end_mode not in (0, 1):
            raise MSValueError(f"For '{self.name}', the 'roi_end_mode' must be 0 or 1, but got {roi_end_mode}.")

    def infer_shape(self, features, rois):
        rules.check_rank(self.name, "features", features, 4)
        _check_boxes(self.name, "rois", rois, 5)
        return (rois[0], features[1], self.pooled_height, self.pooled_width)

    def infer_dtype(self, features, rois):
        rules.check_dtype_in(self.name, "features", features, _FLOATS)
        return rules.check_same_dtype(self.name, ("features", "rois"), (features, rois))

    def bprop(self, features, rois, out, dout):
        grad = ROIAlignGrad(self.pooled_height, self.pooled_width, self.spatial_scale, self.sample_num,
                            self.roi_end_mode)(dout, rois, tuple(features.shape))
        return grad, fops.zeros_like(rois)


class ROIAlignGrad(Primitive):
    """``ROIAlignGrad(...)(dy, rois, xdiff_shape)``: ``ROIAlign``'s adjoint for the features."""

    @prim_attr_register
    def __init__(self, pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1):
        pass

    def infer_shape(self, dy, rois, xdiff_shape):
        return tuple(xdiff_shape)

    def infer_dtype(self, dy, rois, xdiff_shape):
        return dy

    def bprop(self, dy, rois, xdiff_shape, out, dout):
        fwd = ROIAlign(self.pooled_height, self.pooled_width, self.spatial_scale, self.sample_num, self.roi_end_mode)
        return fwd(dout, rois), fops.zeros_like(rois), None


# --- CropAndResize ----------------------------------------------------------------------------
class CropAndResize(Primitive):
    """``CropAndResize(method='bilinear', extrapolation_value=0.0)(x (B, H, W, C), boxes (N, 4), box_index (N,),
    crop_size)``: Float32 crops (N, crop_h, crop_w, C) of the normalised boxes ``(y1, x1, y2, x2)``."""

    @prim_attr_register
    def __init__(self, method="bilinear", extrapolation_value=0.0):
        if method not in ("bilinear", "nearest", "bilinear_v2"):
            raise MSValueError(f"For '{self.name}', the 'method' must be 'bilinear', 'nearest' or 'bilinear_v2', "
                               f"but got {method!r}.")
        if isinstance(extrapolation_value, bool) or not isinstance(extrapolation_value, (int, float)):
            raise MSTypeError(f"For '{self.name}', the 'extrapolation_value' must be a float, but got "
                              f"{type(extrapolation_value).__name__}.")

    def __call__(self, x, boxes, box_index, crop_size):
        return super().__call__(x, boxes, box_index, _const(crop_size))

    def infer_shape(self, x, boxes, box_index, crop_size):
        rules.check_rank(self.name, "x", x, 4)
        _check_boxes(self.name, "boxes", boxes)
        rules.check_rank(self.name, "box_index", box_index, 1)
        if box_index[0] != boxes[0]:
            raise MSValueError(f"For '{self.name}', the length of 'box_index' must be boxes.shape[0] = {boxes[0]}, "
                               f"but got {box_index[0]}.")
        ch, cw = _shape_of(self.name, "crop_size", crop_size, 2)
        return (boxes[0], ch, cw, x[3])

    def infer_dtype(self, x, boxes, box_index, crop_size):
        rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)
        rules.check_dtype_in(self.name, "boxes", boxes, (mstype.float32, mstype.float64))
        rules.check_dtype_in(self.name, "box_index", box_index, (mstype.int32,))
        return mstype.float32

    def bprop(self, x, boxes, box_index, crop_size, out, dout):
        grad = self._grad_prim(CropAndResizeGradImage, self.method)(dout, boxes, box_index, tuple(x.shape))
        dboxes = self._grad_prim(CropAndResizeGradBoxes, self.method)(dout, x, boxes, box_index)
        return fops.cast(grad, fops.dtype(x)), dboxes, fops.zeros_like(box_index), None


class CropAndResizeGradBoxes(Primitive):
    """``CropAndResizeGradBoxes(method)(grads, image, boxes, box_index)``: the gradient for the boxes (bilinear: the
    sampled image's slope along each axis times the coordinate's dependence on the box corners; zero for
    ``'nearest'`` and for samples outside the image)."""

    @prim_attr_register
    def __init__(self, method="bilinear"):
        self.add_prim_attr("extrapolation_value", 0.0)

    def infer_shape(self, grads, image, boxes, box_index):
        return tuple(boxes)

    def infer_dtype(self, grads, image, boxes, box_index):
        return boxes

    bprop = NON_DIFFERENTIABLE


class CropAndResizeGradImage(Primitive):
    """``CropAndResizeGradImage(method)(grads, boxes, box_index, image_size)``: the adjoint for the image."""

    @prim_attr_register
    def __init__(self, method="bilinear"):
        self.add_prim_attr("extrapolation_value", 0.0)

    def infer_shape(self, grads, boxes, box_index, image_size):
        return tuple(image_size)

    def infer_dtype(self, grads, boxes, box_index, image_size):
        return grads

    bprop = NON_DIFFERENTIABLE


# --- colour -----------------------------------------------------------------------------------
class _Colour(Primitive):
    @prim_attr_register
    def __init__(self):
        pass

    def _check(self, images):
        if len(images) < 1 or images[-1] != 3:
            raise MSValueError(f"For '{self.name}', the last dimension of the input must be 3, but got shape "
                               f"{tuple(images)}.")

    bprop = NON_DIFFERENTIABLE


class RGBToHSV(_Colour):
    """``RGBToHSV()(images (..., 3))``: hue, saturation, value in [0, 1]."""

    def infer_shape(self, images):
        self._check(images)
        return tuple(images)

    def infer_dtype(self, images):
        return rules.check_dtype_in(self.name, "images", images, _FLOATS)


class HSVToRGB(_Colour):
    """``HSVToRGB()(x (N, H, W, 3))``: RGB of HSV pixels."""

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, 4)
        self._check(x)
        return tuple(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _FLOATS)


class AdjustHue(_Colour):
    """``AdjustHue()(image (..., 3), delta)``: the hue rotated by ``delta`` (a fraction of the circle)."""

    def infer_shape(self, image, delta):
        self._check(image)
        return tuple(image)

    def infer_dtype(self, image, delta):
        return rules.check_dtype_in(self.name, "image", image, _FLOATS)


class AdjustSaturation(_Colour):
    """``AdjustSaturation()(image (..., 3), scale)``: the saturation times ``scale``, clipped to [0, 1]."""

    def infer_shape(self, image, scale):
        self._check(image)
        return tuple(image)

    def infer_dtype(self, image, scale):
        return rules.check_dtype_in(self.name, "image", image, _FLOATS)


# --- resizing ---------------------------------------------------------------------------------
class _Resize(Primitive):
    """Resizes of the trailing spatial dimensions to ``size`` (a tuple or an int Tensor)."""
    _RANK = 4
    _INPUT = "images"

    def __call__(self, x, size):
        return super().__call__(x, _const(size))

    def infer_shape(self, x, size):
        rules.check_rank(self.name, self._INPUT, x, self._RANK)
        size = _shape_of(self.name, "size", size, self._RANK - 2)
        return tuple(x[:2]) + size

    def infer_dtype(self, x, size):
        return rules.check_dtype_in(self.name, self._INPUT, x, _FLOATS)

    def bprop(self, x, size, out, dout):
        grad = _higher_grad(self)(dout, tuple(x.shape), size)
        return grad, None


class _ResizeGrad(Primitive):
    def infer_shape(self, dout, x_shape, size):
        return tuple(x_shape)

    def infer_dtype(self, dout, x_shape, size):
        return dout

    def bprop(self, dout, x_shape, size, out, ddout):
        return _forward_of(self)(ddout, size), None, None


def _tf_resize_init(self, align_corners, half_pixel_centers):
    rules.check_bool(self.name, "align_corners", align_corners)
    rules.check_bool(self.name, "half_pixel_centers", half_pixel_centers)
    if align_corners and half_pixel_centers:
        raise MSValueError(f"For '{self.name}', the 'half_pixel_centers' must be False when 'align_corners' is "
                           f"True, but got True.")


class ResizeBicubic(_Resize):
    """``ResizeBicubic(align_corners=False, half_pixel_centers=False)(images (N, C, H, W), size)``."""

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        _tf_resize_init(self, align_corners, half_pixel_centers)


class ResizeBicubicGrad(_ResizeGrad):
    """``ResizeBicubicGrad(align_corners, half_pixel_centers)(grads, x_shape, size)``: the adjoint."""

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        pass


class ResizeNearestNeighborV2(_Resize):
    """``ResizeNearestNeighborV2(align_corners=False, half_pixel_centers=False)(x (N, C, H, W), size)``."""
    _INPUT = "x"

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        _tf_resize_init(self, align_corners, half_pixel_centers)

    def infer_dtype(self, x, size):
        return rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)


class ResizeNearestNeighborV2Grad(_ResizeGrad):
    """``ResizeNearestNeighborV2Grad(align_corners, half_pixel_centers)(grads, x_shape, size)``."""

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        pass


class ResizeLinear1D(_Resize):
    """``ResizeLinear1D(coordinate_transformation_mode='align_corners')(x (N, C, W), size (1,))``; modes
    ``'align_corners'``, ``'half_pixel'``, ``'asymmetric'``."""
    _RANK = 3
    _INPUT = "x"

    @prim_attr_register
    def __init__(self, coordinate_transformation_mode="align_corners"):
        if coordinate_transformation_mode not in ("align_corners", "half_pixel", "asymmetric"):
            raise MSValueError(f"For '{self.name}', the 'coordinate_transformation_mode' must be 'align_corners', "
                               f"'half_pixel' or 'asymmetric', but got {coordinate_transformation_mode!r}.")


class ResizeLinear1DGrad(_ResizeGrad):
    """``ResizeLinear1DGrad(coordinate_transformation_mode)(grads, x_shape, size)``."""

    @prim_attr_register
    def __init__(self, coordinate_transformation_mode="align_corners"):
        pass


class ResizeArea(Primitive):
    """``ResizeArea(align_corners=False)(images (N, H, W, C), size)``: Float32 area-weighted resize."""

    @prim_attr_register
    def __init__(self, align_corners=False):
        rules.check_bool(self.name, "align_corners", align_corners)

    def __call__(self, images, size):
        return super().__call__(images, _const(size))

    def infer_shape(self, images, size):
        rules.check_rank(self.name, "images", images, 4)
        return (images[0],) + _shape_of(self.name, "size", size, 2) + (images[3],)

    def infer_dtype(self, images, size):
        rules.check_dtype_in(self.name, "images", images, rules.NUMBER_TYPES)
        return mstype.float32

    bprop = NON_DIFFERENTIABLE


_SAMPLING_KERNELS = ("lanczos1", "lanczos3", "lanczos5", "gaussian", "box", "triangle", "keyscubic", "mitchellcubic")


class ScaleAndTranslate(Primitive):
    """``ScaleAndTranslate(kernel_type='lanczos3', antialias=True)(images (N, H, W, C), size, scale (2,),
    translation (2,))``: Float32 ``images`` resampled to ``size``, output pixel ``(y, x)`` reading around
    ``((y + 0.5 - translation) / scale)``, with TensorFlow's sampling kernels (widened by ``1 / scale`` when
    downscaling with ``antialias``)."""

    @prim_attr_register
    def __init__(self, kernel_type="lanczos3", antialias=True):
        if kernel_type not in _SAMPLING_KERNELS:
            raise MSValueError(f"For '{self.name}', the 'kernel_type' must be one of {list(_SAMPLING_KERNELS)}, but "
                               f"got {kernel_type!r}.")
        rules.check_bool(self.name, "antialias", antialias)

    def __call__(self, images, size, scale, translation):
        return super().__call__(images, _const(size), scale, translation)

    def infer_shape(self, images, size, scale, translation):
        rules.check_rank(self.name, "images", images, 4)
        for name, shape in (("scale", scale), ("translation", translation)):
            if tuple(shape) != (2,):
                raise MSValueError(f"For '{self.name}', the '{name}' shape must be (2,), but got {tuple(shape)}.")
        return (images[0],) + _shape_of(self.name, "size", size, 2) + (images[3],)

    def infer_dtype(self, images, size, scale, translation):
        rules.check_dtype_in(self.name, "images", images, rules.NUMBER_TYPES)
        rules.check_dtype_in(self.name, "scale", scale, (mstype.float32,))
        rules.check_dtype_in(self.name, "translation", translation, (mstype.float32,))
        return mstype.float32

    def bprop(self, images, size, scale, translation, out, dout):
        op = self._grad_prim(ScaleAndTranslateGrad, self.kernel_type, self.antialias)
        grad = op(dout, images, scale, translation)
        return fops.cast(grad, fops.dtype(images)), None, fops.zeros_like(scale), fops.zeros_like(translation)


class ScaleAndTranslateGrad(Primitive):
    """``ScaleAndTranslateGrad(kernel_type, antialias)(grads, original_image, scale, translation)``: the adjoint for
    the image."""

    @prim_attr_register
    def __init__(self, kernel_type="lanczos3", antialias=True):
        pass

    def infer_shape(self, grads, original_image, scale, translation):
        return tuple(original_image)

    def infer_dtype(self, grads, original_image, scale, translation):
        return mstype.float32

    bprop = NON_DIFFERENTIABLE


class ExtractGlimpse(_RandomOp):
    """``ExtractGlimpse(centered=True, normalized=True, uniform_noise=True, noise='uniform')(x (N, H, W, C), size,
    offsets (N, 2))``: a ``size`` window of each image at ``offsets`` (y, x) — normalised to [-1, 1] (``normalized``),
    about the centre (``centered``) — pixels outside the image filled with zeros (``'zero'``) or with noise drawn
    from the image's range (``'uniform'``) or mean and deviation (``'gaussian'``), from the instance's random
    stream (reproducible after ``mindspore.set_seed``)."""

    @prim_attr_register
    def __init__(self, centered=True, normalized=True, uniform_noise=True, noise="uniform"):
        self._init_stream(0)
        for name, v in (("centered", centered), ("normalized", normalized), ("uniform_noise", uniform_noise)):
            rules.check_bool(self.name, name, v)
        if noise not in ("uniform", "gaussian", "zero"):
            raise MSValueError(f"For '{self.name}', the 'noise' must be 'uniform', 'gaussian' or 'zero', but got "
                               f"{noise!r}.")
        if uniform_noise and noise != "uniform":
            raise MSValueError(f"For '{self.name}', the 'noise' must be 'uniform' when 'uniform_noise' is True, but "
                               f"got {noise!r}.")

    def __call__(self, x, size, offsets):
        return super().__call__(x, _const(size), offsets)

    def infer_shape(self, x, size, offsets):
        rules.check_rank(self.name, "x", x, 4)
        if tuple(offsets) != (x[0], 2):
            raise MSValueError(f"For '{self.name}', the 'offsets' shape must be ({x[0]}, 2), but got {tuple(offsets)}.")
        return (x[0],) + _shape_of(self.name, "size", size, 2) + (x[3],)

    def infer_dtype(self, x, size, offsets):
        rules.check_dtype_in(self.name, "offsets", offsets, (mstype.float32,))
        return rules.check_dtype_in(self.name, "x", x, (mstype.float32,))

    bprop = NON_DIFFERENTIABLE


class SampleDistortedBoundingBoxV2(_RandomOp):
    """``SampleDistortedBoundingBoxV2(seed=0, seed2=0, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0),
    max_attempts=100, use_image_if_no_bounding_boxes=False)(image_size (3,), bounding_boxes (B, N, 4),
    min_object_covered)``: a random crop ``(begin (3,), size (3,), bboxes (1, 1, 4))`` of the image
    ``(height, width, channels)`` with an aspect ratio and area fraction in the given ranges that covers at least
    ``min_object_covered`` of one of the boxes (TensorFlow's sampler; the whole image after ``max_attempts``
    failures). Draws come from the instance's stream: the same seeds reproduce the same crops, though not
    MindSpore's (another generator)."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0), max_attempts=100,
                 use_image_if_no_bounding_boxes=False):
        check_seed(self.name, "seed", seed)
        check_seed(self.name, "seed2", seed2)
        for name, rng, hi in (("aspect_ratio_range", aspect_ratio_range, None), ("area_range", area_range, 1.0)):
            if not isinstance(rng, (tuple, list)) or len(rng) != 2 or not 0 < rng[0] <= rng[1] or \
                    (hi is not None and rng[1] > hi):
                raise MSValueError(f"For '{self.name}', the '{name}' must be 2 increasing positive floats"
                                   f"{'' if hi is None else ' at most 1'}, but got {rng}.")
        rules.check_positive_int(self.name, "max_attempts", max_attempts)
        rules.check_bool(self.name, "use_image_if_no_bounding_boxes", use_image_if_no_bounding_boxes)
        self._init_stream(_combined_seed(seed, seed2))

    def infer_shape(self, image_size, bounding_boxes, min_object_covered):
        if tuple(image_size) != (3,):
            raise MSValueError(f"For '{self.name}', the 'image_size' shape must be (3,), but got {tuple(image_size)}.")
        rules.check_rank(self.name, "bounding_boxes", bounding_boxes, 3)
        if bounding_boxes[2] != 4:
            raise MSValueError(f"For '{self.name}', the 'bounding_boxes' shape must be (batch, N, 4), but got "
                               f"{tuple(bounding_boxes)}.")
        if tuple(min_object_covered) not in ((), (1,)):
            raise MSValueError(f"For '{self.name}', the 'min_object_covered' must hold one value, but got shape "
                               f"{tuple(min_object_covered)}.")
        return (3,), (3,), (1, 1, 4)

    def infer_dtype(self, image_size, bounding_boxes, min_object_covered):
        rules.check_dtype_in(self.name, "image_size", image_size, rules.INT_TYPES)
        rules.check_dtype_in(self.name, "bounding_boxes", bounding_boxes, (mstype.float32,))
        rules.check_dtype_in(self.name, "min_object_covered", min_object_covered, (mstype.float32,))
        return image_size, image_size, mstype.float32


class _Upsample3D(Primitive):
    def __call__(self, x, output_size=None, scales=None):
        return super().__call__(x, _const(output_size), scales)

    def infer_shape(self, x, output_size, scales):
        rules.check_rank(self.name, "x", x, 5)
        if (output_size is None) == (scales is None):
            raise MSValueError(f"For '{self.name}', exactly one of 'output_size' and 'scales' must be given, but got "
                               f"{output_size} and {scales}.")
        if output_size is not None:
            return tuple(x[:2]) + _shape_of(self.name, "output_size", output_size, 3)
        if not isinstance(scales, (tuple, list)) or len(scales) != 3 or any(s <= 0 for s in scales):
            raise MSValueError(f"For '{self.name}', the 'scales' must be 3 positive floats, but got {scales}.")
        return tuple(x[:2]) + tuple(int(d * s // 1) for d, s in zip(x[2:], scales))

    def infer_dtype(self, x, output_size, scales):
        return rules.check_dtype_in(self.name, "x", x, _FLOATS)

    def bprop(self, x, output_size, scales, out, dout):
        return _higher_grad(self)(dout, tuple(x.shape), output_size, scales), None, None


class _Upsample3DGrad(Primitive):
    def infer_shape(self, dout, x_shape, output_size, scales):
        return tuple(x_shape)

    def infer_dtype(self, dout, x_shape, output_size, scales):
        return dout

    def bprop(self, dout, x_shape, output_size, scales, out, ddout):
        return _forward_of(self)(ddout, output_size, scales), None, None, None


class UpsampleNearest3D(_Upsample3D):
    """``UpsampleNearest3D()(x (N, C, D, H, W), output_size=None, scales=None)``: PyTorch's nearest."""

    @prim_attr_register
    def __init__(self):
        pass


class UpsampleNearest3DGrad(_Upsample3DGrad):
    """``UpsampleNearest3DGrad()(dy, x_shape, output_size, scales)``."""

    @prim_attr_register
    def __init__(self):
        pass


class UpsampleTrilinear3D(_Upsample3D):
    """``UpsampleTrilinear3D(align_corners=False)(x (N, C, D, H, W), output_size=None, scales=None)``."""

    @prim_attr_register
    def __init__(self, align_corners=False):
        rules.check_bool(self.name, "align_corners", align_corners)


class UpsampleTrilinear3DGrad(_Upsample3DGrad):
    """``UpsampleTrilinear3DGrad(align_corners)(dy, x_shape, output_size, scales)``."""

    @prim_attr_register
    def __init__(self, align_corners=False):
        pass


_ADJOINTS = {"ResizeBicubic": ResizeBicubicGrad, "ResizeNearestNeighborV2": ResizeNearestNeighborV2Grad,
             "ResizeLinear1D": ResizeLinear1DGrad, "UpsampleNearest3D": UpsampleNearest3DGrad,
             "UpsampleTrilinear3D": UpsampleTrilinear3DGrad}
_FORWARDS = {"ResizeBicubicGrad": ResizeBicubic, "ResizeNearestNeighborV2Grad": ResizeNearestNeighborV2,
             "ResizeLinear1DGrad": ResizeLinear1D, "UpsampleNearest3DGrad": UpsampleNearest3D,
             "UpsampleTrilinear3DGrad": UpsampleTrilinear3D}


def _own_attrs(prim):
    return {k: v for k, v in prim.attrs.items() if k not in ("input_names", "output_names")}


def _higher_grad(prim):
    return _ADJOINTS[prim.name](**_own_attrs(prim))


def _forward_of(prim):
    return _FORWARDS[prim.name](**_own_attrs(prim))


# --- grid samplers, AffineGrid ----------------------------------------------------------------
class _GridSampler(Primitive):
    _SPATIAL = 2

    @prim_attr_register
    def __init__(self, interpolation_mode="bilinear", padding_mode="zeros", align_corners=False):
        if interpolation_mode not in ("bilinear", "nearest"):
            raise MSValueError(f"For '{self.name}', the 'interpolation_mode' must be 'bilinear' or 'nearest', but "
                               f"got {interpolation_mode!r}.")
        if padding_mode not in ("zeros", "border", "reflection"):
            raise MSValueError(f"For '{self.name}', the 'padding_mode' must be 'zeros', 'border' or 'reflection', "
                               f"but got {padding_mode!r}.")
        rules.check_bool(self.name, "align_corners", align_corners)

    def infer_shape(self, input_x, grid):
        d = self._SPATIAL
        rules.check_rank(self.name, "input_x", input_x, d + 2)
        rules.check_rank(self.name, "grid", grid, d + 2)
        if grid[0] != input_x[0] or grid[-1] != d:
            raise MSValueError(f"For '{self.name}', the 'grid' shape must be (N, ..., {d}) with N = "
                               f"input_x.shape[0] = {input_x[0]}, but got {tuple(grid)}.")
        return (input_x[0], input_x[1]) + tuple(grid[1:-1])

    def infer_dtype(self, input_x, grid):
        rules.check_dtype_in(self.name, "input_x", input_x, _FLOATS)
        return rules.check_same_dtype(self.name, ("input_x", "grid"), (input_x, grid))


class _GridSamplerGrad(Primitive):
    def infer_shape(self, grad, input_x, grid):
        return tuple(input_x), tuple(grid)

    def infer_dtype(self, grad, input_x, grid):
        return input_x, grid

    bprop = NON_DIFFERENTIABLE


class GridSampler2D(_GridSampler):
    """``GridSampler2D(interpolation_mode='bilinear', padding_mode='zeros', align_corners=False)(input_x
    (N, C, H, W), grid (N, H_out, W_out, 2))``."""

    def bprop(self, input_x, grid, out, dout):
        op = self._grad_prim(GridSampler2DGrad, self.interpolation_mode, self.padding_mode, self.align_corners)
        return op(dout, input_x, grid)


class GridSampler2DGrad(_GridSamplerGrad):
    """``GridSampler2DGrad(...)(grad, input_x, grid)``: ``(dx, dgrid)``."""

    @prim_attr_register
    def __init__(self, interpolation_mode="bilinear", padding_mode="zeros", align_corners=False):
        pass


class GridSampler3D(_GridSampler):
    """``GridSampler3D(...)(input_x (N, C, D, H, W), grid (N, D_out, H_out, W_out, 3))``."""
    _SPATIAL = 3

    def bprop(self, input_x, grid, out, dout):
        op = self._grad_prim(GridSampler3DGrad, self.interpolation_mode, self.padding_mode, self.align_corners)
        return op(dout, input_x, grid)


class GridSampler3DGrad(_GridSamplerGrad):
    """``GridSampler3DGrad(...)(grad, input_x, grid)``: ``(dx, dgrid)``."""

    @prim_attr_register
    def __init__(self, interpolation_mode="bilinear", padding_mode="zeros", align_corners=False):
        pass


class AffineGrid(Primitive):
    """``AffineGrid(align_corners=False)(theta (N, 2, 3) or (N, 3, 4), output_size)``: the sampling grid
    (N, H, W, 2) or (N, D, H, W, 3) in [-1, 1]."""

    @prim_attr_register
    def __init__(self, align_corners=False):
        rules.check_bool(self.name, "align_corners", align_corners)

    def __call__(self, theta, output_size):
        return super().__call__(theta, _const(output_size))

    def infer_shape(self, theta, output_size):
        size = _shape_of(self.name, "output_size", output_size)
        spatial = len(size) - 2
        if spatial not in (2, 3) or tuple(theta) != (size[0], spatial, spatial + 1):
            raise MSValueError(f"For '{self.name}', the 'theta' must be (N, {spatial}, {spatial + 1}) for output_size "
                               f"{size}, but got shape {tuple(theta)}.")
        return (size[0],) + size[2:] + (spatial,)

    def infer_dtype(self, theta, output_size):
        return rules.check_dtype_in(self.name, "theta", theta, _FLOATS)

    def bprop(self, theta, output_size, out, dout):
        return self._grad_prim(AffineGridGrad, self.align_corners)(dout, output_size), None


class AffineGridGrad(Primitive):
    """``AffineGridGrad(align_corners)(y_grad, x_size)``: the gradient for ``theta``."""

    @prim_attr_register
    def __init__(self, align_corners=False):
        pass

    def infer_shape(self, y_grad, x_size):
        spatial = len(x_size) - 2
        return (x_size[0], spatial, spatial + 1)

    def infer_dtype(self, y_grad, x_size):
        return y_grad

    def bprop(self, y_grad, x_size, out, dout):
        return self._grad_prim(AffineGrid, self.align_corners)(dout, x_size), None


# --- Im2Col / Col2Im --------------------------------------------------------------------------
def _pair(op, name, v, lengths=(1, 2)):
    v = (v,) if isinstance(v, int) and not isinstance(v, bool) else v
    if not isinstance(v, (tuple, list)) or len(v) not in lengths or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in v):
        raise MSTypeError(f"For '{op}', the '{name}' must be an int or a tuple of {lengths} ints, but got {v}.")
    return tuple(v) * 2 if len(v) == 1 else tuple(v)


def _pads(op, name, v):
    v = _pair(op, name, v, (1, 2, 4))
    return v if len(v) == 4 else (v[0], v[0], v[1], v[1])


def _col_out(op, h, w, ks, st, dl, pads):
    oh = (h + pads[0] + pads[1] - dl[0] * (ks[0] - 1) - 1) // st[0] + 1
    ow = (w + pads[2] + pads[3] - dl[1] * (ks[1] - 1) - 1) // st[1] + 1
    if oh <= 0 or ow <= 0:
        raise MSValueError(f"For '{op}', the sliding blocks do not fit the input of spatial size {(h, w)}.")
    return oh, ow


class Im2Col(Primitive):
    """``Im2Col(ksizes, strides=1, dilations=1, pads=0)(x (N, C, H, W))``: sliding blocks (N, C, kh*kw, L)."""

    @prim_attr_register
    def __init__(self, ksizes, strides=1, dilations=1, pads=0):
        self.add_prim_attr("ksizes", _pair(self.name, "ksizes", ksizes))
        self.add_prim_attr("strides", _pair(self.name, "strides", strides))
        self.add_prim_attr("dilations", _pair(self.name, "dilations", dilations))
        self.add_prim_attr("pads", _pads(self.name, "pads", pads))

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, 4)
        oh, ow = _col_out(self.name, x[2], x[3], self.ksizes, self.strides, self.dilations, self.pads)
        return (x[0], x[1], self.ksizes[0] * self.ksizes[1], oh * ow)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)

    def bprop(self, x, out, dout):
        op = self._grad_prim(Col2Im, self.ksizes, self.dilations, self.pads, self.strides)
        return (op(dout, tuple(x.shape[2:])),)


class Col2Im(Primitive):
    """``Col2Im(kernel_size, dilation=1, padding=0, stride=1)(x (N, C, kh*kw, L), output_size)``: the blocks
    summed back into (N, C, H, W)."""

    @prim_attr_register
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        self.add_prim_attr("kernel_size", _pair(self.name, "kernel_size", kernel_size))
        self.add_prim_attr("dilation", _pair(self.name, "dilation", dilation))
        self.add_prim_attr("padding", _pads(self.name, "padding", padding))
        self.add_prim_attr("stride", _pair(self.name, "stride", stride))

    def __call__(self, x, output_size):
        return super().__call__(x, _const(output_size))

    def infer_shape(self, x, output_size):
        rules.check_rank(self.name, "x", x, 4)
        h, w = _shape_of(self.name, "output_size", output_size, 2)
        ks = self.kernel_size
        oh, ow = _col_out(self.name, h, w, ks, self.stride, self.dilation, self.padding)
        if x[2] != ks[0] * ks[1]:
            raise MSValueError(f"For '{self.name}', input_x.shape[2] must be kernel_size[0] * kernel_size[1] = "
                               f"{ks[0] * ks[1]}, but got {x[2]}.")
        if x[3] != oh * ow:
            raise MSValueError(f"For '{self.name}', the 'x' shape must be (N, C, {ks[0] * ks[1]}, {oh * ow}), but got "
                               f"{tuple(x)}.")
        return (x[0], x[1], h, w)

    def infer_dtype(self, x, output_size):
        return rules.check_dtype_in(self.name, "x", x, _FLOATS)

    def bprop(self, x, output_size, out, dout):
        return self._grad_prim(Im2Col, self.kernel_size, self.stride, self.dilation, self.padding)(dout), None


# --- ExtractImagePatches / ExtractVolumePatches -----------------------------------------------
def _patch_out(op, sizes, ks, st, rt, padding):
    out = []
    for size, k, s, r in zip(sizes, ks, st, rt):
        eff = (k - 1) * r + 1
        o = -(-size // s) if padding == "SAME" else (size - eff) // s + 1
        if o <= 0:
            raise MSValueError(f"For '{op}', the patches do not fit the input of spatial size {tuple(sizes)}.")
        out.append(o)
    return tuple(out)


def _quad_ints(op, name, v, n):
    v = (v,) * n if isinstance(v, int) and not isinstance(v, bool) else v
    if not isinstance(v, (tuple, list)) or len(v) not in (n - 2, n) or not all(
            isinstance(a, int) and not isinstance(a, bool) and a > 0 for a in v):
        raise MSValueError(f"For '{op}', the '{name}' must be {n} positive ints, but got {v}.")
    return (1, 1) + tuple(v[-(n - 2):])


class ExtractImagePatches(Primitive):
    """``ExtractImagePatches(ksizes, strides, rates, padding='VALID')(input_x (N, C, H, W))``:
    (N, C*kh*kw, out_h, out_w)."""

    @prim_attr_register
    def __init__(self, ksizes, strides, rates, padding="VALID"):
        for name, v in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
            self.add_prim_attr(name, _quad_ints(self.name, name, v, 4))
        if padding.upper() not in ("SAME", "VALID"):
            raise MSValueError(f"For '{self.name}', the 'padding' must be 'SAME' or 'VALID', but got {padding!r}.")
        self.add_prim_attr("padding", padding.upper())

    def infer_shape(self, input_x):
        rules.check_rank(self.name, "input_x", input_x, 4)
        ks = self.ksizes[2:]
        outs = _patch_out(self.name, input_x[2:], ks, self.strides[2:], self.rates[2:], self.padding)
        return (input_x[0], input_x[1] * ks[0] * ks[1]) + outs

    def infer_dtype(self, input_x):
        return rules.check_dtype_in(self.name, "input_x", input_x, rules.NUMBER_TYPES)

    def bprop(self, input_x, out, dout):
        return (self._grad_prim(ExtractPatchesGrad, self.name, self.ksizes, self.strides, self.rates, self.padding)(
            dout, tuple(input_x.shape)),)


class ExtractVolumePatches(Primitive):
    """``ExtractVolumePatches(kernel_size, strides, padding)(input_x (N, C, D, H, W))``:
    (N, C*kd*kh*kw, out_d, out_h, out_w)."""

    @prim_attr_register
    def __init__(self, kernel_size, strides, padding):
        self.add_prim_attr("kernel_size", _quad_ints(self.name, "kernel_size", kernel_size, 5))
        self.add_prim_attr("strides", _quad_ints(self.name, "strides", strides, 5))
        if padding.upper() not in ("SAME", "VALID"):
            raise MSValueError(f"For '{self.name}', the 'padding' must be 'SAME' or 'VALID', but got {padding!r}.")
        self.add_prim_attr("padding", padding.upper())

    def infer_shape(self, input_x):
        rules.check_rank(self.name, "input_x", input_x, 5)
        ks = self.kernel_size[2:]
        outs = _patch_out(self.name, input_x[2:], ks, self.strides[2:], (1, 1, 1), self.padding)
        return (input_x[0], input_x[1] * ks[0] * ks[1] * ks[2]) + outs

    def infer_dtype(self, input_x):
        return rules.check_dtype_in(self.name, "input_x", input_x, rules.NUMBER_TYPES)

    def bprop(self, input_x, out, dout):
        nd = len(input_x.shape) - 2
        op = self._grad_prim(ExtractPatchesGrad, self.name, self.kernel_size, self.strides, (1,) * (nd + 2),
                             self.padding)
        return (op(dout, tuple(input_x.shape)),)


class ExtractPatchesGrad(Primitive):
    """``ExtractPatchesGrad(op, ksizes, strides, rates, padding)(dout, x_shape)``: the adjoint of
    ``ExtractImagePatches``/``ExtractVolumePatches``."""

    @prim_attr_register
    def __init__(self, op, ksizes, strides, rates, padding):
        pass

    def infer_shape(self, dout, x_shape):
        return tuple(x_shape)

    def infer_dtype(self, dout, x_shape):
        return dout

    bprop = NON_DIFFERENTIABLE


# --- MirrorPad --------------------------------------------------------------------------------
def _paddings(op, paddings, rank):
    if not isinstance(paddings, (tuple, list)) or len(paddings) != rank or not all(
            isinstance(p, (tuple, list)) and len(p) == 2 for p in paddings):
        raise MSValueError(f"For '{op}', the 'paddings' must be ({rank}, 2), but got {paddings}.")
    return tuple((int(a), int(b)) for a, b in paddings)


class MirrorPad(Primitive):
    """``MirrorPad(mode='REFLECT')(input_x, paddings (rank, 2))``: ``'REFLECT'`` mirrors without the edge,
    ``'SYMMETRIC'`` with it."""

    @prim_attr_register
    def __init__(self, mode="REFLECT"):
        if mode not in ("REFLECT", "SYMMETRIC"):
            raise MSValueError(f"For '{self.name}', the 'mode' must be 'REFLECT' or 'SYMMETRIC', but got {mode!r}.")

    def __call__(self, input_x, paddings):
        return super().__call__(input_x, _const(paddings))

    def infer_shape(self, input_x, paddings):
        pads = _paddings(self.name, paddings, len(input_x))
        shift = 1 if self.mode == "REFLECT" else 0
        for d, (n, (a, b)) in enumerate(zip(input_x, pads)):
            if a < 0 or b < 0 or a + shift > n or b + shift > n:
                raise MSValueError(f"For '{self.name}', the paddings of dimension {d} must be in [0, {n - shift}], "
                                   f"but got {(a, b)}.")
        return tuple(n + a + b for n, (a, b) in zip(input_x, pads))

    def infer_dtype(self, input_x, paddings):
        return rules.check_dtype_in(self.name, "input_x", input_x, rules.ALL_TYPES)

    def bprop(self, input_x, paddings, out, dout):
        return self._grad_prim(MirrorPadGrad, self.mode)(dout, paddings), None


class MirrorPadGrad(Primitive):
    """``MirrorPadGrad(mode)(dy, paddings)``: the padded gradient folded back onto the input."""

    @prim_attr_register
    def __init__(self, mode="REFLECT"):
        pass

    def infer_shape(self, dy, paddings):
        return tuple(n - a - b for n, (a, b) in zip(dy, paddings))

    def infer_dtype(self, dy, paddings):
        return dy

    def bprop(self, dy, paddings, out, dout):
        return self._grad_prim(MirrorPad, self.mode)(dout, paddings), None


# --- Dilation2D -------------------------------------------------------------------------------
class Dilation2D(Primitive):
    """``Dilation2D(stride, dilation, pad_mode='SAME', data_format='NCHW')(x (N, C, H, W), filter (C, kh, kw))``:
    ``max over the window of x + filter`` (grayscale morphological dilation)."""

    @prim_attr_register
    def __init__(self, stride, dilation, pad_mode="SAME", data_format="NCHW"):
        self.add_prim_attr("stride", _quad_ints(self.name, "stride", stride, 4))
        self.add_prim_attr("dilation", _quad_ints(self.name, "dilation", dilation, 4))
        if pad_mode.upper() not in ("SAME", "VALID"):
            raise MSValueError(f"For '{self.name}', the 'pad_mode' must be 'SAME' or 'VALID', but got {pad_mode!r}.")
        self.add_prim_attr("pad_mode", pad_mode.upper())
        if data_format != "NCHW":
            raise MSValueError(f"For '{self.name}', the 'data_format' must be 'NCHW', but got {data_format!r}.")

    def infer_shape(self, x, filter):  # noqa: A002 - MindSpore's name
        rules.check_rank(self.name, "x", x, 4)
        rules.check_rank(self.name, "filter", filter, 3)
        if filter[0] != x[1]:
            raise MSValueError(f"For '{self.name}', filter.shape[0] must be the channel count {x[1]}, but got "
                               f"{filter[0]}.")
        outs = _patch_out(self.name, x[2:], filter[1:], self.stride[2:], self.dilation[2:], self.pad_mode)
        return (x[0], x[1]) + outs

    def infer_dtype(self, x, filter):  # noqa: A002
        rules.check_dtype_in(self.name, "x", x, _FLOATS)
        return rules.check_same_dtype(self.name, ("x", "filter"), (x, filter))

    def bprop(self, x, filter, out, dout):  # noqa: A002
        return self._grad_prim(Dilation2DGrad, self.stride, self.dilation, self.pad_mode)(dout, x, filter)


class Dilation2DGrad(Primitive):
    """``Dilation2DGrad(stride, dilation, pad_mode)(dout, x, filter)``: ``(dx, dfilter)``, each output gradient
    routed to the (first) maximising tap."""

    @prim_attr_register
    def __init__(self, stride, dilation, pad_mode):
        pass

    def infer_shape(self, dout, x, filter):  # noqa: A002
        return tuple(x), tuple(filter)

    def infer_dtype(self, dout, x, filter):  # noqa: A002
        return x, filter

    bprop = NON_DIFFERENTIABLE


# --- windows ----------------------------------------------------------------------------------
class _Window(Primitive):
    _LENGTH = "window_length"

    def infer_shape(self, window_length):
        return (-1,)

    def infer_dtype(self, window_length):
        rules.check_dtype_in(self.name, self._LENGTH, window_length, _INDEX)
        return self.dtype

    def _init(self, periodic, dtype):
        rules.check_bool(self.name, "periodic", periodic)
        if dtype not in _FLOATS:
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be float16, float32 or float64, but got {dtype}.")

    bprop = NON_DIFFERENTIABLE


class BartlettWindow(_Window):
    """``BartlettWindow(periodic=True, dtype=float32)(window_length)``: ``1 - |2n/N - 1|``."""

    @prim_attr_register
    def __init__(self, periodic=True, dtype=mstype.float32):
        self._init(periodic, dtype)


class BlackmanWindow(_Window):
    """``BlackmanWindow(periodic=True, dtype=float32)(window_length)``."""

    @prim_attr_register
    def __init__(self, periodic=True, dtype=mstype.float32):
        self._init(periodic, dtype)


class HammingWindow(_Window):
    """``HammingWindow(periodic=True, alpha=0.54, beta=0.46, dtype=float32)(length (1,))``."""
    _LENGTH = "length"

    @prim_attr_register
    def __init__(self, periodic=True, alpha=0.54, beta=0.46, dtype=mstype.float32):
        self._init(periodic, dtype)


# --- data formats -----------------------------------------------------------------------------
class DataFormatDimMap(Primitive):
    """``DataFormatDimMap(src_format='NHWC', dst_format='NCHW')(input_x)``: each axis index of ``src_format``
    (in [-4, 4)) as its index in ``dst_format``."""

    @prim_attr_register
    def __init__(self, src_format="NHWC", dst_format="NCHW"):
        _check_format(self.name, "src_format", src_format)
        _check_format(self.name, "dst_format", dst_format)

    def infer_shape(self, input_x):
        return tuple(input_x)

    def infer_dtype(self, input_x):
        return rules.check_dtype_in(self.name, "input_x", input_x, _INDEX)

    bprop = NON_DIFFERENTIABLE


class DataFormatVecPermute(Primitive):
    """``DataFormatVecPermute(src_format='NHWC', dst_format='NCHW')(input_x (4,), (2,), (4, 2) or (2, 2))``:
    the vector (or rows) permuted from ``src_format`` to ``dst_format``."""

    @prim_attr_register
    def __init__(self, src_format="NHWC", dst_format="NCHW"):
        _check_format(self.name, "src_format", src_format)
        _check_format(self.name, "dst_format", dst_format)

    def infer_shape(self, input_x):
        if tuple(input_x) not in ((4,), (2,), (4, 2), (2, 2)):
            raise MSValueError(f"For '{self.name}', the 'input_x' shape must be (4,), (2,), (4, 2) or (2, 2), but got "
                               f"{tuple(input_x)}.")
        return tuple(input_x)

    def infer_dtype(self, input_x):
        return rules.check_dtype_in(self.name, "input_x", input_x, _INDEX)

    bprop = NON_DIFFERENTIABLE


PRIMITIVES = [IOU, BoundingBoxEncode, BoundingBoxDecode, CheckValid, NMSWithMask, NonMaxSuppressionV3,
              NonMaxSuppressionWithOverlaps, CombinedNonMaxSuppression, RotatedIou, ROIAlign, ROIAlignGrad,
              CropAndResize, CropAndResizeGradImage, CropAndResizeGradBoxes, RGBToHSV, HSVToRGB, AdjustHue,
              AdjustSaturation, ResizeBicubic, ResizeBicubicGrad, ResizeNearestNeighborV2, ResizeNearestNeighborV2Grad,
              ResizeLinear1D, ResizeLinear1DGrad, ResizeArea, ScaleAndTranslate, ScaleAndTranslateGrad, ExtractGlimpse,
              SampleDistortedBoundingBoxV2, UpsampleNearest3D, UpsampleNearest3DGrad, UpsampleTrilinear3D,
              UpsampleTrilinear3DGrad, GridSampler2D, GridSampler2DGrad, GridSampler3D, GridSampler3DGrad, AffineGrid,
              AffineGridGrad, Im2Col, Col2Im, ExtractImagePatches, ExtractVolumePatches, ExtractPatchesGrad, MirrorPad,
              MirrorPadGrad, Dilation2D, Dilation2DGrad, BartlettWindow, BlackmanWindow, HammingWindow,
              DataFormatDimMap, DataFormatVecPermute]
