"""Loss primitives: the fused softmax cross-entropies.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop``.
Kernels live in the backends' ``kernels/loss.py`` (one fused pass per row: max, log-sum-exp, loss
and gradient).

Gradients. With ``p = softmax(x)`` and ``lse = logsumexp(x)`` per row:

* ``SoftmaxCrossEntropyWithLogits(x, y) = (loss, backprop)``, ``loss = sum(y * (lse - x))``,
  ``backprop = p - y``. For cotangents ``(g0, g1)``: ``dx = g0 * backprop + p * (g1 - sum(g1 * p))``
  and ``dy = -g1``: as in MindSpore 2.10, the loss gives the labels no gradient (its bprop treats them as
  constants: ``grad`` with ``get_all=True`` gives zeros there, not ``-g0 * log_softmax(x)``). ``p`` is
  recovered as ``backprop + y``, from the primitive itself, so every order of gradient stays inside this
  family plus elementwise ops and sums. (MindSpore also ignores ``g1``; we keep its terms, which only matter
  when the ``backprop`` output itself is differentiated, as in a gradient of a gradient.)
* ``SparseSoftmaxCrossEntropyWithLogits(is_grad=False)(x, labels)`` is the mean loss; its gradient
  is the ``is_grad=True`` form, ``(p - one_hot(labels)) / N``, whose own gradient is
  ``(p * (g - sum(g * p))) / N`` with ``p`` taken from the dense primitive with zero labels.
"""
from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import Primitive, prim_attr_register


def _softmax_vjp(p, g):
    """``J_softmax^T g`` for row-wise softmax ``p``: ``p * (g - sum(g * p, -1))``."""
    return fops.mul(p, fops.sub(g, fops.reduce_sum(fops.mul(g, p), -1, keep_dims=True)))


# --- SoftmaxCrossEntropyWithLogits ------------------------------------------------------------
class SoftmaxCrossEntropyWithLogits(Primitive):
    """``SoftmaxCrossEntropyWithLogits()(logits, labels)``: ``(loss, backprop)`` for (N, C) logits and
    dense (e.g. one-hot) labels; ``loss`` is per sample, shape (N,)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["features", "labels"], outputs=["loss", "backprop"])

    def infer_shape(self, logits, labels):
        rules.check_rank(self.name, "logits", logits, 2)
        rules.check_rank(self.name, "labels", labels, 2)
        rules.check_same_shape(self.name, ("logits", "labels"), (logits, labels))
        return (logits[0],), tuple(logits)

    def infer_dtype(self, logits, labels):
        rules.check_float(self.name, "logits", logits)
        rules.check_float(self.name, "labels", labels)
        dtype = rules.check_same_dtype(self.name, ("logits", "labels"), (logits, labels))
        return dtype, dtype

    def bprop(self, logits, labels, out, dout):
        backprop = out[1]
        g0 = fops.reshape(dout[0], (-1, 1))
        p = fops.add(backprop, labels)
        d_logits = fops.add(fops.mul(g0, backprop), _softmax_vjp(p, dout[1]))
        return d_logits, fops.neg(dout[1])    # the loss part: zeros; backprop = p - labels: -g1


# --- SparseSoftmaxCrossEntropyWithLogits ------------------------------------------------------
class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """``SparseSoftmaxCrossEntropyWithLogits(is_grad=False)(logits, labels)``: the mean softmax cross-entropy
    of (N, C) logits with int32/int64 class indices (N,) (a 0-d tensor), or with ``is_grad=True`` its
    gradient with respect to ``logits``."""

    @prim_attr_register
    def __init__(self, is_grad=False):
        rules.check_bool(self.name, "is_grad", is_grad)
        self.init_prim_io_names(inputs=["features", "labels"], outputs=["output"])

    def infer_shape(self, logits, labels):
        rules.check_rank(self.name, "logits", logits, 2)
        rules.check_rank(self.name, "labels", labels, 1)
        if labels[0] != logits[0]:
            raise MSValueError(f"For '{self.name}', the shape of 'labels' must be ({logits[0]},) to match "
                               f"'logits' {tuple(logits)}, but got {tuple(labels)}.")
        return tuple(logits) if self.is_grad else ()

    def infer_dtype(self, logits, labels):
        rules.check_float(self.name, "logits", logits)
        rules.check_dtype_in(self.name, "labels", labels, (mstype.int32, mstype.int64))
        return logits

    def bprop(self, logits, labels, out, dout):
        if self.is_grad:
            p = self._grad_prim(SoftmaxCrossEntropyWithLogits)(logits, fops.zeros_like(logits))[1]
            return fops.div(_softmax_vjp(p, dout), logits.shape[0]), None
        grad = self._grad_prim(SparseSoftmaxCrossEntropyWithLogits, is_grad=True)(logits, labels)
        return fops.mul(grad, dout), None


PRIMITIVES = [SoftmaxCrossEntropyWithLogits, SparseSoftmaxCrossEntropyWithLogits]
