"""MindSpore's ``mindspore.device_manager``."""
from mindspore import set_device, set_deterministic, get_current_device  # noqa: F401

__all__ = ["set_device", "set_deterministic", "get_current_device"]
