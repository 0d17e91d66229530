"""``mindspore.profiler.DynamicProfilerMonitor``: start and stop profiling of a running training from a JSON file.

The monitor reads ``<cfg_path>/profiler_config.json`` (written with defaults if missing) at every step; when it
asks for ``start_step``/``stop_step`` (``-1``: off), the steps ``start_step`` to ``stop_step`` are profiled with
the file's options and saved under ``<output_path>/rank<rank>_start<start>_stop<stop>``. Editing the file while
training runs changes what is profiled next. Use it as a training callback (``Model.train(..., callbacks=[m])``)
or call :meth:`DynamicProfilerMonitor.step` at the end of each step of a custom loop.
"""
import json
import os

from mindspore.log import error, warning
from mindspore.profiler._schedule import Schedule
from mindspore.profiler.common import AicoreMetrics, ProfilerActivity, ProfilerLevel, _ExperimentalConfig
from mindspore.profiler.profiler import Profile, tensorboard_trace_handler
from mindspore.train.callback import Callback

__all__ = ["DynamicProfilerMonitor"]

_DEFAULTS = {"start_step": -1, "stop_step": -1, "aic_metrics": "AiCoreNone", "profiler_level": "Level0",
             "analyse_mode": -1, "activities": ["CPU", "NPU"], "export_type": ["text"], "profile_memory": False,
             "mstx": False, "parallel_strategy": False, "with_stack": False, "data_simplification": True,
             "l2_cache": False, "analyse": True, "record_shapes": False, "prof_path": "./",
             "mstx_domain_include": [], "mstx_domain_exclude": [], "host_sys": [], "sys_io": False,
             "sys_interconnection": False, "is_valid": False}


def _rank():
    for name in ("RANK_ID", "RANK"):
        value = os.environ.get(name)
        if value and value.isdigit():
            return int(value)
    return 0


class DynamicProfilerMonitor(Callback):
    """Profile the steps a JSON file asks for, re-read at every step.

    Args:
        cfg_path (str): the directory of ``profiler_config.json``.
        output_path (str, optional): where collections go. Default ``"./dyn_profile_data"``.
        poll_interval (int, optional): accepted for MindSpore's signature (the file is read at every step).
            Default ``2``.

    Raises:
        ValueError: ``cfg_path`` is not given.
    """

    def __init__(self, cfg_path=None, output_path="./dyn_profile_data", poll_interval=2, **kwargs):
        super().__init__()
        if cfg_path is None:
            raise ValueError("For 'DynamicProfilerMonitor', the parameter 'cfg_path' must be set.")
        self._cfg_file = os.path.join(os.path.realpath(cfg_path), "profiler_config.json")
        self._output_path = output_path
        self._poll_interval = poll_interval
        self._rank_id = _rank()
        self._step_num = 0
        self._profiler = None
        self._active = None
        if not os.path.exists(self._cfg_file):
            os.makedirs(os.path.dirname(self._cfg_file), exist_ok=True)
            with open(self._cfg_file, "w", encoding="utf-8") as fh:
                json.dump(_DEFAULTS, fh, indent=1)

    def _config(self):
        try:
            with open(self._cfg_file, encoding="utf-8") as fh:
                cfg = json.load(fh)
        except (OSError, json.JSONDecodeError):
            error("Dynamic profiler json is not valid, please check the json file.")
            return None
        return dict(_DEFAULTS, **cfg)

    def _make_profiler(self, cfg, start, stop):
        path = os.path.join(self._output_path, f"rank{self._rank_id}_start{start}_stop{stop}")
        level = ProfilerLevel(cfg["profiler_level"]) if cfg["profiler_level"] in ProfilerLevel.__members__ \
            else ProfilerLevel.Level0
        metrics = AicoreMetrics[cfg["aic_metrics"]] if cfg["aic_metrics"] in AicoreMetrics.__members__ \
            else AicoreMetrics.AiCoreNone
        activities = [ProfilerActivity[a] for a in cfg["activities"] if a in ProfilerActivity.__members__]
        config = _ExperimentalConfig(profiler_level=level, aic_metrics=metrics, mstx=bool(cfg["mstx"]),
                                     data_simplification=bool(cfg["data_simplification"]),
                                     mstx_domain_include=cfg["mstx_domain_include"] or None,
                                     mstx_domain_exclude=cfg["mstx_domain_exclude"] or None)
        return Profile(activities=activities or None, with_stack=bool(cfg["with_stack"]),
                       profile_memory=bool(cfg["profile_memory"]), record_shapes=bool(cfg["record_shapes"]),
                       parallel_strategy=bool(cfg["parallel_strategy"]), start_profile=False,
                       schedule=Schedule(wait=0, warmup=0, active=stop - start + 1, repeat=1),
                       on_trace_ready=tensorboard_trace_handler(path, analyse_flag=bool(cfg["analyse"])),
                       experimental_config=config, output_path=path)

    def step(self):
        """End one step: start, advance or finish the profiling the configuration asks for."""
        cfg = self._config()
        if self._profiler is not None:
            self._profiler.step()
            if self._step_num >= self._active[1]:
                self._profiler.stop()
                self._profiler = None
        self._step_num += 1
        if cfg is None or self._profiler is not None:
            return
        start, stop = int(cfg["start_step"]), int(cfg["stop_step"])
        if start < 0 or stop < 0 or (start, stop) == (self._active or (None, None))[:2]:
            return
        if start > stop:
            warning(f"Rank {self._rank_id} Dynamic profiler start at step {start} and stop at step {stop} must be "
                    f"greater than or equal to 0, and stop step should not be less than start step")
            return
        if self._step_num == start:
            self._profiler = self._make_profiler(cfg, start, stop)
            self._profiler.start()
            self._active = (start, stop)

    def step_end(self, run_context):
        """The training-callback form of :meth:`step`."""
        self.step()

    def on_train_step_end(self, run_context):
        """The training-callback form of :meth:`step`."""
        self.step()
