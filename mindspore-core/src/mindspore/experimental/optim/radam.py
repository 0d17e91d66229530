"""MindSpore's ``mindspore.experimental.optim.radam``."""
from mindspore.experimental.optim import RAdam  # noqa: F401

__all__ = ["RAdam"]
