"""GPU kernels of ``mindspore/ops/_defs/scatter.py`` (the in-place and functional scatters): mindspore-array-kernels'
``scatter`` family bound to CuPy (the CPU backend binds the same source to NumPy), with ``_common.scan`` for the
running maximum (CuPy's ``maximum`` has no ``accumulate``)."""
import cupy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev, scan


def _scan_max(a):
    return scan(cupy.maximum, a)


KERNELS = bind("scatter", globals(), xp=cupy, dev=dev, host=cupy.asnumpy, scan_max=_scan_max)["KERNELS"]
