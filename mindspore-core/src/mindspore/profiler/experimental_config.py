"""MindSpore's ``mindspore.profiler.experimental_config``: the profiler's extra settings."""
from mindspore.profiler import AicoreMetrics, ProfilerLevel, _ExperimentalConfig  # noqa: F401

__all__ = ["_ExperimentalConfig"]
