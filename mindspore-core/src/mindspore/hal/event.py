"""MindSpore's ``mindspore.hal.event``."""
from mindspore.hal import Event  # noqa: F401

__all__ = ["Event"]
