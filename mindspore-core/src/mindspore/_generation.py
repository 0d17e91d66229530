"""One counter for every cache that depends on the plugin set or on the selected device target.

The plugin manager and ``set_context(device_target=...)`` bump it; caches above them (the resolved
backend, the operator registry's plugin primitives, the backend passes, the eager dispatcher's
per-primitive kernels) remember the value they were filled at and refill when it has moved. The
kernel registry, the same for every target, follows the plugin set only (:data:`PLUGINS`). Nothing below resets a cache above it, and no cache can be forgotten: a new cache reads
:data:`GENERATION` the same way.
"""
__all__ = ["GENERATION", "PLUGINS", "bump"]

#: ``GENERATION[0]`` is the current generation (a one-item list: the hot path reads it without a call).
GENERATION = [0]
#: ``PLUGINS[0]`` moves with the plugin set only: what the plugins register does not depend on the device target
#: (the kernel registry, rebuilt from every plugin's kernels, is kept when only the target changes)
PLUGINS = [0]


def bump(plugins=True):
    """Invalidate every generation-checked cache (the plugin set or the device target changed); ``plugins=False``:
    only the device target changed, and the caches of what the plugins registered stay."""
    GENERATION[0] += 1
    if plugins:
        PLUGINS[0] += 1
