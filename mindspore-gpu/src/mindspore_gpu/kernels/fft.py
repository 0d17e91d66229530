"""GPU kernels of ``mindspore/ops/_defs/fft.py`` (``FFTN``, ``RFFTN``, ``IRFFTN``) on ``cupy.fft`` (cuFFT);
each result is cast to the inferred dtype."""
import cupy
import cupy.fft

from mindspore_gpu.kernels._common import dev


def _fftn(prim, x, *, out):
    fn = cupy.fft.ifftn if prim.inverse else cupy.fft.fftn
    return cupy.ascontiguousarray(fn(dev(x), s=prim.sizes, axes=prim.axes, norm=prim.norm)).astype(
        out.dtype.to_numpy(), copy=False)


def _rfftn(prim, x, *, out):
    return cupy.ascontiguousarray(cupy.fft.rfftn(dev(x), s=prim.sizes, axes=prim.axes, norm=prim.norm)).astype(
        out.dtype.to_numpy(), copy=False)


def _irfftn(prim, x, *, out):
    return cupy.ascontiguousarray(cupy.fft.irfftn(dev(x), s=prim.sizes, axes=prim.axes, norm=prim.norm)).astype(
        out.dtype.to_numpy(), copy=False)


KERNELS = {"FFTN": _fftn, "RFFTN": _rfftn, "IRFFTN": _irfftn}
