"""MindSpore's ``mindspore.mint.nn.layer.normalization``."""
from mindspore.mint.nn import GroupNorm, BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm, SyncBatchNorm  # noqa: F401

__all__ = ["GroupNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "SyncBatchNorm"]
