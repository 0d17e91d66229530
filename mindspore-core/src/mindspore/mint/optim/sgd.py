"""MindSpore's ``mindspore.mint.optim.sgd``."""
from mindspore.mint.optim import SGD  # noqa: F401

__all__ = ["SGD"]
