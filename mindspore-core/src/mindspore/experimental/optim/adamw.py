"""MindSpore's ``mindspore.experimental.optim.adamw``."""
from mindspore.experimental.optim import AdamW  # noqa: F401

__all__ = ["AdamW"]
