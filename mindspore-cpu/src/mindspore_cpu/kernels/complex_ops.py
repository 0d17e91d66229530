"""CPU kernels of ``mindspore/ops/_defs/complex_ops.py`` (``Complex``, ``Real``, ``Imag``, ``Conj``, ``Angle``,
``ComplexAbs``), in NumPy; each returns the inferred dtype."""
import numpy as np


def _complex(prim, real, imag, out=None):
    dt = out.dtype.to_numpy()
    real, imag = np.asarray(real), np.asarray(imag)
    res = np.empty(np.broadcast_shapes(real.shape, imag.shape), dt)
    res.real, res.imag = real, imag
    return res


def _part(fn):
    def kernel(prim, x, out=None):
        return np.array(fn(np.asarray(x)), dtype=out.dtype.to_numpy() if out is not None else None, order="C")
    return kernel


KERNELS = {
    "Complex": _complex, "Real": _part(np.real), "Imag": _part(np.imag), "Conj": _part(np.conj),
    "Angle": _part(np.angle), "ComplexAbs": _part(np.abs),
}
