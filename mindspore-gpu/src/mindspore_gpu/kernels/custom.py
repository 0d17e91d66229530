"""GPU kernel of ``ops.Custom``: for ``func_type="pyfunc"``/``"hybrid"`` the inputs are copied to the host, the
user's NumPy function runs there, and its result(s) come back to the device in the inferred spec(s); for ``"aot"``
the library's main function (a CUDA launcher) gets the device pointers and the current stream (outputs zero-filled,
workspaces allocated once per signature and kept)."""
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


def _device_pointer(a):
    return a.data.ptr


def _custom_aot(prim, inputs, out):
    specs = out if isinstance(out, tuple) else (out,)
    arrays = [cupy.ascontiguousarray(x) for x in inputs]
    outs = [cupy.zeros(spec.shape, spec.dtype.to_numpy()) for spec in specs]
    kernel = prim.aot_kernel([a.shape for a in arrays], [a.dtype.name for a in arrays], [o.shape for o in outs],
                             [o.dtype.name for o in outs], "GPU")
    if kernel.workspaces is None:
        kernel.workspaces = [cupy.zeros(max(size, 1), cupy.uint8) for size in kernel.workspace_sizes]
    kernel.launch([_device_pointer(a) for a in arrays + outs + kernel.workspaces],
                  cupy.cuda.get_current_stream().ptr)
    return tuple(outs) if isinstance(out, tuple) else outs[0]


def _custom(prim, *inputs, out=None):
    if prim.func_type == "aot":
        return _custom_aot(prim, inputs, out)
    result = prim.func(*(_host(x) for x in inputs))
    if isinstance(out, tuple):
        if not isinstance(result, (tuple, list)) or len(result) != len(out):
            raise RuntimeError(f"For 'Custom' ('{prim.func_name}'), the function must return {len(out)} arrays, but "
                               f"got {type(result).__name__}.")
        return tuple(_one(r, o, prim.func_name) for r, o in zip(result, out))
    return _one(result, out, prim.func_name)


KERNELS = {"Custom": _custom}
