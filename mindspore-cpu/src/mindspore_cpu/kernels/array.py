"""CPU kernels of the array family.

Kernels return fresh C-contiguous arrays (never views of an input that an in-place op could later
modify), except the in-place ``Assign*`` kernels, which write into and return their first input.
"""
import numpy as np

from mindspore_cpu.kernels._out import fit


def _cast(prim, x, dtype, out=None):
    return x.astype(dtype.to_numpy())


def _reshape(prim, x, shape, out=None):
    return x.reshape(prim.infer_shape(x.shape, shape))


def _fill(prim, dtype, shape, value, out=None):
    return np.full(shape, np.asarray(value), dtype=dtype.to_numpy())


def _broadcast_to(prim, x, out=None):
    shape = out.shape if out is not None else prim.infer_shape(x.shape)
    return np.broadcast_to(x, shape).copy()   # (np.ascontiguousarray would make a 0-d result 1-d)


def _transpose(prim, x, perm, out=None):
    return np.asarray(np.transpose(x, _perm(perm, x.ndim)), order="C")


def _perm(perm, ndim):
    return tuple(p % ndim for p in perm) if ndim else ()


def _concat(prim, xs, out=None):
    return np.concatenate(xs, axis=prim.axis % xs[0].ndim)


def _split_v(prim, x, out=None):
    shapes = prim.infer_shape(x.shape)
    axis = prim.split_dim % x.ndim
    bounds = np.cumsum([s[axis] for s in shapes])[:-1]
    return tuple(np.asarray(p, order="C") for p in np.split(x, bounds, axis=axis))


def _split(prim, x, out=None):
    return tuple(np.asarray(p, order="C") for p in np.split(x, prim.output_num, axis=prim.axis % x.ndim))


def _stack(prim, xs, out=None):
    return np.stack(xs, axis=prim.axis % (xs[0].ndim + 1))


def _unstack(prim, x, out=None):
    axis = prim.axis % x.ndim
    # np.array, not np.ascontiguousarray: the slices of a 1-D input are 0-D, which the latter makes 1-D
    return tuple(np.array(p, copy=True) for p in np.moveaxis(x, axis, 0))


def _expand_dims(prim, x, axis, out=None):
    return x.reshape(prim.infer_shape(x.shape, axis))


def _squeeze(prim, x, out=None):
    return x.reshape(prim.infer_shape(x.shape))


def _flatten(prim, x, out=None):
    if x.ndim and x.size:     # (N, everything else): the rank was checked when the shapes were inferred
        return x.reshape(x.shape[0], -1)
    return x.reshape(prim.infer_shape(x.shape))


def _tile(prim, x, multiples, out=None):
    return np.tile(x, multiples)


def _zeros(prim, size, dtype, out=None):
    return np.zeros(size, dtype=dtype.to_numpy())


def _ones(prim, size, dtype, out=None):
    return np.ones(size, dtype=dtype.to_numpy())


def _eye(prim, n, m, dtype, out=None):
    return np.eye(n, m, dtype=dtype.to_numpy())


def _range(prim, start, limit, delta, out=None):
    start, limit, delta = (np.asarray(v).item() for v in (start, limit, delta))
    n = prim.infer_shape(start, limit, delta)[0]  # validates delta and the sign, and the length
    result = np.asarray(start + delta * np.arange(n, dtype=np.float64 if isinstance(delta, float) else np.int64))
    return fit(result, out)


def _linspace(prim, start, stop, num, out=None):
    return fit(np.linspace(np.asarray(start).item(), np.asarray(stop).item(), int(np.asarray(num).item())), out)


def _depend(prim, value, expr, out=None):
    return value


def _reverse(prim, x, out=None):
    return np.flip(x, prim.axis).copy() if prim.axis else x.copy()


def _pad(prim, x, out=None):
    return np.pad(x, prim.paddings)


def _meshgrid(prim, xs, out=None):
    return tuple(np.asarray(g, order="C") for g in np.meshgrid(*xs, indexing=prim.indexing))


def _assign(prim, variable, value, out=None):
    np.copyto(variable, value, casting="unsafe")
    return variable


def _assign_add(prim, variable, value, out=None):
    np.add(variable, value, out=variable, casting="unsafe")
    return variable


def _assign_sub(prim, variable, value, out=None):
    np.subtract(variable, value, out=variable, casting="unsafe")
    return variable


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
    "Flatten": _flatten,
    "Tile": _tile,
    "BroadcastTo": _broadcast_to,
    "ZerosLike": lambda prim, x, out=None: np.zeros_like(x),
    "OnesLike": lambda prim, x, out=None: np.ones_like(x),
    "Fill": _fill,
    "Zeros": _zeros,
    "Ones": _ones,
    "Eye": _eye,
    "Range": _range,
    "LinSpace": _linspace,
    "StopGradient": lambda prim, x, out=None: x,
    "Identity": lambda prim, x, out=None: x.copy(),
    "Depend": _depend,
    "ReverseV2": _reverse,
    "Pad": _pad,
    "Meshgrid": _meshgrid,
    "Tril": lambda prim, x, out=None: np.tril(x, prim.diagonal),
    "Triu": lambda prim, x, out=None: np.triu(x, prim.diagonal),
    "Assign": _assign,
    "AssignAdd": _assign_add,
    "AssignSub": _assign_sub,
}
