"""CPU kernels of the random family: NumPy ``Generator`` draws, vectorised.

Every kernel draws from ``prim.generator()`` (the primitive instance's stream, see
``mindspore.common.seed``) or, for an explicit call-time ``(seed, offset)``, from a fresh generator of
those values.
"""
import numpy as np

from mindspore.plugin import MSValueError
from mindspore_cpu.kernels._out import fit, fits_out



def _fixed_or_stream(prim, seed, offset, random_seed):
    """The instance's stream for MindSpore's 'random' seed value, else a fixed generator of ``(seed, offset)``."""
    seed, offset = int(np.asarray(seed)), int(np.asarray(offset))
    if seed == random_seed and offset == 0:
        return prim.generator()
    return np.random.default_rng([seed % (1 << 64), offset % (1 << 64)])


def _uniform_real(prim, shape, out=None):
    return np.asarray(prim.generator().random(shape, dtype=np.float32))


def _standard_normal(prim, shape, out=None):
    return np.asarray(prim.generator().standard_normal(shape, dtype=np.float32))


def _standard_laplace(prim, shape, out=None):
    return np.asarray(prim.generator().laplace(0.0, 1.0, shape), dtype=np.float32)


def _uniform_int(prim, shape, minval, maxval, out=None):
    lo, hi = int(np.asarray(minval).reshape(-1)[0]), int(np.asarray(maxval).reshape(-1)[0])
    if lo >= hi:
        raise MSValueError(f"For '{prim.name}', the 'minval' must be less than 'maxval', but got minval {lo} and "
                           f"maxval {hi}.")
    return np.asarray(prim.generator().integers(lo, hi, size=shape, dtype=np.int32))


def _out_shape(*shapes):
    return np.broadcast_shapes(*shapes)


def _gamma(prim, shape, alpha, beta, out=None):
    res = _out_shape(tuple(shape), alpha.shape, beta.shape)
    return np.asarray(prim.generator().gamma(np.broadcast_to(alpha, res), np.broadcast_to(beta, res)),
                      dtype=alpha.dtype)


def _poisson(prim, shape, mean, out=None):
    res = _out_shape(tuple(shape), mean.shape)
    return np.asarray(prim.generator().poisson(np.broadcast_to(mean.astype(np.float64), res))).astype(np.int32)


@fits_out
def _random_categorical(prim, logits, num_sample, seed=0, out=None):
    rng = _fixed_or_stream(prim, seed, 0, 0)
    logits = logits.astype(np.float64)
    # Gumbel-max: argmax(logits + Gumbel noise) is a draw from softmax(logits).
    noise = -np.log(-np.log(rng.random((logits.shape[0], num_sample, logits.shape[1])) + 1e-300) + 1e-300)
    return np.argmax(logits[:, None, :] + noise, axis=-1)


def _check_weights(prim, x):
    if x.size and (np.any(x < 0) or not np.all(np.isfinite(x))):
        raise MSValueError(f"For '{prim.name}', each element of 'x' must be non-negative and finite.")
    if np.any(np.sum(x, axis=-1) <= 0):
        raise MSValueError(f"For '{prim.name}', the sum of each row of 'x' must be positive.")


def _draw_with_replacement(rng, x, num):
    rows = x.reshape(-1, x.shape[-1]).astype(np.float64)
    cdf = np.cumsum(rows, axis=1)
    cdf /= cdf[:, -1:]  # exact 1.0 at (and after) the last non-zero weight
    u = rng.random((rows.shape[0], num))
    # Per row: the number of cdf entries <= u; row offsets make one global sorted search.
    offsets = np.arange(rows.shape[0], dtype=np.float64)[:, None]
    flat = (cdf + 2 * offsets).reshape(-1)
    idx = np.searchsorted(flat, (u + 2 * offsets).reshape(-1), side="right").reshape(rows.shape[0], num)
    idx -= np.arange(rows.shape[0])[:, None] * rows.shape[1]
    idx = np.minimum(idx, rows.shape[1] - 1)
    return idx.reshape(x.shape[:-1] + (num,))


def _draw_without_replacement(rng, x, num):
    # Gumbel top-k on log-weights: the first ``num`` of a weighted random order (zero weights last).
    with np.errstate(divide="ignore"):
        keys = np.log(x.astype(np.float64)) - np.log(-np.log(rng.random(x.shape) + 1e-300) + 1e-300)
    order = np.argsort(-keys, axis=-1, kind="stable")
    return np.asarray(order[..., :num], order="C")


@fits_out
def _multinomial(prim, x, num_samples, out=None):
    _check_weights(prim, x)
    return _draw_with_replacement(prim.generator(), x, num_samples)


def _multinomial_with_replacement(prim, x, seed, offset, out=None):
    _check_weights(prim, x)
    rng = _fixed_or_stream(prim, seed, offset, -1)
    if prim.replacement:
        return _draw_with_replacement(rng, x, prim.numsamples)
    return _draw_without_replacement(rng, x, prim.numsamples)


def _bernoulli(prim, x, p, out=None):
    p = np.asarray(p, dtype=np.float64)
    if p.size and (np.any(p < 0) or np.any(p > 1)):
        raise MSValueError(f"For '{prim.name}', the 'p' must be in range [0, 1].")
    return np.asarray(prim.generator().random(x.shape) < p).astype(x.dtype)


def _random_choice_with_mask(prim, x, out=None):
    count = prim.count
    positions = np.argwhere(x).astype(np.int32)
    chosen = positions[prim.generator().permutation(len(positions))[:count]]
    index = np.zeros((count, x.ndim), np.int32)
    mask = np.zeros((count,), np.bool_)
    index[:len(chosen)] = chosen
    mask[:len(chosen)] = True
    return index, mask


def _randperm(prim, n, out=None):
    n = int(np.asarray(n).reshape(-1)[0])
    if n < 0 or n > prim.max_length:
        raise MSValueError(f"For '{prim.name}', the 'n' must be in range [0, max_length={prim.max_length}], "
                           f"but got {n}.")
    perm = np.full((prim.max_length,), prim.pad, dtype=np.int64)
    perm[:n] = prim.generator().permutation(n)
    return fit(perm, out)


@fits_out
def _randperm_v2(prim, n, seed=0, offset=0, out=None):
    n = int(np.asarray(n).reshape(-1)[0])
    if n < 0:
        raise MSValueError(f"For '{prim.name}', the 'n' must be non-negative, but got {n}.")
    return _fixed_or_stream(prim, seed, offset, -1).permutation(n)


def _random_shuffle(prim, x, out=None):
    if x.ndim == 0:
        return x.copy()
    return x[prim.generator().permutation(x.shape[0])]


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
