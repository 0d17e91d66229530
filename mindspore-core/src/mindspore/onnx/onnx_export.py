"""MindSpore's ``mindspore.onnx.onnx_export``."""
from mindspore.onnx import export  # noqa: F401

__all__ = ["export"]
