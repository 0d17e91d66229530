"""GPU kernels of the array family (``mindspore/ops/_defs/array.py``: casts, shapes, joining/splitting, creation,
in-place assignment): mindspore-array-kernels' ``array`` family bound to CuPy (the CPU backend binds the same source
to NumPy), with ``_common.dev`` (no copy for a CuPy array already on the device), the dtypes CuPy has kernels for
(float8 refused), ``_common.scalar_of`` for scalar operands, :func:`concatenate` (a copy per operand while a CUDA
graph is captured) for the joins and ``_common.store`` for ``Assign``; and this backend's own kernels:

* ``Fill``: an empty buffer with the value written in (a Python value is never uploaded as an array first);
* ``AssignAdd``/``AssignSub``: one launch in place where the variable is a device buffer the result's shape fits
  and the value does not overlap it elsewhere, else the result stored (a Parameter may still be a host array);
* ``CastMany`` (amp's parameter casts, and their gradients' casts back): the float32 <-> float16/bfloat16 casts of
  contiguous inputs, up to ``_common.SLOTS`` of one pair of dtypes in one launch of a hand-written kernel
  (``ms_cast_many``; ``_common.RAW_STORAGE``'s conversions, the bits of CuPy's casts but for NaN payloads, which are
  NumPy's), each other input cast as ``Cast`` casts it.

Like the CPU kernels they return fresh C-contiguous arrays, except the reshapes (views, as on the
CPU) and the in-place ``Assign*`` kernels, which write into and return their first input.
"""
import cupy
import numpy

from mindspore.plugin import MSTypeError
from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import (BF16, F16, F32, SLOTS, UNSUPPORTED_DTYPES, FusedUnavailable, RawKernels,
                                           dev, launch_slots, scalar_of, slots_source, store)

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)


# (UNSUPPORTED_DTYPES: ml_dtypes' float8 types, as the GPU runtime refuses them. bfloat16 is supported: CuPy 14 casts
# to/from it and computes with it; the kernels that sort or scan widen it to float32.)
def _np_dtype(dtype):
    dt = numpy.dtype(dtype.to_numpy())
    if dt in UNSUPPORTED_DTYPES:
        raise MSTypeError(f"For 'Cast', the GPU backend does not support dtype {dt.name} (CuPy has no kernels for "
                          f"it); use bfloat16, float16 or float32.")
    return dt


def concatenate(xs, axis):
    """``cupy.concatenate``, or while a stream captures a CUDA graph one copy per input into the result: CuPy's
    concatenation uploads its operands' pointers from the host, which a capture refuses (seen on the H200)."""
    if not cupy.cuda.get_current_stream().is_capturing():
        return cupy.concatenate(xs, axis=axis)
    shape = list(xs[0].shape)
    shape[axis] = sum(a.shape[axis] for a in xs)
    y = cupy.empty(tuple(shape), xs[0].dtype)
    start = 0
    for a in xs:
        y[(slice(None),) * axis + (slice(start, start + a.shape[axis]),)] = a
        start += a.shape[axis]
    return y


KERNELS = bind("array", globals(), xp=cupy, dev=dev, np_dtype=_np_dtype, scalar=scalar_of, concatenate=concatenate,
               store=store)["KERNELS"]


def _fill(prim, dtype, shape, value, *, out):
    r = cupy.empty(tuple(shape) if isinstance(shape, (tuple, list)) else shape, dtype=_np_dtype(dtype))
    r[...] = value if not isinstance(value, (cupy.ndarray, numpy.ndarray)) else _dev(value)
    return r


def _assign_op(ufunc, name):
    def kernel(prim, variable, value, *, out):
        """In place: one launch (``ufunc(variable, value, out=variable)``, cast back as a store casts) on a device
        buffer that the result's shape fits; otherwise the result stored."""
        if isinstance(value, (cupy.ndarray, numpy.ndarray)):
            value = _dev(value)
            # (a value overlapping the variable elsewhere than element for element would be read while written)
            fits = numpy.broadcast_shapes(variable.shape, value.shape) == variable.shape and \
                (value is variable or not cupy.may_share_memory(variable, value))
        else:
            fits = True
        if isinstance(variable, cupy.ndarray) and fits:
            ufunc(variable, value, out=variable, casting="unsafe")
            return variable
        return store(variable, ufunc(_dev(variable), value))
    kernel.__name__ = kernel.__qualname__ = name
    return kernel


#: The casts ``ms_cast_many`` takes: float32 to and from the 16-bit floats, one rounding each, as NumPy's and CuPy's
#: (float64 -> float16 rounds once from float64 there, not through float32, so it is not among them).
_CAST_PAIRS = ((F32, F16), (F32, BF16), (F16, F32), (BF16, F32))
_CAST_MANY = RawKernels("ms_cast_many", slots_source("ms_cast_many", "S", "D", """
    for (long long i = first; i < n; i += stride) ms_put(d[i], ms_get(s[i]));"""), ("ms_cast_many",),
                        bindings=[dict(S=a, D=b) for a, b in _CAST_PAIRS])
_CAST = KERNELS["CastMany"]     # (the family's: a Cast per input)


def _cast_many_raw(prim, inputs, dtypes, out=None):
    """Each input cast to its dtype (``out``: the inferred specs), every result a fresh array: the contiguous
    float32 <-> float16/bfloat16 casts :data:`SLOTS` of a pair of dtypes to a launch of ``ms_cast_many``, the others
    as ``Cast`` (fusion off, or a kernel that did not compile: all of them)."""
    results = [None] * len(inputs)
    groups = {}
    if _CAST_MANY.enabled():
        for i, (x, o) in enumerate(zip(inputs, out)):
            if isinstance(x, cupy.ndarray) and x.size and x.flags.c_contiguous:
                pair = (x.dtype, _np_dtype(o.dtype))
                if pair in _CAST_PAIRS:
                    groups.setdefault(pair, []).append(i)
    for (_, dst), indices in groups.items():
        for start in range(0, len(indices), SLOTS) if len(indices) > 1 else ():
            chunk = indices[start:start + SLOTS]
            ys = [cupy.empty(inputs[i].shape, dst) for i in chunk]
            try:      # (eight values per thread)
                launch_slots(_CAST_MANY, "ms_cast_many", [(inputs[i], y, y.size) for i, y in zip(chunk, ys)], 8,
                             S=inputs[chunk[0]].dtype, D=dst)
            except FusedUnavailable:       # did not compile: the fused kernels are off, Cast's casts below
                break
            for i, y in zip(chunk, ys):
                results[i] = y
    if any(y is None for y in results):
        rest = [i for i, y in enumerate(results) if y is None]
        specs = tuple(out[i] for i in rest)
        for i, y in zip(rest, _CAST(prim, tuple(inputs[i] for i in rest), tuple(o.dtype for o in specs), out=specs)):
            results[i] = y
    return tuple(results)


KERNELS.update({
    "CastMany": _cast_many_raw,
    "Fill": _fill,
    "AssignAdd": _assign_op(cupy.add, "_assign_add"),
    "AssignSub": _assign_op(cupy.subtract, "_assign_sub"),
})
