"""``MeanSurfaceDistance``: the mean distance from the predicted mask's edge to the true mask's edge (optionally
symmetric), as MindSpore's (edges and distances as described in ``_surface``)."""
from __future__ import annotations

import numpy as np

from mindspore.train.metrics import _surface
from mindspore.train.metrics._checks import check_string, check_value_type
from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["MeanSurfaceDistance"]


class _SurfaceDistanceMetric(Metric):
    """What MeanSurfaceDistance and RootMeanSquareDistance share: arguments, edges, the directed distances;
    subclasses reduce the distances (``_reduce``) and combine both directions (``_combine``)."""

    _NAME = ""

    def __init__(self, symmetric=False, distance_metric="euclidean"):
        super().__init__()
        self.distance_metric_list = list(_surface.DISTANCE_METRICS)
        check_value_type("distance_metric", distance_metric, [str])
        self.distance_metric = check_string(distance_metric, self.distance_metric_list, "distance_metric")
        self.symmetric = check_value_type("symmetric", symmetric, [bool])
        self.clear()
        # as in MindSpore, a metric that was never cleared after construction evaluates (to inf) without update
        self._is_update = None

    def clear(self):
        """Clear the internal evaluation result."""
        self._y_pred_edges = 0
        self._y_edges = 0
        self._is_update = False

    def _update_masks(self, inputs):
        raise TypeError(f"{type(self).__name__} does not define how its inputs are checked.")

    @rearrange_inputs
    def update(self, *inputs):
        """Take ``(y_pred, y, label_idx)``: two label maps of the same shape (or boolean masks) and the label.

        Raises:
            ValueError: wrong number of inputs, ``label_idx`` present in neither input, empty or mismatched inputs.
        """
        y_pred, y = self._update_masks(inputs)
        self._y_pred_edges = _surface.edges(y_pred)
        self._y_edges = _surface.edges(y)
        self._is_update = True

    def _reduce(self, distances):
        return distances.mean()

    def _combine(self, forward, backward):
        return np.mean((forward, backward))

    def eval(self):
        """The surface distance metric (numpy float; ``inf`` when an edge set is empty).

        Raises:
            RuntimeError: If ``update`` was not called after ``clear``.
        """
        if self._is_update is False:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        forward = _surface.surface_distance(self._y_pred_edges, self._y_edges, self.distance_metric)
        if forward.shape == (0,):
            return np.inf
        forward = self._reduce(forward)
        if not self.symmetric:
            return forward
        backward = _surface.surface_distance(self._y_edges, self._y_pred_edges, self.distance_metric)
        if backward.shape == (0,):
            return np.inf
        return self._combine(forward, self._reduce(backward))


class MeanSurfaceDistance(_SurfaceDistanceMetric):
    """Average surface distance between the edges of the predicted and the true mask of one label.

    Args:
        symmetric (bool): average the two directed means. Default: ``False``.
        distance_metric (str): ``"euclidean"``, ``"chessboard"`` or ``"taxicab"``. Default: ``"euclidean"``.

    Examples:
        >>> import numpy as np
        >>> from mindspore import Tensor
        >>> from mindspore.train import MeanSurfaceDistance
        >>> x = Tensor(np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]]))
        >>> y = Tensor(np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]]))
        >>> metric = MeanSurfaceDistance(symmetric=False, distance_metric="euclidean")
        >>> metric.clear()
        >>> metric.update(x, y, 0)
        >>> print(metric.eval())
        0.8047378541243649
    """

    _NAME = "MeanSurfaceDistance"

    def __init__(self, symmetric=False, distance_metric="euclidean"):
        super().__init__(symmetric, distance_metric)

    def _update_masks(self, inputs):
        return _surface.check_update_inputs(
            self._NAME, inputs, self._convert_data,
            wording={"count": "For 'MeanSurfaceDistance.update', it needs 3 inputs (predicted value, true value, "
                              "label index), but got {}"})
