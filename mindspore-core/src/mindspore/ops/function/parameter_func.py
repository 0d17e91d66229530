"""MindSpore's ``mindspore.ops.function.parameter_func``."""
from mindspore.ops import assign, assign_add, assign_sub, index_add  # noqa: F401

__all__ = ["assign", "assign_add", "assign_sub", "index_add"]
