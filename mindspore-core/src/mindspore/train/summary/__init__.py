"""``mindspore.train.summary``: :class:`SummaryRecord` and the summary event file format."""
from mindspore.train.summary.summary_record import SummaryRecord

__all__ = ["SummaryRecord"]
