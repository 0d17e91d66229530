"""MindSpore's ``mindspore.common.mutable``."""
from mindspore.common.api import mutable  # noqa: F401

__all__ = ["mutable"]
