"""MindSpore's ``mindspore.tools.data_dump``."""
from mindspore import set_dump  # noqa: F401

__all__ = ["set_dump"]
