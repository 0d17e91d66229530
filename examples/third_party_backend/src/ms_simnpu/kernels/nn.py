"""SimNPU kernels of the nn family: activations, softmax, bias add, and the Momentum update."""
import numpy as np

from ms_simnpu.kernels._util import compute_dtype, device_array, new_buffer, operand


def relu(prim, x, *, out):
    a = device_array(x)
    return new_buffer(np.maximum(a, np.zeros((), a.dtype)), out)


def relu_grad(prim, dy, y, *, out):
    """``dy`` where ``y > 0``, else 0 (a select: a NaN in ``dy`` where ``y <= 0`` gives 0)."""
    g = device_array(dy)
    return new_buffer(np.where(device_array(y) > 0, g, np.zeros((), g.dtype)), out)


def sigmoid(prim, x, *, out):
    a = operand(x, compute_dtype(out))
    with np.errstate(over="ignore"):
        return new_buffer(np.exp(-np.logaddexp(0, -a)), out)


def _axes(axis):
    return tuple(axis) if isinstance(axis, (tuple, list)) else axis


def softmax(prim, x, *, out):
    a = operand(x, compute_dtype(out))
    axis = _axes(prim.axis)
    e = np.exp(a - np.max(a, axis=axis, keepdims=True))
    return new_buffer(e / np.sum(e, axis=axis, keepdims=True), out)


def log_softmax(prim, x, *, out):
    a = operand(x, compute_dtype(out))
    shifted = a - np.max(a, axis=prim.axis, keepdims=True)
    return new_buffer(shifted - np.log(np.sum(np.exp(shifted), axis=prim.axis, keepdims=True)), out)


def bias_add(prim, x, bias, *, out):
    """``bias`` (C,) added along the channel axis (axis 1, or the last one for NHWC)."""
    a, b = device_array(x), device_array(bias)
    if prim.data_format != "NHWC":
        b = b.reshape((1, b.size) + (1,) * (a.ndim - 2))
    return new_buffer(a + b, out)


def apply_momentum(prim, variable, accumulation, learning_rate, gradient, momentum, *, out):
    """In place, in MindSpore's order of operations::

        accumulation = accumulation * momentum + gradient * gradient_scale
        variable -= learning_rate * accumulation          (or the Nesterov form)

    ``learning_rate`` and ``momentum`` are numbers or one-element buffers.
    """
    var, acc = device_array(variable), device_array(accumulation)
    dt = var.dtype
    lr = operand(learning_rate, dt).reshape(())
    mu = operand(momentum, dt).reshape(())
    g = device_array(gradient)
    if prim.gradient_scale != 1.0:
        g = g * np.asarray(prim.gradient_scale, dt)
    np.multiply(acc, mu, out=acc)
    np.add(acc, g, out=acc)
    if prim.use_nesterov:
        np.subtract(var, g * lr + acc * mu * lr, out=var)
    else:
        np.subtract(var, acc * lr, out=var)
    return variable


KERNELS = {
    "ReLU": relu,
    "ReluGrad": relu_grad,
    "Sigmoid": sigmoid,
    "Softmax": softmax,
    "LogSoftmax": log_softmax,
    "BiasAdd": bias_add,
    "ApplyMomentum": apply_momentum,
}
