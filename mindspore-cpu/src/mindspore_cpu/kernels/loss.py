"""CPU kernels of the loss family: the fused softmax cross-entropies (C++, ``mindspore_cpu._kernels``)."""
import numpy as np

from mindspore_cpu.kernels._half import as_c
from mindspore_cpu.kernels._out import fits_out
from mindspore_cpu.kernels._native import _kernels

_NATIVE = (np.dtype(np.float32), np.dtype(np.float64))


def _as_float(*arrays):
    dt = np.result_type(*arrays)
    dt = dt if dt in _NATIVE else np.dtype(np.float32)
    return [as_c(a, dt) for a in arrays]


@fits_out
def _softmax_cross_entropy(prim, logits, labels, out=None):
    return _kernels.softmax_cross_entropy(*_as_float(logits, labels))


@fits_out
def _sparse_softmax_cross_entropy(prim, logits, labels, out=None):
    (logits,) = _as_float(logits)
    return _kernels.sparse_softmax_cross_entropy(logits, np.asarray(labels, order="C"), prim.is_grad)


KERNELS = {
    "SoftmaxCrossEntropyWithLogits": _softmax_cross_entropy,
    "SparseSoftmaxCrossEntropyWithLogits": _sparse_softmax_cross_entropy,
}
