"""MindSpore 2.10's remaining ``mindspore.ops`` functions: ``cond`` (condition number), ``padding``,
``mixed_precision_cast``, ``move_to``, ``tensordump``, ``stop_gradient_``, the control helpers (``switch``,
``switch_layer``, ``geswitch``/``merge``), the compile-time predicates (``is_tensor_bool_cond``,
``is_sequence_*_unknown``), the functional environments (``environ_create/set/get/add``, ``env_get``),
iteration helpers (``iter_converter``, ``ms_hasnext``, ``ms_next``), ``tail``/``zip_operation``/``hyper_add``,
``J``, ``SliceGetItem``, ``array_reduce``/``distribute``, ``add_flags``, ``prim_arg_register`` and the registries
(``vm_impl_registry``/``get_vm_impl_fn``, ``tensor_operator_registry``).

In MindSpore several of these are graph-compiler internals that do nothing when called eagerly; here each
does what it stands for, eagerly and inside ``@ms.jit`` (where control flow on tensors stays the compiler's
``if``): ``switch(c, a, b)`` picks a branch, ``geswitch`` routes data to the false or true output and
``merge`` takes the one input that is present, an environment is an immutable key -> value map, and so on.
"""
from __future__ import annotations

import builtins
import functools
import inspect
import itertools
import os
import types

import numpy as np

from mindspore._core.primitive import Primitive
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import control_prims as _control_prims
from mindspore.ops._defs.array import Reshape, cached_prim
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_ext_func as _math_ext
from mindspore.ops.function import math_func as _math
from mindspore.ops.function import more_func as _more
from mindspore.ops.function import reduce_func as _reduce
from mindspore.ops.function.store_func import TCPStore  # noqa: F401 - an ops class, re-exported

__all__ = ["cond", "padding", "mixed_precision_cast", "move_to", "tensordump", "stop_gradient_", "switch",
           "switch_layer", "geswitch", "merge", "is_tensor_bool_cond", "is_sequence_shape_unknown",
           "is_sequence_value_unknown", "is_dynamic_sequence_element_unknown", "environ_create", "environ_set",
           "environ_get", "environ_add", "env_get", "iter_converter", "ms_hasnext", "ms_next", "tail",
           "zip_operation", "hyper_add", "J", "SliceGetItem", "array_reduce", "distribute", "add_flags", "prim_arg_register",
           "vm_impl_registry", "get_vm_impl_fn", "tensor_operator_registry", "reshape_", "P2POp", "kernel",
           "ms_kernel", "TCPStore"]


# --- linear algebra ------------------------------------------------------------------------------------------------
def _matrix_norm(a, p):
    absa = _math.abs(a)
    if p == "fro":
        return _math.sqrt(_reduce.sum(a * a, (-2, -1)))
    if p in (1, -1):
        col = _reduce.sum(absa, -2)
        return _reduce.amax(col, -1) if p == 1 else _reduce.amin(col, -1)
    if p in (float("inf"), float("-inf")):
        row = _reduce.sum(absa, -1)
        return _reduce.amax(row, -1) if p > 0 else _reduce.amin(row, -1)
    raise MSValueError(f"For 'cond', the 'p' must be one of None, 'fro', 'nuc', inf, -inf, 1, -1, 2, -2, but got {p}.")


def cond(A, p=None):  # noqa: N803 - MindSpore's name
    r"""The condition number of the matrix (or batch of matrices) ``A`` in the norm ``p``:
    :math:`\|A\|_p \|A^{-1}\|_p`; for ``p`` None, 2 or -2 the ratio of the largest to the smallest singular
    value (or its inverse), for 'nuc' the product of the sums of the singular values of ``A`` and its inverse.

    Examples:
        >>> ops.cond(ms.Tensor([[1., 2.], [3., 4.]]))   # 14.933
    """
    if not isinstance(A, Tensor):
        raise MSTypeError(f"For 'cond', the 'A' must be Tensor, but got {type(A).__name__}.")
    if A.ndim < 2:
        raise MSValueError(f"For 'cond', the 'A' must have at least 2 dimensions, but got {A.ndim}.")
    if p is None or p in (2, -2):
        s = _more.svd(A, compute_uv=False)
        big, small = _reduce.amax(s, -1), _reduce.amin(s, -1)
        return small / big if p == -2 else big / small
    if p == "nuc":
        return (_reduce.sum(_more.svd(A, compute_uv=False), -1)
                * _reduce.sum(_more.svd(_math_ext.inverse(A), compute_uv=False), -1))
    return _matrix_norm(A, p) * _matrix_norm(_math_ext.inverse(A), p)


# --- tensors -------------------------------------------------------------------------------------------------------
def padding(x, pad_dim_size=8):
    """Extend the last dimension of ``x`` from 1 to ``pad_dim_size``, filling with 0."""
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For 'Padding', the 'x' must be Tensor, but got {type(x).__name__}.")
    if isinstance(pad_dim_size, bool) or not isinstance(pad_dim_size, int) or pad_dim_size <= 0:
        raise MSValueError(f"For 'Padding', the 'pad_dim_size' must be a positive int, but got {pad_dim_size}.")
    if x.ndim < 1 or x.shape[-1] != 1:
        raise MSValueError(f"For 'Padding', the last dimension of 'x' must be 1, but got: "
                           f"{x.shape[-1] if x.ndim else x.shape}.")
    if pad_dim_size == 1:
        return x
    zeros = _array.zeros(tuple(x.shape[:-1]) + (pad_dim_size - 1,), x.dtype)
    return _array.concat((x, zeros), -1)


def mixed_precision_cast(dst_dtype, x):
    """Cast the floating-point tensors in ``x`` (a tensor, or nested tuples/lists/dicts of them) to
    ``dst_dtype``; everything else is returned as is (lists become tuples, as in MindSpore)."""
    if isinstance(x, Tensor):
        return _array.cast(x, dst_dtype) if mstype.is_float(x.dtype) else x
    if isinstance(x, (tuple, list)):
        return tuple(mixed_precision_cast(dst_dtype, v) for v in x)
    if isinstance(x, dict):
        return {k: mixed_precision_cast(dst_dtype, v) for k, v in x.items()}
    return x


def move_to(input, to="CPU", blocking=True):  # noqa: A002 - MindSpore's name
    """A copy of ``input`` on ``to`` ('CPU' or 'Ascend'); tensors live with this build's backend."""
    if not isinstance(input, Tensor):
        raise MSTypeError(f"For 'move_to', the 'input' must be Tensor, but got {type(input).__name__}.")
    if to not in ("Ascend", "CPU"):
        raise MSValueError(f"For 'move_to', the 'to' must be 'Ascend' or 'CPU', but got {to!r}.")
    if not isinstance(blocking, bool):
        raise MSTypeError(f"For 'move_to', the 'blocking' must be bool, but got {type(blocking).__name__}.")
    return _array.identity(input)


_DUMP_COUNTER = _control_prims.DUMP_COUNTER   # shared with ops.TensorDump / ops.DumpGradient (one numbering)


def tensordump(file_name, tensor, mode="out"):
    """Save ``tensor`` as ``<file_name>_<dtype>_<n>.npy`` (n counts the dumps of this process)."""
    if not isinstance(file_name, str) or not file_name:
        raise MSTypeError(f"For 'tensordump', the 'file_name' must be a non-empty str, but got {file_name!r}.")
    if not isinstance(tensor, Tensor):
        raise MSTypeError(f"For 'tensordump', the 'tensor' must be Tensor, but got {type(tensor).__name__}.")
    if mode not in ("out", "in", "all"):
        raise MSValueError(f"For 'tensordump', the 'mode' must be one of ['out', 'in', 'all'], but got {mode!r}.")
    base = file_name[:-4] if file_name.endswith(".npy") else file_name
    directory = os.path.dirname(os.path.abspath(base))
    os.makedirs(directory, exist_ok=True)
    arr = tensor.asnumpy()
    dtype_name = str(tensor.dtype).lower()
    np.save(f"{base}_{dtype_name}_{next(_DUMP_COUNTER)}.npy", arr.astype(np.float32) if dtype_name == "bfloat16"
            else arr)


def stop_gradient_(input):  # noqa: A002 - MindSpore's name
    """Cut ``input`` from the gradient, in place: later uses of it are constants for autodiff."""
    if not isinstance(input, Tensor):
        raise MSTypeError(f"For 'stop_gradient_', the 'input' must be Tensor, but got {type(input).__name__}.")
    input._ad = None


# --- control -------------------------------------------------------------------------------------------------------
def _truth(c):
    if isinstance(c, Tensor):
        if c.size != 1:
            raise MSValueError(f"Only tensor which shape is () or (1,) can be converted to bool, but got tensor shape "
                               f"is {c.shape}")
        return builtins.bool(c.asnumpy().reshape(()))
    return builtins.bool(c)


def switch(cond, true_branch, false_branch):  # noqa: A002
    """``true_branch`` when ``cond`` (a bool or a one-element tensor) holds, else ``false_branch``."""
    return true_branch if _truth(cond) else false_branch


def switch_layer(index, branches):
    """``branches[index]`` (``index`` an int or a scalar int tensor; negative counts from the end)."""
    if not isinstance(branches, (tuple, list)) or not branches:
        raise MSTypeError(f"For 'switch_layer', the 'branches' must be a non-empty tuple, but got {type(branches)}.")
    i = int(index.asnumpy().reshape(())) if isinstance(index, Tensor) else index
    if not -len(branches) <= i < len(branches):
        raise IndexError(f"For 'switch_layer', the 'index' must be in [{-len(branches)}, {len(branches)}), but got "
                         f"{i}.")
    return branches[i]


def geswitch(data, pred):
    """Route ``data`` to the output its predicate selects: ``(None, data)`` when ``pred`` holds, ``(data, None)``
    otherwise; :func:`merge` joins the branches again."""
    return (None, data) if _truth(pred) else (data, None)


def merge(inputs):
    """``(the one input present, its index)`` of the branch outputs ``inputs`` (the others are None)."""
    present = [(i, v) for i, v in enumerate(inputs) if v is not None]
    if not present:
        raise MSValueError("For 'Merge', one of the inputs must be present, but all are None.")
    i, v = present[0]
    return v, Tensor(i, mstype.int32)


def is_tensor_bool_cond(x):
    """Whether ``x`` can be the condition of an ``if`` (a tensor of one element; other shapes are an error)."""
    if isinstance(x, Tensor):
        _truth(x)
        return True
    return False


def is_sequence_shape_unknown(x):
    """Whether the length of the sequence ``x`` is only known at run time (never, for a Python sequence)."""
    return False


def is_sequence_value_unknown(x):
    """Whether the elements of the sequence ``x`` are only known at run time (a static sequence: False)."""
    return False


def is_dynamic_sequence_element_unknown(x):
    """Whether the element type of the dynamic sequence ``x`` is unknown (a static sequence: False)."""
    return False


# --- environments --------------------------------------------------------------------------------------------------
class _Environ:
    """An immutable key -> value map (MindSpore's EnvType, used by gradients of free variables)."""

    __slots__ = ("items",)

    def __init__(self, items=None):
        self.items = dict(items or {})

    def __repr__(self):
        return f"Environ({self.items!r})"


def _env_key(key):
    if isinstance(key, Tensor):
        return ("tensor", key.asnumpy().tobytes(), str(key.dtype))
    return key


def environ_create():
    """A new, empty environment."""
    return _Environ()


def _check_env(env, api):
    if not isinstance(env, _Environ):
        raise MSTypeError(f"For '{api}', the 'env' must be an environment (made by environ_create), but got "
                          f"{type(env).__name__}.")


def environ_set(env, key, value):
    """A new environment: ``env`` with ``key`` set to ``value``."""
    _check_env(env, "environ_set")
    items = dict(env.items)
    items[_env_key(key)] = value
    return _Environ(items)


def environ_get(env, key, default):
    """The value of ``key`` in ``env``, or ``default``."""
    _check_env(env, "environ_get")
    return env.items.get(_env_key(key), default)


env_get = environ_get


def environ_add(env1, env2):
    """The environment holding the keys of both; a key in both has the sum of the two values."""
    _check_env(env1, "environ_add")
    _check_env(env2, "environ_add")
    items = dict(env1.items)
    for k, v in env2.items.items():
        items[k] = hyper_add(items[k], v) if k in items else v
    return _Environ(items)


# --- sequences -----------------------------------------------------------------------------------------------------
def iter_converter(x):
    """``x`` as a tuple to iterate: a tuple/list, a dict's keys, or a tensor's slices along axis 0."""
    if isinstance(x, (tuple, list)):
        return tuple(x)
    if isinstance(x, dict):
        return tuple(x.keys())
    if isinstance(x, Tensor):
        return tuple(x[i] for i in range(x.shape[0]))
    raise MSTypeError(f"For 'iter_converter', the input must be a tuple, list, dict or Tensor, but got "
                      f"{type(x).__name__}.")


def ms_hasnext(x):
    """Whether the iterable ``x`` (from :func:`iter_converter`) has an element left."""
    return len(iter_converter(x)) > 0


def ms_next(x):
    """``(first element, the rest)`` of the iterable ``x``."""
    seq = iter_converter(x)
    if not seq:
        raise MSValueError("For 'ms_next', the input has no element left.")
    return seq[0], seq[1:]


def tail(x):
    """The tuple (or list) ``x`` without its first element."""
    if not isinstance(x, (tuple, list)):
        raise MSTypeError(f"For 'tail', the input must be a tuple or a list, but got {type(x).__name__}.")
    if not x:
        raise MSValueError("For 'tail', the input must not be empty.")
    return x[1:]


def zip_operation(*seqs):
    """``zip`` of tuples/lists as a tuple of tuples."""
    if not seqs:
        raise MSValueError("For 'zip_operation', at least one sequence is required.")
    for s in seqs:
        if not isinstance(s, (tuple, list)):
            raise MSTypeError(f"For 'zip_operation', every input must be a tuple or a list, but got "
                              f"{type(s).__name__}.")
    return tuple(zip(*seqs))


def hyper_add(x, y):
    """``add`` over (nested) tuples/lists of tensors and numbers, leaf by leaf."""
    if isinstance(x, (tuple, list)) and isinstance(y, (tuple, list)):
        if len(x) != len(y):
            raise MSValueError(f"For 'hyper_add', the sequences must have the same length, but got {len(x)} and "
                               f"{len(y)}.")
        return tuple(hyper_add(a, b) for a, b in zip(x, y))
    return _math.add(x, y) if isinstance(x, Tensor) or isinstance(y, Tensor) else x + y


def array_reduce(fn, x, axis):
    """Reduce ``x`` along ``axis`` (an int or a tuple of ints) with the binary function ``fn``."""
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    for ax in sorted((a % x.ndim for a in axes), reverse=True):
        x = functools.reduce(fn, [x[(slice(None),) * ax + (i,)] for i in range(x.shape[ax])])
    return x


def distribute(x, shape):
    """Broadcast ``x`` to ``shape`` (a tuple of ints): the inverse of :func:`array_reduce`, which MindSpore's
    gradient of ``array_reduce`` uses (``distribute(dout, shape(x))``).

    Examples:
        >>> ops.distribute(ms.Tensor([1., 2.]), (3, 2)).shape
        (3, 2)
    """
    if not isinstance(shape, (tuple, list)) or not all(isinstance(s, int) and not isinstance(s, bool) for s in shape):
        raise MSTypeError(f"For 'distribute', the 'shape' must be a tuple of ints, but got {shape!r}.")
    if not isinstance(x, Tensor):
        x = Tensor(x)
    return _array.broadcast_to(x, tuple(shape))


# --- transforms and primitives --------------------------------------------------------------------------------------
def J(fn):  # noqa: N802 - MindSpore's name
    """The J transform: ``J(fn)(*args)`` is ``(fn(*args), bprop)`` where ``bprop(dout)`` gives the gradients with
    respect to ``args`` (reverse mode, on the PYNATIVE tape)."""
    def transformed(*args):
        out, vjp_fn = _VJP[0](fn, *args)

        def bprop(dout):
            grads = vjp_fn(dout)
            return grads if isinstance(grads, tuple) else (grads,)
        return out, bprop
    return transformed


#: ``ops.vjp``, handed down by :mod:`mindspore._ops_misc_ext` (autodiff sits above the operators).
_VJP = [None]


def SliceGetItem(slice_obj, attr):  # noqa: N802 - MindSpore's name
    """``slice_obj.start``, ``.stop`` or ``.step``."""
    if not isinstance(slice_obj, slice):
        raise MSTypeError(f"For 'SliceGetItem', the input must be a slice, but got {type(slice_obj).__name__}.")
    if attr not in ("start", "stop", "step"):
        raise MSValueError(f"For 'SliceGetItem', the attribute must be 'start', 'stop' or 'step', but got {attr!r}.")
    return getattr(slice_obj, attr)


#: The Reshape primitive (``ops.reshape_(x, shape)``), as MindSpore exports it.
reshape_ = cached_prim(Reshape)


def add_flags(fn=None, **flags):
    """Attach compilation flags to ``fn`` (its ``_func_graph_flags`` dict); usable as ``@add_flags(k=v)``."""
    for k, v in flags.items():
        if not isinstance(v, bool):
            raise MSTypeError(f"For 'add_flags', the value of flag '{k}' must be bool, but got {type(v).__name__}.")

    def deco(f):
        existing = getattr(f, "_func_graph_flags", {})
        f._func_graph_flags = {**existing, **flags}
        return f
    return deco(fn) if fn is not None else deco


def prim_arg_register(fn):
    """Decorator for a Primitive's ``__init__``: initialises the Primitive and records each argument (defaults
    included) as an attribute of the instance and in ``init_attrs``."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        Primitive.__init__(self, getattr(type(self), "substitute_name", type(self).__name__))
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        del arguments["self"]
        init_attrs = getattr(self, "init_attrs", None)
        for name, value in arguments.items():
            object.__setattr__(self, name, value)
            if isinstance(init_attrs, dict):
                init_attrs[name] = value
        fn(self, *args, **kwargs)
    deco.decorated_func = fn
    return deco


class VmImplRegistry(dict):
    """Python implementations of primitives by name: ``@vm_impl_registry.register("Add")``."""

    def register(self, prim):
        name = prim if isinstance(prim, str) else getattr(prim, "name", None) or getattr(prim, "__name__", None)
        if not isinstance(name, str):
            raise MSTypeError(f"For 'vm_impl_registry.register', the key must be a str or a Primitive, but got "
                              f"{type(prim).__name__}.")

        def deco(fn):
            self[name] = fn
            return fn
        return deco

    def get(self, key, default=None):
        name = key if isinstance(key, str) else getattr(key, "name", None)
        return super().get(name, default)


vm_impl_registry = VmImplRegistry()


def get_vm_impl_fn(prim):
    """The Python implementation registered for ``prim`` (a Primitive or its name), or None."""
    fn = vm_impl_registry.get(prim)
    if fn is None:
        return None
    return fn(prim) if isinstance(prim, Primitive) and getattr(fn, "__ms_vm_factory__", False) else fn


class TensorOperatorRegistry:
    """The functions Tensor methods are built on, by name (``tensor_operator_registry.get("add")``)."""

    def __init__(self):
        self._fns = {}

    def register(self, name, fn):
        if not isinstance(name, str):
            raise MSTypeError(f"For 'register', the 'name' must be str, but got {type(name).__name__}.")
        self._fns[name] = fn

    def get(self, name):
        if name not in self._fns:
            raise MSValueError(f"For 'tensor_operator_registry', the operator '{name}' is not registered.")
        return self._fns[name]

    def __contains__(self, name):
        return name in self._fns

    def __getattr__(self, name):
        fns = self.__dict__.get("_fns", {})
        if name in fns:
            return fns[name]
        raise AttributeError(f"'Registry' object has no attribute '{name}'")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._fns))


tensor_operator_registry = TensorOperatorRegistry()


class P2POp:
    """One point-to-point operation for ``batch_isend_irecv``: ``op`` ("isend"/"irecv", or the function of that
    name), the tensor to send or receive into, the peer rank, the group and the tag."""

    def __init__(self, op, tensor, peer, group=None, tag=0):
        name = op if isinstance(op, str) else getattr(op, "__name__", None)
        if name not in ("isend", "irecv"):
            raise MSTypeError(f"Expected op to be of type isend or irecv, but got {op}")
        if not isinstance(tensor, Tensor):
            raise MSTypeError(f"Expected tensor to be Tensor, but got {type(tensor)}.")
        if isinstance(peer, bool) or not isinstance(peer, int):
            raise MSTypeError("For P2POp, the peer must be int")
        if group is not None and not isinstance(group, str):
            raise MSTypeError(f"For P2POp, the group must be str or None, but got {type(group)}.")
        if isinstance(tag, bool) or not isinstance(tag, int):
            raise MSTypeError(f"For P2POp, the tag must be int, but got {type(tag)}.")
        self.op = op
        self.op_name = name
        self.tensor = tensor
        self.peer = peer
        self.group = group
        self.tag = tag


# --- the Hybrid DSL, run as Python ---------------------------------------------------------------------------------
def _output_tensor(shape, dtype):
    return np.zeros(tuple(shape), np.dtype(str(dtype).lower()) if not isinstance(dtype, np.dtype) else dtype)


class _BlockRealize:
    def __init__(self, *tensors):
        self.tensors = tensors

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _loop(*args):
    return range(*args)


def _grid(extents):
    return itertools.product(*(range(e) for e in extents))


def _cast(name):
    return lambda x: np.asarray(x).astype(name)[()]


#: The names a Hybrid DSL function may use beyond Python: tensors, loops and scalar math on NumPy.
_HYBRID_INTRINSICS = {
    "output_tensor": _output_tensor, "allocate": _output_tensor, "block_realize": _BlockRealize,
    "serial": _loop, "vectorize": _loop, "parallel": _loop, "reduce": _loop, "grid": _grid,
    "sqrt": np.sqrt, "rsqrt": lambda x: 1.0 / np.sqrt(x), "exp": np.exp, "log": np.log, "sin": np.sin,
    "cos": np.cos, "tan": np.tan, "tanh": np.tanh, "sinh": np.sinh, "cosh": np.cosh, "asin": np.arcsin,
    "acos": np.arccos, "atan": np.arctan, "atan2": np.arctan2, "abs": np.abs, "floor": np.floor,
    "ceil": np.ceil, "round": np.round, "trunc": np.trunc, "sign": np.sign, "power": np.power, "erf": None,
    "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite, "max": builtins.max, "min": builtins.min,
    "float16": _cast("float16"), "float32": _cast("float32"), "float64": _cast("float64"),
    "int8": _cast("int8"), "int16": _cast("int16"), "int32": _cast("int32"), "int64": _cast("int64"),
}
del _HYBRID_INTRINSICS["erf"]


def kernel(fn=None, reg_info=None, compile_attrs=None):
    """Mark a Hybrid DSL function for ``ops.Custom`` (``func_type="hybrid"`` or ``"pyfunc"``); called directly on
    NumPy arrays it runs as Python, with the DSL's names (``output_tensor``, ``allocate``, ``block_realize``,
    ``serial``/``vectorize``/``parallel``/``reduce``/``grid`` loops, scalar math and casts) defined.

    Examples:
        >>> @ops.kernel
        ... def add(a, b):
        ...     c = output_tensor(a.shape, a.dtype)
        ...     for i in range(a.shape[0]):
        ...         c[i] = a[i] + b[i]
        ...     return c
    """
    if compile_attrs is not None and not isinstance(compile_attrs, dict):
        raise MSTypeError(f"For 'kernel', the 'compile_attrs' must be a dict, but got {type(compile_attrs).__name__}.")
    if reg_info is not None and not isinstance(reg_info, (str, dict, tuple, list)):
        raise MSTypeError(f"For 'kernel', the 'reg_info' must be a str, dict or tuple of them, but got "
                          f"{type(reg_info).__name__}.")

    def deco(func):
        if not isinstance(func, types.FunctionType):
            raise MSTypeError(f"For 'kernel', the decorated object must be a Python function, but got "
                              f"{type(func).__name__}.")
        namespace = dict(func.__globals__)
        for name, value in _HYBRID_INTRINSICS.items():
            namespace.setdefault(name, value)
        runnable = types.FunctionType(func.__code__, namespace, func.__name__, func.__defaults__, func.__closure__)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return runnable(*args, **kwargs)
        wrapper.ms_kernel_flag = True
        wrapper.reg_info = reg_info
        wrapper.compile_attrs = compile_attrs or {}
        return wrapper
    return deco(fn) if fn is not None else deco


ms_kernel = kernel
