"""GPU kernels of the control family: the checks, ``TensorDump`` and ``PyFunc`` copy to the host (the user's
function and ``numpy.save`` work on host arrays) and back; the forwarding ops copy on the device."""
import os
import sys

import cupy
import numpy


def _identity(prim, *inputs, out=None):
    if isinstance(out, tuple):
        return tuple(cupy.array(x, copy=True) for x in inputs)
    return cupy.array(inputs[0], copy=True)


def _assert(prim, condition, input_data, out=None):
    if not bool(cupy.asnumpy(condition).reshape(-1)[0]):
        lines = ["For 'Assert' condition is false."]
        for x in input_data:
            flat = numpy.asarray(cupy.asnumpy(x)).reshape(-1)
            lines.append(f"input data: {flat[:max(prim.summarize, 0)]}")
        text = "\n".join(lines)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        raise RuntimeError("assert failed\n" + text)
    return cupy.ones((1,), numpy.int32)


def _check_numerics(prim, x, out=None):
    if bool(cupy.isnan(x).any()):
        raise RuntimeError("For 'CheckNumerics': Tensor had NaN values")
    if bool(cupy.isinf(x).any()):
        raise RuntimeError("For 'CheckNumerics': Tensor had Inf values")
    return cupy.array(x, copy=True)


def _tensor_dump(prim, file, x, out=None):
    base = file[:-4] if file.endswith(".npy") else file
    os.makedirs(os.path.dirname(os.path.abspath(base)), exist_ok=True)
    arr = numpy.asarray(cupy.asnumpy(x))
    name = arr.dtype.name
    if name == "bfloat16":
        arr = arr.astype(numpy.float32)
    numpy.save(f"{base}_{name}_{prim.next_index()}.npy", arr)
    return cupy.zeros((), numpy.int32)


def _dump_gradient(prim, path, x, input_output, out=None):
    return cupy.array(x, copy=True)


def _one(value, spec):
    arr = numpy.asarray(value)
    if tuple(arr.shape) != tuple(spec.shape):
        raise RuntimeError(f"For 'PyFunc', the function returned shape {arr.shape}, but 'out_shapes' declared "
                           f"{tuple(spec.shape)}.")
    return cupy.asarray(numpy.ascontiguousarray(arr.astype(spec.dtype.to_numpy(), copy=False)))


def _py_func(prim, *inputs, out=None):
    host = [cupy.asnumpy(x) if isinstance(x, cupy.ndarray) else x for x in inputs]
    result = prim.fn(*host)
    if not prim.out_types:
        return cupy.zeros((), numpy.int32)
    if isinstance(out, tuple):
        if not isinstance(result, (tuple, list)) or len(result) != len(out):
            raise RuntimeError(f"For 'PyFunc', the function must return {len(out)} arrays, but got "
                               f"{type(result).__name__}.")
        return tuple(_one(r, o) for r, o in zip(result, out))
    if isinstance(result, (tuple, list)):
        if len(result) != 1:
            raise RuntimeError(f"For 'PyFunc', the function must return 1 array, but got {len(result)}.")
        result = result[0]
    return _one(result, out)


def _move_to(prim, x, to, blocking, out=None):
    return cupy.array(x, copy=True)


KERNELS = {
    "HookBackward": _identity,
    "InsertGradientOf": _identity,
    "Assert": _assert,
    "CheckNumerics": _check_numerics,
    "TensorDump": _tensor_dump,
    "DumpGradient": _dump_gradient,
    "PyFunc": _py_func,
    "MoveTo": _move_to,
    "Reusing": _identity,
}
