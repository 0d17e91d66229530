"""``RootMeanSquareDistance``: the mean squared edge-to-edge distance of two binary masks (its square root, when
symmetric, of the mean of both directions), as MindSpore's (edges and distances as described in ``_surface``)."""
from __future__ import annotations

import numpy as np

from mindspore.train.metrics import _surface
from mindspore.train.metrics.mean_surface_distance import _SurfaceDistanceMetric

__all__ = ["RootMeanSquareDistance"]


class RootMeanSquareDistance(_SurfaceDistanceMetric):
    """Residual mean square distance between the edges of the predicted and the true mask of one label.

    As in MindSpore, the directed result is the *mean squared* distance; the symmetric one is the square root of
    the mean of the two directed values.

    Args:
        symmetric (bool): combine both directions. Default: ``False``.
        distance_metric (str): ``"euclidean"``, ``"chessboard"`` or ``"taxicab"``. Default: ``"euclidean"``.

    Examples:
        >>> import numpy as np
        >>> from mindspore import Tensor
        >>> from mindspore.train import RootMeanSquareDistance
        >>> x = Tensor(np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]]))
        >>> y = Tensor(np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]]))
        >>> metric = RootMeanSquareDistance(symmetric=False, distance_metric="euclidean")
        >>> metric.clear()
        >>> metric.update(x, y, 0)
        >>> print(metric.eval())
        1.0000000000000002
    """

    _NAME = "RootMeanSquareDistance"

    def __init__(self, symmetric=False, distance_metric="euclidean"):
        super().__init__(symmetric, distance_metric)

    def _update_masks(self, inputs):
        return _surface.check_update_inputs(
            self._NAME, inputs, self._convert_data, label_type_error=TypeError,
            wording={"count": "For 'RootMeanSquareDistance.update', it needs 3 inputs(predicted value, true value, "
                              "label index), but got {}.",
                     "label_type": "For 'RootMeanSquareDistance.update', the label index (input[2]) must be int or "
                                   "float, but got label index type: {}.",
                     "label_in": "For 'RootMeanSquareDistance.update', the label index (input[2]) should be in "
                                 "predicted value (input[0]) or true value (input[1]), but {} is not.",
                     "shape": "For 'RootMeanSquareDistance.update', the size of predicted value (input[0]) and true "
                              "value (input[1]) should be greater than 0, in addition to that, predicted value and "
                              "true value should have the same shape, but got predicted value size: {}, shape: {}, "
                              "true value size: {}, shape: {}. "})

    def _reduce(self, distances):
        return (distances ** 2).mean()

    def _combine(self, forward, backward):
        return np.sqrt(np.mean((forward, backward)))
