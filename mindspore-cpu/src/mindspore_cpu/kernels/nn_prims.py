"""CPU kernels of the nn_prims family (``mindspore/ops/_defs/nn_prims.py`` and ``nn_prims_ext.py``):
mindspore-array-kernels' ``nn_prims`` family bound to NumPy (the GPU backend binds the same source to CuPy), with
NumPy's ``add.at`` for the scatters and out-of-range messages that name the first offending value; and this
backend's random samplers and channel dropouts, which draw from ``prim.generator()`` (the instance's NumPy stream).
"""
import numpy as np

from mindspore.plugin import MSValueError
from mindspore_array_kernels import bind
from mindspore_cpu.kernels import conv as _conv
from mindspore_cpu.kernels._out import fit


def _uniform(prim, shape):
    return prim.generator().random(shape)


def _got(values, bad):
    return f", but got {values[bad][0]}"


KERNELS = bind("nn_prims", globals(), xp=np, dev=np.asarray, host=np.asarray, add_at=np.add.at, conv=_conv,
               uniform=_uniform, got=_got)["KERNELS"]


# --- channel dropout ------------------------------------------------------------------------------
def _channel_dropout(prim, x, out=None):
    keep = prim.keep_prob
    mask = prim.generator().random(x.shape[:2]) < keep
    mask = np.broadcast_to(mask.reshape(x.shape[:2] + (1,) * (x.ndim - 2)), x.shape)
    scale = 0.0 if keep == 0 else 1.0 / keep
    y = np.where(mask, x * scale, 0).astype(x.dtype) if x.dtype.kind in "fc" else np.where(mask, x, 0)
    return fit(np.asarray(y), out[0]), np.ascontiguousarray(mask)


# --- random samplers ------------------------------------------------------------------------------
def _truncated_normal(prim, shape, out=None):
    gen = prim.generator()
    z = gen.standard_normal(shape)
    bad = np.abs(z) > 2.0
    while bad.any():
        z[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(z) > 2.0
    return fit(np.asarray(z), out)


def _random_gamma(prim, shape, alpha, out=None):
    a = np.broadcast_to(np.asarray(alpha, np.float64), out.shape)
    return fit(np.asarray(prim.generator().gamma(a)), out)


def _random_poisson(prim, shape, rate, out=None):
    lam = np.broadcast_to(np.asarray(rate, np.float64), out.shape)
    if lam.size and lam.min() < 0:
        raise MSValueError(f"For '{prim.name}', the 'rate' must be non-negative, but got {lam.min()}.")
    return fit(np.asarray(prim.generator().poisson(lam)), out)


def _cauchy(prim, out=None):
    z = prim.generator().standard_cauchy(out.shape)
    return fit(np.asarray(prim.median + prim.sigma * z), out)


def _log_normal_reverse(prim, x, out=None):
    return fit(np.asarray(prim.generator().lognormal(prim.mean, prim.std, x.shape)), out)


def _parameterized_truncated_normal(prim, shape, mean, stdevs, lo, hi, out=None):
    gen = prim.generator()
    batch = out.shape[0]
    per_row = (batch,) + (1,) * (len(out.shape) - 1)
    m, s, a, b = (np.broadcast_to(np.asarray(v, np.float64).reshape(-1), (batch,)).reshape(per_row)
                  for v in (mean, stdevs, lo, hi))
    if (s <= 0).any() or (a >= b).any():
        raise MSValueError(f"For '{prim.name}', the 'stdevs' must be positive and 'min' less than 'max'.")
    m, s, a, b = (np.broadcast_to(v, out.shape) for v in (m, s, a, b))
    z = m + s * gen.standard_normal(out.shape)
    bad = (z < a) | (z > b)
    for _ in range(10000):
        if not bad.any():
            break
        z[bad] = m[bad] + s[bad] * gen.standard_normal(int(bad.sum()))
        bad = (z < a) | (z > b)
    else:
        raise MSValueError(f"For '{prim.name}', the interval [min, max] is too far in the tail to sample.")
    return fit(np.asarray(z), out)


KERNELS.update({
    "Dropout2D": _channel_dropout,
    "Dropout3D": _channel_dropout,
    "TruncatedNormal": _truncated_normal,
    "RandomGamma": _random_gamma,
    "RandomPoisson": _random_poisson,
    "Cauchy": _cauchy,
    "LogNormalReverse": _log_normal_reverse,
    "ParameterizedTruncatedNormal": _parameterized_truncated_normal,
})
