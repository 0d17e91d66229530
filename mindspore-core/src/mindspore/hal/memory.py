"""Device memory counts of ``mindspore.hal``: ``mindspore.runtime``'s, for the device named by ``device_target``
(``None``: the current one). See :mod:`mindspore.runtime` for what each count means on each device."""
import mindspore.runtime as _rt
from mindspore.runtime import empty_cache  # noqa: F401 - MindSpore's hal.empty_cache takes no device_target
from mindspore.hal.device import runtime_of

__all__ = ["max_memory_allocated", "max_memory_reserved", "empty_cache", "reset_peak_memory_stats",
           "memory_summary", "memory_stats", "memory_allocated", "memory_reserved", "reset_max_memory_reserved",
           "reset_max_memory_allocated"]


def memory_stats(device_target=None):
    """The memory pool's counts (a dict of int bytes, MindSpore's keys; see :func:`mindspore.runtime.memory_stats`).

    Raises:
        TypeError: ``device_target`` is not a str.
        ValueError: it is not a known target, or its backend is not usable here.
    """
    return _rt._memory_stats_of(runtime_of(device_target))


def memory_summary(device_target=None):
    """:func:`memory_stats` as a readable table (a str). Raises as :func:`memory_stats`."""
    return _rt._memory_summary_of(runtime_of(device_target))


def memory_allocated(device_target=None):
    """Bytes of device memory held by tensors now (0 on the CPU). Raises as :func:`memory_stats`."""
    return _rt._stats(runtime_of(device_target))["allocated"]


def max_memory_allocated(device_target=None):
    """The peak of :func:`memory_allocated` since the start or the last reset. Raises as :func:`memory_stats`."""
    return _rt._stats(runtime_of(device_target))["peak_allocated"]


def memory_reserved(device_target=None):
    """Bytes the memory pool holds now, cached free blocks included (0 on the CPU). Raises as :func:`memory_stats`."""
    return _rt._stats(runtime_of(device_target))["reserved"]


def max_memory_reserved(device_target=None):
    """The peak of :func:`memory_reserved` since the start or the last reset. Raises as :func:`memory_stats`."""
    return _rt._stats(runtime_of(device_target))["peak_reserved"]


def reset_peak_memory_stats(device_target=None):
    """Restart both peaks from the current values. Raises as :func:`memory_stats`."""
    runtime_of(device_target).reset_peak_memory_stats(allocated=True, reserved=True)


def reset_max_memory_allocated(device_target=None):
    """Restart :func:`max_memory_allocated` from the current value. Raises as :func:`memory_stats`."""
    runtime_of(device_target).reset_peak_memory_stats(allocated=True, reserved=False)


def reset_max_memory_reserved(device_target=None):
    """Restart :func:`max_memory_reserved` from the current value. Raises as :func:`memory_stats`."""
    runtime_of(device_target).reset_peak_memory_stats(allocated=False, reserved=True)
