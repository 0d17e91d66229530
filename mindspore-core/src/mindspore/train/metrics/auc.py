"""``auc``: area under a curve given by its points, by the trapezoidal rule (as MindSpore's ``train.auc``)."""
from __future__ import annotations

import numpy as np

__all__ = ["auc"]


def _column_or_1d(y):
    shape = np.shape(y)
    if len(shape) == 1 or (len(shape) == 2 and shape[1] == 1):
        return np.ravel(y)
    raise ValueError(f"For 'auc', the input must be a 1-dimensional array, or a 2-dimensional array with the second "
                     f"dimension of 1, but got shape {shape}.")


def auc(x, y, reorder=False):
    """Area under the curve through the points ``(x[i], y[i])``.

    Args:
        x (numpy.ndarray): abscissae, monotonic unless ``reorder`` (1-D, or (N, 1)).
        y (numpy.ndarray): ordinates, same length.
        reorder (bool): sort the points by ``x`` (ties by ``y``) first. Default: ``False``.

    Returns:
        float, the area (positive for a decreasing ``x`` too).

    Raises:
        TypeError: If ``x`` or ``y`` is not a numpy.ndarray.
        ValueError: If the lengths differ, there are fewer than 2 points, or ``x`` is not monotonic.

    Examples:
        >>> import numpy as np
        >>> from mindspore.train import auc
        >>> float(auc(np.array([0., 0.5, 1.]), np.array([0., 1., 1.])))
        0.75
    """
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got {type(x)}, {type(y)}")
    for a in (x, y):
        if a.ndim == 0:
            raise TypeError(f"Singleton array {a} cannot be considered as a valid collection.")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"{[int(x.shape[0]), int(y.shape[0])]}.")
    x, y = _column_or_1d(x), _column_or_1d(y)
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', the shape of the argument 'x' in axis 0 must be greater than 2, but got "
                         f"{x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if np.all(dx <= 0):
                direction = -1
            else:
                raise ValueError(f"For 'auc', if the argument is False, the argument 'x' array must be increasing or "
                                 f"decreasing, but got 'x': {x}")
    # trapezoidal rule written out (np.trapz was renamed across NumPy versions)
    return direction * np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2.0)
