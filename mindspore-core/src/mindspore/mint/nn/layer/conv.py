"""MindSpore's ``mindspore.mint.nn.layer.conv``."""
from mindspore.mint.nn import Conv2d, ConvTranspose2d, Conv3d, Conv1d  # noqa: F401

__all__ = ["Conv2d", "ConvTranspose2d", "Conv3d", "Conv1d"]
