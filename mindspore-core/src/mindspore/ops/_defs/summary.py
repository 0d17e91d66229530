"""Summary primitives: ``ScalarSummary``, ``ImageSummary``, ``TensorSummary``, ``HistogramSummary``.

``op(name, value)`` inside a network hands ``value`` to the active summary writer
(:class:`mindspore.train.summary.SummaryRecord`, also driven by ``SummaryCollector``): the device kernel passes the
computed value to :meth:`_SummaryBase.deliver`, which appends ``[op name, tag, Tensor]`` to
:data:`SUMMARY_TENSOR_CACHE`; ``SummaryRecord.record(step)`` drains the cache and writes ``tag`` as
``plugin`` data of that step. As in MindSpore, the name and the value are checked when they are recorded (a
PYNATIVE call returns ``None``), and a graph keeps every summary op where the program put it
(``side_effect``), whether or not its result is used. Values produced while no SummaryRecord is open are dropped.

Besides, as MindSpore's graph executor does, every value a network produces under GRAPH_MODE is kept as the newest
value of its tag in :data:`GRAPH_SUMMARY_DATA` (``{"<tag>[:Tensor]": Tensor}``, open record or not: one entry per
tag, so it stays bounded), which ``train.summary.summary_record._get_summary_tensor_data`` drains (MindArmour's neuron
coverage reads a network's layers so). PYNATIVE values do not reach it, as in MindSpore.
"""
from __future__ import annotations

import threading

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

__all__ = ["SUMMARY_TENSOR_CACHE", "take_summary_data", "GRAPH_SUMMARY_DATA", "take_graph_summary_data"]

#: ``[op name, tag, Tensor]`` entries delivered since the last ``SummaryRecord.record``.
SUMMARY_TENSOR_CACHE = []
_LOCK = threading.Lock()
#: Open ``SummaryRecord``s: values are only kept while one is open (else nothing would ever drain the cache).
ACTIVE_RECORDS = [0]


#: The newest value of each tag produced under GRAPH_MODE since the last drain (see the module docstring).
GRAPH_SUMMARY_DATA = {}
_TAG_SUFFIX = {"TensorSummary": "[:Tensor]", "ScalarSummary": "[:Scalar]", "ImageSummary": "[:Image]",
               "HistogramSummary": "[:Histogram]"}


def take_graph_summary_data():
    """Return and clear :data:`GRAPH_SUMMARY_DATA`."""
    with _LOCK:
        data = dict(GRAPH_SUMMARY_DATA)
        GRAPH_SUMMARY_DATA.clear()
        return data


def take_summary_data():
    """Return and clear the cached summary entries."""
    with _LOCK:
        data = list(SUMMARY_TENSOR_CACHE)
        SUMMARY_TENSOR_CACHE.clear()
        return data


class _SummaryBase(Primitive):
    """Shared behaviour of the four summary primitives."""

    side_effect = True   # records at every run of a graph, used or not
    _channel = ""

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("side_effect_io", True)
        self.add_prim_attr("channel_name", self._channel)

    def __call__(self, *args):
        if len(args) != 2:
            raise MSTypeError(f"For '{self.name}', it needs 2 inputs (name, value), but got {len(args)}.")
        from mindspore.common.tensor import Tensor
        name, value = args
        if not isinstance(value, Tensor):
            # MindSpore checks name and value only when the step is recorded (see SummaryRecord)
            self.deliver(name, value)
            return None
        super().__call__(name, value)
        return None

    def infer_shape(self, name, value):
        if not isinstance(name, str):
            raise MSTypeError(f"For '{self.name}', the 'name' must be a str, but got {type(name).__name__}.")
        if not name:
            raise MSValueError(f"For '{self.name}', the name must be valid string, but got '{name}'.")
        return (1,)

    def infer_dtype(self, name, value):
        return mstype.int32

    def deliver(self, name, value):
        """Called by the kernel with the computed ``value`` (an ndarray or Tensor): cache it for the writer."""
        from mindspore.common.tensor import Tensor
        if not isinstance(value, Tensor) and hasattr(value, "dtype") and hasattr(value, "shape"):
            value = Tensor(value)
        from mindspore.context import GRAPH_MODE, get_context
        graph = get_context("mode") == GRAPH_MODE
        with _LOCK:
            if ACTIVE_RECORDS[0] > 0:
                SUMMARY_TENSOR_CACHE.append([self.name, name, value])
            if graph and isinstance(name, str) and isinstance(value, Tensor):
                GRAPH_SUMMARY_DATA[name + _TAG_SUFFIX.get(self.name, "")] = value

    bprop = NON_DIFFERENTIABLE


class ScalarSummary(_SummaryBase):
    """``ScalarSummary()(name, value)``: record a one-element Tensor as the scalar ``name`` of the current step.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn, ops
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.summary = ops.ScalarSummary()
        ...     def construct(self, x, y):
        ...         z = x + y
        ...         self.summary("z", z)
        ...         return z
    """

    _channel = "ms_scalar_summary"


class ImageSummary(_SummaryBase):
    """``ImageSummary()(name, value)``: record an NCHW image batch (rank 4) as the image ``name`` (a PNG grid)."""

    _channel = "ms_image_summary"


class TensorSummary(_SummaryBase):
    """``TensorSummary()(name, value)``: record a Tensor (rank >= 1) as the tensor ``name``."""

    _channel = "ms_tensor_summary"


class HistogramSummary(_SummaryBase):
    """``HistogramSummary()(name, value)``: record the histogram of a Tensor (rank >= 1) as ``name``."""

    _channel = "ms_histogram_summary"


PRIMITIVES = [ScalarSummary, ImageSummary, TensorSummary, HistogramSummary]
