"""Heterogeneous acceleration of data ("offload"): ``map(..., offload=True)`` and ``config.set_auto_offload(True)``.

The last operations of a column's maps leave the pipeline and run on the iterator's output as MindSpore operations
(on the context's device), one batch at a time, as MindSpore 2.10 does:

- **What leaves the pipeline.** A map offloads when its ``offload`` is True, or None with ``set_auto_offload(True)``,
  and it has no ``output_columns``. Of its operations, the trailing run of supported ones leaves (nothing when its
  last operation is unsupported). Each column's maps are taken from the pipeline's end backwards while every
  operation of the later map left: a later map on the column that keeps an operation on the host (or any map that
  does not offload) keeps the earlier maps there. Non-map nodes (batch, shuffle, repeat, project, rename, ...) pass
  the columns through by name. :func:`plan` finds them; ``_Runtime`` then runs each map without its offloaded
  operations, so ``output_types()``/``output_shapes()`` show the pipeline without them, as 2.10's do.
- **Supported operations**: HWC2CHW, Normalize, RandomColorAdjust, RandomHorizontalFlip, RandomSharpness,
  RandomVerticalFlip, Rescale, TypeCast. They work on whole batches: the image operations but Rescale, Normalize and
  TypeCast need 4-D ``(N, H, W, C)`` input ("For RandomHorizontalFlip offload operation, the dimension of input
  should be 4, but got 3."), so an unbatched image pipeline fails at its first row, as in 2.10. Images become float32
  (HWC2CHW and TypeCast alone keep the dtype). The random ones draw one number per image from NumPy's global
  generator (``np.random.uniform``), as 2.10 does, so ``np.random.seed`` makes them repeat.
- **Errors** (when the iterator is created): a map with several input columns that would offload; an offloaded
  column that is not among the pipeline's output columns (renamed afterwards); a concatenated or zipped pipeline.

Where 2.10's offload model is plainly wrong, this one does what the operation documents: RandomColorAdjust's hue
shift is applied (2.10 computes the shifted image and returns the unshifted one), and RandomSharpness blurs each
channel on its own, keeping the border pixels as the host operation does (2.10 sums the three channels into each
one). Brightness, contrast and saturation follow 2.10's formulas (gray weights 0.2989/0.587/0.114 of the input
image, contrast around its mean gray + 0.5, clipped to [0, 255] after each step).
"""
import numpy as np

import mindspore
from mindspore import ops
from mindspore.common import dtype as mstype
from mindspore.dataset import config

__all__ = ["plan", "OffloadPlan"]

_NAMES = {"HWC2CHW", "Normalize", "RandomColorAdjust", "RandomHorizontalFlip", "RandomSharpness",
          "RandomVerticalFlip", "Rescale", "TypeCast"}


def _supported(op):
    """Whether ``op`` is one of the operations the offload model runs (the library's own classes; not the legacy
    ``py_transforms`` ones, which 2.10 runs in Python)."""
    cls = type(op)
    return (cls.__name__ in _NAMES and cls.__module__.startswith("mindspore.dataset.")
            and "py_transforms" not in cls.__module__)


def _offloads(node):
    flag = getattr(node, "offload", None)
    if flag is None:
        flag = config.get_auto_offload()
    return bool(flag) and not node.output_columns


class OffloadPlan:
    """What an iterator offloads: per map node, how many of its operations stay on the host, and the offloaded
    operations per map (deepest map first, the order they are applied in)."""

    def __init__(self):
        self._kept = {}            # id(map node) -> number of leading operations that stay in the pipeline
        self._maps = []            # (map node, offloaded operations), from the pipeline's end backwards
        self.has_concat_or_zip = False

    def kept(self, node):
        """The operations of map ``node`` that run in the pipeline."""
        return node.operations[:self._kept.get(id(node), len(node.operations))]

    def model(self, columns):
        """The callable applied to each output row (a tuple of column values), or None when nothing is offloaded;
        ``columns`` are the pipeline's output column names. Raises MindSpore's errors for what cannot offload."""
        if not self._maps:
            return None
        if self.has_concat_or_zip:
            raise RuntimeError("Offload module currently does not support concatenated or zipped datasets.")
        steps = []
        for node, operations in reversed(self._maps):
            in_cols = node.input_columns or []
            if len(in_cols) > 1:
                raise RuntimeError("Offload hardware accelerator currently does not support map operations with "
                                   "multiple input columns")
            missing = [c for c in in_cols if c not in columns]
            if missing:
                raise RuntimeError(f"The following input column(s) for an offloaded map operation do not exist: "
                                   f"{missing}")
            index = columns.index(in_cols[0]) if in_cols else 0
            steps.append((index, [_batch_op(op) for op in operations]))
        return _Model(steps)


def plan(root):
    """The :class:`OffloadPlan` of the pipeline ending at ``root`` (see the module docstring)."""
    from mindspore.dataset.engine.datasets_ops import BatchDataset, ConcatDataset, MapDataset, ZipDataset
    result = OffloadPlan()
    closed = set()          # columns (by name) whose earlier maps stay on the host

    def walk(node):
        if isinstance(node, (ConcatDataset, ZipDataset)):
            result.has_concat_or_zip = True
        if isinstance(node, MapDataset):
            in_cols = node.input_columns or node.children[0].get_col_names()[:1]
            if _offloads(node) and not any(c in closed for c in in_cols):
                count = 0
                for op in reversed(node.operations):
                    if not _supported(op):
                        break
                    count += 1
                if count:
                    result._kept[id(node)] = len(node.operations) - count
                    result._maps.append((node, node.operations[len(node.operations) - count:]))
                if count < len(node.operations):
                    closed.update(in_cols)
            else:
                closed.update(in_cols)
                closed.update(node.output_columns or ())
        elif isinstance(node, BatchDataset) and node.per_batch_map is not None:
            closed.update(node.input_columns or node.children[0].get_col_names())
        for child in node.children:
            walk(child)

    walk(root)
    return result


class _Model:
    """The offloaded operations of every map, applied to a row: ``[(column index, [batch operations])]``."""

    def __init__(self, steps):
        self.steps = steps

    def __call__(self, row, output_numpy):
        row = list(row)
        for index, operations in self.steps:
            x = row[index]
            if not isinstance(x, mindspore.Tensor):
                x = mindspore.Tensor(np.asarray(x))
            for op in operations:
                x = op(x)
            row[index] = x.asnumpy() if output_numpy else x
        return tuple(row)


def _check_dims(x, name):
    if x.ndim != 4:
        raise ValueError(f"For {name} offload operation, the dimension of input should be 4, but got {x.ndim}.")


def _per_image(values):
    """A per-image factor ``values`` (N, 1) broadcast over an (N, H, W, C) batch."""
    return mindspore.Tensor(np.asarray(values, np.float32).reshape(-1, 1, 1, 1))


def _draw(x, low, high):
    """One factor per image, (N, 1), uniform in [low, high] (always one draw, as 2.10 draws even when
    low == high)."""
    rand = np.random.uniform(size=(x.shape[0], 1))
    return np.full_like(rand, low) if low == high else low + (high - low) * rand


def _batch_op(op):
    name = type(op).__name__
    if name == "HWC2CHW":
        return _hwc2chw
    if name == "Rescale":
        return lambda x: ops.cast(x, mstype.float32) * float(op.rescale) + float(op.shift)
    if name == "Normalize":
        mean, std = np.asarray(op.mean, np.float32), np.asarray(op.std, np.float32)
        if not op.is_hwc:
            mean, std = mean.reshape(-1, 1, 1), std.reshape(-1, 1, 1)
        mean, std = mindspore.Tensor(mean), mindspore.Tensor(std)
        return lambda x: (ops.cast(x, mstype.float32) - mean) / std
    if name == "TypeCast":
        dtype = mstype.pytype_to_dtype(op._np_dtype)
        return lambda x: ops.cast(x, dtype)
    if name in ("RandomHorizontalFlip", "RandomVerticalFlip"):
        return _Flip(op.prob, 2 if name == "RandomHorizontalFlip" else 1, name)
    if name == "RandomColorAdjust":
        return _ColorAdjust(op.brightness, op.contrast, op.saturation, op.hue)
    return _Sharpness(*op.degrees)


def _hwc2chw(x):
    _check_dims(x, "HwcToChw")
    return ops.transpose(x, (0, 3, 1, 2))


class _Flip:
    def __init__(self, prob, axis, name):
        self.prob, self.axis, self.name = float(prob), axis, name

    def __call__(self, x):
        x = ops.cast(x, mstype.float32)
        _check_dims(x, self.name)
        flip = _per_image(self.prob > np.random.uniform(size=(x.shape[0], 1)))
        return ops.flip(x, (self.axis,)) * flip + (1 - flip) * x


class _ColorAdjust:
    def __init__(self, brightness, contrast, saturation, hue):
        self.ranges = [tuple(float(v) for v in r) for r in (brightness, contrast, saturation, hue)]

    def __call__(self, x):
        x = ops.cast(x, mstype.float32)
        _check_dims(x, "RandomColorAdjust")
        (b_lo, b_hi), (c_lo, c_hi), (s_lo, s_hi), (h_lo, h_hi) = self.ranges
        brightness = _per_image(_draw(x, b_lo, b_hi))
        contrast = _per_image(_draw(x, c_lo, c_hi))
        saturation = _per_image(_draw(x, s_lo, s_hi))
        hue = _draw(x, h_lo, h_hi)
        gray = 0.2989 * x[..., 0:1] + 0.587 * x[..., 1:2] + 0.114 * x[..., 2:3]
        gray_mean = ops.mean(gray, (1, 2, 3), keep_dims=True) + 0.5
        x = ops.clip_by_value(x * brightness, 0.0, 255.0)
        x = ops.clip_by_value(x * contrast + (1 - contrast) * gray_mean, 0.0, 255.0)
        x = ops.clip_by_value(x * saturation + (1 - saturation) * gray, 0.0, 255.0)
        if np.any(hue != 0):
            x = ops.clip_by_value(_shift_hue(x, _per_image(hue)), 0.0, 255.0)
        return x


def _shift_hue(x, shift):
    """Rotate the hue of RGB images (N, H, W, 3) in [0, 255] by ``shift`` turns (per image, (N, 1, 1, 1))."""
    r, g, b = x[..., 0:1] / 255.0, x[..., 1:2] / 255.0, x[..., 2:3] / 255.0
    v = ops.maximum(ops.maximum(r, g), b)
    low = ops.minimum(ops.minimum(r, g), b)
    delta = v - low
    safe = ops.select(delta > 0, delta, ops.ones_like(delta))
    h = ops.select(v == r, ops.fmod(ops.fmod((g - b) / safe, 6.0) + 6.0, 6.0),
                   ops.select(v == g, (b - r) / safe + 2.0, (r - g) / safe + 4.0))
    h = ops.select(delta > 0, h, ops.zeros_like(h)) / 6.0
    s = ops.select(v > 0, delta / ops.select(v > 0, v, ops.ones_like(v)), ops.zeros_like(v))
    h = h + shift
    h = (h - ops.floor(h)) * 6.0
    sector = ops.floor(h)
    f = h - sector
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    sector = ops.cast(sector, mstype.int32) % 6
    pick = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)]
    out = []
    for channel in range(3):
        value = pick[5][channel]
        for k in range(4, -1, -1):
            value = ops.select(sector == k, pick[k][channel], value)
        out.append(value)
    return ops.concat(out, axis=-1) * 255.0


class _Sharpness:
    _KERNEL = np.array([[1, 1, 1], [1, 5, 1], [1, 1, 1]], np.float32) / 13.0

    def __init__(self, low, high):
        self.low, self.high = float(low), float(high)

    def __call__(self, x):
        x = ops.cast(x, mstype.float32)
        _check_dims(x, "RandomSharpness")
        degree = _per_image(_draw(x, self.low, self.high))
        channels = x.shape[3]
        nchw = ops.transpose(x, (0, 3, 1, 2))
        weight = mindspore.Tensor(np.tile(self._KERNEL, (channels, 1, 1, 1)))
        blurred = ops.conv2d(nchw, weight, pad_mode="pad", padding=1, groups=channels)
        if x.shape[1] > 2 and x.shape[2] > 2:     # the border keeps its pixels, as the host operation's filter does
            inner = np.zeros((1, 1) + tuple(x.shape[1:3]), np.float32)
            inner[..., 1:-1, 1:-1] = 1
            inner = mindspore.Tensor(inner)
            blurred = blurred * inner + nchw * (1 - inner)
        else:
            blurred = nchw
        blurred = ops.transpose(blurred, (0, 2, 3, 1))
        return ops.clip_by_value(x * degree + (1 - degree) * blurred, 0.0, 255.0)
