"""MindSpore's ``mindspore.nn.grad.cell_grad``."""
from mindspore.nn import Jvp, Vjp  # noqa: F401

__all__ = ["Jvp", "Vjp"]
