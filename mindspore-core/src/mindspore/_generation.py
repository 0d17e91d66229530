"""One counter for every cache that depends on the plugin set or on the selected device target.

The plugin manager and ``set_context(device_target=...)`` bump it; caches above them (the resolved
backend and its kernel registry, the operator registry's plugin primitives, the backend passes, the
eager dispatcher's per-primitive kernels) remember the value they were filled at and refill when it
has moved. Nothing below resets a cache above it, and no cache can be forgotten: a new cache reads
:data:`GENERATION` the same way.
"""
__all__ = ["GENERATION", "bump"]

#: ``GENERATION[0]`` is the current generation (a one-item list: the hot path reads it without a call).
GENERATION = [0]


def bump():
    """Invalidate every generation-checked cache (the plugin set or the device target changed)."""
    GENERATION[0] += 1
