"""``ops.Custom``: an operator whose kernel is the user's Python function (``func_type="pyfunc"``, or a Hybrid
DSL function decorated by ``ops.kernel`` with ``func_type="hybrid"``, run as Python).

The function receives the inputs as host NumPy arrays (constants as themselves) and returns an array (or a
tuple of arrays, one per output) of the declared shapes and dtypes. ``out_shape`` and ``out_dtype`` are values
(a shape / a dtype, or lists of them for several outputs) or callables of the input shapes / dtypes. The op runs
in PYNATIVE and inside compiled graphs alike (the backends' ``Custom`` kernel calls the function, copying device
buffers to the host and back on a GPU). Its gradient is the ``bprop`` given (``bprop(*inputs, out, dout)``
returning one gradient per input, as for ``Cell.bprop``); without one, differentiating through it is an error.
"""
from mindspore._core.primitive import Primitive
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.common import dtype as mstype

__all__ = ["Custom", "PRIMITIVES"]

_SUPPORTED = ("pyfunc", "hybrid")
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
                               f"have (its backends run Python kernels): use func_type='pyfunc' with a NumPy function.")
        if not callable(func):
            raise MSTypeError(f"For 'Custom', 'func' must be callable when func_type is '{func_type}', but got "
                              f"{type(func).__name__}.")
        if func_type == "hybrid":
            if not getattr(func, "ms_kernel_flag", False):
                raise MSTypeError("For 'Custom', a 'hybrid' function must be decorated by ops.kernel.")
            # the function runs as Python on the host: the one output has the first input's shape and dtype
            # unless told otherwise
            out_shape = (lambda *shapes: shapes[0]) if out_shape is None else out_shape
            out_dtype = (lambda *dtypes: dtypes[0]) if out_dtype is None else out_dtype
        if out_shape is None or out_dtype is None:
            raise MSValueError("For 'Custom', 'out_shape' and 'out_dtype' must be given when func_type is 'pyfunc'.")
        if bprop is not None and not callable(bprop):
            raise MSTypeError(f"For 'Custom', 'bprop' must be callable, but got {type(bprop).__name__}.")
        self.func = func
        self.func_name = getattr(func, "__name__", "custom")
        self.out_shape = out_shape
        self.out_dtype = out_dtype
        self.func_type = func_type
        self.user_bprop = bprop
        self.reg_info = reg_info
        self.add_prim_attr("func_type", func_type)
        self.add_prim_attr("func_name", self.func_name)

    def infer_shape(self, *inputs):
        shape = self.out_shape(*inputs) if callable(self.out_shape) else self.out_shape
        if _is_shape(shape):
            return tuple(shape)
        if isinstance(shape, (tuple, list)) and shape and all(_is_shape(s) for s in shape):
            return tuple(tuple(s) for s in shape)
        raise MSTypeError(f"For 'Custom', 'out_shape' must give a shape (a tuple of ints) or a list of shapes, but "
                          f"got {shape!r}.")

    def infer_dtype(self, *inputs):
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


PRIMITIVES = [Custom]
