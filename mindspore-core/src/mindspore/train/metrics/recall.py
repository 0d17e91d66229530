"""MindSpore's ``mindspore.train.metrics.recall``."""
from mindspore.train.metrics import Recall  # noqa: F401

__all__ = ["Recall"]
