"""MindSpore's ``mindspore.mint.nn.layer.pooling``."""
from mindspore.mint.nn import (  # noqa: F401
    AdaptiveAvgPool3d, AdaptiveAvgPool2d, AdaptiveAvgPool1d, AdaptiveMaxPool1d, MaxUnpool2d
)

__all__ = ["AdaptiveAvgPool3d", "AdaptiveAvgPool2d", "AdaptiveAvgPool1d", "AdaptiveMaxPool1d", "MaxUnpool2d"]
