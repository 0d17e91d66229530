"""``mindspore.mint``: the PyTorch-style API of MindSpore 2.3+ (``dim``/``keepdim``, ``mint.nn.Linear``,
``mint.optim.AdamW``, ...).

The functions are thin wrappers over ``mindspore.ops`` (see :mod:`mindspore.mint._functions`), so they are
differentiable and can be called inside ``construct`` or ``@jit`` in GRAPH_MODE. Submodules: ``mint.nn``
(layers and ``mint.nn.functional``), ``mint.optim``, ``mint.linalg``, ``mint.special`` and
``mint.distributed`` (collectives; needs mindspore-parallel, imported on first use).
"""
from mindspore.mint import _functions
from mindspore.mint._functions import *  # noqa: F401,F403
# public in MindSpore's mint (dir) though not in its __all__
from mindspore.mint._extras import (addcmul, clip, equal, fix, ge, item, linspace, ones, trunc,  # noqa: F401
                                    unique)
from mindspore.mint import linalg, nn, optim, special  # noqa: F401
from mindspore.mint.nn import functional  # noqa: F401 - MindSpore's mint has it too (mint.functional.softmax)
from mindspore.mint import distributed  # noqa: F401 - imports mindspore.communication only when called

__all__ = list(_functions.__all__)
