"""``mindspore.device_context.gpu``: the GPU device."""
from mindspore.device_context import _probe

__all__ = ["is_available", "device_count"]


def is_available():
    """Whether a GPU backend (mindspore-gpu) is installed and a device is present."""
    return _probe.is_available("GPU")


def device_count():
    """The number of GPU devices the backend sees (0 when unavailable)."""
    return _probe.device_count("GPU")
