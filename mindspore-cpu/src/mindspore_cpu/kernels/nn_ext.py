"""CPU kernels of ``mindspore/ops/_defs/nn_ext.py`` (element-wise losses and image resizing): mindspore-array-kernels'
``nn_ext`` family bound to NumPy (the GPU backend binds the same source to CuPy), with float16 computing in float32
(and cast back to float16: the losses and resize gradients used to return float32 for float16 inputs, which the
runtime refused), and the resize gradients' scatter by ``np.add.at`` (in order, as 2.10's CPU kernels add).
"""
import numpy as np

from mindspore_array_kernels import bind
from mindspore_cpu.kernels._half import wide as _wide

KERNELS = bind("nn_ext", globals(), xp=np, dev=np.asarray, host=np.asarray, wide=_wide, add_at=np.add.at)["KERNELS"]

# --- float32 BinaryCrossEntropy and KLDivLoss as 2.10's CPU kernels compute them, bit for bit -------------------------
# Both take the C library's logf of each value (``_kernels.glibc_logf_f32``: NumPy's float32 log is another
# approximation); other dtypes keep the shared kernels.
_F32 = np.dtype(np.float32)
_SHARED_LOSSES = dict(KERNELS)   # the family's kernels, before the overrides below


def _pairwise_total(t):
    """2.10's BinaryCrossEntropy reduction of ``t`` (float32, consumed): halving strides, the odd one out added to
    ``t[0]``."""
    n = t.size
    if n % 2 == 1:
        t[0] += t[n - 1]
    stride = n // 2
    while stride > 0:
        t[:stride] += t[stride:2 * stride]
        if stride > 2 and stride % 2 == 1:
            t[0] += t[stride - 1]
        stride //= 2
    return t[0]


def _c_order(a):
    return a if a.flags.c_contiguous else np.ascontiguousarray(a)      # (0-d stays 0-d)


def _binary_cross_entropy(prim, logits, labels, weight=None, out=None):
    operands = (logits, labels) if weight is None else (logits, labels, weight)
    if any(a.dtype != _F32 or a.shape != logits.shape for a in operands) or logits.size == 0:
        return _SHARED_LOSSES["BinaryCrossEntropy"](prim, logits, labels, weight, out=out)
    from mindspore_cpu.kernels._native import _kernels

    loss = _kernels.bce_f32(*(_c_order(a) for a in operands))
    if prim.reduction == "none":
        return np.asarray(loss, _F32)
    total = _pairwise_total(np.array(loss, _F32).reshape(-1))
    return np.asarray(total / np.float32(loss.size) if prim.reduction == "mean" else total, _F32)


def _kl_div(prim, logits, labels, out=None):
    if not (logits.dtype == labels.dtype == _F32 and logits.shape == labels.shape):
        return _SHARED_LOSSES["KLDivLoss"](prim, logits, labels, out=out)
    from mindspore_cpu.kernels._native import _kernels

    loss = (_kernels.glibc_logf_f32(_c_order(labels)) - logits) * labels
    loss = np.where(np.isnan(loss), np.float32(0), loss)   # 2.10 zeroes every NaN (a target <= 0 or NaN)
    if prim.reduction == "none":
        return np.asarray(loss, _F32)
    total = np.float32(loss.sum(dtype=np.float64))          # one double accumulator, as 2.10's
    if prim.reduction == "sum":
        return np.asarray(total)
    count = loss.size if prim.reduction == "mean" else (logits.shape[0] if logits.ndim else 1)
    return np.asarray(total / np.float32(count), _F32)


KERNELS["BinaryCrossEntropy"] = _binary_cross_entropy
KERNELS["KLDivLoss"] = _kl_div


def _full_f32(a, shape):
    """``a`` (None: ones) broadcast to ``shape`` as a C-contiguous float32 array."""
    if a is None:
        return np.ones(shape, _F32)
    return np.ascontiguousarray(np.broadcast_to(np.asarray(a), shape))


def _bce_with_logits_cpu(prim, logits, label, weight, pos_weight, out=None):
    """float32 BCEWithLogitsLoss as MindSpore 2.10's CPU kernel computes each loss, bit for bit
    (``_csrc/activation_nnacl.cpp``): nnacl's BCEWithLogitLoss over one span per thread, or, where ``weight`` or
    ``pos_weight`` has another shape than the label, 2.10's own scalar loop; then the family's reduction (2.10 sums
    per thread with nnacl's lanes, not reproduced). The other dtypes and shapes the family's."""
    x = np.asarray(logits)
    arrays = (label, weight, pos_weight)
    if x.dtype != _F32 or x.size == 0 or np.shape(label) != x.shape or \
            any(a is not None and np.asarray(a).dtype != _F32 for a in arrays):
        return _SHARED_LOSSES["BCEWithLogitsLoss"](prim, logits, label, weight, pos_weight, out=out)
    from mindspore_cpu.kernels._native import _kernels
    broadcast = any(a is not None and np.shape(a) != x.shape for a in (weight, pos_weight))
    loss = _kernels.bce_with_logits_f32(np.ascontiguousarray(x), np.ascontiguousarray(label),
                                        _full_f32(weight, x.shape), _full_f32(pos_weight, x.shape), broadcast)
    if prim.reduction == "mean":
        return np.asarray(np.mean(loss))
    if prim.reduction == "sum":
        return np.asarray(np.sum(loss))
    return loss


KERNELS["BCEWithLogitsLoss"] = _bce_with_logits_cpu
