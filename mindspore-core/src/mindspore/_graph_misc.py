"""Top-level compilation and autodiff knobs of MindSpore 2.10 (``mindspore.lazy_inline``, ``no_inline``,
``set_recursion_limit``, ``saved_tensors_hooks``, ``enable_dynamic``, ``Symbol``, ``set_dump``, ...).

What each one does here:

* ``lazy_inline`` / ``no_inline`` mark a Cell (its ``cell_init_args``, ``no_inline`` flag) or a function
  (``fn.no_inline = True``) exactly as MindSpore does; they are compile hints that leave results unchanged.
* ``set_recursion_limit`` sets ``max_call_depth``, the depth of nested function/Cell calls graph compilation
  evaluates before it stops with MindSpore's "Exceed function call depth limit" error.
* ``saved_tensors_hooks`` pushes a (pack, unpack) pair that the PYNATIVE tape applies to the tensors each
  recorded operation saves for its bprop (its tensor inputs): ``pack_hook`` runs when the operation is
  recorded, ``unpack_hook`` when backward needs the value, and the bprop computes with what unpack returned.
* ``enable_dynamic`` checks its Tensor/Symbol shapes and records them on the function, as MindSpore does;
  our compiler specialises per input signature, so dynamic dimensions never need a recompile declaration.
* ``set_dump`` marks Cells and Primitives for Ascend data dump (a warning on other targets, as in 2.10).
"""
from __future__ import annotations

import functools
import inspect
import logging
import types
import warnings

import mindspore.context as context
from mindspore._autodiff import tape as _tape
from mindspore._errors import MSTypeError
from mindspore.common.tensor import Tensor

__all__ = ["lazy_inline", "no_inline", "set_recursion_limit", "saved_tensors_hooks", "register_saved_tensors_hooks",
           "enable_dynamic", "Symbol", "set_dump", "ms_memory_recycle", "mindio_preload", "set_mindio_server_info",
           "DeviceCtx", "flops_collection"]

_logger = logging.getLogger("mindspore")


# --- inlining hints -----------------------------------------------------------------------------------------
def lazy_inline(fn=None, attrs=None, policy=None):
    """Decorate a Cell's ``__init__`` so that every instance built with the same arguments shares one compiled
    subgraph (MindSpore's pipeline-parallel compile-time saving). Records ``cell_init_args`` (and, with
    ``policy="front"``, ``no_inline = False``) on the instance.

    Examples:
        >>> class Block(nn.Cell):
        ...     @lazy_inline
        ...     def __init__(self, n):
        ...         super().__init__()
        ...         self.dense = nn.Dense(n, n)
    """
    def wrap(init):
        if inspect.isclass(init):
            raise ValueError(f"The lazy_inline should decorate the __init__ function, not the class {init.__name__}."
                             f" File: {inspect.getfile(init)}")
        if init.__name__ != "__init__":
            raise ValueError(f"The lazy_inline should decorate the __init__ function, not the function: "
                             f"{init.__name__}. line: {init.__code__.co_firstlineno} in {init.__code__.co_filename}")

        @functools.wraps(init)
        def deco(self, *args, **kwargs):
            new_args = []
            if attrs is None:
                bound = inspect.signature(init).bind(self, *args, **kwargs).arguments
                del bound["self"]
                new_args = bound.values()
            init(self, *args, **kwargs)
            if isinstance(policy, str) and policy == "front":
                self.no_inline = False
            elif policy is not None:
                raise ValueError("policy must be None or 'front'")
            if attrs is not None:
                if isinstance(attrs, list):
                    for attr in attrs:
                        if not isinstance(attr, str):
                            raise ValueError("attr must be a string")
                        if hasattr(self, attr):
                            new_args.append(getattr(self, attr))
                elif isinstance(attrs, str):
                    if hasattr(self, attrs):
                        new_args = getattr(self, attrs)
                else:
                    raise ValueError("attrs must be list or string")
            self.cell_init_args = "lazy_inline_" + type(self).__name__ + str(new_args)
        return deco

    return wrap(fn) if fn is not None else wrap


def no_inline(fn=None):
    """Mark a function (or Cell method) to be kept as its own subgraph rather than inlined: sets
    ``fn.no_inline = True`` and returns ``fn``."""
    def wrap(f):
        f.no_inline = True
        return f
    return wrap(fn) if fn is not None else wrap


def set_recursion_limit(recursion_limit=1000):
    """The depth of nested function calls graph compilation evaluates before it reports the recursion
    (``Exceed function call depth limit``). A positive int; default 1000."""
    if isinstance(recursion_limit, bool) or not isinstance(recursion_limit, int):
        raise TypeError(f"The input value must be int, but got '{type(recursion_limit).__name__}'")
    if recursion_limit <= 0:
        raise ValueError(f"The input value must be int and must > 0, but got '{recursion_limit}' with type 'int'.")
    context._set_context(max_call_depth=recursion_limit)   # the new API: no deprecation warning


# --- saved tensors hooks ------------------------------------------------------------------------------------
class saved_tensors_hooks:  # noqa: N801 - MindSpore's name
    """Customise how the tensors saved for backward are packed (when an operation is recorded) and unpacked
    (when its gradient is computed), in PYNATIVE mode.

    Args:
        pack_hook (Callable): ``pack_hook(tensor) -> Any``, the stored form of a saved tensor.
        unpack_hook (Callable): ``unpack_hook(packed) -> Tensor``, the tensor the bprop computes with.

    Examples:
        >>> def f(x, y):
        ...     with ms.saved_tensors_hooks(lambda t: t + 1, lambda t: t):
        ...         return x * y
        >>> ms.grad(f, grad_position=(0, 1))(ops.ones(2), ops.ones(2))   # each saved factor became 2
    """

    def __init__(self, pack_hook, unpack_hook):
        for name, hook in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
            if not callable(hook):
                raise TypeError(f"For 'saved_tensors_hooks', the '{name}' must be callable, but got "
                                f"{type(hook).__name__}.")
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        _tape.SAVED_TENSORS_HOOKS.append((self.pack_hook, _checked_unpack(self.unpack_hook)))
        return self

    def __exit__(self, *exc):
        _tape.SAVED_TENSORS_HOOKS.pop()
        return False


def _checked_unpack(unpack_hook):
    def unpack(packed):
        t = unpack_hook(packed)
        if not isinstance(t, Tensor):
            raise MSTypeError(f"For 'saved_tensors_hooks', the 'unpack_hook' must return a Tensor, but got "
                              f"{type(t).__name__}.")
        return t
    return unpack


def register_saved_tensors_hooks(pack_hook, unpack_hook):
    """Decorator form of :class:`saved_tensors_hooks`: every call of the decorated function runs under the
    hooks."""
    hooks = saved_tensors_hooks(pack_hook, unpack_hook)

    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with saved_tensors_hooks(hooks.pack_hook, hooks.unpack_hook):
                return fn(*args, **kwargs)
        return wrapper
    return deco


# --- dynamic shapes -----------------------------------------------------------------------------------------
from mindspore.common.symbol import Symbol  # noqa: E402,F401 - MindSpore's home of it is mindspore.common.symbol


def _check_dynamic_arg(arg, name):
    if isinstance(arg, (tuple, list)):
        if not arg:
            raise TypeError(f"The decorator enable_dynamic only supports Tensor or a tuple/list of Tensor, but the "
                            f"argument : {name} is empty.")
        return all(_check_dynamic_arg(a, name) for a in arg)
    if not isinstance(arg, Tensor):
        raise TypeError(f"The decorator enable_dynamic only supports Tensor or a tuple/list of Tensor, but the "
                        f"argument : {name} is type of:{type(arg)}.")
    shape = arg.shape
    return shape is None or any(d is None or d == -1 or d == -2 or isinstance(d, Symbol) for d in shape)


def enable_dynamic(**kwargs):
    """Declare which arguments of a ``jit`` function have dynamic shapes (Tensors whose shape holds ``None``
    dimensions): checked and recorded on the function as ``enable_dynamic`` (index -> (name, value))."""
    if not kwargs:
        raise ValueError("When using decorator enable_dynamic, the input cannot be empty!")
    for name, arg in kwargs.items():
        if not _check_dynamic_arg(arg, name):
            raise TypeError(f"When using decorator enable_dynamic, the shape of argument '{name}' at least have one "
                            f"None.")

    def decorator(func):
        if not isinstance(func, (types.FunctionType, types.MethodType)):
            raise ValueError(f"Decorator enable_dynamic can only be used for function or method decrocated by "
                             f"ms.jit, but got {func}.")
        names = [n for n in inspect.signature(func).parameters if n != "self"]
        if len(kwargs) > len(names):
            raise ValueError(f"When using decorator enable_dynamic, the number of arguments {len(kwargs)} exceeds "
                             f"the number of function arguments {len(names)}.")
        dynamic_args = {}
        for key, value in kwargs.items():
            if key not in names:
                raise ValueError(f"When using decorator enable_dynamic, the argument '{key}' is not an argument of "
                                 f"{func.__name__}.")
            dynamic_args[names.index(key)] = (key, value)
        inner = inspect.unwrap(func)
        target = inner.__func__ if isinstance(inner, types.MethodType) else inner
        target.enable_dynamic = dynamic_args
        return func
    return decorator


# --- dump, memory, MindIO -----------------------------------------------------------------------------------
def set_dump(target, enabled=True):
    """Enable or disable Ascend data dump for a Cell (recursively) or a Primitive: sets the ``dump`` flag that
    the Ascend dump reads. Other targets warn, as MindSpore does, and keep the flag for a later Ascend run."""
    import mindspore.nn as nn
    from mindspore._core.primitive import Primitive
    if not isinstance(target, (nn.Cell, Primitive)):
        raise ValueError(f"The \"target\" parameter must be an instance of Cell or Primitive, but got an instance "
                         f"of {type(target)}.")
    if not isinstance(enabled, bool):
        raise ValueError("The \"enabled\" parameter must be bool.")
    current = context.get_context("device_target")
    if current != "Ascend":
        warnings.warn(f"Current device_target is {current}, which is not supported by set_dump. Only Ascend device "
                      f"target is supported currently. If you have Ascend device, consider set device_target to "
                      f"Ascend before calling set_dump.", stacklevel=2)
    _set_dump(target, enabled, nn.Cell, Primitive)


def _set_dump(target, enabled, cell_cls, prim_cls):
    if isinstance(target, cell_cls):
        target.add_flags(dump=enabled)
        for cell in target.cells():
            _set_dump(cell, enabled, cell_cls, prim_cls)
        for value in vars(target).values():
            if isinstance(value, prim_cls) and "dump" in value.attrs:
                _set_dump(value, enabled, cell_cls, prim_cls)
    else:
        target.add_prim_attr("dump", "true" if enabled else "false")


def ms_memory_recycle():
    """Free what MindSpore caches for compiled networks (their compiled graphs) and the device memory pool's
    cached blocks; the next call of each network compiles again."""
    from mindspore._pipeline import compiler
    import mindspore.runtime as runtime
    compiler.invalidate_all()
    runtime.empty_cache()


def flops_collection(phase="train"):
    """The FLOPs of the most recently compiled network of ``phase`` ('train': a network in training mode;
    'eval'/'predict': not): ``(full_model_flops, full_hardware_flops, shard_model_flops, shard_hardware_flops,
    is_dynamic_shape)``, counted as :class:`mindspore.train.FlopsUtilizationCollector` counts them (on one device
    the shard figures are the full ones; without recomputation hardware FLOPs are model FLOPs)."""
    if not isinstance(phase, str):
        raise TypeError(f"For 'flops_collection', the 'phase' must be str, but got {type(phase).__name__}.")
    if not phase.startswith(("train", "eval", "predict")):
        raise ValueError(f"For 'flops_collection', the 'phase' must start with 'train', 'eval' or 'predict', but got "
                         f"'{phase}'.")
    import mindspore.nn as nn
    from mindspore._pipeline import compiler
    from mindspore.train.callback import _flops_collector
    training = phase.startswith("train")
    owners = [o for o in list(compiler._CACHES.keys())
              if isinstance(o, nn.Cell) and o.training == training and compiler._CACHES.get(o)]
    graph = _flops_collector._compiled_graph(owners[-1]) if owners else None
    if graph is None:
        raise RuntimeError(f"For 'flops_collection', no network of phase '{phase}' has been compiled: run it in "
                           f"GRAPH_MODE (or under ms.jit) first.")
    flops, dynamic = _flops_collector.graph_flops(graph)
    return flops, flops, flops, flops, dynamic


_MINDIO_SERVER_INFO = {"memfs.data_block_pool_capacity_in_gb": "100"}


def set_mindio_server_info(data_block_pool_capacity_in_gb=100):
    """MindIO server settings (the data-block pool in GB): validated and kept for the MindIO client."""
    value = data_block_pool_capacity_in_gb
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"The 'data_block_pool_capacity_in_gb' must be int, but got '{type(value).__name__}'.")
    if value <= 0:
        raise ValueError(f"The 'data_block_pool_capacity_in_gb' must be int and must > 0, but got '{value}' with type "
                         f"'int'.")
    _MINDIO_SERVER_INFO["memfs.data_block_pool_capacity_in_gb"] = str(data_block_pool_capacity_in_gb)


def mindio_preload(ckpt_file_name):
    """Preload a checkpoint through MindIO (Huawei's ``mindio_acp`` client). Returns False when MindIO is not
    installed, as MindSpore does; True once the file is preloaded."""
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'mindio_preload', the type of 'ckpt_file_name' should be 'str', but got type "
                        f"'{type(ckpt_file_name).__name__}'.")
    try:
        import mindio_acp
    except ImportError:
        return False
    if not hasattr(mindio_acp, "preload"):
        _logger.warning("MindIO module does not have preload method")
        return False
    mindio_acp.preload(ckpt_file_name)
    return True


# --- devices ------------------------------------------------------------------------------------------------
_DEVICE_STACK = []


class DeviceCtx:
    """Run the body on another device: ``with ms.DeviceCtx("CPU"):`` sets the device target (and id) and
    restores the previous one on exit."""

    def __init__(self, name: str, device_id=None):
        self.name = name
        self.device_id = device_id

    def __enter__(self):
        valid = ["CPU", "GPU", "Ascend", "meta"]
        if self.name not in valid:
            raise ValueError(f"For DeviceCtx, the name must be one of {valid}, but got {self.name}.")
        if self.device_id is not None and self.device_id < 0:
            raise ValueError("For DeviceCtx, the device_id must be greater than or equal to 0.")
        _DEVICE_STACK.append((context.get_context("device_target_requested"), context.get_context("device_id")))
        if self.name != "meta":
            context._set_context(device_target=self.name)
        context._set_context(device_id=0 if self.device_id is None else self.device_id)
        return self

    def __exit__(self, *exc):
        target, device_id = _DEVICE_STACK.pop()
        if target is not None:
            context._set_context(device_target=target)
        context._set_context(device_id=device_id)
        return False

