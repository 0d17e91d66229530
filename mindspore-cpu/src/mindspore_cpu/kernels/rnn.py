"""CPU kernels of ``mindspore/ops/_defs/rnn.py`` (``RNNDirection``, ``RNNDirectionGrad``): mindspore-array-kernels'
``rnn`` family bound to NumPy (the GPU backend binds the same source to CuPy)."""
import numpy

from mindspore_array_kernels import bind

KERNELS = bind("rnn", globals(), xp=numpy, dev=numpy.asarray)["KERNELS"]
