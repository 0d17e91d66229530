"""The gradients of ``mindspore.scipy``'s operators (MindSpore 2.10's module path). Here each primitive's bprop
sits with the primitive itself (``ops/_defs/linalg_scipy.py``: ``Eigh``; ``ops/_defs/linalg_more.py``: ``Eig``,
which is not differentiated), registered once in the operator registry; this module names them."""
from mindspore.ops._defs.linalg_more import Eig  # noqa: F401
from mindspore.ops._defs.linalg_scipy import Eigh  # noqa: F401

__all__ = []
