"""``OcclusionSensitivity``: how much a classifier's score for the true label drops when a patch around each
voxel of the input is replaced by ``pad_val`` (MindSpore's metric: one image per ``update``, the occluded copies
run through the model ``n_batch`` at a time)."""
from __future__ import annotations

import numpy as np

from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.train.metrics._checks import check_value_type
from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["OcclusionSensitivity"]


def _bounding_box(b_box, im_shape):
    """``b_box`` ([min0, max0, min1, max1, ...], negatives meaning 0 / the last index) as (mins, maxs) arrays."""
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(im_shape):
        raise ValueError(f"For 'OcclusionSensitivity', the bounding box must contain upper and lower for all "
                         f"dimensions (except batch number), and the length of 'b_box' must be twice as long as "
                         f"predicted value's (except batch number), but got 'b_box' length {len(b_box)}, predicted "
                         f"value length (except batch number) {len(im_shape)}.")
    b_min = np.array(b_box[::2])
    b_max = np.array(b_box[1::2])
    b_min[b_min < 0] = 0
    b_max[b_max < 0] = im_shape[b_max < 0] - 1
    if np.any(b_max >= im_shape):
        raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than image size for all "
                         "values.")
    if np.any(b_min > b_max):
        raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than maximum bounding box "
                         "for all values.")
    return b_min, b_max


class OcclusionSensitivity(Metric):
    """Occlusion sensitivity of a classification model for one input image.

    For every voxel (of the whole image, or of the bounding box ``b_box``), the hyper-rectangle from ``idx - margin``
    to ``idx + margin`` (exclusive, clipped to the image, all leading channel axes included) is set to ``pad_val``
    and the model's score for the label is taken; ``eval`` returns ``baseline - score`` per voxel, where
    ``baseline`` is the score of the unoccluded image.

    Args:
        pad_val (float): value written into the occluded patch. Default: ``0.0``.
        margin (Union[int, list]): half size of the patch. Default: ``2``.
        n_batch (int): occluded images per model call. Default: ``128``.
        b_box (list): ``[min0, max0, min1, max1, ...]`` over the non-batch axes (inclusive bounds). Default:
            ``None`` (the whole image).

    Examples:
        >>> import numpy as np
        >>> from mindspore import nn, Tensor
        >>> from mindspore.train import OcclusionSensitivity
        >>> class DenseNet(nn.Cell):
        ...     def __init__(self):
        ...         super(DenseNet, self).__init__()
        ...         w = np.array([[0.1, 0.8, 0.1, 0.1], [1, 1, 1, 1]]).astype(np.float32)
        ...         b = np.array([0.3, 0.6]).astype(np.float32)
        ...         self.dense = nn.Dense(4, 2, weight_init=Tensor(w), bias_init=Tensor(b))
        ...     def construct(self, x):
        ...         return self.dense(x)
        >>> model = DenseNet()
        >>> test_data = np.array([[0.1, 0.2, 0.3, 0.4]]).astype(np.float32)
        >>> label = np.array(1).astype(np.int32)
        >>> metric = OcclusionSensitivity()
        >>> metric.clear()
        >>> metric.update(model, test_data, label)
        >>> score = metric.eval()
        >>> print(score)
        [0.29999995 0.6        1.         0.9       ]
    """

    def __init__(self, pad_val=0.0, margin=2, n_batch=128, b_box=None):
        super().__init__()
        self.pad_val = check_value_type("pad_val", pad_val, [float])
        self.margin = check_value_type("margin", margin, [int, list])
        self.n_batch = check_value_type("n_batch", n_batch, [int])
        self.b_box = b_box if b_box is None else check_value_type("b_box", b_box, [list])
        self.clear()

    def clear(self):
        """Clear the internal evaluation result."""
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    def _scores(self, model, images, label):
        out = model(Tensor(np.concatenate(images, axis=0))).asnumpy()
        return out[np.arange(out.shape[0]), label]

    @rearrange_inputs
    def update(self, *inputs):
        """Take ``(model, y_pred, label)``: an ``nn.Cell`` classifier, one input image with a batch axis of size 1,
        and its label.

        Raises:
            ValueError: If the number of inputs is not 3 or ``b_box`` does not fit the image.
            TypeError: If ``model`` is not a Cell.
            RuntimeError: If the batch axis is not 1 or the label count differs from it.
        """
        if len(inputs) != 3:
            raise ValueError(f"For 'OcclusionSensitivity.update', it needs 3 inputs (classification model, predicted "
                             f"value, label), but got {len(inputs)}.")
        model = inputs[0]
        y_pred = self._convert_data(inputs[1])
        label = self._convert_data(inputs[2])
        check_value_type("model", model, [Cell])
        if y_pred.shape[0] > 1:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the shape at index 0 of the predicted value "
                               f"(input[1]) must be 1, but got {y_pred.shape[0]}.")
        if np.prod(label.shape) != y_pred.shape[0]:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the number of the label (input[2]) must be same "
                               f"as the batches, but got the label number {np.prod(label.shape)}, and batches "
                               f"{y_pred.shape[0]}.")
        label_idx = int(np.asarray(label).reshape(-1)[0])
        im_shape = np.array(y_pred.shape[1:])
        b_min, b_max = _bounding_box(self.b_box, im_shape)
        self._baseline = model(Tensor(y_pred)).asnumpy()[0, label_idx].item()
        out_shape = im_shape if self.b_box is None else b_max - b_min + 1
        total = int(np.prod(out_shape))
        margins = self.margin if isinstance(self.margin, list) else [self.margin] * len(im_shape)
        scores, batch = [], []
        for i in range(total):
            idx = np.unravel_index(i, out_shape)
            if b_min is not None:
                idx = tuple(int(a) + int(b) for a, b in zip(idx, b_min))
            lo = [max(0, int(c) - m) for c, m in zip(idx, margins)]
            hi = [min(int(s), int(c) + m) for c, m, s in zip(idx, margins, im_shape)]
            occluded = y_pred.copy()
            occluded[(Ellipsis,) + tuple(slice(a, b) for a, b in zip(lo, hi))] = self.pad_val
            batch.append(occluded)
            if len(batch) == self.n_batch or i == total - 1:
                scores.append(self._scores(model, batch, label_idx))
                batch = []
        self._sensitivity_im = np.concatenate(scores).reshape(out_shape)
        self._is_update = True

    def eval(self):
        """The sensitivity map (ndarray, the image's shape or the bounding box's, unit axes squeezed).

        Raises:
            RuntimeError: If ``update`` was not called first.
        """
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._sensitivity_im)
