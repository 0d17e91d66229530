"""MindSpore's ``mindspore.experimental.optim.adamax``."""
from mindspore.experimental.optim import Adamax  # noqa: F401

__all__ = ["Adamax"]
