"""MindSpore's ``mindspore.mindrecord.tools.mnist_to_mr``."""
from mindspore.mindrecord.tools import MnistToMR  # noqa: F401

__all__ = ["MnistToMR"]
