"""MindSpore's ``mindspore.nn.utils.init``."""
from mindspore.nn.utils import no_init_parameters  # noqa: F401

__all__ = ["no_init_parameters"]
