"""Conformance cases of the summary primitives (ScalarSummary, ImageSummary, TensorSummary, HistogramSummary).

Each case runs the operator while a SummaryRecord is open (values are only kept then) and returns the value the
kernel delivered to the summary cache, so the forward check compares what would be written with the input."""
import tempfile

from mindspore import ops
from mindspore.ops._defs import summary as _summary

from case import Case, rand


def _delivered(op, name, pick=None):
    def run(x):
        x = x if pick is None else x[pick]
        from mindspore.train.summary.summary_record import SummaryRecord
        with tempfile.TemporaryDirectory() as logdir, SummaryRecord(logdir):
            op(name, x)
            (entry,) = [e for e in _summary.take_summary_data() if e[1] == name]
        return entry[2]
    return run


CASES = [
    Case("scalar_summary", _delivered(ops.ScalarSummary(), "s", slice(1, 2)), [rand(3)], oracle=lambda x: x[1:2],
         prims=["ScalarSummary"], modes=("pynative",)),
    Case("tensor_summary", _delivered(ops.TensorSummary(), "t"), [rand(2, 3)], oracle=lambda x: x,
         prims=["TensorSummary"], modes=("pynative",)),
    Case("histogram_summary", _delivered(ops.HistogramSummary(), "h"), [rand(4)], oracle=lambda x: x,
         prims=["HistogramSummary"], modes=("pynative",)),
    Case("image_summary", _delivered(ops.ImageSummary(), "i"), [rand(1, 3, 2, 2, low=0.0)],
         oracle=lambda x: x, prims=["ImageSummary"], modes=("pynative",)),
]
