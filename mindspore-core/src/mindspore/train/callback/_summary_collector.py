"""``SummaryCollector``: record a training run's summary data through :class:`SummaryRecord` (MindSpore's
callback): the loss (``loss/auto``), parameter histograms of the optimizer's parameters (``<name>/auto``), the
input images (``input_data/auto``), every value the network's summary operators produce, and the parameter
checkpoints a loss landscape is later computed from (``collect_landscape``).

Collection happens every ``collect_freq`` steps (epochs in dataset sink mode); tensor data (``TensorSummary``)
on its own schedule (``collect_tensor_freq``, at most 20 records by default), as in MindSpore. Not collected:
the computational graph and the dataset graph (MindSpore writes its own ANF graph protobuf) and the lineage file
(MindInsight's lineage records); asking for them is accepted and logged.
"""
from __future__ import annotations

import json
import os
import re
import stat
from collections import defaultdict

import numpy as np

import mindspore.log as logger
from mindspore.common.tensor import Tensor
from mindspore.train.callback._callback import Callback
from mindspore.train.callback._cb_checks import check_value_type, make_directory

__all__ = ["SummaryCollector"]

_HYPER_CONFIG_ENV_NAME = "MINDINSIGHT_HYPER_CONFIG"
_HYPER_CONFIG_LEN_LIMIT = 100000


class SummaryCollector(Callback):
    """Collect summary data of ``Model.train``/``Model.eval`` into ``summary_dir``.

    Args:
        summary_dir (str): directory of the summary file.
        collect_freq (int): collect every this many steps (epochs in sink mode). Default: ``10``.
        num_process (int): accepted for compatibility. Default: ``32``.
        collect_specified_data (dict): what to collect: ``collect_metric`` (loss), ``collect_graph``,
            ``collect_train_lineage``, ``collect_eval_lineage``, ``collect_input_data``, ``collect_dataset_graph``
            (bools), ``histogram_regular`` (a regex of parameter names, ``None``: the first 5 parameters),
            ``collect_landscape`` (dict). Default: ``None`` (everything).
        keep_default_action (bool): merge ``collect_specified_data`` into the defaults. Default: ``True``.
        custom_lineage_data (dict): str keys, int/float/str values. Default: ``None``.
        collect_tensor_freq (int): frequency of tensor data. Default: ``None``.
        max_file_size (int): maximum summary file size in bytes. Default: ``None``.
        export_options (dict): ``{'tensor_format': 'npy'}`` also exports the tensors. Default: ``None``.

    Examples:
        >>> from mindspore.train import SummaryCollector
        >>> summary_collector = SummaryCollector(summary_dir='./summary_dir', collect_freq=1)
    """

    _DEFAULT_SPECIFIED_DATA = {
        "collect_metric": True,
        "collect_graph": True,
        "collect_train_lineage": True,
        "collect_eval_lineage": True,
        "collect_input_data": True,
        "collect_dataset_graph": True,
        "histogram_regular": None,
        "collect_landscape": {"landscape_size": 40, "unit": "step", "num_samples": 2048,
                              "create_landscape": {"train": True, "result": True},
                              "intervals": [[1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]},
    }

    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None, max_file_size=None,
                 export_options=None):
        super().__init__()
        from mindspore.train.summary.summary_record import _process_export_options
        self._summary_dir = make_directory(summary_dir, "summary_dir")
        self._record = None
        self._check_positive("collect_freq", collect_freq)
        self._collect_freq = collect_freq
        self._check_positive("collect_tensor_freq", collect_tensor_freq, allow_none=True)
        self._collect_tensor_freq = collect_tensor_freq
        self._tensor_collect_range = None
        self._check_positive("max_file_size", max_file_size, allow_none=True)
        self._max_file_size = max_file_size
        self._export_options = _process_export_options(export_options)
        check_value_type("keep_default_action", keep_default_action, bool)
        self._collect_specified_data = self._process_specified_data(collect_specified_data, keep_default_action)
        landscape = self._collect_specified_data.get("collect_landscape", None)
        check_value_type("collect_landscape", landscape, [dict, type(None)])
        self._is_collect_landscape = bool(landscape)
        if self._is_collect_landscape:
            self._check_collect_landscape_data(landscape)
            self._ckpt_dir = os.path.join(self._summary_dir, "ckpt_dir")
            make_directory(self._ckpt_dir)
            self._model_params_file_map = {}
            self._epoch_group = defaultdict(list)
            for i, interval in enumerate(landscape.get("intervals")):
                self._epoch_group[i].extend(interval)
        self._custom_lineage_data = self._process_custom_lineage_data(custom_lineage_data)
        self._temp_optimizer = None
        self._has_saved_graph = False
        self._is_parse_loss_success = True
        self._first_step = True
        self._dataset_sink_mode = True
        self._num_process = num_process

    # -- argument checks --------------------------------------------------------------------------------------
    def _check_positive(self, name, value, allow_none=False):
        if allow_none and value is None:
            return
        check_value_type(name, value, int)
        if value <= 0:
            raise ValueError(f'For "{self.__class__.__name__}", the value of `{name}` should be greater than 0, but '
                             f'got `{value}`.')

    def _process_specified_data(self, specified_data, action):
        check_value_type("collect_specified_data", specified_data, [dict, type(None)])
        defaults = self._DEFAULT_SPECIFIED_DATA
        if specified_data is None:
            return dict(defaults) if action else {}
        for name in specified_data:
            check_value_type(name, name, [str])
        unexpected = set(specified_data) - set(defaults)
        if unexpected:
            raise ValueError(f'For "{self.__class__.__name__}", the keys {unexpected} of `collect_specified_data` are '
                             f'unsupported, expect the follow keys: {list(defaults.keys())}')
        if "histogram_regular" in specified_data:
            regular = specified_data.get("histogram_regular")
            check_value_type("histogram_regular", regular, (str, type(None)))
            if isinstance(regular, str):
                try:
                    re.match(regular, "")
                except re.error as exc:
                    raise ValueError(f"For `collect_specified_data`, the value of `histogram_regular` is not a valid "
                                     f"regular expression. Detail: {exc}.") from exc
        for item in set(defaults) - {"histogram_regular", "collect_landscape"}:
            if item in specified_data:
                check_value_type(item, specified_data.get(item), bool)
        if action:
            result = dict(defaults)
            result.update(specified_data)
            return result
        return dict(specified_data)

    def _check_collect_landscape_data(self, landscape):
        defaults = self._DEFAULT_SPECIFIED_DATA["collect_landscape"]
        unexpected = set(landscape) - set(defaults)
        if unexpected:
            raise ValueError(f'For "{self.__class__.__name__}", the keys {unexpected} of `collect_landscape` are '
                             f'unsupported, expect the follow keys: {list(defaults.keys())}')
        size = landscape.get("landscape_size", 40)
        check_value_type("landscape_size", size, int)
        if size < 3 or size > 256:
            raise ValueError(f'For "{self.__class__.__name__}", the "landscape_size" in collect_specified_data should '
                             f'be less than 256 and more than 3, but got the: {size}')
        unit = landscape.get("unit", "step")
        check_value_type("unit", unit, str)
        if unit not in ("step", "epoch"):
            raise ValueError(f'For "{self.__class__.__name__}", unit in collect_specified_data should be step or '
                             f'epoch, but got the: {unit}.')
        check_value_type("num_samples", landscape.get("num_samples", 2048), int)
        create = landscape.get("create_landscape", {"train": True, "result": True})
        check_value_type("create_landscape", create, dict)
        for param, value in create.items():
            if param not in ("train", "result"):
                raise ValueError(f'For "{self.__class__.__name__}", the key to create landscape should be in '
                                 f'["train", "result"], but got the: {param}.')
            check_value_type(param, value, bool)
        intervals = landscape.get("intervals")
        check_value_type("intervals", intervals, list)
        for interval in intervals:
            check_value_type("each interval inintervals", interval, list)
            if len(interval) < 3:
                raise ValueError(f'For "{self.__class__.__name__}", the length of each list in "intervals" should not '
                                 f'be less than three, but got the: {interval}')
            for j in interval:
                if not isinstance(j, int):
                    raise TypeError(f'For "{self.__class__.__name__}", the value of each list in "intervals" should '
                                    f'be int, but got the: {type(j)}')

    def _process_custom_lineage_data(self, custom_lineage_data):
        custom_lineage_data = {} if custom_lineage_data is None else custom_lineage_data
        self._check_custom_lineage_type("custom_lineage_data", custom_lineage_data)
        auto = self._hyper_config_lineage()
        self._check_custom_lineage_type("auto_custom_lineage_data", auto)
        auto.update(custom_lineage_data)
        return auto

    @staticmethod
    def _check_custom_lineage_type(param_name, custom_lineage):
        check_value_type(param_name, custom_lineage, [dict, type(None)])
        for key, value in custom_lineage.items():
            check_value_type(f"{param_name} -> {key}", key, str)
            check_value_type(f"the value of {param_name} -> {key}", value, (int, str, float))

    @staticmethod
    def _hyper_config_lineage():
        hyper_config = os.environ.get(_HYPER_CONFIG_ENV_NAME)
        if hyper_config is None or len(hyper_config) > _HYPER_CONFIG_LEN_LIMIT:
            return {}
        try:
            data = json.loads(hyper_config)
        except (TypeError, json.JSONDecodeError) as exc:
            logger.warning(f"The 'MINDINSIGHT_HYPER_CONFIG' of environment variable decode error. Detail: {exc}.")
            return {}
        custom = data.get("custom_lineage_data") if isinstance(data, dict) else None
        return dict(custom) if isinstance(custom, dict) else {}

    # -- context ----------------------------------------------------------------------------------------------
    def __enter__(self):
        from mindspore.train.summary.summary_record import SummaryRecord
        self._record = SummaryRecord(log_dir=self._summary_dir, max_file_size=self._max_file_size,
                                     raise_exception=False, export_options=self._export_options)
        self._first_step, self._dataset_sink_mode = True, True
        return self

    def __exit__(self, *err):
        if self._record is not None:
            self._record.close()

    # -- callback hooks ---------------------------------------------------------------------------------------
    def begin(self, run_context):
        """Check there is one SummaryCollector and the mode is train or eval."""
        cb_params = run_context.original_args()
        found = False
        for callback in getattr(cb_params, "list_callback", []) or []:
            if type(callback).__name__ == self.__class__.__name__:
                if found:
                    raise ValueError(f"There are more than one {self.__class__.__name__} instance in callback list,"
                                     f"but expected only one {self.__class__.__name__} instance.")
                found = True
        if cb_params.mode not in ("train", "eval"):
            raise ValueError(f"Only support `train` (model.train) and `eval` (model.eval) mode, but got "
                             f"`{cb_params.mode}` mode.")
        if self._record is None:
            self.__enter__()
        self._record.set_mode(cb_params.mode)
        self._dataset_sink_mode = bool(getattr(cb_params, "dataset_sink_mode", False))

    def step_end(self, run_context):
        """Collect at the configured frequency (per step outside sink mode)."""
        cb_params = run_context.original_args()
        if cb_params.mode != "train":
            return
        if not self._has_saved_graph:
            if self._collect_specified_data.get("collect_graph") or \
                    self._collect_specified_data.get("collect_dataset_graph"):
                logger.info("SummaryCollector does not record the computational graph or the dataset graph.")
            self._has_saved_graph = True
        if not self._dataset_sink_mode:
            self._collect_tensor_data(cb_params)
        if self._landscape_unit() == "step" and self._in_intervals(getattr(cb_params, "cur_step_num", None)):
            self._save_model_params_for_landscape(cb_params)

    def epoch_end(self, run_context):
        """Collect in sink mode; save landscape parameters by epoch; flush."""
        cb_params = run_context.original_args()
        if self._dataset_sink_mode:
            self._collect_tensor_data(cb_params)
        if self._landscape_unit() == "epoch" and self._in_intervals(getattr(cb_params, "cur_epoch_num", None)):
            self._save_model_params_for_landscape(cb_params)
        self._record.flush()

    def end(self, run_context):
        """Record what is left (eval mode, step 0) and write the landscape metadata."""
        cb_params = run_context.original_args()
        self._record.set_mode("eval")
        self._record.record(step=0)
        landscape = self._collect_specified_data.get("collect_landscape")
        if cb_params.mode == "train" and landscape:
            self._save_metadata(cb_params.batch_num, landscape.get("unit", "step"),
                                landscape.get("num_samples", 2048), landscape.get("landscape_size", 40),
                                landscape.get("create_landscape", {"train": True, "result": True}))

    # -- collection -------------------------------------------------------------------------------------------
    def _collect_tensor_data(self, cb_params):
        if cb_params.mode != "train":
            return
        if self._first_step:
            self._tensor_collect_range = self._get_tensor_collect_range(cb_params, self._dataset_sink_mode)
            self._collect_at_step_end(cb_params, plugin_filter=None)
            self._first_step = False
            self._record.flush()
            return
        current = cb_params.cur_epoch_num if self._dataset_sink_mode else cb_params.cur_step_num
        if current % self._collect_freq == 0 and current in self._tensor_collect_range:
            self._collect_at_step_end(cb_params, plugin_filter=None)
        elif current in self._tensor_collect_range:
            self._collect_at_step_end(cb_params, lambda plugin: plugin == "tensor")
        elif current % self._collect_freq == 0:
            self._collect_at_step_end(cb_params, lambda plugin: plugin != "tensor")
        else:
            # values the network's summary operators produced this step are not kept for a later step
            from mindspore.ops._defs.summary import take_summary_data
            take_summary_data()

    def _get_tensor_collect_range(self, cb_params, dataset_sink_mode):
        total_step = cb_params.epoch_num
        if not dataset_sink_mode:
            total_step *= cb_params.batch_num
        if self._collect_tensor_freq is not None:
            return range(0, total_step + 1, self._collect_tensor_freq)
        limit = 20
        if len(range(0, total_step + 1, self._collect_freq)) > limit:
            tensor_freq = total_step // (limit - 1)
            if tensor_freq > 1:
                return range(0, total_step + 1, tensor_freq)[:limit]
            return range(0, total_step + 1)[:limit + 1]
        return range(0, total_step + 1, self._collect_freq)

    def _collect_at_step_end(self, cb_params, plugin_filter):
        self._collect_input_data(cb_params)
        self._collect_metric(cb_params)
        self._collect_histogram(cb_params)
        self._record.record(cb_params.cur_step_num, plugin_filter=plugin_filter)

    def _collect_input_data(self, cb_params):
        if not self._collect_specified_data.get("collect_input_data"):
            return
        input_data = getattr(cb_params, "train_dataset_element", None)
        if not isinstance(input_data, (Tensor, list, tuple)) or (not isinstance(input_data, Tensor) and
                                                                 not input_data):
            self._collect_specified_data["collect_input_data"] = False
            logger.warning("The type of input data is not Tensor/list/tuple, so SummaryCollector will not collect "
                           "input data.")
            return
        if isinstance(input_data, (list, tuple)):
            input_data = input_data[0]
        try:
            self._record.add_value("image", "input_data/auto", input_data)
        except (TypeError, ValueError):
            logger.warning("The input data of network are not image, so will not collect by SummaryCollector.")
            self._collect_specified_data["collect_input_data"] = False

    def _collect_metric(self, cb_params):
        if not self._collect_specified_data.get("collect_metric"):
            return
        loss = self._get_loss(cb_params)
        if loss is None:
            return
        try:
            self._record.add_value("scalar", "loss/auto", loss)
        except ValueError:
            logger.warning("The output of network is not a scalar, so SummaryCollector will not collect loss.")
            self._collect_specified_data["collect_metric"] = False

    def _get_loss(self, cb_params):
        if not self._is_parse_loss_success:
            return None
        output = getattr(cb_params, "net_outputs", None)
        if output is None:
            logger.warning("Can not find any output by this network, so SummaryCollector will not collect loss.")
            self._is_parse_loss_success = False
            return None
        if isinstance(output, (int, float, Tensor)):
            loss = output
        elif isinstance(output, (list, tuple)) and output:
            loss = output[0]
        else:
            logger.warning("The output type could not be identified, expect type is one of [int, float, Tensor, "
                           "list, tuple], so no loss was recorded in SummaryCollector.")
            self._is_parse_loss_success = False
            return None
        loss = loss if isinstance(loss, Tensor) else Tensor(loss)
        return Tensor(np.mean(loss.asnumpy()))

    def _get_optimizer(self, cb_params):
        from mindspore.nn.optim.optimizer import Optimizer
        if self._temp_optimizer == "Failed":
            return None
        if self._temp_optimizer is not None:
            return self._temp_optimizer
        optimizer = getattr(cb_params, "optimizer", None)
        if optimizer is None:
            network = cb_params.train_network if cb_params.mode == "train" else cb_params.eval_network
            for _, cell in network.cells_and_names():
                if isinstance(cell, Optimizer):
                    optimizer = cell
                    break
        if not isinstance(optimizer, Optimizer):
            logger.warning("Can not find optimizer in network, or the optimizer does not inherit MindSpore's "
                           "optimizer, so we will not collect data about optimizer in SummaryCollector.")
            optimizer = None
        self._temp_optimizer = optimizer if optimizer is not None else "Failed"
        return optimizer

    def _collect_histogram(self, cb_params):
        if "histogram_regular" not in self._collect_specified_data:
            return
        optimizer = self._get_optimizer(cb_params)
        if optimizer is None:
            return
        parameters = list(optimizer.parameters)
        regular = self._collect_specified_data.get("histogram_regular")
        chosen = ([p for p in parameters if re.match(regular, p.name)] if regular is not None else parameters[:5])
        for parameter in chosen:
            self._record.add_value("histogram", parameter.name + "/auto", Tensor(parameter.asnumpy()))

    # -- loss landscape parameters ----------------------------------------------------------------------------
    def _landscape_unit(self):
        landscape = self._collect_specified_data.get("collect_landscape")
        return landscape.get("unit", "step") if landscape else None

    def _in_intervals(self, num):
        landscape = self._collect_specified_data.get("collect_landscape")
        return bool(landscape) and num is not None and any(num in i for i in landscape.get("intervals"))

    def _save_model_params_for_landscape(self, cb_params):
        if cb_params.mode != "train":
            return
        backbone = cb_params.train_network
        for _, cell in cb_params.train_network.cells_and_names():
            if hasattr(cell, "_backbone"):      # WithLossCell's network
                backbone = cell._backbone      # pylint: disable=protected-access
                break
        while True:
            cells = backbone.name_cells()
            if "network" in cells:
                backbone = backbone.network
                if "optimizer" in cells:
                    break
            else:
                break
        unit = self._landscape_unit()
        cur_num = cb_params.cur_epoch_num if unit == "epoch" else cb_params.cur_step_num
        from mindspore.train.serialization import save_checkpoint
        file_path = os.path.join(self._ckpt_dir, f"{type(backbone).__name__}_{cur_num}_{unit}.ckpt")
        self._model_params_file_map[str(cur_num)] = file_path
        if not os.path.isfile(file_path):
            params = [{"name": p.name, "data": Tensor(p.asnumpy())} for p in backbone.get_parameters()]
            try:
                save_checkpoint(params, file_path)
            except OSError as e:
                logger.error(str(e))

    def _save_metadata(self, step_per_epoch, unit, num_samples, landscape_size, create_landscape):
        data = {"epoch_group": self._epoch_group, "model_params_file_map": self._model_params_file_map,
                "step_per_epoch": step_per_epoch, "unit": unit, "num_samples": num_samples,
                "landscape_size": landscape_size, "create_landscape": create_landscape}
        meta_path = os.path.join(self._ckpt_dir, "train_metadata.json")
        if os.path.isfile(meta_path):
            return
        try:
            with open(meta_path, "w", encoding="utf-8") as file:
                json.dump(data, file)
            os.chmod(meta_path, stat.S_IRUSR)
        except OSError as e:
            logger.error(f"Write meta data {meta_path} failed, detail: {e}")
