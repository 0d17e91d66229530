"""GPU kernels of ``mindspore/ops/_defs/ctc.py`` (``CTCLossV2``, ``CTCLossV2Grad``, ``CTCGreedyDecoder``):
mindspore-array-kernels' ``ctc`` family bound to CuPy (the CPU backend binds the same source to NumPy); the lengths
are read back once to check them, the greedy decoder's sparse result is assembled on the device."""
import cupy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev

KERNELS = bind("ctc", globals(), xp=cupy, dev=dev, host=cupy.asnumpy)["KERNELS"]
