"""CPU kernel of ``ops.Custom``: for ``func_type="pyfunc"``/``"hybrid"`` the user's function on the NumPy inputs, its
result checked against and cast to the inferred output spec(s); for ``"aot"`` the library's main function on the
arrays' host pointers (outputs zero-filled, workspaces allocated once per signature and kept)."""
import numpy as np


def _one(value, spec, name):
    arr = np.asarray(value)
    if spec.shape is not None and tuple(arr.shape) != tuple(spec.shape):
        raise RuntimeError(f"For 'Custom' ('{name}'), the function returned shape {arr.shape}, but 'out_shape' "
                           f"declared {tuple(spec.shape)}.")
    return np.ascontiguousarray(arr.astype(spec.dtype.to_numpy(), copy=False))


def _custom_aot(prim, inputs, out):
    specs = out if isinstance(out, tuple) else (out,)
    arrays = [np.ascontiguousarray(x) for x in inputs]
    outs = [np.zeros(spec.shape, spec.dtype.to_numpy()) for spec in specs]
    kernel = prim.aot_kernel([a.shape for a in arrays], [a.dtype.name for a in arrays], [o.shape for o in outs],
                             [o.dtype.name for o in outs], "CPU")
    if kernel.workspaces is None:
        kernel.workspaces = [np.zeros(max(size, 1), np.uint8) for size in kernel.workspace_sizes]
    kernel.launch([a.ctypes.data for a in arrays + outs + kernel.workspaces])
    return tuple(outs) if isinstance(out, tuple) else outs[0]


def _custom(prim, *inputs, out=None):
    if prim.func_type == "aot":
        return _custom_aot(prim, inputs, out)
    result = prim.func(*inputs)
    if isinstance(out, tuple):
        if not isinstance(result, (tuple, list)) or len(result) != len(out):
            raise RuntimeError(f"For 'Custom' ('{prim.func_name}'), the function must return {len(out)} arrays, but "
                               f"got {type(result).__name__}.")
        return tuple(_one(r, o, prim.func_name) for r, o in zip(result, out))
    return _one(result, out, prim.func_name)


KERNELS = {"Custom": _custom}
