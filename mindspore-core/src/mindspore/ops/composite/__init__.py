"""``mindspore.ops.composite``: higher-order composites, and the gradient transforms.

``GradOperation`` sits above the operators (it drives the tape and the compiler), so
:mod:`mindspore._autodiff.grad` installs it here when it is imported (``import mindspore`` does).
"""
from mindspore.ops.composite.base import HyperMap, Map, MultitypeFuncGraph, partial  # noqa: F401
from mindspore.ops.function.array_func import ones_like, zeros_like  # noqa: F401

__all__ = ["HyperMap", "Map", "MultitypeFuncGraph", "partial", "ones_like", "zeros_like"]
