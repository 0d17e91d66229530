"""``mindspore.numpy``: NumPy's API on MindSpore tensors.

Functions take array-likes (Tensor, Python scalars and sequences, NumPy arrays) and return
``mindspore.Tensor``. Defaults follow MindSpore, not NumPy: Python ints become Int32 and floats
Float32; promotion is MindSpore's (a float of any width beats any int). Everything is written with
``mindspore.ops``, so results are differentiable and the functions work inside ``construct`` and
``@jit`` (GRAPH_MODE), except the few whose output shape depends on values (``unique``, ``where``
with one argument, ``argwhere``, set operations...), which need PYNATIVE mode as in MindSpore.

The families mirror MindSpore's modules: :mod:`.array_creations`, :mod:`.array_ops`,
:mod:`.math_ops`, :mod:`.logic_ops`, :mod:`.dtypes`.
"""
from mindspore.numpy import array_creations, array_ops, dtypes, logic_ops, math_ops  # noqa: F401
from mindspore.numpy import fft  # noqa: F401 - mindspore.numpy.fft, as MindSpore has it
from mindspore.numpy.array_creations import *  # noqa: F401,F403
from mindspore.numpy.array_ops import *  # noqa: F401,F403
from mindspore.numpy.dtypes import *  # noqa: F401,F403
from mindspore.numpy.logic_ops import *  # noqa: F401,F403
from mindspore.numpy.math_ops import *  # noqa: F401,F403

__all__ = (array_creations.__all__ + array_ops.__all__ + dtypes.__all__ + logic_ops.__all__ + math_ops.__all__)
