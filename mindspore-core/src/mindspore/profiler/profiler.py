"""``mindspore.profiler.Profiler`` and ``profile``: collect operator timings and write them as traces.

A profiler collects between :meth:`Profiler.start` and :meth:`Profiler.stop` (from construction when
``start_profile`` is true); :meth:`Profiler.stop` saves what it collected into a new directory under
``output_path`` and :meth:`Profiler.analyse` turns it into the trace and statistics files (see
:mod:`mindspore.profiler._writer`). With a ``schedule``, :meth:`Profiler.step` marks the end of each training
step: the schedule says which steps are collected, and each completed cycle is saved and handed to
``on_trace_ready`` (``tensorboard_trace_handler(dir)`` saves and analyses it under ``dir``). Without a
schedule, ``on_trace_ready`` is called at :meth:`Profiler.stop`.

How operators are timed: :mod:`mindspore.profiler._collector`.
"""
import os
import shutil
import time

import mindspore.context as context
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore._runtime import backend
from mindspore.log import error, warning
from mindspore.profiler import _writer
from mindspore.profiler._collector import Collector, now_ns
from mindspore.profiler._schedule import ProfilerAction
from mindspore.profiler.common import (AicoreMetrics, ExportType, ProfilerActivity, ProfilerLevel,
                                       _ExperimentalConfig)

__all__ = ["Profiler", "profile", "tensorboard_trace_handler"]

_BOOL_OPTIONS = ("with_stack", "profile_memory", "data_process", "parallel_strategy", "start_profile", "hbm_ddr",
                 "pcie", "sync_enable", "record_shapes", "l2_cache", "mstx", "data_simplification", "sys_io",
                 "sys_interconnection")


def _check_bool(name, value):
    if not isinstance(value, bool):
        raise MSTypeError(f"For 'Profiler', the parameter '{name}' must be bool, but got {type(value).__name__}.")


def _target():
    try:
        return backend.current().target
    except Exception:  # noqa: BLE001 - no usable backend: the data says so, nothing was run
        return str(context.get_context("device_target") or "CPU")


class Profile:
    """The profiler behind :class:`Profiler` and :class:`profile` (PyTorch-style keyword arguments).

    Args:
        activities (list[ProfilerActivity], optional): where to time operators. Default: CPU and the device.
        with_stack (bool, optional): record each operator's Python call site. Default ``False``.
        profile_memory (bool, optional): record device memory after each operator. Default ``False``.
        data_process (bool, optional): accepted (dataset pipelines are timed by their own tools). Default ``False``.
        parallel_strategy (bool, optional): accepted, recorded in the settings. Default ``False``.
        start_profile (bool, optional): start collecting at once. Default ``True``.
        hbm_ddr, pcie (bool, optional): Ascend counters; accepted, recorded. Default ``False``.
        sync_enable (bool, optional): wait for the device after each operator, so durations include its
            execution. Default ``True``.
        record_shapes (bool, optional): record inputs' shapes and dtypes. Default ``False``.
        schedule (callable, optional): step number -> :class:`ProfilerAction` (see :class:`schedule`). Default
            ``None``: collect everything between start and stop.
        on_trace_ready (callable, optional): called with the profiler when a collection is complete. Default
            ``None``.
        experimental_config (_ExperimentalConfig, optional): the level and less common options.
        output_path (str, optional): where collections are written. Default ``"./data"``.

    Raises:
        TypeError: an option has the wrong type.
        ValueError: ``activities`` is empty.
    """

    def __init__(self, activities=None, with_stack=False, profile_memory=False, data_process=False,
                 parallel_strategy=False, start_profile=True, hbm_ddr=False, pcie=False, sync_enable=True,
                 record_shapes=False, schedule=None, on_trace_ready=None, experimental_config=None,
                 output_path="./data"):
        config = experimental_config or _ExperimentalConfig()
        if not isinstance(config, _ExperimentalConfig):
            raise MSTypeError(f"For 'Profiler', the parameter 'experimental_config' must be _ExperimentalConfig, "
                              f"but got {type(config).__name__}.")
        options = dict(with_stack=with_stack, profile_memory=profile_memory, data_process=data_process,
                       parallel_strategy=parallel_strategy, start_profile=start_profile, hbm_ddr=hbm_ddr, pcie=pcie,
                       sync_enable=sync_enable, record_shapes=record_shapes)
        for name, value in options.items():
            _check_bool(name, value)
        activities = [ProfilerActivity.CPU, ProfilerActivity.NPU] if activities is None else list(activities)
        if not activities:
            raise MSValueError("For 'Profiler', the parameter 'activities' must not be empty.")
        for act in activities:
            if not isinstance(act, ProfilerActivity):
                raise MSTypeError(f"For 'Profiler', the elements of 'activities' must be ProfilerActivity, but got "
                                  f"{type(act).__name__}.")
        level = config.profiler_level if isinstance(config.profiler_level, ProfilerLevel) else ProfilerLevel.Level0
        if schedule is not None and not callable(schedule):
            raise MSTypeError(f"For 'Profiler', the parameter 'schedule' must be callable, but got "
                              f"{type(schedule).__name__}.")
        if on_trace_ready is not None and not callable(on_trace_ready):
            raise MSTypeError(f"For 'Profiler', the parameter 'on_trace_ready' must be callable, but got "
                              f"{type(on_trace_ready).__name__}.")
        if not isinstance(output_path, str):
            raise MSTypeError(f"For 'Profiler', the parameter 'output_path' must be str, but got "
                              f"{type(output_path).__name__}.")
        self.activities, self.profiler_level, self.experimental_config = activities, level, config
        self.schedule, self.on_trace_ready, self.output_path = schedule, on_trace_ready, output_path
        self.options = options
        self.metadata = {}
        self.step_num = 0
        self.current_action = ProfilerAction.NONE
        self.last_run_dir = None
        self._step_start = None
        self._started = False
        record_ops = level != ProfilerLevel.LevelNone
        detailed = level in (ProfilerLevel.Level1, ProfilerLevel.Level2)
        self._collector = Collector(record_shapes=record_shapes or detailed,
                                    with_stack=with_stack or level == ProfilerLevel.Level2,
                                    profile_memory=profile_memory, sync_enable=sync_enable, record_ops=record_ops)
        self._collector.mstx_enabled = bool(config.mstx)
        self._collector.mstx_include = config.mstx_domain_include
        self._collector.mstx_exclude = config.mstx_domain_exclude
        if start_profile:
            self.start()

    # -- the collection ------------------------------------------------------------------------------------------
    def _info(self):
        return {"device_target": _target(), "pid": os.getpid(), "profiler_level": self.profiler_level.value,
                "activities": [a.value for a in self.activities], "step_num": self.step_num,
                "aic_metrics": getattr(self.experimental_config.aic_metrics, "value", None),
                "export_type": [getattr(t, "value", t) for t in (self.experimental_config.export_type
                                                                  or [ExportType.Text])],
                "start_time_ns": time.time_ns(), **self.options}

    def _records_ops(self):
        device = {"CPU": None, "GPU": ProfilerActivity.GPU, "Ascend": ProfilerActivity.NPU}.get(_target())
        return ProfilerActivity.CPU in self.activities or (device is not None and device in self.activities)

    def start(self):
        """Start collecting (with a schedule: from the action of the current step)."""
        if self._started:
            warning("The profiler has already started. Do not turn on again in the open state.")
            return
        self._collector.record_ops = self._collector.record_ops and self._records_ops()
        self._collector.install()
        self._started = True
        self.current_action = self.schedule(self.step_num) if self.schedule is not None else ProfilerAction.RECORD
        self._collector.recording = self.current_action != ProfilerAction.NONE
        self._collector.step = self.step_num
        self._step_start = now_ns()

    def _save(self):
        """Write what was collected (warm-up steps excluded) into a new directory; returns its path."""
        events, memory = self._collector.take()
        path = _writer.new_run_dir(self.output_path)
        _writer.write_raw(path, events, memory, self._info(), self.metadata)
        self.last_run_dir = path
        return path

    def stop(self):
        """Stop collecting and save what was collected (then ``on_trace_ready``, if any, is called)."""
        if not self._started:
            warning("The profiler has not been started, stop takes no effect.")
            return
        if self.schedule is not None and self.current_action == ProfilerAction.NONE:
            self._collector.uninstall()
            self._started = False
            return
        self._collector.mark_step(self.step_num, self._step_start, now_ns())
        self._collector.uninstall()
        self._started = False
        self._collector.recording = False
        if self.schedule is not None and self.current_action == ProfilerAction.WARM_UP:
            self._collector.take()
            return
        self._save()
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def step(self):
        """End the current step: with a schedule, collect, drop, save or stop as it says for the next one."""
        if self.schedule is None:
            error("With no schedule in the Profiler, step takes no effect!")
            return
        if not self._started:
            error("Profiler is stopped, step takes no effect!")
            return
        end = now_ns()
        prev = self.current_action
        if prev != ProfilerAction.NONE:
            self._collector.mark_step(self.step_num, self._step_start, end)
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        if prev == ProfilerAction.WARM_UP and self.current_action != ProfilerAction.WARM_UP:
            self._collector.take()   # warm-up steps only warm the collection up
        if prev == ProfilerAction.RECORD_AND_SAVE:
            self._save()
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)
        elif prev == ProfilerAction.RECORD and self.current_action in (ProfilerAction.NONE, ProfilerAction.WARM_UP):
            self._save()
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)
        self._collector.recording = self.current_action != ProfilerAction.NONE
        self._collector.step = self.step_num
        self._step_start = now_ns()

    def add_metadata(self, key, value):
        """Add ``key: value`` (str) to the collection's ``profiler_metadata.json``."""
        if not isinstance(key, str) or not isinstance(value, str):
            warning("The key and value of metadata must be str, skip it.")
            return
        self.metadata[key] = value

    def add_metadata_json(self, key, value):
        """Add ``key``: the JSON text ``value`` (parsed) to ``profiler_metadata.json``."""
        import json
        if not isinstance(key, str) or not isinstance(value, str):
            warning("The key and value of metadata must be str, skip it.")
            return
        try:
            self.metadata[key] = json.loads(value)
        except json.JSONDecodeError:
            warning(f"The value of metadata '{key}' is not valid JSON, skip it.")

    # -- context manager -------------------------------------------------------------------------------------
    def __enter__(self):
        if not self._started:
            self.start()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self._started:
            self.stop()


class profile(Profile):  # noqa: N801 - MindSpore's name
    """The PyTorch-style profiler (``with mindspore.profiler.profile(...) as prof:``); see :class:`Profile`.

    Examples:
        >>> import mindspore
        >>> from mindspore.profiler import profile, schedule, tensorboard_trace_handler, ProfilerActivity
        >>> with profile(activities=[ProfilerActivity.CPU], schedule=schedule(wait=0, warmup=1, active=2),
        ...              on_trace_ready=tensorboard_trace_handler("./prof")) as prof:
        ...     for _ in range(3):
        ...         mindspore.ops.add(mindspore.Tensor([1.0]), 1.0)
        ...         prof.step()
    """


class Profiler(Profile):
    """MindSpore's profiler, configured by keyword arguments.

    Keyword Args:
        output_path (str): where to write. Default ``"./data"``.
        profiler_level (ProfilerLevel): Default ``ProfilerLevel.Level0``.
        activities (list[ProfilerActivity]): Default ``[ProfilerActivity.CPU, ProfilerActivity.NPU]``.
        schedule (schedule): Default ``None``.
        on_trace_ready (callable): Default ``None``.
        start_profile, profile_memory, with_stack, record_shapes, sync_enable, data_process, parallel_strategy,
        hbm_ddr, pcie, l2_cache, mstx, data_simplification (bool): as :class:`Profile`.
        aic_metrics (AicoreMetrics), export_type (list[ExportType]), mstx_domain_include,
        mstx_domain_exclude (list[str]), sys_io, sys_interconnection (bool), host_sys (list[HostSystem]):
            recorded in the settings.

    Raises:
        TypeError: an unknown keyword, or an option of the wrong type.

    Examples:
        >>> import mindspore
        >>> from mindspore.profiler import Profiler
        >>> prof = Profiler(output_path="./prof")
        >>> mindspore.ops.add(mindspore.Tensor([1.0]), 1.0)
        >>> prof.stop()
        >>> prof.analyse()
    """

    _KNOWN = {"output_path", "profiler_level", "activities", "schedule", "on_trace_ready", "aic_metrics",
              "export_type", "mstx_domain_include", "mstx_domain_exclude", "host_sys"} | set(_BOOL_OPTIONS)

    def __init__(self, **kwargs):
        unknown = sorted(set(kwargs) - self._KNOWN)
        if unknown:
            raise MSTypeError(f"For 'Profiler', got an unexpected keyword argument '{unknown[0]}'.")
        for name in _BOOL_OPTIONS:
            if name in kwargs:
                _check_bool(name, kwargs[name])
        level = kwargs.get("profiler_level", ProfilerLevel.Level0)
        if not isinstance(level, ProfilerLevel):
            raise MSTypeError(f"For 'Profiler', the parameter 'profiler_level' must be ProfilerLevel, but got "
                              f"{type(level).__name__}.")
        config = _ExperimentalConfig(profiler_level=level, aic_metrics=kwargs.get("aic_metrics",
                                                                                   AicoreMetrics.AiCoreNone),
                                     l2_cache=kwargs.get("l2_cache", False), mstx=kwargs.get("mstx", False),
                                     data_simplification=kwargs.get("data_simplification", True),
                                     export_type=kwargs.get("export_type"),
                                     mstx_domain_include=kwargs.get("mstx_domain_include"),
                                     mstx_domain_exclude=kwargs.get("mstx_domain_exclude"),
                                     sys_io=kwargs.get("sys_io", False),
                                     sys_interconnection=kwargs.get("sys_interconnection", False),
                                     host_sys=kwargs.get("host_sys"))
        super().__init__(activities=kwargs.get("activities"), with_stack=kwargs.get("with_stack", False),
                         profile_memory=kwargs.get("profile_memory", False),
                         data_process=kwargs.get("data_process", False),
                         parallel_strategy=kwargs.get("parallel_strategy", False),
                         start_profile=kwargs.get("start_profile", True), hbm_ddr=kwargs.get("hbm_ddr", False),
                         pcie=kwargs.get("pcie", False), sync_enable=kwargs.get("sync_enable", True),
                         record_shapes=kwargs.get("record_shapes", False), schedule=kwargs.get("schedule"),
                         on_trace_ready=kwargs.get("on_trace_ready"), experimental_config=config,
                         output_path=kwargs.get("output_path", "./data"))

    def analyse(self, offline_path=None, pretty=False, step_list=None, mode="sync"):
        """Write the trace and statistics of the last collection (or of the collection directory
        ``offline_path``), keeping only the steps of ``step_list`` if given.

        Raises:
            ValueError: ``mode`` is not ``"sync"``/``"async"``.
            RuntimeError: nothing was collected yet.
        """
        if mode not in ("sync", "async"):
            raise MSValueError(f"For 'Profiler.analyse', the parameter 'mode' must be 'sync' or 'async', but got "
                               f"{mode!r}.")
        if self._started:
            self.stop()
        path = offline_path or self.last_run_dir
        if path is None:
            raise MSRuntimeError("For 'Profiler.analyse', there is no collected data: start and stop the profiler "
                                 "first.")
        for run in _run_dirs(path):
            _writer.analyse_dir(run, pretty=pretty, step_list=step_list,
                                data_simplification=self.experimental_config.data_simplification)

    @staticmethod
    def offline_analyse(path, pretty=False, step_list=None, data_simplification=True):
        """Analyse every collection directory under ``path`` (written by :meth:`stop` in another process)."""
        for run in _run_dirs(path):
            _writer.analyse_dir(run, pretty=pretty, step_list=step_list, data_simplification=data_simplification)

    def op_analyse(self, op_name, device_id=None):
        """The per-call timings of operator ``op_name`` in the last analysed collection: a dict with its
        ``"op_name"``, ``"count"``, ``"total_time(ms)"``, ``"avg_time(ms)"`` and the calls' ``"durations(ms)"``."""
        path = self.last_run_dir
        if path is None:
            raise MSRuntimeError("For 'Profiler.op_analyse', there is no analysed data: run analyse() first.")
        stamps = os.path.join(path, "FRAMEWORK", "cpu_op_execute_timestamp_0.txt")
        if not os.path.exists(stamps):
            self.analyse()
        names = [op_name] if isinstance(op_name, str) else list(op_name)
        found = {}
        with open(stamps, encoding="utf-8") as fh:
            for line in fh:
                name, _kind, calls = line.rstrip("\n").split(";", 2)
                if name in names:
                    found[name] = [float(c.split(",")[1]) for c in calls.split()]
        return {name: {"op_name": name, "count": len(d), "total_time(ms)": sum(d),
                       "avg_time(ms)": sum(d) / len(d) if d else 0.0, "durations(ms)": d}
                for name, d in found.items()}


def _run_dirs(path):
    if os.path.exists(os.path.join(path, "raw_events.json")):
        return [path]
    runs = sorted(os.path.join(path, d) for d in os.listdir(path)
                  if os.path.exists(os.path.join(path, d, "raw_events.json")))
    if not runs:
        raise MSValueError(f"For 'Profiler', no collected profiler data was found under '{path}'.")
    return runs


def tensorboard_trace_handler(dir_name=None, worker_name=None, analyse_flag=True, async_mode=False):
    """An ``on_trace_ready`` handler that saves each completed collection under ``dir_name`` (default
    ``"./data"``) and, with ``analyse_flag``, analyses it.

    Args:
        dir_name (str, optional): where to write. Default ``None``: ``"./data"``.
        worker_name (str, optional): accepted for MindSpore's signature (directories are named after the host
            and process). Default ``None``.
        analyse_flag (bool, optional): analyse each collection. Default ``True``.
        async_mode (bool, optional): accepted; the analysis runs at once. Default ``False``.
    """
    dir_name = "./data" if dir_name is None else dir_name
    if not isinstance(dir_name, str):
        warning(f"dir_name must be str, but got {type(dir_name).__name__}, reset to './data'.")
        dir_name = "./data"
    if not isinstance(analyse_flag, bool):
        warning("analyse_flag must be bool, reset to True.")
        analyse_flag = True

    def handler(prof):
        path = prof.last_run_dir
        if path is None:
            return
        target = path
        if os.path.realpath(os.path.dirname(path)) != os.path.realpath(dir_name):
            os.makedirs(os.path.realpath(dir_name), exist_ok=True)
            # never into an existing directory (shutil.move would nest it there)
            target = os.path.join(os.path.realpath(dir_name), os.path.basename(path))
            if os.path.exists(target):
                target = _writer.unique_path(target)
            shutil.move(path, target)
            prof.last_run_dir = target
        if analyse_flag:
            _writer.analyse_dir(target, data_simplification=prof.experimental_config.data_simplification)
    return handler
