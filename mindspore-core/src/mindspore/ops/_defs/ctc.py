"""Connectionist temporal classification (Graves et al., 2006): ``CTCLossV2``, its gradient ``CTCLossV2Grad``,
and ``CTCGreedyDecoder``.

``CTCLossV2(blank, reduction, zero_infinity)(log_probs, targets, input_lengths, target_lengths)`` takes
``log_probs`` (T, N, C) (log-softmax outputs), padded ``targets`` (N, S) and the lengths, and gives the
per-sample negative log-likelihood (N,) and the forward variables ``log_alpha`` (N, T, 2S + 1) over the
blank-extended targets (``-inf`` where unreachable). Its gradient is PyTorch's and MindSpore's: for
``t < input_length``, ``exp(log_probs) - exp(logsumexp_{s: l'_s = c}(alpha + beta) + nll - log_probs)``, times
the loss gradient; it equals the derivative through a log-softmax in front (the usual use), since the
posteriors of a frame sum to 1. ``zero_infinity`` turns infinite losses (targets that cannot fit the input)
and their gradients into zeros. The reduction of ``ops.ctc_loss`` happens in the functional form.

``CTCGreedyDecoder(merge_repeated=True)(inputs, sequence_length)``: the best path of ``inputs`` (T, N, C)
(blank = C - 1), merged and without blanks, as a sparse tensor: ``(indices (K, 2), values (K,), shape (2,),
log_probability (N, 1))``, ``K`` known when it runs. Kernels live in the backends' ``kernels/ctc.py``.
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

_FLOATS = (mstype.float32, mstype.float64)
_INDEX = (mstype.int32, mstype.int64)


def _check_lengths(op, log_probs, targets, input_lengths, target_lengths):
    rules.check_rank(op, "log_probs", log_probs, 3)
    rules.check_rank(op, "targets", targets, 2)
    n = log_probs[1]
    for name, shape in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        rules.check_rank(op, name, shape, 1)
        if shape[0] != n and -1 not in (shape[0], n):
            raise MSValueError(f"For '{op}', the length of '{name}' must be the batch size {n}, but got {shape[0]}.")
    if targets[0] != n and -1 not in (targets[0], n):
        raise MSValueError(f"For '{op}', targets.shape[0] must be the batch size {n}, but got {targets[0]}.")


class CTCLossV2(Primitive):
    """``CTCLossV2(blank=0, reduction='none', zero_infinity=False)(log_probs, targets, input_lengths,
    target_lengths)``: ``(neg_log_likelihood (N,), log_alpha (N, T, 2S+1))``."""

    @prim_attr_register
    def __init__(self, blank=0, reduction="none", zero_infinity=False):
        rules.check_int(self.name, "blank", blank)
        if reduction not in ("none", "mean", "sum"):
            raise MSValueError(f"For '{self.name}', the 'reduction' must be 'none', 'mean' or 'sum', but got "
                               f"{reduction!r}.")
        rules.check_bool(self.name, "zero_infinity", zero_infinity)

    def infer_shape(self, log_probs, targets, input_lengths, target_lengths):
        _check_lengths(self.name, log_probs, targets, input_lengths, target_lengths)
        if not 0 <= self.blank < log_probs[2]:
            raise MSValueError(f"For '{self.name}', the 'blank' must be in [0, {log_probs[2]}), but got {self.blank}.")
        return (log_probs[1],), (log_probs[1], log_probs[0], 2 * targets[1] + 1)

    def infer_dtype(self, log_probs, targets, input_lengths, target_lengths):
        rules.check_dtype_in(self.name, "log_probs", log_probs, _FLOATS)
        for name, d in (("targets", targets), ("input_lengths", input_lengths), ("target_lengths", target_lengths)):
            rules.check_dtype_in(self.name, name, d, _INDEX)
        return log_probs, log_probs

    def bprop(self, log_probs, targets, input_lengths, target_lengths, out, dout):
        op = self._grad_prim(CTCLossV2Grad, self.blank, self.zero_infinity)
        grad = op(dout[0], log_probs, targets, input_lengths, target_lengths, out[0], out[1])
        return grad, None, None, None


class CTCLossV2Grad(Primitive):
    """``CTCLossV2``'s gradient for ``log_probs``: ``(dout, log_probs, targets, input_lengths, target_lengths,
    neg_log_likelihood, log_alpha) -> (T, N, C)``."""

    @prim_attr_register
    def __init__(self, blank=0, zero_infinity=False):
        rules.check_int(self.name, "blank", blank)

    def infer_shape(self, dout, log_probs, targets, input_lengths, target_lengths, nll, log_alpha):
        return tuple(log_probs)

    def infer_dtype(self, dout, log_probs, targets, input_lengths, target_lengths, nll, log_alpha):
        return log_probs

    bprop = NON_DIFFERENTIABLE


class CTCGreedyDecoder(Primitive):
    """``CTCGreedyDecoder(merge_repeated=True)(inputs, sequence_length)``: the greedy (best-path) decoding of
    ``inputs`` (T, N, C) as ``(decoded_indices, decoded_values, decoded_shape, log_probability)``."""

    @prim_attr_register
    def __init__(self, merge_repeated=True):
        rules.check_bool(self.name, "merge_repeated", merge_repeated)

    def infer_shape(self, inputs, sequence_length):
        rules.check_rank(self.name, "inputs", inputs, 3)
        rules.check_rank(self.name, "sequence_length", sequence_length, 1)
        if sequence_length[0] != inputs[1] and -1 not in (sequence_length[0], inputs[1]):
            raise MSValueError(f"For '{self.name}', the length of 'sequence_length' must be inputs.shape[1] = "
                               f"{inputs[1]}, but got {sequence_length[0]}.")
        return (-1, 2), (-1,), (2,), (inputs[1], 1)

    def infer_dtype(self, inputs, sequence_length):
        rules.check_dtype_in(self.name, "inputs", inputs, _FLOATS)
        if sequence_length != mstype.int32:
            raise MSTypeError(f"For '{self.name}', the 'sequence_length' must be an int32 tensor, but got "
                              f"{sequence_length}.")
        return mstype.int64, mstype.int64, mstype.int64, inputs

    bprop = NON_DIFFERENTIABLE


PRIMITIVES = [CTCLossV2, CTCLossV2Grad, CTCGreedyDecoder]
