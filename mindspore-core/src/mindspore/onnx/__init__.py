"""``mindspore.onnx``: ``export`` a network as an ONNX model (MindSpore 2.10's entry point for ONNX)."""
from mindspore._deploy.api import onnx_export as export

__all__ = ["export"]
