"""MindSpore's ``mindspore.mindrecord.tools.csv_to_mr``."""
from mindspore.mindrecord.tools import CsvToMR  # noqa: F401

__all__ = ["CsvToMR"]
