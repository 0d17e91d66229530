"""GPU kernels on CuPy, one module per primitive family (the CPU backend's families: ``nn_ext`` holds
the losses and resizing of the nn family, ``pooling`` the pooling primitives of the conv family).

Each module has ``KERNELS = {primitive_name: fn}``; ``fn(prim, *inputs, out)`` gets CuPy arrays for
tensors (a host array is moved to the device first, so tensors created before the GPU target was
selected still work), Python values for constants, and the inferred output spec ``out``, and returns
a CuPy array (or a tuple of them) of exactly that shape and dtype. Together the tables cover every
primitive the CPU backend has a kernel for.

The modules import CuPy (and ``cupyx``) at the top: import them only through :func:`families`, after
checking that CuPy imports. What is CuPy-only (fused ``ElementwiseKernel``s, atomic scatter-add, cuRAND
streams) sits behind the helpers of :mod:`._common`, each with a plain path, so the tables also run
with NumPy standing in for CuPy (the test suite's stand-in, ``tests/cupy_sim.py``).
"""


def families():
    """The kernel modules (imports CuPy)."""
    from mindspore_gpu.kernels import image
    from mindspore_gpu.kernels import custom
    from mindspore_gpu.kernels import array_prims
    from mindspore_gpu.kernels import control_prims
    from mindspore_gpu.kernels import dct, linalg_scipy
    from mindspore_gpu.kernels import rnn
    from mindspore_gpu.kernels import (array, array_more, comm, complex_ops, conv, ctc, debug, deprecated, fft,
                                       indexing, linalg, linalg_more, loss, math, math_misc, math_more, math_prims,
                                       math_special, nn, nn_ext, nn_prims, optim, pooling, random, reduce, scatter,
                                       sparse, summary)
    return (image, math, math_more, math_special, math_misc, math_prims, complex_ops, fft, linalg, linalg_more, array,
            array_more, linalg_scipy, dct,
            indexing, scatter, reduce, nn, nn_ext, nn_prims, conv, pooling, loss, ctc, random, debug, comm, deprecated,
            summary, sparse, optim, custom, array_prims, control_prims, rnn)
