"""MindSpore's ``mindspore.train.train_thor.dataset_helper``."""
from mindspore.train.dataset_helper import DatasetHelper  # noqa: F401

__all__ = ["DatasetHelper"]
