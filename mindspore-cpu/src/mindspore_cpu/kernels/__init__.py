"""CPU kernels, one module per primitive family (same names as ``mindspore/ops/_defs``).

Each module has ``KERNELS = {primitive_name: fn}``; ``fn(prim, *inputs, out)`` gets NumPy arrays for
tensors, Python values for constants and the inferred output spec ``out`` (a
:class:`mindspore.plugin.TensorSpec`, or a tuple of them), and returns a NumPy array (never a NumPy
scalar) or a tuple of arrays of exactly that shape and dtype (:mod:`._out` casts where a kernel
computes wider). Kernels that do not need ``out`` accept it as ``out=None``, so that they can also be
called from other kernels.
"""
import warnings

# MindSpore's kernels produce inf/NaN silently (loss scaling relies on overflowing on purpose); NumPy
# would warn. Only warnings attributed to these kernel modules are ignored, nothing else in the process.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"mindspore_cpu\.kernels\.")

from mindspore_cpu.kernels import image  # noqa: E402,I001
from mindspore_cpu.kernels import custom  # noqa: E402,I001
from mindspore_cpu.kernels import array_prims  # noqa: E402,I001
from mindspore_cpu.kernels import control_prims  # noqa: E402,I001
from mindspore_cpu.kernels import dct, linalg_scipy  # noqa: E402,I001
from mindspore_cpu.kernels import rnn  # noqa: E402,I001
from mindspore_cpu.kernels import (array, array_more, comm, complex_ops, conv, ctc, debug, deprecated,  # noqa: E402
                                   fft, indexing, linalg, linalg_more, loss, math, math_misc, math_more, math_prims,
                                   math_special, nn, nn_prims, optim, random, reduce, scatter, sparse, summary)

FAMILIES = (image, math, math_more, math_special, math_misc, math_prims, complex_ops, fft, linalg, linalg_more, array,
            array_more, linalg_scipy, dct,
            indexing, scatter, reduce, nn, nn_prims, conv, loss, ctc, random, debug, comm, deprecated, summary, sparse,
            optim, custom, array_prims, control_prims, rnn)
