"""The kernels of ``mindspore/ops/_defs/random.py`` but the plain draws of a backend's own streams (``UniformReal``,
``StandardNormal``, ``StandardLaplace``): ``UniformInt``, ``Gamma``, ``Poisson``, ``RandomCategorical``,
``Multinomial``, ``MultinomialWithReplacement``, ``Bernoulli``, ``RandomChoiceWithMask``, ``Randperm``,
``RandpermV2``, ``RandomShuffle``. Bound (:func:`mindspore_array_kernels.bind`) with:

* ``xp``, the array library, ``dev`` (an operand as an ``xp`` array; ``dev(a, dtype)`` in that dtype) and
  ``scalar(v)``, a scalar argument (a Python number, or a one-element array) as ``int()`` takes it (a device array
  is read back);
* ``stream(prim)``, the primitive instance's random stream (from ``prim.generator()``, see
  ``mindspore.common.seed``: reproducible after ``set_seed``, each backend's own numbers), and
  ``fixed_stream(seed, offset)``, a fresh stream of an explicit call-time ``(seed, offset)``;
* the draws from a stream ``rng``, each backend's own: ``uniform(rng, shape)`` (float64 in [0, 1)),
  ``integers(rng, lo, hi, shape)`` (int32 in [lo, hi)), ``gamma(rng, alpha, beta, shape)`` (float64, of float64
  ``alpha``/``beta`` of that shape) and ``poisson(rng, lam, shape)`` (int64 counts of float64 ``lam``).

The samplers are written on uniforms: inverse CDF by one sorted search over all rows (``Multinomial``, with
replacement), Gumbel-max (``RandomCategorical``) and Gumbel top-k on the log-weights (without replacement); the
permutations are the stream's own. MindSpore's "random" seed value (``seed=0`` for ``RandomCategorical``,
``seed=-1, offset=0`` for ``MultinomialWithReplacement`` and ``RandpermV2``) draws from the instance's stream.
"""
import numpy as np

from mindspore.plugin import MSValueError
from mindspore_array_kernels.common import fit, fits_out

BOUND = ("xp", "dev", "scalar", "stream", "fixed_stream", "uniform", "integers", "gamma", "poisson")

_F64 = np.dtype(np.float64)


def _shape(shape):
    return tuple(int(s) for s in shape)


def _fixed_or_stream(prim, seed, offset, random_seed):
    """The instance's stream for MindSpore's 'random' seed value, else a fixed stream of ``(seed, offset)``."""
    seed, offset = int(scalar(seed)), int(scalar(offset))
    if seed == random_seed and offset == 0:
        return stream(prim)
    return fixed_stream(seed, offset)


def _uniform_int(prim, shape, minval, maxval, out=None):
    lo, hi = int(scalar(minval)), int(scalar(maxval))
    if lo >= hi:
        raise MSValueError(f"For '{prim.name}', the 'minval' must be less than 'maxval', but got minval {lo} and "
                           f"maxval {hi}.")
    return fit(integers(stream(prim), lo, hi, _shape(shape)), out)


def _gamma(prim, shape, alpha, beta, out=None):
    alpha, beta = dev(alpha), dev(beta)
    size = np.broadcast_shapes(_shape(shape), alpha.shape, beta.shape)
    a = xp.broadcast_to(alpha.astype(_F64), size)
    b = xp.broadcast_to(beta.astype(_F64), size)
    return fit(gamma(stream(prim), a, b, size).astype(alpha.dtype), out)


def _poisson(prim, shape, mean, out=None):
    mean = dev(mean)
    size = np.broadcast_shapes(_shape(shape), mean.shape)
    lam = xp.broadcast_to(mean.astype(_F64), size)
    return fit(poisson(stream(prim), lam, size).astype(np.int32), out)


@fits_out
def _random_categorical(prim, logits, num_sample, seed=0, out=None):
    rng = _fixed_or_stream(prim, seed, 0, 0)
    logits = dev(logits).astype(_F64)
    n, c = logits.shape
    # Gumbel-max: argmax(logits + Gumbel noise) is a draw from softmax(logits).
    noise = -xp.log(-xp.log(uniform(rng, (n, int(scalar(num_sample)), c)) + 1e-300) + 1e-300)
    return xp.argmax(logits[:, None, :] + noise, axis=-1)


def _check_weights(prim, x):
    if x.size and (bool((x < 0).any()) or not bool(xp.isfinite(x).all())):
        raise MSValueError(f"For '{prim.name}', each element of 'x' must be non-negative and finite.")
    if x.shape[-1] == 0 or bool((xp.sum(x, axis=-1) <= 0).any()):
        raise MSValueError(f"For '{prim.name}', the sum of each row of 'x' must be positive.")


def _draw_with_replacement(rng, x, num):
    rows = x.reshape(-1, x.shape[-1]).astype(_F64)
    n, c = rows.shape
    cdf = xp.cumsum(rows, axis=1)
    cdf /= cdf[:, -1:]  # exact 1.0 at (and after) the last non-zero weight
    u = uniform(rng, (n, num))
    # Per row: the number of cdf entries <= u; row offsets make one global sorted search.
    offsets = xp.arange(n, dtype=_F64)[:, None]
    flat = (cdf + 2 * offsets).reshape(-1)
    idx = xp.searchsorted(flat, (u + 2 * offsets).reshape(-1), side="right").reshape(n, num)
    idx = idx - xp.arange(n, dtype=idx.dtype)[:, None] * c
    idx = xp.minimum(idx, c - 1)
    return idx.reshape(x.shape[:-1] + (num,))


def _draw_without_replacement(rng, x, num):
    # Gumbel top-k on log-weights: the first ``num`` of a weighted random order (zero weights last).
    u = uniform(rng, x.shape)
    with np.errstate(divide="ignore"):
        keys = xp.log(x.astype(_F64)) - xp.log(-xp.log(u + 1e-300) + 1e-300)
    order = xp.argsort(-keys, axis=-1, kind="stable")
    return xp.asarray(order[..., :num], order="C")


@fits_out
def _multinomial(prim, x, num_samples, out=None):
    x = dev(x)
    _check_weights(prim, x)
    return _draw_with_replacement(stream(prim), x, int(scalar(num_samples)))


@fits_out
def _multinomial_with_replacement(prim, x, seed, offset, out=None):
    x = dev(x)
    _check_weights(prim, x)
    rng = _fixed_or_stream(prim, seed, offset, -1)
    if prim.replacement:
        return _draw_with_replacement(rng, x, prim.numsamples)
    return _draw_without_replacement(rng, x, prim.numsamples)


def _bernoulli(prim, x, p, out=None):
    x, p = dev(x), dev(p, _F64)
    if p.size and (bool((p < 0).any()) or bool((p > 1).any())):
        raise MSValueError(f"For '{prim.name}', the 'p' must be in range [0, 1].")
    return fit(dev(uniform(stream(prim), x.shape) < p).astype(x.dtype), out)


def _random_choice_with_mask(prim, x, out=None):
    x = dev(x)
    count = prim.count
    positions = xp.argwhere(x).astype(np.int32)
    chosen = positions[stream(prim).permutation(positions.shape[0])[:count]]
    index = xp.zeros((count, x.ndim), np.int32)
    mask = xp.zeros((count,), np.bool_)
    index[:chosen.shape[0]] = chosen
    mask[:chosen.shape[0]] = True
    return fit((index, mask), out)


def _randperm(prim, n, out=None):
    n = int(scalar(n))
    if n < 0 or n > prim.max_length:
        raise MSValueError(f"For '{prim.name}', the 'n' must be in range [0, max_length={prim.max_length}], "
                           f"but got {n}.")
    perm = xp.full((prim.max_length,), prim.pad, dtype=np.int64)
    perm[:n] = stream(prim).permutation(n)
    return fit(perm, out)


@fits_out
def _randperm_v2(prim, n, seed=0, offset=0, out=None):
    n = int(scalar(n))
    if n < 0:
        raise MSValueError(f"For '{prim.name}', the 'n' must be non-negative, but got {n}.")
    return _fixed_or_stream(prim, seed, offset, -1).permutation(n)


def _random_shuffle(prim, x, out=None):
    x = dev(x)
    if x.ndim == 0:
        return x.copy()
    return x[stream(prim).permutation(x.shape[0])]


KERNELS = {
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
