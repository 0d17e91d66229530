"""``CosineSimilarity``: the pairwise similarity matrix of the rows of one input (as MindSpore's)."""
from __future__ import annotations

import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["CosineSimilarity"]


class CosineSimilarity(Metric):
    """Row-by-row similarity ``X X^T`` (rows L2-normalised first for ``'cosine'``) of the last ``update``'s input.

    Args:
        similarity (str): ``'cosine'`` (default) or ``'dot'``.
        reduction (str): ``'none'`` (the matrix, default), ``'sum'`` or ``'mean'`` (over the last axis).
        zero_diagonal (bool): set the diagonal to 0 before reducing. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> from mindspore.train import CosineSimilarity
        >>> metric = CosineSimilarity()
        >>> metric.update(np.array([[1., 0.], [1., 1.]]))
        >>> np.round(metric.eval(), 4).tolist()
        [[0.0, 0.7071], [0.7071, 0.0]]
    """

    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        super().__init__()
        for name, value, allowed in (("similarity", similarity, ("dot", "cosine")),
                                     ("reduction", reduction, ("none", "sum", "mean"))):
            if not isinstance(value, str):
                raise TypeError(f"For 'CosineSimilarity', the type of '{name}' must be str, but got "
                                f"{type(value).__name__}.")
            if value not in allowed:
                raise ValueError(f"For 'CosineSimilarity', the '{name}' must be in {list(allowed)}, but got {value}.")
        if not isinstance(zero_diagonal, bool):
            raise TypeError(f"For 'CosineSimilarity', the type of 'zero_diagonal' must be bool, but got "
                            f"{type(zero_diagonal).__name__}.")
        self.similarity = similarity
        self.reduction = reduction
        self.zero_diagonal = zero_diagonal
        self.clear()

    def clear(self):
        """Clear the internal evaluation result."""
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs):
        """Compute the similarity matrix of ``inputs`` (N, D)."""
        data = self._convert_data(inputs)
        if self.similarity == "cosine":
            data = data / np.expand_dims(np.linalg.norm(data, ord=2, axis=1), 1)
        self.sqr_mtx_res = np.dot(data, data.T)
        self._is_update = True

    def eval(self):
        """The (N, N) matrix, or its row sums/means (numpy.ndarray).

        Raises:
            RuntimeError: If ``update`` was not called.
        """
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        res = np.array(self.sqr_mtx_res, copy=True)
        if self.zero_diagonal:
            np.fill_diagonal(res, 0)
        if self.reduction == "mean":
            res = np.mean(res, axis=-1)
        elif self.reduction == "sum":
            res = np.sum(res, axis=-1)
        return res
