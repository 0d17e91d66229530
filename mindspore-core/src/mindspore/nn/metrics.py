"""MindSpore's ``mindspore.nn.metrics``: the metrics of :mod:`mindspore.train.metrics` under their older path."""
from mindspore.train.metrics import (  # noqa: F401
    names, get_metric_fn, get_metrics, Accuracy, MAE, MSE, Metric, rearrange_inputs, Precision, HausdorffDistance,
    Recall, Fbeta, BleuScore, CosineSimilarity, OcclusionSensitivity, F1, Dice, ROC, auc, TopKCategoricalAccuracy,
    Top1CategoricalAccuracy, Top5CategoricalAccuracy, Loss, MeanSurfaceDistance, RootMeanSquareDistance,
    Perplexity, ConfusionMatrix, ConfusionMatrixMetric
)

__all__ = [
    "names", "get_metric_fn", "get_metrics", "Accuracy", "MAE", "MSE", "Metric", "rearrange_inputs", "Precision",
    "HausdorffDistance", "Recall", "Fbeta", "BleuScore", "CosineSimilarity", "OcclusionSensitivity", "F1", "Dice",
    "ROC", "auc", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "Loss",
    "MeanSurfaceDistance", "RootMeanSquareDistance", "Perplexity", "ConfusionMatrix", "ConfusionMatrixMetric"
]
