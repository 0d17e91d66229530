"""Vision transforms that mix the images (and one-hot labels) of a batch: MixUp, MixUpBatch and
CutMixBatch. Re-exported by ``mindspore.dataset.vision.transforms``.

The mixing weight ``lam`` is a Beta(alpha, alpha) draw; labels are mixed with the same weight as the
pixels (CutMixBatch: with the fraction of the image left uncut).
"""
import numpy as np

from mindspore.plugin import MSTypeError, MSValueError
from mindspore.dataset.transforms._base import (
    TensorOperation, check_bool, check_float, check_int, check_type, op_engine, runtime_error)
from mindspore.dataset.engine import cxx_random
from mindspore.dataset.vision.utils import ImageBatchFormat

__all__ = ["CutMixBatch", "MixUp", "MixUpBatch"]

_FLOAT_MAX = 16777216.0


def _check_alpha(alpha):
    check_float(alpha, "alpha")
    if alpha <= 0:
        raise MSValueError("Input alpha must be greater than 0.")
    return float(alpha)


def _batch(op_name, images, labels, image_ranks=(4,)):
    images = images.asnumpy() if hasattr(images, "asnumpy") else images
    labels = labels.asnumpy() if hasattr(labels, "asnumpy") else labels
    if not isinstance(images, np.ndarray) or not isinstance(labels, np.ndarray):
        raise MSTypeError(f"{op_name}: images and labels should be NumPy arrays, but got {type(images)} and "
                          f"{type(labels)}.")
    if images.ndim not in image_ranks:
        raise runtime_error(op_name, f"image batch should be in shape of <N, H, W, C> or <N, C, H, W>, but got rank: "
                            f"{images.ndim}. You may need to perform Batch first.")
    if labels.ndim not in (2, 3):
        raise runtime_error(op_name, f"wrong labels shape. The second column (labels) must have a shape of NC or NLC "
                            f"where N is the batch size, L is the number of labels in each row, and C is the number of "
                            f"classes. labels must be in one-hot format and in a batch, but got rank: {labels.ndim}.")
    if labels.shape[0] != images.shape[0]:
        raise runtime_error(op_name, f"the batch sizes of images ({images.shape[0]}) and labels ({labels.shape[0]}) "
                            f"differ.")
    if labels.dtype.kind not in "biuf":
        raise runtime_error(op_name, f"labels should be numeric, but got {labels.dtype}.")
    return images, labels


class _Beta:
    """2.10's Beta(alpha, alpha) draws ``x1 / (x1 + x2)`` (float). Measured on 2.10 (MixUpBatch, CutMixBatch): ``x1``
    and ``x2`` behave as draws of two separate ``gamma_distribution<float>`` objects, each keeping its own spare
    normal value from call to call (one shared object would hand x1's spare to x2)."""

    def __init__(self, alpha):
        self._first, self._second = cxx_random.GammaFloat(alpha), cxx_random.GammaFloat(alpha)

    def __call__(self, engine):
        x1 = self._first(engine)
        x2 = self._second(engine)
        return np.float32(x1 / (x1 + x2))


def _blend(first, second, lam):
    """2.10's image mix ``lam * a + (1 - lam) * b`` of OpenCV matrices (``cv::addWeighted`` with the weights
    ``lam`` and ``1 - lam`` computed in float: saturated, rounded to nearest for integer images)."""
    if first.dtype not in _CV_DEPTHS:
        return _mix(first, second, lam, first.dtype)
    import cv2
    from mindspore.dataset.vision import _image as img
    img.cv_in("MixUpBatch", np.zeros((1, 1), np.uint8))    # OpenCV's scalar paths in this thread, as 2.10's
    lam = np.float32(lam)
    out = cv2.addWeighted(np.ascontiguousarray(first).reshape(-1, 1), float(lam),
                          np.ascontiguousarray(second).reshape(-1, 1), float(np.float32(1.0) - lam), 0.0)
    return out.reshape(first.shape)


_CV_DEPTHS = tuple(np.dtype(t) for t in (np.uint8, np.int8, np.uint16, np.int16, np.int32, np.float32, np.float64))


def _mix(first, second, lam, dtype):
    out = np.float32(lam) * first.astype(np.float32) + np.float32(1.0 - lam) * second.astype(np.float32)
    return out.astype(dtype) if np.dtype(dtype).kind == "f" else np.trunc(out).astype(dtype)


class MixUpBatch(TensorOperation):
    """Mix every image (and one-hot label) of a batch with the one of a random permutation of the batch:
    ``lam * x + (1 - lam) * x[perm]`` with one ``lam ~ Beta(alpha, alpha)`` per batch.

    Args:
        alpha (float, optional): the Beta parameter, positive. Default: ``1.0``.

    Raises:
        RuntimeError: the images are not a rank-4 batch or the labels not one-hot ``<N, C>``/``<N, L, C>``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> images, labels = vision.MixUpBatch()(np.zeros((2, 4, 4, 3), np.uint8), np.eye(2, dtype=np.float32))
        >>> labels.shape
        (2, 2)
    """

    random = True

    def __init__(self, alpha=1.0):
        self.alpha = _check_alpha(alpha)

    def __call__(self, images, labels):
        images, labels = _batch("MixUpBatch", images, labels)
        # 2.10's MixUpBatchOp: lam = x1 / (x1 + x2) from gamma_distribution<float>(alpha, 1) draws, then
        # std::shuffle of the batch indices
        engine = op_engine(self)
        lam = float(_Beta(self.alpha)(engine))
        perm = cxx_random.std_shuffle(np.arange(images.shape[0]), engine)
        out_labels = _mix(labels, labels[perm], lam, np.float32)
        return np.stack([_blend(images[i], images[j], lam) for i, j in enumerate(perm.tolist())]), out_labels


class CutMixBatch(TensorOperation):
    """CutMix on a batch: with probability ``prob`` per image, paste a random box of another image of
    the batch (side ``sqrt(1 - lam)`` of the image's, ``lam ~ Beta(alpha, alpha)``) and mix the one-hot
    labels by the pasted area.

    Args:
        image_batch_format (ImageBatchFormat): NHWC or NCHW.
        alpha (float, optional): the Beta parameter, positive. Default: ``1.0``.
        prob (float, optional): probability of cutting each image, in [0, 1]. Default: ``1.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> op = vision.CutMixBatch(vision.ImageBatchFormat.NHWC)
        >>> images, labels = op(np.zeros((2, 4, 4, 3), np.uint8), np.eye(2, dtype=np.float32))
        >>> images.shape
        (2, 4, 4, 3)
    """

    random = True

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        self.image_batch_format = check_type(image_batch_format, ImageBatchFormat, "image_batch_format")
        self.alpha = _check_alpha(alpha)
        self.prob = check_float(prob, "prob", 0.0, 1.0)

    def __call__(self, images, labels):
        images, labels = _batch("CutMixBatch", images, labels)
        nhwc = self.image_batch_format == ImageBatchFormat.NHWC
        height, width = (images.shape[1], images.shape[2]) if nhwc else (images.shape[2], images.shape[3])
        # 2.10's CutMixBatchOp: std::shuffle of the batch indices, then per image two draws of one
        # gamma_distribution<float>(alpha, 1) (lam = x1 / (x1 + x2)) and a uniform_real_distribution<double>(0, 1)
        # draw; a cut image takes a box of side sqrt(1 - lam) times the image's around a centre drawn with
        # uniform_int_distribution in [0, width] then [0, height], clamped inside the image
        engine = op_engine(self)
        beta = _Beta(self.alpha)
        perm = cxx_random.std_shuffle(np.arange(images.shape[0]), engine)
        out_images, out_labels = images.copy(), labels.astype(np.float32)
        for i in range(images.shape[0]):
            lam = beta(engine)
            if cxx_random.std_uniform_real(engine, 0.0, 1.0) >= self.prob:
                continue
            ratio = np.sqrt(np.float32(1.0) - lam, dtype=np.float32)
            cut_w, cut_h = int(np.float32(width) * ratio), int(np.float32(height) * ratio)
            cx = cxx_random.std_uniform_int(engine, 0, width)
            cy = cxx_random.std_uniform_int(engine, 0, height)
            x0 = min(max(cx - cut_w // 2, 0), width - 1)
            y0 = min(max(cy - cut_h // 2, 0), height - 1)
            x1 = x0 + min(max(min(max(cx + cut_w // 2, 0), width - 1) - x0, 1), width - 1)
            y1 = y0 + min(max(min(max(cy + cut_h // 2, 0), height - 1) - y0, 1), height - 1)
            j = int(perm[i])
            if nhwc:
                out_images[i, y0:y1, x0:x1] = images[j, y0:y1, x0:x1]
            else:
                out_images[i, :, y0:y1, x0:x1] = images[j, :, y0:y1, x0:x1]
            label_lam = np.float32(1.0) - np.float32((x1 - x0) * (y1 - y0)) / np.float32(width * height)
            out_labels[i] = _mix(labels[i], labels[j], label_lam, np.float32)
        return out_images, out_labels


class MixUp(TensorOperation):
    """MixUp of batched NumPy images and one-hot labels (MindSpore's Python transform).

    With ``is_single=True`` each image is mixed with the next one of the same batch (circularly), with
    a weight ``lam ~ Beta(alpha, alpha)`` per image; otherwise each batch is mixed with the previous
    mixed batch (the first batch is returned unchanged).

    Args:
        batch_size (int): the batch size, positive.
        alpha (float): the Beta parameter, positive.
        is_single (bool, optional): mix within a batch (else across batches). Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.vision as vision
        >>> images, labels = vision.MixUp(2, 0.2)(np.zeros((2, 4, 4, 3)), np.eye(2))
        >>> images.shape
        (2, 4, 4, 3)
    """

    random = True

    def __init__(self, batch_size, alpha, is_single=True):
        self.batch_size = check_int(batch_size, "batch_size", 1, int(_FLOAT_MAX))
        self.alpha = _check_alpha(alpha)
        self.is_single = check_bool(is_single, "is_single")
        self._image = None
        self._label = None

    def __call__(self, image, label):
        image, label = _batch("MixUp", image, label, image_ranks=(2, 3, 4))
        if image.shape[0] != self.batch_size:
            raise MSValueError(f"MixUp: the batch size of the input ({image.shape[0]}) is not batch_size "
                               f"({self.batch_size}).")
        # 2.10's MixUp is a Python transform drawing from NumPy's global generator (seeded by ds.config.set_seed)
        lam = np.random.beta(self.alpha, self.alpha, self.batch_size)
        shape_img = (self.batch_size,) + (1,) * (image.ndim - 1)
        shape_label = (self.batch_size,) + (1,) * (label.ndim - 1)
        if self.is_single:
            shift = list(range(1, self.batch_size)) + [0]
            other_image, other_label = image[shift], label[shift]
        else:
            if self._image is None:
                lam = np.ones(self.batch_size)
                other_image, other_label = image, label
            else:
                other_image, other_label = self._image, self._label
        mixed_image = lam.reshape(shape_img) * image + (1 - lam.reshape(shape_img)) * other_image
        mixed_label = lam.reshape(shape_label) * label + (1 - lam.reshape(shape_label)) * other_label
        if not self.is_single:
            self._image, self._label = mixed_image, mixed_label
        return mixed_image, mixed_label
