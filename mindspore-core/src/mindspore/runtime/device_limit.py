"""MindSpore's ``mindspore.runtime.device_limit``."""
from mindspore.runtime import get_device_limit, set_device_limit  # noqa: F401

__all__ = ["get_device_limit", "set_device_limit"]
