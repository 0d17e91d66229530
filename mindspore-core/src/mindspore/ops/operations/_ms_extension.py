"""The Python half of the C++ API ``ms_extension/api.h`` that :class:`mindspore.ops.CustomOpBuilder` compiles
against (its header is ``mindspore/include/ms_extension/``, shipped with mindspore-core).

The C++ ``ms::Tensor`` of a compiled extension is a host view: a NumPy array (its memory), the MindSpore type id
of its dtype and, for an input, the ``mindspore.Tensor`` it came from. The header's pybind11 ``type_caster``
calls the functions here:

- :func:`to_host` (a ``mindspore.Tensor`` argument -> ``(array, type_id, write_back)``; a graph's staged tensor
  is refused with a clear error): the tensor's data on the host, read
  through the runtime that owns its buffer. On the CPU backend this is the buffer itself (no copy: a kernel
  that writes into an input writes into the tensor); a tensor of another device (a GPU, the test-only STRICT
  target) is copied to the host explicitly, and when the C++ tensor is released (the call has returned) a
  kernel's writes into that copy are moved back into the tensor through the runtime.
- :func:`from_host` (an array made by C++ -> ``mindspore.Tensor``): the array moves to the current device
  through the runtime's ``from_host`` (no copy on the CPU backend).
- :func:`empty`, :func:`full`, :func:`make`: host memory for tensors made in C++ (``ms::Tensor(type, shape)``,
  ``ms::zeros/ones/tensor``).
- :func:`call_op`: the ``ms::Tensor`` methods that are operators (``cast``, ``reshape``, ``contiguous``, ...),
  run as MindSpore's functional operators.

Type ids are MindSpore's ``TypeId`` numbers (``kNumberTypeFloat32`` is 43, ...), the values of the C++ enum.
"""
from __future__ import annotations

import numpy as np

from mindspore.common.tensor import Tensor as _Tensor
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore._infer.staging import StagedTensor as _StagedTensor
from mindspore._runtime import backend as _backend
from mindspore.common import dtype as mstype

__all__ = ["TYPE_IDS", "type_id_of", "dtype_of", "is_tensor", "to_host", "from_host", "empty", "full", "make",
           "contiguous", "call_op"]

#: MindSpore's ``TypeId`` numbers of the tensor element types (the order of ``mindapi/base/type_id.h``).
TYPE_IDS = {
    "Bool": 30, "Int8": 32, "Int16": 33, "Int32": 34, "Int64": 35, "UInt8": 37, "UInt16": 38, "UInt32": 39,
    "UInt64": 40, "Float16": 42, "Float32": 43, "Float64": 44, "BFloat16": 45, "Float8E4M3FN": 46,
    "Float8E5M2": 47, "HiFloat8": 48, "Complex64": 51, "Complex128": 52,
}
_BY_ID = {v: k for k, v in TYPE_IDS.items()}
_BY_ID[49] = "Float64"   # kNumberTypeDouble


def type_id_of(dtype) -> int:
    """The ``TypeId`` number of a MindSpore dtype."""
    tid = TYPE_IDS.get(str(dtype))
    if tid is None:
        raise MSTypeError(f"For 'CustomOpBuilder', the tensor dtype {dtype} has no C++ TypeId in ms_extension.")
    return tid


def dtype_of(type_id: int):
    """The MindSpore dtype of a ``TypeId`` number; raises for an id that is not a tensor element type."""
    name = _BY_ID.get(int(type_id))
    dtype = None if name is None else mstype.to_ms_dtype(name)
    if dtype is None or dtype.to_numpy() is None:
        raise MSValueError(f"For 'ms::Tensor', the data type id {int(type_id)} is not a tensor element type this "
                           f"build can allocate; use one of the ms::TypeId::kNumberType* values of a NumPy-backed "
                           f"dtype ({', '.join(sorted(k for k in TYPE_IDS if k != 'HiFloat8'))}).")
    return dtype


def _np_dtype(type_id):
    return dtype_of(type_id).to_numpy()


def is_tensor(obj) -> bool:
    return isinstance(obj, _Tensor)


def to_host(tensor):
    """``(array, type_id, write_back)``: a host NumPy array with the tensor's data, the type id of its dtype, and
    ``None`` when the array is the tensor's own memory (host-memory backends), else a function of the array that
    puts the kernel's writes back into the tensor (through the runtime) when the kernel changed the copy."""
    if isinstance(tensor, _StagedTensor):
        raise MSRuntimeError(
            "For 'CustomOpBuilder', a compiled custom op function was called inside a graph being compiled "
            "(GRAPH_MODE 'construct' or '@jit'): its C++ kernel runs on tensor values, so it runs in PYNATIVE mode "
            "only. Call it outside the compiled function, or run the network in PYNATIVE mode.")
    buf = tensor._buffer()
    arr = _backend.to_host(buf)
    if not isinstance(arr, np.ndarray):   # a runtime must give NumPy here; refuse anything else loudly
        raise MSTypeError(f"For 'CustomOpBuilder', the runtime gave a {type(arr).__name__} for a tensor's host data, "
                          "not a numpy.ndarray.")
    if isinstance(buf, np.ndarray) and np.shares_memory(arr, buf):
        return arr, type_id_of(tensor.dtype), None
    arr = np.array(arr, copy=True)        # a writable host copy of device data
    before = arr.tobytes()

    def write_back(current):
        current = np.asarray(current)
        if current.tobytes() != before:   # the kernel wrote into this input: the tensor gets the new data
            tensor._data = _backend.from_host(np.ascontiguousarray(current))
    return arr, type_id_of(tensor.dtype), write_back


def from_host(array, type_id):
    """A ``mindspore.Tensor`` holding ``array`` (moved to the current device; no copy on the CPU backend)."""
    arr = np.asarray(array)
    dtype = dtype_of(type_id)
    if arr.dtype != dtype.to_numpy():
        arr = arr.view(dtype.to_numpy()) if arr.dtype.itemsize == dtype.to_numpy().itemsize else \
            arr.astype(dtype.to_numpy())
    return _Tensor._make(_backend.from_host(arr), dtype)


def _shape(shape):
    dims = tuple(int(d) for d in shape)
    if any(d < 0 for d in dims):
        raise MSValueError(f"For 'ms::Tensor', the shape must not have a negative dimension, but got {list(dims)}.")
    return dims


def empty(type_id, shape):
    """Uninitialised host memory (zero-filled, so that a kernel that forgets an element gives 0, not garbage)."""
    return np.zeros(_shape(shape), _np_dtype(type_id))


def full(type_id, shape, value):
    return np.full(_shape(shape), value, _np_dtype(type_id))


def make(values, type_id):
    """``ms::tensor(value[s], dtype)``: a 0-d tensor for a scalar, 1-d for a list."""
    return np.array(values).astype(_np_dtype(type_id))


def contiguous(array):
    return np.ascontiguousarray(array)


def _ops():
    import mindspore.ops.functional as F    # the functional API: a layer above this module's imports
    return F


def call_op(name, tensor, *args):
    """Run the ``ms::Tensor`` method ``name`` as a MindSpore operator; returns a Tensor or a list of Tensors."""
    F = _ops()
    if name == "cast":
        return F.cast(tensor, dtype_of(args[0]))
    if name == "contiguous":
        arr, tid, _ = to_host(tensor)
        return from_host(np.ascontiguousarray(arr), tid)
    if name == "reshape":
        return F.reshape(tensor, tuple(args[0]))
    if name == "flatten":
        return F.flatten(tensor, start_dim=args[0], end_dim=args[1])
    if name == "chunk":
        return list(F.chunk(tensor, args[0], args[1]))
    if name == "index_select":
        return F.index_select(tensor, args[0], args[1])
    if name == "repeat":
        return F.tile(tensor, tuple(args[0]))      # torch-style repeat: tile, leading dims added
    if name == "repeat_interleave":
        repeats, dim, output_size = args
        out = F.repeat_interleave(tensor, repeats, dim)
        axis = 0 if dim is None else dim
        if output_size is not None and out.shape[axis] != output_size:
            raise MSValueError(f"For 'ms::Tensor::repeat_interleave', 'output_size' is {output_size}, but the "
                               f"repeated dimension has {out.shape[axis]} elements.")
        return out
    raise MSValueError(f"For 'ms::Tensor', the method '{name}' is not known.")
