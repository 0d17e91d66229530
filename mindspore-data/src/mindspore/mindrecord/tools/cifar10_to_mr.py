"""MindSpore's ``mindspore.mindrecord.tools.cifar10_to_mr``."""
from mindspore.mindrecord.tools import Cifar10ToMR  # noqa: F401

__all__ = ["Cifar10ToMR"]
