"""``mindspore.hal``: devices, streams, events and device memory (MindSpore's older spelling of ``mindspore.runtime``).

MindSpore 2.10 keeps ``mindspore.hal`` as the deprecated home of what ``mindspore.runtime`` now offers, plus the
device queries (:func:`device_count`, :func:`get_device_name`, :func:`get_device_properties`, ...). Here the
streams, events and memory counts *are* ``mindspore.runtime``'s (one implementation, see :mod:`mindspore.runtime`);
this package adds:

* the ``device_target`` argument of the memory functions: ``None`` is the current device; another target's
  runtime is created for the question if its backend is usable (``ValueError`` saying it is not, otherwise, as
  MindSpore says it);
* the device queries, answered by the backend's probe (how many devices) and by its
  :class:`mindspore.plugin.DeviceRuntime` (``device_name``, ``device_properties``, ``device_capability``,
  ``arch_list``; on the CPU, as in MindSpore: the name ``"CPU"`` and ``None`` for the rest);
* :func:`is_available` (a usable backend offers the target) and :func:`is_initialized` (its runtime has been
  created in this process).
"""
from mindspore.hal.device import (device_count, get_arch_list, get_device_capability, get_device_name,
                                  get_device_properties, is_available, is_initialized)
from mindspore.hal.memory import (empty_cache, max_memory_allocated, max_memory_reserved, memory_allocated,
                                  memory_reserved, memory_stats, memory_summary, reset_max_memory_allocated,
                                  reset_max_memory_reserved, reset_peak_memory_stats)
from mindspore.runtime import (Event, Stream, StreamCtx, communication_stream, current_stream, default_stream,
                               set_cur_stream, synchronize)

__all__ = ["is_initialized", "is_available", "device_count", "get_device_capability", "get_device_properties",
           "get_device_name", "get_arch_list",
           "Event", "Stream", "synchronize", "set_cur_stream", "current_stream", "default_stream",
           "communication_stream", "StreamCtx",
           "max_memory_allocated", "max_memory_reserved", "empty_cache", "reset_peak_memory_stats",
           "memory_summary", "memory_stats", "memory_allocated", "memory_reserved", "reset_max_memory_reserved",
           "reset_max_memory_allocated"]
