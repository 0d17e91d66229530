"""MindSpore's ``mindspore.common.recompute``."""
from mindspore import recompute  # noqa: F401

__all__ = ["recompute"]
