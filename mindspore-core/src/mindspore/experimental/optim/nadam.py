"""MindSpore's ``mindspore.experimental.optim.nadam``."""
from mindspore.experimental.optim import NAdam  # noqa: F401

__all__ = ["NAdam"]
