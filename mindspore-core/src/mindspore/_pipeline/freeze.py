"""Freezing the weights of an inference graph: its network Parameters become constants.

An inference entry point whose weights do not change between calls (:class:`mindspore.Predictor`, as
MindSpore Lite's built models) compiles its graph with ``freeze_weights``: every weight Parameter that no
apply of the graph writes (no in-place update, no call of a graph with effects that receives it) is
replaced in every use by a Constant holding the weight's current buffer, and the graph is flagged
``frozen_weights``. The rest of the pipeline then treats the weights as the values they are: constant
folding computes what depends on weights alone, and :mod:`.fold_batchnorm` folds an inference
BatchNorm into the convolution before it (only in frozen graphs).

The weight's buffer is shared, not copied. :func:`freeze_weights` returns the (Parameter, buffer) pairs it
froze; the compiled graph is stale once a weight holds another buffer (``set_data``, ``assign_value``,
``update_parameters`` replace it), so the next call compiles again with the new values. A write into a
weight's NumPy view in place is not seen: as with a Lite model, the values are read when the graph is
built.
"""
from __future__ import annotations

from mindspore._infer.abstract import AbstractTensor
from mindspore._ir.nodes import Constant
from mindspore._pipeline._util import graphs, is_effectful_apply, substitute
from mindspore._runtime import backend as _backend
from mindspore.common.tensor import Tensor

__all__ = ["freeze_weights", "FROZEN"]

#: The flag a frozen graph carries in ``graph.flags``.
FROZEN = "frozen_weights"


def freeze_weights(root):
    """Replace the unwritten weight Parameters of ``root`` (a typed graph) by constants; returns the
    ``(Parameter, buffer)`` pairs frozen."""
    every = list(graphs(root))
    written = set()
    for g in every:
        for node in g.nodes:
            if is_effectful_apply(node):
                written.update(x for x in node.inputs[1:])
    mapping, frozen = {}, []
    for p in root.params:
        weight = p.weight
        if weight is None or p in written or not isinstance(p.abstract, AbstractTensor):
            continue
        _backend.adopt(weight)   # a weight made before set_device switched the target: frozen on this device
        buffer = weight._buffer()
        c = Constant(Tensor._make(buffer, weight.dtype), p.loc)
        c.abstract = p.abstract
        mapping[p] = c
        frozen.append((weight, buffer))
    if mapping:
        for g in every:
            substitute(g, mapping)
    root.flags[FROZEN] = True
    return frozen
