"""CPU kernels of the loss family: the softmax cross-entropies.

float32 follows MindSpore 2.10's CPU kernels step for step, so the losses and gradients are its bits:

* SparseSoftmaxCrossEntropyWithLogits takes nnacl's softmax of each row (as ops.softmax: ``_csrc/softmax.cpp``),
  then the loss ``-sum_i logf(p[i, label_i])`` accumulated in float32 in row order, divided by N; its gradient is
  ``p * b`` with ``b = float32(1.0 / N)``, minus ``b`` at each label.
* SoftmaxCrossEntropyWithLogits shifts each row by its max, takes the C library's ``expf``, sums in class order,
  and gives ``-sum_j labels_j (shifted_j - logf(sum))`` (in class order) and ``e / sum - labels``. Unlike 2.10, a
  class with a zero label adds nothing, so a -inf logit (a masked class) does not make the loss NaN.

float64 (and what float32 cannot take: labels out of range) runs the fused C++ kernels (``_csrc/loss.cpp``).
"""
import numpy as np

from mindspore.plugin import MSRuntimeError
from mindspore_cpu.kernels._half import as_c
from mindspore_cpu.kernels._out import fits_out
from mindspore_cpu.kernels._native import _kernels

_NATIVE = (np.dtype(np.float32), np.dtype(np.float64))


def _as_float(*arrays):
    dt = np.result_type(*arrays)
    dt = dt if dt in _NATIVE else np.dtype(np.float32)
    return [as_c(a, dt) for a in arrays]


_F32 = np.dtype(np.float32)


def _rows_in_order(values):
    """Each row's sum of ``values`` (2-D float32) added left to right in float32, as a C loop adds them."""
    return np.cumsum(values, axis=1, dtype=np.float32)[:, -1] if values.shape[1] else np.zeros(len(values), _F32)


def _softmax_rows_f32(logits):
    """nnacl's softmax of each row (2.10's). A row holding NaN or +inf, or only -inf, is ``exp(x - m) / sum``
    with ``m`` its max if finite, else 0 (the fused kernels' rule; 2.10 gives zeros for every row of a batch then)."""
    p, bad = _kernels.softmax_last_f32(logits)
    if bad.size:
        rows = logits[bad]
        top = rows.max(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", over="ignore"):
            e = np.exp(rows - np.where(np.isfinite(top), top, np.float32(0)))
            p[bad] = e / e.sum(axis=1, keepdims=True)
    return p


@fits_out
def _softmax_cross_entropy(prim, logits, labels, out=None):
    logits, labels = _as_float(logits, labels)
    if logits.dtype != _F32 or logits.size == 0:
        return _kernels.softmax_cross_entropy(logits, labels)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        shifted = logits - logits.max(axis=1, keepdims=True)
        e = _kernels.libm_expf(np.ascontiguousarray(shifted))
        total = _rows_in_order(e)
        log_total = _kernels.libm_logf(np.ascontiguousarray(total))
        # a zero label's term is skipped (2.10 adds 0 * -inf = NaN for a -inf logit, a masked class)
        loss = -_rows_in_order(np.where(labels != 0, labels * (shifted - log_total[:, None]), np.float32(0)))
        return loss, e / total[:, None] - labels


def _check_labels(labels, classes):
    """2.10's errors for a label out of [0, classes) (2.10 lets a label equal to ``classes`` read past the row)."""
    low, high = np.flatnonzero(labels < 0), np.flatnonzero(labels >= classes)
    if low.size:
        raise MSRuntimeError(f"For 'SparseSoftmaxCrossEntropyWithLogits' got error label! label[index] must >= 0, "
                             f"but got  index = {low[0]} label[index] = {labels[low[0]]}")
    if high.size:
        raise MSRuntimeError(f"For 'SparseSoftmaxCrossEntropyWithLogits' got error label! label[index] must < "
                             f"class_num, but got index = {high[0]} label[index] = {labels[high[0]]} and "
                             f"class_num = {classes}")


@fits_out
def _sparse_softmax_cross_entropy(prim, logits, labels, out=None):
    (logits,) = _as_float(logits)
    labels = np.asarray(labels, order="C")
    n = logits.shape[0] if logits.ndim == 2 else 0
    if labels.shape == (n,) and n:
        _check_labels(labels, logits.shape[1])
    if logits.dtype != _F32 or n == 0 or labels.shape != (n,):
        return _kernels.sparse_softmax_cross_entropy(logits, labels, prim.is_grad)
    p = _softmax_rows_f32(logits)
    rows = np.arange(n)
    if prim.is_grad:
        share = np.float32(1.0 / n)
        grad = p * share
        grad[rows, labels] -= share
        return grad
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = _kernels.libm_logf(np.ascontiguousarray(p[rows, labels]))
    return np.asarray(-np.cumsum(logs, dtype=np.float32)[-1] / np.float32(n))


KERNELS = {
    "SoftmaxCrossEntropyWithLogits": _softmax_cross_entropy,
    "SparseSoftmaxCrossEntropyWithLogits": _sparse_softmax_cross_entropy,
}
