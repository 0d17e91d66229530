"""MindSpore's ``mindspore.experimental.optim.rmsprop``."""
from mindspore.experimental.optim import RMSprop  # noqa: F401

__all__ = ["RMSprop"]
