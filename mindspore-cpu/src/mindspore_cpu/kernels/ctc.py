"""CPU kernels of ``mindspore/ops/_defs/ctc.py`` (``CTCLossV2``, ``CTCLossV2Grad``, ``CTCGreedyDecoder``):
mindspore-array-kernels' ``ctc`` family bound to NumPy (the GPU backend binds the same source to CuPy)."""
import numpy

from mindspore_array_kernels import bind

KERNELS = bind("ctc", globals(), xp=numpy, dev=numpy.asarray, host=numpy.asarray)["KERNELS"]
