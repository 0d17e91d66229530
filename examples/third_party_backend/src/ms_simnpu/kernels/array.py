"""SimNPU kernels of the array family: casts, reshapes, constant tensors, and the in-place assignments.

Kernels that only change the view of the data (Reshape, Flatten, ...) still return fresh buffers
(:func:`new_buffer` copies); the in-place ``Assign*`` kernels write into their first argument's
buffer and return that same buffer, which is how a Parameter is updated on a device.
"""
import numpy as np

from ms_simnpu.kernels._util import device_array, new_buffer, operand


def cast(prim, x, dtype, *, out):
    return new_buffer(device_array(x), out)   # new_buffer converts to out.dtype, which is ``dtype``


def same_data_new_shape(prim, x, *args, out):
    """Reshape, Flatten, ExpandDims, Squeeze: the shape is the one core inferred."""
    return new_buffer(device_array(x).reshape(out.shape), out)


def transpose(prim, x, perm, *, out):
    a = device_array(x)
    return new_buffer(np.transpose(a, tuple(p % a.ndim for p in perm)) if a.ndim else a, out)


def broadcast_to(prim, x, *, out):
    return new_buffer(np.broadcast_to(device_array(x), out.shape), out)


def fill(prim, dtype, shape, value, *, out):
    return new_buffer(np.full(out.shape, operand(value)), out)


def zeros(prim, size, dtype, *, out):
    return new_buffer(np.zeros(out.shape), out)


def ones(prim, size, dtype, *, out):
    return new_buffer(np.ones(out.shape), out)


def zeros_like(prim, x, *, out):
    return new_buffer(np.zeros(out.shape), out)


def ones_like(prim, x, *, out):
    return new_buffer(np.ones(out.shape), out)


def copy(prim, x, *, out):
    """Identity and StopGradient: the same values in a new buffer."""
    return new_buffer(device_array(x), out)


def depend(prim, value, expr, *, out):
    """``value`` itself: Depend only orders ``expr`` before the uses of ``value``."""
    return value


def _in_place(update):
    def kernel(prim, variable, value, *, out):
        target = device_array(variable)
        update(target, operand(value))
        return variable
    kernel.__name__ = update.__name__
    return kernel


def _assign(target, value):
    np.copyto(target, value, casting="unsafe")


def _assign_add(target, value):
    np.add(target, value, out=target, casting="unsafe")


def _assign_sub(target, value):
    np.subtract(target, value, out=target, casting="unsafe")


KERNELS = {
    "Cast": cast,
    "Reshape": same_data_new_shape,
    "Flatten": same_data_new_shape,
    "ExpandDims": same_data_new_shape,
    "Squeeze": same_data_new_shape,
    "Transpose": transpose,
    "BroadcastTo": broadcast_to,
    "Fill": fill,
    "Zeros": zeros,
    "Ones": ones,
    "ZerosLike": zeros_like,
    "OnesLike": ones_like,
    "Identity": copy,
    "StopGradient": copy,
    "Depend": depend,
    "Assign": _in_place(_assign),
    "AssignAdd": _in_place(_assign_add),
    "AssignSub": _in_place(_assign_sub),
}
