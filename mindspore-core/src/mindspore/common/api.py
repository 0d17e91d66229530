"""``ms.jit`` and ``ms.mutable``.

``@ms.jit`` compiles a function (or a method, or a Cell) with the GRAPH_MODE compiler in either
mode: parse -> infer -> passes -> schedule, once per input signature (API.md 5.9: tensors by shape
and dtype, Python scalars and tuples by value, ``ms.mutable`` values by type), then runs the
schedule. Inside a function that is being compiled, a ``@jit`` function is simply evaluated as
part of the enclosing graph.
"""
from __future__ import annotations

import contextlib
import functools
import inspect

from mindspore._errors import MSRuntimeError, MSTypeError

__all__ = ["jit", "mutable", "JitConfig", "jit_class"]


#: ``mindspore.nn.Cell``, installed here by ``mindspore.nn.cell`` (nn sits above the compiler, and the optimizers of
#: ``mindspore.nn.optim`` decorate their ``construct`` with :func:`jit` while nn is being imported).
CELL_CLASS = [None]


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False, backend="", **options):
    """Compile ``function`` (a function, a method or a Cell) into a graph.

    Usable as ``@jit`` or ``@jit(...)``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> @ms.jit
        ... def f(x, y):
        ...     return x * y + 1
        >>> print(f(ms.Tensor(np.ones(3, np.float32)), ms.Tensor(np.ones(3, np.float32))))
        [2. 2. 2.]
    """
    # MindSpore 2.10's checks and words (a backend name is checked at the first call)
    if capture_mode not in ("ast", "bytecode", "trace"):
        raise ValueError(f"For 'jit', the 'capture_mode' must be str and must be in '['ast', 'bytecode', 'trace']', "
                         f"but got '{capture_mode}'.")
    if jit_level not in ("O0", "O1"):
        raise ValueError(f"For 'jit', the 'jit_level' must be str and must be in '['O0', 'O1']', but got "
                         f"'{jit_level}'.")
    if dynamic not in (0, 1) or isinstance(dynamic, bool):
        raise ValueError(f"For 'jit', the 'dynamic' must be in range of [0, 1], but got {dynamic} with type "
                         f"'{type(dynamic).__name__}'.")
    if not isinstance(fullgraph, bool):
        raise TypeError(f"For 'jit', the 'fullgraph' must be a bool, but got {type(fullgraph).__name__}.")

    def wrap(fn):
        cell = CELL_CLASS[0]
        if cell is not None and isinstance(fn, cell):
            object.__setattr__(fn, "_jit", True)
            return fn
        if not callable(fn):
            raise MSTypeError(f"For 'jit', the decorated object must be a function or a Cell, but got "
                              f"{type(fn).__name__}.")
        if getattr(getattr(fn, "__func__", fn), "__ms_jit__", False):
            return fn    # already compiled (e.g. ``net.construct = jit(net.construct)`` on a @jit method)

        @functools.wraps(fn)
        def run(*args, **kwargs):
            if backend not in ("", "ms_backend", "GE"):
                raise MSRuntimeError(f"Invalid backend name: {backend}, you should register custom backend first")
            from mindspore._infer import staging
            if staging.active():
                from mindspore._infer.interpret import call_value
                return call_value(fn, args, kwargs)
            from mindspore._autodiff import tape
            if tape.active():
                from mindspore._autodiff.recorded import call_on_tape
                return call_on_tape(run, fn, args, kwargs)
            from mindspore._pipeline.compiler import cache_for_call, compiled_call
            return compiled_call(cache_for_call(run, args), fn, args, kwargs, name=getattr(fn, "__name__", "jit"))
        run.__ms_jit__ = True
        run.__ms_jit_fn__ = fn
        return run

    if function is None:
        return wrap
    return wrap(function)


class JitConfig:
    """Compilation options for ``Cell.set_jit_config``/``ms.jit`` (stored, passed to the compiler).

    As in MindSpore 2.10, ``jit_level`` defaults to ``""`` (the context's choice), each option is validated, and an
    explicit level picks the ``backend`` entry (``"ms_backend"`` for O0/O1, ``"GE"`` for O2) unless one is given.
    """

    def __init__(self, jit_level="", exc_mode="auto", jit_syntax_level="", debug_level="RELEASE", infer_boost="off",
                 **kwargs):
        kwargs.pop("suppress_infer_boost_warning", None)
        if jit_level not in ("", "O0", "O1", "O2"):
            raise ValueError("For 'jit_level' must be one of ['O0', 'O1', 'O2'].")
        if exc_mode not in ("auto", "sink", "no_sink"):
            raise ValueError("For 'exc_mode' must be one of '['auto', 'sink', 'no_sink']'.")
        if jit_syntax_level not in ("", "STRICT", "COMPATIBLE", "LAX"):
            raise ValueError("For 'jit_syntax_level' must be one of '['STRICT', 'LAX']'.")
        if debug_level not in ("RELEASE", "DEBUG"):
            raise ValueError("For 'debug_level' must be one of '['RELEASE', 'DEBUG']'.")
        if infer_boost not in ("", "on", "off"):
            raise ValueError("For 'infer_boost' must be one of '['on', 'off']'.")
        self.jit_config_dict = dict(kwargs, jit_level=jit_level, exc_mode=exc_mode, jit_syntax_level=jit_syntax_level,
                                    debug_level=debug_level, infer_boost=infer_boost)
        if "backend" not in self.jit_config_dict and jit_level:
            self.jit_config_dict["backend"] = "GE" if jit_level == "O2" else "ms_backend"


class _MutableInt(int):
    __ms_mutable__ = True


class _MutableFloat(float):
    __ms_mutable__ = True


class _MutableTuple(tuple):
    __ms_mutable__ = True


class _MutableList(list):
    __ms_mutable__ = True


def mutable(input_data, dynamic_len=False):
    """Mark a graph input as variable: a new value does not recompile the graph.

    Tensors, and tuples/lists/dicts of them, are accepted; a Python scalar becomes a 0-d tensor input
    of the graph (its value is read at each call).
    """
    from mindspore.common.tensor import Tensor
    if not isinstance(dynamic_len, bool):
        # (2.10 names the type of the first input here)
        raise TypeError(f"For 'mutable', the second input should be bool, but got: {type(input_data).__name__}")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError(f"For 'mutable', when the variable_len is True, the first input should be list or tuple, "
                        f"but got: {type(input_data).__name__}")

    def valid(x):
        if isinstance(x, (tuple, list)):
            return all(valid(e) for e in x)
        if isinstance(x, dict):
            return all(valid(e) for e in x.values())
        return isinstance(x, (Tensor, bool, int, float)) and type(x).__module__ != "numpy"
    if not valid(input_data):
        raise TypeError(f"For 'mutable', the 'input_data' should be one of (bool, int, float, Tensor, tuple, list, "
                        f"dict) or their nested structures with no self-reference, but got "
                        f"{type(input_data).__name__}: {input_data}.")
    if isinstance(input_data, bool):    # bool can not be subclassed: it stays a compile-time constant
        return input_data
    if isinstance(input_data, int):
        return _MutableInt(input_data)
    if isinstance(input_data, float):
        return _MutableFloat(input_data)
    if isinstance(input_data, tuple):
        return _MutableTuple(mutable(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else x
                             for x in input_data)
    if isinstance(input_data, list):
        return _MutableList(mutable(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else x
                            for x in input_data)
    return input_data


def jit_class(cls):
    """Mark a user-defined class whose instances compiled code uses (their attributes and methods are
    evaluated as part of the graph, as for any object the graph reads); returns the class."""
    if not isinstance(cls, type):
        raise MSTypeError(f"Decorator jit_class can only be used for class type, but got {cls!r}.")
    if any(k.__name__ == "Cell" and k.__module__ == "mindspore.nn.cell" for k in cls.__mro__):
        raise MSTypeError(f"Decorator jit_class is used for user-defined classes and cannot be used for nn.Cell: "
                          f"{cls!r}.")
    cls.__ms_class__ = True
    return cls


class _PyNativeExecutor:
    """The PYNATIVE executor's switches that code written for MindSpore reaches for (``_pynative_executor``):
    whether operators run now are recorded for differentiation, and waiting for the device."""

    @staticmethod
    def enable_grad():
        """Whether operators are recorded for differentiation now."""
        from mindspore._autodiff import tape
        return tape.GRAD_ENABLED[0]

    @staticmethod
    def set_enable_grad(flag):
        """Record operators for differentiation (``True``) or not (``False``) from now on."""
        from mindspore._autodiff import tape
        tape.GRAD_ENABLED[0] = bool(flag)

    @staticmethod
    def sync():
        """Wait until the device has finished everything launched."""
        from mindspore.runtime import synchronize
        synchronize()


_pynative_executor = _PyNativeExecutor()


class _no_grad(contextlib.ContextDecorator):  # noqa: N801 - MindSpore's name
    """Context manager (and decorator) under which nothing is recorded for differentiation (PYNATIVE): what the
    body computes is a constant to every ``grad``/``value_and_grad`` around it; the previous state comes back on
    exit.

    Examples:
        >>> import mindspore as ms
        >>> def f(x):
        ...     with ms._no_grad():
        ...         y = x * x
        ...     return x * y
        >>> ms.grad(f)(ms.Tensor(3.0))  # x * (constant 9)
        Tensor(shape=[], dtype=Float32, value= 9)
    """

    def __init__(self):
        self.prev_state = False
        self._saved = []   # one entry per active use: the same object decorates a function that may recurse

    def __enter__(self):
        self.prev_state = _pynative_executor.enable_grad()
        self._saved.append(self.prev_state)
        _pynative_executor.set_enable_grad(False)

    def __exit__(self, exc_type, exc_val, exc_tb):
        _pynative_executor.set_enable_grad(self._saved.pop())
        return False


def _function_forbid_reuse(func):
    """Mark ``func`` (a function drawing random numbers) as one whose compiled graph must not be shared between
    call sites; returns ``func``. Graphs here are compiled per call of the enclosing function, so the mark is all
    there is to do."""
    if not inspect.isfunction(func):
        raise MSTypeError(f"Decorator _function_forbid_reuse can only be used for function type, but got {func}.")
    func.__function_forbid_reuse__ = True
    return func


# the other names of MindSpore's `mindspore.common.api`, defined elsewhere here
from mindspore._module_paths import reexport as _reexport  # noqa: E402

__getattr__ = _reexport(__name__, {"mindspore": "ms_memory_recycle flops_collection"})
