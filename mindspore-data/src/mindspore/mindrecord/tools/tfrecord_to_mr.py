"""MindSpore's ``mindspore.mindrecord.tools.tfrecord_to_mr``."""
from mindspore.mindrecord.tools import TFRecordToMR  # noqa: F401

__all__ = ["TFRecordToMR"]
