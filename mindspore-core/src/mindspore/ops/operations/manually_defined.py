"""``mindspore.ops.operations.manually_defined``: the Primitive classes MindSpore 2.10 keeps in this module that this build has
(the same objects as ``mindspore.ops.operations``; the list is :mod:`mindspore.ops.operations._layout`)."""
import sys

from mindspore.ops.operations._layout import export as _export

from mindspore.ops.function.nn_prims_func import FlashAttentionScore  # noqa: E402 - a call-only primitive, 2.10's

__all__ = _export(globals(), "manually_defined") + ["FlashAttentionScore"]

# 2.10 defines these classes in a submodule, ``manually_defined.ops_def``, and re-exports them here; code written
# for 2.10 reaches them (or sets attributes) through that name (MindNLP 0.4.1 at import:
# ``manually_defined.ops_def.infer_value_for_BroadcastTo = ...``, a graph-mode constant-folding hook 2.10 calls by
# name and nothing here calls). Here the submodule is this module itself.
ops_def = sys.modules[__name__]
