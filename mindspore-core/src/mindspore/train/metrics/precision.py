"""MindSpore's ``mindspore.train.metrics.precision``."""
from mindspore.train.metrics import Precision  # noqa: F401

__all__ = ["Precision"]
