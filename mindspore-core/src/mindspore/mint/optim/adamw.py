"""MindSpore's ``mindspore.mint.optim.adamw``."""
from mindspore.mint.optim import AdamW  # noqa: F401

__all__ = ["AdamW"]
