"""MindSpore's ``mindspore.tools.stress_detect``."""
from mindspore.utils.detect import stress_detect  # noqa: F401

__all__ = ["stress_detect"]
