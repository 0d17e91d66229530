"""MindSpore's ``mindspore.graph.no_inline``."""
from mindspore import no_inline  # noqa: F401

__all__ = ["no_inline"]
