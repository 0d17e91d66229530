"""CPU kernels of ``mindspore/ops/_defs/reduce.py``: mindspore-array-kernels' ``reduce`` family bound to NumPy (the
GPU backend binds the same source to CuPy), with NumPy's error state quieted around the arithmetic, NumPy's own
accumulation in ``ReduceSum``/``ReduceProd``/``ReduceMean`` except for float16, which accumulates in float32 and
rounds once (MindSpore 2.10's CPU has no float16 kernel for them: it runs the float32 one), bfloat16 sorted and
compared as it is, the NaN rule's short cut where a slice holds no NaN (read on the host for free) and
``ufunc.accumulate`` for the running extrema; float32 and float16 ReduceSum and ReduceMean add in the order of
2.10's float32 CPU kernel (:func:`sum_f32`, C++), bit for bit."""
import math

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

# --- float32 (and float16) ReduceSum / ReduceMean in the order of 2.10's float32 kernel -------------------------
_F16, _F32 = np.dtype(np.float16), np.dtype(np.float32)
_PLAIN = dict(KERNELS)


_NATIVE = []


def _native():
    if not _NATIVE:
        from mindspore_cpu.kernels._native import _kernels
        _NATIVE.append(_kernels)
    return _NATIVE[0]


def _reduced_axes(x, axis):
    if x.ndim == 0 or axis is None or axis == () or axis == []:
        return tuple(range(x.ndim))
    return tuple(sorted({a % x.ndim for a in ((axis,) if isinstance(axis, int) else axis)}))


def sum_f32(x, axes, mean):
    """float32 ``x`` (ndim >= 1, not empty) summed (or averaged) over the sorted ``axes`` (not kept) as MindSpore
    2.10's CPU kernel does, in C++ (``_csrc/reduce.cpp``):

    * a 2-D input over axis 1: nnacl's ReduceSumDim2Axis1, eight float lanes then the rest one by one;
    * ReduceSum whose first reduced axis is 0 and whose other reduced axes have size 1: down axis 0 in order, in
      float;
    * everything else: each output's values, in the order of the reduced axes, added to a double and rounded once
      (2.10: "use double instead of float"). (A 1-D input of 200000 values or more 2.10 splits among its threads in
      float; that order, which depends on its thread count, is not reproduced.)

    A mean then divides in float32."""
    native = _native()
    x = np.ascontiguousarray(x, _F32)
    if x.ndim == 2 and axes == (1,):
        return native.sum_lanes_f32(x, mean)
    kept = [a for a in range(x.ndim) if a not in axes]
    out_shape = [x.shape[a] for a in kept]
    if not mean and x.ndim >= 2 and axes[0] == 0 and all(x.shape[a] == 1 for a in axes[1:]):
        return native.sum_columns_f32(x.reshape(x.shape[0], -1)).reshape(out_shape)
    size = math.prod(out_shape)
    if not kept or min(axes) > max(kept):     # the reduced values are the last ones of each output
        return native.sum_rows_f64(x.reshape(size, -1), mean).reshape(out_shape)
    if max(axes) < min(kept):                 # ... the first ones
        return native.sum_columns_f64(x.reshape(-1, size), mean).reshape(out_shape)
    moved = np.ascontiguousarray(x.transpose(kept + list(axes))).reshape(size, -1)
    return native.sum_rows_f64(moved, mean).reshape(out_shape)


def _ordered(name, mean):
    def kernel(prim, x, axis=(), out=None):
        x = np.asarray(x)
        if x.dtype not in (_F16, _F32) or x.size == 0 or x.ndim == 0 \
                or (not mean and prim.skip_mode and (axis is None or axis == () or axis == [])):
            return _PLAIN[name](prim, x, axis, out=out)
        axes = _reduced_axes(x, axis)
        res = np.asarray(sum_f32(x.astype(_F32) if x.dtype == _F16 else x, axes, mean), _F32)
        if prim.keep_dims:
            res = res.reshape([1 if i in axes else d for i, d in enumerate(x.shape)])
        return res.astype(x.dtype if out is None else out.dtype.to_numpy(), copy=False)
    kernel.__name__ = f"_{name}_ordered"
    return kernel


KERNELS.update({"ReduceSum": _ordered("ReduceSum", False), "ReduceMean": _ordered("ReduceMean", True)})


# --- float32 LpNorm (p = 1, 2) as 2.10's CPU kernel computes it, bit for bit ------------------------------------
_LP_SERIAL = 32768    # 2.10 splits larger inputs among its threads (an order that depends on their count)


def _lp_norm(prim, x, out=None):
    """2.10's float32 LpNorm for p = 1 and 2 up to 32768 values: each output's ``|x|`` (p = 1) or ``x * x`` (p = 2)
    added in float, in the order of the reduced axes (row-major), then ``max(sum ** (1/p), epsilon)``; otherwise the
    family's kernel."""
    x = np.asarray(x)
    if x.dtype != _F32 or prim.p not in (1, 2) or x.ndim == 0 or x.size == 0 or x.size > _LP_SERIAL:
        return _PLAIN["LpNorm"](prim, x, out=out)
    axes = _reduced_axes(x, prim.axis)
    kept = [a for a in range(x.ndim) if a not in axes]
    # each output's terms in a row (the reduced axes last, row-major), added in order in float (C++)
    moved = x.transpose(kept + list(axes)).reshape(math.prod(x.shape[a] for a in kept), -1)
    total = _native().row_sums_in_order_f32(np.ascontiguousarray(np.abs(moved) if prim.p == 1 else moved * moved))
    with np.errstate(invalid="ignore"):
        res = np.maximum(total if prim.p == 1 else np.sqrt(total), np.float32(prim.epsilon))
    shape = [1 if i in axes else d for i, d in enumerate(x.shape)] if prim.keep_dims else [x.shape[a] for a in kept]
    return np.asarray(res.reshape(shape), _F32)


KERNELS["LpNorm"] = _lp_norm
