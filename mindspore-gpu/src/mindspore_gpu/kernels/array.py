"""GPU kernels of the array family: casts, shapes, joining/splitting, creation, in-place assignment.

Like the CPU kernels they return fresh C-contiguous arrays, except the reshapes (views, as on the
CPU) and the in-place ``Assign*`` kernels, which write into and return their first input.
"""
import cupy
import numpy

from mindspore.plugin import MSTypeError
from mindspore_gpu.kernels._common import UNSUPPORTED_DTYPES, fit, scalar_of, store, dev

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)

# (UNSUPPORTED_DTYPES: ml_dtypes' float8 types, as the GPU runtime refuses them. bfloat16 is supported: CuPy 14 casts
# to/from it and computes with it; the kernels that sort or scan widen it to float32.)
def _np_dtype(dtype):
    dt = numpy.dtype(dtype.to_numpy())
    if dt in UNSUPPORTED_DTYPES:
        raise MSTypeError(f"For 'Cast', the GPU backend does not support dtype {dt.name} (CuPy has no kernels for "
                          f"it); use bfloat16, float16 or float32.")
    return dt


def _cast(prim, x, dtype, *, out):
    return _dev(x).astype(_np_dtype(dtype))


def _reshape(prim, x, shape, *, out):
    x = _dev(x)
    return x.reshape(prim.infer_shape(x.shape, shape))


def _fill(prim, dtype, shape, value, *, out):
    r = cupy.empty(tuple(shape) if isinstance(shape, (tuple, list)) else shape, dtype=_np_dtype(dtype))
    r[...] = value if not isinstance(value, (cupy.ndarray, numpy.ndarray)) else _dev(value)
    return r


def _broadcast_to(prim, x, *, out):
    x = _dev(x)
    shape = out.shape if out is not None else prim.infer_shape(x.shape)
    return cupy.broadcast_to(x, shape).copy()


def _perm(perm, ndim):
    return tuple(p % ndim for p in perm) if ndim else ()


def _transpose(prim, x, perm, *, out):
    x = _dev(x)
    return cupy.asarray(cupy.transpose(x, _perm(perm, x.ndim)), order="C")


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


def _concat(prim, xs, *, out):
    dt = out.dtype.to_numpy()
    xs = [_dev(a).astype(dt, copy=False) for a in xs]
    return concatenate(xs, prim.axis % xs[0].ndim)


def _split_v(prim, x, *, out):
    x = _dev(x)
    shapes = prim.infer_shape(x.shape)
    axis = prim.split_dim % x.ndim
    bounds = numpy.cumsum([s[axis] for s in shapes])[:-1].tolist()
    return tuple(cupy.asarray(p, order="C") for p in cupy.split(x, bounds, axis=axis))


def _split(prim, x, *, out):
    x = _dev(x)
    return tuple(cupy.asarray(p, order="C") for p in cupy.split(x, prim.output_num, axis=prim.axis % x.ndim))


def _stack(prim, xs, *, out):
    dt = out.dtype.to_numpy()
    xs = [_dev(a).astype(dt, copy=False) for a in xs]
    axis = prim.axis % (xs[0].ndim + 1)
    return concatenate([cupy.expand_dims(a, axis) for a in xs], axis)


def _unstack(prim, x, *, out):
    x = _dev(x)
    moved = cupy.moveaxis(x, prim.axis % x.ndim, 0)
    # .copy() (C order), not ascontiguousarray: keep the 0-D slices of a 1-D input 0-D
    return tuple(moved[i].copy() for i in range(moved.shape[0]))


def _expand_dims(prim, x, axis, *, out):
    x = _dev(x)
    return x.reshape(prim.infer_shape(x.shape, axis))


def _squeeze(prim, x, *, out):
    x = _dev(x)
    return x.reshape(prim.infer_shape(x.shape))


def _tile(prim, x, multiples, *, out):
    return cupy.tile(_dev(x), tuple(multiples))


def _zeros(prim, size, dtype, *, out):
    return cupy.zeros(size, dtype=_np_dtype(dtype))


def _ones(prim, size, dtype, *, out):
    return cupy.ones(size, dtype=_np_dtype(dtype))


def _eye(prim, n, m, dtype, *, out):
    return cupy.eye(n, m, dtype=_np_dtype(dtype))


def _range(prim, start, limit, delta, *, out):
    start, limit, delta = (scalar_of(v) for v in (start, limit, delta))
    n = prim.infer_shape(start, limit, delta)[0]  # validates delta and the sign, and the length
    steps = cupy.arange(n, dtype=numpy.float64 if isinstance(delta, float) else numpy.int64)
    return fit(start + delta * steps, out)


def _linspace(prim, start, stop, num, *, out):
    start, stop, num = scalar_of(start), scalar_of(stop), int(scalar_of(num))
    return fit(cupy.linspace(start, stop, num, dtype=numpy.float64), out)


def _reverse(prim, x, *, out):
    x = _dev(x)
    return cupy.flip(x, tuple(prim.axis)).copy() if prim.axis else x.copy()


def _pad(prim, x, *, out):
    return cupy.pad(_dev(x), [tuple(p) for p in prim.paddings])


def _meshgrid(prim, xs, *, out):
    return tuple(cupy.asarray(g, order="C") for g in cupy.meshgrid(*[_dev(a) for a in xs], indexing=prim.indexing))


def _assign(prim, variable, value, *, out):
    return store(variable, value)


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


_assign_add = _assign_op(cupy.add, "_assign_add")
_assign_sub = _assign_op(cupy.subtract, "_assign_sub")


KERNELS = {
    "Cast": _cast,
    "Reshape": _reshape,
    "Transpose": _transpose,
    "Concat": _concat,
    "SplitV": _split_v,
    "Split": _split,
    "Stack": _stack,
    "Unstack": _unstack,
    "ExpandDims": _expand_dims,
    "Squeeze": _squeeze,
    "Flatten": _squeeze,
    "Tile": _tile,
    "BroadcastTo": _broadcast_to,
    "ZerosLike": lambda prim, x, *, out: cupy.zeros_like(_dev(x)),
    "OnesLike": lambda prim, x, *, out: cupy.ones_like(_dev(x)),
    "Fill": _fill,
    "Zeros": _zeros,
    "Ones": _ones,
    "Eye": _eye,
    "Range": _range,
    "LinSpace": _linspace,
    "StopGradient": lambda prim, x, *, out: _dev(x),
    "Identity": lambda prim, x, *, out: _dev(x).copy(),
    "Depend": lambda prim, value, expr, *, out: _dev(value),
    "ReverseV2": _reverse,
    "Pad": _pad,
    "Meshgrid": _meshgrid,
    "Tril": lambda prim, x, *, out: cupy.tril(_dev(x), prim.diagonal),
    "Triu": lambda prim, x, *, out: cupy.triu(_dev(x), prim.diagonal),
    "Assign": _assign,
    "AssignAdd": _assign_add,
    "AssignSub": _assign_sub,
}
