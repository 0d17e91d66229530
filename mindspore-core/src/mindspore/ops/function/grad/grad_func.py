"""MindSpore's ``mindspore.ops.function.grad.grad_func``."""
from mindspore.ops import (  # noqa: F401
    derivative, get_grad, grad, jacfwd, jacrev, jet, jvp, linearize, stop_gradient, value_and_grad, vjp
)

__all__ = [
    "derivative", "get_grad", "grad", "jacfwd", "jacrev", "jet", "jvp", "linearize", "stop_gradient",
    "value_and_grad", "vjp"
]
