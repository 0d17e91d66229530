"""CPU kernels of ``mindspore/ops/_defs/random.py``: mindspore-array-kernels' ``random`` family bound to NumPy (the
GPU backend binds the same source to CuPy) and to NumPy ``Generator`` draws, vectorised: the instance's stream is
``prim.generator()`` (see ``mindspore.common.seed``), an explicit call-time ``(seed, offset)`` a fresh generator of
those values; and this backend's own plain draws (``UniformReal``, ``StandardNormal``, ``StandardLaplace``).
"""
import weakref

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


def _scrambled_seed(seed, seed2):
    """MindSpore 2.10's kernel seed of a ``(seed, seed2)`` pair: one Philox4x32-10 block of the counter
    ``(seed, seed2)`` (two 32-bit words each) under a fixed key; its first two words, low word first."""
    c = [seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF, seed2 & 0xFFFFFFFF, (seed2 >> 32) & 0xFFFFFFFF]
    k0, k1 = 0x3EC8F720, 0x02461E29
    for r in range(10):
        if r:
            k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & 0xFFFFFFFF, (p0 >> 32) ^ c[3] ^ k1, p0 & 0xFFFFFFFF]
    return (c[1] << 32) | c[0]


_launched = weakref.WeakSet()   # seeded UniformReal instances past their first launch


def _uniform_real(prim, shape, out=None):
    """A seeded instance's first launch draws 2.10's numbers: an MT19937 seeded with the low 32 bits of the
    scrambled seed pair, each value ``(w0 + w1 * 2**32) / 2**64`` of two words (the C++ library's canonical
    double), rounded to float32. Later launches, and unseeded instances, draw from the instance's stream."""
    seed, seed2 = int(prim.attrs.get("seed", 0)), int(prim.attrs.get("seed2", 0))
    if (seed or seed2) and prim not in _launched:
        _launched.add(prim)
        n = int(np.prod(shape, dtype=np.int64))
        state = np.random.RandomState(_scrambled_seed(seed, seed2) & 0xFFFFFFFF)
        words = np.frombuffer(state.bytes(8 * n), dtype="<u4").astype(np.float64)
        values = (words[0::2] + words[1::2] * 4294967296.0) / 18446744073709551616.0
        values[values >= 1.0] = np.nextafter(1.0, 0.0)
        return values.astype(np.float32).reshape(tuple(shape))
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
