"""MindSpore's ``mindspore.train.train_thor.convert_utils``."""
from mindspore.train.train_thor import ConvertModelUtils, ConvertNetUtils  # noqa: F401

__all__ = ["ConvertModelUtils", "ConvertNetUtils"]
