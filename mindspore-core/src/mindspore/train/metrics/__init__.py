"""Evaluation metrics for ``Model.eval`` / ``Model.fit``, by object or by name (``{'acc', 'loss'}``).

Names map to classes as in MindSpore (``names()`` lists them); ``get_metric_fn(name, *args)``
builds one; ``get_metrics`` turns the ``metrics`` argument of ``Model`` (a set of names or a dict of
name -> Metric) into a dict of Metric objects.
"""
from __future__ import annotations

from mindspore.train.metrics.accuracy import Accuracy
from mindspore.train.metrics.auc import auc
from mindspore.train.metrics.bleu_score import BleuScore
from mindspore.train.metrics.cosine_similarity import CosineSimilarity
from mindspore.train.metrics.dice import Dice
from mindspore.train.metrics.perplexity import Perplexity
from mindspore.train.metrics.confusion_matrix import ConfusionMatrix
from mindspore.train.metrics.confusion_matrix_metric import ConfusionMatrixMetric
from mindspore.train.metrics.hausdorff_distance import HausdorffDistance
from mindspore.train.metrics.mean_surface_distance import MeanSurfaceDistance
from mindspore.train.metrics.occlusion_sensitivity import OcclusionSensitivity
from mindspore.train.metrics.root_mean_square_surface_distance import RootMeanSquareDistance
from mindspore.train.metrics.error import MAE, MSE
from mindspore.train.metrics.fbeta import F1, Fbeta
from mindspore.train.metrics.loss import Loss
from mindspore.train.metrics.metric import Metric, rearrange_inputs
from mindspore.train.metrics.roc import ROC
from mindspore.train.metrics.precision_recall import Precision, Recall
from mindspore.train.metrics.topk import Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy

__all__ = [
    "names", "get_metric_fn", "Metric", "rearrange_inputs", "Accuracy", "MAE", "MSE", "Precision", "Recall",
    "Fbeta", "F1", "Loss", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
    "ConfusionMatrix", "get_metrics", "auc", "CosineSimilarity", "Dice", "Perplexity", "ROC", "BleuScore",
    "ConfusionMatrixMetric", "HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance",
    "OcclusionSensitivity",
]

__factory__ = {
    "accuracy": Accuracy,
    "acc": Accuracy,
    "precision": Precision,
    "recall": Recall,
    "F1": F1,
    "topk": TopKCategoricalAccuracy,
    "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy,
    "mae": MAE,
    "mse": MSE,
    "loss": Loss,
    "confusion_matrix": ConfusionMatrix,
    "auc": auc,
    "perplexity": Perplexity,
    "roc": ROC,
    "bleu_score": BleuScore,
    "dice": Dice,
    "cosine_similarity": CosineSimilarity,
    "confusion_matrix_metric": ConfusionMatrixMetric,
    "hausdorff_distance": HausdorffDistance,
    "mean_surface_distance": MeanSurfaceDistance,
    "root_mean_square_distance": RootMeanSquareDistance,
    "occlusion_sensitivity": OcclusionSensitivity,
}


def names():
    """The sorted names accepted by :func:`get_metric_fn` and by ``Model(metrics={...})``.

    Examples:
        >>> from mindspore.train import names
        >>> 'acc' in names()
        True
    """
    return sorted(__factory__.keys())


def get_metric_fn(name, *args, **kwargs):
    """A new metric object for ``name`` (see :func:`names`), built with ``args``/``kwargs``.

    Raises:
        KeyError: If ``name`` is not a known metric.

    Examples:
        >>> from mindspore.train import get_metric_fn
        >>> metric = get_metric_fn('precision', eval_type='classification')
    """
    if name not in __factory__:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name}, please refer to official website "
                       f"for more details about supported metrics.")
    return __factory__[name](*args, **kwargs)


def get_metrics(metrics):
    """``Model``'s ``metrics`` argument (None, a set of names, or a dict name -> Metric) as a dict of Metrics.

    Raises:
        TypeError: If ``metrics`` is of another type, or a dict holds non-Metric values.
    """
    if metrics is None:
        return metrics
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError(f"For 'get_metrics', if 'metrics' is dict, the key in 'metrics' must be string and "
                                f"value in 'metrics' must be Metric, but got key:{type(name)}, value:{type(metric)}.")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(f"For 'get_metrics', the argument 'metrics' must be None, dict or set, but got {metrics}")


def _install_in_nn():
    """MindSpore's nn exports the metrics too (``nn.Accuracy is train.Accuracy``); train sits above nn, so the
    metrics install themselves there."""
    import mindspore.nn as nn
    for name in ("Metric", "rearrange_inputs", "names", "get_metric_fn", "get_metrics", "Accuracy", "MAE", "MSE",
                 "Precision", "Recall", "Fbeta", "F1", "Loss", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
                 "Top5CategoricalAccuracy", "ConfusionMatrix", "auc", "ROC", "Perplexity", "CosineSimilarity", "Dice",
                 "BleuScore", "ConfusionMatrixMetric", "HausdorffDistance", "MeanSurfaceDistance",
                 "RootMeanSquareDistance", "OcclusionSensitivity"):
        setattr(nn, name, globals()[name])


_install_in_nn()
