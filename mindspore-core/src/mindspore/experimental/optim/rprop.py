"""MindSpore's ``mindspore.experimental.optim.rprop``."""
from mindspore.experimental.optim import Rprop  # noqa: F401

__all__ = ["Rprop"]
