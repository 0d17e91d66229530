"""MindSpore's ``mindspore.mint.nn.layer``."""
from mindspore.mint.nn import (  # noqa: F401
    GroupNorm, BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm, LogSigmoid, SiLU, AdaptiveMaxPool1d,
    AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, SyncBatchNorm, Threshold
)

__all__ = [
    "GroupNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "LogSigmoid", "SiLU",
    "AdaptiveMaxPool1d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "SyncBatchNorm",
    "Threshold"
]
