"""GPU kernels of ``mindspore/ops/_defs/math_prims.py``: mindspore-array-kernels' ``math_prims`` family bound to CuPy
(the CPU backend binds the same source to NumPy), with the movers ``dev`` (no copy for a CuPy array already on the
device), ``cupy.asnumpy`` (an explicit copy, for the sequential kernels ``UniqueWithPad``, ``ListDiff``,
``RaggedRange``, the eigen-decomposition of ``MatrixLogarithm`` and small index reads) and ``cupy.asarray``.
Segment reductions reduce a masked broadcast over the (elements x segments) membership (CuPy's ``ufunc.at`` is only
``add``); scatter-adds go through ``_common.scatter_add`` (atomics); bfloat16 sorts as float32 (CuPy cannot sort
it). ``Quantile`` is this module's own: it sorts and interpolates on the device (``cupy.quantile`` does not
propagate NaN).
"""
import cupy
import cupy.linalg  # noqa: F401
import numpy as np

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import F16, F32, dev, is_bf16, scatter_add, sortable
from mindspore_gpu.kernels.array_more import KERNELS as _ARRAY_MORE


_REDUCE = {"sum": cupy.sum, "prod": cupy.prod, "max": cupy.max, "min": cupy.min}


def _membership(ids, n):
    """(K, n) Bool: element k belongs to segment s (ids outside ``[0, n)`` belong to none)."""
    return ids[:, None] == cupy.arange(n, dtype=ids.dtype)[None, :]


def _reduce_segments(kind, flat, ids, n, fill):
    """``out[s] = reduce(flat[ids == s])`` for ``s < n`` (``fill`` where no id is ``s``); ids outside drop."""
    member = _membership(ids, n).reshape((ids.shape[0], n) + (1,) * (flat.ndim - 1))
    vals = cupy.where(member, flat[:, None], cupy.full((), fill, flat.dtype))
    if not ids.shape[0]:
        return cupy.full((n,) + flat.shape[1:], fill, flat.dtype)
    return _REDUCE[kind](vals, axis=0).astype(flat.dtype)


def _counts(ids, n):
    return cupy.sum(_membership(ids, n), axis=0)


def _device_quantile(prim, input, q, out=None):  # noqa: A002
    """NumPy's linear quantile on the device: each slice sorted (NaN last), interpolated at ``q * (count - 1)``.
    ``cupy.quantile`` is not used: it does not propagate NaN (it sorts NaN last and interpolates over them). A slice
    holding a NaN gives NaN, as NumPy's quantile; with ``ignore_nan`` (nanquantile) the NaNs are left out (count is
    the number of the others) and only an all-NaN slice gives NaN. Half precision and bfloat16 compute in float32."""
    x, q = dev(input), dev(q)
    work = x.astype(F32) if x.dtype == F16 or is_bf16(x.dtype) else x
    axis = None if prim.dim is None else prim.dim % max(x.ndim, 1)
    moved = work.reshape(1, -1) if axis is None or x.ndim == 0 else cupy.moveaxis(work, axis, -1)
    n = moved.shape[-1]
    flat = moved.reshape(-1, n)                               # (B, n)
    b = flat.shape[0]
    qs = q.reshape(-1).astype(np.float64)                     # (Q,)
    if n == 0 or b == 0:
        return cupy.full(tuple(out.shape), np.nan, x.dtype)
    nan = cupy.isnan(flat)
    s = cupy.sort(flat, axis=-1)                                # NaN last
    if prim.ignore_nan:
        count = cupy.sum(~nan, axis=-1)
        bad = count == 0
    else:
        count = cupy.full((b,), n, np.int64)
        bad = cupy.any(nan, axis=-1)
    last = cupy.maximum(count - 1, 0)                           # (B,)
    pos = qs[:, None] * last[None, :].astype(np.float64)      # (Q, B)
    lo = cupy.floor(pos)
    t = (pos - lo).astype(work.dtype)
    lo = lo.astype(np.int64)
    hi = cupy.minimum(lo + 1, last[None, :])
    rows = cupy.broadcast_to(cupy.arange(b)[None, :], pos.shape)
    below, above = s[rows, lo], s[rows, hi]
    diff = above - below                                      # NumPy's lerp: from the nearer end
    res = cupy.where(t >= 0.5, above - diff * (1 - t), below + diff * t)
    res = cupy.where(bad[None, :], cupy.full((), np.nan, work.dtype), res)
    return cupy.ascontiguousarray(res.astype(x.dtype)).reshape(tuple(out.shape))


KERNELS = bind("math_prims", globals(), xp=cupy, dev=dev, host=cupy.asnumpy, back=cupy.asarray,
               array_more=_ARRAY_MORE, add_at=scatter_add, sortable=sortable, reduce_segments=_reduce_segments,
               counts=_counts)["KERNELS"]
# (this backend's own: sorted and interpolated on the device)
KERNELS["Quantile"] = _device_quantile
