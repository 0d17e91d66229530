"""MindSpore's ``mindspore.common.dump``."""
from mindspore import set_dump  # noqa: F401

__all__ = ["set_dump"]
