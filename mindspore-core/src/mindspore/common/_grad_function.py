"""MindSpore's private ``mindspore.common._grad_function`` path of :class:`_Function` (custom autograd functions),
which MindFormers imports by it; the class lives in :mod:`mindspore._autodiff.function`."""
from mindspore._autodiff.function import _Function  # noqa: F401

__all__ = ["_Function"]
