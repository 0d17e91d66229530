"""MindSpore's ``mindspore.experimental.optim.asgd``."""
from mindspore.experimental.optim import ASGD  # noqa: F401

__all__ = ["ASGD"]
