"""Deployment: capturing a network as one graph (``capture``) and the exchange formats written from it and
read into it (ONNX, MindIR), behind ``mindspore.export``, ``mindspore.load`` and ``nn.GraphCell``."""
