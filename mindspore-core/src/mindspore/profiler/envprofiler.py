"""``mindspore.profiler.EnvProfiler``: profiling switched on by the ``MS_PROFILER_OPTIONS`` environment variable.

``MS_PROFILER_OPTIONS`` holds JSON: ``{"start": true, "output_path": "...", "profiler_level": "Level1",
"activities": ["CPU"], "with_stack": true, ...}`` (the :class:`mindspore.profiler.profile` options; ``schedule``
and ``on_trace_ready`` are not supported there). As in MindSpore, importing ``mindspore`` with it set starts the
profiler (:meth:`EnvProfiler.init_profiler`), and the collection is saved and analysed under ``output_path``
(default ``"./data"``) when the process exits (:meth:`EnvProfiler.analyse`, registered with ``atexit``).
"""
import atexit
import json
import os

from mindspore.log import error, warning
from mindspore.profiler.common import ProfilerActivity, ProfilerLevel, _ExperimentalConfig
from mindspore.profiler.profiler import Profile, tensorboard_trace_handler

__all__ = ["EnvProfiler"]

_BOOLS = ("with_stack", "profile_memory", "data_process", "parallel_strategy", "hbm_ddr", "pcie", "sync_enable",
          "record_shapes", "mstx", "data_simplification")


class EnvProfiler:
    """The profiler ``MS_PROFILER_OPTIONS`` asks for (one per process)."""

    NOT_SUPPORTED_PARAMS = ["schedule", "on_trace_ready"]
    profiler = None

    @classmethod
    def _options(cls):
        try:
            return json.loads(os.environ.get("MS_PROFILER_OPTIONS", "{}"))
        except json.JSONDecodeError:
            return None

    @classmethod
    def init_profiler(cls):
        """Start the profiler ``MS_PROFILER_OPTIONS`` describes (nothing if it is unset or ``start`` is false)."""
        if not os.getenv("MS_PROFILER_OPTIONS"):
            return
        options = cls._options()
        if not options:
            error("Failed to load MS_PROFILER_OPTIONS, json decode error.")
            return
        for name in cls.NOT_SUPPORTED_PARAMS:
            if name in options:
                warning(f"The parameter '{name}' is not supported in MS_PROFILER_OPTIONS, it is ignored.")
        if not options.get("start", False):
            return
        level = options.get("profiler_level", "Level0")
        level = ProfilerLevel(level) if level in ProfilerLevel.__members__ else ProfilerLevel.Level0
        activities = [ProfilerActivity[a] for a in options.get("activities", ["CPU", "NPU"])
                      if a in ProfilerActivity.__members__] or None
        flags = {name: bool(options[name]) for name in _BOOLS if name in options}
        config = _ExperimentalConfig(profiler_level=level, mstx=flags.pop("mstx", False),
                                     data_simplification=flags.pop("data_simplification", True))
        output = options.get("output_path", "./data")
        cls.profiler = Profile(activities=activities, on_trace_ready=tensorboard_trace_handler(output),
                               experimental_config=config, output_path=output, **flags)
        atexit.register(EnvProfiler().analyse)

    def analyse(self):
        """Stop the profiler (its collection is saved and analysed)."""
        if EnvProfiler.profiler is None:
            return
        EnvProfiler.profiler.stop()
        EnvProfiler.profiler = None


EnvProfiler.init_profiler()   # only when MS_PROFILER_OPTIONS asks for it (see the module docstring)
