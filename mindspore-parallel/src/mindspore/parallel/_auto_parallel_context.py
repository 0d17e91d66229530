"""``mindspore.parallel._auto_parallel_context``: MindSpore's object view of the auto-parallel context, private
there too but used by name throughout its model zoo (``auto_parallel_context().get_device_num_is_set()`` picks the
gradient reducer's degree in 58 of its training wrappers).

:func:`auto_parallel_context` returns an object whose ``get_<setting>()`` / ``set_<setting>(value)`` read and write
the public context (``mindspore.get_auto_parallel_context`` / ``set_auto_parallel_context``) and whose
``get_<setting>_is_set()`` says whether the user set it.
"""
from mindspore import context
from mindspore.plugin import auto_parallel_setting_is_set

__all__ = ["auto_parallel_context"]


class _AutoParallelContext:
    """The auto-parallel settings as methods (MindSpore's ``_AutoParallelContext``)."""

    def set_all_reduce_fusion_split_indices(self, indices, group=""):
        """Fuse the gradient AllReduce into groups split at ``indices`` (``all_reduce_fusion_config``); ``group``
        is accepted for MindSpore's signature (one communication group here)."""
        del group
        context.set_auto_parallel_context(all_reduce_fusion_config=list(indices))

    def get_all_reduce_fusion_split_indices(self, group=""):
        del group
        return context.get_auto_parallel_context("all_reduce_fusion_config")

    def reset(self):
        context.reset_auto_parallel_context()

    def __getattr__(self, name):
        if name.startswith("get_") and name.endswith("_is_set"):
            key = name[len("get_"):-len("_is_set")]
            return lambda: auto_parallel_setting_is_set(key)
        if name.startswith("get_"):
            key = name[len("get_"):]
            context.get_auto_parallel_context(key)   # an unknown setting raises MindSpore's error now
            return lambda: context.get_auto_parallel_context(key)
        if name.startswith("set_"):
            key = name[len("set_"):]
            return lambda value: context.set_auto_parallel_context(**{key: value})
        raise AttributeError(f"'_AutoParallelContext' object has no attribute '{name}'")


_CONTEXT = _AutoParallelContext()


def auto_parallel_context():
    """The process's auto-parallel context object."""
    return _CONTEXT
