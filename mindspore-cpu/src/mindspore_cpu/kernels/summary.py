"""CPU kernels of the summary family (Scalar/Image/Tensor/HistogramSummary): hand the computed value to the
primitive, which caches it for ``SummaryRecord`` (see the summary primitives in core)."""
import numpy as np


def _summary(prim, name, value, out=None):
    prim.deliver(name, np.array(value, copy=True))
    return np.zeros((1,), np.int32)


KERNELS = {
    "ScalarSummary": _summary,
    "ImageSummary": _summary,
    "TensorSummary": _summary,
    "HistogramSummary": _summary,
}
