"""CPU kernels of ``mindspore/ops/_defs/fft.py`` (``FFTN``, ``RFFTN``, ``IRFFTN``) on ``numpy.fft`` (pocketfft);
each result is cast to the inferred dtype (complex64/float32 stay single precision)."""
import numpy as np


def _fftn(prim, x, out=None):
    fn = np.fft.ifftn if prim.inverse else np.fft.fftn
    return np.ascontiguousarray(fn(np.asarray(x), s=prim.sizes, axes=prim.axes, norm=prim.norm)).astype(
        out.dtype.to_numpy(), copy=False)


def _rfftn(prim, x, out=None):
    return np.ascontiguousarray(np.fft.rfftn(np.asarray(x), s=prim.sizes, axes=prim.axes, norm=prim.norm)).astype(
        out.dtype.to_numpy(), copy=False)


def _irfftn(prim, x, out=None):
    return np.ascontiguousarray(np.fft.irfftn(np.asarray(x), s=prim.sizes, axes=prim.axes, norm=prim.norm)).astype(
        out.dtype.to_numpy(), copy=False)


KERNELS = {"FFTN": _fftn, "RFFTN": _rfftn, "IRFFTN": _irfftn}
