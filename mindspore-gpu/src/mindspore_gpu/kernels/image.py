"""GPU kernels of ``mindspore/ops/_defs/image.py`` (detection, colour, resizing, sampling, patches, windows):
mindspore-array-kernels' ``image`` family bound to CuPy (the CPU backend binds the same source to NumPy); the
gradients' scatter is ``_common.scatter_add``, CUDA's atomic add."""
import cupy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import scatter_add

KERNELS = bind("image", globals(), xp=cupy, scatter_add=scatter_add)["KERNELS"]
