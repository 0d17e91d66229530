"""MindSpore's ``mindspore.runtime.event``."""
from mindspore.runtime import Event  # noqa: F401

__all__ = ["Event"]
