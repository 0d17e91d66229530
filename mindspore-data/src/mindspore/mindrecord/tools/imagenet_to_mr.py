"""MindSpore's ``mindspore.mindrecord.tools.imagenet_to_mr``."""
from mindspore.mindrecord.tools import ImageNetToMR  # noqa: F401

__all__ = ["ImageNetToMR"]
