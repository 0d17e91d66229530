"""GPU kernels of ``mindspore/ops/_defs/dct.py`` (``DCT``, ``IDCT``, ``DCTN``, ``IDCTN``): the orthonormal DCT-II
as a product with its matrix ``C`` (``C[k, j] = sqrt(2/N) cos(pi k (2j + 1) / 2N)``, row 0 scaled by
``1/sqrt(2)``) along each axis on cuBLAS, the inverse with ``C^T`` (``C`` is orthogonal); the signal is truncated
or zero-padded to ``n``/``s`` first. Complex input is transformed as it is (``C`` is real). Each result is cast to
the inferred dtype."""
import math

import cupy

from mindspore_gpu.kernels._common import dev


def _matrix(n, dtype):
    k = cupy.arange(n, dtype=cupy.float64)[:, None]
    j = cupy.arange(n, dtype=cupy.float64)[None, :]
    c = cupy.cos(math.pi * k * (2 * j + 1) / (2 * n)) * math.sqrt(2.0 / n)
    c[0] = c[0] / math.sqrt(2.0)
    return c.astype(dtype)


def _fit(x, axis, n):
    size = x.shape[axis]
    if size > n:
        return cupy.take(x, cupy.arange(n), axis=axis)
    if size < n:
        widths = [(0, 0)] * x.ndim
        widths[axis] = (0, n - size)
        return cupy.pad(x, widths)
    return x


def _work(x, out):
    x = dev(x)
    want = out.dtype.to_numpy()
    return x.astype(want) if x.dtype != want else x


def _transform(x, axes, sizes, inverse):
    real = cupy.float64 if x.dtype in (cupy.float64, cupy.complex128) else cupy.float32
    for axis, n in zip(axes, sizes):
        axis = axis % x.ndim
        n = x.shape[axis] if n is None else n
        c = _matrix(n, real)
        moved = cupy.moveaxis(_fit(x, axis, n), axis, -1)
        x = cupy.moveaxis(cupy.matmul(moved, c if inverse else c.T), -1, axis)
    return cupy.ascontiguousarray(x)


def _one(inverse):
    def kernel(prim, x, type_, n, axis, norm, *, out):
        return _transform(_work(x, out), (axis,), (n,), inverse).astype(out.dtype.to_numpy(), copy=False)
    return kernel


def _many(inverse):
    def kernel(prim, x, type_, s, axes, norm, *, out):
        x = _work(x, out)
        if axes is None:
            axes = tuple(range(x.ndim)) if s is None else tuple(range(x.ndim - len(s), x.ndim))
        axes = tuple(axes) if isinstance(axes, (tuple, list)) else (axes,)
        sizes = (None,) * len(axes) if s is None else (tuple(s) if isinstance(s, (tuple, list)) else (s,))
        return _transform(x, axes, sizes, inverse).astype(out.dtype.to_numpy(), copy=False)
    return kernel


KERNELS = {"DCT": _one(False), "IDCT": _one(True), "DCTN": _many(False), "IDCTN": _many(True)}
