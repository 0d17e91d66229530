"""MindSpore's ``mindspore.nn.optim.lazyadam``."""
from mindspore.nn import LazyAdam  # noqa: F401

__all__ = ["LazyAdam"]
