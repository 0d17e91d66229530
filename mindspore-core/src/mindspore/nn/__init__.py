"""``mindspore.nn``: Cells, layers, losses, optimizers, learning-rate schedules and training wrappers."""
from mindspore.nn import dynamic_lr, layer, learning_rate_schedule, loss, optim, wrap
from mindspore.nn.cell import Cell, CellList, SequentialCell  # noqa: F401
from mindspore.nn.dynamic_lr import *  # noqa: F401,F403
from mindspore.nn.layer import *  # noqa: F401,F403
from mindspore.nn.learning_rate_schedule import *  # noqa: F401,F403
from mindspore.nn.loss import *  # noqa: F401,F403
from mindspore.nn.optim import *  # noqa: F401,F403
from mindspore.nn.wrap import *  # noqa: F401,F403
from mindspore.nn.utils import no_init_parameters  # noqa: F401

__all__ = (["Cell", "CellList", "SequentialCell", "no_init_parameters"] + list(layer.__all__) + list(loss.__all__) + list(optim.__all__)
           + list(wrap.__all__) + list(learning_rate_schedule.__all__) + list(dynamic_lr.__all__))
from mindspore.nn.graph_cell import GraphCell  # noqa: E402
__all__.append("GraphCell")

# MindSpore's nn re-exports the evaluation metrics of mindspore.train.metrics (nn.Accuracy is
# train.Accuracy). mindspore.train imports nn (Model, wrappers), so they are fetched on first use.
_METRIC_NAMES = ("Metric", "rearrange_inputs", "names", "get_metric_fn", "get_metrics", "Accuracy", "MAE", "MSE",
                 "Precision", "Recall", "Fbeta", "F1", "Loss", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
                 "Top5CategoricalAccuracy", "ConfusionMatrix", "auc", "ROC", "Perplexity", "CosineSimilarity", "Dice",
                 "BleuScore")


# MindSpore 2.10's nn.Linear and the nn.*Ext layers are the very classes of mindspore.mint.nn (which imports nn),
# so they are fetched from there on first use too.
_MINT_ALIASES = {"Linear": "Linear", "AvgPool1dExt": "AvgPool1d", "AvgPool2dExt": "AvgPool2d",
                 "AvgPool3dExt": "AvgPool3d", "Dropout2dExt": "Dropout2d", "DropoutExt": "Dropout",
                 "EmbeddingExt": "Embedding", "L1LossExt": "L1Loss", "LayerNormExt": "LayerNorm",
                 "LogSoftmaxExt": "LogSoftmax", "MaxPool2dExt": "MaxPool2d", "PReLUExt": "PReLU"}


def __getattr__(name):
    if name in _MINT_ALIASES:
        from mindspore.mint import nn as mint_nn
        return getattr(mint_nn, _MINT_ALIASES[name])
    if name in _METRIC_NAMES:
        from mindspore.train import metrics
        return getattr(metrics, name)
    raise AttributeError(f"module 'mindspore.nn' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_METRIC_NAMES) | set(_MINT_ALIASES))
