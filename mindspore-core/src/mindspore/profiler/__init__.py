"""``mindspore.profiler``: time every operator a program runs and write the timeline as a Chrome trace.

``Profiler`` (MindSpore's keyword form) and ``profile`` (PyTorch's form, with ``schedule`` and
``on_trace_ready``/``tensorboard_trace_handler``) collect per-operator spans (name, start, duration, thread; input
shapes and the Python call site by level), Cell spans and steps through core's dispatch hook, and write per
collection ``ASCEND_PROFILER_OUTPUT/trace_view.json`` plus operator statistics (layout in
:mod:`mindspore.profiler._writer`). ``mstx`` adds marks and ranges; ``DynamicProfilerMonitor`` and ``EnvProfiler``
switch profiling on from a JSON file or the ``MS_PROFILER_OPTIONS`` variable.
"""
# loaded from the public module first: `schedule` then names the class, as in MindSpore, even after a later
# `import mindspore.profiler.schedule`
from mindspore.profiler.schedule import ProfilerAction
from mindspore.profiler.schedule import Schedule as schedule
from mindspore.profiler.common import (AicoreMetrics, ExportType, HostSystem, ProfilerActivity, ProfilerLevel,
                                       _ExperimentalConfig)
from mindspore.profiler.dynamic_profiler import DynamicProfilerMonitor
from mindspore.profiler.envprofiler import EnvProfiler
from mindspore.profiler.mstx import mstx
from mindspore.profiler.profiler import Profiler, profile, tensorboard_trace_handler

__all__ = ["tensorboard_trace_handler", "schedule", "Profiler", "EnvProfiler", "ProfilerLevel", "ProfilerActivity",
           "AicoreMetrics", "ExportType", "HostSystem", "DynamicProfilerMonitor", "mstx", "_ExperimentalConfig",
           "profile", "ProfilerAction"]
