"""SimNPU kernels of the loss family: the fused softmax cross-entropies.

Per row of the (N, C) logits ``x``: ``log_softmax = x - max(x) - log(sum(exp(x - max(x))))``;
the loss is ``-sum(labels * log_softmax)``, its gradient ``softmax(x) - labels``.
"""
import numpy as np

from mindspore.plugin import MSValueError

from ms_simnpu.kernels._util import compute_dtype, device_array, new_buffer


def _log_softmax(x):
    shifted = x - np.max(x, axis=1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))


def softmax_cross_entropy(prim, logits, labels, *, out):
    """``(loss (N,), backprop (N, C))`` for dense labels."""
    dt = compute_dtype(out[0])
    x, y = device_array(logits).astype(dt, copy=False), device_array(labels).astype(dt, copy=False)
    log_p = _log_softmax(x)
    loss_spec, backprop_spec = out
    return new_buffer(-np.sum(y * log_p, axis=1), loss_spec), new_buffer(np.exp(log_p) - y, backprop_spec)


def sparse_softmax_cross_entropy(prim, logits, labels, *, out):
    """The mean loss over the batch for class indices, or with ``is_grad`` its gradient
    ``(softmax(x) - one_hot(labels)) / N``."""
    x = device_array(logits).astype(compute_dtype(out), copy=False)
    y = device_array(labels)
    n, c = x.shape
    if y.size and (y.min() < 0 or y.max() >= c):
        raise MSValueError(f"For '{prim.name}', the 'labels' must be in [0, {c}), but got values from {y.min()} "
                           f"to {y.max()}.")
    log_p = _log_softmax(x)
    rows = np.arange(n)
    if prim.is_grad:
        grad = np.exp(log_p)
        grad[rows, y] -= 1
        return new_buffer(grad / n, out)
    return new_buffer(-np.mean(log_p[rows, y]), out)


KERNELS = {
    "SoftmaxCrossEntropyWithLogits": softmax_cross_entropy,
    "SparseSoftmaxCrossEntropyWithLogits": sparse_softmax_cross_entropy,
}
