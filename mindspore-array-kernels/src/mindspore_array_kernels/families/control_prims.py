"""The kernels of ``mindspore/ops/_defs/control_prims.py``: the gradient hooks and ``MoveTo``/``Reusing`` forward
(a copy of) their inputs, ``Assert``/``CheckNumerics`` check, ``TensorDump`` writes ``.npy`` files and ``PyFunc`` runs
the user's function on NumPy inputs (its results cast to the declared output specs). Bound
(:func:`mindspore_array_kernels.bind`) with ``xp``, the array library, and two movers: ``host`` (an array as NumPy:
what ``Assert`` prints, ``TensorDump`` saves and the user's function gets) and ``back`` (a NumPy array as an ``xp``
array: the user's results).
"""
import os
import sys

import numpy as np

BOUND = ("xp", "host", "back")


def _identity(prim, *inputs, out=None):
    if isinstance(out, tuple):
        return tuple(xp.array(x, copy=True) for x in inputs)
    return xp.array(inputs[0], copy=True)


def _as_saved(arr):
    """A NumPy array as it is printed and saved: bfloat16 as float32 (exact; NumPy prints and saves no bfloat16)."""
    return arr.astype(np.float32) if arr.dtype.name == "bfloat16" else arr


def _summary(x, n):
    return str(_as_saved(host(x).reshape(-1))[:max(n, 0)])


def _assert(prim, condition, input_data, out=None):
    if not bool(host(condition).reshape(-1)[0]):
        lines = ["For 'Assert' condition is false."]
        lines += [f"input data: {_summary(x, prim.summarize)}" for x in input_data]
        text = "\n".join(lines)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        raise RuntimeError("assert failed\n" + text)
    return xp.ones((1,), np.int32)


def _check_numerics(prim, x, out=None):
    if bool(xp.isnan(x).any()):
        raise RuntimeError("For 'CheckNumerics': Tensor had NaN values")
    if bool(xp.isinf(x).any()):
        raise RuntimeError("For 'CheckNumerics': Tensor had Inf values")
    return x.copy()


def dump(prim, file, x):
    """Save ``x`` as ``<file>_<dtype>_<n>.npy`` (``n`` from the primitive's process-wide counter)."""
    base = file[:-4] if file.endswith(".npy") else file
    directory = os.path.dirname(os.path.abspath(base))
    os.makedirs(directory, exist_ok=True)
    arr = host(x)
    np.save(f"{base}_{arr.dtype.name}_{prim.next_index()}.npy", _as_saved(arr))


def _tensor_dump(prim, file, x, out=None):
    dump(prim, file, x)
    return xp.zeros((), np.int32)


def _dump_gradient(prim, path, x, input_output, out=None):
    return x.copy()


def _one(value, spec):
    arr = np.asarray(value)
    if tuple(arr.shape) != tuple(spec.shape):
        raise RuntimeError(f"For 'PyFunc', the function returned shape {arr.shape}, but 'out_shapes' declared "
                           f"{tuple(spec.shape)}.")
    return back(np.ascontiguousarray(arr.astype(spec.dtype.to_numpy(), copy=False)))


def _py_func(prim, *inputs, out=None):
    result = prim.fn(*(host(x) if isinstance(x, xp.ndarray) else x for x in inputs))
    if not prim.out_types:
        return xp.zeros((), np.int32)
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
