"""CPU kernels of ``mindspore/ops/_defs/math_more.py`` (``Xdivy``, ``MulNoNan``, ``Rint``, ``Inv``, shifts):
mindspore-array-kernels' ``math_more`` family bound to NumPy (the GPU backend binds the same source to CuPy). The
binary kernels compute in the inferred output dtype (``out.dtype``): the operands are cast to it first.
"""
import numpy as np

from mindspore_array_kernels import bind

KERNELS = bind("math_more", globals(), xp=np, dev=np.asarray)["KERNELS"]
