"""MindSpore's ``mindspore.graph.jit_config``."""
from mindspore import JitConfig  # noqa: F401

__all__ = ["JitConfig"]
