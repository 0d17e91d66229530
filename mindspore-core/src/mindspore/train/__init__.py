"""``mindspore.train``: training utilities and checkpoint serialization."""
from mindspore.train._converters import ckpt_to_safetensors, safetensors_to_ckpt
from mindspore.train.serialization import (async_ckpt_thread_status, load_checkpoint,
                                           load_checkpoint_async, load_param_into_net,
                                           save_checkpoint)

__all__ = ["save_checkpoint", "load_checkpoint", "load_checkpoint_async", "load_param_into_net",
           "ckpt_to_safetensors", "safetensors_to_ckpt", "async_ckpt_thread_status"]

# Model, callbacks, metrics, loss scaling and dataset helpers (the training helper's names).
from mindspore.train.callback import (Callback, CheckpointConfig, EarlyStopping, History,  # noqa: E402
                                      LambdaCallback, LearningRateScheduler, LossMonitor, ModelCheckpoint,
                                      ReduceLROnPlateau, RunContext, TimeMonitor)
from mindspore.train.dataset_helper import DatasetHelper, connect_network_with_dataset  # noqa: E402
from mindspore.train.loss_scale_manager import (DynamicLossScaleManager, FixedLossScaleManager,  # noqa: E402
                                                LossScaleManager)
from mindspore.train.metrics import (F1, MAE, MSE, Accuracy, ConfusionMatrix, Fbeta, Loss, Metric,  # noqa: E402
                                     Precision, Recall, Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                                     TopKCategoricalAccuracy, get_metric_fn, names, rearrange_inputs)
from mindspore.train.metrics import ROC, BleuScore, CosineSimilarity, Dice, Perplexity, auc  # noqa: E402
from mindspore.train.metrics import (ConfusionMatrixMetric, HausdorffDistance, MeanSurfaceDistance,  # noqa: E402
                                     OcclusionSensitivity, RootMeanSquareDistance)
from mindspore.train.model import Model  # noqa: E402
from mindspore.train.summary.summary_record import SummaryRecord  # noqa: E402
from mindspore.train.data_sink import data_sink  # noqa: E402
from mindspore.train._ckpt_strategy import get_ckpt_path_with_strategy  # noqa: E402
from mindspore.train.callback import (BackupAndRestore, FlopsUtilizationCollector, OnRequestExit,  # noqa: E402
                                      SummaryCollector, SummaryLandscape, TrainFaultTolerance)
from mindspore._deploy.api import export, load  # noqa: E402
from mindspore.train.train_thor import ConvertModelUtils, ConvertNetUtils  # noqa: E402

__all__ += ["Model", "Callback", "RunContext", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig",
            "EarlyStopping", "History", "LambdaCallback", "LearningRateScheduler", "ReduceLROnPlateau",
            "DatasetHelper", "connect_network_with_dataset", "LossScaleManager", "FixedLossScaleManager",
            "DynamicLossScaleManager", "Metric", "rearrange_inputs", "names", "get_metric_fn", "Accuracy", "MAE",
            "MSE", "Precision", "Recall", "Fbeta", "F1", "Loss", "TopKCategoricalAccuracy",
            "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "ConfusionMatrix", "build_train_network",
            "export", "load", "auc", "CosineSimilarity", "Dice", "Perplexity", "ROC", "BleuScore",
            "ConfusionMatrixMetric", "HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance",
            "OcclusionSensitivity", "SummaryRecord", "BackupAndRestore", "FlopsUtilizationCollector", "OnRequestExit",
            "TrainFaultTolerance", "SummaryCollector", "SummaryLandscape", "data_sink",
            "get_ckpt_path_with_strategy", "ConvertModelUtils", "ConvertNetUtils"]


def __getattr__(name):
    # mindspore.amp imports this package (for the loss scale managers), so amp's function is fetched on use
    if name == "build_train_network":
        from mindspore.amp import build_train_network
        return build_train_network
    if name in ("build_searched_strategy", "merge_sliced_parameter", "load_distributed_checkpoint",
                "restore_group_info_list"):
        # the distributed-checkpoint tools of mindspore-parallel, which MindSpore's train exports too
        import importlib
        try:
            return getattr(importlib.import_module("mindspore.parallel"), name)
        except ModuleNotFoundError as e:
            raise AttributeError(f"module 'mindspore.train' has no attribute '{name}': it is provided by the add-on "
                                 f"distribution 'mindspore-parallel'. Install it with 'pip install "
                                 f"mindspore-parallel'.") from e
    raise AttributeError(f"module 'mindspore.train' has no attribute '{name}'")
