"""CPU kernels of ``mindspore/ops/_defs/scatter.py`` (the in-place and functional scatters): mindspore-array-kernels'
``scatter`` family bound to NumPy (the GPU backend binds the same source to CuPy)."""
import numpy

from mindspore_array_kernels import bind

KERNELS = bind("scatter", globals(), xp=numpy, dev=numpy.asarray, host=numpy.asarray,
               scan_max=numpy.maximum.accumulate)["KERNELS"]
