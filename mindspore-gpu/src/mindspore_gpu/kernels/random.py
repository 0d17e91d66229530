"""GPU kernels of the random family: cuRAND draws through ``cupy.random.RandomState``; ``UniformReal`` and
``StandardNormal`` from a counter-based stream (:func:`._common.counter_uniform`), so that a CUDA graph holding them
can be replayed.

Every kernel draws from the primitive instance's device stream (:func:`._common.device_rng`), seeded
once from its NumPy stream (``prim.generator()``, see ``mindspore.common.seed``) and advanced by every
draw: with ``set_seed`` a script draws the same numbers on every run, and two calls of one primitive
different ones, as on the CPU (the numbers themselves are not the CPU's). An explicit call-time
``(seed, offset)`` draws from a fresh stream of those values (:func:`._common.fixed_rng`). The
samplers are the CPU kernels' (inverse CDF by a sorted search, Gumbel-max and Gumbel top-k), on the
device.
"""
import cupy
import numpy

from mindspore.plugin import MSValueError
from mindspore_gpu.kernels._common import (F64, Fused, counter_uniform, device_rng, fit, fits_out, fixed_rng, retrying,
                                           scalar_of, dev)

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)


def _stream(prim):
    return device_rng(prim, prim.generator())


def _fixed_or_stream(prim, seed, offset, random_seed):
    """The instance's stream for MindSpore's 'random' seed value, else a fixed stream of ``(seed, offset)``."""
    seed, offset = int(scalar_of(seed)), int(scalar_of(offset))
    if seed == random_seed and offset == 0:
        return _stream(prim)
    return fixed_rng(seed, offset)


def _shape(shape):
    return tuple(int(s) for s in shape)


@retrying
def _uniform_real(prim, shape, *, out):
    """Uniforms in [0, 1): from the instance's counter-based stream (a CUDA graph holding it can be replayed), else
    from its cuRAND stream."""
    u = counter_uniform(prim, _shape(shape))
    return fit(u if u is not None else _stream(prim).random_sample(_shape(shape), dtype=numpy.float32), out)


# Box-Muller on two uniforms of the counter-based stream: 1 - a is in (0, 1], so the logarithm is finite (the largest
# |z| is sqrt(2 * 24 * ln 2), 5.77)
_BOX_MULLER = Fused("ms_box_muller", "T a, T b", "T z",
                    "z = sqrt((T)-2 * log((T)1 - a)) * cos((T)6.283185307179586 * b);")


@retrying
def _standard_normal(prim, shape, *, out):
    """Standard normal draws: Box-Muller on the instance's counter-based stream (a CUDA graph holding it can be
    replayed), else cuRAND's."""
    size = _shape(shape)
    u = counter_uniform(prim, (2,) + size)
    if u is None or not _BOX_MULLER.usable(u):
        return fit(_stream(prim).standard_normal(size, dtype=numpy.float32), out)
    return fit(_BOX_MULLER(u[0], u[1]), out)


def _standard_laplace(prim, shape, *, out):
    return fit(_stream(prim).laplace(0.0, 1.0, _shape(shape), dtype=F64).astype(numpy.float32), out)


def _uniform_int(prim, shape, minval, maxval, *, out):
    lo, hi = int(scalar_of(minval)), int(scalar_of(maxval))
    if lo >= hi:
        raise MSValueError(f"For '{prim.name}', the 'minval' must be less than 'maxval', but got minval {lo} and "
                           f"maxval {hi}.")
    return fit(_stream(prim).randint(lo, hi, size=_shape(shape), dtype=numpy.int64).astype(numpy.int32), out)


def _gamma(prim, shape, alpha, beta, *, out):
    alpha, beta = _dev(alpha), _dev(beta)
    size = numpy.broadcast_shapes(_shape(shape), alpha.shape, beta.shape)
    a = cupy.broadcast_to(alpha.astype(F64), size)
    b = cupy.broadcast_to(beta.astype(F64), size)
    return fit(_stream(prim).gamma(a, b, size=size, dtype=F64).astype(alpha.dtype), out)


def _poisson(prim, shape, mean, *, out):
    mean = _dev(mean)
    size = numpy.broadcast_shapes(_shape(shape), mean.shape)
    lam = cupy.broadcast_to(mean.astype(F64), size)
    return fit(_stream(prim).poisson(lam, size=size, dtype=numpy.int64).astype(numpy.int32), out)


@fits_out
def _random_categorical(prim, logits, num_sample, seed=0, *, out=None):
    rng = _fixed_or_stream(prim, seed, 0, 0)
    logits = _dev(logits).astype(F64)
    n, c = logits.shape
    num_sample = int(scalar_of(num_sample))
    # Gumbel-max: argmax(logits + Gumbel noise) is a draw from softmax(logits).
    noise = -cupy.log(-cupy.log(rng.random_sample((n, num_sample, c), dtype=F64) + 1e-300) + 1e-300)
    return cupy.argmax(logits[:, None, :] + noise, axis=-1)


def _check_weights(prim, x):
    if x.size and (bool((x < 0).any()) or not bool(cupy.isfinite(x).all())):
        raise MSValueError(f"For '{prim.name}', each element of 'x' must be non-negative and finite.")
    if x.shape[-1] == 0 or bool((cupy.sum(x, axis=-1) <= 0).any()):
        raise MSValueError(f"For '{prim.name}', the sum of each row of 'x' must be positive.")


def _draw_with_replacement(rng, x, num):
    rows = x.reshape(-1, x.shape[-1]).astype(F64)
    n, c = rows.shape
    cdf = cupy.cumsum(rows, axis=1)
    cdf /= cdf[:, -1:]  # exact 1.0 at (and after) the last non-zero weight
    u = rng.random_sample((n, num), dtype=F64)
    # Per row: the number of cdf entries <= u; row offsets make one global sorted search.
    offsets = cupy.arange(n, dtype=F64)[:, None]
    flat = (cdf + 2 * offsets).reshape(-1)
    idx = cupy.searchsorted(flat, (u + 2 * offsets).reshape(-1), side="right").reshape(n, num)
    idx = idx - cupy.arange(n, dtype=idx.dtype)[:, None] * c
    idx = cupy.minimum(idx, c - 1)
    return idx.reshape(x.shape[:-1] + (num,))


def _draw_without_replacement(rng, x, num):
    # Gumbel top-k on log-weights: the first ``num`` of a weighted random order (zero weights last).
    u = rng.random_sample(x.shape, dtype=F64)
    keys = cupy.log(x.astype(F64)) - cupy.log(-cupy.log(u + 1e-300) + 1e-300)
    order = cupy.argsort(-keys, axis=-1)
    return cupy.asarray(order[..., :num], order="C")


@fits_out
def _multinomial(prim, x, num_samples, *, out=None):
    x = _dev(x)
    _check_weights(prim, x)
    return _draw_with_replacement(_stream(prim), x, int(scalar_of(num_samples)))


@fits_out
def _multinomial_with_replacement(prim, x, seed, offset, *, out=None):
    x = _dev(x)
    _check_weights(prim, x)
    rng = _fixed_or_stream(prim, seed, offset, -1)
    if prim.replacement:
        return _draw_with_replacement(rng, x, prim.numsamples)
    return _draw_without_replacement(rng, x, prim.numsamples)


def _bernoulli(prim, x, p, *, out):
    x = _dev(x)
    p = _dev(p).astype(F64) if isinstance(p, (cupy.ndarray, numpy.ndarray)) else cupy.asarray(p, dtype=F64)
    if p.size and (bool((p < 0).any()) or bool((p > 1).any())):
        raise MSValueError(f"For '{prim.name}', the 'p' must be in range [0, 1].")
    return fit((_stream(prim).random_sample(x.shape, dtype=F64) < p).astype(x.dtype), out)


def _random_choice_with_mask(prim, x, *, out):
    x = _dev(x)
    count = prim.count
    positions = cupy.argwhere(x).astype(numpy.int32)
    chosen = positions[_stream(prim).permutation(positions.shape[0])[:count]]
    index = cupy.zeros((count, x.ndim), numpy.int32)
    mask = cupy.zeros((count,), numpy.bool_)
    index[:chosen.shape[0]] = chosen
    mask[:chosen.shape[0]] = True
    return fit((index, mask), out)


def _randperm(prim, n, *, out):
    n = int(scalar_of(n))
    if n < 0 or n > prim.max_length:
        raise MSValueError(f"For '{prim.name}', the 'n' must be in range [0, max_length={prim.max_length}], "
                           f"but got {n}.")
    perm = cupy.full((prim.max_length,), prim.pad, dtype=numpy.int64)
    perm[:n] = _stream(prim).permutation(n)
    return fit(perm, out)


@fits_out
def _randperm_v2(prim, n, seed=0, offset=0, *, out=None):
    n = int(scalar_of(n))
    if n < 0:
        raise MSValueError(f"For '{prim.name}', the 'n' must be non-negative, but got {n}.")
    return _fixed_or_stream(prim, seed, offset, -1).permutation(n)


def _random_shuffle(prim, x, *, out):
    x = _dev(x)
    if x.ndim == 0:
        return x.copy()
    return x[_stream(prim).permutation(x.shape[0])]


KERNELS = {
    "UniformReal": _uniform_real,
    "StandardNormal": _standard_normal,
    "StandardLaplace": _standard_laplace,
    "UniformInt": _uniform_int,
    "Gamma": _gamma,
    "Poisson": _poisson,
    "RandomCategorical": _random_categorical,
    "Multinomial": _multinomial,
    "MultinomialWithReplacement": _multinomial_with_replacement,
    "Bernoulli": _bernoulli,
    "RandomChoiceWithMask": _random_choice_with_mask,
    "Randperm": _randperm,
    "RandpermV2": _randperm_v2,
    "RandomShuffle": _random_shuffle,
}
