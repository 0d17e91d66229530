"""MindSpore's ``mindspore.graph.mutable``."""
from mindspore import mutable  # noqa: F401

__all__ = ["mutable"]
