"""MindSpore's ``mindspore.mint.nn.layer.basic``."""
from mindspore.mint.nn import Flatten  # noqa: F401

__all__ = ["Flatten"]
