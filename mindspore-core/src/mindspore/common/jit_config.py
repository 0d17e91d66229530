"""MindSpore's ``mindspore.common.jit_config``."""
from mindspore.common.api import JitConfig  # noqa: F401

__all__ = ["JitConfig"]
