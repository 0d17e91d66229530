"""MindSpore's ``mindspore.common.mindir_util``."""
from mindspore import load_mindir, save_mindir  # noqa: F401

__all__ = ["load_mindir", "save_mindir"]
