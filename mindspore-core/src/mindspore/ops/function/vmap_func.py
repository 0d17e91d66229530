"""MindSpore's ``mindspore.ops.function.vmap_func``."""
from mindspore.ops import vmap  # noqa: F401

__all__ = ["vmap"]
