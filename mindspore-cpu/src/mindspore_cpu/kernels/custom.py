"""CPU kernel of ``ops.Custom`` (``func_type="pyfunc"``): the user's function on the NumPy inputs, its result
checked against and cast to the inferred output spec(s)."""
import numpy as np


def _one(value, spec, name):
    arr = np.asarray(value)
    if spec.shape is not None and tuple(arr.shape) != tuple(spec.shape):
        raise RuntimeError(f"For 'Custom' ('{name}'), the function returned shape {arr.shape}, but 'out_shape' "
                           f"declared {tuple(spec.shape)}.")
    return np.ascontiguousarray(arr.astype(spec.dtype.to_numpy(), copy=False))


def _custom(prim, *inputs, out=None):
    result = prim.func(*inputs)
    if isinstance(out, tuple):
        if not isinstance(result, (tuple, list)) or len(result) != len(out):
            raise RuntimeError(f"For 'Custom' ('{prim.func_name}'), the function must return {len(out)} arrays, but "
                               f"got {type(result).__name__}.")
        return tuple(_one(r, o, prim.func_name) for r, o in zip(result, out))
    return _one(result, out, prim.func_name)


KERNELS = {"Custom": _custom}
