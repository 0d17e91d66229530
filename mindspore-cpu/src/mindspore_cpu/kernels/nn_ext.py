"""CPU kernels of ``mindspore/ops/_defs/nn_ext.py`` (element-wise losses and image resizing): mindspore-array-kernels'
``nn_ext`` family bound to NumPy (the GPU backend binds the same source to CuPy), with float16 computing in float32
(and cast back to float16: the losses and resize gradients used to return float32 for float16 inputs, which the
runtime refused), and the resize gradients' scatter by ``np.add.at`` (in order, as 2.10's CPU kernels add).
"""
import numpy as np

from mindspore_array_kernels import bind
from mindspore_cpu.kernels._half import wide as _wide

KERNELS = bind("nn_ext", globals(), xp=np, dev=np.asarray, host=np.asarray, wide=_wide, add_at=np.add.at)["KERNELS"]
