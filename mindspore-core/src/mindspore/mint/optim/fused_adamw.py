"""MindSpore's ``mindspore.mint.optim.fused_adamw``."""
from mindspore.mint.optim import FusedAdamW  # noqa: F401

__all__ = ["FusedAdamW"]
