"""MindSpore's ``mindspore.ops.function.spectral_func``."""
from mindspore.ops import bartlett_window, blackman_window  # noqa: F401

__all__ = ["bartlett_window", "blackman_window"]
