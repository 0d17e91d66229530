"""MindSpore's ``mindspore.mint.optim.adam``."""
from mindspore.mint.optim import Adam  # noqa: F401

__all__ = ["Adam"]
