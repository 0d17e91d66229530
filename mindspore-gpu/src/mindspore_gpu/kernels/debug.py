"""GPU kernels of the debug family (Print, FloatStatus); the collectives are in :mod:`.comm`.

``Print`` copies its tensors to the host and prints them as the CPU kernel does.
"""
import sys

import cupy
import numpy

from mindspore_gpu.kernels._common import dev

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)


def _print(prim, *inputs, out=None):
    parts = []
    for x in inputs:
        if isinstance(x, (cupy.ndarray, numpy.ndarray)):
            parts.append(str(cupy.asnumpy(x)))
        else:
            parts.append(str(x))
    sys.stdout.write("\n".join(parts) + "\n")
    sys.stdout.flush()
    return cupy.zeros((), numpy.int32)


def _float_status(prim, x, *, out):
    """[0.] when every element of ``x`` is finite, else [1.] (computed on the device, no read-back)."""
    return (~cupy.isfinite(_dev(x)).all()).astype(numpy.float32).reshape(1)


KERNELS = {
    "FloatStatus": _float_status,
    "Print": _print,
}
