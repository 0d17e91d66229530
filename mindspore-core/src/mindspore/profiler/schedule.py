"""MindSpore's ``mindspore.profiler.schedule`` (module path): :class:`Schedule` and :class:`ProfilerAction`."""
from mindspore.profiler._schedule import ProfilerAction, Schedule  # noqa: F401

__all__ = ["ProfilerAction", "Schedule"]
