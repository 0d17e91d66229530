"""MindSpore's ``mindspore.graph.symbol``."""
from mindspore.common.symbol import Symbol  # noqa: F401

__all__ = ["Symbol"]
