"""MindSpore's ``mindspore.common.file_system``: the MindIO checkpoint-preload switches."""
from mindspore import mindio_preload, set_mindio_server_info  # noqa: F401

__all__ = ["set_mindio_server_info", "mindio_preload"]
