"""``mindspore._c_expression.amp``: the mixed-precision strategy values (implemented in :mod:`mindspore.train.amp`,
where MindSpore re-exports them too)."""
from mindspore.train.amp import AmpLevel, AmpStrategy, create_amp_strategy  # noqa: F401

__all__ = ["AmpLevel", "AmpStrategy", "create_amp_strategy"]
