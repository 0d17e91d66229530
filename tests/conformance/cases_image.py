"""Conformance cases of ``ops/_defs/image.py`` (detection, colour, resizing, sampling, patches, windows).

Forward values: where MindSpore 2.10 (CPU) runs the primitive, the oracle is its recorded output
(``tests/fixtures/ops/image_ops_2.10.npz``, made by ``make_image_ops_fixture.py`` from the same inputs); where it
has no CPU kernel (``NonMaxSuppressionV3``, ``ExtractImagePatches``, ``Dilation2D``) and for the colour ops, a
NumPy oracle written here. Gradients (float64, finite differences): every linear op, the gradient primitives
themselves (their own bprop is the forward op), the grid samplers for the grid too, and ``Dilation2D``.
"""
from __future__ import annotations

import colorsys
import pathlib
import sys

import numpy as np

import mindspore as ms
from mindspore import ops
from mindspore.ops._defs import image as _image_defs

from case import Case, rand

_FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "ops"
sys.path.insert(0, str(_FIXTURES))
import make_image_ops_fixture as _fx  # noqa: E402

_REF = np.load(_FIXTURES / "image_ops_2.10.npz")


def _recorded_case(name, prim, attrs, inputs):
    """A case running ``prim(**attrs)`` on the fixture inputs, against MindSpore 2.10's recorded outputs.

    Arrays become tensor inputs; ``("tuple", v)`` and ``None`` are baked into the call. Shape-fixing Tensor
    arguments (sizes, paddings, window lengths) are passed as Python values so that the case compiles."""
    tensors, plan = [], []
    for v in inputs:
        if v is None or (isinstance(v, tuple) and v[0] == "tuple"):
            plan.append(("const", None if v is None else tuple(v[1])))
        elif prim in _CONST_ARGS and len(plan) in _CONST_ARGS[prim]:
            plan.append(("const", _as_const(v)))
        else:
            plan.append(("tensor", len(tensors)))
            tensors.append(v)
    outs = [k for k in _REF.files if k.startswith(name + "/out")]
    expected = tuple(_REF[f"{name}/out{i}"] for i in range(len(outs)))

    def op(*xs):
        args = [xs[v] if kind == "tensor" else v for kind, v in plan]
        return getattr(ops, prim)(**attrs)(*args)

    return Case(name, op, tensors, oracle=lambda *a: expected if len(expected) > 1 else expected[0],
                prims=[prim], rtol=1e-5, atol=1e-5)


def _as_const(v):
    v = np.asarray(v)
    if v.ndim == 0:
        return v.item()
    return tuple(tuple(r) for r in v.tolist()) if v.ndim == 2 else tuple(v.tolist())


# arguments given as Tensors to MindSpore that fix an output shape: passed as constants here
_CONST_ARGS = {"ResizeBicubic": (1,), "ResizeNearestNeighborV2": (1,), "ResizeLinear1D": (1,), "ResizeArea": (1,),
               "Col2Im": (1,), "MirrorPad": (1,), "ScaleAndTranslate": (1,), "ExtractGlimpse": (1,),
               "CombinedNonMaxSuppression": (2, 3)}

RECORDED = [_recorded_case(*c) for c in _fx.CASES if f"{c[0]}/out0" in _REF.files and c[1] != "HammingWindow"]
# HammingWindow's only input is a one-element length: a float operand added to the window gives the strided-view
# check something to stride
RECORDED += [Case(name,
                  lambda x, _a=attrs, _n=int(inputs[0][0]): ops.HammingWindow(**_a)(ms.Tensor([_n], ms.int64)) + x,
                  [rand(int(inputs[0][0]))], oracle=lambda x, _e=_REF[f"{name}/out0"]: _e + x, prims=[prim],
                  modes=("pynative",), rtol=1e-5, atol=1e-5)
             for name, prim, attrs, inputs in _fx.CASES if prim == "HammingWindow"]


# --- NumPy oracles for what MindSpore 2.10 cannot run on CPU -------------------------------------
def _nms_v3(boxes, scores, k, iou_thr, score_thr):
    def iou(a, b):
        ay1, ay2 = sorted((a[0], a[2]))
        ax1, ax2 = sorted((a[1], a[3]))
        by1, by2 = sorted((b[0], b[2]))
        bx1, bx2 = sorted((b[1], b[3]))
        inter = max(min(ay2, by2) - max(ay1, by1), 0) * max(min(ax2, bx2) - max(ax1, bx1), 0)
        union = (ay2 - ay1) * (ax2 - ax1) + (by2 - by1) * (bx2 - bx1) - inter
        return inter / union if union > 0 else 0.0
    keep = []
    for i in sorted(range(len(scores)), key=lambda i: (-scores[i], i)):
        if scores[i] <= score_thr or len(keep) >= k:
            continue
        if all(iou(boxes[i], boxes[j]) <= iou_thr for j in keep):
            keep.append(i)
    return np.array(keep, np.int32)


def _patches(x, ks, st, rt, same):
    """TensorFlow's extract_image_patches on NCHW: depth ordered (ki, kj, c)."""
    n, c, h, w = x.shape
    outs, pads = [], []
    for size, k, s, r in zip((h, w), ks, st, rt):
        eff = (k - 1) * r + 1
        o = -(-size // s) if same else (size - eff) // s + 1
        outs.append(o)
        pads.append(max((o - 1) * s + eff - size, 0) // 2 if same else 0)
    res = np.zeros((n, ks[0] * ks[1] * c, outs[0], outs[1]), x.dtype)
    for i in range(outs[0]):
        for j in range(outs[1]):
            for ki in range(ks[0]):
                for kj in range(ks[1]):
                    y, xx = i * st[0] - pads[0] + ki * rt[0], j * st[1] - pads[1] + kj * rt[1]
                    if 0 <= y < h and 0 <= xx < w:
                        res[:, (ki * ks[1] + kj) * c:(ki * ks[1] + kj + 1) * c, i, j] = x[:, :, y, xx]
    return res


def _dilation(x, f, st, rt, same):
    n, c, h, w = x.shape
    _, kh, kw = f.shape
    outs, pads = [], []
    for size, k, s, r in zip((h, w), (kh, kw), st, rt):
        eff = (k - 1) * r + 1
        o = -(-size // s) if same else (size - eff) // s + 1
        outs.append(o)
        pads.append(max((o - 1) * s + eff - size, 0) // 2 if same else 0)
    res = np.full((n, c, outs[0], outs[1]), -np.inf)
    for i in range(outs[0]):
        for j in range(outs[1]):
            for ki in range(kh):
                for kj in range(kw):
                    y, xx = i * st[0] - pads[0] + ki * rt[0], j * st[1] - pads[1] + kj * rt[1]
                    if 0 <= y < h and 0 <= xx < w:
                        res[:, :, i, j] = np.maximum(res[:, :, i, j], x[:, :, y, xx] + f[None, :, ki, kj])
    return res


def _per_pixel(fn, x):
    flat = x.reshape(-1, 3)
    return np.array([fn(*p) for p in flat]).reshape(x.shape)


def _adjust_hue(x, delta):
    def f(r, g, b):
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        return colorsys.hsv_to_rgb((h + delta) % 1.0, s, v)
    return _per_pixel(f, x)


def _adjust_saturation(x, scale):
    def f(r, g, b):
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        return colorsys.hsv_to_rgb(h, min(max(s * scale, 0.0), 1.0), v)
    return _per_pixel(f, x)


def _rect(b, trans=False):
    if trans:
        b = [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2, b[2] - b[0], b[3] - b[1], b[4]]
    cx, cy, w, h, t = b
    c, s = np.cos(np.deg2rad(t)), np.sin(np.deg2rad(t))
    return np.array([[cx + px * c - py * s, cy + px * s + py * c]
                     for px, py in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))])


def _cross2(u, v):
    return u[0] * v[1] - u[1] * v[0]


def _inside(p, poly):
    return all(_cross2(poly[(i + 1) % 4] - poly[i], p - poly[i]) >= -1e-9 for i in range(4))


def _overlap(a, b):
    """Intersection area of two convex quadrilaterals: the corners inside the other one and the edge crossings,
    ordered about their mean."""
    pts = [p for p in a if _inside(p, b)] + [p for p in b if _inside(p, a)]
    for i in range(4):
        p, r = a[i], a[(i + 1) % 4] - a[i]
        for j in range(4):
            q, t = b[j], b[(j + 1) % 4] - b[j]
            den = _cross2(r, t)
            if abs(den) < 1e-12:
                continue
            u, v = _cross2(q - p, t) / den, _cross2(q - p, r) / den
            if 0 <= u <= 1 and 0 <= v <= 1:
                pts.append(p + u * r)
    if len(pts) < 3:
        return 0.0
    pts = np.array(pts)
    c = pts.mean(0)
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]))]
    x, y = pts[:, 0], pts[:, 1]
    return abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2


def _rotated_iou(boxes, query, trans=False, iof=False):
    out = np.zeros((boxes.shape[0], boxes.shape[1], query.shape[1]))
    for bi in range(boxes.shape[0]):
        for i, a in enumerate(boxes[bi]):
            for j, b in enumerate(query[bi]):
                ra, rb = _rect(a, trans), _rect(b, trans)
                inter = _overlap(ra, rb)
                area_a, area_b = _overlap(ra, ra), _overlap(rb, rb)
                out[bi, i, j] = inter / (area_a + 1e-6) if iof else inter / (area_a + area_b - inter + 1e-6)
    return out


_RNG = np.random.default_rng(5)
_NMS_BOXES = _RNG.uniform(0, 8, (9, 4))
_NMS_BOXES[::2, [0, 2]] = _NMS_BOXES[::2, [2, 0]]      # corners in either order
_NMS_SCORES = _RNG.uniform(0, 1, 9)
_NMS_SCORES[4] = _NMS_SCORES[1]
_RGB = _RNG.uniform(0, 1, (2, 3, 3))
_ROT_A = np.concatenate([_RNG.uniform(0, 4, (2, 4, 2)), _RNG.uniform(0.5, 3, (2, 4, 2)),
                         _RNG.uniform(-90, 90, (2, 4, 1))], -1)
_ROT_A[0, 1] = _ROT_A[0, 0]                     # a box equal to another
_ROT_B = np.concatenate([_RNG.uniform(0, 4, (2, 3, 2)), _RNG.uniform(0.5, 3, (2, 3, 2)),
                         _RNG.uniform(-180, 180, (2, 3, 1))], -1)
_ROT_C = np.concatenate([_RNG.uniform(0, 2, (2, 3, 2)), _RNG.uniform(2, 4, (2, 3, 2)),
                         _RNG.uniform(-30, 30, (2, 3, 1))], -1)

ORACLES = [
    Case("nms_v3_oracle", lambda b, s: ops.NonMaxSuppressionV3()(b, s, ms.Tensor(5, ms.int32),
                                                                  ms.Tensor(0.3, ms.float32),
                                                                  ms.Tensor(0.1, ms.float32)),
         [_NMS_BOXES, _NMS_SCORES], oracle=lambda b, s: _nms_v3(b, s, 5, 0.3, 0.1), prims=["NonMaxSuppressionV3"],
         modes=("pynative",), out_dtype=ms.int32),
    Case("extract_image_patches_same", lambda x: ops.ExtractImagePatches((1, 1, 2, 3), (1, 1, 2, 1), (1, 1, 1, 1),
                                                                         "SAME")(x),
         [rand(1, 2, 5, 4)], oracle=lambda x: _patches(x, (2, 3), (2, 1), (1, 1), True),
         prims=["ExtractImagePatches", "ExtractPatchesGrad"], grad=True),
    Case("extract_image_patches_valid_rates", lambda x: ops.ExtractImagePatches((1, 1, 2, 2), (1, 1, 1, 2),
                                                                                (1, 1, 2, 1), "VALID")(x),
         [rand(2, 1, 5, 5, seed=1)], oracle=lambda x: _patches(x, (2, 2), (1, 2), (2, 1), False),
         prims=["ExtractImagePatches"]),
    Case("dilation2d_same", lambda x, f: ops.Dilation2D((1, 1, 1, 2), (1, 1, 2, 1), "SAME")(x, f),
         [rand(1, 2, 5, 4), rand(2, 2, 2, seed=1)], oracle=lambda x, f: _dilation(x, f, (1, 2), (2, 1), True),
         prims=["Dilation2D", "Dilation2DGrad"], grad=True),
    Case("dilation2d_valid", lambda x, f: ops.Dilation2D(1, 1, "VALID")(x, f),
         [rand(2, 1, 4, 5, seed=2), rand(1, 2, 3, seed=3)], oracle=lambda x, f: _dilation(x, f, (1, 1), (1, 1), False),
         prims=["Dilation2D"]),
    Case("rgb_hsv_round_trip", lambda x: (ops.RGBToHSV()(x), ops.HSVToRGB()(ops.RGBToHSV()(x))), [_RGB[None]],
         oracle=lambda x: (_per_pixel(colorsys.rgb_to_hsv, x), x), prims=["RGBToHSV", "HSVToRGB"], dtypes=(np.float32,
                                                                                                          np.float64)),
    Case("adjust_hue_saturation", lambda x: (ops.AdjustHue()(x, ms.Tensor(-0.35, ms.float32)),
                                             ops.AdjustSaturation()(x, ms.Tensor(0.6, ms.float32))), [_RGB],
         oracle=lambda x: (_adjust_hue(x, -0.35), _adjust_saturation(x, 0.6)), prims=["AdjustHue", "AdjustSaturation"]),
    Case("rotated_iou", lambda a, b: (ops.rotated_iou(a, b), ops.rotated_iou(a, b, mode=1),
                                      ops.rotated_iou(a, a, is_cross=False)),
         [_ROT_A, _ROT_B], oracle=lambda a, b: (_rotated_iou(a, b), _rotated_iou(a, b, iof=True),
                                                np.einsum("bnn->bn", _rotated_iou(a, a))),
         prims=["RotatedIou"], rtol=1e-4, atol=1e-5),
    Case("rotated_iou_xyxyt", lambda a, b: ops.rotated_iou(a, b, trans=True),
         [np.concatenate([_ROT_A[..., :2], _ROT_A[..., :2] + _ROT_A[..., 2:4], _ROT_A[..., 4:]], -1), _ROT_C],
         oracle=lambda a, b: _rotated_iou(a, b, trans=True), prims=["RotatedIou"], rtol=1e-4, atol=1e-5),
    # random: shapes and dtypes here, the sampler's constraints in tests/ops/test_image_ops.py
    Case("sample_distorted_bounding_box_v2", lambda s, b, m: ops.SampleDistortedBoundingBoxV2(seed=3)(s, b, m),
         [np.array([10, 12, 3], np.int32), np.array([[[0.1, 0.1, 0.6, 0.7]]], np.float32), np.array([0.1], np.float32)],
         prims=["SampleDistortedBoundingBoxV2"], out_dtype=ms.int32),
    Case("extract_glimpse_uniform_noise", lambda x, o: ops.ExtractGlimpse()(x, (3, 4), o),
         [rand(2, 4, 5, 1), np.array([[0.9, 0.9], [-0.2, 0.1]], np.float32)], prims=["ExtractGlimpse"]),
]


# --- gradients (float64, small) -------------------------------------------------------------------
_ROIS = np.array([[0, 0.5, 1.0, 5.5, 4.0], [1, 2.2, 0.3, 4.1, 5.2]])
_CBOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.0, -0.2, 1.2, 0.7]], np.float32)
_CIDX = np.array([1, 0], np.int32)
_GRID2 = _RNG.uniform(-1.1, 1.1, (2, 3, 2, 2))
_GRID3 = _RNG.uniform(-1.1, 1.1, (1, 2, 2, 2, 3))


def _grad_case(name, fn, inputs, prims, **kw):
    kw = {"grad_rtol": 1e-4, "grad_atol": 1e-6, **kw}
    return Case(name, fn, inputs, prims=prims, grad=True, **kw)


GRADS = [
    _grad_case("roi_align_grad", lambda x, r: ops.ROIAlign(2, 2, 0.5, 2)(x, r), [rand(2, 2, 4, 5), _ROIS],
               ["ROIAlign", "ROIAlignGrad"], grad_inputs=[0]),
    _grad_case("crop_and_resize_grad", lambda x, b, i: ops.CropAndResize()(x, b, i, (3, 2)),
               [rand(2, 4, 5, 2), _CBOXES, _CIDX], ["CropAndResize", "CropAndResizeGradImage"], grad_inputs=[0],
               eps=1e-2),   # linear in the image; the Float32 output needs a wide step
    _grad_case("crop_and_resize_boxes_grad", lambda x, b, i: ops.CropAndResize()(x, b, i, (3, 2)),
               [rand(2, 4, 5, 2), np.array([[0.1, 0.2, 0.8, 0.9], [0.05, 0.1, 0.9, 0.7]]), _CIDX],
               ["CropAndResize", "CropAndResizeGradBoxes"], grad_inputs=[1], eps=1e-3, grad_rtol=1e-3, grad_atol=1e-3),
    _grad_case("bounding_box_encode_grad", lambda a, g: ops.BoundingBoxEncode((0.0, 0.1, 0.0, 0.0),
                                                                              (1.0, 2.0, 0.5, 1.5))(a, g),
               [np.array([[0.5, 1.0, 2.5, 3.0], [1.0, 0.0, 4.0, 2.0]]),
                np.array([[1.0, 2.0, 3.0, 4.5], [0.5, 0.5, 3.0, 3.0]])], ["BoundingBoxEncode"]),
    _grad_case("resize_bicubic_grad", lambda x: ops.ResizeBicubic()(x, (5, 3)), [rand(1, 2, 3, 4)],
               ["ResizeBicubic", "ResizeBicubicGrad"]),
    _grad_case("resize_bicubic_hp_grad", lambda x: ops.ResizeBicubic(False, True)(x, (2, 6)), [rand(1, 1, 4, 3)],
               ["ResizeBicubic"]),
    _grad_case("resize_nn_v2_grad", lambda x: ops.ResizeNearestNeighborV2(True)(x, (5, 2)), [rand(1, 2, 3, 3)],
               ["ResizeNearestNeighborV2", "ResizeNearestNeighborV2Grad"]),
    _grad_case("resize_linear1d_grad", lambda x: ops.ResizeLinear1D("half_pixel")(x, (7,)), [rand(2, 1, 4)],
               ["ResizeLinear1D", "ResizeLinear1DGrad"]),
    _grad_case("upsample_nearest3d_grad", lambda x: ops.UpsampleNearest3D()(x, (3, 3, 2)), [rand(1, 1, 2, 2, 3)],
               ["UpsampleNearest3D", "UpsampleNearest3DGrad"]),
    _grad_case("upsample_trilinear3d_grad", lambda x: ops.UpsampleTrilinear3D(True)(x, None, (1.5, 2.0, 1.0)),
               [rand(1, 2, 2, 2, 2)], ["UpsampleTrilinear3D", "UpsampleTrilinear3DGrad"]),
    _grad_case("grid_sampler2d_grad", lambda x, g: ops.GridSampler2D()(x, g), [rand(2, 2, 3, 4), _GRID2],
               ["GridSampler2D", "GridSampler2DGrad"]),
    _grad_case("grid_sampler2d_border_ac_grad", lambda x, g: ops.GridSampler2D("bilinear", "border", True)(x, g),
               [rand(2, 1, 3, 3), _GRID2], ["GridSampler2D"]),
    _grad_case("grid_sampler2d_reflection_grad", lambda x, g: ops.GridSampler2D("bilinear", "reflection")(x, g),
               [rand(2, 1, 4, 3), _GRID2 * 1.5], ["GridSampler2D"]),
    _grad_case("grid_sampler3d_grad", lambda x, g: ops.GridSampler3D()(x, g), [rand(1, 2, 2, 3, 2), _GRID3],
               ["GridSampler3D", "GridSampler3DGrad"]),
    _grad_case("affine_grid_grad", lambda t: ops.AffineGrid(False)(t, (2, 1, 3, 2)), [rand(2, 2, 3)],
               ["AffineGrid", "AffineGridGrad"]),
    _grad_case("affine_grid_3d_grad", lambda t: ops.AffineGrid(True)(t, (1, 1, 2, 2, 3)), [rand(1, 3, 4)],
               ["AffineGrid"]),
    _grad_case("im2col_col2im_grad", lambda x, c: (ops.Im2Col((2, 2), (1, 2), 1, (1, 0))(x),
                                                   ops.Col2Im((2, 2), 1, (1, 0), (1, 2))(c, (3, 4))),
               [rand(1, 2, 3, 4), rand(1, 1, 4, 8)], ["Im2Col", "Col2Im"]),
    _grad_case("mirror_pad_grad", lambda x: ops.MirrorPad("REFLECT")(x, ((1, 1), (0, 2))), [rand(3, 4)],
               ["MirrorPad", "MirrorPadGrad"]),
    _grad_case("mirror_pad_symmetric_grad", lambda x: ops.MirrorPad("SYMMETRIC")(x, ((0, 2), (3, 1), (1, 0))),
               [rand(2, 3, 2)], ["MirrorPad"]),
    _grad_case("scale_and_translate_grad", lambda x: ops.ScaleAndTranslate("keyscubic")(
        x, (3, 5), ms.Tensor(np.array([0.8, 1.6], np.float32)), ms.Tensor(np.array([0.1, -0.4], np.float32))),
        [rand(1, 4, 3, 2)], ["ScaleAndTranslate", "ScaleAndTranslateGrad"], eps=1e-2),
    _grad_case("extract_volume_patches_grad", lambda x: ops.ExtractVolumePatches((1, 1, 2, 2, 1), (1, 1, 1, 2, 1),
                                                                                 "SAME")(x),
               [rand(1, 2, 2, 3, 2)], ["ExtractVolumePatches", "ExtractPatchesGrad"]),
]


# --- the gradient primitives' own bprops (each the forward op again) ------------------------------
def _grad_prim(name, **attrs):
    return getattr(_image_defs, name)(**attrs)


SECOND = [
    _grad_case("roi_align_grad_bprop", lambda d, r: _grad_prim("ROIAlignGrad", pooled_height=2, pooled_width=2,
                                                               spatial_scale=0.5, sample_num=2)(d, r, (2, 2, 4, 5)),
               [rand(2, 2, 2, 2), _ROIS], ["ROIAlignGrad"], grad_inputs=[0]),
    _grad_case("resize_grads_bprop", lambda d1, d2, d3: (
        _grad_prim("ResizeBicubicGrad")(d1, (1, 1, 3, 2), (4, 3)),
        _grad_prim("ResizeNearestNeighborV2Grad")(d2, (1, 1, 3, 2), (2, 5)),
        _grad_prim("ResizeLinear1DGrad")(d3, (1, 2, 3), (5,))),
        [rand(1, 1, 4, 3), rand(1, 1, 2, 5), rand(1, 2, 5)],
        ["ResizeBicubicGrad", "ResizeNearestNeighborV2Grad", "ResizeLinear1DGrad"]),
    _grad_case("upsample_grads_bprop", lambda d1, d2: (
        _grad_prim("UpsampleNearest3DGrad")(d1, (1, 1, 2, 1, 2), (3, 2, 3), None),
        _grad_prim("UpsampleTrilinear3DGrad")(d2, (1, 1, 2, 1, 2), (3, 2, 3), None)),
        [rand(1, 1, 3, 2, 3), rand(1, 1, 3, 2, 3, seed=1)], ["UpsampleNearest3DGrad", "UpsampleTrilinear3DGrad"]),
    _grad_case("affine_mirror_grads_bprop", lambda d1, d2: (
        _grad_prim("AffineGridGrad")(d1, (1, 1, 2, 3)),
        _grad_prim("MirrorPadGrad", mode="SYMMETRIC")(d2, ((1, 1), (2, 0)))),
        [rand(1, 2, 3, 2), rand(4, 5)], ["AffineGridGrad", "MirrorPadGrad"]),
]

CASES = RECORDED + ORACLES + GRADS + SECOND
