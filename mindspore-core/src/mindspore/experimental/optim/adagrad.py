"""MindSpore's ``mindspore.experimental.optim.adagrad``."""
from mindspore.experimental.optim import Adagrad  # noqa: F401

__all__ = ["Adagrad"]
