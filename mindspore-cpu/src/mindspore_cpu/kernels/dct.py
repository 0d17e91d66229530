"""CPU kernels of ``mindspore/ops/_defs/dct.py`` (``DCT``, ``IDCT``, ``DCTN``, ``IDCTN``): the orthonormal
type II transform and its inverse through ``scipy.fft`` (pocketfft), which pads or truncates to ``n``/``s``
itself; each result is cast to the inferred dtype."""
import functools

import numpy as np


@functools.cache
def _scipy_fft():
    import scipy.fft

    return scipy.fft


def _nd_axes(shape, s, axes):
    if axes is None:
        axes = tuple(range(len(shape))) if s is None else tuple(range(len(shape) - len(s), len(shape)))
    return tuple(axes) if isinstance(axes, (tuple, list)) else (axes,)


def _work(x, out):
    x = np.asarray(x)
    return x if x.dtype.kind in "fc" and x.dtype != np.float16 else x.astype(out.dtype.to_numpy())


def _one(name):
    def kernel(prim, x, type_, n, axis, norm, out=None):
        fn = getattr(_scipy_fft(), name)
        return np.ascontiguousarray(fn(_work(x, out), type=2, n=n, axis=axis, norm="ortho")).astype(
            out.dtype.to_numpy(), copy=False)
    return kernel


def _many(name):
    def kernel(prim, x, type_, s, axes, norm, out=None):
        x = _work(x, out)
        axes = _nd_axes(x.shape, s, axes)
        s = None if s is None else (tuple(s) if isinstance(s, (tuple, list)) else (s,))
        fn = getattr(_scipy_fft(), name)
        return np.ascontiguousarray(fn(x, type=2, s=s, axes=axes, norm="ortho")).astype(
            out.dtype.to_numpy(), copy=False)
    return kernel


KERNELS = {"DCT": _one("dct"), "IDCT": _one("idct"), "DCTN": _many("dctn"), "IDCTN": _many("idctn")}
