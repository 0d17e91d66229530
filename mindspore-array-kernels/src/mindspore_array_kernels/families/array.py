"""The kernels of ``mindspore/ops/_defs/array.py`` (casts, reshapes, joining and splitting, creation, the identities
and in-place assignment) but ``Fill``, bound (:func:`mindspore_array_kernels.bind`) with:

* ``xp``, the array library, and ``dev``, an operand as an ``xp`` array (no copy of one already);
* ``np_dtype(dtype)``, the NumPy dtype a MindSpore dtype is computed in (a backend refuses the dtypes its library
  has no kernels for: the GPU's float8);
* ``scalar(v)``, a Python scalar from a scalar operand (a number, or a one-element tensor read back);
* ``concatenate(xs, axis)``, ``xp.concatenate`` (on a GPU one copy per operand while a CUDA graph is captured);
* ``store(dst, value)``, ``value`` written into the buffer ``dst`` in place, cast to its dtype (``Assign``).

Kernels return fresh C-contiguous arrays (never views of an input that an in-place op could later modify), except
the reshapes (views) and the in-place ``Assign*`` kernels, which write into and return their first input.
``AssignAdd`` and ``AssignSub`` here are one in-place ufunc on the variable's buffer.
"""
import numpy as np

from mindspore_array_kernels.common import fit

BOUND = ("xp", "dev", "np_dtype", "scalar", "concatenate", "store")


def _cast(prim, x, dtype, out=None):
    x, target = dev(x), np_dtype(dtype)
    if x.dtype.kind == "c" and target.kind != "c":    # the real part, as MindSpore (bool too; NumPy would warn)
        x = x.real
    return x.astype(target)


def _cast_many(prim, inputs, dtypes, out=None):
    """Each input cast to its dtype (``out``: the inferred specs; every result a fresh array, as Cast's)."""
    return tuple(_cast(prim, x, o.dtype) for x, o in zip(inputs, out))


def _reshape(prim, x, shape, out=None):
    x = dev(x)
    return x.reshape(prim.infer_shape(x.shape, shape))


def _broadcast_to(prim, x, out=None):
    x = dev(x)
    shape = out.shape if out is not None else prim.infer_shape(x.shape)
    return xp.broadcast_to(x, shape).copy()   # (ascontiguousarray would make a 0-d result 1-d)


def _perm(perm, ndim):
    return tuple(p % ndim for p in perm) if ndim else ()


def _transpose(prim, x, perm, out=None):
    x = dev(x)
    return xp.asarray(xp.transpose(x, _perm(perm, x.ndim)), order="C")


def _joined(xs, out):
    """The operands of a join as ``xp`` arrays of the inferred dtype (they have one: no copy)."""
    xs = [dev(a) for a in xs]
    if out is None:
        return xs
    dt = out.dtype.to_numpy()
    return [a.astype(dt, copy=False) for a in xs]


def _concat(prim, xs, out=None):
    xs = _joined(xs, out)
    return concatenate(xs, prim.axis % xs[0].ndim)


def _split_v(prim, x, out=None):
    x = dev(x)
    shapes = prim.infer_shape(x.shape)
    axis = prim.split_dim % x.ndim
    bounds = np.cumsum([s[axis] for s in shapes])[:-1].tolist()
    return tuple(xp.asarray(p, order="C") for p in xp.split(x, bounds, axis=axis))


def _split(prim, x, out=None):
    x = dev(x)
    return tuple(xp.asarray(p, order="C") for p in xp.split(x, prim.output_num, axis=prim.axis % x.ndim))


def _stack(prim, xs, out=None):
    xs = _joined(xs, out)
    axis = prim.axis % (xs[0].ndim + 1)
    return concatenate([xp.expand_dims(a, axis) for a in xs], axis)


def _unstack(prim, x, out=None):
    x = dev(x)
    moved = xp.moveaxis(x, prim.axis % x.ndim, 0)
    # xp.array, not ascontiguousarray: keep the 0-D slices of a 1-D input 0-D (NumPy gives them as scalars)
    return tuple(xp.array(moved[i], copy=True, order="C") for i in range(moved.shape[0]))


def _expand_dims(prim, x, axis, out=None):
    x = dev(x)
    return x.reshape(prim.infer_shape(x.shape, axis))


def _squeeze(prim, x, out=None):
    x = dev(x)
    return x.reshape(prim.infer_shape(x.shape))


def _flatten(prim, x, out=None):
    x = dev(x)
    if x.ndim and x.size:     # (N, everything else): the rank was checked when the shapes were inferred
        return x.reshape(x.shape[0], -1)
    return x.reshape(prim.infer_shape(x.shape))


def _tile(prim, x, multiples, out=None):
    return xp.tile(dev(x), tuple(multiples))


def _zeros(prim, size, dtype, out=None):
    return xp.zeros(size, dtype=np_dtype(dtype))


def _ones(prim, size, dtype, out=None):
    return xp.ones(size, dtype=np_dtype(dtype))


def _eye(prim, n, m, dtype, out=None):
    return xp.eye(n, m, dtype=np_dtype(dtype))


def _range(prim, start, limit, delta, out=None):
    start, limit, delta = (scalar(v) for v in (start, limit, delta))
    n = prim.infer_shape(start, limit, delta)[0]  # validates delta and the sign, and the length
    steps = xp.arange(n, dtype=np.float64 if isinstance(delta, float) else np.int64)
    return fit(start + delta * steps, out)


def _linspace(prim, start, stop, num, out=None):
    start, stop, num = scalar(start), scalar(stop), int(scalar(num))
    return fit(xp.linspace(start, stop, num, dtype=np.float64), out)


def _depend(prim, value, expr, out=None):
    return dev(value)


def _reverse(prim, x, out=None):
    x = dev(x)
    return xp.flip(x, tuple(prim.axis)).copy() if prim.axis else x.copy()


def _pad(prim, x, out=None):
    return xp.pad(dev(x), [tuple(p) for p in prim.paddings])


def _meshgrid(prim, xs, out=None):
    return tuple(xp.asarray(g, order="C") for g in xp.meshgrid(*[dev(a) for a in xs], indexing=prim.indexing))


def _assign(prim, variable, value, out=None):
    return store(variable, value)


def _assign_add(prim, variable, value, out=None):
    xp.add(variable, value, out=variable, casting="unsafe")
    return variable


def _assign_sub(prim, variable, value, out=None):
    xp.subtract(variable, value, out=variable, casting="unsafe")
    return variable


KERNELS = {
    "Cast": _cast,
    "CastMany": _cast_many,
    "Reshape": _reshape,
    "Transpose": _transpose,
    "Concat": _concat,
    "SplitV": _split_v,
    "Split": _split,
    "Stack": _stack,
    "Unstack": _unstack,
    "ExpandDims": _expand_dims,
    "Squeeze": _squeeze,
    "Flatten": _flatten,
    "Tile": _tile,
    "BroadcastTo": _broadcast_to,
    "ZerosLike": lambda prim, x, out=None: xp.zeros_like(dev(x)),
    "OnesLike": lambda prim, x, out=None: xp.ones_like(dev(x)),
    "Zeros": _zeros,
    "Ones": _ones,
    "Eye": _eye,
    "Range": _range,
    "LinSpace": _linspace,
    "StopGradient": lambda prim, x, out=None: dev(x),
    "Identity": lambda prim, x, out=None: dev(x).copy(),
    "Depend": _depend,
    "ReverseV2": _reverse,
    "Pad": _pad,
    "Meshgrid": _meshgrid,
    "Tril": lambda prim, x, out=None: xp.tril(dev(x), prim.diagonal),
    "Triu": lambda prim, x, out=None: xp.triu(dev(x), prim.diagonal),
    "Assign": _assign,
    "AssignAdd": _assign_add,
    "AssignSub": _assign_sub,
}
