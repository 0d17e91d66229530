"""``mindspore.device_context.ascend``: the Ascend device."""
from mindspore.device_context import _probe
from mindspore.device_context.ascend import op_debug, op_precision, op_tuning  # noqa: F401 - 2.10's submodules

__all__ = ["is_available", "device_count"]


def is_available():
    """Whether a Ascend backend (mindspore-ascend) is installed and a device is present."""
    return _probe.is_available("Ascend")


def device_count():
    """The number of Ascend devices the backend sees (0 when unavailable)."""
    return _probe.device_count("Ascend")
