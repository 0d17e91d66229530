"""MindSpore's ``mindspore.nn.grad``: the Jacobian-vector product cells."""
from mindspore.nn import Jvp, Vjp  # noqa: F401

__all__ = ["Jvp", "Vjp"]
