"""CPU kernels of the control family: the gradient hooks and ``MoveTo``/``Reusing`` forward their inputs,
``Assert``/``CheckNumerics`` check, ``TensorDump`` writes ``.npy`` files, ``PyFunc`` runs the user's function on
the NumPy inputs (cast to the declared output specs)."""
import os
import sys

import numpy as np


def _identity(prim, *inputs, out=None):
    if isinstance(out, tuple):
        return tuple(np.array(x, copy=True) for x in inputs)
    return np.array(inputs[0], copy=True)


def _summary(x, n):
    flat = np.asarray(x).reshape(-1)
    if flat.dtype.name == "bfloat16":
        flat = flat.astype(np.float32)
    return str(flat[:max(n, 0)])


def _assert(prim, condition, input_data, out=None):
    if not bool(np.asarray(condition).reshape(-1)[0]):
        lines = ["For 'Assert' condition is false."]
        lines += [f"input data: {_summary(x, prim.summarize)}" for x in input_data]
        text = "\n".join(lines)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        raise RuntimeError("assert failed\n" + text)
    return np.ones((1,), np.int32)


def _check_numerics(prim, x, out=None):
    if np.isnan(x).any():
        raise RuntimeError("For 'CheckNumerics': Tensor had NaN values")
    if np.isinf(x).any():
        raise RuntimeError("For 'CheckNumerics': Tensor had Inf values")
    return x.copy()


def dump(prim, file, x):
    """Save ``x`` as ``<file>_<dtype>_<n>.npy`` (``n`` from the primitive's process-wide counter)."""
    base = file[:-4] if file.endswith(".npy") else file
    directory = os.path.dirname(os.path.abspath(base))
    os.makedirs(directory, exist_ok=True)
    arr = np.asarray(x)
    name = arr.dtype.name
    if name == "bfloat16":
        arr = arr.astype(np.float32)
    np.save(f"{base}_{name}_{prim.next_index()}.npy", arr)


def _tensor_dump(prim, file, x, out=None):
    dump(prim, file, x)
    return np.zeros((), np.int32)


def _dump_gradient(prim, path, x, input_output, out=None):
    return x.copy()


def _one(value, spec):
    arr = np.asarray(value)
    if tuple(arr.shape) != tuple(spec.shape):
        raise RuntimeError(f"For 'PyFunc', the function returned shape {arr.shape}, but 'out_shapes' declared "
                           f"{tuple(spec.shape)}.")
    return np.ascontiguousarray(arr.astype(spec.dtype.to_numpy(), copy=False))


def _py_func(prim, *inputs, out=None):
    result = prim.fn(*inputs)
    if not prim.out_types:
        return np.zeros((), np.int32)
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
    return x.copy()


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
