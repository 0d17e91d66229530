"""MindSpore's ``mindspore.common.storage``."""
from mindspore import UntypedStorage  # noqa: F401

__all__ = ["UntypedStorage"]
