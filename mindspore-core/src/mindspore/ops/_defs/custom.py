"""``ops.Custom``: an operator whose kernel is the user's Python function (``func_type="pyfunc"``, or a Hybrid
DSL function decorated by ``ops.kernel`` with ``func_type="hybrid"``, run as Python), or a function of the user's
compiled library (``func_type="aot"``, ``func="path/lib.so:Func"`` or a ``.cc``/``.cpp``/``.cu`` source compiled
when the operator is made; see :mod:`mindspore.ops._aot`).

The function receives the inputs as host NumPy arrays (constants as themselves) and returns an array (or a
tuple of arrays, one per output) of the declared shapes and dtypes. ``out_shape`` and ``out_dtype`` are values
(a shape / a dtype, or lists of them for several outputs) or callables of the input shapes / dtypes. The op runs
in PYNATIVE and inside compiled graphs alike (the backends' ``Custom`` kernel calls the function, copying device
buffers to the host and back on a GPU). Its gradient is the ``bprop`` given (``bprop(*inputs, out, dout)``
returning one gradient per input, as for ``Cell.bprop``); without one, differentiating through it is an error.

An AOT operator's shape and type come from ``out_shape``/``out_dtype`` as above, or, when they are None, from the
library's ``FuncInferShape``/``FuncInferType``; its attributes are the ``value=``s of the registration info
(``CustomRegOp(...).attr(name, "required", "all", value=v)``), which the kernel reads through ``AotExtra``. It has
several outputs when the registration info lists several, or when ``out_shape``/``out_dtype`` give several.
"""
from mindspore._core.primitive import Primitive
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops import _aot

__all__ = ["Custom", "PRIMITIVES"]

_SUPPORTED = ("pyfunc", "hybrid", "aot")
_KNOWN = ("hybrid", "akg", "tbe", "aot", "pyfunc", "julia", "aicpu")


def _is_shape(value):
    return isinstance(value, (tuple, list)) and all(isinstance(d, int) and not isinstance(d, bool) for d in value)


class Custom(Primitive):
    """``ops.Custom(func, out_shape, out_dtype, func_type="pyfunc", bprop=None, reg_info=None)``.

    Examples:
        >>> import numpy as np
        >>> add = ops.Custom(lambda a, b: a + b, out_shape=lambda a, b: a, out_dtype=lambda a, b: a,
        ...                  func_type="pyfunc")
        >>> add(ms.Tensor(np.ones(2, np.float32)), ms.Tensor(np.ones(2, np.float32)))   # [2. 2.]
    """

    def __init__(self, func, out_shape=None, out_dtype=None, func_type="hybrid", bprop=None, reg_info=None):
        super().__init__("Custom")
        if not isinstance(func_type, str) or func_type not in _KNOWN:
            raise MSValueError(f"For 'Custom', 'func_type' must be one of {list(_KNOWN)}, but got {func_type!r}.")
        if func_type not in _SUPPORTED:
            raise MSValueError(f"For 'Custom', the func_type '{func_type}' needs a kernel compiler this build does not "
                               f"have (its backends run Python kernels and AOT libraries): use func_type='pyfunc' "
                               f"with a NumPy function, or 'aot' with a C++/CUDA library.")
        self.aot_attrs = {}
        self.aot_library = None
        if func_type == "aot":
            self._init_aot(func, out_shape, out_dtype, reg_info)
        elif not callable(func):
            raise MSTypeError(f"For 'Custom', 'func' must be callable when func_type is '{func_type}', but got "
                              f"{type(func).__name__}.")
        if func_type == "hybrid":
            if not getattr(func, "ms_kernel_flag", False):
                raise MSTypeError("For 'Custom', a 'hybrid' function must be decorated by ops.kernel.")
            # the function runs as Python on the host: the one output has the first input's shape and dtype
            # unless told otherwise
            out_shape = (lambda *shapes: shapes[0]) if out_shape is None else out_shape
            out_dtype = (lambda *dtypes: dtypes[0]) if out_dtype is None else out_dtype
        if (out_shape is None or out_dtype is None) and func_type != "aot":
            raise MSValueError("For 'Custom', 'out_shape' and 'out_dtype' must be given when func_type is 'pyfunc'.")
        if bprop is not None and not callable(bprop):
            raise MSTypeError(f"For 'Custom', 'bprop' must be callable, but got {type(bprop).__name__}.")
        self.func = func
        if func_type != "aot":
            self.func_name = getattr(func, "__name__", "custom")
        self.out_shape = out_shape
        self.out_dtype = out_dtype
        self.func_type = func_type
        self.user_bprop = bprop
        self.reg_info = reg_info
        self.add_prim_attr("func_type", func_type)
        self.add_prim_attr("func_name", self.func_name)

    def _init_aot(self, func, out_shape, out_dtype, reg_info):
        prefix = f"For 'Custom', 'func_type': aot, 'func': {func}"
        self.aot_path, self.func_name = _aot.resolve(func, prefix)
        infos = _reg_infos(reg_info)
        from mindspore.context import get_context
        target = get_context("device_target")
        chosen = [i for i in infos if i.get("target") in (None, "", target)] or infos
        for info in chosen:
            for item in info.get("attr") or ():
                if isinstance(item, dict) and item.get("name") and item.get("value") is not None:
                    self.aot_attrs[item["name"]] = item["value"]
                    self.add_prim_attr(item["name"], item["value"])
        counts = [len(i.get("outputs") or ()) for i in chosen]
        self.aot_outputs = max(counts) if counts else 0
        for declared in (out_shape, out_dtype):
            if isinstance(declared, (tuple, list)) and declared and not _is_shape(declared):
                self.aot_outputs = max(self.aot_outputs, len(declared))
        self.aot_kernels = {}

    def __getstate__(self):
        # a copy (copy.deepcopy of a network) loads the library and prepares its kernels again
        state = super().__getstate__()
        if self.func_type == "aot":
            state["aot_kernels"] = {}
            state["aot_library"] = None
        return state

    def _aot_lib(self):
        if self.aot_library is None:
            self.aot_library = _aot.AotLibrary.get(self.aot_path)
        return self.aot_library

    def aot_kernel(self, in_shapes, in_dtypes, out_shapes, out_dtypes, device):
        """The :class:`mindspore.ops._aot.AotKernel` of this operator for one signature (made, and its ``FuncInit``
        run, once); backends call its ``launch`` with their buffers' pointers."""
        key = (device, tuple(map(tuple, in_shapes)), tuple(map(str, in_dtypes)), tuple(map(tuple, out_shapes)),
               tuple(map(str, out_dtypes)))
        kernel = self.aot_kernels.get(key)
        if kernel is None:
            kernel = self.aot_kernels[key] = _aot.AotKernel(self._aot_lib(), self.func_name, self.aot_attrs,
                                                            in_shapes, in_dtypes, out_shapes, out_dtypes, device)
        return kernel

    def infer_shape(self, *inputs):
        if self.out_shape is None:
            return self._aot_lib().infer_shape(self.func_name, self.aot_attrs, inputs, self.aot_outputs)
        shape = self.out_shape(*inputs) if callable(self.out_shape) else self.out_shape
        if _is_shape(shape):
            return tuple(shape)
        if isinstance(shape, (tuple, list)) and shape and all(_is_shape(s) for s in shape):
            return tuple(tuple(s) for s in shape)
        raise MSTypeError(f"For 'Custom', 'out_shape' must give a shape (a tuple of ints) or a list of shapes, but "
                          f"got {shape!r}.")

    def infer_dtype(self, *inputs):
        if self.out_dtype is None:
            return self._aot_lib().infer_type(self.func_name, self.aot_attrs, inputs, self.aot_outputs)
        dtype = self.out_dtype(*inputs) if callable(self.out_dtype) else self.out_dtype
        if isinstance(dtype, (tuple, list)):
            return tuple(mstype.to_ms_dtype(d) for d in dtype)
        return mstype.to_ms_dtype(dtype)

    def bprop(self, *args):
        if self.user_bprop is None:
            raise MSRuntimeError(f"For 'Custom' ('{self.func_name}'), computing a gradient needs the 'bprop' argument "
                                 f"(bprop(*inputs, out, dout) returning one gradient per input).")
        grads = self.user_bprop(*args)
        return tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)


def _reg_infos(reg_info):
    """The registration info(s) as a list of dicts (``reg_info`` may be one, a list, or their JSON text)."""
    if reg_info is None:
        return []
    items = reg_info if isinstance(reg_info, (list, tuple)) else [reg_info]
    out = []
    for item in items:
        if isinstance(item, str):
            import json
            item = json.loads(item)
        if not isinstance(item, dict):
            raise MSTypeError(f"For 'Custom', 'reg_info' must be a dict (CustomRegOp(...).get_op_info()), a JSON "
                              f"string of one, or a list of them, but got {type(item).__name__}.")
        out.append(item)
    return out


PRIMITIVES = [Custom]
