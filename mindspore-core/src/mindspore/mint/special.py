"""``mindspore.mint.special``: special functions with PyTorch's names."""
import mindspore.ops as ops
from mindspore.ops import erfc, exp2, expm1, log1p, sinc  # noqa: F401

__all__ = ["erfc", "exp2", "expm1", "log1p", "log_softmax", "round", "sinc"]


def log_softmax(input, dim=None, *, dtype=None):
    """``log(softmax(input))`` along ``dim`` (the last dimension when None), computed stably."""
    from mindspore.mint.nn.functional import log_softmax as _log_softmax
    return _log_softmax(input, dim, dtype=dtype)


def round(input):
    """Rounds half to even."""
    return ops.round(input)
