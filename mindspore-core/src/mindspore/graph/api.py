"""MindSpore's ``mindspore.graph.api``."""
from mindspore import _no_grad, flops_collection, jit, jit_class, ms_memory_recycle  # noqa: F401

__all__ = ["ms_memory_recycle", "jit", "jit_class", "flops_collection"]
