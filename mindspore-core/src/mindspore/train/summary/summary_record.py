"""``SummaryRecord``: write scalars, tensors, histograms and images of a training run to a MindSpore summary file.

Values come from :meth:`SummaryRecord.add_value` and, in ``'train'`` mode, from the summary primitives
(``ops.ScalarSummary`` & co.) run inside networks since the last record (PYNATIVE and GRAPH_MODE alike: their kernel
hands each computed value to :data:`mindspore.ops._defs.summary.SUMMARY_TENSOR_CACHE`). ``record(step)`` turns
everything pending into one ``Event`` of that step, framed as MindSpore frames it (see :mod:`._event_io`), in
``<log_dir>/<prefix>.out.events.summary.<time>.<device id>.<host><suffix>``.

Unlike MindSpore, events are packed and written in the calling process (MindSpore hands them to a pool of writer
processes); the file content is the same. ``num_process`` is accepted and checked for compatibility.
"""
from __future__ import annotations

import atexit
import os
import re
import threading
import time
from collections import defaultdict

import mindspore.log as logger
from mindspore.common.tensor import Tensor
from mindspore.train.metrics._checks import check_value_type
from mindspore.train.summary import _adapter
from mindspore.train.summary._event_io import EventFileWriter

__all__ = ["SummaryRecord"]

_INSTANCE_LOCK = threading.Lock()
_DEFAULT_EXPORT_OPTIONS = {"tensor_format": ("npy", None)}
_NAME_RE = r"^\w+[0-9a-zA-Z\_\.]*$"
_VALUE_PLUGINS = ("tensor", "scalar", "image", "histogram")
_TAG_SUFFIX = {"TensorSummary": "tensor", "ScalarSummary": "scalar", "ImageSummary": "image",
               "HistogramSummary": "histogram"}


def _check_name_regular(target):
    if re.match(_NAME_RE, target, re.ASCII) is None:
        raise ValueError(f"The '{target}' is illegal, it must be match regular'{_NAME_RE}' by flags're.ASCII.'")


def _make_directory(path, arg_name="log_dir"):
    if not isinstance(path, str) or not path.strip():
        raise TypeError(f"The {arg_name} is invalid, the type should be string.")
    path = os.path.realpath(path)
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def _to_numpy(plugin, value, summary_name="SummaryRecord"):
    """``value`` as an ndarray after MindSpore's per-plugin checks."""
    np_value = value.asnumpy().copy()
    if plugin == "scalar":
        if np_value.size == 1:
            return np_value
        raise ValueError(f'For "{summary_name}", the v rank must be less than or equal to 1, but got '
                         f'{len(np_value)}.')
    if plugin == "image":
        if np_value.ndim == 4:
            return np_value
        raise ValueError(f'For "{summary_name}", the tensor seems not to hold a valid image.')
    if plugin in ("tensor", "histogram"):
        if np_value.ndim > 0:
            return np_value
        raise ValueError(f'For "{summary_name}", the value should not be empty.')
    return np_value


def _get_summary_tensor_data():
    """The summary values networks produced under GRAPH_MODE since the last call, as MindSpore returns them,
    ``{"<tag>[:Tensor]": Tensor, "<tag>[:Scalar]": ...}`` (the newest value of each tag), and forget them. Outside
    code (MindArmour's neuron coverage) imports this private helper by name; as in MindSpore, PYNATIVE values are not
    in it (they only reach an open SummaryRecord)."""
    from mindspore.ops._defs.summary import take_graph_summary_data
    return take_graph_summary_data()


def _process_export_options(export_options):
    if export_options is None:
        return None
    check_value_type("export_options", export_options, [dict, type(None)])
    for option, fmt in export_options.items():
        check_value_type("export_option", option, [str])
        check_value_type("export_format", fmt, [str, type(None)])
    unexpected = set(export_options) - set(_DEFAULT_EXPORT_OPTIONS)
    if unexpected:
        raise ValueError(f'For "SummaryRecord", the keys {unexpected} of "export_options" are unsupported, expect the '
                         f'follow keys: {list(_DEFAULT_EXPORT_OPTIONS.keys())}')
    for option, fmt in export_options.items():
        bad = {fmt} - set(_DEFAULT_EXPORT_OPTIONS[option])
        if bad:
            raise ValueError(f'For "SummaryRecord", the export_format {bad} of "export_options" are unsupported for '
                             f'{option}, expect the follow values: {list(_DEFAULT_EXPORT_OPTIONS[option])}')
    return export_options


class SummaryRecord:
    """Record summary data of a training run into a summary file readable by MindInsight.

    Only one instance may be open in a process (as in MindSpore). Use it as a context manager, or call
    :meth:`close`.

    Args:
        log_dir (str): directory of the summary file (created if missing).
        file_prefix (str): file name prefix. Default: ``"events"``.
        file_suffix (str): file name suffix. Default: ``"_MS"``.
        num_process (int): accepted for compatibility (events are written in this process). Default: ``32``.
        network (Cell): accepted for compatibility; no graph event is written (MindSpore writes its own ANF graph
            protobuf, which this implementation has no equivalent of). Default: ``None``.
        max_file_size (int): maximum bytes of the file; recording stops with a warning when it would be exceeded.
            Default: ``None`` (no limit).
        raise_exception (bool): raise write errors instead of logging them. Default: ``False``.
        export_options (dict): ``{'tensor_format': 'npy'}`` also saves every recorded tensor as
            ``<log_dir>/export_<time>/tensor/<tag>_<step>.npy``. Default: ``None``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore.train import SummaryRecord
        >>> with SummaryRecord(log_dir="./summary_dir") as summary_record:
        ...     summary_record.add_value('scalar', 'loss', ms.Tensor(0.1))
        ...     summary_record.record(1)
        True
    """

    count = 0

    def __init__(self, log_dir, file_prefix="events", file_suffix="_MS", num_process=32, network=None,
                 max_file_size=None, raise_exception=False, export_options=None):
        with _INSTANCE_LOCK:
            self._check_count()
            SummaryRecord.count += 1
        self._counted = True
        self._writer = None
        self._mode = "train"
        self._data_pool = defaultdict(list)
        self._status = {"closed": False, "has_graph": False}
        self.file_info = {"file_name": None, "file_path": None}
        self.base_log_dir = log_dir
        self.file_prefix = file_prefix
        self.file_suffix = file_suffix
        self.network = network
        self.max_file_size = max_file_size
        self._num_process = num_process
        self.raise_exception = raise_exception
        self._export_options = export_options
        self._export_dir = None
        try:
            self._initialize()
        except (TypeError, ValueError):
            self._release_count()
            raise

    def _initialize(self):
        log_path = _make_directory(self.base_log_dir, "log_dir")
        if not isinstance(self.max_file_size, (int, type(None))) or isinstance(self.max_file_size, bool):
            raise TypeError(f"For '{self.__class__.__name__}', the 'max_file_size' should be int type, but got type "
                            f"{type(self.max_file_size)}")
        if not isinstance(self.file_prefix, str) or not isinstance(self.file_suffix, str):
            raise TypeError(f"For '{self.__class__.__name__}', `file_prefix` and `file_suffix`  should be str, but "
                            f"got type {type(self.file_prefix)}")
        _check_name_regular(self.file_prefix)
        _check_name_regular(self.file_suffix)
        if self.max_file_size is not None and self.max_file_size < 0:
            logger.warning(f"For '{self.__class__.__name__}', the 'max_file_size' should be greater than 0. but got "
                           f"value {self.max_file_size}.")
            self.max_file_size = None
        check_value_type("raise_exception", self.raise_exception, [bool])
        import mindspore.context as context
        device_id = context.get_context("device_id")
        # The name holds the time in seconds: a second record opened in the same directory within that second
        # takes the next free second instead of the first one's file (never truncated, see EventFileWriter).
        second = int(time.time())
        while os.path.exists(os.path.join(log_path, _adapter.event_file_name(
                self.file_prefix, self.file_suffix, str(second), device_id))):
            second += 1
        time_second = str(second)
        name = _adapter.event_file_name(self.file_prefix, self.file_suffix, time_second, device_id)
        self.file_info["file_name"] = name
        self.file_info["file_path"] = os.path.join(log_path, name)
        self._export_options = _process_export_options(self._export_options)
        if self._export_options is not None:
            self._export_dir = os.path.join(log_path, f"export_{time_second}")
        self._writer = EventFileWriter(self.file_info["file_path"], self.max_file_size)
        self._write(_adapter.init_event().SerializeToString())
        from mindspore.ops._defs import summary as summary_ops
        summary_ops.take_summary_data()   # values from before this record existed are not this run's
        summary_ops.ACTIVE_RECORDS[0] += 1
        self._active = True
        atexit.register(self.close)

    @classmethod
    def _check_count(cls):
        if cls.count > 0:
            raise RuntimeError(f"For '{cls.__name__}', only one instance is supported in a training process, you are "
                               f"trying to create a new one when the existing instance number is {cls.count}. Please "
                               f"check your scripts.")

    def _release_count(self):
        with _INSTANCE_LOCK:
            if self._counted:
                SummaryRecord.count -= 1
                self._counted = False

    def __enter__(self):
        if self._status["closed"]:
            raise ValueError(f'For "{self.__class__.__name__}", SummaryRecord has been closed, please check if close() '
                             f'method is called')
        return self

    def __exit__(self, *err):
        self.close()

    @property
    def log_dir(self):
        """The full path of the summary file."""
        return self.file_info["file_path"]

    def set_mode(self, mode):
        """``'train'`` (summary operators' values are recorded) or ``'eval'`` (only ``add_value`` data)."""
        if mode not in ("train", "eval"):
            raise ValueError(f'For "{self.__class__.__name__}.set_mode", {mode!r} is not a recognized mode, expect '
                             f'the parameter "mode" is "train" or "eval"')
        self._mode = mode

    def add_value(self, plugin, name, value):
        """Queue ``value`` (a Tensor) under tag ``name`` for the next :meth:`record`.

        Args:
            plugin (str): ``'scalar'`` (one element), ``'tensor'`` / ``'histogram'`` (rank >= 1), ``'image'``
                (NCHW, rank 4), or ``'landscape'`` (a ``LossLandscape`` message).
            name (str): the tag.
            value: the data.

        Raises:
            ValueError: an unknown plugin, an empty name or a value of the wrong rank.
            TypeError: a value that is not a Tensor.
        """
        if plugin in _VALUE_PLUGINS:
            if not name or not isinstance(name, str):
                raise ValueError(f'For "{self.__class__.__name__}", the parameter "name" type should be str, but got '
                                 f'{type(name)}.')
            if not isinstance(value, Tensor):
                raise TypeError(f'For "{self.__class__.__name__}", the parameter "value" expect to be Tensor, but got '
                                f'{type(value).__name__}')
            np_value = _to_numpy(plugin, value)
            if name in {item["tag"] for item in self._data_pool[plugin]}:
                logger.warning(f'For "{self.__class__.__name__}.add_value", {f"{name}/{plugin}"!r} has duplicate '
                               f'values. Only the newest one will be recorded.')
            data = {"tag": name, "value": np_value}
            export = f"{plugin}_format"
            if self._export_options is not None and export in self._export_options:
                data["export_option"] = self._export_options[export]
            self._data_pool[plugin].append(data)
        elif plugin == "landscape":
            self._data_pool[plugin].append({"tag": name, "value": value.SerializeToString()})
        else:
            raise ValueError(f'For "{self.__class__.__name__}.add_value", no such "plugin" of {plugin!r} , expect '
                             f'value is one of [tensor, scalar, image, histogram, train_lineage, eval_lineage, '
                             f'dataset_graph, custom_lineage_data, graph, landscape]')

    def _add_summary_tensor_data(self):
        from mindspore.ops._defs.summary import take_summary_data
        latest = {}
        for op_name, tag, value in take_summary_data():
            plugin = _TAG_SUFFIX.get(op_name)
            summary_name = op_name
            if not isinstance(tag, str) or not tag:
                raise TypeError(f'For "{summary_name}", the name must be valid string, but got "{tag}".')
            if not isinstance(value, Tensor):
                raise TypeError(f'For "{summary_name}", the parameter "value" expect to be Tensor, but got '
                                f'{type(value).__name__}')
            _to_numpy(plugin, value, summary_name)
            latest[(tag, plugin)] = value   # a tag summarised twice in a step keeps the newest value
        if not latest:
            logger.debug("No summary data bubbled from the network.")
        for (tag, plugin), value in latest.items():
            self.add_value(plugin, tag, value)

    def record(self, step, train_network=None, plugin_filter=None):
        """Write everything pending as the data of ``step``; returns whether it was written.

        Args:
            step (int): the step number.
            train_network (Cell): accepted for compatibility. Default: ``None``.
            plugin_filter (Callable[[str], bool]): keep only the plugins it accepts. Default: ``None``.

        Raises:
            TypeError: ``step`` not an int, ``train_network`` not a Cell.
        """
        from mindspore.nn.cell import Cell
        check_value_type("step", step, [int])
        check_value_type("train_network", train_network, [Cell, type(None)])
        if self._status["closed"]:
            logger.error(f"For '{self.__class__.__name__}', The record writer is closed, please check if close() "
                         f"method is called")
            return False
        if self._mode == "train":
            self._add_summary_tensor_data()
        pool, self._data_pool = self._data_pool, defaultdict(list)
        values = []
        for plugin, items in pool.items():
            if plugin_filter and not plugin_filter(plugin):
                continue
            for item in items:
                values.append((plugin, item["tag"], item["value"]))
                if "export_option" in item:
                    self._export(item, step)
        if values:
            self._write(_adapter.summary_event(values, step, time.time()).SerializeToString())
        return True

    def _export(self, item, step):
        if item.get("export_option") != "npy":
            return
        import numpy as np
        from urllib.parse import quote
        path = os.path.join(self._export_dir, "tensor")
        os.makedirs(path, mode=0o700, exist_ok=True)
        file = os.path.join(path, f"{quote(item['tag'], safe='')}_{int(step)}.npy")
        np.save(file, item["value"])
        os.chmod(file, 0o400)

    def _write(self, data):
        if self._writer is None:
            return
        try:
            self._writer.write(data)
        except RuntimeWarning as exc:
            logger.warning(str(exc))
            self._writer.close()
            self._writer = None
        except (RuntimeError, OSError) as exc:
            logger.error(str(exc))
            self._writer.close()
            self._writer = None
            if self.raise_exception:
                raise

    def flush(self):
        """Flush the file to disk."""
        if self._status["closed"]:
            logger.error(f"For '{self.__class__.__name__}', the record writer is closed and can not flush, please "
                         f"check if close() method is called")
        elif self._writer is not None:
            self._writer.flush()

    def close(self):
        """Flush and close the file (it becomes read-only); the record cannot be used afterwards."""
        if not self._status["closed"]:
            atexit.unregister(self.close)
            if self._writer is not None:
                self._writer.close()
            self._status["closed"] = True
        if getattr(self, "_active", False):
            from mindspore.ops._defs import summary as summary_ops
            summary_ops.ACTIVE_RECORDS[0] -= 1
            self._active = False
        self._release_count()
