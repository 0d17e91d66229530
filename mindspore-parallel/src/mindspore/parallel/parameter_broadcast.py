"""MindSpore's ``mindspore.parallel.parameter_broadcast`` (the package imports the function from here, so that
``mindspore.parallel.parameter_broadcast`` stays the function, as in MindSpore)."""
from mindspore.parallel._param_sync import parameter_broadcast  # noqa: F401

__all__ = ["parameter_broadcast"]
