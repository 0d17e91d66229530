"""MindSpore's ``mindspore.common.device``."""
from mindspore import DeviceCtx, get_current_device  # noqa: F401

__all__ = ["DeviceCtx", "get_current_device"]
