"""``ConfusionMatrixMetric``: metrics derived from per-sample, per-channel confusion counts (TP, FP, TN, FN) of
binarised segmentation-style outputs, as MindSpore's (same metric names and aliases, same NaN handling and
reductions)."""
from __future__ import annotations

import numpy as np

from mindspore.train.metrics._checks import check_string, check_value_type
from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["ConfusionMatrixMetric"]

_DECREASE = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel")

_ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"),
    "tnr": ("specificity", "selectivity", "true_negative_rate", "tnr"),
    "ppv": ("precision", "positive_predictive_value", "ppv"),
    "npv": ("negative_predictive_value", "npv"),
    "fnr": ("miss_rate", "false_negative_rate", "fnr"),
    "fpr": ("fall_out", "false_positive_rate", "fpr"),
    "fdr": ("false_discovery_rate", "fdr"),
    "for": ("false_omission_rate", "for"),
    "pt": ("prevalence_threshold", "pt"),
    "ts": ("threat_score", "critical_success_index", "ts", "csi"),
    "acc": ("accuracy", "acc"),
    "ba": ("balanced_accuracy", "ba"),
    "f1": ("f1_score", "f1"),
    "mcc": ("matthews_correlation_coefficient", "mcc"),
    "fm": ("fowlkes_mallows_index", "fm"),
    "bm": ("informedness", "bookmaker_informedness", "bm"),
    "mk": ("markedness", "deltap", "mk"),
}
_METRIC_OF = {alias: key for key, aliases in _ALIASES.items() for alias in aliases}


def _metric_key(metric_name):
    key = _METRIC_OF.get(metric_name.replace(" ", "_").lower())
    if key is None:
        raise ValueError(f"For 'ConfusionMatrixMetric', the 'metric_name' must be one of {sorted(_METRIC_OF)} "
                         f"(spaces and case ignored), but got '{metric_name}'.")
    return key


def _confusion_counts(y_pred, y, skip_channel):
    """(batch, channel, 4) array of [tp, fp, tn, fn] over the spatial axes."""
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    y = y.astype(float)
    y_pred = y_pred.astype(float)
    if y.shape != y_pred.shape:
        raise ValueError(f"The 'y_shape' should be equal to 'y_pred_shape' = {y_pred.shape}, but got {y.shape}.")
    batch, n_class = y_pred.shape[:2]
    y_pred = y_pred.reshape(batch, n_class, -1)
    y = y.reshape(batch, n_class, -1)
    tp = (y_pred + y == 2).astype(float).sum(axis=2)
    tn = (y_pred + y == 0).astype(float).sum(axis=2)
    p = y.sum(axis=2)
    n = y.shape[-1] - p
    return np.stack([tp, n - tn, tn, p - tp], axis=-1)


def _ratio(numerator, denominator):
    return np.where(denominator != 0, numerator / np.where(denominator != 0, denominator, 1), np.nan)


def _safe(numerator, denominator):
    return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), np.nan)


def _metric_values(key, counts):
    """The metric ``key`` of every [tp, fp, tn, fn] row of ``counts`` (NaN where undefined)."""
    counts = np.asarray(counts, dtype=float)
    if counts.ndim == 1:
        counts = counts[None]
    if counts.shape[-1] != 4:
        raise ValueError(f"For 'ConfusionMatrix', the size of the last dimension of confusion_matrix must be 4, but "
                         f"got {counts.shape[-1]}.")
    tp, fp, tn, fn = (counts[..., i] for i in range(4))
    p, n = tp + fn, fp + tn
    with np.errstate(divide="ignore", invalid="ignore"):
        if key in ("pt", "ba", "bm"):
            tpr, tnr = _safe(tp, p), _safe(tn, n)
            if key == "pt":
                return _ratio(np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0)
            return (tpr + tnr) / 2.0 if key == "ba" else tpr + tnr - 1.0
        if key == "fm":
            return np.sqrt(_safe(tp, tp + fp) * _safe(tp, p))
        if key == "mk":
            # MindSpore's npv here is a plain division (inf/nan where tn + fn == 0)
            return _safe(tp, tp + fp) + tn / (tn + fn) - 1.0
        if key == "mcc":
            return _ratio(tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))
        pairs = {"tpr": (tp, p), "tnr": (tn, n), "ppv": (tp, tp + fp), "npv": (tn, tn + fn), "fnr": (fn, p),
                 "fpr": (fp, n), "fdr": (fp, fp + tp), "for": (fn, fn + tn), "ts": (tp, tp + fn + fp),
                 "acc": (tp + tn, p + n), "f1": (tp * 2.0, tp * 2.0 + fn + fp)}
        return _ratio(*pairs[key])


def _decrease(chart, decrease):
    """Reduce a (batch, channel) chart ignoring NaNs: returns (value, count of non-NaN entries used)."""
    chart = np.array(chart, dtype=float)
    nans = np.isnan(chart)
    not_nans = (~nans).astype(float)
    chart[nans] = 0
    with np.errstate(divide="ignore", invalid="ignore"):
        if decrease == "mean":
            per_sample = not_nans.sum(axis=1)
            values = np.where(per_sample > 0, chart.sum(axis=1) / np.maximum(per_sample, 1), 0.0)
            count = (per_sample > 0).astype(float).sum(axis=0)
            return np.where(count > 0, values.sum(axis=0) / max(count, 1), 0.0), count
        if decrease == "sum":
            return chart.sum(axis=(0, 1)), not_nans.sum(axis=(0, 1))
        if decrease in ("mean_batch", "mean_channel"):
            axis = 0 if decrease == "mean_batch" else 1
            count = not_nans.sum(axis=axis)
            return np.where(count > 0, chart.sum(axis=axis) / np.maximum(count, 1), 0.0), count
        if decrease in ("sum_batch", "sum_channel"):
            axis = 0 if decrease == "sum_batch" else 1
            return chart.sum(axis=axis), not_nans.sum(axis=axis)
        return chart, not_nans


class ConfusionMatrixMetric(Metric):
    """A confusion-matrix metric (sensitivity, specificity, precision, F1, MCC, ... 17 of them, with aliases).

    Inputs of ``update`` are binarised ``(batch, channel, ...)`` arrays (one-hot predictions and labels).

    Args:
        skip_channel (bool): if ``False``, channel 0 (the background) is left out. Default: ``True``.
        metric_name (str): the metric, e.g. ``"sensitivity"``, ``"precision"``, ``"f1 score"``,
            ``"matthews correlation coefficient"``. Default: ``"sensitivity"``.
        calculation_method (bool): ``True``: the metric per sample and channel, reduced with ``decrease`` and
            averaged over updates; ``False``: the metric of the confusion counts summed over everything.
            Default: ``False``.
        decrease (str): ``"none"``, ``"mean"``, ``"sum"``, ``"mean_batch"``, ``"sum_batch"``, ``"mean_channel"``
            or ``"sum_channel"`` (used when ``calculation_method`` is ``True``). Default: ``"mean"``.

    Examples:
        >>> import numpy as np
        >>> from mindspore import Tensor
        >>> from mindspore.train import ConfusionMatrixMetric
        >>> metric = ConfusionMatrixMetric(skip_channel=True, metric_name="tpr",
        ...                                calculation_method=False, decrease="mean")
        >>> metric.clear()
        >>> x = Tensor(np.array([[[0], [1]], [[1], [0]]]))
        >>> y = Tensor(np.array([[[0], [1]], [[0], [1]]]))
        >>> metric.update(x, y)
        >>> print(metric.eval())
        [0.5]
    """

    def __init__(self, skip_channel=True, metric_name="sensitivity", calculation_method=False, decrease="mean"):
        super().__init__()
        self.skip_channel = check_value_type("skip_channel", skip_channel, [bool])
        self.calculation_method = check_value_type("calculation_method", calculation_method, [bool])
        self.metric_name = check_value_type("metric_name", metric_name, [str])
        self._metric_key = _metric_key(metric_name)
        check_value_type("decrease", decrease, [str])
        self.decrease = check_string(decrease, list(_DECREASE), "decrease")
        self.clear()

    def clear(self):
        """Clear the internal evaluation result."""
        self._total_num = 0
        self._class_num = 0
        self._total_tp = 0.0
        self._total_fp = 0.0
        self._total_tn = 0.0
        self._total_fn = 0.0

    @rearrange_inputs
    def update(self, *inputs):
        """Take ``(y_pred, y)``: binarised arrays of the same shape ``(batch, channel, ...)``.

        Raises:
            ValueError: If the number of inputs is not 2, ``y`` is not binary, ``y_pred`` has fewer than 2 axes or
                the shapes differ.
        """
        if len(inputs) != 2:
            raise ValueError(f"For 'ConfusionMatrixMetric.update', it needs 2 inputs (predicted value, true value), "
                             f"but got {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrix.update', the true value (input[1]) must be a binarized ndarray.")
        if y_pred.ndim < 2:
            raise ValueError(f"For 'ConfusionMatrix.update', the predicted value (input[0]) must have at least 2 "
                             f"dimensions, but got {y_pred.ndim}.")
        counts = _confusion_counts(y_pred, y, self.skip_channel)
        if self.calculation_method:
            score, not_nans = _decrease(_metric_values(self._metric_key, counts), self.decrease)
            score, not_nans = np.asarray(score), np.asarray(not_nans)
            if score.size != 1:
                raise ValueError(f"For 'ConfusionMatrixMetric.update', the decrease '{self.decrease}' gives "
                                 f"{score.size} values per update, but averaging over updates needs one; use "
                                 f"'mean' or 'sum' with 'calculation_method' True.")
            not_nans = int(not_nans.item())
            self._total_num += score.item() * not_nans
            self._class_num += not_nans
        else:
            summed, _ = _decrease(counts, "sum")
            self._total_tp += summed[0].item()
            self._total_fp += summed[1].item()
            self._total_tn += summed[2].item()
            self._total_fn += summed[3].item()

    def eval(self):
        """The metric: a float (``calculation_method=True``) or a 1-element ndarray.

        Raises:
            RuntimeError: If ``calculation_method`` is True and no sample was counted.
        """
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError("The 'ConfusionMatrixMetric' can not be calculated, because the number of samples "
                                   "is 0, please check whether your inputs(predicted value, true value) are empty, or "
                                   "has called update method before calling eval method.")
            return self._total_num / self._class_num
        counts = np.array([self._total_tp, self._total_fp, self._total_tn, self._total_fn])
        return _metric_values(self._metric_key, counts)
