"""Model: the high-level train / eval / predict / fit loop of MindSpore 2.10.

Construction builds three networks from the user's ``network``:

* train: ``amp.build_train_network(network, optimizer, loss_fn, amp_level, ...)`` when an optimizer
  is given (``WithLossCell`` + ``TrainOneStepCell``, or ``TrainOneStepWithLossScaleCell`` with a
  loss scale manager); ``WithLossCell(network, loss_fn)`` with only a loss; else ``network``.
* eval: ``eval_network`` if given, else ``WithEvalCell(network, loss_fn)`` returning
  ``(loss, logits, label)`` (``eval_indexes = [0, 1, 2]``), built only when ``metrics`` are set.
* predict: ``network``.

Each dataset row is a list of columns. With a ``loss_fn`` a row must have exactly two columns
``(data, label)``; otherwise all columns are passed to the network. ``Model`` calls
``set_train(True)`` before training steps and ``set_train(False)`` before eval/predict.

Callbacks see MindSpore's ``cb_params``; epoch and step accounting follow MindSpore, including
``initial_epoch`` (epochs ``initial_epoch+1 .. epoch`` run) and sink mode (``sink_size`` steps per
epoch, continuing through the data; in GRAPH_MODE the step callbacks run once per sink, as on a
device; a CPU target does not sink, as in MindSpore). A tqdm progress bar is shown when standard
output is a terminal (see ``mindspore.train.callback._progress``).
"""
from __future__ import annotations

import copy
import logging
import numbers
from collections.abc import Iterable

import numpy as np

import mindspore.context as context
from mindspore.context import ParallelMode  # noqa: F401 - libraries import it from this module, as in MindSpore
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.train.callback import RunContext, TimeMonitor
from mindspore.train.callback import __all__ as _internal_cb_names
from mindspore.train.callback._callback import _CallbackManager, _InternalCallbackParam
from mindspore.train.callback._checkpoint import ModelCheckpoint
from mindspore.train.callback._progress import _ProgressBar, progress_enabled
from mindspore.train.dataset_helper import DatasetHelper
from mindspore.train.metrics import Loss, get_metric_fn, get_metrics

__all__ = ["Model"]

_logger = logging.getLogger("mindspore")
_MODEL_KWARGS = ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict", "acc_level")
_LEGACY_METHODS = {"begin", "end", "epoch_begin", "epoch_end", "step_begin", "step_end"}


def _sinks_to_device():
    """Whether ``dataset_sink_mode=True`` sinks: as MindSpore, a CPU target has no dataset channel and trains and
    evaluates without sinking (step by step, every step's callbacks) instead."""
    return context.get_context("device_target") != "CPU"


def _as_tuple(inputs):
    return (inputs,) if isinstance(inputs, Tensor) else inputs


def _check_int(owner, name, value, positive=False):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"For '{owner}', the '{name}' must be int, but got {type(value).__name__}.")
    if value < (1 if positive else 0):
        kind = "positive" if positive else "non-negative"
        raise ValueError(f"For '{owner}', the '{name}' must be a {kind} int, but got {value}.")
    return int(value)


def _check_bool(owner, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"For '{owner}', the '{name}' must be bool, but got {type(value).__name__}.")
    return value


def _check_predict_data(data):
    if isinstance(data, (list, tuple)):
        for item in data:
            _check_predict_data(item)
    elif not (data is None or isinstance(data, (int, float, str, Tensor, np.ndarray))):
        raise TypeError(f"For 'Model.predict', the input data must be Tensor, int, float, str, None or a "
                        f"tuple/list of them, but got {type(data).__name__}.")


class Model:
    """High-level API for training, evaluation and inference.

    Args:
        network (Cell): The network to train or evaluate.
        loss_fn (Cell): The loss; when None, ``network`` must compute the loss. Default: ``None``.
        optimizer (Cell): The optimizer; when None, ``network`` must update the weights. Default: ``None``.
        metrics (Union[dict, set]): Metric names (``{'accuracy', 'loss'}``) or a dict name -> Metric,
            evaluated by ``eval``/``fit``. Default: ``None``.
        eval_network (Cell): The evaluation network; by default ``WithEvalCell(network, loss_fn)``.
        eval_indexes (list): Three positions in ``eval_network``'s outputs: loss, prediction, label.
        amp_level (str): Mixed precision level for ``amp.build_train_network``: ``"O0"``, ``"O1"``,
            ``"O2"``, ``"O3"`` or ``"auto"``. Default: ``"O0"``.
        boost_level (str): ``"O0"``, ``"O1"`` or ``"O2"`` (boost optimizations are not available; other
            levels than ``"O0"`` train unboosted). Default: ``"O0"``.
        kwargs: ``loss_scale_manager`` (a LossScaleManager), ``keep_batchnorm_fp32`` (bool).

    Raises:
        ValueError: On an unknown keyword, ``amp_level`` without optimizer, or ``metrics`` with neither
            ``loss_fn`` nor ``eval_network``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Dense(10, 5)  # doctest: +SKIP
        >>> loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")  # doctest: +SKIP
        >>> opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)  # doctest: +SKIP
        >>> model = ms.Model(net, loss_fn=loss, optimizer=opt, metrics={"accuracy"})  # doctest: +SKIP
        >>> model.train(2, train_dataset)  # doctest: +SKIP
        >>> model.eval(valid_dataset)  # doctest: +SKIP
        {'accuracy': 0.91}
    """

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None, eval_indexes=None,
                 amp_level="O0", boost_level="O0", **kwargs):
        self._check_kwargs(kwargs)
        if not isinstance(network, Cell):
            raise TypeError(f"For 'Model', the 'network' must be a Cell, but got {type(network).__name__}.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        self._loss_scale_manager_set = "loss_scale_manager" in kwargs
        self._keep_bn_fp32 = kwargs.get("keep_batchnorm_fp32")
        self._amp_level = amp_level
        self._boost_level = kwargs.get("acc_level", boost_level)
        self._eval_network = eval_network
        self._eval_indexes = None
        self._metrics = metrics
        self._parallel_mode = context.get_auto_parallel_context("parallel_mode")
        self._device_number = context.get_auto_parallel_context("device_num")
        if optimizer is None and amp_level != "O0":
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None.Please set "
                             "amp_level='O0' to disable auto mixed precision or set 'optimizer' not be None to use "
                             "auto mixed precision.")
        graph_cell = _graph_cell_type()
        if graph_cell is not None and isinstance(network, graph_cell) and (loss_fn is not None or optimizer):
            raise ValueError(f"For 'Model', 'loss_fn' and 'optimizer' should be None when network is a GraphCell, "
                             f"but got 'loss_fn': {loss_fn}, 'optimizer': {optimizer}.")
        self._train_network = self._build_train_network()
        self._build_eval_network(metrics, eval_network, eval_indexes)
        self._predict_network = network
        self._current_epoch_num = 0
        self._current_step_num = 0
        self._backbone_is_train = True

    def _check_kwargs(self, kwargs):
        """MindSpore's check of Model's extra keyword arguments (subclasses such as MindArmour's DPModel call it by
        name when they build their own training network)."""
        for arg in kwargs:
            if arg not in _MODEL_KWARGS:
                raise ValueError(f"The argument in 'kwargs' should be 'loss_scale_manager' or 'keep_batchnorm_fp32' "
                                 f"or 'boost_config_dict' or 'acc_level', but got '{arg}'.")

    # --- network construction ---------------------------------------------------------------
    def _build_train_network(self):
        if self._loss_scale_manager is not None and self._optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set 'loss_scale_manager'.")
        network = self._network
        if self._optimizer:
            import mindspore.amp as amp
            amp_config = {}
            if self._loss_scale_manager_set:
                amp_config["loss_scale_manager"] = self._loss_scale_manager
            if self._keep_bn_fp32 is not None:
                amp_config["keep_batchnorm_fp32"] = self._keep_bn_fp32
            return amp.build_train_network(network, self._optimizer, self._loss_fn, level=self._amp_level,
                                           boost_level=self._boost_level, **amp_config)
        if self._loss_fn:
            import mindspore.nn as nn
            return nn.WithLossCell(network, self._loss_fn)
        return network

    def _build_eval_network(self, metrics, eval_network, eval_indexes):
        self._metric_fns = get_metrics(metrics)
        if not self._metric_fns:
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list) and len(eval_indexes) == 3):
                raise ValueError(f"The argument 'eval_indexes' must be a list or None. If 'eval_indexes' is a list, "
                                 f"length of it must be three. But got 'eval_indexes' {eval_indexes}")
            self._eval_network = eval_network
            self._eval_indexes = eval_indexes
            return
        if self._loss_fn is None:
            raise ValueError("If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you "
                             "don't want an evaluation.\nIf evaluation is required, you need to specify "
                             "`eval_network`, which will be used in the framework to evaluate the model.\nFor the "
                             "simple scenarios with one data, one label and one logits, `eval_network` is optional, "
                             "and then you can set `eval_network` or `loss_fn`. For the latter case, framework will "
                             "automatically build an evaluation network with `network` and `loss_fn`.")
        import mindspore.nn as nn
        self._eval_network = nn.WithEvalCell(self._network, self._loss_fn, self._amp_level in ("O2", "O3", "auto"))
        self._eval_indexes = [0, 1, 2]

    @property
    def train_network(self):
        """The network ``train`` runs (loss and optimizer included)."""
        return self._train_network

    @property
    def predict_network(self):
        """The network ``predict`` runs."""
        return self._predict_network

    @property
    def eval_network(self):
        """The network ``eval`` runs (None without metrics)."""
        return self._eval_network

    # --- metrics ----------------------------------------------------------------------------------
    def _clear_metrics(self):
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs):
        outputs = _as_tuple(outputs)
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"The length of 'outputs' must be >= 3, but got {len(outputs)}")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def _get_metrics(self):
        # NumPy scalars become Python numbers so results print as MindSpore's do ({'acc': 0.96875})
        return {name: _plain(metric.eval()) for name, metric in self._metric_fns.items()}

    # --- helpers -------------------------------------------------------------------------------------
    def _set_mode(self, network, is_train):
        if self._backbone_is_train != is_train:
            network.set_train(is_train)
            self._backbone_is_train = is_train
        return network

    def _prepare(self, network, is_train):
        network.set_train(is_train)
        network.phase = "train" if is_train else "eval"
        self._backbone_is_train = is_train
        return network

    @staticmethod
    def _transform_callbacks(callbacks):
        if callbacks is None:
            return []
        if isinstance(callbacks, Iterable):
            return list(callbacks)
        return [callbacks]

    @staticmethod
    def _check_methods_for_custom_callbacks(callbacks, mode):
        """Legacy-only hooks warn in train/eval and are rejected in fit, as in MindSpore."""
        for cb in callbacks if isinstance(callbacks, list) else [callbacks]:
            name = type(cb).__name__
            if name in _internal_cb_names:
                continue
            legacy = set(type(cb).__dict__) & _LEGACY_METHODS
            if not legacy:
                continue
            message = (f"For {name} callback, {legacy} methods may not be supported in later version, Use methods "
                       f"prefixed with 'on_train' or 'on_eval' instead when using customized callbacks.")
            if mode == "fit":
                raise ValueError(message)
            _logger.warning(message)

    @staticmethod
    def _check_epochs(owner, epoch, initial_epoch, sink_size, dataset):
        if isinstance(sink_size, bool) or not isinstance(sink_size, numbers.Integral):
            raise TypeError(f"For '{owner}', the 'sink_size' must be int, but got {type(sink_size).__name__}.")
        epoch = _check_int(owner, "epoch", epoch)
        initial_epoch = _check_int(owner, "initial_epoch", initial_epoch)
        if initial_epoch >= epoch:
            raise ValueError(f"For '{owner}', the parameter 'epoch' must bigger than parameter 'initial_epoch', but "
                             f"got the parameter 'epoch' is {epoch}, 'initial_epoch' is {initial_epoch}.")
        dataset_size = dataset.get_dataset_size()
        if dataset_size == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
        if sink_size == -1:
            sink_size = dataset_size
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"For '{owner}', The argument 'sink_size' must be -1 or positive, but got {sink_size}.")
        return epoch, initial_epoch, sink_size

    # --- training --------------------------------------------------------------------------------------
    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1, initial_epoch=0,
              *, progress_bar=None):
        """Train for ``epoch`` epochs (epochs ``initial_epoch+1 .. epoch``).

        Args:
            epoch (int): The final epoch number.
            train_dataset (Dataset): Rows of ``(data, label)`` with a ``loss_fn``, else the network's inputs.
            callbacks (Union[Callback, list[Callback]]): Callbacks to run. Default: ``None``.
            dataset_sink_mode (bool): Sink-mode accounting: each epoch is ``sink_size`` steps. Default: ``False``.
            sink_size (int): Steps per epoch in sink mode; -1 means the dataset size. Default: ``-1``.
            initial_epoch (int): Epochs already done (to resume). Default: ``0``.
            progress_bar (bool): Show a progress bar; None decides from ``MS_PROGRESS_BAR`` and whether stdout
                is a terminal. Default: ``None``.

        Raises:
            ValueError: If ``initial_epoch >= epoch``, ``sink_size`` is invalid or the dataset is empty.
        """
        _check_bool("Model.train", "dataset_sink_mode", dataset_sink_mode)
        epoch, initial_epoch, sink_size = self._check_epochs("Model.train", epoch, initial_epoch, sink_size,
                                                             train_dataset)
        if callbacks:
            self._check_methods_for_custom_callbacks(callbacks, "train")
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch,
                    progress_bar=progress_bar)

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1, initial_epoch=0, *,
            progress_bar=None):
        """Train, evaluating on ``valid_dataset`` after every ``valid_frequency`` epochs.

        Args:
            epoch (int): The final epoch number.
            train_dataset (Dataset): The training data.
            valid_dataset (Dataset): The validation data; needs ``metrics``. Default: ``None``.
            valid_frequency (Union[int, list]): Evaluate every N epochs, or at the listed epochs. Default: ``1``.
            callbacks (Union[Callback, list[Callback]]): Callbacks to run. Default: ``None``.
            dataset_sink_mode (bool): Sink mode for training. Default: ``False``.
            valid_dataset_sink_mode (bool): Sink mode for validation. Default: ``False``.
            sink_size (int): Steps per epoch in sink mode. Default: ``-1``.
            initial_epoch (int): Epochs already done. Default: ``0``.
            progress_bar (bool): See :meth:`train`.

        Raises:
            TypeError: If ``valid_frequency`` is not an int or list.
            ValueError: If ``valid_dataset`` is given without ``metrics``, or a callback uses legacy hooks.
        """
        _check_bool("Model.fit", "dataset_sink_mode", dataset_sink_mode)
        _check_bool("Model.fit", "valid_dataset_sink_mode", valid_dataset_sink_mode)
        epoch, initial_epoch, sink_size = self._check_epochs("Model.fit", epoch, initial_epoch, sink_size,
                                                             train_dataset)
        if not isinstance(valid_frequency, (int, list)) or isinstance(valid_frequency, bool):
            raise TypeError(f"For 'Model.fit', the type of 'valid_frequency' must be a list or an integer, but got "
                            f"type {type(valid_frequency)}.")
        if valid_dataset and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument 'metrics' can not be"
                             "None or empty, you should set the argument 'metrics' for model.")
        if callbacks:
            self._check_methods_for_custom_callbacks(callbacks, "fit")
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch,
                    (valid_dataset, valid_frequency, valid_dataset_sink_mode), progress_bar=progress_bar)

    def _train(self, epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch,
               valid_infos=(None, 1, False), progress_bar=None):
        cb_params = _InternalCallbackParam()
        cb_params.train_network = self._train_network
        cb_params.epoch_num = epoch - initial_epoch
        cb_params.batch_num = sink_size if dataset_sink_mode else train_dataset.get_dataset_size()
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = self._parallel_mode
        cb_params.device_number = self._device_number
        cb_params.train_dataset = train_dataset
        cb_params.list_callback = self._transform_callbacks(callbacks)
        cb_params.train_dataset_element = None
        cb_params.network = self._network
        cb_params.last_save_ckpt_step = None
        cb_params.latest_ckpt_file = None
        run_list = list(cb_params.list_callback)
        if progress_enabled(progress_bar):
            run_list.append(_ProgressBar(epoch))
        with _CallbackManager(run_list) as list_callback:
            try:
                if dataset_sink_mode and not _sinks_to_device():
                    _logger.info("The CPU cannot support dataset sink mode currently. So the training process will "
                                 "be performed with dataset not sink.")
                    self._train_process(epoch, train_dataset, list_callback, cb_params, initial_epoch, valid_infos)
                elif dataset_sink_mode:
                    self._train_dataset_sink_process(epoch, train_dataset, list_callback, cb_params, sink_size,
                                                     initial_epoch, valid_infos)
                else:
                    self._train_process(epoch, train_dataset, list_callback, cb_params, initial_epoch, valid_infos)
            except BaseException:
                self._exception_save(cb_params.list_callback)
                raise

    def _exception_save(self, callbacks):
        """With ``CheckpointConfig(exception_save=True)``, save ``{prefix}-{epoch}_{step}_breakpoint.ckpt``."""
        ckpt = next((cb for cb in reversed(callbacks) if isinstance(cb, ModelCheckpoint)), None)
        if ckpt is not None:
            ckpt.save_breakpoint(self._train_network, self._current_epoch_num, self._current_step_num)

    def _run_train_step(self, cb_params, inputs):
        self._set_mode(self._train_network, True)
        outputs = self._train_network(*inputs)
        cb_params.net_outputs = outputs
        if self._loss_scale_manager and self._loss_scale_manager.get_drop_overflow_update():
            overflow = bool(np.all(outputs[1].asnumpy()))
            self._loss_scale_manager.update_loss_scale(overflow)
        return outputs

    def _train_process(self, epoch, train_dataset, list_callback, cb_params, initial_epoch, valid_infos):
        dataset_helper = DatasetHelper(train_dataset, dataset_sink_mode=False, epoch_num=epoch - initial_epoch)
        self._prepare(self._train_network, True)
        cb_params.cur_step_num = 0
        cb_params.dataset_sink_mode = False
        run_context = RunContext(cb_params)
        list_callback.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = cb_params.cur_epoch_num
            self._current_step_num = 0
            list_callback.on_train_epoch_begin(run_context)
            for element in dataset_helper:
                count = len(element)
                element = _as_tuple(element)
                if self._loss_fn and count != 2:
                    raise ValueError(f"When 'loss_fn' is not None, 'train_dataset' should return two elements, but "
                                     f"got {count}, please check the number of elements returned by "
                                     f"'train_dataset'")
                cb_params.cur_step_num += 1
                self._current_step_num = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
                cb_params.train_dataset_element = element
                list_callback.on_train_step_begin(run_context)
                self._run_train_step(cb_params, element)
                list_callback.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            self._eval_during_train(valid_infos, cb_params, list_callback)
            list_callback.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        list_callback.on_train_end(run_context)

    def _train_dataset_sink_process(self, epoch, train_dataset, list_callback, cb_params, sink_size, initial_epoch,
                                    valid_infos):
        dataset_size = train_dataset.get_dataset_size()
        epoch_num = -(-(epoch - initial_epoch) * sink_size // dataset_size)
        dataset_helper = DatasetHelper(train_dataset, dataset_sink_mode=True, sink_size=sink_size,
                                       epoch_num=epoch_num)
        is_graph = context.get_context("mode") == context.GRAPH_MODE
        cb_params.cur_step_num = 0
        cb_params.dataset_sink_mode = True
        run_context = RunContext(cb_params)
        list_callback.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = cb_params.cur_epoch_num
            self._current_step_num = 0
            list_callback.on_train_epoch_begin(run_context)
            network = self._prepare(self._train_network, True)
            cb_params.train_network = network
            if is_graph:  # one device call runs the whole sink: step callbacks fire once
                cb_params.cur_step_num += dataset_helper.sink_size()
                self._current_step_num = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
                cb_params.train_dataset_element = ()
                list_callback.on_train_step_begin(run_context)
                for inputs in dataset_helper:
                    self._run_train_step(cb_params, _as_tuple(inputs))
                list_callback.on_train_step_end(run_context)
            else:
                for inputs in dataset_helper:
                    cb_params.cur_step_num += 1
                    self._current_step_num = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
                    cb_params.train_dataset_element = _as_tuple(inputs)
                    list_callback.on_train_step_begin(run_context)
                    self._run_train_step(cb_params, _as_tuple(inputs))
                    list_callback.on_train_step_end(run_context)
            self._eval_during_train(valid_infos, cb_params, list_callback)
            list_callback.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        list_callback.on_train_end(run_context)

    @staticmethod
    def _should_eval(epoch, frequency):
        return epoch % frequency == 0 if isinstance(frequency, int) else epoch in frequency

    def _eval_during_train(self, valid_infos, cb_params, list_callback):
        valid_dataset, valid_frequency, valid_sink = valid_infos
        if not valid_dataset or not self._should_eval(cb_params.cur_epoch_num, valid_frequency):
            return
        saved = {key: cb_params[key] for key in ("cur_step_num", "batch_num", "dataset_sink_mode", "net_outputs")}
        eval_callbacks = [cb for cb in list_callback._callbacks  # pylint: disable=protected-access
                          if type(cb).__name__ not in _internal_cb_names or isinstance(cb, TimeMonitor)]
        eval_callbacks = [cb for cb in eval_callbacks if not isinstance(cb, _ProgressBar)]
        self._eval_in_fit(valid_dataset, eval_callbacks, valid_sink, cb_params)
        cb_params.mode = "train"
        cb_params.update(saved)

    # --- evaluation --------------------------------------------------------------------------------
    def _eval_in_fit(self, valid_dataset, callbacks, dataset_sink_mode, cb_params):
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        self._clear_metrics()
        manager = _CallbackManager(list(callbacks))  # not entered again: the training run entered them
        return self._eval_process(valid_dataset, manager, cb_params, dataset_sink_mode, add_eval_loss=True)

    def _eval_process(self, valid_dataset, list_callback, cb_params, dataset_sink_mode, add_eval_loss=False):
        if dataset_sink_mode and not _sinks_to_device():
            _logger.info("CPU cannot support dataset sink mode currently. So the evaluating process will be "
                         "performed with dataset non-sink mode.")
            dataset_sink_mode = False
        run_context = RunContext(cb_params)
        cb_params.dataset_sink_mode = dataset_sink_mode
        network = self._prepare(self._eval_network, False)
        cb_params.eval_network = network
        list_callback.on_eval_begin(run_context)
        sink = valid_dataset.get_dataset_size() if dataset_sink_mode else -1
        dataset_helper = DatasetHelper(valid_dataset, dataset_sink_mode=dataset_sink_mode, sink_size=sink)
        eval_loss_fn = get_metric_fn("loss") if add_eval_loss and self._eval_indexes is not None else None
        list_callback.on_eval_epoch_begin(run_context)
        for element in dataset_helper:
            cb_params.cur_step_num += 1
            element = _as_tuple(element)
            cb_params.eval_dataset_element = element
            list_callback.on_eval_step_begin(run_context)
            self._set_mode(network, False)
            outputs = network(*element)
            cb_params.net_outputs = outputs
            list_callback.on_eval_step_end(run_context)
            self._update_metrics(outputs)
            if eval_loss_fn is not None:
                eval_loss_fn.update(outputs[self._eval_indexes[0]])
            if run_context.get_stop_requested():
                break
        list_callback.on_eval_epoch_end(run_context)
        metrics = self._get_metrics()
        cb_params.metrics = metrics
        if add_eval_loss:  # in fit: what EarlyStopping / ReduceLROnPlateau monitor
            cb_params.eval_results = copy.deepcopy(metrics)
            if eval_loss_fn is not None:
                cb_params.eval_results["eval_loss"] = _plain(eval_loss_fn.eval())
        list_callback.on_eval_end(run_context)
        return metrics

    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """Evaluate the metrics on ``valid_dataset``.

        Args:
            valid_dataset (Dataset): Rows of ``(data, label)`` (or the eval network's inputs).
            callbacks (Union[Callback, list[Callback]]): Callbacks to run. Default: ``None``.
            dataset_sink_mode (bool): Sink-mode accounting. Default: ``False``.

        Returns:
            dict, metric name -> value.

        Raises:
            ValueError: If the model has no metrics.
        """
        _check_bool("Model.eval", "dataset_sink_mode", dataset_sink_mode)
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or empty, you should set "
                             "the argument 'metrics' for model.")
        if callbacks:
            self._check_methods_for_custom_callbacks(callbacks, "eval")
        cb_params = _InternalCallbackParam()
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        cb_params.list_callback = self._transform_callbacks(callbacks)
        cb_params.network = self._network
        self._clear_metrics()
        with _CallbackManager(cb_params.list_callback) as list_callback:
            return self._eval_process(valid_dataset, list_callback, cb_params, dataset_sink_mode)

    def predict(self, *predict_data):
        """Run the network in inference mode (``set_train(False)``) on ``predict_data``.

        Returns:
            The network's output.

        Raises:
            TypeError: If an input is not a Tensor, number, str, None or a tuple/list of them.
        """
        self._set_mode(self._predict_network, False)
        _check_predict_data(predict_data)
        return self._predict_network(*predict_data)

    def build(self, train_dataset=None, valid_dataset=None, sink_size=-1, epoch=1, sink_mode=True):
        """Pre-build the sink-mode dataset channel and graphs (MindSpore 2.10 supports it on Ascend only; on other
        targets it raises RuntimeError, as 2.10 does on the CPU). See ``mindspore/train/_model_layout.py``."""
        from mindspore.train import _model_layout
        _model_layout.build(self, train_dataset, valid_dataset, sink_size, epoch, sink_mode)

    def infer_train_layout(self, train_dataset, dataset_sink_mode=True, sink_size=-1):
        """The parameter layouts of the train network in SEMI_AUTO_PARALLEL/AUTO_PARALLEL, as
        ``{name: [dev_matrix, tensor_map, slice_shape, field_size, uniform_split, opt_shard_group]}``; it compiles the
        network for the first batch of ``train_dataset``. Other parallel modes raise RuntimeError."""
        from mindspore.train import _model_layout
        _model_layout.check_train(train_dataset, dataset_sink_mode, sink_size)
        network = self._train_network
        for inputs in train_dataset.create_tuple_iterator(num_epochs=1):
            network.compile(*inputs)
            break
        return _model_layout.fill_layouts(network)

    def infer_predict_layout(self, *predict_data, skip_backend_compile=False):
        """The parameter layouts of the predict network in SEMI_AUTO_PARALLEL/AUTO_PARALLEL (see
        :meth:`infer_train_layout`); it compiles the network for ``predict_data``."""
        from mindspore.train import _model_layout
        _model_layout.check_predict()
        _check_predict_data(predict_data)
        self._predict_network.compile(*predict_data)
        return _model_layout.fill_layouts(self._predict_network)


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def _graph_cell_type():
    import mindspore.nn as nn
    return getattr(nn, "GraphCell", None)
