"""GPU kernels of ``mindspore/ops/_defs/rnn.py`` (``RNNDirection``, ``RNNDirectionGrad``): mindspore-array-kernels'
``rnn`` family bound to CuPy (the CPU backend binds the same source to NumPy)."""
import cupy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev

KERNELS = bind("rnn", globals(), xp=cupy, dev=dev)["KERNELS"]
