"""MindSpore's ``mindspore.common.lazy_inline``."""
from mindspore import lazy_inline  # noqa: F401

__all__ = ["lazy_inline"]
