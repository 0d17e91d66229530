"""MindSpore's ``mindspore.mint.nn.layer.activation``."""
from mindspore.mint.nn import LogSigmoid, SiLU, ELU, GLU, Tanh, Threshold  # noqa: F401

__all__ = ["LogSigmoid", "SiLU", "ELU", "GLU", "Tanh", "Threshold"]
