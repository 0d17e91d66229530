"""CPU kernels of ``mindspore/ops/_defs/math_misc.py`` (``Dense``, ``Cross``, ``Ger``, ``Logit``, ``GLU``, ``Cdist``,
``Renorm``, ``SquareSumAll``, ``CumulativeLogsumexp``, ``Eps``, the counts and histograms, the sorted searches,
``Bucketize``, ``ApproximateEqual``, ``LogSpace``): mindspore-array-kernels' ``math_misc`` family bound to NumPy (the
GPU backend binds the same source to CuPy), with float16 computing in float32, ``numpy.finfo`` and
``ufunc.accumulate`` for ``CumulativeLogsumexp``'s running ``logaddexp``.
"""
import numpy as np

from mindspore_array_kernels import bind
from mindspore_cpu.kernels._half import wide as _wide


def _itself(x):
    return x


def _scan(op, a):
    """The inclusive prefix ``op`` along axis 0."""
    return op.accumulate(a, axis=0)


KERNELS = bind("math_misc", globals(), xp=np, dev=np.asarray, host=np.asarray, scalar=_itself, wide=_wide,
               finfo=np.finfo, sortable=_itself, scan=_scan)["KERNELS"]
