"""Tensor methods of MindSpore 2.10 about a tensor's storage, device, hooks and runtime flags:
``requires_grad_``, ``to_``, ``set_``, ``storage``/``untyped_storage`` (:class:`UntypedStorage`),
``to_dlpack``/``from_dlpack``, ``index``, ``hooks``/``remove_hook``, ``data_sync``, ``wait_pipeline``,
``offload``, ``convert_bytes_to_tensor``, and the flags 2.10 exposes on every tensor (``init_flag``,
``const_arg``, ``param_info``, ``virtual_flag``, ``symbolic_shape``...).

Flags live in the tensor's ``_ext`` dict (created on first write), so a tensor that never sets one pays
nothing. DLPack goes through NumPy's protocol on the host: ``to_dlpack`` exports the host array's capsule,
``from_dlpack`` takes a capsule or any object with ``__dlpack__`` and wraps the data without a copy on the CPU.
"""
from __future__ import annotations

import os

import numpy as np

import mindspore.common.dtype as mstype
from mindspore._autodiff import tape as _tape
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore._runtime import backend as _backend
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import _DYNAMIC, Tensor

__all__ = ["UntypedStorage", "install"]


def _ext(t, create=False):
    ext = getattr(t, "_ext", None)
    if ext is None:
        if not create:
            return {}
        ext = t._ext = {}
    return ext


def _target():
    import mindspore.context as context
    return context.get_context("device_target")


def _init_of(self):
    init = getattr(self, "_init", None)
    return None if init is _DYNAMIC else init


def _flag(name, default):
    def get(self):
        return _ext(self).get(name, default)
    return property(get, doc=f"MindSpore 2.10's ``{name}`` flag of a tensor (default {default!r}).")


class UntypedStorage:
    """The bytes behind a tensor (``Tensor.untyped_storage()``): size, address, copy and resize in place.
    Not constructible directly, as in MindSpore."""

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create 'UntypedStorage' instances")

    @classmethod
    def _of(cls, tensor):
        s = object.__new__(cls)
        s._tensor = tensor
        return s

    def nbytes(self):
        return self._tensor.nbytes

    def size(self):
        return self._tensor.nbytes

    def element_size(self):
        return 1

    def data_ptr(self):
        return self._tensor.data_ptr()

    @property
    def device(self):
        return _target()

    @property
    def dtype(self):
        return mstype.uint8

    def is_shared(self):
        return False

    def _bytes(self):
        return np.ascontiguousarray(self._tensor.asnumpy()).view(np.uint8).reshape(-1)

    def copy_(self, src):
        """Copy the bytes of ``src`` (an UntypedStorage of the same size) into this storage."""
        if not isinstance(src, UntypedStorage):
            raise MSTypeError(f"For 'UntypedStorage.copy_', the 'src' must be UntypedStorage, but got {type(src)}.")
        if src.nbytes() != self.nbytes():
            raise MSRuntimeError(f"For 'UntypedStorage.copy_', the sizes must match, but got {self.nbytes()} and "
                                 f"{src.nbytes()}.")
        t = self._tensor
        host = src._bytes().copy().view(t.dtype.to_numpy()).reshape(t.shape)
        t._data = _backend.data_runtime().from_host(host)
        return self

    def resize_(self, size):
        """Resize to ``size`` bytes (0 frees the data: the tensor keeps its shape and dtype, without data)."""
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise MSValueError(f"For 'UntypedStorage.resize_', the 'size' must be a non-negative int, but got {size}.")
        t = self._tensor
        if size == 0:
            t._ext = dict(_ext(t), freed_shape=t.shape)
            t._data = _backend.data_runtime().from_host(np.zeros(0, t.dtype.to_numpy()))
            return self
        item = t.dtype.itemsize
        if size % item:
            raise MSValueError(f"For 'UntypedStorage.resize_', the 'size' must be a multiple of the element size "
                               f"{item}, but got {size}.")
        old = self._bytes()
        new = np.zeros(size, np.uint8)
        new[:min(size, old.size)] = old[:size]
        shape = _ext(t).get("freed_shape")
        arr = new.view(t.dtype.to_numpy())
        t._data = _backend.data_runtime().from_host(arr.reshape(shape) if shape and arr.size == np.prod(shape)
                                                    else arr)
        return self


# --- methods --------------------------------------------------------------------------------------------------
def requires_grad_(self, requires_grad=True):
    """Set whether autodiff computes this tensor's gradient (a Parameter's ``requires_grad``)."""
    if isinstance(self, Parameter):
        self.requires_grad = bool(requires_grad)
    else:
        _ext(self, True)["requires_grad"] = bool(requires_grad)


_DEVICES = ("Ascend", "CPU")


def to_(self, device=None, non_blocking=False):
    """Move this tensor's data, in place, to ``device`` ('Ascend' or 'CPU'); returns ``self``."""
    if device not in _DEVICES:
        raise ValueError(f"The value of 'to' must be one of {list(_DEVICES)}, but got {device}")
    if device == "Ascend" and _target() != "Ascend":
        raise MSRuntimeError(f"For 'Tensor.to_', the device 'Ascend' is not available: the current device target is "
                             f"{_target()}.")
    return self


def set_(self, source):
    """Make this tensor hold ``source``'s data (shared), shape and dtype; returns ``self``."""
    if not isinstance(source, Tensor):
        raise MSTypeError(f"For 'Tensor.set_', the 'source' must be Tensor, but got {type(source).__name__}.")
    self._data = source._buffer()
    self._dtype = source.dtype
    self._init = None
    return self


def untyped_storage(self):
    """The :class:`UntypedStorage` holding this tensor's bytes."""
    return UntypedStorage._of(self)


class _Capsule:
    """Hands a bare DLPack capsule to NumPy's ``from_dlpack``, which wants an object with ``__dlpack__``."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __dlpack__(self, *args, **kwargs):
        return self._capsule

    def __dlpack_device__(self):
        return (1, 0)   # kDLCPU


def to_dlpack(self):
    """A DLPack capsule of this tensor's data (on the host)."""
    return np.ascontiguousarray(self.asnumpy()).__dlpack__()


def from_dlpack(dlpack):
    """A Tensor over the data of a DLPack capsule (or an object exporting ``__dlpack__``)."""
    src = dlpack if hasattr(dlpack, "__dlpack__") else _Capsule(dlpack)
    if not hasattr(dlpack, "__dlpack__") and type(dlpack).__name__ != "PyCapsule":
        raise MSTypeError(f"For 'Tensor.from_dlpack', the input must be a DLPack capsule, but got "
                          f"{type(dlpack).__name__}.")
    try:
        arr = np.from_dlpack(src)
    except (RuntimeError, BufferError, TypeError) as e:
        raise MSRuntimeError(f"from_dlpack received an invalid capsule ({e}). Note that DLTensor capsules can be "
                             f"consumed only once.") from e
    return Tensor.from_numpy(arr)


def index(self, indices):
    """``x[indices[0], indices[1], ...]`` for a tuple of index Tensors (advanced indexing)."""
    if not isinstance(indices, (tuple, list)) or not all(isinstance(i, Tensor) or i is None for i in indices):
        raise MSTypeError(f"index(): argument 'indices' (position 1) must be tuple of Tensor, not "
                          f"{type(indices).__name__}.")
    return self[tuple(slice(None) if i is None else i for i in indices)]


def hooks(self):
    """The hook functions registered on this tensor by ``register_hook``, in registration order."""
    return list(_tape._HOOKS.get(id(self), {}).values())


def remove_hook(handle):
    """Remove a hook by its handle (what ``register_hook`` returned) or its id."""
    if isinstance(handle, _tape.HookHandle):
        handle.remove()
        return
    if isinstance(handle, bool) or not isinstance(handle, int):
        raise TypeError(f"argument 1 must be int, not {type(handle).__name__}")
    for hooks_of in _tape._HOOKS.values():
        hooks_of.pop(handle, None)


def data_sync(self, waiting=True):
    """Bring the host copy up to date with the device (waits for the device when ``waiting``)."""
    if waiting:
        import mindspore.runtime as runtime
        runtime.synchronize()


def wait_pipeline(self):
    """Wait until the operators producing this tensor have run (ours run synchronously)."""
    data_sync(self, True)


def is_init(self):
    """Whether this tensor's data was initialised by its initializer (``init_flag``)."""
    return _ext(self).get("init_flag", False)


def set_init_flag(self, flag):
    _ext(self, True)["init_flag"] = bool(flag)


def set_const_arg(self, const_arg=True):
    """Mark this tensor as a constant argument of a compiled graph (its value is specialised on); returns self."""
    if not isinstance(const_arg, bool):
        raise MSTypeError(f"For 'set_const_arg', the type of 'const_arg' should be 'bool', but got "
                          f"'{type(const_arg).__name__}'.")
    _ext(self, True)["const_arg"] = const_arg
    return self


def set_cast_dtype(self, dtype=None):
    """The dtype this tensor is cast to when it enters a network (mixed precision); ``None`` clears it."""
    _ext(self, True)["cast_dtype"] = None if dtype is None else mstype.to_ms_dtype(dtype)


def set_param_info(self, param_info):
    _ext(self, True)["param_info"] = param_info


def offload(self, file_path=""):
    """Write this tensor's bytes to ``file_path`` (``offload_file_path()`` then returns it); True on success."""
    if not isinstance(file_path, str):
        raise MSTypeError(f"For 'Tensor.offload', the 'file_path' must be str, but got {type(file_path).__name__}.")
    if not file_path:
        return False
    os.makedirs(os.path.dirname(os.path.abspath(file_path)), exist_ok=True)
    np.ascontiguousarray(self.asnumpy()).tofile(file_path)
    _ext(self, True)["offload_file_path"] = file_path
    return True


def offload_file_path(self):
    return _ext(self).get("offload_file_path", "")


def flush_from_cache(self):
    """Write back a cache-enabled parameter's host cache; a tensor without a cache has nothing to flush."""
    return None


def convert_bytes_to_tensor(bytes_data, shape, dtype):
    """A Tensor of ``shape`` and ``dtype`` over ``bytes_data`` (raw, C order)."""
    dtype = mstype.to_ms_dtype(dtype)
    arr = np.frombuffer(bytes(bytes_data), dtype=dtype.to_numpy()).reshape(tuple(shape)).copy()
    return Tensor.from_numpy(arr)


def assign_value_cpp(self, value):
    """Copy ``value``'s data into this tensor (same shape); returns ``self``."""
    if not isinstance(value, Tensor):
        raise MSTypeError(f"For 'assign_value', the 'value' must be Tensor, but got {type(value).__name__}.")
    self._data = value._buffer()
    self._dtype = value.dtype
    return self


_METHODS = {
    "requires_grad_": requires_grad_, "to_": to_, "set_": set_, "storage": untyped_storage,
    "untyped_storage": untyped_storage, "to_dlpack": to_dlpack, "from_dlpack": staticmethod(from_dlpack),
    "index": index, "hooks": hooks, "remove_hook": staticmethod(remove_hook), "data_sync": data_sync,
    "wait_pipeline": wait_pipeline, "is_init": is_init, "set_init_flag": set_init_flag,
    "set_const_arg": set_const_arg, "set_cast_dtype": set_cast_dtype, "set_param_info": set_param_info,
    "offload": offload, "offload_file_path": offload_file_path, "flush_from_cache": flush_from_cache,
    "convert_bytes_to_tensor": staticmethod(convert_bytes_to_tensor), "assign_value_cpp": assign_value_cpp,
    "init_flag": _flag("init_flag", False), "const_arg": _flag("const_arg", False),
    "param_info": property(_flag("param_info", None).fget, set_param_info,
                           doc="The ``ParamInfo`` of a tensor that stands for a parameter (settable, as in 2.10)."),
    "virtual_flag": _flag("virtual_flag", False),
    "symbolic_shape": _flag("symbolic_shape", None), "parent_tensor_": _flag("parent_tensor_", None),
    "index_of_parent_": _flag("index_of_parent_", None), "init_finished": _flag("init_finished", True),
    "delta_seed": 0, "init": property(_init_of, doc="The initializer of a tensor created with ``init``, else None."),
}


def install():
    """Put the methods onto Tensor (a name Tensor or Parameter already defines is left alone)."""
    for name, value in _METHODS.items():
        if name not in Tensor.__dict__ and not any(name in vars(k) for k in Tensor.__mro__[1:]):
            setattr(Tensor, name, value)


install()
