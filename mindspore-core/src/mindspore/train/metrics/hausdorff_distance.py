"""``HausdorffDistance``: the (percentile, directed or symmetric) Hausdorff distance between the boundaries of two
binary masks, as MindSpore's (same cropping to the union's bounding box, same edge and distance definitions; see
``_surface``)."""
from __future__ import annotations

import numpy as np

from mindspore.train.metrics import _surface
from mindspore.train.metrics._checks import check_string, check_value_type
from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["HausdorffDistance"]


class HausdorffDistance(Metric):
    r"""Hausdorff distance between the edges of the predicted and the true mask of one label.

    .. math::
        H(A, B) = \max[h(A, B), h(B, A)], \quad h(A, B) = \max_{a \in A} \min_{b \in B} \lVert a - b \rVert

    Args:
        distance_metric (str): ``"euclidean"``, ``"chessboard"`` or ``"taxicab"``. Default: ``"euclidean"``.
        percentile (float): if given (0 to 100), that percentile of the edge distances instead of their maximum.
            Default: ``None``.
        directed (bool): only :math:`h(y\_pred, y)`. Default: ``False``.
        crop (bool): crop both masks to the bounding box of their union first. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> from mindspore import Tensor
        >>> from mindspore.train import HausdorffDistance
        >>> x = Tensor(np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]]))
        >>> y = Tensor(np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]]))
        >>> metric = HausdorffDistance()
        >>> metric.clear()
        >>> metric.update(x, y, 0)
        >>> print(metric.eval())
        1.4142135623730951
    """

    def __init__(self, distance_metric="euclidean", percentile=None, directed=False, crop=True):
        super().__init__()
        check_value_type("distance_metric", distance_metric, [str])
        self.distance_metric = check_string(distance_metric, list(_surface.DISTANCE_METRICS), "distance_metric")
        self.percentile = None if percentile is None else check_value_type("percentile", percentile, [float])
        self.directed = directed if directed is None else check_value_type("directed", directed, [bool])
        self.crop = crop if crop is None else check_value_type("crop", crop, [bool])
        self.clear()

    def clear(self):
        """Clear the internal evaluation result."""
        self.y_pred_edges = 0
        self.y_edges = 0
        self._is_update = False

    def _crop_to_union(self, y_pred, y):
        union = y_pred | y
        starts, stops = [], []
        for axis in range(union.ndim):
            nonzero = np.nonzero(np.any(union, axis=tuple(a for a in range(union.ndim) if a != axis)))[0]
            starts.append(int(nonzero.min()))
            stops.append(int(nonzero.max()) + 1)
        box = tuple(slice(a, b) for a, b in zip(starts, stops))
        # MindSpore squeezes the cropped masks, so unit axes of the box disappear before the edges are taken
        return np.squeeze(y_pred[box]), np.squeeze(y[box])

    def _edges(self, y_pred, y):
        if self.crop:
            if not np.any(y_pred | y):
                return np.zeros_like(y_pred), np.zeros_like(y)
            y_pred, y = self._crop_to_union(y_pred, y)
        return _surface.edges(y_pred), _surface.edges(y)

    def _directed(self, from_edges, to_edges):
        distance = _surface.surface_distance(from_edges, to_edges, self.distance_metric)
        if distance.shape == (0,):
            return np.inf
        if not self.percentile:
            return distance.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(distance, self.percentile)
        raise ValueError(f"For 'HausdorffDistance', the value of the argument 'percentile' must be [0, 100], "
                         f"but got {self.percentile}.")

    @rearrange_inputs
    def update(self, *inputs):
        """Take ``(y_pred, y, label_idx)``: two label maps (Tensor, list or ndarray) of the same shape and the label
        whose masks are compared.

        Raises:
            ValueError: wrong number of inputs, ``label_idx`` not a number or present in neither input, empty or
                mismatched inputs.
        """
        self._is_update = True
        y_pred, y = _surface.check_update_inputs(
            "HausdorffDistance", inputs, self._convert_data,
            wording={"shape": "For 'HausdorffDistance.update', the size of predicted value (input[0]) and true value "
                              "(input[1]) must be greater than 0, in addition to that, predicted value and true "
                              "value should have the same shape, but got predicted value size: {}, shape: {}, true "
                              "value size: {}, shape: {}."}, compare_bool=True)
        self.y_pred_edges, self.y_edges = self._edges(y_pred, y)

    def eval(self):
        """The Hausdorff distance (numpy float; ``inf`` when the prediction has no edge).

        Raises:
            RuntimeError: If ``update`` was not called first.
        """
        if self._is_update is False:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        hd = self._directed(self.y_pred_edges, self.y_edges)
        if self.directed:
            return hd
        return max(hd, self._directed(self.y_edges, self.y_pred_edges))

