"""MindSpore's ``mindspore.mindrecord.tools.cifar100_to_mr``."""
from mindspore.mindrecord.tools import Cifar100ToMR  # noqa: F401

__all__ = ["Cifar100ToMR"]
