"""CPU kernels of ``mindspore/ops/_defs/image.py`` (detection, colour, resizing, sampling, patches, windows):
mindspore-array-kernels' ``image`` family bound to NumPy (the GPU backend binds the same source to CuPy)."""
import numpy

from mindspore_array_kernels import bind


def _scatter_add(target, idx, vals):
    numpy.add.at(target, idx, vals)
    return target


KERNELS = bind("image", globals(), xp=numpy, scatter_add=_scatter_add)["KERNELS"]
