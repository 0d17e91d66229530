"""GPU kernel of ``ops.Custom`` (``func_type="pyfunc"``): the inputs are copied to the host, the user's NumPy
function runs there, and its result(s) come back to the device in the inferred spec(s)."""
import cupy
import numpy


def _host(x):
    return cupy.asnumpy(x) if isinstance(x, cupy.ndarray) else x


def _one(value, spec, name):
    arr = numpy.asarray(value)
    if spec.shape is not None and tuple(arr.shape) != tuple(spec.shape):
        raise RuntimeError(f"For 'Custom' ('{name}'), the function returned shape {arr.shape}, but 'out_shape' "
                           f"declared {tuple(spec.shape)}.")
    return cupy.asarray(arr.astype(spec.dtype.to_numpy(), copy=False))


def _custom(prim, *inputs, out=None):
    result = prim.func(*(_host(x) for x in inputs))
    if isinstance(out, tuple):
        if not isinstance(result, (tuple, list)) or len(result) != len(out):
            raise RuntimeError(f"For 'Custom' ('{prim.func_name}'), the function must return {len(out)} arrays, but "
                               f"got {type(result).__name__}.")
        return tuple(_one(r, o, prim.func_name) for r, o in zip(result, out))
    return _one(result, out, prim.func_name)


KERNELS = {"Custom": _custom}
