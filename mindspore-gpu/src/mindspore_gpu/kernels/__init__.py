"""GPU kernels on CuPy, one module per primitive family (same names as ``mindspore/ops/_defs``).

Each module has ``KERNELS = {primitive_name: fn}``; ``fn(prim, *inputs, out)`` gets CuPy arrays for
tensors (a host array is moved to the device first, so tensors created before the GPU target was
selected still work), Python values for constants, and the inferred output spec ``out``, and returns
a CuPy array (or a tuple of them) of exactly that shape and dtype.
The modules import CuPy at the top: import them only through :func:`families`, after checking
that CuPy imports.
"""


def families():
    """The kernel modules (imports CuPy)."""
    from mindspore_gpu.kernels import math
    return (math,)
