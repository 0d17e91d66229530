"""MindSpore's ``mindspore.runtime.memory``."""
from mindspore.runtime import (  # noqa: F401
    empty_cache, max_memory_allocated, max_memory_reserved, memory_allocated, memory_replay, memory_reserved,
    memory_stats, memory_summary, reset_max_memory_allocated, reset_max_memory_reserved, reset_peak_memory_stats,
    set_memory, use_mem_pool, MemPool, PluggableAllocator
)

__all__ = [
    "empty_cache", "max_memory_allocated", "max_memory_reserved", "memory_allocated", "memory_replay",
    "memory_reserved", "memory_stats", "memory_summary", "reset_max_memory_allocated",
    "reset_max_memory_reserved", "reset_peak_memory_stats", "set_memory", "use_mem_pool", "MemPool",
    "PluggableAllocator"
]
