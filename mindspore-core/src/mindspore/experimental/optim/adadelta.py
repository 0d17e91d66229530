"""MindSpore's ``mindspore.experimental.optim.adadelta``."""
from mindspore.experimental.optim import Adadelta  # noqa: F401

__all__ = ["Adadelta"]
