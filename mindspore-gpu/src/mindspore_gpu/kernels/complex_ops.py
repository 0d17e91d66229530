"""GPU kernels of ``mindspore/ops/_defs/complex_ops.py`` (``Complex``, ``Real``, ``Imag``, ``Conj``, ``Angle``,
``ComplexAbs``) on CuPy; each returns the inferred dtype."""
import cupy

from mindspore_gpu.kernels._common import dev


def _complex(prim, real, imag, *, out):
    real, imag = dev(real), dev(imag)
    unit = cupy.asarray(1j, dtype=out.dtype.to_numpy())
    return (real + imag * unit).astype(out.dtype.to_numpy())


def _part(fn):
    def kernel(prim, x, *, out):
        return cupy.ascontiguousarray(fn(dev(x))).astype(out.dtype.to_numpy())
    return kernel


KERNELS = {
    "Complex": _complex, "Real": _part(cupy.real), "Imag": _part(cupy.imag), "Conj": _part(cupy.conj),
    "Angle": _part(cupy.angle), "ComplexAbs": _part(cupy.abs),
}
