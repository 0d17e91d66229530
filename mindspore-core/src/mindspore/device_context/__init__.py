"""``mindspore.device_context``: per-device queries and settings (``cpu``, ``gpu``, ``ascend``).

Availability and device counts come from the installed backend plugins' probes (``ms_backend_probe``),
so ``gpu.is_available()`` is True only with mindspore-gpu installed and a CUDA device present.
"""
from mindspore.device_context import ascend, cpu, gpu

__all__ = ["cpu", "gpu", "ascend"]
