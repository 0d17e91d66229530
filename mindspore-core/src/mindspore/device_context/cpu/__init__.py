"""``mindspore.device_context.cpu``: the CPU device."""
from mindspore.device_context import _probe
from mindspore.device_context.cpu import op_tuning
from mindspore.device_context.cpu.op_tuning import threads_num  # noqa: F401 - 2.10 exports it here too

__all__ = ["is_available", "device_count", "op_tuning", "threads_num"]


def is_available():
    """Whether a CPU backend (mindspore-cpu) is installed and usable."""
    return _probe.is_available("CPU")


def device_count():
    """The number of CPU devices (1 with mindspore-cpu installed, else 0)."""
    return _probe.device_count("CPU")
