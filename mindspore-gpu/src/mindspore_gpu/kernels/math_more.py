"""GPU kernels of ``mindspore/ops/_defs/math_more.py`` (``Xdivy``, ``MulNoNan``, ``Rint``, ``Inv``, shifts):
mindspore-array-kernels' ``math_more`` family bound to CuPy (the CPU backend binds the same source to NumPy), with
``_common.dev`` (no copy for a CuPy array already on the device). As in ``kernels/math.py``, the binary kernels
compute in the inferred output dtype (``out.dtype``): the operands are cast to it first (a Python scalar becomes a
0-d device array of it), so CuPy never promotes again.
"""
import cupy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev

KERNELS = bind("math_more", globals(), xp=cupy, dev=dev)["KERNELS"]
