"""GPU kernels of the nn_prims family (``mindspore/ops/_defs/nn_prims.py`` and ``nn_prims_ext.py``):
mindspore-array-kernels' ``nn_prims`` family bound to CuPy (the CPU backend binds the same source to NumPy), with
``_common.scatter_add`` (atomics) for the scatters, ``cupy.asnumpy`` for the parts that run on the host (the CTC
alpha-beta recursion, candidate sampling, the fractional-pooling boundaries and window starts) and out-of-range
messages that do not name the value; and this backend's own kernels:

* the random samplers and the channel dropouts, which draw from the instance's device stream
  (:func:`._common.device_rng`; the channel dropouts from its counter-based stream, :func:`._common.counter_uniform`):
  reproducible after ``set_seed``, not the CPU's numbers. Cauchy and log-normal samples are transformed normal draws
  (the device stream's own distributions). ``DropoutGenMask`` (the family's) draws from the device stream too;
* the fused attention, cuDNN's where it takes the case (``mindspore_gpu/cudnn_attention.py``: float16/bfloat16),
  else the family's on the whole score matrix.
"""
import cupy

from mindspore.plugin import MSValueError
from mindspore_array_kernels import bind
from mindspore_gpu import cudnn_attention as _cudnn_attention
from mindspore_gpu.kernels import conv as _conv
from mindspore_gpu.kernels._common import F64, counter_uniform, dev, device_rng, fit, retrying, scatter_add


def _host(a):
    return cupy.asnumpy(dev(a))


def _stream(prim):
    return device_rng(prim, prim.generator())


def _uniform(prim, shape):
    return _stream(prim).random_sample(shape, dtype=F64)


def _got(values, bad):
    return ""


_FAMILY = bind("nn_prims", globals(), xp=cupy, dev=dev, host=_host, add_at=scatter_add, conv=_conv, uniform=_uniform,
               got=_got)
KERNELS = _FAMILY["KERNELS"]


# --- channel dropout ------------------------------------------------------------------------------
@retrying
def _channel_dropout(prim, x, *, out=None):
    """Dropout2D/3D: whole channels kept with probability ``keep_prob`` (one draw per (sample, channel), from the
    primitive's counter-based stream when it runs, so a CUDA graph holding it can be replayed)."""
    x = dev(x)
    keep = prim.keep_prob
    u = counter_uniform(prim, x.shape[:2])
    mask = (u if u is not None else _stream(prim).random_sample(x.shape[:2], dtype=F64)) < keep
    mask = cupy.broadcast_to(mask.reshape(x.shape[:2] + (1,) * (x.ndim - 2)), x.shape)
    scale = 0.0 if keep == 0 else 1.0 / keep
    y = cupy.where(mask, x * scale, 0) if x.dtype.kind in "fc" else cupy.where(mask, x, 0)
    return fit(y, out[0]), cupy.ascontiguousarray(mask)


# --- random samplers ------------------------------------------------------------------------------
def _truncated_normal(prim, shape, *, out=None):
    rs = _stream(prim)
    z = rs.standard_normal(tuple(shape), dtype=F64)
    bad = cupy.abs(z) > 2.0
    while bool(bad.any()):
        z = cupy.where(bad, rs.standard_normal(z.shape, dtype=F64), z)
        bad = cupy.abs(z) > 2.0
    return fit(z, out)


def _random_gamma(prim, shape, alpha, *, out=None):
    a = cupy.broadcast_to(dev(alpha).astype(F64), out.shape)
    return fit(_stream(prim).gamma(a, 1.0, size=out.shape, dtype=F64), out)


def _random_poisson(prim, shape, rate, *, out=None):
    lam = cupy.broadcast_to(dev(rate).astype(F64), out.shape)
    if lam.size and bool((lam < 0).any()):
        raise MSValueError(f"For '{prim.name}', the 'rate' must be non-negative.")
    return fit(_stream(prim).poisson(lam, size=out.shape), out)


def _cauchy(prim, *, out=None):
    rs = _stream(prim)
    z = rs.standard_normal(out.shape, dtype=F64) / rs.standard_normal(out.shape, dtype=F64)
    return fit(prim.median + prim.sigma * z, out)


def _log_normal_reverse(prim, x, *, out=None):
    z = _stream(prim).standard_normal(tuple(x.shape), dtype=F64)
    return fit(cupy.exp(prim.mean + prim.std * z), out)


def _parameterized_truncated_normal(prim, shape, mean, stdevs, lo, hi, *, out=None):
    rs = _stream(prim)
    batch = out.shape[0]
    per_row = (batch,) + (1,) * (len(out.shape) - 1)
    m, s, a, b = (cupy.broadcast_to(dev(v).astype(F64).reshape(-1), (batch,)).reshape(per_row)
                  for v in (mean, stdevs, lo, hi))
    if bool((s <= 0).any()) or bool((a >= b).any()):
        raise MSValueError(f"For '{prim.name}', the 'stdevs' must be positive and 'min' less than 'max'.")
    m, s, a, b = (cupy.broadcast_to(v, out.shape) for v in (m, s, a, b))
    z = m + s * rs.standard_normal(out.shape, dtype=F64)
    bad = (z < a) | (z > b)
    for _ in range(10000):
        if not bool(bad.any()):
            break
        z = cupy.where(bad, m + s * rs.standard_normal(out.shape, dtype=F64), z)
        bad = (z < a) | (z > b)
    else:
        raise MSValueError(f"For '{prim.name}', the interval [min, max] is too far in the tail to sample.")
    return fit(z, out)


# --- the fused attention: cuDNN's where it takes the case, else the family's on the whole score matrix, which is
# also the reference each case's first cuDNN result is checked against ------------------------------------------
_ATTENTION = _cudnn_attention.for_cupy(cupy)
_PLAIN, _PLAIN_GRAD = _FAMILY["_sdpa_plain"], _FAMILY["_sdpa_grad_plain"]


def _fused_sdpa(prim, query, key, value, *, out):
    query, key, value = dev(query), dev(key), dev(value)
    fused = _ATTENTION.forward(prim, query, key, value, _PLAIN)
    return fused if fused is not None else fit(_PLAIN(prim, query, key, value), out)


def _fused_sdpa_grad(prim, query, key, value, attention_out, dout, lse, dlse, *, out):
    query, key, value, attention_out, dout, lse = (dev(a) for a in (query, key, value, attention_out, dout, lse))
    fused = _ATTENTION.backward(prim, query, key, value, attention_out, dout, lse, _PLAIN_GRAD)
    if fused is not None:
        return fused
    return fit(_PLAIN_GRAD(prim, query, key, value, attention_out, dout, lse, dlse), out)


KERNELS.update({
    "Dropout2D": _channel_dropout,
    "Dropout3D": _channel_dropout,
    "TruncatedNormal": _truncated_normal,
    "RandomGamma": _random_gamma,
    "RandomPoisson": _random_poisson,
    "Cauchy": _cauchy,
    "LogNormalReverse": _log_normal_reverse,
    "ParameterizedTruncatedNormal": _parameterized_truncated_normal,
    "ScaledDotProductAttention": _fused_sdpa,
    "ScaledDotProductAttentionGrad": _fused_sdpa_grad,
})
