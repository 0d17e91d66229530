"""GPU kernels of ``mindspore/ops/_defs/random.py``: mindspore-array-kernels' ``random`` family bound to CuPy (the CPU
backend binds the same source to NumPy), with ``_common.dev`` (no copy for a CuPy array already on the device),
``_common.scalar_of`` (scalar arguments read back) and cuRAND draws through ``cupy.random.RandomState``: the
instance's device stream (:func:`._common.device_rng`), seeded once from its NumPy stream (``prim.generator()``, see
``mindspore.common.seed``) and advanced by every draw, so that with ``set_seed`` a script draws the same numbers on
every run and two calls of one primitive different ones, as on the CPU (the numbers themselves are not the CPU's); an
explicit call-time ``(seed, offset)`` draws from a fresh stream of those values (:func:`._common.fixed_rng`).

This backend's own plain draws: ``UniformReal`` and ``StandardNormal`` (Box-Muller) from a counter-based stream
(:func:`._common.counter_uniform`), so that a CUDA graph holding them can be replayed, else from cuRAND's;
``StandardLaplace`` from cuRAND's.
"""
import cupy
import numpy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import (F64, Fused, counter_uniform, dev, device_rng, fit, fixed_rng, retrying,
                                           scalar_of)


def _stream(prim):
    return device_rng(prim, prim.generator())


def _uniform(rng, shape):
    return rng.random_sample(shape, dtype=F64)


def _integers(rng, lo, hi, shape):
    return rng.randint(lo, hi, size=shape, dtype=numpy.int64).astype(numpy.int32)


def _gamma_draw(rng, alpha, beta, shape):
    return rng.gamma(alpha, beta, size=shape, dtype=F64)


def _poisson_draw(rng, lam, shape):
    return rng.poisson(lam, size=shape, dtype=numpy.int64)


KERNELS = bind("random", globals(), xp=cupy, dev=dev, scalar=scalar_of, stream=_stream, fixed_stream=fixed_rng,
               uniform=_uniform, integers=_integers, gamma=_gamma_draw, poisson=_poisson_draw)["KERNELS"]


def _dims(shape):
    return tuple(int(s) for s in shape)


@retrying
def _uniform_real(prim, shape, *, out):
    """Uniforms in [0, 1): from the instance's counter-based stream (a CUDA graph holding it can be replayed), else
    from its cuRAND stream."""
    u = counter_uniform(prim, _dims(shape))
    return fit(u if u is not None else _stream(prim).random_sample(_dims(shape), dtype=numpy.float32), out)


# Box-Muller on two uniforms of the counter-based stream: 1 - a is in (0, 1], so the logarithm is finite (the largest
# |z| is sqrt(2 * 24 * ln 2), 5.77)
_BOX_MULLER = Fused("ms_box_muller", "T a, T b", "T z",
                    "z = sqrt((T)-2 * log((T)1 - a)) * cos((T)6.283185307179586 * b);")


@retrying
def _standard_normal(prim, shape, *, out):
    """Standard normal draws: Box-Muller on the instance's counter-based stream (a CUDA graph holding it can be
    replayed), else cuRAND's."""
    size = _dims(shape)
    u = counter_uniform(prim, (2,) + size)
    if u is None or not _BOX_MULLER.usable(u):
        return fit(_stream(prim).standard_normal(size, dtype=numpy.float32), out)
    return fit(_BOX_MULLER(u[0], u[1]), out)


def _standard_laplace(prim, shape, *, out):
    return fit(_stream(prim).laplace(0.0, 1.0, _dims(shape), dtype=F64).astype(numpy.float32), out)


KERNELS.update({
    "UniformReal": _uniform_real,
    "StandardNormal": _standard_normal,
    "StandardLaplace": _standard_laplace,
})
