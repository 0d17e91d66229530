"""CPU kernels of ``mindspore/ops/_defs/random.py``: mindspore-array-kernels' ``random`` family bound to NumPy (the
GPU backend binds the same source to CuPy) and to NumPy ``Generator`` draws, vectorised: the instance's stream is
``prim.generator()`` (see ``mindspore.common.seed``), an explicit call-time ``(seed, offset)`` a fresh generator of
those values; and this backend's own plain draws (``UniformReal``, ``StandardNormal``, ``StandardLaplace``).
"""
import numpy as np

from mindspore_array_kernels import bind


def _scalar(v):
    return np.asarray(v).reshape(-1)[0]


def _stream(prim):
    return prim.generator()


def _fixed_stream(seed, offset):
    return np.random.default_rng([seed % (1 << 64), offset % (1 << 64)])


def _uniform(rng, shape):
    return rng.random(shape)


def _integers(rng, lo, hi, shape):
    return np.asarray(rng.integers(lo, hi, size=shape, dtype=np.int32))


def _gamma_draw(rng, alpha, beta, shape):
    return np.asarray(rng.gamma(alpha, beta))


def _poisson_draw(rng, lam, shape):
    return np.asarray(rng.poisson(lam))


KERNELS = bind("random", globals(), xp=np, dev=np.asarray, scalar=_scalar, stream=_stream,
               fixed_stream=_fixed_stream, uniform=_uniform, integers=_integers, gamma=_gamma_draw,
               poisson=_poisson_draw)["KERNELS"]


def _uniform_real(prim, shape, out=None):
    return np.asarray(prim.generator().random(shape, dtype=np.float32))


def _standard_normal(prim, shape, out=None):
    return np.asarray(prim.generator().standard_normal(shape, dtype=np.float32))


def _standard_laplace(prim, shape, out=None):
    return np.asarray(prim.generator().laplace(0.0, 1.0, shape), dtype=np.float32)


KERNELS.update({
    "UniformReal": _uniform_real,
    "StandardNormal": _standard_normal,
    "StandardLaplace": _standard_laplace,
})
