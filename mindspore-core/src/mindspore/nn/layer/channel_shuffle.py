"""MindSpore's ``mindspore.nn.layer.channel_shuffle``."""
from mindspore.nn import ChannelShuffle  # noqa: F401

__all__ = ["ChannelShuffle"]
