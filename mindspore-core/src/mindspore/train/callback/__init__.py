"""Callbacks for ``Model.train``/``eval``/``fit`` (MindSpore's ``mindspore.train.callback``)."""
from __future__ import annotations

from mindspore.train.callback._callback import Callback, RunContext
# private in MindSpore too; its model zoo drives callbacks by hand with them (`cb_params = _InternalCallbackParam()`)
from mindspore.train.callback._callback import _CallbackManager, _InternalCallbackParam  # noqa: F401
from mindspore.train.callback._callback import set_cur_net as _set_cur_net  # noqa: F401
from mindspore.train.callback._checkpoint import CheckpointConfig, ModelCheckpoint
from mindspore.train.callback._early_stop import EarlyStopping
from mindspore.train.callback._history import History
from mindspore.train.callback._lambda_callback import LambdaCallback
from mindspore.train.callback._loss_monitor import LossMonitor
from mindspore.train.callback._lr_scheduler_callback import LearningRateScheduler
from mindspore.train.callback._reduce_lr_on_plateau import ReduceLROnPlateau
from mindspore.train.callback._time_monitor import TimeMonitor
from mindspore.train.callback._backup_and_restore import BackupAndRestore
from mindspore.train.callback._flops_collector import FlopsUtilizationCollector
from mindspore.train.callback._on_request_exit import OnRequestExit
from mindspore.train.callback._summary_collector import SummaryCollector
from mindspore.train.callback._landscape import SummaryLandscape
from mindspore.train.callback._train_fault_tolerance import TrainFaultTolerance

__all__ = ["Callback", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig", "RunContext",
           "EarlyStopping", "History", "LambdaCallback", "LearningRateScheduler", "ReduceLROnPlateau",
           "BackupAndRestore", "FlopsUtilizationCollector", "OnRequestExit", "TrainFaultTolerance",
           "SummaryCollector", "SummaryLandscape"]
