"""``mindspore.train.summary_pb2``: the summary-file protobuf messages under MindSpore 2.10's module name (``Event``,
``Summary``, ``LossLandscape``), for code that reads ``.summary`` event files itself; the same classes as
``SummaryRecord`` writes with. (2.10's ``Explain``, from its retired explainer, is not offered.)"""
from mindspore.train import _summary_pb2 as _pb

__all__ = ["DESCRIPTOR", "Event", "Summary", "LossLandscape"]

DESCRIPTOR = _pb.Event.DESCRIPTOR.file
Event = _pb.Event
Summary = _pb.Summary
LossLandscape = _pb.LossLandscape
