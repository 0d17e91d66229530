"""CPU kernels of ``mindspore/ops/_defs/reduce.py``: mindspore-array-kernels' ``reduce`` family bound to NumPy (the
GPU backend binds the same source to CuPy), with NumPy's error state quieted around the arithmetic, NumPy's own
accumulation in ``ReduceSum``/``ReduceProd``/``ReduceMean`` except for float16, which accumulates in float32 and
rounds once (MindSpore 2.10's CPU has no float16 kernel for them: it runs the float32 one), bfloat16 sorted and
compared as it is, the NaN rule's short cut where a slice holds no NaN (read on the host for free) and
``ufunc.accumulate`` for the running extrema; float16 ReduceSum and ReduceMean add in the order of 2.10's float32
CPU kernel (:func:`sum_f32`), bit for bit. float32 keeps NumPy's pairwise sums: 2.10's order would cost 2-7x on
common shapes (a (64, 10) row sum: 57 against 8 us) for a difference of an ulp or two."""
import numpy as np

from mindspore_array_kernels import bind


def _library_acc(x):
    return np.float32 if x.dtype == np.float16 else None


def _same(x):
    return x


def _clear(mask):
    return not mask.any()


def _accumulate(ufunc, a):
    return ufunc.accumulate(a, axis=0)


KERNELS = bind("reduce", globals(), xp=np, dev=np.asarray, errstate=np.errstate, acc_dtype=_library_acc,
               sortable=_same, known_clear=_clear, scan=_accumulate)["KERNELS"]

# --- float16 ReduceSum / ReduceMean in the order of 2.10's float32 kernel (which it runs them on) -------------
_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_PLAIN = dict(KERNELS)


def _reduced_axes(x, axis):
    if x.ndim == 0 or axis is None or axis == () or axis == []:
        return tuple(range(x.ndim))
    return tuple(sorted({a % x.ndim for a in ((axis,) if isinstance(axis, int) else axis)}))


def lane_sums(a):
    """The eight running sums (an AVX register) of each row of a 2-D float32 array over its first ``8 * (n // 8)``
    values, shape (rows, 8): row ``r``'s lane ``i`` adds ``a[r, i], a[r, 8 + i], ...`` in order."""
    rows, n = a.shape
    blocks = n // 8
    if not blocks:
        return np.zeros((rows, 8), _F32)
    # (blocks, rows * 8), then an axis-0 reduction: block after block, each vectorised over rows and lanes
    stacked = np.ascontiguousarray(a[:, :8 * blocks].reshape(rows, blocks, 8).transpose(1, 0, 2))
    return stacked.reshape(blocks, rows * 8).sum(axis=0).reshape(rows, 8)


def _sum_rows_8_lanes(a):
    """Row sums of a 2-D float32 array as nnacl's ReduceSumDim2Axis1 adds them: :func:`lane_sums`, the lanes added
    in order, then the remaining values one by one."""
    lanes = lane_sums(a)
    total = np.zeros(a.shape[0], _F32)
    for i in range(8):
        total = total + lanes[:, i]
    for j in range(a.shape[1] - a.shape[1] % 8, a.shape[1]):
        total = total + a[:, j]
    return total


def sum_f32(x, axes, mean):
    """float32 ``x`` summed (or averaged) over ``axes`` (not kept) as MindSpore 2.10's CPU kernel does: a 2-D input
    over axis 1 in :func:`_sum_rows_8_lanes`' order (the mean then divides in float32); ReduceSum over axis 0 (any
    other reduced axes of size 1) in order down that axis; everything else accumulated in float64 and rounded to
    float32 once (the mean then divides in float32)."""
    n = max(int(np.prod([x.shape[a] for a in axes])), 1)
    if x.ndim == 2 and axes == (1,):
        res = _sum_rows_8_lanes(np.ascontiguousarray(x))
    elif not mean and x.ndim >= 2 and axes[0] == 0 and all(x.shape[a] == 1 for a in axes[1:]):
        cols = np.ascontiguousarray(x).reshape(x.shape[0], -1)
        # an axis-0 reduction adds row after row; a single column would be summed pairwise, so accumulate it
        res = cols.sum(axis=0) if cols.shape[1] > 1 else np.add.accumulate(cols[:, 0])[-1:]
        return res.reshape([d for i, d in enumerate(x.shape) if i not in axes])
    else:
        res = x.sum(axis=axes, dtype=_F64).astype(_F32)
    return res / np.float32(n) if mean else res


def _ordered(name, mean):
    def kernel(prim, x, axis=(), out=None):
        x = np.asarray(x)
        if x.dtype != _F16 or x.size == 0 or x.ndim == 0 \
                or (not mean and prim.skip_mode and (axis is None or axis == () or axis == [])):
            return _PLAIN[name](prim, x, axis, out=out)
        axes = _reduced_axes(x, axis)
        with np.errstate(invalid="ignore", over="ignore"):
            res = np.asarray(sum_f32(x.astype(_F32) if x.dtype == _F16 else x, axes, mean), _F32)
        if prim.keep_dims:
            res = res.reshape([1 if i in axes else d for i, d in enumerate(x.shape)])
        return res.astype(x.dtype) if out is None else res.astype(out.dtype.to_numpy())
    kernel.__name__ = f"_{name}_ordered"
    return kernel


KERNELS.update({"ReduceSum": _ordered("ReduceSum", False), "ReduceMean": _ordered("ReduceMean", True)})
